"""Stopping a run cleanly: SIGINT and SIGTERM at any moment, before the cases too.

Once the suite's plugin is configured it takes the signals over
(:func:`catch_signals`): a signal stops the cases at once, and the session
writes every report as *interrupted*. Before that (the lint, pytest's own
start, the handshake) pytest writes nothing, and a ``KeyboardInterrupt``
raised in the middle of an import can even make Python itself exit by the
signal whatever the program returns. So ``run`` *holds* the signals from its
start: a signal is only noted (:func:`hold`), the run stops at the next safe
point, and :func:`settle` writes each report asked for as interrupted, with
no case in it, and ends the adapter. The exit status is 128 plus the signal's
number: 130 for SIGINT, 143 for SIGTERM.

>>> hold()
>>> held() is None
True
>>> release()
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import pluggy

if TYPE_CHECKING:  # the rest is imported when needed: `run` holds the signals before it loads pytest
    import pytest

    from .session import Suite

__all__ = ["STOP_SIGNALS", "Observer", "catch_signals", "held", "hold", "interrupted", "note", "release",
           "settle"]

#: The signals that stop a run (exit 128 + the signal's number).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

_held: list[int] = []
_previous: dict[int, Any] = {}
_hookimpl = pluggy.HookimplMarker("pytest")


def _note(signum: int, _frame: FrameType | None) -> None:
    _held.append(signum)


def hold() -> None:
    """From now on SIGINT and SIGTERM are only noted, until the plugin takes them over.

    Only the main thread can set signal handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in STOP_SIGNALS:
        if signum not in _previous:
            _previous[signum] = signal.getsignal(signum)
        signal.signal(signum, _note)


def release() -> None:
    """Give SIGINT and SIGTERM back the handlers they had before :func:`hold`; forget the noted ones."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum, handler in _previous.items():
        signal.signal(signum, signal.SIG_DFL if handler is None else handler)
    _previous.clear()
    _held.clear()


def note(signum: int) -> None:
    """Note a stop signal that the suite's plugin acted on once it had taken the signals over.

    The plugin takes them over while pytest configures itself, before ``run``'s
    :class:`Observer` has seen the configuration (it configures last). A signal
    in between leaves pytest with no session to finish, so no report is written
    by the plugin; noted here, :func:`settle` still knows the run was stopped,
    and by which signal, and writes the reports as interrupted.
    """
    _held.append(signum)


def held() -> int | None:
    """The first stop signal noted while held, if any."""
    return _held[0] if _held else None


def catch_signals(suite: Suite, config: pytest.Config) -> None:
    """From now on SIGINT and SIGTERM stop the run at once, and the run knows it was stopped; a
    controller passes SIGTERM on to its workers (a Ctrl-C reaches them with the process group)."""
    from . import parallel

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, _frame: FrameType | None) -> None:
        note(signum)
        if suite.interrupted is None:
            suite.interrupted = signum
            if signum == signal.SIGTERM and parallel.is_controller(config):
                parallel.stop_workers(signum)
        raise KeyboardInterrupt

    for signum in STOP_SIGNALS:
        signal.signal(signum, stop)


def interrupted(config: pytest.Config) -> None:
    """pytest saw a KeyboardInterrupt: unless a signal already said which, the run was stopped by SIGINT."""
    from .session import suite_of

    suite = suite_of(config)
    if suite is not None and suite.interrupted is None:
        suite.interrupted = signal.SIGINT


class Observer:
    """A pytest plugin of ``run``'s own: the configuration, and whether the session finished."""

    config: object = None
    finished = False

    @_hookimpl(trylast=True)
    def pytest_configure(self, config: Any) -> None:
        """Once the suite's plugin has taken the signals over, act on one noted before."""
        self.config = config
        signum = held()
        if signum is not None:
            from .session import suite_of

            suite = suite_of(config)
            if suite is not None and suite.interrupted is None:
                suite.interrupted = signum
            raise KeyboardInterrupt

    @_hookimpl(trylast=True)
    def pytest_sessionfinish(self) -> None:
        self.finished = True


def settle(args: argparse.Namespace, outputs: dict[str, Path], observer: Observer | None,
           code: int | None) -> int | None:
    """After pytest (or instead of it, with no ``observer``): the exit status of a stopped run.

    ``code`` is pytest's, or None when an interrupt ended it; ``outputs`` are the
    reports asked for, by option. Returns None when the run was not stopped.
    """
    from .session import suite_of

    suite = suite_of(observer.config) if observer is not None else None
    stopped = held() or (suite.interrupted if suite is not None else None)
    finished = observer is not None and observer.finished
    if finished and code is None:  # stopped as pytest ended, after its reports were written
        return 128 + (stopped or signal.SIGINT)
    if finished or (code is not None and stopped is None):
        return None
    return _interrupted_before_the_cases(args, outputs, suite, stopped or signal.SIGINT)


def _interrupted_before_the_cases(args: argparse.Namespace, outputs: dict[str, Path], suite: Any,
                                  signum: int) -> int:
    """Write each report asked for as interrupted (no case finished), and end the adapter."""
    from scorpion_conformance.writing import why, write_file
    from scorpion_shared.vocabulary import DEFAULT_ADAPTER

    from .reporting import write_report

    hold()  # another Ctrl-C must not cut these files short
    if suite is not None:
        suite.interrupted = suite.interrupted or signum
        suite.close()
    name = signal.Signals(signum).name
    command = args.adapter or DEFAULT_ADAPTER
    hello = suite.hello if suite is not None else None
    facts = {"run": "interrupted", "signal": name, "adapter": command,
             "implementation": str(hello.implementation) if hello is not None else None}
    writers: dict[str, Any] = {
        "report": lambda path: write_report(path, [], facts),
        "junitxml": lambda path: write_file(path, lambda out: out.write(_empty_junit(command))),
        "cucumberjson": lambda path: write_file(path, lambda out: out.write("[]\n")),
    }
    for option, path in outputs.items():
        try:
            writers[option](path)
        except OSError as error:
            print(f"scorpion-conformance run: {path}: cannot write it: {why(error)}", file=sys.stderr)
    print(f"scorpion-conformance run: interrupted by {name} before any scenario ran; "
          "the reports say so", file=sys.stderr)
    return 128 + signum


def _empty_junit(command: str) -> str:
    """A JUnit file of no test case that says the run was interrupted.

    >>> "<property name=\\"scorpion_run\\" value=\\"interrupted\\" />" in _empty_junit("a.js")
    True
    """
    root = ElementTree.Element("testsuites")
    suite = ElementTree.SubElement(root, "testsuite", name="pytest", errors="0", failures="0",
                                   skipped="0", tests="0", time="0")
    properties = ElementTree.SubElement(suite, "properties")
    for key, value in (("scorpion_run", "interrupted"), ("scorpion_adapter", command)):
        ElementTree.SubElement(properties, "property", name=key, value=value)
    return '<?xml version="1.0" encoding="utf-8"?>' + ElementTree.tostring(root, encoding="unicode") + "\n"
