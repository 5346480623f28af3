"""The copies of the vocabulary that other files hold, generated from it.

Four files restate parts of ``scorpion_ref/vocabulary.json`` for their
readers: :mod:`scorpion_shared.words` (the words as ``Literal`` types, for
the type checker), ``adapters/javascript/vocabulary.js`` (the words the
JavaScript engine reads, being another language), the JSON Schema (its enums of option values, rule set
names, error codes, commands, statuses, and the card pattern) and
``docs/protocol.md`` (the tables of options, named rule sets, error codes and
reasons, between ``<!-- vocabulary-NAME:start ... -->`` and
``<!-- vocabulary-NAME:end -->`` markers). This module renders them;
``python -m scorpion_conformance.generated --write`` rewrites them,
``--check`` lists the stale ones, and a test fails while any is stale.

>>> character_class("A23456789TJQK")
'A2-9TJQK'
>>> print(english(["`a`", "`b`", "`c`"]))
`a`, `b` and `c`
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scorpion_shared.vocabulary import (
    COMMANDS,
    ERROR_CODES,
    NAMED_RULESETS,
    OPTION_DEFAULTS,
    OPTIONS,
    RANKS,
    REASONS,
    STATUSES,
    SUITS,
    VOCABULARY,
)

__all__ = [
    "COMMAND",
    "DOC",
    "JAVASCRIPT",
    "SCHEMA",
    "TARGETS",
    "WORDS",
    "character_class",
    "doc_regions",
    "dump_json",
    "english",
    "fill_regions",
    "javascript_text",
    "main",
    "schema_text",
    "stale",
    "type_name",
    "words_text",
    "write",
]

#: The command that regenerates every copy.
COMMAND = "python -m scorpion_conformance.generated --write"

#: The generated files, relative to the checkout.
WORDS = "scorpion_shared/words.py"
SCHEMA = "scorpion_conformance/schemas/protocol-v1.json"
DOC = "docs/protocol.md"
JAVASCRIPT = "adapters/javascript/vocabulary.js"

#: How wide a JSON line of the schema may grow before its object is broken over lines.
JSON_WIDTH = 110

_ROOT = Path(__file__).resolve().parents[1]


def character_class(letters: str) -> str:
    """The letters as the body of a regular-expression class, runs of three or more as ranges."""
    out: list[str] = []
    i = 0
    while i < len(letters):
        j = i
        while j + 1 < len(letters) and ord(letters[j + 1]) == ord(letters[j]) + 1:
            j += 1
        out.append(letters[i] + "-" + letters[j] if j - i >= 2 else letters[i : j + 1])
        i = j + 1
    return "".join(out)


def english(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# -- the typed words -----------------------------------------------------------------


def type_name(option: str) -> str:
    """The name of an option's ``Literal`` type.

    >>> type_name("whole_column_to_empty")
    'WholeColumnToEmpty'
    """
    return "".join(part.title() for part in option.split("_"))


def _literal(values: Sequence[str]) -> str:
    return "Literal[" + ", ".join(json.dumps(v) for v in values) + "]"


def _alias(name: str, values: Sequence[str], comment: str) -> list[str]:
    line = f"{name} = {_literal(values)}"
    if len(line) > JSON_WIDTH:
        line = f"{name} = Literal[\n" + "".join(f"    {json.dumps(v)},\n" for v in values) + "]"
    return [f"#: {comment}", line, ""]


def words_text(_current: str = "") -> str:
    """The source of :mod:`scorpion_shared.words`, rendered from the vocabulary alone."""
    lines = [
        '"""The vocabulary\'s words as types, for the type checker: generated, do not edit.',
        "",
        "Rendered from ``scorpion_ref/vocabulary.json`` by",
        f"``{COMMAND}``;",
        "a test fails while it is stale. Each option's values are a ``Literal`` type,",
        "and :class:`OptionValues` gives a rule set one typed attribute per option, so",
        "a misspelt value (``rules.stock == \"when-stcuk\"``) is an error of",
        "``mypy --strict``, not a comparison that is always false.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Literal, cast",
        "",
        "__all__ = [",
    ]
    names = [type_name(o) for o in OPTIONS]
    if len(set(names)) != len(names):
        raise ValueError(f"two options of the vocabulary make the same type name: {names}")
    kinds = ["CommandName", "ErrorCode", "OptionName", "ReasonCode", "RuleSetName", "StatusName"]
    lines += [f'    "{n}",' for n in sorted([*names, *kinds, "OptionValues"])] + ["]", ""]
    for option, values in OPTIONS.items():
        lines += _alias(type_name(option), values, f"The values of the option ``{option}``.")
    lines += _alias("OptionName", list(OPTIONS), "The rule options, in the vocabulary's order.")
    lines += _alias("RuleSetName", list(NAMED_RULESETS), "The named rule sets.")
    lines += _alias("ReasonCode", list(REASONS), "The reason codes of illegal actions.")
    lines += _alias("ErrorCode", list(ERROR_CODES), "The protocol's error codes.")
    lines += _alias("CommandName", list(COMMANDS), "The protocol's commands.")
    lines += _alias("StatusName", list(STATUSES), "The statuses of a game.")
    lines += [
        "",
        "class OptionValues:",
        '    """A rule set\'s option values as typed attributes, read from ``values`` (in the vocabulary\'s',
        '    order of options)."""',
        "",
        "    __slots__ = ()",
        "    values: tuple[str, ...]",
    ]
    for index, option in enumerate(OPTIONS):
        name = type_name(option)
        lines += [
            "",
            "    @property",
            f"    def {option}(self) -> {name}:",
            f'        """The value of the option ``{option}``."""',
            f'        return cast("{name}", self.values[{index}])',
        ]
    return "\n".join(lines) + "\n"


# -- the schema ----------------------------------------------------------------------


def _patch_schema(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema["$defs"]
    defs["card"]["pattern"] = f"^[{character_class(RANKS)}][{character_class(SUITS)}]$"
    defs["card"]["description"] = (
        f"a card: rank ({' '.join(RANKS)}) then suit ({' '.join(SUITS)}), as 9D or TH"
    )
    defs["suit"]["enum"] = list(SUITS)
    defs["suit"]["description"] = f"a suit letter: {english(list(SUITS))}".replace(" and ", " or ")
    defs["status"]["enum"] = list(STATUSES)
    optional = list(OPTION_DEFAULTS)
    values = english([OPTION_DEFAULTS[o] for o in optional])
    defs["option-values"]["description"] = (
        "the rule options of protocol version 1"
        + (f"; {english(optional)} may be left out and then default to {values}" if optional else "")
    )
    defs["option-values"]["required"] = [o for o in OPTIONS if o not in OPTION_DEFAULTS]
    defs["option-values"]["properties"] = {o: {"enum": list(v)} for o, v in OPTIONS.items()}
    defs["named-ruleset"]["enum"] = list(NAMED_RULESETS)
    defs["error-code"]["enum"] = list(ERROR_CODES)
    defs["request"]["properties"]["cmd"]["enum"] = list(COMMANDS)
    return schema


def dump_json(value: Any) -> str:
    """JSON with two-space indents, writing an object or list on one line where it fits.

    The schema, its ``$defs`` and each definition are always broken over lines.

    >>> print(dump_json({"a": {"b": {"c": [1, 2]}}}))
    {
      "a": {
        "b": {
          "c": [1, 2]
        }
      }
    }
    """
    return _dump(value, 0, 0, 0)


def _dump(value: Any, indent: int, depth: int, used: int) -> str:
    inline = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or (depth >= 3 and used + len(inline) < JSON_WIDTH):
        return inline
    pad = " " * (indent + 2)
    items = []
    if isinstance(value, dict):
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _dump(item, indent + 2, depth + 1, len(head)))
    else:
        items = [pad + _dump(item, indent + 2, depth + 1, len(pad)) for item in value]
    ends = "{}" if isinstance(value, dict) else "[]"
    return ends[0] + "\n" + ",\n".join(items) + "\n" + " " * indent + ends[1]


def schema_text(current: str) -> str:
    """The schema file with its vocabulary enums regenerated, everything else as it was."""
    return dump_json(_patch_schema(json.loads(current))) + "\n"


# -- docs/protocol.md ----------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def doc_regions() -> dict[str, str]:
    """The generated regions of ``docs/protocol.md``, by name."""
    options = ["| option | values | meaning |", "| --- | --- | --- |"] + [
        f"| `{o.name}` | {', '.join(f'`{v}`' for v in o.values)} | {_cell(o.meaning)} |"
        for o in VOCABULARY.options
    ]
    rulesets = [
        "| name | " + " | ".join(OPTIONS) + " |",
        "| --- |" + " --- |" * len(OPTIONS),
    ] + [f"| `{s.name}` | " + " | ".join(s.options.values()) + " |" for s in VOCABULARY.rulesets]
    required = [f"`{o}`" for o in OPTIONS if o not in OPTION_DEFAULTS]
    optional = [f"`{o}`" for o in OPTION_DEFAULTS]
    defaults = [f"`{v}`" for v in OPTION_DEFAULTS.values()]
    custom = f"{english(required)} {'is' if len(required) == 1 else 'are'} required"
    if optional:
        custom += f"; {english(optional)} may be left out and then mean {english(defaults)}"
    errors = ["| code | when |", "| --- | --- |"] + [
        f"| `{e.code}` | {_cell(e.meaning)} |" for e in VOCABULARY.error_codes
    ]
    reasons = ["| reason | the action refused |", "| --- | --- |"] + [
        f"| `{r.code}` | {_cell(r.meaning)} |" for r in VOCABULARY.reasons
    ]
    return {
        "options": "\n".join(options),
        "rulesets": "\n".join(rulesets),
        "custom-options": custom + ".",
        "error-codes": "\n".join(errors),
        "reasons": "\n".join(reasons),
    }


def _markers(name: str) -> tuple[str, str]:
    return (f"<!-- vocabulary-{name}:start (generated by `{COMMAND}`) -->",
            f"<!-- vocabulary-{name}:end -->")


def fill_regions(page: str, regions: dict[str, str], where: str = "the page") -> str:
    """``page`` with the text between each region's markers replaced.

    Raises :class:`ValueError` naming a region whose markers are missing.

    >>> page = "a\\n" + "\\n".join(_markers("x")) + "\\nb\\n"
    >>> fill_regions(page, {"x": "| t |"}).splitlines()[3]
    '| t |'
    """
    for name, text in regions.items():
        start, end = _markers(name)
        i, j = page.find(start), page.find(end)
        if i < 0 or j < i:
            raise ValueError(f"{where} has no markers {start} ... {end}")
        page = page[: i + len(start)] + "\n\n" + text + "\n\n" + page[j:]
    return page


# -- the JavaScript engine's words ----------------------------------------------------

_JS_WRAPPER = """\
// Generated from scorpion_ref/vocabulary.json by `{command}`: do not edit.
// The words the JavaScript engine shares with the reference: rule options and their values,
// the named rule sets, reason and error codes, statuses and the card alphabet.
(function (root, make) {{
  if (typeof module === 'object' && module.exports) module.exports = make();
  else root.ScorpionVocabulary = make();
}}(typeof self !== 'undefined' ? self : this, function () {{
  'use strict';
  const freeze = (value) => {{
    if (value && typeof value === 'object') Object.values(value).forEach(freeze);
    return Object.freeze(value);
  }};
  return freeze({body});
}}));
"""


def javascript_text(_current: str = "") -> str:
    """The JavaScript module (UMD: Node's ``require`` and a Web Worker's ``importScripts``):
    what the engine reads, with no prose but the rule sets' summaries."""
    data = {
        "options": [{"name": o.name, "values": list(o.values),
                     **({"default": o.default} if o.default is not None else {})}
                    for o in VOCABULARY.options],
        "rulesets": [{"name": s.name, "summary": s.summary, "options": dict(s.options)}
                     for s in VOCABULARY.rulesets],
        "reasons": list(REASONS),
        "error_codes": list(ERROR_CODES),
        "statuses": list(STATUSES),
        "ranks": [dataclasses.asdict(rank) for rank in VOCABULARY.ranks],
        "suits": [dataclasses.asdict(suit) for suit in VOCABULARY.suits],
    }
    body = json.dumps(data, indent=2, ensure_ascii=False)
    body = "\n".join(("  " + line if i else line) for i, line in enumerate(body.splitlines()))
    return _JS_WRAPPER.format(command=COMMAND, body=body)


# -- writing and checking ------------------------------------------------------------

#: Each generated file (relative to the checkout) and how it is rendered from its current text.
TARGETS: dict[str, Callable[[str], str]] = {
    WORDS: words_text,
    SCHEMA: schema_text,
    DOC: lambda page: fill_regions(page, doc_regions(), DOC),
    JAVASCRIPT: javascript_text,
}


def _render(root: Path) -> dict[Path, tuple[str, str]]:
    rendered = {}
    for name, render in TARGETS.items():
        path = root / name
        try:
            current = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error} (run this in a checkout)") from None
        rendered[path] = (current, render(current))
    return rendered


def stale(root: Path = _ROOT) -> list[str]:
    """The generated files that differ from what the vocabulary gives, relative to ``root``."""
    return [str(p.relative_to(root)) for p, (old, new) in _render(root).items() if old != new]


def write(root: Path = _ROOT) -> list[str]:
    """Rewrite the stale generated files; returns their names."""
    changed = []
    for path, (old, new) in _render(root).items():
        if old != new:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path.relative_to(root)))
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """Write or check the generated copies; exit status 1 when ``--check`` finds a stale one."""
    parser = argparse.ArgumentParser(
        prog="python -m scorpion_conformance.generated",
        description="Regenerate (or check) the copies of vocabulary.json: its typed words, the "
        "schema's enums, the tables of docs/protocol.md and the JavaScript engine's words.",
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true", help="rewrite the stale copies")
    action.add_argument("--check", action="store_true", help="list the stale copies; exit 1 if any")
    parser.add_argument("--root", type=Path, default=_ROOT, help="the checkout (default: this one)")
    args = parser.parse_args(argv)
    try:
        names = write(args.root) if args.write else stale(args.root)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    verb = "rewrote" if args.write else "stale"
    print("\n".join(f"{verb}: {n}" for n in names) or "every generated copy is up to date")
    return 1 if names and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
