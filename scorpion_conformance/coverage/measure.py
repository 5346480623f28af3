"""What the scenarios cover: the engine's conditions, the request × state × rule set
matrix, the refusal reasons and what undo takes back, measured on one run.

:func:`measure` plays every case of the feature files under every named rule set
its tags admit, through the suite's own executor
(:class:`~scorpion_conformance.suite.execute.ScenarioRun`) and the protocol, against
the reference adapter in this process with the engine instrumented
(:mod:`.probe`). An evaluation counts only when the scenario looked at what it
decided: the status of an answer when a Then step read that status, anything
else an action decided when a Then step followed it, and every evaluation of a
``legal`` request (a Then step asked it).

A condition is **shown** under a rule set when two counted evaluations of its
decision, under that rule set, give different outcomes, differ in that
condition, and agree in every other condition both evaluated (the unique-cause
pairs of MC/DC, where a condition that one of the two never evaluated, cut off
by ``and``/``or`` or an earlier refusal, does not count as a difference). A
rule condition is constant under one rule set: it is shown by a pair taken
under two rule sets.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scorpion_ref import OPTIONS, RULESETS, Deal, Move
from scorpion_ref.engine import Outcome

from ..client import AdapterClient
from ..suite.execute import ScenarioRun
from ..suite.scenarios import Case, load_cases
from ..vocabulary import REASONS
from .model import Condition, Model, load_model
from .probe import Recorder, Row, instrumented

__all__ = [
    "COLUMNS",
    "REQUESTS",
    "Cell",
    "Measurement",
    "Shown",
    "classify",
    "measure",
    "undo_effects",
]

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


@dataclass
class _Request:
    """One request a case sent, the evaluations it caused, and whether they were looked at."""

    evaluations: list[Any]
    observed: bool = False
    status_observed: bool = False
    #: Whether a Then step read the reason of the refusal it answered.
    reason_observed: bool = False


@dataclass
class _Event:
    """An action sent, or a question asked, in one column of the matrix."""

    request: str
    column: str
    accepted: bool | None = None
    checked: bool = False
    effects: tuple[str, ...] = ()


class _Watch:
    """The client as a case sees it, noting each request, its evaluations and its state."""

    def __init__(self, client: AdapterClient, recorder: Recorder) -> None:
        self.client, self.recorder = client, recorder
        self.requests: list[_Request] = []
        self.events: list[_Event] = []
        self.state: dict[str, Any] | None = None
        self.state_request: _Request | None = None
        self.action_request: _Request | None = None
        self.legal_request: _Request | None = None
        self.history: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def _send(self, call: Any, *args: Any) -> tuple[Any, _Request]:
        self.recorder.take()
        try:
            answer = call(*args)
        finally:
            request = _Request(self.recorder.take())
            self.requests.append(request)
        return answer, request

    def start(self, rules: str, position: Mapping[str, Any]) -> Any:
        state, request = self._send(self.client.start, rules, position)
        self.state, self.state_request = dict(state), request
        return state

    def state_(self) -> Any:
        state, request = self._send(self.client.state)
        self.state, self.state_request = dict(state), request
        return state

    def legal(self) -> Any:
        actions, request = self._send(self.client.legal)
        self.legal_request = request
        return actions

    def play(self, action: Mapping[str, Any]) -> Any:
        before = self.state or {}
        response, request = self._send(self.client.play, action)
        kind = "deal" if action.get("type") == "deal" else "move"
        self.events.append(_Event(kind, classify(before), response.ok))
        self.action_request = request
        if response.ok:
            self.state, self.state_request = dict(response.body["state"]), request
            self.history.append((kind, before, self.state))
        return response

    def undo(self) -> Any:
        before = self.state or {}
        response, request = self._send(self.client.undo)
        effects: tuple[str, ...] = ("nothing to undo",)
        if response.ok:
            self.state, self.state_request = dict(response.body["state"]), request
            if self.history:
                kind, earlier, later = self.history.pop()
                effects = (kind, *_effects(earlier, later))
        self.events.append(_Event("undo", classify(before), response.ok, effects=effects))
        self.action_request = request
        return response

    def check_in_step(self) -> None:
        self.client.check_in_step()


class _Client:
    """What :class:`ScenarioRun` calls, handed to the watch (``state`` is both a field
    and a method there)."""

    def __init__(self, watch: _Watch) -> None:
        self.watch = watch

    def start(self, rules: str, position: Mapping[str, Any]) -> Any:
        return self.watch.start(rules, position)

    def state(self) -> Any:
        return self.watch.state_()

    def legal(self) -> Any:
        return self.watch.legal()

    def play(self, action: Mapping[str, Any]) -> Any:
        return self.watch.play(action)

    def undo(self) -> Any:
        return self.watch.undo()

    def check_in_step(self) -> None:
        self.watch.check_in_step()


def _effects(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """Besides moving cards, what an action did: turned a card face up, collected a run."""
    down = lambda state: sum(len(c.get("down", [])) for c in state.get("columns", []))  # noqa: E731
    found = []
    if down(after) < down(before):
        found.append("flipped")
    if len(after.get("removed", [])) > len(before.get("removed", [])):
        found.append("collected")
    return tuple(found)


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
                                                                         self._live[name])]

    def across_applicable(self, condition: Condition) -> bool:
        """Whether a rule condition is reached under two rule sets that disagree on it."""
        values = set()
        for name in self.rulesets:
            if self.model.reached(condition, RULESETS[name], self._live[name]):
                assert condition.node is not None
                values.add(self.model.rule_value(condition.node, self.model.decision(condition.decision).module,
                                                 RULESETS[name]))
        return len(values) > 1

    @property
    def _live(self) -> dict[str, frozenset[str]]:
        if not hasattr(self, "_live_cache"):
            self._live_cache = {n: self.model.live_functions(RULESETS[n]) for n in self.rulesets}
        return self._live_cache

    def reason_possible(self, reason: str, rules: str) -> bool:
        return self.model.reason_possible(reason, RULESETS[rules], self._live[rules])


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


def _play_case(case: Case, rules: str, watch: _Watch, recorder: Recorder) -> None:
    run = ScenarioRun(_Client(watch), rules)  # type: ignore[arg-type]
    unchecked: list[_Event] = []
    for instruction in case.instructions():
        if "given" in instruction:
            run.perform(instruction)
            continue
        column = classify(watch.state) if watch.state is not None else None
        events = len(watch.events)
        run.perform(instruction)
        if "do" in instruction:
            new = watch.events[events:]
            if instruction["do"] == "sequence":
                for event in new:  # each action of a sequence is checked by the step itself
                    event.checked = True
                if watch.action_request is not None:
                    watch.action_request.observed = True
            unchecked.extend(new)
            continue
        if column is None:  # the first expectation started the game
            column = classify(watch.state or {})
        for event in unchecked:
            event.checked = True
        unchecked = []
        if watch.action_request is not None:
            watch.action_request.observed = True
        kind = instruction["expect"]
        if kind == "legal" and watch.legal_request is not None:
            # The whole list is compared; "X is legal" looks at one action only, and
            # its evaluations of every other candidate were not looked at.
            watch.legal_request.observed = True
        if kind in ("legal", "listed"):
            watch.events.append(_Event("legal", column, checked=True))
        elif kind == "status":
            watch.events.append(_Event("status", column, checked=True))
            if watch.state_request is not None:
                watch.state_request.status_observed = True
        if kind == "refused" and instruction.get("reason"):
            watch.events.append(_Event("reason:" + instruction["reason"], column, checked=True))
            if watch.action_request is not None:
                watch.action_request.reason_observed = True
    watch.check_in_step()


def measure(cases: Iterable[Case] | None = None, rulesets: Sequence[str] | None = None,
            model: Model | None = None) -> Measurement:
    """Play ``cases`` (every shipped case) under ``rulesets`` (the named sets) and measure."""
    model = model or load_model()
    cases = list(load_cases() if cases is None else cases)
    names = tuple(rulesets or RULESETS)
    matrix: dict[tuple[str, str, str], Cell] = defaultdict(Cell)
    reasons: dict[tuple[str, str], Cell] = defaultdict(Cell)
    undo: dict[tuple[str, str], Cell] = defaultdict(Cell)
    broken: list[str] = []
    count = 0
    client = AdapterClient.in_process({n: RULESETS[n] for n in names})
    declared = {n: RULESETS[n].options for n in names}
    with instrumented(model) as recorder:
        hello = client.hello()
        for case in cases:
            _options, capabilities = case.requires()
            if not all(hello.offers(c) for c in capabilities):
                continue
            for rules in case.rulesets(declared):
                count += 1
                watch = _Watch(client, recorder)
                label = f"{case.case_id}[{rules}]"
                with recorder.context(case.case_id, rules):
                    try:
                        _play_case(case, rules, watch, recorder)
                    except AssertionError as error:
                        broken.append(f"{label}: {str(error).splitlines()[0]}")
                        continue
                    for request in watch.requests:
                        recorder.keep(request.evaluations, request.observed, request.status_observed,
                                      request.reason_observed)
                for event in watch.events:
                    if not event.checked:
                        continue
                    if event.request.startswith("reason:"):
                        reasons[(event.request.removeprefix("reason:"), rules)].cases.append(case.case_id)
                        continue
                    cell = matrix[(event.request, event.column, rules)]
                    cell.cases.append(case.case_id)
                    if event.accepted is not None:
                        cell.notes.add("accepted" if event.accepted else "refused")
                    for effect in event.effects:
                        undo[(effect, rules)].cases.append(case.case_id)
    rows = {d.id: recorder.rows(d.id) for d in model.decisions}
    return Measurement(model, names, rows, dict(matrix), dict(reasons), dict(undo), count, broken)


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
        "reasons": sum(measurement.reason_possible(r, n) for r in reason_codes() for n in measurement.rulesets),
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


#: The reasons for the gaps a measurement leaves (see the file's own comment).
GAPS_FILE = Path(__file__).resolve().parents[2] / "data" / "coverage" / "gaps.yaml"


class GapsError(ValueError):
    """A gaps file that cannot be used, naming the file and the entry."""


def load_reasons(path: Path = GAPS_FILE, rulesets: Sequence[str] | None = None) -> dict[str, str]:
    """Gap key → the reason it stays empty, each entry expanded over the named rule sets
    its ``where`` admits. Raises :class:`GapsError` for a file that cannot be used."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise GapsError(f"cannot read {path}: {error}") from None
    names = tuple(rulesets or RULESETS)
    reasons: dict[str, str] = {}
    for table in ("conditions", "matrix", "reasons", "undo"):
        for number, entry in enumerate((data or {}).get(table) or [], start=1):
            where = f"{path}: {table} entry {number}"
            if not isinstance(entry, dict) or not isinstance(entry.get("reason"), str):
                raise GapsError(f"{where}: an entry has a key (or keys), an optional where, and a reason")
            keys = entry.get("keys") or [entry.get("key")]
            if not all(isinstance(k, str) and k for k in keys):
                raise GapsError(f"{where}: key is a string, keys a list of strings")
            wanted = entry.get("where") or {}
            if not isinstance(wanted, dict):
                raise GapsError(f"{where}: where maps options to values")
            unknown = sorted(set(wanted) - set(OPTIONS))
            if unknown:
                raise GapsError(f"{where}: no option {', '.join(unknown)}")
            chosen = [n for n in names if all(RULESETS[n].options[o] == v for o, v in wanted.items())]
            text = " ".join(entry["reason"].split())
            for key in keys:
                for name in chosen:
                    reasons[f"{key} [{name}]"] = text
    return reasons
