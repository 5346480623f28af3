"""The everyday command line: versions, help, selection by area and id glob, quiet
output, simple rerun lines, expectations that name what they do, perft that
says when it checked nothing, and parallel runs that report what a run without
workers reports.

Each run is a real ``scorpion-conformance`` in a subprocess, from a folder
outside the checkout; the versions, the help and perft's words are read from the
command called in this process (``tests/in_this_process.py``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from in_this_process import command
from machine import allowing_for_load
from programs import node

from scorpion_conformance.suite.naming import shipped_areas
from scorpion_conformance.suite.scenarios import feature_dir, load_cases
from scorpion_shared import vocabulary

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"
JS_ADAPTER = ROOT / "adapters" / "javascript" / "adapter.js"
SLOW = ROOT / "tests" / "fake_adapters" / "faulty_reference.py"


def cli(cwd: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorpion_conformance.cli", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def _runs(process: Any, script: Path) -> bool:
    """Whether ``process`` (a psutil process) is Python running ``script`` (not the guardian that
    started it, whose command line names it too)."""
    import psutil

    try:
        return process.cmdline()[1:2] == [str(script)]
    except psutil.Error:
        return False


def report_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_version_names_the_package_the_protocol_and_the_suite(tmp_path: Path) -> None:
    result = command("--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    cases = load_cases(feature_dir())
    scenarios = len({case.id for case in cases})
    assert result.stdout.splitlines() == [
        "scorpion-conformance 0.1.0",
        "protocol version 1",
        f"suite version 0.1.0: {scenarios} scenarios ({len(cases)} cases with the outlines' rows) "
        f"in {len(shipped_areas())} rule areas",
        "(`run` plays each case under every rule set of the adapter's that its tags admit, so it counts "
        "more items than cases)",
    ]


def test_every_help_has_a_description_and_run_lists_the_choices(tmp_path: Path) -> None:
    helps = {}
    for name in ("deal", "check-adapter", "run", "export", "lint", "perft", "fuzz", "report", "summary",
                 "new-adapter"):
        result = command(name, "--help", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        helps[name] = result.stdout
        _usage, _, rest = result.stdout.partition("\n\n")
        assert rest.split("\n\n")[0].strip() and not rest.startswith("options"), f"{name}: no description"
    text = " ".join(helps["run"].split())
    for name in vocabulary.NAMED_RULESETS:
        assert name in text
    for area in shipped_areas():
        assert area in text
    assert "-n N|auto" in text and "area_stock" in text
    assert "the named ones are" in " ".join(helps["fuzz"].split())
    assert "{javascript,python}" in helps["new-adapter"]


def _ids(report: Path) -> list[str]:
    return [r["id"] for r in report_lines(report) if not r.get("end")]


def test_an_area_an_area_marker_and_an_id_glob_select_the_same_cases(tmp_path: Path) -> None:
    stock_ids = {case.case_id for case in load_cases(feature_dir()) if Path(case.file).stem == "stock"}
    runs = {"area": ["--area", "stock"], "marker": ["-m", "area_stock"], "glob": ["--id", "STOCK-*"]}
    found = {}
    for name, selection in runs.items():
        result = cli(tmp_path, "run", "-qq", "--rules", "standard", "--report", f"{name}.jsonl", *selection)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        found[name] = _ids(tmp_path / f"{name}.jsonl")
    assert set(found["area"]) == stock_ids
    assert found["area"] == found["marker"] == found["glob"]
    assert all(r["area_id"] == "stock" for r in report_lines(tmp_path / "area.jsonl") if not r.get("end"))
    wrong = cli(tmp_path, "run", "--area", "stocks")
    assert wrong.returncode == 2 and "--area stocks: no such rule area" in wrong.stderr
    assert "Traceback" not in wrong.stderr


#: The start of a rerun line that works from a shell here: the bare name when PATH finds this
#: environment's command, else its full path.
RERUN = r"(?:scorpion-conformance|/\S+/scorpion-conformance) run "


def test_very_quiet_prints_the_failures_and_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A caller's PYTEST_ADDOPTS changes nothing a run prints (it once added pytest's durations).
    monkeypatch.setenv("PYTEST_ADDOPTS", "--durations=5")
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} cross-suit"
    result = cli(tmp_path, "run", "-qq", "--adapter", adapter, "--rules", "standard", "--id", "PLACE-00[4-5]",
                 "--junitxml", "junit.xml", "--failures", "1")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("Scorpion conformance summary: 0 passed, 2 failed under 1 rule set (")
    assert not any(line.startswith(("platform ", "rootdir", "collected", "....")) for line in lines)
    assert "rule area" not in result.stdout and "short test summary" not in result.stdout
    assert "the last line counts all 2" in result.stdout
    # A run where every case fails says so first, then shows only the first failures in full.
    first = next(line for line in lines if line)
    assert first.startswith("Every case that ran failed: 2 of 2. The first 1 follow in full"), lines[:3]
    assert result.stdout.count("\nrerun: ") == 1
    # The failure names the scenario by its text and cards, where it can be opened, and its rerun
    # line is quoted simply.
    assert "The 7♥ does not go onto the 8♠[PLACE-004-standard]" in result.stdout
    assert "\\u2665" not in result.stdout
    assert f"({ROOT / 'features' / 'placement.feature'}:" in result.stdout
    assert re.search(f'rerun: {RERUN}--adapter "{re.escape(adapter)}" --rules standard --id PLACE-004',
                     result.stdout), result.stdout[-2000:]
    # Every failure is still in the reports and the exit status.
    cases = list(ElementTree.parse(tmp_path / "junit.xml").iter("testcase"))
    assert {case.get("classname") for case in cases} == {"placement"}
    assert len([case for case in cases if case.find("failure") is not None]) == 2


def test_the_default_summary_fits_100_columns(tmp_path: Path) -> None:
    # Two scenarios under every bundle: more rule sets than the summary lists one by one.
    result = cli(tmp_path, "run", "--adapter", f"{sys.executable} -m scorpion_ref.adapter --all-bundles",
                 "--id", "DEAL-00[12]")
    assert result.returncode == 0, result.stdout[-2000:]
    summary = result.stdout.split("Scorpion conformance summary", 1)[1].splitlines()[1:-1]
    assert summary and max(len(line) for line in summary) <= 100, max(summary, key=len)
    assert "more rule sets where nothing failed" in result.stdout
    # No pytest plumbing: the header says where the features are, the progress names each file.
    lines = result.stdout.splitlines()
    assert not [line for line in lines if line.startswith(("rootdir:", "configfile:"))]
    assert f"features: {feature_dir()} ({len(shipped_areas())} feature files)" in lines
    progress = [line for line in lines if ".feature " in line and line.endswith("%]")]
    assert [line.split()[0] for line in progress] == ["deal.feature"]
    # Why pytest counts more items than there are cases.
    collected = next(n for n, line in enumerate(lines) if line.startswith("collected "))
    said = " ".join(lines[collected + 1:collected + 4])
    assert re.match(r"\d+ items, each one case under one rule set: \d+ cases of \d+ scenarios", said), said


def test_expectations_name_unknown_ids_and_entries_to_remove(tmp_path: Path) -> None:
    (tmp_path / "typo.json").write_text(json.dumps({"known_failures": {
        "STOCK-001": "real", "STOKC-001": "typo", "PLACE-006/9": "no such row"}}), encoding="utf-8")
    wrong = cli(tmp_path, "run", "--expect", "typo.json")
    assert wrong.returncode == 2
    assert "2 unknown scenario ids: PLACE-006/9, STOKC-001" in wrong.stderr
    (tmp_path / "stale.json").write_text(json.dumps({"known_failures": {"PLACE-002": "was broken"}}),
                                         encoding="utf-8")
    stale = cli(tmp_path, "run", "--expect", "stale.json", "--rules", "standard", "--id", "PLACE-002")
    assert stale.returncode == 1
    assert "known failure now passes: remove the entry 'PLACE-002' from the expectations file" in stale.stdout
    assert "1 known failure now passes: the run fails until its 1 entry leaves stale.json:\n  PLACE-002\n" \
        in stale.stdout
    # The line that rewrites the file from a whole run of the same adapter, from a shell here.
    assert re.search(f'\n  {RERUN}--adapter ".+" --expect stale.json --write-expectations stale.json\n',
                     stale.stdout), stale.stdout[-1500:]
    written = cli(tmp_path, "run", "-qq", "--rules", "standard", "--id", "PLACE-002",
                  "--write-expectations", "new.json")
    assert written.returncode == 0
    assert "wrote 0 known failures to new.json (none failed: the file lists nothing)" in written.stdout
    assert json.loads((tmp_path / "new.json").read_text()) == {"known_failures": {}}


def test_perft_file_that_checks_nothing_fails(tmp_path: Path) -> None:
    good = ROOT / "tests" / "fake_adapters" / "good.py"  # it declares standard only
    result = command("perft", "--file", "classic", "--adapter", f"{shlex.quote(sys.executable)} {good}",
                     cwd=tmp_path)
    assert result.returncode == 2
    assert "0 entries checked" in result.stdout
    assert "nothing was checked" in result.stderr and "the adapter declares standard" in result.stderr


def _junit(path: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(case.attrib["classname"], case.attrib["name"], tuple(child.tag for child in case))
            for case in ElementTree.parse(path).iter("testcase")]


def _cucumber(path: Path) -> Any:
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "duration"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(path.read_text(encoding="utf-8")))


def _run_pair(tmp_path: Path, *args: str) -> dict[str, dict[str, Any]]:
    """The same run without workers and with ``-n 2``: what each wrote, and how long it took."""
    found: dict[str, dict[str, Any]] = {}
    for name, extra in (("one", []), ("two", ["-n", "2"])):
        folder = tmp_path / name
        folder.mkdir()
        began = time.monotonic()
        result = cli(folder, "run", "-qq", "--report", "r.jsonl", "--junitxml", "j.xml",
                     "--cucumberjson", "c.json", "--write-expectations", "known.json", *args, *extra)
        lines = report_lines(folder / "r.jsonl")
        found[name] = {
            "code": result.returncode, "records": lines[:-1],
            "end": {k: v for k, v in lines[-1].items() if k not in ("started", "finished")},
            "junit": _junit(folder / "j.xml"), "cucumber": _cucumber(folder / "c.json"),
            "expectations": (folder / "known.json").read_text(encoding="utf-8"),
            "last": result.stdout.splitlines()[-2:], "seconds": time.monotonic() - began,
        }
    return found


def _same(found: dict[str, dict[str, Any]]) -> None:
    one, two = found["one"], found["two"]
    for key in ("code", "records", "end", "junit", "cucumber", "expectations", "last"):
        assert one[key] == two[key], f"{key} differs between run and run -n 2"
    assert one["records"] and one["end"]["run"] == "complete"


def test_a_passing_run_in_two_workers_reports_what_one_process_reports(tmp_path: Path) -> None:
    node()
    # The javascript adapter (node, started by each worker) under two rule sets, in two areas that
    # hold scenarios of an option value no named set plays: those are reported unsupported. A
    # Python adapter in two workers is the failing run's, below.
    found = _run_pair(tmp_path, "--adapter", f"node {JS_ADAPTER}", "--rules", "standard,classic", "--area",
                      "stock,empty-columns")
    _same(found)
    assert found["one"]["code"] == 0 and json.loads(found["one"]["expectations"]) == {"known_failures": {}}
    assert {r["status"] for r in found["one"]["records"]} == {"passed", "unsupported"}
    assert {r["rules"] for r in found["one"]["records"] if r["status"] == "passed"} == {"standard", "classic"}


def test_failures_and_expectations_are_the_same_in_two_workers(tmp_path: Path) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} no-stock-lock"
    # Its failures are classic's; wasp passes, so the run holds both in each worker.
    found = _run_pair(tmp_path, "--adapter", adapter, "--rules", "classic,wasp", "--area", "stock,placement")
    _same(found)
    assert found["one"]["code"] == 1
    assert json.loads(found["one"]["expectations"])["known_failures"]
    assert any(r["status"] == "failed" for r in found["one"]["records"])


def test_sigterm_stops_a_parallel_run_and_its_workers_at_once(tmp_path: Path) -> None:
    import psutil

    # The reference, each answer a little slow: the run is still going when the signal comes,
    # and its workers spend the wait asleep.
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(SLOW))} slow"
    process = subprocess.Popen(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "-v", "-n", "2", "--rules", "standard",
         "--report", "r.jsonl", "--write-expectations", "known.json", "--adapter", adapter],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "SLOW_SECONDS": "0.05"})
    assert process.stdout is not None
    seen: list[str] = []
    try:
        # Stopped once a worker has finished a case and both workers have their adapter up.
        for line in process.stdout:
            seen.append(line)
            if re.match(r"\[gw\d\] .* PASSED ", line):
                break
        else:
            raise AssertionError("the run ended before any case passed:\n" + "".join(seen[-40:]))
        deadline = time.monotonic() + allowing_for_load(30)
        while True:
            tree = psutil.Process(process.pid).children(recursive=True)
            adapters = [p for p in tree if _runs(p, SLOW)]
            if len(adapters) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert len(adapters) >= 2 and len(tree) >= 4, tree  # two workers, each with its adapter
        began = time.monotonic()
        process.terminate()
        output, _ = process.communicate(timeout=120)
        took = time.monotonic() - began
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, output[-2000:]
    assert took < allowing_for_load(20), f"took {took:.1f} s to stop"
    end = report_lines(tmp_path / "r.jsonl")[-1]
    assert end["end"] is True and end["run"] == "interrupted" and end["signal"] == "SIGTERM"
    assert not (tmp_path / "known.json").exists()
    _gone, alive = psutil.wait_procs(tree, timeout=allowing_for_load(5))
    assert not [p.pid for p in alive if p.status() != psutil.STATUS_ZOMBIE]


def test_a_rewritten_expectations_file_keeps_the_reasons_it_was_given(tmp_path: Path) -> None:
    from scorpion_conformance.suite.expectations import Expectations, write_expectations
    from scorpion_conformance.suite.reporting import Record

    records = [
        Record("MOVE-004", "x", "Moving groups", "standard", "xfailed",
               message="known failure: moves any group"),
        Record("PLACE-002", "y", "Placement", "standard", "passed"),
        Record("STOCK-001", "z", "The stock", "classic", "failed", message="the stock is not locked\nmore"),
    ]
    known = Expectations({"MOVE-004": "moves any group", "PLACE-002": "was broken"})
    path = tmp_path / "known.json"
    assert write_expectations(path, records, known) == 2
    assert json.loads(path.read_text(encoding="utf-8")) == {"known_failures": {
        "MOVE-004[standard]": "moves any group", "STOCK-001[classic]": "the stock is not locked"}}
