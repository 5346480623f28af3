#!/usr/bin/env python3
"""soliterm 1.2.0's Scorpion behind the conformance suite's protocol.

soliterm (PyPI, pure Python) plays Scorpion in ``soliterm/engine/games/scorpion.py``
on the engine ``soliterm/engine/core.py``; this adapter imports that engine,
without its terminal front-ends, and only translates (the protocol's request
loop, handshake and refusals of malformed requests are the front end every
Python adapter of the repository shares, ``scorpion_shared/frontend.py``):

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

import os
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

# The front end every Python adapter shares, from the checkout this script lies in (soliterm's
# venv has neither package of the repository installed; the front end needs only the standard library).
sys.path.insert(0, str(HERE.parents[1]))

from scorpion_shared.checks import check_action, check_position  # noqa: E402 (after the path)
from scorpion_shared.frontend import Refusal, Session, run  # noqa: E402 (after the path)

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


# --- cards ------------------------------------------------------------------------


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

    def play(self, request: Any) -> None:
        action = check_action(request)
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


# --- the program behind the shared front end ---------------------------------------------


class Soliterm:
    """The program as the front end sees it: what it declares, and a game from a position."""

    implementation = IMPLEMENTATION
    rulesets = RULESETS
    capabilities = CAPABILITIES

    def start(self, rules: str, position: Any) -> Game:
        return Game(check_position(position))


if __name__ == "__main__":
    sys.exit(run(Session(Soliterm())))
