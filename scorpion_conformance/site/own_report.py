"""A report of one's own: ``scorpion-conformance report report.jsonl --html out/``.

An implementer runs the suite against their adapter with ``run --report
report.jsonl`` and turns the report into a page to publish: one
self-contained HTML file (its styles inline, nothing fetched) with the same
badges and table of rule area by rule set as the site's conformance report,
every failure drawn as the rules pages draw its scenario, and what the run
said about itself (the adapter's hello, the versions, the time). Beside it, a
`shields.io endpoint <https://shields.io/badges/endpoint-badge>`_ JSON file
for a badge.

Everything on the page that a report file can set (and so an adapter, through
the run that wrote it) is escaped by one helper,
:func:`scorpion_conformance.escaping.html_text`, and only an ``http(s)``
homepage is linked. The report is read with bounds and every line held to
the report's schema (:data:`~scorpion_conformance.suite.reporting.CASE_SCHEMA`,
:data:`~scorpion_conformance.suite.reporting.END_SCHEMA`) first, so a bad
file is one line of error, never a traceback.

The badge never looks better than the run was: only a complete run of the
whole suite can be green; an interrupted run, one narrowed to part of the
suite, one that gave up on its adapter and one whose adapter could not be
used say so, in another colour.

>>> badge([{"status": "passed"}, {"status": "unsupported"}])["message"]
'1/1 passed'
>>> badge([{"status": "passed"}], {"run": "interrupted"})["message"]
'1/1 passed (interrupted)'
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from scorpion_conformance.escaping import html_text, link, terminal_text
from scorpion_conformance.json_input import InputError, check, parse, read_bytes

from .run_end import caveat, narrowed

__all__ = [
    "ReportError", "add_arguments", "badge", "caveat", "load_run", "main", "narrowed", "page_html",
    "stylesheet",
]

#: The statuses that make a case count against the implementation.
BAD = ("failed", "error", "xpassed")
#: The mark of an unsupported result, as on the site's report.
DASH = "\u2013"
#: At most this many failures are drawn; the rest are listed.
DRAWN = 60
#: The largest report read: a whole run of every rule set is a few megabytes.
MAX_REPORT_BYTES = 256 * 2**20


class ReportError(ValueError):
    """A report file that cannot be read, naming the file and the line."""


def load_run(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The case records and the closing record of a ``run --report`` file.

    Raises :class:`ReportError` for a file that cannot be read (or is too big), a line that
    is not JSON or not a record of the report's schema (on the first line, asking whether
    the file is a report at all), an empty file, or a report with no closing record (a run
    cut short before it could write one).
    """
    from scorpion_conformance.suite.reporting import CASE_SCHEMA, END_SCHEMA

    try:
        data = read_bytes(path, max_bytes=MAX_REPORT_BYTES, what="report")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except InputError as error:
        raise ReportError(str(error)) from None
    records: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = parse(line, where)
            if not isinstance(record, dict):
                raise ReportError(f"{where}: not a JSON object")
            if record.get("end") is True:
                check(record, END_SCHEMA, f"{where}: the closing record")
                end = record
            elif "status" not in record:
                raise ReportError(f"{where}: a record with no status")
            else:
                check(record, CASE_SCHEMA, where)
                records.append(record)
        except (InputError, ReportError) as error:
            first = not records and end is None
            raise ReportError(str(error) + (f"; is it a report of {_RUN}?" if first else "")) from None
    if end is None and not records:
        raise ReportError(f"{path}: empty, not a report of {_RUN}")
    if end is None:
        raise ReportError(
            f"{path}: no closing record after {len(records)} results: the run that wrote it was cut "
            "short (killed, or out of disk) before it could end the report, so it is not whole")
    return records, end


#: The command whose ``--report`` files :func:`load_run` reads.
_RUN = "`scorpion-conformance run --report`"


def badge(records: Sequence[Mapping[str, Any]], end: Mapping[str, Any] | None = None,
          label: str = "Scorpion conformance") -> dict[str, Any]:
    """The shields.io endpoint document: passed out of the cases that ran, and what kept the run
    from being whole (see the module; ``end`` is the closing record, None for a whole run).

    >>> badge([{"status": "passed"}, {"status": "failed"}])
    {'schemaVersion': 1, 'label': 'Scorpion conformance', 'message': '1/2 passed', 'color': 'red'}
    >>> badge([], {"run": "adapter-unusable"})["message"], badge([], {"run": "adapter-unusable"})["color"]
    ('adapter unusable', 'red')
    """
    counts = Counter(str(r["status"]) for r in records)
    ran = counts["passed"] + counts["xfailed"] + sum(counts[s] for s in BAD)
    bad = sum(counts[s] for s in BAD)
    message = f"{counts['passed']}/{ran} passed"
    if counts["xfailed"]:
        message += f", {counts['xfailed']} known"
    color = "red" if bad else ("yellow" if counts["xfailed"] or not ran else "brightgreen")
    why = caveat(end)
    if why == "adapter unusable":
        return {"schemaVersion": 1, "label": label, "message": why, "color": "red"}
    if why is not None:
        message += f" ({why})"
        if color != "red":
            color = {"gave up on the adapter": "red", "narrowed": "blue"}.get(why, "orange")
    return {"schemaVersion": 1, "label": label, "message": message, "color": color}


def stylesheet() -> str:
    """The card and table styles of the site (a copy ships in the package), and the page's own."""
    cards = resources.files("scorpion_conformance.site").joinpath("assets/cards.css").read_text("utf-8")
    return cards + _PAGE_CSS


_PAGE_CSS = """
/* the page around the site's styles */
:root { --md-default-fg-color--light: #5f6368; --md-typeset-a-color: #1f4e96; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; }
main.md-typeset { max-width: 70rem; margin: 0 auto; padding: 1rem; font-size: 0.85rem; }
.md-typeset h1 { font-size: 1.6rem; margin: 0.5rem 0 0.2rem; }
.md-typeset h2 { font-size: 1.2rem; margin: 1.6rem 0 0.5rem; border-bottom: 1px solid #ddd; }
.md-typeset h3 { font-size: 1rem; margin: 1.2rem 0 0.3rem; }
.md-typeset code { font-size: 0.8em; background: #f2f2f2; padding: 0 0.2em; border-radius: 0.2em;
  overflow-wrap: anywhere; }
.sc-facts { border-collapse: collapse; }
.sc-facts th, .sc-facts td { text-align: left; vertical-align: top; padding: 0.15rem 0.8rem 0.15rem 0; }
.md-typeset .sc-options code { font-size: 1em; overflow-wrap: normal; }
.sc-failure { border-left: 3px solid var(--sc-red); padding-left: 0.7rem; margin: 1rem 0; }
.sc-failure pre { white-space: pre-wrap; font-size: 0.75rem; background: #f7f7f7; padding: 0.4rem; }
"""


def _facts_table(end: Mapping[str, Any]) -> str:
    hello = end.get("hello") or {}
    impl = hello.get("implementation") or {}
    versions = end.get("versions") or {}
    declared = hello.get("rulesets") or {}
    homepage = impl.get("homepage") or ""
    rows = [
        ("implementation", html_text(end.get("implementation") or "unknown")),
        ("homepage", link(homepage) if homepage else ""),
        ("adapter", f"<code>{html_text(end.get('adapter') or '')}</code>"),
        ("declared rule sets", ", ".join(html_text(n) for n in declared) or "none"),
        ("capabilities", ", ".join(html_text(c) for c in hello.get("capabilities") or []) or "none"),
        ("the run", html_text(end.get("run", "?"))
         + (f" (gave up: {html_text(end['gave_up'])})" if end.get("gave_up") else "")
         + (f" ({html_text(end['problem'])})" if end.get("problem") else "")),
        ("started", html_text(end.get("started") or "?")),
        ("finished", html_text(end.get("finished") or "?")),
        ("versions", html_text(", ".join(f"{k} {v}" for k, v in versions.items()) or "?")),
    ]
    if narrowed(end):
        rows.append(("narrowed by", html_text("; ".join(narrowed(end)))))
    body = "".join(f"<tr><th scope='row'>{name}</th><td>{value}</td></tr>"
                   for name, value in rows if value)
    return f'<table class="sc-facts">{body}</table>'


def _options_table(end: Mapping[str, Any]) -> str:
    declared: Mapping[str, Mapping[str, str]] = (end.get("hello") or {}).get("rulesets") or {}
    if not declared:
        return ""
    options = sorted({option for values in declared.values() for option in values})
    head = "".join(f"<th scope='col'>{html_text(name)}</th>" for name in declared)

    def cell(name: str, values: Mapping[str, str], option: str) -> str:
        value = html_text(str(values.get(option, "")))
        return f'<td data-label="{html_text(name)}"><code>{value}</code></td>'

    rows = "".join(
        f"<tr><th scope='row'><code>{html_text(option)}</code></th>"
        + "".join(cell(name, values, option) for name, values in declared.items()) + "</tr>"
        for option in options
    )
    return ('<div class="sc-compare-wrap"><table class="sc-options sc-stacked"><thead><tr>'
            f"<th>option</th>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table></div>")


#: How a failure from a synthetic start is marked: no player meets that position.
_SYNTHETIC = "; from a synthetic start, one no game reaches from a deal: no player meets it"


def _failures_html(records: Sequence[Mapping[str, Any]], cases: Mapping[str, Any]) -> str:
    from .examples import example_rows_html

    bad = [r for r in records if r["status"] in BAD]
    if not bad:
        return "<p>Nothing failed.</p>"
    parts = []
    for record in bad[:DRAWN]:
        ident = str(record.get("id"))
        case = cases.get(ident)
        key = f"{ident}-{record.get('rules')}"
        drawing = example_rows_html(case, walk_key=key) if case is not None else ""
        message = html_text(str(record.get("message") or ""))
        rerun = html_text(str(record.get("rerun") or ""))
        parts.append(
            f'<section class="sc-failure" id="{html_text(ident)}-{html_text(str(record.get("rules")))}">'
            f"<h3>{html_text(ident)} under {html_text(str(record.get('rules') or '—'))}: "
            f"{html_text(str(record.get('name') or ''))} <small>({html_text(record['status'])}, "
            f"{html_text(str(record.get('source') or ''))}"
            f"{_SYNTHETIC if record.get('synthetic') is True else ''})</small></h3>"
            f"{drawing}<pre>{message}</pre><p>rerun: <code>{rerun}</code></p></section>"
        )
    if len(bad) > DRAWN:
        rest = ", ".join(html_text(f"{r.get('id')}[{r.get('rules')}]") for r in bad[DRAWN:])
        parts.append(f"<p>{len(bad) - DRAWN} more, not drawn: {rest}</p>")
    return "".join(parts)


def page_html(records: Sequence[Mapping[str, Any]], end: Mapping[str, Any]) -> str:
    """The whole page: the run's facts, the badges, the table by area and rule set, the failures."""
    from scorpion_conformance.suite.scenarios import feature_dir, load_cases

    from .catalogue import load_catalogue
    from .report import _area_titles, _badges, _matrix

    cases = load_cases(feature_dir())
    catalogue = load_catalogue()
    areas = _area_titles(cases, catalogue)
    matrix, offered = _matrix(records, cases, areas, catalogue)
    title = f"Scorpion conformance: {end.get('implementation') or 'an implementation'}"
    body = (
        f"<h1>{html_text(title)}</h1>"
        f"<p>{len(records)} results of the Scorpion Solitaire conformance suite, one per scenario "
        "and rule set.</p>"
        f"{_badges(records, offered, caveat(end))}"
        f"<h2>The run</h2>{_facts_table(end)}"
        f"<h2>By rule area and rule set</h2>{matrix}"
        f"<p>✓ passed · ≠ failed as the expectations file says · ✗ failed or errored · {DASH} unsupported "
        "(a rule set the implementation does not offer, or a synthetic start it cannot hold) · · nothing "
        "to run.</p>"
        f"<h2>The declared rule sets</h2>{_options_table(end)}"
        f"<h2>Failures</h2>{_failures_html(records, {c.case_id: c for c in cases})}"
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html_text(title)}</title><style>{stylesheet()}</style></head>"
        f"<body><main class='md-typeset'>{body}</main></body></html>\n"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance report``."""
    parser.description = (
        "Turn the report of a run (run --report FILE.jsonl) into a page of one's own: a "
        "self-contained HTML file and a shields.io endpoint JSON for a badge."
    )
    parser.add_argument("report", type=Path, metavar="REPORT.jsonl", help="the report of a run")
    parser.add_argument("--html", type=Path, metavar="DIR", required=True,
                        help="write DIR/index.html and DIR/badge.json (the folder is made if needed)")
    parser.add_argument("--label", default="Scorpion conformance", help="the badge's label")


def _write(text: str, out: TextIO) -> None:
    out.write(text)


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Write the page and the badge; 0 on success, 2 for a report that cannot be read."""
    from scorpion_conformance.writing import why, write_file

    out = out or sys.stdout
    try:
        records, end = load_run(args.report)
        if args.html.exists() and not args.html.is_dir():
            raise ReportError(f"--html {args.html}: is a file; name a folder")
        args.html.mkdir(parents=True, exist_ok=True)
        page = page_html(records, end)
        document = json.dumps(badge(records, end, args.label), ensure_ascii=False) + "\n"
        for name, text in (("index.html", page), ("badge.json", document)):
            try:
                write_file(args.html / name, functools.partial(_write, text))
            except OSError as error:
                raise ReportError(f"{args.html / name}: cannot write it: {why(error)}") from None
    except ReportError as error:
        print(f"scorpion-conformance report: {terminal_text(error)}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"scorpion-conformance report: --html {terminal_text(args.html)}: {why(error)}",
              file=sys.stderr)
        return 2
    page_path, badge_path = args.html / "index.html", args.html / "badge.json"
    print(terminal_text(f"wrote {page_path} ({len(records)} results) and {badge_path}"), file=out)
    return 0
