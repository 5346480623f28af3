"""The adapter kit, shipped in the wheel: ``scorpion-conformance new-adapter python|javascript DIR``.

The templates are ``adapters/python/template_adapter.py`` and the files of
``adapters/javascript/`` themselves: the wheel ships those two folders as the
packages ``scorpion_conformance.kit.python`` and ``.javascript`` (see
``package-dir`` in ``pyproject.toml``), so an installed package can start an
adapter without a checkout of the repository, and there is no copy to keep.

>>> sorted(KITS)
['javascript', 'python']
>>> KITS["python"].files
(('template_adapter.py', 'adapter.py'),)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TextIO

__all__ = ["KITS", "Kit", "add_arguments", "main", "write_kit"]


@dataclass(frozen=True)
class Kit:
    """One template: its files (shipped name, written name) and how to try it."""

    files: tuple[tuple[str, str], ...]
    #: The adapter command, with ``{dir}`` for the folder.
    command: str
    #: The folder of the repository the files are (shipped as the package of this kind).
    source: str


KITS: dict[str, Kit] = {
    "python": Kit((("template_adapter.py", "adapter.py"),), "python3 {dir}/adapter.py",
                  "adapters/python"),
    "javascript": Kit(
        tuple((name, name) for name in ("adapter.js", "vocabulary.js", "engine.js", "solver.js", "deal.js",
                                         "engine_test.js",
                                         "solver_test.js", "README.md")),
        "node {dir}/adapter.js", "adapters/javascript"),
}


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
    command = KITS[args.kind].command.format(dir=args.folder)
    print(f'next: scorpion-conformance check-adapter --adapter "{command}"', file=out)
    return 0
