"""One line out, one line back, in step: the connection the client holds.

A :class:`Connection` owns the transport's life (opened on the first request,
stopped after a fault that leaves the conversation out of step, its
:class:`Lifecycle` an enum) and the exchange of one request for one answer,
:meth:`Connection.request`, the one way to talk through it. It gives every
request an ``id``, and refuses every line the adapter writes that nobody
asked for:

* a line that arrived with an answer, or before the next request;
* an answer that carries the id of another request, or none from an adapter
  that echoed ids before;
* an answer that does not fit its request but is the very line of the answer
  before (an adapter that echoes no ids and answered twice).

Each is :class:`~scorpion_conformance.errors.OutOfStep`, a fault of the
adapter. :class:`~scorpion_conformance.client.AdapterClient` builds the
commands on ``request``, and tells what it finds wrong through
:meth:`Connection.fault` and :meth:`Connection.unfit`.
"""

from __future__ import annotations

import enum
import json
import weakref
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorpion_shared.vocabulary import MAX_LINE_BYTES

from . import json_input, protocol
from .errors import (
    AdapterCrashed,
    AdapterError,
    AdapterNotRunning,
    AdapterStartError,
    AdapterTimeout,
    InvalidResponse,
    MalformedResponse,
    OutOfStep,
    describe_exit,
    quit_fault,
    quote,
)
from .process import ProcessTransport
from .transport import GRACE, Received, Transport, TransportClosed, TransportTimeout, split_command

__all__ = ["DEFAULT_TIMEOUT", "STARTUP_TIMEOUT", "Connection", "JsonObject", "Lifecycle"]

#: Seconds to wait for each answer unless told otherwise.
DEFAULT_TIMEOUT = 5.0
#: The least time the first answer may take (see ``Connection.startup_timeout``).
STARTUP_TIMEOUT = 15.0

#: A JSON object of the protocol (a position, a state, an action).
JsonObject = dict[str, Any]

#: How many requests are remembered, to say which one an extra answer belongs to.
_HISTORY = 16


def _close_all(holder: list[Transport]) -> None:
    for transport in holder:
        transport.close()
    holder.clear()


class Lifecycle(enum.Enum):
    """Where a connection stands: nothing started yet (the first request starts the adapter),
    running and in step, broken by a fault (until :meth:`Connection.reopen`), or closed."""

    NEW = "new"
    RUNNING = "running"
    BROKEN = "broken"
    CLOSED = "closed"


class Connection:
    """The line exchange with one adapter, and the life of its transport.

    ``adapter`` is a command line (split as a shell would, without running a
    shell), an argument list, or a function that makes a fresh
    :class:`~scorpion_conformance.transport.Transport` for each (re)start.
    Nothing starts until the first request. Raises :class:`ValueError` for an
    empty command or unbalanced quotes.
    """

    def __init__(
        self,
        adapter: str | Sequence[str] | Callable[[], Transport],
        timeout: float = DEFAULT_TIMEOUT,
        stderr_tail_lines: int = 40,
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
            self.command = split_command(adapter)[0]
            self._make = lambda: ProcessTransport(adapter, cwd=cwd, env=env, max_line_bytes=max_line_bytes,
                                                  stderr_tail_lines=stderr_tail_lines)
        self.timeout = float(timeout)
        #: How long the first answer (to hello) may take: starting an interpreter or a
        #: JIT on a loaded machine is slower than answering a request.
        self.startup_timeout = (
            max(self.timeout, STARTUP_TIMEOUT) if startup_timeout is None else float(startup_timeout)
        )
        self.max_line_bytes = max_line_bytes
        #: Whether the adapter echoes request ids (known after its first answer).
        self.echoes_ids: bool | None = None
        self._holder: list[Transport] = []
        #: Where the connection stands.
        self.state = Lifecycle.NEW
        #: The last fault, for the message of whoever gives up on the adapter.
        self.last_error: AdapterError | None = None
        self._next_id = 0
        self._history: deque[tuple[int, str]] = deque(maxlen=_HISTORY)
        self._fresh_conversation()
        self._finalizer = weakref.finalize(self, _close_all, self._holder)

    def _fresh_conversation(self) -> None:
        self._answered = False  # has this process answered anything yet?
        self._ended = False  # did its output end right after an answer?
        self.echoes_ids = None
        self._latest: bytes | None = None
        self._previous: tuple[bytes | None, bytes] = (None, b"")

    def fresh_transport(self) -> Transport:
        """A new, unopened transport to the same adapter (for a conversation of one's own)."""
        return self._make()

    # -- the transport -------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether an adapter is up and the conversation is in step."""
        return self.state is Lifecycle.RUNNING

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
            self.state = Lifecycle.BROKEN
            reason = error.strerror or str(error)
            hint = " (is it installed, and on PATH?)" if isinstance(error, FileNotFoundError) else ""
            program = split_command(self.command)[1][0]
            failure = AdapterStartError(f"cannot run {program!r}: {reason}{hint}", adapter=self.command)
            self.last_error = failure
            raise failure from None
        self._holder[:] = [transport]
        self.state = Lifecycle.RUNNING
        self._fresh_conversation()
        return transport

    def _transport(self) -> Transport:
        if self.state is Lifecycle.NEW:
            return self._open()
        if self.state is Lifecycle.RUNNING:
            return self._holder[0]
        if self.state is Lifecycle.CLOSED:
            raise AdapterNotRunning("the adapter was closed", adapter=self.command)
        last = f": {self.last_error.problem}" if self.last_error else ""
        raise AdapterNotRunning(
            f"the adapter failed earlier{last}; call restart() first", adapter=self.command
        )

    def _fail(self, error: AdapterError) -> AdapterError:
        """Stop the adapter after a fault that leaves the conversation out of step."""
        for transport in self._holder:
            transport.close()
        self.state = Lifecycle.BROKEN
        self.last_error = error
        return error

    def _exited(self, transport: Transport, request: str) -> AdapterError:
        """The fault of an adapter whose output ended: it exited, or closed its stdout."""
        code = transport.exit_status(GRACE)
        if code is None:
            # Alive with its output closed: end it now, so its stderr ends too.
            transport.close()
            what = "closed its standard output without exiting (it was stopped)"
        else:
            what = describe_exit(code)
        context = self._context(request, wait=True)
        if not self._answered:
            error: AdapterError = AdapterStartError(
                f"the adapter {what} before answering its first request", exit_code=code, **context,
            )
        else:
            error = AdapterCrashed(f"the adapter {what} instead of answering", exit_code=code, **context)
        return self._fail(error)

    def reopen(self) -> None:
        """End the adapter, if one runs; the next request starts a fresh one."""
        _close_all(self._holder)
        self.state = Lifecycle.NEW

    # -- faults the client finds in an answer -----------------------------------

    def fault(self, kind: type[AdapterError], problem: str, *, wait: bool = False,
              **fields: Any) -> AdapterError:
        """An error of ``kind`` about the last request, with the adapter stopped (its tail of
        stderr waited for with ``wait``): for a fault that leaves the conversation unusable."""
        return self._fail(kind(problem, **fields, **self._context(self.last_request, wait=wait)))

    def unfit(self, cmd: str, problem: str, body: Any) -> AdapterError:
        """The error for an answer that does not fit its request: out of step (the adapter
        stopped) when it is the last answer again, else :class:`InvalidResponse`, the
        conversation still in step."""
        self._twice(cmd, self.last_request)
        self.last_error = InvalidResponse(problem, response=body, **self._context(self.last_request))
        return self.last_error

    def wait_for_exit(self) -> int:
        """After the answer to ``quit``: the exit status, which must be 0 (the adapter gone).
        Raises the :func:`~scorpion_conformance.errors.quit_fault` of an adapter that did not leave well."""
        transport = self._transport()
        code = transport.exit_status(self.timeout)
        context = self._context(self.last_request, wait=code is not None)
        leftover = next((item.data for item in transport.waiting() if item.kind != "eof"), None)
        transport.close()
        self._holder.clear()
        self.state = Lifecycle.CLOSED
        error = quit_fault(leftover, code, self.timeout, context)
        if error is not None:
            self.last_error = error
            raise error
        return code or 0

    def close(self) -> None:
        """End the adapter at once, whole tree, without a word (the goodbye is the client's ``quit``)."""
        _close_all(self._holder)
        self.state = Lifecycle.CLOSED

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

    def _check_id(self, body: Any, number: int | None, request: str, cmd: str) -> None:
        if number is None:
            return  # a raw line carries no id
        echoed = body.get("id") if isinstance(body, dict) else None
        if self.echoes_ids is None:
            self.echoes_ids = echoed == number
        if (echoed is None and not self.echoes_ids) or echoed == number:
            return
        if echoed is None:
            problem = (f"the answer to {cmd} carries no id, though the adapter echoed the ids of"
                       " earlier requests; its answers may be out of step")
        else:
            problem = (f"the answer to {cmd} (request id {number}) carries the id {echoed!r}"
                       f"{self._which(json.dumps({'id': echoed}).encode())}: the adapter answered"
                       " another request than the one asked, so its answers are out of step")
        raise self._fail(OutOfStep(problem, **self._context(request)))

    def _twice(self, cmd: str, request: str) -> None:
        """Call after an answer that does not fit ``cmd``: is it the last answer again?"""
        earlier, line = self._previous
        if earlier is not None and line == earlier:
            raise self._fail(OutOfStep(
                f"the answer to {cmd} is the same line as the answer to the request before"
                f" ({quote(line, 120)}): the adapter answered that request twice",
                line=line, **self._context(request),
            ))

    # -- one exchange --------------------------------------------------------

    def request(self, obj: JsonObject | bytes, cmd: str | None = None, timeout: float | None = None) -> Any:
        """Send one request (an object, given the next id; or a raw line, sent as it is) and
        return the decoded answer, in step but not yet checked against the schema. ``cmd`` names
        it in messages; ``timeout`` replaces the connection's own for this answer. Raises an
        :class:`AdapterError` for every fault of the exchange."""
        cmd = cmd or (str(obj.get("cmd")) if isinstance(obj, dict) else "a raw line")
        timeout = self.timeout if timeout is None else timeout
        transport = self._transport()
        number: int | None = None
        if isinstance(obj, bytes):
            line = obj + b"\n"
        else:
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
        self._history.append((-1 if number is None else number, request))
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
        body = self._decode(received.data, request)
        # The id first: a stray copy of an earlier answer, read in place of this one, is named
        # as what it is, not taken for this answer with this answer blamed as the extra line.
        self._check_id(body, number, request, cmd)
        self._after_answer(transport, request, f"with its answer to {cmd}")
        self._previous = (self._latest, received.data)
        self._latest = received.data
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
                return json_input.parse(text, "the answer")
            except json_input.InputError as error:
                problem = f"{str(error).replace('the answer: ', 'the answer is ', 1)}: {quote(data)}"
        raise self._fail(MalformedResponse(problem, line=data, **self._context(request)))

    @property
    def last_request(self) -> str:
        """The last request line sent (for messages)."""
        return self._history[-1][1] if self._history else ""
