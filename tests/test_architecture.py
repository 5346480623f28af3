"""The house keeps the shape docs/architecture.md describes.

Every file the map names exists; no module of the suite grows past 400
lines; the suite's rooms never import the engine; the pytest plugin stays
out of pytest sessions that do not run the suite.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "scorpion_conformance"

#: A backticked name that is a path in the repository (not a command or a field).
_NAME = re.compile(r"`([A-Za-z0-9_./*-]+\.(?:py|md|json|yaml|feature|perft)|[a-z_]+/)`")


def named_paths() -> list[tuple[int, str]]:
    """Every path the map names, bare names resolved against the path before them on the line."""
    found = []
    for number, line in enumerate(MAP.read_text(encoding="utf-8").splitlines(), start=1):
        folder = ""
        for name in _NAME.findall(line):
            if "/" in name.rstrip("/"):
                folder = name.rsplit("/", 1)[0] if not name.endswith("/") else name.rstrip("/")
                found.append((number, name))
            elif name.endswith("/"):
                found.append((number, name))
            else:
                found.append((number, f"{folder}/{name}" if folder else name))
    return found


def test_the_map_names_files_at_all() -> None:
    names = [name for _, name in named_paths()]
    assert len(names) > 40
    assert "scorpion_conformance/client.py" in names
    assert "scorpion_ref/position.py" in names  # a bare name after scorpion_ref/cards.py


@pytest.mark.parametrize(("line", "name"), named_paths(), ids=lambda v: str(v))
def test_every_file_the_map_names_exists(line: int, name: str) -> None:
    matches = list(ROOT.glob(name)) if "*" in name else [ROOT / name]
    assert matches and all(m.exists() for m in matches), f"docs/architecture.md:{line} names {name}"


def test_every_module_of_the_suite_is_on_the_map() -> None:
    text = MAP.read_text(encoding="utf-8")
    top = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    suite = sorted(p.name for p in (PACKAGE / "suite").glob("*.py") if p.name != "__init__.py")
    missing = [f"scorpion_conformance/{n}" for n in top if n not in text]
    missing += [f"scorpion_conformance/suite/{n}" for n in suite if f"suite/{n}" not in text]
    assert not missing, f"docs/architecture.md does not place: {missing}"


@pytest.mark.parametrize("module", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_of_the_suite_is_over_400_lines(module: Path) -> None:
    lines = module.read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"{module.relative_to(ROOT)} has {lines} lines: split it by concept"


#: The rooms on the suite's side of the protocol: they never import the engine.
_PROTOCOL_SIDE = [
    *sorted((PACKAGE / "suite").glob("*.py")),
    *(PACKAGE / name for name in (
        "client.py", "conversation.py", "transport.py", "process.py", "guardian.py", "messages.py",
        "validation.py", "protocol.py", "compare.py", "errors.py", "check_adapter.py",
        "smoke_checks.py", "arguments.py",
    )),
]


def _engine_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found += [f"line {node.lineno}: {n}" for n in names if n.split(".")[0] == "scorpion_ref"]
    return found


@pytest.mark.parametrize("module", _PROTOCOL_SIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_protocol_side_never_imports_the_engine(module: Path) -> None:
    imports = _engine_imports(module)
    assert not imports, f"{module.relative_to(ROOT)} imports the engine: {imports}"


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
