"""The real programs on the conformance report: who they are, whether they are installed here,
and the table of their divergences, read from the ``divergences.json`` beside each adapter.

Each folder ``adapters/NAME/`` that holds a ``divergences.json`` is a real
implementation (a program we did not write, behind an adapter of ours). The
file is the one source of what the report says about it: the program (name,
version, where it came from, the rule set it declares) and each divergence
(the scenarios that catch it, what the program does, what the rules say, the
cause in the program's code, bug or rule choice). ``fuzz --survey --known``
reads the same file for its kinds and matches.

>>> program = read_program("demo", {"program": {"name": "Demo", "version": "1", "source": "PyPI",
...     "rules": "aisleriot"}, "divergences": [{"scenarios": ["WIN-025"], "kind": "status",
...     "match": "won", "does": "says won", "rules": "playing", "cause": "is_won",
...     "nature": "bug"}]})
>>> program.title, program.divergences[0].scenarios
('Demo 1', ('WIN-025',))
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .rulepages import area_path
from .text import md_escape

__all__ = [
    "NATURES",
    "Divergence",
    "Program",
    "ProgramError",
    "adapter_command",
    "divergence_table",
    "find_programs",
    "installed",
    "load_program",
    "program_lines",
    "read_program",
]

#: What a divergence is: a bug of the program, or a choice it made where our rules choose otherwise.
NATURES = ("bug", "rule choice")
_PROGRAM_FIELDS = ("name", "version", "source", "rules")
_DIVERGENCE_FIELDS = ("kind", "match", "does", "rules", "cause", "nature")
_RULE_ID = re.compile(r"\bR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


class ProgramError(ValueError):
    """A ``divergences.json`` that cannot be used, naming the file and the field."""


@dataclass(frozen=True)
class Divergence:
    """One way a program differs from the rules, and the scenarios that show it."""

    scenarios: tuple[str, ...]
    kind: str
    does: str
    rules: str
    cause: str
    nature: str
    note: str = ""


@dataclass(frozen=True)
class Program:
    """A real implementation: its adapter folder's name, who it is, and its divergences."""

    key: str
    name: str
    version: str
    source: str
    rules: str
    divergences: tuple[Divergence, ...]
    url: str = ""

    @property
    def title(self) -> str:
        return f"{self.name} {self.version}"

    @property
    def scenario_ids(self) -> tuple[str, ...]:
        """Every scenario that catches one of its divergences, in the file's order."""
        return tuple(s for d in self.divergences for s in d.scenarios)


def _text(data: Mapping[str, Any], name: str, where: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise ProgramError(f'{where} has no "{name}" (a non-empty string)')
    return value


def read_program(key: str, data: Any, where: str = "divergences.json") -> Program:
    """A :class:`Program` from the parsed file; raises :class:`ProgramError` saying where."""
    if not isinstance(data, dict) or not isinstance(data.get("program"), dict):
        raise ProgramError(f'{where}: a JSON object with "program" and "divergences"')
    about = data["program"]
    fields = {name: _text(about, name, f"{where}: program") for name in _PROGRAM_FIELDS}
    entries = data.get("divergences")
    if not isinstance(entries, list):
        raise ProgramError(f'{where}: "divergences" is a list')
    divergences = []
    for number, entry in enumerate(entries, start=1):
        here = f"{where}: divergence {number}"
        if not isinstance(entry, dict):
            raise ProgramError(f"{here} is not a JSON object")
        values = {name: _text(entry, name, here) for name in _DIVERGENCE_FIELDS}
        if values["nature"] not in NATURES:
            raise ProgramError(f"{here}: nature is one of {', '.join(NATURES)}, not {values['nature']!r}")
        scenarios = entry.get("scenarios")
        if not isinstance(scenarios, list) or not scenarios or not all(isinstance(s, str) for s in scenarios):
            raise ProgramError(f'{here}: "scenarios" lists the ids of the scenarios that catch it')
        del values["match"]  # the survey's business
        divergences.append(Divergence(tuple(scenarios), note=str(entry.get("note", "")), **values))
    return Program(key, fields["name"], fields["version"], fields["source"], fields["rules"],
                   tuple(divergences), url=str(about.get("url", "")))


def load_program(folder: Path) -> Program:
    """The program described by ``folder/divergences.json``."""
    path = folder / "divergences.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ProgramError(f"cannot read {path}: {error}") from None
    return read_program(folder.name, data, str(path))


def find_programs(root: Path) -> list[Program]:
    """Every real program with an adapter under ``root/adapters``, by folder name."""
    return [load_program(path.parent) for path in sorted((root / "adapters").glob("*/divergences.json"))]


def adapter_command(program: Program, root: Path) -> str:
    """The command that starts the program's adapter with this Python."""
    script = root / "adapters" / program.key / "adapter.py"
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def installed(program: Program, root: Path, timeout: float = 60) -> str | None:
    """None when the program answers its adapter's handshake here, else why not, in the adapter's
    own words (each adapter says what is missing and how to install it)."""
    from ..client import AdapterClient
    from ..errors import AdapterError

    client = AdapterClient(adapter_command(program, root), timeout=timeout, max_restarts=0)
    try:
        client.hello()
    except AdapterError as error:
        tail = [line for line in (error.stderr_tail or "").splitlines() if line.strip()]
        return tail[-1].strip() if tail else error.problem
    finally:
        client.close()
    return None


def divergence_table(program: Program, areas: Mapping[str, tuple[str, str]],
                     statuses: Mapping[str, Sequence[str]] | None = None,
                     rule_areas: Mapping[str, str] | None = None,
                     synthetic: Collection[str] = ()) -> list[str]:
    """The Markdown table of a program's divergences, each scenario linked to its rule area's page
    (``areas``: scenario id → area id and title), and each rule id too (``rule_areas``: rule id →
    area id). ``statuses``: scenario id → the statuses it had in this build's run (shown when not
    all ``xfailed``, i.e. when the divergence was not caught as listed). ``synthetic``: the
    scenarios whose start no game reaches from a deal; a divergence only they show is one a
    player never meets."""
    def rules(text: str) -> str:
        return _RULE_ID.sub(lambda m: f"[{m[0]}]({area_path(rule_areas[m[0]])}#{m[0]})"
                            if rule_areas and m[0] in rule_areas else m[0], md_escape(text))

    lines = [
        "| Scenario | What the program does | What the rules say | Cause in the program's code "
        "| Bug or rule choice | Who meets it |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for divergence in program.divergences:
        shown = []
        for ident in divergence.scenarios:
            link = f"[{ident}]({area_path(areas[ident][0])}#{ident})" if ident in areas else ident
            seen = sorted(set((statuses or {}).get(ident, ())))
            if statuses is not None and seen != ["xfailed"]:
                link += f" ({', '.join(seen) or 'not run'} in this build)"
            shown.append(link)
        does = md_escape(divergence.does) + (f"; {md_escape(divergence.note)}" if divergence.note else "")
        if all(ident in synthetic for ident in divergence.scenarios):
            meets = "only a [synthetic start](protocol.md#synthetic-positions): no player"
        else:
            meets = "a player"
        lines.append(f"| {', '.join(shown)} | {does} | {rules(divergence.rules)} | "
                     f"{md_escape(divergence.cause)} | {divergence.nature} | {meets} |")
    return lines


def program_lines(program: Program) -> list[str]:
    """The opening of a real program's section: who it is, where it came from, its rule set."""
    source = f"[{md_escape(program.source)}]({program.url})" if program.url else md_escape(program.source)
    folder = f"adapters/{program.key}"
    return [
        f"A real program, not written for this project: **{md_escape(program.title)}**, from "
        f"{source}, behind `{folder}/adapter.py`. It declares the rule set `{program.rules}`, "
        f"and runs with its expectations file, `{folder}/expectations.json`: each divergence "
        "below counts as **≠** in the table, and anything else that fails as **✗**. The "
        f"divergences come from `{folder}/divergences.json`, which `fuzz --survey --known` "
        "reads too.",
        "",
    ]
