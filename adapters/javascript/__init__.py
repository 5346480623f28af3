"""The JavaScript example adapter; the wheel ships this folder as ``scorpion_conformance.kit.javascript``
(``scorpion-conformance new-adapter javascript DIR`` writes it out)."""
