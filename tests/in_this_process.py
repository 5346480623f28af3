"""``scorpion-conformance`` called in the test's own process, for the tests of what a command says,
which options it takes and which files it writes, not of the process it runs in.

A subprocess costs a Python start and the command's imports (0.4 s a call, more for ``run``);
here both were paid once. The streams are what a pipe gives a subprocess: UTF-8 text that is
not a terminal, 80 columns unless ``COLUMNS`` says otherwise, every byte kept (a carriage return
too). A test of an exit by a signal, a process tree, the environment or PATH starts a subprocess.

``run`` may be called here only where it stops before its pytest session: a call that reaches
``pytest.main`` fails the test, as a session inside this one would share its modules and plugins.
Three functions take a stream as a default argument, bound when they were imported: what
``lint`` and ``export`` write to standard output, and what a ``winnability`` campaign writes to
standard error, is not caught here; a test that reads those runs the command in a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

from scorpion_conformance.cli import main

__all__ = ["Said", "command"]


@dataclass(frozen=True)
class Said:
    """What a command ended with and wrote, as :func:`subprocess.run` would give it."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float


def _no_session(*_args: object, **_kwargs: object) -> int:
    raise AssertionError("this call of `run` reached its pytest session: test it in a subprocess")


@contextlib.contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def command(*args: str, cwd: Path, env: Mapping[str, str] | None = None) -> Said:
    """``scorpion-conformance ARGS`` in the folder ``cwd``, with ``env`` added to the environment."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", newline="", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", newline="",
                           write_through=True)
    width = {"COLUMNS": os.environ.get("COLUMNS") or "80", "LINES": os.environ.get("LINES") or "24"}
    here = Path.cwd()
    began = time.monotonic()
    try:
        os.chdir(cwd)
        with _environment({**width, **(env or {})}), mock.patch.object(pytest, "main", _no_session), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exit:  # argparse: --help, --version, a refused option
                if isinstance(exit.code, str):
                    err.write(exit.code + "\n")
                code = exit.code if isinstance(exit.code, int) else int(exit.code is not None)
    finally:
        os.chdir(here)
    return Said(code, _text(out), _text(err), time.monotonic() - began)


def _text(stream: io.TextIOWrapper) -> str:
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue().decode("utf-8", errors="surrogateescape")
