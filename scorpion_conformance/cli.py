"""The ``scorpion-conformance`` command: deals, adapter checks and the suite.

Each subcommand lives in its own module; this one only parses arguments
(with :mod:`argparse`) and turns known errors into one clear line and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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
            f"outlines' rows) in {len(areas)} rule areas\n"
            "(`run` plays each case under every rule set of the adapter's that its tags admit, so it "
            "counts more items than cases)")


class _Version(argparse.Action):
    """``--version``: counted only when asked for, as reading the scenarios takes a moment."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the versions of the package, the protocol and the suite, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(version_text())
        parser.exit()


class _Command(argparse.ArgumentParser):
    """A command whose options are added only once it is the command run or its help is shown:
    adding every command's options imported every command's modules on each start."""

    def __init__(self, *args: Any, fill: Callable[[argparse.ArgumentParser], None] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._fill = fill

    def _filled(self) -> None:
        fill, self._fill = self._fill, None
        if fill is not None:
            fill(self)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self._filled()
        return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        self._filled()
        return super().format_usage()

    def format_help(self) -> str:
        self._filled()
        return super().format_help()


def _sub(sub: Any, name: str, summary: str, description: str | None,
         fill: Callable[[argparse.ArgumentParser], None]) -> None:
    """A command: its summary in the list of commands now, its options (``fill``) when it runs."""
    sub.add_parser(name, help=summary, description=description, fill=fill)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorpion-conformance",
        description="The rules reference and conformance suite for Scorpion Solitaire.",
        epilog="Run 'scorpion-conformance COMMAND --help' for the options of each command.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Command)
    _sub(sub, "deal", "print deal N (PySolFC-compatible numbering)",
         "Print the deal of a game number, as PySolFC numbers its Scorpion games: the seven "
         "columns (face-down cards in brackets) and the stock.", _deal_arguments)
    _sub(sub, "check-adapter", "a quick smoke test of an adapter",
         "Start an adapter and try each request of the protocol once: the handshake, a start, "
         "legal, play, a refusal, undo if offered, errors. Exit 0 when every check passes.",
         _check_arguments)
    _sub(sub, "run", "run the conformance suite against an adapter", None, _run_arguments)
    _sub(sub, "export", "write every scenario as plain JSON",
         "Write every case (each row of an outline) as plain JSON: its id, tags, the "
         "rule sets it holds under, its start position and its steps, for projects "
         "that vendor the cases without Python.", _export_arguments)
    _sub(sub, "lint", "check the feature files for authoring errors (exit 4)",
         "Check a folder of feature files for authoring errors (unknown sentences or "
         "tags, missing or repeated ids, bad cards), each as file:line; exit 4 on any.", _lint_arguments)
    _sub(sub, "new-adapter", "write an adapter template (python, javascript) into a folder", "",
         _kit_arguments)
    _sub(sub, "report", "turn a run's --report file into an HTML page and a badge "
                        "(several: a page comparing them)", "", _report_arguments)
    _sub(sub, "summary", "sum up one or more --report files in the terminal (side by side)", "",
         _summary_arguments)
    _sub(sub, "perft", "count the leaves of the legal-action tree (with --adapter: compare)", "",
         _perft_arguments)
    _sub(sub, "fuzz", "play random games through an adapter and the reference side by side", "",
         _fuzz_arguments)
    _solving_commands(sub)
    return parser


# -- each command's options and handler, read only when it runs ----------------------------------


def _deal_arguments(deal: argparse.ArgumentParser) -> None:
    deal.add_argument("game", type=int, help="the game number, 1 or more")
    deal.add_argument(
        "--deal", default="scorpion", choices=("scorpion", "scorpion-ii"),
        help="which deal: 12 face-down cards (scorpion) or 9 (scorpion-ii)",
    )
    deal.add_argument("--json", action="store_true", help="print the protocol's JSON form")
    deal.add_argument("--ascii", action="store_true", help="draw cards as TD, not 10♦")
    deal.set_defaults(handler=_deal)


def _check_arguments(check: argparse.ArgumentParser) -> None:
    from scorpion_shared.vocabulary import DEFAULT_ADAPTER

    from .arguments import adapter_command, add_check_timeouts

    check.add_argument(
        "--adapter", default=DEFAULT_ADAPTER, type=adapter_command,
        help="the command that starts the adapter (default: the reference adapter)",
    )
    add_check_timeouts(check)
    check.set_defaults(handler=_check_adapter)


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    from .suite.run import add_run_arguments, run

    add_run_arguments(parser)
    parser.set_defaults(handler=run)


def _export_arguments(parser: argparse.ArgumentParser) -> None:
    from .suite.run import add_export_arguments, export

    add_export_arguments(parser)
    parser.set_defaults(handler=export)


def _lint_arguments(parser: argparse.ArgumentParser) -> None:
    from .suite.run import add_lint_arguments, lint_command

    add_lint_arguments(parser)
    parser.set_defaults(handler=lint_command)


def _kit_arguments(parser: argparse.ArgumentParser) -> None:
    from . import kit

    kit.add_arguments(parser)
    parser.set_defaults(handler=kit.main)


def _report_arguments(parser: argparse.ArgumentParser) -> None:
    from . import summary_page
    from .site import own_report

    own_report.add_arguments(parser)
    parser.set_defaults(handler=summary_page.report_main)


def _summary_arguments(parser: argparse.ArgumentParser) -> None:
    from . import summary

    summary.add_arguments(parser)
    parser.set_defaults(handler=summary.main)


def _perft_arguments(parser: argparse.ArgumentParser) -> None:
    from . import perft

    perft.add_arguments(parser)
    parser.set_defaults(handler=perft.main)


def _fuzz_arguments(parser: argparse.ArgumentParser) -> None:
    from . import fuzz

    fuzz.add_arguments(parser)
    for action in parser._actions:  # the named rule sets, as every --rules lists them
        if "--rules" in action.option_strings and action.help and "named" not in action.help:
            from scorpion_shared import vocabulary

            action.help += "; the named ones are " + ", ".join(vocabulary.NAMED_RULESETS)
    parser.set_defaults(handler=fuzz.main)


def _solving_commands(sub: Any) -> None:
    """``solve``, ``hint``, ``check-line`` and ``winnability`` (scorpion_conformance/solving/)."""

    def position(name: str) -> Callable[[argparse.ArgumentParser], None]:
        def fill(parser: argparse.ArgumentParser) -> None:
            from .solving import commands

            add = commands.add_line_arguments if name == "check_line" else commands.add_position_arguments
            add(parser)
            parser.set_defaults(handler=getattr(commands, f"{name}_command"))
        return fill

    def campaign(parser: argparse.ArgumentParser) -> None:
        from .solving import winnability

        winnability.add_arguments(parser)
        parser.set_defaults(handler=winnability.winnability_command)

    _sub(sub, "solve", "decide whether a game or position can be won, with a winning line",
         "Search every line of play from a game or position (every card known) and say whether "
         "it is won (with a winning line, one numbered move a line: the card, the column it "
         "leaves, the column it goes to), lost (with why) or unknown within the budget, and what "
         "that verdict means; the positions searched and the time.", position("solve"))
    _sub(sub, "hint", "the first move of a winning line",
         "Print the first move of a winning line from a game or position, or say that there "
         "is no winning move (lost) or that none was found within the budget.", position("hint"))
    _sub(sub, "check-line", "where a line of play threw a winnable game away",
         "Play a line of moves from a game or position and report the first move after "
         "which the game is proven lost, and the last position from which it was still winnable.",
         position("check_line"))
    _sub(sub, "winnability", "solve a range of games and report the win rate (resumable)",
         "Solve every game of a range under one rule set, locally or on a Dask cluster, into "
         "a resumable JSON-lines results file; unknowns are retried at growing budgets. Prints "
         "the win rate with a 95% Wilson interval and the bounds for the unknowns.", campaign)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    from .suite import stopping

    # A Ctrl-C or SIGTERM while the program starts is noted, not acted on at once, so
    # that `run` can still write its reports as interrupted (it takes the signals over).
    stopping.hold()
    try:
        args = build_parser().parse_args(argv)
    except BaseException:
        stopping.release()
        raise
    if args.command != "run":  # run settles a held signal itself, with its reports
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
