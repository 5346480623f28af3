"""The conformance scenarios (shipped as ``scorpion_conformance.features``)."""
