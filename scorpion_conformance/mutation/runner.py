"""The conformance scenarios alone, played through the protocol against one adapter
command, stopping at the first failure: the test a mutant must survive.

This is the suite's own judgement without pytest: every case of the feature
files runs under every rule set the adapter declares that its tags admit (a
case that needs a capability the adapter lacks is not run, as the suite reports
it unsupported), through :class:`~scorpion_conformance.client.AdapterClient`
and :class:`~scorpion_conformance.suite.execute.ScenarioRun`. A failed
expectation, an error answer where none belongs, or any fault of the adapter
program (a crash, a hang, an answer the schema refuses) kills the mutant.

>>> verdict = run_suite([sys.executable, "-m", "scorpion_ref.adapter"], load_cases())
>>> verdict.killed, verdict.cases > 800
(False, True)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..client import AdapterClient
from ..errors import AdapterError, AdapterTimeout, ErrorAnswer
from ..suite.execute import ScenarioFailure, ScenarioRun, UnsupportedStart
from ..suite.scenarios import Case, load_cases
from ..suite.selection import plays

__all__ = ["Verdict", "load_cases", "run_suite"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """How one run of the scenarios ended: ``killed`` by ``case`` under ``rules``
    (``timeout`` when the adapter stopped answering), or survived after ``cases`` runs."""

    killed: bool
    cases: int
    case: str | None = None
    rules: str | None = None
    timeout: bool = False
    detail: str = ""


def _play(case: Case, client: AdapterClient, rules: str) -> None:
    run = ScenarioRun(client, rules, synthetic=case.synthetic)
    try:
        for instruction in case.instructions():
            run.perform(instruction)
    except UnsupportedStart:
        return  # a synthetic start the adapter may refuse: unsupported, as the suite reports it
    client.check_in_step()
    if run.checks == 0:
        raise ScenarioFailure(f"{case.case_id} has no Then step, so it checks nothing")


def run_suite(
    command: Sequence[str],
    cases: Sequence[Case],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 3.0,
) -> Verdict:
    """Play every case under every declared rule set its tags admit; stop at the
    first failure. ``command`` starts the adapter (in ``cwd``, with ``env``)."""
    count = 0
    client = AdapterClient(list(command), timeout=timeout, env=env, cwd=cwd, max_restarts=1)
    try:
        try:
            hello = client.hello()
            declared = hello.rulesets_resolved()
        except (AdapterError, ErrorAnswer) as error:
            return Verdict(True, 0, "hello", None, isinstance(error, AdapterTimeout), _first_line(error))
        for case, rules in plays(cases, hello, declared):
            count += 1
            try:
                _play(case, client, rules)
            except (ScenarioFailure, ErrorAnswer, AdapterError) as error:
                return Verdict(True, count, case.case_id, rules, isinstance(error, AdapterTimeout),
                               _first_line(error))
    finally:
        client.close()
    return Verdict(False, count)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """The verdict as a JSON object (for the campaign's results file)."""
    return {"killed": verdict.killed, "cases": verdict.cases, "case": verdict.case,
            "rules": verdict.rules, "timeout": verdict.timeout, "detail": verdict.detail}


if __name__ == "__main__":  # pragma: no cover - a quick timing by hand
    import time

    begin = time.perf_counter()
    extra = sys.argv[1:]
    print(run_suite([sys.executable, "-m", "scorpion_ref.adapter", *extra], load_cases()),
          f"{time.perf_counter() - begin:.1f} s")
