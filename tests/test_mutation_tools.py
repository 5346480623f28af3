"""The pieces of the mutation campaign: our operators, stable keys, the scratch copy
a mutant's adapter imports, the runner's verdicts and the strength page."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cosmic_ray.mutating import mutate_code

from scorpion_conformance.mutation.campaign import ADAPTER, _env, check_isolation, run_mutant
from scorpion_conformance.mutation.mutants import Mutant, enumerate_mutants, write_mutant_tree
from scorpion_conformance.mutation.operators import OptionValue, RankStep
from scorpion_conformance.mutation.runner import run_suite
from scorpion_conformance.site.strength import strength_headline, strength_markdown, summary
from scorpion_conformance.suite.scenarios import load_cases

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("before", "occurrence", "after"),
    [
        ('x = rules.runs == "stay"', 0, 'x = rules.runs == "collect"'),
        ("x = 'refused'", 0, "x = 'allowed'"),
        ('x = "four-runs"', 0, 'x = "one-run-per-column"'),
        ("x = Rank.KING", 0, "x = Rank.QUEEN"),
        ("x = Rank.TEN", 1, "x = Rank.JACK"),
        ("x = Rank.ACE", 0, "x = Rank.TWO"),
    ],
)
def test_our_operators_change_what_they_say(before: str, occurrence: int, after: str) -> None:
    operator = OptionValue() if '"' in before or "'" in before else RankStep()
    assert mutate_code(before, operator, occurrence) == after


def test_our_operators_leave_other_code_alone() -> None:
    assert mutate_code('x = "hello"', OptionValue(), 0) is None
    assert mutate_code("x = Suit.KING", RankStep(), 0) is None
    assert mutate_code("x = Rank.KING", RankStep(), 1) is None  # no rank above the King


def test_keys_are_unique_and_left_out_code_is_not_mutated() -> None:
    mutants = enumerate_mutants(ROOT)
    assert len({m.key for m in mutants}) == len(mutants)
    definitions = {(m.module, m.definition) for m in mutants}
    assert ("serial", "draw_position") not in definitions
    assert ("adapter", "serve") not in definitions
    assert ("engine", "_check_move") in definitions
    assert not any("->" in m.before and m.operator.startswith("core/ReplaceBinaryOperator_BitOr")
                   and "|" not in m.before.split("->")[0] for m in mutants)  # no return annotation


def test_a_mutant_s_adapter_imports_the_scratch_copy(tmp_path: Path) -> None:
    (mutant,) = [m for m in enumerate_mutants(ROOT) if m.key == "engine:_check_deal:scorpion/OptionValue:0"]
    diff = write_mutant_tree(mutant, ROOT, tmp_path)
    assert '-    if rules.stock == "when-stuck":' in diff and '+    if rules.stock == "any-time":' in diff
    assert Path(check_isolation(tmp_path)).is_relative_to(tmp_path)
    assert (ROOT / mutant.path).read_text(encoding="utf-8").count('rules.stock == "when-stuck"') == 1


def test_the_runner_passes_the_reference_and_stops_at_the_first_failure(tmp_path: Path) -> None:
    cases = load_cases(ROOT / "features")
    clean = run_suite(list(ADAPTER), cases, env=_env(ROOT))
    assert not clean.killed and clean.cases > 800
    record = run_mutant(Mutant("engine", "_check_deal", "scorpion/OptionValue", 0, 0, 0, ""), str(ROOT),
                        features=str(ROOT / "features"))
    assert record["status"] == "killed" and record["cases_run"] < clean.cases
    assert record["killed_by"] and record["bundles"] == "named"  # a deal refused where it is free


def test_a_broken_adapter_command_is_a_kill_not_a_crash() -> None:
    verdict = run_suite([sys.executable, "-c", "import sys; sys.exit(3)"], load_cases(ROOT / "features"))
    assert verdict.killed and verdict.case == "hello"


def test_the_strength_page_gives_the_rates_and_every_equivalent_argument(tmp_path: Path) -> None:
    records = [
        {"key": "engine:f:op:0", "module": "engine", "definition": "f", "area": "stock",
         "status": "killed", "killed_by": "STOCK-001", "diff": "-a\n+b"},
        {"key": "engine:f:op:1", "module": "engine", "definition": "f", "area": "stock",
         "status": "survived", "diff": "-x == 1\n+x is 1"},
        {"key": "game:g:op:0", "module": "game", "definition": "g", "area": "undo",
         "status": "timeout", "killed_by": "UNDO-001", "diff": "-a\n+b"},
    ]
    (tmp_path / "data" / "mutation").mkdir(parents=True)
    (tmp_path / "data" / "mutation" / "campaign.json").write_text(json.dumps(
        {"date": "2026-12-01", "tool": {"name": "cosmic-ray", "version": "8.7.0", "own_operators": ["a"]},
         "commit": "0" * 40, "seconds": 10, "workers": 2, "mutants": records}), encoding="utf-8")
    (tmp_path / "data" / "mutation" / "equivalent.json").write_text(json.dumps(
        {"equivalent": [{"key": "engine:f:op:1", "argument": "small ints are one object"}]}),
        encoding="utf-8")
    page = strength_markdown(tmp_path)
    assert "cosmic-ray 8.7.0" in page and "**100.0%**" in page
    assert "small ints are one object" in page and "<code>x is 1</code>" in page
    assert "`" not in page.split("## Surviving mutants")[1]  # code is HTML in a table: no literal backticks
    headline = strength_headline(tmp_path)
    assert "reject 100.0% of the mutants" in headline and "**2 of the 2** mutants" in headline
    assert "None: the scenarios reject every mutant" in page
    assert summary(records, {})["rate"] == "66.7%"
