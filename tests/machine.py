"""How loaded this machine is now, for the tests that bound a wall-clock time.

A bound such as "an authoring error is reported within 5 s" means "at once,
not after a run". On a shared 2-core machine with other work on it, the same
program can take several times longer to start. So a bound is stretched by
the time a Python process with the suite's imports takes to start here and
now, measured in the same run, the way the benchmarks compare against a
baseline measured beside them. On an idle machine that adds a fraction of a
second; a program that runs the suite instead of stopping still fails.
"""

from __future__ import annotations

import subprocess
import sys
import time

__all__ = ["allowing_for_load", "startup_seconds"]

#: How many start-ups a bounded action may take beyond its own bound.
STARTS = 3


#: How long a measured start-up stands for "now": the load of a shared machine comes and goes.
FRESH_FOR = 10.0

_measured: list[tuple[float, float]] = []  # (when, seconds) of the last measurement


def startup_seconds() -> float:
    """The seconds a Python process importing the command line and pytest-bdd takes to start and
    end, measured again when the last measurement is older than :data:`FRESH_FOR` seconds."""
    now = time.monotonic()
    if not _measured or now - _measured[-1][0] > FRESH_FOR:
        subprocess.run([sys.executable, "-c", "import scorpion_conformance.cli, pytest_bdd"], check=True,
                       capture_output=True, timeout=300)
        _measured[:] = [(time.monotonic(), time.monotonic() - now)]
    return _measured[-1][1]


def allowing_for_load(seconds: float) -> float:
    """``seconds``, plus :data:`STARTS` start-ups as this machine gives them now: call it after
    the action it bounds, so that the load that slowed the action is the load measured."""
    return seconds + STARTS * startup_seconds()
