"""The fault matrix: the suite's verdict stays true under faulty adapters and interrupts.

Each test runs the real command line (``scorpion-conformance run``,
``check-adapter``, ``perft``, ``fuzz``) in a subprocess against
``fake_adapters/faulty_reference.py``: the reference adapter, right about every
rule and wrong about the conversation in one way (its docstring lists the
faults). Each test asserts the verdict, the message, the time taken (generous
bounds: these are not benchmarks), the process tree afterwards and the files
afterwards.

The fake is copied into the test's own folder, so a process whose command line
names that copy is one this test started, never one of a test run beside it.
The authoring-error half of the matrix is ``tests/test_authoring_errors.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest
from machine import allowing_for_load

from scorpion_conformance.transport import GRACE

FAULTY = Path(__file__).resolve().parent / "fake_adapters" / "faulty_reference.py"

#: Every status a finished case may have in a report.
FINAL = {"passed", "failed", "error", "xfailed", "xpassed", "unsupported", "not-run", "skipped"}
#: What a message says when the adapter wrote a line that nobody asked for.
OUT_OF_STEP = ("nobody asked for", "carries the id")
#: Phrases that would mean a fault was taken for a hang.
HANG_WORDS = ("did not answer in time", "no answer within")
#: How long everything the harness started may take to disappear once it has exited, on an idle
#: machine (a loaded one is allowed its slower start-ups).
GONE_WITHIN = 3.0

Json = dict[str, Any]


class Fake:
    """The faulty reference, copied into one test's folder, and what it left behind."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir()
        self.folder = folder
        self.path = folder / "faulty_reference.py"
        shutil.copy(FAULTY, self.path)
        self.child_pids = folder / "child-pids.txt"

    def command(self, fault: str) -> str:
        return f"{shlex.quote(sys.executable)} {shlex.quote(str(self.path))} {fault}"

    def env(self, **variables: str) -> dict[str, str]:
        return {"CHILD_PID_FILE": str(self.child_pids), **variables}

    def grandchildren(self) -> list[int]:
        """The pids of the ``setsid`` grandchildren the fake reported."""
        if not self.child_pids.exists():
            return []
        return [int(line) for line in self.child_pids.read_text().split()]

    def alive(self) -> list[tuple[psutil.Process, str]]:
        """The processes running now that this fake started, each with its command line."""
        found = []
        for process in psutil.process_iter(["cmdline", "status"]):
            if process.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            command = process.info["cmdline"] or ()
            if any(str(self.path) in part for part in command):
                found.append((process, " ".join(command)))
        for pid in self.grandchildren():
            with contextlib.suppress(psutil.Error):
                process = psutil.Process(pid)
                command = " ".join(process.cmdline())
                if process.status() != psutil.STATUS_ZOMBIE and "setsid" in command:
                    found.append((process, command))
        return found

    def survivors(self, within: float | None = None) -> list[str]:
        """The processes left running ``within`` seconds from now (by default :data:`GONE_WITHIN`,
        allowing for the load): adapters, guardians, grandchildren."""
        deadline = time.monotonic() + (allowing_for_load(GONE_WITHIN) if within is None else within)
        while True:
            alive = self.alive()
            if not alive or time.monotonic() > deadline:
                return [f"{process.pid}: {command}" for process, command in alive]
            time.sleep(0.05)

    def end_all(self) -> None:
        """Kill, by pid, whatever a failed test left running."""
        for process, _ in self.alive():
            with contextlib.suppress(psutil.Error):
                process.kill()


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Fake]:
    faulty = Fake(tmp_path / "fake")
    yield faulty
    faulty.end_all()


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The folder each command runs in and writes to."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


@dataclass
class Result:
    code: int
    output: str
    seconds: float
    records: list[Json] = field(default_factory=list)
    end: Json | None = None

    def with_status(self, *statuses: str) -> list[Json]:
        return [record for record in self.records if record["status"] in statuses]


def read_report(path: Path) -> tuple[list[Json], Json]:
    """The records and the closing line of a report; every line must be JSON."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines, f"{path} is empty"
    *records, end = lines
    assert end.get("end") is True, f"the report's last line does not close it: {end}"
    assert not any(record.get("end") for record in records)
    for record in records:
        assert record["status"] in FINAL, record
    return records, end


def cli(cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> Result:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", *args], cwd=cwd, capture_output=True,
        text=True, timeout=timeout, env={**os.environ, **(env or {})},
    )
    return Result(done.returncode, done.stdout + done.stderr, time.monotonic() - start)


def run_suite(cwd: Path, adapter: str, *args: str, env: dict[str, str] | None = None) -> Result:
    report = cwd / "report.jsonl"
    result = cli(cwd, "run", "-q", "--report", str(report), "--adapter", adapter, *args, env=env)
    assert report.exists(), f"no report was written:\n{result.output[-3000:]}"
    result.records, result.end = read_report(report)
    return result


def assert_one_paragraph(output: str, *phrases: str) -> None:
    text = output.strip()
    assert text.startswith("ERROR: the adapter could not be used"), text[-3000:]
    assert "\n\n" not in text and "Traceback" not in text, text
    for phrase in phrases:
        assert phrase in text, f"{phrase!r} is not in:\n{text}"


def names_the_extra_line(message: str) -> bool:
    return any(phrase in message for phrase in OUT_OF_STEP)


# -- answers twice ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["twice", "twice-at-once"])
def test_an_adapter_that_answers_twice_passes_no_case(fake: Fake, work: Path, fault: str) -> None:
    adapter = fake.command(fault)
    result = run_suite(work, adapter)
    assert result.seconds < 30, result.output[-3000:]
    assert not result.with_status("passed", "failed")
    # Unsupported cases (no declared rule set admits their tags) never reach the adapter.
    assert all(r["rules"] is None for r in result.records if r["status"] == "unsupported")
    judged = [record for record in result.records if record["status"] not in ("not-run", "unsupported")]
    for record in judged:
        assert record["status"] == "error", record
        assert names_the_extra_line(record["message"]), record["message"]
        assert str(fake.path) in record["message"]
    assert result.end is not None
    if fault == "twice-at-once":
        # Both copies come in one write, so the handshake itself always sees the second.
        assert result.end["run"] == "adapter-unusable"
    if result.end["run"] == "adapter-unusable":
        assert result.code == 3
        assert result.records == []
        assert_one_paragraph(result.output, "nobody asked for", '"cmd":"hello"', str(fake.path))
    else:
        assert result.code == 1, result.output[-3000:]
        assert judged, "no case was judged"
        assert result.end["run"] in ("gave-up", "complete")
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]

    check = cli(work, "check-adapter", "--adapter", adapter)
    lines = check.output.splitlines()
    failures = [n for n, line in enumerate(lines) if line.startswith("FAIL")]
    assert len(failures) == 1, check.output
    assert lines[failures[0]].startswith(("FAIL  handshake:", "FAIL  start:")), check.output
    assert not any(line.startswith("PASS") for line in lines[failures[0]:]), check.output
    assert names_the_extra_line(check.output) and str(fake.path) in check.output, check.output
    assert check.code in (1, 2) and check.seconds < 30
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


def test_an_adapter_that_sometimes_answers_twice_passes_no_case_it_spoiled(fake: Fake, work: Path) -> None:
    doubled_log = fake.folder / "doubled.txt"
    result = run_suite(work, fake.command("twice-sometimes"), "--rules", "standard",
                       "-k", "COLLECT", env=fake.env(DOUBLE_LOG=str(doubled_log)))
    assert result.code == 1, result.output[-3000:]
    assert result.seconds < 30
    # Three cases out of step make a broken adapter program: the run gives up on it.
    assert result.end is not None and result.end["run"] == "gave-up"
    assert "out of step with the requests in 3 cases" in result.end.get("gave_up", ""), result.end
    assert not result.with_status("failed"), "a doubled answer was taken for a rule verdict"
    errors = result.with_status("error")
    assert len(errors) == 3, [r["id"] for r in errors]
    for record in errors:
        assert names_the_extra_line(record["message"]), record["message"]
    assert result.with_status("not-run")
    # The fake logs each answer it doubles. Each one must have made its own case an error (the
    # adapter is restarted after it, so no case holds two): a doubled answer that a case let
    # through would leave more doubled answers than errors. A doubled answer to the final quit
    # belongs to no case.
    doubled = [line.split() for line in doubled_log.read_text().splitlines()]
    in_cases = [entry for entry in doubled if entry[1] != "quit"]
    assert len(in_cases) == len(errors), (in_cases, [r["id"] for r in errors])
    assert result.with_status("passed"), "no case had only single answers"
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


# -- crashes, floods, orphans -----------------------------------------------------------------------


def test_an_adapter_that_crashes_on_every_request_ends_the_run_at_once(fake: Fake, work: Path) -> None:
    result = run_suite(work, fake.command("crash-always"))
    assert result.code == 3
    assert result.seconds < 30
    assert_one_paragraph(result.output, "exited with status 9", "crashing on every request",
                         str(fake.path))
    assert result.records == []
    assert result.end is not None and result.end["run"] == "adapter-unusable"
    assert "status 9" in result.end["problem"]
    check = cli(work, "check-adapter", "--adapter", fake.command("crash-always"))
    assert check.code == 2 and check.seconds < 30
    assert "FAIL  handshake:" in check.output and "exited with status 9" in check.output
    assert "crashing on every request" in check.output
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


#: Runs a command and prints, last, the peak resident memory of it and of everything it
#: waited for (the check-adapter process, the guardians and the adapters), in KiB: Linux's
#: RUSAGE_CHILDREN maximum, so the peak is exact, not sampled. The adapters' own memory
#: is small (their stderr goes to the pipe), so the figure is the check-adapter process's.
PEAK_MEMORY = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "sys.stdout.flush()\n"
    "print('peak-kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    "sys.exit(code)\n"
)


def test_check_adapter_stays_small_against_an_adapter_that_floods_stderr(fake: Fake, work: Path) -> None:
    flood_log = fake.folder / "flood.txt"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", PEAK_MEMORY, sys.executable, "-m", "scorpion_conformance.cli",
         "check-adapter", "--adapter", fake.command("flood-stderr")],
        cwd=work, capture_output=True, text=True, timeout=60,
        env={**os.environ, "FLOOD_MB": "500", "FLOOD_LOG": str(flood_log)},
    )
    seconds = time.monotonic() - start
    *lines, peak = done.stdout.splitlines()
    output = "\n".join(lines)
    assert done.returncode == 0, output + done.stderr
    assert output.splitlines()[-1].startswith("All ") and "checks passed" in output
    assert "FAIL" not in output
    assert "flooded 500 MiB" in flood_log.read_text(), "the fake did not flood"
    kib = int(peak.removeprefix("peak-kib "))
    assert kib < 150 * 1024, f"peak memory {kib / 1024:.0f} MiB"
    assert seconds < 20
    assert fake.survivors() == []
    assert files(work) == []


def test_no_command_leaves_the_setsid_grandchild_of_an_adapter_behind(fake: Fake, work: Path) -> None:
    adapter = fake.command("setsid-child")
    commands = {
        "run": ["run", "-q", "--rules", "standard", "--id", "MOVE-001", "--adapter", adapter],
        "check-adapter": ["check-adapter", "--adapter", adapter],
        "perft": ["perft", "--file", "standard", "--depth", "1", "--adapter", adapter],
        "fuzz": ["fuzz", "--games", "3", "--rules", "standard", "--seed", "1", "--no-progress",
                 "--adapter", adapter],
    }
    seen = 0
    for name, args in commands.items():
        result = cli(work, *args, env=fake.env())
        assert result.code == 0, f"{name}:\n{result.output[-3000:]}"
        assert result.seconds < 30, name
        assert len(fake.grandchildren()) > seen, f"{name} started no adapter"
        seen = len(fake.grandchildren())
        assert fake.survivors() == [], f"left behind by {name}"
        assert files(work) == [], name


def test_a_killed_harness_leaves_no_adapter_and_no_grandchild(fake: Fake, work: Path) -> None:
    requests = fake.folder / "requests.txt"
    harness = subprocess.Popen(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "-q", "--report", "report.jsonl",
         "--adapter", fake.command("setsid-child")],
        cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, **fake.env(REQUEST_LOG=str(requests))},
    )
    try:
        # Wait until the handshake is done and the first case has begun.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and harness.poll() is None and not (
                requests.exists() and " start" in requests.read_text()):
            time.sleep(0.02)
        assert fake.grandchildren() and " start" in requests.read_text(), "no case began"
        assert harness.poll() is None, "the run ended before it could be killed"
        assert fake.alive(), "no adapter is running"
        harness.kill()
        harness.wait(10)
        killed = time.monotonic()
        # The guardian's lifeline: the kernel closes it when the harness dies.
        assert fake.survivors(within=allowing_for_load(5.0)) == []
        assert time.monotonic() - killed < allowing_for_load(5.0)
    finally:
        if harness.poll() is None:
            os.killpg(harness.pid, signal.SIGKILL)
            harness.wait()
    assert files(work) == [], "a report or a temporary file was left"


def test_an_adapter_that_hangs_mid_line_is_named_with_its_partial_line(fake: Fake, work: Path) -> None:
    ids = "COLLECT-001,COLLECT-004,MOVE-001,DEAL-004,MOVE-002,FLIP-001"
    result = run_suite(work, fake.command("hang-mid-line"), "--timeout", "1", "--rules", "standard",
                       "--id", ids)
    assert result.code == 1, result.output[-3000:]
    assert result.seconds < 60
    assert not result.with_status("failed")
    errors = result.with_status("error")
    assert {record["id"] for record in errors} == {"COLLECT-004", "DEAL-004"}
    for record in errors:
        assert "without ending the line" in record["message"], record["message"]
        assert '"cmd":"legal"' in record["message"] and str(fake.path) in record["message"]
    # The run goes on after each hang, with a fresh adapter.
    order = [record["id"] for record in result.records]
    assert result.end is not None and result.end["run"] == "complete"
    assert {r["id"] for r in result.with_status("passed")} == {"COLLECT-001", "MOVE-001", "MOVE-002",
                                                                 "FLIP-001"}
    assert order.index("MOVE-002") > order.index("DEAL-004")
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


def test_an_adapter_that_closes_stdout_is_reported_as_gone_not_as_hung(fake: Fake, work: Path) -> None:
    ids = ",".join(f"COLLECT-00{n}" for n in range(1, 8))
    result = run_suite(work, fake.command("close-stdout"), "--rules", "standard", "--id", ids)
    assert result.code == 1, result.output[-3000:]
    assert result.end is not None and result.end["run"] == "gave-up"
    errors = result.with_status("error")
    # Each time, the harness gives the adapter GRACE seconds to exit, then ends it: no longer.
    assert result.seconds < len(errors) * GRACE + allowing_for_load(10.0), result.seconds
    assert errors and not result.with_status("failed", "passed")
    for record in errors:
        assert "closed its standard output without exiting" in record["message"], record["message"]
        assert not any(words in record["message"] for words in HANG_WORDS), record["message"]
    assert result.with_status("not-run")
    # The fake sleeps on after closing its stdout: only the harness can end it.
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


def summary_column(output: str, table: str, status: str) -> int:
    """The total of one status column of a table in the run's summary."""
    lines = output.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(table))
    header = lines[start].removeprefix(table).split()
    column = header.index(status)
    total = 0
    for line in lines[start + 1:]:
        if not line.strip():
            break
        total += int(line.split()[-len(header) + column])
    return total


def test_an_adapter_dead_after_a_good_start_ends_the_run_with_the_rest_not_run(
    fake: Fake, work: Path
) -> None:
    result = run_suite(work, fake.command("crash-after-hello"), "--rules", "standard")
    assert result.code == 1, result.output[-3000:]
    assert result.seconds < 30
    assert result.end is not None and result.end["run"] == "gave-up"
    assert "4 times in a row" in result.end["gave_up"]
    errors = result.with_status("error")
    assert errors and not result.with_status("failed", "passed")
    assert "exited with status 9" in errors[0]["message"]
    assert "crashing on start" in errors[0]["stderr_tail"]
    assert "Giving up on this adapter" in errors[-1]["message"]
    not_run = result.with_status("not-run")
    assert len(not_run) > 100, "the cases after giving up were not reported as not run"
    assert all(record["message"].startswith("not run: the run gave up") for record in not_run)
    assert summary_column(result.output, "rule set", "not-run") == len(not_run)
    assert summary_column(result.output, "rule set", "failed") == 0
    assert fake.survivors() == []
    assert files(work) == ["report.jsonl"]


# -- interrupts ------------------------------------------------------------------------------------


KNOWN = b'{"known_failures": {"MOVE-001[standard]": "an old entry this run must not touch"}}\n'


@dataclass
class Interrupt:
    """One run of the suite, stopped by a signal once its adapter has read ``after`` requests.

    ``after`` is 0 for a signal as soon as the harness has started its adapter, before the
    adapter has read a word. The fake adapter notes each request it reads (``REQUEST_LOG``),
    every restarted adapter included, so the signal lands at the same point of the run on an
    idle machine and on a loaded one.
    """

    label: str
    fault: str
    after: int
    signum: signal.Signals = signal.SIGINT
    slow: str = "0.02"
    folder: Path = Path()
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    signalled: float = 0.0
    ended: float = 0.0

    def start(self, root: Path, fake: Fake) -> None:
        self.folder = root / self.label
        self.folder.mkdir()
        (self.folder / "known.json").write_bytes(KNOWN)
        log = (root / f"{self.label}.log").open("wb")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorpion_conformance.cli", "run", "-q", "--rules", "standard",
             "--adapter", fake.command(self.fault), "--report", "report.jsonl",
             "--junitxml", "junit.xml", "--write-expectations", "known.json"],
            cwd=self.folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "SLOW_SECONDS": self.slow, "REQUEST_LOG": str(self.requests)},
        )
        log.close()

    @property
    def requests(self) -> Path:
        """The fake adapter's note of every request it read (outside the run's folder)."""
        return self.folder.parent / f"{self.label}.requests"

    def due(self) -> bool:
        """Whether the run has reached the point where it is to be stopped."""
        assert self.process is not None
        if self.after == 0:
            return any("faulty_reference.py" in " ".join(child.cmdline())
                       for child in psutil.Process(self.process.pid).children(recursive=True))
        return self.requests.exists() and len(self.requests.read_text().splitlines()) >= self.after

    def problems(self, root: Path, healthy: bool) -> list[str]:
        """Everything wrong with how this run ended (an empty list when all is right)."""
        assert self.process is not None
        found: list[str] = []
        output = (root / f"{self.label}.log").read_text(errors="replace")
        code = self.process.returncode
        if code != 128 + self.signum:
            found.append(f"exit status {code}, not {128 + self.signum}")
        if self.ended - self.signalled > allowing_for_load(10):
            found.append(f"ended {self.ended - self.signalled:.1f} s after the signal")
        if "Traceback" in output:
            found.append("a traceback was printed")
        report = self.folder / "report.jsonl"
        try:
            records, end = read_report(report)
        except (OSError, ValueError, AssertionError) as error:
            found.append(f"the report: {error}")
            records, end = [], {}
        if end and (end.get("run"), end.get("signal")) != ("interrupted", self.signum.name):
            found.append(f"the report ends {end}")
        statuses = {record["status"] for record in records}
        wrong = statuses & ({"failed", "error", "xpassed"} if healthy else {"failed", "passed", "xpassed"})
        if wrong:
            found.append(f"records that are {sorted(wrong)}, a false verdict")
        for record in records:
            if record["status"] == "error" and not any(w in record["message"] for w in HANG_WORDS):
                found.append(f"an error that is not the hang: {record['message'][:200]}")
        if (self.folder / "known.json").read_bytes() != KNOWN:
            found.append("the expectations file changed")
        try:
            properties = {p.get("name"): p.get("value")
                          for p in ElementTree.parse(self.folder / "junit.xml").iter("property")}
            if properties.get("scorpion_run") != "interrupted":
                found.append(f"the JUnit properties are {properties}")
        except (OSError, ElementTree.ParseError) as error:
            found.append(f"the JUnit file: {error}")
        if files(self.folder) != ["junit.xml", "known.json", "report.jsonl"]:
            found.append(f"the folder holds {files(self.folder)}")
        return [f"{self.label}: {problem}\n{output[-1500:]}" for problem in found]


def interrupt_all(root: Path, fake: Fake, runs: list[Interrupt]) -> None:
    """Start every run at once, signal each when it reaches its point, and wait for each to end."""
    try:
        for run in runs:
            run.start(root, fake)
        waiting = list(runs)
        deadline = time.monotonic() + allowing_for_load(120)
        while waiting:
            for run in [r for r in waiting if r.due()]:
                assert run.process is not None
                run.signalled = time.monotonic()
                run.process.send_signal(run.signum)
                waiting.remove(run)
            for run in waiting:
                assert run.process is not None
                assert run.process.poll() is None, f"{run.label}: the run ended before its signal"
            assert time.monotonic() < deadline, f"never due: {[r.label for r in waiting]}"
            time.sleep(0.02)
        deadline = max(run.signalled for run in runs) + allowing_for_load(15)
        while time.monotonic() < deadline and any(r.process and r.process.poll() is None for r in runs):
            for run in runs:
                if run.process is not None and run.process.poll() is not None and not run.ended:
                    run.ended = time.monotonic()
            time.sleep(0.02)
        for run in runs:
            assert run.process is not None
            if run.process.poll() is not None and not run.ended:
                run.ended = time.monotonic()
    finally:
        for run in runs:
            if run.process is not None and run.process.poll() is None:
                os.killpg(run.process.pid, signal.SIGKILL)
                run.process.wait()
                run.ended = run.ended or time.monotonic() + 1000


INTERRUPTS = {
    # A healthy adapter (each answer a little slow, so that a run lasts long enough), stopped
    # as soon as the harness has started it, in the first cases (its 5th request) and in the
    # middle of the run (its 60th: a dozen cases done); by SIGTERM; and while the adapter is
    # still greeting (each answer 3 s, the signal once it has read the hello).
    "healthy": [
        Interrupt("sigint-while-starting", "slow", 0),
        Interrupt("sigint-in-the-first-cases", "slow", 5),
        Interrupt("sigint-mid-run", "slow", 60),
        Interrupt("sigterm-in-the-first-cases", "slow", 5, signal.SIGTERM),
        Interrupt("sigint-in-the-handshake", "slow", 1, slow="3"),
    ],
    # An adapter that answers its hello, then hangs on its first start (the timeout is the
    # default 5 s): stopped at its greeting, while it hangs, and once the harness has timed it
    # out and started it again (the new adapter's hello is the third request).
    "hung": [
        Interrupt("sigint-at-its-greeting", "hang-start", 1),
        Interrupt("sigint-while-it-hangs", "hang-start", 2),
        Interrupt("sigint-after-the-timeout", "hang-start", 3),
    ],
}


@pytest.mark.parametrize("adapter", list(INTERRUPTS))
def test_an_interrupt_ends_the_run_cleanly_and_records_no_false_verdict(
    fake: Fake, tmp_path: Path, adapter: str
) -> None:
    runs = [Interrupt(r.label, r.fault, r.after, r.signum, r.slow) for r in INTERRUPTS[adapter]]
    interrupt_all(tmp_path, fake, runs)
    problems = [problem for run in runs for problem in run.problems(tmp_path, adapter == "healthy")]
    assert not problems, "\n\n".join(problems)
    if adapter == "healthy":
        records, _ = read_report(tmp_path / "sigint-mid-run" / "report.jsonl")
        assert any(r["status"] == "passed" for r in records), "the run stopped mid-run had passed no case"
    assert fake.survivors() == []
