"""A fake adapter that hangs on legal (never answers, never exits)."""

import sys
import time

import fakelib


def legal(request, game):
    sys.stderr.write("fake adapter: thinking about legal moves...\n")
    sys.stderr.flush()
    time.sleep(3600)


fakelib.serve({"legal": legal})
