"""A synthetic start refused with ``unsupported-position`` is unsupported; any other start
refused so is a failure; a refusal out of step is the adapter's fault.

Both paths run the real command line against ``fake_adapters/unsupported_positions.py``
(the reference behind a program that cannot hold some starts), and the executor alone
against the reference in this process.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.client import AdapterClient
from scorpion_conformance.mutation.runner import run_suite as run_mutant_suite
from scorpion_conformance.reference import in_process
from scorpion_conformance.suite.execute import (
    UNSUPPORTED_POSITION,
    ScenarioFailure,
    ScenarioRun,
    UnsupportedStart,
)
from scorpion_conformance.suite.scenarios import load_cases
from scorpion_shared.vocabulary import ERROR_CODES

FAKE = Path(__file__).resolve().parent / "fake_adapters" / "unsupported_positions.py"
IDS = "STOCK-019,STOCK-020,STOCK-001,DEAL-010"


def run(tmp_path: Path, mode: str) -> tuple[int, str, dict[str, dict[str, Any]]]:
    report = tmp_path / "report.jsonl"
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))} {mode}"
    done = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "--report", str(report),
         "--adapter", adapter, "--id", IDS, "--rules", "standard"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=dict(os.environ),
    )
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    records = {record["id"]: record for record in lines if not record.get("end")}
    return done.returncode, done.stdout + done.stderr, records


def test_the_error_code_is_the_vocabularys() -> None:
    assert UNSUPPORTED_POSITION in ERROR_CODES


def test_a_synthetic_start_the_program_cannot_hold_is_unsupported_never_passed(tmp_path: Path) -> None:
    code, output, records = run(tmp_path, "short-stock")
    assert code == 0, output
    for ident in ("STOCK-019", "STOCK-020"):
        record = records[ident]
        assert record["status"] == "unsupported", record
        assert record["synthetic"] is True
        assert UNSUPPORTED_POSITION in record["message"] and "synthetic" in record["message"]
    assert records["STOCK-001"]["status"] == "passed" and "synthetic" not in records["STOCK-001"]
    assert records["DEAL-010"]["status"] == "passed" and records["DEAL-010"]["synthetic"] is True
    assert "unsupported, by reason:" in output and "synthetic start" in output, output


def test_the_same_answer_to_a_start_a_game_can_reach_is_a_failure(tmp_path: Path) -> None:
    code, output, records = run(tmp_path, "any-stock")
    assert code == 1, output
    failed = records["STOCK-001"]
    assert failed["status"] == "failed" and failed["blame"] == "implementation", failed
    assert "a start position a game can reach" in failed["message"]
    assert [records[i]["status"] for i in ("STOCK-019", "STOCK-020")] == ["unsupported", "unsupported"]


def test_a_refusal_out_of_step_is_the_adapters_fault_not_unsupported(tmp_path: Path) -> None:
    code, output, records = run(tmp_path, "short-stock-twice")
    assert code == 1, output
    first = records["STOCK-019"]
    assert first["status"] == "error" and first["blame"] == "adapter", first
    assert "unsupported" not in {r["status"] for r in records.values()} - {"STOCK-020"}


class Refusing(AdapterClient):
    """The reference in this process, with every start answered by unsupported-position."""

    def send(self, request: Any, **options: Any) -> Any:
        if request.cmd == "start":
            return request.read({"ok": False, "error": {"code": UNSUPPORTED_POSITION, "message": "no"}})
        return super().send(request, **options)


@pytest.mark.parametrize("synthetic", [True, False])
def test_the_executor_tells_a_synthetic_start_from_a_reachable_one(synthetic: bool) -> None:
    client = in_process(kind=Refusing)
    client.hello()
    case = next(c for c in load_cases() if c.case_id == "STOCK-001")
    scenario = ScenarioRun(client, "standard", synthetic=synthetic)
    expected = UnsupportedStart if synthetic else ScenarioFailure
    with pytest.raises(expected):
        for instruction in case.instructions():
            scenario.perform(instruction)
    assert (scenario.unsupported is not None) is synthetic
    assert scenario.checks <= 1  # nothing was judged after the refused start


def test_a_mutant_is_not_killed_by_a_start_it_may_refuse() -> None:
    cases = [c for c in load_cases() if c.case_id in ("STOCK-019", "STOCK-020")]
    verdict = run_mutant_suite([sys.executable, str(FAKE), "short-stock"], cases)
    assert not verdict.killed, verdict
    killed = run_mutant_suite([sys.executable, str(FAKE), "any-stock"],
                              [c for c in load_cases() if c.case_id == "STOCK-001"])
    assert killed.killed and killed.case == "STOCK-001", killed


def fuzz(tmp_path: Path, mode: str) -> subprocess.CompletedProcess[str]:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))} {mode}"
    return subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "fuzz", "--adapter", adapter, "--rules",
         "standard", "--games", "60", "--seed", "7", "--no-progress"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=dict(os.environ),
    )


def test_the_fuzzer_skips_a_synthetic_start_the_adapter_cannot_hold(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "short-stock")
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"([\d,]+) of them started from a synthetic position", done.stdout)
    assert found and int(found[1].replace(",", "")) > 0, done.stdout


def test_the_fuzzer_reports_a_reachable_start_refused_as_unsupported(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "any-stock")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "only a synthetic one may be refused so" in done.stdout, done.stdout


def test_the_report_tells_a_divergence_a_player_meets_from_one_only_a_synthetic_start_shows() -> None:
    from scorpion_conformance.site.real_programs import divergence_table, read_program
    from scorpion_conformance.site.report import _failures

    entry = {"kind": "legal", "match": "x", "does": "d", "rules": "r", "cause": "c", "nature": "bug"}
    program = read_program("demo", {"program": {"name": "Demo", "version": "1", "source": "s",
                                                 "rules": "aisleriot"},
                                     "divergences": [{**entry, "scenarios": ["STOCK-019", "STOCK-020"]},
                                                     {**entry, "scenarios": ["WIN-025", "STOCK-019"]}]})
    synthetic = {c.id for c in load_cases() if c.synthetic}
    first, second = divergence_table(program, {}, synthetic=synthetic)[2:]
    assert first.endswith("| only a [synthetic start](protocol.md#synthetic-positions): no player |")
    assert second.endswith("| a player |")
    records = [{"id": "STOCK-019", "name": "n", "rules": "aisleriot", "status": "failed", "message": "m",
                "synthetic": True},
               {"id": "WIN-025", "name": "n", "rules": "aisleriot", "status": "failed", "message": "m"}]
    marked, plain = _failures(records, {})[2:]
    assert "synthetic start" in marked and "synthetic" not in plain
