"""Rule options and the named rule sets, as data.

Every point where the sources or the well-known programs disagree is one
option of :class:`RuleSet`; a named rule set is a bundle of option values.
The options, their values and the named sets are written once, in
``vocabulary.json`` (see :mod:`scorpion_shared.vocabulary`), and read from there.
The engine reads options, never rule set names.

>>> get_ruleset("classic").stock
'when-stuck'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

from scorpion_shared.vocabulary import OPTION_DEFAULTS, OPTIONS, VOCABULARY
from scorpion_shared.words import OptionValues

from .errors import UnknownRuleSet

__all__ = ["OPTIONS", "OPTION_DEFAULTS", "RULESETS", "RuleSet", "get_ruleset"]


def _values(name: str, options: Mapping[str, Any]) -> tuple[str, ...]:
    """The value of every option, in the vocabulary's order; raises :class:`UnknownRuleSet`."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise UnknownRuleSet(f"rule set {name!r}: unknown option {', '.join(unknown)}")
    given = {**OPTION_DEFAULTS, **options}
    missing = [option for option in OPTIONS if option not in given]
    if missing:
        raise UnknownRuleSet(f"rule set {name!r}: missing option {', '.join(missing)}")
    for option, values in OPTIONS.items():
        if given[option] not in values:
            raise UnknownRuleSet(
                f"rule set {name!r}: {option} must be one of "
                f"{', '.join(values)}, not {given[option]!r}"
            )
    return tuple(given[option] for option in OPTIONS)


@dataclass(slots=True, init=False, unsafe_hash=True)
class RuleSet(OptionValues):
    """A named bundle of rule options: one value for each option of the vocabulary.

    Each option reads as a typed attribute (``rules.stock``, of the ``Literal``
    type :data:`scorpion_shared.words.Stock`, made from the vocabulary by the
    generated :class:`~scorpion_shared.words.OptionValues`), and :attr:`options`
    gives them all. Options with a default in the vocabulary may be left out.
    ``sources`` names the documents (seed files or programs)
    the bundle follows. A rule set is immutable and hashable. Raises
    :class:`UnknownRuleSet` for an unknown option, a bad value or a missing
    option.

    >>> RuleSet("mine", runs="stay", stock="any-time", empty_column="any",
    ...         whole_column_to_empty="refused").win
    'four-runs'
    """

    name: str
    #: The option values, in the vocabulary's order of options.
    values: tuple[str, ...]
    summary: str
    sources: tuple[str, ...]

    def __init__(self, name: str, summary: str = "", sources: tuple[str, ...] = (), **options: Any) -> None:
        values = options.pop("values", None)
        if values is not None:  # dataclasses.replace passes the old values, and the changes
            options = {**dict(zip(OPTIONS, values, strict=True)), **options}
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "values", _values(name, options))
        object.__setattr__(self, "summary", summary)
        object.__setattr__(self, "sources", tuple(sources))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a rule set is immutable")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: a rule set is immutable")

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy rebuild through __init__
        return (_rebuild, (self.name, self.summary, self.sources, self.options))

    @property
    def options(self) -> dict[str, str]:
        """Every option's value, keyed by option name."""
        return dict(zip(OPTIONS, self.values, strict=True))

    @classmethod
    def from_options(cls, name: str, options: Mapping[str, Any]) -> RuleSet:
        """A custom bundle; options with a default may be left out.

        Raises :class:`UnknownRuleSet` for an unknown option, a bad value or a
        missing option.

        >>> RuleSet.from_options("mine", {"runs": "collect", "stock": "any-time",
        ...     "empty_column": "king", "whole_column_to_empty": "allowed"}).win
        'four-runs'
        """
        if not isinstance(options, Mapping):
            raise UnknownRuleSet(f"rule set {name!r}: options must be a mapping")
        _values(name, options)  # the unknown options first, before ** would refuse them
        return cls(name, **options)

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


def _rebuild(name: str, summary: str, sources: tuple[str, ...], options: dict[str, str]) -> RuleSet:
    return RuleSet(name, summary, sources, **options)


#: The named rule sets the suite defines, by name, as the vocabulary lists them.
RULESETS: dict[str, RuleSet] = {
    named.name: RuleSet(named.name, named.summary, named.sources, **named.options)
    for named in VOCABULARY.rulesets
}


def get_ruleset(name: str) -> RuleSet:
    """The named rule set; raises :class:`UnknownRuleSet` naming the known ones."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleSet(
            f"unknown rule set {name!r}; known: {', '.join(RULESETS)}"
        ) from None
