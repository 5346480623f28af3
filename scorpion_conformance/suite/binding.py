"""Bind a folder of ``.feature`` files to pytest-bdd, with no ``test_scenarios.py`` to copy.

``scorpion-conformance run`` loads this module as a pytest plugin
(``-p scorpion_conformance.suite.binding``). Each ``.feature`` file that
pytest meets is collected as a module of its own whose tests are that file's
scenarios, so node ids read ``deal.feature::test_...[DEAL-001-standard]``.
A folder that also carries its own binding file can still be run with plain
``pytest DIR --adapter CMD``, without this plugin.

pytest-bdd is handed each file's Gherkin document as :mod:`.scenarios` parsed
it (for the lint, just before): a run parses each file once, not twice.

>>> FEATURE_SUFFIX
'.feature'
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import feature as bdd_features
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import GherkinDocument
from pytest_bdd.parser import Feature, FeatureParser

from .scenarios import FeatureProblem, parse_document, read_text

__all__ = ["FEATURE_SUFFIX", "FeatureModule", "parsed_feature", "pytest_collect_file"]

FEATURE_SUFFIX = ".feature"

_BIND = "from pytest_bdd import scenarios as _scenarios\n_scenarios(_FEATURE_FILE)\n"


class _Parsed(FeatureParser):
    """pytest-bdd's feature parser over a Gherkin document already parsed."""

    def __init__(self, path: Path, document: GherkinDocument) -> None:
        super().__init__(str(path.parent), path.name)
        self.document = document

    def _parse_feature_file(self) -> GherkinDocument:
        return self.document


def parsed_feature(path: Path) -> Feature | None:
    """pytest-bdd's reading of a feature file, made from the document this process parsed;
    None where pytest-bdd must read the file itself, to report what is wrong in its own words
    (or to read ``\\r\\n`` line ends as its text mode does)."""
    try:
        text = read_text(path)
    except FeatureProblem:
        return None
    if "\r" in text:
        return None
    document, problems = parse_document(path, text)
    if problems or document is None:
        return None
    try:
        return _Parsed(path, document).parse()
    except GherkinParseError:
        return None


class FeatureModule(pytest.Module):
    """One feature file, collected as a module holding one test per scenario."""

    def _getobj(self) -> Any:
        feature = parsed_feature(self.path)
        if feature is not None:  # where pytest-bdd looks first (keyed by the absolute path)
            bdd_features.features[feature.filename] = feature
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
