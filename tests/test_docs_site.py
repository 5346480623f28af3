"""The rules site, built for real and opened in a headless browser.

The site is built once per session with ``mkdocs build --strict`` into a
temporary folder, with the conformance report run for real
(``SCORPION_SITE_SKIP_REPORT`` is removed from the environment). The
browser tests serve it on 127.0.0.1 and drive Debian's Chromium through
Playwright; they never download a browser. Without Chromium or Playwright
they fail when the ``CI`` variable is set, and are skipped otherwise.

A screenshot of a rules page is saved as ``reports/rules-page.png``.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

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
SCREENSHOT = ROOT / "reports" / "rules-page.png"
RULE_IDS = [
    r["id"]
    for r in yaml.safe_load((ROOT / "scorpion_ref" / "catalogue.yaml").read_text("utf-8"))["rules"]
]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built with ``mkdocs build --strict`` and a real conformance report."""
    missing = [name for name in ("mkdocs", "material") if importlib.util.find_spec(name) is None]
    if missing:
        reason = f"{' and '.join(missing)} not installed (pip install mkdocs-material)"
        if os.environ.get("CI"):
            pytest.fail(f"the site cannot be built under CI: {reason}")
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
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
    if built.returncode != 0:
        tail = "\n".join((built.stdout + built.stderr).splitlines()[-40:])
        pytest.fail(f"mkdocs build --strict failed (exit {built.returncode}):\n{tail}")
    print(f"\nmkdocs build --strict with the report: {seconds:.1f} s")
    return out


def read(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the built files


def test_every_rule_has_an_anchor_on_a_rules_page(site: Path) -> None:
    html = "".join(p.read_text(encoding="utf-8") for p in (site / "rules").glob("*/index.html"))
    missing = [rule_id for rule_id in RULE_IDS if f'id="{rule_id}"' not in html]
    assert not missing, f"rule ids without an anchor: {missing}"


def test_the_report_was_run_for_every_shipped_adapter(site: Path) -> None:
    html = read(site, "report")
    assert "was not run for this build" not in html
    assert 'id="reference"' in html and "<b>passed</b>" in html
    assert (site / "report-data" / "reference.jsonl").stat().st_size > 0
    if shutil.which("node"):
        assert (site / "report-data" / "javascript.jsonl").stat().st_size > 0


def test_the_site_fetches_nothing_from_elsewhere(site: Path) -> None:
    offenders = []
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(
            r'<(?:script|img|iframe|source)\b[^>]*\bsrc="(https?:)?//[^"]*"', text
        ):
            offenders.append(f"{page.relative_to(site)}: {match.group(0)[:120]}")
        for match in re.finditer(
            r'<link\b[^>]*rel="(?:stylesheet|preconnect|preload|icon)"[^>]*>', text
        ):
            if re.search(r'href="(https?:)?//', match.group(0)):
                offenders.append(f"{page.relative_to(site)}: {match.group(0)[:120]}")
    for css in site.rglob("*.css"):
        if re.search(r"url\((['\"]?)(https?:)?//", css.read_text(encoding="utf-8")):
            offenders.append(str(css.relative_to(site)))
    assert not offenders, "\n".join(offenders)


def test_the_search_index_knows_the_rules(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [doc["location"] for doc in index["docs"]]
    assert "rules/empty-columns/#R-EMPTY-QUEEN-CARRYING-KING" in locations
    assert any("Queen" in doc["text"] or "Queen" in doc["title"] for doc in index["docs"])
    # card diagrams are kept out of the index
    assert not any("sc-card" in doc["text"] for doc in index["docs"])


# ------------------------------------------------------------------ in the browser


def _browser_or_reason() -> tuple[Any, str | None]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, "the Python package playwright is not installed (pip install playwright)"
    if not CHROMIUM.exists():
        return None, f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return sync_playwright, None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def served(site: Path) -> Iterator[str]:
    """The built site on 127.0.0.1, on a free port."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser(served: str) -> Iterator[Any]:
    sync_playwright, reason = _browser_or_reason()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need Chromium and Playwright under CI: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Visit:
    """A page opened in the browser, with every console error and failed request it caused."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.page = browser.new_page(viewport={"width": 1280, "height": 1000})
        self.problems: list[str] = []
        self.page.on(
            "console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}")
        )
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", self._failed)

    def _failed(self, request: Any) -> None:
        # A request cut short because the test moved on to the next page is no fault.
        if "ERR_ABORTED" not in (request.failure or ""):
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def open(self, path: str) -> Any:
        self.page.goto(f"{self.base}/{path}", wait_until="load")
        return self.page


@pytest.fixture
def visit(browser: Any, served: str) -> Iterator[Visit]:
    current = Visit(browser, served)
    yield current
    current.page.close()
    assert not current.problems, "\n".join(current.problems)


def test_a_rules_page_shows_card_diagrams(visit: Visit) -> None:
    page = visit.open("rules/empty-columns/")
    assert page.locator(".sc-diagram").count() > 5
    card = page.locator(".sc-diagram .sc-card.sc-up.sc-red").first
    card.wait_for(state="visible")
    assert card.evaluate("e => getComputedStyle(e).color") == "rgb(200, 16, 46)"
    back = page.locator(".sc-diagram .sc-card.sc-down").first
    assert "gradient" in back.evaluate("e => getComputedStyle(e).backgroundImage")
    box = card.bounding_box()
    assert box is not None and 40 <= box["width"] <= 70 and box["height"] > box["width"]
    assert page.locator("#R-EMPTY-KING-ONLY").is_visible()
    page.evaluate("""() => {
        const rule = document.getElementById('R-EMPTY-QUEEN-CARRYING-KING');
        window.scrollTo(0, rule.getBoundingClientRect().top + window.scrollY - 70);
    }""")
    page.wait_for_timeout(500)  # let the header settle after the scroll
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000


def test_search_finds_the_queen(visit: Visit) -> None:
    page = visit.open("")
    page.locator("input.md-search__input").click()
    page.keyboard.type("Queen")
    results = page.locator(".md-search-result__item")
    results.first.wait_for(state="visible", timeout=15_000)
    assert "Queen" in page.locator(".md-search-result__list").inner_text()
    assert page.locator(".md-search-result__list a[href*='rules/']").count() >= 1  # a rule page


def test_the_rule_set_comparison_table_renders(visit: Visit) -> None:
    page = visit.open("rulesets/")
    table = page.locator("table.sc-compare")
    table.wait_for(state="visible")
    headers = [h.strip() for h in table.locator("thead tr").nth(1).locator("th").all_inner_texts()]
    assert headers == [
        "standard",
        "classic",
        "wasp",
        "pysolfc",
        "aisleriot",
        "000",
        "001",
        "002",
        "003",
        "004",
        "PySolFC",
        "Aisleriot",
    ]
    assert table.locator("tbody tr").count() >= 8
    assert table.locator("tbody td").first.is_visible()
    page.locator("a.sc-cite").first.click()
    assert page.url.endswith("#cite-1")


def test_the_learn_page_and_the_report_render_without_errors(visit: Visit) -> None:
    learn = visit.open("learn/")
    assert learn.locator(".sc-diagram").count() >= 6
    report = visit.open("report/")
    assert report.locator(".sc-badges").count() >= 1
    assert report.locator("table.sc-report").first.is_visible()
