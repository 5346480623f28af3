"""The Python adapter template; the wheel ships this folder as ``scorpion_conformance.kit.python``."""
