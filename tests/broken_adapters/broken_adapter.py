"""The reference adapter with one rule deliberately broken, to prove the suite bites.

Usage: ``python broken_adapter.py BUG`` where BUG is one of :data:`BUGS`.
Each bug is a plausible implementation mistake (the kind the mission lists),
planted by wrapping one function of the reference engine; the adapter is
otherwise the reference adapter, so any failing scenario is due to the bug.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable

import scorpion_ref.adapter as adapter
import scorpion_ref.engine as engine
import scorpion_ref.game as game_module
from scorpion_ref import Column, Deal, IllegalAction, Position, Rank


def queen_into_space() -> None:
    """An empty column takes any group that holds a King, whatever leads it."""
    original = engine._check_move

    def check(position: Position, rules, move) -> None:
        where = position.locate(move.card)
        if where and position.columns[move.to - 1].is_empty:
            column, index = where
            if any(c.rank is Rank.KING for c in position.columns[column].up[index:]):
                return
        original(position, rules, move)

    engine._check_move = check


def cross_suit() -> None:
    """A card goes on any card one rank higher, whatever its suit."""
    original = engine._check_move

    def check(position: Position, rules, move) -> None:
        try:
            original(position, rules, move)
        except IllegalAction as error:
            target = position.columns[move.to - 1].top
            if error.reason != "not-same-suit" or target is None or target.rank != move.card.rank + 1:
                raise

    engine._check_move = check


def one_collection_per_action() -> None:
    """After an action only the first complete run found is collected."""
    original_apply, original_is_run = engine.apply, engine._is_run
    found = {"count": 0}

    def is_run(cards) -> bool:
        if found["count"] >= 1:
            return False
        result = original_is_run(cards)
        found["count"] += result
        return result

    def apply(position, rules, action):
        found["count"] = 0
        engine._is_run = is_run
        try:
            return original_apply(position, rules, action)
        finally:
            engine._is_run = original_is_run

    engine.apply = game_module.apply = apply


def no_collection_after_deal() -> None:
    """A run completed by the stock deal is never collected."""
    original = engine.apply

    def apply(position, rules, action):
        if isinstance(action, Deal):
            return original(position, dataclasses.replace(rules, runs="stay"), action)
        return original(position, rules, action)

    engine.apply = game_module.apply = apply


def stock_refused_onto_space() -> None:
    """The stock cannot be dealt while one of columns 1 to 3 is empty."""
    original = engine._check_deal

    def check(position: Position, rules) -> None:
        if any(position.columns[i].is_empty for i in range(len(position.stock))):
            raise IllegalAction("stock-empty", "the stock cannot land on an empty column")
        original(position, rules)

    engine._check_deal = check


def no_stock_lock() -> None:
    """The stock may be dealt at any time, even where the rules say when stuck."""
    original_check, original_legal = engine._check_deal, engine.legal_actions

    def check(position: Position, rules) -> None:
        original_check(position, dataclasses.replace(rules, stock="any-time"))

    def legal(position: Position, rules):
        return original_legal(position, dataclasses.replace(rules, stock="any-time"))

    engine._check_deal = check
    engine.legal_actions = adapter.legal_actions = game_module.legal_actions = legal


def undo_forgets_flip() -> None:
    """Undo puts the cards back but leaves a flipped card face up."""
    original_play, original_undo = game_module.Game.play, game_module.Game.undo

    def play(self, action):
        outcome = original_play(self, action)
        self.__dict__.setdefault("_flips", []).append(outcome.flipped)
        return outcome

    def undo(self):
        flips = self.__dict__.setdefault("_flips", [])
        flipped = flips.pop() if flips else ()
        position = original_undo(self)
        if flipped:
            columns = list(position.columns)
            for i, column in enumerate(columns):
                down = tuple(c for c in column.down if c not in flipped)
                up = tuple(c for c in column.down if c in flipped) + column.up
                columns[i] = Column(down, up)
            position = Position(tuple(columns), position.stock, position.collected)
            self._positions[-1] = position
        return position

    game_module.Game.play, game_module.Game.undo = play, undo


def whole_column_listed() -> None:
    """Whole-column King transfers are accepted and listed even where refused."""
    original_check, original_legal = engine._check_move, engine._legal_moves

    def check(position: Position, rules, move) -> None:
        original_check(position, dataclasses.replace(rules, whole_column_to_empty="allowed"), move)

    def legal_moves(position: Position, rules):
        return original_legal(position, dataclasses.replace(rules, whole_column_to_empty="allowed"))

    engine._check_move, engine._legal_moves = check, legal_moves


def crash_on_nine_of_diamonds() -> None:
    """The adapter process dies whenever 9♦ is moved (a crash, not a wrong answer)."""
    original = game_module.Game.play

    def play(self, action):
        if getattr(action, "card", None) is not None and str(action.card) == "9D":
            sys.stderr.write("broken adapter: giving up on the nine of diamonds\n")
            sys.stderr.flush()
            os._exit(3)
        return original(self, action)

    game_module.Game.play = play


def cross_suit_and_crash() -> None:
    """Two bugs at once, for the fuzzer's survey: cross-suit moves, and a crash on 9♦."""
    cross_suit()
    crash_on_nine_of_diamonds()


def whole_column_reason_first() -> None:
    """A card alone in its column is refused a space for being a whole column before its rank
    is looked at (the checks in another order: only the reason differs)."""
    original = engine._check_move

    def check(position: Position, rules, move) -> None:
        if (rules.whole_column_to_empty == "refused" and position.locate(move.card) is not None
                and engine.is_whole_column_transfer(position, move)):
            raise IllegalAction("whole-column-to-empty", "a whole column gains nothing from a space")
        original(position, rules, move)

    engine._check_move = check


def empty_table_won() -> None:
    """A table with no card and no stock left is won, under every rule set."""
    original = engine.status

    def status(position: Position, rules):
        if not position.stock and all(column.is_empty for column in position.columns):
            return engine.Status.WON
        return original(position, rules)

    engine.status = game_module.status = status


def short_stock_ignored() -> None:
    """A stock of one or two cards is taken for a spent one when the status is judged."""
    original = engine.status

    def status(position: Position, rules):
        if 0 < len(position.stock) < 3:
            position = Position(position.columns, (), position.collected)
        return original(position, rules)

    engine.status = game_module.status = status


BUGS: dict[str, Callable[[], None]] = {
    "whole-column-reason-first": whole_column_reason_first,
    "empty-table-won": empty_table_won,
    "short-stock-ignored": short_stock_ignored,
    "queen-into-space": queen_into_space,
    "cross-suit": cross_suit,
    "one-collection-per-action": one_collection_per_action,
    "no-collection-after-deal": no_collection_after_deal,
    "stock-refused-onto-space": stock_refused_onto_space,
    "no-stock-lock": no_stock_lock,
    "undo-forgets-flip": undo_forgets_flip,
    "whole-column-listed": whole_column_listed,
    "crash-on-nine-of-diamonds": crash_on_nine_of_diamonds,
    "cross-suit-and-crash": cross_suit_and_crash,
}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in BUGS:
        sys.exit(f"usage: broken_adapter.py {{{','.join(BUGS)}}}")
    BUGS[sys.argv[1]]()
    sys.exit(adapter.main([]))
