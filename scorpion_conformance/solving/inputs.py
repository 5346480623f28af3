"""What the solving commands are given, checked: a start, a rule set, a budget, a game range.

Every problem is a :class:`BadInput` whose message is one line naming what
was wrong; the commands print it and exit 2.

>>> read_budget("200k"), read_budget("2_000_000"), read_budget("3M")
(200000, 2000000, 3000000)
>>> read_games("1-3,7")
[1, 2, 3, 7]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from scorpion_ref import Position, RuleSet, ScorpionError, deal_game, get_ruleset
from scorpion_ref.serial import position_from_json

__all__ = ["BadInput", "Start", "read_budget", "read_games", "read_rules", "read_start"]

_BUDGET = re.compile(r"(?P<number>[0-9][0-9_]*)(?P<unit>[kKmMgG]?)")
_UNITS = {"": 1, "k": 1_000, "m": 1_000_000, "g": 1_000_000_000}
#: More games than this in one range is surely a typing mistake.
MAX_GAMES = 10_000_000


class BadInput(Exception):
    """Input to a solving command that cannot be used; the message is one line."""


@dataclass(frozen=True)
class Start:
    """Where a search starts: the position and how a person names it (``game 5``, a file)."""

    position: Position
    label: str
    game: int | None = None


def read_rules(name: str) -> RuleSet:
    """A named rule set; raises :class:`BadInput` naming the known ones."""
    try:
        return get_ruleset(name)
    except ScorpionError as error:
        raise BadInput(str(error)) from None


def read_budget(text: str | int, what: str = "--budget") -> int:
    """A positive count of positions, as ``200000``, ``200_000``, ``200k`` or ``2M``."""
    match = _BUDGET.fullmatch(str(text).strip())
    value = int(match["number"]) * _UNITS[match["unit"].lower()] if match else 0
    if value <= 0:
        raise BadInput(f"{what} {text!r} is not a positive number of positions (as 200000, 200k or 2M)")
    return value


def read_start(game: int | str | None, position_file: str | None) -> Start:
    """The start of ``--game N`` or ``--position FILE`` (the JSON of ``deal --json``)."""
    if (game is None) == (position_file is None):
        raise BadInput("give either --game N or --position FILE")
    if game is not None:
        try:
            number = int(game)
            return Start(deal_game(number), f"game {number}", number)
        except ValueError:
            raise BadInput(f"--game {game!r} is not a game number") from None
        except ScorpionError as error:
            raise BadInput(f"--game {game}: {error}") from None
    assert position_file is not None
    path = Path(position_file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise BadInput(f"cannot read the position file {position_file}: {reason}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(
            f"the position file {position_file} is not JSON (line {error.lineno}: {error.msg}); "
            "write it as 'scorpion-conformance deal N --json' does"
        ) from None
    try:
        position = position_from_json(data)
    except ScorpionError as error:
        raise BadInput(f"the position file {position_file}: {error}") from None
    return Start(position, str(position_file))


def read_games(text: str) -> list[int]:
    """``"1-10000"``, ``"5"`` or ``"1-100,200-300"`` → the game numbers, in order, once each."""
    games: dict[int, None] = {}
    for part in str(text).split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise BadInput(f"--games {text!r}: write game numbers, as 1-10000 or 1-100,250") from None
        if low < 1 or high < low:
            raise BadInput(f"--games {text!r}: a range runs from a game of 1 or more up to a larger one")
        if high - low + 1 + len(games) > MAX_GAMES:
            raise BadInput(f"--games {text!r}: at most {MAX_GAMES} games at a time")
        games.update(dict.fromkeys(range(low, high + 1)))
    return list(games)
