"""The rules of Scorpion, rule by rule, with the worked examples of the sources.

The sources are the seed files in /work/shared/seeds/, cited by their number:

* 000: ``000_712d3b658eade62b.txt`` (Cards4; runs collected, stock any time);
* 001: ``001_7fccbda185903fcd.txt`` (the "Clear runs" and "classic" modes);
* 002: ``002_a31f42e1a68709e8.txt`` (tap to move; the 8♥ example);
* 003: ``003_da4b34f3cb95d2da.txt`` (the traditional rules: runs stay in the tableau);
* 004: ``004_7c2733e909f6c65e.txt`` (xaweiye.com; the 7♥ example).
"""

from __future__ import annotations

from typing import Any

import pytest

from scorpion_ref import (
    Card,
    Deal,
    IllegalAction,
    Move,
    Position,
    RuleSet,
    Status,
    Suit,
    apply,
    available_actions,
    check,
    complete_runs,
    deal_game,
    get_ruleset,
    is_legal,
    is_whole_column_transfer,
    legal_actions,
    parse_action,
    status,
)
from scorpion_ref.position import Column

STANDARD = get_ruleset("standard")
CLASSIC = get_ruleset("classic")
WASP = get_ruleset("wasp")
PYSOLFC = get_ruleset("pysolfc")
AISLERIOT = get_ruleset("aisleriot")

SPADES = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"
HEARTS = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH"
CLUBS = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC"
DIAMONDS = "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def refusal(position: Position, rules: RuleSet, action: str | Any) -> IllegalAction:
    """The error the rules give for ``action``; apply refuses it for the same reason."""
    if isinstance(action, str):
        action = parse_action(action)
    with pytest.raises(IllegalAction) as caught:
        check(position, rules, action)
    with pytest.raises(IllegalAction) as applied:
        apply(position, rules, action)
    assert applied.value.reason == caught.value.reason
    assert not is_legal(position, rules, action)
    assert action not in legal_actions(position, rules)
    return caught.value


def play(position: Position, rules: RuleSet, *actions: str) -> Position:
    for text in actions:
        action = parse_action(text)
        assert action in legal_actions(position, rules), f"{text} is not listed as legal"
        position = apply(position, rules, action).position
    return position


# -- every reason code, and messages in a player's words -----------------------


def test_a_face_down_card_cannot_move() -> None:
    error = refusal(Position.build(["3S | 9D", "TD"]), STANDARD, "3S>2")
    assert error.reason == "card-face-down"
    assert error.message == "3♠ is face down: it cannot move"


def test_a_stock_card_cannot_move() -> None:
    error = refusal(Position.build(["TD"], stock=["9D"]), STANDARD, "9D>1")
    assert error.reason == "card-in-stock"
    assert "9♦" in error.message
    assert "stock" in error.message


def test_a_card_absent_from_the_table_cannot_move() -> None:
    error = refusal(Position.build(["TD"]), STANDARD, "9D>1")
    assert error.reason == "card-not-in-play"
    assert error.message == "9♦ is not on the table"


def test_a_card_of_a_collected_suit_is_not_in_play() -> None:
    error = refusal(Position.build(["TD"], collected=["H"]), STANDARD, "AH>1")
    assert error.reason == "card-not-in-play"
    assert "A♥" in error.message


def test_a_card_cannot_move_to_its_own_column() -> None:
    error = refusal(Position.build(["TD 9D"]), STANDARD, "9D>1")
    assert error.reason == "destination-is-source"
    assert error.message == "9♦ is already in column 1"


def test_a_buried_card_cannot_move_onto_its_own_column_top() -> None:
    # 9♦ lies under the 10♦ of its own column: it cannot be moved onto it.
    error = refusal(Position.build(["9D TD"]), STANDARD, "9D>1")
    assert error.reason == "destination-is-source"


def test_an_empty_column_needs_a_king() -> None:
    error = refusal(Position.build(["3S | QC KC"]), STANDARD, "QC>2")
    assert error.reason == "empty-column-needs-king"
    assert "Q♣" in error.message
    assert "King" in error.message


def test_a_whole_column_may_not_move_to_an_empty_column() -> None:
    error = refusal(Position.build(["KC 5D"]), STANDARD, "KC>2")
    assert error.reason == "whole-column-to-empty"
    assert "K♣" in error.message
    assert "whole of column 1" in error.message


def test_a_card_goes_only_on_its_own_suit() -> None:
    error = refusal(Position.build(["9D", "8H"]), STANDARD, "8H>1")
    assert error.reason == "not-same-suit"
    assert error.message == "8♥ goes only on 9♥, not on 9♦"


def test_a_card_goes_only_one_rank_lower() -> None:
    error = refusal(Position.build(["JD", "9D"]), STANDARD, "9D>1")
    assert error.reason == "not-one-rank-lower"
    assert error.message == "9♦ goes only on 10♦, not on J♦"


def test_a_card_goes_on_the_next_rank_not_the_one_below() -> None:
    error = refusal(Position.build(["8D", "9D"]), STANDARD, "9D>1")
    assert error.reason == "not-one-rank-lower"


def test_the_stock_is_dealt_once() -> None:
    error = refusal(Position.build(["TD"]), STANDARD, Deal())
    assert error.reason == "stock-empty"
    assert "already been dealt" in error.message


def test_the_stock_is_locked_while_a_move_remains_under_classic() -> None:
    error = refusal(Position.build(["TD", "9D"], stock=["2C", "3C", "4C"]), CLASSIC, Deal())
    assert error.reason == "stock-locked"
    assert "9♦ to column 1" in error.message


@pytest.mark.parametrize(
    ("columns", "action", "reason"),
    [
        (["3S | 9D", "TD"], "3S>2", "card-face-down"),
        (["9D", "TD"], "9D>1", "destination-is-source"),
        (["3S | QC KC"], "QC>2", "empty-column-needs-king"),
        (["KC 5D"], "KC>2", "whole-column-to-empty"),
        (["9D", "8H"], "8H>1", "not-same-suit"),
        (["JD", "9D"], "9D>1", "not-one-rank-lower"),
    ],
)
def test_messages_use_card_symbols_not_protocol_letters(
    columns: list[str], action: str, reason: str
) -> None:
    error = refusal(Position.build(columns), STANDARD, action)
    assert error.reason == reason
    card = parse_action(action).card  # type: ignore[union-attr]
    assert card.unicode in error.message
    assert str(card) not in error.message


def test_an_illegal_action_carries_reason_and_message() -> None:
    error = refusal(Position.build(["9D", "8H"]), STANDARD, "8H>1")
    assert str(error) == error.message
    assert repr(error) == f"IllegalAction('not-same-suit', {error.message!r})"


# -- building: same suit, one rank lower (000, 002, 004) ----------------------


def test_the_nine_of_diamonds_carries_its_passengers_onto_the_ten_000() -> None:
    # 000: "9♦ carrying K♥ and 4♣ can move onto 10♦ ... Afterward that column ends
    # 10♦, 9♦, K♥, 4♣."
    before = Position.build(["TD", "3S | 9D KH 4C"])
    outcome = apply(before, STANDARD, parse_action("9D>1"))
    assert outcome.position == Position.build(["TD 9D KH 4C", "3S"])
    assert outcome.flipped == cards("3S")
    assert outcome.collected == ()


def test_the_nine_of_diamonds_not_on_the_ten_of_hearts_nor_the_jack_000() -> None:
    # 000: "9♦ fits on 10♦, but not on 10♥ or J♦"; sharing the red colour is not enough.
    position = Position.build(["TH", "JD", "3S | 9D KH 4C"])
    assert refusal(position, STANDARD, "9D>1").reason == "not-same-suit"
    assert refusal(position, STANDARD, "9D>2").reason == "not-one-rank-lower"


def test_the_four_of_clubs_alone_needs_the_five_of_clubs_000() -> None:
    # 000: "Selecting 4♣ instead moves only that card. It would need an exposed 5♣."
    position = Position.build(["TD", "3S | 9D KH 4C", "5C"])
    error = refusal(position, STANDARD, "4C>1")
    assert "4♣" in error.message
    assert "5♣" in error.message
    after = play(position, STANDARD, "4C>3")
    assert after == Position.build(["TD", "3S | 9D KH", "5C 4C"])


def test_the_king_of_hearts_with_the_four_of_clubs_needs_an_empty_column_000() -> None:
    # 000: "Selecting K♥ takes K♥ and 4♣, and requires an empty column."
    position = Position.build(["TD", "3S | 9D KH 4C"])
    error = refusal(position, STANDARD, "KH>1")
    assert error.message == "K♥ goes only to an empty column"
    after = play(position, STANDARD, "KH>4")
    assert after == Position.build(["TD", "3S | 9D", "", "KH 4C"])


def test_no_king_lands_on_an_ace_000() -> None:
    # 000: "No King can land on an Ace"; 004: "A King cannot land on another card."
    position = Position.build(["AH", "KH", "QC"])
    assert refusal(position, STANDARD, "KH>1").reason == "not-one-rank-lower"
    assert refusal(position, STANDARD, "KH>3").reason == "not-same-suit"


def test_nothing_plays_on_an_ace_001() -> None:
    # 001: "Nothing plays on an Ace ... an Ace is always the end of the line."
    position = Position.build(["2H AH", "KH", "QH", "3H"])
    for card in ("KH", "QH", "3H"):
        assert refusal(position, STANDARD, f"{card}>1").reason == "not-one-rank-lower"
    assert not [a for a in legal_actions(position, STANDARD) if isinstance(a, Move) and a.to == 1]


def test_a_covered_card_receives_nothing_000() -> None:
    # 000: "You cannot ... land on a covered destination card."
    position = Position.build(["TD 3S", "9D"])
    assert refusal(position, STANDARD, "9D>1").reason == "not-same-suit"


def test_the_queen_of_clubs_and_her_riders_move_onto_the_king_001() -> None:
    # 001: "the Q♣ lies in column two with the 4♦ and 10♥ sitting on top of her. The K♣
    # is face up in column five ... drop the whole group on the K♣."
    before = Position.build(["AS", "7S | QC 4D TH", "2S", "3S", "KC"])
    outcome = apply(before, STANDARD, parse_action("QC>5"))
    assert outcome.position == Position.build(["AS", "7S", "2S", "3S", "KC QC 4D TH"])
    assert outcome.flipped == cards("7S")


def test_the_eight_of_hearts_and_three_passengers_go_onto_the_nine_of_hearts_002() -> None:
    # 002: column 2 has three face-down cards, then 8♥ 3♣ J♠ 5♦; column 5 ends in 9♥,
    # column 6 in 9♦. "only column 5 lights up"; column 2's top face-down card turns over.
    before = Position.build(["KC", "2C 6S QD | 8H 3C JS 5D", "KD", "KS", "4C 9H", "TC 9D", "KH"])
    moves_of_the_eight = [
        a
        for a in legal_actions(before, STANDARD)
        if isinstance(a, Move) and a.card == Card.parse("8H")
    ]
    assert moves_of_the_eight == [parse_action("8H>5")]
    outcome = apply(before, STANDARD, parse_action("8H>5"))
    assert outcome.position.columns[4] == Column.parse("4C 9H 8H 3C JS 5D")
    assert outcome.position.columns[1] == Column.parse("2C 6S | QD")
    assert outcome.flipped == cards("QD")
    error = refusal(before, STANDARD, "8H>6")
    assert error.reason == "not-same-suit"
    assert "8♥" in error.message
    assert "9♥" in error.message


def test_the_seven_of_hearts_onto_the_eight_of_hearts_not_spades_004() -> None:
    # 004: "A seven of hearts can land on an exposed eight of hearts. A seven of
    # hearts cannot land on an eight of spades."
    position = Position.build(["8H", "8S", "7H"])
    assert play(position, STANDARD, "7H>1") == Position.build(["8H 7H", "8S"])
    error = refusal(position, STANDARD, "7H>2")
    assert error.reason == "not-same-suit"
    assert "7♥" in error.message and "8♥" in error.message and "8♠" in error.message


def test_a_group_may_bury_its_destination_in_chaos_001() -> None:
    # 001: "only the bottom card of the group is validated."
    position = Position.build(["5C", "4C KD 2H 9S QH"])
    after = play(position, STANDARD, "4C>1")
    assert after.columns[0] == Column.parse("5C 4C KD 2H 9S QH")


def test_a_face_down_card_flips_when_uncovered_002_004() -> None:
    position = Position.build(["AS 2S | 9D", "TD"])
    outcome = apply(position, STANDARD, parse_action("9D>2"))
    assert outcome.flipped == cards("2S")
    assert outcome.position.columns[0] == Column.parse("AS | 2S")


# -- empty columns (000, 001, 002, 003, 004) ------------------------------------


def test_a_queen_carrying_a_king_cannot_fill_a_space_000() -> None:
    # 000: "A Queen carrying a King cannot fill it, because the Queen is the leading card.
    # The King itself may be selected, carrying everything below it."
    position = Position.build(["3S | QC KC 7D"])
    assert refusal(position, STANDARD, "QC>2").reason == "empty-column-needs-king"
    assert play(position, STANDARD, "KC>2") == Position.build(["3S | QC", "KC 7D"])


def test_wasp_fills_a_space_with_any_card_001_003() -> None:
    position = Position.build(["3S | QC KC 7D"])
    assert play(position, WASP, "QC>2") == Position.build(["3S", "QC KC 7D"])
    assert play(position, WASP, "7D>2") == Position.build(["3S | QC KC", "7D"])


def test_a_whole_king_column_may_not_move_to_a_space_000_002() -> None:
    # 000: "If the King-led group occupies its whole column, Cards4 refuses the transfer";
    # 002: "Moving a whole column into another empty column changes nothing."
    position = Position.build(["KC 5D 8H"])
    assert refusal(position, STANDARD, "KC>2").reason == "whole-column-to-empty"
    assert legal_actions(position, STANDARD) == ()


def test_pysolfc_lets_a_whole_king_column_move() -> None:
    position = Position.build(["KC 5D 8H"])
    assert play(position, PYSOLFC, "KC>2") == Position.build(["", "KC 5D 8H"])


def test_a_whole_non_king_column_is_refused_under_wasp() -> None:
    position = Position.build(["7D 5D", "TC"])
    assert refusal(position, WASP, "7D>3").reason == "whole-column-to-empty"
    assert play(position, WASP, "5D>3") == Position.build(["7D", "TC", "5D"])


def test_is_whole_column_transfer() -> None:
    position = Position.build(["KC 5D", "2H | KS", "9C"], stock=["AD"])
    assert is_whole_column_transfer(position, parse_action("KC>4"))
    assert not is_whole_column_transfer(position, parse_action("5D>4"))
    assert not is_whole_column_transfer(position, parse_action("KS>4"))  # face-down below
    assert not is_whole_column_transfer(position, parse_action("KC>3"))  # not empty
    assert not is_whole_column_transfer(position, parse_action("2H>4"))  # face down
    assert not is_whole_column_transfer(position, parse_action("AD>4"))  # in the stock


# -- the stock (000, 001, 002, 003, 004) ----------------------------------------


def test_the_stock_lands_on_columns_one_two_and_three_in_order_002() -> None:
    # 002: "The top card lands on column 1, the next on column 2 and the last on column 3."
    position = Position.build(["TD", "4S | 9S", "KH"], stock=["2C", "5D", "9H"])
    outcome = apply(position, STANDARD, Deal())
    assert outcome.position == Position.build(["TD 2C", "4S | 9S 5D", "KH 9H"])
    assert outcome.flipped == ()


def test_the_stock_fills_empty_columns_with_any_card_000_004() -> None:
    # 000: "An empty one of those columns receives its stock card even if that card is
    # not a King." 004: "This Scorpion version permits its stock deal when columns are empty."
    position = Position.build(["", "KS", "", "QH"], stock=["2C", "5D", "9H"])
    assert is_legal(position, STANDARD, Deal())
    assert play(position, STANDARD, "deal") == Position.build(["2C", "KS 5D", "9H", "QH"])


def test_a_short_stock_deals_what_it_has() -> None:
    position = Position.build(["TD", "9S"], stock=["2C"])
    assert play(position, STANDARD, "deal") == Position.build(["TD 2C", "9S"])


def test_the_stock_may_be_dealt_at_any_time_under_standard_002() -> None:
    position = deal_game(1)
    assert legal_actions(position, STANDARD)[-1] == Deal()
    assert len(legal_actions(position, STANDARD)) > 1


def test_classic_locks_the_stock_until_no_move_remains_001() -> None:
    # 001: "as long as any tableau move remains, the tail stays locked."
    position = Position.build(["TD", "9D", "QC"], stock=["2C", "3C", "4C"])
    assert refusal(position, CLASSIC, Deal()).reason == "stock-locked"
    after = play(position, CLASSIC, "9D>1")
    assert legal_actions(after, CLASSIC) == (Deal(),)
    assert play(after, CLASSIC, "deal") == Position.build(["TD 9D 2C", "3C", "QC 4C"])


def test_classic_unlocks_the_stock_when_only_finished_run_moves_remain_001() -> None:
    # 001: "moves that would only break up a finished run do not count as available
    # moves - the tail unlocks even though those technically-legal moves exist."
    position = Position.build(["3D " + SPADES, "", "9C"], stock=["2C", "4C", "5C"])
    legal = legal_actions(position, CLASSIC)
    assert parse_action("KS>2") in legal
    assert legal[-1] == Deal()
    assert available_actions(position, CLASSIC) == (Deal(),)
    after = play(position, CLASSIC, "deal")
    assert after == Position.build(["3D " + SPADES + " 2C", "4C", "9C 5C"])


def test_classic_counts_a_move_of_the_card_under_a_finished_run() -> None:
    # The 3♦ carries the whole spade run: it is not a card of the run, so its move counts.
    position = Position.build(["3D " + SPADES, "4D"], stock=["2C", "5C", "6C"])
    assert refusal(position, CLASSIC, Deal()).reason == "stock-locked"


def test_classic_ignores_whole_column_transfers_for_the_lock() -> None:
    rules = RuleSet.from_options(
        "classic-allowed", {**CLASSIC.options, "whole_column_to_empty": "allowed"}
    )
    position = Position.build(["KC 5D"], stock=["2C", "4C", "5H"])
    assert is_legal(position, rules, parse_action("KC>2"))
    assert is_legal(position, rules, Deal())


def test_the_stock_lands_on_a_finished_run_under_classic_001() -> None:
    # 001: "the three cards land on top of whatever columns one to three currently hold -
    # ordered runs included."
    position = Position.build([SPADES, "5C"], stock=["2C", "4C", "7H"])
    after = play(position, CLASSIC, "deal")
    assert after == Position.build([SPADES + " 2C", "5C 4C", "7H"])
    assert complete_runs(after.columns[0]) == [0]


# -- collection (000, 001, 004) -------------------------------------------------


def test_a_completed_run_leaves_the_table_and_flips_the_card_below_000() -> None:
    # 000: "If clearing exposes a hidden card, that card flips."
    position = Position.build(["7D 8D | KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == (Suit.HEARTS,)
    assert outcome.flipped == cards("8D")
    assert outcome.position == Position.build(["7D | 8D"], collected=["H"])


def test_a_stock_card_that_completes_a_run_has_it_collected_001() -> None:
    # 001: "a run finished by a landing tail card is swept immediately."
    position = Position.build(
        ["7S | KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "9D"], stock=["AC", "8D", "5H"]
    )
    outcome = apply(position, STANDARD, Deal())
    assert outcome.collected == (Suit.CLUBS,)
    assert outcome.flipped == cards("7S")
    assert outcome.position == Position.build(["7S", "9D 8D", "5H"], collected=["C"])


def test_one_deal_can_complete_two_runs() -> None:
    position = Position.build(
        ["KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"],
        stock=["AC", "AD", "5H"],
    )
    outcome = apply(position, STANDARD, Deal())
    assert outcome.collected == (Suit.CLUBS, Suit.DIAMONDS)
    assert outcome.position == Position.build(["", "", "5H"], collected=["C", "D"])


def test_one_move_collects_at_the_destination_and_at_the_source_001() -> None:
    # 001: "a single move can trigger two sweeps: the run completed where your cards
    # landed, and a run that was sitting complete underneath the riders you moved away."
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H", "2D | " + SPADES + " 5H 4H 3H 2H AH"])
    outcome = apply(position, STANDARD, parse_action("5H>1"))
    assert outcome.collected == (Suit.HEARTS, Suit.SPADES)
    assert outcome.flipped == cards("2D")
    assert outcome.position == Position.build(["", "2D"], collected=["H", "S"])


def test_a_collection_that_uncovers_another_complete_run_collects_it_too() -> None:
    # Every column is checked until no complete run is left at its top.
    position = Position.build(["3D | " + SPADES + " KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == (Suit.HEARTS, Suit.SPADES)
    assert outcome.flipped == cards("3D")
    assert outcome.position == Position.build(["3D"], collected=["H", "S"])


def test_a_run_with_passengers_above_its_ace_is_not_collected_000() -> None:
    # 000: "an extra passenger below the Ace prevents clearing" (below in the display).
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH 5C"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == ()
    assert outcome.position.columns[0] == Column.parse(HEARTS + " 5C")


def test_the_passenger_leaving_lets_the_run_go() -> None:
    position = Position.build([HEARTS + " 5C", "6C"])
    outcome = apply(position, STANDARD, parse_action("5C>2"))
    assert outcome.collected == (Suit.HEARTS,)
    assert outcome.position == Position.build(["", "6C 5C"], collected=["H"])


def test_a_missing_rank_prevents_collection_000() -> None:
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 2H", "AH", "3H"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == ()


def test_a_wrong_suit_prevents_collection_000() -> None:
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3S 2H", "AH", "3H"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == ()
    assert len(outcome.position.columns[0]) == 13


def test_a_face_down_card_inside_prevents_collection_000_004() -> None:
    # 004: "All thirteen cards in a collected run must be face up."
    position = Position.build(["KH | QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"])
    outcome = apply(position, STANDARD, parse_action("AH>1"))
    assert outcome.collected == ()
    assert outcome.position.columns[0] == Column.parse("KH | QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH")


def test_an_unordered_group_is_not_a_run_004() -> None:
    # 004: "Moving an unordered group does not make that group a completed sequence."
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", "2H AH 3C", "4C"])
    outcome = apply(position, STANDARD, parse_action("2H>1"))
    assert outcome.collected == ()


def test_complete_runs_are_found_bottom_first() -> None:
    assert complete_runs(Column.parse(SPADES)) == [0]
    assert complete_runs(Column.parse(SPADES + " " + HEARTS)) == [0, 13]
    assert complete_runs(Column.parse("3D 4C " + SPADES + " 5H")) == [2]
    assert complete_runs(Column.parse("KS | " + SPADES[3:])) == []
    assert complete_runs(Column.parse(SPADES[3:])) == []


def test_under_classic_a_run_stays_and_is_not_collected_001_003() -> None:
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"])
    outcome = apply(position, CLASSIC, parse_action("AH>1"))
    assert outcome.collected == ()
    assert outcome.position == Position.build([HEARTS])


# -- winning and losing (000, 001, 003) -----------------------------------------


def test_four_collected_runs_win_under_collect() -> None:
    assert status(Position.build([], collected="CDHS"), STANDARD) is Status.WON


def test_the_last_collection_wins() -> None:
    position = Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"], collected="CDS")
    after = play(position, STANDARD, "AH>1")
    assert after == Position.build([], collected="CDHS")
    assert status(after, STANDARD) is Status.WON


def test_four_runs_on_the_table_win_under_classic_003() -> None:
    # 003: "The game is won when all four complete King-to-Ace sequences are assembled
    # by suit anywhere in the tableau."
    position = Position.build([SPADES, HEARTS, CLUBS, DIAMONDS])
    assert status(position, CLASSIC) is Status.WON
    assert status(position, AISLERIOT) is Status.WON


def test_four_runs_in_two_columns_win_under_classic() -> None:
    position = Position.build([SPADES + " " + HEARTS, CLUBS + " " + DIAMONDS])
    assert status(position, CLASSIC) is Status.WON
    assert status(position, AISLERIOT) is Status.PLAYING


def test_three_runs_do_not_win_under_classic() -> None:
    position = Position.build([SPADES, HEARTS, CLUBS + " " + DIAMONDS[:-3]])
    assert status(position, CLASSIC) is not Status.WON


def test_an_empty_stock_does_not_end_the_deal_000() -> None:
    position = Position.build(["TD", "9D"])
    assert status(position, STANDARD) is Status.PLAYING


def test_no_available_action_loses() -> None:
    position = Position.build(["TD", "8D"])
    assert legal_actions(position, STANDARD) == ()
    assert status(position, STANDARD) is Status.LOST


def test_an_undealt_stock_keeps_the_game_alive() -> None:
    position = Position.build(["TD", "8D"], stock=["2C"])
    assert status(position, STANDARD) is Status.PLAYING
    assert status(position, CLASSIC) is Status.PLAYING


def test_blocked_when_only_whole_column_transfers_remain_and_the_stock_is_used_000() -> None:
    # 000: "Whole-column King transfers are excluded from legal moves. If those are the
    # only possible transfers and the stock is used, the deal is blocked."
    position = Position.build(["KS 5D", "KC 9H"])
    for rules in (STANDARD, PYSOLFC, AISLERIOT):
        assert status(position, rules) is Status.LOST
        assert available_actions(position, rules) == ()
    assert legal_actions(position, STANDARD) == ()
    assert len(legal_actions(position, PYSOLFC)) == 2 * 5
    with_stock = Position.build(["KS 5D", "KC 9H"], stock=["2C"])
    assert status(with_stock, STANDARD) is Status.PLAYING
    assert available_actions(with_stock, PYSOLFC) == (Deal(),)


def test_classic_loses_when_only_finished_run_moves_remain() -> None:
    position = Position.build(["3D " + SPADES, "", "9C"])
    assert status(position, CLASSIC) is Status.LOST
    assert status(position, AISLERIOT) is Status.PLAYING


# -- the list of legal actions ----------------------------------------------------


@pytest.mark.parametrize("game", [1, 2, 617, 11982, 32000, 10**9])
def test_legal_actions_come_by_source_card_and_destination_then_the_deal(game: int) -> None:
    position = deal_game(game)
    for rules in (STANDARD, WASP, PYSOLFC):
        legal = legal_actions(position, rules)
        assert legal == legal_actions(position, rules)
        assert legal[-1] == Deal()
        keys = []
        for action in legal[:-1]:
            assert isinstance(action, Move)
            col, index = position.locate(action.card)  # type: ignore[misc]
            keys.append((col, index, action.to))
        assert keys == sorted(keys)
        assert len(set(legal)) == len(legal)


def test_the_legal_actions_of_game_one() -> None:
    # Game 1 (drawn in test_deal.py) has the tops 8♦ Q♠ 6♣ 3♦ 8♣ 10♣ 6♠.
    position = deal_game(1)
    expected = ["5S>7", "5C>3", "7D>1", "7C>5", "JS>2"]
    assert [str(a) for a in legal_actions(position, STANDARD)] == [*expected, "deal"]
    assert [str(a) for a in legal_actions(position, CLASSIC)] == expected
    assert [str(a) for a in available_actions(position, CLASSIC)] == expected


def test_available_actions_are_legal() -> None:
    for game in range(1, 30):
        position = deal_game(game)
        for rules in (STANDARD, CLASSIC, WASP, PYSOLFC, AISLERIOT):
            legal = set(legal_actions(position, rules))
            assert set(available_actions(position, rules)) <= legal
