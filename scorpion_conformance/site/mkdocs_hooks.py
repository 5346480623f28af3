"""The MkDocs hooks of the rules site (``docs/hooks.py`` only re-exports these).

* ``on_config``: the Rules section of the navigation gets one page per rule
  area of the catalogue, and snippets are read from the repository root.
* ``on_files``: the rule pages are generated from the catalogue and the
  feature files; the suite is run against the adapters we ship (unless
  ``SCORPION_SITE_SKIP_REPORT`` is set) and the raw reports are published.
* ``on_page_markdown``: ``<!-- scorpion:NAME -->`` markers become generated
  Markdown, ```` ```scorpion ```` fences become card diagrams, and links that
  leave ``docs/`` point to the page or the repository file instead.
* ``on_page_content``: the HTML fragments come back in place of their tokens.

A problem is logged as a warning, so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from scorpion_conformance.suite.lint import lint
from scorpion_conformance.suite.scenarios import Case, load_cases
from scorpion_conformance.suite.tags import NAMED_RULESETS

from . import comparison, contributing, coverage, play, report, sources, strength
from .catalogue import Catalogue, load_catalogue
from .diagrams import DiagramError, expand_diagrams
from .rulepages import area_nav, rules_pages
from .settings import file_link, local_defaults
from .text import GeneratedPage, md_escape, resolve_fragments

__all__ = ["on_config", "on_files", "on_page_content", "on_page_markdown", "state"]

log = logging.getLogger("mkdocs.plugins.scorpion_site")

MARKER = re.compile(r"^<!--\s*scorpion:([a-z-]+)\s*-->\s*$", re.MULTILINE)
LINK = re.compile(r"(\]\()(?P<target>[^)\s]+)(\))")
ANCHOR = re.compile(r"""\bid=["']([^"']+)["']""")
#: Repository files that have a page of their own on the site.
SITE_PAGES = {
    "adapters/README.md": "adapters.md",
    "adapters/python/template_adapter.py": "adapters.md#the-python-template",
    "adapters/javascript/adapter.js": "adapters.md#the-javascript-example",
    "scorpion_conformance/schemas/protocol-v1.json": "schema.md",
    "scorpion_ref/catalogue.yaml": "rules/index.md",
}


class SiteState:
    """What one build has generated so far."""

    def __init__(self) -> None:
        self.root = Path.cwd()
        self.catalogue: Catalogue | None = None
        self.cases: list[Case] = []
        self.pages: dict[str, GeneratedPage] = {}
        self.fragments: dict[str, dict[str, str]] = {}
        self.results: list[report.RunResult] | None = None
        self.repository: str | None = None
        self.directory_urls = True


state = SiteState()


def _with_rules_nav(nav: Any, catalogue: Catalogue) -> Any:
    if not isinstance(nav, list):
        return nav
    result = []
    for item in nav:
        if isinstance(item, dict) and list(item.values()) == ["rules/index.md"]:
            (title,) = item
            result.append({title: ["rules/index.md", *area_nav(catalogue)[1:]]})
        elif isinstance(item, dict):
            result.append({k: _with_rules_nav(v, catalogue) for k, v in item.items()})
        else:
            result.append(item)
    return result


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    state.__init__()  # type: ignore[misc]
    state.root = Path(config.config_file_path).resolve().parent
    state.catalogue = load_catalogue()
    local_defaults(config, state.root)
    state.repository = (config.extra.get("repository") or "").rstrip("/") or None
    state.directory_urls = bool(config.use_directory_urls)
    config.nav = _with_rules_nav(config.nav, state.catalogue)
    snippets = config.mdx_configs.setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(state.root)]
    snippets.setdefault("check_paths", True)
    return config


#: The card styles live once, in the package (the report of one's own uses them
#: too); the site serves them at this path.
CARD_STYLES = "stylesheets/cards.css"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    assert state.catalogue is not None
    problems = lint()  # authoring errors stop the build before anything else is done
    if problems:
        raise PluginError("the feature files have authoring errors:\n" + "\n".join(map(str, problems)))
    styles = resources.files("scorpion_conformance.site").joinpath("assets/cards.css")
    files.append(File.generated(config, CARD_STYLES, content=styles.read_text(encoding="utf-8")))
    for path, content in play.served_files(state.root):  # the Play page's scripts, one copy each
        files.append(File.generated(config, path, content=content))
    state.cases = load_cases()
    for page in rules_pages(state.catalogue, state.cases, repo_url=state.repository,
                            directory_urls=state.directory_urls):
        for problem in page.problems:
            log.warning("%s: %s", page.path, problem)
        state.pages[page.path] = page
        state.fragments[page.path] = page.fragments
        files.append(File.generated(config, page.path, content=page.markdown))
    if report.skip_requested():
        log.info("%s is set: the conformance suite is not run", report.SKIP_VARIABLE)
        state.results = None
    else:
        state.results = report.run_all(state.root)
        for result in state.results:
            if result.raw:
                files.append(
                    File.generated(
                        config, f"report-data/{result.implementation.key}.jsonl", content=result.raw
                    )
                )
            elif not result.skipped:
                log.warning(
                    "the suite produced no report for %s:\n%s",
                    result.implementation.title,
                    result.output_tail,
                )
            else:
                log.info(
                    "conformance report: %s skipped (%s)",
                    result.implementation.title,
                    result.skipped,
                )
    return files


def _schemas(page: GeneratedPage) -> str:
    lines = []
    for path in sorted((state.root / "scorpion_conformance" / "schemas").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        relative = path.relative_to(state.root).as_posix()
        lines += [
            f"## `{path.name}` {{#{path.stem}}}",
            "",
            f"**{md_escape(schema.get('title', path.stem))}** — `$id` `{schema.get('$id', '')}`, "
            f"dialect `{schema.get('$schema', '')}`.",
            "",
            md_escape(" ".join(str(schema.get("description", "")).split())),
            "",
            "| Definition | What it is |",
            "| --- | --- |",
        ]
        for name, definition in schema.get("$defs", {}).items():
            text = definition.get("description") or definition.get("title") or ""
            if not text and "$ref" in definition:
                text = f"see `{definition['$ref'].rsplit('/', 1)[-1]}`"
            lines.append(f"| `{name}` | {md_escape(' '.join(str(text).split())) or '—'} |")
        lines += [
            "",
            f'??? abstract "The whole schema, `{relative}`"',
            "",
            "    ```json",
            f'    --8<-- "{relative}"',
            "    ```",
            "",
        ]
    return "\n".join(lines) or "*(No schema was found when this site was built.)*"


def _winnability_makers(page: GeneratedPage) -> dict[str, Callable[[], str]]:
    from . import winnability  # matplotlib is imported only for that page

    return winnability.makers(page, state.root)


def _generated(name: str, page: GeneratedPage) -> str:
    assert state.catalogue is not None
    cases, catalogue = state.cases, state.catalogue
    makers: dict[str, Callable[[], str]] = {
        **_winnability_makers(page),
        **coverage.makers(page, state.root, cases, catalogue, state.directory_urls),
        "counts": lambda: (
            f"**{len(catalogue.rules)} rules** in {len(catalogue.areas)} areas · "
            f"**{len({(c.file, c.line) for c in cases})} scenarios** ({len(cases)} cases) · "
            f"**{len(NAMED_RULESETS)} named rule sets**"
        ),
        "options-table": lambda: page.fragment(comparison.options_html()),
        "comparison": lambda: comparison.comparison_section(
            page,
            comparison.load_comparison(),
            catalogue,
            here=page.path,
            directory_urls=state.directory_urls,
        ),
        "ruleset-tabs": lambda: comparison.ruleset_tabs(cases),
        "sources": lambda: comparison.sources_section(comparison.load_comparison()),
        "sources-page": lambda: sources.sources_page(
            page, comparison.load_comparison(), catalogue, directory_urls=state.directory_urls),
        "report": lambda: report.report_markdown(page, state.results, cases, catalogue),
        "notation": lambda: page.fragment(contributing.notation_reference(cases)),
        "lint-rules": lambda: contributing.lint_rules(
            state.root / "tests" / "test_features_lint.py"
        ),
        "tags": contributing.tag_tables,
        "ids": lambda: contributing.id_table(cases),
        "schemas": lambda: _schemas(page),
        "strength": lambda: strength.strength_markdown(state.root),
        "play": lambda: page.fragment(play.play_markup(page.path, directory_urls=state.directory_urls)),
    }
    if name not in makers:
        raise KeyError(f"unknown marker <!-- scorpion:{name} -->; known: {', '.join(makers)}")
    return makers[name]()


def _outward(target: str, src_uri: str, docs_dir: Path) -> str | None:
    """The replacement of a link that leaves ``docs/`` for a repository file, or None."""
    if "://" in target or target.startswith(("#", "/", "mailto:")):
        return None
    path, _, anchor = target.partition("#")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), path))
    if not joined.startswith("../"):
        return None
    repo_path = (docs_dir.resolve() / joined).resolve()
    try:
        relative = repo_path.relative_to(state.root).as_posix()
    except ValueError:
        return None
    if relative in SITE_PAGES:
        page_target, _, page_anchor = SITE_PAGES[relative].partition("#")
        link = posixpath.relpath(page_target, posixpath.dirname(src_uri) or ".")
        return link + (f"#{anchor or page_anchor}" if (anchor or page_anchor) else "")
    if not repo_path.exists():
        return None
    if state.repository:
        return file_link(state.repository, relative, folder=repo_path.is_dir(), anchor=anchor)
    return None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    src = page.file.src_uri
    generated = state.pages.get(src) or GeneratedPage(src, page.title or src)
    state.pages[src] = generated
    state.fragments[src] = generated.fragments

    def expand(match: re.Match[str]) -> str:
        try:
            return "\n" + _generated(match.group(1), generated).strip("\n") + "\n"
        except Exception as error:  # one bad generator must not hide the rest of the page
            log.warning("%s: %s", src, error)
            return f"*(This part could not be generated: {md_escape(str(error))})*"

    markdown = MARKER.sub(expand, markdown)
    try:
        markdown = expand_diagrams(markdown, generated.fragment)
    except DiagramError as error:
        log.warning("%s: card diagram: %s", src, error)

    def outward(match: re.Match[str]) -> str:
        replacement = _outward(match.group("target"), src, Path(config.docs_dir))
        if replacement is None:
            return match.group(0)
        return f"{match.group(1)}{replacement}{match.group(3)}"

    return LINK.sub(outward, markdown)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The fragments come back; their ids are anchors too, so links to them are not reported missing."""
    html = resolve_fragments(html, state.fragments.get(page.file.src_uri, {}))
    present = getattr(page, "present_anchor_ids", None)
    if isinstance(present, set):
        present.update(ANCHOR.findall(html))
    return html
