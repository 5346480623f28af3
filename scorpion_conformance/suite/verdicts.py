"""Whose verdict a finished case is: the implementation's, the adapter's or the scenario's.

Each case gets its final status from pytest's report of it. A verdict on the
rules (``failed``) comes only from a scenario's own expectation
(:class:`~.execute.ScenarioFailure`) or a refusal the scenario needed to
succeed; a fault of the adapter program is ``error`` with ``blame: adapter``
and makes the session restart the adapter; a mistake in the feature file is
the scenario's. The failure report shows what a reader needs instead of
pytest-bdd's traceback. A case closes with proof that the conversation
stayed in step (:func:`close_case`), and one that checked nothing fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.errors import AdapterError, ErrorAnswer, OutOfStep, RequestError

from . import parallel
from .execute import ScenarioFailure, ScenarioRun
from .reporting import NOT_RUN, UNSUPPORTED, Record, record_for
from .selection import item_case
from .session import Suite, suite_of

__all__ = ["RUN", "STEP_FAILED", "close_case", "judge", "judge_phase"]

#: Where a scenario item keeps its run, and whether one of its steps failed.
RUN = pytest.StashKey[ScenarioRun]()
STEP_FAILED = pytest.StashKey[bool]()


def close_case(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    """Close a case with proof that the conversation stayed in step.

    An answer out of step turns whatever the steps concluded into the
    adapter's fault; a scenario that reached its end without a single Then
    step proved nothing. Nothing is asked of an interrupted run.
    """
    suite = suite_of(request.config)
    callspec = getattr(request.node, "callspec", None)
    if suite is None or suite.interrupted is not None or suite.gave_up is not None or callspec is None:
        return
    if "scorpion_rules" not in callspec.params:
        return  # not one of the suite's scenarios
    run = request.node.stash.get(RUN, None)
    if run is not None:
        run.client.check_in_step()
    checks = run.checks if run is not None else 0
    unsupported = getattr(run, "unsupported", None) is not None  # a start it may refuse: nothing to check
    if checks == 0 and not unsupported and not request.node.stash.get(STEP_FAILED, False):
        pytest.fail(
            f"{Path(feature.filename).name}:{scenario.line_number}: the scenario {scenario.name!r} "
            "has no Then step, so it checks nothing",
            pytrace=False,
        )


def judge_phase(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """Record what one phase of a scenario item says: its record made on first sight, then its
    verdict, unless an interrupt cut the case short (such a case has no verdict)."""
    template, case, rules = item_case(item)
    suite = suite_of(item.config)
    if template is None or suite is None:
        return
    record = suite.records.get(item.nodeid)
    if record is None:
        record = record_for(item.nodeid, template, case, rules, suite.command,
                            item.config.getoption("scorpion_features"))
        record.extra.update({"synthetic": True} if getattr(case, "synthetic", False) else {})
        suite.records[item.nodeid] = record
    if suite.interrupted is not None:
        setattr(report, parallel.AREA, record.area_id)
        return
    error = call.excinfo.value if call.excinfo is not None else None
    verdict = (record.status, record.message)
    judge(suite, record, report, error, item.stash.get(RUN, None))
    parallel.attach(report, record, worker=parallel.is_worker(item.config),
                    changed=(record.status, record.message) != verdict)


def judge(suite: Suite, record: Record, report: pytest.TestReport, error: BaseException | None,
          run: ScenarioRun | None) -> None:
    """Give the record its final status from one phase's report (``error``: what it raised)."""
    if report.skipped and hasattr(report, "wasxfail"):
        record.status, record.message = "xfailed", str(report.wasxfail)
    elif report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        record.status = NOT_RUN if reason.startswith("not run") else (
            UNSUPPORTED if reason.startswith(UNSUPPORTED) else "skipped")
        record.message = reason
    elif report.failed and "[XPASS(strict)]" in str(report.longrepr):
        record.status = "xpassed"
        entry = suite.expectations.entry(record.id, record.rules) or record.key
        record.extra["entry"] = entry
        record.message = f"known failure now passes: remove the entry {entry!r} from the expectations file"
        report.longrepr = f"{record.key}: {record.name} ({record.source})\n{record.message}"
    elif report.failed:
        _judge_failure(suite, record, report, error, run)
    elif report.when == "call" and report.passed:
        record.status = "passed"


def _judge_failure(suite: Suite, record: Record, report: pytest.TestReport, error: BaseException | None,
                   run: ScenarioRun | None) -> None:
    record.context = run.describe() if run is not None else ""
    record.message = str(error) if error is not None else report.longreprtext
    if isinstance(error, AdapterError):
        record.status, record.extra["blame"] = "error", "adapter"
        record.stderr_tail = error.stderr_tail or ""
        suite.faulted = True  # restart before the next case
        if isinstance(error, OutOfStep):
            suite.out_of_step(error)
    elif isinstance(error, (ScenarioFailure, ErrorAnswer)):
        record.status, record.extra["blame"] = "failed", "implementation"
        if isinstance(error, ScenarioFailure):
            record.expected, record.actual = error.expected, error.actual
    elif isinstance(error, RequestError):
        record.status, record.extra["blame"] = "error", "scenario"
        record.message = f"the scenario asks for a request the protocol does not allow: {error}"
    elif isinstance(error, pytest.fail.Exception):
        record.status, record.extra["blame"] = "failed", "scenario"  # it checks nothing
    elif isinstance(error, AssertionError) or (report.when == "call" and error is None):
        record.status, record.extra["blame"] = "failed", "implementation"
    else:
        record.status, record.extra["blame"] = "error", "harness"
    if error is not None:
        # What a reader needs, instead of pytest-bdd's traceback.
        report.longrepr = (
            f"{record.id} under {record.rules}: {record.name} ({record.source})\n{record.message}\n\n"
            f"{record.context}\n\nrerun: {record.rerun}"
        )
