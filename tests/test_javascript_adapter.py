"""The JavaScript example adapter: its own unit tests, and the protocol smoke check.

It proves the protocol is language-neutral. `bash tests/setup.sh` installs Node
where it is missing; without Node these tests fail, they never skip.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from programs import node

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


def test_the_javascript_adapter_matches_the_standard_perft_table() -> None:
    node_path = node()
    result = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "perft",
         "--file", "standard", "--depth", "3",
         "--adapter", f"{node_path} {ADAPTER}", "--timeout", "30"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 with a mismatch" in result.stdout


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
