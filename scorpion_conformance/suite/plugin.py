"""The pytest plugin that runs the scenarios against an adapter: thin hooks.

It shakes hands with the adapter before any scenario, runs every case once
under each declared rule set its tags admit (:mod:`.selection`), applies an
expectations file (:mod:`.expectations`), keeps a record per case and writes
the JSON report and the summary (:mod:`.reporting`); the adapter's life is
:mod:`.session`'s. It is active only where the suite runs: through
``scorpion-conformance run``, ``-p scorpion_conformance.suite.plugin``, or a
``pytest`` command line naming a folder of feature files (see :mod:`.activate`).

The verdict is kept honest on every path: a case cut short by Ctrl-C or
SIGTERM is never recorded, an adapter fault is never a rule verdict (an
answer out of step overrides whatever the steps concluded), and once the run
gives up on the adapter the remaining cases are *not run*, not failed.
"""

from __future__ import annotations

import math
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from scorpion_conformance.errors import AdapterError
from scorpion_conformance.transport import split_command
from scorpion_shared.vocabulary import DEFAULT_ADAPTER

from . import console, facts, parallel, report_files, reporting, stopping
from .execute import ScenarioRun
from .expectations import ExpectationsError, load_expectations, unknown_keys, write_expectations
from .naming import AreaError, area_marker, area_of, case_text, parse_areas, rename, test_name
from .reporting import UNSUPPORTED, Record, rerun_command
from .selection import case_for, feature_folders, placement, template_of, wanted
from .session import NotRun, Suite, SuiteUsageError
from .tags import CAPABILITY_TAGS, CATALOGUE_TAG, ID_TAG, OPTION_TAGS
from .verdicts import judge

_SUITE = pytest.StashKey[Suite]()
_RUN = pytest.StashKey[ScenarioRun]()
_STEP_FAILED = pytest.StashKey[bool]()
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
                    help="comma-separated scenario ids or globs to run, such as MOVE-004 or 'STOCK-*'")
    group.addoption("--area", dest="scorpion_areas", default=None,
                    help="comma-separated rule areas (feature files) to run, such as stock")
    group.addoption("--report", default=None, help="write one JSON record per scenario run here")
    group.addoption("--expect", default=None,
                    help="expectations file: scenario ids the implementation is known to fail")
    group.addoption("--write-expectations", default=None,
                    help="write an expectations file listing this run's failures")
    group.addoption("--scorpion-features", default=None,
                    help="the feature folder the rerun lines name (run --features sets it)")
    group.addoption("--scorpion-command", action="store_true", default=False,
                    help="set by scorpion-conformance run: name cases from the feature folder")


def _suite(config: pytest.Config) -> Suite:
    return config.stash[_SUITE]


def suite_of(config: object) -> Suite | None:
    """The suite's state in a pytest configuration, if the suite ran there."""
    return config.stash.get(_SUITE, None) if isinstance(config, pytest.Config) else None


def pytest_configure(config: pytest.Config) -> None:
    global _config
    _config = config
    for tag, (option, value) in OPTION_TAGS.items():
        config.addinivalue_line("markers", f"{tag}: runs only where {option} is {value}")
    for tag, capability in CAPABILITY_TAGS.items():
        config.addinivalue_line("markers", f"{tag}: needs the adapter capability {capability}")
    wanted_rules = tuple(n.strip() for n in (config.getoption("rules") or "").split(",") if n.strip())
    timeout = config.getoption("adapter_timeout")
    if not math.isfinite(timeout) or timeout <= 0:
        raise pytest.UsageError(f"--adapter-timeout {timeout}: give a number of seconds above 0")
    command = config.getoption("adapter") or DEFAULT_ADAPTER
    try:
        split_command(command)
    except ValueError as error:
        raise pytest.UsageError(f"--adapter: {error}") from None
    suite = Suite(command, timeout, wanted_rules)
    expect = config.getoption("expect")
    folders = feature_folders(config.args)
    if expect:
        try:
            suite.expectations = load_expectations(Path(expect))
            unknown_keys(suite.expectations, Path(expect), folders)
        except ExpectationsError as error:
            raise pytest.UsageError(str(error)) from None
    try:
        areas = [area_of(f) for folder in folders for f in sorted(folder.glob("*.feature"))]
        suite.areas = parse_areas(config.getoption("scorpion_areas"), areas)
    except AreaError as error:
        raise pytest.UsageError(str(error)) from None
    if config.getoption("scorpion_command"):
        # Node ids are relative to the feature folder: print them so, not as ../../site-packages/...
        config.cwd_relative_nodeid = lambda nodeid: nodeid  # type: ignore[method-assign]
    config.stash[_SUITE] = suite
    from . import steps

    if not config.pluginmanager.is_registered(steps):
        config.pluginmanager.register(steps, "scorpion-conformance-steps")
    _catch_stop_signals(suite, config)


def _catch_stop_signals(suite: Suite, config: pytest.Config) -> None:
    """SIGINT and SIGTERM stop the run at once, and the run knows it was stopped; a controller
    passes SIGTERM on to its workers (a Ctrl-C reaches them with the process group)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, _frame: FrameType | None) -> None:
        stopping.note(signum)
        if suite.interrupted is None:
            suite.interrupted = signum
            if signum == signal.SIGTERM and parallel.is_controller(config):
                parallel.stop_workers(signum)
        raise KeyboardInterrupt

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The handshake, before any scenario: a broken adapter is one short diagnosis."""
    suite = _suite(session.config)
    suite.started = facts.now()
    try:
        suite.declared()
    except SuiteUsageError as error:
        suite.close()
        raise pytest.UsageError(str(error)) from None
    except AdapterError as error:
        suite.unusable = True
        suite.close()
        _write_report(session.config, suite, {"run": "adapter-unusable", "problem": error.problem})
        # A usage error is printed as one paragraph, with no traceback (run exits 3).
        raise pytest.UsageError(
            f"the adapter could not be used, so no scenario ran.\n{error}\n"
            "The adapter program, not the implementation behind it, is probably broken: try"
            f" `scorpion-conformance check-adapter --adapter {reporting.shell_word(suite.command)}`."
        ) from None
    if parallel.is_controller(session.config):
        # The workers run the cases, each with an adapter of its own; this one has said hello.
        suite.close()
        session.config.pluginmanager.register(parallel.Controller(suite), "scorpion-conformance-controller")


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Any) -> Any:
    """Id tags select through ``--id`` (a marker name cannot hold their colon);
    catalogue tags become markers, so ``-m R-EMPTY-KING-ONLY`` works."""
    if ID_TAG.match(tag):
        return function
    if _config is not None and CATALOGUE_TAG.match(tag):
        _config.addinivalue_line("markers", f"{tag}: tests the catalogue rule {tag}")
    return None


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    template = template_of(metafunc.function)
    if template is None:
        return
    suite = _suite(metafunc.config)
    hello = suite.hello
    assert hello is not None  # the handshake came at the start of the session
    # Every row of an outline has the tags of its scenario: the first row stands for all.
    case = case_for(template, None) or case_for(template, _first_example(template))
    if case is None:
        raise pytest.UsageError(f"{template.feature.filename}:{template.line_number}: "
                                "a scenario the suite cannot read (run scorpion-conformance lint)")
    where = placement(case, suite.declared(), hello.capabilities, narrowed=bool(suite.wanted_rules))
    # The case's run is set up before its first step, so a case the run will not
    # play (after giving up on the adapter) is skipped before it starts.
    metafunc.fixturenames.extend(("scorpion_rules", "scorpion_run"))
    sid = case.id or "no-id"
    if where.rulesets:
        metafunc.parametrize("scorpion_rules", where.rulesets, ids=[f"{sid}-{n}" for n in where.rulesets])
        return
    metafunc.parametrize(
        "scorpion_rules",
        [pytest.param(None, marks=pytest.mark.skip(reason=f"{UNSUPPORTED}: {where.unsupported}"),
                      id=f"{sid}-{UNSUPPORTED}")],
    )


def _first_example(template: Any) -> dict[str, str] | None:
    contexts = [c for examples in template.examples for c in examples.as_contexts()]
    return contexts[0] if contexts else None


def _item_case(item: pytest.Item) -> tuple[Any, Any, str | None]:
    """The template, the case and the rule set of a scenario item (Nones otherwise)."""
    template = template_of(getattr(item, "function", None))
    if template is None:
        return None, None, None
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    return template, case_for(template, params.get("_pytest_bdd_example")), params.get("scorpion_rules")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Name each case by its text, mark its area, select by ``--id`` and ``--area``.

    It runs before ``-k`` and ``-m`` select, so both see the names and the area markers.
    """
    suite = _suite(config)
    option = config.getoption("scenario_ids")
    ids = {i.strip() for i in option.split(",") if i.strip()} if option else None
    kept, dropped = [], []
    for item in items:
        template, case, rules = _item_case(item)
        if template is None:
            kept.append(item)
            continue
        case_id = case.case_id if case is not None else "?"
        area = area_of(template.feature.filename)
        marker = area_marker(area)
        config.addinivalue_line("markers", f"{marker}: the rule area {area} ({template.feature.name})")
        item.add_marker(marker)
        text = case_text(case.name, case.example) if case is not None else template.name
        rename(item, test_name(text, case_id, rules))
        if not wanted(case_id, ids) or (suite.areas is not None and area not in suite.areas):
            dropped.append(item)
            continue
        kept.append(item)
        reason = suite.expectations.reason(case_id, rules)
        if reason is not None and rules is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {reason}", strict=True))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_finish(session: pytest.Session) -> None:
    suite = session.config.stash.get(_SUITE, None)
    if suite is not None and not parallel.is_controller(session.config):
        suite.order = [item.nodeid for item in session.items]


@pytest.fixture
def scorpion_run(request: pytest.FixtureRequest, scorpion_rules: str | None) -> Iterator[ScenarioRun]:
    """The scenario being run, under the rule set this test was parametrized with."""
    suite = _suite(request.config)
    try:
        client = suite.client()
    except NotRun as reason:
        pytest.skip(str(reason))
    run = ScenarioRun(client, scorpion_rules or "")
    request.node.stash[_RUN] = run
    yield run


def pytest_bdd_step_error(request: pytest.FixtureRequest) -> None:
    """Remember that a step failed: its own error is the one to report."""
    request.node.stash[_STEP_FAILED] = True


def pytest_bdd_after_scenario(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    """Close every case with proof that the conversation stayed in step.

    An answer out of step turns whatever the steps concluded into the
    adapter's fault; a scenario that reached its end without a single Then
    step proved nothing. Nothing is asked of an interrupted run.
    """
    suite = request.config.stash.get(_SUITE, None)
    callspec = getattr(request.node, "callspec", None)
    if suite is None or suite.interrupted is not None or suite.gave_up is not None or callspec is None:
        return
    if "scorpion_rules" not in callspec.params:
        return  # not one of the suite's scenarios
    run = request.node.stash.get(_RUN, None)
    if run is not None:
        run.client.check_in_step()
    checks = run.checks if run is not None else 0
    if checks == 0 and not request.node.stash.get(_STEP_FAILED, False):
        pytest.fail(
            f"{Path(feature.filename).name}:{scenario.line_number}: the scenario {scenario.name!r} "
            "has no Then step, so it checks nothing",
            pytrace=False,
        )


@pytest.hookimpl(hookwrapper=True, tryfirst=True)  # outside pytest-bdd's, to see what it kept
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    report: pytest.TestReport = outcome.get_result()
    template, case, rules = _item_case(item)
    if template is None:
        return
    suite = _suite(item.config)
    record = suite.records.get(item.nodeid)
    if record is None:
        case_id = case.case_id if case is not None else None
        record = Record(
            id=case_id, name=case_text(case.name, case.example) if case is not None else template.name,
            area=template.feature.name, rules=rules,
            rerun=rerun_command(suite.command, rules, case_id, item.config.getoption("scorpion_features")),
            nodeid=item.nodeid,
            source=f"{Path(template.feature.filename).name}:{template.line_number}",
            area_id=area_of(template.feature.filename),
        )
        suite.records[item.nodeid] = record
    if suite.interrupted is not None:
        setattr(report, parallel.AREA, record.area_id)
        return  # a case the interrupt cut short has no verdict
    error = call.excinfo.value if call.excinfo is not None else None
    verdict = (record.status, record.message)
    judge(suite, record, report, error, item.stash.get(_RUN, None))
    parallel.attach(report, record, worker=parallel.is_worker(item.config),
                    changed=(record.status, record.message) != verdict)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """JUnit files group the cases by rule area (the classname), not by binding file."""
    report_files.set_classname(_config, report)


@pytest.hookimpl(wrapper=True)
def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Iterator[Any]:
    """Quiet (``run -q``): no dot per case."""
    result = yield
    quiet = config.get_verbosity() < 0 and config.getoption("scorpion_command")
    if quiet and isinstance(result, tuple) and len(result) == 3:
        return result[0], "", result[2]
    return result


def pytest_keyboard_interrupt(excinfo: pytest.ExceptionInfo[BaseException]) -> None:
    if _config is not None and _SUITE in _config.stash:
        suite = _config.stash[_SUITE]
        if suite.interrupted is None:
            suite.interrupted = signal.SIGINT


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    suite = session.config.stash.get(_SUITE, None)
    if suite is None:
        return
    suite.close()
    if parallel.is_worker(session.config):
        parallel.worker_facts(session.config, suite)  # the controller writes the reports
        session.exitstatus = suite.exit_status(int(exitstatus))
        return
    ending = suite.ending()
    report_files.mark_junit(session.config, ending, suite.command)
    report_files.order_reports(session.config, suite.order)
    ended: dict[str, Any] = {"run": ending}
    if suite.interrupted is not None:
        ended["signal"] = signal.Signals(suite.interrupted).name
    if suite.gave_up is not None:
        ended["gave_up"] = suite.gave_up.problem
    elif suite.worker_gave_up is not None:
        ended["gave_up"] = suite.worker_gave_up[0]
    _write_report(session.config, suite, ended)
    target = session.config.getoption("write_expectations")
    if target and ending == "complete":
        count = write_expectations(Path(target), suite.records.values())
        suite.notes.append(f"wrote {count} known failure{'s' * (count != 1)} to {target}"
                           + (" (none failed: the file lists nothing)" if count == 0 else ""))
    elif target:
        suite.notes.append(f"the expectations file {target} was left as it was: the run was {ending}")
    session.exitstatus = suite.exit_status(int(exitstatus))


def _write_report(config: pytest.Config, suite: Suite, ended: dict[str, Any]) -> None:
    report = config.getoption("report")
    if report:
        about = facts.run_facts(suite, config)
        reporting.write_report(Path(report), suite.records.values(), {**ended, **about}, suite.order)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    suite = config.stash.get(_SUITE, None)
    if suite is not None and not parallel.is_worker(config):
        console.write_summary(terminalreporter, suite, expect=config.getoption("expect"),
                              quiet=max(0, -config.get_verbosity()))
