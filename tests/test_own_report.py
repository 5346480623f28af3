"""A report of one's own: ``run --report`` records what the page needs, and
``scorpion-conformance report`` turns it into one self-contained HTML page and
a shields.io endpoint badge."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorpion_conformance.cli", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


def test_the_card_styles_live_once_and_the_site_serves_them() -> None:
    shipped = ROOT / "scorpion_conformance" / "site" / "assets" / "cards.css"
    assert ".sc-card" in shipped.read_text(encoding="utf-8")
    assert not (ROOT / "docs" / "stylesheets" / "cards.css").exists(), "the styles live in the package only"
    from scorpion_conformance.site.mkdocs_hooks import CARD_STYLES

    assert f"  - {CARD_STYLES}" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_a_run_records_what_its_report_needs_and_the_page_draws_it(tmp_path: Path) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(BROKEN))} cross-suit"
    run = cli(tmp_path, "run", "-qq", "--adapter", adapter, "--area", "placement,deal", "--rules", "standard",
              "--report", "r.jsonl")
    assert run.returncode == 1, run.stdout[-2000:]
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    end = lines[-1]
    assert end["end"] is True and end["run"] == "complete"
    assert end["hello"]["implementation"]["language"] == "python"
    assert set(end["hello"]["rulesets"]) >= {"standard"} and "capabilities" in end["hello"]
    assert end["hello"]["rulesets"]["standard"]["runs"] == "collect"
    assert end["versions"]["protocol"] == 1 and end["versions"]["suite"]
    assert end["started"] <= end["finished"]
    assert end["selected"]["areas"] == ["deal", "placement"]
    assert end["totals"]["failed"] == sum(1 for r in lines[:-1] if r["status"] == "failed")

    made = cli(tmp_path, "report", "r.jsonl", "--html", "out")
    assert made.returncode == 0, made.stderr
    assert "wrote out/index.html" in made.stdout
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<style>" in page and "sc-felt" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "the page fetches something"
    assert "<link" not in page and "<script" not in page
    assert "sc-badge" in page and 'class="sc-report"' in page
    assert "Same-suit placement" in page and "standard" in page
    failed = [r for r in lines[:-1] if r["status"] == "failed"]
    assert failed and f'id="{failed[0]["id"]}-{failed[0]["rules"]}"' in page
    assert page.count('class="sc-diagram') >= len(failed)  # each failure drawn
    assert failed[0]["rerun"].replace('"', "&quot;") in page
    badge = json.loads((tmp_path / "out" / "badge.json").read_text(encoding="utf-8"))
    passed = sum(1 for r in lines[:-1] if r["status"] == "passed")
    # the run was narrowed to two areas, and its badge says so
    assert badge == {"schemaVersion": 1, "label": "Scorpion conformance",
                     "message": f"{passed}/{passed + len(failed)} passed (narrowed)", "color": "red"}


def test_a_report_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"id": "X", "status": "passed"}\nnot json\n', encoding="utf-8")
    result = cli(tmp_path, "report", "bad.jsonl", "--html", "out")
    assert result.returncode == 2
    assert result.stderr == "scorpion-conformance report: bad.jsonl:2: not JSON (Expecting value)\n"
    (tmp_path / "cut.jsonl").write_text('{"id": "X", "status": "passed"}\n', encoding="utf-8")
    result = cli(tmp_path, "report", "cut.jsonl", "--html", "out")
    assert result.returncode == 2 and "no closing record" in result.stderr
    result = cli(tmp_path, "report", "missing.jsonl", "--html", "out")
    assert result.returncode == 2 and "missing.jsonl" in result.stderr and "Traceback" not in result.stderr
