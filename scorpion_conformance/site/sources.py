"""The Sources page: what each source is and what it states on each disputed point.

Generated from ``comparison.yaml`` (every sentence there is our own, checked
by ``tests/test_own_words.py``) and the catalogue: one entry per source
document or program, anchored ``#source-000`` and so on, with what the source
is, its verdict on every point of the comparison (and where it says so), and
the catalogue rules that cite it. Every citation of the site links here
(:func:`source_href`).

>>> source_href("000_712d3b658eade62b.txt", "rules/stock.md")
'../../sources/#source-000'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorpion_conformance.escaping import html_text

from .catalogue import Catalogue
from .rulepages import area_path, source_label
from .text import GeneratedPage, relative_href, slug_of_source

__all__ = ["SOURCES_PAGE", "source_href", "sources_page"]

#: The page, under ``docs/``.
SOURCES_PAGE = "sources.md"


def source_href(source: str, here: str, directory_urls: bool = True) -> str:
    """The link from the page ``here`` to the entry of ``source`` on the Sources page."""
    return relative_href(here, f"{SOURCES_PAGE}#{slug_of_source(source)}", directory_urls)


def _rule_link(catalogue: Catalogue, rule_id: str, directory_urls: bool) -> str:
    if rule_id not in catalogue.ids:
        return html_text(rule_id)
    href = relative_href(SOURCES_PAGE, f"{area_path(catalogue.rule(rule_id).area)}#{rule_id}",
                         directory_urls)
    return f'<a href="{href}">{html_text(rule_id)}</a>'


def _entry(source: Mapping[str, Any], data: Mapping[str, Any], catalogue: Catalogue,
           directory_urls: bool) -> str:
    ident = str(source["id"])
    kind = "a program" if source.get("kind") == "program" else "a document of the project's seeds"
    where = f", <code>{html_text(str(source['where']))}</code>" if source.get("where") else ""
    rows = []
    for point in data["points"]:
        cell = point["cells"].get(ident)
        if cell is None:
            continue
        rules = ", ".join(_rule_link(catalogue, r, directory_urls) for r in cell.get("rules", []))
        silent = ' class="sc-silent"' if str(cell["value"]).startswith("not stated") else ""
        rows.append(
            f'<tr><th scope="row" data-label="point">{html_text(str(point["title"]))}</th>'
            f'<td data-label="it states"{silent}>{html_text(str(cell["value"]))}</td>'
            f'<td data-label="where">{html_text(str(cell["where"]))}</td>'
            f'<td data-label="recorded as">{rules or "—"}</td></tr>'
        )
    citing = [rule for rule in catalogue.rules if ident in rule.sources]
    cited = ", ".join(_rule_link(catalogue, rule.id, directory_urls) for rule in citing) or "none"
    table = (
        '<div class="sc-compare-wrap"><table class="sc-compare sc-stacked"><thead><tr>'
        "<th>Point</th><th>What it states</th><th>Where it says so</th><th>Recorded as</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
    return (
        f"<p><code>{html_text(ident)}</code>: {kind}{where}. "
        f"{html_text(' '.join(str(source['about']).split()))}</p>{table}"
        f'<p class="sc-meta">Cited by {len(citing)} rule{"s" * (len(citing) != 1)} of the catalogue: '
        f"{cited}</p>"
    )


def sources_page(page: GeneratedPage, data: Mapping[str, Any], catalogue: Catalogue,
                 *, directory_urls: bool = True) -> str:
    """The generated part of the Sources page: one section per source."""
    lines = []
    for source in data["sources"]:
        label = source_label(str(source["id"]))
        lines += [f"## {label} {{#{slug_of_source(str(source['id']))}}}", "",
                  page.fragment(_entry(source, data, catalogue, directory_urls)), ""]
    return "\n".join(lines)
