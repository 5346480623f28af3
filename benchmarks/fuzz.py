"""How fast the differential fuzzer plays through the protocol (run by hand, not a test).

    /work/venv/bin/python benchmarks/fuzz.py [--games 200] [--seed 1]

For every named rule set, the same seeded games are played twice:

* through the protocol: the reference adapter in its own process, every
  answer read from a pipe and checked against the protocol's schema by the
  harness client, exactly as ``scorpion-conformance fuzz`` does;
* a baseline measured in the same run: the same games against the reference
  adapter's session called in this process (no process, no pipe, no schema
  check), so the ratio is what the protocol costs.

Both sides play identical games (the choices depend only on the seed and the
reference engine). Rates are steps (actions, undos and refused probes) and
legal actions compared per second. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
import time

from scorpion_conformance.client import AdapterClient
from scorpion_conformance.fuzz import FuzzOptions, run_fuzz
from scorpion_conformance.reference import in_process
from scorpion_ref import RULESETS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per rule set")
    parser.add_argument("--seed", type=int, default=1, help="the fuzzer's seed")
    args = parser.parse_args(argv)
    command = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games "
          f"per rule set, seed {args.seed}")
    header = (f"{'rule set':<10} {'steps':>7} {'steps/s':>9} {'actions/s':>10} "
              f"{'in-process steps/s':>19} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    options = FuzzOptions(games=args.games, seed=args.seed)
    for name, rules in RULESETS.items():
        with AdapterClient(command, timeout=30) as client:
            client.hello()
            began = time.perf_counter()
            failure, stats = run_fuzz(client, name, rules, options, progress=False)
            piped = time.perf_counter() - began
        began = time.perf_counter()
        local_failure, local = run_fuzz(in_process(), name, rules, options, progress=False)
        direct = time.perf_counter() - began
        assert failure is None and local_failure is None and local.steps == stats.steps
        print(f"{name:<10} {stats.steps:>7,} {stats.steps / piped:>9,.0f} "
              f"{stats.actions_compared / piped:>10,.0f} {local.steps / direct:>19,.0f} "
              f"{(local.steps / direct) / (stats.steps / piped):>5.1f}x")
    print("ratio: how many times faster the same games run without the protocol")
    return 0


if __name__ == "__main__":
    sys.exit(main())
