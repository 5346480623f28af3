"""``scorpion-conformance summary``: reports of real runs read back in the terminal.

The reports are written by the suite itself, under one rule set and two rule
areas: one run of the reference adapter, one of the broken adapter whose
cards go on any card one rank higher (``cross-suit``), which fails part of
the placement area. What the summary says is checked against what the report
files hold, counted here from their lines.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest

from scorpion_conformance.cli import main
from scorpion_conformance.escaping import CONTROL
from scorpion_conformance.summary import Report, differences

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"
AREAS = "placement,stock"


def _run(cwd: Path, report: str, *adapter: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "run", "-qq", "--rules", "standard",
         "--area", AREAS, "--report", report, *adapter],
        capture_output=True, text=True, timeout=600, cwd=cwd)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``ref.jsonl`` (the reference adapter) and ``broken.jsonl`` (cross-suit)."""
    folder = tmp_path_factory.mktemp("summary")
    ran = _run(folder, "ref.jsonl")
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} cross-suit"
    ran = _run(folder, "broken.jsonl", "--adapter", adapter)
    assert ran.returncode == 1, ran.stdout[-2000:] + ran.stderr[-2000:]
    return folder


def lines_of(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["end"] is True
    return lines[:-1], lines[-1]


def summary(capsys: pytest.CaptureFixture[str], cwd: Path, *args: str,
            monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    code = main(["summary", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def say(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, reports: Path) -> Any:
    """``say(*args)``: run ``summary`` in the reports' folder; (exit status, stdout, stderr)."""
    return lambda *args, cwd=reports: summary(capsys, cwd, *args, monkeypatch=monkeypatch)


def test_one_report_as_text(say: Any, reports: Path) -> None:
    records, _ = lines_of(reports / "ref.jsonl")
    counts = Counter(r["status"] for r in records)
    assert counts["passed"] and counts["unsupported"] and set(counts) == {"passed", "unsupported"}
    code, out, err = say("ref.jsonl")
    assert (code, err) == (0, "")
    assert out.startswith("ref.jsonl\n  implementation: scorpion-ref ")
    assert "  the run: narrowed to --rules standard --area placement,stock\n" in out
    assert (f"  {len(records)} results under standard: {counts['passed']} passed, 0 failed, "
            f"{counts['unsupported']} unsupported\n") in out
    assert re.search(r"^rule area +standard +under no rule set$", out, re.M)
    for area in ("placement", "stock"):
        mine = [r for r in records if r["area_id"] == area]
        passed = sum(1 for r in mine if r["status"] == "passed")
        unsupported = sum(1 for r in mine if r["rules"] is None)
        assert passed == len(mine) - unsupported
        row = rf"^{area} +{passed}/{passed}" + (rf" +{unsupported} unsupported$" if unsupported else r" +·$")
        assert re.search(row, out, re.M), (row, out)
    assert "rerun:" not in out and "differs" not in out


@pytest.mark.parametrize(("ending", "said"), [
    ({"selected": {}}, "a whole run of the suite"),
    ({"run": "interrupted", "signal": "SIGINT"},
     "interrupted; narrowed to --rules standard --area placement,stock"),
    ({"run": "gave-up", "gave_up": "the adapter crashed three times\nits stderr: boom"},
     "gave up on the adapter (the adapter crashed three times); narrowed to --rules standard --area "
     "placement,stock"),
    ({"run": "adapter-unusable", "problem": "the adapter could not be started", "selected": {}},
     "adapter unusable (the adapter could not be started)"),
])
def test_what_kept_the_run_from_being_whole(say: Any, reports: Path, tmp_path: Path,
                                            ending: dict[str, Any], said: str) -> None:
    records, end = lines_of(reports / "ref.jsonl")
    lines = [*records, {**end, **ending}]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    code, out, _ = say("r.jsonl", cwd=tmp_path)
    assert code == 0 and f"\n  the run: {said}\n" in out
    code, out, _ = say("r.jsonl", "--format", "json", cwd=tmp_path)
    assert json.loads(out)["reports"][0]["whole"] is (said == "a whole run of the suite")


def test_failures_are_listed_with_their_rerun_lines(say: Any, reports: Path) -> None:
    records, _ = lines_of(reports / "broken.jsonl")
    failed = [r for r in records if r["status"] in ("failed", "error")]
    assert failed and all(r["area_id"] == "placement" for r in failed)
    code, out, _ = say("broken.jsonl")
    ran = sum(1 for r in records if r["area_id"] == "placement" and r["rules"])
    row = rf"^placement +{ran - len(failed)}/{ran}, {len(failed)} failed +·$"
    assert code == 0 and re.search(row, out, re.M)
    assert "rerun:" not in out
    code, out, _ = say("broken.jsonl", "--show", "failures")
    assert code == 0
    assert f"{len(failed)} failed or errored in broken.jsonl, each with the line that reruns it:\n" in out
    for record in failed:
        head = f"  {record['id']} under standard, failed: {record['name']} ({record['source']})\n"
        first = record["message"].splitlines()[0]
        assert f"{head}    {first}\n    rerun: {record['rerun']}\n" in out
    code, out, _ = say("ref.jsonl", "--show", "failures")
    assert "0 failed or errored in ref.jsonl\n" in out


def test_two_reports_side_by_side_with_what_differs(say: Any, reports: Path) -> None:
    ref, _ = lines_of(reports / "ref.jsonl")
    broken, _ = lines_of(reports / "broken.jsonl")
    now_failing = {(r["id"], r["rules"]) for r in broken if r["status"] == "failed"}
    assert now_failing and all(
        r["status"] == "passed" for r in ref if (r["id"], r["rules"]) in now_failing)
    code, out, err = say("ref.jsonl", "broken.jsonl")
    assert (code, err) == (0, "")
    assert out.startswith("2 reports side by side.\n")
    # both are scorpion-ref: the columns are told apart by their files
    assert re.search(r"^rule area +scorpion-ref \(ref\.jsonl\) +scorpion-ref \(broken\.jsonl\)$", out, re.M)
    assert f"{len(now_failing)} cases whose status differs:\n" in out
    for ident, rules in now_failing:
        assert re.search(rf"^{re.escape(f'{ident}[{rules}]')} +passed +failed$", out, re.M)
    listed = re.findall(r"^([A-Z]+-\d+(?:/\d+)?\[standard\]) ", out, re.M)
    assert len(listed) == len(now_failing)


def test_a_case_held_by_one_report_only_is_counted_not_compared(say: Any, reports: Path) -> None:
    text = (reports / "ref.jsonl").read_text(encoding="utf-8").splitlines()
    stock_only = [line for line in text if '"area_id": "placement"' not in line]
    (reports / "stock.jsonl").write_text("\n".join(stock_only) + "\n", encoding="utf-8")
    placement = sum(1 for line in text if '"area_id": "placement"' in line)
    code, out, _ = say("stock.jsonl", "broken.jsonl")
    assert code == 0 and "0 cases whose status differs\n" in out
    assert f"{placement} cases only scorpion-ref (broken.jsonl) holds (--format json lists them)\n" in out
    assert re.search(r"^placement +· +\d+/\d+, \d+ failed$", out, re.M)


def test_unsupported_in_one_report_is_a_difference() -> None:
    """A case one implementation ran under standard and another could not run at all."""
    end = {"end": True, "run": "complete"}
    one = Report(Path("a"), ({"id": "X-1", "rules": "standard", "status": "passed"},), end, "a")
    two = Report(Path("b"), ({"id": "X-1", "rules": None, "status": "unsupported"},), end, "b")
    assert differences([one, two]) == ([(("X-1", "standard"), ["passed", "unsupported"])], {})
    assert differences([two, two]) == ([], {})


def test_json_says_what_the_files_hold(say: Any, reports: Path) -> None:
    broken, end = lines_of(reports / "broken.jsonl")
    code, out, _ = say("ref.jsonl", "broken.jsonl", "--format", "json", "--show", "failures")
    assert code == 0
    document = json.loads(out)
    first, second = document["reports"]
    assert second["file"] == "broken.jsonl" and second["label"] == "scorpion-ref (broken.jsonl)"
    assert second["hello"] == end["hello"] and second["run"] == "complete"
    assert (second["whole"], second["caveat"]) == (False, "narrowed")
    assert second["narrowed"] == ["--rules standard", "--area placement,stock"]
    assert second["totals"] == dict(Counter(r["status"] for r in broken)) == end["totals"]
    cells = Counter()
    for row in second["areas"]:
        cells.update({(row["area"], row["rules"], s): n for s, n in row["counts"].items()})
    assert cells == Counter((r["area_id"], r["rules"], r["status"]) for r in broken)
    failed = [r for r in broken if r["status"] == "failed"]
    assert [(f["id"], f["message"], f["rerun"]) for f in second["failures"]] == [
        (r["id"], r["message"], r["rerun"]) for r in failed]
    assert first["failures"] == []
    assert [d["case"] for d in document["differences"]] == [f"{r['id']}[standard]" for r in failed]
    assert document["differences"][0]["statuses"] == {
        "scorpion-ref (ref.jsonl)": "passed", "scorpion-ref (broken.jsonl)": "failed"}
    assert document["only_in"] == {}
    code, out, _ = say("ref.jsonl", "--format", "json")
    assert "differences" not in json.loads(out) and "failures" not in json.loads(out)["reports"][0]


class _Html(HTMLParser):
    """The tags of rendered Markdown, and the cells of each table row."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.rows: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append(0)
        elif tag in ("td", "th"):
            self.rows[-1] += 1


def rendered(text: str) -> _Html:
    parser = _Html()
    parser.feed(markdown.markdown(text, extensions=["tables"]))
    return parser


def test_markdown_renders_to_tables_and_lists(say: Any, reports: Path) -> None:
    broken, _ = lines_of(reports / "broken.jsonl")
    failed = [r for r in broken if r["status"] == "failed"]
    code, out, _ = say("ref.jsonl", "broken.jsonl", "--format", "markdown", "--show", "failures")
    assert code == 0 and out.startswith("## Scorpion conformance summary\n")
    assert "| rule area | scorpion-ref (ref.jsonl) | scorpion-ref (broken.jsonl) |\n" in out
    assert f"### {len(failed)} failed or errored in broken.jsonl\n" in out
    assert f"### {len(failed)} cases whose status differs\n" in out
    assert f"| {failed[0]['id']}\\[standard\\] | passed | failed |\n" in out
    page = rendered(out)
    assert page.tags.count("table") == 2 and set(page.rows) == {3}  # every row: a name and two columns
    assert page.tags.count("code") == len(failed)  # each rerun line
    assert set(page.tags) <= {"h2", "h3", "p", "strong", "ul", "li", "table", "thead", "tbody", "tr", "th",
                              "td", "br", "code"}


HOSTILE = "evil\x1b]0;owned\x07\r\u202e|*loud*| <script>alert(1)</script> [x](javascript:alert(1))"


def _hostile_report(reports: Path) -> Path:
    """The broken run's report with hostile words in every field the summary shows."""
    records, end = lines_of(reports / "broken.jsonl")
    end["hello"]["implementation"]["name"] = HOSTILE
    end["implementation"] = end["adapter"] = end["started"] = HOSTILE
    for record in records:
        record["area_id"] = "area" + HOSTILE
        if record["status"] == "failed":
            record.update(name=HOSTILE, message=HOSTILE + "\nsecond line", rerun=HOSTILE, source=HOSTILE,
                          id="PLACE" + HOSTILE, rules="std" + HOSTILE)
    path = reports / "hostile.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [*records, end]), encoding="utf-8")
    return path


def test_hostile_words_are_shown_never_obeyed(say: Any, reports: Path) -> None:
    _hostile_report(reports)
    for form, shown in (("text", "evil\\x1b]0;owned\\x07\\x0d\\u202e"),
                        ("markdown", "evil\\x1b\\]0;owned\\x07\\x0d\\u202e")):
        code, out, _ = say("hostile.jsonl", "ref.jsonl", "--show", "failures", "--format", form)
        assert code == 0
        assert not CONTROL.search(out.replace("\n", "")), form
        assert shown in out and "second line" not in out
    code, out, _ = say("hostile.jsonl", "ref.jsonl", "--show", "failures", "--format", "markdown")
    assert "<script>" not in out and "&lt;script&gt;" in out and "\\*loud\\*" in out
    page = rendered(out)
    assert "script" not in page.tags and "a" not in page.tags and "em" not in page.tags
    assert set(page.rows) == {3}  # a hostile area is one row of three cells, never a cell split
    code, out, _ = say("hostile.jsonl", "--format", "markdown")
    page = rendered(out)
    assert "script" not in page.tags and "a" not in page.tags and "em" not in page.tags
    assert set(page.rows) == {4}  # a hostile rule set is one column beside standard and the unfitted
    code, out, _ = say("hostile.jsonl", "--format", "json", "--show", "failures")
    assert code == 0 and not CONTROL.search(out.replace("\n", ""))
    document = json.loads(out)["reports"][0]
    assert document["hello"]["implementation"]["name"] == HOSTILE == document["label"]
    assert document["failures"][0]["message"] == HOSTILE + "\nsecond line"


def test_each_bad_input_is_one_line_naming_the_file(say: Any, reports: Path, tmp_path: Path) -> None:
    text = (reports / "ref.jsonl").read_text(encoding="utf-8").splitlines()
    (tmp_path / "cut.jsonl").write_text("\n".join(text[:5]) + "\n", encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"name": "not a report"}\n', encoding="utf-8")
    (tmp_path / "junit.xml").write_text('<?xml version="1.0"?>\n<testsuites/>\n', encoding="utf-8")
    (tmp_path / "ref.jsonl").write_text("\n".join(text) + "\n", encoding="utf-8")
    report = "`scorpion-conformance run --report`"
    expected = {
        "missing.jsonl": "missing.jsonl: no such file",
        "cut.jsonl": "cut.jsonl: no closing record after 5 results: the run that wrote it was cut short "
                     "(killed, or out of disk) before it could end the report, so it is not whole",
        "empty.jsonl": f"empty.jsonl: empty, not a report of {report}",
        "other.json": f"other.json:1: a record with no status; is it a report of {report}?",
        "junit.xml": f"junit.xml:1: not JSON (Expecting value); is it a report of {report}?",
    }
    for name, said in expected.items():
        code, out, err = say("ref.jsonl", name, cwd=tmp_path)  # the bad one second: it is named
        assert (code, out, err) == (2, "", f"scorpion-conformance summary: {said}\n"), name
    # from the command itself: no traceback, one line
    result = subprocess.run([sys.executable, "-m", "scorpion_conformance.cli", "summary", "cut.jsonl"],
                            capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"scorpion-conformance summary: {expected['cut.jsonl']}\n"
