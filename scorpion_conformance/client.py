"""The conversation with an adapter: the protocol's commands, checked both ways.

:class:`AdapterClient` holds a :class:`~scorpion_conformance.conversation.Connection`
(one ``request`` for one answer, over a
:class:`~scorpion_conformance.transport.Transport`: a process, the usual
case, or an adapter's session in this process, the reference's being
:func:`scorpion_conformance.reference.in_process`) and builds the protocol's
commands on it, every one through :meth:`AdapterClient.send`, the handshake
included.
Every request it sends is checked against the protocol's schema, and so is
every answer; every fault raises an
:class:`~scorpion_conformance.errors.AdapterError` that names the adapter, the
request, what was wrong and the tail of the adapter's stderr.

**The conversation stays in step, or the client says so** (see
:mod:`scorpion_conformance.conversation`): each request carries an ``id``
that adapters may echo, and a line nobody asked for is the adapter's fault
(:class:`~scorpion_conformance.errors.OutOfStep`), never a verdict on the
rules. A scenario ends with :meth:`AdapterClient.check_in_step`, one more
round trip, so an extra answer written at the very end is caught too.

A refusal such as ``illegal-action`` is a normal answer: :meth:`AdapterClient.play`
and :meth:`AdapterClient.undo` return it as a
:class:`~scorpion_conformance.protocol.Response`.

After a timeout, a crash, a malformed line or an out-of-step answer the
adapter is stopped and the client refuses further requests until
:meth:`AdapterClient.restart`. After an answer of the wrong shape
(:class:`~scorpion_conformance.errors.InvalidResponse`) the conversation is
still in step, and the adapter keeps running.

>>> from scorpion_conformance.reference import in_process
>>> with in_process() as client:
...     empty = {"columns": [{"down": [], "up": []}] * 7, "stock": [], "removed": []}
...     client.start("classic", empty)["status"], client.info.ruleset_names[:2]
('lost', ('standard', 'classic'))
"""

from __future__ import annotations

import contextlib
import json
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from . import protocol
from .conversation import DEFAULT_TIMEOUT, STARTUP_TIMEOUT, Connection, JsonObject, Lifecycle
from .errors import (
    AdapterError,
    AdapterStartError,
    ErrorAnswer,
    OutOfStep,
    ProtocolVersionError,
    RequestError,
    TooManyRestarts,
    quote,
)
from .protocol import (
    Hello,
    HelloInfo,
    Legal,
    Play,
    Quit,
    Request,
    Response,
    Solve,
    SolveAnswer,
    Start,
    State,
    Undo,
)
from .transport import Transport

__all__ = ["DEFAULT_TIMEOUT", "STARTUP_TIMEOUT", "AdapterClient", "JsonObject"]

A = TypeVar("A", bound=Response)


class AdapterClient:
    """A conversation with one adapter (restartable): its commands and their answers.

    ``adapter`` is a command line (split as a shell would, without running a
    shell), an argument list, or a function that makes a fresh
    :class:`~scorpion_conformance.transport.Transport` for each (re)start;
    ``timeout`` is the seconds each answer may take. ``max_restarts`` caps
    restarts *in a row*: a game that starts successfully resets the count, so
    an adapter that crashes on a few scenarios keeps going, while one that
    never gets a game started ends in
    :class:`~scorpion_conformance.errors.TooManyRestarts`. ``restarts`` counts
    all restarts. The other options are the
    :class:`~scorpion_conformance.conversation.Connection`'s.
    """

    def __init__(
        self,
        adapter: str | Sequence[str] | Callable[[], Transport],
        timeout: float = DEFAULT_TIMEOUT,
        stderr_tail_lines: int = 40,
        max_restarts: int = 3,
        **options: Any,
    ) -> None:
        #: The connection this client talks through.
        self.connection = Connection(adapter, timeout, stderr_tail_lines, **options)
        self.max_restarts = max_restarts
        #: What the adapter said in answer to hello, once it has.
        self.info: HelloInfo | None = None
        #: How many times the adapter was restarted, in all.
        self.restarts = 0
        self._restarts_in_a_row = 0
        self._last_state: JsonObject | None = None

    def __repr__(self) -> str:
        return f"AdapterClient({self.command!r}, timeout={self.timeout:g})"

    def __enter__(self) -> AdapterClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- what the connection knows -------------------------------------------

    @property
    def command(self) -> str:
        """The adapter's command line, as messages name it."""
        return self.connection.command

    @property
    def timeout(self) -> float:
        """The seconds each answer may take."""
        return self.connection.timeout

    @property
    def running(self) -> bool:
        """Whether an adapter is up and the conversation is in step."""
        return self.connection.running

    @property
    def pid(self) -> int | None:
        """The adapter's process id while one runs."""
        return self.connection.pid

    @property
    def echoes_ids(self) -> bool | None:
        """Whether the adapter echoes request ids (known after its first answer)."""
        return self.connection.echoes_ids

    def stderr_tail(self, *, wait: bool = False) -> str:
        """The last lines the running (or last) adapter wrote to stderr."""
        return self.connection.stderr_tail(wait=wait)

    def fresh_transport(self) -> Transport:
        """A new, unopened transport to the same adapter (for a conversation of one's own)."""
        return self.connection.fresh_transport()

    # -- sending -------------------------------------------------------------

    def send(self, request: Request[A], *, on_purpose: bool = False, timeout: float | None = None) -> A:
        """Send one request and return the adapter's answer, checked against the schema.

        Raises :class:`~scorpion_conformance.errors.RequestError` (the caller's
        mistake, not the adapter's) for a request the protocol does not allow,
        unless it is sent ``on_purpose`` to see how the adapter treats bad input,
        and an :class:`AdapterError` for every fault; an error answer is returned.
        ``timeout`` replaces the client's own for this one answer (a search takes
        longer; the first answer, to ``hello``, may take the connection's startup time).
        """
        obj = request.to_json()
        problem = None if on_purpose else protocol.validate_request(obj)
        if problem is not None:
            raise RequestError(f"the request {quote(json.dumps(obj), 200)} is not well formed: {problem}")
        greeting = request.cmd == "hello"
        if self.info is None and not greeting:
            self.hello()
        if greeting and timeout is None:
            timeout = self.connection.startup_timeout
        body = self.connection.request(obj, request.cmd, timeout)
        if greeting:
            self._refuse_the_handshake(body)
        problem = protocol.validate_response(request.cmd, body)
        if problem is None and greeting:
            problem = _hello_problem(body)
        if problem is not None:
            raise self.connection.unfit(request.cmd, f"the answer to {request.cmd} is not well formed:"
                                        f" {problem}", body)
        response = request.read(body)
        if greeting:
            self.info = HelloInfo.from_json(body)
        if response.ok and request.cmd == "start":
            self._restarts_in_a_row = 0
        if response.state is not None:
            self._last_state = response.state
        return response

    def _refuse_the_handshake(self, body: Any) -> None:
        """A refused handshake, or one in another version, stops the adapter: it cannot be used."""
        if not isinstance(body, dict):
            return
        expected = protocol.PROTOCOL_VERSION
        if body.get("ok") is False:
            error = body["error"] if isinstance(body.get("error"), dict) else {}
            code, message = error.get("code"), error.get("message", "")
            if code == "unsupported":
                raise self.connection.fault(
                    ProtocolVersionError, f"the adapter does not speak protocol version {expected}:"
                    f" {message}", wait=True, got=None, expected=expected,
                )
            raise self.connection.fault(AdapterStartError,
                                        f"the adapter refused the handshake with {code!r}: {message}")
        if "protocol" in body:
            version = protocol.version_problem(body["protocol"])
            if version is not None:
                raise self.connection.fault(ProtocolVersionError, version, got=body["protocol"],
                                            expected=expected)

    def send_raw(self, line: bytes | str) -> Any:
        """Send any one line (even a malformed request) and return the decoded answer.

        The answer must still be a well-formed response (``ok``, and an
        ``error`` when ``ok`` is false). For testing how adapters treat bad input;
        the line goes as it is, without an id.
        """
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        data = data.removesuffix(b"\n")
        if b"\n" in data:
            raise ValueError("send_raw sends one line: the text holds a newline")
        body = self.connection.request(data)
        problem = protocol.check("response", body)
        if problem is not None:
            raise self.connection.unfit("a raw line", f"the answer is not a response: {problem}", body)
        return body

    # -- the commands --------------------------------------------------------

    def hello(self) -> HelloInfo:
        """The handshake: what the adapter is and offers.

        Raises :class:`ProtocolVersionError` when it speaks another version,
        :class:`AdapterStartError` when it cannot start or refuses.
        """
        self.send(Hello())
        assert self.info is not None  # a handshake that was not refused
        return self.info

    def _expect_ok(self, request: Request[A]) -> A:
        response = self.send(request)
        if not response.ok:
            raise ErrorAnswer(response, adapter=self.command, request=self.connection.last_request)
        return response

    def start(self, rules: str, position: Mapping[str, Any]) -> JsonObject:
        """Start a game; returns its state. Raises :class:`ErrorAnswer` if refused."""
        state = self._expect_ok(Start(rules, position)).state
        assert state is not None
        return state

    def legal(self) -> list[JsonObject]:
        """Every legal action. Raises :class:`ErrorAnswer` if refused."""
        actions = self._expect_ok(Legal()).actions
        assert actions is not None
        return actions

    def play(self, action: Mapping[str, Any]) -> Response:
        """Play an action; the answer is the new state or a refusal such as ``illegal-action``."""
        return self.send(Play(action))

    def state(self) -> JsonObject:
        """The current state. Raises :class:`ErrorAnswer` if refused."""
        state = self._expect_ok(State()).state
        assert state is not None
        return state

    def undo(self) -> Response:
        """Take back the last action; the answer is the state, or a refusal (``nothing-to-undo``)."""
        return self.send(Undo())

    def solve(self, budget: int, timeout: float | None = None) -> SolveAnswer:
        """Ask the adapter to solve the current position (capability ``solve``).

        The answer is ``won`` with a line, ``lost`` or ``unknown``, or a refusal
        (``unsupported`` from an adapter without the capability). ``timeout``
        is the time this answer may take, the client's own by default.
        """
        return self.send(Solve(budget), timeout=timeout)

    def check_in_step(self) -> None:
        """One more round trip, to prove the conversation is still in step.

        An extra answer written after the last one is read here instead of the
        answer to this ``state`` request, so it is caught now and not blamed on
        the next scenario; where the adapter does not echo ids, its state must
        also still be the last one it gave. Raises :class:`OutOfStep`.
        """
        if not self.connection.running or self.info is None:
            return
        before = self._last_state
        response = self.send(State())
        if before is not None and response.ok and response.state != before:
            raise self.connection.fault(
                OutOfStep, "asked for the state with no action since its last answer, the adapter gave"
                " another state: its answers are out of step with the requests",
            )

    def quit(self) -> int:
        """Say goodbye; returns the adapter's exit status, which must be 0.

        Raises :class:`AdapterTimeout` if it does not exit, :class:`AdapterCrashed`
        if it exits with another status.
        """
        if self.connection.state is Lifecycle.NEW:
            self.connection.close()
            return 0
        response = self.send(Quit())
        if not response.ok:
            raise ErrorAnswer(response, adapter=self.command, request=self.connection.last_request)
        return self.connection.wait_for_exit()

    def close(self) -> None:
        """Quit politely if the adapter is running, and make sure it is gone (whole tree)."""
        if self.connection.running:
            with contextlib.suppress(AdapterError, ErrorAnswer):
                self.quit()
        self.connection.close()

    def kill(self) -> None:
        """End the adapter at once, without a word (on an interrupt)."""
        self.connection.close()

    def restart(self) -> HelloInfo:
        """Stop the adapter, start a fresh one and redo the handshake.

        Raises :class:`TooManyRestarts` once ``max_restarts`` restarts happened
        in a row without a game starting, and whatever the handshake raises.
        """
        self._restarts_in_a_row += 1
        if self._restarts_in_a_row > self.max_restarts:
            last = self.connection.last_error
            raise TooManyRestarts(
                f"the adapter failed {self._restarts_in_a_row} times in a row, each time right"
                " after a restart (it never got a game started). This usually means the adapter"
                " program itself, not the Scorpion implementation behind it, is broken. Try"
                f" `scorpion-conformance check-adapter --adapter {shlex.quote(self.command)}`.",
                last_error=last,
                adapter=self.command,
                request=last.request if last is not None else None,
                stderr_tail=last.stderr_tail if last is not None else "",
            )
        self.restarts += 1
        self.connection.reopen()
        self.info = None
        self._last_state = None
        return self.hello()


def _hello_problem(body: Any) -> str | None:
    """What the schema cannot say is wrong with a successful hello (a rule set declared twice)."""
    if not isinstance(body, dict) or not body.get("ok"):
        return None
    try:
        HelloInfo.from_json(body)
    except ValueError as error:
        return str(error)
    return None
