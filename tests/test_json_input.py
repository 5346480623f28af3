"""The one JSON reader of everything from outside (adapters' answers, reports, results files):
it refuses what is not JSON and nesting past its limit, and reads the rest as ``json`` does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorpion_conformance.json_input import InputError, parse


def depth(value: Any) -> int:
    """How many levels of arrays and objects ``value`` nests (0 for a scalar)."""
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    if children is None:
        return 0
    return 1 + max((depth(child) for child in children), default=0)


values = st.recursive(st.none() | st.booleans() | st.integers() | st.text("[]{}\"\\ax", max_size=6),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("[{a", max_size=3),
                                                                                   inner, max_size=3),
                      max_leaves=40)


@given(values, st.integers(min_value=1, max_value=8))
def test_a_document_is_refused_exactly_when_it_nests_past_the_limit(value: Any, limit: int) -> None:
    text = json.dumps(value)
    if depth(value) > limit:
        with pytest.raises(InputError, match=f"nested more than {limit} levels deep"):
            parse(text, "it", max_depth=limit)
    else:
        assert parse(text, "it", max_depth=limit) == value


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_the_limit_is_the_deepest_accepted(opening: str) -> None:
    closing = "]" if opening == "[" else "}"
    assert depth(parse(opening * 64 + "1" + closing * 64, "it")) == 64
    with pytest.raises(InputError, match="nested more than 64 levels deep"):
        parse(opening * 65 + "1" + closing * 65, "it")


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = json.dumps({"line": "[" * 200 + "{" * 200})
    assert parse(text, "it", max_depth=2) == json.loads(text)


@pytest.mark.parametrize(("data", "says"), [
    (b"\xff", "it: not UTF-8"), ("NaN", "it: not JSON"), ("[1,", "it: not JSON"),
    ("[Infinity]", "it: not JSON"), ("\ufeff{}", "it: not JSON"),
])
def test_what_is_not_json_is_named(data: str | bytes, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse(data, "it")
