"""How fast the solver decides games, next to the plain search, in the same run (run by hand).

    .venv/bin/python benchmarks/solve.py [--games 1-1000] [--rules standard]
        [--budget 100000] [--plain-games 1-100] [--memory-mb 1024]

For each PySolFC game of the range, both searches get the same budget of
positions (and of memory) per game:

* the solver, :func:`scorpion_ref.solver.solve`;
* the plain search, :func:`scorpion_ref.solver.plain_solve`: depth-first
  with a transposition table over the engine's own API, with no symmetry,
  no dead-deal test and no representation of its own.

It prints, for each: games won, lost and unknown, positions expanded per
second, and games decided (won or lost) per minute of search; then the
ratio of the two rates. Times are the process's CPU time around each search
(the machine may be shared; wall-clock time would count the others' work).
``--plain-games`` runs the plain search on fewer games (it is slow); the
ratio is then also given on the games both searched.
A decided game on which the two disagree is printed as a DISAGREEMENT (it
would be a bug). Nothing is asserted: the figures are for people.
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

    def line(self) -> str:
        rate = self.nodes / self.seconds if self.seconds else float("inf")
        games = sum(self.outcomes.values())
        return (
            f"{self.name:7} {games:5} games: {self.outcomes['won']:4} won {self.outcomes['lost']:5} lost "
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
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--budget", type=int, default=100_000, help="positions per game, for both")
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

    print(f"solver {SOLVER_VERSION}, Python {platform.python_version()} on {platform.machine()}; "
          f"rules {rules.name}; {budget.nodes:,} positions and {budget.memory_mb} MB per game")
    print(f"games {args.games.start}-{args.games.stop - 1} (solver), "
          f"{plain_games.start}-{plain_games.stop - 1} (plain search)", flush=True)
    fast = run("solver", lambda p, r, b: solve(p, r, b), args.games, rules, budget, args.verbose)
    print(fast.line(), flush=True)
    plain = run("plain", lambda p, r, b: plain_solve(p, r, b), plain_games, rules, budget, args.verbose)
    print(plain.line())
    if plain.decided:
        ratio = fast.per_minute() / plain.per_minute()
        print(f"ratio of games decided per minute, solver / plain: {ratio:.1f}")
    else:
        print("the plain search decided no game: the ratio is unbounded")
    common = sorted(set(fast.by_game) & set(plain.by_game))
    if common and len(common) != len(fast.by_game):
        both = Tally("solver")
        for game in common:
            both.add(game, fast.by_game[game], fast.cpu[game])
        print(both.line(), "(the plain search's games)")
        if plain.decided:
            print(f"ratio on the same games: {both.per_minute() / plain.per_minute():.1f}")
    for game in common:
        a, b = fast.by_game[game].outcome, plain.by_game[game].outcome
        if "unknown" not in (a, b) and a != b:
            print(f"DISAGREEMENT on game {game}: solver {a}, plain {b}")
    hardest = sorted(fast.by_game.items(), key=lambda item: -item[1].nodes)[:5]
    print("the solver's hardest games:", ", ".join(
        f"{game} ({s.outcome}, {s.nodes:,} positions, {fast.cpu[game]:.1f} CPU s)" for game, s in hardest
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
