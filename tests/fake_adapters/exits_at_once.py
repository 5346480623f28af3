"""A fake adapter that cannot start: it complains on stderr and exits with status 3."""

import sys

sys.stderr.write("fake adapter: cannot load the engine library libscorpion.so\n")
sys.exit(3)
