"""The options of ``scorpion-conformance run``, and the pytest command line they become.

Every option says what it does and, where it takes one of a few values, which
ones (``--rules`` lists the named rule sets of the vocabulary, ``--area`` the
rule areas of the shipped feature files). :func:`pytest_command` turns a
parsed command line into pytest's arguments for the suite's plugin.

>>> parser = argparse.ArgumentParser()
>>> add_run_arguments(parser)
>>> args = parser.parse_args(["--area", "stock", "-n", "2", "--id", "STOCK-*"])
>>> pytest_command(args, Path("features"))[-10:]
['--id', 'STOCK-*', '--area', 'stock', '-n', '2', '-p', 'pytest_bdd.plugin', '-p', 'xdist.plugin']
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from scorpion_conformance.arguments import (
    FIRST_FAILURES,
    WORKERS_PER_CORE,
    adapter_command,
    failures,
    most_workers,
    seconds,
)
from scorpion_shared import vocabulary

from .naming import shipped_areas

__all__ = ["DESCRIPTION", "EPILOG", "PLUGINS_ENVIRONMENT", "add_run_arguments", "pytest_command", "workers"]

DESCRIPTION = (
    "Run the conformance suite against an adapter: every scenario once under each rule set "
    "the adapter declares that its option tags admit. The exit status is 0 when nothing "
    "failed; see docs/protocol.md, 'What a run reports', for the others."
)
EPILOG = (
    "examples:\n"
    "  scorpion-conformance run --adapter \"node my-adapter.js\" --report report.jsonl\n"
    "  scorpion-conformance run --area stock --rules standard -q\n"
    "  scorpion-conformance run --id 'STOCK-*' -n auto"
)


def workers(text: str) -> str:
    """An argparse type: ``auto`` or a number of worker processes, 1 or more.

    >>> workers("auto"), workers("2")
    ('auto', '2')
    >>> workers("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '0' is not 'auto' or a number of workers above 0
    """
    if text == "auto" or (text.isdigit() and 0 < int(text[:12]) <= most_workers()):
        return text
    if text.isdigit() and int(text[:12]) > 0:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}: at most {most_workers()} workers on this machine "
                                         f"({WORKERS_PER_CORE} per core)")
    raise argparse.ArgumentTypeError(f"{text!r} is not 'auto' or a number of workers above 0")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Wraps each option's help at spaces only: a rule area such as winning-losing stays whole."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``run``, each with its help and its choices."""
    parser.description = textwrap.fill(DESCRIPTION, 78)
    parser.epilog = EPILOG
    parser.formatter_class = _HelpFormatter
    named = ", ".join(vocabulary.NAMED_RULESETS)
    parser.add_argument("--adapter", type=adapter_command, metavar="CMD",
                        help="the command that starts the adapter (default: the reference adapter)")
    parser.add_argument("--timeout", type=seconds, default=5.0, metavar="SECONDS",
                        help="seconds to wait for each answer of the adapter (default 5)")
    parser.add_argument("--rules", metavar="SET[,SET...]",
                        help=f"rule sets to run, among those the adapter declares (default: all of "
                             f"them); the named ones are {named}")
    parser.add_argument("--area", metavar="AREA[,AREA...]",
                        help="run only these rule areas: " + ", ".join(shipped_areas())
                             + " (also a marker: -m area_stock)")
    parser.add_argument("--id", dest="ids", metavar="ID[,ID...]",
                        help="scenario ids or globs to run, such as MOVE-004 or 'STOCK-*'")
    parser.add_argument("-k", dest="keyword", metavar="EXPR",
                        help="a pytest -k expression over the scenarios' names and ids")
    parser.add_argument("-m", dest="marker", metavar="EXPR",
                        help="a pytest -m expression over tags and areas, such as 'runs-stay' "
                             "or 'area_stock and not undo'")
    parser.add_argument("-n", dest="workers", type=workers, metavar="N|auto",
                        help="run in N worker processes (pytest-xdist), each with its own adapter")
    parser.add_argument("--junitxml", metavar="FILE", help="write a JUnit XML report here")
    parser.add_argument("--cucumberjson", metavar="FILE", help="write a Cucumber JSON report here")
    parser.add_argument("--report", metavar="FILE.jsonl",
                        help="write one JSON record per case and rule set here, then one record "
                             "of the run (what `scorpion-conformance report` reads)")
    parser.add_argument("--expect", metavar="FILE.json",
                        help="an expectations file of known failures (a listed case that passes "
                             "fails the run)")
    parser.add_argument("--write-expectations", metavar="FILE.json",
                        help="write this run's failures as an expectations file")
    parser.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    parser.add_argument("--failures", type=_failures, metavar="N|all",
                        help=f"how many failures to show in full (default {FIRST_FAILURES}); the summary "
                             "counts every one by rule area and reason")
    parser.add_argument("-q", "--quiet", action="count", default=0,
                        help="less output: no header or progress, the failures and the tables; "
                             "-qq: only the failures and a one-line summary")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="one line per case, with its id, rule set and text (and why, for one "
                             "unsupported or not run)")
    parser.add_argument("--features", type=Path, metavar="DIR|FILE",
                        help="run the feature files of this folder (or this one .feature file, such "
                             "as fuzz --emit-scenario writes) instead of the shipped ones")


def _failures(text: str) -> str:
    """``--failures`` as given, once it is ``all`` or a number (:func:`failures` says why not)."""
    failures(text)
    return text


def pytest_command(args: argparse.Namespace, features: Path) -> list[str]:
    """The pytest command line for a ``run`` of the feature folder ``features``."""
    here = Path(__file__).parent
    # The plugin runs the cases; the binding collects the folder's .feature files, so a
    # binding file in the folder is not collected (no python_files).
    root = features.parent if features.is_file() else features
    argv = [str(features), "-c", str(here / "pytest.ini"), "--rootdir", str(root),
            "-p", "scorpion_conformance.suite.plugin", "-p", "scorpion_conformance.suite.binding",
            "-o", "python_files=", "--scorpion-command",
            # Each failure's report is the suite's own (verdicts.py); pytest's long traceback,
            # made and then replaced, took three quarters of a run whose every case fails.
            "--tb=native"]
    if args.features is not None:
        argv += ["--scorpion-features", str(args.features)]
    for flag, value in (
        ("--adapter", args.adapter), ("--rules", args.rules),
        ("-k", args.keyword), ("-m", args.marker), ("--junitxml", args.junitxml),
        ("--cucumberjson", args.cucumberjson), ("--report", args.report),
        ("--expect", args.expect), ("--write-expectations", args.write_expectations),
    ):
        if value:
            argv += [flag, str(value)]
    argv += ["--adapter-timeout", str(args.timeout)]
    if args.exitfirst:
        argv.append("-x")
    if args.quiet == 1:  # no header, no progress: the failures and the tables
        argv += ["-q", "--no-header", "-o", "console_output_style=classic"]
    elif args.quiet:  # only the failures and one line: no pytest totals either
        argv += ["-qq", "--no-header", "-rN", "-o", "console_output_style=classic"]
    argv += ["-v"] * args.verbose
    if args.verbose:  # every unsupported case's reason in full, however long its line
        argv += ["-o", "verbosity_test_cases=2"]
    if getattr(args, "failures", None) is not None:
        argv += ["--failures", args.failures]
    for flag, value in (("--id", args.ids), ("--area", getattr(args, "area", None)),
                        ("-n", getattr(args, "workers", None))):
        if value:
            argv += [flag, str(value)]
    # The plugins a run needs, and no other: run() turns off pytest's loading of every
    # plugin installed beside it (PLUGINS_ENVIRONMENT), so a caller's pytest-randomly or
    # Hypothesis plugin neither changes the run nor slows it.
    argv += ["-p", "pytest_bdd.plugin"]
    if getattr(args, "workers", None):
        argv += ["-p", "xdist.plugin"]
    return argv


#: What run() sets while pytest runs: only the plugins named on its command line load, and a
#: caller's PYTEST_ADDOPTS (``--durations``, ``-p``, ``--tb``...) changes neither the run nor its output.
PLUGINS_ENVIRONMENT = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTEST_ADDOPTS": ""}
