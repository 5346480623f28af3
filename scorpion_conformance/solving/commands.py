"""The commands ``solve``, ``hint`` and ``check-line``: one position, the solver, and what it found.

Each reads a start (``--game N`` or ``--position FILE``), a rule set and a
budget, and prints in the suite's notation. A problem with the input is one
line on stderr and exit 2. A progress bar (positions searched) is drawn on
stderr only when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from scorpion_ref import Action, NotationError
from scorpion_ref.serial import action_to_json, draw_position, position_to_json
from scorpion_shared import vocabulary

from ..escaping import terminal_text
from .inputs import BadInput, Start, read_budget, read_memory, read_rules, read_start
from .lines import read_line, show_action, show_line

__all__ = ["add_line_arguments", "add_position_arguments", "check_line_command", "hint_command",
           "solve_command"]

DEFAULT_NODES = 2_000_000
DEFAULT_MEMORY_MB = 1024


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``solve`` and ``hint``: the start, the rules and the budget."""
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--game", metavar="N", help="start from game N (PySolFC numbering)")
    start.add_argument("--position", metavar="FILE",
                       help="start from a position file (JSON, as 'deal N --json' writes it)")
    parser.add_argument("--rules", metavar="SET", default="standard",
                        help=f"the named rule set: {', '.join(vocabulary.NAMED_RULESETS)} (default standard)")
    parser.add_argument("--budget", metavar="N", default=str(DEFAULT_NODES),
                        help=f"positions to search at most: 200000, 200k, 2M (default {DEFAULT_NODES:,})")
    parser.add_argument("--memory-mb", metavar="MB", default=str(DEFAULT_MEMORY_MB),
                        help=f"the search table's size at most, in megabytes (default {DEFAULT_MEMORY_MB})")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def add_line_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``check-line``: those of ``solve`` and the line."""
    add_position_arguments(parser)
    parser.add_argument("--line", metavar="FILE", dest="line_file",
                        help="a file of actions, separated by commas or new lines ('#' starts a comment)")
    parser.add_argument("actions", nargs="*", metavar="ACTION",
                        help="actions as '9♦ to column 5', '9D>5' or 'deal' (after those of --line)")


def _inputs(args: argparse.Namespace) -> tuple[Start, Any, Any]:
    from scorpion_ref.solver import Budget

    rules = read_rules(args.rules)
    nodes = read_budget(args.budget)
    memory = read_memory(args.memory_mb)
    start = read_start(args.game, args.position)
    return start, rules, Budget(nodes=nodes, memory_mb=memory)


@contextmanager
def _progress(total: int, err: TextIO) -> Iterator[Callable[[int], None] | None]:
    """A bar of positions searched, on stderr when it is a terminal."""
    if not err.isatty():
        yield None
        return
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    with tqdm(total=total, file=err, unit="pos", unit_scale=True, desc="searching", leave=False) as bar:
        def update(nodes: int) -> None:
            bar.update(max(0, min(nodes, total) - bar.n))

        yield update


def _fail(command: str, error: Exception) -> int:
    print(terminal_text(f"scorpion-conformance {command}: {error}"), file=sys.stderr)
    return 2


def _said(found: Any, budget: Any) -> str:
    if found.outcome == "won":
        return f"won in {len(found.line)} actions"
    if found.outcome == "lost":
        return f"lost ({found.proof})"
    what = "memory" if found.proof == "memory" else "positions"
    limit = f"{budget.memory_mb:,} MB" if what == "memory" else f"{budget.nodes:,} positions"
    return f"unknown: the budget of {limit} ran out"


def _solution_json(start: Start, rules: Any, budget: Any, found: Any) -> dict[str, Any]:
    from scorpion_ref.solver import SOLVER_VERSION

    return {
        "start": start.label, "game": start.game, "rules": rules.name, "outcome": found.outcome,
        "line": show_line(found.line), "actions": [action_to_json(a) for a in found.line],
        "proof": found.proof, "nodes": found.nodes, "seconds": round(found.seconds, 4),
        "budget": {"nodes": budget.nodes, "memory_mb": budget.memory_mb}, "solver": SOLVER_VERSION,
    }


def _solve(args: argparse.Namespace, command: str) -> tuple[Start, Any, Any, Any] | int:
    from scorpion_ref.solver import solve

    try:
        start, rules, budget = _inputs(args)
    except BadInput as error:
        return _fail(command, error)
    with _progress(budget.nodes, sys.stderr) as progress:
        found = solve(start.position, rules, budget, progress=progress)
    return start, rules, budget, found


def solve_command(args: argparse.Namespace) -> int:
    """``solve``: the outcome, the line, the positions searched and the time."""
    solved = _solve(args, "solve")
    if isinstance(solved, int):
        return solved
    start, rules, budget, found = solved
    if args.json:
        print(json.dumps(_solution_json(start, rules, budget, found), ensure_ascii=False))
        return 0
    print(f"{start.label} under {rules.name}: {_said(found, budget)} "
          f"({found.nodes:,} positions searched in {found.seconds:.2f} s)")
    if found.outcome == "won" and found.line:
        print(f"line: {show_line(found.line)}")
    return 0


def hint_command(args: argparse.Namespace) -> int:
    """``hint``: the first action of a winning line, else why there is none."""
    solved = _solve(args, "hint")
    if isinstance(solved, int):
        return solved
    start, rules, budget, found = solved
    if args.json:
        data = _solution_json(start, rules, budget, found)
        data["hint"] = show_action(found.line[0]) if found.line else None
        print(json.dumps(data, ensure_ascii=False))
    elif found.outcome == "won" and found.line:
        count = len(found.line)
        print(f"{show_action(found.line[0])}  "
              f"(the first of a winning line of {count} action{'s' * (count != 1)})")
    elif found.outcome == "won":
        print("already won: no move is needed")
    elif found.outcome == "lost":
        print(f"no winning move: lost ({found.proof})")
    else:
        print(f"no winning move found: {_said(found, budget)}")
    return 0


def _line(args: argparse.Namespace) -> list[Action]:
    texts: list[str] = []
    if args.line_file:
        try:
            texts.append(Path(args.line_file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise BadInput(f"cannot read the line file {args.line_file}: "
                           f"{getattr(error, 'strerror', None) or error}") from None
    texts += args.actions
    try:
        return read_line(texts)
    except NotationError as error:
        raise BadInput(str(error)) from None


def _after(number: int, actions: list[Action]) -> str:
    return "the start" if number == 0 else f"action {number} ({show_action(actions[number - 1])})"


def check_line_command(args: argparse.Namespace) -> int:
    """``check-line``: the first action after which the game is proven lost, the last winnable position."""
    from .checkline import check_line

    try:
        start, rules, budget = _inputs(args)
        actions = _line(args)
        with _progress(budget.nodes, sys.stderr) as progress:
            verdict = check_line(start.position, rules, actions, budget, progress=progress)
    except BadInput as error:
        return _fail("check-line", error)
    if args.json:
        last = verdict.last_winnable
        print(json.dumps({
            "start": start.label, "game": start.game, "rules": rules.name, "actions": len(actions),
            "lost_after": verdict.lost_after, "last_winnable": last,
            "proof": verdict.solutions[verdict.lost_after].proof if verdict.lost_after is not None else None,
            "winnable_position": position_to_json(verdict.positions[last]) if last is not None else None,
            "line": show_line(verdict.line), "unknown": verdict.unknown,
            "nodes": verdict.nodes, "seconds": round(verdict.seconds, 4),
        }, ensure_ascii=False))
        return 0
    print(f"{start.label} under {rules.name}, a line of {len(actions)} action{'s' * (len(actions) != 1)} "
          f"({verdict.nodes:,} positions searched in {verdict.seconds:.2f} s):")
    if verdict.lost_after == 0:
        print(f"lost from the start ({verdict.solutions[0].proof})")
    elif verdict.lost_after is not None:
        print(f"proven lost after {_after(verdict.lost_after, actions)}: "
              f"{verdict.solutions[verdict.lost_after].proof}")
    else:
        print("no position of the line was proven lost")
    if verdict.unknown:
        print("left unknown within the budget: the positions after "
              + ", ".join(_after(i, actions) for i in verdict.unknown))
    if verdict.last_winnable is not None:
        last = verdict.last_winnable
        where = "after every action" if last == len(actions) and actions else f"after {_after(last, actions)}"
        print(f"still winnable {where}" + (f"; a winning line from there: {show_line(verdict.line)}"
                                           if verdict.line else ": it is won"))
        if verdict.lost_after is not None:
            print("the last winnable position:")
            print(draw_position(verdict.positions[last]))
    return 0
