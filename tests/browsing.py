"""The built site, and its pages opened in Debian's Chromium through Playwright: the launch
flags, a visit that collects every error a page causes, and a wait for the page to be drawn.

The ``browser`` and ``served`` fixtures (``tests/conftest.py``) give the browser and the
built site; a test waits for what it needs to see, never for a number of seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CHROMIUM_ARGS", "BuiltSite", "Visit", "settle"]


@dataclass(frozen=True)
class BuiltSite:
    """The site as ``mkdocs build --strict`` left it (the ``built_site`` fixture)."""

    folder: Path
    #: What the build printed.
    log: str
    seconds: float


#: The flags a headless Debian Chromium needs on a machine with no network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def settle(page: Any) -> None:
    """Wait until the page has been painted twice since now, so a scroll or a click is drawn."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


class Visit:
    """A page opened in the browser, with every console error and failed request it caused."""

    def __init__(self, browser: Any, base: str, width: int = 1280, height: int = 1000) -> None:
        self.base = base
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", self._failed)

    def _failed(self, request: Any) -> None:
        # A request cut short because the test moved on to the next page is no fault.
        if "ERR_ABORTED" not in (request.failure or ""):
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def open(self, path: str) -> Any:
        self.page.goto(f"{self.base}/{path}", wait_until="load")
        return self.page
