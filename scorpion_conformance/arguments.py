"""Command-line value types shared by every subcommand that starts an adapter.

Each is an :mod:`argparse` type: a bad value is refused by argparse with a
one-line message that names the option, before anything starts.
"""

from __future__ import annotations

import argparse
import math

__all__ = ["adapter_command", "seconds"]


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
