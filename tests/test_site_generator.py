"""Unit tests of the rules site generator (scorpion_conformance/site), without MkDocs."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import json
import re
import shutil
from pathlib import Path

import markdown
import pytest

from scorpion_conformance.site import cards, comparison, contributing, diagrams, report, text
from scorpion_conformance.site.catalogue import holds_in, load_catalogue
from scorpion_conformance.site.examples import group_examples, home_rules
from scorpion_conformance.site.rulepages import area_path, rules_pages
from scorpion_conformance.suite.library import LIBRARY
from scorpion_conformance.suite.scenarios import feature_dir, load_cases
from scorpion_conformance.suite.tags import NAMED_RULESETS, OPTION_TAGS
from scorpion_shared.vocabulary import VOCABULARY

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = load_catalogue()
CASES = load_cases()
EXTENSIONS = [
    "attr_list",
    "admonition",
    "tables",
    "md_in_html",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "toc",  # as MkDocs has it: it reads (and drops) a heading's data-toc-label
]

SITE_MODULES = [
    "cards",
    "catalogue",
    "comparison",
    "contributing",
    "diagrams",
    "examples",
    "mkdocs_hooks",
    "report",
    "rulepages",
    "text",
]


def html_of(page: text.GeneratedPage) -> str:
    """A generated page as MkDocs would turn it into HTML (fragments put back)."""
    return page.resolve(markdown.markdown(page.markdown, extensions=EXTENSIONS))


def area_html(pages: list[text.GeneratedPage], area: str) -> str:
    (page,) = [p for p in pages if p.path == area_path(area)]
    return html_of(page)


# ------------------------------------------------------------------ cards


@pytest.mark.parametrize(
    ("code", "colour", "shown"),
    [
        ("9D", "sc-red", "9"),
        ("TH", "sc-red", "10"),
        ("KS", "sc-black", "K"),
        ("AC", "sc-black", "A"),
    ],
)
def test_a_card_renders_with_its_colour_class(code: str, colour: str, shown: str) -> None:
    html = cards.card_html(code)
    assert f'class="sc-card sc-up {colour}' in html
    assert f'<span class="sc-rank">{shown}</span>' in html
    assert f'data-card="{code}"' in html
    assert "sc-down" not in html


def test_face_cards_are_marked_as_such() -> None:
    assert "sc-face" in cards.card_html("QH")
    assert "sc-face" not in cards.card_html("9H")


def test_a_face_down_card_renders_as_a_back() -> None:
    html = cards.card_html("4S", down=True)
    assert 'class="sc-card sc-down"' in html
    assert "sc-index" not in html and "sc-centre" not in html  # no face shows
    assert 'aria-label="face-down card (4 of spades)"' in html
    assert "sc-peek sc-black" in html  # the example knows which card it is


def test_a_face_down_card_can_hide_its_name() -> None:
    hidden = cards.card_html("4S", down=True, peek=False)
    assert "sc-down" in hidden and "4♠" not in hidden and "sc-peek" not in hidden
    unknown = cards.card_html(cards.UNKNOWN, down=True)
    assert "sc-down" in unknown and "data-card" not in unknown


def test_a_bad_card_is_refused() -> None:
    with pytest.raises(ValueError, match="not a protocol card"):
        cards.card_html("1X")


def test_a_column_lists_its_cards_bottom_first_and_an_empty_one_is_a_space() -> None:
    html = cards.column_html({"down": ["4S"], "up": ["9D", "KH"]}, "1")
    assert [m for m in re.findall(r'data-card="(\w\w)"', html)] == ["4S", "9D", "KH"]
    assert "sc-slot" in cards.column_html({"down": [], "up": []}, "3")


def test_a_position_shows_the_stock_and_collected_runs() -> None:
    position = {
        "columns": [{"down": [], "up": []}] * 7,
        "stock": ["2C", "3D", "7S"],
        "removed": ["S"],
    }
    html = cards.position_html(position)
    assert "data-search-exclude" in html
    assert 'data-count="3"' in html
    # the top card (the first, for column 1) is drawn last, in front
    assert re.findall(r'data-card="(\w\w)"', html) == ["7S", "3D", "2C"]
    assert "spades run collected" in html
    assert "the stock is empty" in cards.position_html({"columns": [], "stock": [], "removed": []})


def test_cards_in_step_text_are_coloured_and_escaped() -> None:
    assert cards.inline_cards("<card> 10♥ K♠") == (
        '&lt;card&gt; <span class="sc-inline sc-red">10♥</span> '
        '<span class="sc-inline sc-black">K♠</span>'
    )


# ------------------------------------------------------------------ rules pages


def test_every_catalogue_rule_id_is_an_anchor() -> None:
    pages = rules_pages(CATALOGUE, CASES)
    anchors: set[str] = set()
    for area in CATALOGUE.areas:
        anchors |= set(re.findall(r'<h2 id="([^"]+)"', area_html(pages, area.id)))
    missing = [rule.id for rule in CATALOGUE.rules if rule.id not in anchors]
    assert not missing, f"rules without an anchor: {missing}"


def test_every_scenario_is_drawn_once_under_its_home_rule() -> None:
    pages = rules_pages(CATALOGUE, CASES)
    everything = "".join(html_of(p) for p in pages[1:])
    for example in group_examples(CASES):
        assert everything.count(f'id="{example.id}"') == 1, example.id


def test_a_scenario_citing_no_catalogue_rule_is_drawn_on_its_area_page_as_uncatalogued() -> None:
    case = next(c for c in CASES if c.case_id == "STOCK-018")
    bare = dataclasses.replace(case, tags=frozenset(t for t in case.tags if not t.startswith("R-")))
    pages = rules_pages(CATALOGUE, [bare if c is case else c for c in CASES])
    stock = area_html(pages, "stock")
    assert stock.count('id="STOCK-018"') == 1
    assert stock.index('id="uncatalogued"') < stock.index('id="STOCK-018"')
    assert "".join(html_of(p) for p in pages[1:]).count('id="STOCK-018"') == 1
    cited = area_html(rules_pages(CATALOGUE, CASES), "stock")
    ends = cited.find('id="uncatalogued"')
    assert ends == -1 or cited.index('id="STOCK-018"') < ends  # with its rule, it is drawn under it


def test_every_rule_lists_where_it_holds() -> None:
    pages = rules_pages(CATALOGUE, CASES)
    html = area_html(pages, "empty-columns")
    section = html.split('id="R-EMPTY-ANY-CARD"')[1].split("<h2")[0]
    assert 'sc-set sc-set-yes" title="holds under wasp"' in section
    assert 'sc-set sc-set-no" title="does not hold under standard"' in section
    assert holds_in(CATALOGUE.rule("R-EMPTY-ANY-CARD")) == ["wasp"]


def test_a_decision_shows_its_rationale() -> None:
    pages = rules_pages(CATALOGUE, CASES)
    decision = next(r for r in CATALOGUE.rules if r.decision)
    section = area_html(pages, decision.area).split(f'id="{decision.id}"')[1].split("<h2")[0]
    assert "Our decision" in section
    assert decision.rationale.split()[0] in section


def _write_feature(folder: Path, card: str, target: str, *, extra: str = "") -> None:
    folder.mkdir(exist_ok=True)
    shutil.copy(feature_dir() / "test_scenarios.py", folder / "test_scenarios.py")
    (folder / "moving_groups.feature").write_text(
        "Feature: Moving groups with passengers\n"
        "\n"
        "  @R-MOVE-LEADER-ONLY\n"
        "  Rule: Only the leading card decides\n"
        "\n"
        "    @id:MOVE-901\n"
        f"    Example: {card} lands on {target}\n"
        "      Given the table\n"
        "        | 1    | 2    |\n"
        f"        | [4♠] | {target} |\n"
        f"        | {card} |      |\n"
        "        | K♥   |      |\n"
        f"      When the player moves {card} to column 2\n"
        f"      Then column 2 reads {target} {card} K♥\n" + extra,
        encoding="utf-8",
    )


def test_changing_a_scenario_changes_the_generated_page(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    _write_feature(folder, "9♦", "10♦")
    before = area_html(rules_pages(CATALOGUE, load_cases(folder)), "moving-groups")
    assert 'data-card="9D"' in before and 'id="MOVE-901"' in before
    _write_feature(folder, "9♥", "10♥")
    after = area_html(rules_pages(CATALOGUE, load_cases(folder)), "moving-groups")
    assert after != before
    assert 'data-card="9H"' in after and 'data-card="9D"' not in after
    assert "9♥ lands on 10♥" in after


def test_a_new_scenario_appears_under_its_rule(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    extra = (
        "\n"
        "    @id:MOVE-902 @R-FLIP-AUTOMATIC\n"
        "    Example: The hidden card turns up\n"
        "      Given the table\n"
        "        | 1    | 2   |\n"
        "        | [4♠] | 10♦ |\n"
        "        | 9♦   |     |\n"
        "      When the player moves 9♦ to column 2\n"
        "      Then 4♠ is face up\n"
    )
    _write_feature(folder, "9♦", "10♦", extra=extra)
    pages = rules_pages(CATALOGUE, load_cases(folder))
    html = area_html(pages, "moving-groups")
    section = html.split('id="R-MOVE-LEADER-ONLY"')[1].split("<h2")[0]
    assert 'id="MOVE-902"' in section  # drawn under the Rule: block's rule
    flip = area_html(pages, "face-down").split('id="R-FLIP-AUTOMATIC"')[1].split("<h2")[0]
    assert "MOVE-902" in flip and 'id="MOVE-902"' not in flip  # linked from the other rule


def test_the_expected_column_is_drawn(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    _write_feature(folder, "9♦", "10♦")
    html = area_html(rules_pages(CATALOGUE, load_cases(folder)), "moving-groups")
    expected = html.split('class="sc-diagram sc-expected"')[1].split("</figure>")[0]
    assert "column 2" in expected
    assert re.findall(r'data-card="(\w\w)"', expected) == ["TD", "9D", "KH"]


def test_home_rule_prefers_the_rule_block() -> None:
    examples = group_examples(CASES)
    homes = home_rules(examples, CATALOGUE)
    move_003 = next(e for e in examples if e.id == "MOVE-003")
    assert "R-FLIP-AUTOMATIC" in move_003.catalogue
    assert CATALOGUE.rule(homes[move_003.key]).area == "moving-groups"


def test_the_rules_index_lists_every_rule() -> None:
    index = html_of(rules_pages(CATALOGUE, CASES)[0])
    for rule in CATALOGUE.rules:
        assert f'href="{rule.area}.md#{rule.id}"' in index


# ------------------------------------------------------------------ diagrams in pages


def test_a_scorpion_fence_becomes_a_diagram() -> None:
    page = text.GeneratedPage("x.md", "x")
    source = (
        "Intro\n\n```scorpion\n| 1 | 2 |\n| [4♠] | 10♦ |\n| 9♦ | |\n"
        "stock: 2♣ 3♦ 7♠\nmark: 9♦\n```\n"
    )
    out = diagrams.expand_diagrams(source, page.fragment)
    (token,) = page.fragments
    assert token in out and "```" not in out
    html = page.fragments[token]
    assert "sc-mark" in html and 'data-count="3"' in html


def test_a_fence_inside_another_fence_is_left_alone() -> None:
    source = "````markdown\n```scorpion\n| 1 |\n| K♠ |\n```\n````\n"
    assert diagrams.expand_diagrams(source, lambda html: "TOKEN") == source


def test_a_bad_fence_says_where() -> None:
    with pytest.raises(diagrams.DiagramError, match=r"line 2: .*'11♦' is not a card"):
        diagrams.expand_diagrams("x\n```scorpion\n| 1 |\n| 11♦ |\n```\n", lambda html: "T")


def test_a_numbered_deal_is_drawn_with_hidden_cards() -> None:
    spec = diagrams.parse_diagram("deal: 1")
    down = sum(len(c["down"]) for c in spec.position["columns"])
    assert down == 12 and len(spec.position["stock"]) == 3 and not spec.peek


# ------------------------------------------------------------------ comparison


def test_the_comparison_cites_known_rules_for_every_source() -> None:
    data = comparison.load_comparison()
    for point in data["points"]:
        cited = list(point.get("rules", [])) + list(point.get("ruleset_rules", []))
        for cell in point["cells"].values():
            assert cell["where"].strip(), point["id"]
            cited += cell.get("rules", [])
        unknown = [r for r in cited if r not in CATALOGUE.ids]
        assert not unknown, f"{point['id']}: not in the catalogue: {unknown}"


def test_the_comparison_covers_every_rule_option() -> None:
    data = comparison.load_comparison()
    options = {p["option"] for p in data["points"] if "option" in p}
    assert options == {option for option, _ in OPTION_TAGS.values()}
    assert {"face-down", "stock-order"} <= {p["id"] for p in data["points"]}


def test_the_comparison_table_has_a_column_per_rule_set_and_source() -> None:
    page = text.GeneratedPage("rulesets.md", "x")
    comparison.comparison_section(page, comparison.load_comparison(), CATALOGUE)
    table = next(html for html in page.fragments.values() if "sc-compare" in html)
    headers = re.findall(r'<th scope="col"[^>]*>(?:<a [^>]*>)?([^<]+)', table)
    assert headers == [*NAMED_RULESETS, "000", "001", "002", "003", "004", "PySolFC", "Aisleriot"]
    points = len(comparison.load_comparison()["points"])
    assert table.count('class="sc-cite"') == points * len(headers)  # every cell cites


def test_a_missing_cell_is_reported(tmp_path: Path) -> None:
    data = {
        "sources": [{"id": "000_x.txt", "about": "a"}, {"id": "PySolFC", "about": "b"}],
        "points": [
            {"id": "runs", "option": "runs", "cells": {"000_x.txt": {"value": "v", "where": "w"}}}
        ],
    }
    path = tmp_path / "comparison.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="no cell for PySolFC"):
        comparison.load_comparison(path)


OPTION = {option.name: option for option in VOCABULARY.options}


def _two_sources(tmp_path: Path, option: str | None) -> Path:
    cells = {"000_x.txt": {"value": "v", "where": "w"}, "PySolFC": {"value": "v", "where": "w"}}
    data = {
        "sources": [{"id": "000_x.txt", "about": "a"}, {"id": "PySolFC", "about": "b"}],
        "points": [{"id": "runs", "option": option, "cells": cells}] if option else [],
    }
    path = tmp_path / "comparison.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_option_with_no_point_is_reported_with_its_two_ways_out(tmp_path: Path) -> None:
    options = [OPTION["runs"], OPTION["stock"]]
    wanted = r"option 'stock' has no point in comparison.yaml.*\"compared\": false"
    with pytest.raises(ValueError, match=wanted):
        comparison.load_comparison(_two_sources(tmp_path, "runs"), options)


def test_an_option_marked_not_compared_is_shown_as_not_yet_compared(tmp_path: Path) -> None:
    data = comparison.load_comparison()
    data["points"] = [p for p in data["points"] if p.get("option") != "stock" and not p.get("pending")]
    path = tmp_path / "comparison.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    options = [dataclasses.replace(o, compared=False) if o.name == "stock" else o
               for o in VOCABULARY.options]
    data = comparison.load_comparison(path, options)
    point = next(p for p in data["points"] if p.get("option") == "stock")
    assert (point["option"], point["pending"]) == ("stock", True)
    assert {cell["value"] for cell in point["cells"].values()} == {comparison.NOT_COMPARED}
    page = text.GeneratedPage("rulesets.md", "x")
    comparison.comparison_section(page, data, CATALOGUE)
    table = next(html for html in page.fragments.values() if "sc-compare" in html)
    row = table[table.index('<tr id="point-stock">'):].split("</tr>")[0]
    assert row.count("not yet compared") == len(data["sources"])
    assert 'data-value="any-time"' in row  # the rule-set cells still come from the named sets


def test_an_option_marked_not_compared_may_not_also_have_a_point(tmp_path: Path) -> None:
    runs = dataclasses.replace(OPTION["runs"], compared=False)
    with pytest.raises(ValueError, match=r"marked \"compared\": false .* drop the mark"):
        comparison.load_comparison(_two_sources(tmp_path, "runs"), [runs])


# ------------------------------------------------------------------ contributing


def test_the_notation_reference_shows_every_sentence_with_an_example() -> None:
    html = contributing.notation_reference(CASES)
    for spec in LIBRARY:
        visible = re.sub(r"\{(\w+)(?::\w+)?\}", r"\1", spec.pattern)
        rendered = re.sub(r"<[^>]+>", "", html)
        assert visible in rendered, spec.pattern
    assert html.count("<tr>") == len(LIBRARY) + 3  # one header row per keyword


def test_the_lint_rules_list_every_check() -> None:
    path = ROOT / "tests" / "test_features_lint.py"
    listed = contributing.lint_rules(path)
    for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE):
        assert f"`{name}`" in listed


def test_the_id_table_offers_the_next_free_number() -> None:
    table = contributing.id_table(CASES)
    top = max(int(c.id.split("-")[1]) for c in CASES if c.id and c.id.startswith("MOVE-"))
    assert f"`@id:MOVE-{top + 1:03d}`" in table


# ------------------------------------------------------------------ report

RECORDS = [
    {
        "id": "MOVE-001",
        "name": "n",
        "area": "Moving groups with passengers",
        "rules": "standard",
        "status": "passed",
        "message": "",
    },
    {
        "id": "MOVE-004",
        "name": "n",
        "area": "Moving groups with passengers",
        "rules": "standard",
        "status": "failed",
        "message": "expected column 2 to read 7♣ 6♣",
        "rerun": "scorpion-conformance run --id MOVE-004",
    },
    {
        "id": "EMPTY-009/2",
        "name": "n",
        "area": "Empty columns",
        "rules": None,
        "status": "unsupported",
        "message": "unsupported: no declared rule set has empty_column=any",
    },
]


def test_a_report_is_read_line_by_line() -> None:
    raw = "\n".join(json.dumps(r) for r in RECORDS) + "\n"
    assert report.load_report(raw) == RECORDS
    with pytest.raises(ValueError, match="line 2"):
        report.load_report('{"status": "passed"}\nnot json\n')


def test_the_report_counts_per_area_and_rule_set() -> None:
    page = text.GeneratedPage("report.md", "x")
    result = report.RunResult(report.IMPLEMENTATIONS[0], records=list(RECORDS), seconds=1.0)
    markdown_text = report.report_markdown(page, [result], CASES, CATALOGUE)
    fragments = "".join(page.fragments.values())
    assert "<b>failed</b><i>1</i>" in fragments and "<b>unsupported</b><i>1</i>" in fragments
    assert 'data-area="moving-groups"' in fragments and 'data-area="empty-columns"' in fragments
    assert "✗ 1" in fragments
    assert (
        "[MOVE-004](rules/moving-groups.md#MOVE-004)" in markdown_text
    )  # a failure links to its drawing
    assert "scorpion-conformance run --id MOVE-004" in markdown_text


def test_a_skipped_report_says_so() -> None:
    page = text.GeneratedPage("report.md", "x")
    assert report.SKIP_VARIABLE in report.report_markdown(page, None, CASES, CATALOGUE)
    node = report.RunResult(report.IMPLEMENTATIONS[1], skipped="`node` is not installed")
    assert "Not run" in report.report_markdown(page, [node], CASES, CATALOGUE)


@pytest.mark.parametrize(("value", "skip"), [("", False), ("0", False), ("1", True), ("yes", True)])
def test_the_skip_variable(value: str, skip: bool) -> None:
    assert report.skip_requested({report.SKIP_VARIABLE: value}) is skip


def test_a_missing_program_skips_its_implementation(tmp_path: Path) -> None:
    missing = report.Implementation(
        "x", "X", "no-such-program-here adapter.js", "no-such-program-here", "x"
    )
    result = report.run_suite(missing, tmp_path)
    assert result.skipped and not result.records


# ------------------------------------------------------------------ helpers


@pytest.mark.parametrize("name", SITE_MODULES)
def test_the_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"scorpion_conformance.site.{name}")
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_links_out_of_docs_point_to_the_site_or_the_repository() -> None:
    from scorpion_conformance.site import mkdocs_hooks

    mkdocs_hooks.state.root = ROOT
    mkdocs_hooks.state.repository = "https://github.com/o/r"
    docs = ROOT / "docs"
    assert mkdocs_hooks._outward("../adapters/README.md", "protocol.md", docs) == "adapters.md"
    assert (
        mkdocs_hooks._outward(
            "../scorpion_conformance/schemas/protocol-v1.json", "protocol.md", docs
        )
        == "schema.md"
    )
    assert mkdocs_hooks._outward("../adapters/javascript/engine.js", "protocol.md", docs) == (
        "https://github.com/o/r/blob/main/adapters/javascript/engine.js"
    )
    assert mkdocs_hooks._outward("learn.md", "protocol.md", docs) is None
    assert mkdocs_hooks._outward("https://example.org", "protocol.md", docs) is None


def test_a_scenario_that_cannot_be_drawn_is_reported_not_fatal(tmp_path: Path) -> None:
    folder = tmp_path / "features"
    extra = (
        "\n"
        "    @id:MOVE-903\n"
        "    Example: A sentence outside the library\n"
        "      Given the table\n"
        "        | 1  |\n"
        "        | K♠ |\n"
        "      When the player shuffles the deck\n"
    )
    _write_feature(folder, "9♦", "10♦", extra=extra)
    pages = rules_pages(CATALOGUE, load_cases(folder))
    (page,) = [p for p in pages if p.path == area_path("moving-groups")]
    assert any("MOVE-903" in problem for problem in page.problems)
    assert "cannot be drawn" in page.markdown and 'id="MOVE-901"' in html_of(page)
