"""Perft: how many action sequences of a given length a position has.

``perft(position, rules, d)`` counts the leaves of the legal-action tree of
depth ``d``: every sequence of ``d`` legal actions, each legal in the position
the previous ones reached. The conventions (written down in ``docs/perft.md``):

* the actions are exactly :func:`scorpion_ref.legal_actions`: the stock deal
  is one action; flips and collections are part of the action that causes
  them; a whole-column transfer counts only where the rule set allows it;
* legality does not depend on the status: actions of won or lost positions
  are counted like any others;
* positions reached by different paths are counted once per path (no
  transposition pruning); ``perft(p, r, 0) == 1``.

The modules, one job each:

- ``count``: :func:`perft`, :func:`perft_counts` and :func:`divide` on the engine;
- ``files``: the ``.perft`` format (like python-chess's), the reviewed files that
  ship in ``data/`` (found by name: ``standard``), and the table of ``docs/perft.md``;
- ``walk``: counting through an adapter and dividing a mismatch down to the first
  differing action;
- ``cli``: ``add_arguments`` and ``main`` of ``scorpion-conformance perft``.

>>> from scorpion_ref import deal_game, get_ruleset
>>> [perft(deal_game(1), get_ruleset("standard"), d) for d in range(4)]
[1, 6, 29, 123]
"""

from .cli import add_arguments, main
from .count import divide, perft, perft_counts
from .files import (
    LEAF_BUDGET,
    SLOW_NODES,
    TABLE_END,
    TABLE_START,
    PerftEntry,
    PerftFileError,
    PerftLine,
    data_dir,
    file_header,
    find_perft_file,
    format_perft_file,
    parse_perft_file,
    perft_files,
    render_table,
    replace_table,
    shipped_files,
    update_entry,
)
from .walk import AdapterTree, Divergence, PerftMismatch, find_divergence

__all__ = [
    "LEAF_BUDGET",
    "SLOW_NODES",
    "TABLE_END",
    "TABLE_START",
    "AdapterTree",
    "Divergence",
    "PerftEntry",
    "PerftFileError",
    "PerftLine",
    "PerftMismatch",
    "add_arguments",
    "data_dir",
    "divide",
    "file_header",
    "find_divergence",
    "find_perft_file",
    "format_perft_file",
    "main",
    "parse_perft_file",
    "perft",
    "perft_counts",
    "perft_files",
    "render_table",
    "replace_table",
    "shipped_files",
    "update_entry",
]
