"""The reference adapter with a tagged payload in every field an adapter can set.

Usage: ``python hostile.py``. Each field gets the text of ``HOSTILE_TEMPLATE``
(env) with ``TAG`` replaced by the field's own tag (``hello.name``,
``play.message``, ...), so a payload that runs, or reaches a terminal, names
the field it came through. The default template carries HTML that runs
script in a page (in text and in an attribute) and terminal escapes (a new
window title, a cleared screen, a carriage return before a fake line).

What it sets:

* in its hello: the implementation's name, version, language and homepage
  (``HOSTILE_HOMEPAGE`` replaces the homepage's payload, as a
  ``javascript:`` address does), a field of its own in the implementation,
  and a custom rule set whose name is a payload (the standard options),
  under which every ``start`` is refused with a message;
* every refusal's message, and every deal is refused (``illegal-action``,
  reason ``stock-empty``), so the scenarios that deal fail with its message;
* its answers to ``state`` carry a payload where the state belongs once per game
  after the first deal was refused (an answer of the wrong shape: a fault of
  the adapter program), and a field of its own in every other answer;
* a line of stderr with a payload at every ``start``.

Everything else is the reference's own answer.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from scorpion_ref.adapter import Session, encode_answer

DEFAULT = (
    "<img src=x onerror=\"__hit('TAG')\"><svg onload=\"__hit('TAG')\"></svg>"
    "\"'><img src=x onerror=\"__hit('TAG')\">"
    "\x1b]0;TAG\x07\x1b[2J\x1b[31m\rTAG: all passed\x9b2J\u202e"
)
TEMPLATE = os.environ.get("HOSTILE_TEMPLATE", DEFAULT)


def payload(tag: str) -> str:
    """The template, naming ``tag``."""
    return TEMPLATE.replace("TAG", tag)


def _hello(answer: dict[str, Any]) -> dict[str, Any]:
    implementation = {
        "name": payload("hello.name"),
        "version": payload("hello.version"),
        "language": payload("hello.language"),
        "homepage": os.environ.get("HOSTILE_HOMEPAGE", payload("hello.homepage")),
        "extra": payload("hello.extra"),
    }
    standard = {"runs": "collect", "stock": "any-time", "empty_column": "king",
                "whole_column_to_empty": "refused"}
    custom = {"name": payload("hello.ruleset"), "options": standard}
    return {**answer, "implementation": implementation, "rulesets": ["standard", custom]}


def _deals(request: dict[str, Any]) -> bool:
    action = request.get("action")
    return isinstance(action, dict) and action.get("type") == "deal"


def main() -> int:
    session = Session()
    broken_state = False
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n")
        try:
            request: Any = json.loads(line)
        except ValueError:
            request = None
        cmd = request.get("cmd") if isinstance(request, dict) else None
        number = request.get("id") if isinstance(request, dict) else None
        if cmd == "start":
            print(payload("stderr"), file=sys.stderr, flush=True)
        if cmd == "start" and request.get("rules") != "standard":
            # the custom rule set refuses every position, with a message
            answer: dict[str, Any] = {"ok": False, "error": {
                "code": "invalid-position", "message": payload("start.message")}}
            status = None
        elif cmd == "play" and _deals(request):
            answer = {"ok": False, "error": {
                "code": "illegal-action", "reason": "stock-empty", "message": payload("play.message")}}
            broken_state = True
            status = None
        elif cmd == "state" and broken_state:
            answer, status = {"ok": True, "state": payload("state.answer")}, None
            broken_state = False
        else:
            answer, status = session.respond(line)
            if cmd == "hello" and answer.get("ok"):
                answer = _hello(answer)
            elif not answer.get("ok") and isinstance(answer.get("error"), dict):
                answer["error"] = {**answer["error"], "message": payload(f"{cmd}.message")}
            else:
                answer["note"] = payload(f"{cmd}.extra")
        if isinstance(number, int):
            answer["id"] = number
        sys.stdout.buffer.write(encode_answer(answer))
        sys.stdout.buffer.flush()
        if status is not None:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
