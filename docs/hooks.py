"""MkDocs hooks of the rules site (see ``hooks:`` in mkdocs.yml).

The work is done in :mod:`scorpion_conformance.site.mkdocs_hooks`, where it
can be imported and tested; this file only hands its hooks to MkDocs.
"""

from scorpion_conformance.site.mkdocs_hooks import (  # noqa: F401 (MkDocs looks the hooks up by name)
    on_config,
    on_files,
    on_page_content,
    on_page_markdown,
)
