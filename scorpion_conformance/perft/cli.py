"""``scorpion-conformance perft``: count from a deal or a position, check perft files,
compare an adapter's counts with the reference's, and write the docs table.

The exit status is 0 when every count agrees, 1 on a mismatch, 2 on a usage
error (a clear message, never a traceback; ``--file`` that checked nothing,
say, as with an adapter that declares none of the file's rule sets) and 3 when
the adapter failed.

>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> main(parser.parse_args(["--rules", "standard", "--game", "1", "--depth", "2"]), sys.stdout)
perft 2 29
0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from scorpion_ref import RULESETS, Position, RuleSet, ScorpionError, deal_game, get_ruleset
from scorpion_ref.serial import position_from_json

from ..arguments import adapter_command, seconds, whole
from ..escaping import terminal_text
from ..json_input import InputError, read_json
from .count import divide, perft, perft_counts, perft_with_progress
from .files import (
    LEAF_BUDGET,
    PerftEntry,
    PerftFileError,
    file_header,
    find_perft_file,
    format_perft_file,
    missing_file,
    missing_rulesets,
    parse_perft_file,
    render_table,
    replace_table,
    shipped_files,
    update_entry,
)
from .walk import AdapterTree, PerftMismatch, find_divergence

if TYPE_CHECKING:
    from ..client import AdapterClient

__all__ = ["NOTHING_CHECKED", "add_arguments", "main"]

#: The exit status of ``perft --file`` when no entry could be checked (a usage error).
NOTHING_CHECKED = 2
#: The deepest count asked for: counts grow about tenfold with each level, and the walk is a recursion.
MAX_DEPTH = 40



def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``scorpion-conformance perft``."""
    parser.description = (
        "Count the action sequences of length D (perft), with the reference engine or "
        "through an adapter, or check a perft file."
    )
    parser.add_argument("--rules", help="the rule set: " + ", ".join(RULESETS))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--game", type=int, help="count from the deal of this game number")
    where.add_argument("--position", type=Path, metavar="FILE.json",
                       help="count from this position (the protocol's JSON form)")
    where.add_argument("--file", nargs="+", metavar="FILE.perft",
                       help="check every entry of these perft files, each a path or the name of "
                            "a shipped file: " + ", ".join(p.stem for p in shipped_files()))
    parser.add_argument("--depth", type=whole(0, MAX_DEPTH, "depth"),
                        help="the depth to count (with --file: check no line deeper than this); "
                             f"at most {MAX_DEPTH}")
    parser.add_argument("--divide", action="store_true",
                        help="print the count under each first action")
    parser.add_argument("--adapter", type=adapter_command,
                        help="count through this adapter command instead of the reference")
    parser.add_argument("--timeout", type=seconds, default=5.0,
                        help="seconds to wait for each answer of the adapter (default 5)")
    parser.add_argument("--no-undo", action="store_true",
                        help="with --adapter: go back up the tree by restart and replay, not undo")
    parser.add_argument("--slow", action="store_true", help="with --file: check the slow lines too")
    parser.add_argument("--update", action="store_true",
                        help="with --file: recount every entry with the reference and "
                             "rewrite the file; alone: make the file of each named rule set "
                             "that has none (with --write-docs: then rewrite that table too)")
    parser.add_argument("--budget", type=whole(1, what="number of leaves"), default=LEAF_BUDGET,
                        help="with --update: go no deeper once a count passes this many "
                             f"leaves (default {LEAF_BUDGET:,})")
    parser.add_argument("--write-docs", type=Path, metavar="FILE.md",
                        help="rewrite the table of counts in this page from the perft files")


def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run ``scorpion-conformance perft``; 0 when every count agrees, 1 on a mismatch,
    2 on a usage error, 3 when the adapter failed."""
    out = out or sys.stdout
    try:
        if args.update and not args.file:
            for name in missing_rulesets():
                print(f"made {missing_file(name, args.budget)}", file=out)
            return _write_docs(args, out) if args.write_docs else 0
        if args.write_docs:
            return _write_docs(args, out)
        if args.file:
            return _check_files(args, out)
        return _count_one(args, out)
    except (PerftFileError, ScorpionError, OSError, ValueError) as error:
        print(terminal_text(f"scorpion-conformance perft: {error}", lines=True), file=sys.stderr)
        return 2


def _start(args: argparse.Namespace) -> Position:
    if args.game is not None:
        return deal_game(args.game)
    if args.position is not None:
        try:
            data = read_json(args.position, max_bytes=1 << 20, what="position file")
        except InputError as error:
            raise ValueError(str(error)) from None
        return position_from_json(data)
    raise ValueError("say where to count from: --game N, --position FILE.json or --file FILE.perft")


def _open_adapter(args: argparse.Namespace) -> tuple[AdapterClient, dict[str, RuleSet], bool]:
    """The client, the rule sets the adapter declares (as engine rule sets), whether to undo."""
    from ..client import AdapterClient

    client = AdapterClient(args.adapter, timeout=args.timeout)
    info = client.hello()
    declared = {
        name: RuleSet.from_options(name, options)
        for name, options in info.rulesets_resolved().items()
    }
    return client, declared, info.offers("undo") and not args.no_undo


def _count_one(args: argparse.Namespace, out: TextIO) -> int:
    if args.depth is None or args.depth < 0:
        raise ValueError("--depth D is required (0 or more)")
    if not args.rules:
        raise ValueError("--rules SET is required")
    position = _start(args)
    if not args.adapter:
        rules = get_ruleset(args.rules)
        began = time.perf_counter()
        if args.divide:
            rows = divide(position, rules, args.depth) if args.depth else []
            for key, count in rows:
                print(f"{key}: {count}", file=out)
            total = sum(n for _, n in rows) if args.depth else 1
            print(f"\nactions: {len(rows)}", file=out)
        else:
            total = perft_with_progress(position, rules, args.depth)
        took = time.perf_counter() - began
        print(f"perft {args.depth} {total}", file=out)
        print(f"({took:.2f} s, {total / took if took else 0:,.0f} leaves/s)", file=sys.stderr)
        return 0
    return _count_adapter(args, position, out)


def _adapter_errors() -> tuple[type[BaseException], ...]:
    from ..errors import AdapterError, ErrorAnswer

    return (AdapterError, ErrorAnswer)


def _count_adapter(args: argparse.Namespace, position: Position, out: TextIO) -> int:
    try:
        client, declared, use_undo = _open_adapter(args)
    except _adapter_errors() as error:
        print(f"the adapter could not be used:\n{error}", file=sys.stderr)
        return 3
    try:
        if args.rules not in declared:
            raise ValueError(
                f"the adapter does not declare {args.rules!r}; it declares {', '.join(declared)}"
            )
        rules = declared[args.rules]
        return _compare(client, args.rules, rules, position, args.depth, use_undo, args.divide, out)
    except _adapter_errors() as error:
        print(f"the adapter failed:\n{error}", file=sys.stderr)
        return 3
    finally:
        client.close()


def _compare(
    client: AdapterClient, name: str, rules: RuleSet, position: Position, depth: int,
    use_undo: bool, show_divide: bool, out: TextIO, label: str = "",
) -> int:
    """Count through the adapter and compare; 0 when equal, 1 on a mismatch."""
    tree = AdapterTree(client, name, position, use_undo=use_undo)
    try:
        if show_divide:
            theirs = tree.divide(depth) if depth else Counter()
            ours = dict(divide(position, rules, depth)) if depth else {}
            for key in sorted(set(theirs) | set(ours)):
                mark = "" if theirs.get(key) == ours.get(key) else \
                    f"   <- reference {ours.get(key, 'does not list it')}"
                print(f"{key}: {theirs.get(key, 'not listed')}{mark}", file=out)
            count = sum(theirs.values()) if depth else 1
        else:
            count = tree.count(depth)
    except PerftMismatch as error:
        print(f"{label}perft {depth}: {error}", file=out)
        return 1
    expected = perft(position, rules, depth)
    if count == expected:
        print(f"{label}perft {depth} {count}  (matches the reference; "
              f"{tree.requests} requests)", file=out)
        return 0
    print(f"{label}perft {depth} {count}  MISMATCH: the reference counts {expected}", file=out)
    again = AdapterTree(client, name, position, use_undo=use_undo)
    try:
        found = find_divergence(again, position, rules, depth)
    except PerftMismatch as error:
        print(str(error), file=out)
        return 1
    if found is not None:
        print(found.report(rules), file=out)
    return 1


def _check_files(args: argparse.Namespace, out: TextIO) -> int:
    paths = [find_perft_file(name) for name in args.file]  # every name is checked before any work
    entries: list[tuple[Path, PerftEntry]] = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        parsed = parse_perft_file(text, str(path))
        if args.update:
            for entry in parsed:
                update_entry(entry, args.budget)
                deepest = entry.lines[-1]
                print(f"{path}: {entry.id}: depth {deepest.depth} = {deepest.count}", file=out)
            path.write_text(format_perft_file(parsed, file_header(text)), encoding="utf-8")
            continue
        entries.extend((path, e) for e in parsed)
    if args.update:
        return 0
    client: AdapterClient | None = None
    declared: dict[str, RuleSet] = {}
    use_undo = False
    if args.adapter:
        try:
            client, declared, use_undo = _open_adapter(args)
        except _adapter_errors() as error:
            print(f"the adapter could not be used:\n{error}", file=sys.stderr)
            return 3
    failures = checked = 0
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    progress = tqdm(entries, desc="perft entries", unit="entry", delay=1.0, file=sys.stderr,
                    leave=False, disable=None)
    try:
        for path, entry in progress:
            lines = entry.depths(slow=args.slow, limit=args.depth)
            label = f"{path.name}: {entry.id} ({entry.rules}, {entry.where}): "
            if not lines:
                continue
            if client is None:
                counts = perft_counts(entry.start(), entry.ruleset(), lines[-1].depth)
                wrong = [(line.depth, line.count, counts[line.depth - 1]) for line in lines
                         if counts[line.depth - 1] != line.count]
                checked += 1
                if wrong:
                    failures += 1
                    for depth, want, got in wrong:
                        print(f"{label}perft {depth}: the file says {want}, the reference "
                              f"counts {got}", file=out)
                else:
                    print(f"{label}ok to depth {lines[-1].depth}", file=out)
                continue
            if entry.rules not in declared:
                print(f"{label}skipped: the adapter does not declare {entry.rules}", file=out)
                continue
            checked += 1
            # Every depth, shallowest first: a tree that dies out ends in counts of 0,
            # which an implementation with too few actions would match as well.
            for line in lines:
                if _compare(client, entry.rules, declared[entry.rules], entry.start(),
                            line.depth, use_undo, False, out, label) != 0:
                    failures += 1
                    break
    except _adapter_errors() as error:
        print(f"the adapter failed:\n{error}", file=sys.stderr)
        return 3
    finally:
        progress.close()
        if client is not None:
            client.close()
    print(f"{checked} entries checked, {failures} with a mismatch", file=out)
    if checked == 0:
        offered = f"; the adapter declares {', '.join(declared) or 'none'}" if args.adapter else ""
        wanted = sorted({entry.rules for _, entry in entries})
        print(f"scorpion-conformance perft: nothing was checked: no entry of "
              f"{', '.join(str(p.name) for p in paths)} (rule sets {', '.join(wanted) or 'none'}) "
              f"could be counted{offered}", file=sys.stderr)
        return NOTHING_CHECKED
    return 1 if failures else 0


def _write_docs(args: argparse.Namespace, out: TextIO) -> int:
    page_path: Path = args.write_docs
    files = [find_perft_file(name) for name in args.file] if args.file else shipped_files()
    page = page_path.read_text(encoding="utf-8")
    page_path.write_text(replace_table(page, render_table(files)), encoding="utf-8")
    print(f"wrote the table of {len(files)} perft files into {page_path}", file=out)
    return 0
