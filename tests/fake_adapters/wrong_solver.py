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
* ``undeclared``: does not declare ``solve`` (and answers it with ``unsupported``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from scorpion_ref.adapter import Session, encode_answer

MODES = ("false-lost", "short-line", "malformed", "refuses", "undeclared")


def wrong(mode: str, session: Session, request: dict[str, Any], line: bytes) -> dict[str, Any]:
    if mode == "false-lost":
        return {"ok": True, "outcome": "lost"}
    if mode == "malformed":
        return {"ok": True, "outcome": "won"}
    if mode in ("refuses", "undeclared"):
        return {"ok": False, "error": {"code": "unsupported", "message": "no solver here"}}
    answer, _ = session.respond(line)
    if answer.get("outcome") == "won" and answer["line"]:
        return {"ok": True, "outcome": "won", "line": answer["line"][:-1]}
    legal, _ = session.respond(b'{"cmd":"legal"}')
    return {"ok": True, "outcome": "won", "line": legal["actions"][:1]}


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in MODES:
        print(f"usage: wrong_solver.py {'|'.join(MODES)}", file=sys.stderr)
        return 2
    session = Session()
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n")
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        if isinstance(request, dict) and request.get("cmd") == "solve" and session.game is not None:
            answer = wrong(mode, session, request, line)
            if isinstance(request.get("id"), int):
                answer["id"] = request["id"]
            status = None
        else:
            answer, status = session.respond(line)
            if mode == "undeclared" and isinstance(request, dict) and request.get("cmd") == "hello":
                answer["capabilities"] = [c for c in answer.get("capabilities", []) if c != "solve"]
        sys.stdout.buffer.write(encode_answer(answer))
        sys.stdout.buffer.flush()
        if status is not None:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
