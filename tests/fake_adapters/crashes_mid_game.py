"""A fake adapter that dies with status 7 when asked to play."""

import os
import sys

import fakelib


def play(request, game):
    sys.stderr.write("Traceback (most recent call last):\n  File engine.py, line 12\n")
    sys.stderr.write("IndexError: list index out of range\n")
    sys.stderr.flush()
    os._exit(7)


fakelib.serve({"play": play})
