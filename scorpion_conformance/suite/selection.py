"""Which cases run, and under which rule sets: the suite's collection, as data.

Each pytest item of a scenario is tied to its :class:`~.scenarios.Case`
(read once per feature folder with the Gherkin parser), so the id, the
example row and the option tags come from one place. A case runs once
under every selected rule set whose options its tags admit
(:func:`parametrize`); with none, it is *unsupported*, with the reason.
:func:`select` names each case, marks its area, and keeps the cases
``--id`` and ``--area`` ask for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .activate import holds_features
from .naming import area_marker, area_of, case_text, id_matches, rename, test_name
from .reporting import UNSUPPORTED
from .scenarios import Case, feature_dir, load_cases
from .tags import marker_lines, matches

if TYPE_CHECKING:
    from scorpion_conformance.messages import HelloInfo

__all__ = ["Placement", "case_for", "feature_folders", "item_case", "known_ids", "parametrize", "placement",
           "plays", "register_marker", "register_markers", "select", "template_of", "wanted"]


def template_of(function: Any) -> Any:
    """The pytest-bdd scenario template behind a test function, or None."""
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    try:  # a weak-keyed registry: doctest items and the like have no function to look up
        return scenario_wrapper_template_registry.get(function)
    except TypeError:
        return None


@functools.lru_cache(maxsize=1024)
def _resolved(filename: str) -> Path:
    """A feature file's real path: asked for every item, twice, and each asks the disk."""
    return Path(filename).resolve()


@functools.cache
def _index(folder: Path) -> dict[tuple[str, int, int | None], Case]:
    """The cases of a folder of feature files, or of one file, by file, line and row."""
    return {
        (str(_resolved(case.file)), case.line, case.example_index): case
        for case in load_cases(folder)
    }


def case_for(template: Any, example: Mapping[str, str] | None) -> Case | None:
    """The case of ``template`` (and of one example row of an outline)."""
    path = _resolved(template.feature.filename)
    index = None
    if example:
        contexts = [c for examples in template.examples for c in examples.as_contexts()]
        if example in contexts:
            index = contexts.index(example) + 1
    return _index(path).get((str(path), template.line_number, index))


@dataclass(frozen=True)
class Placement:
    """The rule sets a case runs under, or why it runs under none."""

    rulesets: tuple[str, ...]
    unsupported: str | None = None


def placement(
    case: Case, declared: Mapping[str, Mapping[str, str]], capabilities: frozenset[str], *, narrowed: bool
) -> Placement:
    """Where ``case`` runs among the ``declared`` rule sets (``narrowed``: by ``--rules``).

    >>> from types import SimpleNamespace
    >>> case = SimpleNamespace(requires=lambda: ({"runs": ("stay",)}, ()))
    >>> placement(case, {"standard": {"runs": "collect"}}, frozenset(), narrowed=False).unsupported
    'no declared rule set has runs=stay'
    """
    required, needed = case.requires()
    missing = [c for c in needed if c not in capabilities]
    if missing:
        return Placement((), f"the adapter lacks the capability {', '.join(missing)}")
    names = tuple(name for name, options in declared.items() if matches(options, required))
    if names:
        return Placement(names)
    need = ", ".join(f"{k}={'|'.join(v)}" for k, v in required.items())
    return Placement((), f"no {'selected' if narrowed else 'declared'} rule set has {need}")


def wanted(case_id: str, ids: set[str] | None) -> bool:
    """Whether ``--id`` selects the case: ids or globs (a scenario id selects all its rows).

    >>> wanted("STOCK-004", {"STOCK-*"}), wanted("MOVE-004/2", {"MOVE-004"}), wanted("DEAL-001", {"X"})
    (True, True, False)
    """
    return ids is None or id_matches(case_id, ids)


def feature_folders(args: Sequence[str]) -> list[Path]:
    """The folders of feature files a pytest command line names (the shipped one if none).

    >>> feature_folders(["no/such/folder"]) == [feature_dir()]
    True
    """
    folders: list[Path] = []
    for argument in args:
        if argument.startswith("-") or not holds_features(argument):
            continue
        path = Path(argument.split("::", 1)[0]).resolve()
        folder = path if path.is_dir() else path.parent
        if folder not in folders:
            folders.append(folder)
    return folders or [feature_dir()]


def known_ids(folders: Sequence[Path]) -> set[str]:
    """Every scenario id and case id (``PLACE-006/2``) in these folders."""
    ids: set[str] = set()
    for folder in folders:
        for case in _index(folder.resolve()).values():
            if case.id is not None:
                ids.update((case.id, case.case_id))
    return ids


def plays(cases: Iterable[Case], hello: HelloInfo,
          declared: Mapping[str, Mapping[str, str]]) -> Iterator[tuple[Case, str]]:
    """Each case with each declared rule set it runs under, where the adapter offers every
    capability it needs (the others are unsupported), in the cases' order."""
    for case in cases:
        _options, capabilities = case.requires()
        if all(hello.offers(c) for c in capabilities):
            for rules in case.rulesets(declared):
                yield case, rules


# -- the suite's collection ----------------------------------------------------------------------


def register_markers(config: pytest.Config) -> None:
    """Every option, capability and synthetic tag as a marker, so ``-m runs-stay`` and
    ``--strict-markers`` know them."""
    for line in marker_lines():
        config.addinivalue_line("markers", line)


_MARKERS = pytest.StashKey[set[str]]()


def register_marker(config: pytest.Config, name: str, meaning: str) -> None:
    """A marker of an area or a catalogue rule, registered once however many cases carry it
    (pytest reads the whole list again for each marker name it has not met yet)."""
    known = config.stash.setdefault(_MARKERS, set())
    if name not in known:
        known.add(name)
        config.addinivalue_line("markers", f"{name}: {meaning}")


def _first_example(template: Any) -> dict[str, str] | None:
    contexts = [c for examples in template.examples for c in examples.as_contexts()]
    return contexts[0] if contexts else None


def parametrize(metafunc: pytest.Metafunc, declared: Mapping[str, Mapping[str, str]],
                capabilities: frozenset[str], *, narrowed: bool) -> None:
    """Give a scenario's test its rule sets (the ``scorpion_rules`` parameter), or one skip
    that says why none fits. The case's run is set up before its first step, so a case the run
    will not play (after giving up on the adapter) is skipped before it starts."""
    template = template_of(metafunc.function)
    if template is None:
        return
    # Every row of an outline has the tags of its scenario: the first row stands for all.
    case = case_for(template, None) or case_for(template, _first_example(template))
    if case is None:
        raise pytest.UsageError(f"{template.feature.filename}:{template.line_number}: "
                                "a scenario the suite cannot read (run scorpion-conformance lint)")
    where = placement(case, declared, capabilities, narrowed=narrowed)
    metafunc.fixturenames.extend(("scorpion_rules", "scorpion_run"))
    sid = case.id or "no-id"
    if where.rulesets:
        metafunc.parametrize("scorpion_rules", where.rulesets, ids=[f"{sid}-{n}" for n in where.rulesets])
        return
    metafunc.parametrize(
        "scorpion_rules",
        [pytest.param(None, marks=pytest.mark.skip(reason=f"{UNSUPPORTED}: {where.unsupported}"),
                      id=f"{sid}-{UNSUPPORTED}")],
    )


def item_case(item: pytest.Item) -> tuple[Any, Case | None, str | None]:
    """The template, the case and the rule set of a scenario item (Nones otherwise)."""
    template = template_of(getattr(item, "function", None))
    if template is None:
        return None, None, None
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    return template, case_for(template, params.get("_pytest_bdd_example")), params.get("scorpion_rules")


def select(config: pytest.Config, items: list[pytest.Item], areas: frozenset[str] | None,
           known_failure: Callable[[str, str | None], str | None]) -> None:
    """Name each case by its text, mark its area, keep what ``--id`` and ``areas`` select, and
    mark each known failure (``known_failure(case_id, rules)`` gives its reason) as expected to fail.
    """
    option = config.getoption("scenario_ids")
    ids = {i.strip() for i in option.split(",") if i.strip()} if option else None
    kept, dropped = [], []
    for item in items:
        template, case, rules = item_case(item)
        if template is None:
            kept.append(item)
            continue
        case_id = case.case_id if case is not None else "?"
        area = area_of(template.feature.filename)
        marker = area_marker(area)
        register_marker(config, marker, f"the rule area {area} ({template.feature.name})")
        item.add_marker(marker)
        text = case_text(case.name, case.example) if case is not None else template.name
        rename(item, test_name(text, case_id, rules))
        if not wanted(case_id, ids) or (areas is not None and area not in areas):
            dropped.append(item)
            continue
        kept.append(item)
        reason = known_failure(case_id, rules)
        if reason is not None and rules is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {reason}", strict=True))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
