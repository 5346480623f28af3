"""What one ``scorpion-conformance`` command costs to start, against a baseline (run by hand, not a test).

    .venv/bin/python benchmarks/startup.py [--baseline main] [--repeat 5] [--pyc]

Each command is run as ``python -m scorpion_conformance ...`` in a fresh process, for this
checkout and for the package ``scorpion_conformance`` of a baseline commit (``git archive``
into a temporary folder put first on ``PYTHONPATH``; the engine, the reference adapter and
the feature files are this checkout's for both, so only the command line's own cost
differs), in turns, ``--repeat`` times each. The CPU of a run is user plus system time of
the process and of every process it waited for (the reference adapter of a ``run``), read
from ``getrusage(RUSAGE_CHILDREN)``; wall time is not shown, as other work on the machine
distorts it. Printed: the median and the least CPU of each, the ratio of the medians
(this checkout over the baseline), and whether both printed the same thing (a run's
``in 0.33s`` left out). Nothing is asserted.

Without ``--pyc`` the environment is taken as it is (where ``PYTHONDONTWRITEBYTECODE`` is
set, every module of ours is compiled again by every process); with it, each variant's
bytecode is written once into a temporary cache (``PYTHONPYCACHEPREFIX``) and read from
there, as an installed package reads its own.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (
    ("run --id DEAL-001 -q", ["run", "--id", "DEAL-001", "-q"]),
    ("run --area deal -q", ["run", "--area", "deal", "-q"]),
    ("lint", ["lint"]),
    ("--version", ["--version"]),
    ("--help", ["--help"]),
)
_TIMING = re.compile(r" in [0-9.]+s\b")


def baseline_package(revision: str, folder: Path) -> str:
    """The baseline's ``scorpion_conformance`` extracted into ``folder``; its commit, short."""
    commit = subprocess.run(["git", "rev-parse", "--short", revision], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "scorpion_conformance"],
                             cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return commit


def environment(pythonpath: str | None, cache: Path | None) -> dict[str, str]:
    env = dict(os.environ, COLUMNS="100")
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def measure(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """CPU seconds of one command (with the processes it waited for) and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "scorpion_conformance", *argv], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    said = _TIMING.sub(" in _s", done.stdout + done.stderr) + f"\nexit {done.returncode}"
    return cpu, said


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="main", help="the commit to compare with (default: main)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command and variant")
    parser.add_argument("--pyc", action="store_true", help="read bytecode from a cache written once")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="startup-") as temporary:
        here = Path(temporary)
        (here / "base").mkdir()
        commit = baseline_package(args.baseline, here / "base")
        variants = {
            "this": environment(None, here / "pyc-this" if args.pyc else None),
            f"base {commit}": environment(str(here / "base"), here / "pyc-base" if args.pyc else None),
        }
        work = here / "cwd"  # not the checkout: `python -m` puts the current folder first on the path
        work.mkdir()
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
        dirty = " (with changes not committed)" if subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
            text=True).stdout.strip() else ""
        print(f"startup CPU (user+sys, with waited children), this checkout {head}{dirty} against "
              f"{commit}; {args.repeat} runs each; Python {platform.python_version()}, "
              f"{os.cpu_count()} cores")
        bytecode = ("bytecode cached once (--pyc)" if args.pyc else
                    "bytecode not written (PYTHONDONTWRITEBYTECODE set): every module compiled each run"
                    if os.environ.get("PYTHONDONTWRITEBYTECODE") else "bytecode as the environment has it")
        print(bytecode)
        if args.pyc:
            for env in variants.values():
                for _, argv in COMMANDS:
                    measure(argv, env, work)
        times: dict[tuple[str, str], list[float]] = {}
        outputs: dict[tuple[str, str], set[str]] = {}
        for _ in range(args.repeat):
            for label, argv in COMMANDS:
                for name, env in variants.items():
                    cpu, said = measure(argv, env, work)
                    times.setdefault((label, name), []).append(cpu)
                    outputs.setdefault((label, name), set()).add(said)
        names = list(variants)
        print(f"\n{'command':<22} {'this: median':>12} {'least':>7} {'base: median':>12} {'least':>7}"
              f" {'ratio':>6}  same output")
        for label, _ in COMMANDS:
            this, base = (times[(label, n)] for n in names)
            same = "yes" if outputs[(label, names[0])] == outputs[(label, names[1])] else "NO"
            print(f"{label:<22} {statistics.median(this):>11.3f}s {min(this):>6.3f}s "
                  f"{statistics.median(base):>11.3f}s {min(base):>6.3f}s "
                  f"{statistics.median(this) / statistics.median(base):>6.2f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
