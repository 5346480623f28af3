#!/usr/bin/env python3
"""soliterm 1.2.0's Scorpion behind the conformance suite's protocol.

soliterm (PyPI, pure Python) plays Scorpion in ``soliterm/engine/games/scorpion.py``
on the engine ``soliterm/engine/core.py``; this adapter imports that engine,
without its terminal front-ends, and only translates:

- **position in**: ``new_solitaire("scorpion")`` builds the slots (0 the
  stock, 1-7 the columns) and deals; the position then replaces the cards it
  dealt, piles bottom first as soliterm keeps them, face-down cards face down.
  The stock is stored so that its last card, the one ``Scorpion.on_click``
  pops first onto column 1, is ``stock[0]``. The score is recounted with the
  game's ``_score``, as its ``deal`` does.
- **legal actions**: the engine's own ``Solitaire.legal_moves()`` (every
  pickup ``can_pickup`` allows against every slot ``can_drop`` accepts); the
  deal is listed when a click on the stock, tried on the engine's own
  ``clone()``, deals.
- **play**: ``attempt_move(src, dst, n)`` for a move (``n`` counts the card
  and those above it), ``deal()`` for the deal, ``undo()`` (the engine's own
  history of serialized positions) for undo.
- **status**: ``won`` when ``is_won()``, ``lost`` when ``is_stuck()`` (no
  move, or only whole-column slides into empty columns, with the stock
  dealt), as soliterm's terminal front-ends end a game; else ``playing``.
- **reason codes**: from the sentence soliterm's ``why_not`` gives the
  player (see ``REASONS``): "cards in the stock can only be dealt" is
  ``card-in-stock``, "a face-down card can't be moved" ``card-face-down``,
  "the cards are there already" ``destination-is-source``, "an empty column
  takes only a King" ``empty-column-needs-king``; its "X doesn't go on Y"
  covers both suit and rank, so the adapter says ``not-same-suit`` when the
  suits differ and ``not-one-rank-lower`` when they agree. A card that is in
  no slot is ``card-not-in-play`` (there is nothing to ask the engine about);
  a refused deal is ``stock-empty`` when ``deal_blocked_reason`` says so.
- **position checks**: soliterm trusts its own deals, so the adapter refuses
  the positions the protocol calls invalid.

The suits in ``removed`` are kept beside the game and echoed: runs stay in
soliterm's Scorpion and it has nowhere to put them.

Run it as ``python3 adapters/soliterm/adapter.py`` after
``adapters/install-real.sh``: it runs itself again with the Python of the venv
that the script made in ``$SCORPION_REAL_PROGRAMS`` (default:
``.real-programs/`` in the repository), where soliterm is installed.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("SCORPION_REAL_PROGRAMS") or HERE.parents[1] / ".real-programs")
VENV = CACHE / "soliterm" / "venv"

try:
    from soliterm.engine.cards import Card
    from soliterm.engine.core import Solitaire
    from soliterm.engine.games import new_solitaire
except ImportError:
    python = VENV / "bin" / "python"
    if not python.exists() or Path(sys.prefix).resolve() == VENV.resolve():
        sys.exit(f"soliterm adapter: soliterm is not installed in {VENV}; run adapters/install-real.sh")
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20
SOLITERM_VERSION = "1.2.0"

IMPLEMENTATION = {
    "name": "soliterm",
    "version": SOLITERM_VERSION,
    "language": "python",
    "homepage": "https://pypi.org/project/soliterm/",
}
RULESETS: list[Any] = ["aisleriot"]
CAPABILITIES = ["undo"]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARD = re.compile(r"^[A2-9TJQK][CDHS]$")
# soliterm's refusal sentences (engine/gamedef.py, games/scorpion.py, engine/core.py) -> reason
# codes; COLUMN: the sentence covers suit and rank alike (GameDef.column_refusal)
COLUMN = "column"
REASONS = {
    "cards in the stock can only be dealt": "card-in-stock",
    "a face-down card can't be moved": "card-face-down",
    "the cards are there already": "destination-is-source",
    "an empty column takes only a King": "empty-column-needs-king",
    "doesn't go on": COLUMN,
    "nothing builds on": COLUMN,
    "the stock is empty": "stock-empty",
}


class Refusal(Exception):
    """Answer the current request with an error."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.reason = code, message, reason


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


def to_soliterm(card: str, face_up: bool) -> Card:
    """A protocol card as soliterm's Card (rank 1-13, suit letter)."""
    return Card(RANKS.index(card[0]) + 1, card[1], face_up)


def from_soliterm(card: Card) -> str:
    """A soliterm Card in protocol notation."""
    return RANKS[card.rank - 1] + card.suit


# --- the game -----------------------------------------------------------------------


class Game:
    """One soliterm game of Scorpion set to a protocol position."""

    def __init__(self, position: dict[str, Any]) -> None:
        self.g: Solitaire = new_solitaire("scorpion", seed=1)
        self.g.symbols = False  # name cards 9D, not 9♦, in why_not's sentences
        rules = self.g.gamedef
        self.stock: int = rules.stock  # type: ignore[attr-defined]
        self.tableau: list[int] = rules.tableau  # type: ignore[attr-defined]
        self.removed = list(position["removed"])
        self.g.slots[self.stock].cards = [to_soliterm(c, False) for c in reversed(position["stock"])]
        for sid, column in zip(self.tableau, position["columns"], strict=True):
            self.g.slots[sid].cards = ([to_soliterm(c, False) for c in column["down"]]
                                       + [to_soliterm(c, True) for c in column["up"]])
        self.g.score = rules._score(self.g)  # type: ignore[attr-defined]
        self.g.update_status()

    def state(self) -> dict[str, Any]:
        columns = []
        for sid in self.tableau:
            pile = self.g.cards(sid)
            down = [from_soliterm(c) for c in pile if not c.face_up]
            up = [from_soliterm(c) for c in pile if c.face_up]
            if [c.face_up for c in pile] != [False] * len(down) + [True] * len(up):
                raise RuntimeError(f"soliterm left a face-down card above a face-up one in slot {sid}")
            columns.append({"down": down, "up": up})
        stock = [from_soliterm(c) for c in reversed(self.g.cards(self.stock))]
        if self.g.is_won():
            status = "won"
        elif self.g.is_stuck():
            status = "lost"
        else:
            status = "playing"
        return {"columns": columns, "stock": stock, "removed": self.removed, "status": status}

    def column_of(self, sid: int) -> int:
        return self.tableau.index(sid) + 1

    def legal(self) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = []
        for src, dst, n in self.g.legal_moves():
            if dst not in self.tableau:
                raise RuntimeError(f"soliterm offers a move to slot {dst}, which is no column")
            pile = self.g.cards(src)
            actions.append({"type": "move", "card": from_soliterm(pile[len(pile) - n]),
                            "to": self.column_of(dst)})
        if self.g.clone().deal():
            actions.append({"type": "deal"})
        return actions

    def find(self, card: str) -> tuple[int, int] | None:
        """The slot holding card and how many cards lie from it to the top, or None."""
        for slot in self.g.slots:
            for i, held in enumerate(slot.cards):
                if from_soliterm(held) == card:
                    return slot.sid, len(slot.cards) - i
        return None

    def play(self, action: dict[str, Any]) -> None:
        if action["type"] == "deal":
            if not self.g.deal():
                why = self.g.deal_blocked_reason()
                raise Refusal("illegal-action", f"soliterm: {why}", _reason(why))
            return
        card, to = action["card"], action["to"]
        where = self.find(card)
        if where is None:
            raise Refusal("illegal-action", f"{card} is not on the table", "card-not-in-play")
        src, n = where
        dst = self.tableau[to - 1]
        if not self.g.attempt_move(src, dst, n):
            why = self.g.why_not(src, dst, n)
            reason = _reason(why)
            if reason == COLUMN:
                top = self.g.top(dst)
                reason = "not-one-rank-lower" if top is not None and top.suit == card[1] else "not-same-suit"
            raise Refusal("illegal-action", f"soliterm: {why}", reason)

    def undo(self) -> None:
        if not self.g.undo():
            raise Refusal("nothing-to-undo", "nothing has been played since the start")


def _reason(sentence: str) -> str | None:
    """The reason code for one of soliterm's refusal sentences, if it names one.

    >>> _reason("an empty column takes only a King")
    'empty-column-needs-king'
    """
    for start, code in REASONS.items():
        if start in sentence:
            return code
    return None


# --- the protocol loop (as in adapters/python/template_adapter.py) ----------------------------


class Session:
    """The protocol state: greeted or not, a game or not."""

    def __init__(self) -> None:
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
            self.game = Game(check_position(request["position"]))
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
    except Exception as bug:  # never die on a bug: log it and answer
        print(f"soliterm adapter bug: {bug!r}", file=sys.stderr)
        return {"ok": False, "error": {"code": "bad-request", "message": f"adapter bug: {bug}"}}, None


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    session = Session()
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


if __name__ == "__main__":
    sys.exit(main())
