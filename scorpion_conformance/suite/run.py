"""``scorpion-conformance run`` and ``export``: the suite from the command line.

``run`` hands the shipped feature files to pytest with the suite's plugin and
configuration, so it behaves the same from any directory and from an
installed wheel; ``export`` writes every case as plain JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

__all__ = ["add_export_arguments", "add_run_arguments", "export", "run"]


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--adapter", help="command that starts the adapter (default: the reference adapter)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for each answer of the adapter (default 5)")
    parser.add_argument("--rules", help="comma-separated rule sets to run (default: all declared)")
    parser.add_argument("--id", dest="ids", help="comma-separated scenario ids, such as MOVE-004")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression over scenario names and ids")
    parser.add_argument("-m", dest="marker", help="pytest -m expression over tags, as 'runs-stay'")
    parser.add_argument("--junitxml", help="write a JUnit XML report here")
    parser.add_argument("--cucumberjson", help="write a Cucumber JSON report here")
    parser.add_argument("--report", help="write one JSON record per scenario and rule set here")
    parser.add_argument("--expect", help="expectations file of known failures")
    parser.add_argument("--write-expectations", help="write this run's failures as an expectations file")
    parser.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    parser.add_argument("-q", "--quiet", action="count", default=0, help="less output")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="one line per scenario")
    parser.add_argument("--features", type=Path,
                        help="run the feature files of this folder instead of the shipped ones")


def pytest_arguments(args: argparse.Namespace) -> list[str]:
    """The pytest command line for a ``run``."""
    from importlib import resources

    here = Path(__file__).parent
    features = args.features or Path(str(resources.files("scorpion_conformance.features")))
    argv = [str(features), "-c", str(here / "pytest.ini"), "--rootdir", str(features)]
    for flag, value in (
        ("--adapter", args.adapter), ("--rules", args.rules), ("--id", args.ids),
        ("-k", args.keyword), ("-m", args.marker), ("--junitxml", args.junitxml),
        ("--cucumberjson", args.cucumberjson), ("--report", args.report),
        ("--expect", args.expect), ("--write-expectations", args.write_expectations),
    ):
        if value:
            argv += [flag, str(value)]
    argv += ["--adapter-timeout", str(args.timeout)]
    if args.exitfirst:
        argv.append("-x")
    argv += ["-q"] * args.quiet + ["-v"] * args.verbose
    return argv


def run(args: argparse.Namespace) -> int:
    """Run the suite; the exit code is pytest's (0 only when nothing failed)."""
    import pytest

    if args.features and not (args.features / "test_scenarios.py").exists():
        print(f"scorpion-conformance run: {args.features} has no test_scenarios.py binding "
              "its feature files (copy the one shipped in scorpion_conformance.features)",
              file=sys.stderr)
        return 4
    code = pytest.main(pytest_arguments(args))
    if code == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("scorpion-conformance run: no scenario matched the selection", file=sys.stderr)
    return int(code)


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    parser.add_argument("--features", type=Path, help="read this folder instead of the shipped one")


def export(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Write every case as JSON: ``{"protocol": 1, "cases": [...]}``."""
    from scorpion_conformance import __version__

    from .scenarios import FeatureProblem, export_records, load_cases

    if args.features is not None and not list(args.features.glob("*.feature")):
        print(f"scorpion-conformance export: no .feature file in {args.features}", file=sys.stderr)
        return 2
    try:
        records = export_records(load_cases(args.features))
    except FeatureProblem as error:
        print(f"scorpion-conformance export: {error}", file=sys.stderr)
        return 2
    document = {"protocol": 1, "suite_version": __version__, "cases": records}
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {len(records)} cases to {args.output}", file=sys.stderr)
    else:
        out.write(text)
    return 0
