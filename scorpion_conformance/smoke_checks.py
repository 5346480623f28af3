"""The checks of ``check-adapter``: two small positions and what the rules say of them.

The expected answers are written by hand from the rules (they hold under
every rule set of protocol version 1), not computed by the reference engine.
Each check returns a line that says what passed, or raises
:class:`CheckFailed` saying in words what the adapter got wrong.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from .client import AdapterClient
from .compare import legal_difference, state_difference
from .protocol import ErrorInfo, HelloInfo, Legal, Play, Start, State, Undo
from .transport import TransportClosed, TransportTimeout

__all__ = ["CheckFailed", "SmokeChecks"]

Json = dict[str, Any]


def _column(up: str, down: str = "") -> Json:
    return {"down": down.split(), "up": up.split()}


def _position(columns: Sequence[Json], stock: str = "") -> Json:
    """A position from its first columns; the rest are empty."""
    padded = list(columns) + [_column("") for _ in range(7 - len(columns))]
    return {"columns": padded, "stock": stock.split(), "removed": []}


#: Position A: no empty column, no stock, no run, so every rule set agrees.
#: Legal: 9D onto TD (column 2), 8D onto 9D (column 1). 2C is face down.
POSITION_A = _position(
    [
        _column("9D"),
        _column("TD", "2C"),
        _column("3H"),
        _column("4S"),
        _column("KC"),
        _column("7C"),
        _column("8D"),
    ]
)

#: Position A after 9D moves to column 2: column 1 is empty, nothing turns over.
POSITION_A_AFTER_MOVE = _position(
    [
        _column(""),
        _column("TD 9D", "2C"),
        _column("3H"),
        _column("4S"),
        _column("KC"),
        _column("7C"),
        _column("8D"),
    ]
)

#: Position B: no move at all (7C waits for 8C, which is in the stock), so the
#: deal is the only legal action whether the stock may be dealt any time or
#: only when stuck.
POSITION_B = _position(
    [
        _column("9D"),
        _column("TS", "2C"),
        _column("3H"),
        _column("4S"),
        _column("KC"),
        _column("7C"),
        _column("AH"),
    ],
    stock="QD 8C 5H",
)

#: Position B after the deal: QD lands on column 1, 8C on 2, 5H on 3.
POSITION_B_AFTER_DEAL = _position(
    [
        _column("9D QD"),
        _column("TS 8C", "2C"),
        _column("3H 5H"),
        _column("4S"),
        _column("KC"),
        _column("7C"),
        _column("AH"),
    ]
)


class CheckFailed(Exception):
    """The adapter answered, but not what the rules say."""


def _move(card: str, to: int) -> Json:
    return {"type": "move", "card": card, "to": to}


def _state(position: Json, status: str = "playing") -> Json:
    return {**position, "status": status}


def _say_error(error: ErrorInfo | None) -> str:
    if error is None:
        return "no error"
    reason = f", reason {error.reason}" if error.reason else ""
    return f"{error.code}{reason}: {error.message}"


def _say_action(action: Json) -> str:
    if action.get("type") == "deal":
        return "deal"
    return f"{action.get('card')} to column {action.get('to')}"


def _expect_state(expected: Json, got: Json | None, what: str) -> None:
    if got is None:
        raise CheckFailed(f"{what}: no state in the answer")
    difference = state_difference(expected, got)
    if difference:
        raise CheckFailed(f"{what}: {difference}")


def _expect_error(response: Any, code: str, what: str, reason: str | None = None) -> str:
    """Check a refusal; returns a note for the PASS line."""
    if response.ok:
        raise CheckFailed(f"{what}: expected the error {code}, but the adapter answered ok")
    error = response.error
    if error.code != code:
        raise CheckFailed(f"{what}: expected the error {code}, got {error.code} ({error.message})")
    if reason is None:
        return ""
    if error.reason is None:
        return " (no reason given; reasons are optional)"
    if error.reason != reason:
        raise CheckFailed(f"{what}: expected the reason {reason}, got {error.reason}")
    return f" (reason {reason})"


class SmokeChecks:
    """The checks, in order; each starts its own game so that one failure
    does not spoil the next."""

    def __init__(self, client: AdapterClient, info: HelloInfo) -> None:
        self.client = client
        self.info = info
        self.rules = "standard" if "standard" in info.ruleset_names else info.ruleset_names[0]

    def _start(self, position: Json) -> Json:
        response = self.client.send(Start(self.rules, position))
        if not response.ok:
            error = response.error
            assert error is not None
            raise CheckFailed(
                f"start under {self.rules!r} was refused: {error.code} ({error.message})"
            )
        assert response.state is not None
        return response.state

    def start(self) -> str:
        state = self._start(POSITION_A)
        _expect_state(_state(POSITION_A), state, "the state after start")
        return f"start under {self.rules!r} returns the position as given"

    def legal(self) -> str:
        self._start(POSITION_A)
        response = self.client.send(Legal())
        if not response.ok:
            raise CheckFailed(f"legal was refused: {_say_error(response.error)}")
        found = legal_difference([_move("9D", 2), _move("8D", 1)], response.actions or [])
        if found is not None:
            raise CheckFailed(f"legal on position A: {found}")
        return "legal lists exactly 9D to column 2 and 8D to column 1"

    def move(self) -> str:
        self._start(POSITION_A)
        response = self.client.send(Play(_move("9D", 2)))
        if not response.ok:
            raise CheckFailed(f"playing 9D to column 2 was refused: {_say_error(response.error)}")
        _expect_state(_state(POSITION_A_AFTER_MOVE), response.state, "after 9D to column 2")
        _expect_state(_state(POSITION_A_AFTER_MOVE), self.client.send(State()).state, "state")
        return "9D moves onto TD; state agrees"

    def _illegal(self, position: Json, action: Json, reason: str, words: str) -> str:
        before = self._start(position)
        response = self.client.send(Play(action))
        note = _expect_error(response, "illegal-action", f"playing {_say_action(action)}", reason)
        after = self.client.send(State()).state
        _expect_state(before, after, "the state after a refused action must not change")
        return f"{words} is refused{note}; the state is unchanged"

    def illegal_rank(self) -> str:
        return self._illegal(POSITION_A, _move("7C", 5), "not-one-rank-lower", "7C onto KC")

    def illegal_face_down(self) -> str:
        return self._illegal(POSITION_A, _move("2C", 3), "card-face-down", "moving face-down 2C")

    def illegal_stock_card(self) -> str:
        return self._illegal(
            POSITION_B, _move("8C", 6), "card-in-stock", "moving 8C from the stock"
        )

    def stock_empty(self) -> str:
        return self._illegal(POSITION_A, {"type": "deal"}, "stock-empty", "dealing an empty stock")

    def deal(self) -> str:
        self._start(POSITION_B)
        actions = self.client.send(Legal()).actions
        if actions != [{"type": "deal"}]:
            listed = ", ".join(_say_action(a) for a in actions or []) or "nothing"
            raise CheckFailed(f"legal on position B should list only the deal, not {listed}")
        response = self.client.send(Play({"type": "deal"}))
        if not response.ok:
            raise CheckFailed(f"the deal was refused: {_say_error(response.error)}")
        _expect_state(_state(POSITION_B_AFTER_DEAL), response.state, "after the deal")
        return "the deal is the only action and puts QD, 8C, 5H on columns 1, 2, 3"

    def undo(self) -> str:
        if not self.info.offers("undo"):
            return "SKIP undo is not offered"
        self._start(POSITION_B)
        first = self.client.send(Undo())
        _expect_error(first, "nothing-to-undo", "undo before any action")
        self.client.send(Play({"type": "deal"}))
        response = self.client.send(Undo())
        if not response.ok:
            raise CheckFailed(f"undo after the deal was refused: {_say_error(response.error)}")
        _expect_state(_state(POSITION_B), response.state, "after undoing the deal")
        return "undo takes back the deal; nothing-to-undo at the start"

    def bad_requests(self) -> str:
        self._start(POSITION_A)
        for line, what in (
            ("this is not JSON", "a line that is not JSON"),
            ('{"cmd":"shuffle"}', "an unknown command"),
            ('{"cmd":"play"}', "play without an action"),
            ('{"cmd":"play","action":{"type":"move","card":"9D","to":8}}', "a move to column 8"),
            ('{"cmd":"play","action":{"type":"move","card":"9X","to":2}}', "a move of card 9X"),
            ('{"cmd":"play","action":{"type":"fly"}}', "an action of an unknown type"),
        ):
            body = self.client.send_raw(line)
            if body.get("ok") is not False or body["error"]["code"] != "bad-request":
                got = "ok" if body.get("ok") else body["error"]["code"]
                raise CheckFailed(f"{what} should be answered with bad-request, not {got}")
        _expect_state(_state(POSITION_A), self.client.send(State()).state, "after bad requests")
        return "malformed lines, commands and actions get bad-request; the game goes on"

    def invalid_positions(self) -> str:
        twice = _position([_column("9D"), _column("TD", "2C"), _column("9D")])
        bare = _position([_column("9D"), _column("", "2C")])
        for position, what in (
            (twice, "9D twice"),
            (bare, "a face-down card with nothing face up"),
        ):
            response = self.client.send(Start(self.rules, position))
            _expect_error(response, "invalid-position", f"a position with {what}")
        return "a card twice, a face-down card with nothing above it: invalid-position"

    def position_shapes(self) -> str:
        good = POSITION_A
        shapes: tuple[tuple[Any, str], ...] = (
            ([], "a position that is a list"),
            ({**good, "tableau": []}, "a position with an extra field"),
            ({"columns": good["columns"], "stock": []}, "a position without removed"),
        )
        for position, what in shapes:
            response = self.client.send(Start(self.rules, position), on_purpose=True)
            _expect_error(response, "invalid-position", what)
        return "a position of the wrong shape is an invalid-position"

    def _fresh(self, lines: Sequence[str]) -> tuple[list[Json], int | None]:
        """Send ``lines`` to a new adapter process, then close its input.

        The process runs under the same guardian as every adapter (its whole
        tree ends with it) and only the tail of its stderr is kept.
        """
        timeout = max(self.client.timeout * 3, 5.0)
        transport = self.client.fresh_transport()
        try:
            try:
                transport.open()
            except OSError as error:
                raise CheckFailed(f"a new adapter process could not start: {error}") from None
            with contextlib.suppress(TransportClosed, TransportTimeout):
                for line in lines:
                    transport.send(f"{line}\n".encode(), timeout)
            transport.close_input()
            answers: list[Json] = []
            deadline = time.monotonic() + timeout
            while True:
                item = transport.receive(max(deadline - time.monotonic(), 0.0))
                if item is None:
                    raise CheckFailed(f"a new adapter process did not finish within {timeout:g} s "
                                      "after its input was closed")
                if item.kind == "eof":
                    break
                try:
                    answers.append(json.loads(item.data))
                except ValueError:
                    shown = item.data[:80].decode("utf-8", "replace")
                    raise CheckFailed(f"the adapter printed a line that is not JSON: {shown!r}") from None
            return answers, transport.exit_status(timeout)
        finally:
            transport.close()

    def before_hello(self) -> str:
        answers, _ = self._fresh(['{"cmd":"state"}', '{"cmd":"quit"}'])
        codes = [a.get("error", {}).get("code") if isinstance(a, dict) else None for a in answers]
        if codes != ["bad-request", "bad-request"]:
            raise CheckFailed(
                f"state and quit before hello should both get bad-request; the answers were {answers}"
            )
        return "commands before hello, quit included, get bad-request"

    def other_version(self) -> str:
        answers, code = self._fresh(['{"cmd":"hello","protocol":2}'])
        if len(answers) != 1 or answers[0].get("error", {}).get("code") != "unsupported":
            raise CheckFailed(f"hello for protocol 2 should get unsupported; the answers were {answers}")
        if code == 0:
            raise CheckFailed("after refusing protocol 2 the adapter should exit with a non-zero status")
        return f"protocol 2 is unsupported and the adapter exits with status {code}"

    def unknown_rules(self) -> str:
        response = self.client.send(Start("no-such-rules", POSITION_A))
        _expect_error(response, "unsupported", "starting under rule set 'no-such-rules'")
        return "an unknown rule set is unsupported"

    def quit(self) -> str:
        code = self.client.quit()
        return f"quit is answered and the adapter exits with status {code}"

    def all(self) -> list[tuple[str, Callable[[], str]]]:
        return [
            ("start", self.start),
            ("legal", self.legal),
            ("move", self.move),
            ("illegal move (rank)", self.illegal_rank),
            ("illegal move (face down)", self.illegal_face_down),
            ("illegal move (stock card)", self.illegal_stock_card),
            ("empty stock", self.stock_empty),
            ("deal", self.deal),
            ("undo", self.undo),
            ("bad requests", self.bad_requests),
            ("invalid positions", self.invalid_positions),
            ("unknown rule set", self.unknown_rules),
            ("position shapes", self.position_shapes),
            ("commands before hello", self.before_hello),
            ("another protocol version", self.other_version),
            ("quit", self.quit),
        ]
