"""From fuzz to scenario in one step: what ``fuzz --emit-scenario`` writes runs at
once with ``run --features DIR`` (no binding file, no edit), lints clean, and the
rerun line the failing run prints reruns exactly the emitted case."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "scorpion_conformance.cli"]
BROKEN = (f"{shlex.quote(sys.executable)} "
          f"{shlex.quote(str(ROOT / 'tests' / 'broken_adapters' / 'broken_adapter.py'))} cross-suit")
REFERENCE = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_an_emitted_scenario_runs_as_it_is_written_and_its_rerun_line_works(tmp_path: Path) -> None:
    folder = tmp_path / "found"
    folder.mkdir()
    fuzzed = cli("fuzz", "--adapter", BROKEN, "--rules", "standard", "--games", "50", "--seed", "0",
                 "--emit-scenario", str(folder / "found.feature"), "--no-progress")
    assert fuzzed.returncode == 1, fuzzed.stdout[-2000:] + fuzzed.stderr[-2000:]
    assert [p.name for p in folder.iterdir()] == ["found.feature"]  # nothing else is needed

    lint = cli("lint", "--features", str(folder))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "no problem" in lint.stdout

    clean = cli("run", "--features", str(folder), "--adapter", REFERENCE, "-q")
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-2000:]
    assert "5 passed" in clean.stdout  # the scenario holds under every named rule set

    bad = cli("run", "--features", str(folder), "--adapter", BROKEN, "-q")
    assert bad.returncode == 1, bad.stdout[-3000:] + bad.stderr[-2000:]
    reruns = [line.strip() for line in bad.stdout.splitlines()
              if line.strip().startswith("scorpion-conformance run ")]
    assert reruns, bad.stdout[-3000:]
    again = shlex.split(reruns[0])
    assert "--features" in again and str(folder) in again and "--id" in again
    rerun = cli(*again[1:], "-qq")
    assert rerun.returncode == 1, rerun.stdout[-3000:] + rerun.stderr[-2000:]
    assert "0 passed, 1 failed" in rerun.stdout, rerun.stdout[-2000:]
