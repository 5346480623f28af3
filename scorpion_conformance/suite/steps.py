"""The pytest-bdd binding of the step library: three steps read every sentence.

Each keyword has one step whose parser asks :mod:`.library` which sentence it
is; the step turns it into an instruction and hands it to the scenario's
:class:`~.execute.ScenarioRun`. Adding a sentence to the library adds it here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from pytest_bdd import given, then, when
from pytest_bdd.parsers import StepParser

from ..notation import NotationError
from .execute import ScenarioRun, UnsupportedStart
from .library import build_instruction, find_step
from .reporting import UNSUPPORTED

__all__ = ["LibraryParser"]


class LibraryParser(StepParser):
    """Matches every sentence of one keyword in the step library."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"<scorpion {kind} step>")
        self.kind = kind

    def is_matching(self, name: str) -> bool:
        try:
            return find_step(self.kind, name) is not None
        except NotationError:
            return True  # known sentence, bad card: let the step report it

    def parse_arguments(self, name: str) -> dict[str, Any]:
        return {"sentence": name}


@contextmanager
def _unsupported_is_a_skip() -> Iterator[None]:
    """A synthetic start the adapter cannot represent makes the case unsupported."""
    try:
        yield
    except UnsupportedStart as unsupported:
        pytest.skip(f"{UNSUPPORTED}: {unsupported}")


@given(LibraryParser("given"))
def _(scorpion_run: ScenarioRun, sentence: str, datatable: list[list[str]] | None = None) -> None:
    scorpion_run.given(build_instruction("given", sentence, datatable))


@when(LibraryParser("when"))
def _(scorpion_run: ScenarioRun, sentence: str, datatable: list[list[str]] | None = None) -> None:
    with _unsupported_is_a_skip():
        scorpion_run.do(build_instruction("when", sentence, datatable))


@then(LibraryParser("then"))
def _(scorpion_run: ScenarioRun, sentence: str, datatable: list[list[str]] | None = None) -> None:
    with _unsupported_is_a_skip():
        scorpion_run.expect(build_instruction("then", sentence, datatable))
