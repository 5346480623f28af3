"""The fault matrix: how a checkout's harness fares against faulty adapters,
interrupts, authoring mistakes and bad options (issue 10's table).

Run by hand (it is not a test; it takes minutes, more against an old tree):

    python benchmarks/fault_matrix.py --tree PATH [--only NAME] [--markdown] [--json FILE]
    python benchmarks/fault_matrix.py --compare BEFORE.json AFTER.json

It runs every case one after another against the checkout at ``PATH``: its
``scorpion-conformance`` is ``PYTHONPATH=PATH python -m scorpion_conformance.cli``,
started in a fresh temporary folder with ``start_new_session=True``. The fake
adapters always come from *this* checkout (``tests/fake_adapters``, copied into
the temporary folder so that their path is unique to this run) and run with
this checkout on their ``PYTHONPATH``, since they use today's ``scorpion_ref``.

So that ``PATH`` runs as if it were the installed checkout (the venv's editable
install names this checkout's ``pytest11`` entry point, which an older tree may
not have, and maps ``scorpion_conformance.features`` to this checkout's
``features`` folder), a throwaway folder is put first on ``PYTHONPATH``: a
``scorpion_conformance`` dist-info with the entry point from ``PATH``'s
``pyproject.toml``, and a ``sitecustomize.py`` mapping its ``package-dir``
entries to ``PATH``'s own folders.

Each row gives:

* **exit**: the harness's exit status (``-9`` = killed by that signal,
  ``timed out`` when the case's hard timeout ran out: the whole process group
  is then killed);
* **verdict**: counts of the record statuses in the ``--report`` file (and how
  the run ended, where the report says), or what ``check-adapter`` printed;
* **message**: the first line that names the fault, cut to 100 characters;
* **time**: wall time from start to exit;
* **RSS**: the peak resident memory of the harness process alone (not its
  adapters), polled with psutil every 20 ms;
* **left**: processes alive after the harness ended (polled for up to 3 s,
  stopping at 0) that it started: any process whose environment carries this
  case's tag, whose command line names the temporary folder, or whose pid a
  fake wrote to ``CHILD_PID_FILE``. They are killed after counting, so the next
  case starts clean;
* **details**: what the case is about (blame of failures, interrupted record,
  expectations file, file:line, adapter started, output lines, traceback).

Signals (``sigint-*``, ``sigterm-*``, ``kill-harness-*``) go to the harness
process alone (``os.kill``), not to its process group.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

HERE = Path(__file__).resolve().parents[1]
FAKES = HERE / "tests" / "fake_adapters"
AUTHORING = HERE / "tests" / "authoring_errors"
TAG = "FAULT_MATRIX_TAG"
POLL = 0.02
EXCERPT = 100

EXTRA_LINE = re.compile(
    r"nobody asked for|out of step|second answer|more than one answer|extra line|answers .* again"
)
RULE_BLAME = re.compile(r"the rules (refuse|allow)|which the rules|rules refuse")
FILE_LINE = re.compile(r"[\w./-]+\.feature:\d+")
PYTEST_FRAME = re.compile(r"^(\S+\.py|<frozen [^>]+>):\d+: in \S|^INTERNALERROR>")
PROGRESS = re.compile(r"^(\S+\.(py|feature)\b)?\s*[.FEsxX]*\s*(\[\s*\d+%\])?$")
FAILURE_HEADER = re.compile(r"^[A-Z]+-\d+ under \S+: ")
BOILERPLATE = (
    "platform ", "rootdir:", "configfile:", "plugins:", "cachedir:", "collected ", "collecting ",
    "hypothesis profile", "Checking adapter:", "Traceback (most recent call last)", 'File "',
    "During handling of the above exception", "The above exception was the direct cause", "usage:",
)


@dataclass(frozen=True)
class Outcome:
    """What one harness process did."""

    exit: int | None  # None: timed out (and killed)
    seconds: float
    peak_rss: int
    out: str
    err: str
    events: tuple[tuple[str, float], ...] = ()

    @property
    def text(self) -> str:
        return self.out + ("\n" if self.out and self.err else "") + self.err


@dataclass
class Row:
    """One line of the table."""

    case: str
    exit: str = ""
    verdict: str = ""
    message: str = ""
    seconds: float = 0.0
    rss_mb: float = 0.0
    leftovers: int = 0
    details: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Case:
    """A named case of the matrix and the function that measures it."""

    name: str
    group: str
    what: str
    measure: Callable[[Context, Path], Row]


#: Maps the tree's package-dir entries (``scorpion_conformance.features``) to the
#: tree's own folders, ahead of the venv's editable finder, which maps them into
#: the checkout that was installed.
SITECUSTOMIZE = """\
import importlib.util
import os
import sys

_MAPPING = {mapping}


class _TreeFinder:
    @staticmethod
    def find_spec(fullname, path=None, target=None):
        where = _MAPPING.get(fullname)
        if where is None:
            return None
        return importlib.util.spec_from_file_location(
            fullname, os.path.join(where, "__init__.py"), submodule_search_locations=[where])


sys.meta_path.insert(0, _TreeFinder)
"""


class Context:
    """The tree under test, the interpreter, and the run's temporary folder."""

    def __init__(self, tree: Path, python: str, root: Path) -> None:
        self.tree = tree
        self.python = python
        self.root = root
        self.tag = ""
        self.fakes = root / "fakes"
        shutil.copytree(FAKES, self.fakes, ignore=shutil.ignore_patterns("__pycache__"))
        self.shim = root / "shim"
        self._write_shim()

    def _write_shim(self) -> None:
        """A dist-info naming the tree's own pytest11 entry point, ahead of the venv's."""
        project = tomllib.loads((self.tree / "pyproject.toml").read_text(encoding="utf-8"))
        points = project.get("project", {}).get("entry-points", {}).get("pytest11", {})
        info = self.shim / "scorpion_conformance-0.1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: scorpion_conformance\nVersion: 0.1.0\n")
        lines = "".join(f"{name} = {target}\n" for name, target in points.items())
        (info / "entry_points.txt").write_text("[pytest11]\n" + lines)
        folders = project.get("tool", {}).get("setuptools", {}).get("package-dir", {})
        mapping = {name: str(self.tree / where) for name, where in folders.items() if name}
        (self.shim / "sitecustomize.py").write_text(SITECUSTOMIZE.format(mapping=repr(mapping)))

    # The commands -------------------------------------------------------------

    def harness(self, *args: str) -> list[str]:
        return [self.python, "-m", "scorpion_conformance.cli", *args]

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env["PYTHONPATH"] = f"{self.shim}{os.pathsep}{self.tree}"
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env[TAG] = self.tag
        return env

    def _prefix(self, pythonpath: Path, **variables: str) -> str:
        pairs = {TAG: self.tag, "PYTHONPATH": str(pythonpath), **variables}
        return "env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in pairs.items())

    def fake(self, script: str, *args: str, **variables: str) -> str:
        """The command of a fake adapter, run with this checkout's ``scorpion_ref``."""
        words = [self.python, str(self.fakes / script), *args]
        return self._prefix(HERE, **variables) + " " + shlex.join(words)

    def faulty(self, fault: str, **variables: str) -> str:
        return self.fake("faulty_reference.py", fault, **variables)

    def inline(self, code: str) -> str:
        """A ``python -c`` adapter; the temporary folder is its argument, to find it later."""
        return self._prefix(HERE) + " " + shlex.join([self.python, "-c", code, str(self.root)])

    def marked_reference(self, marker: Path) -> str:
        """The tree's reference adapter, touching ``marker`` when it starts."""
        script = f"touch {shlex.quote(str(marker))}; exec {shlex.quote(self.python)} -m scorpion_ref.adapter"
        return self._prefix(self.tree) + " " + shlex.join(["sh", "-c", script])


# Running one harness process ------------------------------------------------------


def launch(
    ctx: Context,
    cwd: Path,
    argv: Sequence[str],
    timeout: float,
    actions: Sequence[tuple[float, str, Callable[[psutil.Popen], bool]]] = (),
) -> Outcome:
    """Run ``argv`` in ``cwd`` to its end (or ``timeout``), polling its memory every 20 ms.

    ``actions`` are ``(seconds after start, name, act)``; ``act`` returns whether
    it did something, and the time it did is kept as an event.
    """
    out_path, err_path = cwd / "harness.out", cwd / "harness.err"
    with out_path.open("wb") as out, err_path.open("wb") as err:
        began = time.monotonic()
        process = psutil.Popen(
            list(argv), cwd=cwd, env=ctx.env(), stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            start_new_session=True,
        )
        peak, pending, events = 0, list(actions), []
        status: int | None = None
        while True:
            status = process.poll()
            if status is not None:
                break
            with contextlib.suppress(psutil.Error):
                peak = max(peak, process.memory_info().rss)
            now = time.monotonic() - began
            while pending and pending[0][0] <= now:
                _, name, act = pending.pop(0)
                if act(process):
                    events.append((name, time.monotonic() - began))
            if now > timeout:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                status = None
                break
            time.sleep(POLL)
        seconds = time.monotonic() - began
    out_text = out_path.read_bytes().decode("utf-8", "replace")
    err_text = err_path.read_bytes().decode("utf-8", "replace")
    return Outcome(status, seconds, peak, out_text, err_text, tuple(events))


def signaller(signum: int) -> Callable[[psutil.Popen], bool]:
    def act(process: psutil.Popen) -> bool:
        if process.poll() is not None:
            return False
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signum)
            return True
        return False

    return act


def _own_processes() -> Iterator[psutil.Process]:
    me = os.getpid()
    for process in psutil.process_iter(["pid", "cmdline", "create_time"]):
        if process.pid != me:
            yield process


def leftovers(ctx: Context, pid_files: Sequence[Path] = ()) -> list[psutil.Process]:
    """Processes alive now that this case's harness started (see the module doc)."""
    named: set[int] = set()
    for path in pid_files:
        if path.exists():
            named.update(int(word) for word in path.read_text().split() if word.isdigit())
    found = []
    for process in _own_processes():
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
            cmdline = " ".join(process.info["cmdline"] or ())
            if process.pid in named or str(ctx.root) in cmdline or process.environ().get(TAG) == ctx.tag:
                found.append(process)
        except psutil.Error:
            continue
    return found


def count_and_clean(ctx: Context, pid_files: Sequence[Path] = (), grace: float = 3.0) -> int:
    """How many processes outlived the harness (polled up to ``grace`` s); kills them."""
    deadline = time.monotonic() + grace
    while True:
        alive = leftovers(ctx, pid_files)
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(alive, timeout=5)
    return len(alive)


# Reading what the harness wrote ------------------------------------------------


#: (text, replacement) pairs that shorten the excerpts: the case's folder, the tag.
SHORTER: list[tuple[str, str]] = []


def cut(text: str, width: int = EXCERPT) -> str:
    """``text`` on one line, shortened (see :data:`SHORTER`) and cut to ``width``."""
    for long, short in SHORTER:
        text = text.replace(long, short)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def meaningful_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` that are not pytest boilerplate, progress or traceback frames."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[:2] in ("==", "__", "!!") or line.startswith("----") or PROGRESS.match(line):
            continue
        if line.startswith(BOILERPLATE) or PYTEST_FRAME.match(line) or set(line) <= set("^~ "):
            continue
        if FAILURE_HEADER.match(line):
            continue
        if raw.startswith("    ") and not raw.startswith("E "):  # a traceback's code line
            continue
        yield re.sub(r"^E\s+", "", line)


def first_meaningful(text: str) -> str:
    return next(meaningful_lines(text), "(no output)")


def traceback_kind(text: str) -> str:
    if "Traceback (most recent call last)" in text:
        return "Python traceback"
    if any(PYTEST_FRAME.match(line) for line in text.splitlines()):
        return "pytest traceback"
    return "no traceback"


def exit_text(outcome: Outcome) -> str:
    if outcome.exit is None:
        return "timed out"
    if outcome.exit < 0:
        return f"{outcome.exit} ({signal.Signals(-outcome.exit).name})"
    return str(outcome.exit)


def read_report(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None, str]:
    """The case records, the end record (if any) and a note when the file is unusable."""
    if not path.exists():
        return [], None, "no report"
    cases: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            return cases, end, f"report line {number} is not JSON (truncated?)"
        if isinstance(record, dict) and record.get("end"):
            end = record
        elif isinstance(record, dict):
            cases.append(record)
    return cases, end, ""


def status_counts(cases: Sequence[dict[str, Any]]) -> str:
    counts = collections.Counter(str(record.get("status")) for record in cases)
    return ", ".join(f"{n} {status}" for status, n in counts.most_common()) or "0 records"


def report_verdict(cases: Sequence[dict[str, Any]], end: dict[str, Any] | None, note: str) -> str:
    parts = [status_counts(cases)]
    if end is not None:
        parts.append(f"end: {end.get('run')}" + (f" ({end['signal']})" if end.get("signal") else ""))
    if note:
        parts.append(note)
    return "; ".join(parts)


def _problem_line(message: str) -> str:
    lines = message.splitlines()
    for line in lines:
        if line.strip().startswith("problem:"):
            return line.strip()
    return lines[0] if lines else ""


def run_message(outcome: Outcome, cases: Sequence[dict[str, Any]], end: dict[str, Any] | None) -> str:
    """The first line that names the fault: the end record's problem, else the first failure's."""
    if end is not None and end.get("problem"):
        return cut(str(end["problem"]))
    for record in cases:
        if record.get("status") in ("failed", "error", "not-run") and record.get("message"):
            first = str(record["message"]).splitlines()[0]
            problem = _problem_line(str(record["message"]))
            return cut(first if problem == first else f"{first} / {problem}")
    if outcome.exit == 0:
        return "(no failure)"
    return cut(first_meaningful(outcome.text))


def blame(cases: Sequence[dict[str, Any]]) -> str:
    """How the failed records split: naming the extra line, blaming the rules, other."""
    failed = [str(r.get("message", "")) for r in cases if r.get("status") in ("failed", "error")]
    extra = sum(1 for m in failed if EXTRA_LINE.search(m))
    rules = sum(1 for m in failed if not EXTRA_LINE.search(m) and RULE_BLAME.search(m))
    passed = sum(1 for r in cases if r.get("status") == "passed")
    return (
        f"failed {len(failed)}: {extra} name the extra line, {rules} blame the rules, "
        f"{len(failed) - extra - rules} other; {passed} passed"
    )


def row_from(case: str, outcome: Outcome, verdict: str, message: str, details: str, left: int) -> Row:
    return Row(
        case=case, exit=exit_text(outcome), verdict=verdict, message=message,
        seconds=round(outcome.seconds, 2), rss_mb=round(outcome.peak_rss / 2**20, 1), leftovers=left,
        details=details,
    )


# The cases -------------------------------------------------------------------------


def run_case(
    adapter: Callable[[Context, Path], str],
    *options: str,
    timeout: float = 300.0,
    details: Callable[[Context, Path, Outcome, list[dict[str, Any]]], str] | None = None,
) -> Callable[[Context, Path], Row]:
    """A ``run --report`` against an adapter, with its verdict from the report."""

    def measure(ctx: Context, cwd: Path) -> Row:
        report = cwd / "report.jsonl"
        command = adapter(ctx, cwd)
        argv = ctx.harness("run", "--adapter", command, "--report", str(report), *options)
        outcome = launch(ctx, cwd, argv, timeout)
        left = count_and_clean(ctx, [cwd / "children"])
        cases, end, note = read_report(report)
        extra = details(ctx, cwd, outcome, cases) if details else ""
        return row_from("", outcome, report_verdict(cases, end, note), run_message(outcome, cases, end),
                        extra, left)

    return measure


def check_case(
    adapter: Callable[[Context, Path], str], *options: str, timeout: float = 300.0,
    details: Callable[[Context, Path, Outcome, list[dict[str, Any]]], str] | None = None,
) -> Callable[[Context, Path], Row]:
    """A ``check-adapter`` against an adapter, with its PASS and FAIL lines counted."""

    def measure(ctx: Context, cwd: Path) -> Row:
        argv = ctx.harness("check-adapter", "--adapter", adapter(ctx, cwd), *options)
        outcome = launch(ctx, cwd, argv, timeout)
        left = count_and_clean(ctx, [cwd / "children"])
        lines = outcome.text.splitlines()
        fails = [line for line in lines if line.startswith("FAIL")]
        passes = [line for line in lines if line.startswith("PASS")]
        summary = next((line for line in reversed(lines) if line.strip()), "(no output)")
        verdict = f"{len(fails)} FAIL, {len(passes)} PASS"
        message = cut(fails[0]) if fails else cut(summary)
        extra = f"last line: {cut(summary, 80)}"
        if details:
            extra += "; " + details(ctx, cwd, outcome, [])
        return row_from("", outcome, verdict, message, extra, left)

    return measure


def twice_details(ctx: Context, cwd: Path, outcome: Outcome, cases: list[dict[str, Any]]) -> str:
    log = cwd / "doubled"
    doubled = len(log.read_text().splitlines()) if log.exists() else 0
    return f"{blame(cases)}; the fake wrote {doubled} answers twice"


def doubling(name: str) -> Callable[[Context, Path], str]:
    return lambda ctx, cwd: ctx.faulty(name, DOUBLE_LOG=str(cwd / "doubled"))


def children_details(ctx: Context, cwd: Path, outcome: Outcome, cases: list[dict[str, Any]]) -> str:
    started = (cwd / "children").read_text().split() if (cwd / "children").exists() else []
    return f"setsid grandchildren started: {len(started)}"


def flood_details(ctx: Context, cwd: Path, outcome: Outcome, cases: list[dict[str, Any]]) -> str:
    log = cwd / "flood"
    lines = log.read_text().split() if log.exists() else []
    return "fake: " + (" ".join(lines) if lines else "no flood logged")


def flooding(ctx: Context, cwd: Path) -> str:
    return ctx.faulty("flood-stderr", FLOOD_MB="500", FLOOD_LOG=str(cwd / "flood"))


def fault(name: str, **variables: str) -> Callable[[Context, Path], str]:
    return lambda ctx, cwd: ctx.faulty(name, **variables)


def with_children(name: str) -> Callable[[Context, Path], str]:
    return lambda ctx, cwd: ctx.faulty(name, CHILD_PID_FILE=str(cwd / "children"))


def killed_harness(ctx: Context, cwd: Path) -> Row:
    """SIGKILL to the harness 3 s into a run against an adapter that hangs on start."""
    argv = ctx.harness("run", "--adapter", ctx.faulty("hang-start"), "--rules", "standard")
    outcome = launch(ctx, cwd, argv, 60.0, [(3.0, "SIGKILL", signaller(signal.SIGKILL))])
    left = count_and_clean(ctx)
    sent = "SIGKILL sent at 3 s" if outcome.events else "harness ended before 3 s"
    return row_from("", outcome, "(killed)", cut(first_meaningful(outcome.text)), sent, left)


KNOWN_EXPECTATIONS = '{"known_failures": {"MOVE-001": "known content written by fault_matrix.py"}}\n'


def interrupted(
    adapter: Callable[[Context, Path], str], signals: Sequence[tuple[float, signal.Signals]],
    timeout: float = 300.0,
) -> Callable[[Context, Path], Row]:
    """A run interrupted by ``signals`` (seconds after start), with a known expectations file."""

    def measure(ctx: Context, cwd: Path) -> Row:
        report, expectations = cwd / "report.jsonl", cwd / "expectations.json"
        expectations.write_text(KNOWN_EXPECTATIONS)
        argv = ctx.harness(
            "run", "--adapter", adapter(ctx, cwd), "--report", str(report),
            "--write-expectations", str(expectations),
        )
        actions = [(at, sig.name, signaller(sig)) for at, sig in signals]
        outcome = launch(ctx, cwd, argv, timeout, actions)
        left = count_and_clean(ctx)
        cases, end, note = read_report(report)
        sent = [f"{name} at {at:.1f} s" for name, at in outcome.events]
        if outcome.events and outcome.exit is not None:
            after = f"exit {outcome.seconds - outcome.events[0][1]:.1f} s after the first signal"
        elif outcome.events:
            after = "did not exit before the timeout"
        else:
            after = "ended before any signal"
        ends_interrupted = end is not None and end.get("run") == "interrupted"
        has_interrupted = ends_interrupted or any("interrupt" in json.dumps(r).lower() for r in cases)
        if not expectations.exists():
            kept = "expectations file deleted"
        elif expectations.read_text() == KNOWN_EXPECTATIONS:
            kept = "expectations untouched"
        else:
            kept = f"expectations changed ({cut(expectations.read_text(), 60)})"
        finished = [r for r in cases if r.get("status") in ("passed", "failed", "error")]
        last = cases[-1] if cases else None
        last_text = f"last record {last.get('id')}[{last.get('rules')}] {last.get('status')}" if last else ""
        details = "; ".join(part for part in (
            ", ".join(sent), after,
            "ends with an interrupted record" if ends_interrupted else
            ("mentions an interruption" if has_interrupted else "no interrupted record"),
            kept, f"{len(finished)} passed/failed records", last_text,
        ) if part)
        said = next((line for line in meaningful_lines(outcome.text) if "interrupt" in line.lower()), None)
        message = cut(said) if said else "(no line says interrupted) " + run_message(outcome, cases, end)
        return row_from("", outcome, report_verdict(cases, end, note), cut(message), details, left)

    return measure


def authoring(command: str, folder: str) -> Callable[[Context, Path], Row]:
    """``run`` or ``export --features DIR`` over one folder of tests/authoring_errors."""

    def measure(ctx: Context, cwd: Path) -> Row:
        features = cwd / "features"
        shutil.copytree(AUTHORING / folder, features)
        binding = ctx.tree / "features" / "test_scenarios.py"
        if not (ctx.tree / "scorpion_conformance" / "suite" / "binding.py").exists() and binding.exists():
            shutil.copy(binding, features / "test_scenarios.py")  # the old tree needs its binding
        marker = cwd / "adapter-started"
        if command == "run":
            argv = ctx.harness("run", "--features", str(features), "--adapter", ctx.marked_reference(marker),
                               "--report", str(cwd / "report.jsonl"))
        else:
            argv = ctx.harness("export", "--features", str(features), "-o", str(cwd / "export.json"))
        outcome = launch(ctx, cwd, argv, 120.0)
        left = count_and_clean(ctx)
        names = [p.name for p in (AUTHORING / folder).iterdir()]
        text = outcome.text
        lines = list(meaningful_lines(text))
        naming = next((line for line in lines if re.search(r"\.feature:\d+:", line)), None)
        naming = naming or next((line for line in lines if any(n in line for n in names)), None)
        cases, end, note = read_report(cwd / "report.jsonl")
        if naming is None and any(r.get("status") in ("failed", "error") for r in cases):
            naming = "(no line names the problem) " + run_message(outcome, cases, end)
        message = cut(naming or "(no line names the problem) " + (lines[0] if lines else "(no output)"))
        where = FILE_LINE.findall(text)
        located = f"names {Path(where[0]).name}" if where else "no file:line"
        details = [located]
        if command == "run":
            details.append("adapter started" if marker.exists() else "adapter not started")
            verdict = report_verdict(cases, end, note)
        else:
            verdict = "export written" if (cwd / "export.json").exists() else "nothing written"
        details.append(traceback_kind(text))
        return row_from("", outcome, verdict, message, "; ".join(details), left)

    return measure


def handshake(
    adapter: Callable[[Context, Path], str] | None, *options: str, timeout: float = 300.0,
) -> Callable[[Context, Path], Row]:
    """A ``run`` that should stop before any scenario, with one short paragraph."""

    def measure(ctx: Context, cwd: Path) -> Row:
        report = cwd / "report.jsonl"
        words = ["--adapter", adapter(ctx, cwd)] if adapter else []
        outcome = launch(ctx, cwd, ctx.harness("run", *words, "--report", str(report), *options), timeout)
        left = count_and_clean(ctx)
        cases, end, note = read_report(report)
        lines = outcome.text.splitlines()
        details = f"{len(lines)} output lines; {traceback_kind(outcome.text)}"
        problem = next((line.strip() for line in lines if line.strip().startswith("problem:")), None)
        if problem and problem not in first_meaningful(outcome.text):
            details += "; " + cut(problem, 80)
        return row_from("", outcome, report_verdict(cases, end, note), cut(first_meaningful(outcome.text)),
                        details, left)

    return measure


NEVER_ANSWERS = "import time; time.sleep(60)"
JUNK = "print('hello?', flush=True); import time; time.sleep(60)"  # flushed: a pipe buffers it otherwise
SLOW = {"SLOW_SECONDS": "0.02"}
STD = ("--rules", "standard")

CASES = (
    Case("run-twice", "1 answers twice", "run, all rule sets",
         run_case(doubling("twice"), details=twice_details, timeout=600)),
    Case("run-twice-at-once", "1 answers twice", "run, all rule sets",
         run_case(doubling("twice-at-once"), details=twice_details, timeout=600)),
    Case("run-twice-sometimes", "1 answers twice", "run, all rule sets",
         run_case(doubling("twice-sometimes"), details=twice_details, timeout=600)),
    Case("run-twice-late", "1 answers twice", "run, all rule sets",
         run_case(doubling("twice-late"), details=twice_details, timeout=600)),
    Case("check-twice", "1 answers twice", "check-adapter", check_case(fault("twice"))),
    Case("run-crash-always", "2 crashes", "run, all rule sets", run_case(fault("crash-always"), timeout=600)),
    Case("run-crash-after-hello", "2 crashes", "run, all rule sets (dies on every start)",
         run_case(fault("crash-after-hello"), timeout=600)),
    Case("check-flood-stderr", "3 floods stderr", "check-adapter, FLOOD_MB=500",
         check_case(flooding, details=flood_details)),
    Case("run-flood-stderr", "3 floods stderr", "run --rules standard, FLOOD_MB=500",
         run_case(flooding, *STD, details=flood_details)),
    Case("run-setsid-child", "4 setsid child", "run --rules standard",
         run_case(with_children("setsid-child"), *STD, details=children_details)),
    Case("check-setsid-child", "4 setsid child", "check-adapter",
         check_case(with_children("setsid-child"), details=children_details)),
    Case("kill-harness-hang-start", "4 setsid child", "run --rules standard, SIGKILL to harness at 3 s",
         killed_harness),
    Case("run-hang-mid-line", "5 hangs mid-line", "run --rules standard --timeout 1",
         run_case(fault("hang-mid-line"), *STD, "--timeout", "1")),
    Case("run-close-stdout", "5 closes stdout", "run --rules standard",
         run_case(fault("close-stdout"), *STD)),
    Case("sigint-healthy", "6 interrupts", "run, slow 0.02 s, SIGINT at 2 s",
         interrupted(fault("slow", **SLOW), [(2.0, signal.SIGINT)])),
    Case("sigint-hung", "6 interrupts", "run, hang-start, SIGINT at 2 s and 4 s",
         interrupted(fault("hang-start"), [(2.0, signal.SIGINT), (4.0, signal.SIGINT)])),
    Case("sigterm-healthy", "6 interrupts", "run, slow 0.02 s, SIGTERM at 2 s",
         interrupted(fault("slow", **SLOW), [(2.0, signal.SIGTERM)])),
    *(
        Case(f"{command}-{folder.replace('_', '-')}", "7 authoring errors", f"{command} --features {folder}",
             authoring(command, folder))
        for folder in ("misspelt_step", "bad_card_in_table", "malformed_table", "syntax_error",
                       "misspelt_tag", "duplicate_id", "missing_then", "non_utf8")
        for command in ("run", "export")
    ),
    Case("hs-never-answers", "8 handshake", "run --rules standard, python -c sleep(60)",
         handshake(lambda ctx, cwd: ctx.inline(NEVER_ANSWERS), *STD)),
    Case("hs-junk", "8 handshake", "run --rules standard, prints 'hello?' then sleeps",
         handshake(lambda ctx, cwd: ctx.inline(JUNK), *STD)),
    Case("hs-exits-at-once", "8 handshake", "run --rules standard, exits_at_once.py",
         handshake(lambda ctx, cwd: ctx.fake("exits_at_once.py"), *STD)),
    Case("hs-wrong-version", "8 handshake", "run --rules standard, wrong_version.py",
         handshake(lambda ctx, cwd: ctx.fake("wrong_version.py"), *STD)),
    Case("rules-bogus", "8 handshake", "run --rules bogus (reference adapter)",
         handshake(None, "--rules", "bogus")),
    Case("timeout-negative", "8 handshake", "run --timeout -1", handshake(None, "--timeout", "-1")),
    Case("timeout-nan", "8 handshake", "run --timeout nan", handshake(None, "--timeout", "nan")),
    Case("adapter-empty", "8 handshake", 'run --adapter ""', handshake(lambda ctx, cwd: "")),
    Case("adapter-unbalanced", "8 handshake", "run --adapter \"node 'x\"",
         handshake(lambda ctx, cwd: "node 'x")),
)


# Tables ------------------------------------------------------------------------------


def cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    head = "| case | exit | verdict | message | time (s) | RSS (MB) | left | details |\n"
    head += "|---|---|---|---|---:|---:|---:|---|\n"
    return head + "".join(
        f"| {cell(r['case'])} | {cell(r['exit'])} | {cell(r['verdict'])} | {cell(r['message'])} | "
        f"{r['seconds']:.1f} | {r['rss_mb']:.0f} | {r['leftovers']} | {cell(r['details'])} |\n"
        for r in rows
    )


def compare(before: dict[str, Any], after: dict[str, Any]) -> str:
    """Before | after, side by side, one line per case."""
    old = {r["case"]: r for r in before["rows"]}
    new = {r["case"]: r for r in after["rows"]}
    names = [r["case"] for r in after["rows"]] + [n for n in old if n not in new]
    blank = {"exit": "-", "verdict": "-", "message": "-", "seconds": float("nan"), "rss_mb": float("nan"),
             "leftovers": "-", "details": "-"}
    out = [
        f"Before: {before['tree']} ({before['commit']}); after: {after['tree']} ({after['commit']}).\n",
        "| case | exit | time (s) | RSS (MB) | left | verdict before | verdict after | message before "
        "| message after | details before | details after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        b, a = old.get(name, blank), new.get(name, blank)
        out.append(
            f"| {cell(name)} | {cell(b['exit'])} → {cell(a['exit'])} | "
            f"{b['seconds']:.1f} → {a['seconds']:.1f} | "
            f"{b['rss_mb']:.0f} → {a['rss_mb']:.0f} | {b['leftovers']} → {a['leftovers']} | "
            f"{cell(b['verdict'])} | {cell(a['verdict'])} | {cell(b['message'])} | {cell(a['message'])} | "
            f"{cell(b['details'])} | {cell(a['details'])} |"
        )
    return "\n".join(out) + "\n"


def save(path: Path, tree: Path, rows: Sequence[Row], earlier: Sequence[dict[str, Any]]) -> None:
    """Write the rows (merged into ``earlier`` ones, in the matrix's order) as JSON."""
    fresh = {row.case: asdict(row) for row in rows}
    kept = {row["case"]: row for row in earlier if row["case"] not in fresh}
    order = [case.name for case in CASES]
    merged = sorted({**kept, **fresh}.values(),
                    key=lambda r: order.index(r["case"]) if r["case"] in order else len(order))
    meta = {"tree": str(tree), "commit": describe(tree), "when": time.strftime("%Y-%m-%d %H:%M"),
            "load": os.getloadavg()[0], "rows": merged}
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")


def describe(tree: Path) -> str:
    try:
        head = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "-uno"],
                               capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return head + (f" + {len(dirty)} uncommitted files" if dirty else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="the checkout whose harness is measured")
    parser.add_argument("--only", action="append", default=[],
                        help="run only this case (or cases starting with it); repeatable")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--json", type=Path, help="also write the rows here, for --compare")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print two --json files side by side as markdown, and run nothing")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the harness and fakes")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--merge", action="store_true",
                        help="with --json: replace only the rows of the cases run now, keep the others")
    parser.add_argument("--list", action="store_true", help="list the cases")
    args = parser.parse_args(argv)
    if args.list:
        for case in CASES:
            print(f"{case.name}\t{case.group}\t{case.what}")
        return 0
    if args.compare:
        before, after = (json.loads(path.read_text()) for path in args.compare)
        print(compare(before, after), end="")
        return 0
    if args.tree is None or not (args.tree / "scorpion_conformance" / "cli.py").exists():
        parser.error("--tree must name a checkout of scorpion-conformance")
    tree = args.tree.resolve()
    chosen = [c for c in CASES if not args.only or any(c.name.startswith(o) for o in args.only)]
    if not chosen:
        parser.error(f"no case matches {args.only}; see --list")
    earlier: list[dict[str, Any]] = []
    if args.merge and args.json and args.json.exists():
        earlier = json.loads(args.json.read_text())["rows"]
    root = Path(tempfile.mkdtemp(prefix="fault_matrix_"))
    rows: list[Row] = []
    try:
        ctx = Context(tree, args.python, root)
        for case in chosen:
            cwd = root / case.name
            cwd.mkdir()
            ctx.tag = uuid.uuid4().hex
            SHORTER[:] = [(f"{TAG}={ctx.tag} ", ""), (f"{cwd}/", ""), (str(root), "$TMP")]
            row = case.measure(ctx, cwd)
            row.case = case.name
            rows.append(row)
            print(f"{row.case:26} exit={row.exit:10} {row.seconds:7.1f}s {row.rss_mb:7.1f}MB "
                  f"left={row.leftovers}  {row.verdict}\n    {row.message}\n    {row.details}", flush=True)
            if args.json:  # after every case, so a long run can be read while it goes
                save(args.json, tree, rows, earlier)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    if args.markdown:
        print()
        print(markdown([asdict(r) for r in rows]), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
