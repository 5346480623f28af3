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

from scorpion_conformance.mutation.campaign import load_equivalents, status_of
from scorpion_conformance.mutation.results import CAMPAIGN_FILE, EQUIVALENT_FILE

from .text import md_escape

__all__ = ["strength_markdown", "summary"]


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
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`" if text else ""


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
    lines += [f"| `{case}` | {n} |" for case, n in killers.most_common(10)]
    survivors = [r for r in records if status_of(r, equivalents) == "survived"]
    lines += ["", "## Surviving mutants", ""]
    if survivors:
        lines += ["| mutant | change |", "| --- | --- |"]
        lines += [f"| `{r['key']}` | {_change(r)} |" for r in survivors]
    else:
        lines.append("None: the scenarios reject every mutant that is not shown equivalent.")
    equivalent = [r for r in records if status_of(r, equivalents) == "equivalent"]
    lines += ["", "## Equivalent mutants", "",
              f"{len(equivalent)} mutants behave as the original through the protocol, each for the "
              "reason given.", "",
              "| mutant | change | why it is equivalent |", "| --- | --- | --- |"]
    for record in equivalent:
        argument = equivalents[record["key"]]
        lines.append(f"| `{record['key']}` | {_change(record)} | {md_escape(argument['argument'])} |")
    return "\n".join(lines)
