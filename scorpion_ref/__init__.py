"""scorpion_ref: the reference engine of Scorpion Solitaire.

Every point where Scorpion's rule sources disagree is an option of
:class:`RuleSet`; the named rule sets are bundles of options.

>>> from scorpion_ref import deal_game, get_ruleset, legal_actions
>>> len(legal_actions(deal_game(1), get_ruleset("standard"))) > 0
True
"""

from .actions import Action, Deal, Move, parse_action
from .cards import DECK, Card, Rank, Suit
from .deal import deal_game, shuffled_deck
from .engine import (
    Outcome,
    Status,
    apply,
    available_actions,
    check,
    complete_runs,
    is_legal,
    is_whole_column_transfer,
    legal_actions,
    status,
)
from .errors import (
    IllegalAction,
    InvalidPosition,
    NotationError,
    NothingToUndo,
    ScorpionError,
    UnknownRuleSet,
)
from .game import Game
from .position import COLUMNS, Column, Position
from .rules import OPTIONS, RULESETS, RuleSet, get_ruleset

__version__ = "0.1.0"

__all__ = [
    "COLUMNS",
    "DECK",
    "OPTIONS",
    "RULESETS",
    "Action",
    "Card",
    "Column",
    "Deal",
    "Game",
    "IllegalAction",
    "InvalidPosition",
    "Move",
    "NotationError",
    "NothingToUndo",
    "Outcome",
    "Position",
    "Rank",
    "RuleSet",
    "ScorpionError",
    "Status",
    "Suit",
    "UnknownRuleSet",
    "apply",
    "available_actions",
    "check",
    "complete_runs",
    "deal_game",
    "get_ruleset",
    "is_legal",
    "is_whole_column_transfer",
    "legal_actions",
    "parse_action",
    "shuffled_deck",
    "status",
]
