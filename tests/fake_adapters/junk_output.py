"""A fake adapter that prints a debugging line on stdout instead of answering legal."""

import sys

import fakelib


def legal(request, game):
    sys.stdout.write("DEBUG: computing legal moves\n")
    sys.stdout.flush()


fakelib.serve({"legal": legal})
