"""The fuzzer's position templates for the shapes the coverage measurement asked scenarios
for (docs/coverage.md): the bare table, a won game played on, thirteen cards that nearly are
a run, a King on hidden cards beside a space and a lone card. :mod:`.positions` draws each
in the place of a share of a neighbouring older template's positions."""

from __future__ import annotations

from scorpion_ref import Card, Move, Rank, Suit

from .layout import COLUMNS, Layout, cards_of

__all__ = ["bare_table", "hidden_king", "not_quite_run", "won_table"]


def bare_table(layout: Layout) -> bool:
    """Nothing on the table: the stock full, spent or short, and where runs are collected
    some suits (perhaps all four) collected. (Drawn after the coverage measurement: every
    request on the empty table.)"""
    rng = layout.rng
    if layout.used or layout.stock is not None:
        return False  # only as the first template
    layout.empty.update(range(COLUMNS))
    if layout.rules.runs == "collect":
        suits = list(Suit)
        rng.shuffle(suits)
        layout.collected.update(suits[: rng.randint(0, 4)])
    # The stock is chosen here, so that no template drawn as an extra lays cards out.
    layout.stock = layout.draw(rng.choice((0, 0, 3, 3, 1, 2)))
    return True


def won_table(layout: Layout) -> bool:
    """A won game where runs stay: the four runs alone in four columns, or two and two
    in one column each, the stock dealt; where runs are collected, all four suits
    collected. Play goes on from there. (Drawn after the coverage measurement.)"""
    rng = layout.rng
    if layout.used or layout.stock is not None:
        return False  # only as the first template: it needs the whole deck
    suits = list(Suit)
    rng.shuffle(suits)
    layout.stock = []
    if layout.rules.runs == "collect":
        layout.collected.update(suits)
        layout.empty.update(range(COLUMNS))
        return True
    columns = rng.sample(range(COLUMNS), 2 if rng.random() < 0.4 else 4)
    for i, column in enumerate(columns):
        group = suits[i * 4 // len(columns): (i + 1) * 4 // len(columns)]
        layout.planted[column] = layout.take([c for suit in group for c in cards_of(suit, 13, 1)])
        layout.whole.add(column)
    layout.empty.update(i for i in range(COLUMNS) if i not in columns)
    return True


def not_quite_run(layout: Layout) -> bool:
    """Thirteen cards that nearly are a run, alone in their column: one card of another
    suit in it, or the Queen leading and the King on top; the other columns get cards
    and rarely a space. (Drawn after the coverage measurement: the near misses of a run.)"""
    rng = layout.rng
    suits, columns = layout.free_suits(), layout.open_columns()
    if len(suits) < 2 or not columns:
        return False
    a = rng.choice(columns)
    suit, other = rng.sample(suits, 2)
    cards = cards_of(suit, 13, 1)
    if rng.random() < 0.5:
        i = rng.randrange(13)
        cards[i] = Card(cards[i].rank if rng.random() < 0.7 else Rank(rng.randint(1, 13)), other)
        cards = list(dict.fromkeys(cards))  # a stranger of another suit never repeats a card
    else:
        cards = cards[1:] + cards[:1]
    layout.planted[a] = layout.take(cards)
    layout.whole.add(a)
    layout.density = "full" if rng.random() < 0.6 else None
    if rng.random() < 0.7:
        layout.stock = []
    return True


def hidden_king(layout: Layout) -> bool:
    """A King on face-down cards beside a space, a card other than a King alone in its
    column, few other cards, the stock full or spent: what a space takes, what counts as
    available, and which reason refuses the lone card. (Drawn after the coverage measurement.)"""
    rng = layout.rng
    columns = layout.open_columns()
    kings = [c for c in layout.free() if c.rank is Rank.KING]
    if len(columns) < 3 or not kings:
        return False
    rng.shuffle(columns)
    king_column, lone_column, space = columns[:3]
    king = layout.take([rng.choice(kings)])[0]
    layout.hidden[king_column] = layout.draw(rng.randint(1, 3))
    layout.planted[king_column] = [king, *layout.draw(rng.randint(0, 2))]
    lone = [c for c in layout.free() if c.rank is not Rank.KING]
    if lone:
        layout.planted[lone_column] = layout.take([rng.choice(lone)])
        layout.whole.add(lone_column)
    layout.empty.add(space)
    layout.density = "sparse"
    if layout.stock is None:
        layout.stock = layout.draw(3) if rng.random() < 0.5 else []
    layout.hints.append(Move(king, space + 1))
    return True
