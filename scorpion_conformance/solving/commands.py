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
from . import verdicts
from .inputs import BadInput, Start, read_budget, read_memory, read_rules, read_start
from .lines import PlayedMove, moves_json, play_line, read_line, show_action, show_line, show_move, show_moves

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


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' * (count != 1)}"


def _said(found: Any, budget: Any) -> str:
    """The verdict in a few words: ``won in 53 moves``, ``lost (exhausted)``, ``unknown (nodes) ...``."""
    if found.outcome == "won":
        return f"won in {_plural(len(found.line), 'move')}"
    if found.outcome == "lost":
        return f"lost ({found.proof})"
    limit = f"{budget.memory_mb:,} MB" if found.proof == "memory" else _plural(budget.nodes, "position")
    return f"unknown ({found.proof}): the budget of {limit} ran out"


def _explained() -> str:
    return f"what the solver's verdicts mean: {verdicts.explained()}"


def _moves(start: Any, rules: Any, line: Any, first: int = 1) -> list[PlayedMove]:
    return play_line(start, rules, line, first) if line else []


def _solution_json(start: Start, rules: Any, budget: Any, found: Any) -> dict[str, Any]:
    from scorpion_ref.solver import SOLVER_VERSION

    return {
        "start": start.label, "game": start.game, "rules": rules.name, "outcome": found.outcome,
        "proof": found.proof, "meaning": verdicts.meaning(found.outcome, found.proof),
        "line": show_line(found.line), "actions": [action_to_json(a) for a in found.line],
        "moves": moves_json(_moves(start.position, rules, found.line)),
        "nodes": found.nodes, "seconds": round(found.seconds, 4),
        "budget": {"nodes": budget.nodes, "memory_mb": budget.memory_mb}, "solver": SOLVER_VERSION,
        "explained": verdicts.explained(),
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
    """``solve``: the verdict and what it means, the numbered winning line, the positions and the time."""
    solved = _solve(args, "solve")
    if isinstance(solved, int):
        return solved
    start, rules, budget, found = solved
    if args.json:
        print(json.dumps(_solution_json(start, rules, budget, found), ensure_ascii=False))
        return 0
    print(f"{start.label} under {rules.name}: {_said(found, budget)} "
          f"({_plural(found.nodes, 'position')} searched in {found.seconds:.2f} s)")
    print(f"  {verdicts.meaning(found.outcome, found.proof)}")
    if found.outcome == "won" and found.line:
        print("the winning line, a move a line (the card, the column it leaves, the column it goes to):")
        print("\n".join(show_moves(_moves(start.position, rules, found.line))))
    print(_explained())
    return 0


def hint_command(args: argparse.Namespace) -> int:
    """``hint``: the first move of a winning line, else why there is none."""
    solved = _solve(args, "hint")
    if isinstance(solved, int):
        return solved
    start, rules, budget, found = solved
    first = _moves(start.position, rules, found.line[:1])
    if args.json:
        data = _solution_json(start, rules, budget, found)
        data["hint"] = show_action(found.line[0]) if found.line else None
        data["first_move"] = moves_json(first)[0] if first else None
        print(json.dumps(data, ensure_ascii=False))
        return 0
    if found.outcome == "won" and found.line:
        print(show_move(first[0]))
        print(f"  the first move of a winning line of {_plural(len(found.line), 'move')}; "
              f"'solve' prints the whole line")
    elif found.outcome == "won":
        print("already won: no move is needed")
    elif found.outcome == "lost":
        print(f"no winning move: {_said(found, budget)}")
        print(f"  {verdicts.meaning(found.outcome, found.proof)}")
    else:
        print(f"no winning move found: {_said(found, budget)}")
        print(f"  {verdicts.meaning(found.outcome, found.proof)}")
    print(_explained())
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


def _after(number: int, played: list[PlayedMove]) -> str:
    return "the start" if number == 0 else f"move {number}: {show_move(played[number - 1])}"


def check_line_command(args: argparse.Namespace) -> int:
    """``check-line``: the first move after which the game is proven lost, the last winnable position."""
    from .checkline import check_line

    try:
        start, rules, budget = _inputs(args)
        actions = _line(args)
        with _progress(budget.nodes, sys.stderr) as progress:
            verdict = check_line(start.position, rules, actions, budget, progress=progress)
    except BadInput as error:
        return _fail("check-line", error)
    played = play_line(start.position, rules, actions)
    last = verdict.last_winnable
    onward = _moves(verdict.positions[last], rules, verdict.line, last + 1) if last is not None else []
    lost = verdict.solutions[verdict.lost_after] if verdict.lost_after is not None else None
    if args.json:
        print(json.dumps({
            "start": start.label, "game": start.game, "rules": rules.name, "actions": len(actions),
            "played": moves_json(played),
            "lost_after": verdict.lost_after, "last_winnable": last,
            "proof": lost.proof if lost else None,
            "meaning": verdicts.meaning("lost", lost.proof) if lost else None,
            "winnable_position": position_to_json(verdict.positions[last]) if last is not None else None,
            "line": show_line(verdict.line), "moves": moves_json(onward), "unknown": verdict.unknown,
            "nodes": verdict.nodes, "seconds": round(verdict.seconds, 4),
            "explained": verdicts.explained(),
        }, ensure_ascii=False))
        return 0
    print(f"{start.label} under {rules.name}, a line of {_plural(len(actions), 'move')} "
          f"({_plural(verdict.nodes, 'position')} searched in {verdict.seconds:.2f} s):")
    if lost is not None and verdict.lost_after == 0:
        print(f"lost from the start ({lost.proof})")
    elif lost is not None:
        print(f"proven lost ({lost.proof}) after {_after(verdict.lost_after or 0, played)}")
    else:
        print("no position of the line was proven lost")
    if lost is not None:
        print(f"  {verdicts.meaning('lost', lost.proof)}")
    if verdict.unknown:
        print("left unknown within the budget: the positions after "
              + "; ".join(_after(i, played) for i in verdict.unknown))
        print(f"  {verdicts.meaning('unknown', verdict.solutions[verdict.unknown[0]].proof)}")
    if last is not None:
        where = "after every move" if last == len(actions) and actions else f"after {_after(last, played)}"
        if verdict.line:
            print(f"still winnable {where}")
            print("a winning line from there, a move a line:")
            print("\n".join(show_moves(onward)))
        else:
            print(f"still winnable {where}: it is won")
        if verdict.lost_after is not None:
            print("the last winnable position:")
            print(draw_position(verdict.positions[last]))
    print(_explained())
    return 0
