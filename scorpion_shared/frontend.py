"""The front end every Python adapter shares: the request loop, the refusals, the limits, the answers.

An adapter brings a :class:`Program` (what it is, the rule sets and
capabilities it declares, and how it starts a game) whose games are
:class:`Game` values (their legal actions, a play, the state, and undo and
solve where it declares them). Everything the protocol asks of every
adapter happens here, once: reading request lines of at most
:data:`~scorpion_shared.vocabulary.MAX_LINE_BYTES`, refusing what is not a
UTF-8 JSON object with a ``cmd`` (or nests too deeply to read), the
handshake and its version, the order of commands (``hello`` first, ``start``
before the rest), the required fields, the declared rule sets and
capabilities, echoing each request's ``id``, clipping messages, and
answering even when the adapter's own code fails. Only ``quit``, the end of
input, a ``hello`` for another version or :class:`Stop` (the program behind
the adapter is gone) ends the loop.

The reference adapter (:mod:`scorpion_ref.adapter`) and the adapters around
real programs (``adapters/aisleriot/adapter.py``, ``adapters/soliterm/adapter.py``)
stand on it. It uses the standard library only, so an adapter running in an
interpreter of its own can import it from the checkout. (The template
``adapters/python/template_adapter.py`` stays one file to copy, with a loop of
its own.)

>>> class Blank:
...     implementation = {"name": "blank", "version": "0", "language": "python"}
...     rulesets = ["standard"]
...     capabilities: list[str] = []
...     def start(self, rules, position):
...         raise Refusal("invalid-position", "no position will do")
>>> session = Session(Blank())
>>> session.respond(b'{"cmd":"legal","id":1}')[0]
{'ok': False, 'error': {'code': 'bad-request', 'message': 'send hello first'}, 'id': 1}
>>> session.respond(b'{"cmd":"hello","protocol":1}')[0]["implementation"]["name"]
'blank'
>>> session.respond(b'{"cmd":"undo"}')[0]["error"]["code"]
'unsupported'
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any, BinaryIO, Protocol

from .vocabulary import COMMANDS, ERROR_CODES, MAX_LINE_BYTES, PROTOCOL_VERSION, VOCABULARY
from .words import ErrorCode, ReasonCode

__all__ = [
    "Game",
    "JsonObject",
    "Program",
    "Refusal",
    "Session",
    "Stop",
    "encode_answer",
    "run",
    "serve",
    "show",
]

#: A JSON object of the protocol.
JsonObject = dict[str, Any]

#: How long a message may be (messages quote parts of the request).
MESSAGE_LIMIT = 300

#: The commands only an adapter that declares their capability offers.
_CAPABILITIES = {c.code: c.capability for c in VOCABULARY.commands if c.capability}


class Refusal(Exception):
    """A request answered with an error: the protocol's error code, a message, and a reason code
    for ``illegal-action``. Raises :class:`ValueError` for a code the vocabulary does not list."""

    def __init__(self, code: ErrorCode, message: str, reason: ReasonCode | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"{code!r} is not an error code of vocabulary.json")
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason

    def response(self) -> JsonObject:
        """The answer that carries this refusal."""
        error: JsonObject = {"code": self.code, "message": _clip(self.message)}
        if self.reason:
            error["reason"] = self.reason
        return {"ok": False, "error": error}


class Stop(Exception):
    """The program behind the adapter is gone: the loop ends, with exit status 1."""


class Game(Protocol):
    """One game of an adapter's program. Each method raises :class:`Refusal` to refuse."""

    def legal(self) -> list[JsonObject]:
        """Every legal action, in the protocol's form."""

    def play(self, action: Any) -> None:
        """Play one action (as the request wrote it: check it before use)."""

    def state(self) -> JsonObject:
        """The state: the position and the status."""

    def undo(self) -> None:
        """Take back the last action (capability ``undo``)."""

    def solve(self, request: JsonObject) -> JsonObject:
        """The whole answer to a ``solve`` request (capability ``solve``)."""


class Program(Protocol):
    """What an adapter declares in its hello, and how it starts a game."""

    @property
    def implementation(self) -> JsonObject:
        """The ``implementation`` object of the hello answer: name, version, language..."""

    @property
    def rulesets(self) -> Sequence[str | JsonObject]:
        """The rule sets it declares: names, or ``{"name": ..., "options": ...}`` objects."""

    @property
    def capabilities(self) -> Sequence[str]:
        """The capabilities it declares (``undo``, ``solve``)."""

    def start(self, rules: str, position: Any) -> Game:
        """A game under a declared rule set, from the position as the request wrote it."""


def _clip(text: str) -> str:
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "..."


def show(value: Any) -> str:
    """A short rendering of part of a request, for messages.

    >>> show({"a": [1, 2]}), show("x" * 70)[-4:]
    ('{"a": [1, 2]}', 'x...')
    """
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:60] + "..."


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _request_id(request: JsonObject) -> int | None:
    """The request's ``id`` when it is a whole number the answer can echo."""
    value = request.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
        return value
    return None


def _names(rulesets: Sequence[str | JsonObject]) -> list[str]:
    return [entry if isinstance(entry, str) else str(entry.get("name")) for entry in rulesets]


class Session:
    """One conversation: the handshake, the current game, and the answer to each request line."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.greeted = False
        self.game: Game | None = None

    def respond(self, line: bytes) -> tuple[JsonObject, int | None]:
        """The answer to one request line, and the exit status when the adapter must stop.

        Raises :class:`Stop` when the program behind the adapter is gone; any
        other failure of the adapter's code is answered, and its traceback
        written to stderr.
        """
        request_id: int | None = None
        status: int | None = None
        try:
            request = self._parse(line)
            request_id = _request_id(request)
            answer, status = self._dispatch(request)
        except Refusal as refusal:
            answer = refusal.response()
        except Stop:
            raise
        except Exception as error:  # a fault of the adapter: still answer, and log it
            traceback.print_exc(file=sys.stderr)
            name = self.program.implementation.get("name", "this")
            answer = Refusal(
                "bad-request",
                f"the {name} adapter failed on this request ({type(error).__name__}: {error});"
                " this is a bug of the adapter, please report it",
            ).response()
        if request_id is not None:
            answer = {**answer, "id": request_id}
        return answer, status

    @staticmethod
    def _parse(line: bytes) -> JsonObject:
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
            raise Refusal("bad-request", f"cmd must be a string, not {show(request['cmd'])}")
        return request

    def _dispatch(self, request: JsonObject) -> tuple[JsonObject, int | None]:
        cmd = request["cmd"]
        if cmd == "hello":
            return self._hello(request)
        if cmd not in COMMANDS:
            raise Refusal("bad-request", f"there is no command {show(cmd)}")
        if not self.greeted:
            raise Refusal("bad-request", "send hello first")
        if cmd == "quit":
            return {"ok": True}, 0
        needs = _CAPABILITIES.get(cmd)
        if needs is not None and needs not in self.program.capabilities:
            raise Refusal("unsupported", f"this adapter does not offer {cmd} (no {needs} capability)")
        if cmd == "start":
            return self._start(request), None
        game = self.game
        if game is None:
            raise Refusal("bad-request", "no game yet: send start first")
        if cmd == "legal":
            return {"ok": True, "actions": game.legal()}, None
        if cmd == "solve":
            return game.solve(request), None
        if cmd == "play":
            if "action" not in request:
                raise Refusal("bad-request", "play needs an action field")
            game.play(request["action"])
        elif cmd == "undo":
            game.undo()
        return {"ok": True, "state": game.state()}, None

    def _hello(self, request: JsonObject) -> tuple[JsonObject, int | None]:
        if "protocol" not in request:
            raise Refusal("bad-request", f"hello needs a protocol field (the version, {PROTOCOL_VERSION})")
        version = request["protocol"]
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad-request", f"protocol must be an integer, not {show(version)}")
        if version != PROTOCOL_VERSION:
            refusal = Refusal(
                "unsupported",
                f"this adapter speaks protocol version {PROTOCOL_VERSION} only, not {version}",
            )
            return refusal.response(), 1
        self.greeted = True
        program = self.program
        return {"ok": True, "protocol": PROTOCOL_VERSION, "implementation": program.implementation,
                "rulesets": list(program.rulesets), "capabilities": list(program.capabilities)}, None

    def _start(self, request: JsonObject) -> JsonObject:
        for field in ("rules", "position"):
            if field not in request:
                raise Refusal("bad-request", f"start needs a {field} field")
        name = request["rules"]
        if not isinstance(name, str):
            raise Refusal("bad-request", f"rules must be a rule set name, not {show(name)}")
        offered = _names(self.program.rulesets)
        if name not in offered:
            listed = ", ".join(offered[:8]) + (", ..." if len(offered) > 8 else "")
            raise Refusal("unsupported", f"no rule set named {show(name)}; this adapter offers {listed}")
        self.game = self.program.start(name, request["position"])
        return {"ok": True, "state": self.game.state()}


# -- the loop -------------------------------------------------------------------------------------


def encode_answer(answer: JsonObject) -> bytes:
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


def serve(stdin: BinaryIO, stdout: BinaryIO, session: Session) -> int:
    """Answer requests from ``stdin`` on ``stdout`` until quit or the end of input; returns
    the exit status (a blank line is answered as a bad request too). :class:`Stop` propagates."""
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
        try:
            stdout.write(encode_answer(answer))
            stdout.flush()
        except (OSError, ValueError):
            return 0  # nobody listens any more
        if status is not None:
            return status


def run(session: Session) -> int:
    """Serve this process's stdin and stdout; returns the exit status.

    Anything else that prints goes to stderr, so stdout carries answers only.
    Ctrl-C ends it with 130; :class:`Stop` with 1, its message on stderr.
    """
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        status = serve(sys.stdin.buffer, out, session)
    except KeyboardInterrupt:
        status = 130
    except Stop as stop:
        print(f"{session.program.implementation.get('name', 'the')} adapter: {stop}", file=sys.stderr)
        status = 1
    try:
        out.flush()
    except (OSError, ValueError):
        # The harness went away: keep Python's exit from complaining about stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
    return status
