"""Every scenario holds under every bundle of options its tags admit.

A scenario without an option tag claims to hold under *any* combination of the
options, not only under the named sets; an implementer's custom bundle relies
on that claim. This test plays every case under every combination its tags
admit, against the reference adapter's session in this
process (the same code as ``scorpion-ref-adapter --all-bundles``, without the
pipe), through the suite's own scenario executor.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from scorpion_conformance.reference import in_process
from scorpion_conformance.suite.execute import ScenarioRun
from scorpion_conformance.suite.scenarios import Case, load_cases
from scorpion_ref import Position, Suit
from scorpion_ref.adapter import every_bundle
from scorpion_ref.reachable import cannot_arise
from scorpion_ref.serial import position_from_json

BUNDLES = every_bundle()
OPTIONS = {name: rules.options for name, rules in BUNDLES.items()}


def play(case: Case, rules: str) -> None:
    run = ScenarioRun(CLIENT, rules)
    for instruction in case.instructions():
        run.perform(instruction)


CLIENT = in_process(BUNDLES)
CASES = load_cases()


@pytest.mark.parametrize("feature", sorted({c.feature for c in CASES}))
def test_every_case_holds_under_every_bundle_its_tags_admit(feature: str) -> None:
    failures: dict[str, list[str]] = defaultdict(list)
    runs = 0
    for case in (c for c in CASES if c.feature == feature):
        for rules in case.rulesets(OPTIONS):
            runs += 1
            try:
                play(case, rules)
            except AssertionError as error:
                failures[case.case_id].append(f"{rules}: {str(error).splitlines()[0]}")
    assert runs > 0
    assert not failures, "\n".join(
        f"{case_id} fails under {len(problems)} bundles, e.g. {problems[0]}"
        for case_id, problems in failures.items()
    )


def test_a_scenario_is_tagged_synthetic_exactly_where_no_deal_leads_to_its_start() -> None:
    """The engine decides whether a start can arise from a deal; the tag carries that to the
    suite, which never imports the engine. A tag the engine cannot confirm needs the author's
    reason in the scenario's description."""
    problems = []
    for case in CASES:
        start = position_from_json(case.plan()["start"])
        why = {rules: cannot_arise(start, BUNDLES[rules]) for rules in case.rulesets(OPTIONS)}
        synthetic = sorted(rules for rules, reasons in why.items() if reasons)
        if synthetic and len(synthetic) < len(why):
            problems.append(f"{case.case_id}: synthetic under {synthetic[0]} ({why[synthetic[0]][0]}) "
                            "but not under every rule set it runs under: restrict it with option tags, "
                            "or split it")
        elif synthetic and not case.synthetic:
            problems.append(f"{case.case_id}: {why[synthetic[0]][0]}: tag it @synthetic")
        elif case.synthetic and not synthetic and not case.description.strip():
            problems.append(f"{case.case_id}: tagged @synthetic, which the engine cannot confirm: say why "
                            "no deal leads to its start in the scenario's description")
    assert not problems, "\n".join(problems)


def test_the_synthetic_check_sees_what_a_deal_never_shows() -> None:
    standard, classic = BUNDLES["standard"], BUNDLES["classic"]
    run = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"
    assert cannot_arise(Position.build([run]), standard)  # collected at once where runs leave
    assert not cannot_arise(Position.build([run]), classic)
    assert not cannot_arise(Position.build([run + " 9H"]), standard)  # a passenger keeps it there
    assert cannot_arise(Position.build(["KH", "", "", "", "2S | 9D"]), standard)  # hidden in column 5
    assert cannot_arise(Position.build(["4S 5S 6S 7S | 9D"]), standard)  # four hidden cards
    assert not cannot_arise(Position.build(["4S 5S 6S | 9D", "", "", "2C | 3D"]), standard)
    assert cannot_arise(Position.build(["KH"], collected={Suit.SPADES}), classic)
    assert not cannot_arise(Position.build(["KH"], collected={Suit.SPADES}), standard)
    assert [len(cannot_arise(Position.build(["KH"], stock=list(s)), standard)) for s in
            ([], ["2C"], ["2C", "3C"], ["2C", "3C", "4C"])] == [0, 1, 1, 0]
