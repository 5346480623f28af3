"""The JUnit XML and Cucumber JSON files of a run: pytest's and pytest-bdd's, put right.

JUnit groups the cases by rule area (the ``classname`` is the area, such as
``stock``, not the binding file), carries how the run ended and the adapter as
properties of the test suite, and lists the cases in collection order; so does
the Cucumber file. A run in parallel workers writes the same two files as a
run without (only the times differ).

>>> classname_of(object()) is None
True
"""

from __future__ import annotations

from typing import Any

import pytest

from .parallel import AREA

__all__ = ["classname_of", "mark_junit", "order_reports", "set_classname"]


def _xml(config: pytest.Config | None) -> Any:
    """pytest's JUnit writer of this session, or None."""
    if config is None:
        return None
    from _pytest.junitxml import xml_key

    return config.stash.get(xml_key, None)


def classname_of(report: object) -> str | None:
    """The rule area a test report carries (see :func:`.parallel.attach`), or None."""
    area = getattr(report, AREA, None)
    return area if isinstance(area, str) and area else None


def set_classname(config: pytest.Config | None, report: pytest.TestReport) -> None:
    """Before JUnit records the report: its case's class is its rule area.

    JUnit keeps the attributes set before it first records a case.
    """
    area, xml = classname_of(report), _xml(config)
    if area is not None and xml is not None:
        xml.node_reporter(report).attrs["classname"] = area


def mark_junit(config: pytest.Config, ending: str, adapter: str) -> None:
    """Say in the JUnit file how the run ended, and which adapter ran, as suite properties."""
    xml = _xml(config)
    if xml is not None:
        xml.add_global_property("scorpion_run", ending)
        xml.add_global_property("scorpion_adapter", adapter)


def order_reports(config: pytest.Config, order: list[str]) -> None:
    """Put the cases of the JUnit and Cucumber files in collection order, as without workers.

    Workers finish their cases in any order; both files are written after this, at the session's end.
    """
    place = {nodeid: index for index, nodeid in enumerate(order)}
    by_name = {nodeid.rsplit("::", 1)[-1]: index for nodeid, index in place.items()}
    last = len(place)
    xml = _xml(config)
    if xml is not None:
        # A finished test case keeps only its XML element, whose name is the case's test name.
        xml.node_reporters_ordered.sort(
            key=lambda reporter: by_name.get(str(reporter.to_xml().get("name")), last))
    cucumber = getattr(config, "_bddcucumberjson", None)
    if cucumber is not None:
        for feature in cucumber.features.values():
            feature["elements"].sort(key=lambda element: by_name.get(str(element["id"]), last))
        first = {key: min((by_name.get(str(e["id"]), last) for e in f["elements"]), default=last)
                 for key, f in cucumber.features.items()}
        cucumber.features = dict(sorted(cucumber.features.items(), key=lambda kv: first[kv[0]]))


