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
import sys
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
#: Options added to a README command that has the first word and option given: checking a perft
#: file through an adapter goes no deeper than 5 here (the lines of depth 6 cost four times all
#: the others: the README's command checks them by hand).
ADDED = {("perft", "--file"): ["--depth", "5"]}


def smaller(words: list[str]) -> list[str]:
    """``words`` with the value of each option of :data:`SMALLER` replaced, and the options of
    :data:`ADDED` added where the command does not give them."""
    held = list(words)
    for i, word in enumerate(held[1:-1], start=1):
        if (held[0], word) in SMALLER:
            held[i + 1] = SMALLER[held[0], word]
    for (first, option), more in ADDED.items():
        if held[:1] == [first] and option in held and more[0] not in held:
            held += more
    return held


def test_every_readme_command_works_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    node()
    work = tmp_path / "elsewhere"
    work.mkdir()
    commands = readme_commands()
    held = set(SMALLER) | set(ADDED)
    assert {(c[0], w) for c in commands for w in c} >= held, "the README no longer runs these"
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
    assert "Scorpion conformance summary: " in ok("run", "-qq", "-n", "2", "--area", "stock", "--id", "S*",
                                                   "--report", "stock.jsonl")
    ok("run", "-qq", "--id", "DEAL-001", "--report", "deal.jsonl")
    # Two reports side by side: one comparison page, and no badge (a badge stands for one run).
    ok("report", "stock.jsonl", "deal.jsonl", "--html", "both")
    page = (tmp_path / "both" / "index.html").read_text(encoding="utf-8")
    assert "stock.jsonl" in page and "deal.jsonl" in page and "<table" in page
    assert not (tmp_path / "both" / "badge.json").exists()
    assert "no problem" in ok("lint")
    assert json.loads(ok("export"))["cases"]


def test_the_python_kit_names_only_what_it_wrote_and_its_commands_work(installed: Path,
                                                                        tmp_path: Path) -> None:
    made = sh(installed, tmp_path, "new-adapter", "python", "my adapter")
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "my adapter"
    written = {path.name for path in folder.iterdir()}
    assert written == {"adapter.py", "README.md", "protocol.md"}
    assert made.stdout.startswith("wrote my adapter/adapter.py\nwrote my adapter/README.md\n")
    docstring = (folder / "adapter.py").read_text(encoding="utf-8").split('"""')[1]
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for text in (made.stdout, docstring, readme):
        # No path of the repository (a wheel user has none), and every file named is one it wrote,
        # or one a command of the README writes (the report and its page).
        assert not re.search(r"\b(adapters|docs|tests|scorpion_\w+)/|template_adapter", text), text
        named = set(re.findall(r"[\w-]+\.(?:py|md|js|json|jsonl|xml|html)\b", text))
        assert named <= written | {"report.jsonl", "junit.xml", "index.html", "badge.json"}, named
    steps = dict(re.findall(r"^  (\d)\. (.*)$", made.stdout, re.MULTILINE))
    assert steps["2"] == """scorpion-conformance check-adapter --adapter "python3 'my adapter/adapter.py'\""""
    assert steps["3"].startswith("scorpion-conformance run --adapter ")
    # The printed command, as a user pastes it: the bare template greets, then plays nothing.
    checked = sh(installed, tmp_path, *shlex.split(steps["2"])[1:])
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "PASS  handshake: my-scorpion" in checked.stdout
    assert "unsupported (this template has no engine yet)" in checked.stdout
    template_run_reads_as_a_user_reads_it(installed, tmp_path, "'my adapter/adapter.py'")


def template_run_reads_as_a_user_reads_it(installed: Path, cwd: Path, script: str) -> None:
    """The template as ``new-adapter`` wrote it fails every case it runs: the run says so first,
    shows five failures in full, counts the rest by reason, in the suite's words, with no pytest
    plumbing, places a user can open, and rerun lines that work from a shell that has not
    activated the environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(f for f in env.get("PATH", "").split(os.pathsep) if f != str(installed))
    env["CI"] = "true"  # where pytest would print every failure in full again, one case a line
    program = str(installed / "scorpion-conformance")
    adapter = f"{shlex.quote(sys.executable)} {script}"
    result = subprocess.run([program, "run", "-v", "--adapter", adapter, "--area", "deal,runs-stay"],
                            capture_output=True, text=True, timeout=600, cwd=cwd, env=env)
    out = result.stdout
    assert result.returncode == 1, out[-3000:] + result.stderr[-2000:]
    lines = out.splitlines()
    features = Path(next(line for line in lines if line.startswith("features: ")).split()[1])
    assert features.name == "features" and "site-packages" in str(features)
    assert (features / "deal.feature").is_file()
    assert not [line for line in lines if line.startswith(("rootdir:", "configfile:"))]
    # pytest's items explained; each case's line without the path into site-packages.
    assert re.search(r"^22 items, each one case under one rule set: 22 cases of 22 scenarios", out, re.M)
    cases = [line for line in lines if line.endswith("%]")]
    assert len(cases) == 22
    assert all(line.startswith(("deal.feature::", "runs_stay.feature::")) for line in cases)
    # One word for one thing: unsupported, with its reason, never pytest's "skipped".
    assert re.search(r"\[DEAL-011-unsupported\] UNSUPPORTED \(no declared rule set has runs=stay\)", out)
    assert "SKIPPED" not in out and "skipped" not in lines[-1] and "11 unsupported" in lines[-1]
    assert "(unsupported)" not in out and re.search(r"^no rule set +0 +0 +11 +11$", out, re.M)
    # A few lines first, five failures in full, every one counted by its reason.
    assert "Every case that ran failed: 11 of 11 (and 11 unsupported). The first 5 follow in full" \
        in " ".join(lines)
    assert out.count("\nrerun: ") == 5 and lines[-1].startswith("=") and "11 failed" in lines[-1]
    assert re.search(r"^ +11  the adapter answered unsupported to start: this template has no engine yet$",
                     out, re.M)
    # Where each failure is written, as a path that opens.
    places = re.findall(r"^DEAL-\d+ under standard: .* \((/\S+\.feature):(\d+)\)$", out, re.M)
    assert len(places) == 5 and all(Path(path).is_file() for path, _line in places)
    # The rerun lines name the program by its full path: PATH does not find it.
    reruns = [line.strip().removeprefix("rerun: ") for line in lines if " run --adapter " in line]
    assert reruns and all(line.startswith(f"{program} run ") for line in reruns), reruns[:3]
