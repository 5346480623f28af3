"""Evidence that a surviving mutant is equivalent: its adapter and the reference
adapter walked side by side over the perft positions, and a fuzz run.

:func:`compare_trees` starts both adapters and, from the start position of
every entry of the shipped perft files, walks the whole tree of legal actions
to ``depth`` under the entry's rule set: at each node the two ``legal``
answers, and after each ``play`` and each ``undo`` the two states, must be
equal. It also plays a few refused actions at each node (a move to every
column of the first face-up card of each column) and compares the refusals'
reason codes. :func:`fuzz_mutant` runs ``scorpion-conformance fuzz`` against
the mutant's adapter under each named rule set.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..client import AdapterClient
from ..perft.files import parse_perft_file, shipped_files
from ..suite.tags import NAMED_RULESETS

__all__ = ["compare_trees", "fuzz_mutant"]

#: Both adapters start so: ``-P`` keeps the working folder off the path, so ``PYTHONPATH``
#: alone decides which ``scorpion_ref`` the mutant's adapter imports.
ADAPTER = (sys.executable, "-P", "-m", "scorpion_ref.adapter")


def _start_position(entry: Any) -> dict[str, Any]:
    if entry.position_json is not None:
        return dict(entry.position_json)
    from scorpion_ref import deal_game
    from scorpion_ref.serial import position_to_json

    return position_to_json(deal_game(entry.game))


def _probes(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    probes = []
    for column in state["columns"]:
        if column["up"]:
            card = column["up"][0]
            probes += [{"type": "move", "card": card, "to": to} for to in range(1, 8)]
    return probes


def _answer(response: Any) -> Any:
    return response.raw if hasattr(response, "raw") else response


def compare_trees(env: Mapping[str, str], *, depth: int = 3, cwd: str | None = None,
                  timeout: float = 5.0) -> tuple[str | None, int]:
    """The first difference between the mutant's adapter (started with ``env``) and
    the reference over every perft position's tree to ``depth``, or None; and the
    number of nodes compared."""
    entries = [e for path in shipped_files() for e in parse_perft_file(path.read_text(encoding="utf-8"))]
    nodes = 0
    with AdapterClient(list(ADAPTER), timeout=timeout, env=env, cwd=cwd) as mutant, \
            AdapterClient(list(ADAPTER), timeout=timeout) as reference:
        mutant.hello()
        reference.hello()
        for entry in entries:
            if entry.rules not in NAMED_RULESETS:
                continue
            start = _start_position(entry)
            a = mutant.send_raw(json.dumps({"cmd": "start", "rules": entry.rules, "position": start}))
            b = reference.send_raw(json.dumps({"cmd": "start", "rules": entry.rules, "position": start}))
            if _clean(a) != _clean(b):
                return f"{entry.id}: start answers differ: {a} / {b}", nodes
            found, count = _walk(mutant, reference, depth, [entry.id])
            nodes += count
            if found:
                return found, nodes
    return None, nodes


def _clean(answer: Any) -> Any:
    if isinstance(answer, dict):
        answer = {k: v for k, v in answer.items() if k != "id"}
        if "error" in answer:
            answer["error"] = {k: v for k, v in answer["error"].items() if k != "message"}
    return answer


def _both(mutant: AdapterClient, reference: AdapterClient, request: dict[str, Any],
          path: Sequence[str]) -> tuple[Any, str | None]:
    line = json.dumps(request)
    a, b = _clean(mutant.send_raw(line)), _clean(reference.send_raw(line))
    if a != b:
        return b, f"after {' '.join(path)}: {line} answered {a} by the mutant, {b} by the reference"
    return b, None


def _walk(mutant: AdapterClient, reference: AdapterClient, depth: int,
          path: list[str]) -> tuple[str | None, int]:
    legal, problem = _both(mutant, reference, {"cmd": "legal"}, path)
    if problem or depth == 0:
        return problem, 1
    state, problem = _both(mutant, reference, {"cmd": "state"}, path)
    if problem:
        return problem, 1
    for probe in _probes(state["state"]):
        answer, problem = _both(mutant, reference, {"cmd": "play", "action": probe}, path)
        if problem:
            return problem, 1
        if answer.get("ok"):
            _, problem = _both(mutant, reference, {"cmd": "undo"}, [*path, json.dumps(probe)])
            if problem:
                return problem, 1
    nodes = 1
    for action in legal.get("actions", []):
        name = action.get("card", "deal") + (f">{action['to']}" if "to" in action else "")
        _, problem = _both(mutant, reference, {"cmd": "play", "action": action}, [*path, name])
        if problem:
            return problem, nodes
        found, count = _walk(mutant, reference, depth - 1, [*path, name])
        nodes += count
        if found:
            return found, nodes
        _, problem = _both(mutant, reference, {"cmd": "undo"}, [*path, name, "undo"])
        if problem:
            return problem, nodes
    return None, nodes


_FOUND = re.compile(r"from the (?:generated position \(([\w-]+)\)|deal of (game \d+))")


def fuzz_mutant(folder: Path, rules: str, *, games: int = 200, seed: int = 1,
                timeout: float = 900) -> dict[str, str]:
    """Fuzz the adapter of the mutant in ``folder`` under ``rules``: ``found`` is
    ``"no"`` or the start of the game that showed the difference (the generator's
    name, or ``deal N``), with the fuzzer's line about it."""
    adapter = f"env PYTHONPATH={folder} PYTHONDONTWRITEBYTECODE=1 {sys.executable} -P -m scorpion_ref.adapter"
    done = subprocess.run(
        [sys.executable, "-m", "scorpion_conformance.cli", "fuzz", "--adapter", adapter, "--rules", rules,
         "--games", str(games), "--seed", str(seed), "--no-progress", "--shrink-seconds", "10"],
        capture_output=True, text=True, timeout=timeout,
    )
    if done.returncode == 0:
        return {"rules": rules, "found": "no", "games": str(games), "seed": str(seed)}
    match = _FOUND.search(done.stdout)
    where = (match.group(1) or f"the deal of {match.group(2)}") if match else "?"
    line = next((ln.strip() for ln in done.stdout.splitlines() if "DIFFERENCE" in ln), done.stdout[-200:])
    return {"rules": rules, "found": where, "games": str(games), "seed": str(seed), "line": line}
