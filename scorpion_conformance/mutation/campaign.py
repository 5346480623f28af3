"""A mutation campaign: every mutant (or a sample) run against the conformance
scenarios, in parallel, each in a scratch copy of ``scorpion_ref``.

Each mutant gets a folder of its own holding a copy of ``scorpion_ref`` with
the mutant applied; its adapter (``python -m scorpion_ref.adapter``) starts
there with ``PYTHONPATH`` set to that folder alone, so the adapter process
imports the mutant and nothing of the tree the campaign reads. The scenarios
run first under the named rule sets, and a mutant that survives them runs
again under every bundle of options (``--all-bundles``).

A mutant is ``killed`` (a scenario failed), ``timeout`` (the adapter stopped
answering: killed too), ``equivalent`` (it survived, and
``data/mutation/equivalent.json`` argues that it behaves as the original), or
``survived``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..suite.scenarios import Case, load_cases
from .mutants import Mutant, write_mutant_tree
from .runner import Verdict, run_suite

__all__ = ["ADAPTER", "check_isolation", "load_equivalents", "run_mutant", "run_mutants", "status_of"]

#: How the mutant's adapter starts: the reference adapter of the mutant's folder (``-P``: the
#: working folder is not put first on the path, so only ``PYTHONPATH`` decides what is imported).
ADAPTER = (sys.executable, "-P", "-m", "scorpion_ref.adapter")

_CASES: list[Case] | None = None


def _cases(features: str | None) -> list[Case]:
    global _CASES
    if _CASES is None:
        _CASES = load_cases(Path(features) if features else None)
    return _CASES


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(folder)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def check_isolation(folder: Path) -> str:
    """The file the adapter's interpreter imports ``scorpion_ref`` from, started as a
    mutant's adapter is; raises RuntimeError unless it lies in ``folder``."""
    import subprocess

    found = subprocess.run(
        [sys.executable, "-P", "-c", "import scorpion_ref; print(scorpion_ref.__file__)"],
        env=_env(folder), cwd=Path.cwd(), capture_output=True, text=True, check=True,
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to(folder.resolve()):
        raise RuntimeError(f"the mutant's adapter would import {found}, not the copy in {folder}")
    return found


def run_mutant(mutant: Mutant, root: str, *, features: str | None = None, all_bundles: bool = True,
               timeout: float = 3.0, first: str | None = None) -> dict[str, Any]:
    """Run the scenarios against one mutant; its record for the results file. ``first``: the id
    of a case to play before the others (the one that killed it last time): the verdict is the
    same, a kill is only found sooner."""
    begin = time.perf_counter()
    cases = sorted(_cases(features), key=lambda case: case.case_id != first)  # stable
    with tempfile.TemporaryDirectory(prefix="scorpion-mutant-") as scratch:
        folder = Path(scratch)
        record: dict[str, Any] = {**asdict(mutant), "key": mutant.key}
        try:
            record["diff"] = write_mutant_tree(mutant, Path(root), folder)
        except ValueError as error:
            record.update(status="not-applied", detail=str(error))
            return record
        env = _env(folder)
        verdict = run_suite(ADAPTER, cases, env=env, cwd=scratch, timeout=timeout)
        bundles = "named"
        if not verdict.killed and all_bundles:
            verdict = run_suite((*ADAPTER, "--all-bundles"), cases, env=env, cwd=scratch, timeout=timeout)
            bundles = "all"
    record.update(_verdict_fields(verdict, bundles))
    record["seconds"] = round(time.perf_counter() - begin, 2)
    return record


def _verdict_fields(verdict: Verdict, bundles: str) -> dict[str, Any]:
    if verdict.killed:
        status = "timeout" if verdict.timeout else "killed"
        return {"status": status, "killed_by": verdict.case, "rules": verdict.rules,
                "bundles": bundles, "detail": verdict.detail, "cases_run": verdict.cases}
    return {"status": "survived", "bundles": bundles, "cases_run": verdict.cases}


def load_equivalents(path: Path) -> dict[str, dict[str, str]]:
    """Mutant key → its argument (and how it was shown), from ``equivalent.json``."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entry["key"]: entry for entry in data["equivalent"]}


def status_of(record: Mapping[str, Any], equivalents: Mapping[str, Any]) -> str:
    """A record's final status: a survivor listed as equivalent is ``equivalent``."""
    status = str(record["status"])
    if status == "survived" and record["key"] in equivalents:
        return "equivalent"
    return status


def run_mutants(
    mutants: Sequence[Mutant],
    root: Path,
    *,
    workers: int = 2,
    features: str | None = None,
    all_bundles: bool = True,
    timeout: float = 3.0,
    progress: Callable[[dict[str, Any]], None] | None = None,
    first: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Run each mutant (in ``workers`` processes); the records in the order of ``mutants``.
    ``first``: mutant key → the case to play first against it (see :func:`run_mutant`)."""
    first = first or {}
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="scorpion-isolation-") as probe:
        import shutil

        shutil.copytree(root / "scorpion_ref", Path(probe) / "scorpion_ref")
        check_isolation(Path(probe))
    items: Iterable[dict[str, Any]]
    if workers <= 1:
        items = (run_mutant(m, str(root), features=features, all_bundles=all_bundles, timeout=timeout,
                            first=first.get(m.key)) for m in mutants)
        for record in items:
            results[record["key"]] = record
            if progress:
                progress(record)
    else:
        with ProcessPoolExecutor(workers) as pool:
            futures = [pool.submit(run_mutant, m, str(root), features=features, all_bundles=all_bundles,
                                   timeout=timeout, first=first.get(m.key)) for m in mutants]
            for future in futures:
                record = future.result()
                results[record["key"]] = record
                if progress:
                    progress(record)
    return [results[m.key] for m in mutants]
