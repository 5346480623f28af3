"""A stop signal in the window where the suite's plugin has taken the signals over but ``run``'s
observer has not yet seen pytest's configuration (it configures last).

pytest then ends with no session to finish, so the plugin writes no report. The
run must still exit 128 + the signal and write every report as interrupted.
Under a loaded machine a signal 2 s into a run landed there; this holds the
path without depending on timing.
"""

from __future__ import annotations

import argparse
import json
import signal
from pathlib import Path

from scorpion_conformance.suite import stopping


def test_a_signal_noted_before_the_observer_saw_the_configuration_still_writes_interrupted_reports(
        tmp_path: Path) -> None:
    report, junit = tmp_path / "report.jsonl", tmp_path / "junit.xml"
    stopping.hold()
    try:
        stopping.note(signal.SIGTERM)  # what the plugin's handler does, before it raises KeyboardInterrupt
        observer = stopping.Observer()  # its pytest_configure never ran
        code = stopping.settle(argparse.Namespace(adapter="an-adapter"),
                               {"report": report, "junitxml": junit}, observer, 2)  # pytest: INTERRUPTED
    finally:
        stopping.release()
    assert code == 143
    end = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    assert end["end"] is True and end["run"] == "interrupted" and end["signal"] == "SIGTERM"
    assert 'name="scorpion_run" value="interrupted"' in junit.read_text(encoding="utf-8")
    assert stopping.held() is None, "release forgets the noted signal"


def test_without_a_signal_a_finished_run_is_not_called_stopped() -> None:
    stopping.hold()
    try:
        observer = stopping.Observer()
        observer.finished = True
        assert stopping.settle(argparse.Namespace(adapter="a"), {}, observer, 0) is None
    finally:
        stopping.release()


def test_the_plugins_handler_notes_the_signal_it_acts_on() -> None:
    from types import SimpleNamespace

    import pytest

    suite = SimpleNamespace(interrupted=None)
    stopping.hold()
    try:
        stopping.catch_signals(suite, None)  # type: ignore[arg-type]
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        assert stopping.held() == signal.SIGINT and suite.interrupted == signal.SIGINT
    finally:
        stopping.release()
