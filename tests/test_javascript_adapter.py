"""The JavaScript example adapter: its own unit tests, and the protocol smoke check.

It proves the protocol is language-neutral. `.ci/run` installs Node where it is
missing; without Node these tests fail on CI rather than pass silently.
"""

from __future__ import annotations

import os
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


@needs_node
def test_the_javascript_adapter_matches_the_standard_perft_table() -> None:
    assert NODE, "node is missing; .ci/run should have installed it"
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "perft",
         "--file", "standard", "--depth", "3",
         "--adapter", f"{NODE} {ADAPTER}", "--timeout", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 with a mismatch" in result.stdout


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
