"""The Play page: what the site serves for it, and the links that lead to it.

The page runs the JavaScript adapter's own engine and solver: the build
serves the files of ``adapters/javascript/`` (shipped as the package
``scorpion_conformance.kit.javascript``, so there is one copy of each) beside
the page's own script, its Web Worker and its styles
(``scorpion_conformance/site/assets/play/``), and a list of the game numbers
the committed campaigns proved winnable (``data/winnability/``), all under
:data:`FOLDER`. Nothing runs on a server: the built site served by any static
file server is the whole game.

>>> position_parameter({"columns": [{"down": ["4S"], "up": ["9D", "KH"]}] + [{"down": [], "up": []}] * 6,
...                     "stock": ["2C"], "removed": ["H"]})
'4S.9DKH,.,.,.,.,.,.;2C;H'
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from .winnability import load_results

__all__ = ["ENGINE_FILES", "FOLDER", "PAGE", "PAGE_FILES", "play_href", "play_markup", "position_parameter",
           "served_files", "winnable_json"]

#: Where the page's files are served, and the page itself.
FOLDER = "assets/play"
PAGE = "play.md"
#: The JavaScript adapter's files the page loads, in the order they load.
ENGINE_FILES = ("vocabulary.js", "engine.js", "solver.js", "deal.js")
#: The page's own files (scorpion_conformance/site/assets/play/).
PAGE_FILES = ("play.js", "worker.js", "play.css")


def position_parameter(position: Mapping[str, Any]) -> str:
    """A position as the page's ``position`` parameter: each column's face-down cards, a dot
    and its face-up cards, the seven joined by commas; then the stock and the removed suits,
    each after a semicolon."""
    columns = ",".join(
        "".join(c.get("down", ())) + "." + "".join(c.get("up", ())) for c in position.get("columns", ())
    )
    return f"{columns};{''.join(position.get('stock', ()))};{''.join(position.get('removed', ()))}"


def play_href(page_path: str, *, directory_urls: bool, rules: str | None = None,
              options: Mapping[str, str] | None = None, position: Mapping[str, Any] | None = None) -> str:
    """The link from the page ``page_path`` (a path under docs/, such as ``rules/stock.md``)
    to the Play page, opening ``position`` under a named rule set or a bundle of options.

    >>> play_href("rules/stock.md", directory_urls=True, rules="classic")
    '../../play/?rules=classic'
    >>> play_href("rules/stock.md", directory_urls=False, options={"runs": "stay"})
    '../play.html?options=runs:stay'
    """
    if directory_urls:
        here = posixpath.dirname(page_path) if page_path.endswith("index.md") else page_path[:-3]
        link = posixpath.relpath("play", here or ".") + "/"
    else:
        link = posixpath.relpath("play.html", posixpath.dirname(page_path) or ".")
    query: dict[str, str] = {}
    if rules:
        query["rules"] = rules
    elif options:
        query["options"] = ",".join(f"{k}:{v}" for k, v in options.items())
    if position is not None:
        query["position"] = position_parameter(position)
    return link + ("?" + urlencode(query, quote_via=quote, safe=".,;:") if query else "")


def _source(name: str) -> str:
    if name in ENGINE_FILES:
        folder = resources.files("scorpion_conformance.kit.javascript")
    else:
        folder = resources.files("scorpion_conformance.site").joinpath("assets/play")
    return folder.joinpath(name).read_text(encoding="utf-8")


def winnable_json(root: Path) -> str:
    """Per named rule set: the highest game number solved, and the game numbers proved
    winnable and left undecided, from the committed campaign results."""
    found: dict[str, dict[str, Any]] = {}
    for rules, games in load_results(root).items():
        numbers = sorted(games)
        contiguous = numbers == list(range(1, len(numbers) + 1))
        found[rules] = {
            "solved": len(numbers) if contiguous else 0,
            "won": [g for g in numbers if games[g].outcome == "won"],
            "unknown": [g for g in numbers if games[g].outcome == "unknown"],
        }
    return json.dumps(found, separators=(",", ":"))


def served_files(root: Path) -> Iterator[tuple[str, str]]:
    """Every file the page needs: (its path on the site, its content)."""
    for name in (*ENGINE_FILES, *PAGE_FILES):
        yield f"{FOLDER}/{name}", _source(name)
    yield f"{FOLDER}/winnable.json", winnable_json(root)


def play_markup(page_path: str, *, directory_urls: bool) -> str:
    """The page's board and the scripts that play on it, for the page ``page_path``."""
    if directory_urls:
        here = posixpath.dirname(page_path) if page_path.endswith("index.md") else page_path[:-3]
    else:
        here = posixpath.dirname(page_path)
    base = posixpath.relpath(FOLDER, here or ".") + "/"
    scripts: Sequence[str] = (*ENGINE_FILES, "play.js")
    tags = "".join(f'<script src="{base}{name}"></script>' for name in scripts)
    return (f'<link rel="stylesheet" href="{base}play.css">'
            f'<div id="sc-play" class="sc-play" data-base="{base}" data-search-exclude>'
            '<noscript>The game needs JavaScript; the rules pages do not.</noscript></div>'
            f"{tags}")
