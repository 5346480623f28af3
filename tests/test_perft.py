"""The perft files hold: the reference engine and an independent naive counter
agree with every count, the docs show the files' table, the files ship in the
package and are found by name, and the command counts through an adapter and
divides a mismatch down to the first differing action."""

from __future__ import annotations

import argparse
import doctest
import io
import json
import shlex
import sys
import tomllib
from pathlib import Path

import pytest

from scorpion_conformance import perft
from scorpion_conformance.perft import (
    PerftEntry,
    PerftFileError,
    format_perft_file,
    parse_perft_file,
    perft_counts,
    render_table,
)
from scorpion_ref import (
    RULESETS,
    Action,
    Deal,
    Move,
    Position,
    RuleSet,
    Status,
    apply,
    deal_game,
    get_ruleset,
    is_legal,
    status,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "scorpion_conformance" / "perft" / "data"
FILES = sorted(DATA.glob("*.perft"))
ENTRIES = [(path, entry) for path in FILES
           for entry in parse_perft_file(path.read_text(encoding="utf-8"), str(path))]
PYTHON = shlex.quote(sys.executable)
REFERENCE = f"{PYTHON} -m scorpion_ref.adapter"

#: The naive counter checks the lines up to this many leaves: it is about ten times slower, and
#: the lines up to 1,000 (a depth more, on average five in all) cost it three times as much.
NAIVE_LEAVES = 400


def ids(items: list[tuple[Path, PerftEntry]]) -> list[str]:
    return [entry.id for _, entry in items]


def naive_counts(position: Position, rules: RuleSet, depth: int) -> list[int]:
    """Perft at depths 1 to ``depth`` the long way: every face-up card to every column,
    and the deal, each kept when ``is_legal`` accepts it, then applied. It shares
    nothing with ``legal_actions``."""
    counts = [0] * depth

    def walk(node: Position, level: int) -> None:
        candidates: list[Action] = [
            Move(card, to) for column in node.columns for card in column.up
            for to in range(1, len(node.columns) + 1)
        ]
        candidates.append(Deal())
        for action in candidates:
            if is_legal(node, rules, action):
                counts[level] += 1
                if level + 1 < depth:
                    walk(apply(node, rules, action).position, level + 1)

    if depth:
        walk(position, 0)
    return counts


# -- the files -----------------------------------------------------------------------------


def test_every_named_rule_set_has_a_perft_file_with_the_agreed_entries() -> None:
    assert sorted(p.stem for p in FILES) == sorted(RULESETS)
    for path in FILES:
        entries = parse_perft_file(path.read_text(encoding="utf-8"), str(path))
        assert {e.rules for e in entries} == {path.stem}
        assert [e.game for e in entries if e.game is not None] == [1, 2, 617, 32000, 123456]
        positions = [e.id.removeprefix(f"{path.stem}-") for e in entries if e.game is None]
        assert positions == ["run-one-move", "stock-lock", "whole-column", "deal-completes-runs"]
        for entry in entries:
            assert entry.lines[0].depth == 1
            deep_enough = len(entry.lines) >= 4 or entry.lines[-1].count == 0
            assert deep_enough, f"{entry.id} stops at depth {len(entry.lines)}"
            assert any(not line.slow for line in entry.lines), entry.id


def test_the_file_of_a_new_named_set_is_made_as_the_reviewed_ones_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``perft --update`` makes the file a named rule set lacks: remove the reviewed wasp file,
    and the one made in its place is the reviewed one (counted here to a small budget, so only
    as deep: the reviewed file goes deeper with the same counts)."""
    from scorpion_conformance.perft import files

    for path in FILES:
        if path.stem != "wasp":
            (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(files, "data_dir", lambda: tmp_path)
    assert files.missing_rulesets() == ["wasp"]
    made = files.missing_file("wasp", budget=2_000)
    assert made == tmp_path / "wasp.perft"
    text, reviewed = made.read_text(encoding="utf-8"), (DATA / "wasp.perft").read_text(encoding="utf-8")
    assert files.file_header(text) == files.file_header(reviewed)
    ours, theirs = parse_perft_file(text), parse_perft_file(reviewed)
    assert [(e.id, e.rules, e.game, e.position_json, e.comments) for e in ours] == [
        (e.id, e.rules, e.game, e.position_json, e.comments) for e in theirs]
    for entry, expected in zip(ours, theirs, strict=True):
        assert len(entry.lines) >= 2 and entry.lines == expected.lines[: len(entry.lines)], entry.id
    assert files.missing_rulesets() == []


def test_the_files_ship_in_the_package_and_are_found_by_name() -> None:
    assert FILES and perft.shipped_files() == FILES
    assert perft.data_dir() == DATA
    for path in FILES:
        assert perft.find_perft_file(path.stem) == path
        assert perft.find_perft_file(path.name) == path
        assert perft.find_perft_file(str(path)) == path  # a path still works
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "scorpion_conformance.perft" in setuptools["packages"]
    shipped = [p for pattern in setuptools["package-data"]["scorpion_conformance.perft"]
               for p in sorted((ROOT / "scorpion_conformance" / "perft").glob(pattern))]
    assert shipped == FILES


def test_a_name_that_is_neither_a_path_nor_a_shipped_file_is_refused() -> None:
    with pytest.raises(PerftFileError, match=r"no perft file 'nope'.*standard"):
        perft.find_perft_file("nope")
    with pytest.raises(PerftFileError, match="no perft file"):
        perft.find_perft_file("elsewhere/standard.perft")  # a missing path is not a name


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_perft_file_reads_back_as_written(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert format_perft_file(parse_perft_file(text), perft.file_header(text)) == text


@pytest.mark.parametrize(("path", "entry"), ENTRIES, ids=ids(ENTRIES))
def test_the_reference_engine_gives_the_counts_of_the_file(path: Path, entry: PerftEntry) -> None:
    lines = entry.depths()  # the lines marked slow are left to `perft --file --slow`
    counts = perft_counts(entry.start(), entry.ruleset(), lines[-1].depth)
    assert [counts[line.depth - 1] for line in lines] == [line.count for line in lines]


@pytest.mark.parametrize(("path", "entry"), ENTRIES, ids=ids(ENTRIES))
def test_an_independent_naive_counter_gives_the_same_counts(path: Path, entry: PerftEntry) -> None:
    lines = [line for line in entry.depths() if line.count <= NAIVE_LEAVES]
    assert lines, f"{entry.id} has no line small enough for the naive counter"
    counts = naive_counts(entry.start(), entry.ruleset(), lines[-1].depth)
    assert [counts[line.depth - 1] for line in lines] == [line.count for line in lines]


def test_the_docs_show_the_table_of_the_files() -> None:
    page = (ROOT / "docs" / "perft.md").read_text(encoding="utf-8")
    assert perft.replace_table(page, render_table(FILES)) == page, (
        "docs/perft.md is out of date: run "
        "`scorpion-conformance perft --write-docs docs/perft.md`"
    )


@pytest.mark.parametrize(("text", "problem"), [
    ("rules standard\n", "starts with an id"),
    ("id a\nrules nope\ngame 1\n", "unknown rule set"),
    ("id a\nrules standard\n", "needs a game or a position"),
    ("id a\nrules standard\ngame 1\nposition {}\n", "not a position"),
    ("id a\nrules standard\ngame 1\nperft 1 6\nperft 3 9\n", "one at a time"),
    ("id a\nrules standard\ngame 1\nperft one 6\n", "perft DEPTH COUNT"),
    ("id a\nrules standard\ngame 1\n\nid a\nrules standard\ngame 2\n", "used twice"),
    ("id a\nrules standard\ngame 1\ndepth 3\n", "unknown key"),
])
def test_a_malformed_perft_file_is_refused_with_its_line(text: str, problem: str) -> None:
    with pytest.raises(PerftFileError, match=problem) as error:
        parse_perft_file(text, "x.perft")
    assert str(error.value).startswith("x.perft:")


# -- the conventions -------------------------------------------------------------------------


def test_depth_zero_counts_the_empty_sequence() -> None:
    assert perft.perft(deal_game(1), get_ruleset("standard"), 0) == 1
    assert perft_counts(deal_game(1), get_ruleset("standard"), 0) == []


def test_actions_of_a_won_position_are_counted() -> None:
    # Four runs on the table win under classic; the upper of two runs sharing a
    # column may still move into each empty column.
    rules = get_ruleset("classic")
    runs = [" ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "CDHS"]
    position = Position.build([runs[0] + " " + runs[1], runs[2], runs[3]])
    assert status(position, rules) is Status.WON
    assert perft.perft(position, rules, 1) == 4  # K♦ and its run to columns 4 to 7
    assert [perft.perft(position, rules, d) for d in (1, 2)] == naive_counts(position, rules, 2)


def test_divide_sums_to_perft_and_is_sorted() -> None:
    rows = perft.divide(deal_game(2), get_ruleset("wasp"), 3)
    assert [key for key, _ in rows] == sorted(key for key, _ in rows)
    assert sum(n for _, n in rows) == perft.perft(deal_game(2), get_ruleset("wasp"), 3)


# -- the command -------------------------------------------------------------------------------


def run_perft_command(*argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    perft.add_arguments(parser)
    out = io.StringIO()
    code = perft.main(parser.parse_args(list(argv)), out)
    return code, out.getvalue()


def test_the_command_counts_and_divides() -> None:
    code, out = run_perft_command("--rules", "standard", "--game", "1", "--depth", "3",
                                  "--divide")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "perft 3 123"
    rows = [line for line in lines if ": " in line and not line.startswith("actions")]
    assert rows == [f"{k}: {n}" for k, n in perft.divide(deal_game(1), get_ruleset("standard"), 3)]


def test_the_command_reads_a_position_file(tmp_path: Path) -> None:
    entry = next(e for _, e in ENTRIES if e.id == "pysolfc-whole-column")
    (tmp_path / "p.json").write_text(json.dumps(entry.position_json), encoding="utf-8")
    code, out = run_perft_command("--rules", "pysolfc", "--position", str(tmp_path / "p.json"),
                                  "--depth", "2")
    assert code == 0
    assert out.splitlines()[-1] == f"perft 2 {entry.lines[1].count}"


def test_the_command_checks_the_files() -> None:
    code, out = run_perft_command("--file", *map(str, FILES), "--depth", "2")
    assert code == 0
    assert f"{len(ENTRIES)} entries checked, 0 with a mismatch" in out


def test_the_command_finds_a_shipped_file_by_name() -> None:
    by_name = run_perft_command("--file", "standard", "--depth", "2")
    by_path = run_perft_command("--file", str(DATA / "standard.perft"), "--depth", "2")
    assert by_name == by_path
    assert by_name[0] == 0 and "9 entries checked, 0 with a mismatch" in by_name[1]
    assert "standard.perft: standard-game-1 (standard, game 1): ok to depth 2" in by_name[1]


def test_an_unknown_file_is_a_usage_error_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_perft_command("--file", "standard", "no-such-set", "--depth", "1")
    assert (code, out) == (2, "")  # nothing is checked before every name is found
    assert "no perft file 'no-such-set'" in capsys.readouterr().err


@pytest.mark.parametrize("undo", [True, False], ids=["undo", "restart-and-replay"])
def test_an_adapter_gives_the_reference_counts(undo: bool) -> None:
    code, out = run_perft_command("--rules", "aisleriot", "--game", "617", "--depth", "3",
                                  "--adapter", REFERENCE, "--timeout", "30",
                                  *([] if undo else ["--no-undo"]))
    assert code == 0, out
    assert "perft 3 27  (matches the reference" in out


def broken(bug: str) -> str:
    script = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"
    return f"{PYTHON} {shlex.quote(str(script))} {bug}"


def test_a_mismatch_is_divided_down_to_the_first_differing_action() -> None:
    code, out = run_perft_command(
        "--file", "standard", "--depth", "3",
        "--adapter", broken("one-collection-per-action"), "--timeout", "30",
    )
    assert code == 1, out
    assert "standard-deal-completes-runs" in out and "MISMATCH" in out
    # Every depth is checked, shallowest first, so the shortest path is found: the deal alone.
    assert "first difference after: deal\n" in out
    assert "the rules allow, the adapter does not list: KS>2" in out
    assert "the adapter's table differs there: column 2 reads K♦ Q♦" in out


def test_a_listed_but_illegal_action_shows_at_the_start() -> None:
    code, out = run_perft_command(
        "--file", "standard", "--depth", "2",
        "--adapter", broken("whole-column-listed"), "--timeout", "30",
    )
    assert code == 1
    assert "first difference after: (the start position)" in out
    assert "the adapter lists, the rules refuse: KD>3, KD>4" in out


@pytest.mark.parametrize("module", [perft, perft.count, perft.files, perft.walk, perft.cli],
                         ids=lambda m: m.__name__)
def test_the_docstring_examples_run(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried and not failures
