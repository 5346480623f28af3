"""The suite's notation and step library: parsing, round trips and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorpion_conformance.notation import (
    RANKS,
    SUIT_SYMBOLS,
    Card,
    NotationError,
    parse_action,
    parse_action_list,
    parse_card,
    parse_column,
    parse_table,
    show_action,
    show_card,
    show_column,
)
from scorpion_conformance.suite.library import LIBRARY, UnknownStep, build_instruction
from scorpion_conformance.suite.tags import matches, requirements, scenario_id, unknown_tags
from scorpion_shared import vocabulary

cards = st.builds(Card, st.sampled_from(list(RANKS)), st.sampled_from(list(SUIT_SYMBOLS)))


@given(cards)
def test_a_card_round_trips_through_both_notations(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(card.code) == card
    assert show_card(card.code) == str(card)


@pytest.mark.parametrize(
    ("text", "code"),
    [("10♦", "TD"), ("TD", "TD"), ("td", "TD"), ("K♥", "KH"), ("A♠", "AS"), ("2♣", "2C")],
)
def test_cards_read_in_every_accepted_form(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["11♦", "1♦", "K", "KX", "♦", "", "10", "K♥♥"])
def test_a_bad_card_names_the_token(text: str) -> None:
    with pytest.raises(NotationError, match="is not a card"):
        parse_card(text)


@given(st.lists(cards, unique=True, max_size=8), st.integers(0, 8))
def test_a_column_round_trips(column_cards: list[Card], split: int) -> None:
    down = [c.code for c in column_cards[:split]]
    up = [c.code for c in column_cards[split:]]
    column = {"down": down, "up": up}
    assume(up)  # a column with cards always has a face-up one; an empty one shows "(empty)"
    assert parse_column(show_column(column)) == column


def test_a_face_down_card_cannot_lie_on_a_face_up_one() -> None:
    with pytest.raises(NotationError, match="face-down"):
        parse_column("9♦ [4♠]")


def test_a_table_reads_bottom_row_first_and_leaves_other_columns_empty() -> None:
    columns = parse_table([["1", "5"], ["[4♠]", "9♥"], ["8♥", ""]])
    assert columns[0] == {"down": ["4S"], "up": ["8H"]}
    assert columns[4] == {"down": [], "up": ["9H"]}
    assert all(c == {"down": [], "up": []} for i, c in enumerate(columns) if i not in (0, 4))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([["1", "8"], ["9♥", "8♥"]], "name columns 1 to 7"),
        ([["2", "1"], ["9♥", "8♥"]], "increasing order"),
        ([["1"], ["9♥", "8♥"]], "row 2 has 2 cells"),
        ([["1"], [""], ["9♥"]], "below a gap"),
        ([["1"], ["9♥"], ["[8♥]"]], "face-down"),
        ([["1"], ["11♥"]], r"table row 2, column 1: '11♥' is not a card"),
    ],
)
def test_a_bad_table_says_where(rows: list[list[str]], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_table(rows)


def test_actions_read_and_show() -> None:
    assert parse_action("9♦ to column 5") == {"type": "move", "card": "9D", "to": 5}
    assert parse_action("deal") == {"type": "deal"}
    assert parse_action_list("9♦ to column 5, deal") == [
        {"type": "move", "card": "9D", "to": 5}, {"type": "deal"}]
    assert parse_action_list("nothing") == []
    assert show_action({"type": "move", "card": "TD", "to": 3}) == "10♦ to column 3"
    with pytest.raises(NotationError):
        parse_action("9♦ onto 5")


def test_every_library_example_builds() -> None:
    for spec in LIBRARY:
        if not spec.example:
            continue
        first, *rest = spec.example.splitlines()
        _keyword, _, sentence = first.strip().partition(" ")
        table = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rest] or None
        assert build_instruction(spec.kind, sentence, table)


def test_an_unknown_sentence_lists_the_known_ones() -> None:
    with pytest.raises(UnknownStep, match="the player moves"):
        build_instruction("when", "the player shuffles the deck")


def test_sentences_do_not_shadow_each_other() -> None:
    assert build_instruction("then", "9♦ to column 5 is not legal")["listed"] is False
    assert build_instruction("then", "9♦ to column 5 is legal")["listed"] is True
    assert build_instruction("then", "the ♠ run has not been collected")["collected"] is False
    assert build_instruction("then", "the ♠ run has been collected")["collected"] is True


def test_tags_become_requirements() -> None:
    options, capabilities = requirements({"runs-stay", "undo", "id:UNDO-001", "R-UNDO-FLIPS"})
    untagged = {option: (default,) for option, default in vocabulary.UNTAGGED_DEFAULTS.items()}
    assert options == {"runs": ("stay",), **untagged} and capabilities == ("undo",)
    defaults = dict(vocabulary.OPTION_DEFAULTS)
    assert matches({**defaults, "runs": "stay"}, options)
    assert not matches({**defaults, "runs": "collect"}, options)
    assert scenario_id({"runs-stay", "id:UNDO-001"}) == "UNDO-001"
    assert unknown_tags({"runs-stay", "id:UNDO-001", "R-X", "mystery"}) == ["mystery"]


def test_an_option_not_yet_tagged_holds_untagged_scenarios_to_its_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scenario written before an option existed assumed its default; one tagged for it says where."""
    monkeypatch.setattr(vocabulary, "UNTAGGED_DEFAULTS", {"win": "four-runs"})
    assert requirements({"runs-stay"})[0] == {"runs": ("stay",), "win": ("four-runs",)}
    assert requirements({"win-one-run-per-column"})[0] == {"win": ("one-run-per-column",)}
    monkeypatch.setattr(vocabulary, "UNTAGGED_DEFAULTS", {})
    assert requirements({"runs-stay"})[0] == {"runs": ("stay",)}


def test_no_example_has_a_deadline() -> None:
    # tests/conftest.py's profile: an example that a loaded machine slows down is not a failure.
    assert settings.default.deadline is None
