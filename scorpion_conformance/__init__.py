"""scorpion_conformance: the conformance suite, its harness and its adapter protocol.

The harness client (:mod:`scorpion_conformance.client`, over
:mod:`scorpion_conformance.transport`) runs any Scorpion
implementation behind an adapter that speaks the JSON Lines protocol written
down in ``docs/protocol.md`` and in ``schemas/protocol-v1.json``.
"""

__version__ = "0.1.0"
