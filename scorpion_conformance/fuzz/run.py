"""The fuzzing run: choosing each step of a game (a random legal action, a
refused probe, an undo, or a template's hint), and playing game after game
from the seed until the first difference, with a progress bar."""

from __future__ import annotations

import random
import sys
from typing import Any

from scorpion_ref import DECK, Action, Deal, Move, Position, RuleSet, Status, is_legal

from ..client import AdapterClient
from .layout import COLUMNS
from .play import Failure, FuzzOptions, Stats, Step, _Replay, play_game
from .positions import _game_start


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


def run_fuzz(client: AdapterClient, name: str, rules: RuleSet, options: FuzzOptions, *,
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
