"""Check the committed winnability results against the engine and an unreduced search (run by hand).

    .venv/bin/python benchmarks/audit_results.py [--budget 20000] [--against FOLDER] [FILE ...]

For each results file (default: every file in ``data/winnability/``), the
record that counts for each game is checked:

* a ``won`` record: its line is replayed through the engine's own
  :func:`scorpion_ref.apply` from the deal, and must end in a won status;
* a ``lost`` record: the game is searched again with none of the solver's
  reductions (``reduced=False``: the whole state as the key, every empty
  column a target, no dead-deal theorem, no move ordering) within
  ``--budget`` positions. Where that search decides, it must say lost.

It prints, per file, how many lines replayed, how many lost games the
unreduced search confirmed, and how many it could not decide within the
budget; any disagreement is printed and makes the exit status 1. The
tests do the same on a sample (``tests/test_solving_campaign.py``); this
does it for every record.

With ``--against FOLDER`` (the results of another solver, or of an earlier
version: ``git archive b28c289 data/winnability | tar -x -C /tmp/old``), each
file is also compared game by game with the file of the same rule set
there: a game decided in both must have the same outcome (else a
DISAGREEMENT: one of the two solvers is wrong), and it prints how many
agree and how many only one of them decided.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from scorpion_conformance.solving.lines import read_line
from scorpion_conformance.solving.results import best_records, read_records
from scorpion_ref import Status, apply, deal_game, get_ruleset, status
from scorpion_ref.solver import Budget
from scorpion_ref.solver.search import search

DATA = Path(__file__).resolve().parents[1] / "data" / "winnability"


def audit(path: Path, budget: int) -> int:
    """Check one file; print its figures and return the number of disagreements."""
    started = time.process_time()
    records = read_records(path)
    best = best_records(records)
    replayed = confirmed = undecided = 0
    wrong: list[str] = []
    for game, record in sorted(best.items()):
        rules = get_ruleset(record.rules)
        start = deal_game(game)
        if record.outcome == "won":
            here = start
            for action in read_line(record.line or ""):
                here = apply(here, rules, action).position
            if status(here, rules) is Status.WON:
                replayed += 1
            else:
                wrong.append(f"game {game}: its line does not win")
        elif record.outcome == "lost":
            found = search(start, rules, Budget(nodes=budget, memory_mb=2048), reduced=False)
            if found.outcome == "lost":
                confirmed += 1
            elif found.outcome == "unknown":
                undecided += 1
            else:
                wrong.append(f"game {game}: the unreduced search won it ({len(found.line)} actions)")
    lost = sum(r.outcome == "lost" for r in best.values())
    print(f"{path.name}: {len(best):,} games; {replayed:,} won lines replay to won; of {lost:,} lost, "
          f"{confirmed:,} confirmed by the unreduced search within {budget:,} positions and "
          f"{undecided:,} not decided by it; {len(wrong)} disagreements "
          f"({time.process_time() - started:,.0f} CPU s)", flush=True)
    for problem in wrong:
        print(f"  DISAGREEMENT {path.name} {problem}")
    return len(wrong)


def compare(path: Path, folder: Path) -> int:
    """Compare one file with the file of the same rule set in ``folder``; the number of disagreements."""
    name = path.name.removesuffix(".gz")
    other = next((p for p in (folder / name, folder / f"{name}.gz") if p.exists()), None)
    if other is None:
        print(f"{path.name}: no {name} in {folder} to compare with")
        return 0
    mine, theirs = best_records(read_records(path)), best_records(read_records(other))
    both = sorted(set(mine) & set(theirs))
    decided = [g for g in both if mine[g].decided and theirs[g].decided]
    wrong = [g for g in decided if mine[g].outcome != theirs[g].outcome]
    only_mine = sum(mine[g].decided and not theirs[g].decided for g in both)
    only_theirs = sum(theirs[g].decided and not mine[g].decided for g in both)
    print(f"{path.name} against {other}: {len(both):,} games in both; {len(decided) - len(wrong):,} decided "
          f"alike, {only_mine:,} decided here only, {only_theirs:,} there only; {len(wrong)} disagreements")
    for game in wrong:
        print(f"  DISAGREEMENT {path.name} game {game}: {mine[game].outcome} here, "
              f"{theirs[game].outcome} there")
    return len(wrong)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="results files (default: data/winnability/*)")
    parser.add_argument("--budget", type=int, default=20_000, help="positions for each unreduced search")
    parser.add_argument("--against", type=Path, metavar="FOLDER",
                        help="also compare each file with the file of the same rule set in FOLDER")
    args = parser.parse_args(argv)
    files = args.files or sorted([*DATA.glob("*.jsonl"), *DATA.glob("*.jsonl.gz")])
    wrong = sum(compare(path, args.against) for path in files) if args.against else 0
    return 1 if wrong + sum(audit(path, args.budget) for path in files) else 0


if __name__ == "__main__":
    sys.exit(main())
