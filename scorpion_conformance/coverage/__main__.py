"""``python -m scorpion_conformance.coverage``: measure what the scenarios cover, print the
figures, and every gap with no reason in ``data/coverage/gaps.yaml`` (exit status 1 when
there is one, or a reason whose gap a scenario has filled)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..suite.scenarios import FeatureProblem, load_cases
from .gaps import GAPS_FILE, GapsError, load_reasons
from .measure import measure
from .tables import gaps, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorpion_conformance.coverage",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--features", type=Path, help="a folder of feature files instead of the shipped ones")
    parser.add_argument("--gaps", type=Path, default=GAPS_FILE, help="the file of reasons for gaps")
    args = parser.parse_args(argv)
    try:
        reasons = load_reasons(args.gaps)
    except GapsError as error:
        print(f"python -m scorpion_conformance.coverage: {error} (the reasons live in the repository's "
              "data/coverage/gaps.yaml: run from a checkout, or name the file with --gaps)", file=sys.stderr)
        return 2
    try:
        cases = load_cases(args.features) if args.features else load_cases()
    except FeatureProblem as error:
        print(f"python -m scorpion_conformance.coverage: {error}", file=sys.stderr)
        return 2
    if not cases:
        print(f"python -m scorpion_conformance.coverage: --features {args.features}: no scenario there",
              file=sys.stderr)
        return 2
    measurement = measure(cases)
    reasons = load_reasons(args.gaps, measurement.rulesets)
    figures = summary(measurement, reasons)
    print(f"{figures['conditions']} conditions in {figures['decisions']} decisions "
          f"({figures['rule conditions']} read the rule set alone); {measurement.cases} cases")
    for rules, counts in figures["per rule set"].items():
        print(f"  {rules}: {counts['shown']} of {counts['can matter']} conditions shown flipping an "
              "outcome alone")
    across = figures["across rule sets"]
    print(f"  between rule sets: {across['shown']} of {across['can matter']} rule conditions shown")
    for table in ("matrix", "reasons", "undo"):
        t = figures[table]
        print(f"{table}: {t['filled']} of {t['cells']} cells filled, {t['empty with a reason']} empty "
              f"with a reason, {t['empty without a reason']} empty without one")
    found = gaps(measurement)
    missing = [key for keys in found.values() for key in keys if key not in reasons]
    stale = sorted(set(reasons) - {key for keys in found.values() for key in keys})
    for key in missing:
        print(f"gap with no scenario and no reason: {key}")
    for key in stale:
        print(f"reason for a gap a scenario has filled: {key} (remove it from {args.gaps})")
    for problem in measurement.broken:
        print(f"a scenario the reference fails: {problem}")
    return 1 if missing or stale or measurement.broken else 0


if __name__ == "__main__":
    sys.exit(main())
