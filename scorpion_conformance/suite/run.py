"""``scorpion-conformance run``, ``export`` and ``lint``: the suite from the command line.

``run`` hands a folder of feature files (the shipped ones by default) to
pytest with the suite's plugin, configuration and binding
(:mod:`.binding`), so it behaves the same from any directory and from an
installed wheel, and needs no binding file in the folder; ``export`` writes
every case as plain JSON; ``lint`` only checks the feature files.

All three check their paths first (exit 2 with one line naming the option)
and run the authoring lint (:mod:`.lint`) before anything else: on any
problem they print ``file:line: what is wrong``, one per line, and exit 4
before an adapter starts.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from scorpion_conformance.escaping import terminal_text

from . import stopping

__all__ = [
    "AUTHORING_ERROR",
    "USAGE_ERROR",
    "PathError",
    "add_export_arguments",
    "add_lint_arguments",
    "add_run_arguments",
    "check_output",
    "export",
    "lint_command",
    "run",
]

#: The exit status for bad command-line values (a missing folder, say).
USAGE_ERROR = 2
#: The exit status for authoring errors in the feature files.
AUTHORING_ERROR = 4
#: The files ``run`` writes, by option.
OUTPUT_OPTIONS = (
    ("--junitxml", "junitxml"), ("--cucumberjson", "cucumberjson"), ("--report", "report"),
    ("--write-expectations", "write_expectations"),
)


class PathError(ValueError):
    """A path given on the command line that cannot be used; the message names the option."""


def _features_folder(features: Path | None) -> Path:
    """The folder to read (the shipped one by default), or one ``.feature`` file (what ``fuzz
    --emit-scenario`` writes); raises :class:`PathError`."""
    if features is None:
        from .scenarios import feature_dir

        return feature_dir()
    if features.is_file():
        if features.suffix != ".feature":
            raise PathError(f"--features {features}: is neither a folder nor a .feature file")
        return features
    if not features.is_dir():
        why = "is not a folder or a .feature file" if features.exists() else "no such folder or file"
        raise PathError(f"--features {features}: {why}")
    if not any(features.glob("*.feature")):
        raise PathError(f"--features {features}: no .feature file in it")
    return features


def check_output(option: str, value: str | Path) -> Path:
    """A file the command will write: its folder must exist and it must not be a folder.

    Raises :class:`PathError` naming the option and the path.

    >>> try:
    ...     check_output("--report", "/no/such/folder/report.jsonl")
    ... except PathError as error:
    ...     print(error)
    --report /no/such/folder/report.jsonl: the folder /no/such/folder does not exist
    """
    path = Path(value)
    if path.is_dir():
        raise PathError(f"{option} {value}: is a folder; name a file to write")
    parent = path.parent
    if not parent.is_dir():
        why = "is not a folder" if parent.exists() else "does not exist"
        raise PathError(f"{option} {value}: the folder {parent} {why}")
    return path


#: What each command says it did not do when the lint stops it.
_STOPPED = {
    "run": "; fix {} first (no adapter was started)",
    "export": "; fix {} first (nothing was written)",
    "lint": "",
}


def _authoring_problems(command: str, features: Path) -> int:
    """Lint the folder; print every problem and return 4, or return 0."""
    from .lint import lint

    problems = lint(features)
    for problem in problems:
        print(terminal_text(problem), file=sys.stderr)
    if problems:
        many = len(problems) != 1
        print(f"scorpion-conformance {command}: {len(problems)} authoring problem{'s' if many else ''} "
              f"in {features}" + _STOPPED[command].format("them" if many else "it"), file=sys.stderr)
        return AUTHORING_ERROR
    return 0


#: The exit status when the adapter cannot be used at all (no scenario ran).
ADAPTER_UNUSABLE = 3
#: The exit status when no scenario matched the selection.
NOTHING_SELECTED = 5
#: The exit status of a fault of the suite itself (pytest's internal error).
INTERNAL_ERROR = 70


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``run`` (:mod:`.run_options`)."""
    from .run_options import add_run_arguments as add

    add(parser)


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line for a ``run``."""
    from .run_options import pytest_command

    return pytest_command(args, _features_folder(args.features))


def run(args: argparse.Namespace) -> int:
    """Run the suite; the exit code is pytest's (0 only when nothing failed).

    Bad paths exit 2 and authoring problems exit 4, both before an adapter
    starts. SIGINT and SIGTERM stop it at any moment, with 130 and 143, and
    every report asked for still says it was interrupted (:mod:`.stopping`).
    """
    stopping.hold()
    try:
        return _run(args)
    finally:
        stopping.release()


def _run(args: argparse.Namespace) -> int:
    try:
        features = _features_folder(args.features)
        for flag, name in OUTPUT_OPTIONS:
            if getattr(args, name):
                check_output(flag, getattr(args, name))
        if args.expect and not Path(args.expect).is_file():
            raise PathError(f"--expect {args.expect}: no such file")
    except PathError as error:
        print(terminal_text(f"scorpion-conformance run: {error}"), file=sys.stderr)
        return USAGE_ERROR
    if _authoring_problems("run", features):
        return AUTHORING_ERROR
    outputs = {name: Path(getattr(args, name)) for name in ("report", "junitxml", "cucumberjson")
               if getattr(args, name)}
    if stopping.held() is not None:
        return stopping.settle(args, outputs, None, None) or 130
    import pytest

    from scorpion_conformance.writing import replace_with, target_of, why

    from .run_options import PLUGINS_ENVIRONMENT

    # JUnit and Cucumber files are written beside the file they replace and put in
    # its place at the end (through a link, in place of a FIFO), so a file the user
    # already has is never left half written.
    finals: dict[str, Path] = {}
    for name in ("junitxml", "cucumberjson"):
        if getattr(args, name):
            final = Path(getattr(args, name))
            target = target_of(final)
            finals[str(target.with_name(f".{target.name}.{os.getpid()}.tmp"))] = final
            setattr(args, name, next(reversed(finals)))
    observer = stopping.Observer()
    code: int | None = None
    unwritten = False
    try:
        with _environment(PLUGINS_ENVIRONMENT), _frozen_heap():
            code = int(pytest.main(pytest_arguments(args), plugins=[observer]))
    except KeyboardInterrupt:
        pass  # a signal while pytest ended its session: settled below
    finally:
        for temporary, final in finals.items():
            if Path(temporary).exists():
                try:
                    replace_with(temporary, final)
                except OSError as error:
                    unwritten = True
                    print(f"scorpion-conformance run: {final}: cannot write it: {why(error)}",
                          file=sys.stderr)
    stopped = stopping.settle(args, outputs, observer, code)
    if stopped is not None or code is None:
        return stopped or 130
    status = _exit_status(code, observer)
    return USAGE_ERROR if unwritten and status in (0, 1) else status


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set, as it was afterwards (xdist's workers inherit it)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def _frozen_heap() -> Iterator[None]:
    """The objects alive when pytest starts (every module imported, the lint's documents) left
    out of the cyclic collector's sweeps until it ends: those sweeps (about 190 in a short run,
    and pytest's own at the end) took a fifth of a short run's time going over them."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _exit_status(code: int, observer: stopping.Observer) -> int:
    """pytest's exit status in the suite's terms (see ``docs/protocol.md``, exit statuses)."""
    import pytest

    from .session import suite_of

    suite = suite_of(observer.config)
    if suite is not None and suite.unusable:
        return ADAPTER_UNUSABLE
    if code in (128 + 2, 128 + 15):
        return code
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("scorpion-conformance run: no scenario matched the selection", file=sys.stderr)
        return NOTHING_SELECTED
    if code == pytest.ExitCode.USAGE_ERROR:
        return USAGE_ERROR
    if code == pytest.ExitCode.INTERNAL_ERROR:
        return INTERNAL_ERROR
    if code == pytest.ExitCode.INTERRUPTED:
        return 130
    return code


def add_lint_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--features", type=Path,
                        help="check this folder (or one .feature file) instead of the shipped ones")


def lint_command(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Check the feature files: each problem on a line of its own, exit 4 if there is any."""
    try:
        features = _features_folder(args.features)
    except PathError as error:
        print(f"scorpion-conformance lint: {error}", file=sys.stderr)
        return USAGE_ERROR
    if _authoring_problems("lint", features):
        return AUTHORING_ERROR
    if features.is_file():
        out.write(f"{features}: no problem\n")
        return 0
    count = len(list(features.glob("*.feature")))
    out.write(f"{count} feature file{'s' if count != 1 else ''} in {features}: no problem\n")
    return 0


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    parser.add_argument("--features", type=Path,
                        help="read this folder (or one .feature file) instead of the shipped ones")


def export(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Write every case as JSON: ``{"protocol": 1, "cases": [...]}``.

    Bad paths exit 2 and authoring problems exit 4, before anything is written;
    the output file is written as :func:`~scorpion_conformance.writing.write_file`
    writes, and a write that fails exits 2.
    """
    from scorpion_conformance import __version__
    from scorpion_conformance.writing import why, write_file

    from .scenarios import export_records, load_cases

    try:
        features = _features_folder(args.features)
        if args.output:
            check_output("-o", args.output)
    except PathError as error:
        print(f"scorpion-conformance export: {error}", file=sys.stderr)
        return USAGE_ERROR
    if _authoring_problems("export", features):
        return AUTHORING_ERROR
    records = export_records(load_cases(features))
    document = {"protocol": 1, "suite_version": __version__, "cases": records}
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if args.output:
        try:
            write_file(args.output, lambda out: out.write(text))
        except OSError as error:
            print(f"scorpion-conformance export: -o {args.output}: cannot write it: {why(error)}",
                  file=sys.stderr)
            return USAGE_ERROR
        print(f"wrote {len(records)} cases to {args.output}", file=sys.stderr)
    else:
        out.write(text)
    return 0
