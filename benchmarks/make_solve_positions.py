"""Make the proven positions of the solve checks (run once by hand, then review the file).

    .venv/bin/python benchmarks/make_solve_positions.py [--out FILE]

Writes ``scorpion_conformance/solving_checks/positions.json``: positions
whose answer the reference solver proved, each with its rule set, the
answer (``won`` or ``lost``), the reference's node count, a winning line
for ``won``, and a sentence saying why it is in the set. Every answer is
proved twice, by :func:`scorpion_ref.solver.solve` and by the unreduced
:func:`scorpion_ref.solver.plain_solve`, and every line is replayed
through :func:`scorpion_ref.apply`; a disagreement stops the script.

The set holds, under ``standard``, ``classic`` and ``aisleriot``:

* PySolFC deals decided within a small budget, won and lost, and a won deal
  whose stock dealt at once loses;
* small positions won in a few moves;
* positions winnable only with a precise stock timing: along the winning
  line the stock is dealt at one moment, and dealing it at any earlier moment
  of that line loses (each earlier timing is proved lost too);
* positions that look alive (several moves available) but are proved lost.

The search for the small positions draws them from a fixed seed, so the
file is the same on every run of the same solver.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from scorpion_ref import (
    Column,
    Deal,
    Position,
    RuleSet,
    Status,
    apply,
    available_actions,
    deal_game,
    get_ruleset,
    is_legal,
    status,
)
from scorpion_ref.cards import DECK, Card
from scorpion_ref.serial import action_to_json, position_to_json
from scorpion_ref.solver import SOLVER_VERSION, Budget, Solution, plain_solve, solve

OUT = Path(__file__).resolve().parents[1] / "scorpion_conformance" / "solving_checks" / "positions.json"

#: The most positions a kept entry may take the reference to decide (the checks must stay quick).
KEEP_NODES = 6000
BUDGET = Budget(nodes=60_000, memory_mb=512)


def proved(position: Position, rules: RuleSet) -> Solution:
    """The answer, proved by the solver and by the plain search; raises SystemExit if they disagree."""
    fast = solve(position, rules, BUDGET)
    if fast.outcome == "unknown":
        return fast
    plain = plain_solve(position, rules, BUDGET)
    if plain.outcome not in ("unknown", fast.outcome):
        sys.exit(f"the solver says {fast.outcome}, the plain search {plain.outcome}: {position!r}")
    if fast.outcome == "won":
        replay(position, rules, fast.line)
    return fast


def replay(position: Position, rules: RuleSet, line: tuple[object, ...]) -> None:
    here = position
    for action in line:
        here = apply(here, rules, action).position  # type: ignore[arg-type]
    if status(here, rules) is not Status.WON:
        sys.exit(f"a line of the solver does not win: {position!r}")


def deal_timings(position: Position, rules: RuleSet, line: tuple[object, ...]) -> list[int] | None:
    """Where the deal could move to along ``line`` and still win: the winnable earlier moments.

    None when the line has no deal. The result lists each earlier moment i
    (the deal played after the first i actions of the line) from which the
    game is still won; [] means every earlier deal loses.
    """
    moments = [i for i, action in enumerate(line) if isinstance(action, Deal)]
    if not moments:
        return None
    winnable = []
    here = position
    for i, action in enumerate(line[: moments[0]]):
        dealt = apply(here, rules, Deal()).position
        outcome = proved(dealt, rules).outcome
        if outcome != "lost":
            winnable.append(i)
        here = apply(here, rules, action).position  # type: ignore[arg-type]
    return winnable


def entry(name: str, rules: str, position: Position, solution: Solution, why: str) -> dict[str, object]:
    found: dict[str, object] = {
        "name": name,
        "rules": rules,
        "answer": solution.outcome,
        "reference_nodes": solution.nodes,
        "why": why,
        "position": position_to_json(position),
    }
    if solution.outcome == "won":
        found["line"] = [action_to_json(a) for a in solution.line]
    else:
        found["reference_proof"] = solution.proof
    return found


def dealt_too_early(rules_name: str, game: int, solution: Solution) -> list[dict[str, object]]:
    """The won deal with its stock dealt at once, when that loses: a deal whose stock timing matters."""
    rules = get_ruleset(rules_name)
    start = deal_game(game)
    if not is_legal(start, rules, Deal()):
        return []
    dealt = apply(start, rules, Deal()).position
    at_once = proved(dealt, rules)
    if at_once.outcome != "lost":
        return []
    here, first_winnable = start, None
    for i, action in enumerate(solution.line[: solution.line.index(Deal())]):
        if i and proved(apply(here, rules, Deal()).position, rules).outcome == "won":
            first_winnable = i
            break
        here = apply(here, rules, action).position  # type: ignore[arg-type]
    later = (f"; dealt after the first {first_winnable} actions of the winning line, it is still won"
             if first_winnable else "")
    why = (f"PySolFC game {game} under {rules_name} with its stock dealt at once: lost, although the"
           f" deal itself is won{later}")
    return [entry(f"{rules_name}-game-{game}-dealt-at-once", rules_name, dealt, at_once, why)]


def small_positions(rng: random.Random, suits: str, runs_pieces: int) -> Iterator[Position]:
    """Positions of the given suits' cards, each suit's run cut into pieces and scattered."""
    while True:
        pieces: list[list[Card]] = []
        for suit in suits:
            run = [c for c in DECK if c.suit.value == suit]
            run.sort(key=lambda c: -int(c.rank))
            cuts = sorted(rng.sample(range(1, 13), runs_pieces - 1))
            bounds = [0, *cuts, 13]
            pieces += [run[a:b] for a, b in itertools.pairwise(bounds)]
        rng.shuffle(pieces)
        columns: list[list[Card]] = [[] for _ in range(7)]
        for piece in pieces:
            columns[rng.randrange(7)].extend(piece)
        stock: list[Card] = []
        for _ in range(3):
            full = [c for c in columns if c]
            stock.append(rng.choice(full).pop())
        made = []
        for cards in columns:
            down = rng.randrange(0, min(3, len(cards))) if len(cards) > 1 else 0
            made.append(Column(tuple(cards[:down]), tuple(cards[down:])))
        collected = "".join(s for s in "CDHS" if s not in suits)
        yield Position.build(made, rng.sample(stock, 3), collected)


def find(rng: random.Random, rules_name: str, suits: str, pieces: int, want: str,
         tries: int = 4000) -> tuple[Position, Solution, object] | None:
    rules = get_ruleset(rules_name)
    generator = small_positions(rng, suits, pieces)
    for _ in range(tries):
        position = next(generator)
        if status(position, rules) is not Status.PLAYING:
            continue
        quick = solve(position, rules, Budget(nodes=KEEP_NODES))
        if quick.outcome == "unknown":
            continue
        if want == "few-moves" and quick.outcome == "won" and len(quick.line) <= 6:
            return position, proved(position, rules), None
        if want == "alive-lost" and quick.outcome == "lost" and quick.nodes >= 40:
            moves = [a for a in available_actions(position, rules) if not isinstance(a, Deal)]
            if len(moves) >= 3:
                return position, proved(position, rules), len(moves)
        if want == "timing" and quick.outcome == "won" and 2 <= len(quick.line) <= 40:
            timings = deal_timings(position, rules, quick.line)
            if timings == [] and quick.line.index(Deal()) >= 1:
                return position, proved(position, rules), quick.line.index(Deal())
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    entries: list[dict[str, object]] = []

    for rules_name, games in (("standard", (5, 12, 30)), ("classic", (5, 12, 30))):
        rules = get_ruleset(rules_name)
        for game in games:
            solution = proved(deal_game(game), rules)
            if solution.outcome == "unknown":
                continue
            why = (f"PySolFC game {game}, a whole deal: {solution.outcome} under {rules_name}"
                   + (f" in {len(solution.line)} actions" if solution.outcome == "won" else
                      f", although {len(available_actions(deal_game(game), rules))} action(s)"
                      " are available at the start"))
            entries.append(entry(f"{rules_name}-game-{game}", rules_name, deal_game(game), solution, why))
            if solution.outcome == "won" and Deal() in solution.line[1:]:
                entries.extend(dealt_too_early(rules_name, game, solution))

    plans = [
        ("standard", "S", 3, "few-moves"), ("standard", "HS", 2, "timing"), ("standard", "S", 3, "timing"),
        ("standard", "HS", 3, "alive-lost"), ("standard", "DHS", 3, "alive-lost"),
        ("classic", "CDHS", 2, "few-moves"), ("classic", "CDHS", 4, "alive-lost"),
        ("aisleriot", "HS", 2, "few-moves"), ("aisleriot", "HS", 2, "timing"),
        ("aisleriot", "DHS", 3, "alive-lost"),
    ]
    counts: dict[str, int] = {}
    for rules_name, suits, pieces, want in plans:
        found = find(rng, rules_name, suits, pieces, want)
        if found is None:
            print(f"nothing found for {rules_name} {want} over {suits}", file=sys.stderr)
            continue
        position, solution, extra = found
        key = f"{rules_name}-{want}"
        counts[key] = counts.get(key, 0) + 1
        name = f"{key}-{counts[key]}"
        if want == "few-moves":
            why = f"won in {len(solution.line)} actions"
        elif want == "timing":
            why = (f"winnable only with the stock dealt late enough: the line deals after {extra}"
                   " action(s), and dealing after any fewer of them loses (each proved lost)")
        else:
            why = f"looks alive ({extra} moves available) but every line is lost"
        entries.append(entry(name, rules_name, position, solution, why))
        print(f"{name}: {solution.outcome} in {solution.nodes} nodes; {why}", file=sys.stderr)

    data = {
        "$comment": [
            "Proven answers for the solve checks of check-adapter (scorpion_conformance/solving_checks).",
            "Made once by benchmarks/make_solve_positions.py with the reference solver; every answer was",
            "proved again by the unreduced search and every line replayed through the engine. Review",
            "changes to this file like code. 'line' is the reference's own winning line, for the reader:",
            "an adapter may find another.",
        ],
        "solver_version": SOLVER_VERSION,
        "positions": entries,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(entries)} positions to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
