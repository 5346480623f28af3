"""The reasons for the gaps a measurement leaves, read from ``data/coverage/gaps.yaml``
(the file's own comment says how an entry is written)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml

from scorpion_ref import OPTIONS, RULESETS

__all__ = ["GAPS_FILE", "GapsError", "load_reasons"]


#: The reasons for the gaps a measurement leaves (see the file's own comment).
GAPS_FILE = Path(__file__).resolve().parents[2] / "data" / "coverage" / "gaps.yaml"


class GapsError(ValueError):
    """A gaps file that cannot be used, naming the file and the entry."""


def load_reasons(path: Path = GAPS_FILE, rulesets: Sequence[str] | None = None) -> dict[str, str]:
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
    return reasons
