"""The solver's own compact representation of a position, and its moves and effects.

A card is a small integer, ``13 * suit + rank - 1`` (suits in the order of
:class:`~scorpion_ref.Suit`, the Ace 0 and the King 12 of each suit), so the
card a card may go on is the next integer. A column is a ``bytes`` value from
bottom to top in which a face-down card is written as ``card + 64``; the
cards above the last face-down one are face up, so the column's top is its
last byte. A state is a tuple ``(columns, stock, collected)``: the seven
columns, the stock as bytes in dealing order, and the collected suits as a
bit set (bit ``s`` for suit ``s``).

Everything here does what :mod:`scorpion_ref.engine` does, on this
representation; ``tests/test_solver_fast.py`` holds the moves, their
effects and the status equal to the engine's on thousands of random
positions under every rule set.

>>> from scorpion_ref import deal_game, get_ruleset
>>> rules = Flags.of(get_ruleset("standard"))
>>> state = encode(deal_game(1))
>>> decode(state) == deal_game(1)
True
>>> [str(to_action(state, m)) for m in legal(state, rules)[0][:2]]
['5S>7', '5C>3']
"""

from __future__ import annotations

from dataclasses import dataclass

from scorpion_shared.vocabulary import OPTION_DEFAULTS, OPTIONS

from ..actions import Action, Deal, Move
from ..cards import DECK, Card, Suit
from ..engine import Status
from ..position import Column, Position
from ..rules import RuleSet

__all__ = [
    "DEAL",
    "DOWN",
    "RUNS",
    "SEP",
    "FastMove",
    "Flags",
    "State",
    "apply_move",
    "card_number",
    "card_of",
    "decode",
    "encode",
    "latent_run",
    "legal",
    "moves_of",
    "status_of",
    "to_action",
    "won",
]

#: A face-down card is written as its number plus this.
DOWN = 64
#: The byte that separates columns in a joined key; no card is written with it.
SEP = b"\x7f"
#: The complete run of each suit, King first, as it lies in a column.
RUNS: tuple[bytes, ...] = tuple(bytes(range(13 * s + 12, 13 * s - 1, -1)) for s in range(4))
#: Every suit collected.
ALL_SUITS = 0b1111
_SUITS = tuple(Suit)
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUITS)}
_BYTE = tuple(bytes([b]) for b in range(256))
_DOWN_BYTES = bytes(range(DOWN, DOWN + 52))
_KINGS = tuple(_BYTE[13 * s + 12] for s in range(4))

#: A move: (source column, index of the moving card in the source column's bytes,
#: destination column), columns 0 to 6; the deal is :data:`DEAL`.
FastMove = tuple[int, int, int]
#: The deal of the stock.
DEAL: FastMove = (-1, -1, -1)
#: (columns, stock, collected suits as bits).
State = tuple[tuple[bytes, ...], bytes, int]


@dataclass(frozen=True, slots=True)
class Flags:
    """A rule set as the booleans the fast functions test."""

    collect: bool
    any_time: bool
    empty_any: bool
    whole_allowed: bool
    one_per_column: bool
    #: Under ``runs: stay`` with ``finished_run_moves: ignored``: moves that take
    #: cards out of a complete run are legal but not available.
    runs_ignored: bool

    @classmethod
    def of(cls, rules: RuleSet) -> Flags:
        """The flags of ``rules``."""
        return cls(
            collect=rules.runs == "collect",
            any_time=rules.stock == "any-time",
            empty_any=rules.empty_column == "any",
            whole_allowed=rules.whole_column_to_empty == "allowed",
            one_per_column=rules.win == "one-run-per-column",
            runs_ignored=rules.runs == "stay" and rules.finished_run_moves == "ignored",
        )


#: The options :meth:`Flags.of` reads, each told apart by one of its two values.
READ: dict[str, str] = {
    "runs": "collect", "stock": "any-time", "empty_column": "any",
    "whole_column_to_empty": "allowed", "win": "one-run-per-column", "finished_run_moves": "ignored",
}


def knows(rules: RuleSet) -> bool:
    """Whether :class:`Flags` says all there is to say of ``rules``: every option it reads
    still has just the two values it tells apart, and every option it does not read (one
    added to the vocabulary after this module was written) is at its default, the game
    as it was before that option existed. Else the solver searches through the engine.

    >>> from scorpion_ref import get_ruleset
    >>> knows(get_ruleset("aisleriot"))
    True
    """
    for option, values in OPTIONS.items():
        if option in READ:
            if len(values) != 2 or READ[option] not in values:
                return False
        elif getattr(rules, option) != OPTION_DEFAULTS.get(option):
            return False
    return True


def card_number(card: Card) -> int:
    """The number of ``card``: ``13 * suit + rank - 1``."""
    return 13 * _SUIT_INDEX[card.suit] + card.rank - 1


def card_of(number: int) -> Card:
    """The card of a number (face-down mark ignored)."""
    number &= DOWN - 1
    return DECK[number]  # DECK is suit by suit, Ace to King: the same numbering


def encode(position: Position) -> State:
    """The compact state of ``position``."""
    columns = tuple(
        bytes([card_number(c) + DOWN for c in column.down] + [card_number(c) for c in column.up])
        for column in position.columns
    )
    stock = bytes(card_number(c) for c in position.stock)
    collected = sum(1 << _SUIT_INDEX[s] for s in position.collected)
    return columns, stock, collected


def decode(state: State) -> Position:
    """The :class:`Position` of a compact state."""
    columns, stock, collected = state
    built = []
    for column in columns:
        down = tuple(DECK[b - DOWN] for b in column if b >= DOWN)
        built.append(Column(down, tuple(DECK[b] for b in column[len(down) :])))
    return Position(
        tuple(built),
        tuple(DECK[b] for b in stock),
        frozenset(s for i, s in enumerate(_SUITS) if collected >> i & 1),
    )


def to_action(state: State, move: FastMove) -> Action:
    """The engine's action for a fast move made in ``state``."""
    if move == DEAL:
        return Deal()
    source, index, dest = move
    return Move(card_of(state[0][source][index]), dest + 1)


def moves_of(state: State, flags: Flags, empties: list[int]) -> tuple[list[FastMove], int]:
    """The legal moves into non-empty columns and into the empty columns ``empties``, in no
    particular order and without the deal, and how many of them are available.

    With ``empties`` every empty column, these are exactly the engine's legal
    moves. A move is available unless it is a whole-column transfer or, under
    :attr:`Flags.runs_ignored`, takes a card out of a complete run.
    """
    columns = state[0]
    found: list[FastMove] = []
    joined = SEP + SEP.join(columns)
    for dest in range(7):
        column = columns[dest]
        if column:
            target = column[-1]
            if target % 13:  # an Ace takes nothing
                at = joined.find(_BYTE[target - 1])
                if at >= 0:
                    source = joined.count(SEP, 0, at) - 1
                    if source != dest:
                        found.append((source, at - joined.rfind(SEP, 0, at) - 1, dest))
    available = len(found)  # never whole-column (the destination is not empty), never in a run
    if empties:
        whole_allowed = flags.whole_allowed
        ignored = flags.runs_ignored
        if flags.empty_any:
            for source in range(7):
                column = columns[source]
                for index in range(len(column) - len(column.lstrip(_DOWN_BYTES)), len(column)):
                    if index == 0 and not whole_allowed:
                        continue
                    counts = index != 0 and not (ignored and RUNS[column[index] // 13] in column)
                    for dest in empties:
                        found.append((source, index, dest))
                    if counts:
                        available += len(empties)
        else:
            for king in _KINGS:
                at = joined.find(king)
                if at < 0:
                    continue
                index = at - joined.rfind(SEP, 0, at) - 1
                if index == 0 and not whole_allowed:
                    continue
                source = joined.count(SEP, 0, at) - 1
                for dest in empties:
                    found.append((source, index, dest))
                if index != 0 and not (ignored and RUNS[king[0] // 13] in columns[source]):
                    available += len(empties)
    return found, available


def legal(state: State, flags: Flags) -> tuple[list[FastMove], int]:
    """The legal moves in the engine's order (the deal last, if legal), and how many of
    the moves are available (see :func:`moves_of`)."""
    columns, stock, _collected = state
    found, available = moves_of(state, flags, [d for d in range(7) if not columns[d]])
    found.sort()
    if stock and (flags.any_time or not available):
        found.append(DEAL)
    return found, available


def _collect(column: bytes, suits: int) -> tuple[bytes, int]:
    """Take every complete run off the top of ``column``, turning up the card left on top."""
    while len(column) >= 13 and column[-1] % 13 == 0 and column.endswith(RUNS[column[-1] // 13]):
        suits |= 1 << (column[-1] // 13)
        column = column[:-13]
        if column and column[-1] >= DOWN:
            column = column[:-1] + _BYTE[column[-1] - DOWN]
    return column, suits


def apply_move(state: State, flags: Flags, move: FastMove, sweep: bool = False) -> State:
    """The state after a legal ``move``; with ``sweep``, every column is checked for runs
    to collect (needed only where the state itself may hold an uncollected run)."""
    columns, stock, suits = state
    cols = list(columns)
    if move == DEAL:
        for i, card in enumerate(stock):
            cols[i] += _BYTE[card]
        stock = b""
        touched: tuple[int, ...] = tuple(range(len(state[1])))
    else:
        source, index, dest = move
        column = cols[source]
        rest = column[:index]
        if rest and rest[-1] >= DOWN:
            rest = rest[:-1] + _BYTE[rest[-1] - DOWN]
        cols[source] = rest
        cols[dest] += column[index:]
        if not flags.collect:
            return tuple(cols), stock, suits
        # A run can complete only where an Ace is on top: on the destination, or on the
        # source when the moved cards sat on a complete run.
        touched = (source, dest)
    if flags.collect:
        for i in range(7) if sweep else touched:
            column = cols[i]
            if column and column[-1] % 13 == 0 and len(column) >= 13:
                cols[i], suits = _collect(column, suits)
    return tuple(cols), stock, suits


def latent_run(state: State) -> bool:
    """Whether a column ends in a complete run not yet collected (only a start position can have
    one: every action collects what it completes); the first action then sweeps every column
    (:func:`apply_move` with ``sweep``), as the engine does after every action."""
    return any(len(c) >= 13 and c[-1] % 13 == 0 and c.endswith(RUNS[c[-1] // 13]) for c in state[0])


def won(state: State, flags: Flags) -> bool:
    """Whether the rules' win condition holds in ``state``."""
    columns, stock, suits = state
    if flags.collect:
        return suits == ALL_SUITS
    if stock:
        return False
    if flags.one_per_column:
        return all(not c or (len(c) == 13 and c in RUNS) for c in columns)
    if sum(map(len, columns)) < 52:
        return False
    return sum(run in c for c in columns for run in RUNS) >= 4


def status_of(state: State, flags: Flags) -> Status:
    """The status of ``state``, as :func:`scorpion_ref.status` gives it."""
    if won(state, flags):
        return Status.WON
    if state[1] or legal(state, flags)[1]:
        return Status.PLAYING
    return Status.LOST
