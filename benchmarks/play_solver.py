"""The Play page's solver under Node against the compiled Python core, in the same run (by hand).

    nice -n 19 .venv/bin/python benchmarks/play_solver.py [--games 1-1000] [--rules standard,classic]
        [--losing 200] [--budget 2000000] [--seed 23]

The positions: for every game of the range that the committed campaign
(``data/winnability/``) won under a rule set, every position along its committed
winning line (the start, and the position before each of its actions); then
``--losing`` positions one losing move away from those lines: a position of a
line with another of its legal actions played, kept when the compiled core
proves it lost (drawn with ``--seed``).

Each position is solved once by the compiled core
(:func:`scorpion_ref.solver.solve`, ``core="compiled"``, which also replays its
line through the engine) and once by ``adapters/javascript/solver.js`` (its
``search``, in one Node process for all positions), with the same budget of
positions. Times are CPU seconds around each search (the machine may be shared):
``time.process_time`` in Python, ``process.cpuUsage`` in Node.

It prints, per rule set and kind of position, and over all: how many, positions
decided per second of each solver, the ratio (JavaScript / Python; above 1 the
JavaScript is faster), and the share each decided within 1 s and within 5 s.
It also counts the positions where the two disagree on a decided outcome (a bug),
where their node counts differ (a port that searches in another order), and the
JavaScript lines that do not replay to a won status through the reference engine
(a bug). Nothing is asserted: the figures are for people.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scorpion_conformance.solving.lines import read_line
from scorpion_conformance.solving.results import read_records
from scorpion_ref import Position, Status, apply, deal_game, get_ruleset, legal_actions, status
from scorpion_ref.serial import action_from_json, position_to_json
from scorpion_ref.solver import Budget, solve
from scorpion_ref.solver.search import chosen_core

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "adapters" / "javascript"
SOLVE_ALL = """
const E = require(process.argv[1] + '/engine.js');
const S = require(process.argv[1] + '/solver.js');
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
const out = [];
for (const l of lines) {
  const r = JSON.parse(l);
  const position = E.validatePosition(r.position);
  const before = process.cpuUsage();
  const answer = S.search(position, E.NAMED[r.rules], r.budget);
  const used = process.cpuUsage(before);
  out.push({ ...answer, seconds: (used.user + used.system) / 1e6 });
}
process.stdout.write(JSON.stringify(out));
"""


@dataclass
class Item:
    rules: str
    kind: str  # "line" or "losing"
    position: Position


def games_of(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def winning_lines(rules: str, games: range) -> list[tuple[int, list[object]]]:
    data = ROOT / "data" / "winnability" / f"{rules}.jsonl"
    path = data if data.exists() else data.with_suffix(".jsonl.gz")
    found = {}
    for record in read_records(path):
        if record.outcome == "won" and record.line and record.game in games:
            found[record.game] = read_line(record.line)
    return sorted(found.items())


def positions(rules_names: list[str], games: range, losing: int, budget: int, seed: int) -> list[Item]:
    items: list[Item] = []
    along: list[tuple[str, Position, object]] = []
    for rules in rules_names:
        ruleset = get_ruleset(rules)
        for game, line in winning_lines(rules, games):
            here = deal_game(game)
            for action in line:
                items.append(Item(rules, "line", here))
                along.append((rules, here, action))
                here = apply(here, ruleset, action).position  # type: ignore[arg-type]
    chosen = random.Random(seed)
    chosen.shuffle(along)
    found = 0
    for rules, here, action in along:
        if found >= losing:
            break
        ruleset = get_ruleset(rules)
        others = [a for a in legal_actions(here, ruleset) if a != action]
        if not others:
            continue
        child = apply(here, ruleset, chosen.choice(others)).position
        if solve(child, ruleset, Budget(nodes=budget), core="compiled").outcome == "lost":
            items.append(Item(rules, "losing", child))
            found += 1
    return items


def run_python(items: list[Item], budget: int) -> list[dict[str, object]]:
    answers = []
    for item in items:
        started = time.process_time()
        solution = solve(item.position, get_ruleset(item.rules), Budget(nodes=budget), core="compiled")
        answers.append({"outcome": solution.outcome, "nodes": solution.nodes,
                        "seconds": time.process_time() - started})
    return answers


def run_javascript(items: list[Item], budget: int) -> list[dict[str, object]]:
    node = shutil.which("node")
    if node is None:
        sys.exit("node is not installed")
    lines = [{"position": position_to_json(i.position), "rules": i.rules, "budget": budget} for i in items]
    requests = "\n".join(map(json.dumps, lines))
    done = subprocess.run([node, "--max-old-space-size=4096", "-e", SOLVE_ALL, str(JS)], input=requests,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def replays(item: Item, line: list[dict[str, object]]) -> bool:
    ruleset = get_ruleset(item.rules)
    here = item.position
    for action in line:
        here = apply(here, ruleset, action_from_json(action)).position
    return status(here, ruleset) is Status.WON


def report(label: str, rows: list[tuple[Item, dict[str, object], dict[str, object]]]) -> None:
    if not rows:
        return
    n = len(rows)

    def rate(side: int) -> float:
        seconds = sum(float(r[side]["seconds"]) for r in rows)  # type: ignore[arg-type]
        return n / seconds if seconds else float("inf")

    def within(side: int, limit: float) -> float:
        decided = [r for r in rows if r[side]["outcome"] != "unknown"]
        return sum(1 for r in decided if float(r[side]["seconds"]) <= limit) / n  # type: ignore[arg-type]

    python, javascript = rate(1), rate(2)
    print(f"{label:<18} {n:>6}  {python:>10.1f}  {javascript:>10.1f}  {javascript / python:>6.2f}  "
          f"{within(1, 1):>6.1%} {within(1, 5):>6.1%}  {within(2, 1):>6.1%} {within(2, 5):>6.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1-1000")
    parser.add_argument("--rules", default="standard,classic")
    parser.add_argument("--losing", type=int, default=200)
    parser.add_argument("--budget", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    if chosen_core("auto") != "compiled":
        sys.exit("the compiled core of the solver is not built here: pip install -e . with a C compiler")
    names = args.rules.split(",")
    started = time.monotonic()
    items = positions(names, games_of(args.games), args.losing, args.budget, args.seed)
    print(f"{len(items)} positions ({sum(i.kind == 'losing' for i in items)} one losing move away), "
          f"games {args.games}, budget {args.budget:,} positions; "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}; "
          f"chosen in {time.monotonic() - started:.0f} s")
    python = run_python(items, args.budget)
    javascript = run_javascript(items, args.budget)
    rows = list(zip(items, python, javascript, strict=True))
    disagree = [r for r in rows if "unknown" not in (r[1]["outcome"], r[2]["outcome"])
                and r[1]["outcome"] != r[2]["outcome"]]
    other_nodes = sum(1 for r in rows if r[1]["nodes"] != r[2]["nodes"])
    won = [(item, js) for item, _p, js in rows if js["outcome"] == "won"]
    bad_lines = sum(1 for item, js in won if not replays(item, js["line"]))  # type: ignore[arg-type]
    print()
    print("positions decided per CPU second, and the share decided within 1 s and 5 s")
    print(f"{'':<18} {'count':>6}  {'python/s':>10}  {'js/s':>10}  {'ratio':>6}  "
          f"{'py 1s':>6} {'py 5s':>6}  {'js 1s':>6} {'js 5s':>6}")
    for rules in names:
        for kind in ("line", "losing"):
            report(f"{rules} {kind}", [r for r in rows if r[0].rules == rules and r[0].kind == kind])
    report("all", rows)
    outcomes = {o: sum(1 for r in rows if r[2]["outcome"] == o) for o in ("won", "lost", "unknown")}
    print()
    print(f"JavaScript outcomes: {outcomes}; disagreements on a decided outcome: {len(disagree)}; "
          f"node counts that differ: {other_nodes}; JavaScript lines that do not replay: {bad_lines}")
    for item, p, js in disagree[:5]:
        shown = json.dumps(position_to_json(item.position))
        print("DISAGREEMENT", item.rules, shown, p["outcome"], js["outcome"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
