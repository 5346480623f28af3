"""The JavaScript example adapter: its own unit tests, the protocol smoke check (with the
``solve`` checks), the perft tables and the whole suite under every bundle of options.

It proves the protocol is language-neutral, and it certifies the engine and the solver
the Play page runs. `.ci/run` installs Node where it is missing; without Node these
tests fail on CI rather than pass silently.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "adapters" / "javascript" / "adapter.js"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"),
    reason="node is not installed (on CI its absence is a failure)",
)


@needs_node
def test_the_javascript_engine_passes_its_own_tests() -> None:
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [NODE, "--test", str(ADAPTER.parent)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout


@needs_node
def test_the_javascript_adapter_passes_check_adapter() -> None:
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "check-adapter",
         "--adapter", f"{NODE} {ADAPTER}"],
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


@needs_node
@pytest.mark.parametrize("rules", ["standard", "classic", "wasp", "pysolfc", "aisleriot"])
def test_the_javascript_adapter_matches_the_perft_tables(rules: str) -> None:
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "perft",
         "--file", rules, "--depth", "3",
         "--adapter", f"{NODE} {ADAPTER}", "--timeout", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 with a mismatch" in result.stdout


@needs_node
def test_the_javascript_adapter_passes_the_whole_suite_under_every_bundle() -> None:
    """One run of every scenario under all 64 combinations of the options, the five named
    sets among them (``--all-bundles`` declares those first): the engine of the Play page."""
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "-qq", "-n", "2",
         "--adapter", f"{NODE} {ADAPTER} --all-bundles"],
        capture_output=True, text=True, timeout=1200,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"\b0 failed under 64 rule sets\b", result.stdout), result.stdout[-2000:]


@needs_node
def test_fuzzing_the_javascript_adapter_finds_no_difference() -> None:
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "fuzz",
         "--adapter", f"{NODE} {ADAPTER}", "--rules", "standard",
         "--games", "60", "--seed", "7", "--timeout", "30", "--no-progress"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "60 games" in result.stdout + result.stderr
