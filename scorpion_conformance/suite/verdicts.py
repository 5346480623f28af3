"""Whose verdict a finished case is: the implementation's, the adapter's or the scenario's.

Each case gets its final status from pytest's report of it. A verdict on the
rules (``failed``) comes only from a scenario's own expectation
(:class:`~.execute.ScenarioFailure`) or a refusal the scenario needed to
succeed; a fault of the adapter program is ``error`` with ``blame: adapter``
and makes the session restart the adapter; a mistake in the feature file is
the scenario's. The failure report shows what a reader needs instead of
pytest-bdd's traceback.
"""

from __future__ import annotations

import pytest

from scorpion_conformance.errors import AdapterError, ErrorAnswer, OutOfStep, RequestError

from .execute import ScenarioFailure, ScenarioRun
from .reporting import NOT_RUN, UNSUPPORTED, Record
from .session import Suite

__all__ = ["judge"]


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
