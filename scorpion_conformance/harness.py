"""The harness side of the adapter protocol: start an adapter, talk to it, survive it.

:class:`AdapterClient` runs an adapter command as a child process and speaks
the JSON Lines protocol with it. Two reader threads drain the adapter's stdout
(cut into lines, each at most ``max_line_bytes``) and stderr (its last lines
are kept for error messages), so a silent adapter is caught by the timeout and
a chatty stderr never blocks it. Every answer is checked against the
protocol's JSON Schema; every fault raises an
:class:`~scorpion_conformance.errors.AdapterError` that names the adapter
command, the request, what was wrong and the tail of stderr.

A refusal such as ``illegal-action`` is a normal answer: :meth:`AdapterClient.play`
returns it as a :class:`~scorpion_conformance.protocol.Response`.

After a timeout, a crash or a malformed line the adapter is stopped and the
client refuses further requests until :meth:`AdapterClient.restart`. After an
answer of the wrong shape (:class:`~scorpion_conformance.errors.InvalidResponse`)
the conversation is still in step, and the adapter keeps running.

Typical use::

    with AdapterClient("python -m scorpion_ref.adapter", timeout=2) as client:
        info = client.hello()
        state = client.start("standard", position)
        for action in client.legal():
            ...
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
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
    ProtocolVersionError,
    TooManyRestarts,
    describe_exit,
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
    Start,
    State,
    Undo,
)

__all__ = ["DEFAULT_TIMEOUT", "MAX_LINE_BYTES", "AdapterClient"]

#: Seconds to wait for each answer unless told otherwise.
DEFAULT_TIMEOUT = 5.0
#: The least time the first answer may take (see ``AdapterClient.startup_timeout``).
STARTUP_TIMEOUT = 15.0

#: The longest answer line accepted; a longer one is a MalformedResponse.
MAX_LINE_BYTES = 1 << 20

#: Requests up to this size are written directly (they fit in any pipe buffer);
#: longer ones are written by a helper thread so that an adapter that stops
#: reading is caught by the timeout.
_DIRECT_WRITE_LIMIT = 16 * 1024

#: How many characters of one stderr line are kept.
_STDERR_LINE_LIMIT = 2000

#: How long to wait for a dying adapter's exit status and last stderr lines.
_GRACE = 1.0

_LINE, _TOO_LONG, _EOF = "line", "too-long", "eof"

_POSIX = os.name == "posix"


class _Process:
    """One running adapter process and the two threads that read its output."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str] | None,
        max_line_bytes: int,
        stderr_tail_lines: int,
    ) -> None:
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            # Its own process group, so that stopping it also stops whatever it started.
            start_new_session=_POSIX,
        )
        self.max_line_bytes = max_line_bytes
        self.lines: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        #: The start of an output line not yet ended, and how long it is so far.
        self.partial = b""
        self.partial_length = 0
        #: Whether the adapter has answered anything yet.
        self.answered = False
        self._tail_lines = max(stderr_tail_lines, 1)
        self._tail: deque[str] = deque(maxlen=self._tail_lines)
        self._tail_partial = bytearray()
        self._lock = threading.Lock()
        self._stdout_thread = threading.Thread(
            target=self._read_stdout, name=f"adapter-stdout-{self.popen.pid}", daemon=True
        )
        self._stderr_thread = threading.Thread(
            target=self._read_stderr, name=f"adapter-stderr-{self.popen.pid}", daemon=True
        )
        self._stdout_thread.start()
        self._stderr_thread.start()

    # -- the reader threads --------------------------------------------------

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        fd = stream.fileno()
        buffer = bytearray()
        skipping = False  # inside a line already reported as too long
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    if buffer:
                        # The last line lacks its newline: take it as it is.
                        self.lines.put((_LINE, bytes(buffer)))
                    self.lines.put((_EOF, b""))
                    return
                start = 0
                while True:
                    end = chunk.find(b"\n", start)
                    piece = chunk[start:] if end == -1 else chunk[start:end]
                    if not skipping:
                        buffer += piece
                        if len(buffer) > self.max_line_bytes:
                            self.lines.put((_TOO_LONG, bytes(buffer[:200])))
                            buffer.clear()
                            skipping = True
                    if end == -1:
                        break
                    if skipping:
                        skipping = False
                    else:
                        self.lines.put((_LINE, bytes(buffer)))
                        buffer.clear()
                    start = end + 1
                self.partial = bytes(buffer[:200])
                self.partial_length = len(buffer)
        finally:
            stream.close()

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        fd = stream.fileno()
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                with self._lock:
                    if not chunk:
                        if self._tail_partial:
                            self._keep(bytes(self._tail_partial))
                            self._tail_partial.clear()
                        return
                    *complete, rest = chunk.split(b"\n")
                    if complete:
                        self._tail_partial += complete[0]
                        complete[0] = bytes(self._tail_partial)
                        self._tail_partial.clear()
                        for line in complete[-self._tail_lines :]:
                            self._keep(line)
                    self._tail_partial += rest
                    del self._tail_partial[_STDERR_LINE_LIMIT:]
        finally:
            stream.close()

    def _keep(self, line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        if len(text) > _STDERR_LINE_LIMIT:
            text = text[:_STDERR_LINE_LIMIT] + "..."
        self._tail.append(text)

    # -- what the client asks ------------------------------------------------

    def stderr_tail(self, *, wait: bool = False) -> str:
        """The last lines the adapter wrote to stderr (after it ends, if ``wait``)."""
        if wait:
            self._stderr_thread.join(_GRACE)
        with self._lock:
            lines = list(self._tail)
            if self._tail_partial:
                lines.append(self._tail_partial.decode("utf-8", "replace"))
        return "\n".join(lines[-self._tail_lines :])

    def write(self, data: bytes) -> None:
        """Write all of ``data`` to the adapter's stdin; raises OSError when it is gone."""
        stream = self.popen.stdin
        assert stream is not None
        fd = stream.fileno()
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]

    def wait_exit(self, timeout: float) -> int | None:
        """The exit status, waiting up to ``timeout`` seconds; None if still running."""
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Stop the adapter and everything it started; reap it."""
        if _POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(5)
        stdin = self.popen.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()


def _kill_all(holder: list[_Process]) -> None:
    for process in holder:
        process.kill()
    holder.clear()


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class AdapterClient:
    """A conversation with one adapter process (restartable).

    ``cmd`` is a command line (split like a shell would, without running a
    shell) or an argument list. Nothing starts until the first request.

    ``max_restarts`` caps restarts *in a row*: a game that starts successfully
    resets the count, so an adapter that crashes on a few scenarios keeps
    going, while one that never gets a game started ends in
    :class:`~scorpion_conformance.errors.TooManyRestarts`. ``restarts`` counts
    all restarts.
    """

    def __init__(
        self,
        cmd: str | Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        stderr_tail_lines: int = 40,
        max_restarts: int = 3,
        *,
        max_line_bytes: int = MAX_LINE_BYTES,
        startup_timeout: float | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if isinstance(cmd, str):
            argv = shlex.split(cmd)
            command = cmd
        else:
            argv = [str(part) for part in cmd]
            command = shlex.join(argv)
        if not argv:
            raise ValueError("the adapter command is empty")
        self.argv: tuple[str, ...] = tuple(argv)
        self.command = command
        self.timeout = float(timeout)
        #: How long the first answer (to hello) may take: starting an interpreter or a
        #: JIT on a loaded machine is slower than answering a request.
        self.startup_timeout = (
            max(self.timeout, STARTUP_TIMEOUT) if startup_timeout is None else float(startup_timeout)
        )
        self.stderr_tail_lines = stderr_tail_lines
        self.max_restarts = max_restarts
        self.max_line_bytes = max_line_bytes
        self.cwd = cwd
        self.env = env
        #: What the adapter said in answer to hello, once it has.
        self.info: HelloInfo | None = None
        #: How many times the adapter was restarted, in all.
        self.restarts = 0
        self._restarts_in_a_row = 0
        self._holder: list[_Process] = []
        self._status = "new"  # new, running, broken, closed
        self._last_error: AdapterError | None = None
        self._finalizer = weakref.finalize(self, _kill_all, self._holder)

    def __repr__(self) -> str:
        return f"AdapterClient({self.command!r}, timeout={self.timeout:g})"

    def __enter__(self) -> AdapterClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the process ---------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether an adapter process is up and the conversation is in step."""
        return self._status == "running"

    @property
    def pid(self) -> int | None:
        """The adapter's process id while one runs."""
        return self._holder[0].popen.pid if self._holder else None

    def stderr_tail(self) -> str:
        """The last lines the running (or last) adapter process wrote to stderr."""
        return self._holder[0].stderr_tail() if self._holder else ""

    def _context(self, request: str | None, *, wait: bool = False) -> dict[str, Any]:
        process = self._holder[0] if self._holder else None
        tail = process.stderr_tail(wait=wait) if process is not None else ""
        return {"adapter": self.command, "request": request, "stderr_tail": tail}

    def _spawn(self) -> _Process:
        try:
            process = _Process(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                max_line_bytes=self.max_line_bytes,
                stderr_tail_lines=self.stderr_tail_lines,
            )
        except OSError as error:
            self._status = "broken"
            reason = error.strerror or str(error)
            hint = (
                " (is it installed, and on PATH?)" if isinstance(error, FileNotFoundError) else ""
            )
            failure = AdapterStartError(
                f"cannot run {self.argv[0]!r}: {reason}{hint}", adapter=self.command
            )
            self._last_error = failure
            raise failure from None
        self._holder[:] = [process]
        self._status = "running"
        return process

    def _process(self) -> _Process:
        if self._status == "new":
            return self._spawn()
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
        for process in self._holder:
            process.kill()
        self._status = "broken"
        self._last_error = error
        return error

    def _exited(self, process: _Process, request: str) -> AdapterError:
        code = process.wait_exit(_GRACE)
        context = self._context(request, wait=True)
        if not process.answered:
            error: AdapterError = AdapterStartError(
                f"the adapter {describe_exit(code)} before answering its first request",
                exit_code=code,
                **context,
            )
        else:
            error = AdapterCrashed(
                f"the adapter {describe_exit(code)} instead of answering", exit_code=code, **context
            )
        return self._fail(error)

    # -- one exchange --------------------------------------------------------

    def _roundtrip(self, line: bytes, timeout: float | None = None) -> bytes:
        """Send one line, return the answer line (without its newline)."""
        timeout = self.timeout if timeout is None else timeout
        process = self._process()
        request = line.rstrip(b"\n").decode("utf-8", "replace")
        try:
            kind, data = process.lines.get_nowait()
        except queue.Empty:
            pass
        else:
            if kind == _EOF:
                raise self._exited(process, request)
            raise self._fail(
                MalformedResponse(
                    "before this request, the adapter printed a line nobody asked for: "
                    f"{quote(data)}",
                    line=data,
                    **self._context(request),
                )
            )
        self._write(process, line, request)
        try:
            kind, data = process.lines.get(timeout=timeout)
        except queue.Empty:
            problem = f"no answer within {timeout:g} s; the adapter was stopped"
            if process.partial_length:
                problem += (
                    f" (it had printed {process.partial_length} bytes without ending the line:"
                    f" {quote(process.partial, 80)})"
                )
            process.kill()
            raise self._fail(
                AdapterTimeout(problem, timeout=timeout, **self._context(request, wait=True))
            ) from None
        if kind == _EOF:
            raise self._exited(process, request)
        if kind == _TOO_LONG:
            raise self._fail(
                MalformedResponse(
                    f"the answer line is longer than the limit of {self.max_line_bytes} bytes;"
                    f" it starts {quote(data[:60])}...",
                    line=data,
                    **self._context(request),
                )
            )
        process.answered = True
        return data

    def _write(self, process: _Process, line: bytes, request: str) -> None:
        if len(line) <= _DIRECT_WRITE_LIMIT:
            try:
                process.write(line)
            except OSError:
                raise self._exited(process, request) from None
            return
        failed: list[OSError] = []

        def write() -> None:
            try:
                process.write(line)
            except OSError as error:
                failed.append(error)

        writer = threading.Thread(target=write, name="adapter-stdin", daemon=True)
        writer.start()
        writer.join(self.timeout)
        if writer.is_alive():
            process.kill()
            raise self._fail(
                AdapterTimeout(
                    f"the adapter did not read the request within {self.timeout:g} s;"
                    " it was stopped",
                    timeout=self.timeout,
                    **self._context(request, wait=True),
                )
            )
        if failed:
            raise self._exited(process, request)

    def _decode(self, data: bytes, request: str) -> Any:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise self._fail(
                MalformedResponse(
                    f"the answer is not UTF-8 (byte {error.start}: {error.reason}): {quote(data)}",
                    line=data,
                    **self._context(request),
                )
            ) from None
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

    def send(self, request: Request) -> Response:
        """Send one request and return the adapter's answer, checked against the schema.

        Raises an :class:`AdapterError` for every fault; an error answer is returned.
        """
        line = request.to_line()
        text = line.rstrip(b"\n").decode()
        body = self._decode(self._roundtrip(line), text)
        problem = protocol.validate_response(request.cmd, body)
        if problem is not None:
            raise self._invalid(
                f"the answer to {request.cmd} is not well formed: {problem}", body, text
            )
        response = Response(request.cmd, body)
        if response.ok and request.cmd == "start":
            self._restarts_in_a_row = 0
        return response

    def send_raw(self, line: bytes | str) -> Any:
        """Send any one line (even a malformed request) and return the decoded answer.

        The answer must still be a well-formed response (``ok``, and an
        ``error`` when ``ok`` is false). For testing how adapters treat bad input.
        """
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        data = data.removesuffix(b"\n")
        if b"\n" in data:
            raise ValueError("send_raw sends one line: the text holds a newline")
        data += b"\n"
        text = data[:-1].decode("utf-8", "replace")
        body = self._decode(self._roundtrip(data), text)
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
        line = request.to_line()
        text = line.rstrip(b"\n").decode()
        body = self._decode(self._roundtrip(line, self.startup_timeout), text)
        if isinstance(body, dict) and body.get("ok") is False:
            error = body.get("error")
            if not isinstance(error, dict):
                error = {}
            code, message = error.get("code"), error.get("message", "")
            if code == "unsupported":
                raise self._fail(
                    ProtocolVersionError(
                        f"the adapter does not speak protocol version {protocol.PROTOCOL_VERSION}:"
                        f" {message}",
                        got=None,
                        expected=protocol.PROTOCOL_VERSION,
                        **self._context(text, wait=True),
                    )
                )
            raise self._fail(
                AdapterStartError(
                    f"the adapter refused the handshake with {code!r}: {message}",
                    **self._context(text),
                )
            )
        if isinstance(body, dict) and "protocol" in body:
            version = protocol.version_problem(body["protocol"])
            if version is not None:
                raise self._fail(
                    ProtocolVersionError(
                        version,
                        got=body["protocol"],
                        expected=protocol.PROTOCOL_VERSION,
                        **self._context(text),
                    )
                )
        problem = protocol.validate_response("hello", body)
        if problem is not None:
            raise self._invalid(f"the answer to hello is not well formed: {problem}", body, text)
        try:
            info = HelloInfo.from_json(body)
        except ValueError as error:
            raise self._invalid(
                f"the answer to hello is not well formed: {error}", body, text
            ) from None
        self.info = info
        return info

    def _call(self, request: Request) -> Response:
        if self.info is None:
            self.hello()
        return self.send(request)

    def _expect_ok(self, request: Request) -> Response:
        response = self._call(request)
        if not response.ok:
            raise ErrorAnswer(
                response, adapter=self.command, request=request.to_line().decode().rstrip("\n")
            )
        return response

    def start(self, rules: str, position: Mapping[str, Any]) -> dict[str, Any]:
        """Start a game; returns its state. Raises :class:`ErrorAnswer` if refused."""
        state = self._expect_ok(Start(rules, position)).state
        assert state is not None
        return state

    def legal(self) -> list[dict[str, Any]]:
        """Every legal action. Raises :class:`ErrorAnswer` if refused."""
        actions = self._expect_ok(Legal()).actions
        assert actions is not None
        return actions

    def play(self, action: Mapping[str, Any]) -> Response:
        """Play an action; the answer is the new state or a refusal such as ``illegal-action``."""
        return self._call(Play(action))

    def state(self) -> dict[str, Any]:
        """The current state. Raises :class:`ErrorAnswer` if refused."""
        state = self._expect_ok(State()).state
        assert state is not None
        return state

    def undo(self) -> dict[str, Any]:
        """Take back the last action; raises :class:`ErrorAnswer` (``nothing-to-undo``...)."""
        state = self._expect_ok(Undo()).state
        assert state is not None
        return state

    def quit(self) -> int:
        """Say goodbye; returns the adapter's exit status, which must be 0.

        Raises :class:`AdapterTimeout` if it does not exit, :class:`AdapterCrashed`
        if it exits with another status.
        """
        if self._status == "new":
            self._status = "closed"
            return 0
        process = self._process()
        request = Quit()
        text = request.to_line().decode().rstrip("\n")
        response = self.send(request)
        if not response.ok:
            raise ErrorAnswer(response, adapter=self.command, request=text)
        code = process.wait_exit(self.timeout)
        context = self._context(text, wait=code is not None)
        process.kill()
        self._holder.clear()
        self._status = "closed"
        if code is None:
            error: AdapterError = AdapterTimeout(
                f"the adapter answered quit but did not exit within {self.timeout:g} s;"
                " it was stopped",
                timeout=self.timeout,
                **context,
            )
            self._last_error = error
            raise error
        if code != 0:
            error = AdapterCrashed(
                f"after quit the adapter {describe_exit(code)}; it should exit with status 0",
                exit_code=code,
                **context,
            )
            self._last_error = error
            raise error
        return code

    def close(self) -> None:
        """Quit politely if the adapter is running, and make sure it is gone."""
        if self._status == "running":
            with contextlib.suppress(AdapterError, ErrorAnswer):
                self.quit()
        _kill_all(self._holder)
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
        _kill_all(self._holder)
        self._status = "new"
        self.info = None
        return self.hello()
