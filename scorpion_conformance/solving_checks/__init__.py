"""The solve checks of ``check-adapter``: proven positions (``positions.json``) and how claims are judged."""

from .checks import (
    BUDGET,
    SOLVE_TIMEOUT,
    ProvenPosition,
    SolveVerdict,
    check_position,
    load_positions,
    run_solve_checks,
)

__all__ = [
    "BUDGET",
    "SOLVE_TIMEOUT",
    "ProvenPosition",
    "SolveVerdict",
    "check_position",
    "load_positions",
    "run_solve_checks",
]
