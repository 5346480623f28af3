"""Mutation testing of the conformance suite: how many wrong reference engines the
scenarios reject.

* :mod:`.operators`: our two Scorpion operators, beside cosmic-ray's.
* :mod:`.mutants`: what is mutated, each mutant's stable key, a mutated copy.
* :mod:`.runner`: the scenarios alone, through the protocol, to the first failure.
* :mod:`.campaign`: many mutants in parallel, each in its own scratch copy.
* :mod:`.equivalence`: evidence for an equivalent mutant (perft trees side by side, fuzz).
* :mod:`.results`: the committed results file, the CI sample, matching campaigns.

``benchmarks/mutation.py`` runs a whole campaign by hand;
``tests/test_mutation_sample.py`` runs a fixed sample in CI.
"""
