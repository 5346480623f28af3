"""A campaign's throughput with 1 and 2 local workers and on a 2-worker Dask LocalCluster (run by hand).

    .venv/bin/python benchmarks/campaign.py [--games 1-400] [--rules standard] [--budget 200000]

The same games, rule set and budget go through each backend of
:mod:`scorpion_conformance.solving.pool` in turn, in this one run: local
worker processes (1, then 2) and a ``dask.distributed`` ``LocalCluster`` of 2
single-threaded worker processes. It prints the games solved per second of
wall-clock time for each, and each one's ratio to the 1-worker run measured
just before it (the machine is shared and noisy; only a ratio taken in the
same run means anything). Every backend must find the same outcomes; a game
on which they differ is printed as a DISAGREEMENT. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

from scorpion_conformance.solving.pool import Task, run_dask, run_local
from scorpion_conformance.solving.results import Record
from scorpion_ref.solver.search import chosen_core

Backend = Callable[[list[Task], Callable[[Record], None]], None]


def game_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def timed(name: str, backend: Backend, tasks: list[Task]) -> tuple[float, dict[int, str]]:
    """Run the tasks through one backend; print and return its games per second and the outcomes."""
    outcomes: dict[int, str] = {}
    started = time.monotonic()
    backend(tasks, lambda record: outcomes.__setitem__(record.game, record.outcome))
    seconds = time.monotonic() - started
    rate = len(outcomes) / seconds
    print(f"{name:<22} {len(outcomes):,} games in {seconds:7.1f} s = {rate:7.2f} games/s", flush=True)
    return rate, outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=game_range, default=game_range("1-400"))
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--budget", type=int, default=200_000)
    parser.add_argument("--memory-mb", type=int, default=1024)
    args = parser.parse_args(argv)
    tasks: list[Task] = [(game, args.rules, (args.budget,), args.memory_mb) for game in args.games]
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.rules}, games {args.games.start}-{args.games.stop - 1}, {args.budget:,} positions each; "
          f"{chosen_core()} core", flush=True)
    one, base = timed("local, 1 worker", lambda t, on: run_local(t, 1, on), tasks)
    two, outcomes = timed("local, 2 workers", lambda t, on: run_local(t, 2, on), tasks)
    print(f"  ratio to 1 worker: {two / one:.2f}")
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  memory_limit=f"{args.memory_mb + 512}MiB") as cluster:
        one_again, _ = timed("local, 1 worker (again)", lambda t, on: run_local(t, 1, on), tasks)
        address = cluster.scheduler_address
        dask, on_dask = timed("Dask LocalCluster, 2", lambda t, on: run_dask(t, address, on), tasks)
    print(f"  ratio to the 1-worker run just before: {dask / one_again:.2f}")
    for game in sorted(base):
        if not base[game] == outcomes.get(game) == on_dask.get(game):
            print(f"DISAGREEMENT on game {game}: {base[game]}, {outcomes.get(game)}, {on_dask.get(game)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
