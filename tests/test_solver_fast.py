"""The solver's own representation (scorpion_ref.solver.fast) against the engine.

On thousands of random positions under every combination of the rule options:
the legal moves (in the engine's order, with the deal), how many are
available, the position after each of them, and the status are the engine's.
The symmetry key of the search does not change when the columns the stock
cannot reach are permuted, and changes whenever anything else does.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import all_rulesets, near_complete_positions, played_positions, positions, rulesets

from scorpion_ref import DECK, Deal, Position, RuleSet, apply, available_actions, legal_actions, status
from scorpion_ref.solver.fast import (
    Flags,
    apply_move,
    card_number,
    card_of,
    decode,
    encode,
    knows,
    legal,
    status_of,
    to_action,
)
from scorpion_ref.solver.reductions import canonical_key
from scorpion_ref.solver.search import _latent_run

any_position = st.one_of(positions(), played_positions(), near_complete_positions())
many = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))


def test_card_numbers_round_trip() -> None:
    assert [card_of(card_number(card)) for card in DECK] == list(DECK)
    assert sorted(card_number(card) for card in DECK) == list(range(52))


@many
@given(any_position, st.one_of(all_rulesets, rulesets))
def test_moves_effects_and_status_are_the_engines(position: Position, rules: RuleSet) -> None:
    assume(knows(rules))  # other rule sets are searched through the engine itself
    flags = Flags.of(rules)
    state = encode(position)
    assert decode(state) == position
    moves, available = legal(state, flags)
    actions = [to_action(state, move) for move in moves]
    assert tuple(actions) == legal_actions(position, rules)
    assert available == sum(1 for a in available_actions(position, rules) if not isinstance(a, Deal))
    assert status_of(state, flags) is status(position, rules)
    latent = _latent_run(state)
    for move, action in zip(moves, actions, strict=True):
        after = apply(position, rules, action).position
        assert decode(apply_move(state, flags, move, sweep=True)) == after
        if not latent:  # the search sweeps every column only where a run may wait uncollected
            assert decode(apply_move(state, flags, move)) == after


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(any_position, st.randoms(use_true_random=False))
def test_the_key_forgets_only_the_order_of_the_columns_the_stock_cannot_reach(
    position: Position, rnd: random.Random
) -> None:
    reach = len(position.stock)
    columns = list(position.columns)
    tail = columns[reach:]
    rnd.shuffle(tail)
    permuted = Position((*columns[:reach], *tail), position.stock, position.collected)
    assert canonical_key(encode(permuted)) == canonical_key(encode(position))
    if reach and len({*columns[:reach], *columns[reach:]}) > 1:
        # Swapping a reachable column with another that differs changes the key.
        i = rnd.randrange(reach)
        j = next(k for k in range(7) if columns[k] != columns[i])
        swapped = list(columns)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        other = Position(tuple(swapped), position.stock, position.collected)
        assert canonical_key(encode(other)) != canonical_key(encode(position))
