"""Authoring errors are the author's: found before the run, named by file:line, exit 4.

Each folder of ``tests/authoring_errors/`` holds small feature files broken in
one way (``clean/`` in none). For each, the lint names the exact file, line and
problem, and ``scorpion-conformance run --features DIR`` exits 4 in a moment,
printing the same lines, without ever starting the adapter: the adapter here
is a command that leaves a marker file if it is started. The site build stops
on the same problems, and paths that cannot be written stop a run before it
starts (exit 2). A folder of feature files alone, with no binding file, runs.

The commands that stop before the run are called in this process
(``tests/in_this_process.py``), and one authoring error is also met by the
command in a process of its own, Python's start-up included.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from in_this_process import command
from machine import allowing_for_load
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from scorpion_conformance.site import mkdocs_hooks
from scorpion_conformance.site.catalogue import load_catalogue
from scorpion_conformance.suite.lint import Problem, lint

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = HERE / "authoring_errors"
REFERENCE = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"
#: Seconds an authoring error may take to be reported, start-up of Python included, on an idle
#: machine; a loaded one is allowed its slower start-ups (:func:`machine.allowing_for_load`).
QUICK = 5.0

CARD_RANK = "is not a card: the rank must be one of A 2-10 J Q K"
SAME_SCENARIO = "a card moves onto the next higher card of its suit"

#: Folder → the problems the lint reports: (file, line, code, message).
EXPECTED: dict[str, list[tuple[str, int, str, str]]] = {
    "misspelt_step": [(
        "moves.feature", 9, "unknown-step",
        "unknown When step 'the player drags 7♥ onto column 2'; closest known: "
        "'When the player moves {card} to column {column}', 'When the player deals the stock', "
        "'When the player plays {actions}'",
    )],
    "wrong_keyword": [(
        "keyword.feature", 10, "unknown-step",
        "unknown Then step 'the player moves 8♥ to column 1'; it is a When step, not a Then step",
    )],
    "bad_card_in_table": [
        ("table.feature", 9, "notation", f"table row 3, column 2: '11♦' {CARD_RANK}"),
    ],
    "bad_card_in_sentence": [
        ("sentence.feature", 9, "notation", f"in the step 'the player moves 7 to column 2': '7' {CARD_RANK}"),
    ],
    "bad_example_row": [
        ("outline.feature", 15, "notation",
         f"the step at line 10, filled from this example row: '7' {CARD_RANK}"),
        ("outline.feature", 15, "notation",
         f"the step at line 6, filled from this example row: table row 2, column 1: '7' {CARD_RANK}"),
        ("outline.feature", 15, "notation",
         f"the step at line 9, filled from this example row: '7' {CARD_RANK}"),
    ],
    "malformed_table": [(
        "table.feature", 8, "table",
        "malformed table: this row has a different number of cells from the rows above",
    )],
    "unclosed_table_row": [
        ("table.feature", 8, "table", "malformed table: the row does not end with |"),
        ("table.feature", 8, "table",
         "malformed table: this row has a different number of cells from the rows above"),
    ],
    "syntax_error": [(
        "syntax.feature", 10, "syntax",
        "syntax error: cannot read 'the seven lands on the eight' here; expected one of: the end of "
        "the file, a table row, a doc string, a step, a tag, Examples:, Scenario:, Rule:",
    )],
    "misspelt_tag": [
        ("tag.feature", 4, "unknown-tag", "unknown tag @runs-colect; did you mean @runs-collect?"),
    ],
    "unknown_rule": [(
        "rule.feature", 4, "unknown-rule",
        "@R-EMPTY-KING-ONL is not a rule of the catalogue; did you mean @R-EMPTY-KING-ONLY?",
    )],
    "duplicate_id": [
        ("b_second.feature", 13, "duplicate-id", "@id:MOVE-905 is already used at a_first.feature:5"),
    ],
    "missing_id": [
        ("noid.feature", 4, "no-id", f"scenario {SAME_SCENARIO!r} has no @id:AREA-NNN tag"),
    ],
    "duplicate_name": [
        ("names.feature", 13, "duplicate-name", f"scenario name {SAME_SCENARIO!r} already used at line 5"),
    ],
    "missing_then": [(
        "idle.feature", 5, "no-then",
        f"scenario {SAME_SCENARIO!r} has no Then step, so it checks nothing",
    )],
    "non_utf8": [(
        "latin1.feature", 5, "not-utf8",
        "not UTF-8: byte 0xe9 at offset 144 cannot be read; save the file as UTF-8",
    )],
    "control_character": [(
        "title.feature", 5, "control-character",
        "a control character (\\x1b) in the text; a terminal would act on it instead of showing it:"
        " remove it",
    )],
}
KINDS = sorted(EXPECTED)


def expected(kind: str) -> list[Problem]:
    folder = FIXTURES / kind
    return sorted(
        Problem(str(folder / name), line, message, code) for name, line, code, message in EXPECTED[kind]
    )


def marker_adapter(marker: Path) -> str:
    """An adapter command that leaves ``marker`` behind if it is ever started."""
    return shlex.join([sys.executable, "-c", "import pathlib, sys; pathlib.Path(sys.argv[1]).touch()",
                       str(marker)])


def scenario_records(report: Path) -> list[dict[str, Any]]:
    """The records of a JSON-lines report that are about a case (not the final record of the run)."""
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    return [r for r in records if "status" in r]


def cli(*args: str, cwd: Path) -> tuple[int, str, str, float]:
    """The command in a subprocess: its exit status, its output and its time."""
    began = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )
    return result.returncode, result.stdout, result.stderr, time.monotonic() - began


def here(*args: str, cwd: Path) -> tuple[int, str, str, float]:
    """The command called in this process, as :func:`cli` gives it."""
    said = command(*args, cwd=cwd)
    return said.returncode, said.stdout, said.stderr, said.seconds


def test_every_kind_of_error_has_a_fixture_folder() -> None:
    folders = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert folders == {*EXPECTED, "clean"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_lint_names_the_file_the_line_and_the_problem(kind: str) -> None:
    assert lint(FIXTURES / kind) == expected(kind)


@pytest.mark.parametrize(("kind", "way"), [(kind, here) for kind in KINDS] + [("misspelt_step", cli)],
                         ids=[*KINDS, "misspelt_step-in-a-process"])
def test_run_exits_4_before_the_adapter_starts(kind: str, way: Any, tmp_path: Path) -> None:
    marker = tmp_path / "adapter-started"
    report = tmp_path / "report.jsonl"
    code, out, err, seconds = way(
        "run", "--features", str(FIXTURES / kind), "--adapter", marker_adapter(marker),
        "--report", str(report), cwd=tmp_path,
    )
    assert code == 4, out + err
    lines = err.splitlines()
    assert lines[:-1] == [str(p) for p in expected(kind)], err
    assert "no adapter was started" in lines[-1]
    assert not marker.exists(), "the adapter was started"
    assert not report.exists()
    assert "Traceback" not in out + err
    assert seconds < allowing_for_load(QUICK), f"took {seconds:.1f} s"


@pytest.mark.parametrize("kind", ["misspelt_step", "duplicate_id", "non_utf8"])
def test_export_and_lint_exit_4_with_the_same_lines(kind: str, tmp_path: Path) -> None:
    output = tmp_path / "cases.json"
    output.write_text("the user's file\n", encoding="utf-8")
    for name in (["export", "-o", str(output)], ["lint"]):
        code, out, err, seconds = here(*name, "--features", str(FIXTURES / kind), cwd=tmp_path)
        assert code == 4, out + err
        assert err.splitlines()[:-1] == [str(p) for p in expected(kind)]
        assert seconds < allowing_for_load(QUICK), f"{name[0]} took {seconds:.1f} s"
    assert output.read_text(encoding="utf-8") == "the user's file\n"


def test_odd_files_are_problems_too_never_a_traceback(tmp_path: Path) -> None:
    files = {
        "and.feature": "Feature: x\n  @id:MOVE-950\n  Scenario: s\n    And the table\n"
                       "      | 1 |\n      | K♥ |\n    Then column 1 reads K♥\n",
        "empty.feature": "",
        "feature_id.feature": "@id:MOVE-954\nFeature: x\n  Scenario: s\n    Then column 1 is empty\n"
                              "  Scenario: t\n    Then column 2 is empty\n",
        "no_rows.feature": "Feature: x\n  @id:MOVE-953\n  Scenario Outline: s <a>\n"
                           "    Then column <a> is empty\n    Examples:\n      | a |\n",
        "no_table.feature": "Feature: x\n  @id:MOVE-955\n  Scenario: s\n    Given an empty table\n"
                            "      | 1 |\n    Then column 1 is empty\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "folder.feature").mkdir()
    found = [(Path(p.path).name, p.line, p.code) for p in lint(tmp_path)]
    assert found == [
        ("and.feature", 4, "syntax"),
        ("empty.feature", 1, "no-scenario"),
        ("feature_id.feature", 5, "duplicate-id"),
        ("folder.feature", 1, "unreadable"),
        ("no_rows.feature", 4, "unfilled"),
        ("no_table.feature", 4, "table"),
    ]


def test_the_site_build_stops_on_authoring_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[object] = []
    monkeypatch.setattr(mkdocs_hooks, "lint", lambda: lint(FIXTURES / "misspelt_tag"))
    monkeypatch.setattr(mkdocs_hooks.report, "run_all", lambda *a, **k: started.append(a) or [])
    monkeypatch.setattr(mkdocs_hooks.state, "catalogue", load_catalogue())
    with pytest.raises(PluginError) as error:
        mkdocs_hooks.on_files(Files([]), None)  # type: ignore[arg-type]
    assert str(error.value).splitlines()[1:] == [str(p) for p in expected("misspelt_tag")]
    assert not started, "the suite was run against the adapters"


# -- the clean folder: lints clean, runs without a binding file -----------------------------


def test_the_shipped_features_lint_clean(tmp_path: Path) -> None:
    assert lint() == []
    code, out, err, _ = cli("lint", cwd=tmp_path)
    assert code == 0, out + err
    assert "no problem" in out


def test_the_marker_adapter_leaves_its_marker_when_started(tmp_path: Path) -> None:
    """The control for the tests above: a clean folder does start the adapter."""
    marker = tmp_path / "adapter-started"
    code, out, err, _ = cli("run", "--features", str(FIXTURES / "clean"), "--adapter",
                            marker_adapter(marker), cwd=tmp_path)
    assert code != 0 and code != 4, out + err
    assert marker.exists()


def test_run_features_needs_no_binding_file(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    folder.mkdir()
    shutil.copy(FIXTURES / "clean" / "moves.feature", folder)
    shutil.copy(ROOT / "features" / "undo.feature", folder)
    assert not list(folder.glob("*.py"))
    report = tmp_path / "report.jsonl"
    code, out, err, _ = cli("run", "-q", "--features", "features", "--adapter", REFERENCE,
                            "--report", str(report), cwd=tmp_path)
    assert code == 0, out[-3000:] + err[-2000:]
    records = scenario_records(report)
    assert {r["status"] for r in records} <= {"passed", "unsupported"}
    assert any(r["id"] == "MOVE-915" and r["status"] == "passed" for r in records)
    assert any(r["id"].startswith("UNDO-") for r in records)
    assert {r["nodeid"].split("::")[0] for r in records} == {"moves.feature", "undo.feature"}


def test_a_rerun_line_names_the_features_folder(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (FIXTURES / "clean" / "moves.feature").read_text(encoding="utf-8")
    (folder / "moves.feature").write_text(text.replace("reads 8♥ 7♥", "reads 8♥"), encoding="utf-8")
    report = tmp_path / "report.jsonl"
    code, out, err, _ = cli("run", "-q", "--features", "mine", "--rules", "standard", "--adapter",
                            REFERENCE, "--report", str(report), cwd=tmp_path)
    assert code == 1, out[-3000:] + err[-2000:]
    (record,) = scenario_records(report)
    rerun = f'scorpion-conformance run --adapter "{REFERENCE}" --features mine ' \
            "--rules standard --id MOVE-915"
    assert record["status"] == "failed" and record["rerun"] == rerun
    assert rerun in out


def test_a_folder_with_its_own_binding_still_runs_under_plain_pytest(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    folder.mkdir()
    shutil.copy(FIXTURES / "clean" / "moves.feature", folder)
    shutil.copy(ROOT / "features" / "test_scenarios.py", folder)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(folder), "-q", "-p", "no:cacheprovider",
         "--adapter", REFERENCE, "--rules", "standard"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "1 passed" in result.stdout


# -- paths that cannot be written stop the run before it starts ------------------------------


@pytest.mark.parametrize("option", ["--report", "--junitxml", "--cucumberjson", "--write-expectations"])
def test_a_report_in_a_missing_folder_is_a_usage_error(option: str, tmp_path: Path) -> None:
    marker = tmp_path / "adapter-started"
    target = tmp_path / "no-such-folder" / "out.file"
    code, out, err, seconds = here("run", "--features", str(FIXTURES / "clean"), "--adapter",
                                   marker_adapter(marker), option, str(target), cwd=tmp_path)
    assert code == 2, out + err
    assert err == f"scorpion-conformance run: {option} {target}: the folder {target.parent} does not exist\n"
    assert not marker.exists()
    assert seconds < allowing_for_load(QUICK)


def test_a_missing_features_folder_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err, _ = here("run", "--features", "nowhere", cwd=tmp_path)
    assert (code, err) == (2, "scorpion-conformance run: --features nowhere: no such folder or file\n")
    (tmp_path / "empty").mkdir()
    code, _, err, _ = here("lint", "--features", "empty", cwd=tmp_path)
    assert (code, err) == (2, "scorpion-conformance lint: --features empty: no .feature file in it\n")
    (tmp_path / "notes.txt").write_text("Feature: not one\n", encoding="utf-8")
    code, _, err, _ = here("lint", "--features", "notes.txt", cwd=tmp_path)
    assert (code, err) == (2, "scorpion-conformance lint: --features notes.txt: is neither a folder nor a "
                              ".feature file\n")


def test_export_to_a_missing_folder_or_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    code, out, err, _ = cli("export", "-o", "gone/cases.json", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == "scorpion-conformance export: -o gone/cases.json: the folder gone does not exist\n"
    code, out, err, _ = cli("export", "-o", str(tmp_path), cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == f"scorpion-conformance export: -o {tmp_path}: is a folder; name a file to write\n"


def test_export_replaces_its_file_in_one_rename(tmp_path: Path) -> None:
    output = tmp_path / "cases.json"
    output.write_text("old\n", encoding="utf-8")
    code, _, err, _ = here("export", "--features", str(FIXTURES / "clean"), "-o", "cases.json", cwd=tmp_path)
    assert code == 0, err
    document = json.loads(output.read_text(encoding="utf-8"))
    assert [c["id"] for c in document["cases"]] == ["MOVE-915"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.json"]  # no temporary file left
