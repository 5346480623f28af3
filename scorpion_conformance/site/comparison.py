"""The "Rule sets compared" page: every point of disagreement, per rule set and per source.

The rule-set columns come from the suite's named rule sets in the vocabulary
(:data:`~scorpion_shared.vocabulary.NAMED_RULESETS`); the source columns
come from ``comparison.yaml`` beside this module, where every cell names the
part of its source that says it and the catalogue rules that record it.

>>> data = load_comparison()
>>> [p["id"] for p in data["points"]][:3]
['runs', 'stock', 'whole-column']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from scorpion_conformance.escaping import html_text
from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import NAMED_RULESETS
from scorpion_shared.vocabulary import VOCABULARY, Option

from .catalogue import Catalogue
from .rulepages import area_path, source_label
from .sources import source_href
from .text import GeneratedPage, md_escape, relative_href, slug_of_source

__all__ = [
    "comparison_path",
    "comparison_section",
    "load_comparison",
    "options_html",
    "options_table",
    "ruleset_tabs",
    "sources_section",
]


def comparison_path() -> Path:
    return Path(__file__).with_name("comparison.yaml")


def load_comparison(
    path: Path | None = None, options: Sequence[Option] = VOCABULARY.options
) -> dict[str, Any]:
    """Read the comparison data; raises :class:`ValueError` for a point missing a source's cell,
    or for an option with no point that the vocabulary does not mark ``"compared": false``."""
    data: dict[str, Any] = yaml.safe_load((path or comparison_path()).read_text(encoding="utf-8"))
    sources = [s["id"] for s in data["sources"]]
    for point in data["points"]:
        missing = [s for s in sources if s not in point.get("cells", {})]
        if missing:
            raise ValueError(
                f"comparison point {point['id']!r} has no cell for {', '.join(missing)}"
            )
        if "option" not in point and "ruleset_value" not in point:
            raise ValueError(f"comparison point {point['id']!r} needs an option or a ruleset_value")
    return _with_every_option(data, sources, options)


#: What a source's cell says for an option nobody has compared yet.
NOT_COMPARED = "not yet compared"


def _with_every_option(
    data: dict[str, Any], sources: Sequence[str], options: Sequence[Option]
) -> dict[str, Any]:
    """Check that every option has its point; add a "not yet compared" point for each option
    that ``vocabulary.json`` marks ``"compared": false``."""
    pointed = {p["option"] for p in data["points"] if "option" in p}
    for option in options:
        if option.name in pointed and not option.compared:
            raise ValueError(
                f"option {option.name!r} is marked \"compared\": false in scorpion_ref/vocabulary.json, "
                "but comparison.yaml has a point for it: drop the mark"
            )
        if option.name in pointed:
            continue
        if option.compared:
            raise ValueError(
                f"option {option.name!r} has no point in comparison.yaml: write one (what each "
                "source says, cited), or mark the option \"compared\": false in "
                "scorpion_ref/vocabulary.json to publish it as not yet compared"
            )
        where = "nobody has read this source for the option yet"
        data["points"].append({
            "id": option.name.replace("_", "-"),
            "title": option.name.replace("_", " ").capitalize(),
            "option": option.name,
            "pending": True,
            "cells": {s: {"value": NOT_COMPARED, "where": where, "rules": []} for s in sources},
        })
    return data


def _rule_href(catalogue: Catalogue, rule_id: str, here: str, directory_urls: bool) -> str:
    return relative_href(
        here, f"{area_path(catalogue.rule(rule_id).area)}#{rule_id}", directory_urls
    )


def options_table(rulesets: Mapping[str, Mapping[str, str]] = NAMED_RULESETS) -> str:
    """The option table, one column per named rule set (Markdown)."""
    names = list(rulesets)
    options = list(dict.fromkeys(o for values in rulesets.values() for o in values))
    lines = [
        "| Option | " + " | ".join(f"`{n}`" for n in names) + " |",
        "| --- | " + " | ".join("---" for _ in names) + " |",
    ]
    for option in options:
        cells = [f"`{rulesets[n].get(option, '—')}`" for n in names]
        lines.append(f"| `{option}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def options_html(rulesets: Mapping[str, Mapping[str, str]] = NAMED_RULESETS) -> str:
    """The option table as HTML, each cell labelled with its rule set, for the phone layout.

    >>> 'data-label="classic"' in options_html()
    True
    """
    names = list(rulesets)
    options = list(dict.fromkeys(o for values in rulesets.values() for o in values))
    head = "".join(f'<th scope="col"><code>{html_text(n)}</code></th>' for n in names)
    rows = "".join(
        f'<tr><th scope="row"><code>{html_text(option)}</code></th>'
        + "".join(f'<td data-label="{html_text(n)}"><code>{html_text(rulesets[n].get(option, "—"))}'
                  "</code></td>" for n in names)
        + "</tr>"
        for option in options
    )
    return (f'<div class="sc-compare-wrap"><table class="sc-options sc-stacked"><thead><tr>'
            f"<th>Option</th>{head}</tr></thead><tbody>{rows}</tbody></table></div>")


def _ruleset_cell(point: Mapping[str, Any], name: str, note: int) -> str:
    cite = f'<a class="sc-cite" href="#cite-{note}">[{note}]</a>'
    if "option" in point:
        value = NAMED_RULESETS[name].get(point["option"], "")
        label = point.get("labels", {}).get(value, value)
        return (
            f'<td class="sc-ruleset-cell" data-label="{name}" data-value="{html_text(value)}" '
            f'title="{html_text(point["option"])} = {html_text(value)}">'
            f"{html_text(label)} {cite}</td>"
        )
    return (f'<td class="sc-ruleset-cell" data-label="{name}">'
            f'{html_text(point["ruleset_value"])} {cite}</td>')


def comparison_section(
    page: GeneratedPage,
    data: Mapping[str, Any],
    catalogue: Catalogue,
    *,
    here: str = "rulesets.md",
    directory_urls: bool = True,
) -> str:
    """The big table followed by its numbered citations (both HTML fragments).

    ``here`` (the page's path under ``docs/``) and ``directory_urls`` place
    the links, which MkDocs does not rewrite inside raw HTML.
    """
    names = list(NAMED_RULESETS)
    sources = data["sources"]
    documents = [s for s in sources if s.get("kind") != "program"]
    programs = [s for s in sources if s.get("kind") == "program"]
    notes: list[str] = []
    ruleset_note: dict[str, int] = {}

    def rule_links(rules: Sequence[str]) -> str:
        return ", ".join(
            f'<a href="{_rule_href(catalogue, r, here, directory_urls)}">{r}</a>' for r in rules
        )

    for name in names:
        set_rule = f"R-SET-{name.upper()}"
        described = f", described by {rule_links([set_rule])}" if set_rule in catalogue.ids else ""
        notes.append(
            f"rule set <code>{name}</code>: its options in "
            "<code>scorpion_ref/vocabulary.json</code> "
            f"(<code>rulesets</code>){described}"
        )
        ruleset_note[name] = len(notes)
    head = (
        '<tr><th rowspan="2">Point</th>'
        f'<th colspan="{len(names)}" class="sc-group">Rule sets of this suite</th>'
        f'<th colspan="{len(documents)}" class="sc-group">Documents</th>'
        f'<th colspan="{len(programs)}" class="sc-group">Programs</th></tr><tr>'
        + "".join(f'<th scope="col" class="sc-ruleset">{n}</th>' for n in names)
        + "".join(
            f'<th scope="col"><a href="{source_href(s["id"], here, directory_urls)}">'
            f"{html_text(source_label(s['id']))}</a></th>"
            for s in (*documents, *programs)
        )
        + "</tr>"
    )
    rows = []
    for point in data["points"]:
        cells = [_ruleset_cell(point, n, ruleset_note[n]) for n in names]
        for source in (*documents, *programs):
            cell = point["cells"][source["id"]]
            rules = rule_links(cell.get("rules", []))
            notes.append(
                f'<a href="{source_href(source["id"], here, directory_urls)}"><b>'
                f"{html_text(source_label(source['id']))}</b></a> · "
                f"{html_text(point['title'])}: "
                f"{html_text(cell['where'])}" + (f" — recorded as {rules}" if rules else "")
            )
            silent = " sc-silent" if str(cell["value"]).startswith(("not stated", NOT_COMPARED)) else ""
            cells.append(
                f'<td class="sc-source-cell{silent}" data-label="{html_text(source_label(source["id"]))}">'
                f'{html_text(str(cell["value"]))} '
                f'<a class="sc-cite" href="#cite-{len(notes)}">[{len(notes)}]</a></td>'
            )
        point_rules = " ".join(
            f'<a href="{_rule_href(catalogue, r, here, directory_urls)}">{r}</a>'
            for r in point.get("rules", [])
        )
        option = f" <code>{html_text(point['option'])}</code>" if "option" in point else ""
        rows.append(
            f'<tr id="point-{point["id"]}"><th scope="row">{html_text(point["title"])}{option}'
            f'<div class="sc-point-rules">{point_rules}</div></th>{"".join(cells)}</tr>'
        )
    table = (
        f'<div class="sc-compare-wrap"><table class="sc-compare sc-stacked"><thead>{head}</thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
    citations = "".join(f'<li id="cite-{i}">{note}</li>' for i, note in enumerate(notes, start=1))
    lines = [
        page.fragment(table),
        "",
        "### Citations",
        "",
        page.fragment(f'<ol class="sc-citations">{citations}</ol>'),
        "",
    ]
    return "\n".join(lines) + "\n"


def ruleset_tabs(cases: Sequence[Case]) -> str:
    """One content tab per named rule set: its summary, options, sources and scenario count.

    Links are written for a page at the top of ``docs/``.
    """
    described = {s.name: s for s in VOCABULARY.rulesets}
    total = len(cases)
    lines = []
    for name, options in NAMED_RULESETS.items():
        reference = described.get(name)
        running = sum(1 for case in cases if name in case.rulesets())
        lines += [f'=== "{name}"', ""]
        if reference is not None:
            lines += [f"    **{md_escape(reference.summary)}**", ""]
            follows = " · ".join(
                f"[{source_label(s)}](sources.md#{slug_of_source(s)})" for s in reference.sources
            )
            lines += [
                f"    Follows: {follows}. Described by "
                f"[R-SET-{name.upper()}](rules/variants.md#R-SET-{name.upper()}).",
                "",
            ]
        lines += ["    | Option | Value |", "    | --- | --- |"]
        lines += [f"    | `{o}` | `{v}` |" for o, v in options.items()]
        lines += ["", f"    {running} of the suite's {total} cases run under `{name}`.", ""]
    return "\n".join(lines)


def sources_section(data: Mapping[str, Any]) -> str:
    """Every source with its anchor and what it is, in our words."""
    lines = []
    for source in data["sources"]:
        label = source_label(source["id"])
        kind = "program" if source.get("kind") == "program" else "document"
        title = f"`{source['id']}`" if kind == "document" else source["id"]
        lines += [
            f"### {label} {{#{slug_of_source(source['id'])}}}",
            "",
            f"{title} ({kind}{', ' + md_escape(source['where']) if source.get('where') else ''}). "
            + md_escape(" ".join(source["about"].split())),
            "",
        ]
    return "\n".join(lines)
