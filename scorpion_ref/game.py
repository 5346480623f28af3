"""A game: a start position, a rule set and the history of actions played."""

from __future__ import annotations

from .actions import Action
from .engine import Outcome, Status, apply, legal_actions, status
from .errors import NothingToUndo
from .position import Position
from .rules import RuleSet

__all__ = ["Game"]


class Game:
    """A game with unlimited undo and restart of the same deal.

    Positions are immutable, so undo restores flips, collections and the stock
    exactly by returning to the position before the last action.

    >>> from scorpion_ref import Position, get_ruleset, parse_action
    >>> game = Game(Position.build(["TD", "3S | 9D"]), get_ruleset("standard"))
    >>> game.play(parse_action("9D>1")).flipped
    (Card.parse('3S'),)
    >>> game.undo() == game.start
    True
    """

    def __init__(self, start: Position, rules: RuleSet) -> None:
        self.start = start
        self.rules = rules
        self._positions: list[Position] = [start]
        self._actions: list[Action] = []

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def status(self) -> Status:
        return status(self.position, self.rules)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions played since the start, oldest first."""
        return tuple(self._actions)

    def legal_actions(self) -> tuple[Action, ...]:
        return legal_actions(self.position, self.rules)

    def play(self, action: Action) -> Outcome:
        """Play ``action``; raises :class:`IllegalAction` and leaves the game as it was."""
        outcome = apply(self.position, self.rules, action)
        self._positions.append(outcome.position)
        self._actions.append(action)
        return outcome

    def undo(self) -> Position:
        """Take back the last action; raises :class:`NothingToUndo` at the start."""
        if not self._actions:
            raise NothingToUndo("there is nothing to undo: no action has been played")
        self._positions.pop()
        self._actions.pop()
        return self.position

    def restart(self) -> Position:
        """Go back to the start position (the same deal) with an empty history."""
        self._positions = [self.start]
        self._actions = []
        return self.start
