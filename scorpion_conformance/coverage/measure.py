"""What the scenarios cover: the engine's conditions, the matrix of requests, states and
rule sets, the refusal reasons and what undo takes back, measured on one run.

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

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorpion_ref import RULESETS

from ..client import AdapterClient
from ..reference import in_process
from ..suite.execute import ScenarioRun
from ..suite.scenarios import Case, load_cases
from ..suite.selection import plays
from .model import Model, load_model
from .probe import Recorder, instrumented
from .tables import Cell, Measurement, classify

__all__ = ["measure"]


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


def _hidden(state: Mapping[str, Any]) -> int:
    return sum(len(column.get("down", [])) for column in state.get("columns", []))


def _effects(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[str, ...]:
    """Besides moving cards, what an action did: turned a card face up, collected a run."""
    found = []
    if _hidden(after) < _hidden(before):
        found.append("flipped")
    if len(after.get("removed", [])) > len(before.get("removed", [])):
        found.append("collected")
    return tuple(found)


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
    client = in_process({n: RULESETS[n] for n in names})
    declared = {n: RULESETS[n].options for n in names}
    with instrumented(model) as recorder:
        hello = client.hello()
        for case, rules in plays(cases, hello, declared):
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
