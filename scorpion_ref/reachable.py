"""Whether a position can arise from a deal: what every dealt game keeps, and what breaks it.

A test position may hold any cards (absent ones are out of play), but some
shapes never arise in a game that began with a deal, however it was played:

* the stock is dealt all at once, so it holds its three cards or none;
* cards lie face down only where a deal puts them (three under the face-up
  cards of each of the first :data:`~scorpion_ref.deal.DEAL_KINDS` columns,
  four in the widest deal), and nothing ever turns face down again;
* where finished runs are collected, none is left at the top of a column: the
  action that completes one at the top, or uncovers it there, collects it;
* where runs stay, no suit is ever collected.

A position that breaks one of these is *synthetic*: it is a fine test of a
rule, and an adapter around a program that cannot represent it may refuse it
(the protocol's ``unsupported-position``). One that keeps them all is treated
as one a player can meet. The list is of facts the engine can check; it does
not prove a position reachable (no search for a line from a deal is made).

>>> from scorpion_ref import Position, get_ruleset
>>> cannot_arise(Position.build(["KC"], stock=["2C", "3D"]), get_ruleset("standard"))
('the stock holds 2 cards: a stock is dealt all at once, so it holds 3 cards or none',)
>>> cannot_arise(Position.build(["KC"], stock=["2C", "3D", "4H"]), get_ruleset("standard"))
()
"""

from __future__ import annotations

from .deal import DEAL_KINDS, FACE_DOWN_ROWS
from .engine import RUN_LENGTH, complete_runs
from .position import Position
from .rules import RuleSet

__all__ = ["cannot_arise"]

#: How many cards the stock holds before its deal.
STOCK_CARDS = 3


def cannot_arise(position: Position, rules: RuleSet) -> tuple[str, ...]:
    """Why ``position`` cannot arise from a deal under ``rules``, in words (empty when
    it keeps everything a dealt game keeps)."""
    why: list[str] = []
    if 0 < len(position.stock) < STOCK_CARDS:
        why.append(
            f"the stock holds {len(position.stock)} card{'s' * (len(position.stock) != 1)}: a stock is "
            f"dealt all at once, so it holds {STOCK_CARDS} cards or none"
        )
    hidden_columns = max(DEAL_KINDS.values())
    for number, column in enumerate(position.columns, start=1):
        if column.down and number > hidden_columns:
            why.append(
                f"column {number} has face-down cards: a deal hides cards in columns 1 to "
                f"{hidden_columns} only"
            )
        elif len(column.down) > FACE_DOWN_ROWS:
            why.append(
                f"column {number} has {len(column.down)} face-down cards: a deal hides {FACE_DOWN_ROWS} "
                "in a column at most"
            )
    if rules.runs == "collect":
        for number, column in enumerate(position.columns, start=1):
            if len(column.up) >= RUN_LENGTH and complete_runs(column)[-1:] == [len(column.up) - RUN_LENGTH]:
                why.append(
                    f"column {number} ends with a finished run: where runs are collected, the action "
                    "that finishes one at the top of a column collects it"
                )
    elif position.collected:
        why.append("a suit has been collected: where runs stay, no run leaves the table")
    return tuple(why)
