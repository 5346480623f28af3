"""The vocabulary's words as types, for the type checker: generated, do not edit.

Rendered from ``scorpion_ref/vocabulary.json`` by
``python -m scorpion_conformance.generated --write``;
a test fails while it is stale. Each option's values are a ``Literal`` type,
and :class:`OptionValues` gives a rule set one typed attribute per option, so
a misspelt value (``rules.stock == "when-stcuk"``) is an error of
``mypy --strict``, not a comparison that is always false.
"""

from __future__ import annotations

from typing import Literal, cast

__all__ = [
    "CommandName",
    "EmptyColumn",
    "ErrorCode",
    "FinishedRunMoves",
    "OptionName",
    "OptionValues",
    "ReasonCode",
    "RuleSetName",
    "Runs",
    "StatusName",
    "Stock",
    "WholeColumnToEmpty",
    "Win",
]

#: The values of the option ``runs``.
Runs = Literal["collect", "stay"]

#: The values of the option ``stock``.
Stock = Literal["any-time", "when-stuck"]

#: The values of the option ``empty_column``.
EmptyColumn = Literal["king", "any"]

#: The values of the option ``whole_column_to_empty``.
WholeColumnToEmpty = Literal["refused", "allowed"]

#: The values of the option ``win``.
Win = Literal["four-runs", "one-run-per-column"]

#: The values of the option ``finished_run_moves``.
FinishedRunMoves = Literal["ignored", "counted"]

#: The rule options, in the vocabulary's order.
OptionName = Literal["runs", "stock", "empty_column", "whole_column_to_empty", "win", "finished_run_moves"]

#: The named rule sets.
RuleSetName = Literal["standard", "classic", "wasp", "pysolfc", "aisleriot"]

#: The reason codes of illegal actions.
ReasonCode = Literal[
    "card-face-down",
    "card-in-stock",
    "card-not-in-play",
    "destination-is-source",
    "empty-column-needs-king",
    "whole-column-to-empty",
    "not-same-suit",
    "not-one-rank-lower",
    "stock-empty",
    "stock-locked",
]

#: The protocol's error codes.
ErrorCode = Literal[
    "illegal-action",
    "invalid-position",
    "unsupported",
    "unsupported-position",
    "bad-request",
    "nothing-to-undo",
]

#: The protocol's commands.
CommandName = Literal["hello", "start", "legal", "play", "state", "undo", "solve", "quit"]

#: The statuses of a game.
StatusName = Literal["playing", "won", "lost"]


class OptionValues:
    """A rule set's option values as typed attributes, read from ``values`` (in the vocabulary's
    order of options)."""

    __slots__ = ()
    values: tuple[str, ...]

    @property
    def runs(self) -> Runs:
        """The value of the option ``runs``."""
        return cast("Runs", self.values[0])

    @property
    def stock(self) -> Stock:
        """The value of the option ``stock``."""
        return cast("Stock", self.values[1])

    @property
    def empty_column(self) -> EmptyColumn:
        """The value of the option ``empty_column``."""
        return cast("EmptyColumn", self.values[2])

    @property
    def whole_column_to_empty(self) -> WholeColumnToEmpty:
        """The value of the option ``whole_column_to_empty``."""
        return cast("WholeColumnToEmpty", self.values[3])

    @property
    def win(self) -> Win:
        """The value of the option ``win``."""
        return cast("Win", self.values[4])

    @property
    def finished_run_moves(self) -> FinishedRunMoves:
        """The value of the option ``finished_run_moves``."""
        return cast("FinishedRunMoves", self.values[5])
