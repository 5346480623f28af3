"""Rule sets as data, and for each option a position where its two values
disagree, asserted under both values: swapping either value for the other
makes one of these tests fail.

The options and named sets come from ``scorpion_ref/vocabulary.json``. The
values below are written out by hand on purpose, as a second reading of the
sources: a change to the file that alters one of them fails here. An option
added later is held to its default in every named set (protocol version 1
promises the named sets as they are)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from scorpion_ref import (
    OPTIONS,
    RULESETS,
    Card,
    Deal,
    IllegalAction,
    Move,
    Position,
    RuleSet,
    Status,
    Suit,
    UnknownRuleSet,
    apply,
    available_actions,
    check,
    get_ruleset,
    is_legal,
    legal_actions,
    parse_action,
    status,
)
from scorpion_ref.rules import OPTION_DEFAULTS

# -- the named sets of protocol version 1, written out by hand -----------------

NAMED = {
    #            runs       stock         empty  whole col   win                    finished runs
    "standard": ("collect", "any-time", "king", "refused", "four-runs", "ignored"),
    "classic": ("stay", "when-stuck", "king", "refused", "four-runs", "ignored"),
    "wasp": ("collect", "any-time", "any", "refused", "four-runs", "ignored"),
    "pysolfc": ("collect", "any-time", "king", "allowed", "four-runs", "ignored"),
    "aisleriot": ("stay", "any-time", "king", "allowed", "one-run-per-column", "counted"),
}
FIRST_OPTIONS = {
    "runs": ("collect", "stay"),
    "stock": ("any-time", "when-stuck"),
    "empty_column": ("king", "any"),
    "whole_column_to_empty": ("refused", "allowed"),
    "win": ("four-runs", "one-run-per-column"),
    "finished_run_moves": ("ignored", "counted"),
}
LATER_OPTIONS = [option for option in OPTIONS if option not in FIRST_OPTIONS]


def test_the_named_sets_of_version_1_come_first() -> None:
    assert list(RULESETS)[: len(NAMED)] == list(NAMED)


@pytest.mark.parametrize("name", NAMED)
def test_each_named_set_has_its_documented_options(name: str) -> None:
    rules = get_ruleset(name)
    assert rules.name == name
    assert {o: rules.options[o] for o in FIRST_OPTIONS} == dict(zip(FIRST_OPTIONS, NAMED[name], strict=True))
    assert rules.summary
    assert rules.sources


def test_the_options_and_their_values() -> None:
    assert list(OPTIONS)[: len(FIRST_OPTIONS)] == list(FIRST_OPTIONS)
    assert {o: OPTIONS[o] for o in FIRST_OPTIONS} == FIRST_OPTIONS


def test_a_later_option_leaves_the_named_sets_as_they_were() -> None:
    """An option added after version 1 has a default, and every named set of version 1 takes it
    (a named set added later may take any value: that is what a new named set is for)."""
    for option in LATER_OPTIONS:
        default = OPTION_DEFAULTS.get(option)
        assert default is not None, f"{option} came after protocol version 1, so it needs a default"
        taken = {name: RULESETS[name].options[option] for name in NAMED}
        assert taken == dict.fromkeys(NAMED, default), option
    assert set(OPTION_DEFAULTS) >= set(LATER_OPTIONS)


def test_an_unknown_rule_set_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleSet) as caught:
        get_ruleset("spider")
    assert str(caught.value) == f"unknown rule set 'spider'; known: {', '.join(RULESETS)}"
    assert str(caught.value).startswith(
        "unknown rule set 'spider'; known: standard, classic, wasp, pysolfc, aisleriot"
    )


@pytest.mark.parametrize("name", [None, ["standard"], "Standard", ""])
def test_rule_set_names_are_exact(name: Any) -> None:
    with pytest.raises(UnknownRuleSet, match="unknown rule set"):
        get_ruleset(name)


def test_an_unknown_rule_set_is_also_a_key_error() -> None:
    with pytest.raises(KeyError):
        get_ruleset("spider")


# -- custom bundles -------------------------------------------------------------

FOUR = {
    "runs": "collect",
    "stock": "any-time",
    "empty_column": "king",
    "whole_column_to_empty": "allowed",
}


def test_a_custom_bundle_may_leave_out_win_and_finished_run_moves() -> None:
    rules = RuleSet.from_options("mine", FOUR)
    assert rules.win == "four-runs"
    assert rules.finished_run_moves == "ignored"
    assert rules.options == {**FOUR, **OPTION_DEFAULTS}
    assert OPTION_DEFAULTS.items() >= {"win": "four-runs", "finished_run_moves": "ignored"}.items()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({**FOUR, "colour": "red"}, "unknown option colour"),
        ({k: v for k, v in FOUR.items() if k != "runs"}, "missing option runs"),
        ({}, "missing option runs, stock, empty_column, whole_column_to_empty"),
        ({**FOUR, "stock": "never"}, "stock must be one of any-time, when-stuck, not 'never'"),
        ({**FOUR, "win": "three-runs"}, "win must be one of"),
        ("runs=collect", "options must be a mapping"),
    ],
)
def test_a_bad_custom_bundle_says_what_is_wrong(options: Any, message: str) -> None:
    with pytest.raises(UnknownRuleSet, match=message):
        RuleSet.from_options("mine", options)


def test_a_rule_set_is_an_immutable_hashable_value() -> None:
    rules = get_ruleset("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.runs = "stay"  # type: ignore[misc]
    assert {rules: 1}[get_ruleset("standard")] == 1
    assert RuleSet.from_options("x", FOUR) == RuleSet.from_options("x", FOUR)


@pytest.mark.parametrize("name", NAMED)
def test_the_repr_of_a_named_set_can_be_pasted_back(name: str) -> None:
    rules = get_ruleset(name)
    assert repr(rules) == f"get_ruleset({name!r})"
    assert eval(repr(rules)) == rules


def test_the_repr_of_a_custom_bundle_can_be_pasted_back() -> None:
    rules = RuleSet.from_options("mine", {**FOUR, "runs": "stay", "win": "one-run-per-column"})
    assert repr(rules).startswith("RuleSet.from_options('mine', ")
    assert eval(repr(rules)) == rules


def test_matches_checks_required_values() -> None:
    standard = get_ruleset("standard")
    assert standard.matches({"runs": "collect"})
    assert standard.matches({"runs": ("stay", "collect"), "stock": "any-time"})
    assert not standard.matches({"stock": "when-stuck"})
    assert standard.matches({})


# -- every option changes something ---------------------------------------------


def rules_with(base: str, **changes: str) -> RuleSet:
    """The named set ``base`` with some options changed (underscored names)."""
    return RuleSet.from_options("test", {**get_ruleset(base).options, **changes})


HEARTS_KING_TO_TWO = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"


def reason(position: Position, rules: RuleSet, action: Any) -> str:
    with pytest.raises(IllegalAction) as caught:
        check(position, rules, action)
    return caught.value.reason


class TestRuns:
    """``collect`` sweeps a finished run off the table; ``stay`` leaves it in its column."""

    position = Position.build([HEARTS_KING_TO_TWO, "3C | AH"])
    move = parse_action("AH>1")

    def test_collect_removes_the_run_and_flips_what_it_uncovers(self) -> None:
        outcome = apply(self.position, rules_with("standard", runs="collect"), self.move)
        assert outcome.collected == (Suit.HEARTS,)
        assert outcome.flipped == (Card.parse("3C"),)
        assert outcome.position == Position.build(["", "3C"], collected=["H"])

    def test_stay_leaves_the_run_in_its_column(self) -> None:
        outcome = apply(self.position, rules_with("standard", runs="stay"), self.move)
        assert outcome.collected == ()
        assert outcome.flipped == (Card.parse("3C"),)
        assert outcome.position == Position.build([HEARTS_KING_TO_TWO + " AH", "3C"])

    def test_under_stay_nothing_plays_on_the_ace_of_a_finished_run(self) -> None:
        rules = rules_with("standard", runs="stay")
        after = apply(self.position, rules, self.move).position
        assert reason(after, rules, parse_action("3C>1")) == "not-same-suit"
        assert [a for a in legal_actions(after, rules) if isinstance(a, Move) and a.to == 1] == []


class TestStock:
    """``any-time`` deals whenever asked; ``when-stuck`` only when no other move is available."""

    position = Position.build(["TD", "9D"], stock=["2C", "3C", "4C"])

    def test_any_time_deals_while_moves_remain(self) -> None:
        rules = rules_with("standard", stock="any-time")
        assert Deal() in legal_actions(self.position, rules)
        after = apply(self.position, rules, Deal()).position
        assert after == Position.build(["TD 2C", "9D 3C", "4C"])

    def test_when_stuck_locks_the_stock_while_a_move_remains(self) -> None:
        rules = rules_with("standard", stock="when-stuck")
        assert legal_actions(self.position, rules) == (parse_action("9D>1"),)
        with pytest.raises(IllegalAction) as caught:
            check(self.position, rules, Deal())
        assert caught.value.reason == "stock-locked"
        assert "9♦" in caught.value.message

    def test_when_stuck_unlocks_the_stock_once_the_moves_are_played(self) -> None:
        rules = rules_with("standard", stock="when-stuck")
        after = apply(self.position, rules, parse_action("9D>1")).position
        assert legal_actions(after, rules) == (Deal(),)


class TestEmptyColumn:
    """``king``: only a King-led group fills a space; ``any``: any group does."""

    position = Position.build(["3S | QC KC", "5D"])
    move = parse_action("QC>3")

    def test_king_refuses_a_queen_carrying_a_king(self) -> None:
        rules = rules_with("standard", empty_column="king")
        with pytest.raises(IllegalAction) as caught:
            check(self.position, rules, self.move)
        assert caught.value.reason == "empty-column-needs-king"
        assert "Q♣" in caught.value.message
        assert legal_actions(self.position, rules) == tuple(
            Move(Card.parse("KC"), to) for to in range(3, 8)
        )

    def test_any_lets_the_queen_fill_the_space(self) -> None:
        rules = rules_with("standard", empty_column="any")
        outcome = apply(self.position, rules, self.move)
        assert outcome.position == Position.build(["3S", "5D", "QC KC"])
        assert outcome.flipped == (Card.parse("3S"),)
        assert self.move in legal_actions(self.position, rules)


class TestWholeColumnToEmpty:
    """``refused``: a group that is its whole column may not move to an empty one."""

    position = Position.build(["KS 5D", "AC"])
    move = parse_action("KS>3")

    def test_refused(self) -> None:
        rules = rules_with("standard", whole_column_to_empty="refused")
        with pytest.raises(IllegalAction) as caught:
            check(self.position, rules, self.move)
        assert caught.value.reason == "whole-column-to-empty"
        assert "K♠" in caught.value.message
        assert "column 1" in caught.value.message
        assert legal_actions(self.position, rules) == ()

    def test_allowed_but_never_available(self) -> None:
        rules = rules_with("standard", whole_column_to_empty="allowed")
        outcome = apply(self.position, rules, self.move)
        assert outcome.position == Position.build(["", "AC", "KS 5D"])
        assert legal_actions(self.position, rules) == tuple(
            Move(Card.parse("KS"), to) for to in range(3, 8)
        )
        assert available_actions(self.position, rules) == ()
        assert status(self.position, rules) is Status.LOST

    def test_a_king_over_face_down_cards_is_not_a_whole_column(self) -> None:
        position = Position.build(["2H | KS 5D", "AC"])
        rules = rules_with("standard", whole_column_to_empty="refused")
        assert is_legal(position, rules, self.move)
        assert status(position, rules) is Status.PLAYING


SPADES = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"
HEARTS = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"
CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"
DIAMONDS = "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD"


class TestWin:
    """Under ``stay``: ``four-runs`` wins with four runs anywhere; ``one-run-per-column``
    wants each run alone in its column."""

    two_in_one = Position.build([SPADES + " " + HEARTS, CLUBS, DIAMONDS])

    def test_four_runs_anywhere_win(self) -> None:
        rules = rules_with("classic", win="four-runs", finished_run_moves="counted")
        assert status(self.two_in_one, rules) is Status.WON

    def test_one_run_per_column_is_not_won_with_two_runs_in_one_column(self) -> None:
        rules = rules_with("classic", win="one-run-per-column", finished_run_moves="counted")
        assert status(self.two_in_one, rules) is Status.PLAYING
        after = apply(self.two_in_one, rules, parse_action("KH>4")).position
        assert after == Position.build([SPADES, CLUBS, DIAMONDS, HEARTS])
        assert status(after, rules) is Status.WON

    def test_aisleriot_wants_the_runs_apart(self) -> None:
        assert status(self.two_in_one, get_ruleset("aisleriot")) is Status.PLAYING
        assert status(self.two_in_one, get_ruleset("classic")) is Status.WON


class TestFinishedRunMoves:
    """Under ``stay``: ``ignored`` moves of a finished run's cards do not count as
    available (for the stock lock and for losing); ``counted`` they do."""

    # The spade run stands on a 3♦; its King may move to any of the empty columns.
    locked = Position.build(["3D " + SPADES, "", "9C"], stock=["2C", "4C", "5C"])
    dealt = Position.build(["3D " + SPADES, "", "9C"])

    def test_ignored_unlocks_the_stock(self) -> None:
        rules = rules_with("classic", finished_run_moves="ignored")
        assert is_legal(self.locked, rules, Deal())
        assert available_actions(self.locked, rules) == (Deal(),)
        assert legal_actions(self.locked, rules)[-1] == Deal()
        assert Move(Card.parse("KS"), 2) in legal_actions(self.locked, rules)

    def test_counted_keeps_the_stock_locked(self) -> None:
        rules = rules_with("classic", finished_run_moves="counted")
        with pytest.raises(IllegalAction) as caught:
            check(self.locked, rules, Deal())
        assert caught.value.reason == "stock-locked"
        assert "K♠" in caught.value.message
        assert Deal() not in legal_actions(self.locked, rules)

    def test_ignored_loses_when_only_finished_run_moves_remain(self) -> None:
        rules = rules_with("classic", finished_run_moves="ignored")
        assert status(self.dealt, rules) is Status.LOST
        assert legal_actions(self.dealt, rules)  # the moves exist, they just do not count

    def test_counted_plays_on(self) -> None:
        rules = rules_with("classic", finished_run_moves="counted")
        assert status(self.dealt, rules) is Status.PLAYING


FEATURES = Path(__file__).resolve().parents[1] / "features"


def test_every_option_is_tried_both_ways() -> None:
    """Each option has a test class here, or scenarios tagged with each of its values."""
    classes = {
        TestRuns: "runs",
        TestStock: "stock",
        TestEmptyColumn: "empty_column",
        TestWholeColumnToEmpty: "whole_column_to_empty",
        TestWin: "win",
        TestFinishedRunMoves: "finished_run_moves",
    }
    assert sorted(classes.values()) == sorted(FIRST_OPTIONS)
    from scorpion_shared.vocabulary import VOCABULARY

    tags = {tag for path in FEATURES.glob("*.feature")
            for tag in re.findall(r"@([a-z][a-z0-9-]*)", path.read_text(encoding="utf-8"))}
    # An option marked "tagged": false is tried at its default by every scenario without its tag.
    untried = [f"{o.name}: {v}" for o in VOCABULARY.options if o.name not in classes.values()
               for v, tag in o.tags.items() if tag not in tags and not (v == o.default and not o.tagged)]
    assert not untried, f"no scenario is tagged for {untried}"
