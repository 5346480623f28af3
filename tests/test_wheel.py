"""The wheel ships what the README uses: built from the checkout, installed into a
fresh venv, and every command of the README run from a folder outside the checkout.

The wheel and its venv are the ``installed`` fixture of ``tests/conftest.py``,
built once for the session; a test here checks that the package comes from
the wheel.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from programs import node

from scorpion_conformance.kit import KITS, write_kit

ROOT = Path(__file__).resolve().parent.parent


def test_the_adapter_kit_writes_the_adapters_folder(tmp_path: Path) -> None:
    for kind, kit in KITS.items():
        written = write_kit(kind, tmp_path / kind)
        for (shipped, _name), target in zip(kit.files, written, strict=True):
            assert target.read_bytes() == (ROOT / kit.source / shipped).read_bytes(), target


def sh(bin_dir: Path, cwd: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(bin_dir / "scorpion-conformance"), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=env)


def test_the_package_comes_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    found = subprocess.run([str(installed / "python"), "-c",
                            "import scorpion_conformance, scorpion_ref; "
                            "print(scorpion_conformance.__file__); print(scorpion_ref.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout.split()
    assert all(str(installed.parent) in path for path in found), found


def readme_commands() -> list[list[str]]:
    """Every ``scorpion-conformance`` command of the README's shell blocks, in order, as words."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        for line in block.splitlines():
            found = re.search(r"(?:^|&& |\.venv/bin/)(scorpion-conformance\b.*?)(?:\s+#.*)?$", line)
            if found:
                commands.append(shlex.split(found.group(1))[1:])
    return commands


def test_the_readme_shows_the_commands_this_test_runs() -> None:
    commands = [" ".join(c[:2]) for c in readme_commands()]
    for expected in ("run", "new-adapter javascript", "check-adapter --adapter", "report report.jsonl",
                     "summary report.jsonl", "deal 1", "perft --rules", "perft --file", "fuzz --adapter"):
        assert any(c.startswith(expected) for c in commands), (expected, commands)


#: The README's long campaigns, held to a small sample here (the words around them are as written).
SMALLER = {("fuzz", "--games"): "20", ("winnability", "--games"): "1-5"}


def smaller(words: list[str]) -> list[str]:
    """``words`` with the value of each option of :data:`SMALLER` replaced."""
    held = list(words)
    for i, word in enumerate(held[1:-1], start=1):
        if (held[0], word) in SMALLER:
            held[i + 1] = SMALLER[held[0], word]
    return held


def test_every_readme_command_works_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    node()
    work = tmp_path / "elsewhere"
    work.mkdir()
    commands = readme_commands()
    assert {(c[0], w) for c in commands for w in c} >= set(SMALLER), "the README no longer runs these"
    for words in map(smaller, commands):
        result = sh(installed, work, *words)
        assert result.returncode == 0, f"{words}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert (work / "junit.xml").is_file() and (work / "report.jsonl").is_file()
    assert json.loads((work / "out" / "badge.json").read_text())["color"] == "brightgreen"
    assert "<style>" in (work / "out" / "index.html").read_text(encoding="utf-8")
    assert (work / "my-adapter" / "adapter.js").is_file()


def test_the_everyday_options_work_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    def ok(*args: str) -> str:
        result = sh(installed, tmp_path, *args)
        assert result.returncode == 0, f"{args}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
        return result.stdout

    assert "suite version" in ok("--version")
    assert "Scorpion conformance summary: " in ok("run", "-qq", "-n", "2", "--area", "stock", "--id", "S*")
    assert "wrote py/adapter.py" in ok("new-adapter", "python", "py")
    assert "no problem" in ok("lint")
    assert json.loads(ok("export"))["cases"]
