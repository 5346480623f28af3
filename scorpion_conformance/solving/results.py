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

The file is UTF-8 JSON lines; a name ending in ``.gz`` is read as gzip (the
committed data may be compressed) but never appended to.

>>> r = Record(game=7, rules="classic", outcome="lost", nodes=130, seconds=0.01,
...            proof="exhausted", budget=200000, memory_mb=1024, solver="0.1.0")
>>> Record.from_json(r.to_json()) == r
True
>>> needs_solving(r, 10**9), needs_solving(None, 10)
(False, True)
"""

from __future__ import annotations

import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

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
    def from_json(cls, text: str) -> Record:
        """Read one line; raises :class:`ValueError` saying what is wrong."""
        data: Any = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("a record is a JSON object")
        fields: dict[str, type | tuple[type, ...]] = {
            "game": int, "rules": str, "outcome": str, "nodes": int, "seconds": (int, float),
            "budget": int, "memory_mb": int, "solver": str,
        }
        for name, kind in fields.items():
            if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
                raise ValueError(f"the field {name!r} is missing or of the wrong type")
        if data["outcome"] not in OUTCOMES:
            raise ValueError(f"outcome {data['outcome']!r} is not one of {', '.join(OUTCOMES)}")
        if not isinstance(data.get("cpu", 0.0), (int, float)) or isinstance(data.get("cpu"), bool):
            raise ValueError("the field 'cpu' is not a number of seconds")
        if data.get("core", "python") not in ("python", "compiled"):
            raise ValueError(f"core {data['core']!r} is not one of python, compiled")
        carried = data.get("carried", 0)
        if not isinstance(carried, int) or isinstance(carried, bool) or not 0 <= carried <= data["nodes"]:
            raise ValueError("the field 'carried' is not a number of positions between 0 and 'nodes'")
        unknown = sorted(set(data) - set(fields) - {"line", "proof", "cpu", "core", "carried"})
        if unknown:
            raise ValueError(f"unknown field {', '.join(unknown)}")
        return cls(**data)


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


def _lines(path: Path) -> tuple[list[str], bool]:
    """The file's complete lines, and whether a last line was cut short."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return [], False
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise ResultsError(f"cannot read the results file {path}: {error}") from None
    lines = text.split("\n")
    tail = lines.pop()  # "" when the file ends with a newline
    return lines, bool(tail)


def _parse(path: Path, lines: list[str]) -> Iterator[Record]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield Record.from_json(line)
        except ValueError as error:
            raise ResultsError(f"{path}, line {number}: not a results record ({error})") from None


def read_records(path: str | Path) -> list[Record]:
    """Every complete record of a results file (none if it does not exist); raises :class:`ResultsError`."""
    path = Path(path)
    lines, _cut = _lines(path)
    return list(_parse(path, lines))


class ResultsFile:
    """A results file opened to append: the records so far, and :meth:`add` for each new one.

    Opening drops a last record cut short by a kill, so the next one starts on a line of its own.
    Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.suffix == ".gz":
            raise ResultsError(f"{self.path} is compressed: decompress it to append to it")
        packed = self.path.with_name(self.path.name + ".gz")
        if not self.path.exists() and packed.exists():
            # Starting afresh beside the committed results would solve every game again.
            raise ResultsError(f"{self.path} does not exist but {packed} does: decompress it first "
                               f"(gunzip -k {packed}) to go on with those results")
        lines, cut = _lines(self.path)
        self.records = list(_parse(self.path, lines))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if cut:
                with open(self.path, "r+b") as handle:
                    handle.truncate(sum(len(line.encode("utf-8")) + 1 for line in lines))
            self._handle: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close)
        except OSError as error:
            raise ResultsError(f"cannot write the results file {self.path}: {error.strerror}") from None

    def add(self, record: Record) -> None:
        """Append one record and flush it to the operating system at once."""
        self._handle.write(record.to_json() + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.records.append(record)

    def close(self) -> None:
        """Close the file."""
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
