"""Columns and positions: immutable values a solver or a test can hash.

A column is a tuple of face-down cards under a tuple of face-up cards, both
listed from the bottom of the column to its top, so a face-down card can never
sit on a face-up one. A position holds the seven columns, the stock in
dealing order (its first card goes to column 1) and the suits collected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .cards import Card, Suit
from .errors import InvalidPosition

__all__ = ["COLUMNS", "Column", "Position"]

#: How many columns the tableau has.
COLUMNS = 7


@dataclass(frozen=True, slots=True)
class Column:
    """One tableau column: ``down`` under ``up``, each bottom to top."""

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        for card in (*self.down, *self.up):
            if not isinstance(card, Card):
                raise InvalidPosition(f"a column holds {card!r}, which is not a Card")
        if self.down and not self.up:
            raise InvalidPosition(
                "a column has face-down cards with no face-up card above them "
                f"({' '.join(str(c) for c in self.down)})"
            )

    @property
    def top(self) -> Card | None:
        """The exposed card, the one that moves and receives; None when empty."""
        return self.up[-1] if self.up else None

    @property
    def is_empty(self) -> bool:
        return not self.up

    def __len__(self) -> int:
        return len(self.down) + len(self.up)

    def cards(self) -> Iterator[Card]:
        yield from self.down
        yield from self.up

    def __repr__(self) -> str:
        down = " ".join(str(c) for c in self.down)
        up = " ".join(str(c) for c in self.up)
        return f"Column.parse({(down + ' | ' + up).strip() if down else up!r})"

    @classmethod
    def parse(cls, text: str) -> Column:
        """Read ``"4S JC 2D | 9D KH 4C"``: face-down cards before the bar.

        >>> Column.parse("4S | 9D KH").top
        Card.parse('KH')
        """
        down_text, bar, up_text = text.partition("|")
        if not bar:
            down_text, up_text = "", down_text
        return cls(
            tuple(Card.parse(t) for t in down_text.split()),
            tuple(Card.parse(t) for t in up_text.split()),
        )


@dataclass(frozen=True, slots=True)
class Position:
    """Everything on the table: seven columns, the stock, the collected suits.

    Raises :class:`InvalidPosition` for a layout that cannot occur: not seven
    columns, a card twice, more than three stock cards, or a card of a
    collected suit still in play. Fewer than 52 cards is fine: the absent
    ones are out of play.
    """

    columns: tuple[Column, ...]
    stock: tuple[Card, ...] = ()
    collected: frozenset[Suit] = field(default_factory=frozenset)
    #: The hash, made when first asked for: a search looks each position up many times.
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        columns = tuple(self.columns)
        if len(columns) != COLUMNS:
            raise InvalidPosition(f"a position has {COLUMNS} columns, not {len(columns)}")
        if not all(isinstance(c, Column) for c in columns):
            raise InvalidPosition("every column of a position must be a Column")
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "stock", tuple(self.stock))
        object.__setattr__(self, "collected", frozenset(self.collected))
        for item in self.stock:
            if not isinstance(item, Card):
                raise InvalidPosition(f"the stock holds {item!r}, which is not a Card")
        for suit in self.collected:
            if not isinstance(suit, Suit):
                raise InvalidPosition(f"collected holds {suit!r}, which is not a Suit")
        if len(self.stock) > 3:
            raise InvalidPosition(f"the stock holds {len(self.stock)} cards; it holds at most 3")
        counts = Counter(self.cards())
        twice = sorted(str(card) for card, n in counts.items() if n > 1)
        if twice:
            raise InvalidPosition(f"{', '.join(twice)} appears more than once")
        gone = sorted(str(card) for card in counts if card.suit in self.collected)
        if gone:
            raise InvalidPosition(
                f"{', '.join(gone)} is still in play although its suit was collected"
            )

    @classmethod
    def build(
        cls,
        columns: Iterable[Column | str],
        stock: Iterable[Card | str] = (),
        collected: Iterable[Suit | str] = (),
    ) -> Position:
        """Build from text as well as values; missing columns are empty.

        >>> Position.build(["KS", "QS"]).columns[1].top
        Card.parse('QS')
        """
        cols = [c if isinstance(c, Column) else Column.parse(c) for c in columns]
        if len(cols) > COLUMNS:
            raise InvalidPosition(f"a position has {COLUMNS} columns, not {len(cols)}")
        cols += [Column()] * (COLUMNS - len(cols))
        return cls(
            tuple(cols),
            tuple(c if isinstance(c, Card) else Card.parse(c) for c in stock),
            frozenset(s if isinstance(s, Suit) else Suit.parse(s) for s in collected),
        )

    def __hash__(self) -> int:
        made = self._hash
        if made is None:
            made = hash((self.columns, self.stock, self.collected))
            object.__setattr__(self, "_hash", made)
        return made

    def __reduce__(self) -> tuple[object, tuple[tuple[Column, ...], tuple[Card, ...], frozenset[Suit]]]:
        # A hash holds in one process only: a position sent to another is made there again.
        return Position._trusted, (self.columns, self.stock, self.collected)

    def cards(self) -> Iterator[Card]:
        """Every card in play: the columns (bottom to top), then the stock."""
        for column in self.columns:
            yield from column.cards()
        yield from self.stock

    def locate(self, card: Card) -> tuple[int, int] | None:
        """Where a face-up card lies: (column index 0-6, index in ``up``), else None."""
        for col_index, column in enumerate(self.columns):
            if card in column.up:
                return col_index, column.up.index(card)
        return None

    def replace(self, index: int, column: Column) -> Position:
        """This position with column ``index`` (0-6) replaced (not re-validated)."""
        columns = list(self.columns)
        columns[index] = column
        return Position._trusted(tuple(columns), self.stock, self.collected)

    @classmethod
    def _trusted(
        cls, columns: tuple[Column, ...], stock: tuple[Card, ...], collected: frozenset[Suit]
    ) -> Position:
        """Build without validation: for the engine, whose actions keep positions valid."""
        position = object.__new__(cls)
        object.__setattr__(position, "columns", columns)
        object.__setattr__(position, "stock", stock)
        object.__setattr__(position, "collected", collected)
        object.__setattr__(position, "_hash", None)
        return position
