"""The deliberate bugs of ``tests/broken_adapters/broken_adapter.py``, each with a rule set under
which it shows: every one of them shows under standard but the stock's lock, which is classic's.
A test that runs a broken adapter plays that one rule set."""

from __future__ import annotations

BUGS = {
    "queen-into-space": "standard",
    "cross-suit": "standard",
    "one-collection-per-action": "standard",
    "no-collection-after-deal": "standard",
    "stock-refused-onto-space": "standard",
    "no-stock-lock": "classic",
    "undo-forgets-flip": "standard",
    "whole-column-listed": "standard",
}
