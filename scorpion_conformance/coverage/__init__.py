"""What the scenarios cover, condition by condition, measured on the engine itself.

* :mod:`.syntax`, :mod:`.reader` and :mod:`.model`: the decisions of the engine and their
  conditions, read from its source, and where each can matter;
* :mod:`.probe`: the engine's own code, compiled again with a note at every condition,
  run in place of its functions during a measurement and put back after;
* :mod:`.measure`: every scenario played through the protocol against the reference, the
  evaluations a scenario looked at kept;
* :mod:`.tables`: the tables (conditions; requests against states under each rule set;
  refusal reasons; what undo takes back), their gaps and their figures;
* :mod:`.gaps`: the reasons for the gaps left, from ``data/coverage/gaps.yaml``.

``python -m scorpion_conformance.coverage`` prints the figures and every unexplained gap;
``tests/test_coverage.py`` is the guard CI runs; ``docs/coverage.md`` is the page.
"""
