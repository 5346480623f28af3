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
from scorpion_ref.adapter import every_bundle

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
