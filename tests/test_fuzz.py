"""The differential fuzzer: it runs clean against the reference, finds every
deliberately broken adapter, shrinks the game and emits a scenario that fails
against the broken adapter and passes against the reference."""

from __future__ import annotations

import argparse
import io
import random
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bugs import BUGS

from scorpion_conformance import fuzz
from scorpion_conformance.client import AdapterClient
from scorpion_conformance.fuzz.shrinking import _reduce
from scorpion_conformance.reference import in_process
from scorpion_conformance.suite.execute import ScenarioFailure, ScenarioRun
from scorpion_conformance.suite.scenarios import Case, duplicate_names, load_cases
from scorpion_conformance.suite.tags import NAMED_RULESETS, unknown_tags
from scorpion_ref import RULESETS, Deal, Position, Rank, Status, apply, complete_runs, is_legal, status

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
REFERENCE = f"{PYTHON} -m scorpion_ref.adapter"


#: The folder of emitted scenarios, and each bug's exit code and output.
Found = tuple[Path, dict[str, tuple[int, str]]]

#: Every bug is found within this many games (measured: at most 53 over seeds 0-19).
GAMES = 200


def broken(bug: str) -> str:
    script = ROOT / "tests" / "broken_adapters" / "broken_adapter.py"
    return f"{PYTHON} {shlex.quote(str(script))} {bug}"


def run_fuzz_command(*argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    fuzz.add_arguments(parser)
    out = io.StringIO()
    code = fuzz.main(parser.parse_args([*argv, "--no-progress", "--timeout", "30"]), out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> Found:
    """Fuzz every broken adapter once, emitting all scenarios into one folder."""
    folder = tmp_path_factory.mktemp("fuzz-scenarios")
    results = {}
    for bug, rules in BUGS.items():
        results[bug] = run_fuzz_command(
            "--adapter", broken(bug), "--rules", rules, "--games", str(GAMES), "--seed", "0",
            "--emit-scenario", str(folder / f"{bug}.feature"), "--features", str(ROOT / "features"),
        )
    return folder, results


def case_of(folder: Path, bug: str) -> Case:
    (case,) = [c for c in load_cases(folder) if Path(c.file).name == f"{bug}.feature"]
    return case


def play(case: Case, client: Any, rules: str) -> str | None:
    run = ScenarioRun(client, rules)
    try:
        for instruction in case.instructions():
            run.perform(instruction)
    except ScenarioFailure as failure:
        return str(failure)
    return None


# -- the reference runs clean ---------------------------------------------------------


@pytest.mark.parametrize("rules", list(RULESETS))
def test_the_reference_adapter_runs_clean(rules: str) -> None:
    code, out = run_fuzz_command("--rules", rules, "--games", "40", "--seed", "7")
    assert code == 0, out
    assert re.match(r"40 games, [\d,]+ steps, [\d,]+ legal actions compared in", out)
    assert "seed 7" in out


def test_the_same_seed_plays_the_same_games() -> None:
    rules = RULESETS["standard"]
    options = fuzz.FuzzOptions(games=15, seed=3)
    first = fuzz.run_fuzz(in_process(), "standard", rules, options, progress=False)
    second = fuzz.run_fuzz(in_process(), "standard", rules, options, progress=False)
    other = fuzz.run_fuzz(in_process(), "standard", rules,
                          fuzz.FuzzOptions(games=15, seed=4), progress=False)
    assert first[0] is None and second[0] is None
    assert first[1] == second[1] != other[1]


# -- every broken adapter is found, shrunk and turned into a scenario ------------------


@pytest.mark.parametrize("bug", list(BUGS))
def test_the_fuzzer_finds_and_shrinks_each_bug(found: Found, bug: str) -> None:
    _, results = found
    code, out = results[bug]
    assert code == 1, out
    assert "DIFFERENCE" in out
    shrunk = re.search(r"shrunk from \d+ steps and \d+ cards to (\d+) steps and (\d+) cards", out)
    assert shrunk is not None, out
    steps, cards = map(int, shrunk.groups())
    assert steps <= 2 and cards <= 27, out  # two runs are the largest case (26 cards + an Ace)
    assert "reproduce with: scorpion-conformance fuzz" in out


@pytest.mark.parametrize("bug", list(BUGS))
def test_the_emitted_scenario_fails_against_the_bug_and_passes_against_the_reference(
    found: Found, bug: str
) -> None:
    folder, _ = found
    case = case_of(folder, bug)
    names = case.rulesets()
    assert BUGS[bug] in names
    for name in names:
        assert play(case, in_process(), name) is None, name
    with AdapterClient(broken(bug)) as client:
        assert play(case, client, BUGS[bug]) is not None


def test_emitted_scenarios_meet_the_feature_lint(found: Found) -> None:
    folder, _ = found
    cases = load_cases(folder)
    assert len(cases) == len(BUGS)
    shipped = [int(n) for text in (p.read_text(encoding="utf-8")
                                   for p in (ROOT / "features").glob("*.feature"))
               for n in re.findall(r"@id:FUZZ-(\d+)", text)]
    numbers = sorted(int(c.id.removeprefix("FUZZ-")) for c in cases if c.id)
    assert len(numbers) == len(BUGS) == len(set(numbers))
    assert numbers[0] > max(shipped, default=0)
    assert not duplicate_names(folder)
    assert len({c.name for c in cases}) == len(cases)
    for case in cases:
        assert not unknown_tags(case.tags)
        assert case.rulesets(NAMED_RULESETS)
        assert "should" not in case.name.lower()
        case.instructions()  # every step is a sentence of the library
        uses_undo = any("undoes" in step.text for step in case.steps)
        assert ("undo" in case.tags) == uses_undo


def test_the_suite_runner_runs_the_emitted_scenarios(found: Found) -> None:
    folder, _ = found
    shutil.copy(ROOT / "features" / "test_scenarios.py", folder / "test_scenarios.py")
    command = [sys.executable, "-m", "scorpion_conformance.cli", "run", "--features", str(folder),
               "-q", "--adapter"]
    clean = subprocess.run([*command, REFERENCE], capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-2000:]
    bad = subprocess.run([*command, broken("cross-suit")], capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 1, bad.stdout[-3000:] + bad.stderr[-2000:]
    assert "cross-suit" in bad.stdout or "not-same-suit" in bad.stdout


# -- faults, usage ------------------------------------------------------------------------------


def test_an_adapter_that_crashes_is_a_difference(tmp_path: Path) -> None:
    script = tmp_path / "crash_on_deal.py"
    script.write_text(
        "import os, sys\n"
        "import scorpion_ref.adapter as adapter\n"
        "respond = adapter.Session.respond\n"
        "def crash(self, line):\n"
        "    if b'\"play\"' in line and b'\"deal\"' in line:\n"
        "        os._exit(9)\n"
        "    return respond(self, line)\n"
        "adapter.Session.respond = crash\n"
        "sys.exit(adapter.main([]))\n",
        encoding="utf-8",
    )
    code, out = run_fuzz_command("--adapter", f"{PYTHON} {script}", "--rules", "standard",
                                 "--games", "50", "--seed", "0", "--shrink-seconds", "600")
    assert code == 1, out
    assert "DIFFERENCE (fault)" in out
    assert "killed" in out or "exited with status 9" in out
    assert "When the player deals the stock" in out


def test_a_rule_set_the_adapter_does_not_declare_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _ = run_fuzz_command("--rules", "no-such-rules", "--games", "1")
    assert code == 2
    assert "does not declare 'no-such-rules'" in capsys.readouterr().err


# -- the parts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(RULESETS))
def test_generated_positions_are_valid_and_reach_the_rare_cases(rules: str) -> None:
    ruleset = RULESETS[rules]
    seen: dict[str, int] = {}
    completes = 0
    for seed in range(300):
        name, position, hints = fuzz.generate_position(random.Random(seed), ruleset)
        Position(position.columns, position.stock, position.collected)  # validates
        seen[name] = seen.get(name, 0) + 1
        for hint in hints:
            if is_legal(position, ruleset, hint):
                after = apply(position, ruleset, hint)
                completes += bool(after.collected) or status(after.position, ruleset) is Status.WON
                if isinstance(hint, Deal):
                    assert not after.position.stock
                break
    assert set(seen) == set(fuzz.TEMPLATES)
    if ruleset.runs == "collect":
        assert completes >= 30  # a run is collected by the hinted action in many games


@pytest.mark.parametrize("rules", list(RULESETS))
def test_the_templates_the_coverage_measurement_asked_for_draw_their_shapes(rules: str) -> None:
    ruleset = RULESETS[rules]
    seen: dict[str, int] = {}
    won = 0
    for seed in range(400):
        name, position, _ = fuzz.generate_position(random.Random(seed), ruleset)
        seen[name] = seen.get(name, 0) + 1
        columns = position.columns
        if name == "bare-table":
            assert all(column.is_empty for column in columns)
        elif name == "won-table":
            on_table = sum(len(complete_runs(column)) for column in columns)
            assert (len(position.collected) if ruleset.runs == "collect" else on_table) == 4
            won += status(position, ruleset) is Status.WON
        elif name == "not-quite-run":
            assert any(len(c.up) == 13 and not c.down and not complete_runs(c) for c in columns), position
        elif name == "hidden-king":
            assert any(c.down and c.up[0].rank is Rank.KING for c in columns), position
            assert any(c.is_empty for c in columns), position
    assert {"bare-table", "won-table", "not-quite-run", "hidden-king"} <= set(seen), seen
    assert won > 0


def test_reduce_finds_a_smallest_failing_subset() -> None:
    calls: list[list[int]] = []

    def fails(items: list[int]) -> bool:
        calls.append(items)
        return 3 in items and 11 in items

    assert _reduce(list(range(20)), fails) == [3, 11]
    assert len(calls) < 60


def test_next_fuzz_id_counts_past_every_known_file(tmp_path: Path) -> None:
    (tmp_path / "a.feature").write_text("  @id:FUZZ-007\n  @id:MOVE-120\n", encoding="utf-8")
    (tmp_path / "b.feature").write_text("  @id:FUZZ-012 @runs-stay\n", encoding="utf-8")
    assert fuzz.next_fuzz_id([tmp_path / "a.feature", tmp_path / "b.feature",
                              tmp_path / "missing.feature"]) == "FUZZ-013"
    assert fuzz.next_fuzz_id([]) == "FUZZ-001"


def test_the_docstring_examples_run() -> None:
    import doctest
    import importlib
    import pkgutil

    results = [doctest.testmod(importlib.import_module(module.name))
               for module in pkgutil.iter_modules(fuzz.__path__, f"{fuzz.__name__}.")]
    assert sum(r.attempted for r in results) and not sum(r.failed for r in results)
