"""Playing one game through the adapter and the reference side by side.

What a game is made of (:class:`Step`, :class:`Failure`, the counts in
:class:`Stats`, the options in :class:`FuzzOptions`), the replay that compares
accepted/refused answers, refusal reasons, states and legal actions after every
step, the reference-only replays the shrinker and the scenario writer use, and
and the reference adapter in this process for the fuzzer's own checks
(:func:`~scorpion_conformance.reference.in_process`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scorpion_ref import (
    Action,
    IllegalAction,
    Position,
    RuleSet,
    Status,
    apply,
    is_legal,
    legal_actions,
    status,
)
from scorpion_ref.reachable import cannot_arise
from scorpion_ref.serial import action_to_json, position_to_json

from ..client import AdapterClient
from ..compare import legal_difference, state_difference
from ..errors import AdapterError, ErrorAnswer
from ..protocol import Response
from ..suite.execute import UNSUPPORTED_POSITION
from .compare import Difference, _fault, _say


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game: play ``action`` or undo; ``legal`` says whether the
    reference accepts it where it was played (a refused play is a probe)."""

    kind: str  # "play" or "undo"
    action: Action | None
    legal: bool

    def __str__(self) -> str:
        if self.kind == "undo":
            return "undo" + ("" if self.legal else " (nothing to undo)")
        return f"{self.action}" + ("" if self.legal else " (refused)")


@dataclass
class Stats:
    games: int = 0
    steps: int = 0
    comparisons: int = 0
    actions_compared: int = 0
    #: Games whose synthetic start the adapter answered with ``unsupported-position``.
    unsupported: int = 0


class _Unsupported(Exception):
    """The adapter cannot hold this game's synthetic start."""


class _Invalid(Exception):
    """A replayed step no longer does what it did (shrinking candidates only)."""


@dataclass
class FuzzOptions:
    """How the fuzzer plays."""

    games: int = 100
    seed: int = 0
    max_steps: int = 100
    illegal: float = 0.15  # share of steps that try an action the rules refuse
    undo: float = 0.08  # share of steps that undo, where the adapter offers it
    generated: float = 0.5  # share of games from generated positions
    after_end: int = 3  # steps played on after the game is won or lost
    shrink_seconds: float = 60.0
    first: int = 0  # index of the first game (to replay one game of a run)


class _Replay:
    """Plays steps through the adapter and the reference, comparing after each.

    ``strict`` (when shrinking) raises :class:`_Invalid` as soon as a step no
    longer has the legality it had when the game was first played.
    """

    def __init__(self, client: AdapterClient, name: str, rules: RuleSet, stats: Stats, strict: bool) -> None:
        self.client, self.name, self.rules, self.stats, self.strict = (
            client, name, rules, stats, strict
        )
        self.history: list[Position] = []
        self.phase = "start"  # the request being answered, for faults
        self._cached: Position | None = None
        self._legal: tuple[Action, ...] = ()
        self._status = Status.PLAYING

    @property
    def position(self) -> Position:
        return self.history[-1]

    def _refresh(self) -> None:
        if self._cached is not self.position:
            self._cached = self.position
            self._legal = legal_actions(self.position, self.rules)
            self._status = status(self.position, self.rules)

    def legal(self) -> tuple[Action, ...]:
        """The reference's legal actions in the current position."""
        self._refresh()
        return self._legal

    def status(self) -> Status:
        self._refresh()
        return self._status

    def reference_state(self) -> dict[str, Any]:
        return {**position_to_json(self.position), "status": self.status().value}

    def start(self, position: Position) -> Difference | None:
        self.history = [position]
        self.phase = "start"
        try:
            state = self.client.start(self.name, position_to_json(position))
        except ErrorAnswer as error:
            if error.code == UNSUPPORTED_POSITION and cannot_arise(position, self.rules):
                raise _Unsupported from None  # a synthetic start it may refuse: no game to compare
            why = (" (a start a game can reach from a deal: only a synthetic one may be refused so)"
                   if error.code == UNSUPPORTED_POSITION else "")
            return Difference("start", -1, "start", f"the adapter refused the start position: "
                              f"{error.response.error.code}: {error.response.error.message}{why}")
        problem = state_difference(self.reference_state(), state)
        if problem:
            return Difference("start", -1, "start", "after start, " + problem, adapter_state=state)
        return self.compare_legal(-1)

    def compare_legal(self, index: int) -> Difference | None:
        expected = [action_to_json(a) for a in self.legal()]
        self.phase = "legal"
        try:
            listed = self.client.legal()
        except ErrorAnswer as error:
            return Difference("legal", index, "legal",
                              f"the adapter refused legal: {error.response.error.message}")
        self.stats.comparisons += 1
        self.stats.actions_compared += len(expected)
        found = legal_difference(expected, listed)
        if found is None:
            return None
        return Difference("legal", index, "legal", str(found), adapter_legal=listed)

    def step(self, index: int, step: Step) -> Difference | None:
        self.stats.steps += 1
        if step.kind == "undo":
            return self._undo(index, step)
        return self._play(index, step)

    def _undo(self, index: int, step: Step) -> Difference | None:
        allowed = len(self.history) > 1
        if self.strict and allowed != step.legal:
            raise _Invalid
        self.phase = "undo"
        response: Response = self.client.undo()
        if not allowed:
            if response.ok:
                return Difference("undo", index, "undo",
                                  "the adapter undid an action at the start of the game",
                                  adapter_state=response.state)
            if response.error is not None and response.error.code != "nothing-to-undo":
                return Difference("undo", index, "undo", "undo at the start was answered with "
                                  f"{response.error.code}, not nothing-to-undo")
            return self._unchanged(index, "undo")
        self.history.pop()
        if not response.ok:
            assert response.error is not None
            return Difference("undo", index, "undo", "the adapter refused undo: "
                              f"{response.error.code}: {response.error.message}")
        problem = state_difference(self.reference_state(), response.state or {})
        if problem:
            return Difference("undo", index, "undo", "after undo, " + problem,
                              adapter_state=response.state)
        return self.compare_legal(index)

    def _play(self, index: int, step: Step) -> Difference | None:
        assert step.action is not None
        try:
            outcome = apply(self.position, self.rules, step.action)
            refusal: IllegalAction | None = None
        except IllegalAction as error:
            refusal, outcome = error, None
        if self.strict and (refusal is None) != step.legal:
            raise _Invalid
        self.phase = "play"
        response: Response = self.client.play(action_to_json(step.action))
        said = _say(step.action)
        if refusal is not None:
            if response.ok:
                return Difference("accepted", index, "play",
                                  f"the adapter accepted {said}, which the rules refuse "
                                  f"({refusal.reason}: {refusal.message})",
                                  adapter_state=response.state)
            answer = response.error
            assert answer is not None
            if answer.code != "illegal-action":
                return Difference("reason", index, "play", f"{said} was refused with "
                                  f"{answer.code}, not illegal-action ({refusal.reason})")
            if answer.reason and answer.reason != refusal.reason:
                return Difference("reason", index, "play", f"{said} was refused as "
                                  f"{answer.reason}; the rules refuse it as {refusal.reason}")
            return self._unchanged(index, "play")
        assert outcome is not None
        self.history.append(outcome.position)
        if not response.ok:
            assert response.error is not None
            return Difference("refused", index, "play",
                              f"the adapter refused {said}, which the rules allow: "
                              f"{response.error.code} ({response.error.reason}): "
                              f"{response.error.message}")
        problem = state_difference(self.reference_state(), response.state or {})
        if problem:
            return Difference("state", index, "play", f"after {said}, " + problem,
                              adapter_state=response.state)
        return self.compare_legal(index)

    def _unchanged(self, index: int, phase: str) -> Difference | None:
        self.phase = "state"
        try:
            state = self.client.state()
        except ErrorAnswer as error:
            return Difference("unchanged", index, "state",
                              f"the adapter refused state: {error.response.error.message}")
        problem = state_difference(self.reference_state(), state)
        if problem:
            return Difference("unchanged", index, "state",
                              f"a refused {phase} changed the table: " + problem,
                              adapter_state=state)
        return None


@dataclass
class Failure:
    """A game on which the adapter and the reference disagree."""

    start: Position
    steps: list[Step]
    difference: Difference
    origin: str
    game: int


def play_game(
    client: AdapterClient, name: str, rules: RuleSet, start: Position,
    next_step: Callable[[_Replay, int], Step | None] | Sequence[Step],
    stats: Stats, *, strict: bool = False,
) -> tuple[list[Step], Difference | None]:
    """Play one game; returns the steps played and the first difference (or None).

    ``next_step`` is a list of steps to replay, or a chooser called with the
    replay (the reference side of the game) and the number of steps played.
    Raises :class:`_Invalid` in strict mode when a step changed its legality.
    """
    replay = _Replay(client, name, rules, stats, strict)
    played: list[Step] = []
    try:
        if not client.running and client.info is not None:
            client.restart()
        try:
            difference = replay.start(start)
        except _Unsupported:
            stats.unsupported += 1
            return played, None
        if difference is not None:
            return played, difference
        steps: Iterator[Step | None]
        if callable(next_step):
            chooser = next_step
            steps = iter(lambda: chooser(replay, len(played)), None)
        else:
            steps = iter(next_step)
        for step in steps:
            if step is None:
                break
            played.append(step)
            difference = replay.step(len(played) - 1, step)
            if difference is not None:
                return played, difference
    except AdapterError as error:
        return played, _fault(error, len(played) - 1, replay.phase)
    return played, None


def _positions_before(start: Position, rules: RuleSet, steps: Sequence[Step]) -> list[Position]:
    """The reference position before each step, and after the last one."""
    history = [start]
    positions = [start]
    for step in steps:
        if step.kind == "undo":
            if len(history) > 1:
                history.pop()
        elif is_legal(history[-1], rules, step.action):  # type: ignore[arg-type]
            history.append(apply(history[-1], rules, step.action).position)  # type: ignore[arg-type]
        positions.append(history[-1])
    return positions


def _valid(start: Position, rules: RuleSet, steps: Sequence[Step]) -> bool:
    """Whether every step keeps its legality when replayed from ``start``."""
    history = [start]
    for step in steps:
        if step.kind == "undo":
            if (len(history) > 1) != step.legal:
                return False
            if step.legal:
                history.pop()
            continue
        assert step.action is not None
        if is_legal(history[-1], rules, step.action) != step.legal:
            return False
        if step.legal:
            history.append(apply(history[-1], rules, step.action).position)
    return True
