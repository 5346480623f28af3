"""What a case is called: its rule area, its marker and the name a person reads.

A rule area is a feature file: ``stock.feature`` is the area ``stock``,
``empty_columns.feature`` the area ``empty-columns`` (the catalogue's spelling
of the same area). ``--area stock`` selects it, and so does the marker
``-m area_stock``; JUnit files group the cases by it.

A case's test name is the scenario's own text, with an outline's values filled
in and its cards as written, then its id and rule set:
``The J♣ is turned away from Q♠, a Queen of another suit[PLACE-006/1-standard]``.

>>> area_of("features/empty_columns.feature"), area_marker("empty-columns")
('empty-columns', 'area_empty_columns')
>>> test_name("9♦ goes onto 10♦", "PLACE-002", "standard")
'9♦ goes onto 10♦[PLACE-002-standard]'
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

__all__ = [
    "AreaError",
    "area_marker",
    "area_of",
    "case_text",
    "id_matches",
    "openable",
    "parse_areas",
    "rename",
    "shipped_areas",
    "test_name",
]


class AreaError(ValueError):
    """``--area`` names an area that no feature file is."""


def area_of(feature_file: str | Path) -> str:
    """The rule area of a feature file: its name without ``.feature``, with hyphens."""
    return Path(feature_file).stem.replace("_", "-")


def area_marker(area: str) -> str:
    """The marker of a rule area: ``area_`` and the area with underscores."""
    return "area_" + area.replace("-", "_")


@functools.cache
def shipped_areas() -> tuple[str, ...]:
    """The rule areas of the feature files that ship with the suite, in file order."""
    from .scenarios import feature_dir, feature_files

    return tuple(area_of(path) for path in feature_files(feature_dir()))


def parse_areas(text: str | None, known: Iterable[str]) -> frozenset[str] | None:
    """The areas ``--area`` names (None: every area); raises :class:`AreaError`.

    An area may be written with hyphens or underscores.

    >>> sorted(parse_areas("stock,empty_columns", ["stock", "empty-columns", "deal"]))
    ['empty-columns', 'stock']
    >>> parse_areas("stocks", ["stock", "deal"])
    Traceback (most recent call last):
    scorpion_conformance.suite.naming.AreaError: --area stocks: no such rule area; the areas are stock, deal
    """
    if not text:
        return None
    known = tuple(known)
    names = [name.strip().lower().replace("_", "-") for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown:
        raise AreaError(f"--area {', '.join(unknown)}: no such rule area; the areas are {', '.join(known)}")
    return frozenset(names)


def id_matches(case_id: str, patterns: Iterable[str]) -> bool:
    """Whether ``--id`` selects the case: an id, or a glob such as ``STOCK-*``.

    A scenario id selects every example row of an outline (``PLACE-006/2``).

    >>> id_matches("STOCK-004", ["STOCK-*"]), id_matches("PLACE-006/2", ["place-006"])
    (True, True)
    >>> id_matches("MOVE-004", ["STOCK-*", "MOVE-00[5-9]"])
    False
    """
    base = case_id.split("/")[0]
    return any(
        fnmatch.fnmatchcase(case_id, pattern.upper()) or fnmatch.fnmatchcase(base, pattern.upper())
        for pattern in patterns
    )


def openable(path: str | Path, line: int | None = None) -> str:
    """Where a file (and a line of it) is, as a person in the working folder can open it: relative
    to that folder when the file is inside it, else its full path (never ``../..``).

    >>> openable(Path.cwd() / "features" / "stock.feature", 11)
    'features/stock.feature:11'
    >>> openable("/elsewhere/stock.feature")
    '/elsewhere/stock.feature'
    """
    full = Path(os.path.abspath(path))
    try:
        shown = str(full.relative_to(Path.cwd()))
    except ValueError:
        shown = str(full)
    return shown + (f":{line}" if line is not None else "")


def case_text(name: str, example: Mapping[str, str] | None) -> str:
    """A scenario's name with an outline row's values filled in.

    >>> case_text("<card> lands on <target>", {"card": "10♠", "target": "J♠"})
    '10♠ lands on J♠'
    """
    if not example:
        return name
    return re.sub(r"<([^<>]+)>", lambda match: example.get(match.group(1), match.group(0)), name)


def test_name(text: str, case_id: str, rules: str | None) -> str:
    """The name of a case's test: the scenario's text, then ``[id-rule set]``.

    ``::`` and brackets in the text would confuse pytest's node ids, so they are
    written as ``:`` and parentheses.
    """
    text = " ".join(text.split()).replace("::", ":").replace("[", "(").replace("]", ")")
    return f"{text}[{case_id}-{rules or 'unsupported'}]"


def rename(item: pytest.Item, name: str) -> None:
    """Give a case's test the scenario's own text for a name (and so for its node id)."""
    item.name = name
    if hasattr(item, "_id"):  # pytest 9: a structured node id
        item._id = item.parent.id.child(name)  # type: ignore[union-attr]
    else:  # pytest 8: the node id is text
        item._nodeid = item.parent.nodeid + "::" + name  # type: ignore[attr-defined,union-attr]


test_name.__test__ = False  # type: ignore[attr-defined]  # not a test, whatever its name
