"""Cards, suits, ranks and the action notation: parsing, printing, round trips."""

from __future__ import annotations

import dataclasses

import pytest

from scorpion_ref import (
    COLUMNS,
    DECK,
    Card,
    Column,
    Deal,
    InvalidPosition,
    Move,
    NotationError,
    Rank,
    Suit,
    parse_action,
)

TEN_OF_DIAMONDS = Card(Rank.TEN, Suit.DIAMONDS)
KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)


# -- reading cards --------------------------------------------------------------


@pytest.mark.parametrize("text", ["TD", "10D", "10♦", "td", "10d", "T♦", "t♦", "10♢", " TD "])
def test_every_spelling_of_the_ten_of_diamonds(text: str) -> None:
    assert Card.parse(text) == TEN_OF_DIAMONDS


@pytest.mark.parametrize("text", ["K♥", "KH", "kh", "k♥", "K♡", "kH"])
def test_every_spelling_of_the_king_of_hearts(text: str) -> None:
    assert Card.parse(text) == KING_OF_HEARTS


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("AS", Card(Rank.ACE, Suit.SPADES)),
        ("a♠", Card(Rank.ACE, Suit.SPADES)),
        ("2C", Card(Rank.TWO, Suit.CLUBS)),
        ("9♣", Card(Rank.NINE, Suit.CLUBS)),
        ("JD", Card(Rank.JACK, Suit.DIAMONDS)),
        ("q♤", Card(Rank.QUEEN, Suit.SPADES)),
    ],
)
def test_ranks_and_suits_are_read_from_letters_digits_and_symbols(text: str, card: Card) -> None:
    assert Card.parse(text) == card


@pytest.mark.parametrize(
    "text",
    ["", "X", "D", "1D", "11D", "0D", "TX", "10", "KK", "AHH", "10♦♦", "♦10", "1 0D", "ZZ", "T*"],
)
def test_a_token_that_is_not_a_card_is_refused_and_named(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize("value", [None, 10, b"TD", ("T", "D")])
def test_a_value_that_is_not_text_is_refused(value: object) -> None:
    with pytest.raises(NotationError, match="not a card"):
        Card.parse(value)  # type: ignore[arg-type]


def test_notation_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Card.parse("ZZ")


@pytest.mark.parametrize(
    ("text", "suit"),
    [("C", Suit.CLUBS), ("d", Suit.DIAMONDS), ("♥", Suit.HEARTS), ("♤", Suit.SPADES)],
)
def test_suits_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "CD", "♦♦"])
def test_a_bad_suit_is_named(text: str) -> None:
    with pytest.raises(NotationError, match="is not a suit"):
        Suit.parse(text)


@pytest.mark.parametrize(
    ("text", "rank"),
    [("A", Rank.ACE), ("t", Rank.TEN), ("10", Rank.TEN), ("k", Rank.KING), ("7", Rank.SEVEN)],
)
def test_ranks_parse(text: str, rank: Rank) -> None:
    assert Rank.parse(text) is rank


@pytest.mark.parametrize("text", ["", "1", "0", "11", "B", "AA"])
def test_a_bad_rank_is_named(text: str) -> None:
    with pytest.raises(NotationError, match="is not a rank") as caught:
        Rank.parse(text)
    assert repr(text) in str(caught.value)


# -- printing cards -------------------------------------------------------------


def test_the_ten_prints_as_t_in_ascii_and_as_10_with_its_symbol() -> None:
    assert str(TEN_OF_DIAMONDS) == "TD"
    assert TEN_OF_DIAMONDS.unicode == "10♦"
    assert KING_OF_HEARTS.unicode == "K♥"
    assert Card(Rank.ACE, Suit.CLUBS).unicode == "A♣"
    assert Card(Rank.TWO, Suit.SPADES).unicode == "2♠"


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_round_trips_through_ascii_unicode_and_repr(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.unicode) == card
    assert Card.parse(str(card).lower()) == card
    assert repr(card) == f"Card.parse({str(card)!r})"
    assert eval(repr(card)) == card


def test_the_repr_of_suits_and_ranks_is_evaluable() -> None:
    for suit in Suit:
        assert eval(repr(suit)) is suit
    for rank in Rank:
        assert eval(repr(rank)) is rank


def test_suit_symbols_and_colours() -> None:
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.is_red for s in Suit] == [False, True, True, False]


def test_rank_letters_and_labels() -> None:
    assert "".join(r.letter for r in Rank) == "A23456789TJQK"
    assert [r.label for r in Rank][8:10] == ["9", "10"]


# -- the deck -------------------------------------------------------------------


def test_the_deck_holds_52_different_cards_suit_by_suit_from_ace_to_king() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert " ".join(str(c) for c in DECK[:13]) == "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    assert [c.suit for c in DECK[::13]] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


def test_cards_are_immutable_and_hashable() -> None:
    card = Card.parse("9D")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = Rank.TEN  # type: ignore[misc]
    assert {card: 1}[Card(Rank.NINE, Suit.DIAMONDS)] == 1
    assert Card.parse("9D") != Card.parse("9H")


# -- actions --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("9D>5", Move(Card.parse("9D"), 5)),
        ("9♦>5", Move(Card.parse("9D"), 5)),
        ("10♦>1", Move(TEN_OF_DIAMONDS, 1)),
        ("td>7", Move(TEN_OF_DIAMONDS, 7)),
        (" K♥ > 3 ", Move(KING_OF_HEARTS, 3)),
        ("deal", Deal()),
        (" DEAL ", Deal()),
        ("Deal", Deal()),
    ],
)
def test_actions_are_read_in_either_notation(text: str, action: Move | Deal) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_move_round_trips_through_text_and_repr(card: Card) -> None:
    for to in range(1, COLUMNS + 1):
        move = Move(card, to)
        assert str(move) == f"{card}>{to}"
        assert parse_action(str(move)) == move
        assert Move.parse(str(move)) == move
        assert eval(repr(move)) == move
        assert parse_action(f"{card.unicode}>{to}") == move


def test_the_deal_round_trips_through_text_and_repr() -> None:
    assert str(Deal()) == "deal"
    assert parse_action(str(Deal())) == Deal()
    assert eval(repr(Deal())) == Deal()
    assert hash(Deal()) == hash(Deal())
    assert Deal() != Move(KING_OF_HEARTS, 1)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "9D",
        "9D>",
        "9D>x",
        "9D>0",
        "9D>8",
        "9D>-1",
        "9D>+5",
        "XX>5",
        ">5",
        "9D>>5",
        "9D<5",
        "deal deal",
        "9D>5>6",
    ],
)
def test_a_malformed_action_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_a_column_written_with_a_superscript_digit_is_a_notation_error() -> None:
    # "²".isdigit() is true but int("²") fails: the error must still be a NotationError
    # naming the text, not a bare ValueError from int().
    with pytest.raises(NotationError, match="9D>²"):
        parse_action("9D>²")


@pytest.mark.parametrize("value", [None, 5, ["deal"]])
def test_an_action_that_is_not_text_is_refused(value: object) -> None:
    with pytest.raises(NotationError, match="is not an action"):
        parse_action(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("to", [0, 8, -1, True, "5", 5.0, None])
def test_a_move_names_a_column_from_1_to_7(to: object) -> None:
    with pytest.raises(NotationError, match="columns are numbered 1 to 7"):
        Move(KING_OF_HEARTS, to)  # type: ignore[arg-type]


def test_a_move_names_a_card_value_not_text() -> None:
    with pytest.raises(NotationError, match="names a card"):
        Move("KH", 1)  # type: ignore[arg-type]


def test_actions_are_immutable_and_hashable() -> None:
    move = Move(KING_OF_HEARTS, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.to = 4  # type: ignore[misc]
    assert len({move, Move(KING_OF_HEARTS, 3), Deal(), Deal()}) == 2


# -- columns --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["4S JC 2D | 9D KH 4C", "9D KH 4C", "4S | 9D", "", "AS", "2C 3C | 4C 5C 6C 7C 8C 9C TC"],
)
def test_a_column_round_trips_through_its_repr(text: str) -> None:
    column = Column.parse(text)
    assert eval(repr(column)) == column
    assert repr(column) == f"Column.parse({text!r})"


def test_a_column_reads_face_down_cards_before_the_bar() -> None:
    column = Column.parse("4S J♣ 2d | 9♦ KH 4C")
    assert column.down == (Card.parse("4S"), Card.parse("JC"), Card.parse("2D"))
    assert column.up == (Card.parse("9D"), KING_OF_HEARTS, Card.parse("4C"))
    assert column.top == Card.parse("4C")
    assert len(column) == 6
    assert list(column.cards()) == [*column.down, *column.up]


def test_an_empty_column_has_no_top() -> None:
    column = Column.parse("")
    assert column.is_empty
    assert column.top is None
    assert len(column) == 0


def test_a_column_with_a_bad_card_names_the_token() -> None:
    with pytest.raises(NotationError, match="'XX'"):
        Column.parse("4S | XX")


def test_a_column_of_face_down_cards_only_is_refused() -> None:
    with pytest.raises(InvalidPosition, match="no face-up card"):
        Column.parse("4S JC |")
