#!/usr/bin/env python3
"""An adapter for the Scorpion conformance suite: plug your engine into :class:`Engine`.

``scorpion-conformance new-adapter python DIR`` wrote this file as
``DIR/adapter.py``, with ``DIR/README.md`` (what to fill in, in which order)
and ``DIR/protocol.md`` (the protocol, the one reference you need) beside it.

The protocol loop is complete and correct: it reads one JSON request per
line, answers each with exactly one JSON line, greets, refuses malformed
requests with ``bad-request`` and never dies on bad input. What is missing is
your engine: fill in the methods of :class:`Engine` marked TODO. Until you do,
``start`` answers ``unsupported`` and the adapter is useless but well behaved.

Try it, from the folder that holds DIR:

    scorpion-conformance check-adapter --adapter "python3 DIR/adapter.py"
    scorpion-conformance run --adapter "python3 DIR/adapter.py"

This file needs nothing but Python 3.9 or later."""

from __future__ import annotations

import json
import sys
from typing import Any

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 1 << 20

# TODO: describe your implementation.
IMPLEMENTATION = {
    "name": "my-scorpion",
    "version": "0.0.1",
    "language": "python",
    "homepage": "https://example.org/my-scorpion",
}

# TODO: the rule sets your engine can play: names of the suite's named sets
# ("standard", "classic", "wasp", "pysolfc", "aisleriot") and/or custom bundles
# such as {"name": "mine", "options": {"runs": "collect", "stock": "any-time",
# "empty_column": "king", "whole_column_to_empty": "allowed"}}.
RULESETS: list[Any] = ["standard"]

# TODO: ["undo"] once Engine.undo works.
CAPABILITIES: list[str] = []


class Refusal(Exception):
    """Answer the current request with an error."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.reason = code, message, reason


class Engine:
    """The glue between the protocol and your Scorpion implementation.

    Positions, states and actions are the protocol's JSON values (dicts and
    lists). Raise Refusal for the errors the protocol names:

    - ``invalid-position``: a start position that cannot occur;
    - ``illegal-action``: a well-formed action the rules refuse (give a reason
      code such as ``not-same-suit`` if you can);
    - ``bad-request``: a malformed action (not a card, a column outside 1-7,
      an unknown type);
    - ``nothing-to-undo``.
    """

    def start(self, rules: str, position: dict[str, Any]) -> None:
        """Set up a game under rule set ``rules`` from ``position``, exactly as given.

        ``rules`` is the name of an entry of RULESETS: the option values of a named set are
        in protocol.md ("Named rule sets"), those of a custom bundle in its entry.
        """
        # TODO: build your game. Check the position first (a card twice, face-down
        # cards with nothing face up above them, more than three stock cards, a
        # card of a removed suit on the table) and raise
        # Refusal("invalid-position", "...") if it is wrong.
        raise NotImplementedError("this template has no engine yet")

    def state(self) -> dict[str, Any]:
        """The current position plus "status": "playing", "won" or "lost"."""
        raise NotImplementedError  # TODO

    def legal(self) -> list[dict[str, Any]]:
        """Every legal action: {"type": "move", "card": "9D", "to": 5}, {"type": "deal"}."""
        raise NotImplementedError  # TODO

    def play(self, action: dict[str, Any]) -> None:
        """Play ``action``, or raise Refusal and leave the game as it was."""
        raise NotImplementedError  # TODO

    def undo(self) -> None:
        """Take back the last action (only if CAPABILITIES holds "undo")."""
        raise Refusal("unsupported", "this adapter does not offer undo")


def ruleset_names() -> list[str]:
    return [entry if isinstance(entry, str) else entry["name"] for entry in RULESETS]


class Session:
    """The protocol state: greeted or not, a game or not."""

    def __init__(self) -> None:
        self.greeted = False
        self.engine: Engine | None = None

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
                error = {"code": "unsupported", "message": f"only protocol {PROTOCOL_VERSION}"}
                return {"ok": False, "error": error}, 1
            self.greeted = True
            return {
                "ok": True,
                "protocol": PROTOCOL_VERSION,
                "implementation": IMPLEMENTATION,
                "rulesets": RULESETS,
                "capabilities": CAPABILITIES,
            }, None
        if cmd not in ("start", "legal", "play", "state", "undo", "solve", "quit"):
            raise Refusal("bad-request", f"there is no command {cmd!r}")
        if not self.greeted:
            raise Refusal("bad-request", "send hello first")
        if cmd == "quit":
            return {"ok": True}, 0
        if cmd == "solve":  # the optional capability "solve" (protocol.md); not offered here
            raise Refusal("unsupported", "this adapter does not offer solve")
        if cmd == "start":
            for field in ("rules", "position"):
                if field not in request:
                    raise Refusal("bad-request", f"start needs a {field} field")
            if request["rules"] not in ruleset_names():
                raise Refusal("unsupported", f"no rule set named {request['rules']!r}")
            engine = Engine()
            engine.start(request["rules"], request["position"])
            self.engine = engine  # only now: a refused start keeps the old game
            return {"ok": True, "state": engine.state()}, None
        if self.engine is None:
            raise Refusal("bad-request", "no game yet: send start first")
        if cmd == "legal":
            return {"ok": True, "actions": self.engine.legal()}, None
        if cmd == "play":
            if "action" not in request:
                raise Refusal("bad-request", "play needs an action field")
            self.engine.play(request["action"])
        elif cmd == "undo":
            if "undo" not in CAPABILITIES:
                raise Refusal("unsupported", "this adapter does not offer undo")
            self.engine.undo()
        return {"ok": True, "state": self.engine.state()}, None


def answer(session: Session, line: bytes) -> tuple[dict[str, Any], int | None]:
    """The answer to one request line; it echoes the request's ``id``, as adapters should."""
    request: Any = None
    try:
        try:
            request = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
            raise Refusal("bad-request", "the request is not a JSON line") from None
        response, status = session.handle(request)
    except Refusal as refusal:
        error = {"code": refusal.code, "message": refusal.message[:300]}
        if refusal.reason:
            error["reason"] = refusal.reason
        response, status = {"ok": False, "error": error}, None
    except NotImplementedError as missing:
        response, status = {"ok": False, "error": {"code": "unsupported", "message": str(missing)}}, None
    except Exception as bug:  # never die: log it on stderr and answer
        print(f"adapter bug: {bug!r}", file=sys.stderr)
        response, status = {
            "ok": False,
            "error": {"code": "bad-request", "message": f"adapter bug: {bug}"},
        }, None
    number = request.get("id") if isinstance(request, dict) else None
    if isinstance(number, int) and not isinstance(number, bool) and number >= 0:
        response["id"] = number
    return response, status


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    session = Session()
    while True:
        line = stdin.readline(MAX_LINE_BYTES + 1)
        if not line:
            return 0  # the harness closed stdin
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := stdin.readline(65536)) and not rest.endswith(b"\n"):
                pass  # skip the rest of an over-long line
            response, status = (
                {
                    "ok": False,
                    "error": {"code": "bad-request", "message": "the request line is too long"},
                },
                None,
            )
        else:
            response, status = answer(session, line)
        stdout.write(json.dumps(response).encode("utf-8") + b"\n")
        stdout.flush()
        if status is not None:
            return status


if __name__ == "__main__":
    sys.exit(main())
