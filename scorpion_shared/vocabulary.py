"""The one reader of ``vocabulary.json``, shared by the engine, the suite and the Python adapters.

The option names and values, their defaults and tag spellings, the named rule
sets, the reason and error codes, the commands and statuses of the protocol,
the protocol's version and line limit, and the card alphabet are written
once, in ``scorpion_ref/vocabulary.json``. Everyone reads that file here:
the engine (:mod:`scorpion_ref`), the suite (:mod:`scorpion_conformance`),
which must never import the engine, and the Python adapters, which may run
in an interpreter where neither package is installed. So this module uses
only the standard library and finds the file with
:func:`importlib.util.find_spec`, which locates the ``scorpion_ref`` package
without running its code. The tables below are read-only views.

Typed names for the same words (``Literal`` types a type checker holds code
to) are generated from the file into :mod:`scorpion_shared.words`; the
schema's enums and the tables of ``docs/protocol.md`` too. ``python -m
scorpion_conformance.generated --write`` rewrites them and ``--check`` says
whether they are stale.

>>> OPTIONS["stock"]
('any-time', 'when-stuck')
>>> OPTION_TAGS["empty-king"]
('empty_column', 'king')
>>> NAMED_RULESETS["classic"]["runs"], REASONS[0], RANKS, SUITS
('stay', 'card-face-down', 'A23456789TJQK', 'CDHS')
>>> PROTOCOL_VERSION, MAX_LINE_BYTES
(1, 1048576)
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "CARD",
    "CARD_FORM",
    "COMMANDS",
    "DEFAULT_ADAPTER",
    "ERROR_CODES",
    "MAX_LINE_BYTES",
    "NAMED_RULESETS",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "OPTION_TAGS",
    "PROTOCOL_VERSION",
    "RANKS",
    "RANK_LABELS",
    "REASONS",
    "RED_SUITS",
    "STATUSES",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_OUTLINES",
    "SUIT_SYMBOLS",
    "UNCOVERED_DEFAULTS",
    "UNTAGGED_DEFAULTS",
    "VOCABULARY",
    "Code",
    "NamedRuleSet",
    "Option",
    "Rank",
    "Suit",
    "Vocabulary",
    "VocabularyError",
    "load",
    "problems",
    "reference_adapter",
    "vocabulary_path",
]


class VocabularyError(ValueError):
    """The vocabulary file is missing or does not have the shape this module reads."""


@dataclass(frozen=True)
class Option:
    """A rule option: its values in order, the tag of each value, and its default if it may be left out."""

    name: str
    values: tuple[str, ...]
    tags: Mapping[str, str]
    meaning: str
    default: str | None = None
    #: False while nobody has compared the sources on this option: the comparison page
    #: then shows it as not yet compared instead of needing a point in comparison.yaml.
    compared: bool = True
    #: False while the scenarios written before the option have not been tagged for it: each
    #: scenario without a tag of the option then runs only where it holds its default, the
    #: game those scenarios were written for.
    tagged: bool = True
    #: False while nobody has measured what the scenarios cover of this option: the
    #: coverage measurement then lists the gaps it opens (its named sets' cells, and the
    #: conditions that name it) as not yet measured instead of failing on them.
    covered: bool = True


@dataclass(frozen=True)
class NamedRuleSet:
    """A named rule set: one value per option, a one-line summary and the sources it follows."""

    name: str
    options: Mapping[str, str]
    summary: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Code:
    """A code or name with its one-line meaning (a reason, an error code, a command, a status)."""

    code: str
    meaning: str
    capability: str | None = None


@dataclass(frozen=True)
class Rank:
    """A rank: its letter in the protocol, the label people write, and its name."""

    letter: str
    label: str
    name: str


@dataclass(frozen=True)
class Suit:
    """A suit: its letter, name, symbol, outlined symbol and colour."""

    letter: str
    name: str
    symbol: str
    outline: str
    colour: str


@dataclass(frozen=True)
class Vocabulary:
    """Everything the file holds, in the file's order."""

    protocol_version: int
    max_line_bytes: int
    options: tuple[Option, ...]
    rulesets: tuple[NamedRuleSet, ...]
    reasons: tuple[Code, ...]
    error_codes: tuple[Code, ...]
    commands: tuple[Code, ...]
    statuses: tuple[Code, ...]
    ranks: tuple[Rank, ...]
    suits: tuple[Suit, ...]


def vocabulary_path() -> Path:
    """Where ``vocabulary.json`` lies: in the ``scorpion_ref`` package, found without importing it.

    Raises :class:`VocabularyError` when the package cannot be found.
    """
    spec = importlib.util.find_spec("scorpion_ref")
    folders = list(spec.submodule_search_locations or ()) if spec else []
    for folder in folders:
        path = Path(folder) / "vocabulary.json"
        if path.is_file():
            return path
    raise VocabularyError(
        "cannot find scorpion_ref/vocabulary.json: is scorpion-conformance installed? "
        f"(looked in {', '.join(folders) or 'no scorpion_ref package'})"
    )


_WORD = re.compile(r"^[a-z][a-z0-9-]*$")
_OPTION_NAME = re.compile(r"^[a-z][a-z_]*$")


def _unique(where: str, names: Sequence[Any], pattern: re.Pattern[str]) -> list[str]:
    found = [f"{where}: {n!r} is not a lower-case name" for n in names
             if not isinstance(n, str) or not pattern.match(n)]
    twice = sorted({str(n) for n in names if names.count(n) > 1})
    return found + ([f"{where}: {', '.join(twice)} more than once"] if twice else [])


def _entries(data: Mapping[str, Any], key: str, fields: Sequence[str]) -> tuple[list[Any], list[str]]:
    entries = data.get(key)
    if not isinstance(entries, list) or not entries:
        return [], [f"{key}: a non-empty list is needed"]
    found = [f"{key}[{i}]: needs {', '.join(fields)} (text)" for i, e in enumerate(entries)
             if not isinstance(e, dict) or not all(isinstance(e.get(f), str) and e[f] for f in fields)]
    return ([] if found else entries), found


def _option_problems(options: list[Any]) -> list[str]:
    found = _unique("options", [o["name"] for o in options], _OPTION_NAME)
    tags: list[str] = []
    for o in options:
        values = o.get("values")
        where = f"option {o['name']}"
        if not isinstance(values, list) or len(values) < 2 or not all(
            isinstance(v, dict) and isinstance(v.get("value"), str) and isinstance(v.get("tag"), str)
            for v in values
        ):
            found.append(f"{where}: values must be two or more {{value, tag}} objects")
            continue
        found += _unique(f"{where} values", [v["value"] for v in values], _WORD)
        tags += [v["tag"] for v in values]
        if "default" in o and o["default"] not in [v["value"] for v in values]:
            found.append(f"{where}: the default {o['default']!r} is not one of its values")
        for mark in ("compared", "tagged", "covered"):
            if not isinstance(o.get(mark, True), bool):
                found.append(f"{where}: {mark} must be true or false")
        if o.get("tagged", True) is False and "default" not in o:
            found.append(f"{where}: tagged is false, so untagged scenarios need a default to run under")
    return found + _unique("option tags", tags, _WORD)


def _ruleset_problems(rulesets: list[Any], options: list[Any]) -> list[str]:
    found = _unique("rulesets", [s["name"] for s in rulesets], _WORD)
    known = {o["name"]: [v.get("value") for v in o.get("values", []) if isinstance(v, dict)]
             for o in options}
    for s in rulesets:
        where = f"rule set {s['name']}"
        given = s.get("options")
        if not isinstance(given, dict) or list(given) != list(known):
            found.append(f"{where}: options must give every option, in the order of options")
            continue
        found += [f"{where}: {o} is {v!r}, not one of its values" for o, v in given.items()
                  if v not in known[o]]
        sources = s.get("sources")
        if not isinstance(sources, list) or not sources or not all(isinstance(x, str) for x in sources):
            found.append(f"{where}: sources must be a non-empty list of names")
    return found


def problems(data: Any) -> list[str]:
    """Everything wrong with the shape of a vocabulary (parsed JSON); empty when it is sound.

    >>> problems({"options": []})[1]
    'protocol: max_line_bytes must be a whole number above 0'
    """
    if not isinstance(data, dict):
        return ["the vocabulary must be a JSON object"]
    protocol = data.get("protocol")
    found = [f"protocol: {key} must be a whole number above 0" for key in ("version", "max_line_bytes")
             if not isinstance(protocol, dict) or type(protocol.get(key)) is not int or protocol[key] < 1]
    options, more = _entries(data, "options", ("name", "meaning"))
    found += more
    rulesets, more = _entries(data, "rulesets", ("name", "summary"))
    found += more + _option_problems(options) + _ruleset_problems(rulesets, options)
    for key, field in (("reasons", "code"), ("error_codes", "code"), ("commands", "name"),
                       ("statuses", "name")):
        entries, more = _entries(data, key, (field, "meaning"))
        found += more + _unique(key, [e[field] for e in entries], _WORD)
    cards: dict[str, Any] = data["cards"] if isinstance(data.get("cards"), dict) else {}
    ranks, more = _entries(cards, "ranks", ("letter", "label", "name"))
    suits, also = _entries(cards, "suits", ("letter", "name", "symbol", "outline", "colour"))
    found += [f"cards.{m}" for m in more + also]
    for key, entries in (("ranks", ranks), ("suits", suits)):
        letters = [e["letter"] for e in entries]
        if any(len(x) != 1 for x in letters) or len(set(letters)) != len(letters):
            found.append(f"cards.{key}: letters must be single characters, each once")
    found += [f"cards.suits: colour {s['colour']!r} is not red or black" for s in suits
              if s["colour"] not in ("red", "black")]
    return found


def load(path: Path | None = None) -> Vocabulary:
    """Read and check a vocabulary file (by default the engine's); raises :class:`VocabularyError`."""
    path = path or vocabulary_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise VocabularyError(f"{path}: cannot read the vocabulary ({error})") from None
    found = problems(data)
    if found:
        raise VocabularyError(f"{path}:\n  " + "\n  ".join(found))
    return Vocabulary(
        protocol_version=data["protocol"]["version"],
        max_line_bytes=data["protocol"]["max_line_bytes"],
        options=tuple(
            Option(o["name"], tuple(v["value"] for v in o["values"]),
                   MappingProxyType({v["value"]: v["tag"] for v in o["values"]}),
                   o["meaning"], o.get("default"), o.get("compared", True), o.get("tagged", True),
                   o.get("covered", True))
            for o in data["options"]
        ),
        rulesets=tuple(
            NamedRuleSet(s["name"], MappingProxyType(dict(s["options"])), s["summary"],
                         tuple(s["sources"]))
            for s in data["rulesets"]
        ),
        reasons=tuple(Code(r["code"], r["meaning"]) for r in data["reasons"]),
        error_codes=tuple(Code(e["code"], e["meaning"]) for e in data["error_codes"]),
        commands=tuple(Code(c["name"], c["meaning"], c.get("capability")) for c in data["commands"]),
        statuses=tuple(Code(s["name"], s["meaning"]) for s in data["statuses"]),
        ranks=tuple(Rank(r["letter"], r["label"], r["name"]) for r in data["cards"]["ranks"]),
        suits=tuple(Suit(s["letter"], s["name"], s["symbol"], s["outline"], s["colour"])
                    for s in data["cards"]["suits"]),
    )


#: The whole vocabulary, as typed values.
VOCABULARY = load()

#: Every rule option and its values, in order.
OPTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({o.name: o.values for o in VOCABULARY.options})

#: The options a custom bundle may leave out, and the values they then take.
OPTION_DEFAULTS: Mapping[str, str] = MappingProxyType(
    {o.name: o.default for o in VOCABULARY.options if o.default is not None}
)

#: The options whose untagged scenarios assume the default (``"tagged": false``), and that default.
UNTAGGED_DEFAULTS: Mapping[str, str] = MappingProxyType(
    {o.name: o.default for o in VOCABULARY.options if not o.tagged and o.default is not None}
)

#: The options whose coverage nobody has measured yet (``"covered": false``), and their defaults.
UNCOVERED_DEFAULTS: Mapping[str, str | None] = MappingProxyType(
    {o.name: o.default for o in VOCABULARY.options if not o.covered}
)

#: Option tag → (option, value): ``@runs-collect`` means ``runs: collect``.
OPTION_TAGS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {tag: (o.name, value) for o in VOCABULARY.options for value, tag in o.tags.items()}
)

#: The suite's named rule sets, as option values.
NAMED_RULESETS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {s.name: s.options for s in VOCABULARY.rulesets}
)

#: The reason codes the reference gives with ``illegal-action``, first applicable first.
REASONS: tuple[str, ...] = tuple(r.code for r in VOCABULARY.reasons)

#: The protocol's error codes, commands (in the order the docs list them) and statuses.
ERROR_CODES: tuple[str, ...] = tuple(e.code for e in VOCABULARY.error_codes)
COMMANDS: tuple[str, ...] = tuple(c.code for c in VOCABULARY.commands)
STATUSES: tuple[str, ...] = tuple(s.code for s in VOCABULARY.statuses)

#: The card alphabet: rank letters from Ace to King, suit letters, and how each is shown.
RANKS: str = "".join(r.letter for r in VOCABULARY.ranks)
SUITS: str = "".join(s.letter for s in VOCABULARY.suits)
RANK_LABELS: Mapping[str, str] = MappingProxyType({r.letter: r.label for r in VOCABULARY.ranks})
SUIT_SYMBOLS: Mapping[str, str] = MappingProxyType({s.letter: s.symbol for s in VOCABULARY.suits})
SUIT_NAMES: Mapping[str, str] = MappingProxyType({s.letter: s.name for s in VOCABULARY.suits})
SUIT_OUTLINES: Mapping[str, str] = MappingProxyType({s.letter: s.outline for s in VOCABULARY.suits})
RED_SUITS: frozenset[str] = frozenset(s.letter for s in VOCABULARY.suits if s.colour == "red")

#: A card exactly as the protocol writes it: a rank letter, then a suit letter.
CARD: re.Pattern[str] = re.compile(f"[{re.escape(RANKS)}][{re.escape(SUITS)}]")

#: How messages describe :data:`CARD`.
CARD_FORM = f"a rank of {RANKS} then a suit of {SUITS}"

#: The version of the adapter protocol (compared in one place on each side).
PROTOCOL_VERSION: int = VOCABULARY.protocol_version

#: The longest line either side reads; a longer one is refused, never read whole.
MAX_LINE_BYTES: int = VOCABULARY.max_line_bytes



def reference_adapter(python: str) -> str:
    """The command that runs the reference adapter under ``python``, each word quoted for a shell.

    >>> reference_adapter("/opt/my python/bin/python3")
    "'/opt/my python/bin/python3' -m scorpion_ref.adapter"
    """
    return shlex.join((python, "-m", "scorpion_ref.adapter"))


#: The adapter a run uses unless told otherwise: the reference, under this interpreter
#: (a path with a space in it still works).
DEFAULT_ADAPTER: str = reference_adapter(sys.executable)
