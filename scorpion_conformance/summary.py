"""A run's report read in the terminal: ``scorpion-conformance summary REPORT...``.

``run --report FILE`` writes one JSON line per case and a closing line about
the whole run. ``summary`` reads one or more of those files (with
:func:`~scorpion_conformance.site.own_report.load_run`, the reader ``report``
uses: bounded, each line held to the report's schema) and says what they hold:

* **one report**: who was run, how the run went (what kept it from being a
  whole run of the suite, said as the badge says it), the totals by status
  and a table of rule area by rule set;
* **several reports**, side by side: a table of rule area by implementation,
  and the cases whose status differs between them (a program before and after
  a fix, or two programs);
* ``--show failures``: each case that failed or errored, with its message's
  first line and the line that reruns it;
* ``--format text`` (the default), ``markdown`` (for a pull request or a CI
  page) or ``json`` (for a program).

Every value a report holds may come from someone else's adapter, so each one
is escaped where it is written: :func:`~scorpion_conformance.escaping.terminal_text`
for the terminal, :func:`~scorpion_conformance.site.text.md_escape` and then
``terminal_text`` for Markdown, and in JSON every control character written as
a ``\\u`` escape (the value read back is the same). The exit status is 0 when
the summary was written, whatever the runs found, and 2 for a file that cannot
be read.

>>> cell(Counter(passed=9, failed=11))
'9/20, 11 failed'
>>> cell(Counter(unsupported=8)), cell(Counter())
('8 unsupported', '·')
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import EllipsisType
from typing import Any, TextIO

from scorpion_shared.vocabulary import NAMED_RULESETS

from .escaping import CONTROL, terminal_text
from .site.own_report import DASH, ReportError, load_run
from .site.run_end import caveat, narrowed
from .site.text import md_escape
from .suite.reporting import STATUSES

__all__ = ["Report", "add_arguments", "cell", "differences", "main", "read_reports", "summary_json",
           "summary_lines"]

#: The statuses of a case that ran: a verdict under the rules, or a fault of the adapter.
RAN = ("passed", "failed", "error", "xfailed", "xpassed")
#: What ``--show failures`` lists: a verdict against the rules, and a fault of the adapter.
FAILURES = ("failed", "error")
#: At most this many differing cases are listed as text; Markdown and JSON list every one.
LISTED = 50
#: The heading of the column of the cases that ran under no rule set (none of those run fits).
NO_RULES = "under no rule set"

Key = tuple[str, str | None]


@dataclass(frozen=True)
class Report:
    """One report file: its case records, its closing record and its column's heading."""

    path: Path
    records: tuple[Mapping[str, Any], ...]
    end: Mapping[str, Any]
    label: str

    def by_case(self) -> dict[Key, Mapping[str, Any]]:
        """The records by (case id, rule set); a case with no id by its node id."""
        return {(str(r.get("id") or r.get("nodeid")), r.get("rules")): r for r in self.records}


def _name(end: Mapping[str, Any]) -> str:
    """The implementation's name, as its hello gave it."""
    hello = end.get("hello") or {}
    return str((hello.get("implementation") or {}).get("name") or end.get("implementation") or "unknown")


def read_reports(paths: Sequence[Path]) -> list[Report]:
    """Each report read (raises :class:`ReportError`), headed by its implementation's name; two
    reports of one name are told apart by their files."""
    loaded = [(path, *load_run(path)) for path in paths]
    names = Counter(_name(end) for _, _, end in loaded)
    labels = [_name(end) if names[_name(end)] == 1 else f"{_name(end)} ({path})" for path, _, end in loaded]
    same = Counter(labels)
    reports = []
    for index, ((path, records, end), label) in enumerate(zip(loaded, labels, strict=True), start=1):
        reports.append(Report(path, tuple(records), end, label + (f" #{index}" if same[label] > 1 else "")))
    return reports


def cell(counts: Counter[str]) -> str:
    """A table's cell: passed out of the cases that ran, then every other status it holds."""
    ran = sum(counts[s] for s in RAN)
    parts = [f"{counts['passed']}/{ran}"] if ran else []
    parts += [f"{counts[s]} {s}" for s in STATUSES if s != "passed" and counts[s]]
    return ", ".join(parts) or "·"


def _rulesets(records: Sequence[Mapping[str, Any]]) -> list[str]:
    names = {str(r["rules"]) for r in records if r.get("rules")}
    named = [n for n in NAMED_RULESETS if n in names]
    return named + sorted(names - set(named))


def _areas(reports: Sequence[Report]) -> list[str]:
    """The rule areas of the reports, in the order the runs met them."""
    return list(dict.fromkeys(str(r.get("area_id") or r.get("area") or "other")
                              for report in reports for r in report.records))


def _counts(records: Sequence[Mapping[str, Any]], area: str,
            rules: str | EllipsisType | None = ...) -> Counter[str]:
    """The statuses of an area's records under one rule set (None: under none), or under any (...)."""
    return Counter(str(r["status"]) for r in records
                   if str(r.get("area_id") or r.get("area") or "other") == area
                   and (rules is ... or r.get("rules") == rules))


def _case_key(key: Key) -> str:
    """A case as an expectations file names it: ``PLACE-004[standard]``."""
    return key[0] + (f"[{key[1]}]" if key[1] else "")


def differences(reports: Sequence[Report]) -> tuple[list[tuple[Key, list[str | None]]], dict[str, list[str]]]:
    """The cases whose status differs among the reports that hold them (each with its status in
    every report, None where a report does not hold it), and the cases only one report holds.

    A case that one report ran under a rule set and another could not run at all (no rule set
    of its fits) is the same case, unsupported in the second.
    """
    held = [report.by_case() for report in reports]
    with_rules = {ident for cases in held for ident, rules in cases if rules is not None}
    keys = list(dict.fromkeys(key for cases in held for key in cases
                              if key[1] is not None or key[0] not in with_rules))
    differ: list[tuple[Key, list[str | None]]] = []
    alone: dict[str, list[str]] = {}
    for key in keys:
        statuses = []
        for cases in held:
            record = cases.get(key) or cases.get((key[0], None))
            statuses.append(str(record["status"]) if record is not None else None)
        present = [s for s in statuses if s is not None]
        if len(present) == 1:
            owner = reports[statuses.index(present[0])].label
            alone.setdefault(owner, []).append(_case_key(key))
        elif len(set(present)) > 1:
            differ.append((key, statuses))
    return differ, alone


def _first_line(text: object, limit: int = 200) -> str:
    line = next((part.strip() for part in str(text or "").split("\n") if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _how(end: Mapping[str, Any]) -> str:
    """How the run went, and what kept it from being a whole run of the suite."""
    why = caveat(end)
    said = "a whole run of the suite" if why is None else why
    detail = _first_line(end.get("gave_up") or end.get("problem") or "")
    if detail and why in ("gave up on the adapter", "adapter unusable"):
        said += f" ({detail})"
    if narrowed(end):
        said += (" to " if why == "narrowed" else "; narrowed to ") + " ".join(narrowed(end))
    return said


def _failures(report: Report) -> list[Mapping[str, Any]]:
    return [r for r in report.records if r["status"] in FAILURES]


Escape = Callable[[object], str]


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> list[str]:
    if markdown:
        return ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head),
                *("| " + " | ".join(row) + " |" for row in rows)]
    widths = [max(len(line[i]) for line in (head, *rows)) for i in range(len(head))]
    return ["  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True)).rstrip()
            for line in (head, *rows)]


def _about(report: Report, e: Escape, markdown: bool) -> list[str]:
    end, records = report.end, report.records
    counts = Counter(str(r["status"]) for r in records)
    totals = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s] or s in ("passed", "failed"))
    rulesets = ", ".join(e(n) for n in _rulesets(records)) or "none"
    facts = [f"implementation: {e(end.get('implementation') or _name(end))}",
             f"adapter: {e(end.get('adapter') or '?')}",
             f"the run: {e(_how(end))}",
             f"from {e(end.get('started') or '?')} to {e(end.get('finished') or '?')}",
             f"{len(records)} results under {rulesets}: {totals}"]
    if markdown:
        return [f"**{e(report.path)}**", "", *(f"- {fact}" for fact in facts)]
    return [e(report.path), *(f"  {fact}" for fact in facts)]


def _failure_lines(report: Report, e: Escape, markdown: bool) -> list[str]:
    bad = _failures(report)
    title = f"{len(bad)} failed or errored in {e(report.path)}"
    lines = [f"### {title}" if markdown else title + (", each with the line that reruns it:" * bool(bad))]
    if markdown and bad:
        lines.append("")
    for r in bad:
        head = (f"{e(r.get('id') or r.get('nodeid'))} under {e(r.get('rules') or '?')}, {e(r['status'])}: "
                f"{e(r.get('name') or '')} ({e(r.get('source') or '?')})")
        message, rerun = e(_first_line(r.get("message"))), e(r.get("rerun") or "")
        if markdown:
            lines.append(f"- {head}<br>{message}<br>rerun: <code>{rerun}</code>")
        else:
            lines += [f"  {head}", f"    {message}", f"    rerun: {rerun}"]
    return lines


def summary_lines(reports: Sequence[Report], *, show_failures: bool = False,
                  markdown: bool = False) -> list[str]:
    """The summary as text lines (Markdown with ``markdown``), every value from a file escaped."""
    if markdown:
        def e(value: object) -> str:
            return terminal_text(md_escape(str(value)))
    else:
        e = terminal_text
    lines = ["## Scorpion conformance summary", ""] if markdown else []
    if len(reports) > 1:
        lines += [f"{len(reports)} reports side by side.", ""]
    for report in reports:
        lines += [*_about(report, e, markdown), ""]
    areas = _areas(reports)
    if len(reports) == 1:
        records = reports[0].records
        columns: list[str | None] = list(_rulesets(records))
        if any(r.get("rules") is None for r in records):
            columns.append(None)
        head = ["rule area", *(e(c) if c is not None else NO_RULES for c in columns)]
        rows = [[e(area), *(cell(_counts(records, area, c)) for c in columns)] for area in areas]
        legend = "each cell: passed/ran under the rule set, then every other status it holds"
    else:
        head = ["rule area", *(e(report.label) for report in reports)]
        rows = [[e(area), *(cell(_counts(report.records, area)) for report in reports)] for area in areas]
        legend = "each cell: passed/ran under every rule set of the report, then every other status it holds"
    lines += [*_table(head, rows, markdown), "", f"({legend}; · nothing)"]
    if show_failures:
        for report in reports:
            lines += ["", *_failure_lines(report, e, markdown)]
    if len(reports) > 1:
        lines += ["", *_difference_lines(reports, e, markdown)]
    return lines


def _difference_lines(reports: Sequence[Report], e: Escape, markdown: bool) -> list[str]:
    differ, alone = differences(reports)
    said = f"{len(differ)} case{'s' * (len(differ) != 1)} whose status differs"
    lines = [(f"### {said[0].upper()}{said[1:]}" if markdown else said + ":" * bool(differ))]
    if differ:
        shown = differ if markdown else differ[:LISTED]
        head = ["case", *(e(report.label) for report in reports)]
        rows = [[e(_case_key(key)), *(e(s) if s is not None else DASH for s in statuses)]
                for key, statuses in shown]
        lines += [*([""] if markdown else []), *_table(head, rows, markdown)]
        if len(shown) < len(differ):
            lines.append(f"... and {len(differ) - len(shown)} more (--format json lists every one)")
        held = f"{DASH}: the report does not hold the case"
        lines.append(held if markdown else f"({held})")
    for label, keys in alone.items():
        lines.append(f"{len(keys)} case{'s' * (len(keys) != 1)} only {e(label)} holds"
                     + (" (--format json lists them)" * (not markdown)))
    return lines


def summary_json(reports: Sequence[Report], *, show_failures: bool = False) -> dict[str, Any]:
    """The summary as one JSON document, for a program."""
    documents = []
    for report in reports:
        end, records = report.end, report.records
        totals = Counter(str(r["status"]) for r in records)
        areas = [{"area": area, "rules": rules, "counts": dict(counts)}
                 for area in _areas([report])
                 for rules in [*_rulesets(records), None]
                 if (counts := _counts(records, area, rules))]
        document: dict[str, Any] = {
            "file": str(report.path), "label": report.label,
            "implementation": end.get("implementation"), "hello": end.get("hello"),
            "run": end.get("run"), "whole": caveat(end) is None, "caveat": caveat(end),
            "narrowed": narrowed(end), "gave_up": end.get("gave_up"), "problem": end.get("problem"),
            "started": end.get("started"), "finished": end.get("finished"),
            "rulesets": _rulesets(records),
            "totals": {s: totals[s] for s in STATUSES if totals[s]},
            "areas": areas,
        }
        if show_failures:
            document["failures"] = [
                {name: r.get(name) for name in ("id", "rules", "name", "status", "area_id", "source",
                                                  "message", "rerun")} for r in _failures(report)]
        documents.append(document)
    result: dict[str, Any] = {"reports": documents}
    if len(reports) > 1:
        differ, alone = differences(reports)
        labels = [report.label for report in reports]
        result["differences"] = [{"case": _case_key(key), "id": key[0], "rules": key[1],
                                  "statuses": dict(zip(labels, statuses, strict=True))}
                                 for key, statuses in differ]
        result["only_in"] = alone
    return result


def _json_text(document: Any) -> str:
    """JSON with every character a terminal acts on written as a ``\\u`` escape (inside its
    strings: the JSON encoder escapes the C0 controls there itself, so each new line left is
    one of the layout's)."""
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return CONTROL.sub(lambda match: "\n" if match.group(0) == "\n" else f"\\u{ord(match.group(0)):04x}",
                       text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance summary``."""
    parser.description = (
        "Summarise the reports of runs (run --report FILE.jsonl) in the terminal: for one report, its "
        "totals and a table of rule area by rule set; for several, a table of rule area by "
        "implementation and the cases whose status differs. Exit 0 once written, 2 for a file that "
        "cannot be read."
    )
    parser.add_argument("reports", type=Path, nargs="+", metavar="REPORT.jsonl", help="the report of a run")
    parser.add_argument("--show", choices=("failures",),
                        help="failures: also list each case that failed or errored, with its rerun line")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                        help="text for a terminal (the default), markdown for a page, json for a program")


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Write the summary; 0 once written, 2 for a report that cannot be read."""
    out = out or sys.stdout
    try:
        reports = read_reports(args.reports)
    except ReportError as error:
        print(f"scorpion-conformance summary: {terminal_text(error)}", file=sys.stderr)
        return 2
    show = args.show == "failures"
    if args.format == "json":
        out.write(_json_text(summary_json(reports, show_failures=show)) + "\n")
    else:
        lines = summary_lines(reports, show_failures=show, markdown=args.format == "markdown")
        out.write("\n".join(lines) + "\n")
    return 0
