"""Carrying protocol lines to an adapter and back: a process, or a session in this process.

A :class:`Transport` moves whole lines and knows nothing of what they mean:
:mod:`scorpion_conformance.client` holds the conversation. Two transports:

* :class:`ProcessTransport` runs an adapter command as a child process, under
  :mod:`scorpion_conformance.guardian` on Linux so that its whole process tree
  ends with it (even descendants that left its process group, even when the
  harness itself is killed). Two reader threads drain its stdout (cut into
  lines of at most ``max_line_bytes``) and its stderr (only a bounded tail is
  kept, so an adapter that floods stderr costs no memory).
* :class:`InProcessTransport` hands each line to the reference adapter's
  :class:`~scorpion_ref.adapter.Session` in this process: the same bytes, the
  same answers, without a pipe (fast checks of scenarios, benchmarks).

Lines read from the adapter arrive as :class:`Received` values: a ``line``,
a line that was ``too-long``, or the ``eof`` of its output. All the lines of
one chunk read from the pipe are handed over together, so an adapter that
writes two answers at once is seen writing two answers, whatever the timing.

>>> transport = InProcessTransport()
>>> transport.open()
>>> transport.send(b'{"cmd":"hello","protocol":1}\\n', timeout=1)
>>> transport.receive(timeout=1).data[:24]
b'{"ok":true,"protocol":1,'
>>> transport.waiting()
[]
"""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

__all__ = [
    "InProcessTransport",
    "ProcessTransport",
    "Received",
    "Transport",
    "TransportClosed",
    "TransportTimeout",
    "split_command",
]

#: The longest output line accepted; a longer one arrives as ``too-long``.
MAX_LINE_BYTES = 1 << 20

#: Requests up to this size are written directly (they fit in any pipe buffer);
#: longer ones by a helper thread, so that an adapter that stops reading is
#: caught by the timeout.
_DIRECT_WRITE_LIMIT = 16 * 1024

#: How many characters of one stderr line are kept.
_STDERR_LINE_LIMIT = 2000

#: How long to wait for a dying adapter's exit status and last stderr lines.
GRACE = 1.0

_POSIX = os.name == "posix"
_GUARDED = sys.platform.startswith("linux")
_GUARDIAN = str(Path(__file__).with_name("guardian.py"))


class TransportClosed(Exception):
    """The adapter no longer reads its input (it exited, or closed stdin)."""


class TransportTimeout(Exception):
    """The adapter did not take a request within the time allowed."""


@dataclass(frozen=True, slots=True)
class Received:
    """One thing read from the adapter's output."""

    kind: Literal["line", "too-long", "eof"]
    data: bytes = b""


class Transport(Protocol):
    """What the client needs of a way to reach an adapter."""

    #: How the adapter is named in messages (its command line).
    name: str

    def open(self) -> None:
        """Start the adapter; raises :class:`OSError` when it cannot be started."""

    def send(self, line: bytes, timeout: float) -> None:
        """Write one line; raises :class:`TransportClosed` or :class:`TransportTimeout`."""

    def receive(self, timeout: float) -> Received | None:
        """The next thing read from the adapter, or None if nothing came in time."""

    def waiting(self) -> list[Received]:
        """Whatever has arrived and not been taken yet (taken now)."""

    def unfinished(self) -> tuple[bytes, int]:
        """The start of an output line not yet ended, and its length so far."""

    def stderr_tail(self, *, wait: bool = False) -> str:
        """The last lines written to stderr (``wait``: after the adapter has ended)."""

    def exit_status(self, timeout: float) -> int | None:
        """The adapter's exit status, waiting up to ``timeout`` s; None while it runs."""

    def close_input(self) -> None:
        """Close the adapter's standard input (it should then answer what it has and exit)."""

    @property
    def pid(self) -> int | None:
        """The process id, where there is a process."""

    def close(self) -> None:
        """End the adapter and everything it started, and reap it."""


def split_command(command: str | Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """A command line as text (for messages) and as an argument list.

    Raises :class:`ValueError` for an empty command or unbalanced quotes.

    >>> split_command("node 'my adapter.js' --fast")
    ("node 'my adapter.js' --fast", ('node', 'my adapter.js', '--fast'))
    """
    if isinstance(command, str):
        try:
            argv = tuple(shlex.split(command))
        except ValueError as error:
            raise ValueError(f"the adapter command {command!r} cannot be read: {error}") from None
        text = command
    else:
        argv = tuple(str(part) for part in command)
        text = shlex.join(argv)
    if not argv:
        raise ValueError("the adapter command is empty")
    return text, argv


class _Inbox:
    """Lines read from the adapter, handed over a whole chunk at a time."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._items: deque[Received] = deque()

    def put(self, items: Sequence[Received]) -> None:
        if items:
            with self._ready:
                self._items.extend(items)
                self._ready.notify_all()

    def take(self, timeout: float) -> Received | None:
        with self._ready:
            if not self._ready.wait_for(lambda: self._items, timeout):
                return None
            return self._items.popleft()

    def take_all(self) -> list[Received]:
        with self._ready:
            items = list(self._items)
            self._items.clear()
            return items


class _StderrTail:
    """The last lines of a stream, each cut to a bounded length: memory stays flat."""

    def __init__(self, lines: int) -> None:
        self.limit = max(lines, 1)
        self._lines: deque[str] = deque(maxlen=self.limit)
        self._partial = bytearray()
        self._lock = threading.Lock()

    def feed(self, chunk: bytes) -> None:
        with self._lock:
            *complete, rest = chunk.split(b"\n")
            if complete:
                self._partial += complete[0][: _STDERR_LINE_LIMIT + 1]
                complete[0] = bytes(self._partial)
                self._partial.clear()
                for line in complete[-self.limit :]:
                    self._keep(line)
            self._partial += rest[: _STDERR_LINE_LIMIT + 1]
            del self._partial[_STDERR_LINE_LIMIT + 1 :]

    def finish(self) -> None:
        with self._lock:
            if self._partial:
                self._keep(bytes(self._partial))
                self._partial.clear()

    def _keep(self, line: bytes) -> None:
        text = line[: _STDERR_LINE_LIMIT + 1].decode("utf-8", "replace").rstrip("\r")
        if len(text) > _STDERR_LINE_LIMIT:
            text = text[:_STDERR_LINE_LIMIT] + "..."
        self._lines.append(text)

    def text(self) -> str:
        with self._lock:
            lines = list(self._lines)
            if self._partial:
                lines.append(self._partial.decode("utf-8", "replace"))
        return "\n".join(lines[-self.limit :])


def _find(argv0: str, cwd: str | None, env: Mapping[str, str] | None) -> None:
    """Raise :class:`FileNotFoundError` for a program that is not there to run."""
    if os.sep in argv0 or (os.altsep and os.altsep in argv0):
        path = Path(cwd or ".") / argv0
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", argv0)
        if not os.access(path, os.X_OK) or path.is_dir():
            raise PermissionError(13, "Permission denied", argv0)
        return
    search = (env or os.environ).get("PATH", os.defpath)
    if shutil.which(argv0, path=search) is None:
        raise FileNotFoundError(2, "No such file or directory", argv0)


class ProcessTransport:
    """An adapter command run as a child process (under the guardian on Linux)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        max_line_bytes: int = MAX_LINE_BYTES,
        stderr_tail_lines: int = 40,
    ) -> None:
        self.name, self.argv = split_command(command)
        self.cwd, self.env = cwd, env
        self.max_line_bytes = max_line_bytes
        self._inbox = _Inbox()
        self._tail = _StderrTail(stderr_tail_lines)
        self._partial = b""
        self._partial_length = 0
        self._popen: subprocess.Popen[bytes] | None = None
        self._lifeline: int | None = None
        self._threads: list[threading.Thread] = []
        self._stderr_lock = threading.RLock()
        self._stderr_fd: int | None = None

    def __repr__(self) -> str:
        return f"ProcessTransport({self.name!r})"

    @property
    def pid(self) -> int | None:
        return self._popen.pid if self._popen is not None else None

    def open(self) -> None:
        _find(self.argv[0], self.cwd, self.env)
        argv: list[str] = list(self.argv)
        pass_fds: tuple[int, ...] = ()
        if _GUARDED:
            read_end, self._lifeline = os.pipe()
            argv = [sys.executable, _GUARDIAN, str(read_end), "--", *argv]
            pass_fds = (read_end,)
        try:
            self._popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=self.cwd,
                env=dict(self.env) if self.env is not None else None,
                pass_fds=pass_fds,
                # Its own session: a Ctrl-C at the terminal reaches the harness,
                # which ends the adapter, and not the adapter behind its back.
                start_new_session=_POSIX,
            )
        except OSError:
            self._close_lifeline()
            raise
        finally:
            if pass_fds:
                os.close(pass_fds[0])
        assert self._popen.stderr is not None
        self._stderr_fd = self._popen.stderr.fileno()
        for target, stream in ((self._read_stdout, "stdout"), (self._read_stderr, "stderr")):
            thread = threading.Thread(
                target=target, name=f"adapter-{stream}-{self._popen.pid}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    # -- the reader threads --------------------------------------------------

    def _read_stdout(self) -> None:
        assert self._popen is not None and self._popen.stdout is not None
        stream = self._popen.stdout
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
                    last = [Received("line", bytes(buffer))] if buffer and not skipping else []
                    self._inbox.put([*last, Received("eof")])
                    return
                found: list[Received] = []
                start = 0
                while True:
                    end = chunk.find(b"\n", start)
                    piece = chunk[start:] if end == -1 else chunk[start:end]
                    if not skipping:
                        buffer += piece
                        if len(buffer) > self.max_line_bytes:
                            found.append(Received("too-long", bytes(buffer[:200])))
                            buffer.clear()
                            skipping = True
                    if end == -1:
                        break
                    if skipping:
                        skipping = False
                    else:
                        found.append(Received("line", bytes(buffer)))
                        buffer.clear()
                    start = end + 1
                self._partial, self._partial_length = bytes(buffer[:200]), len(buffer)
                self._inbox.put(found)
        finally:
            stream.close()

    def _read_stderr(self) -> None:
        assert self._popen is not None and self._popen.stderr is not None
        stream = self._popen.stderr
        fd = stream.fileno()
        os.set_blocking(fd, False)
        try:
            while True:
                select.select([fd], [], [])
                if not self._drain_stderr(fd):
                    self._tail.finish()
                    return
        finally:
            with self._stderr_lock:
                self._stderr_fd = None
                stream.close()

    def _drain_stderr(self, fd: int, limit: int | None = None) -> bool:
        """Take in what stderr holds right now (up to ``limit`` bytes); False at its end."""
        with self._stderr_lock:
            taken = 0
            while limit is None or taken < limit:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                if not chunk:
                    return False
                self._tail.feed(chunk)
                taken += len(chunk)
            return True

    # -- what the client asks ------------------------------------------------

    def send(self, line: bytes, timeout: float) -> None:
        if self._popen is None or self._popen.stdin is None:
            raise TransportClosed("the adapter is not running")
        fd = self._popen.stdin.fileno()
        if len(line) <= _DIRECT_WRITE_LIMIT:
            try:
                _write_all(fd, line)
            except OSError:
                raise TransportClosed("the adapter closed its input") from None
            return
        failed: list[OSError] = []

        def write() -> None:
            try:
                _write_all(fd, line)
            except OSError as error:
                failed.append(error)

        writer = threading.Thread(target=write, name="adapter-stdin", daemon=True)
        writer.start()
        writer.join(timeout)
        if writer.is_alive():
            raise TransportTimeout(f"the adapter did not read the request within {timeout:g} s")
        if failed:
            raise TransportClosed("the adapter closed its input")

    def receive(self, timeout: float) -> Received | None:
        return self._inbox.take(timeout)

    def waiting(self) -> list[Received]:
        return self._inbox.take_all()

    def unfinished(self) -> tuple[bytes, int]:
        return self._partial, self._partial_length

    def stderr_tail(self, *, wait: bool = False) -> str:
        """The tail holds everything written to stderr before this call (``wait``:
        until the adapter's stderr ends, at most :data:`GRACE` s)."""
        if wait and len(self._threads) == 2:
            self._threads[1].join(GRACE)
        with self._stderr_lock:
            if self._stderr_fd is not None:
                # Bounded: an adapter that floods stderr cannot keep this call busy.
                self._drain_stderr(self._stderr_fd, limit=1 << 22)
        return self._tail.text()

    def exit_status(self, timeout: float) -> int | None:
        if self._popen is None:
            return None
        try:
            return self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def close_input(self) -> None:
        if self._popen is not None and self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()

    def close(self) -> None:
        popen = self._popen
        if popen is None:
            return
        if popen.poll() is None and _GUARDED:
            # The guardian ends the whole tree, then itself.
            with contextlib.suppress(ProcessLookupError):
                popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(5)
        if _POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(popen.pid, signal.SIGKILL)
        if popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                popen.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(5)
        self._close_lifeline()
        if popen.stdin is not None:
            with contextlib.suppress(OSError):
                popen.stdin.close()

    def _close_lifeline(self) -> None:
        if self._lifeline is not None:
            with contextlib.suppress(OSError):
                os.close(self._lifeline)
            self._lifeline = None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class InProcessTransport:
    """The reference adapter's session, called in this process.

    ``rulesets`` (name → :class:`~scorpion_ref.RuleSet`) replaces the rule sets
    it offers, as ``--all-bundles`` does for the process.
    """

    pid = None

    def __init__(self, rulesets: Mapping[str, Any] | None = None, name: str = "scorpion-ref (in process)"):
        self.name = name
        self._rulesets = dict(rulesets) if rulesets is not None else None
        self._session: Any = None
        self._answers: deque[Received] = deque()
        self._status: int | None = None

    def open(self) -> None:
        from scorpion_ref.adapter import Session, encode_answer

        self._session = Session(self._rulesets)
        self._encode = encode_answer
        self._answers.clear()
        self._status = None

    def send(self, line: bytes, timeout: float) -> None:
        if self._session is None or self._status is not None:
            raise TransportClosed("the in-process adapter has ended")
        answer, status = self._session.respond(line.rstrip(b"\n"))
        self._answers.append(Received("line", self._encode(answer).rstrip(b"\n")))
        if status is not None:
            self._status = status
            self._answers.append(Received("eof"))

    def receive(self, timeout: float) -> Received | None:
        return self._answers.popleft() if self._answers else None

    def waiting(self) -> list[Received]:
        items = list(self._answers)
        self._answers.clear()
        return items

    def unfinished(self) -> tuple[bytes, int]:
        return b"", 0

    def stderr_tail(self, *, wait: bool = False) -> str:
        return ""

    def exit_status(self, timeout: float) -> int | None:
        return self._status

    def close_input(self) -> None:
        if self._status is None:
            self._status = 0
            self._answers.append(Received("eof"))

    def close(self) -> None:
        self._session = None
        if self._status is None:
            self._status = 0
