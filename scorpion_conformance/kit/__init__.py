"""The adapter kit, shipped in the wheel: ``scorpion-conformance new-adapter python|javascript DIR``.

The templates are the files of ``adapters/python/`` and ``adapters/javascript/``
themselves: the wheel ships those two folders as the packages
``scorpion_conformance.kit.python`` and ``.javascript`` (see ``package-dir`` in
``pyproject.toml``), so an installed package can start an adapter without a
checkout of the repository, and there is no copy to keep. The Python kit's
``protocol.md`` is ``docs/protocol.md`` (a link in the repository, a file in
the wheel), so the folder it writes holds every page its instructions name.

>>> sorted(KITS)
['javascript', 'python']
>>> KITS["python"].files
(('adapter.py', 'adapter.py'), ('README.md', 'README.md'), ('protocol.md', 'protocol.md'))
>>> print(next_steps("python", Path("mine")))
next:
  1. fill in the TODOs of Engine in mine/adapter.py (mine/README.md says how, in mine/protocol.md)
  2. scorpion-conformance check-adapter --adapter "python3 mine/adapter.py"
  3. scorpion-conformance run --adapter "python3 mine/adapter.py"
>>> print(next_steps("javascript", Path("my adapter")).splitlines()[2])
  2. scorpion-conformance check-adapter --adapter "node 'my adapter/adapter.js'"
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

__all__ = ["KITS", "Kit", "add_arguments", "main", "next_steps", "write_kit"]


@dataclass(frozen=True)
class Kit:
    """One template: its files (shipped name, written name) and how to go on from them."""

    files: tuple[tuple[str, str], ...]
    #: The adapter command, with ``{adapter}`` for the adapter's file.
    command: str
    #: The file that starts the adapter.
    adapter: str
    #: The first thing to do, with ``{dir}`` for the folder (each path quoted for a shell).
    first: str
    #: The folder of the repository the files are (shipped as the package of this kind).
    source: str


def _same(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((name, name) for name in names)


KITS: dict[str, Kit] = {
    "python": Kit(_same(("adapter.py", "README.md", "protocol.md")), "python3 {adapter}", "adapter.py",
                  "fill in the TODOs of Engine in {dir/adapter.py} ({dir/README.md} says how, "
                  "in {dir/protocol.md})",
                  "adapters/python"),
    "javascript": Kit(
        _same(("adapter.js", "vocabulary.js", "engine.js", "solver.js", "deal.js", "engine_test.js",
               "solver_test.js", "README.md")),
        "node {adapter}", "adapter.js",
        "read {dir/README.md}; its own tests: node --test {dir}", "adapters/javascript"),
}


def _for_shell(path: Path) -> str:
    return shlex.quote(str(path))


def _double_quoted(command: str) -> str:
    """``command`` as one shell word, in double quotes where nothing in it is special there."""
    if not any(c in command for c in '"$`\\!'):
        return f'"{command}"'
    return shlex.quote(command)


def next_steps(kind: str, folder: Path) -> str:
    """What to do once the kit of ``kind`` is in ``folder``: the lines ``new-adapter`` prints."""
    kit = KITS[kind]
    first = kit.first.replace("{dir}", _for_shell(folder))
    for _, name in kit.files:
        first = first.replace("{dir/" + name + "}", _for_shell(folder / name))
    adapter = _double_quoted(kit.command.format(adapter=_for_shell(folder / kit.adapter)))
    return "\n".join([
        "next:",
        f"  1. {first}",
        f"  2. scorpion-conformance check-adapter --adapter {adapter}",
        f"  3. scorpion-conformance run --adapter {adapter}",
    ])


def write_kit(kind: str, folder: Path, *, force: bool = False) -> list[Path]:
    """Write the template ``kind`` into ``folder`` (made if needed); returns the files written.

    Raises :class:`FileExistsError` naming a file that is already there (unless ``force``).
    """
    kit = KITS[kind]
    targets = [(shipped, folder / name) for shipped, name in kit.files]
    if not force:
        for _, target in targets:
            if target.exists():
                raise FileExistsError(f"{target} is already there (--force writes over it)")
    folder.mkdir(parents=True, exist_ok=True)
    root = resources.files(f"{__name__}.{kind}")
    for shipped, target in targets:
        target.write_text(root.joinpath(shipped).read_text(encoding="utf-8"), encoding="utf-8")
        if target.suffix in (".py", ".js") and target.name.startswith("adapter"):
            target.chmod(0o755)
    return [target for _, target in targets]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance new-adapter``."""
    parser.description = ("Write the adapter template of a language into a folder: its protocol loop "
                          "is complete, and the engine is yours to plug in.")
    parser.add_argument("kind", choices=sorted(KITS), help="the template: " + ", ".join(sorted(KITS)))
    parser.add_argument("folder", type=Path, metavar="DIR", help="the folder to write (made if needed)")
    parser.add_argument("--force", action="store_true", help="write over files that are already there")


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Write the kit; 0 on success, 2 when a file is in the way or the folder cannot be written."""
    out = out or sys.stdout
    try:
        written = write_kit(args.kind, args.folder, force=args.force)
    except (FileExistsError, OSError) as error:
        print(f"scorpion-conformance new-adapter: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}", file=out)
    print(next_steps(args.kind, args.folder), file=out)
    return 0
