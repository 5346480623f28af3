"""How the tests spread over pytest-xdist's workers (``tests/spreading.py``): the workers' groups
files, written side by side, reach the controller's scheduler whole."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import spreading


def test_workers_writing_their_groups_at_once_never_collide(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Both workers have written their file before either renames it: a temporary name they
    # shared was renamed by the first, and the second's rename then failed (a run's INTERNALERROR).
    target = tmp_path / "groups.json"
    both_written = threading.Barrier(2, timeout=30)
    replace = os.replace

    def replace_when_both_wrote(source: Any, destination: Any) -> None:
        both_written.wait()
        replace(source, destination)

    monkeypatch.setattr(spreading.os, "replace", replace_when_both_wrote)
    failures: list[BaseException] = []

    def publish(worker: str) -> None:
        config = SimpleNamespace(workerinput={spreading.KEY: str(target), "workerid": worker})
        try:
            spreading.publish_groups(config, [])  # type: ignore[arg-type]
        except BaseException as error:  # reported below, in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=publish, args=(worker,)) for worker in ("gw0", "gw1")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(path.name for path in tmp_path.iterdir()) == ["groups.json.gw0", "groups.json.gw1"]
    assert all(json.loads(path.read_text()) == {} for path in tmp_path.iterdir())
