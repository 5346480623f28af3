"""Solving from the command line: ``solve``, ``hint``, ``check-line`` and ``winnability``.

The solver itself is :mod:`scorpion_ref.solver`; this package reads the
commands' inputs, shows lines in the suite's notation, runs campaigns over
many games (locally or on a Dask cluster) into a resumable results file,
and counts win rates with their intervals.
"""
