"""Emitting a scenario: a fresh ``FUZZ-NNN`` id, the fewest option tags under
which the reference passes it, a check that it passes against the reference
and fails against the adapter, and writing it into a feature file."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

from scorpion_ref import RuleSet

from ..client import AdapterClient
from ..errors import AdapterError, ErrorAnswer
from ..reference import in_process
from ..suite.tags import NAMED_RULESETS
from .play import Failure
from .scenario import _option_tags, scenario_text


def _run_scenario(text: str, client: AdapterClient, rules: str) -> str | None:
    """Run the scenario of ``text`` (a feature file) through ``client``; the failure
    message, or None when it passes."""
    from ..suite.execute import ScenarioFailure, ScenarioRun
    from ..suite.scenarios import load_cases

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "fuzz.feature").write_text(text, encoding="utf-8")
        (case,) = load_cases(Path(folder))
        instructions = case.instructions()
    run = ScenarioRun(client, rules)
    try:
        for instruction in instructions:
            run.perform(instruction)
    except (ScenarioFailure, ErrorAnswer, AdapterError) as error:
        return str(error).splitlines()[0]
    return None


_FEATURE_HEADER = """Feature: Differences found by fuzzing
  Each scenario is a game on which an implementation and the reference engine
  disagreed, found and shrunk by `scorpion-conformance fuzz`.
"""


def _minimal_tags(options: dict[str, str], passes: dict[str, bool]) -> list[str]:
    """The fewest option tags that the rule set satisfies and under which every
    matching named rule set passes the scenario (greedy, from the full set)."""
    from ..suite.tags import matches, requirements

    def works(tags: list[str]) -> bool:
        required, _ = requirements(tags)
        names = [n for n, o in NAMED_RULESETS.items() if matches(o, required)]
        return bool(names) and all(passes.get(n, False) for n in names)

    tags = _option_tags(options)
    if not works(tags):
        return tags
    for tag in list(reversed(tags)):
        fewer = [t for t in tags if t != tag]
        if works(fewer):
            tags = fewer
    return tags


def next_fuzz_id(paths: Sequence[Path]) -> str:
    """``FUZZ-NNN`` one above the highest FUZZ id in these feature files."""
    highest = 0
    for path in paths:
        if path.is_file():
            found = re.findall(r"@id:FUZZ-(\d+)", path.read_text(encoding="utf-8"))
            highest = max([highest, *map(int, found)])
    return f"FUZZ-{highest + 1:03d}"


def build_scenario(failure: Failure, name: str, rules: RuleSet, client: AdapterClient,
                   comments: Sequence[str], known: Sequence[Path]) -> tuple[str, list[str]]:
    """The failure as a checked scenario block, and notes on how it was checked.

    Its id is one above the FUZZ ids of the ``known`` feature files; its option
    tags are the fewest under which every matching named rule set passes it
    against the reference (run in this process); it is also run against the
    adapter, where it must fail.
    """
    fuzz_id = next_fuzz_id(known)
    draft = _FEATURE_HEADER + "\n" + scenario_text(failure, name, rules, fuzz_id=fuzz_id)
    passes = {n: _run_scenario(draft, in_process(), n) is None for n in NAMED_RULESETS}
    tags = _minimal_tags(rules.options, passes)
    text = scenario_text(failure, name, rules, fuzz_id=fuzz_id, tags=tags, comments=comments)
    good = [n for n, ok in passes.items() if ok]
    notes = [f"passes against the reference under {', '.join(good) or 'no named rule set'}"]
    if name in NAMED_RULESETS and name not in good:
        notes.append(f"WARNING: fails against the reference under {name}: please report this")
    against = _run_scenario(_FEATURE_HEADER + "\n" + text, client, name)
    notes.append(f"fails against the adapter under {name}: {against}" if against else
                 "WARNING: passes against the adapter (the step library cannot say this "
                 "difference)")
    return text, notes


class EmitTargetError(ValueError):
    """A file ``--emit-scenario`` may not write to; the message says why."""


def check_target(target: Path) -> None:
    """Refuse, before any game, a target that is not a fuzzer's own feature file.

    A target is a ``.feature`` file in an existing folder that is new, empty,
    or one this command wrote before (it starts with the fuzzer's header).
    Raises :class:`EmitTargetError`.

    >>> check_target(Path("found.txt"))
    Traceback (most recent call last):
    scorpion_conformance.fuzz.emit.EmitTargetError: --emit-scenario found.txt: not a .feature file
    """
    if target.suffix != ".feature":
        raise EmitTargetError(f"--emit-scenario {target}: not a .feature file")
    if not target.parent.is_dir():
        raise EmitTargetError(f"--emit-scenario {target}: the folder {target.parent} does not exist")
    if target.is_dir():
        raise EmitTargetError(f"--emit-scenario {target}: is a folder")
    if target.exists():
        try:
            existing = target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise EmitTargetError(f"--emit-scenario {target}: cannot be read ({error})") from None
        if existing.strip() and not existing.startswith(_FEATURE_HEADER.splitlines()[0]):
            raise EmitTargetError(
                f"--emit-scenario {target}: this feature file was not written by the fuzzer;"
                " name a new file (the fuzzer adds only to files it started)"
            )


def write_scenario(target: Path, text: str) -> None:
    """Add the scenario to the fuzzer's feature file ``target``, or start one.

    Written as :func:`~scorpion_conformance.writing.write_file` writes. Raises :class:`EmitTargetError`
    (see :func:`check_target`) or :class:`OSError`.
    """
    from ..writing import write_file

    check_target(target)
    existing = target.read_text(encoding="utf-8").rstrip("\n") if target.exists() else ""
    body = existing + "\n\n" + text if existing.strip() else _FEATURE_HEADER + "\n" + text
    write_file(target, lambda out: out.write(body))
