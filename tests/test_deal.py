"""Deals by game number: the same cards as PySolFC, reproducible by anyone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import createCards
from pysol_cards.random import RandomBase, shuffle

from scorpion_ref import COLUMNS, DECK, Card, Column, Position, Rank, ScorpionError, Suit, deal_game
from scorpion_ref.deal import MS_DEALS_BELOW, shuffled_deck

# Microsoft FreeCell deals #1 and #617, as published (for instance on Rosetta Code's
# "Deal cards for FreeCell" page), read row by row: the order the cards are dealt.
MS_DEAL_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C "
    "4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
)
MS_DEAL_617 = (
    "7D AD 5C 3S 5S 8C 2D AH TD 7S QD AC 6D 8H AS KH TH QC 3H 9D 6S 8D 3D TC "
    "KD 5H 9S 3C 8S 7H 4D JS 4C QS 9C 9H 7C 6H 2C 2S 4S TS 2H 5D JC 6C JH QH JD KS KC 4H"
)


def text(cards: object) -> str:
    return " ".join(str(c) for c in cards)  # type: ignore[attr-defined]


def test_game_one_begins_with_the_microsoft_freecell_deal_one() -> None:
    assert " ".join(c.unicode for c in shuffled_deck(1)[:8]) == "J♦ 2♦ 9♥ J♣ 5♦ 7♥ 7♣ 5♥"


@pytest.mark.parametrize(("game", "deal"), [(1, MS_DEAL_1), (617, MS_DEAL_617)])
def test_games_below_32000_deal_the_microsoft_freecell_order(game: int, deal: str) -> None:
    assert text(shuffled_deck(game)) == deal


def test_game_one_is_laid_out_row_by_row() -> None:
    assert deal_game(1) == Position(
        (
            Column.parse("JD 5H KH | AS 4H TH 8D"),
            Column.parse("2D KD 3H | AH AC 8H QS"),
            Column.parse("9H KC 2S | 3C 4D 2C 6C"),
            Column.parse("JC 9S KS | 4C 7S JH 3D"),
            Column.parse("5D 5S 9D 5C 3S 7D 8C"),
            Column.parse("7H AD QD TS TD 6D TC"),
            Column.parse("7C QC JS QH 4S 8S 6S"),
        ),
        (Card.parse("9C"), Card.parse("2H"), Card.parse("6H")),
    )


def test_card_k_goes_to_column_k_mod_7_and_the_last_three_are_the_stock() -> None:
    for game in (1, 2, 31999, 32000, 123456789):
        deck = shuffled_deck(game)
        position = deal_game(game)
        for column_index, column in enumerate(position.columns):
            assert list(column.cards()) == deck[column_index:49:COLUMNS]
        assert list(position.stock) == deck[49:]


def test_a_scorpion_deal_hides_twelve_cards_and_keeps_three_in_the_stock_000_001() -> None:
    # 000, 001, 002, 003, 004: columns 1-4 start with three face-down cards each.
    position = deal_game(1)
    assert [len(c.down) for c in position.columns] == [3, 3, 3, 3, 0, 0, 0]
    assert [len(c.up) for c in position.columns] == [4, 4, 4, 4, 7, 7, 7]
    assert len(position.stock) == 3
    assert position.collected == frozenset()


def test_a_scorpion_ii_deal_hides_nine_cards_in_the_first_three_columns_000() -> None:
    # 000: "Scorpion II commonly starts with nine instead."
    position = deal_game(1, "scorpion-ii")
    assert [len(c.down) for c in position.columns] == [3, 3, 3, 0, 0, 0, 0]
    assert [len(c.up) for c in position.columns] == [4, 4, 4, 7, 7, 7, 7]
    assert len(position.stock) == 3
    assert list(position.cards()) == list(deal_game(1).cards())


def test_an_unknown_kind_of_deal_is_refused() -> None:
    with pytest.raises(ScorpionError, match="unknown deal 'spider'; known: scorpion, scorpion-ii"):
        deal_game(1, "spider")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**20 - 1), st.sampled_from(["scorpion", "scorpion-ii"]))
def test_every_deal_holds_the_52_cards_once(game: int, kind: str) -> None:
    position = deal_game(game, kind)
    dealt = list(position.cards())
    assert len(dealt) == 52
    assert set(dealt) == set(DECK)
    assert all(len(column) == 7 for column in position.columns)
    assert deal_game(game, kind) == position


def test_different_games_deal_differently() -> None:
    assert len({deal_game(game) for game in range(1, 201)}) == 200


def _pysol_cards_deal(game: int) -> list[Card]:
    """What ``pysol_cards``' own shuffle deals, reversed so that index 0 is dealt first."""
    suits = {"C": Suit.CLUBS, "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS}
    cards = shuffle(createCards(1), game, RandomBase.DEALS_PYSOLFC)
    return [Card(Rank(c.rank), suits[c.suit_s()]) for c in reversed(cards)]


def test_game_32000_uses_the_mersenne_twister_unlike_pysol_cards_shuffle() -> None:
    # PySolFC seeds games below 32000 with the MS generator and 32000 and above with
    # the Mersenne Twister; pysol_cards.random.shuffle switches one game later.
    assert MS_DEALS_BELOW == 32000
    assert shuffled_deck(32000) != _pysol_cards_deal(32000)


@pytest.mark.parametrize("game", [1, 617, 31998, 31999, 32001, 32002, 10**6, 10**19])
def test_other_games_agree_with_pysol_cards_shuffle(game: int) -> None:
    assert shuffled_deck(game) == _pysol_cards_deal(game)


@pytest.mark.parametrize("game", [0, -1, 10**20, 10**30, True, 1.0, "1", None])
def test_game_numbers_out_of_range_are_refused(game: object) -> None:
    with pytest.raises(ScorpionError, match="game numbers run from 1 to 99999999999999999999"):
        deal_game(game)  # type: ignore[arg-type]


def test_the_largest_game_number_deals() -> None:
    assert len(shuffled_deck(10**20 - 1)) == 52
