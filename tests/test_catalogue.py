"""Lint the rule catalogue ``scorpion_ref/catalogue.yaml``.

The catalogue is data that docs and scenarios are generated from, so its
shape, its option vocabulary, its citations and its wording are checked here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorpion_shared import vocabulary

REPO_ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = REPO_ROOT / "scorpion_ref" / "catalogue.yaml"
SEEDS_DIR = Path(__file__).resolve().parents[2] / "shared" / "seeds"

ID_PATTERN = re.compile(r"^R-[A-Z0-9-]+$")
SEED_NAME_PATTERN = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")
PROGRAM_SOURCES = frozenset({"PySolFC", "Aisleriot"})

AREA_IDS = (
    "deal",
    "moving-groups",
    "placement",
    "empty-columns",
    "face-down",
    "collecting-runs",
    "runs-stay",
    "stock",
    "winning-losing",
    "undo",
    "variants",
)

#: The options and values a rule may hold under: the vocabulary's.
VOCABULARY: dict[str, frozenset[str]] = {
    option: frozenset(values) for option, values in vocabulary.OPTIONS.items()
}

REQUIRED_FIELDS = ("id", "area", "title", "statement", "holds_under", "sources", "decision")

MIN_ENTRIES = 60
MAX_ENTRIES = 110
SHARED_RUN = 8  # this many consecutive words in common with a seed counts as copying


def _load() -> dict[str, Any]:
    with CATALOGUE.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert isinstance(data, dict), "catalogue.yaml must be a mapping at the top level"
    return data


CATALOGUE_DATA = _load() if CATALOGUE.exists() else {}
RULES: list[dict[str, Any]] = [
    rule for rule in CATALOGUE_DATA.get("rules") or [] if isinstance(rule, dict)
]


def _rule_id(rule: dict[str, Any]) -> str:
    return str(rule.get("id", "<no id>"))


per_rule = pytest.mark.parametrize("rule", RULES, ids=[_rule_id(rule) for rule in RULES])


def _words(text: str) -> list[str]:
    """Lower-case words with punctuation stripped ("King-to-Ace" -> king to ace)."""
    return re.findall(r"[a-z0-9]+", text.lower())


def _shingles(words: list[str], size: int) -> Iterator[tuple[str, ...]]:
    for start in range(len(words) - size + 1):
        yield tuple(words[start : start + size])


def _seed_shingles() -> set[tuple[str, ...]]:
    shingles: set[tuple[str, ...]] = set()
    for seed in sorted(SEEDS_DIR.glob("*.txt")):
        shingles.update(_shingles(_words(seed.read_text(encoding="utf-8")), SHARED_RUN))
    return shingles


# ---------------------------------------------------------------- file level


def test_catalogue_loads() -> None:
    assert CATALOGUE.exists(), f"missing {CATALOGUE}"
    data = _load()
    assert isinstance(data.get("areas"), list), "top-level `areas:` list is missing"
    assert isinstance(data.get("rules"), list), "top-level `rules:` list is missing"
    assert all(isinstance(rule, dict) for rule in data["rules"]), "every rule is a mapping"


def test_areas_are_the_known_ones_in_display_order() -> None:
    areas = CATALOGUE_DATA["areas"]
    assert [area.get("id") for area in areas] == list(AREA_IDS)
    for area in areas:
        assert isinstance(area.get("title"), str) and area["title"].strip(), area


def test_entry_count() -> None:
    assert MIN_ENTRIES <= len(RULES) <= MAX_ENTRIES, f"{len(RULES)} entries"


def test_ids_are_unique() -> None:
    ids = [_rule_id(rule) for rule in RULES]
    duplicates = sorted({rule_id for rule_id in ids if ids.count(rule_id) > 1})
    assert not duplicates, f"duplicate ids: {duplicates}"


def test_every_area_has_rules() -> None:
    used = {rule.get("area") for rule in RULES}
    assert set(AREA_IDS) <= used, f"areas without rules: {sorted(set(AREA_IDS) - used)}"


# ---------------------------------------------------------------- per entry


@per_rule
def test_required_fields(rule: dict[str, Any]) -> None:
    missing = [field for field in REQUIRED_FIELDS if field not in rule]
    assert not missing, f"{_rule_id(rule)} lacks {missing}"
    for field in ("title", "statement"):
        assert isinstance(rule[field], str) and rule[field].strip(), field
    assert isinstance(rule["decision"], bool)
    assert isinstance(rule["sources"], list)
    assert isinstance(rule["holds_under"], dict)


@per_rule
def test_id_format(rule: dict[str, Any]) -> None:
    assert ID_PATTERN.match(str(rule.get("id", ""))), _rule_id(rule)


@per_rule
def test_area_is_known(rule: dict[str, Any]) -> None:
    assert rule.get("area") in AREA_IDS, f"{_rule_id(rule)}: unknown area {rule.get('area')!r}"


@per_rule
def test_holds_under_uses_the_vocabulary(rule: dict[str, Any]) -> None:
    for key, value in (rule.get("holds_under") or {}).items():
        assert key in VOCABULARY, f"{_rule_id(rule)}: unknown option {key!r}"
        values = value if isinstance(value, list) else [value]
        assert values, f"{_rule_id(rule)}: empty value list for {key!r}"
        for item in values:
            assert item in VOCABULARY[key], f"{_rule_id(rule)}: {key}={item!r} is not allowed"


@per_rule
def test_sources_exist(rule: dict[str, Any]) -> None:
    for source in rule.get("sources") or []:
        if source in PROGRAM_SOURCES:
            continue
        assert isinstance(source, str), f"{_rule_id(rule)}: source {source!r}"
        if SEEDS_DIR.is_dir():
            assert (SEEDS_DIR / source).is_file(), f"{_rule_id(rule)}: no seed file {source}"
        else:
            assert SEED_NAME_PATTERN.match(source), f"{_rule_id(rule)}: bad source {source!r}"


@per_rule
def test_non_decisions_cite_a_source(rule: dict[str, Any]) -> None:
    if not rule.get("decision"):
        assert rule.get("sources"), f"{_rule_id(rule)} states a rule but cites no source"


@per_rule
def test_decisions_have_a_rationale(rule: dict[str, Any]) -> None:
    if rule.get("decision"):
        rationale = rule.get("rationale")
        assert isinstance(rationale, str) and rationale.strip(), _rule_id(rule)


@per_rule
def test_statement_avoids_should(rule: dict[str, Any]) -> None:
    assert not re.search(r"\bshould\b", str(rule.get("statement", "")), re.IGNORECASE), (
        f"{_rule_id(rule)}: state the rule, do not say 'should'"
    )


