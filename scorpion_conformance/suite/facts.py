"""The facts of a whole run, for the report's closing record.

Everything a report of one's own (``scorpion-conformance report``) needs
besides the cases: the adapter command and what it said in its hello (its
implementation, the rule sets it declares with their options, its
capabilities), the versions of the suite, the protocol and Python, when the
run started and ended, what it was narrowed to (rule sets, areas, ids, a
feature folder of one's own), and the totals by status.

>>> len(now()) == len("2026-12-01T09:30:00+00:00")
True
"""

from __future__ import annotations

import platform
from collections import Counter
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance import __version__
from scorpion_conformance.protocol import PROTOCOL_VERSION

from .reporting import write_report
from .session import Suite

__all__ = ["now", "run_facts", "write_run_report"]


def now() -> str:
    """The time now, in ISO 8601 at UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _hello(suite: Suite) -> dict[str, Any] | None:
    hello = suite.hello
    if hello is None:
        return None
    return {
        "protocol": hello.protocol,
        "implementation": asdict(hello.implementation),
        "rulesets": hello.rulesets_resolved(),
        "capabilities": sorted(hello.capabilities),
    }


def run_facts(suite: Suite, config: pytest.Config) -> dict[str, Any]:
    """The run-level facts of the closing record of a report."""
    hello = suite.hello
    finished = [record for record in suite.records.values() if record.final]
    return {
        "adapter": suite.command,
        "implementation": str(hello.implementation) if hello is not None else None,
        "hello": _hello(suite),
        "versions": {"suite": __version__, "protocol": PROTOCOL_VERSION,
                     "python": platform.python_version(), "pytest": pytest.__version__},
        "started": suite.started or None,
        "finished": now(),
        "selected": {"rules": list(suite.wanted_rules) or None,
                     "areas": sorted(suite.areas) if suite.areas is not None else None,
                     "ids": config.getoption("scenario_ids"),
                     "keyword": config.getoption("keyword") or None,
                     "marker": config.getoption("markexpr") or None,
                     "features": config.getoption("scorpion_features") or None},
        "rulesets_run": sorted({record.rules for record in finished if record.rules}),
        "totals": dict(Counter(record.status for record in finished)),
    }


def write_run_report(config: pytest.Config, suite: Suite, ended: dict[str, Any]) -> None:
    """Write the ``--report`` file, if one was asked for: the records, then the closing record
    (how the run ended, ``ended``, and the facts of the run); a write that fails fails the run."""
    report = config.getoption("report")
    if report:
        about = run_facts(suite, config)
        suite.written("--report", report, lambda: write_report(
            Path(report), suite.records.values(), {**ended, **about}, suite.order))
