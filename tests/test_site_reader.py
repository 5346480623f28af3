"""The site for its everyday reader, without a browser: step-throughs played by the
reference engine, the Sources page, citations that lead to it, ids the search can
weigh, anchors in generated HTML, and where the site and its links point."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import yaml

from scorpion_conformance.site import comparison, rulepages, settings, sources, walkthrough
from scorpion_conformance.site.catalogue import load_catalogue
from scorpion_conformance.site.text import GeneratedPage
from scorpion_conformance.suite.scenarios import load_cases

ROOT = Path(__file__).resolve().parent.parent
CASES = load_cases()
CATALOGUE = load_catalogue()


def case(case_id: str) -> object:
    return next(c for c in CASES if c.case_id == case_id)


def test_every_example_with_a_when_step_can_be_stepped_through() -> None:
    for each in CASES:
        whens = sum(1 for step in each.steps if step.type == "when")
        frames = walkthrough.frames(each)
        if not each.rulesets():
            assert len(frames) == 1
            continue
        assert len(frames) == whens + 1, each.case_id
        assert len(frames) <= walkthrough.MAX_FRAMES
        assert (walkthrough.walkthrough_html(each) == "") == (whens == 0)


def test_a_step_through_marks_what_moved_and_says_what_was_refused() -> None:
    undo = [c for c in CASES if any(i.get("do") == "undo" for i in c.instructions()) and c.rulesets()]
    assert undo
    frames = walkthrough.frames(undo[0])
    assert frames[-1].caption == "the player undoes the last action"
    refused = [c for c in CASES
               if any(i.get("expect") == "refused" for i in c.instructions()) and c.rulesets()]
    frames = walkthrough.frames(refused[0])
    assert any(f.refused for f in frames[1:]), refused[0].case_id
    refusal = next(f for f in frames[1:] if f.refused)
    assert refusal.marks == ()  # nothing moved
    html = walkthrough.walkthrough_html(refused[0])
    assert "refused:" in html and 'type="radio"' in html and "<script" not in html


def test_step_through_buttons_are_apart_on_one_page() -> None:
    one = case("STOCK-001")
    first, second = walkthrough.walkthrough_html(one, "a"), walkthrough.walkthrough_html(one, "b")
    names = set(re.findall(r'name="([^"]+)"', first + second))
    assert names == {"walk-a", "walk-b"}


def test_the_sources_page_has_every_source_and_every_point() -> None:
    data = comparison.load_comparison()
    page = GeneratedPage(sources.SOURCES_PAGE, "Sources")
    markdown = sources.sources_page(page, data, CATALOGUE)
    html = page.resolve(markdown)
    for source in data["sources"]:
        assert f"{{#{rulepages.slug_of_source(source['id'])}}}" in markdown
    for point in data["points"]:
        assert html.count(f">{point['title']}<") == len(data["sources"]), point["id"]
    assert "Cited by" in html and "rules/empty-columns/#R-EMPTY-KING-ONLY" in html


def test_citations_lead_to_the_sources_page() -> None:
    pages = rulepages.rules_pages(CATALOGUE, CASES)
    links = [link for page in pages for link in re.findall(r"\]\(([^)]*#source-[^)]*)\)", page.markdown)]
    assert links and all(link.startswith("../sources.md#source-") for link in links)
    page = GeneratedPage("rulesets.md", "x")
    comparison.comparison_section(page, comparison.load_comparison(), CATALOGUE)
    table = "".join(page.fragments.values())
    hrefs = re.findall(r'href="([^"]*#source-[^"]*)"', table)
    assert hrefs and all(href.startswith("../sources/#source-") for href in hrefs)
    assert 'data-label="standard"' in table and 'data-label="Cards4"' in table
    assert "sources.md#source-" in comparison.ruleset_tabs(CASES)


def test_headings_carry_their_id_for_the_search_and_the_toc_shows_the_title() -> None:
    pages = rulepages.rules_pages(CATALOGUE, CASES)
    text = "\n".join(page.markdown for page in pages)
    assert '<span class="sc-search-id" aria-hidden="true">EMPTY-003</span> {#EMPTY-003}' in text
    assert re.search(r'## [^\n]*<span class="sc-search-id" aria-hidden="true">R-EMPTY-KING-ONLY</span> '
                     r'\{#R-EMPTY-KING-ONLY data-toc-label="[^"]+"\}', text)


def test_generated_ids_count_as_anchors() -> None:
    from scorpion_conformance.site import mkdocs_hooks

    page = SimpleNamespace(file=SimpleNamespace(src_uri="x.md"), present_anchor_ids={"a"})
    mkdocs_hooks.state.fragments["x.md"] = {}
    mkdocs_hooks.on_page_content('<tr id="point-whole-column"><td id=\'b\'>', page, None, None)  # type: ignore[arg-type]
    assert page.present_anchor_ids == {"a", "point-whole-column", "b"}


def test_a_local_build_has_an_address_and_no_placeholder(tmp_path: Path) -> None:
    config = SimpleNamespace(site_url=None, extra={
        "repository": "https://github.com/OWNER/scorpion-conformance",
        "social": [{"link": "https://github.com/OWNER/scorpion-conformance"}]})
    settings.local_defaults(config, tmp_path, {})
    assert config.site_url == settings.LOCAL_SITE_URL
    assert config.extra["repository"] == tmp_path.resolve().as_uri()  # no git remote there
    assert config.extra["social"][0]["link"] == config.extra["repository"]
    configured = SimpleNamespace(site_url=None, extra={"repository": "https://git.example/me/x"})
    settings.local_defaults(configured, tmp_path, {"SCORPION_SITE_URL": "https://me.example/x/"})
    assert configured.site_url == "https://me.example/x/"
    assert configured.extra["repository"] == "https://git.example/me/x"


def test_mkdocs_reads_the_addresses_from_the_environment() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "site_url: !ENV [SCORPION_SITE_URL" in text
    assert "!ENV [SCORPION_REPO_URL" in text
    nav = yaml.safe_load(re.sub(r"!!python/name:\S+|!ENV", "", text))["nav"]
    assert {"Sources": "sources.md"} in nav
