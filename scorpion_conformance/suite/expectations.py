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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorpion_conformance.json_input import InputError, read_json
from scorpion_conformance.writing import write_file

from .reporting import Record

#: The largest expectations file read: one line per scenario and rule set is a few hundred kilobytes.
MAX_EXPECTATIONS_BYTES = 64 * 2**20

__all__ = ["Expectations", "ExpectationsError", "load_expectations", "unknown_keys", "write_expectations"]


class ExpectationsError(ValueError):
    """An expectations file that cannot be read, naming the file."""


@dataclass(frozen=True)
class Expectations:
    """Known failures by key."""

    known: Mapping[str, str] = field(default_factory=dict)

    def entry(self, case_id: str | None, rules: str | None) -> str | None:
        """The key of the file that lists the case ``case_id`` under ``rules``, or None.

        >>> Expectations({"MOVE-004": "why"}).entry("MOVE-004/2", "standard")
        'MOVE-004'
        """
        if case_id is None:
            return None
        base = case_id.split("/")[0]
        for key in (f"{case_id}[{rules}]", case_id, f"{base}[{rules}]", base):
            if key in self.known:
                return key
        return None

    def reason(self, case_id: str | None, rules: str | None) -> str | None:
        """Why the case ``case_id`` is known to fail under ``rules``, or None."""
        key = self.entry(case_id, rules)
        return self.known[key] if key is not None else None


def load_expectations(path: Path) -> Expectations:
    """Read an expectations file; raises :class:`ExpectationsError` naming the file."""
    try:
        data: Any = read_json(path, max_bytes=MAX_EXPECTATIONS_BYTES, what="expectations file")
    except InputError as error:
        raise ExpectationsError(str(error)) from None
    known = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(known, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in known.items()
    ):
        raise ExpectationsError(
            f'{path}: an expectations file is a JSON object with "known_failures":'
            " {scenario id: reason}"
        )
    return Expectations(dict(known))


def unknown_keys(expectations: Expectations, path: Path, folders: Sequence[Path]) -> None:
    """Refuse an expectations file that names a case no feature file has.

    A typo would otherwise hide nothing and say nothing; raises
    :class:`ExpectationsError` naming the file and every unknown key.
    """
    from .selection import known_ids

    ids = known_ids(folders)
    unknown = sorted(key for key in expectations.known if key.split("[")[0] not in ids)
    if unknown:
        where = ", ".join(str(folder) for folder in folders)
        raise ExpectationsError(
            f"{path}: {len(unknown)} unknown scenario id{'s' * (len(unknown) != 1)}: "
            f"{', '.join(unknown)} (no scenario in {where} has {'them' if len(unknown) != 1 else 'it'}); "
            "fix or remove the entries"
        )


def write_expectations(path: Path, records: Iterable[Record]) -> int:
    """Write the failures among ``records`` as an expectations file; returns how many.

    Only finished cases count: a case that did not run is never a known failure.
    Raises :class:`OSError` when the file cannot be written.
    """
    failures = {
        record.key: (record.message.splitlines()[0][:200] if record.message else "failed")
        for record in records
        if record.status in ("failed", "error", "xfailed")
    }
    text = json.dumps({"known_failures": dict(sorted(failures.items()))}, indent=2, ensure_ascii=False)
    write_file(Path(path), lambda out: out.write(text + "\n"))
    return len(failures)
