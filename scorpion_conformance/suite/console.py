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

import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from scorpion_conformance.escaping import terminal_text

from . import parallel
from .reporting import ENDED, STATUSES, UNSUPPORTED, Record, here, program_here, shell_word
from .session import Suite, suite_of

__all__ = ["NO_RULE_SET", "WIDTH", "count_by", "guard_terminal", "one_line", "reason_of", "summary", "table",
           "terminal_summary", "write_lines", "write_summary"]

#: The widest line the summary writes.
WIDTH = 100
#: Past this many rule sets, those where every case passed are counted, not listed.
MANY_RULESETS = 12
#: The row of the rule-set table for the cases that ran under none (they are unsupported).
NO_RULE_SET = "no rule set"
#: How many rerun lines the summary lists.
RERUN_LINES = 10
#: What an error answer the steps needed says, the request shown by its command alone.
_ANSWERED = re.compile(r'the adapter answered (\S+(?: \([^)]*\))?) to \{"cmd":"([\w-]+)"'
                       r".*?(?:\}|in all\)): (.*)")
#: What an accepted action the rules refuse says, whatever the action.
_ACCEPTED = re.compile(r"the adapter accepted .*?, which the rules refuse( \([^)]*\))?")

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
        key = (record.area_id or record.area) if by == "area" else (record.rules or NO_RULE_SET)
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
    parts = [f"{counts[s]} {s}{'s' * (s == 'error' and counts[s] != 1)}" for s in STATUSES
             if counts[s] or s in ("passed", "failed")]
    return ", ".join(parts)


def reason_of(record: Record) -> str:
    """What a failure says, with what is particular to its case taken out, so that failures
    of one cause count together.

    >>> print(reason_of(Record("D-1", "x", "y", "standard", "failed", message='the adapter answered '
    ...     'unsupported to {"cmd":"start","rules":"standard"}: no engine yet\\n  adapter: a')))
    the adapter answered unsupported to start: no engine yet
    >>> print(reason_of(Record("P-4", "x", "y", "standard", "failed", message="the adapter accepted "
    ...     "7♥ to column 3, which the rules refuse (not-same-suit); the table became:")))
    the adapter accepted an action the rules refuse (not-same-suit)
    """
    first = record.message.splitlines()[0] if record.message else record.status
    answered = _ANSWERED.match(first)
    if answered:
        return "the adapter answered {} to {}: {}".format(*answered.groups())
    accepted = _ACCEPTED.match(first)
    if accepted:
        return f"the adapter accepted an action the rules refuse{accepted.group(1) or ''}"
    return first.split("; ")[0]


def _by_reason(title: str, reasons: Counter[str], plain: Any) -> None:
    """The commonest three reasons of ``reasons``, and how many cases the others hold."""
    plain()
    plain(title)
    for reason, n in reasons.most_common(3):
        plain(f"  {n:>4}  {reason}"[:WIDTH])
    if len(reasons) > 3:
        rest = sum(n for _, n in reasons.most_common()[3:])
        others = len(reasons) - 3
        plain(f"  {rest:>4}  for {others} other reason{'s' * (others != 1)} (each is in the report)")


def one_line(records: Iterable[Record], implementation: str | None, ended: str = "complete") -> str:
    """The quiet summary: the totals, the rule sets run, the implementation."""
    finished = [record for record in records if record.final]
    rulesets = {record.rules for record in finished if record.rules}
    line = (f"Scorpion conformance summary: {_totals(finished)} under {len(rulesets)} "
            f"rule set{'s' * (len(rulesets) != 1)}")
    if implementation:
        line += f" ({implementation})"
    if ended != "complete":
        line += f"; {ENDED.get(ended, f'the run ended {ended}')}"
    return line


def summary(
    records: Iterable[Record], *, ended: str = "complete", expect: str | None = None, brief: bool = False,
    hidden: int = 0, rewrite: str | None = None, report: bool = False,
) -> list[list[Cell]]:
    """The default summary, as lines of coloured cells (``brief``: without the notes on statuses).

    ``hidden``: how many failures were not shown in full (they are then counted by reason);
    ``rewrite``: the command that rewrites the expectations file once known failures pass;
    ``report``: whether a ``--report`` file keeps every record.
    """
    finished = [record for record in records if record.final]
    lines: list[list[Cell]] = []

    def plain(text: str = "", **markup: bool) -> None:
        lines.append([(text, markup)])

    if finished:
        plain()
        lines += table("rule area", count_by(finished, "area"))
        by_rules = count_by(finished, "rules")
        keep = sorted(by_rules)
        hidden_sets = 0
        if len(keep) > MANY_RULESETS:
            shown = [k for k in keep if any(by_rules[k][s] for s in _BAD)][:MANY_RULESETS]
            hidden_sets, keep = len(keep) - len(shown), shown
        plain()
        lines += table("rule set", by_rules, keep=keep)
        if hidden_sets:
            plain(f"... and {hidden_sets} more rule sets where nothing failed")
        if not brief:
            plain()
            plain("'error' is the adapter program's fault (a crash, a hang, an answer out of step),")
            plain("not a verdict on the rules; 'unsupported': no declared rule set fits the case, or")
            plain("the adapter cannot hold its synthetic start (one no game reaches from a deal).")
    failed = [r for r in finished if r.status in ("failed", "error")]
    if hidden:
        _by_reason(f"failed, by reason (all {len(failed)}; {hidden} not shown in full above):",
                   Counter(reason_of(r) for r in failed), plain)
    reasons = Counter(r.message.removeprefix(f"{UNSUPPORTED}: ") for r in finished if r.status == UNSUPPORTED)
    if reasons and not brief:
        _by_reason(f"{UNSUPPORTED}, by reason:", reasons, plain)
    xpassed = [r for r in finished if r.status == "xpassed"]
    if xpassed:
        lines += _upkeep(xpassed, expect, rewrite)
    if failed:
        plain()
        plain("rerun a failure with:", bold=True)
        lines += [[(f"  {here(record.rerun)}", {})] for record in failed[:RERUN_LINES]]
        if len(failed) > RERUN_LINES:
            keeps = "each record of the report has its rerun line" if report else \
                "`--report FILE` keeps every one"
            plain(f"  ... and {len(failed) - RERUN_LINES} more ({keeps})")
    if ended != "complete":
        plain()
        plain(f"{ENDED.get(ended, f'the run ended {ended}').capitalize()}: the cases above are the ones "
              "that finished.", yellow=True, bold=True)
    return lines


def _upkeep(xpassed: Sequence[Record], expect: str | None, rewrite: str | None) -> list[list[Cell]]:
    """Known failures that now pass: their entries, in a few lines, and the run that rewrites the file."""
    entries = sorted({str(record.extra.get("entry") or record.key) for record in xpassed})
    many = len(entries) != 1
    red = {"red": True, "bold": True}
    one = len(xpassed) == 1
    lines: list[list[Cell]] = [[("", {})], [(
        f"{len(xpassed)} known failure{'' if one else 's'} now pass{'es' if one else ''}: the run "
        f"fails until {'its' if one else 'their'} {len(entries)} entr{'ies' if many else 'y'} "
        f"leave{'' if many else 's'} {expect or 'the expectations file'}:", red)]]
    shown = ", ".join(entries[:40]) + (f" and {len(entries) - 40} more" if len(entries) > 40 else "")
    lines += [[(f"  {line}", {})] for line in textwrap.wrap(shown, WIDTH - 2)]
    if rewrite:
        lines.append([(f"remove {'them' if many else 'it'} by hand, or rewrite the file from a whole "
                       "run (it lists what still fails, reasons kept):", {})])
        lines.append([(f"  {rewrite}", {})])
    return lines


def write_lines(terminal: Any, lines: Iterable[list[Cell]]) -> None:
    """Write lines of cells with pytest's terminal reporter (coloured where it may)."""
    for line in lines:
        for text, markup in line:
            terminal.write(text, **markup)
        terminal.line("")


def write_summary(terminal: Any, suite: Suite, *, expect: str | None, quiet: int,
                  rewrite: str | None = None, report: bool = False) -> None:
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
    write_lines(terminal, summary(records, ended=suite.ending(), expect=expect, brief=quiet > 0,
                                  hidden=suite.failures_hidden, rewrite=rewrite, report=report))
    for note in suite.notes:
        write(note)


def rewrite_line(config: pytest.Config, suite: Suite) -> str | None:
    """The command that reruns the whole suite against the same adapter and features, and writes
    its failures over the expectations file it was given (None without one)."""
    expect = config.getoption("expect")
    if not expect:
        return None
    words = ["run", "--adapter", suite.command]
    features = config.getoption("scorpion_features")
    if features:
        words += ["--features", features]
    words += ["--expect", expect, "--write-expectations", expect]
    return " ".join([program_here(), *map(shell_word, words)])


def terminal_summary(terminal: Any, config: pytest.Config) -> None:
    """The summary at the end of pytest's output, where the suite ran (not in a worker)."""
    suite = suite_of(config)
    if suite is not None and not parallel.is_worker(config):
        quiet = max(0, -config.get_verbosity())
        write_summary(terminal, suite, expect=config.getoption("expect"), quiet=quiet,
                      rewrite=rewrite_line(config, suite), report=bool(config.getoption("report")))
