"""The summary a person reads at the end of a run, in at most 100 columns.

By default: who was run, a table per rule area and per rule set with only the
statuses that occurred, the commonest reasons a case was unsupported, and the
rerun line of each failure. Quiet (``run -q``): one line. The colours are
pytest's own terminal writer's, so ``--color=no``, ``NO_COLOR`` and a pipe
turn them off as they do for the rest of pytest's output.

Names that came from an adapter or a feature file (the implementation, rule
sets, scenarios) reach the terminal through
:func:`~scorpion_conformance.escaping.terminal_text`: the writer of a run is
guarded (:func:`guard_terminal`), so every line pytest writes for the suite
is, and a name meant to stay on one line is written on one line.

>>> from .reporting import Record
>>> records = [Record("DEAL-001", "x", "The deal", "standard", "passed", area_id="deal"),
...            Record("DEAL-002", "y", "The deal", "standard", "failed", area_id="deal")]
>>> for line in table("rule area", count_by(records, "area")):
...     print("".join(text for text, _ in line).rstrip())
rule area  passed  failed  total
deal            1       1      2
>>> print(one_line(records, "scorpion-ref 0.1.0"))
Scorpion conformance summary: 1 passed, 1 failed under 1 rule set (scorpion-ref 0.1.0)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from scorpion_conformance.escaping import terminal_text

from . import parallel
from .reporting import STATUSES, UNSUPPORTED, Record
from .session import Suite, suite_of

__all__ = ["WIDTH", "count_by", "guard_terminal", "one_line", "quiet_status", "summary", "table",
           "terminal_summary", "write_lines", "write_summary"]

#: The widest line the summary writes.
WIDTH = 100
#: Past this many rule sets, those where every case passed are counted, not listed.
MANY_RULESETS = 12

#: How each status is coloured when it is not zero.
_MARKUP: dict[str, dict[str, bool]] = {
    "passed": {"green": True}, "failed": {"red": True, "bold": True},
    "error": {"red": True, "bold": True}, "xpassed": {"red": True, "bold": True},
    "xfailed": {"yellow": True}, UNSUPPORTED: {"yellow": True}, "not-run": {"yellow": True},
}
_BAD = ("failed", "error", "xpassed")

Cell = tuple[str, dict[str, bool]]


def guard_terminal(config: Any) -> None:
    """Make the run's terminal writer pass every text through :func:`terminal_text` (new lines
    kept) before its colours are added: no control character from an adapter or a file
    reaches the terminal, whichever of pytest's lines carries it."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    writer = getattr(reporter, "_tw", None)
    if writer is None or getattr(writer, "_scorpion_guarded", False):
        return
    write = writer.write

    def guarded(msg: str, **markup: Any) -> None:
        write(terminal_text(msg, lines=True), **markup)

    writer.write = guarded
    writer.code_highlight = False  # source lines would come back escaped, colours and all
    writer._scorpion_guarded = True


def count_by(records: Iterable[Record], by: str) -> dict[str, Counter[str]]:
    """Status counts of the finished records, by ``"area"`` (id) or by ``"rules"`` (names on one line)."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        if not record.final:
            continue
        key = (record.area_id or record.area) if by == "area" else (record.rules or f"({UNSUPPORTED})")
        rows[terminal_text(key)][record.status] += 1
    return dict(rows)


def table(
    title: str, rows: dict[str, Counter[str]], *, keep: Sequence[str] | None = None
) -> list[list[Cell]]:
    """A table of ``rows`` with a column per status that occurred, and a total.

    Names that would push the table past :data:`WIDTH` are cut short with ``…``.
    """
    seen = {status for counts in rows.values() for status in counts}
    statuses = [s for s in STATUSES if s in seen or s in ("passed", "failed")]
    widths = [max(len(s), 5) for s in statuses]
    room = WIDTH - sum(w + 2 for w in widths) - 7
    width = min(max(len(title), *(len(k) for k in rows)), room)
    bold = {"bold": True}
    heads = [(f"  {s:>{w}}", bold) for s, w in zip(statuses, widths, strict=True)]
    lines: list[list[Cell]] = [[(f"{title:<{width}}", bold), *heads, ("  total", bold)]]
    for key in keep if keep is not None else sorted(rows):
        counts = rows[key]
        name = key if len(key) <= width else key[: width - 1] + "…"
        line: list[Cell] = [(f"{name:<{width}}", {})]
        for status, w in zip(statuses, widths, strict=True):
            line.append((f"  {counts[status]:>{w}}", _MARKUP.get(status, {}) if counts[status] else {}))
        line.append((f"  {sum(counts.values()):>5}", {}))
        lines.append(line)
    return lines


def _totals(records: Sequence[Record]) -> str:
    counts = Counter(record.status for record in records)
    parts = [f"{counts[s]} {s}" for s in STATUSES if counts[s] or s in ("passed", "failed")]
    return ", ".join(parts)


def one_line(records: Iterable[Record], implementation: str | None, ended: str = "complete") -> str:
    """The quiet summary: the totals, the rule sets run, the implementation."""
    finished = [record for record in records if record.final]
    rulesets = {record.rules for record in finished if record.rules}
    line = (f"Scorpion conformance summary: {_totals(finished)} under {len(rulesets)} "
            f"rule set{'s' * (len(rulesets) != 1)}")
    if implementation:
        line += f" ({implementation})"
    if ended != "complete":
        line += f"; the run was {ended}"
    return line


def summary(
    records: Iterable[Record], *, ended: str = "complete", expect: str | None = None, brief: bool = False
) -> list[list[Cell]]:
    """The default summary, as lines of coloured cells (``brief``: without the notes on statuses)."""
    finished = [record for record in records if record.final]
    lines: list[list[Cell]] = []

    def plain(text: str = "", **markup: bool) -> None:
        lines.append([(text, markup)])

    if finished:
        plain()
        lines += table("rule area", count_by(finished, "area"))
        by_rules = count_by(finished, "rules")
        keep = sorted(by_rules)
        hidden = 0
        if len(keep) > MANY_RULESETS:
            shown = [k for k in keep if any(by_rules[k][s] for s in _BAD)][:MANY_RULESETS]
            hidden, keep = len(keep) - len(shown), shown
        plain()
        lines += table("rule set", by_rules, keep=keep)
        if hidden:
            plain(f"... and {hidden} more rule sets where nothing failed")
        if not brief:
            plain()
            plain("'error' is the adapter program's fault (a crash, a hang, an answer out of step),")
            plain("not a verdict on the rules; 'unsupported': no declared rule set fits the case, or")
            plain("the adapter cannot hold its synthetic start (one no game reaches from a deal).")
    reasons = Counter(r.message for r in finished if r.status == UNSUPPORTED)
    if reasons and not brief:
        plain()
        plain("unsupported, by reason:")
        for reason, n in reasons.most_common(3):
            plain(f"  {n:>4}  {reason}"[:WIDTH])
        if len(reasons) > 3:
            rest = sum(n for _, n in reasons.most_common()[3:])
            plain(f"  {rest:>4}  for {len(reasons) - 3} other reasons (each is in the report)")
    xpassed = [r for r in finished if r.status == "xpassed"]
    if xpassed:
        plain()
        plain(f"known failures that now pass: remove them from {expect or 'the expectations file'}:",
              red=True, bold=True)
        entries = Counter(str(record.extra.get("entry") or record.key) for record in xpassed)
        lines += [[(f"  {entry}" + (f" ({n} cases pass)" if n > 1 else ""), {})]
                  for entry, n in sorted(entries.items())[:20]]
    failed = [r for r in finished if r.status in ("failed", "error")]
    if failed:
        plain()
        plain("rerun a failure with:", bold=True)
        lines += [[(f"  {record.rerun}", {})] for record in failed[:20]]
        if len(failed) > 20:
            plain(f"  ... and {len(failed) - 20} more (each record of the report has its rerun line)")
    if ended != "complete":
        plain()
        said = {"interrupted": "interrupted", "gave-up": "stopped when it gave up on the adapter"}
        plain(f"The run was {said.get(ended, ended)}: the cases above are the ones that finished.",
              yellow=True, bold=True)
    return lines


def write_lines(terminal: Any, lines: Iterable[list[Cell]]) -> None:
    """Write lines of cells with pytest's terminal reporter (coloured where it may)."""
    for line in lines:
        for text, markup in line:
            terminal.write(text, **markup)
        terminal.line("")


def write_summary(terminal: Any, suite: Suite, *, expect: str | None, quiet: int) -> None:
    """The end of a run's output: the adapter and the tables; quiet 1, no notes; 2, one line."""
    implementation = terminal_text(suite.hello.implementation) if suite.hello is not None else None
    gave_up = str(suite.gave_up) if suite.gave_up is not None else (
        suite.worker_gave_up[1] if suite.worker_gave_up is not None else None)
    records = suite.records.values()
    if quiet > 1:  # the failures above, then one line
        terminal.write_line(one_line(records, implementation, suite.ending()))
        if gave_up:
            terminal.write_line("The run gave up on the adapter; the cases after that were not run.")
        for note in suite.notes:
            terminal.write_line(note)
        return
    write = terminal.write_line
    terminal.section("Scorpion conformance summary")
    if suite.hello is not None:
        write(f"adapter: {terminal_text(suite.command)}")
        write(f"implementation: {implementation}")
    if gave_up:
        write("")
        write("The run gave up on the adapter; the cases after that were not run:")
        for line in gave_up.splitlines():
            write(f"  {line}")
    write_lines(terminal, summary(records, ended=suite.ending(), expect=expect, brief=quiet > 0))
    for note in suite.notes:
        write(note)


def terminal_summary(terminal: Any, config: pytest.Config) -> None:
    """The summary at the end of pytest's output, where the suite ran (not in a worker)."""
    suite = suite_of(config)
    if suite is not None and not parallel.is_worker(config):
        quiet = max(0, -config.get_verbosity())
        write_summary(terminal, suite, expect=config.getoption("expect"), quiet=quiet)


def quiet_status(result: Any, config: pytest.Config) -> Any:
    """pytest's word for a report, with no letter per case under ``run -q``."""
    quiet = config.get_verbosity() < 0 and config.getoption("scorpion_command")
    if quiet and isinstance(result, tuple) and len(result) == 3:
        return result[0], "", result[2]
    return result
