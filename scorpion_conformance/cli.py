"""The ``scorpion-conformance`` command: deals, adapter checks and the suite.

Each subcommand lives in its own module; this one only parses arguments
(with :mod:`argparse`) and turns known errors into one clear line and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .arguments import adapter_command, seconds

__all__ = ["main"]

DEFAULT_ADAPTER = f"{sys.executable} -m scorpion_ref.adapter"


def _deal(args: argparse.Namespace) -> int:
    from scorpion_ref import ScorpionError, deal_game
    from scorpion_ref.serial import draw_position, position_to_json

    try:
        position = deal_game(args.game, args.deal)
    except ScorpionError as error:
        print(f"scorpion-conformance deal: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(position_to_json(position)))
    else:
        print(f"Scorpion game {args.game} ({args.deal} deal); face-down cards in brackets")
        print(draw_position(position, unicode=not args.ascii))
    return 0


def _check_adapter(args: argparse.Namespace) -> int:
    from .check_adapter import run_check

    return run_check(args.adapter, args.timeout, sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorpion-conformance",
        description="The rules reference and conformance suite for Scorpion Solitaire.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    deal = sub.add_parser("deal", help="print deal N (PySolFC-compatible numbering)")
    deal.add_argument("game", type=int, help="the game number, 1 or more")
    deal.add_argument(
        "--deal", default="scorpion", choices=("scorpion", "scorpion-ii"),
        help="which deal: 12 face-down cards (scorpion) or 9 (scorpion-ii)",
    )
    deal.add_argument("--json", action="store_true", help="print the protocol's JSON form")
    deal.add_argument("--ascii", action="store_true", help="draw cards as TD, not 10♦")
    deal.set_defaults(handler=_deal)

    check = sub.add_parser("check-adapter", help="a quick smoke test of an adapter")
    check.add_argument(
        "--adapter", default=DEFAULT_ADAPTER, type=adapter_command,
        help="the command that starts the adapter (default: the reference adapter)",
    )
    check.add_argument(
        "--timeout", type=seconds, default=5.0, help="seconds to wait for each answer (default 5)"
    )
    check.set_defaults(handler=_check_adapter)

    from .suite.run import (
        add_export_arguments,
        add_lint_arguments,
        add_run_arguments,
        export,
        lint_command,
        run,
    )

    run_parser = sub.add_parser("run", help="run the conformance suite against an adapter")
    add_run_arguments(run_parser)
    run_parser.set_defaults(handler=run)

    export_parser = sub.add_parser("export", help="write every scenario as plain JSON")
    add_export_arguments(export_parser)
    export_parser.set_defaults(handler=export)

    lint_parser = sub.add_parser("lint", help="check the feature files for authoring errors (exit 4)")
    add_lint_arguments(lint_parser)
    lint_parser.set_defaults(handler=lint_command)

    from . import fuzz, perft

    perft_parser = sub.add_parser(
        "perft", help="count the leaves of the legal-action tree (with --adapter: compare)"
    )
    perft.add_arguments(perft_parser)
    perft_parser.set_defaults(handler=perft.main)

    fuzz_parser = sub.add_parser(
        "fuzz", help="play random games through an adapter and the reference side by side"
    )
    fuzz.add_arguments(fuzz_parser)
    fuzz_parser.set_defaults(handler=fuzz.main)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from .suite import stopping
    from .suite.run import run

    # A Ctrl-C or SIGTERM while the program starts is noted, not acted on at once, so
    # that `run` can still write its reports as interrupted (it takes the signals over).
    stopping.hold()
    try:
        args = build_parser().parse_args(argv)
    except BaseException:
        stopping.release()
        raise
    if args.handler is not run:
        signum = stopping.held()
        stopping.release()
        if signum is not None:
            print("interrupted", file=sys.stderr)
            return 128 + signum
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
