"""The solve checks as lines of ``check-adapter``: one PASS, FAIL or SKIP line per position.

A FAIL says whose fault it is: the implementation's (a false ``lost``, a
line that does not win) or the adapter program's (a malformed answer, a
refusal of the declared capability, a timeout or a crash).
"""

from __future__ import annotations

from collections.abc import Callable

from ..client import AdapterClient
from ..protocol import HelloInfo
from .checks import BUDGET, SOLVE_TIMEOUT, SolveVerdict, run_solve_checks

__all__ = ["LABELS", "say_verdict", "solve_section"]

#: The word a verdict gets at the start of its line.
LABELS = {"passed": "PASS", "unknown": "PASS", "failed": "FAIL", "error": "FAIL", "skipped": "SKIP"}

_WHOSE = {
    "implementation": " [a wrong claim of the implementation]",
    "adapter": " [a fault of the adapter program]",
}


def say_verdict(verdict: SolveVerdict) -> str:
    """The line of one verdict.

    >>> say_verdict(SolveVerdict("p", "failed", "claimed lost", "implementation"))
    'FAIL  solve p: claimed lost [a wrong claim of the implementation]'
    """
    whose = _WHOSE.get(verdict.blame or "", "")
    return f"{LABELS[verdict.verdict]}  solve {verdict.name}: {verdict.detail}{whose}"


def solve_section(client: AdapterClient, info: HelloInfo, say: Callable[[str], None],
                  budget: int = BUDGET, timeout: float = SOLVE_TIMEOUT) -> tuple[int, int]:
    """Run the solve checks, saying one line each; returns (failed, passed).

    An adapter that does not declare ``solve`` gets one NOTE and no check.
    """
    if not info.offers("solve"):
        say("NOTE  solve: not declared (the capability is optional), so its checks were not run")
        return 0, 0
    failed = passed = unknown = 0
    for verdict in run_solve_checks(client, info, budget=budget, timeout=timeout):
        say(say_verdict(verdict))
        failed += verdict.bad
        passed += verdict.verdict in ("passed", "unknown")
        unknown += verdict.verdict == "unknown"
    if unknown:
        say(f"NOTE  solve: {unknown} answer(s) unknown within {budget} positions; unknown is allowed")
    return failed, passed
