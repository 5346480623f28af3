"""The rules site, built for real and opened in a headless browser.

The site is built once per session with ``mkdocs build --strict`` into a
temporary folder, with the conformance report run for real
(``SCORPION_SITE_SKIP_REPORT`` is removed from the environment): the
``site``, ``served``, ``searchable`` and ``browser`` fixtures of ``tests/conftest.py``.
The browser tests serve it on 127.0.0.1 (with an empty search index, but for the
tests of the search) and drive Debian's Chromium through Playwright; they never
download a browser, and without Chromium they fail.

A screenshot of a rules page is saved as ``reports/rules-page.png``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from browsing import BuiltSite, Visit, settle
from programs import node

from scorpion_shared.vocabulary import NAMED_RULESETS

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "reports" / "rules-page.png"
#: Where the screenshots go (reports/ is not committed).
SHOTS = ROOT / "reports"
RULE_IDS = [
    r["id"]
    for r in yaml.safe_load((ROOT / "scorpion_ref" / "catalogue.yaml").read_text("utf-8"))["rules"]
]


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
    node()  # the JavaScript adapter's run needs Node: without it this test fails
    raw = (site / "report-data" / "javascript.jsonl").read_text(encoding="utf-8")
    cases = [r for r in map(json.loads, filter(str.strip, raw.splitlines())) if r.get("status")]
    # The Play page's engine: the whole suite under each of the five named sets, nothing failed
    # (a case under no set it offers is unsupported, with no rule set).
    offered = {r["rules"] for r in cases if r["rules"]}
    assert offered == {"standard", "classic", "wasp", "pysolfc", "aisleriot"}
    statuses = {r["status"] for r in cases}
    assert statuses <= {"passed", "unsupported", "skipped"}, statuses


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
    # card diagrams are kept out of the index, and so are the lists of winnable game numbers
    assert not any("sc-card" in doc["text"] for doc in index["docs"])
    assert not any(re.search(r"(\d+, ){20}", doc["text"]) for doc in index["docs"])
    assert re.search(r"<p data-search-exclude>(\d+, ){20}", (site / "winnability" / "index.html").read_text(
        encoding="utf-8")), "the winnable games are no longer listed on the page"


# ------------------------------------------------------------------ in the browser


def _visiting(browser: Any, base: str) -> Iterator[Visit]:
    """A page of the site at ``base``; afterwards, no console error nor failed request."""
    current = Visit(browser, base)
    yield current
    current.page.close()
    assert not current.problems, "\n".join(current.problems)


@pytest.fixture
def visit(browser: Any, served: str) -> Iterator[Visit]:
    yield from _visiting(browser, served)


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
    # every navigation tab is on the screen at 1280 pixels, none clipped by the edge
    tabs = page.evaluate("[...document.querySelectorAll('.md-tabs__item')]"
                         ".map(t => t.getBoundingClientRect().right)")
    assert tabs and max(tabs) <= page.evaluate("document.documentElement.clientWidth"), tabs
    page.evaluate("""() => {
        const rule = document.getElementById('R-EMPTY-QUEEN-CARRYING-KING');
        window.scrollTo(0, rule.getBoundingClientRect().top + window.scrollY - 70);
    }""")
    settle(page)  # the header redrawn after the scroll
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000


@pytest.fixture
def visit_searchable(browser: Any, searchable: str) -> Iterator[Visit]:
    yield from _visiting(browser, searchable)


def test_search_finds_the_queen(visit_searchable: Visit) -> None:
    page = visit_searchable.open("")
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
    # the sources by their names, each a link to its entry on the Sources page
    assert headers == [*NAMED_RULESETS, "Cards4", "cardgames.io", "Q&A guide", "Encyclopedia entry",
                       "xaweiye.com", "PySolFC", "Aisleriot"]
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


# ------------------------------------------------------------------ the everyday reader


def test_the_build_warns_of_nothing_and_links_nowhere_false(built_site: BuiltSite) -> None:
    site = built_site.folder
    log = built_site.log
    assert "does not contain an anchor" not in log, log
    assert "WARNING" not in log, log
    offenders = [str(p.relative_to(site)) for p in site.rglob("*.html") if "/OWNER/" in p.read_text("utf-8")]
    assert not offenders, f"placeholder repository links in {offenders[:5]}"


def test_every_citation_leads_to_the_sources_page(site: Path) -> None:
    sources = read(site, "sources")
    for anchor in ("source-000", "source-001", "source-002", "source-003", "source-004",
                   "source-pysolfc", "source-aisleriot"):
        assert f'id="{anchor}"' in sources
    stray = []
    for page in site.rglob("*.html"):
        for href in re.findall(r'href="([^"]*#source-[^"]*)"', page.read_text(encoding="utf-8")):
            if "sources/" not in href and not (page.parent.name == "sources" and href.startswith("#")):
                stray.append(f"{page.relative_to(site)}: {href}")
    assert not stray, stray[:10]


def _phone(browser: Any, served: str) -> Any:
    return browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)


def test_diagrams_fit_a_phone_with_all_seven_columns(browser: Any, served: str) -> None:
    page = _phone(browser, served)
    try:
        for area in ("collecting-runs", "moving-groups", "stock"):
            page.goto(f"{served}/rules/{area}/", wait_until="load")
            found = page.evaluate("""() => {
                const felts = [...document.querySelectorAll('.sc-felt')].filter(f => f.offsetParent);
                const bad = felts.filter(f => f.scrollWidth > f.clientWidth + 1
                    || f.getBoundingClientRect().right > window.innerWidth);
                const tables = [...document.querySelectorAll('.sc-diagram:not(.sc-expected) .sc-felt')]
                    .filter(f => f.offsetParent);
                const columns = tables.map(f => [...f.querySelectorAll('.sc-col')]
                    .filter(c => c.getBoundingClientRect().right <= window.innerWidth).length);
                return {count: felts.length, bad: bad.length, columns: Math.min(...columns),
                        page: document.documentElement.scrollWidth};
            }""")
            assert found["count"] > 5 and found["bad"] == 0, (area, found)
            assert found["columns"] == 7 and found["page"] <= 390, (area, found)
            # a rank can be read on a phone: its index is 10 px high at the least
            smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
                '.sc-diagram .sc-index')].filter(e => e.offsetParent)
                .map(e => parseFloat(getComputedStyle(e).fontSize)))""")
            assert smallest >= 10, (area, smallest)
            # an outline's tabs wrap on the screen instead of running off its edge
            labels = page.evaluate("""() => [...document.querySelectorAll('.tabbed-labels > label')]
                .filter(e => e.offsetParent).map(e => e.getBoundingClientRect().right)""")
            assert max(labels, default=0) <= 390, (area, max(labels))
        page.goto(f"{served}/rulesets/", wait_until="load")
        wraps = page.evaluate("""() => [...document.querySelectorAll('.sc-compare-wrap')]
            .map(w => w.scrollWidth - w.clientWidth)""")
        assert wraps and max(wraps) <= 1, wraps  # the tables turn on their side, no sideways scroll
        cell = page.locator("table.sc-compare td[data-label='classic']").first
        assert page.locator("table.sc-options td[data-label='wasp']").count() >= 6
        assert cell.evaluate("e => getComputedStyle(e, '::before').content") == '"classic"'
    finally:
        page.close()


def test_an_example_can_be_stepped_through(visit: Visit) -> None:
    page = visit.open("rules/stock/")
    box = page.locator("xpath=//h3[@id='STOCK-001']/following::details[contains(@class,'sc-walk-box')][1]")
    box.locator("summary").click()
    walk = box.locator(".sc-walk")
    frames = walk.locator(".sc-walk-frame")
    assert frames.count() == 2 and frames.nth(0).is_visible() and not frames.nth(1).is_visible()
    walk.locator(".sc-walk-next").first.click()
    assert frames.nth(1).is_visible() and not frames.nth(0).is_visible()
    assert "the player deals the stock" in frames.nth(1).inner_text()
    marked = frames.nth(1).locator(".sc-card.sc-mark")
    assert marked.count() == 3  # the three stock cards, now on columns 1 to 3
    frames.nth(1).locator("label", has_text="back").click()
    assert frames.nth(0).is_visible()
    # and with the keyboard alone: Tab reaches the steps, the arrow keys go next and back
    steps = walk.locator("input.sc-walk-at")
    box.locator("summary").focus()
    page.keyboard.press("Tab")
    assert steps.nth(0).evaluate("e => e === document.activeElement")
    page.keyboard.press("ArrowRight")
    assert frames.nth(1).is_visible() and steps.nth(1).is_checked()
    page.keyboard.press("ArrowLeft")
    assert frames.nth(0).is_visible()


def test_the_pages_speak_to_their_readers(site: Path) -> None:
    """No tracker words, sources by name, reason codes in words, no path of the builder's, no
    count that reads as a negative number, and a strength page that shows its code as code."""
    pages = {str(p.relative_to(site)): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    said = {name: re.sub(r"<[^>]+>", " ", html) for name, html in pages.items()}
    assert not [n for n, text in said.items() if re.search(r"\b[Ii]ssue #?\d+", text)]
    for name in ("rules/stock/index.html", "rulesets/index.html"):
        assert not re.search(r">\s*00[0-4]\s*<", pages[name]), name  # never a bare "000"
    assert re.search(r'href="\.\./\.\./sources/#source-000"[^>]*>Cards4<', pages["rules/stock/index.html"])
    assert "Q&amp;A guide</a>" in pages["winnability/index.html"]
    rules = "".join(html for name, html in pages.items() if name.startswith("rules/"))
    assert "refused as empty-column-needs-king" not in rules
    assert "refused: a move of a card other than a King into an empty column" in rules
    report = pages["report/index.html"].split("<article", 1)[1].split("</article>", 1)[0]
    assert str(ROOT) not in report and str(Path.home()) + "/" not in report  # (the footer links the checkout)
    assert not re.search(r'class="sc-r-unsupported"[^>]*>\s*\u2013', report)
    strength = re.sub(r"<[^>]+>", " ", pages["strength/index.html"].split("<article", 1)[1])
    assert "`" not in strength.split("How a campaign runs")[1] and "\\|" not in strength
    assert strength.index("The scenarios reject") < strength.index("How a campaign runs")
    assert "What the solver says" in said["winnability/index.html"]


def test_search_finds_an_id_first(browser: Any, searchable: str) -> None:
    for query, anchor in (("EMPTY-003", "#EMPTY-003"), ("STOCK-003", "#STOCK-003"),
                          ("R-EMPTY-KING-ONLY", "#R-EMPTY-KING-ONLY")):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        try:
            page.goto(f"{searchable}/", wait_until="load")
            search = page.locator("input.md-search__input")
            search.click()
            # The index loads in a worker; a query given before it is ready is never answered.
            page.wait_for_function(
                "() => { const meta = document.querySelector('.md-search-result__meta');"
                " return meta !== null && meta.textContent.trim() !== ''"
                " && !/initializing/i.test(meta.textContent); }", timeout=30_000)
            # The whole query at once, then one key that leaves it as it is (the search listens
            # to keys): typed key by key, the search answers each prefix, and a slow machine
            # can show the answer to "R-EMPTY" for a while.
            search.fill(query)
            search.press("End")
            page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=15_000)
            links = page.eval_on_selector_all(
                ".md-search-result__list a", "els => els.map(e => e.getAttribute('href'))")
            first_section = next(link for link in links if "#" in link)
            assert first_section.endswith(anchor), (query, links[:4])
        finally:
            page.close()


def test_the_winnability_page_reads_on_a_phone_and_a_desktop(browser: Any, served: str) -> None:
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))  # noqa: B023
        try:
            page.goto(f"{served}/winnability/", wait_until="load")
            assert not errors
            assert page.locator("svg.winnability-plot").count() == 3
            assert page.locator("table.sc-winnability").count() == 4  # with the solver's verdicts
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            plot_width = page.locator("svg.winnability-plot").first.bounding_box()["width"]
            assert plot_width > 0.8 * min(width, 800) - 60
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"winnability-{width}.png"), full_page=True)
        finally:
            page.close()


def _own_report(folder: Path) -> Path:
    """A report of one's own, of a run against an adapter that breaks same-suit placement."""
    broken = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"
    adapter = f"{sys.executable} {broken} cross-suit"
    command = [sys.executable, "-m", "scorpion_conformance.cli"]
    subprocess.run([*command, "run", "-qq", "--adapter", adapter, "--area", "placement,stock",
                    "--rules", "standard", "--report", "r.jsonl"],
                   cwd=folder, capture_output=True, timeout=600, check=False)
    subprocess.run([*command, "report", "r.jsonl", "--html", "own"], cwd=folder, check=True,
                   capture_output=True, timeout=600)
    return folder / "own" / "index.html"


def test_screenshots_for_the_notes(browser: Any, served: str, tmp_path: Path) -> None:
    """A rule page with a step-through open, the comparison and a report of one's own, at 1280
    and 390 pixels; the report of one's own fits the phone too."""
    SHOTS.mkdir(exist_ok=True)
    own = _own_report(tmp_path)
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 1000 if width > 400 else 844})
        try:
            page.goto(f"{served}/rules/undo/", wait_until="load")
            box = page.locator(".sc-walk-box").first
            box.locator("summary").click()
            box.locator(".sc-walk-next").first.click()
            box.scroll_into_view_if_needed()
            page.evaluate("() => window.scrollBy(0, -240)")
            settle(page)
            page.screenshot(path=str(SHOTS / f"rule-page-step-through-{width}.png"))
            page.goto(f"{served}/rulesets/", wait_until="load")
            page.locator("#every-point-of-disagreement").scroll_into_view_if_needed()
            settle(page)
            page.screenshot(path=str(SHOTS / f"comparison-{width}.png"))
            page.goto(own.as_uri(), wait_until="load")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.locator(".sc-failure").first.scroll_into_view_if_needed()
            page.evaluate("() => window.scrollBy(0, -120)")
            page.screenshot(path=str(SHOTS / f"own-report-{width}.png"))
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(SHOTS / f"own-report-top-{width}.png"))
        finally:
            page.close()
        assert (SHOTS / f"rule-page-step-through-{width}.png").stat().st_size > 10_000


def test_the_coverage_page_links_each_cell_to_its_scenarios_and_is_linked(site: Path) -> None:
    """What the suite covers: every scenario link leads to an anchor that exists, every empty
    cell to its reason, and the mutation page and the report link to it."""
    html = read(site, "coverage")
    assert "no scenario and no reason" not in html
    links = re.findall(r'href="\.\./rules/([a-z-]+)/#([A-Z]+-\d{3})"', html)
    assert len(links) > 200
    pages = {area: read(site, f"rules/{area}") for area, _ in set(links)}
    dangling = sorted({f"{area}#{ident}" for area, ident in links if f'id="{ident}"' not in pages[area]})
    assert not dangling, dangling
    reasons = set(re.findall(r'href="#(gap-\d+)"', html))
    assert reasons and all(f'id="{gap}"' in html for gap in reasons)
    assert 'href="../coverage/"' in read(site, "strength")
    assert 'href="../coverage/"' in read(site, "report")


def test_the_coverage_page_reads_on_a_desktop_and_a_phone(browser: Any, served: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 900 if width > 400 else 844})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))  # noqa: B023
        try:
            page.goto(f"{served}/coverage/", wait_until="load")
            assert not errors
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert page.locator("table.sc-coverage").count() > 10  # matrix, each function, reasons, undo
            page.screenshot(path=str(SHOTS / f"coverage-{width}.png"), full_page=True)
            page.locator("#requests-against-states").scroll_into_view_if_needed()
            settle(page)
            page.screenshot(path=str(SHOTS / f"coverage-matrix-{width}.png"))
        finally:
            page.close()
        assert (SHOTS / f"coverage-matrix-{width}.png").stat().st_size > 10_000
