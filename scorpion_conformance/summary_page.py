"""Several reports side by side as one page: ``scorpion-conformance report A.jsonl B.jsonl --html DIR``.

``report`` with one report writes that run's page and badge
(:mod:`scorpion_conformance.site.own_report`). With several it writes a
comparison page instead, from the model ``summary`` prints in the terminal
(:mod:`scorpion_conformance.summary`: the reports as it reads them, the table
of rule area by implementation, the cases whose status differs, the cases only
one report holds), so the page and the terminal never disagree.

Each run keeps its own badge on the page, as its own report would show it:
a badge never looks better than its run, whatever the others did. Every value
a report holds (and so an adapter, through the run that wrote it) is escaped
by :func:`scorpion_conformance.escaping.html_text` where it meets the page.

>>> status_cell("failed")
'<span class="sc-r-failed">failed</span>'
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from .escaping import html_text, terminal_text
from .site.own_report import DASH, ReportError, badge, stylesheet
from .summary import Report, case_key, cell, differences, how_it_went, read_reports, side_by_side

__all__ = ["comparison_html", "report_main", "status_cell"]

#: The badge's colour → the page's badge style (a run is "ok" only when its badge is green).
_KIND = {"brightgreen": "ok", "red": "bad"}
_GOOD, _BAD = ("passed", "xfailed"), ("failed", "error", "xpassed")


def status_cell(status: str | None) -> str:
    """One case's status in one report, marked as the site marks it (a dash where it is not held)."""
    if status is None:
        return f'<span class="sc-r-none" title="the report does not hold this case">{DASH}</span>'
    kind = "passed" if status == "passed" else "failed" if status in _BAD else "unsupported"
    return f'<span class="sc-r-{kind}">{html_text(status)}</span>'


def _counts_cell(counts: Counter[str]) -> str:
    kind = "failed" if any(counts[s] for s in _BAD) else "passed" if counts["passed"] else "none"
    return f'<span class="sc-r-{kind}">{html_text(cell(counts))}</span>'


def _badge(report: Report) -> str:
    said = badge(report.records, report.end)
    kind = _KIND.get(said["color"], "info")
    return (f'<span class="sc-badge sc-badge-{kind}"><b>conformance</b>'
            f'<i>{html_text(said["message"])}</i></span>')


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], labels: Sequence[str]) -> str:
    """A table in the site's comparison style (cells already HTML), each cell labelled for a phone."""
    heads = "".join(f'<th scope="col">{text}</th>' for text in head)
    body = "".join(
        f'<tr><th scope="row">{row[0]}</th>'
        + "".join(f'<td data-label="{label}">{value}</td>'
                  for label, value in zip(labels, row[1:], strict=True))
        + "</tr>" for row in rows)
    return (f'<div class="sc-compare-wrap" tabindex="0" role="region" aria-label="{head[0]}">'
            f'<table class="sc-compare sc-stacked"><thead><tr>{heads}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def comparison_html(reports: Sequence[Report]) -> str:
    """The whole page: each run with its badge, rule area by implementation, the cases that differ."""
    labels = [html_text(report.label) for report in reports]
    runs = "".join(
        f"<tr><th scope='row'>{label}</th><td>{_badge(report)}</td>"
        f"<td>{html_text(how_it_went(report.end))}</td><td><code>{html_text(report.path)}</code></td>"
        f"<td>{len(report.records)}</td></tr>"
        for label, report in zip(labels, reports, strict=True))
    areas = _table(["rule area", *labels],
                   [[html_text(area), *map(_counts_cell, counts)] for area, counts in side_by_side(reports)],
                   labels)
    differ, alone = differences(reports)
    said = f"{len(differ)} case{'s' * (len(differ) != 1)} whose status differs"
    if differ:
        rows = [[f"<code>{html_text(case_key(key))}</code>", *map(status_cell, statuses)]
                for key, statuses in differ]
        listed = _table(["case", *labels], rows, labels)
    else:
        listed = "<p>Every case that two or more reports hold has the same status in each.</p>"
    only = "".join(f"<li>{len(keys)} case{'s' * (len(keys) != 1)} only {html_text(label)} holds: "
                   + ", ".join(f"<code>{html_text(key)}</code>" for key in keys) + "</li>"
                   for label, keys in alone.items())
    title = f"Scorpion conformance: {len(reports)} reports side by side"
    body = (
        f"<h1>{html_text(title)}</h1>"
        "<p>The reports of several runs of the Scorpion Solitaire conformance suite (a program before "
        "and after a fix, or several programs), each with the badge its own report would carry.</p>"
        "<h2>The runs</h2><div class='sc-compare-wrap' tabindex='0' role='region' aria-label='the runs'>"
        "<table class='sc-facts'><thead><tr><th>implementation</th><th>badge</th><th>the run</th>"
        f"<th>report</th><th>results</th></tr></thead><tbody>{runs}</tbody></table></div>"
        f"<h2>By rule area</h2>{areas}"
        "<p>Each cell: passed out of the cases that ran, under every rule set of the report, then every "
        "other status it holds; · nothing.</p>"
        f"<h2 id='differences'>{html_text(said[0].upper() + said[1:])}</h2>{listed}"
        + (f"<ul>{only}</ul>" if only else "")
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html_text(title)}</title><style>{stylesheet()}</style></head>"
        f"<body><main class='md-typeset'>{body}</main></body></html>\n"
    )


def report_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """``report``: one report's page and badge, or, for several, the page that compares them."""
    from .site import own_report

    if len(args.report) == 1:
        return own_report.main(args, out)
    out = out or sys.stdout
    try:
        reports = read_reports(args.report)
    except ReportError as error:
        print(f"scorpion-conformance report: {terminal_text(error)}", file=sys.stderr)
        return 2
    problem = own_report.write_folder(args.html, lambda: {"index.html": comparison_html(reports)})
    if problem is not None:
        print(f"scorpion-conformance report: {terminal_text(problem)}", file=sys.stderr)
        return 2
    print(terminal_text(f"wrote {args.html / 'index.html'}: {len(reports)} reports side by side (no badge: "
                        "each run has its own, from 'report' with its report alone)"), file=out)
    return 0
