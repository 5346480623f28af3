"""Step through an example: the whole table after each When step, played by the reference engine.

The feature files draw the start and say what the table shows afterwards; the
site plays the steps with the reference engine at build time (the site may
use the engine: it is not the suite) and draws every board in between, with
the cards that moved marked. The stepper is plain HTML and CSS (one radio
button per board, labels for the previous and the next step), so it needs no
script and works in the self-contained report of one's own too.

>>> from scorpion_conformance.suite.scenarios import load_cases
>>> case = next(c for c in load_cases() if c.id == "STOCK-001")
>>> [(f.caption, f.marks) for f in frames(case)]
[('Start', ()), ('the player deals the stock', ('2C', '3D', '7S'))]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorpion_conformance.escaping import html_text
from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import NAMED_RULESETS
from scorpion_ref import Game, RuleSet, ScorpionError, get_ruleset
from scorpion_ref.serial import action_from_json, position_from_json, position_to_json

from .cards import inline_cards, position_html

__all__ = ["MAX_FRAMES", "Frame", "frames", "walkthrough_box", "walkthrough_html"]

#: The stylesheet shows at most this many boards of one example (the longest has five).
MAX_FRAMES = 8


@dataclass(frozen=True)
class Frame:
    """One board of a step-through: after which step, the table, the cards that moved."""

    caption: str
    position: Mapping[str, Any]
    marks: tuple[str, ...] = ()
    #: Why the rules refused the step's action (the board is then unchanged).
    refused: str | None = None


def _places(position: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """Where each card lies: ``("column", n)``, ``("stock", 0)``."""
    places: dict[str, tuple[str, int]] = {}
    for number, column in enumerate(position.get("columns", ()), start=1):
        for code in (*column.get("down", ()), *column.get("up", ())):
            places[code] = ("column", number)
    for code in position.get("stock", ()):
        places[code] = ("stock", 0)
    return places


def _moved(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """The cards that lie somewhere else after the step (collected ones have left the table)."""
    was, now = _places(before), _places(after)
    return tuple(sorted(code for code, place in now.items() if was.get(code) != place))


def _ruleset(case: Case) -> RuleSet | None:
    names = case.rulesets()
    return get_ruleset(names[0]) if names and names[0] in NAMED_RULESETS else None


def _play(game: Game, instruction: Mapping[str, Any]) -> None:
    """One When step; raises :class:`ScorpionError` when the rules refuse it."""
    kind = instruction["do"]
    if kind == "undo":
        game.undo()
    elif kind == "sequence":
        for action in instruction["actions"]:
            game.play(action_from_json(action))
    elif kind == "move":
        game.play(action_from_json({"type": "move", "card": instruction["card"], "to": instruction["to"]}))
    else:
        game.play(action_from_json({"type": "deal"}))


def frames(case: Case) -> list[Frame]:
    """The start and the table after each When step, under the first named rule set of the case.

    A case that runs under no named rule set, or whose start the engine
    refuses, has only its start.
    """
    plan = case.plan()
    start: Mapping[str, Any] = plan["start"]
    result = [Frame("Start", start)]
    rules = _ruleset(case)
    if rules is None:
        return result
    try:
        game = Game(position_from_json(start), rules)
    except ScorpionError:
        return result
    whens = [step for step in case.steps if step.type == "when"]
    actions = [instruction for instruction in plan["steps"] if "do" in instruction]
    for step, instruction in zip(whens, actions, strict=False):
        before = position_to_json(game.position)
        try:
            _play(game, instruction)
        except ScorpionError as error:
            reason = getattr(error, "reason", None) or str(error)
            result.append(Frame(step.text, before, refused=str(reason)))
            continue
        after = position_to_json(game.position)
        result.append(Frame(step.text, after, _moved(before, after)))
    return result


def walkthrough_html(case: Case, key: str | None = None) -> str:
    """The stepper of one example, or ``""`` when it has no When step to step through.

    ``key`` makes the radio buttons' names unique on the page (the case id by default).
    """
    boards = frames(case)[:MAX_FRAMES]
    if len(boards) < 2:
        return ""
    name = "walk-" + re.sub(r"[^A-Za-z0-9-]+", "-", key or case.case_id).strip("-")
    rules = case.rulesets()[0]
    last = len(boards) - 1
    inputs = "".join(
        f'<input type="radio" class="sc-walk-at" name="{name}" id="{name}-{i}"'
        f'{" checked" if i == 0 else ""} aria-label="board {i} of {last}">'
        for i in range(len(boards))
    )
    panels = []
    for i, board in enumerate(boards):
        back = (f'<label class="sc-walk-button" for="{name}-{i - 1}">◀ back</label>' if i > 0
                else '<span class="sc-walk-button sc-walk-off">◀ back</span>')
        ahead = (f'<label class="sc-walk-button sc-walk-next" for="{name}-{i + 1}">next ▶</label>'
                 if i < last else '<span class="sc-walk-button sc-walk-off">next ▶</span>')
        if i == 0:
            what = f"the start, under <code>{html_text(rules)}</code>"
        else:
            what = f"after step {i} of {last}: {inline_cards(board.caption)}"
        if board.refused:
            what += f' <span class="sc-walk-refused">(refused: {html_text(board.refused)})</span>'
        panels.append(
            f'<div class="sc-walk-frame" data-step="{i}">'
            f'<div class="sc-walk-nav">{back}{ahead}<span class="sc-walk-what">{what}</span></div>'
            f"{position_html(board.position, marks=board.marks)}</div>"
        )
    return (f'<div class="sc-walk" data-search-exclude>{inputs}'
            f'<div class="sc-walk-frames">{"".join(panels)}</div></div>')


def walkthrough_box(case: Case, key: str | None = None) -> str:
    """The stepper folded away under a summary line, or ``""``."""
    walk = walkthrough_html(case, key)
    if not walk:
        return ""
    return (f'<details class="sc-walk-box" data-search-exclude><summary>Step through it: the whole '
            f"table after each step, as the reference engine plays it</summary>{walk}</details>")

