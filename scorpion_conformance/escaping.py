"""What an adapter or a file says, made harmless where it meets a page or a terminal.

An adapter is a program someone else wrote, and a report, a results file or
a feature file may come from anywhere; a page people publish and the
terminal of whoever runs the suite must show what they say, never obey it.
Each sink has one helper, and every value from outside goes through it where
it is written (OWASP's rule of output encoding: escape at the sink, once,
whatever path carried the value there):

* **HTML.** :func:`html_text` turns ``& < > " '`` into entities, so a value is
  text inside an element and inside a quoted attribute alike (our pages quote
  every attribute). :func:`link` makes a link only of an ``http`` or
  ``https`` address and shows anything else (``javascript:``, ``data:``, a
  relative path) as text.
* **A terminal.** :func:`terminal_text` writes every control character as a
  visible escape (``\\x1b``, ``\\x07``, ``\\u202e``): C0 and C1 controls,
  DEL, and the marks that reorder text (bidirectional overrides), so no value
  can retitle the window, clear the screen, colour what follows, move back
  to the start of a line to print a fake one, or reverse what is read. With
  ``lines=True`` a new line stays a new line (a multi-line message, a stderr
  tail).

>>> html_text('<svg onload="x()">')
'&lt;svg onload=&quot;x()&quot;&gt;'
>>> link("javascript:alert(1)")
'javascript:alert(1)'
>>> link("https://example.org/?a=1&b=2")
'<a href="https://example.org/?a=1&amp;b=2" rel="nofollow noopener">https://example.org/?a=1&amp;b=2</a>'
>>> terminal_text("name\\x1b]0;title\\x07\\rAll passed")
'name\\\\x1b]0;title\\\\x07\\\\x0dAll passed'
>>> print(terminal_text("one\\r\\ntwo\\x1b[2J", lines=True))
one
two\\x1b[2J
"""

from __future__ import annotations

import html
import re
from typing import Any, TextIO
from urllib.parse import urlsplit

__all__ = ["CONTROL", "SafeStream", "html_text", "is_web_address", "link", "terminal_text"]

#: Every character a terminal may act on instead of showing: C0 controls, DEL, C1 controls,
#: the bidirectional marks and overrides, and the line and paragraph separators.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_WEB = re.compile(r"https?://[^\s<>\"'`\\]+", re.IGNORECASE)


def html_text(value: object) -> str:
    """``value`` as HTML text, safe in an element and in a quoted attribute."""
    return html.escape(str(value), quote=True)


def is_web_address(value: object) -> bool:
    """Whether ``value`` is an ``http`` or ``https`` address with a host, and nothing more.

    >>> is_web_address("https://example.org"), is_web_address(" javascript:x"), is_web_address("http:/x")
    (True, False, False)
    """
    text = str(value)
    if not _WEB.fullmatch(text):
        return False
    parts = urlsplit(text)
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def link(url: object, text: object | None = None) -> str:
    """A link to ``url`` if it is a web address (:func:`is_web_address`), else ``url`` as text."""
    shown = html_text(url if text is None else text)
    if not is_web_address(url):
        return shown
    return f'<a href="{html_text(url)}" rel="nofollow noopener">{shown}</a>'


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(value: object, *, lines: bool = False) -> str:
    """``value`` with every control character written as a visible escape (see the module).

    ``lines``: keep new lines (a ``\\r\\n`` becomes one ``\\n``; a lone ``\\r`` is escaped).
    """
    text = str(value)
    if not lines:
        return CONTROL.sub(_visible, text)
    return "\n".join(CONTROL.sub(_visible, part) for part in text.replace("\r\n", "\n").split("\n"))


class SafeStream:
    """A text stream that writes everything through :func:`terminal_text` (new lines kept),
    for a command whose every line may carry an adapter's or a file's words."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(terminal_text(text, lines=True))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
