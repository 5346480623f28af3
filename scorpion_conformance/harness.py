"""Where the harness client used to live: see :mod:`scorpion_conformance.client`.

Kept only while the modules that import it move over.
"""

from .client import DEFAULT_TIMEOUT, MAX_LINE_BYTES, STARTUP_TIMEOUT, AdapterClient

__all__ = ["DEFAULT_TIMEOUT", "MAX_LINE_BYTES", "STARTUP_TIMEOUT", "AdapterClient"]
