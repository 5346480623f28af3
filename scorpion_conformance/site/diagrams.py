"""Card diagrams written by hand in the Markdown pages, as ```` ```scorpion ```` fences.

A fence holds a position in the scenarios' own table notation (read by the
suite's parser, so a page and a feature file cannot disagree on it), or a
numbered deal, plus a few optional lines::

    ```scorpion
    | 1    | 2   |
    | [4♠] | 10♦ |
    | 9♦   |     |
    stock: 2♣ 3♦ 7♠
    collected: ♠
    mark: 9♦
    caption: 9♦ may go onto 10♦
    ```

``deal: 1`` draws game 1 as PySolFC deals it; ``stock: ? ? ?`` draws backs
of unknown cards; ``peek: no`` hides the names of face-down cards.

>>> spec = parse_diagram("| 1 |\\n| K♠ |\\nstock: ? ? ?")
>>> spec.position["columns"][0], spec.position["stock"]
({'down': [], 'up': ['KS']}, ['??', '??', '??'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorpion_conformance.notation import NotationError, parse_card, parse_suit, parse_table

from .cards import UNKNOWN, inline_cards, position_html

__all__ = ["DiagramError", "DiagramSpec", "expand_diagrams", "parse_diagram"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)[^`]*$")


class DiagramError(ValueError):
    """A ```` ```scorpion ```` fence that cannot be drawn."""


@dataclass
class DiagramSpec:
    """What a fence asks for."""

    position: dict[str, Any]
    caption: str = ""
    marks: list[str] = field(default_factory=list)
    peek: bool = True


def _deal(words: str) -> dict[str, Any]:
    from scorpion_ref import deal_game
    from scorpion_ref.serial import position_to_json

    parts = words.split()
    if not parts or not parts[0].isdigit():
        raise DiagramError(f"deal: {words!r}: write a game number, as 'deal: 1'")
    return dict(
        position_to_json(deal_game(int(parts[0]), parts[1] if len(parts) > 1 else "scorpion"))
    )


def parse_diagram(text: str) -> DiagramSpec:
    """Read a fence's body; raises :class:`DiagramError` saying what is wrong."""
    rows: list[list[str]] = []
    options: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            rows.append([cell.strip() for cell in stripped.strip("|").split("|")])
            continue
        key, sep, value = stripped.partition(":")
        if not sep or key.strip() not in {"deal", "stock", "collected", "mark", "caption", "peek"}:
            raise DiagramError(
                f"{stripped!r}: expected a table row or one of deal, stock, "
                "collected, mark, caption, peek"
            )
        options[key.strip()] = value.strip()
    try:
        if "deal" in options:
            position = _deal(options["deal"])
            peek = options.get("peek", "no") != "no"
        else:
            position = {
                "columns": parse_table(rows)
                if rows
                else [{"down": [], "up": []} for _ in range(7)],
                "stock": [],
                "removed": [],
            }
            peek = options.get("peek", "yes") != "no"
        if "stock" in options:
            position["stock"] = [
                UNKNOWN if t == "?" else parse_card(t).code
                for t in options["stock"].replace(",", " ").split()
            ]
        if "collected" in options:
            position["removed"] = sorted(parse_suit(s) for s in options["collected"].split())
        marks = [parse_card(t).code for t in options.get("mark", "").replace(",", " ").split()]
    except NotationError as error:
        raise DiagramError(str(error)) from None
    return DiagramSpec(position, options.get("caption", ""), marks, peek)


def render_diagram(text: str) -> str:
    """The HTML of a fence's body."""
    spec = parse_diagram(text)
    caption = inline_cards(spec.caption) if spec.caption else ""
    return position_html(spec.position, caption=caption, peek=spec.peek, marks=spec.marks)


def expand_diagrams(markdown: str, store: Callable[[str], str]) -> str:
    """Replace every top-level ```` ```scorpion ```` fence by a fragment token.

    ``store`` keeps the HTML and returns its token (see
    :meth:`~.text.GeneratedPage.fragment`). Fences nested in another fence
    (an example of the syntax) are left alone. Raises :class:`DiagramError`
    with the line of the bad fence.
    """
    lines = markdown.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        fence, indent = match.group("fence"), match.group("indent")
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = i + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        if match.group("info") == "scorpion":
            body = "\n".join(lines[i + 1 : end])
            try:
                token = store(render_diagram(body))
            except DiagramError as error:
                raise DiagramError(f"line {i + 1}: {error}") from None
            out += ["", indent + token, ""]
        else:
            out += lines[i : end + 1]
        i = end + 1
    return "\n".join(out)
