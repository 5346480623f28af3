"""Carrying protocol lines to an adapter and back: a process, or a session in this process.

A :class:`Transport` moves whole lines and knows nothing of what they mean:
:mod:`scorpion_conformance.client` holds the conversation. Two transports:

* :class:`~scorpion_conformance.process.ProcessTransport` runs an adapter
  command as a child process, its whole process tree on a leash (see
  :mod:`scorpion_conformance.process`);
* :class:`InProcessTransport` hands each line to an adapter's session in this
  process (any object with the front end's ``respond``): the same bytes, the
  same answers, without a pipe. :mod:`scorpion_conformance.reference` gives it
  the reference adapter's session, for fast checks of scenarios and
  benchmarks; this module imports no adapter.

Lines read from the adapter arrive as :class:`Received` values: a ``line``,
a line that was ``too-long``, or the ``eof`` of its output. All the lines of
one chunk read from the pipe are handed over together, so an adapter that
writes two answers at once is seen writing two answers, whatever the timing.

>>> class Echo:
...     def respond(self, line):
...         return {"ok": True, "protocol": 1, "line": len(line)}, None
>>> transport = InProcessTransport(Echo)
>>> transport.open()
>>> transport.send(b'{"cmd":"hello","protocol":1}\\n', timeout=1)
>>> transport.receive(timeout=1).data
b'{"ok":true,"protocol":1,"line":28}'
>>> transport.waiting()
[]
"""

from __future__ import annotations

import shlex
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from scorpion_shared.frontend import encode_answer

__all__ = [
    "InProcessTransport",
    "Received",
    "Responder",
    "Transport",
    "TransportClosed",
    "TransportTimeout",
    "split_command",
]


#: How long to wait for a dying adapter's exit status and last stderr lines. An adapter
#: whose output has ended is almost always exiting; on a loaded machine ending a process
#: can take more than a second, and a shorter wait reported such an adapter as one that
#: closed its output without exiting.
GRACE = 5.0



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


class Responder(Protocol):
    """An adapter's session in this process: one answer (and maybe an exit status) per line."""

    def respond(self, line: bytes) -> tuple[dict[str, Any], int | None]:
        """The answer to one request line, and the exit status when the adapter stops."""


class InProcessTransport:
    """An adapter's session, called in this process; ``session`` makes a fresh one per start."""

    pid = None

    def __init__(self, session: Callable[[], Responder], name: str = "an adapter (in process)") -> None:
        self.name = name
        self._make = session
        self._session: Responder | None = None
        self._answers: deque[Received] = deque()
        self._status: int | None = None

    def open(self) -> None:
        self._session = self._make()
        self._answers.clear()
        self._status = None

    def send(self, line: bytes, timeout: float) -> None:
        if self._session is None or self._status is not None:
            raise TransportClosed("the in-process adapter has ended")
        answer, status = self._session.respond(line.rstrip(b"\n"))
        self._answers.append(Received("line", encode_answer(answer).rstrip(b"\n")))
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

