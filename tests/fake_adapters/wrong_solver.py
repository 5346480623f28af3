"""The reference adapter with a wrong ``solve``: right about every rule, wrong about winnability.

Usage: ``python wrong_solver.py MODE``. Every other command is the real
reference session's, so the solve checks can blame exactly the claim.

Modes:

* ``false-lost``: answers every ``solve`` with ``lost``;
* ``short-line``: answers ``won`` with the reference's winning line less its
  last action (so it ends before the win), or with one legal action where the
  position has no winning line;
* ``malformed``: answers ``won`` without a line;
* ``refuses``: declares ``solve`` but answers it with ``unsupported``;
* ``undeclared``: does not declare ``solve`` (and answers it with ``unsupported``);
* ``slow``: answers every ``solve`` rightly, but only after ``SOLVE_SECONDS`` (env, default 65);
* ``doubled``: answers every ``solve`` rightly, then writes that answer again just before its
  answer to the next request (in one write with it);
* ``lying-play``: answers ``won`` with one legal action as its line, and its ``play`` accepts
  every action of that line and says the game is won.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from scorpion_ref.adapter import Session, encode_answer

MODES = ("false-lost", "short-line", "malformed", "refuses", "undeclared", "slow", "doubled", "lying-play")


def wrong(mode: str, session: Session, request: dict[str, Any], line: bytes) -> dict[str, Any]:
    if mode == "false-lost":
        return {"ok": True, "outcome": "lost"}
    if mode == "malformed":
        return {"ok": True, "outcome": "won"}
    if mode in ("refuses", "undeclared"):
        return {"ok": False, "error": {"code": "unsupported", "message": "no solver here"}}
    answer, _ = session.respond(line)
    if mode == "slow":
        time.sleep(float(os.environ.get("SOLVE_SECONDS", "65")))
    if mode in ("slow", "doubled"):
        return {k: v for k, v in answer.items() if k != "id"}
    if answer.get("outcome") == "won" and answer["line"]:
        return {"ok": True, "outcome": "won", "line": answer["line"][:-1]}
    legal, _ = session.respond(b'{"cmd":"legal"}')
    return {"ok": True, "outcome": "won", "line": legal["actions"][:1]}


def _lying_play(session: Session, line: bytes) -> dict[str, Any]:
    """A play that accepts the action and calls the game won, whatever the rules say."""
    state, _ = session.respond(b'{"cmd":"state"}')
    return {"ok": True, "state": {**state["state"], "status": "won"}}


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in MODES:
        print(f"usage: wrong_solver.py {'|'.join(MODES)}", file=sys.stderr)
        return 2
    session = Session()
    again = b""  # the doubled answer, written before the next one
    lying = False  # the lying play, after a solve
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n")
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        cmd = request.get("cmd") if isinstance(request, dict) else None
        if cmd == "solve" and session.game is not None:
            answer = wrong(mode, session, request, line)
            if isinstance(request.get("id"), int):
                answer["id"] = request["id"]
            status = None
            lying = mode == "lying-play"
        elif cmd == "play" and lying:
            answer, status = _lying_play(session, line), None
            if isinstance(request.get("id"), int):
                answer["id"] = request["id"]
        else:
            if cmd == "start":
                lying = False
            answer, status = session.respond(line)
            if mode == "undeclared" and isinstance(request, dict) and request.get("cmd") == "hello":
                answer["capabilities"] = [c for c in answer.get("capabilities", []) if c != "solve"]
        data = encode_answer(answer)
        sys.stdout.buffer.write(again + data)
        sys.stdout.buffer.flush()
        again = data if mode == "doubled" and cmd == "solve" else b""
        if status is not None:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
