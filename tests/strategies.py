"""Hypothesis strategies shared by the property tests.

Positions come in three flavours:

* :func:`positions`: anything the :class:`Position` constructor accepts
  (cards missing, suits collected, empty columns, a short stock), for the
  tests that compare the two legality paths;
* :func:`played_positions`: a dealt game after a few random legal actions;
* :func:`near_complete_positions`: all 52 cards, arranged so that a run is one
  move or one stock deal from completion, sits over face-down cards, carries
  passengers above its Ace, or shares its column with a second run.

Every strategy returns real values (``Position``, ``RuleSet``, ``Action``), so a
shrunk example prints as code that can be pasted into a test.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import strategies as st

from scorpion_ref import (
    COLUMNS,
    DECK,
    OPTIONS,
    RULESETS,
    Card,
    Column,
    Deal,
    Move,
    Position,
    Rank,
    RuleSet,
    Suit,
    apply,
    deal_game,
    legal_actions,
)

__all__ = [
    "actions",
    "all_rulesets",
    "candidate_actions",
    "game_numbers",
    "named_rulesets",
    "near_complete_positions",
    "played_positions",
    "positions",
    "rulesets",
    "run",
]

#: Game numbers on both sides of PySolFC's switch of generator, and far beyond.
game_numbers = st.one_of(
    st.integers(1, 40_000),
    st.integers(31_990, 32_010),
    st.integers(1, 10**20 - 1),
)

named_rulesets = st.sampled_from(list(RULESETS.values()))

#: Every combination of the options, named or not.
all_rulesets = st.builds(
    lambda values: RuleSet.from_options("drawn", values),
    st.fixed_dictionaries({option: st.sampled_from(values) for option, values in OPTIONS.items()}),
)

rulesets = st.one_of(named_rulesets, all_rulesets)

actions = st.one_of(
    st.just(Deal()),
    st.builds(Move, st.sampled_from(DECK), st.integers(1, COLUMNS)),
)


def run(suit: Suit, high: int = 13, low: int = 1) -> list[Card]:
    """The cards of ``suit`` from rank ``high`` down to rank ``low``, in column order."""
    return [Card(Rank(r), suit) for r in range(high, low - 1, -1)]


def candidate_actions(position: Position) -> list[Move | Deal]:
    """Every action worth asking about: each card of the deck to each column, and the deal.

    This includes every face-up card to every column, cards that are face
    down, in the stock or out of play, and moves to the card's own column.
    """
    del position  # the candidates do not depend on the position: that is the point
    return [Move(card, to) for card in DECK for to in range(1, COLUMNS + 1)] + [Deal()]


def _columns_from(
    rnd: random.Random, heaps: Sequence[list[Card]], fixed: Sequence[list[Card]], down_bias: float
) -> tuple[Column, ...]:
    """Columns made of a random heap (bottom) under a fixed face-up segment (top).

    Where a column has a fixed segment, all of its heap may be face down;
    elsewhere at least the top card of a non-empty heap is face up.
    """
    columns = []
    for heap, segment in zip(heaps, fixed, strict=True):
        cards = list(heap)
        most = len(cards) if segment else max(len(cards) - 1, 0)
        down = 0
        while down < most and rnd.random() < down_bias:
            down += 1
        columns.append(Column(tuple(cards[:down]), tuple(cards[down:] + list(segment))))
    return tuple(columns)


def _spread(rnd: random.Random, cards: list[Card], empty_columns: int) -> list[list[Card]]:
    """Deal ``cards`` at random onto the columns, leaving some columns empty."""
    heaps: list[list[Card]] = [[] for _ in range(COLUMNS)]
    usable = list(range(COLUMNS))
    rnd.shuffle(usable)
    usable = usable[: COLUMNS - empty_columns] or [0]
    for card in cards:
        heaps[rnd.choice(usable)].append(card)
    return heaps


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any valid position: random cards, suits collected, empty columns, short stock.

    Same-suit neighbours are made common by sometimes laying short descending
    runs together, so that positions have moves to make.
    """
    rnd = draw(st.randoms(use_true_random=False))
    collected = draw(st.frozensets(st.sampled_from(list(Suit)), max_size=4))
    pool = [card for card in DECK if card.suit not in collected]
    keep = draw(st.floats(0.2, 1.0)) if draw(st.booleans()) else 1.0
    pool = [card for card in pool if rnd.random() < keep]
    # Keep short same-suit descending chains together to create moves and runs.
    chunks: list[list[Card]] = []
    by_suit = {
        suit: sorted((c for c in pool if c.suit is suit), key=lambda c: -c.rank) for suit in Suit
    }
    for cards in by_suit.values():
        i = 0
        while i < len(cards):
            size = rnd.choice((1, 1, 1, 2, 3, 13))
            chunks.append(cards[i : i + size])
            i += size
    rnd.shuffle(chunks)
    stock_size = draw(st.integers(0, min(3, len(chunks))))
    stock = [chunk.pop() for chunk in chunks[:stock_size]]
    chunks = [chunk for chunk in chunks if chunk]
    empty_columns = draw(st.integers(0, COLUMNS))
    heaps: list[list[Card]] = [[] for _ in range(COLUMNS)]
    usable = list(range(COLUMNS))
    rnd.shuffle(usable)
    usable = usable[: COLUMNS - empty_columns] or [0]
    for chunk in chunks:
        heaps[rnd.choice(usable)].extend(chunk)
    down_bias = draw(st.sampled_from((0.0, 0.3, 0.6)))
    columns = _columns_from(rnd, heaps, [[] for _ in range(COLUMNS)], down_bias)
    return Position(columns, tuple(stock), collected)


@st.composite
def played_positions(draw: st.DrawFn, max_actions: int = 40) -> Position:
    """A dealt game after up to ``max_actions`` random legal actions under drawn rules."""
    rules = draw(named_rulesets)
    position = deal_game(draw(game_numbers), draw(st.sampled_from(("scorpion", "scorpion-ii"))))
    rnd = draw(st.randoms(use_true_random=False))
    for _ in range(draw(st.integers(0, max_actions))):
        legal = legal_actions(position, rules)
        if not legal:
            break
        position = apply(position, rules, rnd.choice(legal)).position
    return position


NEAR_COMPLETE_KINDS = (
    "one-move",  # a run one move from completion (group K..k+1 and k..A apart)
    "one-move-double",  # ... and the moving group sits on another complete run
    "one-deal",  # a run K..2 in column 1, 2 or 3 whose Ace is in the stock
    "over-face-down",  # a complete run (or one missing its Ace) over face-down cards
    "passengers",  # a complete run with passengers above its Ace
    "two-runs",  # two complete runs in one column
)


@st.composite
def near_complete_positions(draw: st.DrawFn) -> Position:
    """All 52 cards, with one or two runs on the point of completion (see the module doc)."""
    kind = draw(st.sampled_from(NEAR_COMPLETE_KINDS))
    rnd = draw(st.randoms(use_true_random=False))
    suits = list(Suit)
    rnd.shuffle(suits)
    suit, other = suits[0], suits[1]
    fixed: list[list[Card]] = [[] for _ in range(COLUMNS)]
    used: set[Card] = set()
    cols = list(range(COLUMNS))
    rnd.shuffle(cols)
    if kind in ("one-move", "one-move-double"):
        k = draw(st.integers(1, 12))
        fixed[cols[0]] = run(suit, 13, k + 1)
        fixed[cols[1]] = ([*run(other)] if kind == "one-move-double" else []) + run(suit, k, 1)
    elif kind == "one-deal":
        column = draw(st.integers(0, 2))
        fixed[column] = run(suit, 13, 2)
        used.add(Card(Rank.ACE, suit))
        cols.remove(column)
        cols.insert(0, column)
    elif kind == "over-face-down":
        if draw(st.booleans()):
            fixed[cols[0]] = run(suit)
        else:
            fixed[cols[0]] = run(suit, 13, 2)
            fixed[cols[1]] = [Card(Rank.ACE, suit)]
    elif kind == "passengers":
        fixed[cols[0]] = run(suit)
        extras = [c for c in DECK if c.suit is not suit]
        rnd.shuffle(extras)
        fixed[cols[0]] += extras[: draw(st.integers(1, 3))]
    else:  # two-runs
        fixed[cols[0]] = run(suit) + run(other)
    for segment in fixed:
        used.update(segment)
    pool = [card for card in DECK if card not in used]
    rnd.shuffle(pool)
    if kind == "one-deal":
        # The Ace lands on the column it completes: its index in the stock is that column's.
        size = draw(st.integers(column + 1, 3))
        stock = [pool.pop() for _ in range(size - 1)]
        stock.insert(column, Card(Rank.ACE, suit))
    else:
        stock = [pool.pop() for _ in range(draw(st.integers(0, 3)))]
    heaps = _spread(rnd, pool, draw(st.integers(0, 3)))
    down_bias = draw(st.sampled_from((0.0, 0.4, 0.7)))
    columns = list(_columns_from(rnd, heaps, fixed, down_bias))
    if kind == "over-face-down":
        # The run's own column: face-down cards only below the run.
        target = cols[0]
        if not heaps[target]:
            donor = max(range(COLUMNS), key=lambda i: len(heaps[i]))
            heaps[target].append(heaps[donor].pop())
            columns[donor] = _columns_from(rnd, [heaps[donor]], [fixed[donor]], down_bias)[0]
        columns[target] = Column(tuple(heaps[target]), tuple(fixed[target]))
    return Position(tuple(columns), tuple(stock))
