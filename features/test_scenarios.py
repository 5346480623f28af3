"""Binds every feature file in this folder to pytest-bdd.

The steps, the ``--adapter`` option and the rule-set parametrization come
from the ``scorpion_conformance.suite.plugin`` pytest plugin.
"""

from pytest_bdd import scenarios

scenarios(".")
