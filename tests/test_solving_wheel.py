"""``solve``, ``hint``, ``check-line`` and ``winnability`` from the installed wheel, outside the checkout,
with the solver's compiled core built into the wheel.

The wheel and its fresh venv are the ``installed`` fixture of ``tests/conftest.py``,
shared with ``test_wheel.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from test_wheel import sh


def test_the_solving_commands_work_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    solved = sh(installed, tmp_path, "solve", "--game", "5", "--rules", "classic", "--json")
    assert solved.returncode == 0, solved.stderr
    data = json.loads(solved.stdout)
    assert data["outcome"] == "won" and " to column " in data["line"]
    hint = sh(installed, tmp_path, "hint", "--game", "12", "--rules", "classic")
    assert hint.returncode == 0 and hint.stdout.startswith("no winning move: lost"), hint.stderr
    checked = sh(installed, tmp_path, "check-line", "--game", "5", "--rules", "classic",
                 *data["line"].split(", ")[:3])
    assert checked.returncode == 0 and "still winnable after every action" in checked.stdout, checked.stderr
    bad = sh(installed, tmp_path, "solve", "--game", "5", "--rules", "nonesuch")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "nonesuch" in bad.stderr
    campaign = sh(installed, tmp_path, "winnability", "--rules", "classic", "--games", "1-6",
                  "--workers", "1",
                  "--budget", "50k", "--max-budget", "200k")
    assert campaign.returncode == 0, campaign.stderr
    assert campaign.stdout.startswith("classic, games 1-6: 1 won, 5 lost, 0 unknown")
    assert len((tmp_path / "winnability-classic.jsonl").read_text(encoding="utf-8").splitlines()) == 6


def test_the_wheel_s_solver_runs_the_compiled_core(installed: Path, tmp_path: Path) -> None:
    dropped = ("PYTHONPATH", "VIRTUAL_ENV", "SCORPION_SOLVER_CORE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    script = ("from scorpion_ref.solver import _core; from scorpion_ref.solver.search import chosen_core; "
              "print(chosen_core()); print(_core.__file__)")
    found = subprocess.run([str(installed / "python"), "-c", script],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert found.returncode == 0, found.stderr
    core, path = found.stdout.split()
    assert core == "compiled" and str(installed.parent) in path and path.endswith(".so"), found.stdout
