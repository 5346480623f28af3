"""The vocabulary file, ``vocabulary.json``, as the engine reads it.

The option names and values, the named rule sets, the reason codes, the
protocol's error codes and commands, and the card alphabet are written once,
in that file; :mod:`scorpion_ref.rules`, :mod:`scorpion_ref.cards`,
:mod:`scorpion_ref.errors` and the reference adapter read them from here. The
conformance suite reads the same file on its own
(:mod:`scorpion_conformance.vocabulary`), since it never imports the engine.

>>> OPTIONS["stock"]
('any-time', 'when-stuck')
>>> RANK_LETTERS, SUIT_LETTERS
('A23456789TJQK', 'CDHS')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = [
    "CARD",
    "CARD_FORM",
    "COMMANDS",
    "ERROR_CODES",
    "NAMED_SETS",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "RANK_LABELS",
    "RANK_LETTERS",
    "REASONS",
    "RED_SUITS",
    "STATUSES",
    "SUIT_LETTERS",
    "SUIT_OUTLINES",
    "SUIT_SYMBOLS",
    "NamedSet",
]


@dataclass(frozen=True, slots=True)
class NamedSet:
    """One named rule set as the file writes it: its option values, summary and sources."""

    name: str
    options: Mapping[str, str]
    summary: str
    sources: tuple[str, ...]


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("vocabulary.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load()

#: Every option with its values, in the file's order.
OPTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {o["name"]: tuple(v["value"] for v in o["values"]) for o in _DATA["options"]}
)

#: The options a custom bundle may leave out, with the value they then take.
OPTION_DEFAULTS: Mapping[str, str] = MappingProxyType(
    {o["name"]: o["default"] for o in _DATA["options"] if "default" in o}
)

#: The named rule sets, in the file's order.
NAMED_SETS: tuple[NamedSet, ...] = tuple(
    NamedSet(s["name"], MappingProxyType(dict(s["options"])), s["summary"], tuple(s["sources"]))
    for s in _DATA["rulesets"]
)

#: The reason codes of illegal actions; when several apply, the first in this order is given.
REASONS: tuple[str, ...] = tuple(r["code"] for r in _DATA["reasons"])

#: The protocol's error codes and commands, and the statuses of a game.
ERROR_CODES: tuple[str, ...] = tuple(e["code"] for e in _DATA["error_codes"])
COMMANDS: tuple[str, ...] = tuple(c["name"] for c in _DATA["commands"])
STATUSES: tuple[str, ...] = tuple(s["name"] for s in _DATA["statuses"])

#: The rank letters from Ace to King, and the labels people write (``10`` for ``T``).
RANK_LETTERS: str = "".join(r["letter"] for r in _DATA["cards"]["ranks"])
RANK_LABELS: tuple[str, ...] = tuple(r["label"] for r in _DATA["cards"]["ranks"])

#: The suit letters in the protocol's order, with their symbols and outlined symbols.
SUIT_LETTERS: str = "".join(s["letter"] for s in _DATA["cards"]["suits"])
SUIT_SYMBOLS: tuple[str, ...] = tuple(s["symbol"] for s in _DATA["cards"]["suits"])
SUIT_OUTLINES: tuple[str, ...] = tuple(s["outline"] for s in _DATA["cards"]["suits"])
RED_SUITS: frozenset[str] = frozenset(
    s["letter"] for s in _DATA["cards"]["suits"] if s["colour"] == "red"
)

#: A card exactly as the protocol writes it: a rank letter, then a suit letter.
CARD: re.Pattern[str] = re.compile(f"[{re.escape(RANK_LETTERS)}][{re.escape(SUIT_LETTERS)}]")

#: How messages describe :data:`CARD`.
CARD_FORM = f"a rank of {RANK_LETTERS} then a suit of {SUIT_LETTERS}"
