"""How the tests spread over pytest-xdist's workers (``pytest -n auto --dist loadgroup``).

A fixture wider than one test (the built site, the installed wheel, a module's own
module-scoped fixture) is made once per worker that uses it. So every test that depends on
one is put in one group, and a group runs on one worker: the site is built once. The groups
are read from the fixtures each test asks for, so a new test that asks for ``browser`` needs
no mark; an explicit ``xdist_group`` mark is honoured too.

pytest-xdist's own ``loadgroup`` reads the groups by appending them to the test ids, which
pytest 9.2 no longer lets a plugin change (pytest-dev/pytest-xdist#1386: the marks are then
silently ignored). Here the workers write the groups to a file the controller names, and the
controller's scheduler (xdist's scope scheduling) reads the groups from it. xdist hands out
the biggest units first, so the groups, which carry the slow set-ups, start at once and
the single tests fill in around them.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

__all__ = ["GroupScheduling", "auto_workers", "groups_of", "offer_groups_file", "publish_groups",
           "share_groups_file", "unshare_groups_file"]

#: Workers a core under ``-n auto``. Many tests spend much of their time waiting (for a
#: subprocess to start, an adapter to answer, Chromium to draw), and a worker more than the
#: cores fills that time with another test's work.
WORKERS_A_CORE = 1.5


def auto_workers() -> int | None:
    """How many workers ``-n auto`` starts: :data:`WORKERS_A_CORE` for each core this process
    may run on; None (xdist's own count) when ``PYTEST_XDIST_AUTO_NUM_WORKERS`` is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return max(1, round(len(os.sched_getaffinity(0)) * WORKERS_A_CORE))


#: The key of the groups file in a worker's ``workerinput``.
KEY = "scorpion_groups_file"


#: Fixtures wider than one test that every worker using them makes for itself: they cost a
#: second or two (Chromium's start), less than holding their tests on one worker.
UNGROUPED = frozenset({"chromium_browser"})


def _shared_roots(item: pytest.Item) -> set[str]:
    """The fixtures wider than one test that ``item`` depends on and that depend on no other such
    fixture of ours (the site, for a test of ``browser``, which is built on ``served`` and ``site``)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return set()

    def shared(name: str) -> Any:
        defs = info.name2fixturedefs.get(name)
        # Our own fixtures have a base id (the folder or module that defines them); pytest's
        # and plugins' (tmp_path_factory, ...) have none and cost nothing to make again.
        if defs and defs[-1].scope != "function" and defs[-1].baseid and name not in UNGROUPED:
            return defs[-1]
        return None

    roots = set()
    for name in info.names_closure:
        fixture = shared(name)
        if fixture is not None and not any(shared(arg) for arg in fixture.argnames):
            roots.add(f"{fixture.baseid}::{name}")
    return roots


def groups_of(items: list[pytest.Item]) -> dict[str, str]:
    """Each grouped test's id and its group: its explicit ``xdist_group`` marks and wide fixtures."""
    groups = {}
    for item in items:
        names = {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                 for m in item.iter_markers("xdist_group")} | _shared_roots(item)
        if names:
            groups[item.nodeid] = "+".join(sorted(names))
    return groups


def share_groups_file(config: pytest.Config) -> None:
    """In the controller: a fresh folder for the workers' groups files."""
    config.stash[_FOLDER] = Path(tempfile.mkdtemp(prefix="scorpion-xdist-groups-"))


def unshare_groups_file(config: pytest.Config) -> None:
    folder = config.stash.get(_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def offer_groups_file(config: pytest.Config, node: Any) -> None:
    """In the controller: tell a starting worker where to write its groups."""
    folder = config.stash.get(_FOLDER, None)
    if folder is not None:
        node.workerinput[KEY] = str(folder / "groups.json")


def publish_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: write the groups of its collection where the controller reads them.

    Every worker collects the same tests (xdist checks it), so every file says the same;
    each is written whole under a temporary name of its own and then renamed.
    """
    target = getattr(config, "workerinput", {}).get(KEY)
    if target is None:
        return
    mine = Path(f"{target}.{config.workerinput['workerid']}")
    partial = Path(f"{mine}.partial")  # a worker's own: two workers sharing one had a rename fail
    partial.write_text(json.dumps(groups_of(items)), encoding="utf-8")
    os.replace(partial, mine)


class GroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with the groups the workers wrote: a group is one unit of work,
    every other test a unit of its own."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self._groups: dict[str, str] | None = None

    def _read_groups(self) -> dict[str, str]:
        if self._groups is None:
            folder = self.config.stash.get(_FOLDER, None)
            found = sorted(folder.glob("groups.json.*")) if folder is not None else []
            found = [path for path in found if path.suffix != ".partial"]
            self._groups = json.loads(found[0].read_text(encoding="utf-8")) if found else {}
        return self._groups

    def _split_scope(self, nodeid: str) -> str:
        group = self._read_groups().get(nodeid)
        return f"group:{group}" if group else nodeid


_FOLDER = pytest.StashKey[Path]()
