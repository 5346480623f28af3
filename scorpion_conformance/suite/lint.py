"""The authoring lint: every problem of a folder of feature files, found before any adapter starts.

:func:`lint` reads each ``.feature`` file of a folder and returns every
authoring problem as a :class:`Problem` that prints as ``file:line: what is
wrong``: bytes that are not UTF-8, Gherkin syntax errors, malformed tables,
step sentences outside the step library (with the closest known ones), bad
cards, unknown or misspelt tags (with the closest known tag), catalogue tags
that name no rule of the catalogue, missing, malformed and duplicate ids,
duplicate scenario names, scenarios that have no Then step, and control
characters anywhere in the text (an escape in a scenario's name would act on
the terminal of whoever runs the suite).
``scorpion-conformance run``, ``export``, ``lint`` and the site build all run
it first and stop with exit status 4 on any problem.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = Path(folder, "a.feature").write_text(
...         "Feature: a\\n  @id:MOVE-901 @runs-colect\\n  Scenario: s\\n"
...         "    When the player deals the stock\\n    Then the stock is empty\\n", encoding="utf-8")
...     for problem in lint(Path(folder)):
...         print(problem.line, problem.message)
2 unknown tag @runs-colect; did you mean @runs-collect?
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml
from pytest_bdd.parser import PARAM_RE

from scorpion_conformance.escaping import CONTROL, terminal_text

from ..notation import NotationError, parse_card
from .library import LIBRARY, UnknownStep, build_instruction, find_step
from .scenarios import (
    Case,
    FeatureProblem,
    StepLine,
    duplicate_name_problems,
    feature_files,
    parse_document,
    read_feature,
    read_text,
)
from .tags import CAPABILITY_TAGS, CATALOGUE_TAG, ID_TAG, OPTION_TAGS, SYNTHETIC_TAG

__all__ = ["CATALOGUE_NAMES", "CODES", "Problem", "catalogue_ids", "lint", "suggest_steps", "suggest_tag"]

#: The catalogue's file names next to the reference engine, the new name first.
CATALOGUE_NAMES = ("catalogue.yaml", "rules.yaml")
KINDS = ("given", "when", "then")


#: The kinds of problem, as :attr:`Problem.code` names them.
CODES = (
    "unreadable", "not-utf8", "syntax", "table", "no-scenario", "unknown-step", "notation", "unknown-tag",
    "unfilled", "unknown-rule", "bad-id", "two-ids", "no-id", "duplicate-id", "duplicate-name", "no-then",
    "examples-tag", "control-character",
)


@dataclass(frozen=True, order=True)
class Problem:
    """One authoring problem: the file, the line (1-based), what is wrong, and its kind (of :data:`CODES`).

    >>> str(Problem("a.feature", 3, "unknown tag @x", "unknown-tag"))
    'a.feature:3: unknown tag @x'
    """

    path: str
    line: int
    message: str
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _from(error: FeatureProblem, code: str) -> Problem:
    if code == "syntax" and error.problem.startswith("malformed table"):
        code = "table"
    return Problem(error.path, error.line or 1, error.problem, code)


def catalogue_ids() -> frozenset[str]:
    """The rule ids of the catalogue that ships beside the reference engine.

    The file is found without importing the engine (the suite never does).
    Returns the empty set when no catalogue is found.
    """
    spec = importlib.util.find_spec("scorpion_ref")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for name in CATALOGUE_NAMES:
            path = Path(folder) / name
            if path.exists():
                # libyaml's loader where PyYAML has it: the catalogue is read on every run.
                loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
                data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}
                return frozenset(str(entry["id"]) for entry in data.get("rules") or [])
    return frozenset()


# -- steps ------------------------------------------------------------------------------------


def _shown(pattern: str) -> str:
    """A pattern as a reader writes it: ``{card:Card}`` becomes ``{card}``."""
    return re.sub(r"\{(\w+)(?::[^}]*)?\}", r"{\1}", pattern)


def _is_value(word: str) -> bool:
    word = word.strip(",[]")
    if word.isdigit():
        return True
    try:
        parse_card(word)
    except NotationError:
        return False
    return True


def _skeleton(sentence: str) -> str:
    """A sentence with its cards and numbers as ``#``, to compare with the patterns."""
    words = ["#" if _is_value(w) else w for w in sentence.split()]
    return re.sub(r"#( #)+", "#", " ".join(words))


def suggest_steps(kind: str, sentence: str, n: int = 3) -> list[str]:
    """The closest known step sentences of a keyword, best first (at least one).

    >>> suggest_steps("when", "the player drags 7♥ onto column 2")[0]
    'When the player moves {card} to column {column}'
    """
    patterns = {re.sub(r"\{[^}]*\}", "#", s.pattern): _shown(s.pattern) for s in LIBRARY if s.kind == kind}
    skeleton = _skeleton(sentence)
    close = difflib.get_close_matches(skeleton, list(patterns), n=n, cutoff=0.5)
    if not close:
        close = difflib.get_close_matches(skeleton, list(patterns), n=1, cutoff=0.0)
    return [f"{kind.title()} {patterns[p]}" for p in close]


def _unknown_step(step: StepLine) -> str:
    kind = step.type
    message = f"unknown {kind.title()} step {step.text!r}"
    other = []
    for k in KINDS:
        if k == kind:
            continue
        try:
            matched = find_step(k, step.text) is not None
        except NotationError:
            matched = True
        if matched:
            other.append(k.title())
    if other:
        return f"{message}; it is a {' or '.join(other)} step, not a {kind.title()} step"
    closest = ", ".join(repr(s) for s in suggest_steps(kind, step.text))
    return f"{message}; closest known: {closest}"


_TABLE_ROW = re.compile(r"^table row (\d+)")


def _unfilled(case: Case, step: StepLine) -> str | None:
    """What is wrong when a step still holds an outline's ``<parameter>`` after rendering."""
    cells = [cell for row in step.table or () for cell in row]
    names = sorted({m for text in (step.text, *cells) for m in PARAM_RE.findall(text)})
    if not names:
        return None
    shown = ", ".join(f"<{n}>" for n in names)
    if case.example is None:
        return f"{shown} is never filled in: the scenario has no Examples row"
    return f"{shown} is never filled in: the Examples have no column of that name"


def _step_problems(case: Case) -> Iterable[Problem]:
    for step in case.steps:
        table = [list(row) for row in step.table] if step.table is not None else None
        line = case.example_line if step.from_example and case.example_line else step.line
        where = f"the step at line {step.line}, filled from this example row: " if line != step.line else ""
        unfilled = _unfilled(case, step)
        if unfilled:
            yield Problem(case.file, step.line, unfilled, "unfilled")
            continue
        try:
            build_instruction(step.type, step.text, table)
        except UnknownStep:
            yield Problem(case.file, line, where + _unknown_step(step), "unknown-step")
        except NotationError as error:
            row = _TABLE_ROW.match(str(error))
            if row is None and repr(step.text) not in str(error):
                where = where or f"in the step {step.text!r}: "
            elif row is not None and not where and 0 < int(row[1]) <= len(step.table_lines):
                line = step.table_lines[int(row[1]) - 1]
            code = "table" if "data table" in str(error) else "notation"
            yield Problem(case.file, line, where + str(error), code)


# -- tags -------------------------------------------------------------------------------------


def suggest_tag(tag: str, catalogue: Collection[str]) -> str | None:
    """The known tag closest to a misspelt one, or None.

    >>> suggest_tag("runs-colect", set())
    'runs-collect'
    """
    known = [*OPTION_TAGS, *CAPABILITY_TAGS, SYNTHETIC_TAG, *sorted(catalogue)]
    close = difflib.get_close_matches(tag, known, n=1, cutoff=0.6)
    return close[0] if close else None


def _tag_problem(tag: str, catalogue: Collection[str]) -> tuple[str, str] | None:
    """What is wrong with a tag, and the code, or None."""
    if tag in OPTION_TAGS or tag in CAPABILITY_TAGS or tag == SYNTHETIC_TAG or ID_TAG.match(tag):
        return None
    if CATALOGUE_TAG.match(tag) and (tag in catalogue or not catalogue):
        return None
    if tag.lower().startswith("id:"):
        return f"@{tag} is not an id tag: write @id:AREA-NNN, such as @id:MOVE-004", "bad-id"
    guess = suggest_tag(tag, catalogue)
    hint = f"; did you mean @{guess}?" if guess else (
        "; the tags are the option tags (" + ", ".join(f"@{t}" for t in OPTION_TAGS)
        + "), " + ", ".join(f"@{t}" for t in CAPABILITY_TAGS)
        + f", @{SYNTHETIC_TAG}, @id:AREA-NNN and the catalogue's rule ids (@R-...)"
    )
    if CATALOGUE_TAG.match(tag):
        return f"@{tag} is not a rule of the catalogue{hint}", "unknown-rule"
    return f"unknown tag @{tag}{hint}", "unknown-tag"


def _tag_problems(path: Path, document: object, catalogue: Collection[str]) -> Iterable[Problem]:
    feature = getattr(document, "feature", None)
    if feature is None:
        return
    stack: list[object] = [feature]
    while stack:
        node = stack.pop()
        for tag in getattr(node, "tags", []):
            found = _tag_problem(tag.name.lstrip("@"), catalogue)
            if found:
                yield Problem(str(path), tag.location.line, *found)
        for child in getattr(node, "children", []):
            stack += [c for c in (child.rule, child.scenario) if c is not None]
        for examples in getattr(node, "examples", []):
            for tag in examples.tags:
                yield Problem(
                    str(path), tag.location.line,
                    f"tag {tag.name} on an Examples block: put it on the Scenario Outline "
                    "(pytest-bdd would make it a marker the suite does not read)", "examples-tag",
                )


def _table_row_problems(path: Path, text: str) -> Iterable[Problem]:
    """Table rows whose last cell is not closed by ``|`` (Gherkin drops that cell silently)."""
    for number, line in enumerate(text.splitlines(), start=1):
        row = line.strip()
        if row.startswith("|") and (not row.endswith("|") or row.endswith("\\|")):
            yield Problem(str(path), number, "malformed table: the row does not end with |", "table")


def _control_problems(path: Path, text: str) -> Iterable[Problem]:
    """Lines that hold a control character (a tab, or the ``\r`` of a line's ``\r\n``, is allowed)."""
    for number, line in enumerate(text.split("\n"), start=1):
        found = CONTROL.search(line.removesuffix("\r").replace("\t", " "))
        if found:
            said = terminal_text(found.group(0))
            yield Problem(str(path), number, f"a control character ({said}) in the text; a terminal would "
                          "act on it instead of showing it: remove it", "control-character")


# -- the lint ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scenario:
    """Where a scenario (all rows of an outline) starts and the id it carries."""

    path: Path
    line: int
    id: str | None


def _file_problems(path: Path, catalogue: Collection[str]) -> tuple[list[Problem], list[_Scenario]]:
    try:
        text = read_text(path)
    except FeatureProblem as error:
        return [_from(error, "not-utf8" if error.problem.startswith("not UTF-8") else "unreadable")], []
    problems = [*_table_row_problems(path, text), *_control_problems(path, text)]
    document, syntax = parse_document(path, text)
    if syntax:
        return problems + [_from(e, "syntax") for e in syntax], []
    try:
        cases = read_feature(path).cases
    except FeatureProblem as error:
        return [*problems, _from(error, "syntax")], []
    if document is None or not cases:
        return [*problems, Problem(str(path), 1, "no scenario in this file", "no-scenario")], []
    problems += _tag_problems(path, document, catalogue)
    problems += [_from(p, "duplicate-name") for p in duplicate_name_problems(path, document)]
    scenarios: dict[int, _Scenario] = {}
    for case in cases:
        problems += _step_problems(case)
        if case.line in scenarios:
            continue
        scenarios[case.line] = _Scenario(path, case.line, case.id)
        ids = sorted(t for t in case.tags if ID_TAG.match(t))
        if not ids:
            problems.append(Problem(case.file, case.line, f"scenario {case.name!r} has no @id:AREA-NNN tag",
                                    "no-id"))
        elif len(ids) > 1:
            problems.append(Problem(case.file, case.line,
                                    f"scenario {case.name!r} has {len(ids)} id tags: @{', @'.join(ids)}",
                                    "two-ids"))
        if not any(step.type == "then" for step in case.steps):
            problems.append(Problem(case.file, case.line,
                                    f"scenario {case.name!r} has no Then step, so it checks nothing",
                                    "no-then"))
    return problems, list(scenarios.values())


def lint(directory: Path | None = None, catalogue: Collection[str] | None = None) -> list[Problem]:
    """Every authoring problem of the feature files of ``directory`` (default: the shipped ones), sorted.

    ``catalogue`` is the set of rule ids a catalogue tag may name (default:
    :func:`catalogue_ids`). Never starts an adapter and never raises for a
    bad feature file: each problem is in the list.
    """
    known = catalogue_ids() if catalogue is None else catalogue
    problems: set[Problem] = set()
    first: dict[str, _Scenario] = {}
    for path in feature_files(directory):
        found, scenarios = _file_problems(path, known)
        problems.update(found)
        for scenario in scenarios:
            if scenario.id is None:
                continue
            if scenario.id in first:
                other = first[scenario.id]
                problems.add(Problem(
                    str(scenario.path), scenario.line,
                    f"@id:{scenario.id} is already used at {other.path.name}:{other.line}", "duplicate-id",
                ))
            else:
                first[scenario.id] = scenario
    return sorted(problems)
