"""What a run found, case by case: the records, the JSON report and the summary.

A :class:`Record` is one scenario case under one rule set. Its ``status`` is
final only once the case has finished: a case cut short by an interrupt is
never recorded, so a report never claims a verdict that was not reached.

Statuses, and whose they are:

* ``passed``, ``failed``: the implementation's verdict under the rules;
* ``error``: the adapter misbehaved (crashed, hung, wrote junk or answers out
  of step): a fault of the adapter program, not a verdict on the rules;
* ``xfailed``, ``xpassed``: a known failure of the expectations file that
  failed as expected, or now passes;
* ``unsupported``: no declared rule set (or capability) fits the case;
* ``not-run``: the run had given up on the adapter before this case.

>>> Record("MOVE-004", "A King moves", "Moving groups", "standard", "passed").final
True
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "NOT_RUN",
    "STATUSES",
    "UNSUPPORTED",
    "Record",
    "rerun_command",
    "summary_lines",
    "write_atomically",
    "write_report",
]

UNSUPPORTED = "unsupported"
NOT_RUN = "not-run"

#: Every final status, in the order the summary shows them.
STATUSES = ("passed", "failed", "error", "xfailed", "xpassed", UNSUPPORTED, NOT_RUN, "skipped")


@dataclass
class Record:
    """One scenario case run under one rule set, for the report."""

    id: str | None
    name: str
    area: str
    rules: str | None
    status: str = ""  # "" until the case has finished
    message: str = ""
    expected: Any = None
    actual: Any = None
    stderr_tail: str = ""
    context: str = ""
    rerun: str = ""
    nodeid: str = ""
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def final(self) -> bool:
        """Whether the case finished and its status is a verdict."""
        return self.status in STATUSES

    @property
    def key(self) -> str:
        """How an expectations file names this case: ``MOVE-004[standard]``."""
        return (self.id or self.nodeid) + (f"[{self.rules}]" if self.rules else "")

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        extra = data.pop("extra")
        return {**data, **extra}


def rerun_command(command: str, rules: str | None, case_id: str | None, features: str | None) -> str:
    """The one-line command that reruns one case.

    >>> rerun_command("node a.js", "standard", "MOVE-004", None)
    "scorpion-conformance run --adapter 'node a.js' --rules standard --id MOVE-004"
    """
    parts = ["scorpion-conformance", "run", "--adapter", command]
    if features:
        parts += ["--features", features]
    if rules:
        parts += ["--rules", rules]
    if case_id:
        parts += ["--id", case_id]
    return shlex.join(parts)


def write_atomically(path: Path, write: Callable[[Any], None]) -> None:
    """Write a text file through a temporary file beside it and a rename.

    The file is never seen half written; on any error the old one stays.
    Raises :class:`OSError` when the folder cannot be written.
    """
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            write(out)
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_report(path: Path, records: Iterable[Record], ending: dict[str, Any]) -> None:
    """One JSON line per finished case, then one line that says how the run ended.

    ``ending`` holds at least ``"run"``: ``"complete"``, ``"interrupted"`` or
    ``"gave-up"``.
    """
    finished = [record for record in records if record.final]

    def write(out: Any) -> None:
        for record in finished:
            out.write(json.dumps(record.as_json(), ensure_ascii=False, default=str) + "\n")
        out.write(json.dumps({"end": True, **ending}, ensure_ascii=False, default=str) + "\n")

    write_atomically(path, write)


def _table(title: str, rows: dict[str, Counter[str]], statuses: tuple[str, ...]) -> list[str]:
    width = max(len(title), *(len(k) for k in rows))
    lines = [f"{title:<{width}}  " + "  ".join(f"{s:>11}" for s in statuses)]
    for key in sorted(rows):
        lines.append(f"{key:<{width}}  " + "  ".join(f"{rows[key][s]:>11}" for s in statuses))
    return lines


def summary_lines(records: Iterable[Record], *, ended: str = "complete") -> list[str]:
    """The summary a person reads at the end of a run: per rule area, per rule set."""
    finished = [record for record in records if record.final]
    by_area: dict[str, Counter[str]] = defaultdict(Counter)
    by_rules: dict[str, Counter[str]] = defaultdict(Counter)
    for record in finished:
        by_area[record.area][record.status] += 1
        by_rules[record.rules or f"({UNSUPPORTED})"][record.status] += 1
    lines: list[str] = []
    if finished:
        lines += ["", *_table("rule area", by_area, STATUSES), "", *_table("rule set", by_rules, STATUSES)]
        lines += [
            "",
            "A scenario runs under each declared rule set its option tags admit, so the",
            "totals differ between rule sets; pytest's own last line counts unsupported",
            "and not-run cases among its skipped ones. 'error' is a fault of the adapter",
            "program (it crashed, hung or answered out of step), not a verdict on the rules.",
        ]
    unsupported = Counter(r.message for r in finished if r.status == UNSUPPORTED)
    if unsupported:
        lines += ["", "unsupported scenarios, by reason:"]
        lines += [f"  {n:>4}  {reason}" for reason, n in unsupported.most_common()]
    failed = [r for r in finished if r.status in ("failed", "error", "xpassed")]
    if failed:
        lines += ["", "rerun a failure with:"]
        lines += [f"  {record.rerun}" for record in failed[:20]]
    if ended != "complete":
        lines += ["", f"The run was {ended}: the cases above are the ones that finished."]
    return lines
