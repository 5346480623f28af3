"""Every scenario holds under every bundle of options its tags admit.

A scenario without an option tag claims to hold under *any* combination of the
six options, not only under the five named sets; an implementer's custom
bundle relies on that claim. This test plays every case under all 64
combinations its tags admit, against the reference adapter's session in this
process (the same code as ``scorpion-ref-adapter --all-bundles``, without the
pipe), through the suite's own scenario executor.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

from scorpion_conformance.protocol import Response
from scorpion_conformance.suite.execute import ScenarioRun
from scorpion_conformance.suite.scenarios import Case, load_cases
from scorpion_ref.adapter import Session, every_bundle

BUNDLES = every_bundle()
OPTIONS = {name: rules.options for name, rules in BUNDLES.items()}


class InProcessClient:
    """The harness client's interface, answered by an adapter session in this process."""

    def __init__(self) -> None:
        self.session = Session(BUNDLES)
        self._ask({"cmd": "hello", "protocol": 1})

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer, _ = self.session.respond(json.dumps(request).encode())
        return answer

    def start(self, rules: str, position: dict[str, Any]) -> dict[str, Any]:
        answer = self._ask({"cmd": "start", "rules": rules, "position": position})
        assert answer["ok"], answer
        return dict(answer["state"])

    def legal(self) -> list[dict[str, Any]]:
        return list(self._ask({"cmd": "legal"})["actions"])

    def play(self, action: dict[str, Any]) -> Response:
        return Response("play", self._ask({"cmd": "play", "action": action}))

    def state(self) -> dict[str, Any]:
        return dict(self._ask({"cmd": "state"})["state"])

    def send(self, request: Any) -> Response:
        return Response(request.cmd, self._ask(request.to_json()))


def play(case: Case, client: InProcessClient, rules: str) -> None:
    run = ScenarioRun(client, rules)
    for instruction in case.instructions():
        if "given" in instruction:
            run.given(instruction)
        elif "do" in instruction:
            run.do(instruction)
        else:
            run.expect(instruction)


CASES = load_cases()


@pytest.mark.parametrize("feature", sorted({c.feature for c in CASES}))
def test_every_case_holds_under_every_bundle_its_tags_admit(feature: str) -> None:
    client = InProcessClient()
    failures: dict[str, list[str]] = defaultdict(list)
    runs = 0
    for case in (c for c in CASES if c.feature == feature):
        for rules in case.rulesets(OPTIONS):
            runs += 1
            try:
                play(case, client, rules)
            except AssertionError as error:
                failures[case.case_id].append(f"{rules}: {str(error).splitlines()[0]}")
    assert runs > 0
    assert not failures, "\n".join(
        f"{case_id} fails under {len(problems)} bundles, e.g. {problems[0]}"
        for case_id, problems in failures.items()
    )
