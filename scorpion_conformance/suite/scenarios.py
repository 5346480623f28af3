"""The scenarios as data: every feature file read with the Gherkin parser.

``load_cases()`` reads the feature files that ship with the suite (or any
folder) and returns one :class:`Case` per scenario, one per example row for a
``Scenario Outline``. A case knows its id, tags, the option values and
capabilities it needs, and its steps as instructions of the step library.
The lint test, ``scorpion-conformance export`` and the docs site all read the
scenarios through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pytest_bdd.gherkin_parser import get_gherkin_document
from pytest_bdd.parser import FeatureParser, ScenarioTemplate

from .execute import empty_position, fold_given
from .library import UnknownStep, build_instruction
from .notation import NotationError
from .tags import CATALOGUE_TAG, NAMED_RULESETS, matches, requirements, scenario_id

__all__ = [
    "Case",
    "FeatureProblem",
    "duplicate_names",
    "export_records",
    "feature_dir",
    "feature_files",
    "load_cases",
]


class FeatureProblem(ValueError):
    """A feature file that cannot be read, with the file and line where it goes wrong."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")
        self.path, self.line, self.problem = path, line, problem


@dataclass(frozen=True)
class StepLine:
    """One step as written: its keyword type, text, table and line."""

    type: str
    keyword: str
    text: str
    line: int
    table: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class Case:
    """One scenario, or one example row of an outline."""

    id: str | None
    name: str
    feature: str
    rule: str | None
    file: str
    line: int
    tags: frozenset[str]
    steps: tuple[StepLine, ...]
    example: Mapping[str, str] | None = None
    example_index: int | None = None
    description: str = field(default="", compare=False)

    @property
    def case_id(self) -> str:
        """The id, with ``/n`` for the n-th example row of an outline."""
        base = self.id or "?"
        return f"{base}/{self.example_index}" if self.example_index is not None else base

    @property
    def catalogue(self) -> list[str]:
        """The catalogue rules this case tests."""
        return sorted(t for t in self.tags if CATALOGUE_TAG.match(t))

    def requires(self) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
        return requirements(self.tags)

    def rulesets(self, declared: Mapping[str, Mapping[str, str]] = NAMED_RULESETS) -> list[str]:
        """The rule sets (of ``declared``) under which this case runs."""
        options, _ = self.requires()
        return [name for name, values in declared.items() if matches(values, options)]

    def instructions(self) -> list[dict[str, Any]]:
        """The steps as instructions; raises :class:`FeatureProblem` at the bad step."""
        result = []
        for step in self.steps:
            table = [list(row) for row in step.table] if step.table is not None else None
            try:
                result.append(build_instruction(step.type, step.text, table))
            except (UnknownStep, NotationError) as error:
                raise FeatureProblem(self.file, step.line, str(error)) from None
        return result

    def plan(self) -> dict[str, Any]:
        """The start position and the list of actions and expectations."""
        position = empty_position()
        steps = []
        for instruction in self.instructions():
            if "given" in instruction:
                position = fold_given(position, instruction)
            else:
                steps.append(instruction)
        return {"start": position, "steps": steps}


def feature_dir() -> Path:
    """The folder of the feature files that ship with the suite."""
    return Path(str(resources.files("scorpion_conformance.features")))


def feature_files(directory: Path | None = None) -> list[Path]:
    return sorted((directory or feature_dir()).glob("*.feature"))


def _cases_of(template: ScenarioTemplate, path: Path) -> Iterable[Case]:
    rule_tags = template.rule.tags if template.rule is not None else set()
    tags = frozenset(set(template.tags) | set(template.feature.tags) | set(rule_tags))
    common: dict[str, Any] = {
        "id": scenario_id(tags),
        "feature": template.feature.name,
        "rule": template.rule.name if template.rule is not None else None,
        "file": str(path),
        "line": template.line_number,
        "tags": tags,
        "description": template.description,
    }
    contexts = [c for examples in template.examples for c in examples.as_contexts()]
    if not contexts:
        yield Case(name=template.name, steps=_steps(template.render({})), **common)
        return
    for index, context in enumerate(contexts, start=1):
        yield Case(
            name=template.name, steps=_steps(template.render(context)),
            example=dict(context), example_index=index, **common,
        )


def _steps(scenario: Any) -> tuple[StepLine, ...]:
    return tuple(
        StepLine(
            type=step.type, keyword=step.keyword, text=step.name, line=step.line_number,
            table=tuple(tuple(str(c) for c in row) for row in step.datatable.raw())
            if step.datatable is not None else None,
        )
        for step in scenario.steps
    )


def _parse(path: Path) -> Any:
    try:
        return FeatureParser(str(path.parent), path.name).parse()
    except Exception as error:  # the Gherkin parser's errors carry their own line
        line = getattr(error, "line", None) or getattr(getattr(error, "location", None), "line", None)
        raise FeatureProblem(str(path), line, str(error).strip()) from None


def load_cases(directory: Path | None = None) -> list[Case]:
    """Every case of every feature file, in file and line order.

    Raises :class:`FeatureProblem` for a file the Gherkin parser cannot read.
    """
    cases: list[Case] = []
    for path in feature_files(directory):
        feature = _parse(path)
        for template in feature.scenarios.values():
            cases.extend(_cases_of(template, path))
    return sorted(cases, key=lambda c: (c.file, c.line, c.example_index or 0))


def duplicate_names(directory: Path | None = None) -> list[str]:
    """Scenario names used twice in one file (pytest-bdd would silently keep only one)."""
    problems = []
    for path in feature_files(directory):
        seen: dict[str, int] = {}
        document = get_gherkin_document(str(path))
        children = list(document.feature.children) if document.feature else []
        while children:
            child = children.pop(0)
            if child.rule:
                children.extend(child.rule.children)
            elif child.scenario:
                name, line = child.scenario.name, child.scenario.location.line
                if name in seen:
                    problems.append(
                        f"{path}:{line}: scenario name {name!r} already used at line {seen[name]}"
                    )
                seen.setdefault(name, line)
    return problems


def export_records(cases: Iterable[Case]) -> list[dict[str, Any]]:
    """Every case as a plain JSON-ready record, for projects that vendor the cases."""
    records = []
    for case in cases:
        options, capabilities = case.requires()
        plan = case.plan()
        records.append({
            "id": case.case_id,
            "name": case.name,
            "feature": case.feature,
            "rule": case.rule,
            "catalogue": case.catalogue,
            "requires": {"options": {k: list(v) for k, v in options.items()},
                         "capabilities": list(capabilities)},
            "rulesets": case.rulesets(),
            "start": plan["start"],
            "steps": plan["steps"],
            "source": f"{Path(case.file).name}:{case.line}",
        })
    return records
