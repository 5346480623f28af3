"""The scenarios as the rules pages show them: grouped, placed under a rule, drawn.

``load_cases()`` gives one case per scenario (one per example row of an
outline). Here the rows of an outline are grouped back into one
:class:`Example`, each example gets a *home* rule (the page section where it
is drawn in full; other rules it tests link to it), and its steps become a
start diagram, a list of sentences and the expected columns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorpion_conformance.escaping import html_text
from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import NAMED_RULESETS, requirements

from .cards import expected_html, inline_cards, position_html
from .catalogue import Catalogue

__all__ = ["Example", "checkpoints", "example_rows_html", "group_examples", "home_rules"]


@dataclass(frozen=True)
class Example:
    """One scenario of a feature file: a single case, or the rows of an outline."""

    cases: tuple[Case, ...]

    @property
    def first(self) -> Case:
        return self.cases[0]

    @property
    def id(self) -> str:
        return self.first.id or f"{Path(self.first.file).stem}-{self.first.line}"

    @property
    def name(self) -> str:
        return self.first.name

    @property
    def is_outline(self) -> bool:
        return self.first.example_index is not None

    @property
    def key(self) -> tuple[str, int]:
        return (self.first.file, self.first.line)

    @property
    def catalogue(self) -> list[str]:
        return sorted({rule for case in self.cases for rule in case.catalogue})

    @property
    def location(self) -> str:
        """``features/deal.feature:12``."""
        return f"features/{Path(self.first.file).name}:{self.first.line}"

    def rulesets(self) -> list[str]:
        return self.first.rulesets()


def group_examples(cases: Iterable[Case]) -> list[Example]:
    """The cases grouped by scenario, in file and line order."""
    groups: dict[tuple[str, int], list[Case]] = defaultdict(list)
    for case in cases:
        groups[(case.file, case.line)].append(case)
    return [
        Example(tuple(sorted(g, key=lambda c: c.example_index or 0)))
        for _, g in sorted(groups.items())
    ]


def home_rules(
    examples: Sequence[Example], catalogue: Catalogue
) -> dict[tuple[str, int], str | None]:
    """The rule under which each example is drawn in full.

    Of the catalogue rules an example tests, prefer those its ``Rule:`` block
    carries (the tags every example of the block shares), then those of the
    area its feature file is about, then catalogue order. None when the
    example names no rule of the catalogue.
    """
    order = {rule_id: i for i, rule_id in enumerate(catalogue.ids)}
    blocks: dict[tuple[str, str | None], list[set[str]]] = defaultdict(list)
    for example in examples:
        blocks[(example.first.file, example.first.rule)].append(set(example.catalogue))
    homes: dict[tuple[str, int], str | None] = {}
    for example in examples:
        known = [r for r in example.catalogue if r in order]
        if not known:
            homes[example.key] = None
            continue
        block = (
            set.intersection(*blocks[(example.first.file, example.first.rule)])
            if example.first.rule is not None
            else set()
        )
        feature_areas = _areas_of_feature(example.first, catalogue)
        homes[example.key] = min(
            known,
            key=lambda r: (
                r not in block,
                catalogue.rule(r).area not in feature_areas,
                order[r],
            ),
        )
    return homes


def feature_area(case: Case, catalogue: Catalogue) -> str:
    """The rule area a case's feature file is about (the catalogue's first area if none is)."""
    order = [area.id for area in catalogue.areas]
    return min(_areas_of_feature(case, catalogue), key=order.index, default=order[0])


def _areas_of_feature(case: Case, catalogue: Catalogue) -> set[str]:
    stem = Path(case.file).stem.replace("_", "-")
    return {
        a.id
        for a in catalogue.areas
        if a.title.casefold() == case.feature.casefold() or a.id == stem
    }


def checkpoints(case: Case) -> list[tuple[str, list[tuple[int, dict[str, Any], bool]]]]:
    """The columns the example checks, grouped by the action before them.

    Each checkpoint is (the action's sentence, [(column, expected column,
    open_end)]): ``Then column 2 reads ...`` gives the whole column,
    ``ends with`` only its top (``open_end``), ``is empty`` an empty one.
    """
    result: list[tuple[str, list[tuple[int, dict[str, Any], bool]]]] = []
    action = ""
    current: list[tuple[int, dict[str, Any], bool]] = []
    for step, instruction in zip(case.steps, case.instructions(), strict=True):
        if "do" in instruction:
            if current:
                result.append((action, current))
                current = []
            action = step.text
        elif instruction.get("expect") == "column":
            current.append(
                (
                    instruction["column"],
                    {"down": instruction["down"], "up": instruction["up"]},
                    False,
                )
            )
        elif instruction.get("expect") == "column-ends":
            current.append((instruction["column"], {"down": [], "up": instruction["up"]}, True))
    if current:
        result.append((action, current))
    return result


def _moved_cards(case: Case) -> list[str]:
    for instruction in case.plan()["steps"]:
        if instruction.get("do") == "move":
            return [instruction["card"]]
        if instruction.get("do") == "sequence":
            return [a["card"] for a in instruction["actions"][:1] if a.get("type") == "move"]
    return []


def steps_html(case: Case) -> str:
    """The steps as sentences, keyword first, cards in their colours."""
    items = []
    for step in case.steps:
        text = inline_cards(step.text)
        if step.table is not None:
            text += ' <span class="sc-aside">(drawn in the start diagram)</span>'
        kind = html_text(step.keyword.strip())
        items.append(
            f'<li class="sc-step sc-{step.type}"><span class="sc-kw">{kind}</span> '
            f'<span class="sc-text">{text}</span></li>'
        )
    return f'<ol class="sc-steps">{"".join(items)}</ol>'


def play_link(case: Case, page_path: str, directory_urls: bool = True) -> str | None:
    """The link that opens the case's start position on the Play page, under the first named
    rule set its tags admit (or, when none does, the options they require with standard's for
    the rest); None when the reference engine refuses the position (a scenario about bad input)."""
    from scorpion_ref.errors import InvalidPosition
    from scorpion_ref.serial import position_from_json

    from .play import play_href

    start = case.plan()["start"]
    try:
        position_from_json(start)
    except InvalidPosition:
        return None
    named = case.rulesets()
    if named:
        return play_href(page_path, directory_urls=directory_urls, rules=named[0], position=start)
    required, _capabilities = requirements(case.tags)
    options = {**NAMED_RULESETS["standard"], **{k: v[0] for k, v in required.items()}}
    return play_href(page_path, directory_urls=directory_urls, options=options, position=start)


def example_rows_html(case: Case, *, walk_key: str | None = None, play: str | None = None) -> str:
    """One case drawn: the start position, the expected columns, the steps, and the
    step-through (:mod:`.walkthrough`; ``walk_key`` keeps its buttons apart on one page);
    ``play`` is the link that opens the start position on the Play page."""
    from .walkthrough import walkthrough_box

    plan = case.plan()
    start = position_html(plan["start"], caption="Start", marks=_moved_cards(case))
    if play:
        link = f'<a class="sc-play-link" href="{html_text(play)}">▶ Play this position</a>'
        start = start.replace("</figcaption></figure>", f" · {link}</figcaption></figure>", 1)
    panels = [start]
    points = checkpoints(case)
    for action, columns in points:
        if len(points) == 1 or not action:
            caption = "Expected afterwards"
        else:
            caption = f"Expected after: {inline_cards(action)}"
        panels.append(expected_html(columns, caption=caption))
    return (
        f'<div class="sc-example"><div class="sc-panels">{"".join(panels)}</div>'
        f"{steps_html(case)}{walkthrough_box(case, walk_key)}</div>"
    )
