"""The JavaScript example adapter: its own unit tests, the protocol smoke check (with the
``solve`` checks), the perft tables and the whole suite under every bundle of options.

It proves the protocol is language-neutral, and it certifies the engine and the solver
the Play page runs. `bash tests/setup.sh` installs Node where it is missing; without
Node these tests fail, they never skip.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from programs import node

from scorpion_conformance.client import AdapterClient
from scorpion_conformance.mutation.runner import run_suite
from scorpion_conformance.suite.scenarios import load_cases
from scorpion_shared.vocabulary import NAMED_RULESETS

#: The named rule sets this project ships.
SHIPPED = ("standard", "classic", "wasp", "pysolfc", "aisleriot")

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "adapters" / "javascript" / "adapter.js"


def test_the_javascript_engine_passes_its_own_tests() -> None:
    node_path = node()
    result = subprocess.run(
        [node_path, "--test", str(ADAPTER.parent)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout


def test_the_javascript_adapter_passes_check_adapter() -> None:
    node_path = node()
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "check-adapter",
         "--adapter", f"{node_path} {ADAPTER}"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    # Every solve check ran (each proven position is under a rule set it declares) and
    # passed with a decided answer: none skipped, none unknown.
    solves = [line for line in result.stdout.splitlines() if " solve " in f" {line}"]
    positions = ROOT / "scorpion_conformance" / "solving_checks" / "positions.json"
    proven = json.loads(positions.read_text("utf-8"))
    assert len(solves) == len(proven["positions"]) > 0, result.stdout[-3000:]
    assert all(line.startswith("PASS") and "unknown" not in line for line in solves), solves


@pytest.mark.parametrize("rules", ["standard", "classic", "wasp", "pysolfc", "aisleriot"])
def test_the_javascript_adapter_matches_the_perft_tables(rules: str) -> None:
    node_path = node()
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "perft",
         "--file", rules, "--depth", "3",
         "--adapter", f"{node_path} {ADAPTER}", "--timeout", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 with a mismatch" in result.stdout


def test_the_javascript_adapter_passes_the_whole_suite_under_every_bundle() -> None:
    """Every scenario under all 64 combinations of the options, the five named sets among them
    (``--all-bundles`` declares those first): the engine of the Play page. The suite's own
    judgement without pytest (:mod:`scorpion_conformance.mutation.runner`, as a mutant meets
    it), stopping at the first failure; a run of the named sets through ``run`` is
    ``test_everyday_cli``'s and the wheel's."""
    command = [node(), str(ADAPTER), "--all-bundles"]
    with AdapterClient(command, timeout=30) as client:
        declared = client.hello().rulesets_resolved()
    # The named sets first, in the vocabulary's order (those it can play: every one shipped).
    named = [name for name in declared if name in NAMED_RULESETS]
    assert len(declared) == 64 and list(declared)[: len(named)] == named, list(declared)
    assert named == [name for name in NAMED_RULESETS if name in named] and set(SHIPPED) <= set(named)
    verdict = run_suite(command, load_cases(), timeout=30)
    assert not verdict.killed, verdict
    assert verdict.cases > 10_000, verdict


def test_fuzzing_the_javascript_adapter_finds_no_difference() -> None:
    node_path = node()
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "fuzz",
         "--adapter", f"{node_path} {ADAPTER}", "--rules", "standard",
         "--games", "60", "--seed", "7", "--timeout", "30", "--no-progress"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "60 games" in result.stdout + result.stderr
