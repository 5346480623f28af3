"""Rendering a found difference as one Gherkin scenario in the suite's own
notation: the start position drawn as a table, the steps as the step
library's sentences, and expectations that the reference meets and the
adapter does not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorpion_ref import (
    DECK,
    Column,
    Deal,
    IllegalAction,
    Position,
    RuleSet,
    Status,
    Suit,
    apply,
    legal_actions,
    status,
)
from scorpion_ref.serial import action_to_json

from ..compare import ActionKey, action_key
from ..notation import show_column
from ..suite.tags import OPTION_TAGS
from .compare import Difference, _reference_state, _say
from .layout import COLUMNS
from .play import Failure, Step, _positions_before


def _say_step(step: Step) -> str:
    if step.kind == "undo":
        return "undo"
    assert step.action is not None
    return "dealing the stock" if isinstance(step.action, Deal) else _say(step.action)


def _table(position: Position) -> list[str]:
    """The columns as a data table: a header of the non-empty columns, one row per layer."""
    cells = {
        number: [f"[{c.unicode}]" for c in column.down] + [c.unicode for c in column.up]
        for number, column in enumerate(position.columns, start=1) if len(column)
    }
    height = max(len(c) for c in cells.values())
    widths = {n: max(len(str(n)), *(len(x) for x in c)) for n, c in cells.items()}
    rows = [[str(n).ljust(widths[n]) for n in cells]]
    for layer in range(height):
        rows.append([(c[layer] if layer < len(c) else "").ljust(widths[n])
                     for n, c in cells.items()])
    return ["| " + " | ".join(row) + " |" for row in rows]


def _legal_sentence(position: Position, rules: RuleSet) -> str:
    actions = legal_actions(position, rules)
    if not actions:
        return "no action is legal"
    return "the legal actions are exactly " + ", ".join(_say(a) for a in actions)


def _given(start: Position) -> list[tuple[str, str, list[str]]]:
    steps: list[tuple[str, str, list[str]]] = []
    if any(len(c) for c in start.columns):
        steps.append(("given", "the table", _table(start)))
    else:
        steps.append(("given", "an empty table", []))
    if start.stock:
        steps.append(("given", "the stock holds " + " ".join(c.unicode for c in start.stock), []))
    else:
        steps.append(("given", "the stock has been dealt", []))
    suits = sorted(start.collected, key=lambda s: s.value)
    while suits:
        if len(suits) >= 2:
            steps.append(("given", f"the {suits[0].symbol} and {suits[1].symbol} runs have been "
                          "collected", []))
            suits = suits[2:]
        else:
            steps.append(("given", f"the {suits[0].symbol} run has been collected", []))
            suits = suits[1:]
    return steps


def _act(step: Step) -> str:
    if step.kind == "undo":
        return "the player undoes the last action"
    assert step.action is not None
    if isinstance(step.action, Deal):
        return "the player deals the stock"
    return f"the player moves {_say(step.action)}"


def _state_lines(before: Position, after: Position, rules: RuleSet,
                 adapter: dict[str, Any] | None) -> list[str]:
    """Expectations on the table after an accepted action: what it changed, and
    whatever the adapter shows differently."""
    expected = _reference_state(after, rules)
    lines = []
    adapter_columns = (adapter or {}).get("columns") or []
    for i, column in enumerate(after.columns):
        differs = adapter is not None and (
            i >= len(adapter_columns)
            or {"down": adapter_columns[i].get("down"), "up": adapter_columns[i].get("up")}
            != expected["columns"][i]
        )
        if column != before.columns[i] or differs:
            text = show_column(expected["columns"][i])
            lines.append(f"column {i + 1} is empty" if not len(column)
                         else f"column {i + 1} reads {text}")
    if before.stock != after.stock or (
        adapter is not None and list(adapter.get("stock", [])) != expected["stock"]
    ):
        lines.append("the stock holds " + " ".join(c.unicode for c in after.stock)
                     if after.stock else "the stock is empty")
    for suit in Suit:
        now = suit in after.collected
        differs = adapter is not None and (suit.value in adapter.get("removed", [])) != now
        if now != (suit in before.collected) or differs:
            lines.append(f"the {suit.symbol} run has {'' if now else 'not '}been collected")
    won = status(after, rules) is Status.WON and status(before, rules) is not Status.WON
    if won or (adapter is not None and adapter.get("status") != expected["status"]):
        lines.append(f"the game is {expected['status']}")
    return lines or [f"column {i + 1} reads {show_column(c)}"
                     for i, c in enumerate(expected["columns"]) if c["up"]][:1]


def _legal_title(position: Position, rules: RuleSet, difference: Difference, when: str) -> str:
    """A name for a difference in the legal actions: what is (not) legal, and when."""
    if difference.adapter_legal is None:  # the adapter failed to answer
        return f"The legal actions {when}"
    expected = {action_key(action_to_json(a)) for a in legal_actions(position, rules)}
    listed = {action_key(a) for a in difference.adapter_legal}

    def say(keys: set[ActionKey]) -> str:
        named = ["the deal" if k.kind == "deal" else k.words for k in sorted(keys)]
        shown = ", ".join(named[:2]) + (f" and {len(named) - 2} more" if len(named) > 2 else "")
        return shown[0].upper() + shown[1:] + (" is" if len(named) == 1 else " are")

    if listed - expected and not expected - listed:
        return f"{say(listed - expected)} not legal {when}"
    if expected - listed and not listed - expected:
        return f"{say(expected - listed)} legal {when}"
    return f"The legal actions {when}"


Body = list[tuple[str, str, list[str]]]


def _scenario_body(failure: Failure, rules: RuleSet) -> tuple[str, Body]:
    """The scenario's name (without its id) and steps, as (type, text, table rows)."""
    start, steps, difference = failure.start, failure.steps, failure.difference
    body = _given(start)
    positions = _positions_before(start, rules, steps)
    pending: list[Step] = []

    def flush() -> None:
        if len(pending) == 1:
            body.append(("when", _act(pending[0]), []))
        elif pending:
            body.append(("when", "the player plays "
                         + ", ".join("deal" if isinstance(s.action, Deal) else _say(s.action)
                                     for s in pending if s.action is not None), []))
        pending.clear()

    for step in steps[:-1] if difference.step >= 0 else []:
        if step.kind == "play" and step.legal:
            pending.append(step)
            continue
        flush()
        body.append(("when", _act(step), []))
        if not step.legal:
            body.append(("then", "the action is refused", []))
    flush()
    if difference.step < 0:
        if difference.phase == "start":
            lines = _state_lines(Position((Column(),) * COLUMNS), start, rules, None)
            body.extend(("then", line, []) for line in lines)
            return "The start position is taken exactly as given", body
        body.append(("then", _legal_sentence(start, rules), []))
        return _legal_title(start, rules, difference, "at the start"), body
    last = steps[-1]
    before, after = positions[-2], positions[-1]
    said = _say_step(last)
    body.append(("when", _act(last), []))
    if difference.phase == "legal":
        body.append(("then", _legal_sentence(after, rules), []))
        return _legal_title(after, rules, difference, f"after {said}"), body
    if not last.legal:
        if last.kind == "undo":
            body.append(("then", "the action is refused", []))
            return "Undo at the start of a game is refused", body
        assert last.action is not None
        reason = ""
        try:
            apply(before, rules, last.action)
        except IllegalAction as error:
            reason = error.reason
        body.append(("then", f"the action is refused as {reason}", []))
        return f"{said[0].upper()}{said[1:]} is refused as {reason}", body
    if last.kind == "undo" and after == start:
        body.append(("then", "the table is as it was at the start", []))
        hidden = [c.unicode for c in DECK if any(c in col.up for col in before.columns)
                  and any(c in col.down for col in after.columns)]
        if hidden:
            return f"Undo turns {' and '.join(hidden)} face down again", body
        return "Undo takes the game back to its start", body
    lines = _state_lines(before, after, rules, difference.adapter_state)
    body.extend(("then", line, []) for line in lines)
    if last.kind == "undo":
        hidden = [c.unicode for c in DECK if any(c in col.up for col in before.columns)
                  and any(c in col.down for col in after.columns)]
        if hidden:
            return f"Undo turns {' and '.join(hidden)} face down again", body
        return "Undo restores the table exactly", body
    collected = sorted(after.collected - before.collected, key=lambda s: s.value)
    flipped = [c for c in DECK if any(c in col.down for col in before.columns)
               and any(c in col.up for col in after.columns)]
    effects = []
    if collected:
        effects.append("collects the " + " and ".join(s.symbol for s in collected)
                       + (" runs" if len(collected) > 1 else " run"))
    if flipped:
        effects.append("turns " + " and ".join(c.unicode for c in flipped) + " face up")
    if status(after, rules) is Status.WON:
        effects.append("wins the game")
    if not effects and isinstance(last.action, Deal):
        effects.append("lands " + ", ".join(f"{c.unicode} on column {i}"
                                            for i, c in enumerate(before.stock, start=1)))
    effect = " and ".join(effects) or "is played as the rules say"
    return f"{said[0].upper()}{said[1:]} {effect}", body


def _render(tags: Sequence[str], name: str, body: Sequence[tuple[str, str, list[str]]],
            comments: Sequence[str] = ()) -> str:
    lines = [f"  # {c}" for c in comments]
    lines.append("  " + " ".join(f"@{t}" for t in tags))
    lines.append(f"  Scenario: {name}")
    previous = None
    for kind, text, table in body:
        keyword = "And" if kind == previous else kind.title()
        previous = kind
        lines.append(f"    {keyword} {text}")
        lines.extend(f"      {row}" for row in table)
    return "\n".join(lines) + "\n"


def _option_tags(options: dict[str, str]) -> list[str]:
    return [tag for tag, (option, value) in OPTION_TAGS.items() if options.get(option) == value]


def scenario_text(failure: Failure, name: str, rules: RuleSet, *, fuzz_id: str,
                  tags: Sequence[str] | None = None, comments: Sequence[str] = ()) -> str:
    """The failure as one Gherkin scenario block in the suite's notation."""
    title, body = _scenario_body(failure, rules)
    uses_undo = any(s.kind == "undo" for s in failure.steps)
    option_tags = list(tags) if tags is not None else _option_tags(rules.options)
    all_tags = [f"id:{fuzz_id}", *option_tags, *(["undo"] if uses_undo else [])]
    return _render(all_tags, f"{title} ({fuzz_id.lower()})", body, comments)
