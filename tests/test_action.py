"""The GitHub Action (``action.yml``) and its script (``action/conformance.sh``), run here as the
runner runs it: the inputs in the environment, the job's summary and outputs in files, the suite
from the session's installed wheel (pip finds it already there; no network), and the adapters
started from a folder outside the checkout.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "action" / "conformance.sh"
HOSTILE = ROOT / "tests" / "fake_adapters" / "hostile.py"
BROKEN = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"


def test_every_input_reaches_the_script_through_the_environment() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = action["runs"]["steps"]
    (suite,) = [step for step in steps if "run" in step]
    assert "${{" not in suite["run"], "an expression pasted into a script is a shell injection"
    assert suite["run"] == 'bash "$GITHUB_ACTION_PATH/action/conformance.sh"'
    mapped = {name: value for name, value in suite["env"].items()}
    read = set(re.findall(r"\bSC_[A-Z]+\b", SCRIPT.read_text(encoding="utf-8")))
    assert read == set(mapped), (read, set(mapped))
    # Each input but the artifact's name is one variable, and the artifact's name goes to `with:`.
    used = {re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", value).group(1) for value in mapped.values()}
    assert used | {"artifact-name"} == set(action["inputs"])
    (upload,) = [step for step in steps if "uses" in step]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert "!cancelled()" in upload["if"] and "steps.suite.outputs.report" in upload["if"]
    # Every output is one the script writes.
    written = set(re.findall(r"write_output ([a-z-]+)", SCRIPT.read_text(encoding="utf-8")))
    assert {name for name in action["outputs"]} == written


def action(installed: Path, tmp_path: Path, adapter: str, args: str = "", **env: str) -> tuple[
        subprocess.CompletedProcess[str], Path]:
    """Run the script as the runner would, in a fresh workspace; returns the result and the workspace."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (wheel,) = (installed.parent.parent / "dist").glob("scorpion_conformance-*.whl")
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    base.update({
        "SC_ADAPTER": adapter, "SC_ARGS": args, "SC_INSTALL": str(wheel), "SC_PYTHON": sys.executable,
        "SC_VENV": str(installed.parent), "SC_OUTPUT": "", "SC_LABEL": "",
        "PIP_NO_INDEX": "1", "RUNNER_TEMP": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "step_summary.md"), "GITHUB_OUTPUT": str(tmp_path / "output"),
        **env,
    })
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, cwd=workspace, env=base,
                            timeout=300)
    return result, workspace


def outputs(tmp_path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in (tmp_path / "output").read_text().splitlines())


def annotations(log: str) -> list[str]:
    return [line for line in log.splitlines() if line.startswith("::error title=scorpion-conformance::")]


def test_a_passing_run_passes_the_step_and_leaves_its_page(installed: Path, tmp_path: Path) -> None:
    result, workspace = action(installed, tmp_path, f"{installed / 'python'} -m scorpion_ref.adapter",
                               "--id 'STOCK-001' -q", SC_LABEL="my engine")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert annotations(result.stdout) == []
    found = outputs(tmp_path)
    folder = workspace / "scorpion-conformance"
    assert found["exit-code"] == "0" and found["page"] == str(folder / "page")
    badge = json.loads(Path(found["badge"]).read_text())
    assert (badge["label"], badge["message"]) == ("my engine", "5/5 passed (narrowed)")
    assert badge["color"] == "blue"
    assert "<style>" in (folder / "page" / "index.html").read_text(encoding="utf-8")
    assert (folder / "report.jsonl").is_file() and (folder / "junit.xml").is_file()
    summary = (tmp_path / "step_summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## Scorpion conformance summary")
    assert "5 results under standard, classic, wasp, pysolfc, aisleriot: 5 passed, 0 failed" in summary


def test_a_failing_run_fails_the_step(installed: Path, tmp_path: Path) -> None:
    result, _ = action(installed, tmp_path, f"{installed / 'python'} {BROKEN} cross-suit",
                       "--id PLACE-004 --rules standard -q")
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert annotations(result.stdout) == [
        "::error title=scorpion-conformance::scenarios failed or errored (or the run gave up on the "
        "adapter): they are listed in the job's summary"]
    assert outputs(tmp_path)["exit-code"] == "1"
    assert json.loads(Path(outputs(tmp_path)["badge"]).read_text())["color"] == "red"
    summary = (tmp_path / "step_summary.md").read_text(encoding="utf-8")
    assert "1 results under standard: 0 passed, 1 failed" in summary
    assert "- PLACE-004 under standard, failed: The 7♥ does not go onto the 8♠" in summary


def test_an_adapter_that_cannot_start_fails_the_step_and_says_why(installed: Path, tmp_path: Path) -> None:
    result, _ = action(installed, tmp_path, "no-such-adapter-here --flag")
    assert result.returncode == 3, result.stdout[-3000:] + result.stderr[-3000:]
    assert annotations(result.stdout) == [
        "::error title=scorpion-conformance::the adapter could not be started or greeted, so no scenario "
        "ran (exit 3): cannot run 'no-such-adapter-here': No such file or directory (is it installed, "
        "and on PATH?)"]
    assert outputs(tmp_path)["exit-code"] == "3"
    assert json.loads(Path(outputs(tmp_path)["badge"]).read_text())["message"] == "adapter unusable"
    assert "- the run: adapter unusable (cannot run" in (tmp_path / "step_summary.md").read_text()


#: What the hostile adapter puts in every field: a workflow command on a line of its own, and
#: Markdown and HTML that would make a link, a table cell and a bold word of the job's summary.
PAYLOAD = "\n::error::TAG was here\n[a link](https://evil.example/TAG) | a cell | <b>TAG</b>"


def test_what_the_adapter_says_stays_text_in_the_log_and_the_summary(installed: Path, tmp_path: Path) -> None:
    # The adapter command carries shell syntax: it is one value, given to `run --adapter` as it is.
    adapter = f"{installed / 'python'} {HOSTILE} '$(touch made-by-the-shell)' '`touch made-by-backticks`'"
    result, workspace = action(installed, tmp_path, adapter, "--id STOCK-001 --rules standard",
                               HOSTILE_TEMPLATE=PAYLOAD)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert sorted(p.name for p in workspace.iterdir()) == ["scorpion-conformance"]
    # The runner reads no workflow command between ::stop-commands::TOKEN and ::TOKEN::.
    quiet, commands, inside = None, [], []
    for line in result.stdout.splitlines():
        if quiet is None and (started := re.fullmatch(r"::stop-commands::([0-9a-f]{32})", line)):
            quiet = started.group(1)
        elif quiet is not None:
            if line == f"::{quiet}::":
                quiet = None
            else:
                inside.append(line)
        elif line.lstrip().startswith("::"):  # the runner reads a command after leading spaces too
            commands.append(line)
    assert quiet is None
    assert commands == ["::error title=scorpion-conformance::scenarios failed or errored (or the run gave "
                        "up on the adapter): they are listed in the job's summary"]
    assert any("::error::stderr was here" in line for line in inside), "the payload never came"
    summary = (tmp_path / "step_summary.md").read_text(encoding="utf-8")
    assert "hello.name" in summary and "- STOCK-001 under standard, error:" in summary
    for raw in ("[a link](", "<b>", "| a cell |", "\n::error::"):
        assert raw not in summary, raw


def test_inputs_it_cannot_use_stop_it_before_anything_is_installed(tmp_path: Path) -> None:
    def stopped(**env: str) -> str:
        given = {"SC_ADAPTER": "python3 adapter.py", "SC_INSTALL": "scorpion-conformance",
                 "SC_VENV": str(tmp_path / "never-made"), "GITHUB_OUTPUT": str(tmp_path / "output"), **env}
        result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, cwd=tmp_path,
                                env={**os.environ, "SC_PYTHON": sys.executable, **given}, timeout=60)
        assert result.returncode == 2, result
        (line,) = annotations(result.stdout)
        return line.removeprefix("::error title=scorpion-conformance::")

    assert stopped(SC_ADAPTER=" \t").startswith("the input 'adapter' is empty")
    assert stopped(SC_ARGS="-q --report=mine.jsonl") == (
        "the input 'args' gives --report=mine.jsonl, which the action sets itself (use the input 'adapter')")
    assert stopped(SC_ARGS="--id 'STOCK-001").startswith("the input 'args' cannot be split into words")
    assert stopped(SC_INSTALL="--index-url=https://elsewhere.example/simple").startswith(
        "the input 'install' is a requirement or a path, not a pip option")
    assert stopped(SC_OUTPUT="two\nlines") == "the input 'output' holds a line break"
    assert not (tmp_path / "never-made").exists()
