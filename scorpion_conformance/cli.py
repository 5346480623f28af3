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
from pathlib import Path
from typing import Any

from scorpion_shared.vocabulary import DEFAULT_ADAPTER

from .arguments import adapter_command, add_check_timeouts

__all__ = ["main"]



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

    return run_check(args.adapter, args.timeout, sys.stdout, solve_timeout=args.solve_timeout)


def version_text() -> str:
    """What ``--version`` prints: the package, the protocol, the suite and its size."""
    from . import __version__
    from .protocol import PROTOCOL_VERSION
    from .suite.scenarios import feature_dir, load_cases

    cases = load_cases(feature_dir())
    scenarios = {case.id for case in cases}
    areas = {Path(case.file).stem for case in cases}
    return (f"scorpion-conformance {__version__}\n"
            f"protocol version {PROTOCOL_VERSION}\n"
            f"suite version {__version__}: {len(scenarios)} scenarios ({len(cases)} cases with the "
            f"outlines' rows) in {len(areas)} rule areas")


class _Version(argparse.Action):
    """``--version``: counted only when asked for, as reading the scenarios takes a moment."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the versions of the package, the protocol and the suite, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_text())
        parser.exit()


def _sub(sub: Any, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorpion-conformance",
        description="The rules reference and conformance suite for Scorpion Solitaire.",
        epilog="Run 'scorpion-conformance COMMAND --help' for the options of each command.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    deal = _sub(sub, "deal", "print deal N (PySolFC-compatible numbering)",
                "Print the deal of a game number, as PySolFC numbers its Scorpion games: the seven "
                "columns (face-down cards in brackets) and the stock.")
    deal.add_argument("game", type=int, help="the game number, 1 or more")
    deal.add_argument(
        "--deal", default="scorpion", choices=("scorpion", "scorpion-ii"),
        help="which deal: 12 face-down cards (scorpion) or 9 (scorpion-ii)",
    )
    deal.add_argument("--json", action="store_true", help="print the protocol's JSON form")
    deal.add_argument("--ascii", action="store_true", help="draw cards as TD, not 10♦")
    deal.set_defaults(handler=_deal)

    check = _sub(sub, "check-adapter", "a quick smoke test of an adapter",
                 "Start an adapter and try each request of the protocol once: the handshake, a start, "
                 "legal, play, a refusal, undo if offered, errors. Exit 0 when every check passes.")
    check.add_argument(
        "--adapter", default=DEFAULT_ADAPTER, type=adapter_command,
        help="the command that starts the adapter (default: the reference adapter)",
    )
    add_check_timeouts(check)
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

    export_parser = _sub(sub, "export", "write every scenario as plain JSON",
                         "Write every case (each row of an outline) as plain JSON: its id, tags, the "
                         "rule sets it holds under, its start position and its steps, for projects "
                         "that vendor the cases without Python.")
    add_export_arguments(export_parser)
    export_parser.set_defaults(handler=export)

    lint_parser = _sub(sub, "lint", "check the feature files for authoring errors (exit 4)",
                       "Check a folder of feature files for authoring errors (unknown sentences or "
                       "tags, missing or repeated ids, bad cards), each as file:line; exit 4 on any.")
    add_lint_arguments(lint_parser)
    lint_parser.set_defaults(handler=lint_command)

    from . import kit

    kit_parser = _sub(sub, "new-adapter", "write an adapter template (python, javascript) into a folder", "")
    kit.add_arguments(kit_parser)
    kit_parser.set_defaults(handler=kit.main)

    from .site import own_report

    report_parser = _sub(sub, "report", "turn a run's --report file into an HTML page and a badge", "")
    own_report.add_arguments(report_parser)
    report_parser.set_defaults(handler=own_report.main)

    from . import summary

    summary_parser = _sub(sub, "summary", "sum up one or more --report files in the terminal (side by side)",
                          "")
    summary.add_arguments(summary_parser)
    summary_parser.set_defaults(handler=summary.main)

    from . import fuzz, perft

    perft_parser = _sub(sub, "perft", "count the leaves of the legal-action tree (with --adapter: compare)",
                        "")
    perft.add_arguments(perft_parser)
    perft_parser.set_defaults(handler=perft.main)

    fuzz_parser = _sub(sub, "fuzz", "play random games through an adapter and the reference side by side",
                       "")
    fuzz.add_arguments(fuzz_parser)
    for action in fuzz_parser._actions:  # the named rule sets, as every --rules lists them
        if "--rules" in action.option_strings and action.help and "named" not in action.help:
            from scorpion_shared import vocabulary

            action.help += "; the named ones are " + ", ".join(vocabulary.NAMED_RULESETS)
    fuzz_parser.set_defaults(handler=fuzz.main)
    _solving_commands(sub)
    return parser


def _solving_commands(sub: Any) -> None:
    """``solve``, ``hint``, ``check-line`` and ``winnability`` (scorpion_conformance/solving/)."""
    from .solving import commands, winnability

    solve = _sub(sub, "solve", "decide whether a game or position can be won, with a winning line",
                 "Search every line of play from a game or position (every card known) and say whether "
                 "it is won (with a winning line in the suite's notation), lost (with the proof) or "
                 "unknown within the budget; the positions searched and the time.")
    commands.add_position_arguments(solve)
    solve.set_defaults(handler=commands.solve_command)
    hint = _sub(sub, "hint", "the first move of a winning line",
                "Print the first action of a winning line from a game or position, or say that there "
                "is no winning move (lost) or that none was found within the budget.")
    commands.add_position_arguments(hint)
    hint.set_defaults(handler=commands.hint_command)
    check = _sub(sub, "check-line", "where a line of play threw a winnable game away",
                 "Play a line of actions from a game or position and report the first action after "
                 "which the game is proven lost, and the last position from which it was still winnable.")
    commands.add_line_arguments(check)
    check.set_defaults(handler=commands.check_line_command)
    campaign = _sub(sub, "winnability", "solve a range of games and report the win rate (resumable)",
                    "Solve every game of a range under one rule set, locally or on a Dask cluster, into "
                    "a resumable JSON-lines results file; unknowns are retried at growing budgets. Prints "
                    "the win rate with a 95% Wilson interval and the bounds for the unknowns.")
    winnability.add_arguments(campaign)
    campaign.set_defaults(handler=winnability.winnability_command)


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
