"""The house keeps the shape docs/architecture.md describes.

The map's table of rooms is read as data: each room's floor, its files and
the rooms it may import. Every module of the three packages and of
``adapters/`` belongs to one room; every import between rooms is one the
map allows, to a room on a lower floor (no arrow back up); no import runs in
a circle; no module grows past 400 lines; the plugin stays thin and out of
pytest sessions that do not run the suite; and every file the map names exists.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
PACKAGES = ("scorpion_shared", "scorpion_ref", "scorpion_conformance")
#: Where the modules the map places are: the three packages, and the adapters' Python files.
PLACES = (*PACKAGES, "adapters")

#: A backticked name that is a path in the repository (not a command or a field).
_NAME = re.compile(r"`([A-Za-z0-9_./*-]+\.(?:py|md|json|yaml|feature|perft|sh|css)|[a-z_]+/(?:[a-z_]+/)*)`")


def _paths(text: str) -> list[str]:
    """The paths a piece of the map names, bare names resolved against the path before them."""
    found, folder = [], ""
    for name in _NAME.findall(text):
        if name.endswith("/"):
            folder = name.rstrip("/")
            found.append(name)
        elif "/" in name:
            folder = name.rsplit("/", 1)[0]
            found.append(name)
        else:
            found.append(f"{folder}/{name}" if folder else name)
    return found


def named_paths() -> list[tuple[int, str]]:
    """Every path the map names, with its line."""
    lines = MAP.read_text(encoding="utf-8").splitlines()
    return [(number, name) for number, line in enumerate(lines, start=1) for name in _paths(line)]


@dataclass(frozen=True)
class Room:
    floor: int
    name: str
    files: tuple[str, ...]
    imports: frozenset[str] | None  # None: every room below
    line: int


@cache
def rooms() -> dict[str, Room]:
    """The map's table of rooms: ``| floor | room | files | may import | its one job |``."""
    found: dict[str, Room] = {}
    for number, line in enumerate(MAP.read_text(encoding="utf-8").splitlines(), start=1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[0].isdigit():
            continue
        floor, name, files, may = int(cells[0]), cells[1], cells[2], cells[3]
        imports = None if may == "every room below" else frozenset(
            () if may == "nothing" else (room.strip() for room in may.split(",")))
        found[name] = Room(floor, name, tuple(_paths(files)), imports, number)
    return found


@cache
def modules() -> dict[str, Path]:
    """Every Python module the map must place, by dotted name (an adapter's script by its path)."""
    found: dict[str, Path] = {}
    for place in PLACES:
        for path in sorted((ROOT / place).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if place == "adapters":
                found[relative.as_posix()] = path
                continue
            parts = list(relative.with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def room_of(path: Path) -> str | None:
    """The room that names the file outright, else the one whose folder holding it is the deepest."""
    relative = path.relative_to(ROOT).as_posix()
    best: tuple[int, str] | None = None
    for room in rooms().values():
        for name in room.files:
            if name == relative:
                score = 10_000
            elif name.endswith("/") and relative.startswith(name):
                score = len(name)
            else:
                continue
            if best is None or score > best[0]:
                best = (score, room.name)
    return best[1] if best else None


def _target(name: str) -> str | None:
    """The module of ours an imported name is (a package's submodule, or the package itself)."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _compiled(package: str, name: str) -> bool:
    """Whether ``from package import name`` is a compiled module (the solver's core: its stub)."""
    return (ROOT / package.replace(".", "/") / f"{name}.pyi").exists()


@cache
def imports() -> dict[str, frozenset[str]]:
    """Module → the modules of ours it imports (relative imports resolved; compiled modules left out)."""
    known = modules()
    graph: dict[str, frozenset[str]] = {}
    for module, path in known.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                         for alias in node.names if not _compiled(base, alias.name)]
            else:
                continue
            found.update(t for n in names if n.split(".")[0] in PACKAGES and (t := _target(n)))
        graph[module] = frozenset(found - {module})
    return graph


def circles() -> list[list[str]]:
    """The import circles among our modules (strongly connected groups of two or more)."""
    graph, index, low, stack, on, found = imports(), {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_map_names_files_at_all() -> None:
    names = [name for _, name in named_paths()]
    assert len(names) > 40
    assert "scorpion_conformance/client.py" in names
    assert "scorpion_ref/position.py" in names  # a bare name after scorpion_ref/cards.py
    assert len(rooms()) > 15 and rooms()["engine"].floor == 1


@pytest.mark.parametrize(("line", "name"), named_paths(), ids=lambda v: str(v))
def test_every_file_the_map_names_exists(line: int, name: str) -> None:
    matches = list(ROOT.glob(name)) if "*" in name else [ROOT / name]
    assert matches and all(m.exists() for m in matches), f"docs/architecture.md:{line} names {name}"


def test_every_module_is_in_a_room() -> None:
    homeless = [str(path.relative_to(ROOT)) for path in modules().values() if room_of(path) is None]
    assert not homeless, f"docs/architecture.md places no room around {homeless}"


def test_every_room_stands_on_the_rooms_below_it() -> None:
    """The map itself has no arrow up: a room may import only rooms on lower floors."""
    for room in rooms().values():
        for other in room.imports or ():
            assert other in rooms(), f"docs/architecture.md:{room.line}: {room.name} may import {other!r}?"
            assert rooms()[other].floor < room.floor, (
                f"docs/architecture.md:{room.line}: {room.name} (floor {room.floor}) may import {other}"
                f" (floor {rooms()[other].floor}), which is not below it")


def test_every_import_is_one_the_map_allows() -> None:
    """No arrow back up, nor sideways to a room the map does not list."""
    known, wrong = modules(), []
    for module, targets in sorted(imports().items()):
        here = rooms()[room_of(known[module]) or ""]
        for target in sorted(targets):
            there = rooms()[room_of(known[target]) or ""]
            allowed = there.floor < here.floor if here.imports is None else there.name in here.imports
            if there is not here and not allowed:
                wrong.append(f"{module} ({here.name}, floor {here.floor}) imports {target}"
                             f" ({there.name}, floor {there.floor})")
    assert not wrong, "imports the map does not allow:\n" + "\n".join(wrong)


def test_no_import_runs_in_a_circle() -> None:
    assert circles() == []


def test_the_imports_are_read_as_python_reads_them() -> None:
    """The graph the tests above judge is the real one: relative imports, packages and all."""
    graph = imports()
    assert "scorpion_shared.vocabulary" in graph["scorpion_ref.rules"]
    assert "scorpion_conformance.notation" in graph["scorpion_conformance.compare"]
    assert "scorpion_conformance.suite.session" in graph["scorpion_conformance.suite.plugin"]
    assert "scorpion_shared.frontend" in graph["adapters/soliterm/adapter.py"]
    assert graph["adapters/python/template_adapter.py"] == frozenset()
    assert not any(m.endswith("_core") for ms in graph.values() for m in ms)  # the compiled core


def test_the_protocol_side_never_imports_the_engine() -> None:
    """The steps, the client and the transport know cards only as protocol JSON."""
    engine = {"engine", "solver", "reference adapter"}
    for name in ("suite", "client", "transport", "protocol", "notation", "comparison", "smoke test"):
        assert not engine & (rooms()[name].imports or set()), f"the map lets {name} import the engine"


@pytest.mark.parametrize("module", sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_400_lines(module: Path) -> None:
    lines = module.read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"{module.relative_to(ROOT)} has {lines} lines: split it by concept"


def test_the_plugin_is_thin() -> None:
    """Its hooks delegate; it keeps no state of its own at module level."""
    path = ROOT / "scorpion_conformance" / "suite" / "plugin.py"
    assert path.read_text(encoding="utf-8").count("\n") <= 160
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Global)]
    assigned = [target.id for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)]
    assert assigned == [], f"module-level state in the plugin: {assigned}"


def test_the_plugin_stays_out_of_other_pytest_sessions(tmp_path: Path) -> None:
    (tmp_path / "test_other.py").write_text("def test_other():\n    assert True\n", encoding="utf-8")

    def pytest_says(*args: str) -> str:
        result = subprocess.run([sys.executable, "-m", "pytest", *args, "-p", "no:cacheprovider"],
                                capture_output=True, text=True, cwd=tmp_path, timeout=120)
        return result.stdout + result.stderr

    assert "--adapter" not in pytest_says("--help")
    markers = pytest_says("--markers")
    assert "runs-collect" not in markers and "empty-king" not in markers
    assert "1 passed" in pytest_says("-q")


def test_the_plugin_comes_in_for_a_folder_of_feature_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "features"), "--help", "-p", "no:cacheprovider"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert "--adapter" in result.stdout, result.stdout[-2000:] + result.stderr[-2000:]
