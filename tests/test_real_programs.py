"""The real programs, Aisleriot 3.22.23 and soliterm 1.2.0, judged by the suite.

Each one runs behind its adapter in ``adapters/``: check-adapter passes; the
suite passes with the program's expectations file applied, and every listed
case is an expected failure there (a listed failure that passes fails the run
too); without the file the suite fails on exactly the listed cases, so ``run``
alone catches each divergence; a bounded fuzz survey finds no divergence that
``divergences.json`` does not list; and that file, the expectations file, the
scenarios and the home page agree. ``adapters/install-real.sh`` fetches both
programs; a program that is not installed fails these tests, it never skips
them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorpion_conformance.fuzz.survey import load_known
from scorpion_conformance.site.real_programs import find_programs, load_program
from scorpion_conformance.site.report_runs import implementations, run_suite
from scorpion_conformance.suite.scenarios import load_cases

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("SCORPION_REAL_PROGRAMS") or ROOT / ".real-programs")
INSTALL = "run adapters/install-real.sh (it fetches both programs into .real-programs/)"
PROGRAMS = {"aisleriot": "3.22.23", "soliterm": "1.2.0"}


def _missing(name: str) -> str | None:
    """Why program ``name`` cannot run here, or None when it is installed."""
    if name == "aisleriot":
        if shutil.which("guile-3.0") is None:
            return "guile-3.0 is not installed"
        if not list((CACHE / "aisleriot" / "root").glob("usr/lib/*/aisleriot/guile/3.0/scorpion.go")):
            return f"Aisleriot's scorpion.go is not under {CACHE / 'aisleriot'}"
        return None
    python = CACHE / "soliterm" / "venv" / "bin" / "python"
    if not python.exists():
        return f"there is no soliterm venv at {python.parent.parent}"
    found = subprocess.run([str(python), "-c", "import soliterm.engine.core"], capture_output=True)
    return None if found.returncode == 0 else "soliterm is not installed in its venv"


def _require(name: str) -> None:
    """Fail the test (never skip it) when program ``name`` is not installed."""
    why = _missing(name)
    if why:
        pytest.fail(f"{name} is not installed: {why}; {INSTALL}", pytrace=False)


each_program = pytest.mark.parametrize("program", sorted(PROGRAMS))


def _adapter(name: str) -> str:
    return f"{sys.executable} {ROOT / 'adapters' / name / 'adapter.py'}"


def _cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", *args],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )


@each_program
def test_check_adapter_passes(program: str) -> None:
    _require(program)
    result = _cli("check-adapter", "--adapter", _adapter(program), "--timeout", "30")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert f"{program} {PROGRAMS[program]}" in result.stdout, "the adapter greets with another version"
    assert "All 17 checks passed." in result.stdout, result.stdout[-3000:]


@each_program
def test_the_suite_passes_with_the_expectations_applied(program: str, tmp_path: Path) -> None:
    _require(program)
    expect = ROOT / "adapters" / program / "expectations.json"
    report = tmp_path / "report.jsonl"
    result = _cli("run", "--adapter", _adapter(program), "--timeout", "30",
                  "--expect", str(expect), "--report", str(report), "-q")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    passed = [r for r in records if r.get("status") == "passed"]
    assert len(passed) >= 150, f"only {len(passed)} scenarios passed; the suite hardly ran"
    assert {r["rules"] for r in passed} == {"aisleriot"}
    xfailed = {r["id"].split("/")[0] for r in records if r.get("status") == "xfailed"}
    assert xfailed == _listed(program), "a listed expectation is not an expected failure of the run"


def _listed(program: str) -> set[str]:
    """The scenario ids that the program's expectations file lists."""
    data = json.loads((ROOT / "adapters" / program / "expectations.json").read_text(encoding="utf-8"))
    return {key.split("[")[0].split("/")[0] for key in data["known_failures"]}


@each_program
def test_without_its_expectations_the_suite_fails_on_each_divergence_only(program: str,
                                                                          tmp_path: Path) -> None:
    _require(program)
    report = tmp_path / "report.jsonl"
    result = _cli("run", "--adapter", _adapter(program), "--timeout", "30", "--report", str(report), "-q")
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    failed = [r for r in records if r.get("status") in ("failed", "error", "xpassed")]
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert {r["id"].split("/")[0] for r in failed} == _listed(program)
    assert all(r["status"] == "failed" for r in failed), [(r["id"], r["status"]) for r in failed]


@each_program
def test_a_bounded_survey_finds_no_divergence_that_is_not_listed(program: str) -> None:
    _require(program)
    known = ROOT / "adapters" / program / "divergences.json"
    result = _cli("fuzz", "--adapter", _adapter(program), "--rules", "aisleriot", "--games", "75",
                  "--seed", "7", "--survey", "--known", str(known), "--no-progress", "--timeout", "30",
                  "--shrink-seconds", "10")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "no new divergence" in result.stdout or result.stdout.rstrip().endswith("no difference")
    assert result.stdout.startswith("75 games, "), result.stdout[:300]


@each_program
def test_the_divergences_agree_with_the_expectations_and_the_scenarios(program: str) -> None:
    about = load_program(ROOT / "adapters" / program)
    known = load_known(ROOT / "adapters" / program / "divergences.json")
    assert (about.version, about.rules) == (PROGRAMS[program], "aisleriot")
    assert set(about.scenario_ids) == _listed(program), "divergences.json and expectations.json differ"
    assert [k.scenarios for k in known] == [d.scenarios for d in about.divergences]
    cases = {c.id: c for c in load_cases() if c.id}
    for ident in about.scenario_ids:
        assert ident in cases, f"{ident} is not a scenario of features/"
        cited = " ".join(cases[ident].description.split())
        assert f"{about.name.split()[-1]} {about.version}" in cited, f"{ident} does not cite {about.title}"


def test_the_home_page_names_every_real_program() -> None:
    line = next(line for line in (ROOT / "docs" / "index.md").read_text(encoding="utf-8").splitlines()
                if line.startswith("Judged against real programs: "))
    named = set(re.findall(r"\[([^\]]+)\]\(report\.md#([\w-]+)\)", line))
    assert named == {(p.title, p.key) for p in find_programs(ROOT)}, line


def test_the_report_says_plainly_when_a_program_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SCORPION_REAL_PROGRAMS", str(tmp_path))  # an empty cache
    for implementation in implementations(ROOT):
        if implementation.program is None:
            continue
        result = run_suite(implementation, ROOT)
        assert result.skipped and not result.records, implementation.key
        assert f"{implementation.program.title} is not installed on the machine" in result.skipped
        assert "install-real.sh" in result.skipped, result.skipped


def test_expectations_files_have_the_documented_shape() -> None:
    for name in PROGRAMS:
        data = json.loads((ROOT / "adapters" / name / "expectations.json").read_text(encoding="utf-8"))
        assert set(data) == {"known_failures"}, name
        known = data["known_failures"]
        assert isinstance(known, dict), name
        assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in known.items()), name
