"""A fake adapter that answers quit and then exits with status 2."""

import sys

import fakelib


def quit_(request, game):
    fakelib.reply({"ok": True})
    sys.exit(2)


fakelib.serve({"quit": quit_})
