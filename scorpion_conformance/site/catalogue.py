"""The rule catalogue (``scorpion_ref/catalogue.yaml``) as the site reads it.

>>> catalogue = load_catalogue()
>>> catalogue.rule("R-EMPTY-KING-ONLY").area
'empty-columns'
>>> held = holds_in(catalogue.rule("R-EMPTY-KING-ONLY"))
>>> held[:4], "wasp" in held
(['standard', 'classic', 'pysolfc', 'aisleriot'], False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from scorpion_conformance.suite.tags import NAMED_RULESETS, matches

__all__ = ["Area", "Catalogue", "Rule", "catalogue_path", "holds_in", "load_catalogue"]


@dataclass(frozen=True)
class Area:
    """A rule area: one page of the site."""

    id: str
    title: str


@dataclass(frozen=True)
class Rule:
    """One catalogue entry."""

    id: str
    area: str
    title: str
    statement: str
    holds_under: Mapping[str, tuple[str, ...]]
    sources: tuple[str, ...]
    decision: bool
    rationale: str = ""
    checked_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalogue:
    """The areas and rules, in catalogue order."""

    areas: tuple[Area, ...]
    rules: tuple[Rule, ...]

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id; raises :class:`KeyError`."""
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    def area(self, area_id: str) -> Area:
        """The area with this id; raises :class:`KeyError`."""
        for area in self.areas:
            if area.id == area_id:
                return area
        raise KeyError(area_id)

    def rules_in(self, area_id: str) -> list[Rule]:
        return [rule for rule in self.rules if rule.area == area_id]

    @property
    def ids(self) -> list[str]:
        return [rule.id for rule in self.rules]


def catalogue_path() -> Path:
    """Where the catalogue lives (next to the reference engine)."""
    import scorpion_ref

    return Path(scorpion_ref.__file__).parent / "catalogue.yaml"


def _values(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else (str(value),)


def load_catalogue(path: Path | None = None) -> Catalogue:
    """Read the catalogue; raises :class:`ValueError` for an entry of an unknown area."""
    data = yaml.safe_load((path or catalogue_path()).read_text(encoding="utf-8"))
    areas = tuple(Area(str(a["id"]), str(a["title"])) for a in data["areas"])
    known = {a.id for a in areas}
    rules = []
    for entry in data["rules"]:
        if entry["area"] not in known:
            raise ValueError(f"{entry['id']}: unknown area {entry['area']!r}")
        rules.append(
            Rule(
                id=str(entry["id"]),
                area=str(entry["area"]),
                title=str(entry["title"]),
                statement=" ".join(str(entry["statement"]).split()),
                holds_under={k: _values(v) for k, v in (entry.get("holds_under") or {}).items()},
                sources=tuple(str(s) for s in entry.get("sources") or ()),
                decision=bool(entry.get("decision")),
                rationale=" ".join(str(entry.get("rationale") or "").split()),
                checked_by=tuple(str(t) for t in entry.get("checked_by") or ()),
            )
        )
    return Catalogue(areas, tuple(rules))


def holds_in(rule: Rule, rulesets: Mapping[str, Mapping[str, str]] = NAMED_RULESETS) -> list[str]:
    """The rule sets (by name, in their order) under which the rule holds."""
    return [name for name, options in rulesets.items() if matches(options, rule.holds_under)]
