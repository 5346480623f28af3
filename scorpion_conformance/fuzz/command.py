"""The ``scorpion-conformance fuzz`` command: its options and its main, which
runs the games, shrinks the first difference, reports it and emits it as a
scenario (or, with ``--survey``, hands over to :mod:`.survey`)."""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time
from pathlib import Path
from typing import TextIO, cast

from scorpion_ref import RuleSet
from scorpion_shared.vocabulary import DEFAULT_ADAPTER

from ..arguments import adapter_command, seconds, whole
from ..errors import AdapterError
from ..escaping import SafeStream
from . import survey
from .emit import EmitTargetError, build_scenario, check_target, write_scenario
from .play import FuzzOptions
from .reports import _summary, report
from .run import run_fuzz
from .shrinking import shrink


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance fuzz``."""
    parser.description = ("Play random games through an adapter and the reference side by "
                          "side; shrink the first difference to a scenario.")
    parser.add_argument("--adapter", type=adapter_command, help="command that starts the adapter "
                        "(default: the reference adapter)")
    parser.add_argument("--rules", required=True, help="the rule set to play (one the adapter "
                        "declares)")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, help="the random seed (default: a new one, printed)")
    parser.add_argument("--max-steps", type=int, default=100,
                        help="the longest game, in steps (default 100)")
    parser.add_argument("--emit-scenario", type=Path, metavar="FILE",
                        help="write the shrunk difference as a Gherkin scenario into FILE "
                        "(appended when FILE exists)")
    parser.add_argument("--positions", choices=("both", "deals", "generated"), default="both",
                        help="start from deals, generated rare-case positions, or both (default)")
    parser.add_argument("--first-game", type=whole(0, what="game index"), default=0, metavar="I",
                        help="start at game #I of the seed's sequence (to replay one game)")
    parser.add_argument("--shrink-seconds", type=seconds, default=60.0,
                        help="how long shrinking may take (default 60)")
    parser.add_argument("--timeout", type=seconds, default=5.0,
                        help="seconds to wait for each answer of the adapter (default 5)")
    parser.add_argument("--features", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--survey", action="store_true", help="play every game past each "
                        "difference; group the differences by kind, shrink one of each, print a table")
    parser.add_argument("--known", type=Path, metavar="FILE", help="with --survey: the known "
                        "divergences (JSON); only a difference not listed there fails the run")


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``scorpion-conformance fuzz``: 0 clean, 1 a difference, 2 a usage error,
    3 an adapter that could not be used at all."""
    from ..client import AdapterClient

    # every line may carry the adapter's words: none of its control characters goes out
    safe_out: TextIO = cast(TextIO, SafeStream(out or sys.stdout))
    out = safe_out
    err = SafeStream(sys.stderr)
    command = args.adapter or DEFAULT_ADAPTER
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    options = FuzzOptions(games=args.games, seed=seed, max_steps=args.max_steps,
                          shrink_seconds=args.shrink_seconds, first=args.first_game)
    if args.games < 1 or args.max_steps < 1:
        print("scorpion-conformance fuzz: --games and --max-steps must be 1 or more",
              file=err)
        return 2
    if args.emit_scenario:
        try:
            check_target(args.emit_scenario)
        except EmitTargetError as error:
            print(f"scorpion-conformance fuzz: {error}", file=err)
            return 2
    listed: tuple[survey.Known, ...] = ()
    if (args.known and not args.survey) or (args.survey and args.emit_scenario):
        print("scorpion-conformance fuzz: --known goes with --survey, --emit-scenario without it",
              file=err)
        return 2
    if args.known:
        try:
            listed = survey.load_known(args.known)
        except survey.KnownError as error:
            print(f"scorpion-conformance fuzz: {error}", file=err)
            return 2
    client = AdapterClient(command, timeout=args.timeout, max_restarts=10)
    try:
        try:
            info = client.hello()
        except AdapterError as error:
            print(f"the adapter could not be used:\n{error}", file=err)
            return 3
        declared = info.rulesets_resolved()
        if args.rules not in declared:
            print(f"scorpion-conformance fuzz: the adapter does not declare {args.rules!r}; "
                  f"it declares {', '.join(declared)}", file=err)
            return 2
        rules = RuleSet.from_options(args.rules, declared[args.rules])
        if args.survey:
            return survey.survey_command(
                client, args.rules, rules, options, listed, out, command=command,
                positions=args.positions, progress=not args.no_progress,
                known_file=args.known, features=args.features)
        began = time.perf_counter()
        failure, stats = run_fuzz(client, args.rules, rules, options,
                                  positions=args.positions, progress=not args.no_progress)
        elapsed = time.perf_counter() - began
        _summary(stats, elapsed, seed, out)
        if failure is None:
            return 0
        print("shrinking the failing game...", file=err)
        shrunk, tests = shrink(client, args.rules, rules, failure, options.shrink_seconds)
        report(shrunk, failure, tests, out)
        rerun = ["scorpion-conformance", "fuzz", "--adapter", command, "--rules", args.rules,
                 "--seed", str(seed), "--first-game", str(failure.game), "--games", "1",
                 "--max-steps", str(args.max_steps)]
        comments = [
            f"Found by: {shlex.join(rerun)}",
            f"({failure.origin}; {shrunk.difference.message[:200]})",
        ]
        from ..suite.scenarios import feature_dir, feature_files

        known = feature_files(args.features or feature_dir())
        if args.emit_scenario:
            known += [*feature_files(args.emit_scenario.parent), args.emit_scenario]
        text, notes = build_scenario(shrunk, args.rules, rules, client, comments, known)
        # The scenario is printed whatever happens to the file: a found case is never lost.
        print("as a scenario:", file=out)
        print(text, file=out)
        if args.emit_scenario:
            try:
                write_scenario(args.emit_scenario, text)
            except (OSError, EmitTargetError) as error:
                print(f"scorpion-conformance fuzz: could not write {args.emit_scenario} ({error});"
                      " the scenario is printed above", file=err)
            else:
                print(f"(written to {args.emit_scenario})", file=out)
        else:
            print("(write it into a feature file with --emit-scenario FILE)", file=out)
        for note in notes:
            print(f"({note})", file=out)
        print("reproduce with: " + shlex.join(rerun), file=out)
        return 1
    finally:
        client.close()
