"""The reference adapter around a program that cannot hold every start position.

Usage: ``python unsupported_positions.py MODE``. Every answer but the refused
``start`` is the real reference session's.

Modes:

* ``short-stock``: answers ``unsupported-position`` to a start whose stock holds
  one or two cards (a synthetic start: the honest use of the error);
* ``any-stock``: answers it to every start whose stock holds cards at all, most
  of them positions a game reaches (a program that claims too much);
* ``short-stock-twice``: as ``short-stock``, but writes that refusal twice (an
  answer out of step: the adapter's fault, whatever the error says).
"""

from __future__ import annotations

import json
import sys

from scorpion_ref.adapter import Session, encode_answer

MODES = ("short-stock", "any-stock", "short-stock-twice")


def refuses(mode: str, request: object) -> bool:
    if not isinstance(request, dict) or request.get("cmd") != "start":
        return False
    position = request.get("position")
    stock = position.get("stock") if isinstance(position, dict) else None
    if not isinstance(stock, list):
        return False
    return 0 < len(stock) < 3 if mode != "any-stock" else bool(stock)


def main(mode: str) -> int:
    session = Session()
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n")
        try:
            request = json.loads(line)
        except ValueError:
            request = None
        if refuses(mode, request):
            answer = {"ok": False, "error": {
                "code": "unsupported-position",
                "message": "this program's stock always holds three cards",
            }}
            if isinstance(request, dict) and isinstance(request.get("id"), int):
                answer["id"] = request["id"]
            data = encode_answer(answer)
            out.write(data + data if mode == "short-stock-twice" else data)
            out.flush()
            continue
        answer, status = session.respond(line)
        out.write(encode_answer(answer))
        out.flush()
        if status is not None:
            return status
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        sys.exit(f"usage: unsupported_positions.py {{{','.join(MODES)}}}")
    sys.exit(main(sys.argv[1]))
