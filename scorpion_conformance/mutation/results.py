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

__all__ = ["AREAS", "CAMPAIGN_FILE", "EQUIVALENT_FILE", "area_of", "campaign_document"]

CAMPAIGN_FILE = Path("data/mutation/campaign.json")
EQUIVALENT_FILE = Path("data/mutation/equivalent.json")

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
