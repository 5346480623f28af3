"""Lint of the feature files: ids, names, tags, steps and catalogue coverage.

These rules keep the suite trustworthy as it grows: an id is never shared,
pytest-bdd never silently drops a scenario, every tag means something, every
step is a sentence of the step library, and every rule of the catalogue is
proven by a scenario (or, for the few rules the protocol cannot observe, by
the unit tests the catalogue names).

The authoring checks (ids, tags, steps, tables, names, Then steps) are those of
``scorpion_conformance.suite.lint``, the one implementation that ``run``,
``export`` and the site build also run first; the tests here read its problems
by kind. The house rules of the shipped suite (names unique across files, no
"should", every catalogue rule proven) are checked here alone.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from scorpion_conformance.suite.lint import CODES, Problem, catalogue_ids, lint
from scorpion_conformance.suite.scenarios import Case, FeatureProblem, load_cases
from scorpion_conformance.suite.tags import CATALOGUE_TAG, NAMED_RULESETS

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE_FILE = next(
    path for name in ("catalogue.yaml", "rules.yaml") if (path := ROOT / "scorpion_ref" / name).exists()
)
CATALOGUE = yaml.safe_load(CATALOGUE_FILE.read_text(encoding="utf-8"))
RULE_IDS = {entry["id"] for entry in CATALOGUE["rules"]}
CASES = load_cases()
#: The authoring lint over the shipped feature files: the one implementation of these checks.
PROBLEMS = lint()


def problems(*codes: str) -> list[str]:
    """The lint's problems of these kinds, as ``file:line: message`` lines."""
    assert set(codes) <= set(CODES), f"no such problem code: {set(codes) - set(CODES)}"
    return [str(p) for p in PROBLEMS if p.code in codes]


def test_the_suite_has_scenarios() -> None:
    assert len({(c.file, c.line) for c in CASES}) >= 1


def test_every_scenario_has_an_id() -> None:
    missing = problems("no-id", "bad-id", "two-ids")
    assert not missing, "scenarios without one @id:AREA-NNN tag:\n" + "\n".join(missing)


def test_ids_are_unique() -> None:
    shared = problems("duplicate-id")
    assert not shared, "ids used by more than one scenario:\n" + "\n".join(shared)


def test_scenario_names_are_unique_across_files() -> None:
    assert not problems("duplicate-name")
    places: dict[str, set[str]] = defaultdict(set)
    for case in CASES:
        places[case.name].add(f"{Path(case.file).name}:{case.line}")
    shared = {n: sorted(p) for n, p in places.items() if len(p) > 1}
    assert not shared, f"scenario names used twice: {shared}"


def test_names_never_say_should() -> None:
    offenders = [c.name for c in CASES if re.search(r"\bshould\b", c.name, re.IGNORECASE)]
    assert not offenders, f"state what happens instead of 'should': {offenders}"


def test_every_tag_is_known() -> None:
    assert catalogue_ids() == RULE_IDS  # the lint reads the same catalogue as this test
    unknown = problems("unknown-tag", "unknown-rule")
    assert not unknown, "\n".join(unknown)


def test_examples_carry_no_tags() -> None:
    """pytest-bdd turns Examples tags into markers behind the plugin's back."""
    tagged = problems("examples-tag")
    assert not tagged, "tags on Examples blocks:\n" + "\n".join(tagged)


def test_every_step_is_in_the_library() -> None:
    unread = problems(
        "unreadable", "not-utf8", "syntax", "table", "no-scenario", "unknown-step", "notation", "unfilled"
    )
    assert not unread, "\n".join(unread)


def test_every_scenario_checks_something() -> None:
    idle = problems("no-then")
    assert not idle, "scenarios without a Then step prove nothing:\n" + "\n".join(idle)


def test_the_lint_finds_nothing_else() -> None:
    """Every problem the lint can report is one of the checks above."""
    assert all(isinstance(p, Problem) for p in PROBLEMS)
    assert not PROBLEMS, "\n".join(map(str, PROBLEMS))


#: Every (option, value) that some named rule set plays.
PLAYED = {(option, value) for values in NAMED_RULESETS.values() for option, value in values.items()}


def _of_a_value_no_named_set_plays(case: Case) -> bool:
    options, _ = case.requires()
    return any(all((option, v) not in PLAYED for v in allowed) for option, allowed in options.items())


def test_every_scenario_runs_under_some_named_rule_set() -> None:
    """A scenario whose tags no named set satisfies would never run in a plain ``run``. The one
    exception is a scenario of an option value that no named set plays (a new option, before
    a source or program that plays it has its set): it runs under ``--all-bundles``, and
    ``tests/test_scenario_tags.py`` holds it under every bundle its tags admit."""
    orphans = [f"{c.case_id} {c.name!r}" for c in CASES
               if not c.rulesets(NAMED_RULESETS) and not _of_a_value_no_named_set_plays(c)]
    assert not orphans, f"no named rule set satisfies the tags of: {orphans}"


def test_a_scenario_of_played_values_that_no_set_combines_is_an_orphan() -> None:
    both = next(c for c in CASES if {"stock-when-stuck"} <= set(c.tags))
    contradictory = dataclasses.replace(both, tags=both.tags | {"empty-any"})
    assert not contradictory.rulesets(NAMED_RULESETS)  # no named set is classic and wasp at once
    assert not _of_a_value_no_named_set_plays(contradictory)


def test_every_catalogue_rule_is_proven() -> None:
    covered = {tag for case in CASES for tag in case.tags if CATALOGUE_TAG.match(tag)}
    problems = []
    for entry in CATALOGUE["rules"]:
        if entry["id"] in covered:
            continue
        checked_by = entry.get("checked_by")
        if entry.get("untestable"):
            continue  # a note, with the reason it cannot be tested (see the next test)
        if not checked_by:
            problems.append(f"{entry['id']}: no scenario tags it and it names no checked_by tests")
            continue
        for test in checked_by:
            file_name, _, function = test.partition("::")
            path = ROOT / file_name
            if not path.exists() or f"def {function}(" not in path.read_text(encoding="utf-8"):
                problems.append(f"{entry['id']}: checked_by {test} does not exist")
    assert not problems, "\n".join(problems)


def test_untestable_entries_are_few_and_say_why() -> None:
    untestable = {e["id"]: e["untestable"] for e in CATALOGUE["rules"] if e.get("untestable")}
    assert all(isinstance(why, str) and len(why) > 20 for why in untestable.values())
    assert len(untestable) <= 5, f"too many rules nobody can check: {sorted(untestable)}"


def test_a_bad_card_is_reported_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "bad.feature").write_text(
        "Feature: bad\n"
        "  @id:MOVE-999\n"
        "  Scenario: a typo\n"
        "    Given the table\n"
        "      | 1  |\n"
        "      | 11♦ |\n"
        "    When the player moves 11♦ to column 2\n",
        encoding="utf-8",
    )
    (case,) = load_cases(tmp_path)
    with pytest.raises(FeatureProblem, match=r"bad\.feature:4: .*'11♦' is not a card"):
        case.instructions()
    found = {(p.line, p.code) for p in lint(tmp_path)}
    assert found == {(6, "notation"), (7, "notation"), (3, "no-then")}
