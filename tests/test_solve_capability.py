"""The protocol capability ``solve`` (issue 14, item 5): its messages, the checks, and who is blamed.

The reference adapter and the JavaScript adapter pass the solve checks; fake
adapters (``tests/fake_adapters/wrong_solver.py``) that claim a false
``lost``, a ``won`` whose line does not win, a malformed answer or a refusal
each get the verdict and the blame they deserve, and an adapter that does not
declare ``solve`` is not failed. The shipped positions are proved again here
by the unreduced search, and their lines replayed through the engine.
"""

from __future__ import annotations

import copy
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from programs import node

from scorpion_conformance.check_adapter import run_check
from scorpion_conformance.client import AdapterClient
from scorpion_conformance.protocol import REQUESTS, Solve, SolveAnswer, check, validate_request
from scorpion_conformance.reference import in_process
from scorpion_conformance.solving_checks import BUDGET, SOLVE_TIMEOUT, load_positions, run_solve_checks
from scorpion_conformance.solving_checks.console import solve_section
from scorpion_conformance.validation import _quick_ok, _quick_request_ok
from scorpion_shared import vocabulary

ROOT = Path(__file__).resolve().parents[1]
FAKE = Path(__file__).parent / "fake_adapters" / "wrong_solver.py"
JS = ROOT / "adapters" / "javascript" / "adapter.js"
POSITIONS = load_positions()
WON = {p.name for p in POSITIONS if p.answer == "won"}
LOST = {p.name for p in POSITIONS if p.answer == "lost"}


def fake(mode: str) -> AdapterClient:
    return AdapterClient([sys.executable, str(FAKE), mode], timeout=30)


def verdicts(client: AdapterClient) -> dict[str, Any]:
    with client:
        info = client.hello()
        return {v.name: v for v in run_solve_checks(client, info)}


# -- the messages --------------------------------------------------------------------------


def test_solve_is_a_command_of_the_vocabulary_with_its_capability() -> None:
    commands = {c.code: c.capability for c in vocabulary.VOCABULARY.commands}
    assert commands["solve"] == "solve"
    assert REQUESTS["solve"] is Solve and Solve.answer is SolveAnswer


def test_the_solve_request_is_well_formed_and_refused_without_a_positive_budget() -> None:
    assert Solve(5).to_line() == b'{"cmd":"solve","budget":5}\n'
    assert validate_request({"cmd": "solve", "budget": 1, "id": 4}) is None
    for bad in ({"cmd": "solve"}, {"cmd": "solve", "budget": 0}, {"cmd": "solve", "budget": 2.5},
                {"cmd": "solve", "budget": "9"}, {"cmd": "solve", "budget": True}):
        assert validate_request(bad) is not None, bad


GOOD_ANSWERS: list[dict[str, Any]] = [
    {"ok": True, "outcome": "won", "line": [{"type": "move", "card": "AS", "to": 1}, {"type": "deal"}]},
    {"ok": True, "outcome": "won", "line": [], "nodes": 0},
    {"ok": True, "outcome": "lost", "nodes": 12, "proof": "exhausted", "id": 3},
    {"ok": True, "outcome": "unknown", "proof": "nodes"},
    {"ok": True, "outcome": "unknown", "extra-of-the-adapter": 1},
    {"ok": False, "error": {"code": "unsupported", "message": "no solver"}},
]
BAD_ANSWERS: list[tuple[dict[str, Any], str]] = [
    ({"ok": True, "outcome": "won"}, "$"),
    ({"ok": True, "outcome": "lost", "line": []}, "$.line"),
    ({"ok": True, "outcome": "maybe"}, "$.outcome"),
    ({"ok": True}, "$"),
    ({"ok": True, "outcome": "won", "line": [{"type": "move", "card": "AS", "to": 8}]}, "$.line[0].to"),
    ({"ok": True, "outcome": "unknown", "nodes": -1}, "$.nodes"),
]


@pytest.mark.parametrize("answer", GOOD_ANSWERS, ids=lambda a: json.dumps(a)[:60])
def test_well_formed_solve_answers_are_accepted(answer: dict[str, Any]) -> None:
    assert check("response-solve", answer) is None


@pytest.mark.parametrize(("answer", "where"), BAD_ANSWERS, ids=lambda a: json.dumps(a)[:60])
def test_malformed_solve_answers_are_refused_where_they_are_wrong(answer: dict[str, Any], where: str) -> None:
    problem = check("response-solve", answer)
    assert problem is not None and problem.startswith(f"at {where}:"), problem


def test_the_fast_path_takes_the_usual_solve_answers() -> None:
    for answer in GOOD_ANSWERS[:4]:
        assert _quick_ok("solve", answer), answer
    assert _quick_request_ok({"cmd": "solve", "budget": 100000, "id": 2})


actionish = st.one_of(
    st.just({"type": "deal"}),
    st.fixed_dictionaries({"type": st.just("move"), "card": st.sampled_from(["AS", "KH", "9X", 5]),
                           "to": st.integers(-1, 9) | st.sampled_from([2.0, True, "3"])}),
    st.sampled_from([{"type": "deal", "to": 1}, {"type": "fly"}, [], "deal"]),
)
solve_bodies = st.fixed_dictionaries(
    {"ok": st.sampled_from([True, False, 1, None])},
    optional={
        "outcome": st.sampled_from(["won", "lost", "unknown", "maybe", None, 1]),
        "line": st.lists(actionish, max_size=3) | st.sampled_from([None, "AS>1", {}]),
        "nodes": st.integers(-2, 5) | st.sampled_from([1.5, "3", True, None]),
        "proof": st.sampled_from(["exhausted", "", 3, None]),
        "id": st.integers(-2, 3) | st.sampled_from([True, "1", None]),
        "error": st.fixed_dictionaries({"code": st.sampled_from(["unsupported", "oops"]),
                                        "message": st.sampled_from(["x", 3])}),
        "extra": st.just(0),
    },
)


@settings(max_examples=600, deadline=None, database=None)
@given(body=solve_bodies)
def test_the_solve_answer_fast_path_accepts_nothing_the_schema_refuses(body: Any) -> None:
    if _quick_ok("solve", body):
        assert check("response-solve", body) is None, body


@settings(max_examples=600, deadline=None, database=None)
@given(data=st.data())
def test_mutated_solve_answers_fast_path_never_disagrees_by_accepting(data: Any) -> None:
    body = copy.deepcopy(data.draw(st.sampled_from(GOOD_ANSWERS[:4])))
    key = data.draw(st.sampled_from(sorted(body)))
    how = data.draw(st.sampled_from(["replace", "delete", "add-line"]))
    if how == "replace":
        body[key] = data.draw(st.sampled_from([None, 0, -1, "won", [], [{"type": "jump"}], True, 2.5]))
    elif how == "delete":
        del body[key]
    else:
        body["line"] = data.draw(st.lists(actionish, max_size=2))
    if _quick_ok("solve", body):
        assert check("response-solve", body) is None, body


@settings(max_examples=800, deadline=None, database=None)
@given(request=st.fixed_dictionaries(
    {"cmd": st.sampled_from(["solve", "undo"])},
    optional={"budget": st.integers(-1, 3) | st.sampled_from([1.0, "5", True, None, 10**20]),
              "id": st.integers(-1, 2) | st.just("1"), "extra": st.just(0)},
))
def test_the_solve_request_fast_path_accepts_nothing_the_schema_refuses(request: Any) -> None:
    if _quick_request_ok(request):
        assert check("request", request) is None, request


# -- the shipped positions ------------------------------------------------------------------


def test_the_positions_cover_what_the_issue_asks_for() -> None:
    names = [p.name for p in POSITIONS]
    assert len(names) == len(set(names))
    assert {p.rules for p in POSITIONS} >= {"standard", "classic", "aisleriot"}
    assert WON and LOST
    whys = " ".join(p.why for p in POSITIONS)
    for kind in ("stock dealt late enough", "looks alive", "a whole deal", "won in", "stock dealt at once"):
        assert kind in whys, kind


@pytest.mark.parametrize("proven", POSITIONS, ids=lambda p: p.name)
def test_every_shipped_answer_is_proved_again_by_the_plain_search(proven: Any) -> None:
    from scorpion_ref import Status, apply, get_ruleset, status
    from scorpion_ref.serial import action_from_json, position_from_json
    from scorpion_ref.solver import Budget, plain_solve

    rules = get_ruleset(proven.rules)
    position = position_from_json(proven.position)
    assert plain_solve(position, rules, Budget(nodes=200_000)).outcome == proven.answer
    data = next(p for p in json.loads((ROOT / "scorpion_conformance" / "solving_checks" / "positions.json")
                                      .read_text(encoding="utf-8"))["positions"] if p["name"] == proven.name)
    if proven.answer == "won":
        here = position
        for action in data["line"]:
            here = apply(here, rules, action_from_json(action)).position
        assert status(here, rules) is Status.WON


# -- the reference and the JavaScript adapter pass -------------------------------------------


def test_the_reference_adapter_passes_every_solve_check() -> None:
    found = verdicts(in_process())
    assert set(found) == WON | LOST
    assert [v for v in found.values() if v.verdict != "passed"] == []


def test_check_adapter_runs_the_solve_checks_on_the_reference() -> None:
    out = io.StringIO()
    assert run_check(f"{sys.executable} -m scorpion_ref.adapter", 10.0, out) == 0, out.getvalue()
    text = out.getvalue()
    assert text.count("PASS  solve ") == len(POSITIONS), text
    assert "PASS  quit" in text


def test_the_javascript_adapter_passes_the_solve_checks() -> None:
    found = verdicts(AdapterClient([node(), str(JS)], timeout=30))
    assert [v for v in found.values() if v.bad] == []
    # It declares every named set, so every proven position is checked, and it decides each.
    assert {n for n, v in found.items() if v.verdict == "passed"} == WON | LOST, found


def test_the_javascript_adapter_declares_only_capabilities_of_the_vocabulary() -> None:
    text = JS.read_text(encoding="utf-8")
    declared = re.search(r"capabilities: \[([^\]]*)\]", text)
    assert declared
    capabilities = set(re.findall(r"'([a-z-]+)'", declared.group(1)))
    known = {c.capability for c in vocabulary.VOCABULARY.commands if c.capability}
    assert capabilities == known == {"undo", "solve"}
    assert "case 'solve'" in text


# -- wrong solvers: the right verdict, the right blame ----------------------------------------


def test_a_false_lost_is_a_failure_of_the_implementation() -> None:
    found = verdicts(fake("false-lost"))
    for name in WON:
        assert (found[name].verdict, found[name].blame) == ("failed", "implementation"), found[name]
        assert "claimed lost" in found[name].detail
    assert all(found[name].verdict == "passed" for name in LOST)


def test_a_won_whose_line_does_not_win_is_a_failure_of_the_implementation() -> None:
    found = verdicts(fake("short-line"))
    for name in WON | LOST:
        assert (found[name].verdict, found[name].blame) == ("failed", "implementation"), found[name]
        assert "claimed won, but" in found[name].detail


def test_a_malformed_answer_is_the_adapter_programs_fault() -> None:
    found = verdicts(fake("malformed"))
    for name in WON | LOST:
        assert (found[name].verdict, found[name].blame) == ("error", "adapter"), found[name]
        assert "malformed" in found[name].detail and "'line' is a required property" in found[name].detail


def test_refusing_a_declared_capability_is_the_adapter_programs_fault() -> None:
    found = verdicts(fake("refuses"))
    assert {(v.verdict, v.blame) for v in found.values()} == {("error", "adapter")}


def test_an_adapter_without_solve_is_not_checked_and_not_failed() -> None:
    assert verdicts(fake("undeclared")) == {}
    lines: list[str] = []
    with fake("undeclared") as client:
        assert solve_section(client, client.hello(), lines.append) == (0, 0)
    assert lines == ["NOTE  solve: not declared (the capability is optional), so its checks were not run"]


def test_check_adapter_says_whose_fault_a_solve_failure_is() -> None:
    out = io.StringIO()
    assert run_check(f"{sys.executable} {FAKE} false-lost", 10.0, out) == 1
    assert "[a wrong claim of the implementation]" in out.getvalue()
    out = io.StringIO()
    assert run_check(f"{sys.executable} {FAKE} malformed", 10.0, out) == 1
    assert "[a fault of the adapter program]" in out.getvalue()


# -- the reference adapter's own answers ---------------------------------------------------------


def test_the_reference_adapter_refuses_solve_without_a_game_or_a_budget() -> None:
    from scorpion_ref.adapter import Session

    session = Session()
    session.respond(b'{"cmd":"hello","protocol":1}')
    assert session.respond(b'{"cmd":"solve","budget":5}')[0]["error"]["code"] == "bad-request"
    empty = json.dumps({"columns": [{"down": [], "up": []}] * 7, "stock": [], "removed": []})
    session.respond(f'{{"cmd":"start","rules":"standard","position":{empty}}}'.encode())
    for line in (b'{"cmd":"solve"}', b'{"cmd":"solve","budget":0}', b'{"cmd":"solve","budget":"x"}'):
        answer = session.respond(line)[0]
        assert answer["error"]["code"] == "bad-request" and "budget" in answer["error"]["message"]
    answer = session.respond(b'{"cmd":"solve","budget":10,"id":4}')[0]
    assert answer["outcome"] == "lost" and answer["id"] == 4 and check("response-solve", answer) is None


def test_the_solve_checks_never_import_the_engine() -> None:
    import ast

    for module in sorted((ROOT / "scorpion_conformance" / "solving_checks").glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for found in ast.walk(tree):
            names = [a.name for a in found.names] if isinstance(found, ast.Import) else (
                [found.module or ""] if isinstance(found, ast.ImportFrom) and found.level == 0 else [])
            assert not [n for n in names if n.split(".")[0] == "scorpion_ref"], module


def test_the_javascript_kit_carries_its_solver(tmp_path: Path) -> None:
    from scorpion_conformance.kit import write_kit

    write_kit("javascript", tmp_path)
    out = io.StringIO()
    assert run_check(f"{node()} {tmp_path / 'adapter.js'}", 10.0, out) == 0, out.getvalue()
    assert "PASS  solve standard-timing-1" in out.getvalue()


def test_game_5_is_the_first_pysolfc_deal_won_under_classic() -> None:
    """The claim of features/solving.feature (SOLVE-003), proved by the unreduced search."""
    from scorpion_ref import deal_game, get_ruleset
    from scorpion_ref.solver import Budget, plain_solve

    classic = get_ruleset("classic")
    outcomes = [plain_solve(deal_game(n), classic, Budget(nodes=50_000)).outcome for n in range(1, 6)]
    assert outcomes == ["lost", "lost", "lost", "lost", "won"]


def test_the_protocol_page_gives_the_budget_and_the_wait_check_adapter_uses() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    said = " ".join(page.split())
    assert f"a budget of {BUDGET:,} and waits {SOLVE_TIMEOUT:g} s for each answer" in said
