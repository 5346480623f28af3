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

import json
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scorpion_conformance.writing import write_file

from .naming import area_of, case_text
from .scenarios import Case

__all__ = [
    "CASE_SCHEMA",
    "ENDINGS",
    "END_SCHEMA",
    "NOT_RUN",
    "STATUSES",
    "UNSUPPORTED",
    "Record",
    "in_order",
    "record_for",
    "rerun_command",
    "shell_word",
    "write_report",
]

UNSUPPORTED = "unsupported"
NOT_RUN = "not-run"

#: Every final status, in the order the summary shows them.
STATUSES = ("passed", "failed", "error", "xfailed", "xpassed", UNSUPPORTED, NOT_RUN, "skipped")
#: How a run ended, as its report's closing record says (``run``).
ENDINGS = ("complete", "interrupted", "gave-up", "adapter-unusable")

_TEXT = {"type": "string"}
_TEXT_OR_NONE = {"type": ["string", "null"]}
_TEXTS_OR_NONE = {"type": ["array", "null"], "items": _TEXT}
#: A case's line of the JSON report, as a JSON Schema: what a reader of a report (the command
#: ``report``) holds each line to before it uses one field of it.
CASE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["status"],
    "properties": {
        "id": _TEXT_OR_NONE, "name": _TEXT, "area": _TEXT, "rules": _TEXT_OR_NONE,
        "status": {"enum": list(STATUSES)}, "message": _TEXT, "stderr_tail": _TEXT, "context": _TEXT,
        "rerun": _TEXT, "nodeid": _TEXT, "source": _TEXT, "area_id": _TEXT, "blame": _TEXT_OR_NONE,
        "entry": _TEXT,
    },
}
#: The closing line of the JSON report (``"end": true``), as a JSON Schema.
END_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["end", "run"],
    "properties": {
        "end": {"const": True},
        "run": {"enum": list(ENDINGS)},
        "signal": _TEXT, "gave_up": _TEXT, "problem": _TEXT,
        "adapter": _TEXT_OR_NONE, "implementation": _TEXT_OR_NONE,
        "hello": {
            "type": ["object", "null"],
            "properties": {
                "protocol": {"type": "integer"},
                "implementation": {"type": "object", "properties": {
                    "name": _TEXT, "version": _TEXT, "language": _TEXT, "homepage": _TEXT_OR_NONE}},
                "rulesets": {"type": "object", "additionalProperties": {
                    "type": "object", "additionalProperties": _TEXT}},
                "capabilities": {"type": "array", "items": _TEXT},
            },
        },
        "versions": {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
        "started": _TEXT_OR_NONE, "finished": _TEXT_OR_NONE,
        "selected": {"type": "object", "properties": {
            "rules": _TEXTS_OR_NONE, "areas": _TEXTS_OR_NONE, "ids": _TEXT_OR_NONE,
            "keyword": _TEXT_OR_NONE, "marker": _TEXT_OR_NONE, "features": _TEXT_OR_NONE}},
        "rulesets_run": {"type": "array", "items": _TEXT},
        "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
}


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
    a run in parallel workers writes the same file as one without. Raises
    :class:`OSError` when the file cannot be written
    (:func:`~scorpion_conformance.writing.write_file`).
    """
    finished = in_order(records, order)

    def write(out: Any) -> None:
        for record in finished:
            out.write(json.dumps(record.as_json(), ensure_ascii=False, default=str) + "\n")
        out.write(json.dumps({"end": True, **ending}, ensure_ascii=False, default=str) + "\n")

    write_file(path, write)
