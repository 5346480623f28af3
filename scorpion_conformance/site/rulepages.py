"""The Rules section: one page per rule area, and an index, made from the catalogue
and the feature files at build time.

Every rule gets its id as the anchor of its heading, its statement, where it
holds, its sources, the decision behind it (if it is one) and the scenarios
that prove it, drawn as examples.

>>> from scorpion_conformance.site.catalogue import load_catalogue
>>> from scorpion_conformance.suite.scenarios import load_cases
>>> pages = rules_pages(load_catalogue(), load_cases())
>>> pages[0].path, pages[1].path
('rules/index.md', 'rules/deal.md')
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from scorpion_conformance.suite.scenarios import Case, FeatureProblem
from scorpion_conformance.suite.tags import NAMED_RULESETS, requirements

from .catalogue import Area, Catalogue, Rule, holds_in
from .examples import Example, example_rows_html, feature_area, group_examples, home_rules, play_link
from .settings import file_link
from .text import GeneratedPage, md_escape, slug_of_source

__all__ = ["area_nav", "area_page", "area_path", "rules_index", "rules_pages", "source_label"]

RULE_ID = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def area_path(area_id: str) -> str:
    """Where an area's page lives under ``docs/``."""
    return f"rules/{area_id}.md"


def search_id(ident: str) -> str:
    """The id once more in a heading, hidden: the site's search weighs it, a reader never sees it.

    The search splits ``EMPTY-003`` into ``empty`` and ``003``; said twice in the
    title of its own section, the id outweighs a title that merely holds both words.
    """
    return f' <span class="sc-search-id" aria-hidden="true">{ident}</span>'


def source_label(source: str) -> str:
    """``000_712d3b658eade62b.txt`` → ``000``; programs keep their names."""
    return source.split("_", 1)[0] if source[:3].isdigit() and "_" in source else source


class _Context:
    """What every area page needs: the catalogue, the examples and their homes."""

    def __init__(self, catalogue: Catalogue, cases: Iterable[Case], repo_url: str | None,
                 directory_urls: bool = True) -> None:
        self.catalogue = catalogue
        self.directory_urls = directory_urls
        self.examples = group_examples(cases)
        self.homes = home_rules(self.examples, catalogue)
        self.repo_url = repo_url.rstrip("/") if repo_url else None
        self.home_of: dict[str, list[Example]] = defaultdict(list)
        self.tested_by: dict[str, list[Example]] = defaultdict(list)
        #: The examples that cite no catalogue rule, by the area of their feature file.
        self.uncatalogued: dict[str, list[Example]] = defaultdict(list)
        for example in self.examples:
            home = self.homes[example.key]
            if home is not None:
                self.home_of[home].append(example)
            else:
                self.uncatalogued[feature_area(example.first, catalogue)].append(example)
            for rule_id in example.catalogue:
                self.tested_by[rule_id].append(example)

    def rule_link(self, rule_id: str, here: str) -> str:
        """A Markdown link to a rule's anchor, relative to the area page ``here``."""
        try:
            area = self.catalogue.rule(rule_id).area
        except KeyError:
            return f"`{rule_id}`"
        target = "" if area == here else f"{area}.md"
        return f"[{rule_id}]({target}#{rule_id})"

    def example_link(self, example: Example, here: str) -> str:
        home = self.homes[example.key]
        area = self.catalogue.rule(home).area if home else feature_area(example.first, self.catalogue)
        target = "" if area == here else f"{area}.md"
        return f"[{md_escape(example.id)} · {md_escape(example.name)}]({target}#{example.id})"

    def link_rule_ids(self, text: str, here: str) -> str:
        """Escaped text in which every rule id is a link."""
        known = set(self.catalogue.ids)
        return RULE_ID.sub(
            lambda m: self.rule_link(m.group(0), here) if m.group(0) in known else m.group(0),
            md_escape(text),
        )

    def source_link(self, example: Example) -> str:
        if not self.repo_url:
            return f"`{example.location}`"
        name, line = Path(example.first.file).name, example.first.line
        return f"[`{example.location}`]({file_link(self.repo_url, f'features/{name}', anchor=f'L{line}')})"


def _holds_badges(rule: Rule) -> str:
    holds = set(holds_in(rule))
    return " ".join(
        f'<span class="sc-set sc-set-{"yes" if name in holds else "no"}" '
        f'title="{"holds" if name in holds else "does not hold"} under {name}">{name}</span>'
        for name in NAMED_RULESETS
    )


def _condition(rule: Rule) -> str:
    if not rule.holds_under:
        return "every rule set"
    return ", ".join(
        f"{option} = {' or '.join(values)}" for option, values in rule.holds_under.items()
    )


def _sources(rule: Rule) -> str:
    if not rule.sources:
        return "none: this is our own decision"
    return " · ".join(
        f"[{source_label(s)}](../sources.md#{slug_of_source(s)})" for s in rule.sources
    )


def _example_markdown(
    page: GeneratedPage, ctx: _Context, example: Example, rule_id: str | None, area: str
) -> list[str]:
    lines = [f"### {md_escape(example.id)} · {md_escape(example.name)}{search_id(example.id)} "
             f"{{#{example.id}}}", ""]
    options, capabilities = requirements(example.first.tags)
    sets = example.rulesets()
    shown = "every rule set" if len(sets) == len(NAMED_RULESETS) else " · ".join(sets)
    meta = ["**Runs under** " + (shown or "no named rule set")]
    if options:
        meta.append("**needs** " + ", ".join(f"{o} = {' or '.join(v)}" for o, v in options.items()))
    if capabilities:
        meta.append("**needs the capability** " + ", ".join(capabilities))
    others = [r for r in example.catalogue if r != rule_id]
    if others:
        meta.append("**also proves** " + ", ".join(ctx.rule_link(r, area) for r in others))
    meta.append(ctx.source_link(example))
    lines += [" — ".join(meta), "{: .sc-meta }", ""]
    if example.first.description.strip():
        lines += [md_escape(" ".join(example.first.description.split())), ""]
    try:
        drawings = [example_rows_html(case, play=play_link(case, page.path, ctx.directory_urls))
                    for case in example.cases]
    except FeatureProblem as error:
        page.problems.append(f"{example.id}: {error}")
        return [
            *lines,
            '!!! failure "This scenario cannot be drawn"',
            "",
            f"    {md_escape(str(error))}",
            "",
        ]
    if not example.is_outline:
        lines += [page.fragment(drawings[0]), ""]
        return lines
    for case, drawing in zip(example.cases, drawings, strict=True):
        label = (
            ", ".join(f"{k} = {v}" for k, v in (case.example or {}).items())
            or f"row {case.example_index}"
        )
        lines += [
            f'=== "{md_escape(label)}"',
            "",
            "    " + page.fragment(drawing),
            "",
        ]
    return lines


def _rule_markdown(page: GeneratedPage, ctx: _Context, rule: Rule) -> list[str]:
    # The TOC shows the title alone; the search reads the id in the heading too.
    label = md_escape(rule.title).replace('"', "&quot;")
    lines = [f'## {md_escape(rule.title)}{search_id(rule.id)} {{#{rule.id} data-toc-label="{label}"}}', ""]
    proven = len(ctx.tested_by.get(rule.id, ()))
    lines += [
        f"**{rule.id}** — holds under {md_escape(_condition(rule))}: {_holds_badges(rule)}",
        "{: .sc-meta }",
        "",
        ctx.link_rule_ids(rule.statement, rule.area),
        "{: .sc-statement }",
        "",
        f"**Sources:** {_sources(rule)} — **proven by** {proven} "
        f"scenario{'s' if proven != 1 else ''}",
        "{: .sc-meta }",
        "",
    ]
    if rule.decision:
        lines += [
            '!!! info "Our decision"',
            "",
            "    " + ctx.link_rule_ids(rule.rationale, rule.area),
            "",
        ]
    homed = ctx.home_of.get(rule.id, [])
    elsewhere = [e for e in ctx.tested_by.get(rule.id, []) if e not in homed]
    if not homed and not elsewhere:
        if rule.checked_by:
            tests = ", ".join(f"`{t}`" for t in rule.checked_by)
            lines += [
                '!!! note "Checked by unit tests"',
                "",
                f"    No scenario can observe this rule through the protocol; {tests} check it.",
                "",
            ]
        else:
            lines += [
                '!!! warning "No scenario yet"',
                "",
                "    No scenario proves this rule yet.",
                "",
            ]
    for example in homed:
        lines += _example_markdown(page, ctx, example, rule.id, rule.area)
    if elsewhere:
        lines += ["**Also proven by:**", ""]
        lines += [f"- {ctx.example_link(e, rule.area)}" for e in elsewhere]
        lines.append("")
    return lines


def area_page(area: Area, ctx: _Context) -> GeneratedPage:
    """The page of one rule area."""
    page = GeneratedPage(area_path(area.id), area.title)
    rules = ctx.catalogue.rules_in(area.id)
    count = sum(len(ctx.home_of.get(r.id, ())) for r in rules)
    lines = [
        f"# {md_escape(area.title)}",
        "",
        f"{len(rules)} rules of the catalogue, {count} scenarios drawn on this page. "
        "Each rule's heading carries its id as its anchor; each example is a scenario "
        "of the conformance suite, drawn from its feature file at build time: "
        "the start position, what the player does, and what the table shows afterwards.",
        "",
    ]
    for rule in rules:
        lines += _rule_markdown(page, ctx, rule)
    unhomed = ctx.uncatalogued.get(area.id, [])
    if unhomed:
        lines += [
            "## Not yet in the catalogue {#uncatalogued}",
            "",
            '!!! warning "A rule the catalogue does not state yet"',
            "",
            "    These scenarios cite no rule of the catalogue: the `Rule:` line of their "
            "feature file is all that says their rule in words, and no source is cited for it.",
            "",
        ]
        for example in unhomed:
            lines += _example_markdown(page, ctx, example, None, area.id)
    page.markdown = "\n".join(lines) + "\n"
    return page


def rules_index(ctx: _Context) -> GeneratedPage:
    """The overview: every area with its rules, where they hold, how many scenarios prove them."""
    page = GeneratedPage("rules/index.md", "All rules")
    lines = [
        "# All rules",
        "",
        f"The catalogue holds {len(ctx.catalogue.rules)} rules in "
        f"{len(ctx.catalogue.areas)} areas, proven by {len(ctx.examples)} scenarios "
        f"({sum(len(e.cases) for e in ctx.examples)} cases counting each row of an outline). "
        "Rules marked *decision* record a choice this project made where the sources are "
        "silent or disagree. The last columns say under which rule sets a rule holds and how "
        "many scenarios prove it; see [Rule sets compared](../rulesets.md).",
        "",
    ]
    for area in ctx.catalogue.areas:
        rules = ctx.catalogue.rules_in(area.id)
        lines += [f"## [{md_escape(area.title)}]({area.id}.md)", ""]
        lines += ["| Rule | Title | Holds under | Scenarios |", "| --- | --- | --- | ---: |"]
        for rule in rules:
            holds = holds_in(rule)
            where = (
                "all"
                if len(holds) == len(NAMED_RULESETS)
                else ", ".join(holds) or "none of the named sets"
            )
            title = md_escape(rule.title) + (" *(decision)*" if rule.decision else "")
            count = len(ctx.tested_by.get(rule.id, ()))
            shown = str(count) if count or not rule.checked_by else "unit tests"
            lines.append(f"| [{rule.id}]({area.id}.md#{rule.id}) | {title} | {where} | {shown} |")
        lines.append("")
    page.markdown = "\n".join(lines) + "\n"
    return page


def rules_pages(
    catalogue: Catalogue,
    cases: Sequence[Case],
    *,
    repo_url: str | None = None,
    directory_urls: bool = True,
) -> list[GeneratedPage]:
    """The index and every area page."""
    ctx = _Context(catalogue, cases, repo_url, directory_urls)
    return [rules_index(ctx), *(area_page(area, ctx) for area in catalogue.areas)]


def area_nav(catalogue: Catalogue) -> list[Mapping[str, str]]:
    """The Rules section of the navigation: the index, then one entry per area."""
    return [
        {"All rules": "rules/index.md"},
        *({area.title: area_path(area.id)} for area in catalogue.areas),
    ]
