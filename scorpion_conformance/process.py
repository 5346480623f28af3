"""An adapter command run as a child process: the transport of every real run.

:class:`ProcessTransport` starts the command under
:mod:`scorpion_conformance.guardian` on Linux, so that its whole process tree
ends with it (even descendants that left its process group, even when the
harness itself is killed), in a session of its own (a Ctrl-C at the terminal
reaches the harness, which ends the adapter). Two reader threads drain its
stdout, cut into lines of at most ``max_line_bytes`` and handed over a whole
chunk at a time, and its stderr, of which only a bounded tail is kept.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path

from scorpion_shared.vocabulary import MAX_LINE_BYTES

from .transport import GRACE, Received, TransportClosed, TransportTimeout, split_command

__all__ = ["ProcessTransport"]

#: Requests up to this size are written directly (they fit in any pipe buffer);
#: longer ones by a helper thread, so that an adapter that stops reading is
#: caught by the timeout.
_DIRECT_WRITE_LIMIT = 16 * 1024

#: How many characters of one stderr line are kept.
_STDERR_LINE_LIMIT = 2000

_POSIX = os.name == "posix"
_GUARDED = sys.platform.startswith("linux")
_GUARDIAN = str(Path(__file__).with_name("guardian.py"))


class _Inbox:
    """Lines read from the adapter, handed over a whole chunk at a time.

    The reader thread puts each chunk's lines into the queue as *one* item, so
    when the client holds an answer, every line that came in the same read is
    already here to be seen. Only the client's thread takes.
    """

    def __init__(self) -> None:
        self._chunks: queue.SimpleQueue[Sequence[Received]] = queue.SimpleQueue()
        self._taken: deque[Received] = deque()

    def put(self, items: Sequence[Received]) -> None:
        if items:
            self._chunks.put(items)

    def take(self, timeout: float) -> Received | None:
        if not self._taken:
            try:
                self._taken.extend(self._chunks.get(timeout=timeout))
            except queue.Empty:
                return None
        return self._taken.popleft()

    def take_all(self) -> list[Received]:
        while True:
            try:
                self._taken.extend(self._chunks.get_nowait())
            except queue.Empty:
                break
        items = list(self._taken)
        self._taken.clear()
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
