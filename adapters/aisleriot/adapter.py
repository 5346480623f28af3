#!/usr/bin/env python3
"""GNOME Aisleriot 3.22.23's Scorpion behind the conformance suite's protocol.

Aisleriot ships its games as compiled Guile modules; ``guile/driver.scm``
loads ``scorpion.go`` headlessly and calls the game's own lambdas. This file
is the glue: the front end every Python adapter of the repository shares
(``scorpion_shared/frontend.py``: the request loop, the handshake, the
refusals of malformed requests) speaks the protocol's JSON lines to the
harness, and the glue a line of S-expression to the driver, which answers in
JSON. Every decision is the game's; the glue only translates:

- **position in**: the game's ``new-game`` builds its slots (0 the stock,
  1-7 the columns), then the position replaces the cards it dealt: face-down
  cards hidden, face-up cards visible, the stock face down with ``stock[0]``
  on top, since the game's ``button-clicked`` deals the top card to slot 1.
- **legal actions**: for every card of every slot, the game's
  ``button-pressed`` (may these cards be picked up?), then for every column
  the game's ``droppable?`` with the cards lifted off, as during a drag; the
  deal is listed when a click on the stock (``button-clicked``), tried and
  taken back, deals.
- **play**: a move is the board's drag (``button-pressed``, ``record-move``,
  ``droppable?``, ``button-released``, ``end-move``); the deal is a click on
  the stock; undo is the game's own ``undo`` (api.scm's history).
- **status**: as ``aisleriot_game_test_end_of_game`` in src/game.c decides it:
  ``playing`` while the game's ``game-continuable`` (its hint) finds a move or
  a deal; then ``won`` if ``game-won`` holds, and ``lost`` otherwise (the
  program calls that state "game over").
- **reason codes**, which the program does not give (it answers only yes or
  no): the glue names the rule from where the refusal came and the cards
  involved. ``button-pressed`` refused: ``card-in-stock`` (slot 0) or
  ``card-face-down``; a card in no slot: ``card-not-in-play`` (nothing to
  ask); ``droppable?`` refused: ``destination-is-source``, then
  ``empty-column-needs-king`` (an empty column), ``not-same-suit`` or
  ``not-one-rank-lower``; a click on an empty stock: ``stock-empty``. A deal
  that raises a Scheme error (the stock holds fewer than three cards) is
  refused without a reason, the error quoted in the message.
- **position checks**: the program accepts any slots, so the glue refuses the
  positions the protocol calls invalid.

The suits in ``removed`` are kept beside the game and echoed: runs stay in
Aisleriot and it has nowhere to put them.

Run it as ``python3 adapters/aisleriot/adapter.py`` after
``adapters/install-real.sh``; it finds the program in ``$SCORPION_REAL_PROGRAMS``
(default: ``.real-programs/`` in the repository).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("SCORPION_REAL_PROGRAMS") or HERE.parents[1] / ".real-programs")
# The front end every Python adapter shares, from the checkout this script lies in.
sys.path.insert(0, str(HERE.parents[1]))

from scorpion_shared.checks import check_action, check_position  # noqa: E402 (after the path)
from scorpion_shared.frontend import Refusal, Session, Stop, run  # noqa: E402 (after the path)

IMPLEMENTATION = {
    "name": "aisleriot",
    "version": "3.22.23",
    "language": "scheme",
    "homepage": "https://gitlab.gnome.org/GNOME/aisleriot",
}
RULESETS: list[Any] = ["aisleriot"]
CAPABILITIES = ["undo"]

RANKS = "A23456789TJQK"
# Aisleriot's suit numbers (api.scm): club 0, diamond 1, heart 2, spade 3
SUITS = "CDHS"


class DriverDied(Stop):
    """The Guile driver stopped answering: the adapter ends (exit status 1)."""


# --- cards ------------------------------------------------------------------------


def to_scheme(card: str) -> str:
    """A protocol card as the driver's (RANK SUIT).

    >>> to_scheme("TD")
    '(10 1)'
    """
    return f"({RANKS.index(card[0]) + 1} {SUITS.index(card[1])})"


def from_scheme(card: list[Any]) -> str:
    """A card of the driver's answer, [rank, suit, visible], in protocol notation.

    >>> from_scheme([13, 3, True])
    'KS'
    """
    return RANKS[card[0] - 1] + SUITS[card[1]]


# --- the driver -----------------------------------------------------------------


def go_directory() -> Path:
    """Where the Debian package put scorpion.go, under the cache folder."""
    found = sorted((CACHE / "aisleriot" / "root").glob("usr/lib/*/aisleriot/guile/3.0/scorpion.go"))
    if not found:
        raise SystemExit(f"aisleriot adapter: no scorpion.go under {CACHE}; run adapters/install-real.sh")
    return found[0].parent


class Driver:
    """The Guile process that runs the game, one request line, one answer line."""

    def __init__(self) -> None:
        guile = shutil.which("guile-3.0") or shutil.which("guile")
        if guile is None:
            raise SystemExit("aisleriot adapter: guile-3.0 is not installed; run adapters/install-real.sh")
        self.process = subprocess.Popen(
            [guile, "--no-auto-compile", "-L", str(HERE / "guile"), str(HERE / "guile" / "driver.scm"),
             str(go_directory())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr, text=True, encoding="utf-8",
        )

    def ask(self, request: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(request + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise DriverDied(f"the Guile driver exited (status {self.process.poll()})") from None
        line = self.process.stdout.readline()
        if not line:
            raise DriverDied(f"the Guile driver exited (status {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise DriverDied(f"the Guile driver failed on {request}: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# --- the game -----------------------------------------------------------------------


class Game:
    """One game in the driver: the slots as it last reported them, and the removed suits."""

    def __init__(self, driver: Driver, position: dict[str, Any]) -> None:
        self.driver = driver
        self.removed = list(position["removed"])
        columns = " ".join(
            "((" + " ".join(map(to_scheme, c["down"])) + ") (" + " ".join(map(to_scheme, c["up"])) + "))"
            for c in position["columns"]
        )
        stock = " ".join(map(to_scheme, position["stock"]))
        self._take(driver.ask(f"(start ({columns}) ({stock}))"))

    def _take(self, answer: dict[str, Any]) -> None:
        self.slots: list[list[list[Any]]] = answer["slots"]
        self.status: str = answer["status"]

    def state(self) -> dict[str, Any]:
        """The slots as a protocol state: slot lists run top first, columns bottom first."""
        columns = []
        for number in range(1, 8):
            bottom_up = list(reversed(self.slots[number]))
            down = [from_scheme(c) for c in bottom_up if not c[2]]
            up = [from_scheme(c) for c in bottom_up if c[2]]
            if [c[2] for c in bottom_up] != [False] * len(down) + [True] * len(up):
                raise DriverDied(f"slot {number} holds a face-down card above a face-up one")
            columns.append({"down": down, "up": up})
        stock = [from_scheme(c) for c in self.slots[0]]
        return {"columns": columns, "stock": stock, "removed": self.removed, "status": self.status}

    def legal(self) -> list[dict[str, Any]]:
        answer = self.driver.ask("(legal)")
        actions: list[dict[str, Any]] = [
            {"type": "move", "card": from_scheme(self.slots[slot][count - 1]), "to": dest}
            for slot, count, dest in answer["moves"]
        ]
        if answer["deal"]:
            actions.append({"type": "deal"})
        return actions

    def find(self, card: str) -> tuple[int, int] | None:
        """The slot of a card and how many cards lie from it to the top, or None."""
        for slot, cards in enumerate(self.slots):
            for depth, held in enumerate(cards, 1):
                if from_scheme(held) == card:
                    return slot, depth
        return None

    def play(self, request: Any) -> None:
        action = check_action(request)
        if action["type"] == "deal":
            answer = self.driver.ask("(deal)")
            if not answer["ok"]:
                if not self.slots[0]:
                    raise Refusal("illegal-action", "the stock is empty", "stock-empty")
                if answer["refused"] == "exception":
                    raise Refusal("illegal-action", "Aisleriot raises a Scheme error on this deal "
                                  f"and stops the game: {answer['exception']}")
                raise Refusal("illegal-action", "Aisleriot does not deal here")
            self._take(answer)
            return
        card, to = action["card"], action["to"]
        where = self.find(card)
        if where is None:
            raise Refusal("illegal-action", f"{card} is not on the table", "card-not-in-play")
        slot, depth = where
        answer = self.driver.ask(f"(move {slot} {depth} {to})")
        if answer["ok"]:
            self._take(answer)
            return
        if answer["refused"] == "button-pressed":
            if slot == 0:
                raise Refusal("illegal-action", f"{card} is in the stock", "card-in-stock")
            raise Refusal("illegal-action", f"{card} lies face down", "card-face-down")
        raise Refusal("illegal-action", *self._drop_refusal(card, slot, to))

    def _drop_refusal(self, card: str, slot: int, to: int) -> tuple[str, str]:
        """Which rule droppable? applied in refusing card onto column to (the program says only no)."""
        if slot == to:
            return f"{card} is already in column {to}", "destination-is-source"
        if not self.slots[to]:
            return f"an empty column takes only a King, and {card} is not one", "empty-column-needs-king"
        top = from_scheme(self.slots[to][0])
        if top[1] != card[1]:
            return f"{card} goes only on a card of its suit, not on {top}", "not-same-suit"
        return f"{card} goes only on the card one rank higher, not on {top}", "not-one-rank-lower"

    def undo(self) -> None:
        answer = self.driver.ask("(undo)")
        if not answer["ok"]:
            raise Refusal("nothing-to-undo", "nothing has been played since the start")
        self._take(answer)


# --- the program behind the shared front end ---------------------------------------------


class Aisleriot:
    """The program as the front end sees it: what it declares, and a game from a position."""

    implementation = IMPLEMENTATION
    rulesets = RULESETS
    capabilities = CAPABILITIES

    def __init__(self) -> None:
        self.driver = Driver()

    def start(self, rules: str, position: Any) -> Game:
        return Game(self.driver, check_position(position))


def main() -> int:
    program = Aisleriot()
    try:
        return run(Session(program))
    finally:
        program.driver.close()


if __name__ == "__main__":
    sys.exit(main())
