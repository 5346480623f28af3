"""The reasons for the gaps a measurement leaves, read from ``data/coverage/gaps.yaml``
(the file's own comment says how an entry is written).

An option the vocabulary marks ``"covered": false`` (one added since the
scenarios were last measured) brings its own reason for the gaps it opens:
every gap under a named set that gives it another value than its default, and
every condition gap whose decision or condition names it. Those gaps are shown
as not yet measured, never as filled, until someone writes their scenarios (or
their reasons here) and drops the mark.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import yaml

from scorpion_ref import OPTIONS, RULESETS
from scorpion_shared.vocabulary import UNCOVERED_DEFAULTS

__all__ = ["GAPS_FILE", "GapsError", "Reasons", "load_reasons", "not_yet_measured"]


#: The reasons for the gaps a measurement leaves (see the file's own comment).
GAPS_FILE = Path(__file__).resolve().parents[2] / "data" / "coverage" / "gaps.yaml"


class GapsError(ValueError):
    """A gaps file that cannot be used, naming the file and the entry."""


def not_yet_measured(key: str, uncovered: Mapping[str, str | None] = UNCOVERED_DEFAULTS) -> str | None:
    """Why the gap ``key`` (``"... [<rule set>]"``) stays open while an option is marked
    ``"covered": false``, or None when no such option explains it: a gap under a named set
    that gives the option another value than its default, or one of a condition, or of a
    refusal reason, whose decision reads the option."""
    text, _, rules = key.rpartition(" [")
    named = RULESETS.get(rules.rstrip("]"))
    if uncovered:
        # A condition's decision, or the rule functions that refuse with a reason, as they read.
        from .model import load_model

        model = load_model()
        decisions = [d for d in model.decisions if text in d.reasons]
        if " :: " in text:
            with contextlib.suppress(KeyError):
                decisions = [model.decision(text.split(" :: ", 1)[0])]
        text = " ".join((text, *(d.text for d in decisions),
                         *(c.text for d in decisions for c in d.conditions)))
    for option, default in uncovered.items():
        differs = named is not None and named.options.get(option) != default
        # A condition names the option where it reads rules.<option>, or calls the helper named after it.
        if differs or re.search(rf"\brules\.{re.escape(option)}\b|\b_{re.escape(option)}\b", text):
            return (f"not yet measured: the option {option} is new, and the vocabulary marks it "
                    '"covered": false until its scenarios are written')
    return None


class Reasons(Mapping[str, str]):
    """The reasons of the gaps file, and those an option marked ``"covered": false`` brings
    (:func:`not_yet_measured`); iterating gives the file's keys only."""

    def __init__(self, written: Mapping[str, str]) -> None:
        self._written = dict(written)

    def __getitem__(self, key: str) -> str:
        if key in self._written:
            return self._written[key]
        reason = not_yet_measured(key)
        if reason is None:
            raise KeyError(key)
        return reason

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in self._written or not_yet_measured(key) is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._written)

    def __len__(self) -> int:
        return len(self._written)


def load_reasons(path: Path = GAPS_FILE, rulesets: Sequence[str] | None = None) -> Reasons:
    """Gap key → the reason it stays empty, each entry expanded over the named rule sets
    its ``where`` admits. Raises :class:`GapsError` for a file that cannot be used."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise GapsError(f"cannot read {path}: {error}") from None
    names = tuple(rulesets or RULESETS)
    reasons: dict[str, str] = {}
    for table in ("conditions", "matrix", "reasons", "undo"):
        for number, entry in enumerate((data or {}).get(table) or [], start=1):
            where = f"{path}: {table} entry {number}"
            if not isinstance(entry, dict) or not isinstance(entry.get("reason"), str):
                raise GapsError(f"{where}: an entry has a key (or keys), an optional where, and a reason")
            keys = entry.get("keys") or [entry.get("key")]
            if not all(isinstance(k, str) and k for k in keys):
                raise GapsError(f"{where}: key is a string, keys a list of strings")
            wanted = entry.get("where") or {}
            if not isinstance(wanted, dict):
                raise GapsError(f"{where}: where maps options to values")
            unknown = sorted(set(wanted) - set(OPTIONS))
            if unknown:
                raise GapsError(f"{where}: no option {', '.join(unknown)}")
            chosen = [n for n in names if all(RULESETS[n].options[o] == v for o, v in wanted.items())]
            text = " ".join(entry["reason"].split())
            for key in keys:
                for name in chosen:
                    reasons[f"{key} [{name}]"] = text
    return Reasons(reasons)
