"""The solver against an earlier version of itself, on the same games in the same run (run by hand).

    .venv/bin/python benchmarks/solve.py [--baseline b28c289] [--rules standard]
        [--games 388,2741,3522] [--sample 47] [--seed 21] [--budget 1000000000]
        [--memory-mb 8192] [--core compiled] [--verbose]

The baseline is the solver as it was at a commit (``b28c289`` by default,
the compiled core before the reductions and the faster core of
``scorpion_ref/solver``): the benchmark exports that commit with ``git
archive`` into a temporary folder, builds its compiled core there
(``setup.py build_ext --inplace``) and imports it from there in a worker
process of its own; the solver of this checkout runs in a second worker
process. Both solve the same games, one game at a time, alternating, so a
busy machine slows both alike; each reports the CPU time of its own
process around each search (the machine is shared: wall-clock time would
count the others' work).

The games: PySolFC games ``--games`` (by default the three hardest standard
games, 388, 2741 and 3522) and ``--sample`` more drawn from games 1-10,000
by a ``random.Random(--seed)``, every one with the same budget of positions
and megabytes (by default enough that every game is decided).

It prints, for each solver: positions searched, CPU seconds, positions per
second and games decided per minute, over all the games and over the named
ones; each named game on a line; and the ratios (new / baseline). A game
on which the two answers disagree (won against lost) is printed as a
DISAGREEMENT: one of them has a bug. Nothing is asserted: the figures are
for people.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The three hardest standard games of 1-10,000 (data/winnability/standard.jsonl).
HARD = (388, 2741, 3522)

#: What each worker runs: the solver found first on sys.path (the folder given), one game a line.
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import scorpion_ref
from pathlib import Path
if not Path(scorpion_ref.__file__).resolve().is_relative_to(Path(sys.argv[1]).resolve()):
    sys.exit(f"the worker imported scorpion_ref from {scorpion_ref.__file__}, not from {sys.argv[1]}")
from scorpion_ref import deal_game, get_ruleset
from scorpion_ref.solver import SOLVER_VERSION, Budget, solve
rules = get_ruleset(sys.argv[2])
budget = Budget(nodes=int(sys.argv[3]), memory_mb=int(sys.argv[4]))
core = sys.argv[5]
print(json.dumps({"version": SOLVER_VERSION}), flush=True)
for line in sys.stdin:
    game = int(line)
    start = deal_game(game)
    began = time.process_time()
    found = solve(start, rules, budget, core=core)
    cpu = time.process_time() - began
    print(json.dumps({"game": game, "outcome": found.outcome, "proof": found.proof,
                      "nodes": found.nodes, "cpu": cpu}), flush=True)
"""


@dataclass(frozen=True)
class Result:
    """What a worker said of one game."""

    outcome: str
    nodes: int
    cpu: float

    @classmethod
    def of(cls, data: dict[str, object]) -> Result:
        return cls(str(data["outcome"]), int(str(data["nodes"])), float(str(data["cpu"])))


@dataclass
class Tally:
    """What one solver did over a set of games."""

    name: str
    version: str = "?"
    results: dict[int, Result] = field(default_factory=dict)

    def summary(self, games: list[int]) -> tuple[int, float, float, float]:
        """Positions, CPU seconds, positions per second, games decided per minute."""
        nodes = sum(self.results[g].nodes for g in games)
        cpu = sum(self.results[g].cpu for g in games)
        decided = sum(self.results[g].outcome != "unknown" for g in games)
        if not cpu:
            return nodes, cpu, float("inf"), float("inf")
        return nodes, cpu, nodes / cpu, decided / cpu * 60


class Worker:
    """A solver in a process of its own, solving one game at a time."""

    def __init__(self, folder: Path, rules: str, budget: int, memory_mb: int, core: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(folder), rules, str(budget), str(memory_mb), core],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=folder,
        )
        self.version = str(self._read()["version"])

    def _read(self) -> dict[str, object]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"a solver worker ended (exit status {self.process.wait()})")
        data: dict[str, object] = json.loads(line)
        return data

    def solve(self, game: int) -> Result:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{game}\n")
        self.process.stdin.flush()
        return Result.of(self._read())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@contextlib.contextmanager
def baseline_checkout(commit: str) -> Iterator[Path]:
    """The solver at ``commit``, exported and built in a temporary folder (removed afterwards)."""
    with tempfile.TemporaryDirectory(prefix="scorpion-baseline-") as folder:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                                 capture_output=True, check=False)
        if archive.returncode:
            raise SystemExit(f"benchmarks/solve.py: git archive {commit} failed: "
                             f"{archive.stderr.decode(errors='replace').strip()}")
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder,
                               capture_output=True, text=True, check=False)
        if build.returncode or not list(Path(folder, "scorpion_ref", "solver").glob("_core*.so")):
            raise SystemExit(f"benchmarks/solve.py: building the compiled core of {commit} failed:\n"
                             f"{build.stdout}{build.stderr}")
        yield Path(folder)


def games_list(text: str) -> list[int]:
    """``"388,2741"``; raises :class:`argparse.ArgumentTypeError`."""
    try:
        games = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of game numbers such as 388,2741") from None
    if any(g < 1 for g in games):
        raise argparse.ArgumentTypeError(f"{text!r}: game numbers start at 1")
    return games


def chosen_games(named: list[int], sample: int, seed: int) -> list[int]:
    """The named games, then ``sample`` others of 1-10,000 drawn by ``random.Random(seed)``."""
    others = sorted(set(range(1, 10_001)) - set(named))
    return [*named, *sorted(random.Random(seed).sample(others, sample))]


def ratio(new: float, old: float) -> str:
    return f"{new / old:.3f}x" if old else "-"


def report(old: Tally, new: Tally, games: list[int], named: list[int]) -> None:
    header = f"{'':24} {'positions':>13} {'CPU s':>9} {'positions/s':>13} {'games/min':>10}"
    for label, chosen in ((f"all {len(games)} games", games), (f"games {', '.join(map(str, named))}", named)):
        if not chosen:
            continue
        print(f"\n{label}:")
        print(header)
        rows = []
        for tally in (old, new):
            nodes, cpu, rate, per_minute = tally.summary(chosen)
            rows.append((nodes, cpu, rate, per_minute))
            label = f"{tally.name} {tally.version}"
            print(f"{label:24} {nodes:>13,} {cpu:>9.2f} {rate:>13,.0f} {per_minute:>10.1f}")
        (n0, c0, r0, m0), (n1, c1, r1, m1) = rows
        print(f"{'ratio new / baseline':24} {ratio(n1, n0):>13} {ratio(c1, c0):>9} {ratio(r1, r0):>13} "
              f"{ratio(m1, m0):>10}")
    print("\neach named game (positions and CPU seconds, baseline then new, and the ratios):")
    for game in named:
        a, b = old.results[game], new.results[game]
        print(f"  game {game}: {a.outcome} {a.nodes:,} in {a.cpu:.2f} s | "
              f"{b.outcome} {b.nodes:,} in {b.cpu:.2f} s | "
              f"positions {ratio(b.nodes, a.nodes)}, CPU {ratio(b.cpu, a.cpu)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="b28c289", help="the commit to compare with (default b28c289)")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--games", type=games_list, default=list(HARD),
                        help="games always solved and shown one by one (default 388,2741,3522)")
    parser.add_argument("--sample", type=int, default=47, help="more games drawn from 1-10,000 (default 47)")
    parser.add_argument("--seed", type=int, default=21, help="the seed of the draw (default 21)")
    parser.add_argument("--budget", type=int, default=10**9, help="positions per game, for both")
    parser.add_argument("--memory-mb", type=int, default=8192, help="megabytes per game, for both")
    parser.add_argument("--core", default="compiled", choices=("compiled", "python", "auto"),
                        help="which loop of each solver searches (default compiled)")
    parser.add_argument("--verbose", action="store_true", help="a line per game as it is solved")
    args = parser.parse_args(argv)
    if args.sample < 0 or args.budget < 1 or args.memory_mb < 1:
        parser.error("--sample is at least 0, --budget and --memory-mb at least 1")
    games = chosen_games(args.games, args.sample, args.seed)
    print(f"Python {platform.python_version()} on {platform.machine()}; rules {args.rules}; "
          f"{args.budget:,} positions and {args.memory_mb:,} MB per game; {len(games)} games "
          f"({', '.join(map(str, args.games))} and {args.sample} drawn with seed {args.seed}); "
          f"core {args.core}",
          flush=True)
    with baseline_checkout(args.baseline) as folder:
        workers: list[Worker] = []
        try:
            for place in (folder, ROOT):
                workers.append(Worker(place, args.rules, args.budget, args.memory_mb, args.core))
            old = Tally(f"baseline {args.baseline}", workers[0].version)
            new = Tally("this checkout", workers[1].version)
            for game in games:
                for worker, tally in zip(workers, (old, new), strict=True):
                    tally.results[game] = worker.solve(game)
                    if args.verbose:
                        r = tally.results[game]
                        print(f"  {tally.name}: game {game} {r.outcome} {r.nodes:,} positions {r.cpu:.2f} s",
                              flush=True)
        finally:
            for worker in workers:
                worker.close()
    disagreements = [g for g in games if {old.results[g].outcome, new.results[g].outcome} == {"won", "lost"}]
    report(old, new, games, args.games)
    for game in disagreements:
        print(f"DISAGREEMENT on game {game}: baseline {old.results[game].outcome}, "
              f"new {new.results[game].outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
