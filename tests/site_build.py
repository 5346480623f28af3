"""The rules site built once per test session, served, and opened in Debian's Chromium.

The fixtures that use these live in ``tests/conftest.py``, so every test file
(``test_docs_site.py``, ``test_play_page.py``) shares one build: ``mkdocs
build --strict`` into a temporary folder, with the conformance report run for
real (``SCORPION_SITE_SKIP_REPORT`` is removed from the environment). Without
Chromium or Playwright the browser tests fail when the ``CI`` variable is set,
and are skipped otherwise; they never download a browser.
"""

from __future__ import annotations

import http.server
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("SCORPION_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: What ``mkdocs build --strict`` printed (one entry, once the site is built).
BUILD_LOG: list[str] = []
#: Where the screenshots go (reports/ is not committed).
SHOTS = ROOT / "reports"


def build_site(out: Path) -> Path:
    """The site, built with ``mkdocs build --strict`` and a real conformance report, into ``out``."""
    missing = [name for name in ("mkdocs", "material") if importlib.util.find_spec(name) is None]
    if missing:
        reason = f"{' and '.join(missing)} not installed (pip install mkdocs-material)"
        if os.environ.get("CI"):
            pytest.fail(f"the site cannot be built under CI: {reason}")
        pytest.skip(reason)
    env = {k: v for k, v in os.environ.items() if k != "SCORPION_SITE_SKIP_REPORT"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    started = time.monotonic()
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    seconds = time.monotonic() - started
    BUILD_LOG.append(built.stdout + built.stderr)
    if built.returncode != 0:
        tail = "\n".join((built.stdout + built.stderr).splitlines()[-40:])
        pytest.fail(f"mkdocs build --strict failed (exit {built.returncode}):\n{tail}")
    print(f"\nmkdocs build --strict with the report: {seconds:.1f} s")
    return out


def browser_or_reason() -> tuple[Any, str | None]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, "the Python package playwright is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return None, f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return sync_playwright, None


class Quiet(http.server.SimpleHTTPRequestHandler):
    """Python's own static file server (``python -m http.server``), without its log lines."""

    def log_message(self, format: str, *args: Any) -> None:
        pass
