"""Keeps an adapter's whole process tree on a leash: nothing it starts outlives it.

The harness never runs an adapter command directly. It runs this script,
which starts the command and then waits. On Linux it first makes itself a
*child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so every descendant
of the adapter that is orphaned, even one that called ``setsid`` to leave
the process group, is handed to this script instead of to init. The script
ends the whole tree, every descendant it can find, when

* the adapter exits (its exit status, or the signal that killed it, becomes
  this script's own, so the harness sees the adapter's real status);
* the harness asks, with ``SIGTERM`` (or ``SIGINT``/``SIGHUP``);
* the harness dies, however it died, even by ``SIGKILL``: the harness holds
  the write end of a *lifeline* pipe whose read end this script watches, and
  the kernel closes it when the harness goes away.

The script is run by path (``python guardian.py LIFELINE_FD -- CMD...``), so
it never imports the package: it starts in a few tens of milliseconds. It
hands its standard input, output and error to the adapter and keeps no copy,
so the harness sees the end of the adapter's output as soon as the adapter's
tree is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36

#: Status used when the adapter command cannot be run at all (as a shell does).
CANNOT_RUN = 127


def _become_subreaper() -> None:
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _descendants() -> list[int]:
    """Every process below this one (as subreaper, orphans come back to us)."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is a dependency
        return _descendants_from_proc()
    try:
        return [child.pid for child in psutil.Process().children(recursive=True)]
    except psutil.Error:
        return []


def _descendants_from_proc() -> list[int]:  # pragma: no cover - the psutil-less fallback
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
    found, frontier = [], [os.getpid()]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _reap() -> bool:
    """Collect every child that has ended; False once there are no children at all."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def end_tree(deadline: float = 5.0) -> None:
    """Kill every descendant, again and again, until none is left (or ``deadline`` s)."""
    stop = time.monotonic() + deadline
    while time.monotonic() < stop:
        pids = _descendants()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not _reap() and not pids:
            return
        time.sleep(0.01)


def _mirror(returncode: int) -> None:
    """Exit as the adapter did: with its status, or killed by its signal."""
    sys.stdout.flush()
    if returncode < 0:
        signum = -returncode
        with contextlib.suppress(OSError, ValueError):
            signal.signal(signum, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
            os.kill(os.getpid(), signum)
            time.sleep(1)
        os._exit(128 + signum)
    os._exit(returncode & 0xFF)


def _detach_standard_streams() -> None:
    """Keep no copy of the pipes: the adapter's tree alone holds them open."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: guardian.py LIFELINE_FD -- COMMAND [ARG...]\n")
        return 2
    lifeline = int(argv[0])
    command = argv[2:]
    _become_subreaper()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    asked_to_stop: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        asked_to_stop.append(signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    signal.signal(signal.SIGCHLD, lambda _s, _f: None)
    try:
        adapter = subprocess.Popen(command, close_fds=True)  # inherits our 0, 1 and 2
    except OSError as error:
        sys.stderr.write(f"cannot run {command[0]!r}: {error.strerror or error}\n")
        sys.stderr.flush()
        return CANNOT_RUN
    _detach_standard_streams()
    while True:
        if asked_to_stop:
            end_tree()
            return 128 + asked_to_stop[0]
        returncode = adapter.poll()
        if returncode is not None:
            end_tree()
            _mirror(returncode)
        try:
            ready, _, _ = select.select([lifeline, wake_read], [], [], 1.0)
        except InterruptedError:  # pragma: no cover - PEP 475 retries select
            continue
        if wake_read in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_read, 512)
        if lifeline in ready and not os.read(lifeline, 512):
            end_tree()  # the harness is gone
            return 128 + signal.SIGKILL


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
