"""The rules site generator: the pages MkDocs builds from the catalogue, the features and the suite.

Nothing here is typed in twice. The rule pages come from the rule catalogue
and the feature files (read through :func:`~scorpion_conformance.suite.scenarios.load_cases`),
the comparison from the named rule sets and ``comparison.yaml``, the notation
reference from the step library, the report from real runs of the suite.
``docs/hooks.py`` hands :mod:`.mkdocs_hooks` to MkDocs; every other module
works without MkDocs and is unit-tested on its own.

>>> from scorpion_conformance.site import card_html
>>> "sc-red" in card_html("9D")
True
"""

from .cards import card_html, column_html, position_html
from .catalogue import Catalogue, Rule, holds_in, load_catalogue
from .diagrams import expand_diagrams, parse_diagram
from .rulepages import rules_pages
from .text import GeneratedPage

__all__ = [
    "Catalogue",
    "GeneratedPage",
    "Rule",
    "card_html",
    "column_html",
    "expand_diagrams",
    "holds_in",
    "load_catalogue",
    "parse_diagram",
    "position_html",
    "rules_pages",
]
