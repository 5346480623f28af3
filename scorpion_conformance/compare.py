"""The one comparison of an adapter's answers with the expected ones: states and legal actions.

Perft, the fuzzer, ``check-adapter`` and the suite all set what an adapter
answered beside what the rules give, and say the difference in the scenarios'
notation (``9♦``, ``[4♠]``, ``9♦ to column 5``). They share these functions.
Everything here works on the protocol's JSON values alone and never imports
the reference engine, so the suite, which may not import it, uses them too.

>>> expected = {"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": ["S"],
...             "status": "playing"}
>>> state_difference(expected, {**expected, "removed": ["S"]}) is None
True
>>> print(legal_difference([{"type": "deal"}], [{"type": "move", "card": "9D", "to": 2}]))
the adapter lists, the rules refuse: 9♦ to column 2; the rules allow, the adapter does not list: deal
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .notation import SUIT_SYMBOLS, show_action, show_card, show_column

__all__ = [
    "ActionKey",
    "LegalDifference",
    "action_key",
    "legal_difference",
    "normalized_state",
    "same_position",
    "state_difference",
]

Json = Mapping[str, Any]


class ActionKey(NamedTuple):
    """What identifies a protocol action: its type, card and target column
    (``""`` and ``0`` where the action has none). Keys sort and hash, so two
    lists of actions compare as sets or multisets of keys.

    >>> key = action_key({"type": "move", "card": "TD", "to": 5})
    >>> key, key.notation, key.words
    (ActionKey(kind='move', card='TD', to=5), 'TD>5', '10♦ to column 5')
    """

    kind: str
    card: str = ""
    to: int = 0

    @property
    def notation(self) -> str:
        """The action in the engine's compact notation: ``"9D>5"``, ``"deal"``."""
        return "deal" if self.kind == "deal" else f"{self.card}>{self.to}"

    @property
    def words(self) -> str:
        """The action in the scenarios' notation: ``"9♦ to column 5"``, ``"deal"``."""
        return show_action({"type": self.kind, "card": self.card, "to": self.to})


def action_key(action: Json) -> ActionKey:
    """The :class:`ActionKey` of a protocol action; fields other than type, card and to
    do not count.

    >>> action_key({"type": "deal"})
    ActionKey(kind='deal', card='', to=0)
    """
    return ActionKey._make(_fields(action))


def _fields(action: Json) -> tuple[str, str, int]:
    return (str(action.get("type")), str(action.get("card", "")), int(action.get("to", 0) or 0))


# -- states ------------------------------------------------------------------------------


def normalized_state(state: Json) -> dict[str, Any]:
    """The parts of a state that say what is on the table: the columns, the stock, the
    collected suits (in a fixed order) and the status. Two states with equal normal
    forms show the same table.

    >>> normalized_state({"columns": [], "stock": [], "removed": ["S", "C"], "status": "playing"})
    {'columns': [], 'stock': [], 'removed': ['C', 'S'], 'status': 'playing'}
    """
    return {
        "columns": state.get("columns"),
        "stock": state.get("stock"),
        "removed": sorted(state.get("removed", [])),
        "status": state.get("status"),
    }


def same_position(first: Json, second: Json) -> bool:
    """Whether two states show the same table (collected suits in any order).

    >>> table = {"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": ["C", "S"],
    ...          "status": "playing"}
    >>> same_position(table, {**table, "removed": ["S", "C"]})
    True
    >>> same_position(table, {**table, "stock": ["2C"]})
    False
    """
    return normalized_state(first) == normalized_state(second)


def state_difference(expected: Json, actual: Json) -> str | None:
    """How the ``actual`` state differs from the ``expected`` one (what the rules give),
    in words; None when they agree. The collected suits may come in any order.

    >>> state_difference({"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": [],
    ...                   "status": "lost"}, {"columns": [{"down": [], "up": []}], "stock": [],
    ...                   "removed": [], "status": "lost"})
    'column 1 reads (empty); the rules give 9♦'
    """
    problems = []
    columns = list(actual.get("columns") or [])
    wanted = list(expected["columns"])
    if len(columns) != len(wanted):
        problems.append(f"the table has {len(columns)} columns; the rules give {len(wanted)}")
    for number, (want, got) in enumerate(zip(wanted, columns, strict=False), start=1):
        if {"down": got.get("down"), "up": got.get("up")} != want:
            problems.append(
                f"column {number} reads {show_column(got)}; the rules give {show_column(want)}"
            )
    if list(actual.get("stock", [])) != list(expected["stock"]):
        problems.append(
            f"the stock holds {' '.join(map(show_card, actual.get('stock', []))) or 'nothing'};"
            f" the rules give {' '.join(map(show_card, expected['stock'])) or 'nothing'}"
        )
    if sorted(actual.get("removed", [])) != sorted(expected["removed"]):
        problems.append(
            f"the collected suits are {_suits(actual.get('removed', []))};"
            f" the rules give {_suits(expected['removed'])}"
        )
    if actual.get("status") != expected["status"]:
        problems.append(
            f"the status is {actual.get('status')}; the rules give {expected['status']}"
        )
    return "; ".join(problems) or None


def _suits(letters: Sequence[str]) -> str:
    return " ".join(SUIT_SYMBOLS.get(s, s) for s in sorted(letters)) or "none"


# -- legal actions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LegalDifference:
    """How an adapter's list of legal actions differs from the rules' list: the keys
    it leaves out, the keys it adds, and the keys it lists more than once (each
    sorted). ``str()`` says it in words."""

    missing: tuple[ActionKey, ...]
    extra: tuple[ActionKey, ...]
    twice: tuple[ActionKey, ...]

    def __str__(self) -> str:
        parts = []
        if self.extra:
            parts.append("the adapter lists, the rules refuse: " + _words(self.extra))
        if self.missing:
            parts.append("the rules allow, the adapter does not list: " + _words(self.missing))
        if self.twice:
            parts.append("listed more than once: " + _words(self.twice))
        return "; ".join(parts)


def _words(keys: Iterable[ActionKey]) -> str:
    return ", ".join(key.words for key in keys)


def legal_difference(expected: Iterable[Json], actual: Iterable[Json]) -> LegalDifference | None:
    """How the ``actual`` legal actions differ from the ``expected`` ones (which list
    each action once); None when they are the same actions, in any order.

    >>> deal, nine = {"type": "deal"}, {"type": "move", "card": "9D", "to": 2}
    >>> legal_difference([deal, nine], [nine, deal]) is None
    True
    >>> found = legal_difference([deal, nine], [nine, nine])
    >>> [key.notation for key in found.missing], str(found)
    (['deal'], 'the rules allow, the adapter does not list: deal; listed more than once: 9♦ to column 2')
    """
    wanted, listed = sorted(map(_fields, expected)), sorted(map(_fields, actual))
    if wanted == listed:  # the common case, kept cheap: the fuzzer asks after every step
        return None
    want, got = Counter(map(ActionKey._make, wanted)), Counter(map(ActionKey._make, listed))
    return LegalDifference(
        missing=tuple(sorted(set(want) - set(got))),
        extra=tuple(sorted(set(got) - set(want))),
        twice=tuple(sorted(key for key, times in got.items() if times > 1)),
    )
