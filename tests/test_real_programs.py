"""The real programs, Aisleriot 3.22.23 and soliterm 1.2.0, judged by the suite.

Each one runs behind its adapter in ``adapters/``: check-adapter passes, and
the suite passes with the program's expectations file applied (a listed
failure that passes fails the run too). ``adapters/install-real.sh`` fetches
both programs; a program that is not installed fails these tests, it never
skips them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_expectations_files_have_the_documented_shape() -> None:
    for name in PROGRAMS:
        data = json.loads((ROOT / "adapters" / name / "expectations.json").read_text(encoding="utf-8"))
        assert set(data) == {"known_failures"}, name
        known = data["known_failures"]
        assert isinstance(known, dict), name
        assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in known.items()), name
