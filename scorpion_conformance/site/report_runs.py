"""Running the suite for the conformance report: which implementations, and one run of each.

Our own adapters (:data:`IMPLEMENTATIONS`) and every real program found under
``adapters/`` (:mod:`.real_programs`) are run with ``scorpion-conformance run
--report FILE -q`` in subprocesses, side by side; a real program runs with its
expectations file, and only when it answers its adapter's handshake here.
:mod:`.report` turns the results into the page.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .real_programs import Program, adapter_command, find_programs, installed
from .text import md_escape

__all__ = [
    "IMPLEMENTATIONS",
    "SKIP_VARIABLE",
    "Implementation",
    "RunResult",
    "implementations",
    "load_report",
    "read_report",
    "run_all",
    "run_suite",
    "skip_requested",
]

SKIP_VARIABLE = "SCORPION_SITE_SKIP_REPORT"


@dataclass(frozen=True)
class Implementation:
    """An adapter we ship, and how to start it."""

    key: str
    title: str
    adapter: str | None  # None: the suite's default, the reference adapter
    needs: str | None  # a program that must be on PATH
    about: str
    program: Program | None = None  # a real program, not ours


IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(
        "reference",
        "Reference engine (Python)",
        None,
        None,
        "`scorpion_ref` behind `python -m scorpion_ref.adapter`, the suite's default adapter",
    ),
    Implementation(
        "javascript",
        "JavaScript example",
        "node adapters/javascript/adapter.js",
        "node",
        "`adapters/javascript/adapter.js`, a complete adapter with its own engine and solver, "
        "the ones the Play page runs",
    ),
)


@dataclass
class RunResult:
    """One implementation's run: its records, or why it did not run."""

    implementation: Implementation
    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: str | None = None
    exit_code: int | None = None
    seconds: float = 0.0
    output_tail: str = ""
    raw: str = ""
    #: The report's closing record: how the run ended.
    end: dict[str, Any] | None = None


def implementations(root: Path) -> tuple[Implementation, ...]:
    """Our own adapters, then every real program with an adapter under ``root/adapters``."""
    real = tuple(
        Implementation(p.key, p.title, adapter_command(p, root), None,
                       f"{md_escape(p.source)}, behind `adapters/{p.key}/adapter.py`", p)
        for p in find_programs(root)
    )
    return IMPLEMENTATIONS + real


def skip_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment asks to skip running the suite."""
    return environ.get(SKIP_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def read_report(text: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The records of a JSON-lines report and its closing record (None if it has none), each
    held to the report's schema; raises :class:`ValueError` naming a bad line."""
    from scorpion_conformance.json_input import check, parse
    from scorpion_conformance.suite.reporting import CASE_SCHEMA, END_SCHEMA

    records = []
    end = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"report line {number}"
        record = parse(line, where)
        if isinstance(record, dict) and record.get("end") is True:
            check(record, END_SCHEMA, where)
            end = record  # how the run ended, not a case
            continue
        if not isinstance(record, dict) or "status" not in record:
            raise ValueError(f"{where} has no status")
        check(record, CASE_SCHEMA, where)
        records.append(record)
    return records, end


def load_report(text: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines report (see :func:`read_report`)."""
    return read_report(text)[0]


def run_suite(implementation: Implementation, root: Path, *, timeout: float = 900) -> RunResult:
    """Run the suite against one implementation from the repository ``root``."""
    if implementation.needs and shutil.which(implementation.needs) is None:
        return RunResult(
            implementation,
            skipped=f"`{implementation.needs}` is not installed on the "
            "machine that built this site",
        )
    program = implementation.program
    why = installed(program, root) if program else None
    if program and why:
        return RunResult(implementation, skipped=f"{program.title} is not installed on the machine "
                         f"that built this site ({md_escape(why)}); `adapters/install-real.sh` fetches it")
    with tempfile.TemporaryDirectory(prefix="scorpion-report-") as tmp:
        report = Path(tmp) / "report.jsonl"
        command = [
            sys.executable,
            "-m",
            "scorpion_conformance.cli",
            "run",
            "--report",
            str(report),
            "-q",
        ]
        if implementation.adapter:
            command += ["--adapter", implementation.adapter]
        if program:
            command += ["--expect", str(root / "adapters" / program.key / "expectations.json")]
        started = time.monotonic()
        completed = subprocess.run(
            command,
            cwd=root,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
        seconds = time.monotonic() - started
        raw = report.read_text(encoding="utf-8") if report.exists() else ""
    tail = "\n".join((completed.stdout + completed.stderr).strip().splitlines()[-15:])
    result = RunResult(
        implementation, exit_code=completed.returncode, seconds=seconds, output_tail=tail, raw=raw
    )
    result.records, result.end = read_report(raw)
    return result


def run_all(root: Path, chosen: Iterable[Implementation] | None = None) -> list[RunResult]:
    """Run the suite against every implementation (default: :func:`implementations`), side by
    side, in the order given."""
    chosen = list(implementations(root) if chosen is None else chosen)
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        return list(pool.map(lambda implementation: run_suite(implementation, root), chosen))
