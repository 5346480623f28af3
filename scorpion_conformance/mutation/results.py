"""The committed results of a campaign, and the figures the site's strength page shows.

``data/mutation/campaign.json`` holds one record per mutant (its key, where it
lies, its diff, its status and the case that killed it), the date, the tool
and its version. ``data/mutation/equivalent.json`` holds the argument for each
mutant that survives because it behaves as the original.
"""

from __future__ import annotations

import datetime
import subprocess
from collections.abc import Mapping, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

__all__ = ["AREAS", "CAMPAIGN_FILE", "EQUIVALENT_FILE", "FUZZ_FILE", "SAMPLE_FILE", "area_of",
           "campaign_document", "draw_sample", "in_scope", "with_before"]

CAMPAIGN_FILE = Path("data/mutation/campaign.json")
EQUIVALENT_FILE = Path("data/mutation/equivalent.json")
SAMPLE_FILE = Path("data/mutation/sample.json")
FUZZ_FILE = Path("data/mutation/fuzz.json")

#: The rule area of each engine definition (the feature file whose rules it carries out).
AREAS: dict[str, str] = {
    "engine:_check_deal": "stock",
    "engine:legal_actions": "stock",
    "engine:_check_move": "placement",
    "engine:_legal_moves": "placement",
    "engine:_say_move": "stock",
    "engine:check": "placement",
    "engine:is_legal": "placement",
    "engine:is_whole_column_transfer": "empty-columns",
    "engine:_available_moves": "winning-losing",
    "engine:available_actions": "winning-losing",
    "engine:status": "winning-losing",
    "engine:_won": "winning-losing",
    "engine:_expose": "face-down",
    "engine:apply": "moving-groups",
    "engine:_is_run": "collecting-runs",
    "engine:complete_runs": "runs-stay",
    "engine:_in_complete_run": "runs-stay",
}

_MODULE_AREAS = {
    "game": "undo",
    "rules": "variants",
    "position": "positions and translation",
    "actions": "positions and translation",
    "serial": "positions and translation",
    "adapter": "positions and translation",
}


def area_of(module: str, definition: str) -> str:
    """The rule area a mutant of this definition falls in.

    >>> area_of("engine", "_check_deal"), area_of("game", "Game.undo")
    ('stock', 'undo')
    """
    return AREAS.get(f"{module}:{definition}") or _MODULE_AREAS.get(module, "engine, elsewhere")


def _commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def campaign_document(records: Sequence[Mapping[str, Any]], *, seconds: float, workers: int,
                      root: Path | None = None) -> dict[str, Any]:
    """The results file's contents for ``records`` (the campaign's, in mutant order)."""
    return {
        "date": datetime.date.today().isoformat(),
        "tool": {"name": "cosmic-ray", "version": version("cosmic-ray"),
                 "own_operators": ["scorpion/OptionValue", "scorpion/RankStep"]},
        "commit": _commit(root or Path.cwd()),
        "seconds": round(seconds),
        "workers": workers,
        "mutants": [{**record, "area": area_of(record["module"], record["definition"])}
                    for record in records],
    }


def _place(record: Mapping[str, Any]) -> tuple[str, str, int]:
    """What names a mutant across campaigns of the same source: cosmic-ray's own terms."""
    return str(record["module"]), str(record["operator"]), int(record["occurrence"])


def with_before(records: Sequence[Mapping[str, Any]], before: Sequence[Mapping[str, Any]]
                ) -> list[dict[str, Any]]:
    """``records`` with each mutant's status in an earlier campaign (``before``) of the
    same source, matched by module, operator and occurrence."""
    earlier = {_place(r): r["status"] for r in before}
    return [{**r, "before": earlier.get(_place(r), "not run")} for r in records]


def draw_sample(records: Sequence[Mapping[str, Any]], size: int = 64) -> list[str]:
    """A fixed sample of killed mutants for CI: every mutant that only the newer
    scenarios kill (it survived the earlier campaign), then the others spread evenly
    over each module in turn, and at least one of each of our operators.

    >>> draw_sample([{"key": f"engine:f:op:{i}", "module": "engine", "operator": "op",
    ...               "status": "killed", "before": "killed"} for i in range(10)], size=3)
    ['engine:f:op:0', 'engine:f:op:3', 'engine:f:op:6']
    """
    killed = [r for r in records if r["status"] in ("killed", "timeout")]
    chosen = [r["key"] for r in killed if r.get("before") == "survived"]
    for operator in ("scorpion/OptionValue", "scorpion/RankStep"):
        if not any(k.split(":")[2] == operator for k in chosen):
            chosen += [r["key"] for r in killed if r["operator"] == operator][:1]
    modules = list(dict.fromkeys(str(r["module"]) for r in killed))
    pools = {m: [r["key"] for r in killed if r["module"] == m and r["key"] not in chosen] for m in modules}
    share = {m: max(1, round((size - len(chosen)) * len(pool) / max(1, sum(map(len, pools.values())))))
             for m, pool in pools.items()}
    for module, pool in pools.items():
        step = max(1, len(pool) // share[module]) if pool else 1
        chosen += pool[::step][: share[module]]
    return chosen[: max(size, len(chosen))]


def in_scope(records: Sequence[Mapping[str, Any]], mutants: Sequence[Any]) -> list[dict[str, Any]]:
    """The records of today's mutants (``mutants``, as :func:`enumerate_mutants` gives them),
    each named by today's key: a campaign of the same source run before a change of scope."""
    found = {_place(r): r for r in records}
    result = []
    for mutant in mutants:
        record = found.get((mutant.module, mutant.operator, mutant.occurrence))
        if record is not None:
            result.append({**record, "key": mutant.key, "definition": mutant.definition,
                           "index": mutant.index})
    return result
