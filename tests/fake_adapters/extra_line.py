"""A fake adapter that answers start twice: the second line arrives unasked."""

import fakelib


def start(request, game):
    game["state"] = {**request["position"], "status": "playing"}
    fakelib.reply({"ok": True, "state": game["state"]})
    fakelib.reply({"ok": True, "state": game["state"]})


fakelib.serve({"start": start})
