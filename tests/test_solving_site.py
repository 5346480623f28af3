"""The Winnability page is generated from the results files: counts, rates, plots and winnable games."""

from __future__ import annotations

import shutil
from pathlib import Path

from scorpion_conformance.site import winnability
from scorpion_conformance.site.text import GeneratedPage
from scorpion_conformance.solving.campaign import rates_of
from scorpion_conformance.solving.results import Record, ResultsFile
from scorpion_conformance.solving.stats import wilson

ROOT = Path(__file__).resolve().parents[1]


def write(root: Path, rules: str, outcomes: dict[int, str]) -> None:
    with ResultsFile(root / "data" / "winnability" / f"{rules}.jsonl") as results:
        for game, outcome in outcomes.items():
            results.add(Record(game=game, rules=rules, outcome=outcome, nodes=10 * game, seconds=0.25,
                               budget=1000, memory_mb=64, solver="test",
                               line="deal" if outcome == "won" else None,
                               proof=None if outcome == "won" else "exhausted"))


def page_of(root: Path) -> tuple[GeneratedPage, dict[str, str]]:
    page = GeneratedPage("winnability.md", "Winnability")
    return page, {name: make() for name, make in winnability.makers(page, root).items()}


def test_the_page_is_generated_from_the_results_files(tmp_path: Path) -> None:
    write(tmp_path, "standard", {1: "won", 2: "lost", 3: "lost", 4: "unknown"})
    write(tmp_path, "classic", {g: ("won" if g in (5, 37) else "lost") for g in range(1, 41)})
    page, parts = page_of(tmp_path)
    html = page.resolve("\n".join(parts.values()))
    # The table: rule sets in the vocabulary's order, the counts, the rate and its interval.
    assert html.index("<code>standard</code>") < html.index("<code>classic</code>")
    low, high = wilson(1, 3)
    assert f"<strong>33.33%</strong> ({100 * low:.2f}% to {100 * high:.2f}%)" in html
    assert "25.00% to 50.00%" in html  # one of four won, or two if the unknown was won
    low, high = wilson(2, 40)
    assert f"<code>classic</code> 5.00% ({100 * low:.2f}% to {100 * high:.2f}%)" in html  # by the 9%
    table = parts["winnability-table"]
    assert "Games solved so far: `standard` games 1 to 4; `classic` games 1 to 40" in table
    assert "records that count: `standard` test for 4 games; `classic` test for 40 games." in table
    # The plots: three inline SVGs that scale with the page, no fixed size and no date.
    assert html.count("<svg") == 3 and 'style="width:100%;height:auto"' in html and "<dc:date>" not in html
    # The winnable games, per rule set.
    # (the numbers are kept out of the site's search index)
    games = parts["winnability-games"]
    assert 'Winnable under `classic`: 2 games of 40 solved"\n\n    5, 37\n    { data-search-exclude }' \
        in games
    assert 'Winnable under `standard`: 1 games of 4 solved"\n\n    1' in parts["winnability-games"]
    assert "game 40: 400 positions" in html  # the hardest game of classic comes first
    # The unknown game, with its budget and what ran out; classic has none, so no list.
    unknown = parts["winnability-unknown"]
    assert 'Still unknown under `standard`: 1 games"' in unknown and "classic" not in unknown
    assert "game 4: 1,000 positions searched, none of them won" in unknown


def test_no_results_says_so(tmp_path: Path) -> None:
    _page, parts = page_of(tmp_path)
    assert "No results file was found" in parts["winnability-table"]
    assert "No results yet" in parts["winnability-plots"]
    assert "No game is unknown" in parts["winnability-unknown"]


def test_the_committed_results_make_the_page(tmp_path: Path) -> None:
    # A copy, as a campaign may be appending to the files while the test runs.
    shutil.copytree(ROOT / "data" / "winnability", tmp_path / "data" / "winnability")
    results = winnability.cached_results(tmp_path)  # what the page reads: the files are parsed once
    assert "classic" in results, "no committed results for classic"
    page, parts = page_of(tmp_path)
    for rules, best in results.items():
        rates = rates_of(best)
        assert f"<code>{rules}</code></th><td data-label=\"Solved\">{rates.total:,}</td>" in page.resolve(
            parts["winnability-table"])
        assert f"Winnable under `{rules}`: {rates.won:,} games of {rates.total:,} solved" in parts[
            "winnability-games"]
    assert page.resolve(parts["winnability-plots"]).count("<svg") == 3


def test_the_page_source_carries_every_marker() -> None:
    text = (ROOT / "docs" / "winnability.md").read_text(encoding="utf-8")
    page = GeneratedPage("winnability.md", "Winnability")
    for name in winnability.makers(page, ROOT):
        assert f"<!-- scorpion:{name} -->" in text


