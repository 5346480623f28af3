"""The thirteen defects a hostile review found, each held shut by a test that failed before its fix.

1. script in the published report page; 2. a badge that looked better than the run; 3. the
compiled solver wrapping big budgets; 4. a write that replaced what the path named; 5. a CRLF
results file corrupted by the repair of a torn line; 6. solve checks without a time cap; 7. a
full disk ending a campaign in tracebacks and a torn line; 8. a doubled solve answer blamed on
the wrong position; 9. terminal escapes from adapters and feature files (also
``tests/test_hostile.py`` and the ``control_character`` folder of ``tests/authoring_errors``);
10. tracebacks where a clear error belongs; 11. a campaign summary that trusted its file; 12.
``--games`` past the deal range refused only midway; 13. an unbounded ``--workers``, two
campaigns on one file, and a lying ``play`` letting a bogus won line through. The fix of each is
the fix of its class: one escaping helper, one terminal sanitiser, one bounded typed JSON
reader, one writer, every numeric option checked against its consumer.

A command whose words and files are the point is called in this process
(``tests/in_this_process.py``); one under a resource limit, a campaign beside another, or whose
time or standard error the test reads, runs in a subprocess.
"""

from __future__ import annotations

import html.parser
import json
import os
import resource
import shlex
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from in_this_process import Said, command

from scorpion_conformance.client import AdapterClient
from scorpion_conformance.reference import in_process
from scorpion_conformance.solving.results import Record, ResultsFile, read_records
from scorpion_conformance.solving_checks import load_positions, run_solve_checks

ROOT = Path(__file__).resolve().parents[1]
WRONG_SOLVER = ROOT / "tests" / "fake_adapters" / "wrong_solver.py"
POSITIONS = load_positions()
WON = {p.name for p in POSITIONS if p.answer == "won"}
LOST = {p.name for p in POSITIONS if p.answer == "lost"}
#: Generous bounds for commands that should end at once: they fail only a program that hangs.
AT_ONCE = 300


def cli(cwd: Path, *args: str, env: dict[str, str] | None = None, limits: dict[int, int] | None = None,
        timeout: float = AT_ONCE) -> subprocess.CompletedProcess[str]:
    def confine() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file past its limit is an error, not a kill
        for kind, value in (limits or {}).items():
            resource.setrlimit(kind, (value, value))

    return subprocess.run([sys.executable, "-m", "scorpion_conformance.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=confine,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})})


def one_line_error(result: subprocess.CompletedProcess[str] | Said, code: int = 2) -> str:
    assert result.returncode == code, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr


# -- 1. script in the published report page -----------------------------------------------------

class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.handlers: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.handlers += [name for name, _ in attrs if name.startswith("on")]
        self.links += [value or "" for name, value in attrs if name == "href"]


def test_1_the_report_page_escapes_every_field_and_links_only_web_addresses(tmp_path: Path) -> None:
    svg, img = "<svg onload=alert(1)>", "<img src=x onerror=alert(2)>"
    lines = [
        {"id": "STOCK-001", "name": "n", "area": "Stock", "rules": img, "status": "passed"},
        {"id": "NEW-001", "name": "n", "area": svg, "rules": "standard", "status": "failed"},
        {"end": True, "run": "complete", "implementation": svg,
         "hello": {"implementation": {"name": svg, "version": "1", "language": "x",
                                      "homepage": "javascript:alert(3)"},
                   "rulesets": {img: {"runs": "collect"}}, "capabilities": []}},
    ]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert command("report", "r.jsonl", "--html", "out", cwd=tmp_path).returncode == 0
    page = _Elements()
    page.feed((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert {"svg", "img", "script"} & set(page.tags) == set()
    assert page.handlers == [] and page.links == []


# -- 2. a badge that looks better than the run ------------------------------------------------------

@pytest.mark.parametrize(("run", "selected", "says"), [
    ("interrupted", {}, "5/5 passed (interrupted)"),
    ("complete", {"ids": "STOCK-001"}, "5/5 passed (narrowed)"),
    ("gave-up", {}, "5/5 passed (gave up on the adapter)"),
    ("adapter-unusable", {}, "adapter unusable"),
])
def test_2_a_badge_of_a_run_that_was_not_whole_says_so_and_is_never_green(
        tmp_path: Path, run: str, selected: dict[str, str], says: str) -> None:
    cases = [] if run == "adapter-unusable" else [
        {"id": f"STOCK-00{i}", "name": "n", "area": "Stock", "rules": "standard", "status": "passed"}
        for i in range(1, 6)]
    end = {"end": True, "run": run, "selected": selected}
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in [*cases, end]), encoding="utf-8")
    assert command("report", "r.jsonl", "--html", "out", cwd=tmp_path).returncode == 0
    badge = json.loads((tmp_path / "out" / "badge.json").read_text(encoding="utf-8"))
    assert badge["message"] == says and badge["color"] not in ("brightgreen", "green")
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "sc-badge-ok\"><b>conformance" not in page


def test_2_only_a_whole_complete_run_is_green(tmp_path: Path) -> None:
    from scorpion_conformance.site.own_report import badge

    whole = {"run": "complete", "selected": {"rules": None}}
    assert badge([{"status": "passed"}], whole)["color"] == "brightgreen"


# -- 3. the compiled solver wrapping big budgets ---------------------------------------------------

def test_3_a_budget_past_what_the_solver_counts_is_refused_not_wrapped(tmp_path: Path) -> None:
    for option, value in (("--budget", str(2**64)), ("--memory-mb", str(2**44))):
        refused = command("solve", "--game", "5", "--rules", "classic", option, value, cwd=tmp_path)
        said = one_line_error(refused)
        assert "more than the solver counts" in said
    fits = command("solve", "--game", "5", "--rules", "classic", "--budget", str(2**64 - 1), cwd=tmp_path)
    assert fits.returncode == 0 and "won in" in fits.stdout


def test_3_the_compiled_core_refuses_a_count_it_cannot_hold() -> None:
    from scorpion_ref import deal_game, get_ruleset
    from scorpion_ref.solver import Budget, _core  # type: ignore[attr-defined]
    from scorpion_ref.solver.fast import Flags, encode
    from scorpion_ref.solver.search import flag_bits

    root = encode(deal_game(5))
    flags = flag_bits(Flags.of(get_ruleset("classic")))
    for count in (2**64, -1):
        with pytest.raises(OverflowError):
            _core.Search(root[0], root[1], root[2], flags, True, False, [], count)
        with pytest.raises(OverflowError):
            _core.Search(root[0], root[1], root[2], flags, True, False, [], 2**30).run(count, None, 10_000)
    with pytest.raises(ValueError, match="at most"):
        Budget(nodes=2**64)


# -- 4. a write that replaces what the path names ---------------------------------------------------

def _device(tmp_path: Path) -> Path:
    """A device that refuses every write with ENOSPC: a /dev/full of this test's own where it may
    make one, else /dev/full itself (written in place, it comes to no harm)."""
    own = tmp_path / "full"
    try:
        os.mknod(own, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        with open(own, "w"):
            pass
    except OSError:
        return Path("/dev/full")
    return own


def test_4_writing_follows_a_link_writes_a_fifo_in_place_and_says_when_it_fails(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("old", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    assert command("export", "-o", "link.json", cwd=tmp_path).returncode == 0
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text(encoding="utf-8"))["cases"]

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there: the writer may open it
    received = bytearray()
    done = threading.Event()

    def read() -> None:
        import select

        while not done.is_set() or select.select([reader], [], [], 0)[0]:
            if select.select([reader], [], [], 0.1)[0]:
                chunk = os.read(reader, 1 << 16)
                if not chunk and done.is_set():
                    break
                received.extend(chunk)

    thread = threading.Thread(target=read)
    thread.start()
    try:
        exported = command("export", "-o", "fifo", cwd=tmp_path)
    finally:
        done.set()
        thread.join()
        os.close(reader)
    assert exported.returncode == 0 and stat.S_ISFIFO(fifo.stat().st_mode)
    assert json.loads(received.decode("utf-8"))["cases"]

    device = _device(tmp_path)
    for args in (("export", "-o", str(device)),):
        failed = command(*args, cwd=tmp_path)
        said = one_line_error(failed)
        assert "No space left on device" in said and "wrote" not in failed.stdout + failed.stderr
        assert stat.S_ISCHR(device.stat().st_mode)


def test_4_a_report_that_cannot_be_written_fails_the_run(tmp_path: Path) -> None:
    device = _device(tmp_path)
    ran = cli(tmp_path, "run", "--id", "STOCK-001", "--rules", "standard", "-q", "--report", str(device))
    assert ran.returncode == 2 and "cannot write it: No space left on device" in ran.stderr
    assert stat.S_ISCHR(device.stat().st_mode)
    lines = [{"id": "STOCK-001", "name": "n", "area": "Stock", "rules": "standard", "status": "passed"},
             {"end": True, "run": "complete"}]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "index.html").symlink_to(device)
    said = one_line_error(command("report", "r.jsonl", "--html", "out", cwd=tmp_path))
    assert "cannot write it: No space left on device" in said


# -- 5. a CRLF results file and the repair of a torn line ----------------------------------------

def _record(game: int, outcome: str = "lost") -> Record:
    return Record(game=game, rules="classic", outcome=outcome, nodes=10, seconds=0.1, budget=1000,
                  memory_mb=64, solver="test", proof="exhausted")


def test_5_a_torn_line_of_a_crlf_results_file_is_cut_where_it_starts(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    whole = b"".join(_record(g).to_json().encode() + b"\r\n" for g in range(1, 301))
    path.write_bytes(whole + b'{"game": 301, "ru')
    with ResultsFile(path) as results:
        assert len(results.records) == 300
        results.add(_record(302))
    assert path.read_bytes().startswith(whole)
    assert [r.game for r in read_records(path)] == [*range(1, 301), 302]
    with ResultsFile(path) as again:
        assert len(again.records) == 301


# -- 6. the solve checks' time cap -------------------------------------------------------------------

def test_6_an_adapter_that_never_answers_solve_in_time_is_given_up_on(tmp_path: Path) -> None:
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(WRONG_SOLVER))} slow"
    checked = cli(tmp_path, "check-adapter", "--adapter", adapter, "--solve-timeout", "2",
                  env={"SOLVE_SECONDS": "65"})
    assert checked.returncode == 1, checked.stdout + checked.stderr
    lines = checked.stdout.splitlines()
    timeouts = [line for line in lines if "AdapterTimeout" in line]
    # After two late answers, or sooner if restarting the adapter ate the checks' 3 s (a loaded machine)
    assert 1 <= len(timeouts) <= 2, checked.stdout
    assert all(line.endswith("[a fault of the adapter program]") for line in timeouts)
    rest = len(POSITIONS) - len(timeouts)
    why = ("2 answers took longer than they may" if len(timeouts) == 2
           else "the solve checks used all their time")
    assert f"FAIL  solve ({rest} positions left): not checked: {why}" in checked.stdout, checked.stdout
    assert "PASS  quit" in checked.stdout


def test_6_the_solve_checks_stop_when_their_time_is_spent() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 30.0  # every look at the clock finds 30 s more gone
        return now[0]

    with in_process() as client:
        verdicts = list(run_solve_checks(client, client.hello(), timeout=60.0, clock=clock))
    assert [v.verdict for v in verdicts[:2]] == ["passed", "passed"]
    assert verdicts[2].name == f"({len(POSITIONS) - 2} positions left)" and verdicts[2].blame == "adapter"
    assert "used all their time (90 s)" in verdicts[2].detail and len(verdicts) == 3


# -- 7. a full disk ----------------------------------------------------------------------------------

def test_7_a_full_disk_ends_a_campaign_in_one_line_with_the_file_whole(tmp_path: Path) -> None:
    ran = cli(tmp_path, "winnability", "--rules", "classic", "--games", "1-200", "--budget", "2k",
              "--max-budget", "2k", "--workers", "1", "--results", "r.jsonl",
              limits={resource.RLIMIT_FSIZE: 4000})
    said = one_line_error(ran)
    assert "cannot write to the results file r.jsonl" in said and "taken back" in said
    data = (tmp_path / "r.jsonl").read_bytes()
    assert data.endswith(b"\n") and 0 < len(data) <= 4000
    records = read_records(tmp_path / "r.jsonl")
    assert len(records) == data.count(b"\n")


# -- 8. a doubled solve answer -------------------------------------------------------------------

def test_8_a_second_copy_of_a_solve_answer_is_blamed_at_its_own_position() -> None:
    with AdapterClient([sys.executable, str(WRONG_SOLVER), "doubled"], timeout=30) as client:
        verdicts = {v.name: v for v in run_solve_checks(client, client.hello())}
    assert set(verdicts) == WON | LOST
    for name, verdict in verdicts.items():
        assert (verdict.verdict, verdict.blame) == ("error", "adapter"), (name, verdict)
        assert verdict.detail.startswith("OutOfStep: the answer to state"), (name, verdict.detail)
        assert '"cmd":"solve"' in verdict.detail and "again" in verdict.detail, (name, verdict.detail)


# -- 10. tracebacks where a clear error belongs -------------------------------------------------------

@pytest.mark.parametrize("end", [
    b'{"end":true,"run":"complete","hello":"x"}',
    b'{"end":true,"run":"complete","hello":{"implementation":"x"}}',
    b'{"end":true,"run":"complete","versions":[1]}',
    b'{"end":true,"run":"complete","selected":5}',
    b'{"end":true,"run":"complete","hello":{"rulesets":5}}',
    b'{"end":true,"run":"complete","hello":{"capabilities":5}}',
    b'{"end":true,"run":"complete","implementation":"\xff\xfe"}',
    b'{"end":true,"run":"complete","hello":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
])
def test_10_a_report_that_cannot_be_used_is_one_line(tmp_path: Path, end: bytes) -> None:
    case = b'{"id":"STOCK-001","name":"n","area":"Stock","rules":"standard","status":"passed"}'
    (tmp_path / "r.jsonl").write_bytes(case + b"\n" + end + b"\n")
    said = one_line_error(command("report", "r.jsonl", "--html", "out", cwd=tmp_path))
    assert said.startswith("scorpion-conformance report: r.jsonl:2: ")


def test_10_a_bad_budget_or_position_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for args, words in (
        (("--game", "5", "--budget", "1_"), "not a positive number of positions"),
        (("--game", "5", "--budget", "9" * 5000), "is not a positive number of positions"),
        (("--position", "deep.json"), "nested more than 64 levels deep"),
    ):
        said = one_line_error(command("solve", "--rules", "classic", *args, cwd=tmp_path))
        assert words in said, said
    # a reader without bounds would run out of this address space long before /dev/zero ends
    said = one_line_error(cli(tmp_path, "solve", "--rules", "classic", "--position", "/dev/zero",
                              limits={resource.RLIMIT_AS: 2 * 2**30}))
    assert "bigger than 1,048,576 bytes" in said, said


# -- 11. a campaign summary that trusts its file -------------------------------------------------

def test_11_a_results_file_that_contradicts_itself_or_claims_a_false_win_is_refused(tmp_path: Path) -> None:
    lost = _record(1).to_json()
    won = Record(**{**json.loads(lost), "outcome": "won", "proof": None, "line": "deal"}).to_json()
    for name, lines, words in (
        ("contradicts", [lost, won],
         "lines 1 and 2: game 1 under classic is lost on one and won on the other"),
        ("false-win", [won], "game 1 under classic is recorded won, but its line does not win"),
        ("deep", ["[" * 100_000 + "]" * 100_000], "line 1: not a results record (nested more than 64"),
    ):
        (tmp_path / f"{name}.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        said = one_line_error(cli(tmp_path, "winnability", "--rules", "classic", "--games", "1",
                                  "--budget", "2k", "--max-budget", "2k", "--workers", "1",
                                  "--results", f"{name}.jsonl"))
        assert words in said, said


# -- 12. --games past the deal range -------------------------------------------------------------------

def test_12_games_past_the_deal_range_are_refused_before_any_is_solved(tmp_path: Path) -> None:
    said = one_line_error(cli(tmp_path, "winnability", "--rules", "classic", "--games",
                              "99999999999999999998-100000000000000000000", "--budget", "2k",
                              "--max-budget", "2k", "--workers", "1", "--results", "r.jsonl"))
    assert "game numbers run from 1 to 99999999999999999999" in said
    assert not (tmp_path / "r.jsonl").exists()


# -- 13. workers, two campaigns on one file, a lying play ---------------------------------------------

def test_13_more_workers_than_the_machine_takes_are_refused(tmp_path: Path) -> None:
    said = one_line_error(cli(tmp_path, "winnability", "--rules", "classic", "--games", "1-3",
                              "--workers", "100000", "--results", "r.jsonl"))
    assert "--workers 100000: at most" in said
    ran = command("run", "-n", "100000", "--id", "STOCK-001", cwd=tmp_path)
    assert ran.returncode == 2 and "at most" in ran.stderr and "workers on this machine" in ran.stderr


def test_13_a_second_campaign_on_a_results_file_in_use_is_refused(tmp_path: Path) -> None:
    with ResultsFile(tmp_path / "r.jsonl"):  # a campaign writing to it
        said = one_line_error(cli(tmp_path, "winnability", "--rules", "classic", "--games", "1-3",
                                  "--budget", "2k", "--max-budget", "2k", "--workers", "1",
                                  "--results", "r.jsonl"))
    assert "another campaign is writing to it" in said
    assert (tmp_path / "r.jsonl").read_bytes() == b""


def test_13_a_won_line_that_only_the_adapters_own_play_accepts_is_a_failure() -> None:
    with AdapterClient([sys.executable, str(WRONG_SOLVER), "lying-play"], timeout=30) as client:
        verdicts: dict[str, Any] = {v.name: v for v in run_solve_checks(client, client.hello())}
    for name in WON:
        assert (verdicts[name].verdict, verdicts[name].blame) == ("failed", "implementation"), verdicts[name]
        assert "the rules (the reference)" in verdicts[name].detail


def test_2_the_protocol_page_says_what_the_badge_says() -> None:
    import re

    from scorpion_conformance.site.own_report import badge

    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = page.split("### The page and the badge of `report`", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| [^|]+ \| `([^`]+)` \| ([^|]+) \|$", section, flags=re.M)
    colours = {"brightgreen": "bright green", "yellow": "yellow", "red": "red", "orange": "orange",
               "blue": "blue"}

    def shape(message: str) -> str:
        return re.sub(r"[0-9]+", "N", message)

    said = [(shape(message), colour) for message, colour in rows]
    passed = [{"status": "passed"}] * 5
    runs = [({"run": "complete"}, passed), ({"run": "interrupted"}, passed),
            ({"run": "complete", "selected": {"ids": "X"}}, passed), ({"run": "gave-up"}, passed),
            ({"run": "adapter-unusable"}, []), ({"run": "complete"}, [*passed, {"status": "failed"}]),
            ({"run": "complete"}, [*passed, {"status": "xfailed"}])]
    for end, records in runs:
        shown = badge(records, end)
        assert any(message == shape(shown["message"]) and colour.startswith(colours[shown["color"]])
                   for message, colour in said), (shown, said)
