"""CI's guard on the suite's strength: a fixed sample of the reference engine's
mutants (``data/mutation/sample.json``), each run against the conformance
scenarios alone, through the protocol; the test fails if any mutant of the
sample that is not shown equivalent survives.

The sample was drawn from the full campaign (``benchmarks/mutation.py``) to
cover every mutated module and operator, and holds every mutant that only the
scenarios added for issue 12 kill, so deleting one of those scenarios fails
this test. A key that no longer names a mutant (the engine's code moved) fails
too, with the command that redraws the sample.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from scorpion_conformance.mutation.campaign import load_equivalents, run_mutants, status_of
from scorpion_conformance.mutation.mutants import MODULES, enumerate_mutants
from scorpion_conformance.mutation.results import EQUIVALENT_FILE

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = json.loads((ROOT / "data" / "mutation" / "sample.json").read_text(encoding="utf-8"))
REDRAW = "redraw it with `.venv/bin/python benchmarks/mutation.py --draw-sample` after a campaign"


@pytest.fixture(scope="module")
def sample() -> list:  # type: ignore[type-arg]
    by_key = {m.key: m for m in enumerate_mutants(ROOT)}
    missing = [key for key in SAMPLE["keys"] if key not in by_key]
    assert not missing, f"the sample names mutants the engine no longer has: {missing}; {REDRAW}"
    return [by_key[key] for key in SAMPLE["keys"]]


def test_the_sample_is_large_and_covers_every_module(sample: list) -> None:  # type: ignore[type-arg]
    assert len(sample) >= 60
    assert len(set(SAMPLE["keys"])) == len(SAMPLE["keys"])
    assert {m.module for m in sample} == set(MODULES)
    operators = Counter(m.operator.split("_")[0] for m in sample)
    assert {"scorpion/OptionValue", "scorpion/RankStep", "core/ReplaceComparisonOperator"} <= set(operators)


def test_no_mutant_of_the_sample_survives_the_scenarios(sample: list) -> None:  # type: ignore[type-arg]
    equivalents = load_equivalents(ROOT / EQUIVALENT_FILE)
    # Each mutant meets first the case that killed it in the committed campaign: the verdict is
    # the same (every case still runs against a mutant that case no longer kills), found sooner.
    campaign = json.loads((ROOT / "data" / "mutation" / "campaign.json").read_text(encoding="utf-8"))
    first = {m["key"]: m["killed_by"] for m in campaign["mutants"] if m.get("killed_by")}
    records = run_mutants(sample, ROOT, workers=min(2, os.cpu_count() or 1), features=str(ROOT / "features"),
                          first=first)
    survivors = [r for r in records if status_of(r, equivalents) not in ("killed", "timeout", "equivalent")]
    assert not survivors, "mutants the scenarios let through:\n" + "\n".join(
        f"  {r['key']} ({r['status']}):\n    {r.get('diff', r.get('detail', ''))}" for r in survivors
    )
