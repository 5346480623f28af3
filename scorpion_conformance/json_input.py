"""JSON from outside, read within bounds and checked for its types.

Every JSON the product reads from a file someone gave it (a run's report, a
campaign's results file, a position file, an expectations file) or from an
adapter goes through here, so none of them can make it hang, eat the memory
or end in a traceback:

* **bounded in size**: a file is read up to a limit and no further (a
  ``--position /dev/zero`` is refused at the limit instead of read for ever);
  an adapter's line is bounded by its transport;
* **bounded in depth**: nesting deeper than :data:`MAX_DEPTH` is refused, so
  no code that walks the value recurses out of its stack;
* **strict**: UTF-8 only, and no ``NaN`` or ``Infinity`` (not JSON);
* **typed**: :func:`check` holds a value to a JSON Schema, and says which
  field is wrong.

Every problem is an :class:`InputError` of one line that names where it is
(the file and the line, or the answer).

>>> parse('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> parse("[" * 100 + "]" * 100, "x.json")
Traceback (most recent call last):
scorpion_conformance.json_input.InputError: x.json: nested more than 64 levels deep
>>> check({"a": "1"}, {"type": "object", "properties": {"a": {"type": "integer"}}}, "x.json:3")
Traceback (most recent call last):
scorpion_conformance.json_input.InputError: x.json:3: a: '1' is not of type 'integer'
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = ["MAX_DEPTH", "InputError", "check", "parse", "read_bytes", "read_json", "split_lines"]

#: The deepest nesting accepted; the protocol's and the files' deepest is a handful of levels.
MAX_DEPTH = 64


class InputError(ValueError):
    """JSON (or its file) that cannot be used; the message is one line naming where."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: One decoder for every document: ``json.loads`` with an option builds a new one each call,
#: which cost more than the reading itself over a results file's many thousand lines.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def _too_deep(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def parse(data: str | bytes, where: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """One JSON document; raises :class:`InputError` for bytes that are not UTF-8, text that is
    not JSON (``NaN`` and ``Infinity`` included) or nesting deeper than ``max_depth``."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"{where}: not UTF-8 (byte {error.start}: {error.reason})") from None
    else:
        text = data
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise InputError(f"{where}: nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not JSON ({error.msg})") from None
    except ValueError as error:
        raise InputError(f"{where}: not JSON ({error})") from None
    # Nesting deeper than the limit needs more opening brackets than the limit (counted in C, so
    # the walk is left for the few documents that might: a results file holds many thousands).
    if isinstance(value, (dict, list)) and text.count("[") + text.count("{") > max_depth \
            and _too_deep(value, max_depth):
        raise InputError(f"{where}: nested more than {max_depth} levels deep")
    return value


def read_bytes(path: str | Path, *, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a file, at most ``max_bytes`` (a name ending in ``.gz`` is decompressed,
    the limit counting what comes out); raises :class:`InputError` for a file that cannot be
    read or is bigger. A missing file raises :class:`FileNotFoundError`, for the caller to decide."""
    path = Path(path)
    try:
        if path.is_dir():
            raise InputError(f"cannot read the {what} {path}: it is a folder")
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise
    except (OSError, EOFError, zlib.error) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise InputError(f"cannot read the {what} {path}: {reason}") from None
    if len(data) > max_bytes:
        raise InputError(f"cannot read the {what} {path}: it is bigger than {max_bytes:,} bytes; "
                         "is it the right file?")
    return data


def read_json(path: str | Path, *, max_bytes: int, what: str = "file") -> Any:
    """One JSON document from a file (see :func:`read_bytes` and :func:`parse`)."""
    try:
        data = read_bytes(path, max_bytes=max_bytes, what=what)
    except FileNotFoundError:
        raise InputError(f"cannot read the {what} {path}: no such file") from None
    return parse(data, f"cannot read the {what} {path}")


def split_lines(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """The lines of JSON-lines bytes: (line number from 1, offset of the line's end, the line
    without its ``\\n`` or ``\\r\\n``); a last line with no ``\\n`` is given with offset -1."""
    start = 0
    number = 0
    while start < len(data):
        end = data.find(b"\n", start)
        number += 1
        if end == -1:
            yield number, -1, data[start:]
            return
        line = data[start:end]
        yield number, end + 1, line[:-1] if line.endswith(b"\r") else line
        start = end + 1


def _path_of(error: Any) -> str:
    steps = [str(step) for step in error.absolute_path]
    return ".".join(steps) if steps else "the record"


def check(value: Any, schema: Mapping[str, Any], where: str) -> None:
    """Hold ``value`` to a JSON Schema; raises :class:`InputError` naming the first wrong field."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is not None:
        message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
        raise InputError(f"{where}: {_path_of(error)}: {message}")
