"""The adapter of one run of the suite, and what the run knows about it.

A :class:`Suite` starts the adapter once (the handshake comes before any
scenario), hands each case a client in step, restarts the adapter after a
fault, and gives up on it for good once it cannot get a game started
(:class:`~scorpion_conformance.errors.TooManyRestarts`): every later case is
then *not run*, at once, and the run ends with one diagnosis. On an interrupt
it kills the adapter's whole tree instead of waiting for a polite goodbye.

The suite's options are declared here (:func:`add_options`) and read into a
:class:`Suite` here (:meth:`Suite.from_config`), which the pytest
configuration keeps in its stash (:func:`suite_of`).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pytest

from scorpion_conformance.arguments import seconds
from scorpion_conformance.client import AdapterClient
from scorpion_conformance.errors import AdapterError, AdapterGaveUp
from scorpion_conformance.escaping import terminal_text
from scorpion_conformance.protocol import HelloInfo
from scorpion_conformance.transport import split_command
from scorpion_conformance.writing import why
from scorpion_shared.vocabulary import DEFAULT_ADAPTER

from .expectations import Expectations, ExpectationsError, load_expectations, unknown_keys
from .naming import AreaError, area_of, parse_areas
from .reporting import Record
from .selection import feature_folders

T = TypeVar("T")

__all__ = ["SUITE", "NotRun", "Suite", "SuiteUsageError", "add_options", "suite_of"]


def add_options(parser: pytest.Parser) -> None:
    """The suite's command-line options, as ``pytest`` shows them."""
    group = parser.getgroup("scorpion", "Scorpion conformance suite")
    group.addoption("--adapter", default=None,
                    help="command that starts the adapter (default: the reference adapter)")
    group.addoption("--adapter-timeout", type=seconds, default=5.0,
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


class NotRun(Exception):
    """The run gave up on the adapter before this case; it is not run."""


class SuiteUsageError(ValueError):
    """The run cannot go as asked (an unknown rule set, say): the user's to fix."""


@dataclass
class Suite:
    """The adapter and the bookkeeping of one session of the suite."""

    command: str
    timeout: float
    wanted_rules: tuple[str, ...] = ()
    expectations: Expectations = field(default_factory=Expectations)
    records: dict[str, Record] = field(default_factory=dict)
    #: The fault after which the run stopped starting the adapter.
    gave_up: AdapterGaveUp | None = None
    #: The signal that interrupted the run (SIGINT or SIGTERM), if one did.
    interrupted: int | None = None
    faulted: bool = False
    #: How many cases ended with answers out of step (see :meth:`out_of_step`).
    out_of_step_faults: int = 0
    #: Whether the handshake failed, so that no case could run.
    unusable: bool = False
    #: Lines for the end of the summary (what was written where).
    notes: list[str] = field(default_factory=list)
    #: The files asked for that could not be written (each a line saying why): the run fails.
    unwritten: list[str] = field(default_factory=list)
    #: The rule areas ``--area`` selected (None: every area).
    areas: frozenset[str] | None = None
    #: When the session started (ISO 8601, UTC).
    started: str = ""
    #: The node ids of the cases in collection order: the order of the report.
    order: list[str] = field(default_factory=list)
    #: In a parallel run's controller: the problem, and its diagnosis, of a worker that gave up.
    worker_gave_up: tuple[str, str] | None = None
    _client: AdapterClient | None = None
    _hello: HelloInfo | None = None

    @classmethod
    def from_config(cls, config: pytest.Config) -> Suite:
        """The suite a pytest configuration asks for; raises :class:`pytest.UsageError` naming
        the option that is wrong."""
        wanted_rules = tuple(n.strip() for n in (config.getoption("rules") or "").split(",") if n.strip())
        timeout = config.getoption("adapter_timeout")
        command = config.getoption("adapter") or DEFAULT_ADAPTER
        try:
            split_command(command)
        except ValueError as error:
            raise pytest.UsageError(f"--adapter: {error}") from None
        suite = cls(command, timeout, wanted_rules)
        expect = config.getoption("expect")
        folders = feature_folders(config.args)
        try:
            if expect:
                suite.expectations = load_expectations(Path(expect))
                unknown_keys(suite.expectations, Path(expect), folders)
            areas = [area_of(f) for folder in folders for f in sorted(folder.glob("*.feature"))]
            suite.areas = parse_areas(config.getoption("scorpion_areas"), areas)
        except (ExpectationsError, AreaError) as error:
            raise pytest.UsageError(terminal_text(error, lines=True)) from None
        return suite

    def start(self) -> HelloInfo:
        """Start the adapter and shake hands; raises an :class:`AdapterError`."""
        if self._hello is None:
            self._client = AdapterClient(self.command, timeout=self.timeout)
            self._hello = self._client.hello()
        return self._hello

    @property
    def hello(self) -> HelloInfo | None:
        return self._hello

    def client(self) -> AdapterClient:
        """A client in step for the next case; raises :class:`NotRun` after giving up."""
        if self.gave_up is not None:
            raise NotRun(f"not run: the run gave up on the adapter ({self.gave_up.problem.split('.')[0]})")
        self.start()
        assert self._client is not None
        if self.faulted:
            self.faulted = False
            try:
                self._client.restart()
            except AdapterGaveUp as error:
                self.gave_up = error
                self._client.kill()
                raise
            except AdapterError:
                self.faulted = True  # try again before the next case, up to the cap
                raise
        return self._client

    def out_of_step(self, error: AdapterError) -> None:
        """Count a case whose answers were out of step; give up after :data:`OUT_OF_STEP_CAP`.

        An adapter that writes lines nobody asked for is a broken adapter program,
        however often it gets a game started: after a few such cases the run stops
        starting it (one diagnosis, the rest *not run*) instead of restarting it
        before every case.
        """
        self.out_of_step_faults += 1
        if self.out_of_step_faults >= OUT_OF_STEP_CAP and self.gave_up is None:
            self.gave_up = AdapterGaveUp(
                f"the adapter's answers were out of step with the requests in {self.out_of_step_faults}"
                " cases (it writes lines nobody asked for). This is a fault of the adapter program,"
                " not of the implementation behind it: write exactly one line per request, and echo"
                " each request's id. Try `scorpion-conformance check-adapter`.",
                last_error=error, adapter=self.command, request=error.request,
                stderr_tail=error.stderr_tail,
            )
            if self._client is not None:
                self._client.kill()

    def declared(self) -> dict[str, dict[str, str]]:
        """Rule set name → options, for the declared sets this run uses.

        Raises :class:`SuiteUsageError` when ``wanted_rules`` names a set the
        adapter does not declare.
        """
        hello = self.start()
        rulesets: Mapping[str, dict[str, str]] = hello.rulesets_resolved()
        if not self.wanted_rules:
            return dict(rulesets)
        unknown = [name for name in self.wanted_rules if name not in rulesets]
        if unknown:
            raise SuiteUsageError(
                f"--rules names {', '.join(unknown)}, which the adapter does not declare;"
                f" it declares {', '.join(rulesets) or 'none'}"
            )
        return {name: rulesets[name] for name in self.wanted_rules}

    def ending(self) -> str:
        """How the run ended: ``complete``, ``interrupted`` or ``gave-up``."""
        if self.interrupted is not None:
            return "interrupted"
        return "gave-up" if self.gave_up is not None or self.worker_gave_up is not None else "complete"

    def written(self, option: str, path: str, write: Callable[[], T]) -> T | None:
        """``write()``'s result; when it raises :class:`OSError`, None, the file said on stderr
        at once as not written, and the run failing (:meth:`exit_status`)."""
        try:
            return write()
        except OSError as error:
            self.unwritten.append(f"{option} {path}: cannot write it: {why(error)}")
            print(f"scorpion-conformance run: {self.unwritten[-1]}", file=sys.stderr)
            return None

    def exit_status(self, status: int) -> int:
        """The run's exit status: 130 (SIGINT) and 143 (SIGTERM) on an interrupt."""
        if self.interrupted is not None:
            return 128 + self.interrupted
        if self.unwritten and status in (0, 1):
            return 4  # pytest's usage error, which `run` turns into 2: as a path it cannot write
        if (self.gave_up is not None or self.worker_gave_up is not None) and status == 0:
            return 1
        return status

    def close(self) -> None:
        """End the adapter: politely after a whole run, at once after an interrupt."""
        if self._client is None:
            return
        if self.interrupted is not None or self.gave_up is not None:
            self._client.kill()
        else:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client.kill()


#: After this many cases with answers out of step, the run gives up on the adapter.
OUT_OF_STEP_CAP = 3

#: The signals that end a run cleanly.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: Where a pytest configuration keeps its :class:`Suite`.
SUITE = pytest.StashKey[Suite]()


def suite_of(config: object) -> Suite | None:
    """The suite's state in a pytest configuration, if the suite ran there."""
    return config.stash.get(SUITE, None) if isinstance(config, pytest.Config) else None
