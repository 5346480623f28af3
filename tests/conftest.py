"""Fixtures shared by the test files: the rules site, built once per session (``site_build``)."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_build import CHROMIUM, CHROMIUM_ARGS, Quiet, browser_or_reason, build_site


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built with ``mkdocs build --strict`` and a real conformance report."""
    return build_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def served(site: Path) -> Iterator[str]:
    """The built site on 127.0.0.1, on a free port, served by Python's static file server."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(served: str) -> Iterator[Any]:
    sync_playwright, reason = browser_or_reason()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need Chromium and Playwright under CI: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
