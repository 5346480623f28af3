"""A fake adapter that answers hello with unsupported and exits, as the protocol asks
of an adapter that does not speak the requested version."""

import sys

import fakelib


def hello(request, game):
    fakelib.reply(fakelib.error("unsupported", "this adapter speaks protocol version 7 only"))
    sys.exit(1)


fakelib.serve({"hello": hello})
