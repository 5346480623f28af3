"""Switches the suite's pytest plugin on only where the suite is being run.

This is the module the ``pytest11`` entry point loads into every pytest
session of an environment that has the package installed. It adds nothing:
no option, no marker, no fixture. It only looks at the command line, and
loads :mod:`scorpion_conformance.suite.plugin` when a path on it is a folder
of ``.feature`` files (or a file in one), as in ``pytest features --adapter
CMD``. ``scorpion-conformance run`` and ``-p scorpion_conformance.suite.plugin``
load the plugin themselves.

>>> holds_features("no/such/folder")
False
"""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["PLUGIN", "holds_features"]

PLUGIN = "scorpion_conformance.suite.plugin"


def holds_features(argument: str) -> bool:
    """Whether a command-line path is a folder of feature files, or a file in one."""
    path = Path(argument.split("::", 1)[0])
    try:
        folder = path if path.is_dir() else path.parent
        return path.exists() and any(folder.glob("*.feature"))
    except OSError:
        return False


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    manager = early_config.pluginmanager
    if manager.has_plugin(PLUGIN):
        return
    if any(holds_features(arg) for arg in args if not arg.startswith("-")):
        manager.import_plugin(PLUGIN)
