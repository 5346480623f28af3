"""A fake adapter whose answers are JSON of the wrong shape: legal lists 'moves'
instead of 'actions', and state holds a card that is not a card."""

import fakelib


def legal(request, game):
    return {"ok": True, "moves": [{"type": "deal"}]}


def state(request, game):
    state = {**game["state"]}
    state["columns"] = [dict(c) for c in state["columns"]]
    state["columns"][2]["up"] = ["10D"]
    return {"ok": True, "state": state}


fakelib.serve({"legal": legal, "state": state})
