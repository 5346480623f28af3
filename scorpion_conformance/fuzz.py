"""Differential fuzzing: play random games through an adapter and the reference side by side.

``scorpion-conformance fuzz --adapter CMD --rules SET`` starts games from
random deals (by game number) and from generated positions built around the
rare cases that random play from a deal almost never reaches (a run one move
or one stock deal from completion, a run over face-down cards, passengers
above the Ace, two runs completed by one action, the classic stock lock, a
whole-column King and empty columns, a near win). Each step plays a random
legal action, or now and then an action the rules refuse, or an undo where
the adapter offers it; after every step the accepted/refused answer (and the
refusal reason, when the adapter gives one), the state and the sorted legal
actions are compared with the reference engine.

On a difference the game is shrunk by delta debugging: the game is re-rooted
at the latest position from which it still fails, the action list is cut
down, and the start position loses every card, face-down card, stock card
and collected suit it can spare. The result is printed as a report and, with
``--emit-scenario FILE``, written as a Gherkin scenario in the suite's own
notation that passes against the reference and fails against the adapter.

Why our own shrinker and not Hypothesis's: a game here is a start position
plus actions named by card and column, and the useful reductions are
domain moves (start later in the game, drop a card from the table, turn a
card face up) that keep every remaining action meaningful. Hypothesis
shrinks the choice sequence behind the draws, where deleting one card
renumbers every later choice and turns the game into another one; it also
owns the example budget and seeding, while this command must play exactly
``--games`` games reproducibly from ``--seed`` with a progress bar.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from scorpion_ref import (
    DECK,
    Action,
    Card,
    Column,
    Deal,
    IllegalAction,
    Move,
    Position,
    Rank,
    RuleSet,
    Status,
    Suit,
    apply,
    deal_game,
    is_legal,
    legal_actions,
    status,
)
from scorpion_ref.serial import action_to_json, draw_position, position_to_json

from .errors import AdapterError, ErrorAnswer
from .protocol import Response, Undo
from .suite.notation import SUIT_SYMBOLS, show_action, show_card, show_column
from .suite.tags import NAMED_RULESETS, OPTION_TAGS

__all__ = [
    "Difference",
    "FuzzOptions",
    "LocalReference",
    "Step",
    "add_arguments",
    "build_scenario",
    "generate_position",
    "main",
    "run_fuzz",
    "scenario_text",
    "shrink",
    "state_difference",
]

COLUMNS = 7


# -- what a game is made of ---------------------------------------------------------


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
class Difference:
    """Where the adapter and the reference first disagree.

    ``step`` is the index of the step after which they disagree (-1: at the
    start); ``phase`` is the request that showed it (start, play, undo, state
    or legal); ``kind`` names the disagreement (start, accepted, refused,
    reason, unchanged, state, undo, legal, fault).
    """

    kind: str
    step: int
    phase: str
    message: str
    adapter_state: dict[str, Any] | None = None
    adapter_legal: list[dict[str, Any]] | None = None
    fault: str = ""

    def same_kind(self, other: Difference) -> bool:
        return self.kind == other.kind and self.fault == other.fault


@dataclass
class Stats:
    games: int = 0
    steps: int = 0
    comparisons: int = 0
    actions_compared: int = 0


class _Invalid(Exception):
    """A replayed step no longer does what it did (shrinking candidates only)."""


# -- comparing one step --------------------------------------------------------------


def _action_key(action: dict[str, Any]) -> tuple[str, str, int]:
    return (str(action.get("type")), str(action.get("card", "")), int(action.get("to", 0) or 0))


def _reference_state(position: Position, rules: RuleSet) -> dict[str, Any]:
    return {**position_to_json(position), "status": status(position, rules).value}


def state_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """How an adapter's state differs from the reference's, in words; None if equal.

    >>> state_difference({"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": [],
    ...                   "status": "lost"}, {"columns": [{"down": [], "up": []}], "stock": [],
    ...                   "removed": [], "status": "lost"})
    'column 1 reads (empty); the rules give 9♦'
    """
    problems = []
    columns = actual.get("columns") or []
    for number, want in enumerate(expected["columns"], start=1):
        got = columns[number - 1] if number <= len(columns) else {}
        if {"down": got.get("down"), "up": got.get("up")} != want:
            problems.append(
                f"column {number} reads {show_column(got)}; the rules give {show_column(want)}"
            )
    if list(actual.get("stock", [])) != expected["stock"]:
        problems.append(
            f"the stock holds {' '.join(map(show_card, actual.get('stock', []))) or 'nothing'};"
            f" the rules give {' '.join(map(show_card, expected['stock'])) or 'nothing'}"
        )
    if sorted(actual.get("removed", [])) != sorted(expected["removed"]):
        problems.append(
            f"the collected suits are {_suits(actual.get('removed', []))};"
            f" the rules give {_suits(expected['removed'])}"
        )
    if actual.get("status") != expected["status"]:
        problems.append(
            f"the status is {actual.get('status')}; the rules give {expected['status']}"
        )
    return "; ".join(problems) or None


def _suits(letters: Sequence[str]) -> str:
    return " ".join(SUIT_SYMBOLS.get(s, s) for s in sorted(letters)) or "none"


def _say(action: Action) -> str:
    return show_action(action_to_json(action))


class _Replay:
    """Plays steps through the adapter and the reference, comparing after each.

    ``strict`` (when shrinking) raises :class:`_Invalid` as soon as a step no
    longer has the legality it had when the game was first played.
    """

    def __init__(self, client: Any, name: str, rules: RuleSet, stats: Stats, strict: bool) -> None:
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
            return Difference("start", -1, "start", f"the adapter refused the start position: "
                              f"{error.response.error.code}: {error.response.error.message}")
        problem = state_difference(self.reference_state(), state)
        if problem:
            return Difference("start", -1, "start", "after start, " + problem, adapter_state=state)
        return self.compare_legal(-1)

    def compare_legal(self, index: int) -> Difference | None:
        expected = sorted(_action_key(action_to_json(a)) for a in self.legal())
        self.phase = "legal"
        try:
            listed = self.client.legal()
        except ErrorAnswer as error:
            return Difference("legal", index, "legal",
                              f"the adapter refused legal: {error.response.error.message}")
        actual = sorted(_action_key(a) for a in listed)
        self.stats.comparisons += 1
        self.stats.actions_compared += len(expected)
        if actual == expected:
            return None
        missing = sorted(set(expected) - set(actual))
        extra = sorted(set(actual) - set(expected))
        twice = sorted({k for k in actual if actual.count(k) > 1})
        parts = []
        if extra:
            parts.append("the adapter lists, the rules refuse: " + ", ".join(map(_show_key, extra)))
        if missing:
            parts.append("the rules allow, the adapter does not list: "
                         + ", ".join(map(_show_key, missing)))
        if twice:
            parts.append("listed more than once: " + ", ".join(map(_show_key, twice)))
        return Difference("legal", index, "legal", "; ".join(parts), adapter_legal=listed)

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
        response: Response = self.client.send(Undo())
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


def _show_key(key: tuple[str, str, int]) -> str:
    kind, card, to = key
    return show_action({"type": kind, "card": card, "to": to})


def _fault(error: AdapterError, index: int, phase: str) -> Difference:
    return Difference("fault", index, phase, str(error), fault=type(error).__name__)


# -- generated positions around the rare cases ------------------------------------


def _cards(suit: Suit, high: int, low: int) -> list[Card]:
    """The cards of ``suit`` from rank ``high`` down to rank ``low``."""
    return [Card(Rank(r), suit) for r in range(high, low - 1, -1)]


class _Layout:
    """A position being built: cards planted by templates, then random filler below."""

    def __init__(self, rng: random.Random, rules: RuleSet) -> None:
        self.rng, self.rules = rng, rules
        self.planted: list[list[Card]] = [[] for _ in range(COLUMNS)]
        self.hidden: list[list[Card]] = [[] for _ in range(COLUMNS)]  # face down right under
        self.whole: set[int] = set()  # columns that get no filler under their planted cards
        self.empty: set[int] = set()  # columns that stay empty
        self.stock: list[Card] | None = None
        self.removed: set[Suit] = set()
        self.used: set[Card] = set()
        self.hints: list[Action] = []
        self.density: str | None = None

    def free(self) -> list[Card]:
        return [c for c in DECK if c not in self.used and c.suit not in self.removed]

    def free_suits(self) -> list[Suit]:
        return [s for s in Suit
                if s not in self.removed and all(c.suit is not s for c in self.used)]

    def open_columns(self) -> list[int]:
        return [i for i in range(COLUMNS)
                if not self.planted[i] and not self.hidden[i] and i not in self.empty]

    def take(self, cards: Sequence[Card]) -> list[Card]:
        self.used.update(cards)
        return list(cards)

    def draw(self, count: int) -> list[Card]:
        free = self.free()
        return self.take(self.rng.sample(free, min(count, len(free))))

    def finish(self) -> Position:
        rng = self.rng
        free = self.free()
        rng.shuffle(free)
        if self.stock is None:
            roll = rng.random()
            size = 3 if roll < 0.5 else 0 if roll < 0.8 else rng.randint(1, 2)
            self.stock, free = free[:size], free[size:]
        density = self.density or rng.choice(("sparse", "medium", "full"))
        count = {"sparse": min(len(free), rng.randint(0, 10)),
                 "medium": rng.randint(0, len(free)), "full": len(free)}[density]
        targets = [i for i in range(COLUMNS) if i not in self.empty and i not in self.whole]
        if density != "full" and len(targets) > 2 and rng.random() < 0.4:
            targets.remove(rng.choice([t for t in targets if not self.planted[t]] or targets))
        bases: list[list[Card]] = [[] for _ in range(COLUMNS)]
        for card in free[:count] if targets else []:
            bases[rng.choice(targets)].append(card)
        columns = []
        for i in range(COLUMNS):
            base, up = bases[i], list(self.planted[i])
            if self.hidden[i]:
                columns.append(Column(tuple(base + self.hidden[i]), tuple(up)))
                continue
            hidden = rng.randint(0, len(base)) if rng.random() < 0.6 else 0
            if hidden == len(base) and not up:
                hidden = max(0, hidden - 1)
            columns.append(Column(tuple(base[:hidden]), tuple(base[hidden:] + up)))
        return Position(tuple(columns), tuple(self.stock), frozenset(self.removed))


def _run_one_move(layout: _Layout, suit: Suit | None = None) -> bool:
    """A run one move from completion: its top part waits in one column for the rest."""
    rng = layout.rng
    suits, columns = layout.free_suits(), layout.open_columns()
    if suit is None and suits:
        suit = rng.choice(suits)
    if suit is None or suit not in suits or len(columns) < 2:
        return False
    a, b = rng.sample(columns, 2)
    split = rng.choice([1, 1, 1, 1, 2, 3, *range(2, 13)])  # ranks split..A move onto split+1
    high, low = layout.take(_cards(suit, 13, split + 1)), layout.take(_cards(suit, split, 1))
    if rng.random() < 0.3:
        layout.hidden[a] = layout.draw(rng.randint(1, 3))  # the run lies over face-down cards
    if len(high) > 1 and rng.random() < 0.1:
        layout.hidden[a] = [*layout.hidden[a], high[0]]  # its King is face down
        high = high[1:]
    layout.planted[a] = high
    passengers = layout.draw(rng.randint(1, 3)) if rng.random() < 0.35 else []
    layout.planted[b] = low + passengers  # passengers above the Ace
    layout.hints.append(Move(low[0], a + 1))
    return True


def _run_one_deal(layout: _Layout) -> bool:
    """The stock deal completes one to three runs (and may land on empty columns)."""
    rng = layout.rng
    if layout.stock is not None:
        return False
    size = rng.choice((1, 2, 3, 3, 3))
    columns = [i for i in range(size) if i in layout.open_columns()]
    suits = layout.free_suits()
    if not columns or not suits or len(layout.free()) < 13 * len(columns) + size:
        return False
    chosen = rng.sample(columns, min(len(suits), rng.randint(1, len(columns))))
    stock: list[Card | None] = [None] * size
    for i in chosen:
        suit = suits.pop(rng.randrange(len(suits)))
        layout.planted[i] = layout.take(_cards(suit, 13, 2))
        stock[i] = layout.take([Card(Rank.ACE, suit)])[0]
    for i in chosen:
        if rng.random() < 0.3:
            layout.hidden[i] = layout.draw(rng.randint(1, 2))
    for i in range(size):
        if stock[i] is None:
            if i in layout.open_columns() and rng.random() < 0.4:
                layout.empty.add(i)
            stock[i] = layout.draw(1)[0]
    layout.stock = [c for c in stock if c is not None]
    layout.hints.append(Deal())
    return True


def _stacked_runs(layout: _Layout) -> bool:
    """A complete run under a run one Ace short: one action collects both."""
    rng = layout.rng
    suits, columns = layout.free_suits(), layout.open_columns()
    if len(suits) < 2 or len(columns) < 2:
        return False
    first, second = rng.sample(suits, 2)
    a, b = rng.sample(columns, 2)
    ace = Card(Rank.ACE, second)
    layout.planted[a] = layout.take(_cards(first, 13, 1) + _cards(second, 13, 2))
    layout.take([ace])
    if a < 3 and layout.stock is None and rng.random() < 0.4:
        layout.stock = [ace if i == a else layout.draw(1)[0] for i in range(a + 1)]
        layout.hints.append(Deal())
    else:
        layout.planted[b] = [ace]
        layout.hints.append(Move(ace, a + 1))
    return True


def _complete_run(layout: _Layout) -> bool:
    """A complete run already on the table, maybe with passengers, and another one
    move from completion."""
    rng = layout.rng
    suits, columns = layout.free_suits(), layout.open_columns()
    if not suits or not columns:
        return False
    a = rng.choice(columns)
    run = layout.take(_cards(rng.choice(suits), 13, 1))
    passengers = layout.draw(rng.randint(1, 2)) if rng.random() < 0.4 else []
    layout.planted[a] = run + passengers
    if rng.random() < 0.3:
        layout.whole.add(a)
    _run_one_move(layout)
    return True


def _whole_column(layout: _Layout) -> bool:
    """Empty columns, a whole column led by a King, a Queen carrying a King."""
    rng = layout.rng
    columns = layout.open_columns()
    if len(columns) < 3:
        return False
    rng.shuffle(columns)
    for i in columns[: rng.randint(1, 2)]:
        layout.empty.add(i)
    columns = layout.open_columns()
    kings = [c for c in layout.free() if c.rank is Rank.KING]
    if not kings:
        return False
    a = columns.pop()
    king = layout.take([rng.choice(kings)])[0]
    layout.planted[a] = [king, *layout.draw(rng.randint(0, 3))]
    layout.whole.add(a)
    layout.hints.append(Move(king, min(layout.empty) + 1))
    kings = [c for c in layout.free() if c.rank is Rank.KING]
    if columns and kings and rng.random() < 0.6:
        b = columns.pop()
        queen = [c for c in layout.free() if c.rank is not Rank.KING]
        leader = layout.take([rng.choice(queen)])[0]
        carried = layout.take([rng.choice(kings)])[0]
        layout.planted[b] = [leader, *layout.draw(rng.randint(0, 1)), carried]
        if rng.random() < 0.5:
            layout.whole.add(b)
    return True


def _space_and_stock(layout: _Layout) -> bool:
    """Empty columns among the first three while the stock still holds cards."""
    rng = layout.rng
    if layout.stock is not None:
        return False
    size = rng.choice((1, 2, 3, 3))
    spaces = [i for i in range(size) if i in layout.open_columns()]
    if not spaces:
        return False
    for i in rng.sample(spaces, rng.randint(1, len(spaces))):
        layout.empty.add(i)
    layout.stock = layout.draw(size)
    layout.hints.append(Deal())
    return True


def _stock_lock(layout: _Layout) -> bool:
    """Few cards, a full stock and (after the rejection in generate_position) at
    most one available move: the classic stock lock and its neighbours."""
    rng = layout.rng
    layout.density = "sparse"
    layout.stock = layout.draw(3)
    if rng.random() < 0.6:
        _whole_column(layout)
    if layout.rules.runs == "stay" and rng.random() < 0.5:
        columns, suits = layout.open_columns(), layout.free_suits()
        if columns and suits:
            a = rng.choice(columns)
            run = layout.take(_cards(rng.choice(suits), 13, 1))
            layout.planted[a] = layout.draw(1) + run
    layout.hints.append(Deal())
    return True


def _near_win(layout: _Layout) -> bool:
    """Three runs done (collected or standing alone), the fourth one move away."""
    rng = layout.rng
    if layout.used or layout.stock is not None:
        return False  # only as the first template: it needs the whole deck
    suits = list(Suit)
    rng.shuffle(suits)
    if layout.rules.runs == "collect":
        layout.removed.update(suits[:3])
    else:
        for suit, column in zip(suits[:3], rng.sample(range(COLUMNS), 3), strict=True):
            layout.planted[column] = layout.take(_cards(suit, 13, 1))
            layout.whole.add(column)
        if rng.random() < 0.7:
            layout.stock = []
    return _run_one_move(layout, suits[3])


#: The templates and how often each is drawn.
TEMPLATES: dict[str, tuple[Callable[[_Layout], bool], int]] = {
    "run-one-move": (_run_one_move, 4),
    "run-one-deal": (_run_one_deal, 3),
    "stacked-runs": (_stacked_runs, 2),
    "complete-run": (_complete_run, 2),
    "whole-column": (_whole_column, 3),
    "space-and-stock": (_space_and_stock, 2),
    "stock-lock": (_stock_lock, 3),
    "near-win": (_near_win, 2),
    "random": (lambda layout: True, 1),
}


def generate_position(rng: random.Random, rules: RuleSet) -> tuple[str, Position, list[Action]]:
    """A random position built around a rare case: (template name, position, hinted actions).

    >>> name, position, hints = generate_position(random.Random(1), RuleSet.from_options(
    ...     "x", {"runs": "collect", "stock": "any-time", "empty_column": "king",
    ...           "whole_column_to_empty": "refused"}))
    >>> name in TEMPLATES and isinstance(position, Position)
    True
    """
    names = list(TEMPLATES)
    weights = [TEMPLATES[n][1] for n in names]
    for _ in range(30):
        name = rng.choices(names, weights)[0]
        layout = _Layout(rng, rules)
        if not TEMPLATES[name][0](layout):
            continue
        if rng.random() < 0.25:
            extra = rng.choices(names, weights)[0]
            TEMPLATES[extra][0](layout)
        position = layout.finish()
        if name == "stock-lock":
            moves = [a for a in legal_actions(position, rules) if not isinstance(a, Deal)]
            if len(moves) > 1 and _ < 29:
                continue
        return name, position, layout.hints
    return "random", _Layout(rng, rules).finish(), []  # pragma: no cover - 30 failures in a row


# -- choosing the next step -----------------------------------------------------------


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


def _illegal_probe(rng: random.Random, position: Position, rules: RuleSet) -> Action | None:
    """An action the rules refuse here, often a near miss."""
    faceup = [c for column in position.columns for c in column.up]
    roll = rng.random()
    candidates: list[Action] = []
    if roll < 0.55:
        for card in faceup:
            for to, column in enumerate(position.columns, start=1):
                top = column.top
                if top is None or top.rank == card.rank + 1 or top.suit is card.suit:
                    candidates.append(Move(card, to))
    elif roll < 0.65:
        candidates = [Move(c, rng.randint(1, COLUMNS))
                      for column in position.columns for c in column.down]
    elif roll < 0.75:
        present = set(position.cards())
        away = [c for c in DECK if c not in present or c in position.stock]
        candidates = [Move(c, rng.randint(1, COLUMNS)) for c in rng.sample(away, min(5, len(away)))]
    elif roll < 0.85:
        candidates = [Deal()]
    else:
        candidates = [Move(c, to) for c in faceup for to in range(1, COLUMNS + 1)]
    rng.shuffle(candidates)
    for action in candidates[:60]:
        if not is_legal(position, rules, action):
            return action
    return None


class _Chooser:
    """Draws the steps of one game from its random generator."""

    def __init__(self, rng: random.Random, rules: RuleSet, options: FuzzOptions,
                 can_undo: bool, hints: list[Action]) -> None:
        self.rng, self.rules, self.options, self.can_undo = rng, rules, options, can_undo
        self.hints = list(hints) if rng.random() < 0.6 else []
        self.after_end = 0
        self.stuck = 0  # steps taken where no action was legal

    def __call__(self, replay: _Replay, played: int) -> Step | None:
        rng, options = self.rng, self.options
        position, depth = replay.position, len(replay.history) - 1
        if played >= options.max_steps:
            return None
        if replay.status() is not Status.PLAYING:
            self.after_end += 1
            if self.after_end > options.after_end:
                return None
        legal = replay.legal()
        if not legal:
            self.stuck += 1
            if self.stuck > 2:
                return None
        while self.hints:
            hint = self.hints.pop(0)
            if hint in legal:
                return Step("play", hint, True)
        roll = rng.random()
        if self.can_undo and (roll < options.undo or (not legal and depth and roll < 0.5)):
            return Step("undo", None, depth > 0)
        if roll < options.undo + options.illegal or not legal:
            probe = _illegal_probe(rng, position, self.rules)
            if probe is not None:
                return Step("play", probe, False)
        if not legal:
            return None
        return Step("play", rng.choice(legal), True)


# -- playing games ----------------------------------------------------------------------


@dataclass
class Failure:
    """A game on which the adapter and the reference disagree."""

    start: Position
    steps: list[Step]
    difference: Difference
    origin: str
    game: int


def play_game(
    client: Any, name: str, rules: RuleSet, start: Position,
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
        difference = replay.start(start)
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


# -- shrinking ------------------------------------------------------------------------------


def _reduce(items: list[Any], test: Callable[[list[Any]], bool]) -> list[Any]:
    """Delete chunks (halves, quarters, ... single items) while ``test`` still holds."""
    chunk = max(len(items) // 2, 1)
    while items:
        i = 0
        while i < len(items):
            candidate = items[:i] + items[i + chunk:]
            if test(candidate):
                items = candidate
            else:
                i += chunk
        if chunk == 1:
            break
        chunk = max(chunk // 2, 1)
    return items


def _without(position: Position, keep: set[Card]) -> Position:
    """``position`` with only the table cards in ``keep`` (a column left with only
    face-down cards has its top one turned up)."""
    columns = []
    for column in position.columns:
        down = tuple(c for c in column.down if c in keep)
        up = tuple(c for c in column.up if c in keep)
        if down and not up:
            down, up = down[:-1], down[-1:]
        columns.append(Column(down, up))
    return Position(tuple(columns), position.stock, position.removed)


def _position_candidates(position: Position) -> Iterator[Position]:
    """Simpler variants of ``position``, the boldest first."""
    if position.stock:
        yield Position(position.columns, (), position.removed)
        for i in range(len(position.stock)):
            yield Position(position.columns, position.stock[:i] + position.stock[i + 1:],
                           position.removed)
    for suit in sorted(position.removed, key=lambda s: s.value):
        yield Position(position.columns, position.stock, position.removed - {suit})
    for i, column in enumerate(position.columns):
        if column.down:
            yield position.replace(i, Column((), column.down + column.up))
            yield position.replace(i, Column(column.down[:-1], column.down[-1:] + column.up))


class Shrinker:
    """Delta debugging of a failure: re-root, cut actions, simplify the position.

    Every candidate is first replayed on the reference alone (each step must
    keep the legality it had), then through the adapter; it is kept when it
    shows a difference of the same kind and is no longer than the best so far.
    """

    def __init__(self, client: Any, name: str, rules: RuleSet, failure: Failure,
                 seconds: float) -> None:
        self.client, self.name, self.rules = client, name, rules
        self.target = failure.difference
        self.best = Failure(failure.start, failure.steps[: failure.difference.step + 1],
                            failure.difference, failure.origin, failure.game)
        self.deadline = time.monotonic() + seconds
        self.cache: dict[tuple[Position, tuple[Step, ...]], Difference | None] = {}
        self.tests = 0
        self.stats = Stats()

    def test(self, start: Position, steps: Sequence[Step]) -> Difference | None:
        """The difference this candidate shows, if it is of the target's kind."""
        key = (start, tuple(steps))
        if key in self.cache:
            return self.cache[key]
        result = None
        if time.monotonic() < self.deadline and _valid(start, self.rules, steps):
            self.tests += 1
            try:
                _, found = play_game(self.client, self.name, self.rules, start, list(steps),
                                     self.stats, strict=True)
            except _Invalid:
                found = None
            if found is not None and found.same_kind(self.target):
                result = found
        self.cache[key] = result
        return result

    def keep(self, start: Position, steps: Sequence[Step]) -> bool:
        """Test a candidate and make it the best one if it fails the same way."""
        if len(steps) > len(self.best.steps):
            return False
        found = self.test(start, steps)
        if found is None:
            return False
        self.best = Failure(start, list(steps[: found.step + 1]), found,
                            self.best.origin, self.best.game)
        return True

    def keep_cards(self, kept: Sequence[Card]) -> bool:
        candidate = _without(self.best.start, set(kept))
        return candidate is not None and self.keep(candidate, self.best.steps)

    def shrink(self) -> Failure:
        best = self.best
        positions = _positions_before(best.start, self.rules, best.steps)
        for k in range(len(best.steps), 0, -1):  # the latest start that still fails
            if self.keep(positions[k], best.steps[k:]):
                break
        for _ in range(4):
            before = (self.best.start, tuple(self.best.steps))
            _reduce(list(self.best.steps), lambda steps: self.keep(self.best.start, steps))
            cards = [c for column in self.best.start.columns for c in column.cards()]
            _reduce(cards, self.keep_cards)
            while any(self.keep(p, self.best.steps) for p in _position_candidates(self.best.start)):
                pass
            if (self.best.start, tuple(self.best.steps)) == before:
                break
        return self.best


def shrink(client: Any, name: str, rules: RuleSet, failure: Failure,
           seconds: float = 60.0) -> tuple[Failure, int]:
    """The shortest failing game found within ``seconds``, and how many replays it took."""
    shrinker = Shrinker(client, name, rules, failure, seconds)
    return shrinker.shrink(), shrinker.tests


# -- the scenario ---------------------------------------------------------------------


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
    suits = sorted(start.removed, key=lambda s: s.value)
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
        now = suit in after.removed
        differs = adapter is not None and (suit.value in adapter.get("removed", [])) != now
        if now != (suit in before.removed) or differs:
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
    expected = {_action_key(action_to_json(a)) for a in legal_actions(position, rules)}
    listed = {_action_key(a) for a in difference.adapter_legal}

    def say(keys: set[tuple[str, str, int]]) -> str:
        named = ["the deal" if k[0] == "deal" else _show_key(k) for k in sorted(keys)]
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
    collected = sorted(after.removed - before.removed, key=lambda s: s.value)
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


class LocalReference:
    """The reference adapter's session called in this process, with the harness
    client's methods: checks scenarios fast, and is the benchmarks' baseline."""

    running = True

    def __init__(self) -> None:
        from scorpion_ref.adapter import Session

        from .protocol import HelloInfo

        self.session = Session()
        self.info = HelloInfo.from_json(self._send({"cmd": "hello", "protocol": 1}))

    def _send(self, request: dict[str, Any]) -> dict[str, Any]:
        body, _ = self.session.respond(json.dumps(request).encode())
        return body

    def _ok(self, request: dict[str, Any]) -> dict[str, Any]:
        body = self._send(request)
        if not body["ok"]:
            raise RuntimeError(f"the reference refused {request}: {body['error']}")
        return body

    def start(self, rules: str, position: dict[str, Any]) -> dict[str, Any]:
        return dict(self._ok({"cmd": "start", "rules": rules, "position": position})["state"])

    def legal(self) -> list[dict[str, Any]]:
        return list(self._ok({"cmd": "legal"})["actions"])

    def play(self, action: dict[str, Any]) -> Response:
        return Response("play", self._send({"cmd": "play", "action": action}))

    def state(self) -> dict[str, Any]:
        return dict(self._ok({"cmd": "state"})["state"])

    def send(self, request: Any) -> Response:
        return Response(request.cmd, self._send(request.to_json()))


def _run_scenario(text: str, client: Any, rules: str) -> str | None:
    """Run the scenario of ``text`` (a feature file) through ``client``; the failure
    message, or None when it passes."""
    from .suite.execute import ScenarioFailure, ScenarioRun
    from .suite.scenarios import load_cases

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "fuzz.feature").write_text(text, encoding="utf-8")
        (case,) = load_cases(Path(folder))
        instructions = case.instructions()
    run = ScenarioRun(client, rules)
    try:
        for instruction in instructions:
            if "given" in instruction:
                run.given(instruction)
            elif "do" in instruction:
                run.do(instruction)
            else:
                run.expect(instruction)
    except (ScenarioFailure, ErrorAnswer, AdapterError) as error:
        return str(error).splitlines()[0]
    return None


_FEATURE_HEADER = """Feature: Differences found by fuzzing
  Each scenario is a game on which an implementation and the reference engine
  disagreed, found and shrunk by `scorpion-conformance fuzz`.
"""


def _option_tags(options: dict[str, str]) -> list[str]:
    return [tag for tag, (option, value) in OPTION_TAGS.items() if options.get(option) == value]


def _minimal_tags(options: dict[str, str], passes: dict[str, bool]) -> list[str]:
    """The fewest option tags that the rule set satisfies and under which every
    matching named rule set passes the scenario (greedy, from the full set)."""
    from .suite.tags import matches, requirements

    def works(tags: list[str]) -> bool:
        required, _ = requirements(tags)
        names = [n for n, o in NAMED_RULESETS.items() if matches(o, required)]
        return bool(names) and all(passes.get(n, False) for n in names)

    tags = _option_tags(options)
    if not works(tags):
        return tags
    for tag in list(reversed(tags)):
        fewer = [t for t in tags if t != tag]
        if works(fewer):
            tags = fewer
    return tags


def next_fuzz_id(paths: Sequence[Path]) -> str:
    """``FUZZ-NNN`` one above the highest FUZZ id in these feature files."""
    highest = 0
    for path in paths:
        if path.is_file():
            found = re.findall(r"@id:FUZZ-(\d+)", path.read_text(encoding="utf-8"))
            highest = max([highest, *map(int, found)])
    return f"FUZZ-{highest + 1:03d}"


def scenario_text(failure: Failure, name: str, rules: RuleSet, *, fuzz_id: str,
                  tags: Sequence[str] | None = None, comments: Sequence[str] = ()) -> str:
    """The failure as one Gherkin scenario block in the suite's notation."""
    title, body = _scenario_body(failure, rules)
    uses_undo = any(s.kind == "undo" for s in failure.steps)
    option_tags = list(tags) if tags is not None else _option_tags(rules.options)
    all_tags = [f"id:{fuzz_id}", *option_tags, *(["undo"] if uses_undo else [])]
    return _render(all_tags, f"{title} ({fuzz_id.lower()})", body, comments)


def build_scenario(failure: Failure, name: str, rules: RuleSet, client: Any,
                   comments: Sequence[str], known: Sequence[Path]) -> tuple[str, list[str]]:
    """The failure as a checked scenario block, and notes on how it was checked.

    Its id is one above the FUZZ ids of the ``known`` feature files; its option
    tags are the fewest under which every matching named rule set passes it
    against the reference (run in this process); it is also run against the
    adapter, where it must fail.
    """
    fuzz_id = next_fuzz_id(known)
    draft = _FEATURE_HEADER + "\n" + scenario_text(failure, name, rules, fuzz_id=fuzz_id)
    passes = {n: _run_scenario(draft, LocalReference(), n) is None for n in NAMED_RULESETS}
    tags = _minimal_tags(rules.options, passes)
    text = scenario_text(failure, name, rules, fuzz_id=fuzz_id, tags=tags, comments=comments)
    good = [n for n, ok in passes.items() if ok]
    notes = [f"passes against the reference under {', '.join(good) or 'no named rule set'}"]
    if name in NAMED_RULESETS and name not in good:
        notes.append(f"WARNING: fails against the reference under {name}: please report this")
    against = _run_scenario(_FEATURE_HEADER + "\n" + text, client, name)
    notes.append(f"fails against the adapter under {name}: {against}" if against else
                 "WARNING: passes against the adapter (the step library cannot say this "
                 "difference)")
    return text, notes


def write_scenario(target: Path, text: str) -> None:
    """Append the scenario to the feature file ``target``, or start one."""
    if target.exists() and target.read_text(encoding="utf-8").strip():
        existing = target.read_text(encoding="utf-8").rstrip("\n")
        target.write_text(existing + "\n\n" + text, encoding="utf-8")
    else:
        target.write_text(_FEATURE_HEADER + "\n" + text, encoding="utf-8")


# -- the run ---------------------------------------------------------------------------


def _game_start(rng: random.Random, rules: RuleSet, options: FuzzOptions,
                positions: str) -> tuple[str, Position, list[Action]]:
    generated = positions == "generated" or (
        positions == "both" and rng.random() < options.generated
    )
    if generated:
        template, position, hints = generate_position(rng, rules)
        return f"generated position ({template})", position, hints
    number = rng.randint(1, 31999) if rng.random() < 0.5 else rng.randint(32000, 2**31)
    return f"deal of game {number}", deal_game(number), []


class _NoBar:
    def update(self, n: int = 1) -> None: ...
    def set_postfix_str(self, text: str) -> None: ...
    def close(self) -> None: ...


def _progress(total: int, enabled: bool) -> Any:
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return _NoBar()
    return tqdm(total=total, unit="game", file=sys.stderr, disable=None, dynamic_ncols=True,
                leave=False)


def run_fuzz(client: Any, name: str, rules: RuleSet, options: FuzzOptions, *,
             positions: str = "both", progress: bool = True) -> tuple[Failure | None, Stats]:
    """Play ``options.games`` games; stop at the first difference."""
    stats = Stats()
    can_undo = client.info is not None and client.info.offers("undo")
    bar = _progress(options.games, progress)
    try:
        for index in range(options.first, options.first + options.games):
            rng = random.Random(f"{options.seed}:{index}")
            origin, start, hints = _game_start(rng, rules, options, positions)
            chooser = _Chooser(rng, rules, options, can_undo, hints)
            steps, difference = play_game(client, name, rules, start, chooser, stats)
            stats.games += 1
            bar.update()
            bar.set_postfix_str(f"{stats.steps:,} steps")
            if difference is not None:
                return Failure(start, steps, difference, origin, index), stats
    finally:
        bar.close()
    return None, stats


def _draw(position: Position) -> list[str]:
    return ["    " + line for line in draw_position(position).splitlines()]


def report(failure: Failure, original: Failure, tests: int, out: TextIO) -> None:
    """Print a found difference as people read it."""
    difference = failure.difference
    print(f"DIFFERENCE ({difference.kind}) in game #{failure.game}, from the "
          f"{failure.origin}:", file=out)
    print(f"  {difference.message}", file=out)
    print(f"shrunk from {len(original.steps)} steps and "
          f"{sum(1 for _ in original.start.cards())} cards to {len(failure.steps)} steps and "
          f"{sum(1 for _ in failure.start.cards())} cards ({tests} replays)", file=out)
    print("start position:", file=out)
    for line in _draw(failure.start):
        print(line, file=out)
    print("  JSON: " + json.dumps(position_to_json(failure.start), separators=(",", ":")),
          file=out)
    print("steps:" if failure.steps else "steps: none (the difference shows at the start)",
          file=out)
    for number, step in enumerate(failure.steps, start=1):
        print(f"  {number}. {step}", file=out)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance fuzz``."""
    parser.description = ("Play random games through an adapter and the reference side by "
                          "side; shrink the first difference to a scenario.")
    parser.add_argument("--adapter", help="command that starts the adapter "
                        "(default: the reference adapter)")
    parser.add_argument("--rules", required=True, help="the rule set to play (one the adapter "
                        "declares)")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, help="the random seed (default: a new one, printed)")
    parser.add_argument("--max-steps", type=int, default=100,
                        help="the longest game, in steps (default 100)")
    parser.add_argument("--emit-scenario", type=Path, metavar="FILE",
                        help="write the shrunk difference as a Gherkin scenario into FILE "
                        "(appended when FILE exists)")
    parser.add_argument("--positions", choices=("both", "deals", "generated"), default="both",
                        help="start from deals, generated rare-case positions, or both (default)")
    parser.add_argument("--first-game", type=int, default=0, metavar="I",
                        help="start at game #I of the seed's sequence (to replay one game)")
    parser.add_argument("--shrink-seconds", type=float, default=60.0,
                        help="how long shrinking may take (default 60)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for each answer of the adapter (default 5)")
    parser.add_argument("--features", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``scorpion-conformance fuzz``: 0 clean, 1 a difference, 2 a usage error,
    3 an adapter that could not be used at all."""
    from .harness import AdapterClient

    out = out or sys.stdout
    command = args.adapter or f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    options = FuzzOptions(games=args.games, seed=seed, max_steps=args.max_steps,
                          shrink_seconds=args.shrink_seconds, first=args.first_game)
    if args.games < 1 or args.max_steps < 1:
        print("scorpion-conformance fuzz: --games and --max-steps must be 1 or more",
              file=sys.stderr)
        return 2
    client = AdapterClient(command, timeout=args.timeout, max_restarts=10)
    try:
        try:
            info = client.hello()
        except AdapterError as error:
            print(f"the adapter could not be used:\n{error}", file=sys.stderr)
            return 3
        declared = info.rulesets_resolved()
        if args.rules not in declared:
            print(f"scorpion-conformance fuzz: the adapter does not declare {args.rules!r}; "
                  f"it declares {', '.join(declared)}", file=sys.stderr)
            return 2
        rules = RuleSet.from_options(args.rules, declared[args.rules])
        began = time.perf_counter()
        failure, stats = run_fuzz(client, args.rules, rules, options,
                                  positions=args.positions, progress=not args.no_progress)
        elapsed = time.perf_counter() - began
        _summary(stats, elapsed, seed, out)
        if failure is None:
            return 0
        print("shrinking the failing game...", file=sys.stderr)
        shrunk, tests = shrink(client, args.rules, rules, failure, options.shrink_seconds)
        report(shrunk, failure, tests, out)
        rerun = ["scorpion-conformance", "fuzz", "--adapter", command, "--rules", args.rules,
                 "--seed", str(seed), "--first-game", str(failure.game), "--games", "1",
                 "--max-steps", str(args.max_steps)]
        comments = [
            f"Found by: {shlex.join(rerun)}",
            f"({failure.origin}; {shrunk.difference.message[:200]})",
        ]
        from .suite.scenarios import feature_dir, feature_files

        known = feature_files(args.features or feature_dir())
        if args.emit_scenario:
            known += [*feature_files(args.emit_scenario.parent), args.emit_scenario]
        text, notes = build_scenario(shrunk, args.rules, rules, client, comments, known)
        if args.emit_scenario:
            write_scenario(args.emit_scenario, text)
            print(f"scenario written to {args.emit_scenario}:", file=out)
        else:
            print("as a scenario (write it into a feature file with --emit-scenario FILE):",
                  file=out)
        print(text, file=out)
        for note in notes:
            print(f"({note})", file=out)
        print("reproduce with: " + shlex.join(rerun), file=out)
        return 1
    finally:
        client.close()


def _summary(stats: Stats, elapsed: float, seed: int, out: TextIO) -> None:
    def rate(count: int) -> str:
        return f"{count / elapsed:,.0f}" if elapsed > 0 else "-"

    print(f"{stats.games:,} games, {stats.steps:,} steps, {stats.actions_compared:,} legal "
          f"actions compared in {elapsed:.1f} s ({rate(stats.games)} games/s, "
          f"{rate(stats.steps)} steps/s, {rate(stats.actions_compared)} actions/s); "
          f"seed {seed}", file=out)
