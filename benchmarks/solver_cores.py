"""The solver's two cores over the whole sweeps the tests hold to samples (run by hand).

    .venv/bin/python benchmarks/solver_cores.py [--games N] [--rules NAME ...]

``tests/test_solver_core.py`` checks the compiled core against the Python
loop on thirty PySolFC games and three of them at a larger budget, and the
search that goes on to a bigger budget on every sixth game in the Python
loop, so that the test command stays short. This script runs the sweeps
they were cut from: games 1..N at 3,000 positions and every fifth game at
50,000, under every named rule set, in both cores; and every game of 1..N/2
searched on through budgets 0, 300, 300, 2,000 and 9,000 against a new
search of each budget, in both cores. A disagreement stops it with the
game, the rules and both answers. It prints each core's CPU time and their
ratio, measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time

from scorpion_ref import RULESETS, deal_game, get_ruleset
from scorpion_ref.solver import Budget, Solution
from scorpion_ref.solver.search import Search, search

CORES = ("python", "compiled")
STEPS = (0, 300, 300, 2000, 9000)


def answer(solution: Solution) -> tuple[object, ...]:
    return solution.outcome, solution.proof, solution.nodes, solution.line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="the last game of the sweep (default 60)")
    parser.add_argument("--rules", nargs="+", choices=sorted(RULESETS), default=sorted(RULESETS))
    args = parser.parse_args(argv)
    spent = dict.fromkeys(CORES, 0.0)
    for name in args.rules:
        rules = get_ruleset(name)
        plan = [(game, 3000) for game in range(1, args.games + 1)]
        plan += [(game, 50_000) for game in range(5, args.games + 1, 5)]
        for game, nodes in plan:
            found = {}
            for core in CORES:
                started = time.process_time()
                found[core] = answer(search(deal_game(game), rules, Budget(nodes=nodes), core=core))
                spent[core] += time.process_time() - started
            if found["python"] != found["compiled"]:
                print(f"disagree: game {game}, {name}, {nodes} positions: {found}", file=sys.stderr)
                return 1
        for game in range(1, args.games // 2 + 1):
            for core in CORES:
                started = time.process_time()
                going = Search(deal_game(game), rules, core=core)
                for budget in STEPS:
                    fresh = search(deal_game(game), rules, Budget(nodes=budget), core=core)
                    if answer(going.run(budget)) != answer(fresh):
                        print(f"going on differs: game {game}, {name}, {core}, {budget}", file=sys.stderr)
                        return 1
                spent[core] += time.process_time() - started
        print(f"{name}: agreed on {len(plan)} searches and {args.games // 2} searches going on", flush=True)
    ratio = spent["python"] / spent["compiled"] if spent["compiled"] else float("inf")
    print(f"CPU: python {spent['python']:.1f} s, compiled {spent['compiled']:.1f} s,"
          f" python/compiled {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
