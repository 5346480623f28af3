"""Winnability campaigns: local workers, a stop and a resume, a Dask cluster, the committed results.

The games are PySolFC's first ones under ``classic``, which any correct
solver decides within a few thousand positions each.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
from machine import allowing_for_load

from scorpion_conformance.cli import main
from scorpion_conformance.solving import pool
from scorpion_conformance.solving.campaign import Campaign, describe, rates_of, run_campaign
from scorpion_conformance.solving.lines import read_line
from scorpion_conformance.solving.results import read_records
from scorpion_ref import Status, apply, deal_game, get_ruleset, status

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "winnability"


def campaign(path: Path, games: range, **more: object) -> Campaign:
    settings: dict[str, object] = dict(rules="classic", games=list(games), ladder=[50_000, 200_000],
                                       memory_mb=256, results=str(path), workers=1)
    settings.update(more)
    return Campaign(**settings)  # type: ignore[arg-type]


def test_a_local_campaign_writes_one_record_per_game_and_says_the_rate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "classic.jsonl"
    code = main(["winnability", "--rules", "classic", "--games", "1-8", "--workers", "2", "--budget", "50k",
                 "--max-budget", "200k", "--results", str(path)])
    out = capsys.readouterr().out
    records = read_records(path)
    assert code == 0 and sorted(r.game for r in records) == list(range(1, 9))
    assert all(r.rules == "classic" and r.budget == 50_000 and r.memory_mb == 1024 and r.solver
               for r in records)
    assert {r.outcome for r in records} <= {"won", "lost"}
    assert [r.game for r in records if r.outcome == "won"] == [5]
    assert out.startswith("classic, games 1-8: 1 won, 7 lost, 0 unknown\n")
    assert "win rate: 12.50% won of 8 decided (95% Wilson interval 2.24%-47.09%)" in out
    assert "hardest: game " in out and f"results: {path}" in out
    # Run again: everything is decided, nothing is solved twice.
    assert main(["winnability", "--rules", "classic", "--games", "1-8", "--results", str(path)]) == 0
    assert "this run searched 0 games in" in capsys.readouterr().out
    assert len(read_records(path)) == 8


def test_unknowns_are_retried_at_the_next_budget_only(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    report = run_campaign(campaign(path, range(1, 4), ladder=[1, 200_000]))
    history = read_records(path)
    first = [r for r in history if r.budget == 1]
    assert sorted(r.game for r in first) == [1, 2, 3]
    retried = sorted(r.game for r in history if r.budget == 200_000)
    assert retried == sorted(r.game for r in first if r.outcome == "unknown")
    assert rates_of(report.best).unknown == 0 and sorted(report.best) == [1, 2, 3]
    assert not report.interrupted and report.solved_now == len(history)
    # The games are counted once each, the records apart: 3 games, one record more per unknown.
    said = f"this run searched 3 games in {report.seconds_now:,.1f} s"
    again = len(history) - 3
    ending = f"{said} ({len(history)} records: {again} of them a bigger budget for a game left unknown)"
    assert again and any(line.endswith(ending) for line in describe(report)), describe(report)
    # A bigger first budget later: decided games stay decided, no game is solved again.
    run_campaign(campaign(path, range(1, 4), ladder=[400_000]))
    assert read_records(path) == history


def _children(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _stopped(command: list[str], path: Path, records: int, signum: int) -> tuple[int, str, str]:
    """Start a campaign, send it ``signum`` once ``records`` are written, and wait for it to end;
    its exit status, output and errors. Its workers must all be gone afterwards."""
    process = subprocess.Popen(command, cwd=path.parent, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if path.exists() and path.read_text(encoding="utf-8").count("\n") >= records:
                break
            time.sleep(0.05)
        workers = _children(process.pid)
        assert process.poll() is None, "the campaign ended before it could be stopped"
        assert workers, "no worker process was seen"
        process.send_signal(signum)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert "interrupted: every finished game is in the results file" in out and "Traceback" not in err
    _gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"workers left running: {alive}"
    return process.returncode, out, err


def test_a_stopped_campaign_resumes_with_no_game_twice_and_none_lost(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "scorpion_conformance.cli", "winnability", "--rules", "classic",
               "--games", "1-60", "--workers", "2", "--budget", "50k", "--max-budget", "200k",
               "--results", str(path)]
    code, _out, err = _stopped(command, path, 5, signal.SIGINT)
    assert code == 130, err
    stopped = read_records(path)
    assert 5 <= len(stopped) < 60
    done = subprocess.run(command, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    counts = Counter(r.game for r in read_records(path))
    assert sorted(counts) == list(range(1, 61)) and set(counts.values()) == {1}
    assert f"this run searched {60 - len(stopped)} games in" in done.stdout


def test_a_campaign_on_a_dask_cluster(tmp_path: Path) -> None:
    import distributed  # here: every worker of the test run collects this module, one test uses Dask

    path = tmp_path / "r.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  memory_limit="1GiB") as cluster:
        report = run_campaign(campaign(path, range(1, 9), scheduler=cluster.scheduler_address))
    records = read_records(path)
    assert sorted(r.game for r in records) == list(range(1, 9))
    assert [r.game for r in records if r.outcome == "won"] == [5]
    assert describe(report)[0] == "classic, games 1-8: 1 won, 7 lost, 0 unknown"


def test_no_scheduler_at_the_address_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The command keeps trying for 10 s; the message is the same after a shorter try.
    monkeypatch.setattr(pool, "CONNECT_TIMEOUT", "1s")
    code = main(["winnability", "--rules", "classic", "--games", "1-2", "--scheduler", "tcp://127.0.0.1:9",
                 "--results", str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "cannot reach a Dask scheduler" in err


def committed() -> list[Path]:
    return sorted(DATA.glob("*.jsonl")) + sorted(DATA.glob("*.jsonl.gz"))


def test_won_lines_of_the_committed_results_replay_to_won() -> None:
    files = committed()
    assert files, f"no results file in {DATA}"
    sampler = random.Random(14)
    replayed = 0
    for path in files:
        records = read_records(path)
        won = [r for r in records if r.outcome == "won"]
        assert records and all(r.rules == path.name.split(".")[0] for r in records), path
        for record in sampler.sample(won, min(25, len(won))):
            rules = get_ruleset(record.rules)
            position = deal_game(record.game)
            for action in read_line(record.line or ""):
                position = apply(position, rules, action).position
            assert status(position, rules) is Status.WON, f"{path.name}: game {record.game}"
            replayed += 1
    assert replayed >= 10


def test_a_game_that_fails_in_a_worker_is_named_and_the_workers_end() -> None:
    from scorpion_conformance.solving.pool import GameFailed, run_local

    seen: list[object] = []
    with pytest.raises(GameFailed, match=r"game 0 under classic at up to 10 positions: ScorpionError: game"):
        run_local([(1, "classic", (10,), 64), (0, "classic", (10,), 64)], 1, seen.append)
    assert not [p for p in psutil.Process().children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]


def test_the_committed_outcomes_agree_with_an_unreduced_search_where_it_decides() -> None:
    """The plain search (no symmetry, no theorems, no representation of its own) contradicts no record."""
    from scorpion_ref.solver import Budget, plain_solve

    # Records our solver decided in a few thousand positions: the plain search, slower and
    # wider, decides most of them within its budget, so a sample of them checks something.
    sampler = random.Random(2026)
    tried = decided = 0
    for path in committed():
        records = [r for r in read_records(path) if r.decided and 0 < r.nodes <= 2_000]
        rules = get_ruleset(path.name.split(".")[0])
        for record in sampler.sample(records, min(4, len(records))):
            found = plain_solve(deal_game(record.game), rules, Budget(nodes=5_000, memory_mb=256))
            assert found.outcome in (record.outcome, "unknown"), f"{path.name}: game {record.game}"
            tried += 1
            decided += found.outcome != "unknown"
    assert tried >= 16 and decided >= tried // 2, (tried, decided)


def test_a_stop_ends_the_pool_its_workers_and_its_thread() -> None:
    """The stop event ends a local run at a safe point, and nothing of the pool outlives it.

    The pool's own thread once spun for ever at exit, when the workers were reaped behind
    its back: the test looks for that thread and for live worker processes afterwards.
    """
    import threading

    from scorpion_conformance.solving.pool import Stopped, run_local

    stop = threading.Event()
    seen: list[object] = []

    def on_record(record: object) -> None:
        seen.append(record)
        stop.set()

    started = time.monotonic()
    with pytest.raises(Stopped):
        run_local([(game, "classic", (200_000,), 256) for game in range(1, 40)], 2, on_record, stop)
    assert time.monotonic() - started < allowing_for_load(60)
    assert len(seen) >= 1
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    assert not [p for p in psutil.Process().children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]


def test_sigterm_stops_a_campaign_with_143_and_every_record_whole(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    command = [sys.executable, "-m", "scorpion_conformance.cli", "winnability", "--rules", "classic",
               "--games", "1-60", "--workers", "2", "--budget", "200k", "--results", str(path)]
    code, _out, err = _stopped(command, path, 3, signal.SIGTERM)
    assert code == 143, err
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n") and 3 <= len(read_records(path)) == text.count("\n") < 60
