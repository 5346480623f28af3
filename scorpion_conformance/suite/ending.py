"""A run's two ends: the handshake before any case, and every report written after the last.

The handshake comes first (:func:`begin`): a broken adapter is one short
diagnosis and a report that says *adapter-unusable*, before any case. At the
end (:func:`finish`) the adapter is ended and the reports are written once,
whatever stopped the run: the JUnit properties, the order of the JUnit and
Cucumber files, the JSON report with its closing record, and the
expectations file (only after a complete run). In a parallel run's worker
the controller writes them; the worker only tells it how its run ended.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.errors import AdapterError
from scorpion_conformance.escaping import terminal_text

from . import console, facts, parallel, report_files, reporting
from .expectations import write_expectations
from .session import SuiteUsageError, suite_of

__all__ = ["begin", "finish"]


def begin(session: pytest.Session) -> None:
    """Shake hands with the adapter before any case; raises :class:`pytest.UsageError`
    (``run`` exits 3) when it cannot be used, or when ``--rules`` names a set it lacks."""
    suite = suite_of(session.config)
    if suite is None:
        return
    suite.started = facts.now()
    console.guard_terminal(session.config)
    try:
        suite.declared()
    except SuiteUsageError as error:
        suite.close()
        raise pytest.UsageError(terminal_text(error, lines=True)) from None
    except AdapterError as error:
        suite.unusable = True
        suite.close()
        facts.write_run_report(session.config, suite, {"run": "adapter-unusable", "problem": error.problem})
        # One paragraph, no traceback (run exits 3), printed by pytest: made safe here.
        raise pytest.UsageError(terminal_text(
            f"the adapter could not be used, so no scenario ran.\n{error}\n"
            "The adapter program, not the implementation behind it, is probably broken: try"
            f" `scorpion-conformance check-adapter --adapter {reporting.shell_word(suite.command)}`.",
            lines=True)) from None
    if parallel.is_controller(session.config):
        # The workers run the cases, each with an adapter of its own; this one has said hello.
        suite.close()
        session.config.pluginmanager.register(parallel.Controller(suite), "scorpion-conformance-controller")


def finish(session: pytest.Session, exitstatus: int) -> None:
    """End the adapter, write every report asked for, and set the run's exit status."""
    suite = suite_of(session.config)
    if suite is None:
        return
    suite.close()
    if parallel.is_worker(session.config):
        parallel.worker_facts(session.config, suite)  # the controller writes the reports
        session.exitstatus = suite.exit_status(int(exitstatus))
        return
    ending = suite.ending()
    report_files.mark_junit(session.config, ending, suite.command)
    report_files.order_reports(session.config, suite.order)
    ended: dict[str, Any] = {"run": ending}
    if suite.interrupted is not None:
        ended["signal"] = signal.Signals(suite.interrupted).name
    if suite.gave_up is not None:
        ended["gave_up"] = suite.gave_up.problem
    elif suite.worker_gave_up is not None:
        ended["gave_up"] = suite.worker_gave_up[0]
    facts.write_run_report(session.config, suite, ended)
    target = session.config.getoption("write_expectations")
    if target and ending == "complete":
        count = suite.written("--write-expectations", target,
                              lambda: write_expectations(Path(target), suite.records.values()))
        if count is not None:
            suite.notes.append(f"wrote {count} known failure{'s' * (count != 1)} to {target}"
                               + (" (none failed: the file lists nothing)" if count == 0 else ""))
    elif target:
        why = {"interrupted": "the run was interrupted", "gave-up": "the run gave up on the adapter",
               "adapter-unusable": "the adapter could not be used"}.get(ending, f"the run ended {ending}")
        suite.notes.append(f"the expectations file {target} was left as it was: {why}")
    session.exitstatus = suite.exit_status(int(exitstatus))

