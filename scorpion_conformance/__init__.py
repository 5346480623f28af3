"""scorpion_conformance: the conformance suite, its harness and its adapter protocol.

The harness (:mod:`scorpion_conformance.harness`) runs any Scorpion
implementation behind an adapter that speaks the JSON Lines protocol written
down in ``docs/protocol.md`` and in ``schemas/protocol-v1.json``.
"""

__version__ = "0.1.0"
