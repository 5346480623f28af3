"""The README's test command does its own set-up, and CI runs exactly that command.

``tests/setup.sh`` installs what the tests need where it is missing. These tests run it on
a copy of what it reads, whose venv's pip only notes its calls (the project's own venv is
never touched while tests run), and where a program is missing and it may not install it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "tests" / "setup.sh"


def readme_test_command() -> str:
    """The one command of the README's shell block that runs the project's own tests."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
             for line in block.splitlines() if "tests/setup.sh" in line]
    assert len(lines) == 1, lines
    return lines[0]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    command = readme_test_command()
    assert command.startswith("bash tests/setup.sh && ") and "pytest" in command
    steps = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert steps == ["set -euo pipefail", 'cd "$(dirname "$0")/.."', command], steps


def _sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of what the set-up reads, with a venv whose pip only notes that it was called."""
    box = tmp_path / "checkout"
    for name in ("tests/setup.sh", "adapters/install-real.sh", "pyproject.toml", "setup.py",
                 "scorpion_ref/solver/_core.c"):
        (box / name).parent.mkdir(parents=True, exist_ok=True)
        (box / name).write_bytes((ROOT / name).read_bytes())
    bin_dir = box / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    (bin_dir / "pip").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "pip-calls"}\n', encoding="utf-8")
    (bin_dir / "pip").chmod(0o755)
    cache = os.environ.get("SCORPION_REAL_PROGRAMS", str(ROOT / ".real-programs"))
    return box, {**os.environ, "SCORPION_REAL_PROGRAMS": cache}


def test_the_set_up_installs_once_and_then_says_everything_is_in_place(tmp_path: Path) -> None:
    box, env = _sandbox(tmp_path)

    def setup() -> list[str]:
        done = subprocess.run(["bash", "tests/setup.sh"], cwd=box, capture_output=True, text=True,
                              timeout=300, env=env)
        assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
        return done.stdout.splitlines()

    installing = "setup: installing the project and its [test] extra into .venv (pip install -e '.[test]')"
    assert setup() == [installing]
    assert (tmp_path / "pip-calls").read_text().split() == ["install", "-q", "--disable-pip-version-check",
                                                           "-e", ".[test]"]
    assert setup() == ["setup: everything the tests need is in place"]
    assert len((tmp_path / "pip-calls").read_text().splitlines()) == 1
    # A change to what decides the install (here the compiled core) installs again.
    (box / "scorpion_ref" / "solver" / "_core.c").write_text("/* changed */\n", encoding="utf-8")
    assert setup()[0].startswith("setup: installing the project")


def test_without_root_a_missing_program_stops_the_set_up_with_what_to_install(tmp_path: Path) -> None:
    # `id -u` answers 1000 here, and Chromium is looked for where there is none.
    (tmp_path / "id").write_text("#!/bin/sh\necho 1000\n", encoding="utf-8")
    (tmp_path / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}",
           "SCORPION_CHROMIUM": str(tmp_path / "no-chromium")}
    done = subprocess.run(["bash", str(SETUP)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 1
    assert done.stdout == ""
    (message,) = done.stderr.splitlines()
    assert "sudo apt-get install -y chromium-headless-shell" in message, message
