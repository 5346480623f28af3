"""Command-line value types shared by every subcommand that starts an adapter.

Each is an :mod:`argparse` type: a bad value is refused by argparse with a
one-line message that names the option, before anything starts.
"""

from __future__ import annotations

import argparse
import math

__all__ = ["CHECK_TIMEOUT", "GIVE_UP_AFTER", "SECTION_FACTOR", "SOLVE_TIMEOUT", "adapter_command",
           "add_check_timeouts", "seconds"]

#: How long ``check-adapter`` waits for each answer, by default, in seconds.
CHECK_TIMEOUT = 5.0
#: How long one answer to ``solve`` may take in the solve checks, by default, in seconds.
SOLVE_TIMEOUT = 60.0
#: The solve checks as a whole may take this many times their timeout (90 s by default).
SECTION_FACTOR = 1.5
#: After this many answers to ``solve`` that took too long, the positions left are not checked.
GIVE_UP_AFTER = 2


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, more than 0 and finite.

    >>> seconds("2.5")
    2.5
    >>> seconds("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'nan' is not a number of seconds above 0
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def adapter_command(text: str) -> str:
    """An argparse type: an adapter command line that can be split into words.

    >>> adapter_command("node 'my adapter.js'")
    "node 'my adapter.js'"
    """
    from scorpion_conformance.transport import split_command

    try:
        split_command(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_check_timeouts(parser: argparse.ArgumentParser) -> None:
    """``--timeout`` and ``--solve-timeout``, the waits of ``check-adapter``."""
    parser.add_argument("--timeout", type=seconds, default=CHECK_TIMEOUT,
                        help=f"seconds to wait for each answer (default {CHECK_TIMEOUT:g})")
    parser.add_argument(
        "--solve-timeout", type=seconds, default=SOLVE_TIMEOUT,
        help=f"seconds to wait for each answer to solve (default {SOLVE_TIMEOUT:g}); the solve checks "
             f"together stop after {SECTION_FACTOR:g} times that, or after {GIVE_UP_AFTER} timeouts",
    )
