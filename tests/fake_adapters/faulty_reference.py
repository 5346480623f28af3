"""The reference adapter, right about every rule, wrong about the conversation.

Usage: ``python faulty_reference.py FAULT``. The answers come from the real
reference session, so a harness that let any of these faults through would
see scenarios *pass*: that is what the fault matrix tests must rule out.

Faults:

* ``twice``: writes every answer twice, with two writes (a debug echo);
* ``twice-at-once``: writes every answer twice in one write, and echoes no ids;
* ``twice-sometimes``: writes every fifth answer twice, in one write (no ids);
* ``twice-late``: writes the second copy of each answer a moment later (no ids);
* ``crash-always``: dies on every request, the handshake included;
* ``crash-after-hello``: answers the handshake, then dies on every ``start``;
* ``flood-stderr``: writes ``FLOOD_MB`` (env, default 500) MiB to stderr at the
  handshake, then answers well;
* ``setsid-child``: starts a grandchild that calls ``setsid`` and sleeps, adds
  its pid as a line to ``CHILD_PID_FILE`` (env), then works normally;
* ``hang-mid-line``: answers ``legal`` with half a line, then hangs;
* ``close-stdout``: closes its stdout after the handshake, and keeps running;
* ``slow``: answers every request after ``SLOW_SECONDS`` (env, default 0.3);
* ``hang-start``: answers the handshake, then hangs on the first ``start``.

So that a test can tell what the fake really did, it writes a line to the file
named by ``REQUEST_LOG`` (env) for each request it reads (its pid and the
command), to ``DOUBLE_LOG`` for each answer it writes twice (its pid, the
command and the request's id), and to ``FLOOD_LOG`` once the flood is written.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time

from scorpion_ref.adapter import Session, encode_answer

FAULTS = (
    "twice", "twice-at-once", "twice-sometimes", "twice-late", "crash-always", "crash-after-hello",
    "flood-stderr", "setsid-child", "hang-mid-line", "close-stdout", "slow", "hang-start",
)


def _note(variable: str, line: str) -> None:
    """Add a line to the file named by the environment ``variable``, if it is set."""
    target = os.environ.get(variable)
    if target:
        with open(target, "a") as out:
            out.write(line + "\n")


def _strip_id(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "id"}


def _flood(megabytes: int) -> None:
    line = ("stderr flood " + "x" * 1010 + "\n").encode()
    block = line * 1024  # about 1 MiB
    for _ in range(megabytes):
        os.write(2, block)
    _note("FLOOD_LOG", f"flooded {megabytes} MiB")


def _grandchild() -> None:
    code = "import os, time\nos.setsid()\ntime.sleep(600)\n"
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _note("CHILD_PID_FILE", str(child.pid))


def main(fault: str) -> int:
    session = Session()
    out = sys.stdout.buffer
    if fault == "setsid-child":
        _grandchild()
    for count, raw in enumerate(sys.stdin.buffer, start=1):
        line = raw.rstrip(b"\n")
        if fault == "crash-always":
            sys.stderr.write("faulty reference: crashing on every request\n")
            sys.stderr.flush()
            os._exit(9)
        request = {}
        with contextlib.suppress(ValueError):
            request = json.loads(line)
        cmd = request.get("cmd") if isinstance(request, dict) else None
        _note("REQUEST_LOG", f"{os.getpid()} {cmd}")
        if fault == "crash-after-hello" and cmd == "start":
            sys.stderr.write("faulty reference: crashing on start\n")
            sys.stderr.flush()
            os._exit(9)
        answer, status = session.respond(line)
        if fault == "hang-start" and cmd == "start":
            time.sleep(3600)
        if fault == "hang-mid-line" and cmd == "legal":
            out.write(encode_answer(answer)[:20])
            out.flush()
            time.sleep(3600)
        if fault == "slow":
            time.sleep(float(os.environ.get("SLOW_SECONDS", "0.3")))
        if fault in ("twice-at-once", "twice-sometimes", "twice-late"):
            answer = _strip_id(answer)
        data = encode_answer(answer)
        doubled = fault in ("twice", "twice-at-once", "twice-late") or (
            fault == "twice-sometimes" and count % 5 == 0)
        if doubled:
            number = request.get("id") if isinstance(request, dict) else None
            _note("DOUBLE_LOG", f"{os.getpid()} {cmd} {number}")
        if fault == "twice":
            out.write(data)
            out.flush()
            out.write(data)
        elif fault == "twice-late":
            out.write(data)
            out.flush()
            time.sleep(0.05)
            out.write(data)
        elif doubled:
            out.write(data + data)
        else:
            out.write(data)
        out.flush()
        if fault == "flood-stderr" and cmd == "hello":
            _flood(int(os.environ.get("FLOOD_MB", "500")))
        if fault == "close-stdout" and cmd == "hello":
            out.close()
            os.close(1)
            time.sleep(3600)
        if status is not None:
            return status
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in FAULTS:
        sys.exit(f"usage: faulty_reference.py {{{','.join(FAULTS)}}}")
    sys.exit(main(sys.argv[1]))
