"""Command-line value types shared by every subcommand that starts an adapter.

Each is an :mod:`argparse` type: a bad value is refused by argparse with a
one-line message that names the option, before anything starts. Every
number is held to the range its consumer can hold: a wait to what the
operating system's waits take (:data:`MAX_SECONDS`), a count of processes to
the machine (:data:`WORKERS_PER_CORE`), a whole number to its bounds
(:func:`whole`).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

__all__ = ["CHECK_TIMEOUT", "GIVE_UP_AFTER", "MAX_SECONDS", "SECTION_FACTOR", "SOLVE_TIMEOUT",
           "WORKERS_PER_CORE", "adapter_command", "add_check_timeouts", "most_workers", "seconds", "whole"]

#: The longest wait of any option, in seconds (11 days and a half): the operating system's
#: waits (``poll``) count milliseconds in 32 bits, about 24 days.
MAX_SECONDS = 1_000_000.0
#: Worker processes per core at most: more only slow each other down.
WORKERS_PER_CORE = 4

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
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r} is more than {MAX_SECONDS:,.0f} seconds (11 days)")
    return value


def whole(low: int = 0, high: int | None = None, what: str = "number") -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no limit when None).

    >>> whole(1, 40, "depth")("41")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '41' is not a depth from 1 to 40
    """
    def read(text: str) -> int:
        said = f"{text[:40]!r}" + ("..." if len(text) > 40 else "")
        bounds = f"from {low} to {high}" if high is not None else f"of {low} or more"
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{said} is not a {what} {bounds}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{said} is not a {what} {bounds}")
        return value

    read.__name__ = what  # argparse names the type in its messages
    return read


def most_workers(cores: int | None = None) -> int:
    """The most worker processes an option may ask for on this machine."""
    return WORKERS_PER_CORE * (cores or os.cpu_count() or 1)


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
