"""The scenarios as data: every feature file read with the Gherkin parser.

``load_cases()`` reads the feature files that ship with the suite (or any
folder) and returns one :class:`Case` per scenario, one per example row for a
``Scenario Outline``. A case knows its id, tags, the option values and
capabilities it needs, and its steps as instructions of the step library.
:func:`read_feature` reads one file (its Gherkin document and its cases).
The lint (:mod:`.lint`), ``scorpion-conformance export`` and the docs site all
read the scenarios through here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from gherkin.errors import CompositeParserException
from gherkin.parser import Parser
from pytest_bdd.exceptions import GherkinParseError
from pytest_bdd.gherkin_parser import GherkinDocument
from pytest_bdd.gherkin_parser import Scenario as GherkinScenario
from pytest_bdd.parser import PARAM_RE, Feature, FeatureParser, Rule, ScenarioTemplate, render_string

from ..notation import NotationError
from .execute import empty_position, fold_given
from .library import UnknownStep, build_instruction
from .tags import CATALOGUE_TAG, NAMED_RULESETS, SYNTHETIC_TAG, matches, requirements, scenario_id

__all__ = [
    "Case",
    "FeatureFile",
    "FeatureProblem",
    "StepLine",
    "duplicate_name_problems",
    "duplicate_names",
    "export_records",
    "feature_dir",
    "feature_files",
    "load_cases",
    "parse_document",
    "read_feature",
    "read_text",
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
    #: The line of each row of the table.
    table_lines: tuple[int, ...] = ()
    #: Whether the text or table holds an outline's ``<parameter>``.
    from_example: bool = False


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
    #: The line of the example row of an outline case.
    example_line: int | None = None

    @property
    def case_id(self) -> str:
        """The id, with ``/n`` for the n-th example row of an outline."""
        base = self.id or "?"
        return f"{base}/{self.example_index}" if self.example_index is not None else base

    @property
    def catalogue(self) -> list[str]:
        """The catalogue rules this case tests."""
        return sorted(t for t in self.tags if CATALOGUE_TAG.match(t))

    @property
    def synthetic(self) -> bool:
        """Whether its start position is one no game reaches from a deal (``@synthetic``)."""
        return SYNTHETIC_TAG in self.tags

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
    """The ``.feature`` files of a folder (the shipped one by default); a file is itself alone."""
    folder = directory or feature_dir()
    return [folder] if folder.is_file() else sorted(folder.glob("*.feature"))


def read_text(path: Path) -> str:
    """The text of a feature file; raises :class:`FeatureProblem` for bytes that are not UTF-8
    (naming the line and the byte offset) and for a file that cannot be read.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     bad = Path(folder, "bad.feature")
    ...     _ = bad.write_bytes(b"Feature: caf\\xe9\\n")
    ...     try:
    ...         read_text(bad)
    ...     except FeatureProblem as error:
    ...         print(error.line, error.problem)
    1 not UTF-8: byte 0xe9 at offset 12 cannot be read; save the file as UTF-8
    """
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FeatureProblem(str(path), 1, f"cannot be read: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FeatureProblem(
            str(path), line,
            f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start} cannot be read; "
            "save the file as UTF-8",
        ) from None


_TOKENS = {
    "#EOF": "the end of the file", "#TableRow": "a table row", "#DocStringSeparator": "a doc string",
    "#StepLine": "a step", "#TagLine": "a tag", "#FeatureLine": "Feature:",
    "#BackgroundLine": "Background:", "#ScenarioLine": "Scenario:", "#ExamplesLine": "Examples:",
    "#RuleLine": "Rule:", "#Other": "text",
}
_EXPECTED = re.compile(r"expected: (?P<tokens>.*), got '(?P<got>.*)'$")
_WHERE = re.compile(r"^\((?P<line>\d+):\d+\): ")


def _syntax_message(raw: str) -> str:
    """The Gherkin parser's message in a reader's words."""
    text = _WHERE.sub("", raw.strip())
    expected = _EXPECTED.search(text)
    if expected:
        wanted = [_TOKENS[t] for t in expected["tokens"].split(", ") if t in _TOKENS]
        got = expected["got"].strip()
        return f"syntax error: cannot read {got!r} here; expected one of: {', '.join(wanted)}"
    if "inconsistent cell count" in text:
        return "malformed table: this row has a different number of cells from the rows above"
    return f"syntax error: {text}"


def parse_document(path: Path, text: str) -> tuple[GherkinDocument | None, list[FeatureProblem]]:
    """The Gherkin document of a file (None when it holds no ``Feature:``), or every syntax error.

    The lint, the reading of the cases and the collection (:mod:`.binding`) all ask for it:
    one text is parsed once per process, whatever path names it.
    """
    document, errors = _parse_text(text)
    return document, [FeatureProblem(str(path), line, message) for line, message in errors]


@functools.lru_cache(maxsize=64)
def _parse_text(text: str) -> tuple[GherkinDocument | None, tuple[tuple[int, str], ...]]:
    try:
        data = Parser().parse(text)
    except CompositeParserException as error:
        return None, tuple((int(e.location["line"]), _syntax_message(str(e))) for e in error.errors)
    except Exception as error:  # a single parser error, with or without a location
        location = getattr(error, "location", None) or {}
        return None, ((location.get("line") or 1, _syntax_message(str(error))),)
    if not data.get("feature"):
        return None, ()
    return GherkinDocument.from_dict(data), ()


class _Reader(FeatureParser):
    """pytest-bdd's feature parser over a document already read, keeping each example row's line."""

    def __init__(self, path: Path, document: GherkinDocument) -> None:
        super().__init__(str(path.parent), path.name)
        self.document = document
        self.row_lines: dict[int, list[int]] = {}

    def _parse_feature_file(self) -> GherkinDocument:
        return self.document

    def parse_scenario(
        self, scenario_data: GherkinScenario, feature: Feature, rule: Rule | None = None
    ) -> ScenarioTemplate:
        self.row_lines[scenario_data.location.line] = [
            row.location.line
            for examples in scenario_data.examples if examples.table_header is not None
            for row in examples.table_body or []
        ]
        return super().parse_scenario(scenario_data, feature, rule)


@dataclass(frozen=True)
class FeatureFile:
    """One feature file as read: its Gherkin document (None without a ``Feature:``) and its cases."""

    path: Path
    document: GherkinDocument | None
    cases: tuple[Case, ...]


def read_feature(path: Path) -> FeatureFile:
    """Read one feature file; raises :class:`FeatureProblem` at its first problem of reading.

    A run reads each file more than once (the lint, then the collection); a file that has
    not changed since (same size and modification time) is read once per process.
    """
    try:
        stat = path.stat()
    except OSError:
        return _read_feature.__wrapped__(path, -1, -1)  # read_text says what is wrong with it
    return _read_feature(path, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _read_feature(path: Path, _size: int, _mtime_ns: int) -> FeatureFile:
    document, problems = parse_document(path, read_text(path))
    if problems:
        raise problems[0]
    if document is None:
        return FeatureFile(path, None, ())
    reader = _Reader(path, document)
    try:
        feature = reader.parse()
    except GherkinParseError as error:  # pytest-bdd's own checks, such as a first step "And"
        raise FeatureProblem(str(path), error.line, f"syntax error: {error.message}") from None
    cases: list[Case] = []
    for template in feature.scenarios.values():
        cases.extend(_cases_of(template, path, reader.row_lines.get(template.line_number, [])))
    return FeatureFile(path, document, tuple(cases))


def _cases_of(template: ScenarioTemplate, path: Path, row_lines: list[int]) -> Iterable[Case]:
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
        yield Case(name=template.name, steps=_steps(template, {}), **common)
        return
    for index, context in enumerate(contexts, start=1):
        yield Case(
            name=template.name, steps=_steps(template, context),
            example=dict(context), example_index=index,
            example_line=row_lines[index - 1] if index <= len(row_lines) else None, **common,
        )


def _has_parameter(step: Any) -> bool:
    """Whether a step as written holds an outline's ``<parameter>``, in its text or table."""
    cells = [str(c) for row in step.datatable.raw() for c in row] if step.datatable is not None else []
    return any(PARAM_RE.search(text) for text in (step.name, *cells))


def _steps(template: ScenarioTemplate, context: Mapping[str, str]) -> tuple[StepLine, ...]:
    # An example row's values put into the steps' text and table cells, as pytest-bdd's
    # ScenarioTemplate.render does (its copy of every table is the costly part, and not needed).
    return tuple(
        StepLine(
            type=step.type, keyword=step.keyword, text=render_string(step.name, context),
            line=step.line_number,
            table=tuple(tuple(render_string(str(c), context) for c in row) for row in step.datatable.raw())
            if step.datatable is not None else None,
            table_lines=tuple(row.location.line for row in step.datatable.rows)
            if step.datatable is not None else (),
            from_example=bool(context) and _has_parameter(step),
        )
        for step in template.steps
    )


def load_cases(directory: Path | None = None) -> list[Case]:
    """Every case of every feature file, in file and line order.

    Raises :class:`FeatureProblem` for a file that cannot be read.
    """
    cases: list[Case] = []
    for path in feature_files(directory):
        cases.extend(read_feature(path).cases)
    return sorted(cases, key=lambda c: (c.file, c.line, c.example_index or 0))


def duplicate_name_problems(path: Path, document: GherkinDocument) -> list[FeatureProblem]:
    """Scenario names used twice in one file (pytest-bdd would silently keep only one)."""
    problems = []
    seen: dict[str, int] = {}
    children = list(document.feature.children) if document.feature else []
    while children:
        child = children.pop(0)
        if child.rule:
            children.extend(child.rule.children)
        elif child.scenario:
            name, line = child.scenario.name, child.scenario.location.line
            if name in seen:
                problems.append(FeatureProblem(
                    str(path), line, f"scenario name {name!r} already used at line {seen[name]}"
                ))
            seen.setdefault(name, line)
    return problems


def duplicate_names(directory: Path | None = None) -> list[str]:
    """Scenario names used twice in one file, as ``file:line: ...`` lines.

    Raises :class:`FeatureProblem` for a file that cannot be read.
    """
    problems = []
    for path in feature_files(directory):
        document = read_feature(path).document
        if document is not None:
            problems += [str(p) for p in duplicate_name_problems(path, document)]
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
            "synthetic": case.synthetic,
            "start": plan["start"],
            "steps": plan["steps"],
            "source": f"{Path(case.file).name}:{case.line}",
        })
    return records
