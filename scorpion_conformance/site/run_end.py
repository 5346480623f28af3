"""What kept a run from being a whole run of the suite, read from its closing record.

The report page, the badge and the site's own report say it the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["caveat", "narrowed"]


def narrowed(end: Mapping[str, Any]) -> list[str]:
    """What a run was narrowed to (its ``selected`` of the closing record), as options.

    >>> narrowed({"selected": {"ids": "STOCK-001", "rules": ["standard"], "areas": None}})
    ['--rules standard', '--id STOCK-001']
    """
    selected = end.get("selected") or {}
    said = []
    for key, option in (("rules", "--rules"), ("areas", "--area"), ("ids", "--id"), ("keyword", "-k"),
                        ("marker", "-m"), ("features", "--features")):
        value = selected.get(key)
        if value:
            said.append(f"{option} {','.join(map(str, value)) if isinstance(value, list) else value}")
    return said


def caveat(end: Mapping[str, Any] | None) -> str | None:
    """What keeps a run from being a whole run of the suite, in a few words; None for a whole run.

    >>> caveat({"run": "complete"}), caveat({"run": "gave-up"})
    (None, 'gave up on the adapter')
    >>> caveat({"run": "complete", "selected": {"ids": "X"}})
    'narrowed'
    """
    if end is None:
        return None
    run = end.get("run")
    said = {"interrupted": "interrupted", "gave-up": "gave up on the adapter",
            "adapter-unusable": "adapter unusable"}
    if run in said:
        return said[str(run)]
    if run != "complete":
        return "not a whole run"
    return "narrowed" if narrowed(end) else None
