"""Rule options and the named rule sets, as data.

Every point where the sources or the well-known programs disagree is one
option of :class:`RuleSet`; a named rule set is a bundle of option values.
The engine reads options, never rule set names.

>>> get_ruleset("classic").stock
'when-stuck'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import UnknownRuleSet

__all__ = ["OPTIONS", "RULESETS", "RuleSet", "get_ruleset"]

Runs = Literal["collect", "stay"]
Stock = Literal["any-time", "when-stuck"]
EmptyColumn = Literal["king", "any"]
WholeColumn = Literal["refused", "allowed"]
Win = Literal["four-runs", "one-run-per-column"]
FinishedRunMoves = Literal["ignored", "counted"]

#: Every option with its values, the first value being its default where it may be left out.
OPTIONS: dict[str, tuple[str, ...]] = {
    "runs": ("collect", "stay"),
    "stock": ("any-time", "when-stuck"),
    "empty_column": ("king", "any"),
    "whole_column_to_empty": ("refused", "allowed"),
    "win": ("four-runs", "one-run-per-column"),
    "finished_run_moves": ("ignored", "counted"),
}

#: Options a custom bundle may leave out, with the value they then take.
OPTIONAL = {"win": "four-runs", "finished_run_moves": "ignored"}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A named bundle of the six rule options.

    ``sources`` names the documents (seed files or programs) the bundle follows.
    """

    name: str
    runs: Runs
    stock: Stock
    empty_column: EmptyColumn
    whole_column_to_empty: WholeColumn
    win: Win = "four-runs"
    finished_run_moves: FinishedRunMoves = "ignored"
    summary: str = ""
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for option, values in OPTIONS.items():
            value = getattr(self, option)
            if value not in values:
                raise UnknownRuleSet(
                    f"rule set {self.name!r}: {option} must be one of "
                    f"{', '.join(values)}, not {value!r}"
                )

    @property
    def options(self) -> dict[str, str]:
        """The six option values, keyed by option name."""
        return {option: getattr(self, option) for option in OPTIONS}

    @classmethod
    def from_options(cls, name: str, options: Mapping[str, Any]) -> RuleSet:
        """A custom bundle; ``win`` and ``finished_run_moves`` may be left out.

        Raises :class:`UnknownRuleSet` for an unknown option, a bad value or a
        missing option.

        >>> RuleSet.from_options("mine", {"runs": "collect", "stock": "any-time",
        ...     "empty_column": "king", "whole_column_to_empty": "allowed"}).win
        'four-runs'
        """
        if not isinstance(options, Mapping):
            raise UnknownRuleSet(f"rule set {name!r}: options must be a mapping")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise UnknownRuleSet(f"rule set {name!r}: unknown option {', '.join(unknown)}")
        values = {**OPTIONAL, **options}
        missing = [option for option in OPTIONS if option not in values]
        if missing:
            raise UnknownRuleSet(f"rule set {name!r}: missing option {', '.join(missing)}")
        return cls(name=name, **{option: values[option] for option in OPTIONS})

    def matches(self, required: Mapping[str, str | tuple[str, ...]]) -> bool:
        """Whether every required option value (or one of several) holds here."""
        for option, wanted in required.items():
            allowed = (wanted,) if isinstance(wanted, str) else tuple(wanted)
            if getattr(self, option) not in allowed:
                return False
        return True

    def __repr__(self) -> str:
        if RULESETS.get(self.name) == self:
            return f"get_ruleset({self.name!r})"
        return f"RuleSet.from_options({self.name!r}, {self.options!r})"


def _named(name: str, values: str, summary: str, sources: tuple[str, ...]) -> RuleSet:
    options: dict[str, Any] = dict(zip(OPTIONS, values.split(), strict=True))
    return RuleSet(name=name, summary=summary, sources=sources, **options)


#: The named rule sets the suite defines, by name.
RULESETS: dict[str, RuleSet] = {
    rules.name: rules
    for rules in (
        _named(
            "standard",
            "collect any-time king refused four-runs ignored",
            "Finished runs leave the table; the stock may be dealt at any time.",
            ("000_712d3b658eade62b.txt", "001_7fccbda185903fcd.txt",
             "002_a31f42e1a68709e8.txt", "004_7c2733e909f6c65e.txt"),
        ),
        _named(
            "classic",
            "stay when-stuck king refused four-runs ignored",
            "Finished runs stay in their column; the stock only when no other move is left.",
            ("001_7fccbda185903fcd.txt", "003_da4b34f3cb95d2da.txt"),
        ),
        _named(
            "wasp",
            "collect any-time any refused four-runs ignored",
            "Standard Scorpion whose empty columns take any card.",
            ("000_712d3b658eade62b.txt", "001_7fccbda185903fcd.txt",
             "002_a31f42e1a68709e8.txt", "003_da4b34f3cb95d2da.txt", "PySolFC"),
        ),
        _named(
            "pysolfc",
            "collect any-time king allowed four-runs ignored",
            "How PySolFC plays Scorpion: finished runs drop off, a whole King column may move.",
            ("PySolFC",),
        ),
        _named(
            "aisleriot",
            "stay any-time king allowed one-run-per-column counted",
            "How GNOME Aisleriot plays Scorpion: runs stay and each must stand alone.",
            ("Aisleriot",),
        ),
    )
}


def get_ruleset(name: str) -> RuleSet:
    """The named rule set; raises :class:`UnknownRuleSet` naming the known ones."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleSet(
            f"unknown rule set {name!r}; known: {', '.join(RULESETS)}"
        ) from None
