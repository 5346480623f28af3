"""Two mutation operators of our own, for Scorpion-specific slips that cosmic-ray's
generic operators cannot make: a rule option compared with the wrong one of its
values, and a rank named one step off.

cosmic-ray never mutates string literals, so ``rules.stock == "when-stuck"``
is only ever negated, never pointed at the option's other value; and
``Rank.KING`` is an attribute, not a number, so no operator turns it into the
Queen. Both are :class:`cosmic_ray.operators.operator.Operator` subclasses and
are applied by cosmic-ray's own mutation visitor.

>>> from cosmic_ray.mutating import mutate_code
>>> mutate_code('if rules.stock == "when-stuck": pass', OptionValue(), 0)
'if rules.stock == "any-time": pass'
>>> mutate_code("x = card.rank is Rank.KING", RankStep(), 0)
'x = card.rank is Rank.QUEEN'
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import parso
from cosmic_ray.operators.operator import Example, Operator

from scorpion_shared import vocabulary

__all__ = ["OWN_OPERATORS", "OptionValue", "RankStep"]

Position = tuple[int, int]

#: Each option value → the other values of its option (the values are unique across options).
_OTHER_VALUES: dict[str, tuple[str, ...]] = {
    value: tuple(v for v in values if v != value)
    for values in vocabulary.OPTIONS.values()
    for value in values
}

_RANKS = ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
          "JACK", "QUEEN", "KING")


def _literal(node: Any) -> str | None:
    if node.type != "string":
        return None
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


class OptionValue(Operator):  # type: ignore[misc]
    """A string literal that is a rule option's value becomes each other value of that option."""

    def mutation_positions(self, node: Any) -> Iterator[tuple[Position, Position]]:
        value = _literal(node)
        if value is not None:
            for _ in _OTHER_VALUES.get(value, ()):
                yield node.start_pos, node.end_pos

    def mutate(self, node: Any, index: int) -> Any:
        value = _literal(node)
        assert value is not None
        quote = node.value[-1]
        new = _OTHER_VALUES[value][index]
        return parso.python.tree.String(f"{node.prefix}{quote}{new}{quote}", node.start_pos)

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example('x = "king"', 'x = "any"'),)


def _rank_name(node: Any) -> str | None:
    """The member name of ``Rank.X`` when ``node`` is that ``X``."""
    if node.type != "name" or node.value not in _RANKS:
        return None
    trailer = node.parent
    if trailer is None or trailer.type != "trailer" or trailer.children[0].type != "operator":
        return None
    owner = trailer.get_previous_sibling()
    if owner is None or owner.type != "name" or owner.value != "Rank":
        return None
    return str(node.value)


def _neighbours(name: str) -> tuple[str, ...]:
    i = _RANKS.index(name)
    return tuple(_RANKS[j] for j in (i - 1, i + 1) if 0 <= j < len(_RANKS))


class RankStep(Operator):  # type: ignore[misc]
    """``Rank.X`` becomes the rank just below it, and the rank just above it."""

    def mutation_positions(self, node: Any) -> Iterator[tuple[Position, Position]]:
        name = _rank_name(node)
        if name is not None:
            for _ in _neighbours(name):
                yield node.start_pos, node.end_pos

    def mutate(self, node: Any, index: int) -> Any:
        name = _rank_name(node)
        assert name is not None
        return parso.python.tree.Name(_neighbours(name)[index], node.start_pos, node.prefix)

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("x = Rank.ACE", "x = Rank.TWO"),)


#: Our operators by the name a mutant records.
OWN_OPERATORS: dict[str, type[Operator]] = {
    "scorpion/OptionValue": OptionValue,
    "scorpion/RankStep": RankStep,
}
