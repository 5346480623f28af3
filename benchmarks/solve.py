"""How fast the solver decides games, with each of its cores, next to the plain search (run by hand).

    .venv/bin/python benchmarks/solve.py [--games 1-1000] [--rules standard]
        [--budget 100000] [--plain-games 1-100] [--python-games 1-300] [--memory-mb 1024]

For each PySolFC game of the range, the searches get the same budget of
positions (and of memory) per game:

* ``compiled``: the solver, :func:`scorpion_ref.solver.solve`, with its
  compiled core (``core="compiled"``; left out, with a note, where it was
  not built);
* ``python``: the same solver with its pure-Python loop (``core="python"``);
  the two cores give the same answers, so only their speed differs;
* ``plain``: the plain search, :func:`scorpion_ref.solver.plain_solve`:
  depth-first with a transposition table over the engine's own API, with no
  symmetry, no dead-deal test and no representation of its own.

It prints, for each: games won, lost and unknown, positions expanded per
second, and games decided (won or lost) per minute of search; then the
ratios of the rates (compiled / python, compiled / plain, python / plain),
of positions per second and of games decided per minute. Times are the
process's CPU time around each search (the machine may be shared;
wall-clock time would count the others' work). ``--plain-games`` and
``--python-games`` run the slower searches on fewer games; the ratios are
then also given on the games both searched.
A decided game on which two searches disagree is printed as a DISAGREEMENT
(it would be a bug), and so is a game where the two cores differ at all.
Nothing is asserted: the figures are for people.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from scorpion_ref import Position, RuleSet, deal_game, get_ruleset
from scorpion_ref.errors import UnknownRuleSet
from scorpion_ref.solver import SOLVER_VERSION, Budget, Solution, plain_solve, solve
from scorpion_ref.solver.search import chosen_core

Solver = Callable[[Position, RuleSet, Budget], Solution]


@dataclass
class Tally:
    """What one search did over a range of games."""

    name: str
    outcomes: Counter[str] = field(default_factory=Counter)
    nodes: int = 0
    seconds: float = 0.0
    by_game: dict[int, Solution] = field(default_factory=dict)
    cpu: dict[int, float] = field(default_factory=dict)

    def add(self, game: int, solution: Solution, cpu: float) -> None:
        self.outcomes[solution.outcome] += 1
        self.nodes += solution.nodes
        self.seconds += cpu
        self.by_game[game] = solution
        self.cpu[game] = cpu

    @property
    def decided(self) -> int:
        return self.outcomes["won"] + self.outcomes["lost"]

    def per_minute(self) -> float:
        return self.decided / self.seconds * 60 if self.seconds else float("inf")

    def per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds else float("inf")

    def on(self, games: list[int]) -> Tally:
        """This tally restricted to ``games``."""
        part = Tally(self.name)
        for game in games:
            part.add(game, self.by_game[game], self.cpu[game])
        return part

    def line(self) -> str:
        rate = self.per_second()
        games = sum(self.outcomes.values())
        return (
            f"{self.name:8} {games:5} games: {self.outcomes['won']:4} won {self.outcomes['lost']:5} lost "
            f"{self.outcomes['unknown']:4} unknown | {self.nodes:>11,} positions in "
            f"{self.seconds:8.1f} CPU s = "
            f"{rate:>9,.0f} positions/s | {self.per_minute():8.1f} games decided/min"
        )


def game_range(text: str) -> range:
    """``"1-1000"`` or ``"7"``; raises :class:`argparse.ArgumentTypeError`."""
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game range such as 1-1000") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game range such as 1-1000")
    return range(low, high + 1)


def run(name: str, search: Solver, games: range, rules: RuleSet, budget: Budget, verbose: bool) -> Tally:
    tally = Tally(name)
    for game in games:
        start = deal_game(game)
        began = time.process_time()
        solution = search(start, rules, budget)
        tally.add(game, solution, time.process_time() - began)
        if verbose:
            print(f"  {name} game {game}: {solution.outcome} ({solution.proof}) "
                  f"{solution.nodes} positions {solution.seconds:.2f} s", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=game_range, default=game_range("1-1000"))
    parser.add_argument("--plain-games", type=game_range, default=None,
                        help="games for the plain search (default: the same as --games)")
    parser.add_argument("--python-games", type=game_range, default=None,
                        help="games for the solver's Python core (default: the same as --games)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--budget", type=int, default=100_000, help="positions per game, for all")
    parser.add_argument("--memory-mb", type=int, default=1024)
    parser.add_argument("--verbose", action="store_true", help="a line per game")
    args = parser.parse_args(argv)
    try:
        rules = get_ruleset(args.rules)
    except UnknownRuleSet as error:
        parser.error(str(error))
    if args.budget < 1 or args.memory_mb < 1:
        parser.error("--budget and --memory-mb are at least 1")
    budget = Budget(nodes=args.budget, memory_mb=args.memory_mb)
    plain_games = args.plain_games or args.games
    python_games = args.python_games or args.games

    print(f"solver {SOLVER_VERSION}, Python {platform.python_version()} on {platform.machine()}; "
          f"rules {rules.name}; {budget.nodes:,} positions and {budget.memory_mb} MB per game")
    print(f"games {args.games.start}-{args.games.stop - 1} (compiled core), "
          f"{python_games.start}-{python_games.stop - 1} (Python core), "
          f"{plain_games.start}-{plain_games.stop - 1} (plain search)", flush=True)
    tallies: list[Tally] = []
    try:
        chosen_core("compiled")
    except ImportError as error:
        print(f"no compiled core: {error}")
    else:
        compiled = run("compiled", lambda p, r, b: solve(p, r, b, core="compiled"), args.games, rules, budget,
                       args.verbose)
        print(compiled.line(), flush=True)
        tallies.append(compiled)
    python = run("python", lambda p, r, b: solve(p, r, b, core="python"), python_games, rules, budget,
                 args.verbose)
    print(python.line(), flush=True)
    tallies.append(python)
    plain = run("plain", lambda p, r, b: plain_solve(p, r, b), plain_games, rules, budget, args.verbose)
    print(plain.line(), flush=True)
    tallies.append(plain)
    for i, first in enumerate(tallies):
        for second in tallies[i + 1:]:
            compare(first, second)
    first = tallies[0]
    hardest = sorted(first.by_game.items(), key=lambda item: -item[1].nodes)[:5]
    print(f"the hardest games ({first.name}):", ", ".join(
        f"{game} ({s.outcome}, {s.nodes:,} positions, {first.cpu[game]:.1f} CPU s)" for game, s in hardest
    ))
    return 0


def ratios(first: Tally, second: Tally) -> str:
    """``first``'s rates over ``second``'s, as words."""
    rate = f"{first.per_second() / second.per_second():.1f}x" if second.nodes else "unbounded"
    decided = f"{first.per_minute() / second.per_minute():.1f}x" if second.decided else "unbounded"
    return f"{rate} positions/s, {decided} games decided/min"


def compare(first: Tally, second: Tally) -> None:
    """The ratios of ``first``'s rates to ``second``'s, on all their games and on those they share;
    and every game where the two disagree."""
    common = sorted(set(first.by_game) & set(second.by_game))
    pair = f"{first.name} / {second.name}"
    print(f"{pair}: {ratios(first, second)}")
    if common and (len(common) != len(first.by_game) or len(common) != len(second.by_game)):
        shared = ratios(first.on(common), second.on(common))
        print(f"{pair} on the {len(common)} games both searched: {shared}")
    same_search = {first.name, second.name} == {"compiled", "python"}
    for game in common:
        x, y = first.by_game[game], second.by_game[game]
        if same_search and (x.outcome, x.proof, x.nodes, x.line) != (y.outcome, y.proof, y.nodes, y.line):
            print(f"DISAGREEMENT on game {game}: {first.name} {x.outcome} after {x.nodes}, "
                  f"{second.name} {y.outcome} after {y.nodes}")
        elif "unknown" not in (x.outcome, y.outcome) and x.outcome != y.outcome:
            print(f"DISAGREEMENT on game {game}: {first.name} {x.outcome}, {second.name} {y.outcome}")


if __name__ == "__main__":
    sys.exit(main())
