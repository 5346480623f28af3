#!/usr/bin/env python3
"""GNOME Aisleriot 3.22.23's Scorpion behind the conformance suite's protocol.

Aisleriot ships its games as compiled Guile modules; ``guile/driver.scm``
loads ``scorpion.go`` headlessly and calls the game's own lambdas. This file
is the glue: it speaks the protocol's JSON lines to the harness and a line of
S-expression to the driver, which answers in JSON. Every decision is the
game's; the glue only translates:

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
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20
HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("SCORPION_REAL_PROGRAMS") or HERE.parents[1] / ".real-programs")

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
CARD = re.compile(r"^[A2-9TJQK][CDHS]$")


class Refusal(Exception):
    """Answer the current request with an error."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.reason = code, message, reason


class DriverDied(Exception):
    """The Guile driver stopped answering."""


# --- positions and actions ---------------------------------------------------


def check_position(position: Any) -> dict[str, Any]:
    """The position as given, or Refusal("invalid-position") saying what is wrong."""

    def bad(why: str) -> Refusal:
        return Refusal("invalid-position", why)

    def cards(value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(c, str) and CARD.match(c) for c in value):
            raise bad(f"{where} is not a list of cards such as 9D")
        return value

    if not isinstance(position, dict) or set(position) != {"columns", "stock", "removed"}:
        raise bad("a position is an object with exactly columns, stock and removed")
    columns = position["columns"]
    if not isinstance(columns, list) or len(columns) != 7:
        raise bad("a position has exactly seven columns")
    seen: list[str] = []
    for number, column in enumerate(columns, 1):
        if not isinstance(column, dict) or set(column) != {"down", "up"}:
            raise bad(f"column {number} is not an object with exactly down and up")
        down, up = cards(column["down"], f"column {number} down"), cards(column["up"], f"column {number} up")
        if down and not up:
            raise bad(f"column {number} has face-down cards and no face-up card above them")
        seen += down + up
    stock = cards(position["stock"], "the stock")
    if len(stock) > 3:
        raise bad(f"the stock holds {len(stock)} cards; it holds at most three")
    seen += stock
    removed = position["removed"]
    if not isinstance(removed, list) or not all(isinstance(s, str) and s in SUITS and len(s) == 1
                                                 for s in removed):
        raise bad("removed is not a list of suits (C, D, H, S)")
    if len(set(removed)) != len(removed):
        raise bad("removed names a suit twice")
    twice = sorted({c for c in seen if seen.count(c) > 1})
    if twice:
        raise bad(f"{', '.join(twice)} appears twice")
    gone = sorted(c for c in seen if c[1] in removed)
    if gone:
        raise bad(f"{', '.join(gone)} is on the table, but its suit is removed")
    return position


def check_action(action: Any) -> dict[str, Any]:
    """A well-formed action, or Refusal("bad-request")."""
    if not isinstance(action, dict):
        raise Refusal("bad-request", "an action is an object")
    if action.get("type") == "deal" and set(action) == {"type"}:
        return action
    if action.get("type") == "move" and set(action) == {"type", "card", "to"}:
        card, to = action["card"], action["to"]
        if not isinstance(card, str) or not CARD.match(card):
            raise Refusal("bad-request", f"{card!r} is not a card such as 9D")
        if type(to) is not int or not 1 <= to <= 7:
            raise Refusal("bad-request", f"{to!r} is not a column from 1 to 7")
        return action
    raise Refusal("bad-request", "an action is {type: move, card, to} or {type: deal}")


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

    def play(self, action: dict[str, Any]) -> None:
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


# --- the protocol loop (as in adapters/python/template_adapter.py) ----------------------------


class Session:
    """The protocol state: greeted or not, a game or not."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.greeted = False
        self.game: Game | None = None

    def handle(self, request: Any) -> tuple[dict[str, Any], int | None]:
        """The answer to one request, and an exit status when the adapter must stop."""
        if not isinstance(request, dict):
            raise Refusal("bad-request", "a request is a JSON object with a cmd field")
        cmd = request.get("cmd")
        if not isinstance(cmd, str):
            raise Refusal("bad-request", "the request has no cmd string")
        if cmd == "hello":
            version = request.get("protocol")
            if not isinstance(version, int) or isinstance(version, bool):
                raise Refusal("bad-request", "hello needs an integer protocol field")
            if version != PROTOCOL_VERSION:
                return {"ok": False, "error": {"code": "unsupported",
                                               "message": f"only protocol {PROTOCOL_VERSION}"}}, 1
            self.greeted = True
            return {"ok": True, "protocol": PROTOCOL_VERSION, "implementation": IMPLEMENTATION,
                    "rulesets": RULESETS, "capabilities": CAPABILITIES}, None
        if cmd not in ("start", "legal", "play", "state", "undo", "quit"):
            raise Refusal("bad-request", f"there is no command {cmd!r}")
        if not self.greeted:
            raise Refusal("bad-request", "send hello first")
        if cmd == "quit":
            return {"ok": True}, 0
        if cmd == "start":
            for field in ("rules", "position"):
                if field not in request:
                    raise Refusal("bad-request", f"start needs a {field} field")
            if not isinstance(request["rules"], str):
                raise Refusal("bad-request", "rules is the name of a rule set")
            if request["rules"] not in RULESETS:
                raise Refusal("unsupported", f"no rule set named {request['rules']!r}")
            self.game = Game(self.driver, check_position(request["position"]))
            return {"ok": True, "state": self.game.state()}, None
        if self.game is None:
            raise Refusal("bad-request", "no game yet: send start first")
        if cmd == "legal":
            return {"ok": True, "actions": self.game.legal()}, None
        if cmd == "play":
            if "action" not in request:
                raise Refusal("bad-request", "play needs an action field")
            self.game.play(check_action(request["action"]))
        elif cmd == "undo":
            self.game.undo()
        return {"ok": True, "state": self.game.state()}, None


def answer(session: Session, line: bytes) -> tuple[dict[str, Any], int | None]:
    try:
        try:
            request = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            raise Refusal("bad-request", "the request is not a JSON line") from None
        return session.handle(request)
    except Refusal as refusal:
        error = {"code": refusal.code, "message": refusal.message[:300]}
        if refusal.reason:
            error["reason"] = refusal.reason
        return {"ok": False, "error": error}, None
    except DriverDied:
        raise
    except Exception as bug:  # never die on a bug of the glue: log it and answer
        print(f"aisleriot adapter bug: {bug!r}", file=sys.stderr)
        return {"ok": False, "error": {"code": "bad-request", "message": f"adapter bug: {bug}"}}, None


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    driver = Driver()
    session = Session(driver)
    try:
        while True:
            line = stdin.readline(MAX_LINE_BYTES + 1)
            if not line:
                return 0
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                while (rest := stdin.readline(65536)) and not rest.endswith(b"\n"):
                    pass
                response: dict[str, Any] = {
                    "ok": False, "error": {"code": "bad-request", "message": "the request line is too long"}}
                status = None
            elif not line.strip():
                continue
            else:
                response, status = answer(session, line)
            stdout.write(json.dumps(response).encode("utf-8") + b"\n")
            stdout.flush()
            if status is not None:
                return status
    except DriverDied as died:
        print(f"aisleriot adapter: {died}", file=sys.stderr)
        return 1
    finally:
        driver.close()


if __name__ == "__main__":
    sys.exit(main())
