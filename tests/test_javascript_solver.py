"""The JavaScript solver and deals (the Play page's) held equal to the reference.

``adapters/javascript/solver.js`` ports the reference solver's compact search; on a
fixed sample of positions under every named rule set (along the committed winning
lines of ``data/winnability/``, and one other legal action away from them) it must
decide what the Python core decides, and every line it calls winning must replay to a
won status through the reference engine. ``adapters/javascript/deal.js`` must deal
every game number as ``scorpion_ref.deal_game`` does. The big comparison, with the
times, is ``benchmarks/play_solver.py``.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from programs import node

from scorpion_conformance.solving.lines import read_line
from scorpion_conformance.solving.results import read_records
from scorpion_ref import Position, Status, apply, deal_game, get_ruleset, legal_actions, status
from scorpion_ref.serial import action_from_json, position_to_json
from scorpion_ref.solver import Budget, solve

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "adapters" / "javascript"
NAMED = ("standard", "classic", "wasp", "pysolfc", "aisleriot")
BUDGET = 50_000

#: Solve each line of stdin ({position, rules, budget}) with the JavaScript solver.
SOLVE_ALL = """
const E = require(process.argv[1] + '/engine.js');
const S = require(process.argv[1] + '/solver.js');
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
console.log(JSON.stringify(lines.map((l) => {
  const r = JSON.parse(l);
  return S.search(E.validatePosition(r.position), E.NAMED[r.rules], r.budget);
})));
"""


def sample(rules: str, games: int = 3, seed: int = 23) -> list[Position]:
    """Positions along the first committed winning lines under ``rules``, every third one with
    a sibling: the position after another legal action (which may lose)."""
    data = ROOT / "data" / "winnability" / f"{rules}.jsonl"
    path = data if data.exists() else data.with_suffix(".jsonl.gz")
    won = sorted((r for r in read_records(path) if r.outcome == "won" and r.line), key=lambda r: r.game)
    chosen = random.Random(seed)
    ruleset = get_ruleset(rules)
    found: list[Position] = []
    for record in won[:games]:
        here = deal_game(record.game)
        for k, action in enumerate(read_line(record.line or "")):
            found.append(here)
            if k % 3 == 0:
                others = [a for a in legal_actions(here, ruleset) if a != action]
                if others:
                    found.append(apply(here, ruleset, chosen.choice(others)).position)
            here = apply(here, ruleset, action).position
    return found


def js_solve(rules: str, positions: list[Position], budget: int) -> list[dict[str, Any]]:
    requests = "\n".join(json.dumps({"position": position_to_json(p), "rules": rules, "budget": budget})
                         for p in positions)
    done = subprocess.run([node(), "-e", SOLVE_ALL, str(JS)], input=requests, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("rules", NAMED)
def test_the_javascript_solver_decides_what_the_python_core_decides(rules: str) -> None:
    ruleset = get_ruleset(rules)
    positions = sample(rules)
    answers = js_solve(rules, positions, BUDGET)
    both = 0
    for position, js in zip(positions, answers, strict=True):
        python = solve(position, ruleset, Budget(nodes=BUDGET))
        if python.outcome != "unknown" and js["outcome"] != "unknown":
            both += 1
            assert js["outcome"] == python.outcome, (position_to_json(position), js, python)
        if js["outcome"] == "won":
            here = position
            for action in js["line"]:
                here = apply(here, ruleset, action_from_json(action)).position
            assert status(here, ruleset) is Status.WON, (position_to_json(position), js["line"])
        else:
            assert "line" not in js
    assert len(positions) > 100 and both >= 0.9 * len(positions), (rules, both, len(positions))


def test_the_javascript_deals_are_pysolfcs() -> None:
    games = [1, 2, 3, 5, 619, 9999, 31999, 32000, 32001, 40001, 100_000, 123_456_789, 2**40 + 3]
    script = ("const D = require(process.argv[1] + '/deal.js');"
              "console.log(JSON.stringify(process.argv.slice(2).map(Number).map(D.dealGame)))")
    done = subprocess.run([node(), "-e", script, str(JS), *map(str, games)], capture_output=True, text=True,
                          timeout=60, check=True)
    for game, dealt in zip(games, json.loads(done.stdout), strict=True):
        assert dealt == position_to_json(deal_game(game)), game
