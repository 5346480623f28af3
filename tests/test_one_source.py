"""Where a fact of Scorpion has to be written twice, the copies are held equal here.

The suite may not import the engine (it must judge any implementation), so it
keeps its own card reader and option vocabulary; the protocol doc lists the
reason codes in prose. These tests tie each copy to its source.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import scorpion_ref
from scorpion_conformance import protocol
from scorpion_conformance.suite import notation
from scorpion_conformance.suite.tags import OPTION_TAGS

ROOT = Path(__file__).resolve().parents[1]


@given(st.sampled_from(scorpion_ref.DECK), st.booleans())
def test_the_suite_reads_cards_as_the_engine_writes_them(card: scorpion_ref.Card, fancy: bool) -> None:
    text = card.unicode if fancy else str(card)
    assert notation.parse_card(text).code == str(card)
    assert notation.show_card(str(card)) == card.unicode


def test_there_is_one_option_tag_per_option_value() -> None:
    tagged = sorted(OPTION_TAGS.values())
    assert tagged == sorted((o, v) for o, values in protocol.OPTIONS.items() for v in values)


def test_the_protocol_doc_lists_every_reason_code() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    missing = [reason for reason in protocol.REASONS if f"`{reason}`" not in text]
    assert not missing, f"docs/protocol.md does not explain: {missing}"
