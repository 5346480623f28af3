"""scorpion_shared: what the engine, the suite and the Python adapters have in common.

The ground floor of the house: the one reader of the vocabulary
(:mod:`.vocabulary`) and the typed names generated from it (:mod:`.words`),
and the front end every Python adapter shares (:mod:`.frontend`): the request
loop, the refusals, the size limits and the answers. It uses the standard
library only, so an adapter running in an interpreter of its own (the
soliterm adapter runs in soliterm's venv) can import it from the checkout,
and it imports neither :mod:`scorpion_ref` nor :mod:`scorpion_conformance`.
"""
