"""The programs the tests need that pip cannot install, and one way for a test to ask for them.

``bash tests/setup.sh`` installs every one of them (the README's test command
runs it first). A test whose program is missing fails, naming the program and
the command that installs it; it never skips, so a passing run is one that
checked everything.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

__all__ = ["CHROMIUM", "chromium", "node"]

#: Where Playwright finds Debian's Chromium (``SCORPION_CHROMIUM`` names another).
CHROMIUM = Path(os.environ.get("SCORPION_CHROMIUM", "/usr/bin/chromium-headless-shell"))
SETUP = "bash tests/setup.sh installs it"


def node() -> str:
    """The path of ``node``; the calling test fails when it is missing."""
    found = shutil.which("node")
    if found is None:
        pytest.fail(f"node is not installed; {SETUP} (Debian's nodejs)", pytrace=False)
    return found


def chromium() -> Path:
    """The path of Chromium; the calling test fails when it is missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}; {SETUP} (Debian's chromium-headless-shell)", pytrace=False)
    return CHROMIUM
