"""The command ``winnability``: a campaign over a range of games, and its win rate.

>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> parser.parse_args(["--rules", "classic"]).games
'1-10000'
"""

from __future__ import annotations

import argparse
import signal
import sys

from scorpion_shared import vocabulary

from ..escaping import terminal_text
from .campaign import Campaign, budget_ladder, describe, run_campaign
from .inputs import BadInput, read_budget, read_games, read_memory, read_rules, read_workers
from .pool import GameFailed

__all__ = ["add_arguments", "winnability_command"]

FIRST_BUDGET = 200_000
LAST_BUDGET = 3_200_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``winnability``."""
    parser.add_argument("--rules", metavar="SET", required=True,
                        help="the named rule set: " + ", ".join(vocabulary.NAMED_RULESETS))
    parser.add_argument("--games", default="1-10000", metavar="RANGE",
                        help="the game numbers, as 1-10000 or 1-100,250 (default 1-10000)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", metavar="N", help="local worker processes (default: every core)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="a dask.distributed scheduler to run on, as tcp://host:8786")
    parser.add_argument("--budget", default=str(FIRST_BUDGET), metavar="N",
                        help=f"positions for the first try of each game (default {FIRST_BUDGET:,})")
    parser.add_argument("--max-budget", default=None, metavar="N",
                        help="unknowns are retried at 4 times the budget each time, up to this "
                             f"(default {LAST_BUDGET:,}, or --budget if bigger)")
    parser.add_argument("--memory-mb", default="1024", metavar="MB",
                        help="each search's table at most, in megabytes (default 1024)")
    parser.add_argument("--results", metavar="FILE",
                        help="the JSON-lines results file, read to resume and appended to "
                             "(default winnability-SET.jsonl)")


def _campaign(args: argparse.Namespace) -> Campaign:
    rules = read_rules(args.rules)
    games = read_games(args.games)
    first = read_budget(args.budget)
    last = read_budget(args.max_budget, "--max-budget") if args.max_budget else max(first, LAST_BUDGET)
    memory = read_memory(args.memory_mb)
    workers = read_workers(args.workers)
    return Campaign(rules=rules.name, games=games, ladder=budget_ladder(first, last), memory_mb=memory,
                    results=args.results or f"winnability-{rules.name}.jsonl", workers=workers,
                    scheduler=args.scheduler)


def winnability_command(args: argparse.Namespace) -> int:
    """Run (or resume) the campaign and print its counts, rate, interval and hardest games."""
    try:
        campaign = _campaign(args)
        report = run_campaign(campaign)
    except BadInput as error:
        print(terminal_text(f"scorpion-conformance winnability: {error}"), file=sys.stderr)
        return 2
    except GameFailed as error:
        said = f"scorpion-conformance winnability: {error}; the games solved before it are kept"
        print(terminal_text(said), file=sys.stderr)
        return 1
    for line in describe(report):
        print(line)
    if report.interrupted:
        return 128 + (report.signal or signal.SIGINT)
    return 0
