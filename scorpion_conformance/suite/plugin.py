"""The pytest plugin that runs the scenarios against an adapter.

It adds the ``--adapter`` option (and friends), asks the adapter which rule
sets it offers, runs every scenario once under each declared rule set whose
options match the scenario's tags, reports scenarios with no matching rule set
as *unsupported*, applies an expectations file, writes a JSON report, and ends
with a summary per rule area and per rule set.

Loaded through the ``pytest11`` entry point; inert unless scenarios are collected.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.errors import ErrorAnswer

from .execute import ScenarioFailure, ScenarioRun
from .tags import (
    CAPABILITY_TAGS,
    CATALOGUE_TAG,
    ID_TAG,
    OPTION_TAGS,
    matches,
    requirements,
    scenario_id,
)

DEFAULT_ADAPTER = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"
UNSUPPORTED = "unsupported"

_config: pytest.Config | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("scorpion", "Scorpion conformance suite")
    group.addoption("--adapter", default=None,
                    help="command that starts the adapter (default: the reference adapter)")
    group.addoption("--adapter-timeout", type=float, default=5.0,
                    help="seconds to wait for each answer of the adapter (default 5)")
    group.addoption("--rules", default=None,
                    help="comma-separated rule sets to run (default: every one the adapter declares)")
    group.addoption("--id", dest="scenario_ids", default=None,
                    help="comma-separated scenario ids to run, such as MOVE-004")
    group.addoption("--report", default=None, help="write one JSON record per scenario run here")
    group.addoption("--expect", default=None,
                    help="expectations file: scenario ids the implementation is known to fail")
    group.addoption("--write-expectations", default=None,
                    help="write an expectations file listing this run's failures")
    group.addoption("--scorpion-features", default=None,
                    help="the feature folder the rerun lines name (run --features sets it)")


@dataclass
class Record:
    """One scenario run under one rule set, for the report."""

    id: str | None
    name: str
    area: str
    rules: str | None
    status: str = "passed"
    message: str = ""
    expected: Any = None
    actual: Any = None
    stderr_tail: str = ""
    context: str = ""
    rerun: str = ""
    nodeid: str = ""


@dataclass
class Suite:
    """The adapter and the bookkeeping of one session."""

    config: pytest.Config
    command: str
    timeout: float
    _client: Any = None
    _hello: Any = None
    faulted: bool = False
    records: dict[str, Record] = field(default_factory=dict)
    expectations: dict[str, str] = field(default_factory=dict)

    def client(self) -> Any:
        from scorpion_conformance.harness import AdapterClient

        if self._client is None:
            self._client = AdapterClient(self.command, timeout=self.timeout)
            self._hello = self._client.hello()
        elif self.faulted:
            self._client.restart()
        self.faulted = False
        return self._client

    def hello(self) -> Any:
        if self._hello is None:
            self.client()
        return self._hello

    def declared(self) -> dict[str, dict[str, str]]:
        """Rule set name → options, for the declared sets the run may use."""
        rulesets: dict[str, dict[str, str]] = dict(self.hello().rulesets_resolved())
        wanted = self.config.getoption("rules")
        if wanted:
            names = [n.strip() for n in wanted.split(",") if n.strip()]
            unknown = [n for n in names if n not in rulesets]
            if unknown:
                raise pytest.UsageError(
                    f"--rules names {', '.join(unknown)}, which the adapter does not declare; "
                    f"it declares {', '.join(rulesets) or 'none'}"
                )
            rulesets = {n: rulesets[n] for n in names}
        return rulesets

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()


def _suite(config: pytest.Config) -> Suite:
    return config.stash[_SUITE_KEY]


_SUITE_KEY = pytest.StashKey[Suite]()


def pytest_configure(config: pytest.Config) -> None:
    global _config
    _config = config
    for tag, (option, value) in OPTION_TAGS.items():
        config.addinivalue_line("markers", f"{tag}: runs only where {option} is {value}")
    for tag, capability in CAPABILITY_TAGS.items():
        config.addinivalue_line("markers", f"{tag}: needs the adapter capability {capability}")
    command = config.getoption("adapter") or DEFAULT_ADAPTER
    suite = Suite(config, command, config.getoption("adapter_timeout"))
    expect = config.getoption("expect")
    if expect:
        suite.expectations = load_expectations(Path(expect))
    config.stash[_SUITE_KEY] = suite
    from . import steps

    if not config.pluginmanager.is_registered(steps):
        config.pluginmanager.register(steps, "scorpion-conformance-steps")


def load_expectations(path: Path) -> dict[str, str]:
    """Read an expectations file: ``{"MOVE-004": "reason", "STOCK-002[classic]": "..."}``.

    Raises :class:`pytest.UsageError` naming the file for anything unreadable.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise pytest.UsageError(f"cannot read the expectations file {path}: {error}") from None
    known = data.get("known_failures") if isinstance(data, dict) else None
    if not isinstance(known, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in known.items()
    ):
        raise pytest.UsageError(
            f"{path}: an expectations file is a JSON object with \"known_failures\": "
            "{scenario id: reason}"
        )
    return dict(known)


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Any) -> Any:
    """Id tags select through ``--id`` (a marker name cannot hold their colon);
    catalogue tags become markers, so ``-m R-EMPTY-KING-ONLY`` works."""
    if ID_TAG.match(tag):
        return function
    if _config is not None and CATALOGUE_TAG.match(tag):
        _config.addinivalue_line("markers", f"{tag}: tests the catalogue rule {tag}")
    return None


def _template(function: Any) -> Any:
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    try:  # a weak-keyed registry: doctest items and the like have no function to look up
        return scenario_wrapper_template_registry.get(function)
    except TypeError:
        return None


def _tags(template: Any) -> set[str]:
    rule_tags = template.rule.tags if template.rule is not None else set()
    return set(template.tags) | set(template.feature.tags) | set(rule_tags)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    template = _template(metafunc.function)
    if template is None:
        return
    suite = _suite(metafunc.config)
    required, capabilities = requirements(_tags(template))
    try:
        declared = suite.declared()
        offered = set(suite.hello().capabilities)
    except pytest.UsageError:
        raise
    except Exception as error:  # an AdapterError: the run cannot start at all
        pytest.exit(
            f"the adapter could not be used, so no scenario ran.\n{error}\n"
            "The adapter, not the implementation, is probably broken: "
            "try `scorpion-conformance check-adapter --adapter CMD`.",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )
    missing = [c for c in capabilities if c not in offered]
    names = [name for name, options in declared.items() if matches(options, required)]
    metafunc.fixturenames.append("scorpion_rules")
    sid = scenario_id(_tags(template)) or "no-id"
    if names and not missing:
        metafunc.parametrize("scorpion_rules", names, ids=[f"{sid}-{n}" for n in names])
        return
    if missing:
        why = f"the adapter lacks the capability {', '.join(missing)}"
    else:
        need = ", ".join(f"{k}={'|'.join(v)}" for k, v in required.items())
        chosen = "selected" if metafunc.config.getoption("rules") else "declared"
        why = f"no {chosen} rule set has {need}"
    metafunc.parametrize(
        "scorpion_rules",
        [pytest.param(None, marks=pytest.mark.skip(reason=f"{UNSUPPORTED}: {why}"),
                      id=f"{sid}-{UNSUPPORTED}")],
    )


def _item_scenario(item: pytest.Item) -> tuple[Any, str | None, str | None]:
    """The scenario template of an item, its case id (``PLACE-006/2`` for the
    second example row of an outline) and its rule set."""
    template = _template(getattr(item, "function", None))
    if template is None:
        return None, None, None
    callspec = getattr(item, "callspec", None)
    rules = callspec.params.get("scorpion_rules") if callspec else None
    sid = scenario_id(_tags(template))
    example = callspec.params.get("_pytest_bdd_example") if callspec else None
    if sid and example:
        contexts = [c for examples in template.examples for c in examples.as_contexts()]
        if example in contexts:
            sid = f"{sid}/{contexts.index(example) + 1}"
    return template, sid, rules


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    suite = _suite(config)
    wanted = config.getoption("scenario_ids")
    ids = {i.strip() for i in wanted.split(",")} if wanted else None
    kept, dropped = [], []
    for item in items:
        template, sid, rules = _item_scenario(item)
        if template is None:
            kept.append(item)
            continue
        if ids is not None and sid not in ids and (sid or "").split("/")[0] not in ids:
            dropped.append(item)
            continue
        kept.append(item)
        base = (sid or "").split("/")[0]
        reason = next(
            (suite.expectations[key] for key in (f"{sid}[{rules}]", sid, f"{base}[{rules}]", base)
             if key in suite.expectations),
            None,
        )
        if reason is not None and rules is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {reason}", strict=True))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture
def scorpion_run(request: pytest.FixtureRequest, scorpion_rules: str | None) -> Iterator[ScenarioRun]:
    """The scenario being run, under the rule set this test was parametrized with."""
    suite = _suite(request.config)
    run = ScenarioRun(suite.client(), scorpion_rules or "")
    request.node.stash[_RUN_KEY] = run
    yield run


_RUN_KEY = pytest.StashKey[ScenarioRun]()


_STEP_FAILED = pytest.StashKey[bool]()


def pytest_bdd_step_error(request: pytest.FixtureRequest) -> None:
    """Remember that a step failed: its own error is the one to report."""
    request.node.stash[_STEP_FAILED] = True


def pytest_bdd_after_scenario(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    """A scenario that reached its end without a single Then step proved nothing."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is None or "scorpion_rules" not in callspec.params:
        return  # not one of the suite's scenarios
    run = request.node.stash.get(_RUN_KEY, None)
    checks = run.checks if run is not None else 0
    if checks == 0 and not request.node.stash.get(_STEP_FAILED, False):
        pytest.fail(
            f"{Path(feature.filename).name}:{scenario.line_number}: the scenario {scenario.name!r} "
            "has no Then step, so it checks nothing",
            pytrace=False,
        )


def _rerun(suite: Suite, sid: str | None, rules: str | None) -> str:
    parts = ["scorpion-conformance", "run", "--adapter", suite.command]
    features = suite.config.getoption("scorpion_features")
    if features:
        parts += ["--features", features]
    if rules:
        parts += ["--rules", rules]
    if sid:
        parts += ["--id", sid]
    return shlex.join(parts)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    report: pytest.TestReport = outcome.get_result()
    template, sid, rules = _item_scenario(item)
    if template is None:
        return
    suite = _suite(item.config)
    record = suite.records.get(item.nodeid)
    if record is None:
        record = Record(
            id=sid, name=template.name, area=template.feature.name, rules=rules,
            rerun=_rerun(suite, sid, rules), nodeid=item.nodeid,
        )
        suite.records[item.nodeid] = record
    if report.skipped and hasattr(report, "wasxfail"):
        record.status, record.message = "xfailed", str(report.wasxfail)
    elif report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reason = reason.removeprefix("Skipped: ")
        record.status = UNSUPPORTED if reason.startswith(UNSUPPORTED) else "skipped"
        record.message = reason
    elif report.failed and "[XPASS(strict)]" in str(report.longrepr):
        record.status = "xpassed"
        record.message = f"known failure now passes: remove it from the expectations file ({report.longrepr})"
    elif report.failed:
        record.status = "failed" if report.when == "call" else "error"
        error = call.excinfo.value if call.excinfo is not None else None
        record.message = str(error) if error is not None else report.longreprtext
        run = item.stash.get(_RUN_KEY, None)
        record.context = run.describe() if run is not None else ""
        if error is not None:
            # What a reader needs, instead of pytest-bdd's traceback.
            where = f"{Path(template.feature.filename).name}:{template.line_number}"
            report.longrepr = (
                f"{sid} under {rules}: {template.name} ({where})\n{record.message}\n\n"
                f"{record.context}\n\nrerun: {record.rerun}"
            )
        if isinstance(error, ScenarioFailure):
            record.expected, record.actual = error.expected, error.actual
        elif error is not None and not isinstance(error, (AssertionError, ErrorAnswer)):
            suite.faulted = True  # an adapter fault: restart before the next scenario
            record.stderr_tail = str(getattr(error, "stderr_tail", "") or "")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    suite = session.config.stash.get(_SUITE_KEY, None)
    if suite is None:
        return
    report = session.config.getoption("report")
    if report and suite.records:
        with open(report, "w", encoding="utf-8") as out:
            for record in suite.records.values():
                out.write(json.dumps(record.__dict__, ensure_ascii=False, default=str) + "\n")
    target = session.config.getoption("write_expectations")
    if target:
        failures = {
            (r.id or r.nodeid) + (f"[{r.rules}]" if r.rules else ""):
                r.message.splitlines()[0][:200] if r.message else "failed"
            for r in suite.records.values()
            if r.status in ("failed", "error", "xfailed")
        }
        Path(target).write_text(
            json.dumps({"known_failures": dict(sorted(failures.items()))}, indent=2, ensure_ascii=False)
            + "\n", encoding="utf-8",
        )
    suite.close()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    suite = config.stash.get(_SUITE_KEY, None)
    if suite is None or not suite.records:
        return
    write = terminalreporter.write_line
    terminalreporter.section("Scorpion conformance summary")
    hello = suite._hello
    if hello is not None:
        write(f"adapter: {suite.command}")
        write(f"implementation: {getattr(hello, 'implementation', '?')}")
    statuses = ("passed", "failed", "error", "xfailed", "xpassed", UNSUPPORTED, "skipped")
    by_area: dict[str, Counter[str]] = defaultdict(Counter)
    by_rules: dict[str, Counter[str]] = defaultdict(Counter)
    for record in suite.records.values():
        by_area[record.area][record.status] += 1
        by_rules[record.rules or "(unsupported)"][record.status] += 1
    for title, table in (("rule area", by_area), ("rule set", by_rules)):
        width = max(len(title), *(len(k) for k in table))
        write("")
        write(f"{title:<{width}}  " + "  ".join(f"{s:>11}" for s in statuses))
        for key in sorted(table):
            write(f"{key:<{width}}  " + "  ".join(f"{table[key][s]:>11}" for s in statuses))
    unsupported = Counter(
        r.message for r in suite.records.values() if r.status == UNSUPPORTED
    )
    write("")
    write("A scenario runs under each declared rule set its option tags admit, so the")
    write("totals differ between rule sets; pytest's own last line counts unsupported")
    write("scenarios among its skipped ones.")
    if unsupported:
        write("")
        write("unsupported scenarios, by reason:")
        for reason, n in unsupported.most_common():
            write(f"  {n:>4}  {reason}")
    failed = [r for r in suite.records.values() if r.status in ("failed", "error", "xpassed")]
    if failed:
        write("")
        write("rerun a failure with:")
        for record in failed[:20]:
            write(f"  {record.rerun}")
