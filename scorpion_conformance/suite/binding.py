"""Bind a folder of ``.feature`` files to pytest-bdd, with no ``test_scenarios.py`` to copy.

``scorpion-conformance run`` loads this module as a pytest plugin
(``-p scorpion_conformance.suite.binding``). Each ``.feature`` file that
pytest meets is collected as a module of its own whose tests are that file's
scenarios, so node ids read ``deal.feature::test_...[DEAL-001-standard]``.
A folder that also carries its own binding file can still be run with plain
``pytest DIR --adapter CMD``, without this plugin.

>>> FEATURE_SUFFIX
'.feature'
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

__all__ = ["FEATURE_SUFFIX", "FeatureModule", "pytest_collect_file"]

FEATURE_SUFFIX = ".feature"

_BIND = "from pytest_bdd import scenarios as _scenarios\n_scenarios(_FEATURE_FILE)\n"


class FeatureModule(pytest.Module):
    """One feature file, collected as a module holding one test per scenario."""

    def _getobj(self) -> Any:
        module = types.ModuleType(f"scorpion_features.{self.path.stem}")
        module.__file__ = str(self.path)
        namespace: dict[str, Any] = module.__dict__
        namespace["_FEATURE_FILE"] = str(self.path)
        # pytest-bdd puts the scenarios into the namespace of the module that calls it.
        exec(compile(_BIND, str(self.path), "exec"), namespace)
        return module


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A ``.feature`` file becomes a :class:`FeatureModule`."""
    if file_path.suffix == FEATURE_SUFFIX:
        return FeatureModule.from_parent(parent, path=file_path)
    return None
