"""The generated parts of "Contributing a scenario": the notation reference (from the
step library), the lint rules (from the lint test), the tags and the ids in use.

>>> "the player moves" in notation_reference([])
True
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from scorpion_conformance.escaping import html_text
from scorpion_conformance.suite.library import LIBRARY, StepSpec, find_step
from scorpion_conformance.suite.scenarios import Case
from scorpion_conformance.suite.tags import CAPABILITY_TAGS, NAMED_RULESETS, OPTION_TAGS

from .cards import inline_cards
from .text import md_escape

__all__ = ["id_table", "lint_rules", "notation_reference", "tag_tables"]

KINDS = {"given": "Given", "when": "When", "then": "Then"}
FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
FIELD_HELP = {
    "Card": "a card, as 9♦, 10♥, K♠ or 9D, TH",
    "Suit": "a suit: ♣ ♦ ♥ ♠ (or C D H S, or its name)",
    "Status": "won, lost or playing",
    "Face": "up or down",
    "d": "a number, such as a column from 1 to 7",
    None: "free text in the notation (cards, or actions such as '9♦ to column 5, deal')",
}


def _pattern_html(spec: StepSpec) -> str:
    def field(match: re.Match[str]) -> str:
        name, kind = match.group(1), match.group(2)
        title = html_text(FIELD_HELP.get(kind, kind or ""))
        return f'<var title="{title}">{html_text(name)}</var>'

    escaped = html_text(spec.pattern)
    return FIELD.sub(field, escaped)


def _usage(cases: Sequence[Case]) -> dict[int, tuple[int, tuple[str, str]]]:
    """For each library entry (by ``id``): how many steps use it and the first use (text, case)."""
    usage: dict[int, tuple[int, tuple[str, str]]] = {}
    for case in cases:
        for step in case.steps:
            try:
                found = find_step(step.type, step.text)
            except ValueError:
                continue
            if found is None:
                continue
            key = id(found[0])
            count, first = usage.get(key, (0, (f"{KINDS[step.type]} {step.text}", case.case_id)))
            usage[key] = (count + 1, first)
    return usage


def notation_reference(cases: Sequence[Case]) -> str:
    """Every sentence of the step library with an example (an HTML table per keyword)."""
    parts = []
    usage = _usage(cases)
    for kind, keyword in KINDS.items():
        rows = []
        for spec in (s for s in LIBRARY if s.kind == kind):
            if spec.example:
                example = html_text(spec.example).replace("\n", "<br>")
                origin = "library"
            else:
                use = usage.get(id(spec), (0, None))[1]
                example = inline_cards(use[0]) if use else "—"
                origin = f"scenario {use[1]}" if use else ""
            table = ' <span class="sc-aside">(with a data table)</span>' if spec.takes_table else ""
            rows.append(
                f"<tr><td><code>{keyword} {_pattern_html(spec)}</code>{table}</td>"
                f'<td><code class="sc-example-code">{example}</code>'
                f"{f'<br><small>{origin}</small>' if origin else ''}</td>"
                f"<td>{usage.get(id(spec), (0, None))[0]}</td></tr>"
            )
        parts.append(
            f'<h3 id="notation-{kind}">{keyword} steps</h3>'
            f'<div class="sc-compare-wrap"><table class="sc-notation"><thead><tr><th>Sentence</th>'
            f"<th>Example</th><th>Uses</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )
    fields = "".join(
        f"<li><var>{html_text(k or 'text')}</var>: {html_text(v)}</li>"
        for k, v in FIELD_HELP.items()
    )
    parts.append(f"<p>The words in <var>italics</var> are filled in:</p><ul>{fields}</ul>")
    return "".join(parts)


def _sentence(name: str) -> str:
    words = name.removeprefix("test_").replace("_", " ")
    return words[:1].upper() + words[1:] + "."


def lint_rules(path: Path) -> str:
    """The checks of the lint test, one line each (Markdown), read from its source."""
    if not path.exists():
        return f"*(The lint test `{path.name}` was not found when this site was built.)*"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            doc = ast.get_docstring(node)
            extra = f" {md_escape(' '.join(doc.split()))}" if doc else ""
            lines.append(f"- **{md_escape(_sentence(node.name))}**{extra} (`{node.name}`)")
    return "\n".join(lines)


def tag_tables() -> str:
    """The option and capability tags, with the rule sets of each option value (Markdown)."""
    lines = [
        "| Tag | Option | Value | Named rule sets with this value |",
        "| --- | --- | --- | --- |",
    ]
    for tag, (option, value) in OPTION_TAGS.items():
        sets = (
            ", ".join(n for n, opts in NAMED_RULESETS.items() if opts.get(option) == value)
            or "none"
        )
        lines.append(f"| `@{tag}` | `{option}` | `{value}` | {sets} |")
    lines += ["", "| Capability tag | The adapter must declare |", "| --- | --- |"]
    lines += [f"| `@{tag}` | `{capability}` |" for tag, capability in CAPABILITY_TAGS.items()]
    return "\n".join(lines)


def id_table(cases: Sequence[Case]) -> str:
    """The id prefixes in use, their files, and the next free number of each (Markdown)."""
    numbers: dict[str, set[int]] = defaultdict(set)
    files: dict[str, set[str]] = defaultdict(set)
    for case in cases:
        if case.id and "-" in case.id:
            prefix, _, number = case.id.rpartition("-")
            if number.isdigit():
                numbers[prefix].add(int(number))
                files[prefix].add(Path(case.file).name)
    lines = [
        "| Prefix | Feature file | Scenarios | Highest id | Next free id |",
        "| --- | --- | ---: | --- | --- |",
    ]
    for prefix in sorted(numbers):
        used = numbers[prefix]
        top = max(used)
        lines.append(
            f"| `{prefix}` | {', '.join(f'`{f}`' for f in sorted(files[prefix]))} | {len(used)} | "
            f"`{prefix}-{top:03d}` | `@id:{prefix}-{top + 1:03d}` |"
        )
    return "\n".join(lines)
