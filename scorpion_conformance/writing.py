"""Writing a file someone named: never half written, never in place of what the name points to.

Every file the commands write on request (``export -o``, ``run --report``,
``--junitxml``, ``--cucumberjson``, ``--write-expectations``, ``report
--html``, ``fuzz --emit-scenario``) goes through :func:`write_file`:

* an ordinary file (or a new one) is written to a temporary file beside it,
  flushed to the disk, and renamed over it, so it is never seen half written
  and on any error the old one stays; it keeps the old file's permissions;
* a symbolic link is followed to the file it names, which is written as
  above: the link stays a link;
* a file that is not an ordinary file (a FIFO, ``/dev/stdout``, a device) is
  written in place, as ``>`` in a shell would, never replaced by a file;
* a write that fails, at any step (a full disk, a device that refuses),
  raises :class:`OSError`: the command says so and ends with a failure
  status, and never says it wrote what it did not.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "real.txt").write_text("old")
3
>>> (folder / "link.txt").symlink_to("real.txt")
>>> write_file(folder / "link.txt", lambda out: out.write("new"))
>>> (folder / "link.txt").is_symlink(), (folder / "real.txt").read_text()
(True, 'new')
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["replace_with", "target_of", "why", "write_file"]


def target_of(path: str | Path) -> Path:
    """The file that writing ``path`` must change: ``path`` itself, or what its links lead to."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _mode(target: Path) -> int | None:
    try:
        return target.stat().st_mode
    except FileNotFoundError:
        return None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _in_place(target: Path, mode: int) -> bool:
    """Whether ``target`` is written in place (it exists and is no ordinary file)."""
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(target))
    return not stat.S_ISREG(mode)


def write_file(path: str | Path, write: Callable[[Any], None]) -> None:
    """Write a text file (UTF-8) through ``write(handle)``, as the module says.

    Raises :class:`OSError` when it cannot be written, whatever the step.
    """
    target = target_of(path)
    mode = _mode(target)
    if mode is not None and _in_place(target, mode):
        with open(target, "w", encoding="utf-8") as out:
            write(out)
        return
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def replace_with(temporary: str | Path, path: str | Path) -> None:
    """Put a finished file that another program wrote (``temporary``) where ``path`` names,
    as :func:`write_file` would have written it; ``temporary`` is removed. Raises :class:`OSError`."""
    temporary = Path(temporary)
    target = target_of(path)
    mode = _mode(target)
    try:
        if mode is not None and _in_place(target, mode):
            with open(temporary, "rb") as source, open(target, "wb") as out:
                while block := source.read(1 << 20):
                    out.write(block)
            return
        if target.parent.resolve() != temporary.parent.resolve() or mode is not None:
            # another folder (a link elsewhere), or permissions to keep: copy beside the target
            data = temporary.read_bytes()
            write_file(target, lambda out: out.buffer.write(data))
            return
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def why(error: OSError) -> str:
    """What went wrong, in the words of the operating system.

    >>> why(OSError(errno.ENOSPC, "No space left on device"))
    'No space left on device'
    """
    return error.strerror or str(error) or type(error).__name__
