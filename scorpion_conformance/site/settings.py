"""Where the site lives and where its source links point, from configuration with local defaults.

``mkdocs.yml`` reads ``SCORPION_SITE_URL`` and ``SCORPION_REPO_URL`` (the
Pages workflow sets both). A local build sets neither; then the site's URL is
the one ``mkdocs serve`` uses, and the repository is the ``origin`` remote of
the checkout when it is a web address, else the checkout itself, as
``file://`` links that open the files in a browser on the same machine.
Never a placeholder.

>>> repository_url("git@github.com:me/scorpion-conformance.git")
'https://github.com/me/scorpion-conformance'
>>> repository_url("/srv/git/scorpion.git") is None
True
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["LOCAL_SITE_URL", "PLACEHOLDER", "file_link", "local_defaults", "repository_url"]

#: The address of ``mkdocs serve``.
LOCAL_SITE_URL = "http://127.0.0.1:8000/"
#: The part of mkdocs.yml's fallback repository address that marks it as a placeholder.
PLACEHOLDER = "/OWNER/"


def repository_url(remote: str) -> str | None:
    """The web address of a git remote, or None when it is not on a web host."""
    remote = remote.strip()
    ssh = re.fullmatch(r"(?:ssh://)?git@([^:/]+)[:/](.+?)(?:\.git)?/?", remote)
    if ssh:
        return f"https://{ssh.group(1)}/{ssh.group(2)}"
    web = re.fullmatch(r"(https?://[^\s]+?)(?:\.git)?/?", remote)
    return re.sub(r"//[^@/]+@", "//", web.group(1)) if web else None


def _origin(root: Path) -> str | None:
    try:
        found = subprocess.run(["git", "-C", str(root), "remote", "get-url", "origin"],
                               capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return repository_url(found.stdout) if found.returncode == 0 else None


def local_defaults(config: Any, root: Path, environ: os._Environ[str] | dict[str, str] = os.environ) -> None:
    """Fill in ``site_url`` and ``extra.repository`` of an MkDocs configuration left unset."""
    if not config.site_url:
        config.site_url = environ.get("SCORPION_SITE_URL") or LOCAL_SITE_URL
    repository = str(config.extra.get("repository") or "")
    if environ.get("SCORPION_REPO_URL") or (repository and PLACEHOLDER not in repository):
        return
    found = _origin(root) or root.resolve().as_uri()
    config.extra["repository"] = found
    for link in config.extra.get("social") or []:
        if PLACEHOLDER in str(link.get("link", "")):
            link["link"] = found


def file_link(repository: str, relative: str, *, folder: bool = False, anchor: str = "") -> str:
    """The address of a file of the repository: on its web host, or in the local checkout.

    >>> file_link("https://github.com/me/x", "features/stock.feature", anchor="L12")
    'https://github.com/me/x/blob/main/features/stock.feature#L12'
    >>> file_link("file:///work/main", "adapters", folder=True)
    'file:///work/main/adapters'
    """
    if repository.startswith("file:"):
        link = f"{repository}/{relative}"
    else:
        link = f"{repository}/{'tree' if folder else 'blob'}/main/{relative}"
    return link + (f"#{anchor}" if anchor else "")
