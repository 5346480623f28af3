"""The suite judged as a whole: it passes the reference, reports what an adapter
does not offer as unsupported, and catches each deliberately broken adapter.

Each run is a real ``scorpion-conformance run`` in a subprocess, read back
through its JSON report, as an implementer in another repository would run it.
The reference and every broken adapter meet the whole suite; the runs that test
a mechanism (a restart after a crash, an expectations file) meet the areas that
exercise it.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bugs import BUGS
from in_this_process import command
from programs import node

from scorpion_shared.vocabulary import NAMED_RULESETS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BROKEN = HERE / "broken_adapters" / "broken_adapter.py"
JS_ADAPTER = ROOT / "adapters" / "javascript" / "adapter.js"


def run_suite(tmp_path: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    report = tmp_path / "report.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "-q", "--report", str(report), *args],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    lines = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    records = [line for line in lines if not line.get("end")]
    assert not lines or lines[-1].get("end"), "the report does not say how the run ended"
    return result.returncode, records, result.stdout + result.stderr


def failed(records: list[dict[str, Any]]) -> list[str]:
    return sorted({f"{r['id']}[{r['rules']}]" for r in records if r["status"] in ("failed", "error")})


def test_the_reference_passes_every_scenario_under_every_rule_set(tmp_path: Path) -> None:
    code, records, output = run_suite(tmp_path)
    assert code == 0, output[-3000:]
    assert not failed(records)
    by_rules = {r["rules"] for r in records if r["status"] == "passed"}
    assert by_rules == set(NAMED_RULESETS)
    assert "Scorpion conformance summary" in output
    assert len(records) > 100


def test_the_javascript_adapter_passes_standard_and_reports_the_rest_unsupported(
    tmp_path: Path,
) -> None:
    # Under standard alone (the whole suite under every set is tests/test_javascript_adapter.py's).
    code, records, output = run_suite(tmp_path, "--adapter", f"{node()} {JS_ADAPTER}", "--rules", "standard")
    assert code == 0, output[-3000:]
    assert not failed(records)
    passed = {r["rules"] for r in records if r["status"] == "passed"}
    assert passed == {"standard"}
    unsupported = [r for r in records if r["status"] == "unsupported"]
    assert unsupported and all("no selected rule set" in r["message"] for r in unsupported)




@pytest.mark.parametrize(("bug", "rules"), BUGS.items())
def test_each_broken_adapter_is_caught(tmp_path: Path, bug: str, rules: str) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} {bug}"
    code, records, output = run_suite(tmp_path, "--adapter", adapter, "--rules", rules)
    caught = failed(records)
    print(f"{bug} fails: {', '.join(caught)}")
    assert code == 1, output[-3000:]
    assert caught, f"no scenario caught the bug {bug} under {rules}"
    assert {r["rules"] for r in records if r["status"] != "unsupported"} == {rules}
    for record in records:
        if record["status"] == "failed":
            assert record["rerun"].startswith("scorpion-conformance run --adapter")
            assert record["message"]


def test_a_crashing_adapter_is_restarted_and_the_run_goes_on(tmp_path: Path) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} crash-on-nine-of-diamonds"
    # Two areas: three deals crash on 9♦ early in the first, and two dozen cases pass after them.
    code, records, output = run_suite(tmp_path, "--adapter", adapter, "--rules", "standard", "--area",
                                      "deal,stock")
    assert code == 1, output[-3000:]
    crashed = [r for r in records if r["status"] in ("failed", "error")]
    assert crashed, "no scenario moved 9♦"
    for record in crashed:
        assert "crash-on-nine-of-diamonds" in record["message"]  # the adapter
        assert '"card":"9D"' in record["message"]  # the request
        assert "exited with status 3" in record["message"]  # what was wrong
        assert "giving up on the nine of diamonds" in record["stderr_tail"]
    # Scenarios after a crash still run against a restarted adapter.
    later = [r for r in records[records.index(crashed[0]) + 1 :] if r["status"] == "passed"]
    assert len(later) > 20


def test_an_expectations_file_turns_known_failures_into_expected_ones(tmp_path: Path) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} cross-suit"
    expectations = tmp_path / "known.json"
    # The area where the adapter's bug fails a dozen cases among the passing ones.
    placement = ("--rules", "standard", "--area", "placement")
    code, records, _ = run_suite(tmp_path, "--adapter", adapter, *placement,
                                 "--write-expectations", str(expectations))
    assert code == 1 and failed(records)
    known = json.loads(expectations.read_text())["known_failures"]
    assert set(known) == {f"{r['id']}[standard]" for r in records if r["status"] == "failed"}

    code, records, output = run_suite(tmp_path, "--adapter", adapter, *placement,
                                      "--expect", str(expectations))
    assert code == 0, output[-3000:]
    assert "xfailed" in {r["status"] for r in records} <= {"passed", "xfailed", "unsupported"}

    # The reference passes those scenarios: a stale expectation fails the run.
    code, records, output = run_suite(tmp_path, *placement, "--expect", str(expectations))
    assert code == 1, output[-3000:]
    assert any(r["status"] == "xpassed" for r in records)


def test_a_broken_adapter_command_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    code, _records, output = run_suite(tmp_path, "--adapter", "no-such-adapter-command --flag")
    assert code != 0
    assert "no-such-adapter-command" in output
    assert "probably broken" in output
    assert "Traceback" not in output


def test_export_writes_every_case_as_plain_json(tmp_path: Path) -> None:
    out = tmp_path / "cases.json"
    exported = command("export", "-o", str(out), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    document = json.loads(out.read_text())
    cases = document["cases"]
    assert document["protocol"] == 1 and len(cases) > 50
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    for case in cases:
        assert set(case) >= {"id", "rulesets", "start", "steps", "requires"}
        assert len(case["start"]["columns"]) == 7
        assert all(("do" in s) != ("expect" in s) for s in case["steps"])


def test_a_scenario_without_a_then_step_fails_instead_of_passing(tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    shutil.copy(ROOT / "features" / "test_scenarios.py", features)
    (features / "idle.feature").write_text(
        "Feature: idle\n"
        "  @id:MOVE-901\n"
        "  Scenario: a typo hides every step\n"
        "    Givn the table\n",
        encoding="utf-8",
    )
    # `scorpion-conformance run` stops this in its lint, before any adapter starts (exit 4,
    # tests/test_authoring_errors.py); plain pytest over a folder with its own binding has no
    # lint, and reaches the plugin's own check.
    report = tmp_path / "report.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(features), "-q", "-p", "no:cacheprovider",
         "--rules", "standard", "--report", str(report)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    output = result.stdout + result.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    records = [line for line in lines if not line.get("end")]
    assert result.returncode == 1, output[-3000:]
    assert [r["status"] for r in records] == ["failed"]
    assert "has no Then step, so it checks nothing" in output
