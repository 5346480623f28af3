"""How fast the harness talks to an adapter, next to the raw speed of a pipe.

Run by hand (it is not a test):

    python benchmarks/protocol.py [--seconds 3]

It measures, in one run on this machine:

1. raw pipe round trips: one short line written to a trivial Python echo
   process and its echo read back, with no JSON and no checking;
2. bare round trips to the reference adapter: ``state`` requests written and
   their answers parsed with ``json.loads``, no harness;
3. harness round trips: the same ``state`` requests from :class:`AdapterClient`,
   each answer read by its reader thread, parsed and checked against the schema.

and prints both rates and their ratio, so the cost of the protocol layers
(JSON, schema validation, the engine's state) can be told from the cost of
process switching, which no adapter can avoid.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from scorpion_conformance import protocol
from scorpion_conformance.client import AdapterClient
from scorpion_ref import deal_game
from scorpion_ref.serial import position_to_json

ECHO = (
    "import sys\n"
    "read, write = sys.stdin.buffer.readline, sys.stdout.buffer.write\n"
    "flush = sys.stdout.buffer.flush\n"
    "for line in iter(read, b''):\n"
    "    write(line)\n"
    "    flush()\n"
)


def _rate(round_trip: object, seconds: float) -> tuple[float, int]:
    """Round trips per second, calling ``round_trip`` in batches for ``seconds``."""
    call = round_trip  # a callable
    for _ in range(200):  # warm up
        call()  # type: ignore[operator]
    count = 0
    began = time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(500):
            call()  # type: ignore[operator]
        count += 500
    return count / elapsed, count


def raw_pipe(seconds: float) -> tuple[float, int]:
    process = subprocess.Popen(
        [sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout
    line = b'{"cmd":"state"}\n'
    import io

    reader = io.BufferedReader(stdout)  # type: ignore[arg-type]

    def round_trip() -> None:
        stdin.write(line)
        if reader.readline() != line:
            raise RuntimeError("the echo process answered something else")

    try:
        return _rate(round_trip, seconds)
    finally:
        stdin.close()
        process.wait(5)


def raw_reference(seconds: float) -> tuple[float, int]:
    """``state`` round trips to the reference adapter over a bare pipe (no harness)."""
    import io
    import json

    process = subprocess.Popen(
        [sys.executable, "-m", "scorpion_ref.adapter"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
    )
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin
    reader = io.BufferedReader(process.stdout)  # type: ignore[arg-type]
    start = {"cmd": "start", "rules": "standard", "position": position_to_json(deal_game(1))}
    for request in ({"cmd": "hello", "protocol": 1}, start):
        stdin.write(protocol.encode(request))
        reader.readline()
    line = protocol.encode({"cmd": "state"})

    def round_trip() -> None:
        stdin.write(line)
        json.loads(reader.readline())

    try:
        return _rate(round_trip, seconds)
    finally:
        stdin.close()
        process.wait(5)


def harness(seconds: float) -> tuple[float, int]:
    with AdapterClient([sys.executable, "-m", "scorpion_ref.adapter"], timeout=10.0) as client:
        client.hello()
        client.start("standard", position_to_json(deal_game(1)))
        return _rate(client.state, seconds)


def _state_body() -> dict[str, object]:
    return {"ok": True, "state": {**position_to_json(deal_game(1)), "status": "playing"}}


def check_fast(seconds: float) -> tuple[float, int]:
    """Checking one state answer as the harness does (the fast path), no process."""
    body = _state_body()
    return _rate(lambda: protocol.validate_response("state", body), seconds)


def check_schema(seconds: float) -> tuple[float, int]:
    """Checking one state answer with jsonschema alone (what a refused fast path costs)."""
    body = _state_body()
    return _rate(lambda: protocol.check("response-state", body), seconds / 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args(argv)
    raw, raw_n = raw_pipe(args.seconds)
    bare, bare_n = raw_reference(args.seconds)
    full, full_n = harness(args.seconds)
    fast, fast_n = check_fast(args.seconds)
    slow, slow_n = check_schema(args.seconds)
    print(f"raw pipe echo (python -c loop):      {raw:10,.0f} round trips/s  ({raw_n:,} in all)")
    print(f"bare pipe <-> reference adapter:     {bare:10,.0f} round trips/s  ({bare_n:,} in all)")
    print(f"harness <-> reference adapter state: {full:10,.0f} round trips/s  ({full_n:,} in all)")
    print(
        f"ratio harness / raw pipe:            {full / raw:10.3f}"
        f"  (raw is {raw / full:.1f}x faster)"
    )
    print(f"ratio harness / bare pipe (same adapter): {full / bare:5.3f}")
    print(f"checking a state answer, fast path:  {fast:10,.0f} answers/s      ({fast_n:,} in all)")
    print(f"checking it with jsonschema alone:   {slow:10,.0f} answers/s      ({slow_n:,} in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
