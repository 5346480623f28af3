"""Expectations files: the cases an implementation is known to fail, and why.

An expectations file is JSON: ``{"known_failures": {"MOVE-004": "reason",
"STOCK-002[classic]": "reason", "PLACE-006/2": "reason"}}``. A key names a
scenario (every case and rule set of it), one example row (``/n``), and
optionally one rule set (``[name]``). A listed case that passes fails the run,
so the file stays honest; ``--write-expectations`` writes one from a run.

>>> known = Expectations({"MOVE-004": "moves any group", "STOCK-002[classic]": "no lock"})
>>> known.reason("MOVE-004/2", "standard"), known.reason("STOCK-002", "standard")
('moves any group', None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .reporting import Record, write_atomically

__all__ = ["Expectations", "ExpectationsError", "load_expectations", "write_expectations"]


class ExpectationsError(ValueError):
    """An expectations file that cannot be read, naming the file."""


@dataclass(frozen=True)
class Expectations:
    """Known failures by key."""

    known: Mapping[str, str] = field(default_factory=dict)

    def reason(self, case_id: str | None, rules: str | None) -> str | None:
        """Why the case ``case_id`` is known to fail under ``rules``, or None."""
        if case_id is None:
            return None
        base = case_id.split("/")[0]
        for key in (f"{case_id}[{rules}]", case_id, f"{base}[{rules}]", base):
            if key in self.known:
                return self.known[key]
        return None


def load_expectations(path: Path) -> Expectations:
    """Read an expectations file; raises :class:`ExpectationsError` naming the file."""
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ExpectationsError(f"cannot read the expectations file {path}: {error}") from None
    known = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(known, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in known.items()
    ):
        raise ExpectationsError(
            f'{path}: an expectations file is a JSON object with "known_failures":'
            " {scenario id: reason}"
        )
    return Expectations(dict(known))


def write_expectations(path: Path, records: Iterable[Record]) -> int:
    """Write the failures among ``records`` as an expectations file; returns how many.

    Only finished cases count: a case that did not run is never a known failure.
    """
    failures = {
        record.key: (record.message.splitlines()[0][:200] if record.message else "failed")
        for record in records
        if record.status in ("failed", "error", "xfailed")
    }
    text = json.dumps({"known_failures": dict(sorted(failures.items()))}, indent=2, ensure_ascii=False)
    write_atomically(Path(path), lambda out: out.write(text + "\n"))
    return len(failures)
