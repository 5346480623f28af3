"""Hostile input, end to end: a tagged payload in every field that an adapter, a report file, a
results file or a feature file can set, and nothing of it runs in a page or reaches a terminal.

Each payload names its field (``hello.name``, ``end.adapter``, ...) and carries HTML that runs
script in a page, in element text and in a quoted attribute alike, and the terminal escapes of
an attack (a new window title, a cleared screen, a colour, a carriage return before a fake "all
passed" line, a right-to-left override). The pages are opened in Debian's Chromium through
Playwright, where a payload that runs calls ``__hit(tag)``: the test asserts that none was
called, that no element of a payload's was made, that no link leads anywhere but ``http(s)``,
and that each field's words are on the page, as text (so a field that silently vanished would
not pass). Everything the commands print is held to "no control character but the new line".

The adapter is ``tests/fake_adapters/hostile.py``: the reference, with a payload in each field
of its hello and of its answers, and on its stderr. ``run``, ``lint``, ``export`` and
``winnability`` run in subprocesses; ``report`` is called in this process
(``tests/in_this_process.py``), its output held to the same rule.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from in_this_process import Said, command

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "fake_adapters" / "hostile.py"
REFERENCE = f"{shlex.quote(sys.executable)} -m scorpion_ref.adapter"

#: Script in a page (as text, and breaking out of a quoted attribute), then terminal escapes.
HTML = ("<img src=x onerror=\"__hit('TAG')\"><svg onload=\"__hit('TAG')\"></svg>"
        "\"'><img src=x onerror=\"__hit('TAG')\"><script>__hit('TAG')</script>")
TERMINAL = "\x1b]0;TAG\x07\x1b[2J\x1b[31m\rTAG: all passed\x9b2J\u202e\x08\x7f"
TEMPLATE = HTML + TERMINAL
#: What a terminal acts on, for this test's own eyes: every C0 control but the new line, DEL, C1,
#: and the marks that reorder text.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def payload(tag: str, template: str = TEMPLATE) -> str:
    return template.replace("TAG", tag)


def cli(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-m", "scorpion_conformance.cli", *args], cwd=cwd,
                          capture_output=True, text=True, encoding="utf-8", errors="surrogateescape",
                          timeout=900, env={**os.environ, "HOSTILE_TEMPLATE": TEMPLATE, **(env or {})})


def hostile() -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(HOSTILE))}"


def report(cwd: Path, *args: str) -> Said:
    """``scorpion-conformance report ARGS``, called in this process."""
    return command("report", *args, cwd=cwd)


def assert_clean(result: subprocess.CompletedProcess[str] | Said, what: str) -> str:
    """What the command printed, once it is shown to hold no control character."""
    printed = result.stdout + result.stderr
    found = sorted({f"U+{ord(c):04X}" for c in CONTROL.findall(printed)})
    assert not found, f"{what} printed control characters {found}:\n{printed[-3000:]}"
    assert "Traceback" not in printed, f"{what} ended in a traceback:\n{printed[-3000:]}"
    return printed


# -- the browser --------------------------------------------------------------------------------

@pytest.fixture
def browser(chromium_browser: Any) -> Any:
    """Chromium, with no site: these pages are files of the test's own."""
    return chromium_browser


_AUDIT = """() => ({
  hits: window.__hits,
  made: document.querySelectorAll('script, iframe, object, embed, [onerror], [onload]').length,
  links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href')),
  text: document.body.innerText,
})"""


def opened(browser: Any, page_file: Path) -> dict[str, Any]:
    """Open a page from a file, wait for it to load (its images fail, their handlers would run
    before the load event), and audit it."""
    page = browser.new_page()
    try:
        page.add_init_script("window.__hits = []; window.__hit = tag => window.__hits.push(String(tag));")
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(page_file.as_uri(), wait_until="load")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        audit: dict[str, Any] = page.evaluate(_AUDIT)
        audit["hits"] = [*audit["hits"], *(f"dialog {d}" for d in dialogs)]
        return audit
    finally:
        page.close()


def assert_harmless(audit: dict[str, Any], shown: set[str], what: str) -> None:
    """No payload ran or made an element, no link has a scheme but ``http(s)``, and each tag of
    ``shown`` is on the page as text."""
    assert audit["hits"] == [], f"{what}: payloads ran: {audit['hits']}"
    assert audit["made"] == 0, f"{what}: {audit['made']} elements of a payload's were made"
    # a web address, an anchor or a path of the site's own; never another scheme (javascript:, data:)
    bad = [href for href in audit["links"]
           if re.match(r"\s*[a-zA-Z][a-zA-Z0-9+.-]*:", href) and not re.match(r"https?://", href)]
    assert bad == [], f"{what}: links to {bad}"
    # a field may be shown quoted (its quotes escaped), but its words are there
    missing = {tag for tag in shown if not re.search(rf"__hit\(\\?'{re.escape(tag)}\\?'\)", audit["text"])}
    assert not missing, f"{what}: these fields never reached the page as text: {sorted(missing)}"


def html_page(folder: Path, body: str, name: str = "page.html") -> Path:
    """``body`` (the site's HTML) as a page of its own, with the report's styles."""
    from scorpion_conformance.site.own_report import stylesheet

    path = folder / name
    path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><style>{stylesheet()}</style></head>"
                    f"<body><main class='md-typeset'>{body}</main></body></html>", encoding="utf-8")
    return path


def markdown_page(folder: Path, page: Any, name: str) -> Path:
    """A generated page of the site, converted as MkDocs converts it (its HTML fragments put back)."""
    import markdown

    converted = markdown.markdown(page.markdown, extensions=[
        "abbr", "admonition", "attr_list", "def_list", "md_in_html", "tables", "toc",
        "pymdownx.details", "pymdownx.superfences", "pymdownx.tabbed"])
    return html_page(folder, page.resolve(converted), name)


# -- an adapter -------------------------------------------------------------------------------------

#: The fields of the hostile adapter that its run's report page shows.
ADAPTER_SHOWN = {"hello.name", "hello.version", "hello.language", "hello.homepage", "hello.ruleset",
                 "start.message", "state.answer", "stderr"}


def test_an_adapters_words_never_run_in_its_report_page_nor_reach_the_terminal(
        tmp_path: Path, browser: Any) -> None:
    # A case of each verdict: an error and a failure (STOCK-001), a pass (STOCK-010), unsupported.
    run = cli(tmp_path, "run", "--adapter", hostile(), "--id", "STOCK-001,STOCK-010,STOCK-013", "--report",
              "r.jsonl")
    printed = assert_clean(run, "run")
    assert run.returncode == 1, printed[-3000:]
    assert "\\x1b]0;hello.name\\x07" in printed  # the implementation's name, shown escaped
    assert "\\x1b]0;hello.ruleset" in printed  # a rule set's name in the summary
    made = report(tmp_path, "r.jsonl", "--html", "out")
    assert_clean(made, "report")
    assert made.returncode == 0
    assert_harmless(opened(browser, tmp_path / "out" / "index.html"), ADAPTER_SHOWN, "the report page")
    badge = json.loads((tmp_path / "out" / "badge.json").read_text(encoding="utf-8"))
    assert badge["color"] != "brightgreen" and "<" not in badge["message"]
    # the same report twice, side by side: the comparison page shows the adapter's name as text too
    (tmp_path / "again.jsonl").write_bytes((tmp_path / "r.jsonl").read_bytes())
    made = report(tmp_path, "r.jsonl", "again.jsonl", "--html", "both")
    assert_clean(made, "report over two reports")
    assert made.returncode == 0 and not (tmp_path / "both" / "badge.json").exists()
    assert_harmless(opened(browser, tmp_path / "both" / "index.html"), {"hello.name"}, "the comparison page")


def test_check_adapter_shows_an_adapters_words_and_never_its_control_characters(tmp_path: Path) -> None:
    checked = cli(tmp_path, "check-adapter", "--adapter", hostile())
    printed = assert_clean(checked, "check-adapter")
    assert "PASS  handshake: " in printed and "\\x1b]0;hello.name\\x07" in printed
    assert "\\x1b]0;hello.ruleset" in printed
    assert "\nhello.name: all passed" not in printed  # no carriage return made a line of its own


@pytest.mark.parametrize("homepage", [
    "javascript:__hit('homepage')",
    "JaVaScRiPt:__hit('homepage')",
    " javascript:__hit('homepage')",
    "data:text/html,<script>__hit('homepage')</script>",
    "https://example.org/\"><img src=x onerror=\"__hit('homepage')\">",
])
def test_only_a_web_address_is_linked_as_the_homepage(tmp_path: Path, browser: Any, homepage: str) -> None:
    # The report of a run whose adapter gave this homepage. That a run carries its adapter's
    # homepage into the report, and the report into the page, is the web homepage's test below.
    implementation = {"name": "hostile", "version": "1", "language": "python", "homepage": homepage}
    end = {"end": True, "run": "complete", "implementation": "hostile 1 (python)",
           "hello": {"protocol": 1, "implementation": implementation, "rulesets": {"standard": {}},
                     "capabilities": []}}
    case = {"id": "STOCK-001", "name": "n", "area": "The stock", "rules": "standard", "status": "passed"}
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(line) + "\n" for line in (case, end)),
                                      encoding="utf-8")
    assert_clean(report(tmp_path, "r.jsonl", "--html", "out"), "report")
    audit = opened(browser, tmp_path / "out" / "index.html")
    assert_harmless(audit, {"homepage"}, "the report page")
    assert audit["links"] == []


def test_a_web_homepage_is_linked(tmp_path: Path, browser: Any) -> None:
    run = cli(tmp_path, "run", "--adapter", hostile(), "--id", "STOCK-001", "--rules", "standard",
              "--report", "r.jsonl", env={"HOSTILE_HOMEPAGE": "https://example.org/scorpion?a=1&b=2"})
    assert_clean(run, "run")
    assert_clean(report(tmp_path, "r.jsonl", "--html", "out"), "report")
    audit = opened(browser, tmp_path / "out" / "index.html")
    assert audit["links"] == ["https://example.org/scorpion?a=1&b=2"]


# -- a report file ------------------------------------------------------------------------------

def hostile_report() -> tuple[list[dict[str, Any]], set[str]]:
    """A report with a payload in every field its schema lets a string into, and what the
    page shows of them."""
    def case(status: str, ident: str, n: int) -> dict[str, Any]:
        fields = ["name", "area", "rules", "message", "stderr_tail", "context", "rerun", "nodeid",
                  "source", "area_id", "blame", "entry"]
        record: dict[str, Any] = {f: payload(f"case{n}.{f}") for f in fields}
        record.update(id=ident, status=status, expected={"x": payload(f"case{n}.expected")},
                      actual=[payload(f"case{n}.actual")], extra=payload(f"case{n}.extra"))
        return record

    records = [case("failed", "STOCK-001", 1), case("error", payload("case2.id"), 2),
               case("passed", "STOCK-002", 3), case("xfailed", "STOCK-003", 4)]
    end = {
        "end": True, "run": "complete", "signal": payload("end.signal"), "gave_up": payload("end.gave_up"),
        "problem": payload("end.problem"), "adapter": payload("end.adapter"),
        "implementation": payload("end.implementation"),
        "hello": {"protocol": 1,
                  "implementation": {"name": payload("impl.name"), "version": payload("impl.version"),
                                     "language": payload("impl.language"),
                                     "homepage": payload("impl.homepage")},
                  "rulesets": {payload("ruleset.name"): {
                      payload("ruleset.option"): payload("ruleset.value")}},
                  "capabilities": [payload("capability")]},
        "versions": {payload("version.key"): payload("version.value")},
        "started": payload("end.started"), "finished": payload("end.finished"),
        "selected": {"rules": [payload("selected.rules")], "areas": [payload("selected.areas")],
                     "ids": payload("selected.ids"), "keyword": payload("selected.keyword"),
                     "marker": payload("selected.marker"), "features": payload("selected.features")},
        "rulesets_run": [payload("rulesets_run")], "totals": {payload("totals.key"): 1},
        "extra": payload("end.extra"),
    }
    shown = {"case1.name", "case1.message", "case1.rerun", "case1.source", "case1.rules", "case2.id",
             "case2.name", "case2.message", "case2.area", "case3.rules", "end.gave_up", "end.problem",
             "end.adapter", "end.implementation", "impl.homepage", "ruleset.name", "ruleset.option",
             "ruleset.value", "capability", "version.key", "version.value", "end.started", "end.finished",
             "selected.rules", "selected.areas", "selected.ids", "selected.keyword", "selected.marker",
             "selected.features"}
    return [*records, end], shown


def test_a_report_files_words_never_run_in_its_page_nor_reach_the_terminal(
        tmp_path: Path, browser: Any) -> None:
    lines, shown = hostile_report()
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    made = report(tmp_path, "r.jsonl", "--html", "out", "--label", payload("label"))
    assert_clean(made, "report")
    assert made.returncode == 0, made.stderr
    assert_harmless(opened(browser, tmp_path / "out" / "index.html"), shown, "the report page")


def test_the_sites_report_page_shows_a_report_as_text(tmp_path: Path, browser: Any) -> None:
    from scorpion_conformance.site import report
    from scorpion_conformance.site.catalogue import load_catalogue
    from scorpion_conformance.site.report_runs import read_report
    from scorpion_conformance.site.text import GeneratedPage
    from scorpion_conformance.suite.scenarios import feature_dir, load_cases

    lines, _shown = hostile_report()
    raw = "".join(json.dumps(line) + "\n" for line in lines)
    result = report.RunResult(report.IMPLEMENTATIONS[0], seconds=1.0, exit_code=1,
                              output_tail=payload("output"))
    result.records, result.end = read_report(raw)
    page = GeneratedPage("report.md", "Report")
    page.markdown = report.report_markdown(page, [result], load_cases(feature_dir()), load_catalogue())
    shown = {"case1.name", "case1.rules", "case1.message", "case2.name", "case3.rules"}
    assert_harmless(opened(browser, markdown_page(tmp_path, page, "report.html")), shown, "the site's report")
    empty = report.RunResult(report.IMPLEMENTATIONS[0], exit_code=3, output_tail=payload("output"))
    page = GeneratedPage("report.md", "Report")
    page.markdown = report.report_markdown(page, [empty], load_cases(feature_dir()), load_catalogue())
    assert_harmless(opened(browser, markdown_page(tmp_path, page, "failed.html")), {"output"}, "a failed run")


# -- a results file ------------------------------------------------------------------------------

def results_record(**fields: Any) -> dict[str, Any]:
    record = {"game": 1, "rules": "classic", "outcome": "lost", "nodes": 222, "seconds": 0.01,
              "budget": 2000, "memory_mb": 64, "solver": "0.1.0", "proof": "exhausted"}
    return {**record, **fields}


@pytest.mark.parametrize("field", ["rules", "proof", "solver", "core", "line", "outcome", "extra"])
def test_a_results_files_words_never_reach_the_terminal(tmp_path: Path, field: str) -> None:
    bad = results_record(**{field: payload(f"results.{field}")})
    if field == "line":
        bad.update(outcome="won")
        bad.pop("proof")
    (tmp_path / "r.jsonl").write_text(json.dumps(bad) + "\n", encoding="utf-8")
    ran = cli(tmp_path, "winnability", "--rules", "classic", "--games", "1", "--budget", "2k",
              "--max-budget", "2k", "--workers", "1", "--results", "r.jsonl")
    printed = assert_clean(ran, "winnability")
    assert ran.returncode == 2 and len(ran.stderr.splitlines()) == 1, printed


def test_the_winnability_page_shows_nothing_a_results_file_could_run(tmp_path: Path, browser: Any) -> None:
    from scorpion_conformance.site import winnability
    from scorpion_conformance.site.text import GeneratedPage

    folder = tmp_path / "data" / "winnability"
    folder.mkdir(parents=True)
    records = [results_record(game=1, outcome="won", line=payload("results.line"), proof=None),
               results_record(game=2, outcome="unknown", proof="nodes")]
    (folder / "classic.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in r.items() if v is not None}) + "\n" for r in records),
        encoding="utf-8")
    page = GeneratedPage("winnability.md", "Winnability")
    page.markdown = "\n\n".join(make() for name, make in winnability.makers(page, tmp_path).items()
                                if name != "winnability-plots")
    assert_harmless(opened(browser, markdown_page(tmp_path, page, "winnability.html")), set(), "winnability")


# -- a feature file ------------------------------------------------------------------------------

def hostile_feature(template: str) -> str:
    def p(tag: str) -> str:
        return payload(tag, template)

    return (
        f"# {p('comment')}\n"
        f"Feature: Placement {p('feature.name')}\n"
        f"  {p('feature.description')}\n\n"
        "  @R-PLACE-SAME-SUIT-NEXT-RANK\n"
        f"  Rule: The leading card {p('rule.name')}\n"
        f"    {p('rule.description')}\n\n"
        "    @id:PLACE-901\n"
        f"    Example: a move {p('scenario.name')}\n"
        f"      {p('scenario.description')}\n"
        "      Given the table\n"
        "        | 1  | 2  |\n"
        "        | 7♥ | 8♥ |\n"
        "      When the player moves 7♥ to column 2\n"
        "      Then column 2 reads 8♥ 7♥\n\n"
        "    @id:PLACE-902\n"
        f"    Scenario Outline: a move {p('outline.name')}\n"
        "      Given the table\n"
        "        | 1      | 2  |\n"
        "        | <card> | 8♥ |\n"
        "      When the player moves <card> to column 2\n"
        "      Then column 2 reads 8♥ <card>\n\n"
        f"      Examples: {p('examples.name')}\n"
        "        | card | note |\n"
        f"        | 7♥   | {p('examples.cell')} |\n"
    )


def test_a_feature_files_words_never_run_in_a_page_nor_reach_the_terminal(
        tmp_path: Path, browser: Any) -> None:
    features = tmp_path / "features"
    features.mkdir()
    (features / "placement.feature").write_text(hostile_feature(HTML), encoding="utf-8")
    linted = cli(tmp_path, "lint", "--features", str(features))
    assert_clean(linted, "lint")
    assert linted.returncode == 0, linted.stdout + linted.stderr
    # the hostile adapter fails every case under its own rule set: the failures name the cases
    run = cli(tmp_path, "run", "--adapter", hostile(), "--features", str(features), "-v",
              "--report", "r.jsonl")
    printed = assert_clean(run, "run")
    assert run.returncode == 1 and "passed" in printed, printed[-3000:]
    assert_clean(report(tmp_path, "r.jsonl", "--html", "out"), "report")
    shown = {"scenario.name", "outline.name", "feature.name"}
    assert_harmless(opened(browser, tmp_path / "out" / "index.html"), shown, "the report page")


def test_the_rule_pages_show_a_feature_files_words_as_text(tmp_path: Path, browser: Any) -> None:
    from scorpion_conformance.site.catalogue import load_catalogue
    from scorpion_conformance.site.rulepages import rules_pages
    from scorpion_conformance.suite.scenarios import feature_dir, load_cases

    features = tmp_path / "features"
    features.mkdir()
    (features / "placement.feature").write_text(hostile_feature(HTML), encoding="utf-8")
    catalogue = load_catalogue()
    hostile_cases = load_cases(features)
    pages = rules_pages(catalogue, [*load_cases(feature_dir()), *hostile_cases])
    (placement,) = [page for page in pages if "PLACE-901" in page.markdown]
    shown = {"scenario.name", "outline.name", "scenario.description"}
    audit = opened(browser, markdown_page(tmp_path, placement, "placement.html"))
    assert_harmless(audit, shown, "a rule page")


def test_control_characters_in_a_feature_file_are_refused_before_they_reach_a_terminal(
        tmp_path: Path) -> None:
    features = tmp_path / "features"
    features.mkdir()
    text = hostile_feature(TEMPLATE)
    # and where only the step library's words, cards and known tags belong
    text = text.replace("When the player moves 7♥", f"When the player {payload('step')} moves 7♥")
    text = text.replace("| 7♥ | 8♥ |", f"| 7♥ | {payload('cell')} |")
    text = text.replace("@id:PLACE-901", f"@id:PLACE-901 @{payload('tag').replace(' ', '')}")
    (features / "placement.feature").write_text(text, encoding="utf-8")
    # run is called in this process (it stops before its session); lint and export in
    # subprocesses, as what they print to stdout is read too.
    for name in ("lint", "run", "export"):
        done = (command(name, "--features", str(features), cwd=tmp_path) if name == "run"
                else cli(tmp_path, name, "--features", str(features)))
        printed = assert_clean(done, name)
        assert done.returncode == 4, printed
        assert "a control character (\\x1b)" in printed
