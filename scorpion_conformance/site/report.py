"""The conformance report page: the suite run against every adapter we ship, at build time.

Each implementation is run with ``scorpion-conformance run --report FILE -q``
in a subprocess; the JSON-lines report (one record per scenario and rule set,
with its status) becomes a badge-style summary and a table of rule area by
rule set. The real programs (:mod:`.real_programs`: an adapter folder with a
``divergences.json``) run with their expectations file when they are
installed, and their sections add the table of their divergences. Set
``SCORPION_SITE_SKIP_REPORT=1`` to skip the runs for a quick local build: the
page then says so instead.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scorpion_conformance.escaping import html_text
from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import NAMED_RULESETS

from .catalogue import Catalogue
from .examples import group_examples, home_rules
from .real_programs import divergence_table, find_programs, program_lines
from .report_runs import (
    IMPLEMENTATIONS,
    SKIP_VARIABLE,
    Implementation,
    RunResult,
    implementations,
    load_report,
    run_all,
    run_suite,
    skip_requested,
)
from .rulepages import area_path
from .run_end import caveat
from .text import GeneratedPage, md_escape

__all__ = [
    "IMPLEMENTATIONS",
    "SKIP_VARIABLE",
    "Implementation",
    "RunResult",
    "implementations",
    "load_report",
    "report_markdown",
    "run_all",
    "run_suite",
    "skip_requested",
]

STATUSES = ("passed", "failed", "error", "xfailed", "xpassed", "unsupported", "not-run", "skipped")
BAD = ("failed", "error", "xpassed")
DASH = "\u2013"  # the mark of an unsupported result
ROOT = Path(__file__).resolve().parents[2]  # the repository, whose adapters/ holds the real programs


def _area_titles(cases: Sequence[Case], catalogue: Catalogue) -> dict[str, tuple[str, str]]:
    """Scenario id → (area id, area title), through the example's home rule."""
    examples = group_examples(cases)
    homes = home_rules(examples, catalogue)
    result = {}
    for example in examples:
        home = homes[example.key]
        if home is not None:
            area = catalogue.area(catalogue.rule(home).area)
            result[example.id] = (area.id, area.title)
    return result


def _cell(counts: Counter[str], offered: bool, needed: int) -> str:
    if not offered:
        if needed:
            return (
                '<span class="sc-r-unsupported" title="scenarios that need this rule set">'
                f"{DASH} {needed}</span>"
            )
        return '<span class="sc-r-none">·</span>'
    parts = []
    if counts["passed"]:
        parts.append(f'<span class="sc-r-passed" title="passed">✓ {counts["passed"]}</span>')
    if counts["xfailed"]:
        parts.append('<span class="sc-r-failed" title="known divergences: failed, as its '
                     f'expectations file says">≠ {counts["xfailed"]}</span>')
    bad = sum(counts[s] for s in BAD)
    if bad:
        parts.append(f'<span class="sc-r-failed" title="failed">✗ {bad}</span>')
    if counts["unsupported"] or counts["skipped"]:
        parts.append(
            f'<span class="sc-r-unsupported" title="unsupported">{DASH} '
            f"{counts['unsupported'] + counts['skipped']}</span>"
        )
    return " ".join(parts) or '<span class="sc-r-none">·</span>'


def _badges(records: Sequence[Mapping[str, Any]], offered: Sequence[str], caveat: str | None = None) -> str:
    """The badges of one run; ``caveat`` says what kept it from a whole run (then never "ok")."""
    counts = Counter(str(r["status"]) for r in records)
    bad = sum(counts[s] for s in BAD)
    if bad:
        kind, verdict = "bad", f"{bad} failing"
    elif counts["xfailed"]:
        kind, verdict = "bad", f"{counts['xfailed']} known divergences"
    else:
        kind, verdict = "ok", "no failure"
    if caveat is not None:
        kind, verdict = ("bad" if bad or kind == "bad" else "info"), f"{verdict} ({caveat})"
    verdict = f'<span class="sc-badge sc-badge-{kind}"><b>conformance</b><i>{html_text(verdict)}</i></span>'
    pills = [verdict]
    for status in STATUSES:
        if counts[status]:
            kind = "bad" if status in (*BAD, "xfailed") else ("ok" if status == "passed" else "info")
            pills.append(
                f'<span class="sc-badge sc-badge-{kind}"><b>{status}</b>'
                f"<i>{counts[status]}</i></span>"
            )
    pills.append(
        '<span class="sc-badge sc-badge-info"><b>rule sets</b>'
        f"<i>{html_text(', '.join(offered) or 'none')}</i></span>"
    )
    return f'<div class="sc-badges">{"".join(pills)}</div>'


def _matrix(
    records: Sequence[Mapping[str, Any]],
    cases: Sequence[Case],
    areas: Mapping[str, tuple[str, str]],
    catalogue: Catalogue,
) -> tuple[str, list[str]]:
    offered = sorted(
        {str(r["rules"]) for r in records if r.get("rules")},
        key=lambda n: (
            n not in NAMED_RULESETS,
            list(NAMED_RULESETS).index(n) if n in NAMED_RULESETS else 0,
            n,
        ),
    )
    columns = list(NAMED_RULESETS) + [n for n in offered if n not in NAMED_RULESETS]
    needs: dict[str, list[str]] = {}
    for case in cases:
        if case.id:
            needs.setdefault(case.id, case.rulesets())
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    titles: dict[str, str] = {}
    for record in records:
        base = str(record.get("id")).split("/")[0]  # an outline's rows are ID/1, ID/2, ...
        area_id, title = areas.get(base, ("", str(record.get("area") or "other")))
        key = area_id or title
        titles[key] = title
        if record.get("rules"):
            table[key][str(record["rules"])][str(record["status"])] += 1
        else:
            for name in needs.get(base, []) or ["—"]:
                table[key][name]["needed"] += 1
    order = {a.id: i for i, a in enumerate(catalogue.areas)}
    head = "".join(f'<th scope="col">{html_text(c)}</th>' for c in columns)
    rows = []
    for key in sorted(table, key=lambda k: (order.get(k, len(order)), k)):
        cells = "".join(
            f"<td>{_cell(table[key][c], c in offered, table[key][c]['needed'])}</td>"
            for c in columns
        )
        rows.append(
            f'<tr><th scope="row" data-area="{html_text(key)}">{html_text(titles[key])}</th>{cells}</tr>'
        )
    html_table = (
        '<div class="sc-compare-wrap"><table class="sc-report">'
        f"<thead><tr><th>Rule area</th>{head}</tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
    return html_table, offered


def _failures(
    records: Sequence[Mapping[str, Any]], areas: Mapping[str, tuple[str, str]]
) -> list[str]:
    """A table of what failed, each scenario linked to its drawing on the rules pages."""
    bad = [r for r in records if r["status"] in BAD]
    if not bad:
        return []
    lines = ["| Scenario | Rule set | Status | What happened |", "| --- | --- | --- | --- |"]
    for r in bad[:200]:
        ident = str(r.get("id"))
        base = ident.split("/")[0]
        shown = md_escape(ident)
        if base in areas:
            shown = f"[{shown}]({area_path(areas[base][0])}#{base})"
        message = md_escape(" ".join(str(r.get("message") or "").split())[:300])
        if r.get("synthetic") is True:
            message = ("(from a [synthetic start](protocol.md#synthetic-positions), which no player meets) "
                       + message)
        rerun = f"<br><code>{html_text(r['rerun'])}</code>" if r.get("rerun") else ""
        lines.append(
            f"| {shown} {md_escape(str(r.get('name', '')))} | "
            f"{md_escape(str(r.get('rules') or '—'))} | {md_escape(str(r['status']))} | {message}{rerun} |"
        )
    if len(bad) > 200:
        lines.append(f"| … | | | {len(bad) - 200} more in the raw report |")
    return lines


def _results(page: GeneratedPage, result: RunResult, cases: Sequence[Case],
             areas: Mapping[str, tuple[str, str]], catalogue: Catalogue) -> list[str]:
    """One implementation's results: badges, the matrix and its failures, or why there are none."""
    if result.skipped:
        return ['!!! warning "Not run"', "", f"    {result.skipped}; its results are missing here.", ""]
    if not result.records:
        return [
            '!!! failure "The run produced no report"',
            "",
            f"    The command ended with exit code {result.exit_code}. Its last lines:",
            "",
            "    " + page.fragment(f'<pre class="sc-output">{html_text(result.output_tail)}</pre>'),
            "",
        ]
    matrix, offered = _matrix(result.records, cases, areas, catalogue)
    lines = [page.fragment(_badges(result.records, offered, caveat(result.end))), ""]
    lines += [
        f"{len(result.records)} results in {result.seconds:.1f} s. "
        f"[Download the raw report](report-data/{result.implementation.key}.jsonl) (JSON lines).",
        "",
        page.fragment(matrix),
        "",
    ]
    failures = _failures(result.records, areas)
    if failures:
        lines += ["### Failures", "", *failures, ""]
    return lines


def report_markdown(
    page: GeneratedPage,
    results: Sequence[RunResult] | None,
    cases: Sequence[Case],
    catalogue: Catalogue,
) -> str:
    """The generated part of the report page. ``results`` None: the runs were skipped (the
    real programs' sections still show their divergences)."""
    areas = _area_titles(cases, catalogue)
    synthetic = {case.id for case in cases if case.id and case.synthetic}
    if results is None:
        lines = [
            '!!! note "The suite was not run for this build"',
            "",
            f"    `{SKIP_VARIABLE}` was set, so this build skipped running the suite. "
            "Build without it to see the results here.",
            "",
        ]
        for program in find_programs(ROOT):
            table = divergence_table(program, areas, None, {rule.id: rule.area for rule in catalogue.rules},
                                     synthetic)
            lines += [f"## {program.title} {{#{program.key}}}", "", *program_lines(program),
                      "### Divergences", "", *table, ""]
        return "\n".join(lines)
    lines = []
    for result in results:
        impl = result.implementation
        lines += [f"## {impl.title} {{#{impl.key}}}", ""]
        lines += program_lines(impl.program) if impl.program else [impl.about + ".", ""]
        lines += _results(page, result, cases, areas, catalogue)
        if impl.program:
            statuses: dict[str, list[str]] = defaultdict(list)
            for record in result.records:
                statuses[str(record.get("id")).split("/")[0]].append(str(record["status"]))
            table = divergence_table(impl.program, areas, statuses if result.records else None,
                                     {rule.id: rule.area for rule in catalogue.rules}, synthetic)
            lines += ["### Divergences", "", *table, ""]
    area_links = " · ".join(f"[{md_escape(a.title)}]({area_path(a.id)})" for a in catalogue.areas)
    lines += [
        "## Reading the table",
        "",
        "Each cell counts the results of one rule area under one rule set: **✓** passed, "
        "**≠** failed as its expectations file says (a real program's known divergence, "
        f"explained in its table), **✗** failed (or errored), **{DASH}** unsupported (the "
        "implementation does not offer a rule set the scenario needs, or cannot hold a "
        "[synthetic start](protocol.md#synthetic-positions)), **·** nothing to run. "
        "A rule area's "
        f"scenarios are drawn on its page: {area_links}. A divergence or failure that only a "
        "synthetic start shows is marked: no player meets it. What the scenarios cover, condition "
        "by condition, is on [What the suite covers](coverage.md).",
        "",
    ]
    return "\n".join(lines)
