"""From fuzz to scenario in one step: what ``fuzz --emit-scenario`` writes runs at
once with ``run --features FILE`` (no binding file, no edit, no folder of its own),
lints clean, and the rerun line the failing run prints reruns exactly the emitted
case, as it is printed, from a shell whose ``PATH`` does not hold the environment."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "scorpion_conformance.cli"]
BROKEN = (f"{shlex.quote(sys.executable)} "
          f"{shlex.quote(str(ROOT / 'tests' / 'broken_adapters' / 'broken_adapter.py'))} cross-suit")
REFERENCE = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"


#: The environment of a shell that has not activated this one: its bin folder is not on PATH.
BIN = str(Path(sys.executable).parent)
ENV = {**os.environ, "PATH": os.pathsep.join(
    folder for folder in os.environ.get("PATH", "").split(os.pathsep) if folder and folder != BIN)}


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=300, cwd=ROOT, env=ENV)


def test_an_emitted_scenario_runs_as_it_is_written_and_its_rerun_line_works(tmp_path: Path) -> None:
    folder = tmp_path / "found"
    folder.mkdir()
    fuzzed = cli("fuzz", "--adapter", BROKEN, "--rules", "standard", "--games", "50", "--seed", "0",
                 "--emit-scenario", str(folder / "found.feature"), "--no-progress")
    assert fuzzed.returncode == 1, fuzzed.stdout[-2000:] + fuzzed.stderr[-2000:]
    assert [p.name for p in folder.iterdir()] == ["found.feature"]  # nothing else is needed

    found = folder / "found.feature"
    lint = cli("lint", "--features", str(found))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout == f"{found}: no problem\n"

    clean = cli("run", "--features", str(found), "--adapter", REFERENCE, "-q")
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-2000:]
    assert "5 passed" in clean.stdout  # the scenario holds under every named rule set

    bad = cli("run", "--features", str(found), "--adapter", BROKEN, "-q")
    assert bad.returncode == 1, bad.stdout[-3000:] + bad.stderr[-2000:]
    reruns = [line.strip() for line in bad.stdout.splitlines() if " run --adapter " in line
              and line.strip().split()[0].endswith("scorpion-conformance")]
    assert reruns, bad.stdout[-3000:]
    again = shlex.split(reruns[0])
    assert again[0] == str(Path(BIN) / "scorpion-conformance"), again  # PATH would not find it
    assert "--features" in again and str(found) in again and "--id" in again
    rerun = subprocess.run([*again, "-qq"], capture_output=True, text=True, timeout=300, cwd=ROOT, env=ENV)
    assert rerun.returncode == 1, rerun.stdout[-3000:] + rerun.stderr[-2000:]
    assert "0 passed, 1 failed" in rerun.stdout, rerun.stdout[-2000:]
