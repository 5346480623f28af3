"""A fake adapter that claims protocol version 2 in its hello."""

import fakelib

fakelib.serve({"hello": lambda request, game: {**fakelib.HELLO, "protocol": 2}})
