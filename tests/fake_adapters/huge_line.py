"""A fake adapter that answers state with an endless line: 4 MiB and no newline, then silence."""

import sys
import time

import fakelib


def state(request, game):
    chunk = b"x" * 65536
    for _ in range(64):
        sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
    time.sleep(3600)


fakelib.serve({"state": state})
