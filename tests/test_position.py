"""Positions: what may be on a table, what may not, and positions as values."""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import subprocess
import sys

import pytest

from scorpion_ref import (
    COLUMNS,
    DECK,
    Card,
    Column,
    InvalidPosition,
    Position,
    Suit,
    deal_game,
)


def test_a_card_twice_in_the_columns_is_refused_and_named() -> None:
    with pytest.raises(InvalidPosition, match="9D appears more than once"):
        Position.build(["9D", "TD 9D"])


def test_a_card_face_down_and_face_up_is_refused() -> None:
    with pytest.raises(InvalidPosition, match="KH appears more than once"):
        Position.build(["KH | 2C KH"])


def test_a_card_on_the_table_and_in_the_stock_is_refused() -> None:
    with pytest.raises(InvalidPosition, match="2C appears more than once"):
        Position.build(["2C"], stock=["2C"])


def test_every_duplicated_card_is_named() -> None:
    with pytest.raises(InvalidPosition, match="3S, 9D appears more than once"):
        Position.build(["9D 3S", "9D 3S"])


def test_more_than_three_stock_cards_are_refused() -> None:
    with pytest.raises(InvalidPosition, match="the stock holds 4 cards; it holds at most 3"):
        Position.build([], stock=["AC", "2C", "3C", "4C"])


def test_face_down_cards_with_nothing_face_up_above_are_refused() -> None:
    with pytest.raises(InvalidPosition, match=r"face-down cards with no face-up card.*4S JC"):
        Column((Card.parse("4S"), Card.parse("JC")), ())


def test_a_card_of_a_collected_suit_is_refused() -> None:
    with pytest.raises(InvalidPosition, match="5H is still in play although its suit was"):
        Position.build(["KS 5H"], collected=["H"])


def test_a_stock_card_of_a_collected_suit_is_refused() -> None:
    with pytest.raises(InvalidPosition, match="AH is still in play"):
        Position.build([], stock=["AH"], collected=[Suit.HEARTS])


@pytest.mark.parametrize("count", [0, 1, 6, 8, 14])
def test_a_position_has_seven_columns(count: int) -> None:
    with pytest.raises(InvalidPosition, match=f"7 columns, not {count}"):
        Position(tuple(Column() for _ in range(count)))


def test_build_refuses_more_than_seven_columns() -> None:
    with pytest.raises(InvalidPosition, match="7 columns, not 8"):
        Position.build([""] * 8)


def test_every_column_must_be_a_column() -> None:
    with pytest.raises(InvalidPosition, match="must be a Column"):
        Position(("AS",) * COLUMNS)  # type: ignore[arg-type]


def test_fewer_than_52_cards_is_fine() -> None:
    position = Position.build(["KS QS", "", "3D"], stock=["9C"])
    assert sorted(map(str, position.cards())) == ["3D", "9C", "KS", "QS"]
    assert Position.build([]).columns == (Column(),) * COLUMNS


def test_a_position_with_every_suit_collected_is_an_empty_table() -> None:
    position = Position.build([], collected="CDHS")
    assert position.collected == frozenset(Suit)
    assert list(position.cards()) == []


def test_build_fills_missing_columns_and_reads_text() -> None:
    position = Position.build(
        ["3D | 9D KH 4C", Column.parse("TD")], stock=["2C", Card.parse("3C")], collected=["S"]
    )
    assert position.columns[0] == Column.parse("3D | 9D KH 4C")
    assert position.columns[1].top == Card.parse("TD")
    assert all(column.is_empty for column in position.columns[2:])
    assert position.stock == (Card.parse("2C"), Card.parse("3C"))
    assert position.collected == frozenset({Suit.SPADES})


def test_the_constructor_accepts_lists_and_stores_tuples() -> None:
    position = Position([Column()] * COLUMNS, [Card.parse("AS")], {Suit.CLUBS})  # type: ignore[arg-type]
    assert isinstance(position.columns, tuple)
    assert position.stock == (Card.parse("AS"),)
    assert position.collected == frozenset({Suit.CLUBS})


def test_cards_lists_columns_bottom_to_top_then_the_stock() -> None:
    position = Position.build(["3S | 9D KH", "", "TD"], stock=["2C"])
    assert [str(c) for c in position.cards()] == ["3S", "9D", "KH", "TD", "2C"]


def test_locate_finds_face_up_cards_only() -> None:
    position = Position.build(["3S | 9D KH", "", "TD"], stock=["2C"])
    assert position.locate(Card.parse("KH")) == (0, 1)
    assert position.locate(Card.parse("TD")) == (2, 0)
    assert position.locate(Card.parse("3S")) is None
    assert position.locate(Card.parse("2C")) is None
    assert position.locate(Card.parse("AS")) is None


def test_replace_swaps_one_column() -> None:
    position = Position.build(["3S | 9D KH"])
    changed = position.replace(4, Column.parse("QS"))
    assert changed.columns[4] == Column.parse("QS")
    assert changed.columns[0] == position.columns[0]
    assert position.columns[4].is_empty


def test_positions_are_values_a_dict_can_hold() -> None:
    one = Position.build(["3S | 9D KH"], stock=["2C"])
    same = Position.build([Column.parse("3S | 9D KH")], stock=[Card.parse("2C")])
    other = Position.build(["3S | 9D", "KH"], stock=["2C"])
    assert one == same
    assert hash(one) == hash(same)
    assert {one: "a", other: "b"}[same] == "a"
    assert len({one, same, other}) == 2


def test_a_position_sent_to_another_process_is_the_same_key_there() -> None:
    # A position's hash is made once, and differs from process to process (a collected suit
    # hashes its name): what is pickled is the position, never its hash, so a table there finds it.
    position = Position.build(["3S | 9D KS", "QD"], stock=["2C"], collected=["H"])
    assert {position: 1}[position] == 1  # its hash is made here, before it is sent
    script = ("import pickle, sys\n"
              "from scorpion_ref import Card, Position\n"
              "sent = pickle.loads(sys.stdin.buffer.read())\n"
              "made = Position.build(['3S | 9D KS', 'QD'], stock=['2C'], collected=['H'])\n"
              "assert {made: 1}[sent] == 1 and {Card.parse('KS'): 1}[sent.columns[0].up[1]] == 1\n"
              "assert hash(copy := pickle.loads(pickle.dumps(made))) == hash(made) and copy == made\n")
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(position),
                              capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}, timeout=60,
                              check=False)
        assert done.returncode == 0, done.stderr.decode()
    assert copy.deepcopy(position) == position and hash(copy.deepcopy(position)) == hash(position)


def test_positions_are_immutable() -> None:
    position = Position.build(["AS"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.stock = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.columns[0].up = ()  # type: ignore[misc]


def test_the_face_down_split_matters_for_equality() -> None:
    assert Position.build(["3S | 9D"]) != Position.build(["3S 9D"])


def test_the_repr_of_a_position_can_be_pasted_back() -> None:
    for position in (deal_game(1), Position.build(["3D | 9D"], stock=["2H"], collected=["S", "C"])):
        assert eval(repr(position)) == position


def test_a_full_deck_position_holds_every_card_once() -> None:
    position = deal_game(7)
    assert sorted(position.cards(), key=DECK.index) == list(DECK)
