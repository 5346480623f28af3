"""The rules of Scorpion as pure functions of a position and a rule set.

Two independent paths decide legality and are tested against each other:
:func:`check` judges one proposed action; :func:`legal_actions` generates the
legal actions from the destinations, looking up the one card that fits each.

>>> from scorpion_ref import Position, get_ruleset, parse_action
>>> before = Position.build(["TD", "3S | 9D KH 4C"])
>>> after = apply(before, get_ruleset("standard"), parse_action("9D>1")).position
>>> after.columns[0]
Column.parse('TD 9D KH 4C')
>>> after.columns[1]
Column.parse('3S')
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from scorpion_shared.words import ReasonCode

from .actions import Action, Deal, Move
from .cards import Card, Rank, Suit
from .errors import IllegalAction
from .position import Column, Position
from .rules import RuleSet

__all__ = [
    "RUN_LENGTH",
    "Outcome",
    "Status",
    "apply",
    "available_actions",
    "check",
    "complete_runs",
    "is_legal",
    "is_whole_column_transfer",
    "legal_actions",
    "status",
]

#: A complete run is the thirteen cards of one suit, King to Ace.
RUN_LENGTH = 13


class Status(enum.Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an action did: the new position, the cards it turned face up and the
    suits it collected (in the order they left the table)."""

    position: Position
    flipped: tuple[Card, ...] = ()
    collected: tuple[Suit, ...] = ()


def _is_run(cards: Sequence[Card]) -> bool:
    """Whether these 13 cards are one suit from King (first) down to Ace (last)."""
    suit = cards[0].suit
    return all(
        card.suit is suit and card.rank == Rank.KING - offset for offset, card in enumerate(cards)
    )


def complete_runs(column: Column) -> list[int]:
    """Where complete runs start in ``column.up`` (non-overlapping, bottom first)."""
    starts: list[int] = []
    up = column.up
    i = 0
    while i + RUN_LENGTH <= len(up):
        if up[i].rank is Rank.KING and _is_run(up[i : i + RUN_LENGTH]):
            starts.append(i)
            i += RUN_LENGTH
        else:
            i += 1
    return starts


def _in_complete_run(column: Column, index: int) -> bool:
    return any(start <= index < start + RUN_LENGTH for start in complete_runs(column))


def is_whole_column_transfer(position: Position, move: Move) -> bool:
    """Whether ``move`` takes a whole column (no face-down card left) into an empty one."""
    where = position.locate(move.card)
    if where is None:
        return False
    col, index = where
    return (
        index == 0
        and not position.columns[col].down
        and position.columns[move.to - 1].is_empty
    )


# -- judging one action -------------------------------------------------------


def check(position: Position, rules: RuleSet, action: Action) -> None:
    """Raise :class:`IllegalAction` with a reason code unless ``action`` is legal."""
    if isinstance(action, Deal):
        _check_deal(position, rules)
    else:
        _check_move(position, rules, action)


def is_legal(position: Position, rules: RuleSet, action: Action) -> bool:
    """Whether :func:`check` accepts ``action``."""
    try:
        check(position, rules, action)
    except IllegalAction:
        return False
    return True


def _check_deal(position: Position, rules: RuleSet) -> None:
    if not position.stock:
        raise IllegalAction("stock-empty", "the stock has already been dealt")
    if rules.stock == "when-stuck":
        moves = _available_moves(position, rules)
        if moves:
            raise IllegalAction(
                "stock-locked",
                "the stock is dealt only when no other move is left "
                f"({len(moves)} available, for example {_say_move(moves[0])})",
            )


def _check_move(position: Position, rules: RuleSet, move: Move) -> None:
    card = move.card
    where = position.locate(card)
    if where is None:
        if any(card in column.down for column in position.columns):
            raise IllegalAction("card-face-down", f"{card.unicode} is face down: it cannot move")
        if card in position.stock:
            raise IllegalAction(
                "card-in-stock", f"{card.unicode} is in the stock: only the deal plays it"
            )
        raise IllegalAction("card-not-in-play", f"{card.unicode} is not on the table")
    source, _index = where
    dest = move.to - 1
    if dest == source:
        raise IllegalAction(
            "destination-is-source", f"{card.unicode} is already in column {move.to}"
        )
    target = position.columns[dest].top
    if target is None:
        if rules.empty_column == "king" and card.rank is not Rank.KING:
            raise IllegalAction(
                "empty-column-needs-king",
                f"an empty column takes only a King, and {card.unicode} leads this group",
            )
        if rules.whole_column_to_empty == "refused" and is_whole_column_transfer(position, move):
            raise IllegalAction(
                "whole-column-to-empty",
                f"{card.unicode} and its passengers are the whole of column {source + 1}: "
                "moving them to an empty column changes nothing",
            )
        return
    if card.rank is Rank.KING:
        reason: ReasonCode = "not-same-suit" if target.suit is not card.suit else "not-one-rank-lower"
        raise IllegalAction(reason, f"{card.unicode} goes only to an empty column")
    needed = Card(Rank(card.rank + 1), card.suit)
    if target.suit is not card.suit:
        raise IllegalAction(
            "not-same-suit",
            f"{card.unicode} goes only on {needed.unicode}, not on {target.unicode}",
        )
    if target.rank != card.rank + 1:
        raise IllegalAction(
            "not-one-rank-lower",
            f"{card.unicode} goes only on {needed.unicode}, not on {target.unicode}",
        )


def _say_move(move: Move) -> str:
    return f"{move.card.unicode} to column {move.to}"


# -- generating every legal action --------------------------------------------


def _legal_moves(position: Position, rules: RuleSet) -> list[Move]:
    found: list[tuple[int, int, int]] = []  # (source, index in up, destination)
    faceup: dict[Card, tuple[int, int]] = {
        card: (col, index)
        for col, column in enumerate(position.columns)
        for index, card in enumerate(column.up)
    }
    for dest, column in enumerate(position.columns):
        target = column.top
        if target is None:
            for card, (source, index) in faceup.items():
                if rules.empty_column == "king" and card.rank is not Rank.KING:
                    continue
                whole = index == 0 and not position.columns[source].down
                if whole and rules.whole_column_to_empty == "refused":
                    continue
                found.append((source, index, dest))
        elif target.rank is not Rank.ACE:
            where = faceup.get(Card(Rank(target.rank - 1), target.suit))
            if where is not None and where[0] != dest:
                found.append((where[0], where[1], dest))
    found.sort()
    return [Move(position.columns[s].up[i], d + 1) for s, i, d in found]


def _available_moves(
    position: Position, rules: RuleSet, legal: list[Move] | None = None
) -> list[Move]:
    """Legal moves that count as available for the stock lock and for losing."""
    moves = []
    for move in _legal_moves(position, rules) if legal is None else legal:
        if is_whole_column_transfer(position, move):
            continue
        if rules.runs == "stay" and rules.finished_run_moves == "ignored":
            col, index = position.locate(move.card)  # type: ignore[misc]
            if _in_complete_run(position.columns[col], index):
                continue
        moves.append(move)
    return moves


def legal_actions(position: Position, rules: RuleSet) -> tuple[Action, ...]:
    """Every legal action: moves by source column, card and destination, then the deal."""
    legal = _legal_moves(position, rules)
    moves: list[Action] = list(legal)
    if position.stock and (
        rules.stock == "any-time" or not _available_moves(position, rules, legal)
    ):
        moves.append(Deal())
    return tuple(moves)


def available_actions(position: Position, rules: RuleSet) -> tuple[Action, ...]:
    """The actions that keep a game alive: legal actions less whole-column transfers
    and, where the rules say so, moves that only take apart a finished run."""
    actions: list[Action] = list(_available_moves(position, rules))
    if position.stock and (rules.stock == "any-time" or not actions):
        actions.append(Deal())
    return tuple(actions)


# -- applying an action -------------------------------------------------------


def apply(position: Position, rules: RuleSet, action: Action) -> Outcome:
    """Play ``action``; raises :class:`IllegalAction` when the rules refuse it."""
    check(position, rules, action)
    columns = list(position.columns)
    flipped: list[Card] = []
    if isinstance(action, Deal):
        for i, card in enumerate(position.stock):
            columns[i] = Column(columns[i].down, (*columns[i].up, card))
    else:
        source, index = position.locate(action.card)  # type: ignore[misc]
        moving = columns[source].up[index:]
        columns[source] = _expose(columns[source].down, columns[source].up[:index], flipped)
        dest = action.to - 1
        columns[dest] = Column(columns[dest].down, columns[dest].up + moving)
    suits = position.collected
    collected: list[Suit] = []
    if rules.runs == "collect":
        for i, column in enumerate(columns):
            while len(column.up) >= RUN_LENGTH and _is_run(column.up[-RUN_LENGTH:]):
                collected.append(column.up[-1].suit)
                column = _expose(column.down, column.up[:-RUN_LENGTH], flipped)
            columns[i] = column
        suits = suits | frozenset(collected)
    stock = () if isinstance(action, Deal) else position.stock
    return Outcome(Position._trusted(tuple(columns), stock, suits), tuple(flipped), tuple(collected))


def _expose(down: tuple[Card, ...], up: tuple[Card, ...], flipped: list[Card]) -> Column:
    """The column left behind; its top face-down card turns up if nothing covers it."""
    if not up and down:
        flipped.append(down[-1])
        return Column(down[:-1], (down[-1],))
    return Column(down, up)


# -- status -------------------------------------------------------------------


def _won(position: Position, rules: RuleSet) -> bool:
    if rules.runs == "collect":
        return len(position.collected) == len(Suit)
    if rules.win == "four-runs":
        return sum(len(complete_runs(c)) for c in position.columns) >= len(Suit)
    return not position.stock and all(
        column.is_empty
        or (not column.down and len(column.up) == RUN_LENGTH and complete_runs(column) == [0])
        for column in position.columns
    )


def status(position: Position, rules: RuleSet) -> Status:
    """``WON`` as the rules' win condition says; ``LOST`` when no available action
    remains; else ``PLAYING``."""
    if _won(position, rules):
        return Status.WON
    if position.stock or _available_moves(position, rules):
        return Status.PLAYING
    return Status.LOST
