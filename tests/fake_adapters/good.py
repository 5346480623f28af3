"""A fake adapter that works: the canned game, nothing broken."""

import fakelib

fakelib.serve()
