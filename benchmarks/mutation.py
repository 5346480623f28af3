"""The whole mutation campaign, run by hand, in parallel over the cores (not a test).

    nice -n 10 .venv/bin/python benchmarks/mutation.py [--workers 2] [--write]
    .venv/bin/python benchmarks/mutation.py --module game --limit 20

Every mutant of ``scorpion_conformance.mutation.mutants`` is run against the
conformance scenarios alone, through the protocol (named rule sets first, every
bundle of options for a mutant that survives them), each in a scratch copy of
``scorpion_ref`` beside, never in, the tree it reads (``--root``). Prints each
survivor as it is found, then the figures and the time taken. ``--write`` stores
the records as ``data/mutation/campaign.json`` (what ``docs/strength.md`` is
built from). Nothing is asserted, and no time is judged.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from scorpion_conformance.mutation.campaign import load_equivalents, run_mutants, status_of
from scorpion_conformance.mutation.mutants import enumerate_mutants
from scorpion_conformance.mutation.results import (
    CAMPAIGN_FILE,
    EQUIVALENT_FILE,
    SAMPLE_FILE,
    area_of,
    campaign_document,
    draw_sample,
    in_scope,
    with_before,
)
from scorpion_conformance.site.strength import summary

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree whose scorpion_ref is mutated")
    parser.add_argument("--module", help="only this module (engine, rules, ...)")
    parser.add_argument("--key", help="only mutants whose key matches this glob")
    parser.add_argument("--limit", type=int, help="only the first N mutants")
    parser.add_argument("--features", help="a folder of feature files instead of the shipped ones")
    parser.add_argument("--timeout", type=float, default=3.0,
                        help="seconds to wait for each answer of a mutant's adapter (default 3); a "
                             "mutant that keeps it waiting longer is 'timeout': raise it on a busy machine")
    parser.add_argument("--write", action="store_true", help=f"write {CAMPAIGN_FILE}")
    parser.add_argument("--out", type=Path, help="write the results file here instead")
    parser.add_argument("--records", type=Path,
                        help="write the results file from this campaign's records instead of running one")
    parser.add_argument("--before", type=Path, metavar="FILE",
                        help="a results file of the same source under older scenarios: each mutant's "
                             "status then, and the figures then, go into the results file")
    parser.add_argument("--draw-sample", action="store_true",
                        help=f"draw CI's sample from {CAMPAIGN_FILE} into {SAMPLE_FILE} and stop")
    args = parser.parse_args(argv)
    if args.draw_sample:
        records = json.loads((ROOT / CAMPAIGN_FILE).read_text(encoding="utf-8"))["mutants"]
        keys = draw_sample(records)
        (ROOT / SAMPLE_FILE).write_text(json.dumps(
            {"$comment": "CI's fixed sample of mutants (tests/test_mutation_sample.py), drawn by "
                         "benchmarks/mutation.py --draw-sample from the committed campaign.",
             "keys": keys}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(keys)} keys to {SAMPLE_FILE}")
        return 0
    if args.records:
        document = json.loads(args.records.read_text(encoding="utf-8"))
        document["mutants"] = in_scope(document["mutants"], enumerate_mutants(args.root))
        return _write(args, document)
    mutants = enumerate_mutants(args.root)
    if args.module:
        mutants = [m for m in mutants if m.module == args.module]
    if args.key:
        mutants = [m for m in mutants if fnmatch.fnmatchcase(m.key, args.key)]
    if args.limit:
        mutants = mutants[: args.limit]
    equivalents = load_equivalents(ROOT / EQUIVALENT_FILE)
    print(f"{len(mutants)} mutants of {args.root / 'scorpion_ref'}, {args.workers} workers", flush=True)
    done = Counter[str]()

    def progress(record: dict[str, object]) -> None:
        status = status_of(record, equivalents)
        done[status] += 1
        if status in ("survived", "not-applied"):
            print(f"  {status}: {record['key']} (line {record['line']})\n    {record.get('diff', '')}"
                  .replace("\n", "\n    "), flush=True)
        if sum(done.values()) % 100 == 0:
            print(f"  ... {sum(done.values())} done: {dict(done)}", flush=True)

    begin = time.perf_counter()
    records = run_mutants(mutants, args.root, workers=args.workers, features=args.features,
                          timeout=args.timeout, progress=progress)
    seconds = time.perf_counter() - begin
    print(f"{len(records)} mutants in {seconds:.0f} s on {args.workers} workers: "
          + ", ".join(f"{n} {s}" for s, n in sorted(done.items())))
    if args.write or args.out:
        _write(args, campaign_document(records, seconds=seconds, workers=args.workers, root=args.root))
    return 0


def _write(args: argparse.Namespace, document: dict[str, object]) -> int:
    """Write the results file, with the older campaign's statuses and figures when given."""
    document = {**document, "mutants": [{**r, "area": area_of(r["module"], r["definition"])}
                                        for r in document["mutants"]]}  # type: ignore[attr-defined]
    if args.before:
        before = json.loads(args.before.read_text(encoding="utf-8"))
        records = with_before(document["mutants"],  # type: ignore[arg-type]
                              in_scope(before["mutants"], enumerate_mutants(args.root)))
        earlier = [{**r, "status": r["before"]} for r in records]
        document = {**document, "mutants": records, "before": {
            "label": f"before the new scenarios ({before.get('date', '?')})",
            **summary(earlier, load_equivalents(ROOT / EQUIVALENT_FILE))}}
    out = args.out or ROOT / CAMPAIGN_FILE
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
