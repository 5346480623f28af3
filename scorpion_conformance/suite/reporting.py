"""What a run found, case by case: the records, the JSON report and the rerun lines.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .naming import area_of, case_text
from .scenarios import Case

__all__ = [
    "NOT_RUN",
    "STATUSES",
    "UNSUPPORTED",
    "Record",
    "in_order",
    "record_for",
    "rerun_command",
    "shell_word",
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
    #: The rule area: the feature file's name (``stock``, ``empty-columns``).
    area_id: str = ""
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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        """The record :meth:`as_json` wrote (a worker's, read back by the controller).

        >>> record = Record("MOVE-004", "A King moves", "Moving groups", "standard", "failed")
        >>> record.extra["blame"] = "implementation"
        >>> Record.from_json(record.as_json()) == record
        True
        """
        known = {name for name in cls.__dataclass_fields__ if name != "extra"}
        fields = {key: value for key, value in data.items() if key in known}
        return cls(**fields, extra={key: value for key, value in data.items() if key not in known})


def shell_word(text: str) -> str:
    """``text`` as one word of a POSIX shell, quoted as simply as it can be.

    Plain words stay bare; anything else goes in double quotes when that is
    safe (no ``"``, ``$``, backquote, backslash or ``!`` inside), else in
    :func:`shlex.quote`'s single quotes.

    >>> print(shell_word("MOVE-004"), shell_word("node '/tmp/my adapter.js'"), shell_word("it's $5"))
    MOVE-004 "node '/tmp/my adapter.js'" 'it'"'"'s $5'
    """
    if text and shlex.quote(text) == text:
        return text
    if not any(char in text for char in '"$`\\!'):
        return f'"{text}"'
    return shlex.quote(text)


def rerun_command(command: str, rules: str | None, case_id: str | None, features: str | None) -> str:
    """The one-line command that reruns one case.

    >>> print(rerun_command("node a.js", "standard", "MOVE-004", None))
    scorpion-conformance run --adapter "node a.js" --rules standard --id MOVE-004
    """
    parts = ["scorpion-conformance", "run", "--adapter", command]
    if features:
        parts += ["--features", features]
    if rules:
        parts += ["--rules", rules]
    if case_id:
        parts += ["--id", case_id]
    return " ".join(shell_word(part) for part in parts)


def record_for(nodeid: str, template: Any, case: Case | None, rules: str | None, command: str,
               features: str | None) -> Record:
    """The record of a case that has not finished yet: what it is, where it is written, and the
    line that reruns it (``features``: the folder ``run --features`` named)."""
    case_id = case.case_id if case is not None else None
    return Record(
        id=case_id, name=case_text(case.name, case.example) if case is not None else template.name,
        area=template.feature.name, rules=rules, rerun=rerun_command(command, rules, case_id, features),
        nodeid=nodeid, source=f"{Path(template.feature.filename).name}:{template.line_number}",
        area_id=area_of(template.feature.filename),
    )


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


def in_order(records: Iterable[Record], order: Sequence[str] = ()) -> list[Record]:
    """The finished records in collection order (node ids in ``order``), whoever ran them.

    Records whose node id ``order`` does not hold come last, in the order given.
    """
    place = {nodeid: index for index, nodeid in enumerate(order)}
    finished = [record for record in records if record.final]
    return sorted(finished, key=lambda record: place.get(record.nodeid, len(place)))


def write_report(path: Path, records: Iterable[Record], ending: dict[str, Any],
                 order: Sequence[str] = ()) -> None:
    """One JSON line per finished case, then one line that says how the run ended.

    ``ending`` holds at least ``"run"``: ``"complete"``, ``"interrupted"`` or
    ``"gave-up"``. The cases come in collection order (``order``, node ids), so
    a run in parallel workers writes the same file as one without.
    """
    finished = in_order(records, order)

    def write(out: Any) -> None:
        for record in finished:
            out.write(json.dumps(record.as_json(), ensure_ascii=False, default=str) + "\n")
        out.write(json.dumps({"end": True, **ending}, ensure_ascii=False, default=str) + "\n")

    write_atomically(path, write)
