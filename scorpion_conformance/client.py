"""The conversation with an adapter: requests, checked answers and the fault lifecycle.

:class:`AdapterClient` speaks the JSON Lines protocol over a
:class:`~scorpion_conformance.transport.Transport`: a process (the usual
case) or the reference adapter in this process (:meth:`AdapterClient.in_process`).
Every request it sends is checked against the protocol's schema, and so is
every answer; every fault raises an
:class:`~scorpion_conformance.errors.AdapterError` that names the adapter, the
request, what was wrong and the tail of the adapter's stderr.

**The conversation stays in step, or the client says so.** Each request
carries an ``id`` that adapters may echo. Where the adapter echoes it, an
answer to the wrong request is recognised exactly. Where it does not, the
client still refuses every line that nobody asked for: the lines that came
with an answer, and whatever is waiting before each request. A scenario ends
with :meth:`AdapterClient.check_in_step`, which makes one more round trip, so
an extra answer written at the very end is caught too. Any of these is the
adapter's fault (:class:`~scorpion_conformance.errors.OutOfStep`), never a
verdict on the rules.

A refusal such as ``illegal-action`` is a normal answer: :meth:`AdapterClient.play`
and :meth:`AdapterClient.undo` return it as a
:class:`~scorpion_conformance.protocol.Response`.

After a timeout, a crash, a malformed line or an out-of-step answer the
adapter is stopped and the client refuses further requests until
:meth:`AdapterClient.restart`. After an answer of the wrong shape
(:class:`~scorpion_conformance.errors.InvalidResponse`) the conversation is
still in step, and the adapter keeps running.

>>> with AdapterClient.in_process() as client:
...     info = client.hello()
...     state = client.start("standard", {"columns": [{"down": [], "up": []}] * 7,
...                                       "stock": [], "removed": []})
...     client.play({"type": "deal"}).error.reason
'stock-empty'
"""

from __future__ import annotations

import contextlib
import json
import shlex
import weakref
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import protocol
from .errors import (
    AdapterCrashed,
    AdapterError,
    AdapterNotRunning,
    AdapterStartError,
    AdapterTimeout,
    ErrorAnswer,
    InvalidResponse,
    MalformedResponse,
    OutOfStep,
    ProtocolVersionError,
    RequestError,
    TooManyRestarts,
    describe_exit,
    quote,
)
from .protocol import Hello, HelloInfo, Legal, Play, Quit, Request, Response, Start, State, Undo
from .transport import (
    GRACE,
    MAX_LINE_BYTES,
    InProcessTransport,
    ProcessTransport,
    Received,
    Transport,
    TransportClosed,
    TransportTimeout,
    split_command,
)

__all__ = ["DEFAULT_TIMEOUT", "MAX_LINE_BYTES", "STARTUP_TIMEOUT", "AdapterClient", "JsonObject"]

#: Seconds to wait for each answer unless told otherwise.
DEFAULT_TIMEOUT = 5.0
#: The least time the first answer may take (see ``AdapterClient.startup_timeout``).
STARTUP_TIMEOUT = 15.0

#: A JSON object of the protocol (a position, a state, an action).
JsonObject = dict[str, Any]

#: How many requests are remembered, to say which one an extra answer belongs to.
_HISTORY = 16


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _close_all(holder: list[Transport]) -> None:
    for transport in holder:
        transport.close()
    holder.clear()


class AdapterClient:
    """A conversation with one adapter (restartable).

    ``adapter`` is a command line (split as a shell would, without running a
    shell), an argument list, or a function that makes a fresh
    :class:`~scorpion_conformance.transport.Transport` for each (re)start.
    Nothing starts until the first request.

    ``max_restarts`` caps restarts *in a row*: a game that starts successfully
    resets the count, so an adapter that crashes on a few scenarios keeps
    going, while one that never gets a game started ends in
    :class:`~scorpion_conformance.errors.TooManyRestarts`. ``restarts`` counts
    all restarts.

    Raises :class:`ValueError` for an empty command or unbalanced quotes.
    """

    def __init__(
        self,
        adapter: str | Sequence[str] | Callable[[], Transport],
        timeout: float = DEFAULT_TIMEOUT,
        stderr_tail_lines: int = 40,
        max_restarts: int = 3,
        *,
        max_line_bytes: int = MAX_LINE_BYTES,
        startup_timeout: float | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if callable(adapter):
            self._make: Callable[[], Transport] = adapter
            self.command = adapter().name
        else:
            self.command, argv = split_command(adapter)
            self._make = lambda: ProcessTransport(
                argv, cwd=cwd, env=env, max_line_bytes=max_line_bytes,
                stderr_tail_lines=stderr_tail_lines,
            )
        self.timeout = float(timeout)
        #: How long the first answer (to hello) may take: starting an interpreter or a
        #: JIT on a loaded machine is slower than answering a request.
        self.startup_timeout = (
            max(self.timeout, STARTUP_TIMEOUT) if startup_timeout is None else float(startup_timeout)
        )
        self.max_restarts = max_restarts
        self.max_line_bytes = max_line_bytes
        #: What the adapter said in answer to hello, once it has.
        self.info: HelloInfo | None = None
        #: How many times the adapter was restarted, in all.
        self.restarts = 0
        #: Whether the adapter echoes request ids (known after its first answer).
        self.echoes_ids: bool | None = None
        self._restarts_in_a_row = 0
        self._holder: list[Transport] = []
        self._status = "new"  # new, running, broken, closed
        self._last_error: AdapterError | None = None
        self._next_id = 0
        self._history: deque[tuple[int, str]] = deque(maxlen=_HISTORY)
        self._answered = False
        self._ended = False
        self._last_state: JsonObject | None = None
        self._finalizer = weakref.finalize(self, _close_all, self._holder)

    def fresh_transport(self) -> Transport:
        """A new, unopened transport to the same adapter (for a conversation of one's own)."""
        return self._make()

    @classmethod
    def in_process(cls, rulesets: Mapping[str, Any] | None = None, **options: Any) -> AdapterClient:
        """The reference adapter in this process (``rulesets``: name → RuleSet to offer)."""
        return cls(lambda: InProcessTransport(rulesets), **options)

    def __repr__(self) -> str:
        return f"AdapterClient({self.command!r}, timeout={self.timeout:g})"

    def __enter__(self) -> AdapterClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the process ---------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether an adapter is up and the conversation is in step."""
        return self._status == "running"

    @property
    def pid(self) -> int | None:
        """The adapter's process id while one runs."""
        return self._holder[0].pid if self._holder else None

    def stderr_tail(self, *, wait: bool = False) -> str:
        """The last lines the running (or last) adapter wrote to stderr."""
        return self._holder[0].stderr_tail(wait=wait) if self._holder else ""

    def _context(self, request: str | None, *, wait: bool = False) -> dict[str, Any]:
        return {"adapter": self.command, "request": request, "stderr_tail": self.stderr_tail(wait=wait)}

    def _open(self) -> Transport:
        transport = self._make()
        try:
            transport.open()
        except OSError as error:
            self._status = "broken"
            reason = error.strerror or str(error)
            hint = " (is it installed, and on PATH?)" if isinstance(error, FileNotFoundError) else ""
            program = shlex.split(self.command)[0] if self.command.strip() else self.command
            failure = AdapterStartError(f"cannot run {program!r}: {reason}{hint}", adapter=self.command)
            self._last_error = failure
            raise failure from None
        self._holder[:] = [transport]
        self._status = "running"
        self._answered = False
        self._ended = False
        self.echoes_ids = None
        self._last_state = None
        return transport

    def _transport(self) -> Transport:
        if self._status == "new":
            return self._open()
        if self._status == "running":
            return self._holder[0]
        if self._status == "closed":
            raise AdapterNotRunning("the adapter was closed", adapter=self.command)
        last = f": {self._last_error.problem}" if self._last_error else ""
        raise AdapterNotRunning(
            f"the adapter failed earlier{last}; call restart() first", adapter=self.command
        )

    def _fail(self, error: AdapterError) -> AdapterError:
        """Stop the adapter after a fault that leaves the conversation out of step."""
        for transport in self._holder:
            transport.close()
        self._status = "broken"
        self._last_error = error
        return error

    def _exited(self, transport: Transport, request: str) -> AdapterError:
        code = transport.exit_status(GRACE)
        context = self._context(request, wait=True)
        if not self._answered:
            error: AdapterError = AdapterStartError(
                f"the adapter {describe_exit(code)} before answering its first request",
                exit_code=code, **context,
            )
        else:
            error = AdapterCrashed(
                f"the adapter {describe_exit(code)} instead of answering", exit_code=code, **context
            )
        return self._fail(error)

    # -- keeping the conversation in step -------------------------------------

    def _which(self, data: bytes) -> str:
        """Which earlier request an extra line answers, as far as can be told."""
        try:
            body = json.loads(data)
        except ValueError:
            return ""
        if isinstance(body, dict) and isinstance(body.get("id"), int):
            for number, text in self._history:
                if number == body["id"]:
                    return f" (it answers {quote(text, 80)} again)"
        return ""

    def _extra(self, items: list[Received], request: str, when: str) -> AdapterError:
        transport = self._holder[0]
        lines = [item for item in items if item.kind != "eof"]
        if not lines:
            return self._exited(transport, request)
        first = lines[0].data
        more = f" ({len(lines)} lines in all)" if len(lines) > 1 else ""
        return self._fail(OutOfStep(
            f"{when}, the adapter wrote a line nobody asked for{self._which(first)}{more}:"
            f" {quote(first)}. Each request gets exactly one answer line.",
            line=first, **self._context(request),
        ))

    def _after_answer(self, transport: Transport, request: str, when: str) -> None:
        """Refuse the lines that came with an answer; note an end of output that did."""
        arrived = transport.waiting()
        if any(item.kind != "eof" for item in arrived):
            raise self._extra(arrived, request, when)
        self._ended = bool(arrived)

    def _check_id(self, body: Any, number: int, request: str, cmd: str) -> None:
        echoed = body.get("id") if isinstance(body, dict) else None
        if self.echoes_ids is None:
            self.echoes_ids = echoed == number
        if echoed is None and not self.echoes_ids:
            return
        if echoed == number:
            return
        if echoed is None:
            problem = (f"the answer to {cmd} carries no id, though the adapter echoed the ids of"
                       " earlier requests; its answers may be out of step")
        else:
            problem = (f"the answer to {cmd} (request id {number}) carries the id {echoed!r}"
                       f"{self._which(json.dumps({'id': echoed}).encode())}: the adapter answered"
                       " another request than the one asked, so its answers are out of step")
        raise self._fail(OutOfStep(problem, **self._context(request)))

    # -- one exchange --------------------------------------------------------

    def _exchange(self, obj: JsonObject, cmd: str, timeout: float | None = None) -> Any:
        """Send one request object, return the decoded answer (not yet checked)."""
        timeout = self.timeout if timeout is None else timeout
        transport = self._transport()
        number = self._next_id
        self._next_id += 1
        line = protocol.encode({**obj, "id": number})
        request = line.rstrip(b"\n").decode("utf-8", "replace")
        waiting = transport.waiting()
        if waiting or self._ended:
            raise self._extra(waiting, request, "before this request")
        try:
            transport.send(line, timeout)
        except TransportClosed:
            raise self._exited(transport, request) from None
        except TransportTimeout as error:
            raise self._fail(AdapterTimeout(
                f"{error}; it was stopped", timeout=timeout, **self._context(request, wait=True)
            )) from None
        self._history.append((number, request))
        received = transport.receive(timeout)
        if received is None:
            problem = f"no answer within {timeout:g} s; the adapter was stopped"
            partial, length = transport.unfinished()
            if length:
                problem += (f" (it had printed {length} bytes without ending the line:"
                            f" {quote(partial, 80)})")
            transport.close()
            raise self._fail(AdapterTimeout(problem, timeout=timeout, **self._context(request, wait=True)))
        if received.kind == "eof":
            raise self._exited(transport, request)
        if received.kind == "too-long":
            raise self._fail(MalformedResponse(
                f"the answer line is longer than the limit of {self.max_line_bytes} bytes;"
                f" it starts {quote(received.data[:60])}...",
                line=received.data, **self._context(request),
            ))
        self._answered = True
        self._after_answer(transport, request, f"with its answer to {cmd}")
        body = self._decode(received.data, request)
        self._check_id(body, number, request, cmd)
        return body

    def _decode(self, data: bytes, request: str) -> Any:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise self._fail(MalformedResponse(
                f"the answer is not UTF-8 (byte {error.start}: {error.reason}): {quote(data)}",
                line=data, **self._context(request),
            )) from None
        if not text.strip():
            problem = "the answer is an empty line"
        else:
            try:
                return json.loads(text, parse_constant=_reject_constant)
            except (ValueError, RecursionError) as error:
                problem = f"the answer is not JSON ({error}): {quote(data)}"
        raise self._fail(MalformedResponse(problem, line=data, **self._context(request)))

    def _invalid(self, problem: str, body: Any, request: str) -> InvalidResponse:
        error = InvalidResponse(problem, response=body, **self._context(request))
        self._last_error = error
        return error

    def send(self, request: Request, *, on_purpose: bool = False) -> Response:
        """Send one request and return the adapter's answer, checked against the schema.

        Raises :class:`~scorpion_conformance.errors.RequestError` (the caller's
        mistake, not the adapter's) for a request the protocol does not allow,
        unless it is sent ``on_purpose`` to see how the adapter treats bad input,
        and an :class:`AdapterError` for every fault; an error answer is returned.
        """
        obj = request.to_json()
        problem = None if on_purpose else protocol.validate_request(obj)
        if problem is not None:
            raise RequestError(f"the request {quote(json.dumps(obj), 200)} is not well formed: {problem}")
        if self.info is None and request.cmd != "hello":
            self.hello()
        body = self._exchange(obj, request.cmd)
        text = self._history[-1][1]
        problem = protocol.validate_response(request.cmd, body)
        if problem is not None:
            raise self._invalid(f"the answer to {request.cmd} is not well formed: {problem}", body, text)
        response = Response(request.cmd, body)
        if response.ok and request.cmd == "start":
            self._restarts_in_a_row = 0
        if response.state is not None:
            self._last_state = response.state
        return response

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
        transport = self._transport()
        text = data.decode("utf-8", "replace")
        waiting = transport.waiting()
        if waiting or self._ended:
            raise self._extra(waiting, text, "before this request")
        try:
            transport.send(data + b"\n", self.timeout)
        except TransportClosed:
            raise self._exited(transport, text) from None
        except TransportTimeout as error:
            raise self._fail(AdapterTimeout(f"{error}; it was stopped", timeout=self.timeout,
                                            **self._context(text, wait=True))) from None
        self._history.append((-1, text))
        received = transport.receive(self.timeout)
        if received is None:
            transport.close()
            raise self._fail(AdapterTimeout(f"no answer within {self.timeout:g} s; the adapter was stopped",
                                            timeout=self.timeout, **self._context(text, wait=True)))
        if received.kind == "eof":
            raise self._exited(transport, text)
        if received.kind == "too-long":
            raise self._fail(MalformedResponse("the answer line is too long", line=received.data,
                                               **self._context(text)))
        self._answered = True
        self._after_answer(transport, text, "with its answer")
        body = self._decode(received.data, text)
        problem = protocol.check("response", body)
        if problem is not None:
            raise self._invalid(f"the answer is not a response: {problem}", body, text)
        return body

    # -- the commands --------------------------------------------------------

    def hello(self) -> HelloInfo:
        """The handshake: what the adapter is and offers.

        Raises :class:`ProtocolVersionError` when it speaks another version,
        :class:`AdapterStartError` when it cannot start or refuses.
        """
        request = Hello()
        body = self._exchange(request.to_json(), "hello", self.startup_timeout)
        text = self._history[-1][1]
        if isinstance(body, dict) and body.get("ok") is False:
            error = body.get("error")
            if not isinstance(error, dict):
                error = {}
            code, message = error.get("code"), error.get("message", "")
            if code == "unsupported":
                raise self._fail(ProtocolVersionError(
                    f"the adapter does not speak protocol version {protocol.PROTOCOL_VERSION}: {message}",
                    got=None, expected=protocol.PROTOCOL_VERSION, **self._context(text, wait=True),
                ))
            raise self._fail(AdapterStartError(
                f"the adapter refused the handshake with {code!r}: {message}", **self._context(text)
            ))
        if isinstance(body, dict) and "protocol" in body:
            version = protocol.version_problem(body["protocol"])
            if version is not None:
                raise self._fail(ProtocolVersionError(
                    version, got=body["protocol"], expected=protocol.PROTOCOL_VERSION,
                    **self._context(text),
                ))
        problem = protocol.validate_response("hello", body)
        if problem is not None:
            raise self._invalid(f"the answer to hello is not well formed: {problem}", body, text)
        try:
            info = HelloInfo.from_json(body)
        except ValueError as error:
            raise self._invalid(f"the answer to hello is not well formed: {error}", body, text) from None
        self.info = info
        return info

    def _expect_ok(self, request: Request) -> Response:
        response = self.send(request)
        if not response.ok:
            raise ErrorAnswer(response, adapter=self.command, request=self._history[-1][1])
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

    def check_in_step(self) -> None:
        """One more round trip, to prove the conversation is still in step.

        An extra answer written after the last one is read here instead of the
        answer to this ``state`` request, so it is caught now and not blamed on
        the next scenario; where the adapter does not echo ids, its state must
        also still be the last one it gave. Raises :class:`OutOfStep`.
        """
        if self._status != "running" or self.info is None:
            return
        before = self._last_state
        response = self.send(State())
        if before is not None and response.ok and response.state != before:
            raise self._fail(OutOfStep(
                "asked for the state with no action since its last answer, the adapter gave another"
                " state: its answers are out of step with the requests",
                **self._context(self._history[-1][1]),
            ))

    def quit(self) -> int:
        """Say goodbye; returns the adapter's exit status, which must be 0.

        Raises :class:`AdapterTimeout` if it does not exit, :class:`AdapterCrashed`
        if it exits with another status.
        """
        if self._status == "new":
            self._status = "closed"
            return 0
        transport = self._transport()
        response = self.send(Quit())
        text = self._history[-1][1]
        if not response.ok:
            raise ErrorAnswer(response, adapter=self.command, request=text)
        code = transport.exit_status(self.timeout)
        context = self._context(text, wait=code is not None)
        leftover = [item for item in transport.waiting() if item.kind != "eof"]
        transport.close()
        self._holder.clear()
        self._status = "closed"
        error: AdapterError | None = None
        if leftover:
            error = OutOfStep(f"after its answer to quit, the adapter wrote {quote(leftover[0].data)}",
                              line=leftover[0].data, **context)
        elif code is None:
            error = AdapterTimeout(
                f"the adapter answered quit but did not exit within {self.timeout:g} s; it was stopped",
                timeout=self.timeout, **context,
            )
        elif code != 0:
            error = AdapterCrashed(
                f"after quit the adapter {describe_exit(code)}; it should exit with status 0",
                exit_code=code, **context,
            )
        if error is not None:
            self._last_error = error
            raise error
        return code or 0

    def close(self) -> None:
        """Quit politely if the adapter is running, and make sure it is gone (whole tree)."""
        if self._status == "running":
            with contextlib.suppress(AdapterError, ErrorAnswer):
                self.quit()
        _close_all(self._holder)
        self._status = "closed"

    def kill(self) -> None:
        """End the adapter at once, without a word (on an interrupt)."""
        _close_all(self._holder)
        self._status = "closed"

    def restart(self) -> HelloInfo:
        """Stop the adapter, start a fresh one and redo the handshake.

        Raises :class:`TooManyRestarts` once ``max_restarts`` restarts happened
        in a row without a game starting, and whatever the handshake raises.
        """
        self._restarts_in_a_row += 1
        if self._restarts_in_a_row > self.max_restarts:
            last = self._last_error
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
        _close_all(self._holder)
        self._status = "new"
        self.info = None
        return self.hello()
