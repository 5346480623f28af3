"""A quick smoke run of an adapter: is it wired up right, before the real suite?

``scorpion-conformance check-adapter --adapter CMD`` shakes hands with the
adapter, then asks a dozen basic questions on two small fixed positions and
prints one PASS or FAIL line per check, saying in words what the adapter got
wrong. The checks themselves are :mod:`scorpion_conformance.smoke_checks`.

The exit status is 0 when every check passed, 1 when any failed, 2 when the
adapter could not even be started or greeted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from .arguments import SOLVE_TIMEOUT, adapter_command, add_check_timeouts
from .client import AdapterClient
from .errors import AdapterError, ErrorAnswer, OutOfStep
from .escaping import terminal_text
from .smoke_checks import CheckFailed, SmokeChecks
from .solving_checks.checks import BUDGET
from .solving_checks.console import solve_section

__all__ = ["main", "run_check"]

def _indent(text: str) -> str:
    return text.replace("\n", "\n      ")


def run_check(adapter_cmd: str, timeout: float, out: TextIO, solve_budget: int = BUDGET,
              solve_timeout: float = SOLVE_TIMEOUT) -> int:
    """Run the smoke checks against ``adapter_cmd``, printing to ``out``.

    The solve checks (:mod:`scorpion_conformance.solving_checks`) run before
    the last check, quit, when the adapter declares ``solve``; each of their
    answers may take ``solve_timeout`` seconds, and all of them together
    :data:`~scorpion_conformance.solving_checks.checks.SECTION_FACTOR` times that.

    Returns 0 if every check passed, 1 if any failed, 2 if the adapter could
    not be started or greeted.
    """

    def say(line: str) -> None:
        # every line from here on may carry the adapter's words: no control character goes out
        print(terminal_text(line, lines=True), file=out, flush=True)

    say(f"Checking adapter: {adapter_cmd}")
    client = AdapterClient(adapter_cmd, timeout=timeout, max_restarts=3)
    try:
        try:
            info = client.hello()
        except AdapterError as error:
            say(f"FAIL  handshake: {_indent(str(error))}")
            say("The adapter could not be greeted; no other check was run.")
            return 2
        rulesets = ", ".join(terminal_text(name) for name in info.ruleset_names)
        capabilities = ", ".join(sorted(info.capabilities)) or "none"
        say(
            f"PASS  handshake: {terminal_text(info.implementation)}; rule sets {rulesets};"
            f" capabilities {capabilities}"
        )
        if client.echoes_ids:
            say("NOTE  request ids: echoed, so an answer out of step is caught exactly")
        else:
            say("NOTE  request ids: not echoed (optional in version 1); an extra answer is caught only"
                " when it arrives with an answer or before the next request. Copy each request's"
                " \"id\" into its answer to make the check exact (docs/protocol.md, request ids).")
        checks = SmokeChecks(client, info)
        failed = 0
        passed = 1
        for name, check in checks.all():
            if name == "quit":
                solve_failed, solve_passed = solve_section(client, checks.info, say, solve_budget,
                                                           solve_timeout)
                failed, passed = failed + solve_failed, passed + solve_passed
            try:
                note = check()
            except CheckFailed as failure:
                failed += 1
                say(f"FAIL  {name}: {failure}")
                continue
            except ErrorAnswer as refusal:
                failed += 1
                say(f"FAIL  {name}: {refusal}")
                continue
            except AdapterError as error:
                failed += 1
                say(f"FAIL  {name}: {_indent(str(error))}")
                if isinstance(error, OutOfStep):
                    say("The remaining checks were not run: an adapter whose answers are out of step"
                        " with the requests cannot be judged. Write exactly one line per request.")
                    break
                if name == "quit":
                    break
                try:
                    checks.info = client.restart()
                except AdapterError as again:
                    say(f"FAIL  restart after the failure: {_indent(str(again))}")
                    say("The remaining checks were not run.")
                    break
                continue
            if note.startswith("SKIP "):
                say(f"SKIP  {name}: {note[5:]}")
            else:
                passed += 1
                say(f"PASS  {name}: {note}")
        if failed:
            say(f"{failed} of {passed + failed} checks failed.")
            return 1
        say(f"All {passed} checks passed.")
        return 0
    finally:
        client.close()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorpion-conformance check-adapter",
        description="A quick smoke test of a Scorpion adapter.",
    )
    parser.add_argument("--adapter", required=True, type=adapter_command,
                        help="the command that starts the adapter")
    add_check_timeouts(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``check-adapter`` on its own: parse ``argv`` and run the checks on stdout."""
    args = build_parser().parse_args(argv)
    return run_check(args.adapter, args.timeout, sys.stdout, solve_timeout=args.solve_timeout)


if __name__ == "__main__":
    sys.exit(main())
