"""pytest's own lines in a run, in the suite's words and without pytest's plumbing.

* The header (:func:`header`): where the feature files are and which adapter plays
  them, in place of pytest's ``rootdir`` and ``configfile`` lines (under
  ``scorpion-conformance run``; a ``pytest`` command line of one's own keeps them).
* The progress lines name each feature file, not its path into ``site-packages``
  (:func:`begin`).
* After collection (:func:`collected`): why pytest counts more items than the suite
  has cases (each item is one case under one rule set).
* Each case's status word (:func:`status`): ``unsupported`` and ``not-run`` where
  pytest would say skipped, ``error`` for the adapter's fault that pytest would
  count as failed; with ``run -v`` the reason stands beside each (:func:`begin`).
* The failures in full (:func:`few_failures`): only the first few (``--failures N``,
  five by default), after a line that says how many failed of how
  many ran; the summary then counts them all. Nothing is hidden from a verdict: the
  exit status, the totals, the JUnit, Cucumber and JSON reports see every one.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from scorpion_conformance.arguments import FIRST_FAILURES

from .reporting import NOT_RUN, UNSUPPORTED
from .selection import feature_folders, item_case
from .session import Suite, suite_of

__all__ = ["NEARLY_ALL", "begin", "collected", "few_failures", "header", "headline", "status"]
#: The share of the cases that ran which, failing, makes a run one that fails nearly everything.
NEARLY_ALL = 0.9
#: pytest's header lines that speak of pytest's configuration, not of the run.
_PLUMBING = ("rootdir: ", "configfile: ", "testpaths: ")
#: Each status of ours that pytest would call by another word: (pytest's category, letter, word).
_WORDS = {UNSUPPORTED: (UNSUPPORTED, "u", "UNSUPPORTED"), NOT_RUN: (NOT_RUN, "n", "NOT-RUN"),
          "error": ("error", "E", "ERROR")}


def _ours(config: pytest.Config) -> bool:
    return bool(config.getoption("scorpion_command"))


def begin(config: pytest.Config) -> None:
    """Before the progress: feature files named by their names, and (``run -v``) each
    unsupported case's reason said once, after its word."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not _ours(config):
        return
    reporter.startpath = config.rootpath  # the feature folder: progress lines name the file alone
    write = reporter.write

    def reason_once(content: str, *, flush: bool = False, margin: int = 8, line_sep: str = "\n",
                    **markup: bool) -> None:
        """A skipped case's reason, after its word: whole (pytest's wrapping drops the reason of a
        line wider than the terminal) and without the word said again."""
        for said in (f" ({UNSUPPORTED}: ", " (not run: "):
            if content.startswith(said):
                content = " (" + content[len(said):]
        write(content, flush=flush, **markup)

    reporter.wrap_write = reason_once


def header(config: pytest.Config, lines: list[Any]) -> list[Any]:
    """pytest's header lines without its plumbing, and the run's own: the features, the adapter."""
    if not _ours(config):
        return lines
    kept = [[line for line in ([item] if isinstance(item, str) else item) if not line.startswith(_PLUMBING)]
            for item in lines]
    ours = []
    for folder in feature_folders(config.args):
        files = sorted(folder.glob("*.feature"))
        named = [arg for arg in config.args if arg.endswith(".feature")]
        ours.append(f"features: {named[0]}" if named else
                    f"features: {folder} ({len(files)} feature file{'s' * (len(files) != 1)})")
    suite = suite_of(config)
    if suite is not None:
        ours.append(f"adapter: {suite.command}")
    return [*kept, ours]


def collected(config: pytest.Config, items: Sequence[pytest.Item]) -> list[str]:
    """What pytest's "collected N items" counts: the cases, each under the rule sets it runs under."""
    suite = suite_of(config)
    if suite is None or config.get_verbosity() < 0:
        return []
    cases, scenarios, rulesets, unsupported = set(), set(), set(), 0
    for item in items:
        _template, case, rules = item_case(item)
        if case is None:
            continue
        cases.add((case.file, case.line, case.example_index))
        scenarios.add((case.file, case.id or case.line))
        if rules is None:
            unsupported += 1
        else:
            rulesets.add(rules)
    if not cases:
        return []
    names = ", ".join(sorted(rulesets)) or "none"
    text = (f"{_count(len(items), 'item')}, each one case under one rule set: {_count(len(cases), 'case')} "
            f"of {_count(len(scenarios), 'scenario')} (an outline has a case per row), each under every "
            f"rule set of this run that its tags admit ({names})")
    if unsupported:
        text += f", and once, as {UNSUPPORTED}, where none does ({_count(unsupported, 'case')})"
    return textwrap.wrap(text, 100)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def status(result: Any, report: pytest.TestReport, config: pytest.Config) -> Any:
    """pytest's (category, letter, word) for a report, in the suite's words: no letter per case
    under ``run -q``; ``unsupported`` and ``not-run`` for pytest's skipped, ``error`` for a
    failure that is the adapter's fault. The exit status is pytest's, from the report itself."""
    suite = suite_of(config)
    record = suite.records.get(report.nodeid) if suite is not None else None
    if (record is not None and record.final and isinstance(result, tuple) and len(result) == 3
            and record.status in _WORDS and not hasattr(report, "wasxfail")
            and (report.skipped if record.status != "error" else report.failed and report.when == "call")):
        result = _WORDS[record.status]
    quiet = config.get_verbosity() < 0 and _ours(config)
    if quiet and isinstance(result, tuple) and len(result) == 3:
        return result[0], "", result[2]
    return result


def headline(suite: Suite, shown: int, *, one_line: bool = False) -> list[str]:
    """The lines before the failures in full: how many failed of how many ran, and where the
    rest are counted."""
    finished = [record for record in suite.records.values() if record.final]
    bad = sum(record.status in ("failed", "error", "xpassed") for record in finished)
    ran = sum(record.status not in (UNSUPPORTED, NOT_RUN) for record in finished)
    apart = Counter(record.status for record in finished if record.status in (UNSUPPORTED, NOT_RUN))
    besides = (" (and " + " and ".join(f"{n} {status}" for status, n in sorted(apart.items(), reverse=True))
               + ")") if apart else ""
    if ran and bad == ran:
        first = f"Every case that ran failed: {bad} of {ran}{besides}."
    elif ran and bad >= NEARLY_ALL * ran:
        first = f"Nearly every case that ran failed: {bad} of {ran}{besides}."
    else:
        first = f"{bad} of the {ran} cases that ran failed{besides}."
    counts = (f"the last line counts all {bad}" if one_line else
              f"the summary after them counts all {bad} by rule area and reason")
    rest = (f"The first {shown} follow in full; {counts}. `--failures all` shows every one in full."
            if shown else f"None is shown in full (--failures 0); {counts}.")
    return textwrap.wrap(f"{first} {rest}", 100)


@contextmanager
def few_failures(reporter: Any, config: pytest.Config) -> Iterator[None]:
    """While pytest writes its failures (in full, then one line each), it sees only the first
    ``--failures``; every one is back in its counts before the closing line of totals."""
    suite = suite_of(config)
    limit = config.getoption("failures", FIRST_FAILURES)
    stats: dict[str, list[Any]] = getattr(reporter, "stats", None) or {}
    keys = [key for key in ("error", "failed") if stats.get(key)]
    cases = [r for key in keys for r in stats[key] if isinstance(r, pytest.TestReport)]
    if suite is None or limit is None or len(cases) <= limit:
        yield
        return
    kept = {id(report) for report in cases[:limit]}
    saved = {key: stats[key] for key in keys}
    for key in keys:
        stats[key] = [r for r in saved[key] if not isinstance(r, pytest.TestReport) or id(r) in kept]
    suite.failures_hidden = len(cases) - limit
    reporter.write_line("")
    for line in headline(suite, limit, one_line=config.get_verbosity() < -1):
        reporter.write_line(line, bold=True)
    try:
        yield
    finally:
        stats.update(saved)
