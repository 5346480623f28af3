"""The protocol's JSON forms of positions and actions, and positions drawn as text."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import near_complete_positions, played_positions, positions

from scorpion_ref import (
    COLUMNS,
    DECK,
    Deal,
    InvalidPosition,
    Move,
    NotationError,
    Position,
    deal_game,
)
from scorpion_ref.serial import (
    action_from_json,
    action_to_json,
    draw_position,
    position_from_json,
    position_to_json,
)

# -- positions ------------------------------------------------------------------


def test_the_json_form_of_a_position() -> None:
    position = Position.build(["3S | 9D KD"], stock=["2D"], collected=["H", "C"])
    assert position_to_json(position) == {
        "columns": [{"down": ["3S"], "up": ["9D", "KD"]}]
        + [{"down": [], "up": []}] * (COLUMNS - 1),
        "stock": ["2D"],
        "removed": ["C", "H"],
    }


def test_removed_suits_are_listed_in_c_d_h_s_order() -> None:
    position = Position.build([], collected=["S", "H", "C"])
    assert position_to_json(position)["removed"] == ["C", "H", "S"]


def test_a_dealt_game_in_json() -> None:
    data = position_to_json(deal_game(1))
    assert data["columns"][0] == {"down": ["JD", "5H", "KH"], "up": ["AS", "4H", "TH", "8D"]}
    assert data["columns"][6] == {"down": [], "up": ["7C", "QC", "JS", "QH", "4S", "8S", "6S"]}
    assert data["stock"] == ["9C", "2H", "6H"]
    assert data["removed"] == []
    assert set(data) == {"columns", "stock", "removed"}


@settings(max_examples=150, deadline=None)
@given(st.one_of(positions(), played_positions(max_actions=15), near_complete_positions()))
def test_positions_round_trip_through_json(position: Position) -> None:
    data = position_to_json(position)
    assert position_from_json(data) == position
    assert position_from_json(json.loads(json.dumps(data))) == position
    assert position_to_json(position_from_json(data)) == data


def test_every_field_of_the_protocol_position_is_required() -> None:
    """The protocol's schema requires columns, stock and removed, and down and up."""
    with pytest.raises(InvalidPosition, match="needs the field stock, removed"):
        position_from_json({"columns": [{"down": [], "up": []}] * COLUMNS})
    with pytest.raises(InvalidPosition, match="column 1 must be an object with down and up"):
        position_from_json({"columns": [{}] * COLUMNS, "stock": [], "removed": []})


def valid() -> dict[str, Any]:
    return copy.deepcopy(position_to_json(Position.build(["3S | 9D KH", "TC"], stock=["2D"])))


def with_change(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = valid()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


MALFORMED: list[tuple[str, Any, str]] = [
    ("a list", [], "a position is a JSON object"),
    ("text", "3S | 9D", "a position is a JSON object"),
    ("null", None, "a position is a JSON object"),
    ("unknown field", valid() | {"tableau": []}, "no field 'tableau'"),
    ("no columns", {"stock": [], "removed": []}, "needs the field columns"),
    ("columns not a list", with_change(("columns",), {"1": {}}), "columns must be a list"),
    ("six columns", with_change(("columns",), valid()["columns"][:6]), "list of 7 columns"),
    (
        "eight columns",
        with_change(("columns",), valid()["columns"] + [{"down": [], "up": []}]),
        "list of 7 columns",
    ),
    ("a column as a list", with_change(("columns", 1), ["TC"]), "column 2 must be an object"),
    ("a column as text", with_change(("columns", 1), "TC"), "column 2 must be an object"),
    (
        "a column with an unknown key",
        with_change(("columns", 0, "hidden"), []),
        "column 1 must be an object with down and up",
    ),
    ("down as text", with_change(("columns", 0, "down"), "3S"), "column 1 down must be a list"),
    ("up as null", with_change(("columns", 0, "up"), None), "column 1 up must be a list"),
    ("a card as a number", with_change(("columns", 0, "up", 0), 9), "column 1 up\\[0\\]: 9 is not"),
    ("a card as null", with_change(("columns", 1, "up", 0), None), "column 2 up\\[0\\]"),
    ("a card as a list", with_change(("columns", 0, "down", 0), ["3S"]), "column 1 down\\[0\\]"),
    (
        "a card of three characters",
        with_change(("columns", 1, "up", 0), "10C"),
        "'10C' is not a card",
    ),
    ("a card of one character", with_change(("columns", 1, "up", 0), "T"), "'T' is not a card"),
    ("an empty card", with_change(("columns", 1, "up", 0), ""), "'' is not a card"),
    ("a card that is no card", with_change(("columns", 1, "up", 0), "XX"), "'XX' is not a card"),
    ("a rank that is no rank", with_change(("columns", 1, "up", 0), "1C"), "'1C'"),
    (
        "face down under nothing",
        with_change(("columns", 0, "up"), []),
        "column 1: a column has face-down cards with no face-up card",
    ),
    ("a card twice", with_change(("columns", 1, "up"), ["TC", "9D"]), "9D appears more than once"),
    ("a stock card on the table", with_change(("stock",), ["TC"]), "TC appears more than once"),
    ("stock as text", with_change(("stock",), "2D"), "stock must be a list of cards"),
    ("four stock cards", with_change(("stock",), ["2D", "3D", "4D", "5D"]), "at most 3"),
    ("a bad stock card", with_change(("stock",), ["2X"]), "stock\\[0\\]"),
    ("removed as text", with_change(("removed",), "H"), "removed must be a list of suits"),
    ("a removed suit that is no suit", with_change(("removed",), ["X"]), "'X' is not a suit"),
    ("a lower-case removed suit", with_change(("removed",), ["h"]), "'h' is not a suit"),
    ("a removed suit symbol", with_change(("removed",), ["♥"]), "is not a suit"),
    ("a removed suit as a number", with_change(("removed",), [2]), "2 is not a suit"),
    ("a suit removed twice", with_change(("removed",), ["H", "H"]), "removed lists a suit twice"),
    (
        "a card of a removed suit",
        with_change(("removed",), ["S"]),
        "3S is still in play although its suit was collected",
    ),
]


@pytest.mark.parametrize(
    ("data", "message"), [(d, m) for _, d, m in MALFORMED], ids=[name for name, _, _ in MALFORMED]
)
def test_a_malformed_json_position_says_what_is_wrong(data: Any, message: str) -> None:
    with pytest.raises(InvalidPosition, match=message):
        position_from_json(data)


def test_the_malformed_examples_start_from_a_valid_position() -> None:
    assert position_from_json(valid()) == Position.build(["3S | 9D KH", "TC"], stock=["2D"])


# -- actions --------------------------------------------------------------------


def test_the_json_form_of_actions() -> None:
    assert action_to_json(Deal()) == {"type": "deal"}
    assert action_to_json(Move.parse("9D>5")) == {"type": "move", "card": "9D", "to": 5}


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_action_round_trips_through_json(card: object) -> None:
    for to in range(1, COLUMNS + 1):
        move = Move(card, to)  # type: ignore[arg-type]
        assert action_from_json(action_to_json(move)) == move
        assert action_from_json(json.loads(json.dumps(action_to_json(move)))) == move
    assert action_from_json(action_to_json(Deal())) == Deal()


MALFORMED_ACTIONS: list[tuple[str, Any]] = [
    ("text", "deal"),
    ("a list", ["move", "9D", 5]),
    ("null", None),
    ("no type", {"card": "9D", "to": 5}),
    ("unknown type", {"type": "draw"}),
    ("type in capitals", {"type": "DEAL"}),
    ("deal with a card", {"type": "deal", "card": "9D"}),
    ("move without a card", {"type": "move", "to": 5}),
    ("move without a column", {"type": "move", "card": "9D"}),
    ("move with an extra field", {"type": "move", "card": "9D", "to": 5, "from": 2}),
    ("card as a number", {"type": "move", "card": 9, "to": 5}),
    ("card of three characters", {"type": "move", "card": "10D", "to": 5}),
    ("card that is no card", {"type": "move", "card": "XX", "to": 5}),
    ("column 0", {"type": "move", "card": "9D", "to": 0}),
    ("column 8", {"type": "move", "card": "9D", "to": 8}),
    ("column as text", {"type": "move", "card": "9D", "to": "5"}),
    ("column as a float", {"type": "move", "card": "9D", "to": 5.0}),
    ("column as a boolean", {"type": "move", "card": "9D", "to": True}),
    ("column as null", {"type": "move", "card": "9D", "to": None}),
]


@pytest.mark.parametrize(
    "data", [d for _, d in MALFORMED_ACTIONS], ids=[name for name, _ in MALFORMED_ACTIONS]
)
def test_a_malformed_json_action_is_a_notation_error(data: Any) -> None:
    with pytest.raises(NotationError):
        action_from_json(data)


# -- drawings -------------------------------------------------------------------


def test_game_one_drawn() -> None:
    assert draw_position(deal_game(1)) == "\n".join(
        [
            "  1     2     3     4     5     6     7",
            " [J♦]  [2♦]  [9♥]  [J♣]   5♦    7♥    7♣",
            " [5♥]  [K♦]  [K♣]  [9♠]   5♠    A♦    Q♣",
            " [K♥]  [3♥]  [2♠]  [K♠]   9♦    Q♦    J♠",
            "  A♠    A♥    3♣    4♣    5♣   10♠    Q♥",
            "  4♥    A♣    4♦    7♠    3♠   10♦    4♠",
            " 10♥    8♥    2♣    J♥    7♦    6♦    8♠",
            "  8♦    Q♠    6♣    3♦    8♣   10♣    6♠",
            "stock: 9♣ 2♥ 6♥",
        ]
    )


def test_an_empty_table_drawn() -> None:
    drawing = draw_position(Position.build([]))
    assert drawing == "  1     2     3     4     5     6     7\nstock: dealt"


def test_the_ascii_drawing_is_ascii() -> None:
    position = Position.build(["3S | 9D"], stock=["2D"], collected=["H", "C"])
    drawing = draw_position(position, unicode=False)
    assert "[3S]" in drawing
    assert "stock: 2D" in drawing
    assert drawing.isascii(), drawing
