"""Parallel runs (``run -n N``, pytest-xdist): one adapter per worker, one set of reports.

Each worker is a pytest session of its own, with its own
:class:`~.session.Suite` and its own adapter, started and shaken hands with
before its first case. A worker judges its cases and sends each finished
record to the controller on the case's test report (the attribute
:data:`RECORD`); a case an interrupt cut short carries none, so it is never
recorded. The controller, which runs no case, shakes hands once for the
report's facts and a clear diagnosis of a broken adapter, merges the
workers' records, hears which worker gave up on its adapter, and writes the
JSON report, the expectations file and the summary once, with the cases in
collection order: a run with ``-n 2`` writes what a run without it writes.

>>> is_worker(object()), is_controller(object())
(False, False)
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .reporting import Record
from .session import Suite

__all__ = ["AREA", "BDD", "RECORD", "Controller", "attach", "is_controller", "is_worker", "stop_workers",
           "worker_facts"]

#: The attribute of a test report that carries a worker's finished record, as JSON text.
RECORD = "scorpion_record"
#: The attribute that carries the case's rule area (for JUnit's classname).
AREA = "scorpion_area"
#: The attribute that carries pytest-bdd's account of the scenario, from a worker.
BDD = "scorpion_bdd"
#: The key of a worker's facts in xdist's ``workeroutput``.
_FACTS = "scorpion"


def is_worker(config: object) -> bool:
    """Whether this pytest session is a worker of a parallel run."""
    return hasattr(config, "workerinput")


def is_controller(config: object) -> bool:
    """Whether this session hands its cases to workers (``-n`` with pytest-xdist)."""
    if not isinstance(config, pytest.Config) or is_worker(config):
        return False
    return bool(config.pluginmanager.has_plugin("dsession"))


def attach(report: pytest.TestReport, record: Record, *, worker: bool, changed: bool) -> None:
    """Put the case's area on its test report and, in a worker, what the controller needs.

    A worker sends the record when this phase gave it its verdict (``changed``),
    and, with the report of the call, pytest-bdd's account of the scenario,
    which pytest-bdd keeps beside the report (and so in the worker only): the
    controller's Cucumber JSON is written from it.
    """
    setattr(report, AREA, record.area_id)
    if not worker:
        return
    if record.final and changed:
        setattr(report, RECORD, json.dumps(record.as_json(), ensure_ascii=False, default=str))
    if report.when == "call":
        from pytest_bdd.reporting import test_report_context_registry

        context = test_report_context_registry.get(report)
        if context is not None:
            account = {"scenario": context.scenario, "name": context.name}
            setattr(report, BDD, json.dumps(account, default=str))


def stop_workers(signum: int) -> None:
    """Send ``signum`` to this controller's worker processes (its children), which stop at once.

    Without it a worker would first play every case it had been handed.
    """
    import contextlib

    import psutil

    with contextlib.suppress(psutil.Error):
        for child in psutil.Process().children():
            with contextlib.suppress(psutil.Error):
                child.send_signal(signum)


def worker_facts(config: pytest.Config, suite: Suite) -> None:
    """Tell the controller how this worker's run ended (its ``workeroutput``)."""
    output: dict[str, Any] = getattr(config, "workeroutput", {})
    output[_FACTS] = {
        "interrupted": suite.interrupted,
        "gave_up": suite.gave_up.problem if suite.gave_up is not None else None,
        "gave_up_text": str(suite.gave_up) if suite.gave_up is not None else None,
    }


class Controller:
    """The controller's side of a parallel run: it merges what the workers found."""

    def __init__(self, suite: Suite) -> None:
        self.suite = suite

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Every worker collects the same cases; the first list is the order of the report."""
        if not self.suite.order:
            self.suite.order = list(ids)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        text = getattr(report, RECORD, None)
        if isinstance(text, str):
            record = Record.from_json(json.loads(text))
            self.suite.records[record.nodeid or report.nodeid] = record
        bdd = getattr(report, BDD, None)
        if isinstance(bdd, str):  # before pytest-bdd's Cucumber JSON reads it
            from pytest_bdd.reporting import ReportContext, test_report_context_registry

            context = json.loads(bdd)
            test_report_context_registry[report] = ReportContext(context["scenario"], context["name"])

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        facts = getattr(node, "workeroutput", {}).get(_FACTS) or {}
        if facts.get("interrupted") and self.suite.interrupted is None:
            self.suite.interrupted = int(facts["interrupted"])
        if facts.get("gave_up") and self.suite.worker_gave_up is None:
            self.suite.worker_gave_up = (str(facts["gave_up"]), str(facts.get("gave_up_text") or ""))
