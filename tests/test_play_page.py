"""The Play page in real Chromium, on the site built once per session and served by
Python's static file server with nothing else running.

Every wait is for an event of the page (a selector, or a function of the page's
own ``scorpionPlay.snapshot()``), never for a number of seconds. Each test
opens the page in a fresh browser context, so no test sees another's saved game.
Screenshots for the notes go to ``reports/play-*.png``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorpion_conformance.solving.lines import read_line
from scorpion_conformance.solving.results import read_records
from scorpion_ref import deal_game, get_ruleset
from scorpion_ref.serial import action_to_json, position_from_json, position_to_json
from scorpion_ref.solver import Budget, solve

ROOT = Path(__file__).resolve().parents[1]
#: Where the screenshots go (reports/ is not committed).
SHOTS = ROOT / "reports"
#: A game of games 1 to 1,000 with a short committed winning line under standard (48 actions).
SHORT_GAME = 619
#: A game "New deal" never draws: past the page's random numbers (1 to 1,000,000) and every
#: committed campaign, so a new deal is always another game.
UNDRAWN_GAME = 1_000_001
WAIT = 60_000  # ms: the most any single event may take on a loaded machine


def committed_line(rules: str, game: int) -> list[dict[str, Any]]:
    """The winning line the campaign committed for ``game``, as protocol actions."""
    return [dict(action) for action in _committed_line(rules, game)]


@functools.cache
def _committed_line(rules: str, game: int) -> tuple[dict[str, Any], ...]:
    # Read once a run: the results file holds some ten thousand games.
    name = ROOT / "data" / "winnability" / f"{rules}.jsonl"
    path = name if name.exists() else name.with_suffix(".jsonl.gz")
    (record,) = [r for r in read_records(path) if r.game == game and r.outcome == "won"]
    assert record.line
    return tuple(dict(action_to_json(a)) for a in read_line(record.line))


class Play:
    """The Play page in a fresh browser context (its own localStorage), with its errors."""

    def __init__(self, browser: Any, served: str, width: int = 1280) -> None:
        self.served = served
        SHOTS.mkdir(exist_ok=True)
        viewport = {"width": width, "height": 1000 if width > 400 else 844}
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

    def open(self, query: str) -> Any:
        self.page.goto(f"{self.served}/play/?{query}", wait_until="load")
        self.page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        return self.page

    def snapshot(self) -> dict[str, Any]:
        return self.page.evaluate("scorpionPlay.snapshot()")  # type: ignore[no-any-return]

    def wait(self, condition: str) -> None:
        """Wait until ``condition`` (JavaScript over ``s``, the snapshot) holds; when it never does,
        fail with the page's address and a screenshot of what it showed instead."""
        from playwright.sync_api import Error

        try:
            self.page.wait_for_function(f"() => {{ const s = scorpionPlay.snapshot(); return {condition}; }}",
                                        timeout=WAIT)
            return
        except Error as error:
            reason = error.message.splitlines()[0]
        named = re.sub(r"\W+", "-", condition).strip("-")[:60]
        shot: Path | None = SHOTS / f"play-never-{named}.png"
        try:  # bounded: a page that drew nothing for a minute may draw no screenshot either
            self.page.screenshot(path=str(shot), timeout=10_000)
        except Error:
            shot = None
        pytest.fail(f"the page never reached {condition!r} ({reason}); it was at {self.page.url}, "
                    f"screenshot: {shot or 'none'}; {self.problems or 'no page error'}", pytrace=False)

    def played(self) -> int:
        return len(self.snapshot()["actions"])

    def click_card(self, card: str) -> None:
        # Near the top-left corner: a buried card shows only its top strip.
        self.page.click(f'.sc-play-card[data-card="{card}"]', position={"x": 6, "y": 5})

    def click(self, action: dict[str, Any]) -> None:
        """Play one action by clicks, and wait until the page has played it."""
        before = self.played()
        if action["type"] == "deal":
            self.page.click("#sc-play-stock")
            if self.snapshot()["armed"]:
                self.page.click("#sc-play-stock")
        else:
            self.click_card(action["card"])
            self.page.click(f'.sc-play-head[data-col="{action["to"]}"]')
        self.wait(f"s.actions.length === {before + 1}")

    def close(self) -> None:
        self.context.close()


@contextlib.contextmanager
def playing(browser: Any, served: str, width: int = 1280) -> Iterator[Play]:
    """The page in a fresh context; closed afterwards, with no console error or page error."""
    opened = Play(browser, served, width)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.problems, "\n".join(opened.problems)


@pytest.fixture
def play(browser: Any, served: str) -> Iterator[Play]:
    with playing(browser, served) as opened:
        yield opened


def _result(page: Any) -> dict[str, str]:
    page.wait_for_selector("#sc-play-result:not([hidden])", timeout=WAIT)
    figures = ("moves", "time", "undos", "hints")
    return {k: page.inner_text(f'#sc-play-result [data-figure="{k}"]') for k in figures}


@pytest.mark.parametrize("width", [1280, 390])
def test_a_committed_winning_line_played_by_clicks_wins(browser: Any, served: str, width: int) -> None:
    with playing(browser, served, width) as play:
        page = play.open(f"rules=standard&game={SHORT_GAME}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        columns = page.eval_on_selector_all(
            ".sc-play-col", "cs => cs.filter(c => c.getBoundingClientRect().right <= innerWidth).length")
        assert columns == 7
        line = committed_line("standard", SHORT_GAME)
        for k, action in enumerate(line):
            play.click(action)
            if k == 20 and width == 390:
                page.screenshot(path=str(SHOTS / "play-mid-game-390.png"))
            if k == 20 and width == 1280:
                page.screenshot(path=str(SHOTS / "play-mid-game-1280.png"))
        figures = _result(page)
        assert figures["moves"] == str(len(line)) and figures["undos"] == "0" and figures["hints"] == "0"
        assert "Won!" in page.inner_text("#sc-play-result")
        assert "first win of game 619 under standard" in page.inner_text("#sc-play-result")
        assert play.snapshot()["status"] == "won"
        page.locator("#sc-play-result").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"play-results-{width}.png"))
        best = json.loads(page.evaluate("localStorage.getItem('scorpion-play:best')"))
        assert best[f"standard · game {SHORT_GAME}"]["moves"] == len(line)


def test_a_refused_move_says_why_in_the_engines_words(play: Play) -> None:
    # The worked example of 002_a31f42e1a68709e8.txt: 8♥ carries three cards; 9♥ and 9♦ are exposed.
    page = play.open("rules=standard&position=2C3D4S.8H3CJS5D,.KS,.KD,.KC,.9H,.9D,.KH;;")
    play.click_card("8H")
    play.wait("s.selected && s.selected.col === 0")
    assert page.locator(".sc-play-col.sc-target").count() == 1
    assert page.get_attribute(".sc-play-col.sc-target", "data-col") == "5"
    page.click('.sc-play-head[data-col="6"]')
    message = page.locator('#sc-play-message[data-kind="refused"]')
    message.wait_for(timeout=WAIT)
    assert message.inner_text() == "8♥ goes only on 9♥, not on 9♦."
    assert play.played() == 0
    play.click({"type": "move", "card": "8H", "to": 5})
    assert play.snapshot()["position"]["columns"][0] == {"down": ["2C", "3D"], "up": ["4S"]}


def test_the_stock_is_armed_by_a_first_tap_and_dealt_by_a_second(play: Play) -> None:
    page = play.open(f"rules=standard&game={SHORT_GAME}")
    page.click("#sc-play-stock")
    play.wait("s.armed")
    assert page.locator("#sc-play-stock.sc-armed").count() == 1
    assert page.locator(".sc-play-col.sc-glow").count() == 3
    assert len(play.snapshot()["position"]["stock"]) == 3 and play.played() == 0
    page.keyboard.press("Escape")
    play.wait("!s.armed")
    page.click("#sc-play-stock")
    play.wait("s.armed")
    page.click("#sc-play-stock")
    play.wait("s.actions.length === 1")
    assert play.snapshot()["position"]["stock"] == []


def test_classics_stock_stays_locked_while_a_move_is_left(play: Play) -> None:
    page = play.open("rules=classic&game=172")
    assert page.locator("#sc-play-stock.sc-locked").count() == 1
    assert "locked until no other move is left" in page.inner_text("#sc-play-stock")
    page.click("#sc-play-stock")
    message = page.locator('#sc-play-message[data-kind="refused"]')
    message.wait_for(timeout=WAIT)
    assert message.inner_text().startswith("The stock is dealt only when no other move is left")
    assert play.played() == 0
    # With no other move left, one tap deals.
    play.open("rules=classic&position=.KS,.,.,.,.,.,.;2C3C4C;")
    assert page.locator("#sc-play-stock.sc-locked").count() == 0
    page.click("#sc-play-stock")
    play.wait("s.actions.length === 1 && s.position.stock.length === 0")


def test_a_hint_followed_keeps_the_game_winnable(play: Play) -> None:
    page = play.open(f"rules=standard&game={SHORT_GAME}")
    page.click("#sc-play-hint")
    play.wait("s.hint !== null")
    hint = play.snapshot()["hint"]
    assert page.locator("#sc-play-message[data-kind='hint']").inner_text().startswith("Hint:")
    play.click(hint)
    play.wait("s.watch === 'won'")
    snapshot = play.snapshot()
    assert snapshot["hints"] == 1 and snapshot["actions"] == [hint]


def test_a_losing_move_is_answered_by_the_dead_end_offer(browser: Any, served: str) -> None:
    for width in (1280, 390):
        with playing(browser, served, width) as play:
            page = play.open(f"rules=standard&game={SHORT_GAME}")
            play.click({"type": "deal"})  # dealing at once loses this game
            page.wait_for_selector("#sc-play-offer:not([hidden])", timeout=WAIT)
            assert "can no longer be won" in page.inner_text("#sc-play-offer")
            assert play.snapshot()["watch"] == "lost"
            page.locator("#sc-play-offer").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"play-dead-end-{width}.png"))
            page.click("#sc-play-back")
            play.wait("s.actions.length === 0 && s.undos === 1")
            assert "still wins" in page.inner_text("#sc-play-message")
            position = position_from_json(play.snapshot()["position"])
            assert solve(position, get_ruleset("standard"), Budget(nodes=200_000)).outcome == "won"


def test_a_shared_address_reopens_the_same_deal(browser: Any, served: str, play: Play) -> None:
    page = play.open(f"rules=classic&game={UNDRAWN_GAME}")
    assert play.snapshot()["position"] == position_to_json(deal_game(UNDRAWN_GAME))
    page.click("#sc-play-new")
    play.wait(f"s.deal.game !== {UNDRAWN_GAME}")
    shared = page.url
    dealt = play.snapshot()
    assert f"game={dealt['deal']['game']}" in shared and "rules=classic" in shared
    with playing(browser, served, 390) as other:
        other.page.goto(shared, wait_until="load")
        other.page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        again = other.snapshot()
        assert again["position"] == dealt["position"] and again["rules"] == "classic"
        assert again["position"] == position_to_json(deal_game(dealt["deal"]["game"]))


def test_new_deals_are_winnable_by_default(play: Play) -> None:
    page = play.open("rules=standard&game=1")
    table = json.loads(page.evaluate("fetch('../assets/play/winnable.json').then(r => r.text())"))
    for _ in range(3):
        page.click("#sc-play-new")
        play.wait("s.deal.game !== 1")
        game = play.snapshot()["deal"]["game"]
        assert game in table["standard"]["won"]
        assert "proved winnable by the solver" in page.inner_text("#sc-play-info")


def test_the_keyboard_alone_plays_a_whole_game(play: Play) -> None:
    page = play.open(f"rules=standard&game={SHORT_GAME}")
    keys = page.keyboard
    keys.press("3")  # a digit goes to that column's top card; Enter lifts it; Escape puts it back
    keys.press("Enter")
    play.wait("s.selected !== null")
    keys.press("Escape")
    play.wait("s.selected === null")
    for action in committed_line("standard", SHORT_GAME):
        before = play.played()
        if action["type"] == "deal":
            keys.press("s")
            keys.press("Enter")
            if play.snapshot()["armed"]:
                keys.press("Enter")
        else:
            columns = play.snapshot()["position"]["columns"]
            col = next(i for i, c in enumerate(columns) if action["card"] in c["up"])
            depth = len(columns[col]["up"]) - 1 - columns[col]["up"].index(action["card"])
            keys.press(str(col + 1))
            for _ in range(depth):
                keys.press("ArrowUp")
            keys.press("Enter")
            play.wait(f"s.selected && s.selected.col === {col}")
            keys.press(str(action["to"]))
        play.wait(f"s.actions.length === {before + 1}")
    assert _result(page)["moves"] == str(len(committed_line("standard", SHORT_GAME)))


def test_progress_is_saved_and_one_button_removes_it(browser: Any, served: str) -> None:
    with playing(browser, served) as play:
        page = play.open(f"rules=standard&game={SHORT_GAME}")
        line = committed_line("standard", SHORT_GAME)
        for action in line[:3]:
            play.click(action)
        page.reload(wait_until="load")
        page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        assert play.snapshot()["actions"] == line[:3]
        assert "back where you left it" in page.inner_text("#sc-play-message")
        page.goto(f"{play.served}/play/", wait_until="load")  # no deal in the address: the saved game
        page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        assert play.snapshot()["actions"] == line[:3]
        page.click("#sc-play-data summary")
        assert "standard" in page.inner_text("#sc-play-stats")
        page.click("#sc-play-forget")
        kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorpion-play:'))")
        assert kept == []
        assert "No game started yet" in page.inner_text("#sc-play-stats")


def test_every_scenario_diagram_links_to_its_position(browser: Any, served: str) -> None:
    with playing(browser, served, 390) as play:
        page = play.page
        page.goto(f"{served}/rules/stock/", wait_until="load")
        links = page.locator("a.sc-play-link")
        assert links.count() == page.locator(".sc-example").count() > 0
        page.goto(f"{served}/", wait_until="load")
        assert page.locator("a[href$='play/']").count() >= 1
        page.goto(f"{served}/rules/stock/", wait_until="load")
        links.first.click()
        page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        assert play.snapshot()["deal"].get("position")


def test_a_drag_moves_and_the_arrows_lift_one_card_more_or_fewer(play: Play) -> None:
    page = play.open("rules=standard&position=2C3D4S.8H3CJS5D,.KS,.KD,.KC,.9H,.9D,.KH;;")
    play.click_card("8H")
    play.wait("s.selected && s.selected.index === 0")
    assert page.is_disabled("#sc-play-more")  # nothing under 8♥ is face up
    page.click("#sc-play-fewer")
    play.wait("s.selected && s.selected.index === 1")
    assert page.locator(".sc-play-card.sc-lifted").count() == 3  # 3♣ with J♠ and 5♦ on it
    page.click("#sc-play-more")
    play.wait("s.selected && s.selected.index === 0")
    page.keyboard.press("Escape")
    play.wait("s.selected === null")
    card = page.locator('.sc-play-card[data-card="8H"]').bounding_box()
    target = page.locator('.sc-play-col[data-col="5"]').bounding_box()
    page.mouse.move(card["x"] + 6, card["y"] + 5)
    page.mouse.down()
    page.mouse.move(card["x"] + 40, card["y"] + 60, steps=5)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 40, steps=5)
    page.mouse.up()
    play.wait("s.actions.length === 1")
    assert play.snapshot()["position"]["columns"][4]["up"] == ["9H", "8H", "3C", "JS", "5D"]


def test_undo_undo_all_and_restart(play: Play) -> None:
    page = play.open(f"rules=standard&game={SHORT_GAME}")
    line = committed_line("standard", SHORT_GAME)
    for action in line[:3]:
        play.click(action)
    page.click("#sc-play-undo")
    play.wait("s.actions.length === 2 && s.undos === 1")
    page.click("#sc-play-undo-all")
    play.wait("s.actions.length === 0 && s.undos === 3")
    assert play.snapshot()["position"] == position_to_json(deal_game(SHORT_GAME))
    play.click(line[0])
    page.click("#sc-play-restart")
    play.wait("s.actions.length === 0 && s.undos === 0")
    stats = json.loads(page.evaluate("localStorage.getItem('scorpion-play:stats')"))
    assert stats["standard"] == {"starts": 2, "wins": 0}


def test_the_dark_palette(browser: Any, served: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(f"{served}/play/?rules=classic&game=172", wait_until="load")
        page.wait_for_selector("#sc-play[data-ready]", timeout=WAIT)
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        felt = page.eval_on_selector("#sc-play", "e => getComputedStyle(e).getPropertyValue('--sc-felt')")
        assert felt.strip() == "#163f2c"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "play-dark-390.png"))
    finally:
        context.close()
