"""The coverage measurement, and the guard it gives CI: no condition or cell loses its
scenario without a reason.

The guard measures once, under the five named rule sets (a fixed budget: every shipped
case, played in this process through the protocol, a few seconds), and fails when a
condition can flip an outcome alone with no pair of scenarios showing it, when a cell of
a table is empty, either without an entry in ``data/coverage/gaps.yaml``, or when an
entry there explains a gap a scenario has filled.
"""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.coverage import model as coverage_model
from scorpion_conformance.coverage.gaps import GapsError, Reasons, load_reasons, not_yet_measured
from scorpion_conformance.coverage.measure import measure
from scorpion_conformance.coverage.model import MODULES, Model, load_model
from scorpion_conformance.coverage.probe import instrumented
from scorpion_conformance.coverage.reader import Reader
from scorpion_conformance.coverage.tables import COLUMNS, REQUESTS, classify, gaps, summary
from scorpion_conformance.suite.scenarios import load_cases
from scorpion_ref import (
    RULESETS,
    Position,
    apply,
    engine,
    game,
    get_ruleset,
    legal_actions,
    parse_action,
    status,
)

CASES = load_cases()
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def measured():  # type: ignore[no-untyped-def]
    return measure(CASES)


# -- the guard -------------------------------------------------------------------------------


def test_every_gap_has_a_scenario_or_a_reason(measured) -> None:  # type: ignore[no-untyped-def]
    reasons = load_reasons(rulesets=measured.rulesets)
    missing = [key for keys in gaps(measured).values() for key in keys if key not in reasons]
    assert not missing, (
        "a condition or a cell has lost its scenario (or the engine has a new one); write a scenario "
        "for it, or say in data/coverage/gaps.yaml why none can exist:\n  " + "\n  ".join(missing))


def test_no_reason_explains_a_gap_a_scenario_fills(measured) -> None:  # type: ignore[no-untyped-def]
    reasons = load_reasons(rulesets=measured.rulesets)
    found = {key for keys in gaps(measured).values() for key in keys}
    stale = sorted(set(reasons) - found)
    assert not stale, "remove these entries from data/coverage/gaps.yaml, their gaps are filled:\n  " + (
        "\n  ".join(stale))


def test_the_measurement_plays_every_case_and_the_reference_passes_them(measured) -> None:  # type: ignore[no-untyped-def]
    assert not measured.broken
    assert measured.cases == sum(len(case.rulesets()) for case in CASES) > 800


def test_the_figures_add_up(measured) -> None:  # type: ignore[no-untyped-def]
    figures = summary(measured, load_reasons(rulesets=measured.rulesets))
    assert figures["conditions"] == len(load_model().conditions) > 40
    for table in ("matrix", "reasons", "undo"):
        t = figures[table]
        assert t["filled"] + t["empty with a reason"] + t["empty without a reason"] == t["cells"]
        assert t["empty without a reason"] == 0
    assert figures["matrix"]["cells"] == len(REQUESTS) * len(COLUMNS) * len(RULESETS)
    for counts in figures["per rule set"].values():
        assert 0 < counts["shown"] <= counts["can matter"]


def test_losing_a_scenario_opens_a_gap_the_guard_names() -> None:
    """The guard is not vacuous: without the one scenario that moves on an empty table, that
    cell is empty under every rule set, and nothing explains it."""
    deal = [case for case in CASES if case.file.endswith("deal.feature")]
    whole = gaps(measure(deal))["matrix"]
    without = gaps(measure([case for case in deal if case.id != "DEAL-012"]))["matrix"]
    opened = sorted(set(without) - set(whole))
    dealt = next(case for case in deal if case.id == "DEAL-012")
    where = sorted(dealt.rulesets({name: rules.options for name, rules in RULESETS.items()}))
    assert opened == [f"move / empty table [{rules}]" for rules in where], opened
    assert not set(opened) & set(load_reasons())


def test_an_option_marked_not_covered_explains_only_the_gaps_it_opens() -> None:
    """A new option marked ``"covered": false`` excuses the cells of the named sets that give it
    another value and the conditions that read it, and nothing else."""
    differs = next(name for name, rules in RULESETS.items() if rules.options["win"] != "four-runs")
    same = next(name for name, rules in RULESETS.items() if rules.options["win"] == "four-runs")
    new = {"win": "four-runs"}  # as if win were new: its default is four-runs
    assert not_yet_measured(f"move / won [{differs}]", new)
    assert not_yet_measured(f"move / won [{same}]", new) is None
    assert not_yet_measured(f"engine.x :: rules.win == 'all' [{same}]", new)
    assert not_yet_measured(f"engine.x :: _win(position, rules) [{same}]", new)
    assert not_yet_measured(f"engine.x :: len(position.collected) == 4 [{same}]", new) is None
    assert not_yet_measured(f"move / won [{differs}]", {}) is None
    # A refusal reason is asked of the rule functions that give it: not-same-suit's reads no option.
    assert not_yet_measured(f"not-same-suit [{same}]", new) is None
    # What the file says stays as written; the rest is asked of the marks.
    reasons = Reasons({"a [standard]": "because"})
    assert reasons["a [standard]"] == "because" and list(reasons) == ["a [standard]"]
    assert "b [standard]" not in reasons


def test_a_broken_gaps_file_is_refused_naming_the_entry(tmp_path: Path) -> None:
    bad = tmp_path / "gaps.yaml"
    bad.write_text("matrix:\n  - keys: ['move / won']\n    where: {colour: red}\n    reason: none\n")
    with pytest.raises(GapsError, match="matrix entry 1: no option colour"):
        load_reasons(bad)
    bad.write_text("undo:\n  - key: collected\n")
    with pytest.raises(GapsError, match="undo entry 1"):
        load_reasons(bad)


# -- the instrumentation -----------------------------------------------------------------------


def _functions() -> list[object]:
    found = []
    for module in (engine, game):
        for value in vars(module).values():
            if callable(value) and getattr(value, "__module__", None) == module.__name__:
                found.append(value)
    return found


def test_the_engine_runs_its_own_code_again_after_a_measurement() -> None:
    before = {id(f): getattr(f, "__code__", None) for f in _functions()}
    with instrumented():
        changed = [f for f in _functions() if getattr(f, "__code__", None) is not before[id(f)]]
        assert engine._check_move in changed and engine.status in changed
    assert all(getattr(f, "__code__", None) is before[id(f)] for f in _functions())
    assert not hasattr(engine, "__scorpion_coverage__")


def test_instrumented_code_gives_the_engines_answers() -> None:
    positions = [Position.build(["TD", "3S | 9D KH 4C", "", "KS QS"], stock=["2C", "3D", "7S"]),
                 Position.build(["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AC"])]
    def answers() -> list[object]:
        result = []
        for rules in RULESETS.values():
            for position in positions:
                result.append((legal_actions(position, rules), status(position, rules)))
                for action in legal_actions(position, rules):
                    result.append(apply(position, rules, action))
                for text in ("9D>3", "AC>1", "QS>3", "4S>2"):
                    try:
                        result.append(apply(position, rules, parse_action(text)))
                    except Exception as error:  # the refusal itself is part of the answer
                        result.append((type(error).__name__, getattr(error, "reason", None)))
        return result
    plain = answers()
    with instrumented() as recorder, recorder.context("x", "standard"):
        assert answers() == plain
        assert recorder.take()  # it did take notes


def test_a_decision_counts_only_what_a_scenario_looked_at() -> None:
    rules = get_ruleset("standard")
    position = Position.build(["TD", "3S | 9D"])
    with instrumented() as recorder:
        with recorder.context("seen", "standard"):
            apply(position, rules, parse_action("9D>1"))
            recorder.keep(recorder.take(), observed=False, status_observed=False)
        assert not recorder.rows("engine._check_move")
        with recorder.context("seen", "standard"):
            apply(position, rules, parse_action("9D>1"))
            recorder.keep(recorder.take(), observed=True, status_observed=False)
        assert [row.outcome for row in recorder.rows("engine._check_move")] == ["legal"]


# -- the model, read from code -----------------------------------------------------------------


def _model_of(tmp_path: Path, source: str) -> tuple[Model, str]:
    name = f"covered_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(name)
        reader = Reader(name)
        reader.read()
    finally:
        sys.path.remove(str(tmp_path))
    return Model(tuple(reader.decisions), {name: reader}, tuple(reader.functions),
                 frozenset(f"{name}.{f.qualname}" for f in reader.functions)), name


def test_a_rule_function_is_one_decision_and_a_test_elsewhere_is_another(tmp_path: Path) -> None:
    model, name = _model_of(tmp_path, '''
        def judge(rules, card, target) -> None:
            if target is None and rules.empty == "king":
                raise ValueError("needs-king")
            if card > target:
                raise ValueError("too-high")

        def listing(rules, cards):
            return [c for c in cards if c > 3 and rules.empty == "any"]
    ''')
    judge = model.decision(f"{name}.judge")
    assert judge.kind == "rule" and judge.reasons == ("needs-king", "too-high")
    assert [(c.text, c.rule) for c in judge.conditions] == [
        ("target is None", False), ('rules.empty == "king"', True), ("card > target", False)]
    tests = [d for d in model.decisions if d.kind == "test"]
    assert [d.text for d in tests] == ['c > 3 and rules.empty == "any"']


def test_a_rule_set_that_decides_a_test_alone_leaves_the_other_conditions_nothing(tmp_path: Path) -> None:
    model, _ = _model_of(tmp_path, '''
        def pick(rules, cards):
            for card in cards:
                if card > 3 and rules.empty == "any":
                    yield card
                if rules.empty == "king":
                    if card == 13:
                        yield card
    ''')

    class Rules:
        def __init__(self, empty: str) -> None:
            self.empty = empty

    first, second, inner = (d.conditions[0] for d in model.decisions if d.conditions)
    assert first.text == "card > 3" and inner.text == "card == 13"
    assert model.can_matter(first, Rules("any")) and not model.can_matter(first, Rules("king"))
    assert model.can_matter(inner, Rules("king")) and not model.reached(inner, Rules("any"))
    assert second.rule and not model.can_matter(second, Rules("king"))


def test_the_model_is_read_from_the_engines_own_source() -> None:
    model = load_model()
    for module in MODULES:
        source = importlib.import_module(module).__file__
        assert source is not None
        tree = ast.parse(Path(source).read_text(encoding="utf-8"))
        functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert {d.function.rsplit(".", 1)[-1] for d in model.decisions if d.module == module} <= functions
    move = model.decision("engine._check_move")
    assert "destination-is-source" in move.reasons and len(move.conditions) >= 10
    assert coverage_model.Unknown is not None


def test_each_state_of_the_matrix_is_told_apart() -> None:
    empty = {"columns": [{"down": [], "up": []}] * 7, "stock": []}
    assert classify({**empty, "status": "won"}) == "empty table"
    assert classify({**empty, "stock": ["2C"], "status": "playing"}) == "short stock"
    full = {"columns": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
            "stock": ["2C", "3C", "4C"]}
    assert classify({**full, "status": "playing"}) == "playing"
    assert classify({**full, "stock": [], "status": "lost"}) == "lost"


# -- what the new scenarios catch ----------------------------------------------------------------

BROKEN = Path(__file__).resolve().parent / "broken_adapters" / "broken_adapter.py"


@pytest.mark.parametrize(("bug", "scenario"), [
    ("whole-column-reason-first", "EMPTY-023"),  # the checks of a space in another order
    ("empty-table-won", "WIN-029"),  # a request in a state no scenario tried
    ("short-stock-ignored", "STOCK-026"),  # a position shape no scenario drew
])
def test_a_scenario_written_for_a_gap_catches_what_the_others_let_through(bug: str, scenario: str) -> None:
    """Each of these plausible slips passed every scenario written before the coverage measurement
    (measured by hand against those feature files); the scenario written for its gap catches it."""
    from scorpion_conformance.mutation.runner import run_suite

    verdict = run_suite([sys.executable, str(BROKEN), bug], [c for c in CASES if c.id == scenario])
    assert verdict.killed and verdict.case == scenario, verdict


def test_the_command_prints_the_figures_and_names_each_gap(tmp_path: Path, capsys: Any) -> None:
    from scorpion_conformance.coverage.__main__ import main

    folder = tmp_path / "features"
    folder.mkdir()
    (folder / "deal.feature").write_text((ROOT / "features" / "deal.feature").read_text(encoding="utf-8"))
    assert main(["--features", str(folder)]) == 1  # one feature file leaves most cells empty
    out = capsys.readouterr().out
    assert "conditions in" in out and "gap with no scenario and no reason: deal / playing [classic]" in out
    assert main(["--features", str(tmp_path / "none")]) == 2
    assert main(["--gaps", str(tmp_path / "missing.yaml")]) == 2
    assert "data/coverage/gaps.yaml" in capsys.readouterr().err
