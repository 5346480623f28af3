"""The conformance report page: the suite run against every adapter we ship, at build time.

Each implementation is run with ``scorpion-conformance run --report FILE -q``
in a subprocess; the JSON-lines report (one record per scenario and rule set,
with its status) becomes a badge-style summary and a table of rule area by
rule set. Set ``SCORPION_SITE_SKIP_REPORT=1`` to skip the runs for a quick
local build: the page then says so instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import NAMED_RULESETS

from .catalogue import Catalogue
from .examples import group_examples, home_rules
from .rulepages import area_path
from .text import GeneratedPage, md_escape

__all__ = [
    "IMPLEMENTATIONS",
    "SKIP_VARIABLE",
    "Implementation",
    "RunResult",
    "load_report",
    "report_markdown",
    "run_all",
    "run_suite",
    "skip_requested",
]

SKIP_VARIABLE = "SCORPION_SITE_SKIP_REPORT"
STATUSES = ("passed", "failed", "error", "xfailed", "xpassed", "unsupported", "not-run", "skipped")
BAD = ("failed", "error", "xpassed")
DASH = "\u2013"  # the mark of an unsupported result


@dataclass(frozen=True)
class Implementation:
    """An adapter we ship, and how to start it."""

    key: str
    title: str
    adapter: str | None  # None: the suite's default, the reference adapter
    needs: str | None  # a program that must be on PATH
    about: str


IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(
        "reference",
        "Reference engine (Python)",
        None,
        None,
        "`scorpion_ref` behind `python -m scorpion_ref.adapter`, the suite's default adapter",
    ),
    Implementation(
        "javascript",
        "JavaScript example",
        "node adapters/javascript/adapter.js",
        "node",
        "`adapters/javascript/adapter.js`, a complete adapter with its own small engine",
    ),
)


@dataclass
class RunResult:
    """One implementation's run: its records, or why it did not run."""

    implementation: Implementation
    records: list[dict[str, Any]] = field(default_factory=list)
    skipped: str | None = None
    exit_code: int | None = None
    seconds: float = 0.0
    output_tail: str = ""
    raw: str = ""


def skip_requested(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment asks to skip running the suite."""
    return environ.get(SKIP_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def load_report(text: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines report; raises :class:`ValueError` naming a bad line."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"report line {number} is not JSON: {error}") from None
        if isinstance(record, dict) and record.get("end") is True:
            continue  # how the run ended, not a case
        if not isinstance(record, dict) or "status" not in record:
            raise ValueError(f"report line {number} has no status")
        records.append(record)
    return records


def run_suite(implementation: Implementation, root: Path, *, timeout: float = 900) -> RunResult:
    """Run the suite against one implementation from the repository ``root``."""
    if implementation.needs and shutil.which(implementation.needs) is None:
        return RunResult(
            implementation,
            skipped=f"`{implementation.needs}` is not installed on the "
            "machine that built this site",
        )
    with tempfile.TemporaryDirectory(prefix="scorpion-report-") as tmp:
        report = Path(tmp) / "report.jsonl"
        command = [
            sys.executable,
            "-m",
            "scorpion_conformance.cli",
            "run",
            "--report",
            str(report),
            "-q",
        ]
        if implementation.adapter:
            command += ["--adapter", implementation.adapter]
        started = time.monotonic()
        completed = subprocess.run(
            command,
            cwd=root,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
        seconds = time.monotonic() - started
        raw = report.read_text(encoding="utf-8") if report.exists() else ""
    tail = "\n".join((completed.stdout + completed.stderr).strip().splitlines()[-15:])
    result = RunResult(
        implementation, exit_code=completed.returncode, seconds=seconds, output_tail=tail, raw=raw
    )
    result.records = load_report(raw)
    return result


def run_all(
    root: Path, implementations: Iterable[Implementation] = IMPLEMENTATIONS
) -> list[RunResult]:
    """Run the suite against every implementation, side by side, in the order given."""
    chosen = list(implementations)
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        return list(pool.map(lambda implementation: run_suite(implementation, root), chosen))


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
    if counts["passed"] or counts["xfailed"]:
        parts.append(
            '<span class="sc-r-passed" title="passed">'
            f"✓ {counts['passed'] + counts['xfailed']}</span>"
        )
    bad = sum(counts[s] for s in BAD)
    if bad:
        parts.append(f'<span class="sc-r-failed" title="failed">✗ {bad}</span>')
    if counts["unsupported"] or counts["skipped"]:
        parts.append(
            f'<span class="sc-r-unsupported" title="unsupported">{DASH} '
            f"{counts['unsupported'] + counts['skipped']}</span>"
        )
    return " ".join(parts) or '<span class="sc-r-none">·</span>'


def _badges(records: Sequence[Mapping[str, Any]], offered: Sequence[str]) -> str:
    counts = Counter(str(r["status"]) for r in records)
    bad = sum(counts[s] for s in BAD)
    verdict = (
        '<span class="sc-badge sc-badge-ok"><b>conformance</b><i>no failure</i></span>'
        if not bad
        else f'<span class="sc-badge sc-badge-bad"><b>conformance</b><i>{bad} failing</i></span>'
    )
    pills = [verdict]
    for status in STATUSES:
        if counts[status]:
            kind = "bad" if status in BAD else ("ok" if status in ("passed", "xfailed") else "info")
            pills.append(
                f'<span class="sc-badge sc-badge-{kind}"><b>{status}</b>'
                f"<i>{counts[status]}</i></span>"
            )
    pills.append(
        '<span class="sc-badge sc-badge-info"><b>rule sets</b>'
        f"<i>{', '.join(offered) or 'none'}</i></span>"
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
    head = "".join(f'<th scope="col">{c}</th>' for c in columns)
    rows = []
    for key in sorted(table, key=lambda k: (order.get(k, len(order)), k)):
        cells = "".join(
            f"<td>{_cell(table[key][c], c in offered, table[key][c]['needed'])}</td>"
            for c in columns
        )
        rows.append(
            f'<tr><th scope="row" data-area="{key}">{md_escape(titles[key])}</th>{cells}</tr>'
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
        rerun = f"<br>`{r['rerun']}`" if r.get("rerun") else ""
        lines.append(
            f"| {shown} {md_escape(str(r.get('name', '')))} | "
            f"{r.get('rules') or '—'} | {r['status']} | {message}{rerun} |"
        )
    if len(bad) > 200:
        lines.append(f"| … | | | {len(bad) - 200} more in the raw report |")
    return lines


def report_markdown(
    page: GeneratedPage,
    results: Sequence[RunResult] | None,
    cases: Sequence[Case],
    catalogue: Catalogue,
) -> str:
    """The generated part of the report page. ``results`` None: the runs were skipped."""
    if results is None:
        return "\n".join(
            [
                '!!! note "The suite was not run for this build"',
                "",
                f"    `{SKIP_VARIABLE}` was set, so this build skipped running the suite. "
                "Build without it to see the results here.",
                "",
            ]
        )
    areas = _area_titles(cases, catalogue)
    lines: list[str] = []
    for result in results:
        impl = result.implementation
        lines += [f"## {impl.title} {{#{impl.key}}}", "", impl.about + ".", ""]
        if result.skipped:
            lines += [
                '!!! warning "Not run"',
                "",
                f"    {result.skipped}; its results are missing here.",
                "",
            ]
            continue
        if not result.records:
            lines += [
                '!!! failure "The run produced no report"',
                "",
                f"    The command ended with exit code {result.exit_code}. Its last lines:",
                "",
                "    ```text",
                *("    " + line for line in result.output_tail.splitlines()),
                "    ```",
                "",
            ]
            continue
        matrix, offered = _matrix(result.records, cases, areas, catalogue)
        lines += [page.fragment(_badges(result.records, offered)), ""]
        lines += [
            f"{len(result.records)} results in {result.seconds:.1f} s. "
            f"[Download the raw report](report-data/{impl.key}.jsonl) (JSON lines).",
            "",
        ]
        lines += [page.fragment(matrix), ""]
        failures = _failures(result.records, areas)
        if failures:
            lines += ["### Failures", "", *failures, ""]
    area_links = " · ".join(f"[{md_escape(a.title)}]({area_path(a.id)})" for a in catalogue.areas)
    lines += [
        "## Reading the table",
        "",
        "Each cell counts the results of one rule area under one rule set: **✓** passed, "
        f"**✗** failed (or errored), **{DASH}** unsupported (the implementation does not "
        "offer a rule set the scenario needs), **·** nothing to run. A rule area's "
        f"scenarios are drawn on its page: {area_links}.",
        "",
    ]
    return "\n".join(lines)
