"""The fuzzer's survey mode: it plays past every difference, groups the differences by
kind, shrinks one of each, and fails only on a difference its known-divergences file
does not list."""

from __future__ import annotations

import argparse
import io
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance import fuzz
from scorpion_conformance.fuzz.compare import Difference
from scorpion_conformance.fuzz.survey import KINDS, Known, KnownError, load_known, survey_kind

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
TWO_BUGS = (f"{PYTHON} {shlex.quote(str(ROOT / 'tests' / 'broken_adapters' / 'broken_adapter.py'))}"
            " cross-suit-and-crash")
GAMES = 60  # measured: seed 0 shows both bugs within the first 3 games, each more than 10 times
#: Games enough for the tests of a known-divergences file, which read which groups are listed:
#: seed 0 shows the crash 3 times and the refusal once in its first 5 games.
LISTED_GAMES = 5

#: What the two bugs of ``cross-suit-and-crash`` look like in a survey.
CRASH = {"kind": "fault", "match": "exited with status 3", "cause": "crash_on_nine_of_diamonds",
         "scenarios": ["MOVE-001"]}
CROSS = {"kind": "refusal", "match": "accepted .* which the rules refuse \\(not-same-suit",
         "cause": "cross_suit", "scenarios": ["PLACE-001"]}
NEVER = {"kind": "undo", "match": "undid an action at the start", "cause": "nothing plants it"}


def survey(*argv: str, known: list[dict[str, Any]] | None = None, tmp: Path | None = None,
           adapter: str = TWO_BUGS, games: int = LISTED_GAMES) -> tuple[int, str, str]:
    """Run ``fuzz --survey`` in this process; returns the exit code, stdout and stderr.

    Shrinking ends when nothing smaller fails; its time cap is only there for a hang, so
    a loaded machine shrinks as far as an idle one.
    """
    args = ["--adapter", adapter, "--rules", "standard", "--games", str(games), "--seed", "0",
            "--survey", "--shrink-seconds", "600", "--timeout", "30", "--no-progress", *argv]
    if known is not None:
        assert tmp is not None
        path = tmp / "divergences.json"
        path.write_text(json.dumps({"divergences": known}), encoding="utf-8")
        args += ["--known", str(path)]
    parser = argparse.ArgumentParser()
    fuzz.add_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        code = fuzz.main(parser.parse_args(args), out)
    finally:
        sys.stderr = stderr
    return code, out.getvalue(), err.getvalue()


def table(output: str) -> dict[str, tuple[int, str]]:
    """The survey table's rows: kind → (count, listed or NEW)."""
    rows = {}
    for line in output.splitlines():
        found = re.match(r"  (\w+(?: \(\w+\))?)\s+([\d,]+)\s+#\d+\s+(listed|NEW)\s", line)
        if found:
            rows[found[1]] = (int(found[2].replace(",", "")), found[3])
    return rows


@pytest.fixture(scope="module")
def unlisted() -> tuple[int, str, str]:
    """The two-bug adapter surveyed with no known-divergences file, over all :data:`GAMES`."""
    return survey(games=GAMES)


def test_the_survey_finds_both_bugs_as_two_kinds(unlisted: tuple[int, str, str]) -> None:
    code, out, _ = unlisted
    rows = table(out)
    assert code == 1, out
    assert set(rows) == {"fault (AdapterCrashed)", "refusal"}, out
    assert all(listed == "NEW" for _, listed in rows.values()), out
    assert "NEW: 2 groups of differences not listed (fault (AdapterCrashed), refusal)" in out


def test_the_survey_plays_every_game_past_each_difference_and_crash(
    unlisted: tuple[int, str, str],
) -> None:
    _, out, _ = unlisted
    assert out.startswith(f"{GAMES} games, "), out.splitlines()[0]
    assert table(out)["fault (AdapterCrashed)"][0] > 1, "the adapter was not restarted after its crash"
    assert table(out)["refusal"][0] > 1, out


def test_one_shrunk_reproducer_per_group(unlisted: tuple[int, str, str]) -> None:
    _, out, _ = unlisted
    assert out.count("DIFFERENCE (") == 2, out
    assert len(re.findall(r"reproduce with: (?:/\S+/)?scorpion-conformance fuzz ", out)) == 2, out
    shrunk = re.findall(r"to (\d+) steps and (\d+) cards", out)
    assert len(shrunk) == 2 and all(int(cards) <= 4 for _, cards in shrunk), shrunk
    assert "9D>" in out, "the crash's reproducer does not move 9♦"
    crash_row = next(line for line in out.splitlines() if line.startswith("  fault (AdapterCrashed)"))
    assert "exited with status 3 instead of answering" in crash_row, crash_row


def test_listed_divergences_pass_and_say_which_scenario_catches_them(tmp_path: Path) -> None:
    code, out, _ = survey(known=[CRASH, CROSS], tmp=tmp_path)
    assert code == 0, out
    assert all(listed == "listed" for _, listed in table(out).values()), out
    assert "no new divergence: every difference is listed in" in out
    assert re.search(r"listed fault /exited with status 3/ \(caught by MOVE-001\): seen \d+ times", out)
    assert "DIFFERENCE (" not in out, "a listed divergence is reported in full"


def test_only_the_unlisted_bug_fails_the_run(tmp_path: Path) -> None:
    code, out, _ = survey(known=[CROSS], tmp=tmp_path)
    assert code == 1, out
    assert {kind: listed for kind, (_, listed) in table(out).items()} == {
        "fault (AdapterCrashed)": "NEW", "refusal": "listed"}, out
    assert "NEW: 1 group of differences not listed in" in out and "(fault (AdapterCrashed))" in out


def test_a_listed_divergence_never_seen_is_reported_not_failed(tmp_path: Path) -> None:
    code, out, _ = survey(known=[CRASH, CROSS, NEVER], tmp=tmp_path)
    assert code == 0, out
    assert ("listed undo /undid an action at the start/ (no scenario catches it: the fuzzer alone "
            "does): not seen in this survey") in out


def test_a_listed_scenario_missing_from_the_features_is_named(tmp_path: Path) -> None:
    code, out, _ = survey(known=[CRASH, {**CROSS, "scenarios": ["PLACE-999"]}], tmp=tmp_path)
    assert code == 0, out
    assert "(no scenario catches it: the fuzzer alone does; PLACE-999 not in the feature files)" in out


def test_the_reference_adapter_surveys_clean() -> None:
    code, out, _ = survey(adapter=f"{PYTHON} -m scorpion_ref.adapter", games=30)
    assert code == 0, out
    assert "survey: 0 of 30 games ended on a difference" in out and out.rstrip().endswith("no difference")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("not json", "cannot read the known-divergences file"),
        ('{"known_failures": {}}', 'a JSON object with "divergences"'),
        ('{"divergences": [{"kind": "legal", "match": "x"}]}', 'divergence 1 has no "cause"'),
        ('{"divergences": [{"kind": "colour", "match": "x", "cause": "y"}]}', "unknown kind 'colour'"),
        ('{"divergences": [{"kind": "legal", "match": "(", "cause": "y"}]}', "is not a regular expression"),
        ('{"divergences": [{"kind": "legal", "match": "x", "cause": "y", "scenarios": "A-1"}]}',
         '"scenarios" is a list of scenario ids'),
    ],
)
def test_a_bad_known_file_is_a_usage_error_before_the_adapter_starts(
    tmp_path: Path, content: str, problem: str,
) -> None:
    path = tmp_path / "known.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(KnownError, match=re.escape(problem)):
        load_known(path)
    code, out, err = survey("--known", str(path), adapter="/nonexistent/adapter")
    assert code == 2 and problem in err and str(path) in err, err
    assert out == ""


def test_known_needs_survey_and_survey_emits_no_scenario(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    fuzz.add_arguments(parser)
    err = io.StringIO()
    stderr, sys.stderr = sys.stderr, err
    try:
        plain = fuzz.main(parser.parse_args(["--rules", "standard", "--known", "k.json"]), io.StringIO())
        emitting = fuzz.main(parser.parse_args(["--rules", "standard", "--survey", "--emit-scenario",
                                                str(tmp_path / "x.feature")]), io.StringIO())
    finally:
        sys.stderr = stderr
    assert plain == emitting == 2
    assert err.getvalue().count("--known goes with --survey, --emit-scenario without it") == 2


@pytest.mark.parametrize(
    ("kind", "message", "expected"),
    [
        ("legal", "the rules allow, the adapter does not list: deal", "legal"),
        ("state", "after deal, column 1 reads 5♥; the rules give 5♥ 2♣; the status is won; the rules "
                  "give playing", "state"),
        ("start", "after start, the status is won; the rules give playing", "status"),
        ("start", "the adapter refused the start position: invalid-position: no", "start"),
        ("undo", "after undo, the stock holds nothing; the rules give 2♣", "undo"),
        ("undo", "after undo, the status is lost; the rules give playing", "status"),
        ("unchanged", "a refused play changed the table: column 2 reads (empty); the rules give 9♦",
         "state"),
        ("accepted", "the adapter accepted deal, which the rules refuse (stock-empty: none)", "refusal"),
        ("refused", "the adapter refused deal, which the rules allow: illegal-action", "refusal"),
        ("reason", "9♦ to column 1 was refused as destination-is-source; the rules refuse it as "
                   "card-face-down", "reason"),
        ("fault", "The adapter did not answer in time.", "fault"),
    ],
)
def test_each_fuzzer_difference_has_a_survey_kind(kind: str, message: str, expected: str) -> None:
    assert survey_kind(Difference(kind, 0, "play", message)) == expected
    assert expected in KINDS


def test_a_known_divergence_matches_its_kind_and_message_only() -> None:
    known = Known("status", "the status is won", "is_won")
    assert known.matches(Difference("start", -1, "start",
                                    "after start, the status is won; the rules give playing"))
    assert not known.matches(Difference("state", 2, "play", "after deal, the stock holds 2♣; the status is "
                                        "won; the rules give playing"))
    assert not known.matches(Difference("start", -1, "start", "after start, the status is lost; the rules "
                                        "give playing"))


def test_the_real_programs_known_divergences_load() -> None:
    for name in ("aisleriot", "soliterm"):
        known = load_known(ROOT / "adapters" / name / "divergences.json")
        assert known and all(k.scenarios for k in known), name


def test_the_docstring_examples_run() -> None:
    import doctest

    from scorpion_conformance.fuzz import survey as module

    assert doctest.testmod(module).failed == 0


def test_the_generator_survives_a_full_deck_under_the_stacked_runs_template() -> None:
    """Game 1667 of seed 2026 once crashed the position generator (stacked-runs wanted stock
    cards from an empty deck); the first survey of 2,000 games per real program hit it."""
    import random

    from scorpion_conformance.fuzz.play import FuzzOptions
    from scorpion_conformance.fuzz.positions import _game_start
    from scorpion_ref import RULESETS

    origin, start, _ = _game_start(random.Random("2026:1667"), RULESETS["aisleriot"],
                                   FuzzOptions(seed=2026), "both")
    assert "stacked-runs" in origin
    assert len(list(start.cards())) == 52
