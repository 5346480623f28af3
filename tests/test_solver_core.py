"""The solver's compiled core (scorpion_ref/solver/_core.c) against its Python loop.

* the compiled core is built (a missing build fails here, it never skips);
* the two cores return the same outcome, proof, node count and line on the
  small generated positions of ``test_solver.py`` under every combination of
  the options, reduced and unreduced, and on thirty PySolFC games under
  every named rule set at 3,000 positions and three of them at 20,000 (won,
  lost and ended at the budget under each; ``benchmarks/solver_cores.py``
  runs games 1-60, and every fifth at 50,000);
* the compiled core reproduces a seeded sample of the committed campaign
  results (``data/winnability``): the same outcome after the same number of
  positions (for records of this solver version; records of an earlier
  version must have the same outcome, where both decided);
* a search that goes on to a bigger budget answers what a new search with
  that budget answers, in both cores;
* the node and memory budgets end in ``unknown``; Ctrl-C ends a long compiled
  search promptly with KeyboardInterrupt; many searches leak no memory;
* ``core="python"`` and ``SCORPION_SOLVER_CORE=python`` run the Python loop.
"""

from __future__ import annotations

import gzip
import json
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from test_solver import EVERY_RULESET, small_position

from scorpion_ref import RULESETS, Position, RuleSet, deal_game, get_ruleset
from scorpion_ref.solver import SOLVER_VERSION, Budget, Solution, solve
from scorpion_ref.solver import search as search_module
from scorpion_ref.solver.fast import knows
from scorpion_ref.solver.search import CORE_VARIABLE, Search, chosen_core, search

ROOT = Path(__file__).resolve().parents[1]
#: A standard game the search has not decided in 200,000 positions (data/winnability/standard.jsonl;
#: lost after 1.2 million).
HARD_STANDARD = 27
#: A standard game the search has not decided in 10 million positions (12 CPU seconds, 625 MB).
HARDER_STANDARD = 388


def answer(solution: Solution) -> tuple[object, ...]:
    return solution.outcome, solution.proof, solution.nodes, solution.line


def both(position: Position, rules: RuleSet, budget: Budget, reduced: bool = True) -> Solution:
    """The compiled core's answer, after checking that it is the Python loop's."""
    python = search(position, rules, budget, reduced=reduced, core="python")
    compiled = search(position, rules, budget, reduced=reduced, core="compiled")
    assert answer(compiled) == answer(python), (position, rules, budget, reduced)
    return compiled


def test_the_compiled_core_is_built() -> None:
    # An ImportError here fails the test: build the core with `pip install -e .`.
    from scorpion_ref.solver import _core

    assert callable(_core.Search)
    assert chosen_core() == "compiled"  # the default where it is built


@pytest.mark.parametrize("reduced", [True, False], ids=["reduced", "unreduced"])
def test_the_cores_agree_on_small_positions_under_every_combination(reduced: bool) -> None:
    outcomes: set[tuple[str, str | None]] = set()
    for i, rules in enumerate(r for r in EVERY_RULESET if knows(r)):
        for j in range(4 if reduced else 2):  # the unreduced search is the slow one
            position = small_position(100 * i + j, few_pieces=rules.empty_column == "any")
            found = both(position, rules, Budget(nodes=3000 if reduced else 1500), reduced)
            outcomes.add((found.outcome, found.proof))
    assert {("won", None), ("lost", "exhausted"), ("unknown", "nodes")} <= outcomes, outcomes
    if reduced:
        assert {("lost", "face-down-cycle"), ("lost", "missing-cards")} <= outcomes, outcomes


#: Games 1-24, and six later ones that each named rule set wins or leaves unknown at 3,000 positions
#: (classic decides all of 1-30, and loses most).
THIRTY_GAMES = (*range(1, 25), 35, 37, 39, 45, 49, 56)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_cores_agree_on_thirty_games(name: str) -> None:
    rules = get_ruleset(name)
    outcomes: set[str] = set()
    for game in THIRTY_GAMES:
        outcomes.add(both(deal_game(game), rules, Budget(nodes=3000)).outcome)
    # At a larger budget, three games (the Python loop is slow; benchmarks/solver_cores.py runs
    # more, at 50,000).
    for game in (5, 10, 15):
        outcomes.add(both(deal_game(game), rules, Budget(nodes=20_000)).outcome)
    assert outcomes == {"won", "lost", "unknown"}, outcomes


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_search_that_goes_on_answers_as_a_new_one_with_the_bigger_budget(name: str) -> None:
    rules = get_ruleset(name)
    for game in range(1, 31):
        # The Python loop is slow: every sixth game (benchmarks/solver_cores.py runs them all).
        for core in ("python", "compiled") if game % 6 == 1 else ("compiled",):
            going = Search(deal_game(game), rules, core=core)
            answers = [going.run(budget) for budget in (0, 300, 300, 2000, 9000)]
            for budget, answer in zip((0, 300, 300, 2000, 9000), answers, strict=True):
                fresh = search(deal_game(game), rules, Budget(nodes=budget), core=core)
                assert (answer.outcome, answer.proof, answer.nodes, answer.line) == (
                    fresh.outcome, fresh.proof, fresh.nodes, fresh.line), (name, game, core, budget)
            with pytest.raises(ValueError, match="cannot go back"):
                going.run(1000)


@dataclass(frozen=True)
class Record:
    """One line of ``data/winnability/<rules>.jsonl``: what the campaign's search found."""

    game: int
    rules: str
    outcome: str
    proof: str | None
    nodes: int
    budget: Budget
    solver: str


#: The sample leaves out records of more positions than this, so that the test stays short.
SAMPLE_NODES = 1_000_000


def campaign_sample(name: str, count: int) -> list[Record]:
    """``count`` records of ``data/winnability/<name>.jsonl`` (or ``.jsonl.gz``; the last record of
    each game, of at most :data:`SAMPLE_NODES` positions), by a seeded RNG."""
    plain = ROOT / "data" / "winnability" / f"{name}.jsonl"
    path = plain if plain.exists() else plain.with_name(plain.name + ".gz")
    opener = gzip.open if path.suffix == ".gz" else open
    last: dict[int, Record] = {}
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            data = json.loads(line)
            budget = Budget(nodes=data["budget"], memory_mb=data["memory_mb"])
            last[data["game"]] = Record(data["game"], data["rules"], data["outcome"], data.get("proof"),
                                        data["nodes"], budget, data["solver"])
    kept = sorted((r for r in last.values() if r.nodes <= SAMPLE_NODES), key=lambda r: r.game)
    return random.Random(f"core-{name}").sample(kept, count)


@pytest.mark.parametrize("name", ["classic", "standard", "wasp"])
def test_the_compiled_core_reproduces_the_campaign_results(name: str) -> None:
    sample = campaign_sample(name, 60)
    # The Python loop reproduces a few small ones: the record itself when this version wrote it,
    # the compiled core's answer (and the record's verdict) when an earlier one did.
    small = [r for r in sample if 0 < r.nodes < 20_000][:3]
    assert len(small) == 3
    for record in small:
        python = solve(deal_game(record.game), get_ruleset(record.rules), record.budget, core="python")
        compiled = solve(deal_game(record.game), get_ruleset(record.rules), record.budget, core="compiled")
        found = (python.outcome, python.proof, python.nodes)
        assert found == (compiled.outcome, compiled.proof, compiled.nodes)
        if record.solver == SOLVER_VERSION:
            assert found == (record.outcome, record.proof, record.nodes)
        elif "unknown" not in (python.outcome, record.outcome):
            assert python.outcome == record.outcome, record
    outcomes: set[str] = set()
    for record in sample:
        found = solve(deal_game(record.game), get_ruleset(record.rules), record.budget, core="compiled")
        if record.solver == SOLVER_VERSION:
            expected = (record.outcome, record.proof, record.nodes)
            assert (found.outcome, found.proof, found.nodes) == expected, record
        elif "unknown" not in (found.outcome, record.outcome):  # an earlier solver: the same verdict
            assert found.outcome == record.outcome, record
        outcomes.add(found.outcome)
    assert {"won", "lost"} <= outcomes
    # A file may hold both: the games an earlier version left unknown were re-solved by this one.


def test_the_budgets_end_in_unknown() -> None:
    rules, start = get_ruleset("standard"), deal_game(HARD_STANDARD)
    cut = solve(start, rules, Budget(nodes=12_345), core="compiled")
    assert (cut.outcome, cut.proof, cut.nodes, cut.line) == ("unknown", "nodes", 12_345, ())
    nothing = solve(start, rules, Budget(memory_mb=0), core="compiled")
    assert (nothing.outcome, nothing.proof, nothing.nodes) == ("unknown", "memory", 0)
    some = solve(start, rules, Budget(nodes=10**9, memory_mb=2), core="compiled")
    assert (some.outcome, some.proof, some.line) == ("unknown", "memory", ()) and 1000 < some.nodes < 200_000


def rss() -> int:
    return int(psutil.Process().memory_info().rss)


def test_many_searches_leak_nothing() -> None:
    rules, start = get_ruleset("standard"), deal_game(HARD_STANDARD)

    def stop(nodes: int) -> None:
        raise RuntimeError(f"stopped at {nodes}")

    for _ in range(10):  # the allocator's own first growth
        solve(start, rules, Budget(nodes=20_000), core="compiled")
    before = rss()
    for _ in range(60):
        assert solve(start, rules, Budget(nodes=20_000), core="compiled").nodes == 20_000
        with pytest.raises(RuntimeError, match="stopped at 4096"):
            solve(start, rules, Budget(nodes=20_000), progress=stop, core="compiled")
        assert solve(start, rules, Budget(memory_mb=1), core="compiled").proof == "memory"
    # A table of 20,000 positions is over a megabyte: one kept per search would be 60 MB.
    assert rss() - before < 8 * 1024 * 1024


def test_progress_is_reported_at_the_same_points() -> None:
    reports: dict[str, list[int]] = {"python": [], "compiled": []}
    start, rules = deal_game(HARD_STANDARD), get_ruleset("standard")
    for core, seen in reports.items():
        search(start, rules, Budget(nodes=20_000), seen.append, core=core)
    assert reports["compiled"] == reports["python"] == [4096, 8192, 12288, 16384]


def test_ctrl_c_ends_a_long_compiled_search_promptly() -> None:
    # A child inherits an ignored SIGINT (a shell leaves it so for a job started with `&`), and
    # Python then installs no KeyboardInterrupt for it: the script asks for the default handler.
    script = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from scorpion_ref import deal_game, get_ruleset\n"
        "from scorpion_ref.solver import Budget, solve\n"
        "print('searching', flush=True)\n"
        f"found = solve(deal_game({HARDER_STANDARD}), get_ruleset('standard'), Budget(nodes=10**9),"
        " core='compiled')\n"
        "print('finished', found.outcome, flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "searching\n"
        time.sleep(1.0)  # well inside the search (it runs for tens of seconds)
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = child.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "KeyboardInterrupt" in err and "finished" not in out, (out, err)
    assert child.returncode != 0 and waited < 3, waited


def test_core_python_and_the_environment_run_the_python_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorpion_ref.solver import _core

    calls: list[str] = []
    loop, compiled_search = search_module.PythonLoop, _core.Search

    def python_loop(*args: object, **kwargs: object) -> object:
        calls.append("python")
        return loop(*args, **kwargs)  # type: ignore[arg-type]

    def compiled(*args: object, **kwargs: object) -> object:
        calls.append("compiled")
        return compiled_search(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_module, "PythonLoop", python_loop)
    monkeypatch.setattr(_core, "Search", compiled)
    rules, start, budget = get_ruleset("standard"), deal_game(3), Budget(nodes=2000)
    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    solve(start, rules, budget)
    solve(start, rules, budget, core="python")
    solve(start, rules, budget, core="compiled")
    monkeypatch.setenv(CORE_VARIABLE, "python")
    solve(start, rules, budget)
    assert chosen_core() == "python"
    assert calls == ["compiled", "python", "compiled", "python"]
    monkeypatch.setenv(CORE_VARIABLE, "fast")
    with pytest.raises(ValueError, match="SCORPION_SOLVER_CORE"):
        solve(start, rules, budget)
    with pytest.raises(ValueError, match="core is one of"):
        solve(start, rules, budget, core="cython")


def test_asking_for_a_compiled_core_that_was_not_built_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CORE_VARIABLE, raising=False)
    monkeypatch.setattr(search_module, "_CORE_MISSING", ImportError("No module named '_core'"))
    assert chosen_core() == "python"  # "auto" falls back to the Python loop
    with pytest.raises(ImportError, match=r"compiled core .* was not built"):
        solve(deal_game(3), get_ruleset("standard"), core="compiled")
    assert solve(deal_game(3), get_ruleset("standard"), Budget(nodes=500)).nodes == 500
