"""The one comparison of protocol answers (``scorpion_conformance.compare``): a state
equals itself, a changed part is named, two lists of the same actions agree in any
order, and an action's key says what the engine's notation says. It works on JSON
alone: importing it never loads the engine."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scorpion_conformance import compare, fuzz
from scorpion_conformance import smoke_checks as check_adapter
from scorpion_conformance.compare import (
    ActionKey,
    action_key,
    legal_difference,
    normalized_state,
    same_position,
    state_difference,
)
from scorpion_conformance.fuzz import play, scenario
from scorpion_conformance.notation import show_action
from scorpion_conformance.perft import walk
from scorpion_conformance.suite import execute
from scorpion_ref import deal_game, get_ruleset, legal_actions, parse_action
from scorpion_ref.serial import action_to_json

CODES = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
cards = st.lists(st.sampled_from(CODES), max_size=4)
columns = st.builds(lambda down, up: {"down": down, "up": up}, cards, cards)
statuses = st.sampled_from(["playing", "won", "lost"])
states = st.fixed_dictionaries({
    "columns": st.lists(columns, min_size=7, max_size=7),
    "stock": cards,
    "removed": st.lists(st.sampled_from("CDHS"), unique=True),
    "status": statuses,
})
moves = st.builds(lambda card, to: {"type": "move", "card": card, "to": to},
                  st.sampled_from(CODES), st.integers(1, 7))
actions = st.one_of(moves, st.just({"type": "deal"}))


# -- states --------------------------------------------------------------------------------


@given(states, st.randoms())
def test_a_state_equals_itself_with_its_suits_in_any_order(state: dict[str, Any], rng: Any) -> None:
    shuffled = {**state, "removed": rng.sample(state["removed"], len(state["removed"]))}
    assert state_difference(state, shuffled) is None
    assert same_position(state, shuffled)
    assert normalized_state(state) == normalized_state(shuffled)


@given(states, st.integers(0, 6), cards)
def test_a_changed_column_is_named_and_no_other(state: dict[str, Any], index: int,
                                                 up: list[str]) -> None:
    wanted = state["columns"][index]
    changed = [dict(c) for c in state["columns"]]
    changed[index] = {"down": wanted["down"], "up": [*wanted["up"], *up, "KS"]}  # one card longer at least
    problem = state_difference(state, {**state, "columns": changed})
    assert problem is not None
    assert problem.startswith(f"column {index + 1} reads ")
    assert problem.count("column ") == 1 and "the rules give" in problem
    assert not same_position(state, {**state, "columns": changed})


@given(states, states)
def test_same_position_agrees_with_state_difference(first: dict[str, Any],
                                                     second: dict[str, Any]) -> None:
    assert same_position(first, second) == (state_difference(first, second) is None)


@given(states, cards, statuses)
def test_the_stock_and_the_status_are_named(state: dict[str, Any], stock: list[str],
                                            status: str) -> None:
    other = {**state, "stock": stock, "status": status}
    problem = state_difference(state, other) or ""
    assert ("the stock holds" in problem) == (stock != state["stock"])
    assert ("the status is " + status in problem) == (status != state["status"])


def test_the_words_of_a_state_difference() -> None:
    expected = {"columns": [{"down": ["4S"], "up": ["9D", "TH"]}], "stock": ["2C"],
                "removed": ["S"], "status": "playing"}
    actual = {"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": [],
              "status": "won"}
    assert state_difference(expected, actual) == (
        "column 1 reads 9♦; the rules give [4♠] 9♦ 10♥; the stock holds nothing; the rules "
        "give 2♣; the collected suits are none; the rules give ♠; the status is won; the "
        "rules give playing"
    )


def test_a_table_with_too_few_columns_is_said_in_words_not_a_traceback() -> None:
    expected = {"columns": [{"down": [], "up": []}] * 7, "stock": [], "removed": [],
                "status": "lost"}
    actual = {**expected, "columns": [{"down": [], "up": []}] * 6}
    assert state_difference(expected, actual) == "the table has 6 columns; the rules give 7"
    assert state_difference(expected, {}) == (
        "the table has 0 columns; the rules give 7; the status is None; the rules give lost"
    )


# -- actions ---------------------------------------------------------------------------------


def test_an_action_key_names_the_engines_action() -> None:
    rules = get_ruleset("standard")
    played = [*legal_actions(deal_game(1), rules), *legal_actions(deal_game(617), rules)]
    assert played
    for action in played:
        key = action_key(action_to_json(action))
        assert key.notation == str(action)
        assert parse_action(key.notation) == action
        assert key.words == show_action(action_to_json(action))


@given(actions)
def test_an_action_key_reads_back_as_the_action(action: dict[str, Any]) -> None:
    key = action_key(action)
    assert key == ActionKey(*key) and action_key({**action, "extra": 1}) == key
    rebuilt = {"type": "deal"} if key.kind == "deal" else \
        {"type": "move", "card": key.card, "to": key.to}
    assert rebuilt == action


@given(st.lists(actions, unique_by=lambda a: action_key(a)), st.randoms())
def test_the_same_actions_in_any_order_agree(listed: list[dict[str, Any]], rng: Any) -> None:
    assert legal_difference(listed, rng.sample(listed, len(listed))) is None


@given(st.lists(actions, min_size=1, unique_by=lambda a: action_key(a)), st.data())
def test_a_missing_an_extra_and_a_twice_listed_action_are_each_named(
    listed: list[dict[str, Any]], data: st.DataObject
) -> None:
    gone = data.draw(st.sampled_from(listed))
    kept = [a for a in listed if a is not gone]
    found = legal_difference(listed, kept)
    assert found is not None
    assert (found.missing, found.extra, found.twice) == ((action_key(gone),), (), ())
    assert str(found) == "the rules allow, the adapter does not list: " + action_key(gone).words
    found = legal_difference(kept, listed)
    assert found is not None and found.extra == (action_key(gone),) and not found.missing
    found = legal_difference(listed, [*listed, gone])
    assert found is not None and found.twice == (action_key(gone),)
    assert str(found) == "listed more than once: " + action_key(gone).words


def test_the_words_of_a_legal_difference_come_in_a_fixed_order() -> None:
    nine, eight = ({"type": "move", "card": c, "to": 2} for c in ("9D", "8D"))
    found = legal_difference([nine, {"type": "deal"}], [eight, eight])
    assert str(found) == (
        "the adapter lists, the rules refuse: 8♦ to column 2; the rules allow, the adapter "
        "does not list: deal, 9♦ to column 2; listed more than once: 8♦ to column 2"
    )


# -- one comparison, shared ---------------------------------------------------------------------


def test_every_caller_uses_the_one_comparison() -> None:
    assert fuzz.state_difference is state_difference
    assert play.state_difference is state_difference and play.legal_difference is legal_difference
    assert check_adapter.state_difference is state_difference
    assert check_adapter.legal_difference is legal_difference
    assert walk.state_difference is state_difference and walk.legal_difference is legal_difference
    assert scenario.action_key is action_key
    assert execute.action_key is action_key and execute.same_position is same_position
    for module in (fuzz.compare, check_adapter, execute, walk):
        assert not hasattr(module, "_action_key") and not hasattr(module, "_key")
    assert not hasattr(execute, "_position") and not hasattr(fuzz.compare, "state_difference")


def test_the_comparison_never_imports_the_engine() -> None:
    code = ("import sys, scorpion_conformance.compare; "
            "print(sorted(m for m in sys.modules if m.startswith('scorpion_ref')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=True)
    assert result.stdout.strip() == "[]"
    assert compare.__name__ == "scorpion_conformance.compare"
