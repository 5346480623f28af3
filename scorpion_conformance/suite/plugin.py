"""The pytest plugin that runs the scenarios against an adapter: thin hooks, each a delegation.

The suite is built from the configuration in :mod:`.session`, which also
holds the adapter; which cases run under which rule sets is
:mod:`.selection`'s; each case's record and verdict are :mod:`.verdicts`'
(over :mod:`.reporting`); the handshake and the reports at the end are
:mod:`.ending`'s; every signal is :mod:`.stopping`'s; the summary is
:mod:`.console`'s. It is active only where the suite runs: through
``scorpion-conformance run``, ``-p scorpion_conformance.suite.plugin``, or a
``pytest`` command line naming a folder of feature files (see :mod:`.activate`).

The verdict is kept honest on every path: a case cut short by Ctrl-C or
SIGTERM is never recorded, an adapter fault is never a rule verdict (an
answer out of step overrides whatever the steps concluded), and once the run
gives up on the adapter the remaining cases are *not run*, not failed.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import pytest

from . import console, ending, parallel, report_files, selection, stopping, terminal, verdicts
from .execute import ScenarioRun
from .session import SUITE, NotRun, Suite, add_options, suite_of
from .tags import CATALOGUE_TAG, ID_TAG


def _suite(config: pytest.Config) -> Suite:
    return config.stash[SUITE]


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    suite = config.stash[SUITE] = Suite.from_config(config)
    selection.register_markers(config)
    if config.getoption("scorpion_command"):
        # Node ids are relative to the feature folder: print them so, not as ../../site-packages/...
        config.cwd_relative_nodeid = lambda nodeid: nodeid  # type: ignore[method-assign]
        # One line a case after the failures in full, however verbose the run and wherever it
        # runs: pytest prints each whole failure again there under -vv or when CI is set.
        if hasattr(config.option, "force_short_summary"):  # pytest 8.4 and later
            config.option.force_short_summary = True
    from . import steps

    if not config.pluginmanager.is_registered(steps):
        config.pluginmanager.register(steps, "scorpion-conformance-steps")
    config.pluginmanager.register(ConfiguredHooks(config), "scorpion-conformance-configured")
    stopping.catch_signals(suite, config)


class ConfiguredHooks:
    """The hooks whose arguments do not carry the configuration: it is held here, not in a global."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(tryfirst=True)
    def pytest_bdd_apply_tag(self, tag: str, function: Any) -> Any:
        """Id tags select through ``--id`` (a marker name cannot hold their colon);
        catalogue tags become markers, so ``-m R-EMPTY-KING-ONLY`` works."""
        if ID_TAG.match(tag):
            return function
        if CATALOGUE_TAG.match(tag):
            selection.register_marker(self.config, tag, f"tests the catalogue rule {tag}")
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """JUnit files group the cases by rule area (the classname), not by binding file."""
        report_files.set_classname(self.config, report)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        stopping.interrupted(self.config)

    @pytest.hookimpl(wrapper=True)
    def pytest_report_header(self) -> Generator[None, Any, Any]:
        return terminal.header(self.config, (yield))

    def pytest_report_collectionfinish(self, items: list[pytest.Item]) -> list[str]:
        return terminal.collected(self.config, items)

    @pytest.hookimpl(wrapper=True, tryfirst=True)  # around pytest's own: its failures in full
    def pytest_terminal_summary(self, terminalreporter: Any) -> Generator[None, Any, Any]:
        with terminal.few_failures(terminalreporter, self.config):
            return (yield)


def pytest_sessionstart(session: pytest.Session) -> None:
    """The handshake, before any scenario: a broken adapter is one short diagnosis."""
    ending.begin(session)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    suite = _suite(metafunc.config)  # the handshake came at the start of the session
    selection.parametrize(metafunc, suite.declared(), suite.start().capabilities,
                          narrowed=bool(suite.wanted_rules))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Name, mark and select the cases before ``-k`` and ``-m`` see them."""
    suite = _suite(config)
    selection.select(config, items, suite.areas, suite.expectations.reason)


def pytest_collection_finish(session: pytest.Session) -> None:
    suite = suite_of(session.config)
    if suite is not None and not parallel.is_controller(session.config):
        suite.order = [item.nodeid for item in session.items]


@pytest.fixture
def scorpion_run(request: pytest.FixtureRequest, scorpion_rules: str | None) -> Iterator[ScenarioRun]:
    """The scenario being run, under the rule set this test was parametrized with."""
    try:
        client = _suite(request.config).client()
    except NotRun as reason:
        pytest.skip(str(reason))
    template_case = selection.item_case(request.node)[1]
    synthetic = getattr(template_case, "synthetic", False)  # its start no deal leads to
    run = request.node.stash[verdicts.RUN] = ScenarioRun(client, scorpion_rules or "", synthetic=synthetic)
    yield run


def pytest_bdd_step_error(request: pytest.FixtureRequest) -> None:
    """Remember that a step failed: its own error is the one to report."""
    request.node.stash[verdicts.STEP_FAILED] = True


def pytest_bdd_after_scenario(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    verdicts.close_case(request, feature, scenario)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)  # outside pytest-bdd's, to see what it kept
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome: Any = yield
    verdicts.judge_phase(item, call, outcome.get_result())


@pytest.hookimpl(wrapper=True)
def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Generator[None, Any, Any]:
    """The suite's word for each status; quiet (``run -q``): no letter per case."""
    return terminal.status((yield), report, config)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    ending.finish(session, exitstatus)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    console.terminal_summary(terminalreporter, config)
