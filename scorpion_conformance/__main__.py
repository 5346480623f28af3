"""``python -m scorpion_conformance``: the ``scorpion-conformance`` command, for a shell whose
``PATH`` does not hold the environment it was installed in."""

import sys

from .cli import main

sys.exit(main())
