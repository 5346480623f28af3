"""Games: play, unlimited undo (flips, collections and the stock come back exactly),
restart of the same deal, history."""

from __future__ import annotations

import pytest

from scorpion_ref import (
    Card,
    Deal,
    Game,
    IllegalAction,
    NothingToUndo,
    Position,
    Status,
    Suit,
    deal_game,
    get_ruleset,
    parse_action,
)

STANDARD = get_ruleset("standard")


def test_a_new_game_starts_at_its_start() -> None:
    start = deal_game(3)
    game = Game(start, STANDARD)
    assert game.position == start
    assert game.start == start
    assert game.history == ()
    assert game.rules == STANDARD
    assert game.status is Status.PLAYING
    assert game.legal_actions()[-1] == Deal()


def test_undo_at_the_start_is_refused() -> None:
    game = Game(deal_game(3), STANDARD)
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        game.undo()
    assert game.position == game.start


def test_undo_turns_a_flipped_card_back_002_004() -> None:
    # 002: "undo turns it back"; 004: "Undo restores the earlier hidden-card arrangement."
    start = Position.build(["TD", "AS 3S | 9D KH"])
    game = Game(start, STANDARD)
    outcome = game.play(parse_action("9D>1"))
    assert outcome.flipped == (Card.parse("3S"),)
    assert game.position.columns[1].up == (Card.parse("3S"),)
    assert game.undo() == start
    assert game.position.columns[1].down == (Card.parse("AS"), Card.parse("3S"))


def test_undo_puts_a_collected_run_back_000() -> None:
    # 000: "Undo reverses a whole move, including flips and run clearing."
    start = Position.build(["7D | KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH 5C", "6C"])
    game = Game(start, STANDARD)
    game.play(parse_action("AH>1"))  # the 5♣ rides along: no collection yet
    after = game.play(parse_action("5C>3"))
    assert after.collected == (Suit.HEARTS,)
    assert after.flipped == (Card.parse("7D"),)
    assert game.position.collected == {Suit.HEARTS}
    game.undo()
    assert game.position.collected == frozenset()
    assert game.position.columns[0].down == (Card.parse("7D"),)
    assert len(game.position.columns[0].up) == 14
    game.undo()
    assert game.position == start


def test_undo_puts_the_stock_back() -> None:
    start = Position.build(["TD", "9S"], stock=["2C", "5D", "9H"])
    game = Game(start, STANDARD)
    game.play(Deal())
    assert game.position.stock == ()
    assert game.undo() == start
    assert game.position.stock == start.stock
    assert Deal() in game.legal_actions()


def test_undo_after_a_deal_that_collected_restores_everything() -> None:
    start = Position.build(
        ["7S | KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "9D"], stock=["AC", "8D", "5H"]
    )
    game = Game(start, STANDARD)
    outcome = game.play(Deal())
    assert outcome.collected == (Suit.CLUBS,)
    assert game.undo() == start


def test_an_illegal_action_leaves_the_game_as_it_was() -> None:
    start = Position.build(["TD", "9H"])
    game = Game(start, STANDARD)
    with pytest.raises(IllegalAction) as caught:
        game.play(parse_action("9H>1"))
    assert caught.value.reason == "not-same-suit"
    assert game.position == start
    assert game.history == ()


def test_history_lists_the_actions_oldest_first_and_undo_shortens_it() -> None:
    game = Game(deal_game(1), STANDARD)
    actions = [parse_action(t) for t in ("5S>7", "5C>3", "deal")]
    for action in actions:
        game.play(action)
    assert game.history == tuple(actions)
    game.undo()
    assert game.history == tuple(actions[:2])
    assert isinstance(game.history, tuple)


def test_undo_all_the_way_back_returns_each_earlier_position() -> None:
    game = Game(deal_game(1), STANDARD)
    seen = [game.position]
    for text in ("5S>7", "5C>3", "7D>1", "deal"):
        game.play(parse_action(text))
        seen.append(game.position)
    for expected in reversed(seen[:-1]):
        assert game.undo() == expected
    with pytest.raises(NothingToUndo):
        game.undo()


def test_restart_replays_the_same_deal_with_an_empty_history_001() -> None:
    # 001: "Restart re-deals the same 52-card order in the same mode."
    start = deal_game(1)
    game = Game(start, get_ruleset("classic"))
    game.play(parse_action("5S>7"))
    game.play(parse_action("7D>1"))
    assert game.restart() == start
    assert game.position == start
    assert game.history == ()
    assert game.rules == get_ruleset("classic")
    with pytest.raises(NothingToUndo):
        game.undo()
    game.play(parse_action("5S>7"))
    assert game.history == (parse_action("5S>7"),)


def test_the_status_follows_the_position() -> None:
    game = Game(
        Position.build(["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH"], collected="CDS"), STANDARD
    )
    assert game.status is Status.PLAYING
    game.play(parse_action("AH>1"))
    assert game.status is Status.WON
    game.undo()
    assert game.status is Status.PLAYING
