"""The reference adapter: the reference engine behind the suite's JSON Lines protocol.

Run it as ``python -m scorpion_ref.adapter`` (or ``scorpion-ref-adapter``) and
write requests to its stdin, one JSON object per line; it answers each with
one line on stdout. ``docs/protocol.md`` describes the protocol.

It offers every named rule set and the ``undo`` and ``solve`` capabilities
(:mod:`scorpion_ref.adapter_solve`). It never dies on input: whatever arrives
(bytes that are not UTF-8, JSON that is not an object, nesting too deep to
read, lines over a mebibyte, requests the engine chokes on) is answered with
an error, and only ``quit``, the end of stdin or a ``hello`` for another
protocol version ends it.

It uses only the public API of :mod:`scorpion_ref`.

>>> session = Session()
>>> session.respond(b'{"cmd":"hello","protocol":1}')[0]["implementation"]["name"]
'scorpion-ref'
>>> session.respond(b'{"cmd":"legal"}')[0]["error"]["code"]
'bad-request'
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, BinaryIO

from scorpion_ref import (
    OPTIONS,
    RULESETS,
    Game,
    IllegalAction,
    InvalidPosition,
    NotationError,
    NothingToUndo,
    RuleSet,
    __version__,
    legal_actions,
)
from scorpion_ref.adapter_solve import read_budget, solve_answer
from scorpion_ref.serial import (
    action_from_json,
    action_to_json,
    position_from_json,
    position_to_json,
)
from scorpion_shared.vocabulary import (
    CARD,
    COMMANDS,
    ERROR_CODES,
    MAX_LINE_BYTES,
    NAMED_RULESETS,
    PROTOCOL_VERSION,
    RANKS,
    SUITS,
)

__all__ = ["MAX_LINE_BYTES", "PROTOCOL_VERSION", "Session", "encode_answer", "main", "serve"]

#: The rule set names the protocol knows; any other rule set is declared by its options.
_PROTOCOL_NAMED_SETS = frozenset(NAMED_RULESETS)

#: A card exactly as the protocol writes it (the engine also reads "10♦", "td"...).
_CARD = CARD

#: How a refusal describes a card.
_CARD_FORM = f"rank {RANKS}, then suit {SUITS}"

#: How long a message may be (messages quote parts of the request).
_MESSAGE_LIMIT = 300


class Refusal(Exception):
    """A request answered with an error; carries the protocol error code."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"{code!r} is not an error code of vocabulary.json")
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason

    def response(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": _clip(self.message)}
        if self.reason:
            error["reason"] = self.reason
        return {"ok": False, "error": error}


def _clip(text: str) -> str:
    return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT] + "..."


def _show(value: Any) -> str:
    """A short rendering of part of a request, for messages."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:60] + "..."


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _ruleset_entry(rules: RuleSet) -> str | dict[str, Any]:
    if rules.name in _PROTOCOL_NAMED_SETS:
        return rules.name
    return {"name": rules.name, "options": rules.options}


def every_bundle() -> dict[str, RuleSet]:
    """The named rule sets, then every other combination of the options as a
    custom bundle named by the values where it differs from each option's first
    value (``stay/any``: runs stay, empty columns take any card, the rest as in
    ``standard``). Names stay within the protocol's 64 characters as options are added.

    >>> every_bundle()["stay/any"].options["stock"]
    'any-time'
    """
    bundles = dict(RULESETS)
    named = {tuple(rules.options.values()) for rules in RULESETS.values()}
    first = [values[0] for values in OPTIONS.values()]
    for values in itertools.product(*OPTIONS.values()):
        if values not in named:
            name = "/".join(v for v, base in zip(values, first, strict=True) if v != base)
            bundles[name] = RuleSet.from_options(name, dict(zip(OPTIONS, values, strict=True)))
    return bundles


def hello_response(rulesets: dict[str, RuleSet] | None = None) -> dict[str, Any]:
    """The answer to a successful ``hello``."""
    if rulesets is None:
        rulesets = RULESETS
    return {
        "ok": True,
        "protocol": PROTOCOL_VERSION,
        "implementation": {
            "name": "scorpion-ref",
            "version": __version__,
            "language": "python",
        },
        "rulesets": [_ruleset_entry(rules) for rules in rulesets.values()],
        "capabilities": ["undo", "solve"],
    }


def _check_cards(value: Any, where: str) -> None:
    if isinstance(value, list):
        for i, card in enumerate(value):
            if isinstance(card, str) and not _CARD.fullmatch(card):
                raise Refusal(
                    "invalid-position",
                    f"{where}[{i}]: {_show(card)} is not a card ({_CARD_FORM})",
                )


def read_position(obj: Any) -> Any:
    """The engine's position for a protocol position; raises :class:`Refusal`.

    Stricter than the engine's reader: all three fields (and down and up in
    every column) must be present, and cards must be written exactly as the
    protocol writes them.
    """
    if isinstance(obj, dict):
        missing = [key for key in ("columns", "stock", "removed") if key not in obj]
        if missing:
            raise Refusal("invalid-position", f"the position has no {' or '.join(missing)}")
        columns = obj["columns"]
        if isinstance(columns, list):
            for number, column in enumerate(columns, start=1):
                if isinstance(column, dict):
                    for part in ("down", "up"):
                        if part not in column:
                            raise Refusal("invalid-position", f"column {number} has no {part} list")
                        _check_cards(column[part], f"column {number} {part}")
        _check_cards(obj["stock"], "stock")
    try:
        return position_from_json(obj)
    except InvalidPosition as error:
        raise Refusal("invalid-position", str(error)) from None


def read_action(obj: Any) -> Any:
    """The engine's action for a protocol action; raises :class:`Refusal` (bad-request)."""
    if isinstance(obj, dict) and obj.get("type") == "move":
        card = obj.get("card")
        if isinstance(card, str) and not _CARD.fullmatch(card):
            raise Refusal(
                "bad-request", f"{_show(card)} is not a card ({_CARD_FORM})"
            )
    try:
        return action_from_json(obj)
    except NotationError as error:
        raise Refusal("bad-request", f"malformed action {_show(obj)}: {error}") from None


class Session:
    """One conversation: the handshake and the current game."""

    def __init__(self, rulesets: dict[str, RuleSet] | None = None) -> None:
        self.greeted = False
        self.game: Game | None = None
        self.rulesets = dict(RULESETS) if rulesets is None else rulesets

    def respond(self, line: bytes) -> tuple[dict[str, Any], int | None]:
        """The answer to one request line, and the exit status when the adapter must stop.

        The answer echoes the request's ``id``, when it has a well-formed one.

        >>> Session().respond(b'{"cmd":"state","id":7}')[0]["id"]
        7
        """
        request_id: int | None = None
        status: int | None = None
        try:
            request = self._parse(line)
            request_id = _request_id(request)
            answer, status = self._dispatch(request)
        except Refusal as refusal:
            answer = refusal.response()
        except Exception as error:  # a fault of ours: still answer, and log it
            traceback.print_exc(file=sys.stderr)
            answer = Refusal(
                "bad-request",
                f"the reference adapter failed on this request ({type(error).__name__}: {error});"
                " this is a bug in the reference, please report it",
            ).response()
        if request_id is not None:
            answer = {**answer, "id": request_id}
        return answer, status

    @staticmethod
    def _parse(line: bytes) -> dict[str, Any]:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Refusal("bad-request", f"the request is not UTF-8 (byte {error.start})") from None
        try:
            request = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise Refusal("bad-request", "the request nests too deeply to read") from None
        except ValueError as error:
            raise Refusal("bad-request", f"the request is not JSON: {error}") from None
        if not isinstance(request, dict):
            raise Refusal("bad-request", "a request is a JSON object with a cmd field")
        if "cmd" not in request:
            raise Refusal("bad-request", "the request has no cmd field")
        if not isinstance(request["cmd"], str):
            raise Refusal("bad-request", f"cmd must be a string, not {_show(request['cmd'])}")
        return request

    def _dispatch(self, request: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
        cmd = request["cmd"]
        if cmd == "hello":
            return self._hello(request)
        if cmd not in COMMANDS:
            raise Refusal("bad-request", f"there is no command {_show(cmd)}")
        if not self.greeted:
            raise Refusal("bad-request", "send hello first")
        if cmd == "quit":
            return {"ok": True}, 0
        if cmd == "start":
            return self._start(request), None
        game = self.game
        if game is None:
            raise Refusal("bad-request", "no game yet: send start first")
        if cmd == "legal":
            actions = legal_actions(game.position, game.rules)
            return {"ok": True, "actions": [action_to_json(a) for a in actions]}, None
        if cmd == "play":
            if "action" not in request:
                raise Refusal("bad-request", "play needs an action field")
            action = read_action(request["action"])
            try:
                game.play(action)
            except IllegalAction as error:
                raise Refusal("illegal-action", error.message, error.reason) from None
        elif cmd == "solve":
            try:
                return solve_answer(game.position, game.rules, read_budget(request)), None
            except ValueError as error:
                raise Refusal("bad-request", str(error)) from None
        elif cmd == "undo":
            try:
                game.undo()
            except NothingToUndo as error:
                raise Refusal("nothing-to-undo", str(error)) from None
        return self._state(game), None

    def _hello(self, request: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
        if "protocol" not in request:
            raise Refusal("bad-request", "hello needs a protocol field (the version, 1)")
        version = request["protocol"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad-request", f"protocol must be an integer, not {_show(version)}")
        if version != PROTOCOL_VERSION:
            refusal = Refusal(
                "unsupported",
                f"this adapter speaks protocol version {PROTOCOL_VERSION} only, not {version}",
            )
            return refusal.response(), 1
        self.greeted = True
        return hello_response(self.rulesets), None

    def _start(self, request: dict[str, Any]) -> dict[str, Any]:
        for field in ("rules", "position"):
            if field not in request:
                raise Refusal("bad-request", f"start needs a {field} field")
        name = request["rules"]
        if not isinstance(name, str):
            raise Refusal("bad-request", f"rules must be a rule set name, not {_show(name)}")
        rules = self.rulesets.get(name)
        if rules is None:
            offered = ", ".join(list(self.rulesets)[:8]) + (", ..." if len(self.rulesets) > 8 else "")
            raise Refusal(
                "unsupported", f"no rule set named {_show(name)}; this adapter offers {offered}"
            )
        position = read_position(request["position"])
        self.game = Game(position, rules)
        return self._state(self.game)

    @staticmethod
    def _state(game: Game) -> dict[str, Any]:
        return {
            "ok": True,
            "state": {**position_to_json(game.position), "status": game.status.value},
        }


def _request_id(request: dict[str, Any]) -> int | None:
    """The request's ``id`` when it is a whole number the answer can echo."""
    value = request.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
        return value
    return None


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One answer line: compact JSON, ASCII only, ending in a newline.

    >>> encode_answer({"ok": True})
    b'{"ok":true}\\n'
    """
    return json.dumps(answer, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


def _read_line(stream: BinaryIO) -> tuple[bytes | None, bool]:
    """The next request line without its newline (None at the end of input), and
    whether it was too long: a line over :data:`MAX_LINE_BYTES` is read to its
    end and dropped."""
    line = stream.readline(MAX_LINE_BYTES + 1)
    if not line:
        return None, False
    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
        while True:
            rest = stream.readline(65536)
            if not rest or rest.endswith(b"\n"):
                break
        return b"", True
    return line.rstrip(b"\n"), False


def serve(stdin: BinaryIO, stdout: BinaryIO, rulesets: dict[str, RuleSet] | None = None) -> int:
    """Answer requests from ``stdin`` on ``stdout`` until quit or the end of input;
    returns the exit status."""
    session = Session(rulesets)
    while True:
        line, too_long = _read_line(stdin)
        if line is None:
            return 0
        if too_long:
            answer = Refusal(
                "bad-request", f"the request line is longer than {MAX_LINE_BYTES} bytes"
            ).response()
            status = None
        else:
            answer, status = session.respond(line)
        data = encode_answer(answer)
        try:
            stdout.write(data)
            stdout.flush()
        except (OSError, ValueError):
            return 0  # nobody listens any more
        if status is not None:
            return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the adapter on this process's stdin and stdout; returns the exit status.

    Anything else that prints (``print`` in the engine, say) goes to stderr, so
    stdout carries answers only.
    """
    parser = argparse.ArgumentParser(
        prog="scorpion-ref-adapter",
        description="The reference engine behind the adapter protocol, on stdin and stdout.",
    )
    parser.add_argument(
        "--all-bundles", action="store_true",
        help="also offer every other combination of the rule options as a custom bundle",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        status = serve(sys.stdin.buffer, out, every_bundle() if args.all_bundles else None)
    except KeyboardInterrupt:
        status = 130
    try:
        out.flush()
    except (OSError, ValueError):
        # The harness went away: keep Python's exit from complaining about stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
    return status


if __name__ == "__main__":
    sys.exit(main())
