"""What can go wrong while the harness talks to an adapter.

The classes follow an adapter's life: it cannot start
(:class:`AdapterStartError`), speaks another protocol version
(:class:`ProtocolVersionError`), then on any request it may stay silent
(:class:`AdapterTimeout`), die (:class:`AdapterCrashed`), print something that
is not a JSON line (:class:`MalformedResponse`) or JSON of the wrong shape
(:class:`InvalidResponse`). When restarting does not help either, the harness
gives up (:class:`TooManyRestarts`).

Every error names the adapter command, the request line it was answering and
the tail of the adapter's stderr, and ``str(error)`` says all that in words:

>>> print(AdapterTimeout(
...     "no answer within 1 s; the adapter was stopped",
...     adapter="./my-adapter", request='{"cmd":"legal"}', timeout=1.0))
The adapter did not answer in time.
  adapter: ./my-adapter
  request: {"cmd":"legal"}
  problem: no answer within 1 s; the adapter was stopped
  stderr:  (nothing)

An answer that is an error (``{"ok": false, ...}``) is a normal answer, not a
fault; :class:`ErrorAnswer` is raised only by the client's convenience methods
when the caller needed a success.
"""

from __future__ import annotations

import signal
from typing import Any

__all__ = [
    "AdapterCrashed",
    "AdapterError",
    "AdapterGaveUp",
    "AdapterNotRunning",
    "AdapterStartError",
    "AdapterTimeout",
    "ErrorAnswer",
    "InvalidResponse",
    "MalformedResponse",
    "OutOfStep",
    "ProtocolVersionError",
    "RequestError",
    "TooManyRestarts",
    "describe_exit",
    "quit_fault",
]

#: How much of a request or an output line an error message quotes.
QUOTE_LIMIT = 300


def quote(text: str | bytes | None, limit: int = QUOTE_LIMIT) -> str:
    """``text`` shortened for a message (bytes shown with escapes, long text cut).

    >>> quote("x" * 400, limit=10)
    'xxxxxxxxxx... (400 characters in all)'
    """
    if text is None:
        return "(none)"
    if isinstance(text, bytes):
        shown = repr(text[: limit + 1])[2:-1]
        return shown[:limit] + (f"... ({len(text)} bytes in all)" if len(text) > limit else "")
    if len(text) > limit:
        return f"{text[:limit]}... ({len(text)} characters in all)"
    return text


def describe_exit(code: int | None) -> str:
    """A process exit status in words.

    >>> describe_exit(0), describe_exit(3), describe_exit(-9)
    ('exited with status 0', 'exited with status 3', 'was killed by signal 9 (SIGKILL)')
    """
    if code is None:
        return "is still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            return f"was killed by signal {-code}"
        return f"was killed by signal {-code} ({name})"
    return f"exited with status {code}"


class AdapterError(Exception):
    """Talking to an adapter failed; subclasses say at which step."""

    headline = "The adapter failed."

    def __init__(
        self,
        problem: str,
        *,
        adapter: str,
        request: str | None = None,
        stderr_tail: str = "",
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.adapter = adapter
        self.request = request
        self.stderr_tail = stderr_tail

    def __str__(self) -> str:
        lines = [
            self.headline,
            f"  adapter: {self.adapter}",
            f"  request: {quote(self.request) if self.request is not None else '(none yet)'}",
            f"  problem: {self.problem}",
        ]
        tail = self.stderr_tail.rstrip("\n")
        if tail:
            count = tail.count("\n") + 1
            lines.append(f"  stderr (last {count} line{'s' if count > 1 else ''}):")
            lines.extend(f"    | {line}" for line in tail.split("\n"))
        else:
            lines.append("  stderr:  (nothing)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.problem!r}, adapter={self.adapter!r})"


class AdapterStartError(AdapterError):
    """The adapter could not be started, or exited before answering ``hello``."""

    headline = "The adapter could not be started."

    def __init__(self, problem: str, *, exit_code: int | None = None, **context: Any) -> None:
        super().__init__(problem, **context)
        self.exit_code = exit_code


class ProtocolVersionError(AdapterError):
    """The adapter speaks another version of the protocol than the harness."""

    headline = "The adapter speaks another protocol version."

    def __init__(self, problem: str, *, got: object, expected: int, **context: Any) -> None:
        super().__init__(problem, **context)
        self.got = got
        self.expected = expected


class AdapterTimeout(AdapterError):
    """The adapter did not answer a request within the timeout."""

    headline = "The adapter did not answer in time."

    def __init__(self, problem: str, *, timeout: float, **context: Any) -> None:
        super().__init__(problem, **context)
        self.timeout = timeout


class AdapterCrashed(AdapterError):
    """The adapter exited, or closed its output, in the middle of a game (or exited
    with a bad status after ``quit``)."""

    headline = "The adapter stopped unexpectedly."

    def __init__(self, problem: str, *, exit_code: int | None, **context: Any) -> None:
        super().__init__(problem, **context)
        self.exit_code = exit_code


class MalformedResponse(AdapterError):
    """The adapter printed something that is not one JSON line."""

    headline = "The adapter printed something that is not a JSON response line."

    def __init__(self, problem: str, *, line: bytes | None = None, **context: Any) -> None:
        super().__init__(problem, **context)
        self.line = line


class OutOfStep(MalformedResponse):
    """The adapter wrote a line nobody asked for, or answered another request than the one asked."""

    headline = "The adapter's answers are out of step with the requests."


class InvalidResponse(AdapterError):
    """The adapter answered JSON of the wrong shape for the request."""

    headline = "The adapter's answer does not have the shape the protocol requires."

    def __init__(self, problem: str, *, response: object = None, **context: Any) -> None:
        super().__init__(problem, **context)
        self.response = response


class AdapterNotRunning(AdapterError):
    """A request was made after the adapter was closed or broke; call ``restart()``."""

    headline = "The adapter is not running."


class AdapterGaveUp(AdapterError):
    """The harness stopped trying this adapter: the adapter itself looks broken."""

    headline = "Giving up on this adapter: the adapter itself is probably broken."

    def __init__(
        self, problem: str, *, last_error: AdapterError | None = None, **context: Any
    ) -> None:
        super().__init__(problem, **context)
        self.last_error = last_error

    def __str__(self) -> str:
        text = super().__str__()
        if self.last_error is not None:
            last = str(self.last_error).replace("\n", "\n  ")
            text += f"\n  the last failure was:\n  {last}"
        return text


class TooManyRestarts(AdapterGaveUp):
    """The adapter had to be restarted too many times in a row."""


class RequestError(ValueError):
    """The harness was asked to send a request the protocol does not allow.

    Not an :class:`AdapterError`: the mistake is the caller's (a feature file,
    a test, a tool), and the adapter never saw the request.
    """


class ErrorAnswer(Exception):
    """The adapter refused a request that the caller needed to succeed.

    Not an :class:`AdapterError`: the adapter answered properly, with an
    error. ``response`` is the :class:`~scorpion_conformance.protocol.Response`.
    """

    def __init__(self, response: Any, *, adapter: str, request: str) -> None:
        error = response.error
        super().__init__(
            f"the adapter answered {error.code}"
            + (f" ({error.reason})" if error.reason else "")
            + f" to {quote(request)}: {error.message}"
            + f"\n  adapter: {adapter}"
        )
        self.response = response
        self.adapter = adapter
        self.request = request

    @property
    def code(self) -> str:
        return str(self.response.error.code)


def quit_fault(leftover: bytes | None, code: int | None, timeout: float,
               context: dict[str, Any]) -> AdapterError | None:
    """What was wrong after the answer to ``quit``: a line written after it, no exit within
    ``timeout``, or an exit status other than 0 (``code``); None when the adapter left well."""
    if leftover is not None:
        return OutOfStep(f"after its answer to quit, the adapter wrote {quote(leftover)}",
                         line=leftover, **context)
    if code is None:
        return AdapterTimeout(
            f"the adapter answered quit but did not exit within {timeout:g} s; it was stopped",
            timeout=timeout, **context,
        )
    if code != 0:
        return AdapterCrashed(f"after quit the adapter {describe_exit(code)}; it should exit with status 0",
                              exit_code=code, **context)
    return None
