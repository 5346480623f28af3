"""The generated parts of "What the suite covers" (``docs/coverage.md``): one coverage
measurement (:mod:`scorpion_conformance.coverage`), run when the site is built.

Each filled cell links the scenarios that fill it; each empty one shows the reason
``data/coverage/gaps.yaml`` gives for it, or says plainly that it has none (the
tests keep that from happening).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from scorpion_conformance.coverage.gaps import load_reasons
from scorpion_conformance.coverage.measure import measure
from scorpion_conformance.coverage.model import Condition, Decision
from scorpion_conformance.coverage.tables import (
    COLUMNS,
    REQUESTS,
    Measurement,
    condition_key,
    gaps,
    reason_codes,
    summary,
    undo_effects,
)
from scorpion_conformance.suite.scenarios import Case

from .catalogue import Catalogue
from .report import _area_titles
from .rulepages import area_path
from .text import GeneratedPage, md_escape, relative_href

__all__ = ["makers"]

#: How many scenarios a cell links before it says how many more.
SHOWN = 2

#: The measurement of each page being built, by the page's identity (one per build).
_MADE: dict[int, tuple[GeneratedPage, _Page]] = {}


class _Page:
    """One measurement, drawn: figures in Markdown, the big tables as HTML fragments
    (stacked into one block per row on a phone)."""

    def __init__(self, page: GeneratedPage, root: Path, cases: Sequence[Case], catalogue: Catalogue,
                 directory_urls: bool) -> None:
        self.page = page
        self.directory_urls = directory_urls
        self.measurement: Measurement = measure(cases)
        self.reasons = load_reasons(root / "data" / "coverage" / "gaps.yaml", self.measurement.rulesets)
        self.gaps = gaps(self.measurement)
        self.areas = _area_titles(cases, catalogue)
        self.cases = cases
        self.notes: dict[str, int] = {}

    @property
    def rulesets(self) -> tuple[str, ...]:
        return self.measurement.rulesets

    # -- pieces ---------------------------------------------------------------

    def link(self, case_id: str) -> str:
        """A scenario's id, linked to its drawing on its rule area's page."""
        base = case_id.split("/")[0]
        text = html.escape(case_id)
        if base not in self.areas:
            return f"<span>{text}</span>"
        href = relative_href(self.page.path, f"{area_path(self.areas[base][0])}#{base}", self.directory_urls)
        return f'<a href="{html.escape(href)}">{text}</a>'

    def links(self, case_ids: Sequence[str]) -> str:
        unique = list(dict.fromkeys(case_ids))
        shown = ", ".join(self.link(c) for c in unique[:SHOWN])
        more = f' <span class="sc-more">+{len(unique) - SHOWN}</span>' if len(unique) > SHOWN else ""
        return shown + more

    def gap(self, key: str) -> str:
        """An empty cell: the number of its reason in the list of gaps, or a plain warning."""
        reason = self.reasons.get(key)
        if reason is None:
            return '<span class="sc-gap sc-gap-open">no scenario and no reason</span>'
        number = self.notes.setdefault(reason, len(self.notes) + 1)
        return f'<span class="sc-gap">empty: <a href="#gap-{number}">reason {number}</a></span>'

    def table(self, heads: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]) -> str:
        """A table of rows (a header cell, then one cell per rule set), as a fragment."""
        head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in heads)
        labels = [html.escape(h) for h in heads[1:]]
        body = "".join(
            f'<tr><th scope="row">{name}</th>'
            + "".join(f'<td data-label="{label}">{cell}</td>'
                      for label, cell in zip(labels, cells, strict=True))
            + "</tr>"
            for name, cells in rows
        )
        return self.page.fragment(
            '<div class="sc-compare-wrap"><table class="sc-report sc-stacked sc-coverage">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")

    # -- sections -------------------------------------------------------------

    def figures(self) -> str:
        s = summary(self.measurement, self.reasons)
        per = s["per rule set"]
        lines = [
            f"**{s['conditions']} conditions** in {s['decisions']} decisions of the engine "
            f"({s['rule conditions']} of them read the rule set alone) · **{self.measurement.cases} cases** "
            "measured.",
            "",
            "| rule set | conditions that can flip an outcome alone | shown by a pair of scenarios | "
            "left, with a reason |",
            "| --- | ---: | ---: | ---: |",
            *(f"| {n} | {per[n]['can matter']} | {per[n]['shown']} | "
              f"{per[n]['can matter'] - per[n]['shown']} |" for n in self.rulesets),
            "",
            f"Rule conditions shown between two rule sets: **{s['across rule sets']['shown']} of "
            f"{s['across rule sets']['can matter']}**.",
            "",
            "| table | cells | filled | empty, with a reason | empty, with none |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for table, title in (("matrix", "requests, states and rule sets"), ("reasons", "refusal reasons"),
                             ("undo", "what undo takes back")):
            t = s[table]
            lines.append(f"| {title} | {t['cells']} | {t['filled']} | {t['empty with a reason']} | "
                         f"{t['empty without a reason']} |")
        return "\n".join(lines)

    def matrix(self) -> str:
        whole = sum(1 for case in self.cases if _cards_accounted(case) == 52)
        said = (f"{whole} of the {len(self.cases)} scenario cases start from a position that accounts "
                "for all 52 cards (on the table, in the stock, or collected); the others leave cards out "
                "of play, as the protocol allows.")
        return said + "\n\n" + self._matrix_table()

    def _matrix_table(self) -> str:
        rows = []
        for request in REQUESTS:
            for column in COLUMNS:
                cells = []
                for rules in self.rulesets:
                    cell = self.measurement.matrix.get((request, column, rules))
                    if cell is None:
                        cells.append(self.gap(f"{request} / {column} [{rules}]"))
                        continue
                    said = " and ".join(sorted(cell.notes))
                    how = f'<br><span class="sc-more">{said}</span>' if said else ""
                    count = len(dict.fromkeys(cell.cases))
                    cells.append(f"<b>{count}</b>: {self.links(cell.cases)}{how}")
                rows.append((f"<code>{request}</code> · {html.escape(column)}", cells))
        return self.table(["request · state", *self.rulesets], rows)

    def conditions(self) -> str:
        model = self.measurement.model
        by_function: dict[str, list[Decision]] = defaultdict(list)
        for decision in model.decisions:
            if decision.conditions:
                by_function[f"{decision.file}:{decision.function}"].append(decision)
        lines: list[str] = []
        for decisions in by_function.values():
            first = decisions[0]
            doc = f" {_doc(first.doc)}" if first.doc else ""
            lines += [f"### `{_code(first.function)}`", "", f"`{first.file}`, line {first.line}.{doc}", ""]
            rows = []
            for decision in decisions:
                for condition in decision.conditions:
                    test = html.escape(_code(decision.text))
                    where = f"line {condition.line}" if decision.kind == "rule" else (
                        f"in <code>{test}</code>, line {condition.line}")
                    rows.append((f'<code>{html.escape(_code(condition.text))}</code><br>'
                                 f'<span class="sc-more">{where}</span>',
                                 self._condition_cells(condition, condition_key(condition))))
            lines += [self.table(["condition", *self.rulesets], rows), ""]
        return "\n".join(lines)

    def _condition_cells(self, condition: Condition, key: str) -> list[str]:
        m = self.measurement
        if condition.rule:
            if not m.across_applicable(condition):
                return ["·"] * len(self.rulesets)
            pair = m.pair(condition, None)
            if pair is None:
                return [self.gap(f"{key} [across]")] * len(self.rulesets)
            ends = {pair.first.rules: (pair.first, pair.second), pair.second.rules: (pair.second, pair.first)}
            cells = []
            for rules in self.rulesets:
                if rules in ends:
                    row, other = ends[rules]
                    cells.append(f"{self.link(row.case)} (against {html.escape(other.rules)})")
                else:
                    cells.append('<span class="sc-more">a rule condition: shown between two rule sets</span>')
            return cells
        applicable = set(m.applicable(condition))
        cells = []
        for rules in self.rulesets:
            if rules not in applicable:
                cells.append('<span class="sc-more">·</span>')
                continue
            pair = m.pair(condition, rules)
            if pair is None:
                cells.append(self.gap(f"{key} [{rules}]"))
            elif pair.first.case == pair.second.case:
                cells.append(f"{self.link(pair.first.case)} (both)")
            else:
                cells.append(f"{self.link(pair.first.case)} / {self.link(pair.second.case)}")
        return cells

    def reasons_table(self) -> str:
        rows = []
        for reason in reason_codes():
            cells = []
            for rules in self.rulesets:
                if not self.measurement.reason_possible(reason, rules):
                    cells.append('<span class="sc-more">·</span>')
                    continue
                cell = self.measurement.reasons.get((reason, rules))
                cells.append(self.links(cell.cases) if cell else self.gap(f"{reason} [{rules}]"))
            rows.append((f"<code>{html.escape(reason)}</code>", cells))
        return self.table(["reason", *self.rulesets], rows)

    def undo_table(self) -> str:
        rows = []
        for effect in undo_effects():
            cells = []
            for rules in self.rulesets:
                cell = self.measurement.undo.get((effect, rules))
                cells.append(self.links(cell.cases) if cell else self.gap(f"{effect} [{rules}]"))
            rows.append((html.escape(_effect(effect)), cells))
        return self.table(["the undone action", *self.rulesets], rows)

    def gap_list(self) -> str:
        """Every gap left, grouped by its reason, in the order the tables above numbered them."""
        by_reason: dict[str, list[str]] = defaultdict(list)
        missing: list[str] = []
        for keys in self.gaps.values():
            for key in keys:
                reason = self.reasons.get(key)
                if reason is None:
                    missing.append(key)
                else:
                    by_reason[reason].append(key)
        for reason in by_reason:
            self.notes.setdefault(reason, len(self.notes) + 1)
        lines = []
        for reason, number in sorted(self.notes.items(), key=lambda item: item[1]):
            where: dict[str, list[str]] = defaultdict(list)
            for key in by_reason.get(reason, []):
                base, _, rules = key.rpartition(" [")
                where[base].append(rules.rstrip("]"))
            lines += [f'<a id="gap-{number}"></a>**{number}.** {md_escape(reason)}', "",
                      *(f"- `{_code(base)}`: under {', '.join(sets)}" for base, sets in where.items()), ""]
        if missing:
            lines += ['!!! failure "Gaps with neither a scenario nor a reason"', ""]
            lines += [f"    - `{_code(k)}`" for k in missing]
            lines.append("")
        if not lines:
            lines = ["Every cell is filled and every condition shown."]
        return "\n".join(lines)

    def unreached(self) -> str:
        """Conditions of functions the reference adapter never calls, under any rule set."""
        m = self.measurement
        live = set().union(*(m.live(n) for n in self.rulesets))
        silent = sorted({f"{d.module.rsplit('.', 1)[-1]}.{d.function}" for d in m.model.decisions
                         if d.conditions and f"{d.module.rsplit('.', 1)[-1]}.{d.function}" not in live})
        if not silent:
            return "Every function with a condition is reached from the protocol."
        return ("These functions hold conditions, but no request of the protocol reaches them (the "
                "reference adapter never calls them, under any rule set), so no scenario can show "
                "them: " + ", ".join(f"`{_code(name)}`" for name in silent) + ".")

    def synthetic(self) -> str:
        ids = sorted({c.id for c in self.cases if c.synthetic and c.id})
        if not ids:
            return "No scenario starts from a synthetic position."
        links = ", ".join(f"[{i}]({area_path(self.areas[i][0])}#{i})" if i in self.areas else i for i in ids)
        return f"The scenarios whose start no deal leads to, tagged `@synthetic`: {links}."


def _cards_accounted(case: Case) -> int:
    """How many cards a case's start position holds, counting each collected suit as 13."""
    start = case.plan()["start"]
    on_table = sum(len(c["down"]) + len(c["up"]) for c in start["columns"])
    return on_table + len(start["stock"]) + 13 * len(start["removed"])


def _doc(text: str) -> str:
    """A docstring's words for Markdown: its reStructuredText code and roles as code spans,
    the rest escaped."""
    text = re.sub(r":[a-z]+:`~?\.?([^`]+)`", r"``\1``", text)
    parts = re.split(r"``(.+?)``", text)
    return "".join(f"`{_code(part)}`" if i % 2 else md_escape(part) for i, part in enumerate(parts))


def _code(text: str) -> str:
    """Source text for a code span in a table cell: one line, no pipe, no backtick."""
    return " ".join(text.split()).replace("|", "¦").replace("`", "'")


def _effect(effect: str) -> str:
    return {"move": "a move", "deal": "the deal", "flipped": "an action that turned a card face up",
            "collected": "an action that collected a run",
            "nothing to undo": "nothing (undo at the start)"}.get(effect, md_escape(effect))


def makers(page: GeneratedPage, root: Path, cases: Sequence[Case], catalogue: Catalogue,
           directory_urls: bool = True) -> dict[str, Callable[[], str]]:
    """The markers of ``docs/coverage.md``, sharing one measurement per page being built
    (made on first use)."""

    def drawn() -> _Page:
        kept = _MADE.get(id(page))
        if kept is None or kept[0] is not page:
            kept = _MADE[id(page)] = (page, _Page(page, root, cases, catalogue, directory_urls))
        return kept[1]

    def call(name: str) -> Callable[[], str]:
        return lambda: getattr(drawn(), name)()

    names: Mapping[str, str] = {
        "coverage-figures": "figures", "coverage-matrix": "matrix", "coverage-conditions": "conditions",
        "coverage-reasons": "reasons_table", "coverage-undo": "undo_table", "coverage-gaps": "gap_list",
        "coverage-unreached": "unreached", "coverage-synthetic": "synthetic",
    }
    return {marker: call(method) for marker, method in names.items()}
