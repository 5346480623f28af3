"""A winnability campaign: every game of a range solved under one rule set, into a results file.

The campaign climbs a ladder of budgets. The first rung is ``--budget``
positions; each later rung is ``growth`` times the one before (4 by
default), and the last is ``--max-budget`` exactly. Each game that still
needs a rung (:func:`~scorpion_conformance.solving.results.needs_solving`:
no record yet, or unknown at a smaller budget) is one task, which climbs
the rungs it needs with one search that goes on from each rung to the next
(it keeps its table: the positions of the rung below are not searched
again) and stops at the first that decides the game; it writes a record
for each rung it tried. So a second run of the same command resumes where
the first stopped, games decided at any budget are never solved again, and
unknowns are retried only at a budget bigger than the one that failed them
(a retry in a new run starts its search afresh: the table of the old one is
gone). Each record is written as it arrives.

Before it counts a ``won`` read from the file, the campaign replays its line
through the engine from the deal: a line that does not win (a file edited by
hand, or another tool's) is refused, naming the game and the line of the
file, instead of being counted.

>>> budget_ladder(200_000, 3_000_000)
[200000, 800000, 3000000]
>>> budget_ladder(500, 500)
[500]
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import TextIO

from .inputs import BadInput
from .pool import Stopped, Task, run_dask, run_local
from .results import Record, ResultsFile, best_records, is_better, ladder_work, needs_solving
from .stats import Rates

__all__ = ["Campaign", "CampaignReport", "budget_ladder", "describe", "rates_of", "run_campaign"]


def budget_ladder(first: int, last: int, growth: int = 4) -> list[int]:
    """The budgets a campaign tries, smallest first; raises :class:`BadInput` if ``last < first``."""
    if last < first:
        raise BadInput(f"--max-budget {last} is smaller than --budget {first}")
    if growth < 2:
        raise BadInput(f"--growth {growth}: each budget must be at least twice the one before")
    ladder = [first]
    while ladder[-1] * growth < last:
        ladder.append(ladder[-1] * growth)
    if ladder[-1] != last:
        ladder.append(last)
    return ladder


@dataclass(frozen=True)
class Campaign:
    """What to solve: the games, the rule set, the budgets, and where."""

    rules: str
    games: list[int]
    ladder: list[int]
    memory_mb: int
    results: str
    workers: int = 1
    scheduler: str | None = None


@dataclass
class CampaignReport:
    """What a campaign found for its games: the best record of each, and the work of this run."""

    campaign: Campaign
    best: dict[int, Record]
    #: The searches this run made: one per game and budget (an unknown is searched again).
    solved_now: int = 0
    #: The games this run searched, once each however many budgets it tried.
    games_now: set[int] = field(default_factory=set)
    seconds_now: float = 0.0
    interrupted: bool = False
    #: The signal that stopped the run, if one did (a Ctrl-C in this process is SIGINT's).
    signal: int | None = None
    failures: list[str] = field(default_factory=list)
    #: Every record of the results file at the end (of every game), None if it was not read.
    records: list[Record] | None = None


def rates_of(best: dict[int, Record], games: list[int] | None = None) -> Rates:
    """The won, lost and unknown counts among ``games`` (every game of ``best`` by default)."""
    chosen = [best[g] for g in games if g in best] if games is not None else list(best.values())
    return Rates(
        won=sum(r.outcome == "won" for r in chosen),
        lost=sum(r.outcome == "lost" for r in chosen),
        unknown=sum(r.outcome == "unknown" for r in chosen),
    )


@contextmanager
def _stop_signals(report: CampaignReport) -> Iterator[threading.Event]:
    """An event that SIGINT and SIGTERM set, and nothing more: the backends stop at a safe point
    (their workers ended, their records kept), even a campaign started in the background, where
    a shell leaves SIGINT ignored. The handler raises nothing, so no record is cut in two; it
    notes the first signal in ``report.signal``."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def asked(signum: int, frame: FrameType | None) -> None:
        if report.signal is None:
            report.signal = signum
        stop.set()

    previous = {signum: signal.signal(signum, asked) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _bar(total: int, description: str, err: TextIO) -> object | None:
    if not err.isatty():
        return None
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    bar: object = tqdm(total=total, desc=description, file=err, unit="game", dynamic_ncols=True, leave=True)
    return bar


def run_campaign(campaign: Campaign, err: TextIO = sys.stderr) -> CampaignReport:
    """Run the campaign's ladder of budgets; a Ctrl-C or SIGTERM ends it with ``interrupted`` set.

    Raises :class:`BadInput` for a results file that cannot be used, or no scheduler at the address.
    """
    from .results import ResultsError

    try:
        results = ResultsFile(campaign.results)
    except ResultsError as error:
        raise BadInput(str(error)) from None
    wanted = set(campaign.games)
    report = CampaignReport(campaign, {g: r for g, r in best_records(results.records, campaign.rules).items()
                                       if g in wanted})
    started = time.monotonic()
    tasks: list[Task] = []
    for game in campaign.games:
        rungs = tuple(b for b in campaign.ladder if needs_solving(report.best.get(game), b))
        if rungs:
            tasks.append((game, campaign.rules, rungs, campaign.memory_mb))
    report.records = results.records
    try:
        with results, _stop_signals(report) as stop:
            _replay_won(report.best, campaign.results)
            if tasks:
                _climb(campaign, tasks, results, report, err, stop)
            if stop.is_set():
                raise Stopped
    except KeyboardInterrupt:
        report.interrupted = True
    except ResultsError as error:
        raise BadInput(str(error)) from None
    report.seconds_now = time.monotonic() - started
    return report


def _replay_won(best: dict[int, Record], results: str) -> None:
    """Replay the line of every ``won`` that counts through the engine; raises :class:`BadInput`
    for one that does not win from its deal."""
    from scorpion_ref import NotationError, ScorpionError, Status, apply, deal_game, get_ruleset, status

    from .lines import read_line

    for game, record in sorted(best.items()):
        if record.outcome != "won":
            continue
        rules = get_ruleset(record.rules)
        position = deal_game(game)
        try:
            for number, action in enumerate(read_line(record.line or ""), start=1):
                where = f"its action {number} ({action})"
                position = apply(position, rules, action).position
            where = "its last action"
            if status(position, rules) is not Status.WON:
                raise ScorpionError(f"the game is {status(position, rules).name.lower()} after it")
        except (NotationError, ScorpionError) as error:
            what = f"at {where}: {error}" if not isinstance(error, NotationError) else str(error)
            raise BadInput(f"{results}: game {game} under {record.rules} is recorded won, but its line "
                           f"does not win from the deal ({what}); remove that record to solve the game "
                           "again") from None


def _climb(campaign: Campaign, tasks: list[Task], results: ResultsFile,
           report: CampaignReport, err: TextIO, stop: threading.Event) -> None:
    """Every task, each game climbing the rungs it needs."""
    bar = _bar(len(tasks), f"{campaign.rules} ≤{campaign.ladder[-1]:,}", err)

    def on_record(record: Record) -> None:
        results.add(record)
        report.solved_now += 1
        report.games_now.add(record.game)
        if is_better(record, report.best.get(record.game)):
            report.best[record.game] = record
        if bar is not None:
            rates = rates_of(report.best)
            bar.set_postfix_str(f"won {rates.won} lost {rates.lost} unknown {rates.unknown} "  # type: ignore[attr-defined]
                                f"rate {rates.short()}", refresh=False)
            if record.decided or record.budget == campaign.ladder[-1] or record.proof == "memory":
                bar.update(1)  # type: ignore[attr-defined]

    try:
        if campaign.scheduler:
            run_dask(tasks, campaign.scheduler, on_record, stop)
        else:
            run_local(tasks, campaign.workers, on_record, stop)
    finally:
        if bar is not None:
            bar.close()  # type: ignore[attr-defined]


def _games_said(games: list[int]) -> str:
    if games and games == list(range(games[0], games[-1] + 1)):
        return f"games {games[0]}-{games[-1]}" if len(games) > 1 else f"game {games[0]}"
    return f"{len(games)} games"


def describe(report: CampaignReport, hardest: int = 5) -> list[str]:
    """The lines the command prints at the end: counts, the rate, the time, the hardest games."""
    campaign, best = report.campaign, report.best
    rates = rates_of(best, campaign.games)
    missing = len(campaign.games) - rates.total
    lines = [f"{campaign.rules}, {_games_said(campaign.games)}: {rates.won} won, {rates.lost} lost, "
             f"{rates.unknown} unknown" + (f", {missing} not solved yet" if missing else "")]
    lines.append("win rate: " + rates.describe())
    if missing:
        low = rates.won / len(campaign.games)
        high = (rates.won + rates.unknown + missing) / len(campaign.games)
        lines.append(f"over all {len(campaign.games)} games: between {100 * low:.2f}% and {100 * high:.2f}% "
                     "until the rest are solved")
    spent = sum(r.cost for r in best.values())
    games = len(report.games_now)
    again = report.solved_now - games
    lines.append(f"solver CPU time of the records that count: {spent:,.1f} s; this run searched "
                 f"{games} game{'s' * (games != 1)} in {report.seconds_now:,.1f} s"
                 + (f" ({report.solved_now} records: {again} of them a bigger budget for a game left unknown)"
                    if again else ""))
    if report.records is not None:
        searched, kept = ladder_work(report.records, campaign.rules)
        if kept:
            lines.append(f"positions searched over the ladder: {searched:,}, of which the records that count "
                         f"keep {kept:,} (+{100 * (searched - kept) / kept:.1f}% for the retries)")
    tops = sorted(best.values(), key=lambda r: (-r.nodes, r.game))[:hardest]
    if tops:
        lines.append("hardest: " + "; ".join(
            f"game {r.game} ({r.outcome}, {r.nodes:,} positions, {r.cost:.1f} s)" for r in tops))
    unknown = sorted((r for r in best.values() if not r.decided), key=lambda r: r.game)
    if unknown:
        shown = ", ".join(f"{r.game} ({r.proof or 'budget'} at {r.budget:,})" for r in unknown[:20])
        lines.append(f"unknown: {shown}" + (f" and {len(unknown) - 20} more" if len(unknown) > 20 else ""))
    lines.append(f"results: {campaign.results}")
    if report.interrupted:
        lines.append("interrupted: every finished game is in the results file; "
                     "run the same command again to go on")
    return lines

