"""The tables of a coverage measurement and their gaps: the request and state of each
cell of the matrix, what an undone action had done, the pairs of evaluations that show a
condition flipping an outcome alone, and the figures.

>>> classify({"columns": [{"down": [], "up": []}] * 7, "stock": ["2C"], "status": "playing"})
'short stock'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorpion_ref import RULESETS, Deal, Move
from scorpion_ref.engine import Outcome
from scorpion_shared.vocabulary import REASONS

from .model import Condition, Model, load_model
from .probe import Row

__all__ = ["COLUMNS", "REQUESTS", "Cell", "Measurement", "Shown", "classify", "condition_key", "gaps",
           "reason_codes", "summary", "undo_effects"]

#: The requests of the matrix: the three actions, and the two things a Then step asks.
REQUESTS = ("move", "deal", "undo", "legal", "status")

#: The states of the matrix: the three statuses, then the two shapes the protocol
#: allows that a game never shows in play (they come first when a state is both).
COLUMNS = ("playing", "won", "lost", "empty table", "short stock")


def undo_effects() -> tuple[str, ...]:
    """What an undone action may have done: each kind of action, and each thing besides
    the new position that :class:`~scorpion_ref.engine.Outcome` reports; then the undo
    with nothing to take back."""
    kinds = tuple(kind.__name__.lower() for kind in (Move, Deal))
    reported = tuple(f.name for f in dataclasses.fields(Outcome) if f.name != "position")
    return (*kinds, *reported, "nothing to undo")


def classify(state: Mapping[str, Any]) -> str:
    """The column of the matrix a protocol state belongs to.

    >>> classify({"columns": [{"down": [], "up": []}] * 7, "stock": [], "status": "lost"})
    'empty table'
    """
    stock = state.get("stock", [])
    if not stock and all(not c.get("down") and not c.get("up") for c in state.get("columns", [])):
        return "empty table"
    if 0 < len(stock) < 3:
        return "short stock"
    return str(state.get("status"))


@dataclass(frozen=True)
class Shown:
    """Two evaluations that show a condition flipping its decision's outcome alone."""

    first: Row
    second: Row


@dataclass
class Cell:
    """One cell of a table: the cases that fill it (case id, rule set) and how."""

    cases: list[str] = field(default_factory=list)
    notes: set[str] = field(default_factory=set)


@dataclass
class Measurement:
    """Everything one run measured."""

    model: Model
    rulesets: tuple[str, ...]
    rows: dict[str, list[Row]]
    #: (request, column, rule set) -> cell
    matrix: dict[tuple[str, str, str], Cell]
    #: (reason, rule set) -> cases asserting it
    reasons: dict[tuple[str, str], Cell]
    #: (effect, rule set) -> cases that undo it and look at the result
    undo: dict[tuple[str, str], Cell]
    cases: int = 0
    #: Cases the reference failed (a scenario that does not hold: reported, never counted).
    broken: list[str] = field(default_factory=list)
    _live: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    # -- conditions ---------------------------------------------------------

    def pair(self, condition: Condition, rules: str | None) -> Shown | None:
        """Two evaluations showing ``condition`` alone flipping the outcome, under
        ``rules`` (``None``: across two rule sets, for a rule condition)."""
        rows = self.rows.get(condition.decision, [])
        if rules is not None:
            rows = [r for r in rows if r.rules == rules]
        return _find_pair(rows, condition.index, across=rules is None)

    def applicable(self, condition: Condition) -> list[str]:
        """The rule sets under which ``condition`` can flip an outcome alone."""
        return [name for name in self.rulesets if self.model.can_matter(condition, RULESETS[name],
                                                                         self.live(name))]

    def across_applicable(self, condition: Condition) -> bool:
        """Whether a rule condition is reached under two rule sets that disagree on it."""
        values = set()
        for name in self.rulesets:
            if self.model.reached(condition, RULESETS[name], self.live(name)):
                assert condition.node is not None
                module = self.model.decision(condition.decision).module
                values.add(self.model.rule_value(condition.node, module, RULESETS[name]))
        return len(values) > 1

    def live(self, rules: str) -> frozenset[str]:
        """The engine's functions a game under ``rules`` can reach through the protocol."""
        if rules not in self._live:
            self._live[rules] = self.model.live_functions(RULESETS[rules])
        return self._live[rules]

    def reason_possible(self, reason: str, rules: str) -> bool:
        return self.model.reason_possible(reason, RULESETS[rules], self.live(rules))


def _find_pair(rows: Sequence[Row], k: int, across: bool) -> Shown | None:
    best: Shown | None = None
    for i, a in enumerate(rows):
        if a.values[k] is None:
            continue
        for b in rows[i + 1:]:
            if b.values[k] is None or b.values[k] == a.values[k] or a.outcome == b.outcome:
                continue
            if across and a.rules == b.rules:
                continue
            if all(j == k or x is None or y is None or x == y
                   for j, (x, y) in enumerate(zip(a.values, b.values, strict=True))):
                pair = Shown(*sorted((a, b), key=lambda r: (r.case, r.rules)))
                if best is None or (pair.first.case, pair.second.case) < (best.first.case, best.second.case):
                    best = pair
    return best


def reason_codes() -> tuple[str, ...]:
    """The refusal reasons of the vocabulary."""
    return tuple(REASONS)


def gaps(measurement: Measurement) -> dict[str, list[str]]:
    """Every hole the measurement finds, by kind, as stable keys:

    * ``conditions``: ``"<condition> [<rule set>]"`` for a condition that can flip an
      outcome alone under a rule set and no pair shows it (``[across]`` for a rule
      condition no two rule sets show);
    * ``matrix``: ``"<request> / <column> [<rule set>]"`` for an empty cell;
    * ``reasons``: ``"<reason> [<rule set>]"`` for a refusal the engine can give
      there that no scenario asserts;
    * ``undo``: ``"<effect> [<rule set>]"`` for an effect no scenario undoes and checks.
    """
    found: dict[str, list[str]] = {"conditions": [], "matrix": [], "reasons": [], "undo": []}
    for condition in measurement.model.conditions:
        key = condition_key(condition)
        if condition.rule:
            if measurement.across_applicable(condition) and measurement.pair(condition, None) is None:
                found["conditions"].append(f"{key} [across]")
            continue
        for rules in measurement.applicable(condition):
            if measurement.pair(condition, rules) is None:
                found["conditions"].append(f"{key} [{rules}]")
    for request in REQUESTS:
        for column in COLUMNS:
            for rules in measurement.rulesets:
                if (request, column, rules) not in measurement.matrix:
                    found["matrix"].append(f"{request} / {column} [{rules}]")
    for reason in reason_codes():
        for rules in measurement.rulesets:
            if measurement.reason_possible(reason, rules) and (reason, rules) not in measurement.reasons:
                found["reasons"].append(f"{reason} [{rules}]")
    for effect in undo_effects():
        for rules in measurement.rulesets:
            if (effect, rules) not in measurement.undo:
                found["undo"].append(f"{effect} [{rules}]")
    return found


def condition_key(condition: Condition) -> str:
    """A condition's stable name: its decision, then its own text (and its place among
    conditions of the same text in that decision)."""
    model = load_model()
    decision = model.decision(condition.decision)
    same = [c for c in decision.conditions if c.text == condition.text]
    text = " ".join(condition.text.split())
    suffix = f" ({same.index(condition) + 1})" if len(same) > 1 else ""
    return f"{condition.decision} :: {text}{suffix}"


def summary(measurement: Measurement, reasons: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The figures of a measurement: conditions in the model and shown (per rule set,
    and across rule sets for rule conditions), the cells of each table filled, empty
    with a reason (a key of ``reasons``) and empty without one."""
    reasons = reasons or {}
    model = measurement.model
    conditions = [c for c in model.conditions]
    per_rules: dict[str, dict[str, int]] = {}
    for rules in measurement.rulesets:
        applicable = [c for c in conditions if rules in measurement.applicable(c)]
        shown = [c for c in applicable if measurement.pair(c, rules) is not None]
        per_rules[rules] = {"can matter": len(applicable), "shown": len(shown)}
    rule_conditions = [c for c in conditions if c.rule and measurement.across_applicable(c)]
    found = gaps(measurement)
    tables = {
        "matrix": len(REQUESTS) * len(COLUMNS) * len(measurement.rulesets),
        "reasons": sum(measurement.reason_possible(reason, rules)
                       for reason in reason_codes() for rules in measurement.rulesets),
        "undo": len(undo_effects()) * len(measurement.rulesets),
    }
    figures: dict[str, Any] = {
        "conditions": len(conditions),
        "rule conditions": sum(c.rule for c in conditions),
        "decisions": sum(1 for d in model.decisions if d.conditions),
        "per rule set": per_rules,
        "across rule sets": {"can matter": len(rule_conditions),
                             "shown": sum(measurement.pair(c, None) is not None for c in rule_conditions)},
        "condition gaps": {"with a reason": sum(k in reasons for k in found["conditions"]),
                           "without": sum(k not in reasons for k in found["conditions"])},
    }
    for table, size in tables.items():
        empty = found[table]
        figures[table] = {"cells": size, "filled": size - len(empty),
                          "empty with a reason": sum(k in reasons for k in empty),
                          "empty without a reason": sum(k not in reasons for k in empty)}
    return figures
