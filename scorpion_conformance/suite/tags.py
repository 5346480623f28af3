"""The tags a scenario carries, and what they require of a rule set.

* An **option tag** names an option value the scenario depends on, such as
  ``@runs-collect`` or ``@whole-column-refused``. Tags of different options
  must all hold; several tags of one option mean any of those values. A
  scenario with no tag of an option holds under each of its values, except
  for an option the vocabulary marks ``"tagged": false`` (one added since the
  scenarios were written, and not yet reviewed for them): there a scenario
  without its tag runs only where the option holds its default.
* A **capability tag** (``@undo``) names a protocol capability the adapter
  must declare.
* The **id tag** (``@id:MOVE-004``) is the scenario's stable id, never reused.
* A **catalogue tag** (``@R-EMPTY-KING-ONLY``) names a rule of
  ``scorpion_ref/catalogue.yaml`` that the scenario tests; on a ``Rule:`` it
  applies to every example below.
* The **synthetic tag** (``@synthetic``) marks a scenario whose start position
  no game reaches from a deal (docs/protocol.md, "Synthetic positions"): an
  adapter may answer its start with ``unsupported-position``.

The option tags and the named rule sets are the vocabulary's
(:mod:`scorpion_shared.vocabulary`): each value of an option has one tag.

>>> options, capabilities = requirements({"runs-stay", "stock-when-stuck", "undo", "id:STOCK-001"})
>>> options["runs"], options["stock"], capabilities
(('stay',), ('when-stuck',), ('undo',))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from scorpion_shared import vocabulary

__all__ = [
    "CAPABILITY_TAGS",
    "CATALOGUE_TAG",
    "ID_TAG",
    "NAMED_RULESETS",
    "OPTION_TAGS",
    "SYNTHETIC_TAG",
    "marker_lines",
    "matches",
    "requirements",
    "scenario_id",
    "unknown_tags",
]

#: Option tag → (option, value), from the vocabulary.
OPTION_TAGS: Mapping[str, tuple[str, str]] = vocabulary.OPTION_TAGS

#: Capability tag → the capability an adapter declares in its hello.
CAPABILITY_TAGS: dict[str, str] = {"undo": "undo"}

#: The tag of a scenario whose start position cannot arise from a deal.
SYNTHETIC_TAG = "synthetic"

ID_TAG = re.compile(r"^id:([A-Z]+-\d{3})$")
CATALOGUE_TAG = re.compile(r"^R-[A-Z0-9-]+$")

#: The suite's named rule sets and their options, from the vocabulary.
NAMED_RULESETS: Mapping[str, Mapping[str, str]] = vocabulary.NAMED_RULESETS


def marker_lines() -> list[str]:
    """The pytest markers of the option, capability and synthetic tags (``name: meaning``)."""
    return [
        *(f"{tag}: runs only where {option} is {value}" for tag, (option, value) in OPTION_TAGS.items()),
        *(f"{tag}: needs the adapter capability {capability}" for tag, capability in CAPABILITY_TAGS.items()),
        f"{SYNTHETIC_TAG}: its start position cannot arise from a deal",
    ]


def requirements(tags: Iterable[str]) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The option values and capabilities a set of tags requires (an option marked
    ``"tagged": false`` and not tagged: its default)."""
    options: dict[str, tuple[str, ...]] = {}
    capabilities: list[str] = []
    for tag in sorted(tags):
        if tag in OPTION_TAGS:
            option, value = OPTION_TAGS[tag]
            options[option] = (*options.get(option, ()), value)
        elif tag in CAPABILITY_TAGS:
            capabilities.append(CAPABILITY_TAGS[tag])
    for option, default in vocabulary.UNTAGGED_DEFAULTS.items():
        options.setdefault(option, (default,))
    return options, tuple(capabilities)


def matches(options: Mapping[str, str], required: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether a rule set's options satisfy the required values."""
    return all(options.get(option) in values for option, values in required.items())


def scenario_id(tags: Iterable[str]) -> str | None:
    """The id of a scenario from its tags (``"MOVE-004"``), or None."""
    for tag in tags:
        match = ID_TAG.match(tag)
        if match:
            return match.group(1)
    return None


def unknown_tags(tags: Iterable[str]) -> list[str]:
    """Tags outside the vocabulary (not option, capability, id, catalogue or synthetic tags)."""
    return sorted(
        tag for tag in tags
        if tag not in OPTION_TAGS and tag not in CAPABILITY_TAGS and tag != SYNTHETIC_TAG
        and not ID_TAG.match(tag) and not CATALOGUE_TAG.match(tag)
    )
