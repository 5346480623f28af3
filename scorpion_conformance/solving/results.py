"""The results file of a winnability campaign: JSON lines, one record per solved game.

Each record says which game under which rule set, what the solver found
(``won`` with the line in the suite's notation, ``lost`` with its proof,
``unknown`` with what ran out), how many positions and seconds (wall clock,
and the worker's CPU time) it took, the budget it had and the solver's
version. Records are only ever appended, each flushed as it comes, so a
stopped campaign loses nothing but the games in flight; a record cut short
by a kill is dropped when the file is next opened.
A game may have several records (unknown at a small budget, decided at a
larger one); :func:`best_records` keeps the one that counts. A search that
went on from the game's previous record instead of starting again says how
many of its positions that record already counted (``carried``), so the
positions a campaign searched are the sum of ``nodes - carried``
(:func:`ladder_work`).

The file is UTF-8 JSON lines (a line may end in ``\r\n``: the file was
edited elsewhere); a name ending in ``.gz`` is read as gzip (the committed
data may be compressed) but never appended to. It is read within bounds and
each record is checked for its types (:mod:`scorpion_conformance.json_input`);
two decided records of one game that disagree (``won`` on one line,
``lost`` on another) are refused, naming both lines, as is a record nested
too deep to read. A campaign appends to its file alone: it holds a lock on
it, so a second campaign on the same file is refused instead of solving
every game again. A record that cannot be written whole (a full disk) is
taken back, so the file is left as it was, and the error is one line.

>>> r = Record(game=7, rules="classic", outcome="lost", nodes=130, seconds=0.01,
...            proof="exhausted", budget=200000, memory_mb=1024, solver="0.1.0")
>>> Record.from_json(r.to_json()) == r
True
>>> needs_solving(r, 10**9), needs_solving(None, 10)
(False, True)
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import math
import os
import re
from collections.abc import Iterable
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..json_input import InputError, parse, read_bytes, split_lines

__all__ = [
    "OUTCOMES",
    "Record",
    "ResultsError",
    "ResultsFile",
    "best_records",
    "is_better",
    "ladder_work",
    "needs_solving",
    "read_records",
    "write_compressed",
]

OUTCOMES = ("won", "lost", "unknown")
#: The largest results file read: ten million games of about 250 bytes each.
MAX_RESULTS_BYTES = 4 * 2**30
#: What the short words of a record look like (a rule set, a proof, the solver's version).
_WORD = re.compile(r"[a-z][a-z0-9-]{0,63}")
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}")


class ResultsError(Exception):
    """A results file that cannot be read or written; the message is one line."""


@dataclass(frozen=True)
class Record:
    """What the solver found for one game under one rule set, at one budget."""

    game: int
    rules: str
    outcome: str
    nodes: int
    seconds: float
    budget: int
    memory_mb: int
    solver: str
    line: str | None = None
    proof: str | None = None
    #: The CPU seconds of the worker process during the search (records before it was kept have None).
    cpu: float | None = None
    #: Which loop searched, ``"compiled"`` or ``"python"`` (the two give the same answers and node
    #: counts; records made before the compiled core existed have None, and were all Python's).
    core: str | None = None
    #: How many of ``nodes`` the game's previous record already counted: the search went on from
    #: there (None: it started afresh, as every search did before searches could go on).
    carried: int | None = None

    @property
    def searched(self) -> int:
        """The positions searched for this record and for no earlier one."""
        return self.nodes - (self.carried or 0)

    @property
    def cost(self) -> float:
        """The CPU seconds of the search where recorded, else its wall-clock seconds."""
        return self.cpu if self.cpu is not None else self.seconds

    @property
    def decided(self) -> bool:
        """Won or lost, as opposed to unknown."""
        return self.outcome != "unknown"

    def to_json(self) -> str:
        """The record as one line of JSON (no newline), fields left out when empty."""
        data = {k: v for k, v in asdict(self).items() if v is not None}
        data["seconds"] = round(self.seconds, 4)
        if self.cpu is not None:
            data["cpu"] = round(self.cpu, 4)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read one line; raises :class:`ValueError` saying what is wrong."""
        return cls.from_data(parse(text, "the record"))

    @classmethod
    def from_data(cls, data: Any) -> Record:
        """A record from its JSON value; raises :class:`ValueError` saying which field is wrong."""
        if not isinstance(data, dict):
            raise ValueError("a record is a JSON object")
        for name, kind in _FIELDS.items():
            value = data.get(name)
            if not isinstance(value, kind) or value is True or value is False:
                raise ValueError(f"the field {name!r} is missing or of the wrong type")
        if data["outcome"] not in OUTCOMES:
            raise ValueError(f"outcome {data['outcome']!r} is not one of {', '.join(OUTCOMES)}")
        cpu = data.get("cpu", 0.0)
        if not isinstance(cpu, (int, float)) or cpu is True or cpu is False:
            raise ValueError("the field 'cpu' is not a number of seconds")
        if data.get("core", "python") not in ("python", "compiled"):
            raise ValueError(f"core {data['core']!r} is not one of python, compiled")
        carried = data.get("carried", 0)
        if not isinstance(carried, int) or isinstance(carried, bool) or not 0 <= carried <= data["nodes"]:
            raise ValueError("the field 'carried' is not a number of positions between 0 and 'nodes'")
        if not _KNOWN.issuperset(data):
            raise ValueError(f"unknown field {', '.join(sorted(set(data) - _KNOWN))}")
        for name, low in _LOWEST:
            if data[name] < low:
                raise ValueError(f"the field {name!r} is {data[name]}, less than {low}")
        for name in ("seconds", "cpu"):
            if name in data and not (math.isfinite(data[name]) and data[name] >= 0):
                raise ValueError(f"the field {name!r} is not a number of seconds")
        for name, shape in _SHAPES:
            if name in data and not (isinstance(data[name], str) and shape.fullmatch(data[name])):
                raise ValueError(f"the field {name!r} is not a {name} ({str(data[name])[:40]!r})")
        if "line" in data and not isinstance(data["line"], str):
            raise ValueError("the field 'line' is not a line of actions")
        if data["outcome"] == "won" and not isinstance(data.get("line"), str):
            raise ValueError("a won record has no line")
        # Every field is checked: set them as the dataclass's own __init__ would, without its
        # guarded assignment of each field of a frozen class (most of the time of reading a
        # results file of many thousand records).
        record = object.__new__(cls)
        record.__dict__.update(_DEFAULTS, **data)
        return record


#: The fields every record has, and their JSON types (a bool is never a number here).
_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": int, "rules": str, "outcome": str, "nodes": int, "seconds": (int, float),
    "budget": int, "memory_mb": int, "solver": str,
}
#: Every field a record may have.
_KNOWN = frozenset(_FIELDS) | {"line", "proof", "cpu", "core", "carried"}
#: The value of each field a record may leave out.
_DEFAULTS = {f.name: f.default for f in fields(Record) if f.default is not MISSING}
#: The least value of each counting field.
_LOWEST = (("game", 1), ("nodes", 0), ("budget", 1), ("memory_mb", 1))
#: The short words of a record, and their shapes.
_SHAPES = (("rules", _WORD), ("proof", _WORD), ("solver", _VERSION))


def needs_solving(record: Record | None, budget: int) -> bool:
    """Whether a game with this best record must be solved again at ``budget`` positions:
    never once decided (at any budget), and not when unknown at a budget at least as big."""
    return record is None or (not record.decided and record.budget < budget)


def is_better(new: Record, old: Record | None) -> bool:
    """Whether ``new`` counts instead of ``old``: decided beats unknown, a bigger budget a smaller one."""
    if old is None or (new.decided and not old.decided):
        return True
    return not old.decided and not new.decided and new.budget > old.budget


def best_records(records: Iterable[Record], rules: str | None = None) -> dict[int, Record]:
    """The record that counts for each game: a decided one (the first), else the unknown at the
    biggest budget. With ``rules``, only that rule set's records."""
    best: dict[int, Record] = {}
    for record in records:
        if rules is not None and record.rules != rules:
            continue
        if is_better(record, best.get(record.game)):
            best[record.game] = record
    return best


def ladder_work(records: Iterable[Record], rules: str | None = None) -> tuple[int, int]:
    """The positions searched over every record (each position once: what a search that went on
    had carried is not counted again) and the positions of the records that count, of ``rules``
    (every rule set by default): their difference is what the ladder's retries cost.

    >>> first = Record(game=3, rules="wasp", outcome="unknown", nodes=100, seconds=0.1, budget=100,
    ...                memory_mb=64, solver="2.0")
    >>> ladder_work([first, Record(game=3, rules="wasp", outcome="lost", nodes=150, seconds=0.2,
    ...             budget=400, memory_mb=64, solver="2.0", carried=100)])
    (150, 150)
    """
    chosen = [r for r in records if rules is None or r.rules == rules]
    return sum(r.searched for r in chosen), sum(r.nodes for r in best_records(chosen).values())


def _lines(data: bytes) -> tuple[list[tuple[int, bytes]], int, bool]:
    """The complete lines of a file's bytes (number, text without its end), the offset where
    they end, and whether a last line was cut short."""
    lines: list[tuple[int, bytes]] = []
    end = 0
    cut = False
    for number, after, line in split_lines(data):
        if after < 0:
            cut = True
            break
        lines.append((number, line))
        end = after
    return lines, end, cut


def _parse(path: Path, lines: list[tuple[int, bytes]]) -> list[Record]:
    """The records of the lines; raises :class:`ResultsError` naming a bad line, or two lines
    that decide one game differently."""
    records = []
    decided: dict[tuple[str, int], tuple[str, int]] = {}
    for number, line in lines:
        if not line.strip():
            continue
        try:
            record = Record.from_data(parse(line, "the record"))
        except InputError as error:
            raise ResultsError(f"{path}, line {number}: not a results record "
                               f"({str(error).removeprefix('the record: ')})") from None
        except ValueError as error:
            raise ResultsError(f"{path}, line {number}: not a results record ({error})") from None
        if record.decided:
            earlier = decided.setdefault((record.rules, record.game), (record.outcome, number))
            if earlier[0] != record.outcome:
                raise ResultsError(
                    f"{path}, lines {earlier[1]} and {number}: game {record.game} under {record.rules} is "
                    f"{earlier[0]} on one and {record.outcome} on the other, so one of them is wrong; "
                    "remove the wrong one (a solve of the game says which)")
        records.append(record)
    return records


def _read(path: Path) -> bytes:
    try:
        return read_bytes(path, max_bytes=MAX_RESULTS_BYTES, what="results file")
    except FileNotFoundError:
        return b""
    except InputError as error:
        raise ResultsError(str(error)) from None


def read_records(path: str | Path) -> list[Record]:
    """Every complete record of a results file (none if it does not exist); raises :class:`ResultsError`."""
    path = Path(path)
    lines, _end, _cut = _lines(_read(path))
    return _parse(path, lines)


class ResultsFile:
    """A results file opened to append: the records so far, and :meth:`add` for each new one.

    Opening takes the file's lock (another campaign on it is refused) and drops a last
    record cut short by a kill, so the next one starts on a line of its own. Use it as a
    context manager, or call :meth:`close`. Raises :class:`ResultsError`.
    """

    def __init__(self, path: str | Path) -> None:
        import fcntl

        self.path = Path(path)
        if self.path.suffix == ".gz":
            raise ResultsError(f"{self.path} is compressed: decompress it to append to it")
        packed = self.path.with_name(self.path.name + ".gz")
        if not self.path.exists() and packed.exists():
            # Starting afresh beside the committed results would solve every game again.
            raise ResultsError(f"{self.path} does not exist but {packed} does: decompress it first "
                               f"(gunzip -k {packed}) to go on with those results")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "a+b", buffering=0)  # noqa: SIM115 (closed by close)
        except OSError as error:
            raise ResultsError(f"cannot write the results file {self.path}: {error.strerror}") from None
        try:
            try:
                fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise ResultsError(
                    f"{self.path}: another campaign is writing to it; let it finish (or stop it), "
                    "or give this one another --results") from None
            lines, self._size, cut = _lines(_read(self.path))
            self.records = _parse(self.path, lines)
            if cut:
                try:
                    os.truncate(self._handle.fileno(), self._size)
                except OSError as error:
                    raise ResultsError(
                        f"cannot write the results file {self.path}: {error.strerror}") from None
        except BaseException:
            self._handle.close()
            raise

    def add(self, record: Record) -> None:
        """Append one record and flush it to the disk at once; raises :class:`ResultsError`
        (the file left as it was before the record) when it cannot be written whole."""
        data = (record.to_json() + "\n").encode("utf-8")
        fd = self._handle.fileno()
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.truncate(fd, self._size)
            raise ResultsError(
                f"cannot write to the results file {self.path}: {error.strerror or error}; the record "
                f"of game {record.game} was taken back, and every record before it is kept") from None
        self._size += len(data)
        self.records.append(record)

    def close(self) -> None:
        """Close the file (and let go of its lock)."""
        self._handle.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_compressed(records: Iterable[Record], path: str | Path) -> None:
    """Write records as one gzip file (for committing a large results file as data)."""
    buffer = io.StringIO()
    for record in records:
        buffer.write(record.to_json() + "\n")
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as handle:
        handle.write(buffer.getvalue())
