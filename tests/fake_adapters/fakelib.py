"""A tiny adapter that plays a canned game, for the fake adapters to break.

Each fake adapter script in this folder runs :func:`serve` with one command
replaced by a broken handler. Like a good adapter, it echoes each request's
``id`` in the answers it writes (set ``ECHO_IDS = False`` to stop). The canned
game: ``start`` echoes the position as the state, ``legal`` offers one deal,
``play`` accepts a deal and refuses every move, ``undo`` has nothing to undo.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Handler = Callable[[dict[str, Any], dict[str, Any]], "dict[str, Any] | None"]

HELLO = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "fake", "version": "0", "language": "python"},
    "rulesets": ["standard"],
    "capabilities": ["undo"],
}


#: Whether answers echo the request id (the protocol's optional field).
ECHO_IDS = True

#: The id of the request being answered, if it had one.
current_id: Any = None


def with_id(obj: Any) -> Any:
    """``obj`` with the current request's id, as an answer that echoes ids."""
    if ECHO_IDS and current_id is not None and isinstance(obj, dict):
        return {**obj, "id": current_id}
    return obj


def reply(obj: Any) -> None:
    sys.stdout.write(json.dumps(with_id(obj)) + "\n")
    sys.stdout.flush()


def error(code: str, message: str, reason: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if reason:
        body["reason"] = reason
    return {"ok": False, "error": body}


def _default(request: dict[str, Any], game: dict[str, Any]) -> dict[str, Any] | None:
    cmd = request.get("cmd")
    if cmd == "hello":
        return HELLO
    if cmd == "start":
        game["state"] = {**request["position"], "status": "playing"}
        return {"ok": True, "state": game["state"]}
    if "state" not in game:
        return error("bad-request", "start a game first")
    if cmd == "legal":
        return {"ok": True, "actions": [{"type": "deal"}]}
    if cmd == "play":
        if request.get("action") == {"type": "deal"}:
            return {"ok": True, "state": game["state"]}
        return error("illegal-action", "the fake refuses every move", "not-same-suit")
    if cmd == "state":
        return {"ok": True, "state": game["state"]}
    if cmd == "undo":
        return error("nothing-to-undo", "nothing to undo")
    return error("bad-request", f"unknown command {cmd!r}")


def serve(overrides: dict[str, Handler] | None = None) -> None:
    """Answer requests until stdin ends or quit; ``overrides`` replace handlers by command."""
    global current_id
    overrides = overrides or {}
    game: dict[str, Any] = {}
    for line in sys.stdin:
        current_id = None
        try:
            request = json.loads(line)
        except ValueError:
            reply(error("bad-request", "not JSON"))
            continue
        if not isinstance(request, dict):
            reply(error("bad-request", "not an object"))
            continue
        current_id = request.get("id")
        cmd = request.get("cmd")
        if cmd == "quit" and "quit" not in overrides:
            reply({"ok": True})
            sys.exit(0)
        handler = overrides.get(cmd, _default)  # type: ignore[arg-type]
        answer = handler(request, game)
        if answer is not None:
            reply(answer)
