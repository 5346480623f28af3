"""Lint of the feature files: ids, names, tags, steps and catalogue coverage.

These rules keep the suite trustworthy as it grows: an id is never shared,
pytest-bdd never silently drops a scenario, every tag means something, every
step is a sentence of the step library, and every rule of the catalogue is
proven by a scenario (or, for the few rules the protocol cannot observe, by
the unit tests the catalogue names).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from pytest_bdd.gherkin_parser import get_gherkin_document

from scorpion_conformance.suite.scenarios import (
    FeatureProblem,
    duplicate_names,
    feature_files,
    load_cases,
)
from scorpion_conformance.suite.tags import CATALOGUE_TAG, NAMED_RULESETS, unknown_tags

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = yaml.safe_load((ROOT / "scorpion_ref" / "rules.yaml").read_text(encoding="utf-8"))
RULE_IDS = {entry["id"] for entry in CATALOGUE["rules"]}
CASES = load_cases()


def test_the_suite_has_scenarios() -> None:
    assert len({(c.file, c.line) for c in CASES}) >= 1


def test_every_scenario_has_an_id() -> None:
    missing = [f"{c.file}:{c.line} {c.name!r}" for c in CASES if c.id is None]
    assert not missing, "scenarios without an @id:AREA-NNN tag:\n" + "\n".join(missing)


def test_ids_are_unique() -> None:
    places: dict[str, set[str]] = defaultdict(set)
    for case in CASES:
        if case.id:
            places[case.id].add(f"{Path(case.file).name}:{case.line}")
    shared = {i: sorted(p) for i, p in places.items() if len(p) > 1}
    assert not shared, f"ids used by more than one scenario: {shared}"


def test_scenario_names_are_unique_across_files() -> None:
    assert not duplicate_names()
    places: dict[str, set[str]] = defaultdict(set)
    for case in CASES:
        places[case.name].add(f"{Path(case.file).name}:{case.line}")
    shared = {n: sorted(p) for n, p in places.items() if len(p) > 1}
    assert not shared, f"scenario names used twice: {shared}"


def test_names_never_say_should() -> None:
    offenders = [c.name for c in CASES if re.search(r"\bshould\b", c.name, re.IGNORECASE)]
    assert not offenders, f"state what happens instead of 'should': {offenders}"


def test_every_tag_is_known() -> None:
    problems = []
    for case in CASES:
        for tag in unknown_tags(case.tags):
            problems.append(f"{Path(case.file).name}:{case.line}: unknown tag @{tag}")
        for tag in case.tags:
            if CATALOGUE_TAG.match(tag) and tag not in RULE_IDS:
                problems.append(f"{Path(case.file).name}:{case.line}: @{tag} is not in rules.yaml")
    assert not problems, "\n".join(problems)


def test_examples_carry_no_tags() -> None:
    """pytest-bdd turns Examples tags into markers behind the plugin's back."""
    problems = []
    for path in feature_files():
        document = get_gherkin_document(str(path))
        stack = list(document.feature.children) if document.feature else []
        while stack:
            child = stack.pop()
            if child.rule:
                stack.extend(child.rule.children)
            elif child.scenario:
                for examples in child.scenario.examples:
                    if examples.tags:
                        problems.append(f"{path.name}:{examples.location.line}")
    assert not problems, f"tags on Examples blocks: {problems}"


def test_every_step_is_in_the_library() -> None:
    problems = []
    for case in CASES:
        try:
            case.instructions()
        except FeatureProblem as error:
            problems.append(str(error))
    assert not problems, "\n".join(problems)


def test_every_scenario_checks_something() -> None:
    idle = [f"{Path(c.file).name}:{c.line} {c.name!r}" for c in CASES
            if not any(step.type == "then" for step in c.steps)]
    assert not idle, f"scenarios without a Then step prove nothing: {idle}"


def test_every_scenario_runs_under_some_named_rule_set() -> None:
    orphans = [f"{c.case_id} {c.name!r}" for c in CASES if not c.rulesets(NAMED_RULESETS)]
    assert not orphans, f"no named rule set satisfies the tags of: {orphans}"


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
