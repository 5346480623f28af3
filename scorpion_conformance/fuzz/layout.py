"""A position being built by the fuzzer's templates (:mod:`.positions`, :mod:`.shapes`):
the cards each template plants, then random filler below them."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scorpion_ref import DECK, Action, Card, Column, Position, Rank, RuleSet, Suit

__all__ = ["COLUMNS", "Layout", "cards_of"]

COLUMNS = 7


def cards_of(suit: Suit, high: int, low: int) -> list[Card]:
    """The cards of ``suit`` from rank ``high`` down to rank ``low``."""
    return [Card(Rank(r), suit) for r in range(high, low - 1, -1)]


class Layout:
    """A position being built: cards planted by templates, then random filler below."""

    def __init__(self, rng: random.Random, rules: RuleSet) -> None:
        self.rng, self.rules = rng, rules
        self.planted: list[list[Card]] = [[] for _ in range(COLUMNS)]
        self.hidden: list[list[Card]] = [[] for _ in range(COLUMNS)]  # face down right under
        self.whole: set[int] = set()  # columns that get no filler under their planted cards
        self.empty: set[int] = set()  # columns that stay empty
        self.stock: list[Card] | None = None
        self.collected: set[Suit] = set()
        self.used: set[Card] = set()
        self.hints: list[Action] = []
        self.density: str | None = None

    def free(self) -> list[Card]:
        return [c for c in DECK if c not in self.used and c.suit not in self.collected]

    def free_suits(self) -> list[Suit]:
        return [s for s in Suit
                if s not in self.collected and all(c.suit is not s for c in self.used)]

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
        return Position(tuple(columns), tuple(self.stock), frozenset(self.collected))
