"""What the solving commands are given, checked: a start, a rule set, a budget, a game range.

Every problem is a :class:`BadInput` whose message is one line naming what
was wrong; the commands print it and exit 2.

Every number is checked against what its consumer can hold before anything
starts: a budget against the solver's 64-bit counts (the compiled core),
game numbers against the deals there are, worker processes against the
machine.

>>> read_budget("200k"), read_budget("2_000_000"), read_budget("3M")
(200000, 2000000, 3000000)
>>> read_games("1-3,7")
[1, 2, 3, 7]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from scorpion_ref import Position, RuleSet, ScorpionError, deal_game, get_ruleset
from scorpion_ref.deal import LAST_GAME
from scorpion_ref.serial import position_from_json
from scorpion_ref.solver.outcome import MAX_MEMORY_MB, MAX_NODES

from ..arguments import WORKERS_PER_CORE, most_workers
from ..json_input import InputError, read_json

__all__ = ["BadInput", "Start", "read_budget", "read_games", "read_memory", "read_rules", "read_start",
           "read_workers"]

_BUDGET = re.compile(r"(?P<number>[0-9]{1,30}(?:_[0-9]{1,30})*)(?P<unit>[kKmMgG]?)")
_UNITS = {"": 1, "k": 1_000, "m": 1_000_000, "g": 1_000_000_000}
#: More games than this in one range is surely a typing mistake.
MAX_GAMES = 10_000_000
#: The largest position file read: a position is about a kilobyte.
MAX_POSITION_BYTES = 1 << 20


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


def read_budget(text: str | int, what: str = "--budget", most: int = MAX_NODES,
                unit: str = "positions") -> int:
    """A positive count of positions, as ``200000``, ``200_000``, ``200k`` or ``2M``, at most ``most``
    (the solver counts in 64 bits); raises :class:`BadInput`.

    >>> try:
    ...     read_budget("3k", most=2)
    ... except BadInput as error:
    ...     print(error)
    --budget '3k' is more than the solver counts: at most 2 positions
    """
    match = _BUDGET.fullmatch(str(text).strip())
    value = int(match["number"].replace("_", "")) * _UNITS[match["unit"].lower()] if match else 0
    said = repr(str(text)) if len(str(text)) <= 40 else repr(str(text)[:40]) + "..."
    if value <= 0:
        raise BadInput(f"{what} {said} is not a positive number of {unit} (as 200000, 200k or 2M)")
    if value > most:
        raise BadInput(f"{what} {said} is more than the solver counts: at most {most:,} {unit}")
    return value


def read_memory(text: str | int, what: str = "--memory-mb") -> int:
    """A positive number of megabytes for the search table, at most what the solver counts."""
    return read_budget(text, what, MAX_MEMORY_MB, "megabytes")


def read_workers(text: str | int | None, cores: int | None = None) -> int:
    """The number of local worker processes: every core by default, at most
    :data:`~scorpion_conformance.arguments.WORKERS_PER_CORE` per core; raises :class:`BadInput`."""
    cores = cores or os.cpu_count() or 1
    if text is None:
        return cores
    if not str(text).isdigit() or int(str(text)[:12]) < 1:
        raise BadInput(f"--workers {text!r} is not a number of processes, 1 or more")
    most = most_workers(cores)
    if int(str(text)[:12]) > most:
        raise BadInput(f"--workers {text}: at most {most} on this machine ({WORKERS_PER_CORE} per core); "
                       "more processes than that only slow each other down")
    return int(text)


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
    try:
        data = read_json(position_file, max_bytes=MAX_POSITION_BYTES, what="position file")
    except InputError as error:
        hint = "; write it as 'scorpion-conformance deal N --json' does" if "not JSON" in str(error) else ""
        raise BadInput(f"{error}{hint}") from None
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
        if high > LAST_GAME:
            raise BadInput(f"--games {text!r}: game numbers run from 1 to {LAST_GAME}, not {high}")
        if high - low + 1 + len(games) > MAX_GAMES:
            raise BadInput(f"--games {text!r}: at most {MAX_GAMES} games at a time")
        games.update(dict.fromkeys(range(low, high + 1)))
    return list(games)
