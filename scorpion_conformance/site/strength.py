"""The generated parts of "How strong is the suite" (``docs/strength.md``): the
figures of the committed mutation campaign, ``data/mutation/campaign.json``.

Kill rate is the share of mutants the scenarios reject among those not shown
equivalent (a mutant that times out is rejected: the suite reports the hang as
the adapter's fault). Every equivalent mutant is listed with its argument.

>>> summary([{"status": "killed"}, {"status": "timeout"}, {"status": "survived", "key": "k"}],
...         {"k": {}})
{'generated': 3, 'killed': 1, 'timeout': 1, 'equivalent': 1, 'survived': 0, 'rate': '100.0%'}
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from scorpion_conformance.escaping import html_text
from scorpion_conformance.mutation.campaign import load_equivalents, status_of
from scorpion_conformance.mutation.mutants import EXCLUDED, EXCLUDED_LINES, GUARDS
from scorpion_conformance.mutation.results import CAMPAIGN_FILE, EQUIVALENT_FILE, FUZZ_FILE

from .text import md_escape

__all__ = ["strength_headline", "strength_markdown", "summary"]


def summary(records: Iterable[Mapping[str, Any]], equivalents: Mapping[str, Any]) -> dict[str, Any]:
    """Counts by final status and the kill rate of ``records``."""
    counts = Counter(status_of(r, equivalents) for r in records)
    generated = sum(counts.values())
    rejected = counts["killed"] + counts["timeout"]
    judged = generated - counts["equivalent"]
    return {
        "generated": generated,
        "killed": counts["killed"],
        "timeout": counts["timeout"],
        "equivalent": counts["equivalent"],
        "survived": counts["survived"],
        "rate": f"{100 * rejected / judged:.1f}%" if judged else "—",
    }


def _table(title: str, groups: Mapping[str, Sequence[Mapping[str, Any]]],
           equivalents: Mapping[str, Any]) -> list[str]:
    lines = [f"| {title} | mutants | killed | timed out | equivalent | surviving | kill rate |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, records in groups.items():
        s = summary(records, equivalents)
        lines.append(f"| {md_escape(name)} | {s['generated']} | {s['killed']} | {s['timeout']} | "
                     f"{s['equivalent']} | {s['survived']} | {s['rate']} |")
    return lines


def _group(records: Sequence[Mapping[str, Any]], field: str) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(str(record[field]), []).append(record)
    return groups


def _code(text: str) -> str:
    """Code in a table's cell, as HTML: a pipe in it is an entity, never a cell's edge nor a ``\\|``."""
    return f"<code>{html_text(text).replace('|', '&#124;')}</code>" if text else ""


def _prose(text: str) -> str:
    """An argument in words, its backticked pieces shown as code (never as literal backticks).

    >>> print(_prose("for each `<= 1` it answers as `== 1`"))
    for each <code>&lt;= 1</code> it answers as <code>== 1</code>
    """
    pieces = text.split("`")
    if len(pieces) % 2 == 0:  # an odd number of backticks: no code in it
        return md_escape(text).replace("|", "&#124;")
    return "".join(_code(piece) if i % 2 else md_escape(piece).replace("|", "&#124;")
                   for i, piece in enumerate(pieces))


def _folded(title: str, lines: Sequence[str]) -> list[str]:
    """Lines of Markdown folded away under a title the reader opens (a long table)."""
    return [f'??? abstract "{title}"', "", *(f"    {line}" if line else "" for line in lines)]


def strength_headline(root: Path) -> str:
    """The page's figure in one sentence, for its top: the kill rate and what it counts."""
    path = root / CAMPAIGN_FILE
    if not path.exists():
        return f"*(No campaign has been committed: `{CAMPAIGN_FILE}` is missing.)*"
    document = json.loads(path.read_text(encoding="utf-8"))
    now = summary(document["mutants"], load_equivalents(root / EQUIVALENT_FILE))
    judged = now["generated"] - now["equivalent"]
    survive = "survives" if now["survived"] == 1 else "survive"
    return (f"!!! success \"The scenarios reject {now['rate']} of the mutants\"\n\n"
            f"    **{now['killed'] + now['timeout']:,} of the {judged:,}** mutants not shown equivalent to "
            f"the engine fail some scenario (or hang); {now['survived']} {survive}. "
            f"The other {now['equivalent']} of the {now['generated']:,} generated behave exactly as the "
            f"original, each for a stated reason, and are not counted. Campaign of {document['date']}; "
            "[the figures](#the-figures) follow.")


def _change(record: Mapping[str, Any]) -> str:
    lines = [line[1:].strip() for line in str(record.get("diff", "")).splitlines()]
    minus = [line for line, raw in zip(lines, str(record.get("diff", "")).splitlines(), strict=True)
             if raw.startswith("-")]
    plus = [line for line, raw in zip(lines, str(record.get("diff", "")).splitlines(), strict=True)
            if raw.startswith("+")]
    return f"{_code(' '.join(minus))} → {_code(' '.join(plus)) or '(removed)'}"


def strength_markdown(root: Path) -> str:
    """The figures of the campaign under ``root``, as Markdown."""
    path = root / CAMPAIGN_FILE
    if not path.exists():
        return f"*(No campaign has been committed: `{CAMPAIGN_FILE}` is missing.)*"
    document = json.loads(path.read_text(encoding="utf-8"))
    equivalents = load_equivalents(root / EQUIVALENT_FILE)
    records: list[Mapping[str, Any]] = document["mutants"]
    now = summary(records, equivalents)
    tool = document["tool"]
    lines = [
        f"Campaign of **{document['date']}** with **{tool['name']} {tool['version']}** "
        f"(every core operator) and our operators {', '.join(f'`{o}`' for o in tool['own_operators'])}, "
        f"on commit `{document['commit'][:12]}`; {document['seconds']} s on {document['workers']} "
        "worker processes.",
        "",
        "| | mutants | killed | timed out | equivalent | surviving | kill rate |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    before = document.get("before")
    if before:
        lines.append(f"| {md_escape(before['label'])} | {before['generated']} | {before['killed']} | "
                     f"{before['timeout']} | {before['equivalent']} | {before['survived']} | "
                     f"{before['rate']} |")
    lines.append(f"| **now** | {now['generated']} | {now['killed']} | {now['timeout']} | "
                 f"{now['equivalent']} | {now['survived']} | **{now['rate']}** |")
    lines += ["", "## By engine module", ""]
    lines += _table("module", _group(records, "module"), equivalents)
    lines += ["", "## By rule area", "",
              "The area of a mutant is the rule area of the function it changes.", ""]
    lines += _table("rule area", dict(sorted(_group(records, "area").items())), equivalents)
    killers = Counter(str(r["killed_by"]).split("/")[0] for r in records
                      if status_of(r, equivalents) in ("killed", "timeout") and r.get("killed_by"))
    lines += ["", "## The scenarios that kill first", "",
              "Each mutant stops at its first failing case; the cases that were first most often:", "",
              "| case | mutants it killed first |", "| --- | ---: |"]
    lines += [f"| {'the handshake (the adapter did not start)' if case == 'hello' else f'`{case}`'} | {n} |"
              for case, n in killers.most_common(10)]
    lines += ["", *_prompted(records, equivalents)]
    lines += ["", *_fuzzed(root, records)]
    survivors = [r for r in records if status_of(r, equivalents) == "survived"]
    lines += ["", "## Surviving mutants", ""]
    if survivors:
        lines += ["| mutant | change |", "| --- | --- |"]
        lines += [f"| {_code(r['key'])} | {_change(r)} |" for r in survivors]
    else:
        lines.append("None: the scenarios reject every mutant that is not shown equivalent.")
    equivalent = [r for r in records if status_of(r, equivalents) == "equivalent"]
    lines += ["", "## Equivalent mutants", "",
              f"{len(equivalent)} mutants behave as the original through the protocol, each for the "
              "reason given.", ""]
    table = ["| mutant | change | why it is equivalent |", "| --- | --- | --- |"]
    for record in equivalent:
        argument = equivalents[record["key"]]
        table.append(f"| {_code(record['key'])} | {_change(record)} | {_prose(argument['argument'])} |")
    lines += _folded(f"The {len(equivalent)} equivalent mutants, each with its argument", table)
    lines += ["", *_left_out()]
    return "\n".join(lines)


def _prompted(records: Sequence[Mapping[str, Any]], equivalents: Mapping[str, Any]) -> list[str]:
    """The scenarios that kill what the older scenarios let through, with those mutants."""
    by_case: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        if record.get("before") == "survived" and status_of(record, equivalents) in ("killed", "timeout"):
            by_case.setdefault(str(record["killed_by"]).split("/")[0], []).append(record)
    lines = ["## The scenarios the mutants prompted", "",
             "Each of these mutants passed every scenario of the earlier campaign; the scenario named "
             "is the one that now fails first against it.", "",
             "| scenario | mutants it now kills first |", "| --- | --- |"]
    for case, killed in sorted(by_case.items()):
        changes = "<br>".join(f"`{r['key']}`: {_change(r)}" for r in killed)
        lines.append(f"| `{case}` | {changes} |")
    if not by_case:
        lines.append("| — | no mutant survived the earlier scenarios |")
    return lines


def _fuzzed(root: Path, records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Which position generator of the fuzzer found each mutant the older scenarios missed."""
    path = root / FUZZ_FILE
    if not path.exists():
        return []
    rows = json.loads(path.read_text(encoding="utf-8"))["fuzz"]
    lines = ["## What the fuzzer finds", "",
             "`scorpion-conformance fuzz` against each of those mutants: the start of the first game "
             "that showed the difference (a template of the position generator, or a deal), before and "
             "after the generator learnt from them; *no* means the fuzzer missed it.", "",
             "| mutant | rule set | before: found by (games) | after: found by (games) |",
             "| --- | --- | --- | --- |"]
    for row in rows:
        before, after = row["before"], row.get("after")
        later = f"{after['found']} ({after['games']})" if after else "(not rerun: found before)"
        lines.append(f"| `{row['key']}` | {row['rules']} | {before['found']} ({before['games']}) | {later} |")
    return lines


def _left_out() -> list[str]:
    """What the campaign does not mutate, and why (from the mutants module itself)."""
    lines = ["## What is not mutated", "",
             "Type annotations (never evaluated) and the text inside f-strings (messages, which the "
             f"protocol leaves free) are never mutated, nor is {_prose(GUARDS)}. Nor are these:", ""]
    table = ["| module | code | why |", "| --- | --- | --- |"]
    for module, definitions in EXCLUDED.items():
        table += [f"| {_code(module)} | {_code(name)} | {_prose(why)} |" for name, why in definitions.items()]
    for module, found in EXCLUDED_LINES.items():
        table += [f"| {_code(module)} | the line {_code(text)} | {_prose(why)} |"
                  for text, why in found.items()]
    return lines + _folded(f"The {len(table) - 2} pieces of code left out, each with its reason", table)
