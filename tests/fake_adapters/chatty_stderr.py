"""A fake adapter that works but writes 256 KiB to stderr per request (more than a
pipe holds): a harness that does not drain stderr would hang."""

import sys

import fakelib


def chatty(handler_name):
    def handler(request, game):
        for i in range(4096):
            sys.stderr.write(f"log line {i:05d} " + "." * 48 + "\n")
        sys.stderr.flush()
        return fakelib._default(request, game)

    return handler


fakelib.serve({cmd: chatty(cmd) for cmd in ("hello", "start", "legal", "state", "play")})
