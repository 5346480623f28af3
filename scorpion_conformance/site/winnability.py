"""The Winnability page: the campaigns' results files, counted and drawn at build time.

``docs/winnability.md`` carries markers that become, when the site is built,
the table of win rates with their intervals per rule set, the published
figures beside them, three plots (SVG, drawn by matplotlib with no network)
and the list of winnable game numbers. Everything is read from the results
files in ``data/winnability/`` (one per rule set, ``RULES.jsonl`` or
``RULES.jsonl.gz``); nothing on the page is typed in by hand.

>>> from scorpion_conformance.solving.results import Record
>>> best = {"classic": {1: Record(1, "classic", "won", 5, 0.1, 10, 64, "v", line="deal")}}
>>> rates_rows(best)[0][:6]
['<code>classic</code>', '1', '1', '0', '0', '<strong>100.00%</strong> (20.65% to 100.00%)']
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorpion_conformance.escaping import html_text
from scorpion_conformance.solving.campaign import rates_of
from scorpion_conformance.solving.results import Record, best_records, read_records
from scorpion_conformance.suite.tags import NAMED_RULESETS

from .text import GeneratedPage
from .winnability_plots import PUBLISHED, plots

__all__ = [
    "PUBLISHED",
    "cached_results",
    "load_results",
    "makers",
    "plots",
    "published_table",
    "rates_rows",
    "rates_table",
    "unknown_lists",
    "winnable_lists",
]

#: Where the campaigns' results files live, from the repository root.
DATA = Path("data") / "winnability"


def _pct(value: float) -> str:
    return f"{100 * value:.2f}%"


_CACHE: dict[tuple[object, ...], dict[str, dict[int, Record]]] = {}


def cached_results(root: Path) -> dict[str, dict[int, Record]]:
    """:func:`load_results`, read again only when a results file changed (one build, many
    markers and the Play page)."""
    files = sorted((root / DATA).glob("*.jsonl*"))
    key = (str(root), *((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = load_results(root)
    return _CACHE[key]


def load_results(root: Path) -> dict[str, dict[int, Record]]:
    """The record that counts for each game, per rule set, from ``root/data/winnability``.

    Rule sets appear in the vocabulary's order; a rule set with no file is left out.
    """
    folder = root / DATA
    found: dict[str, dict[int, Record]] = {}
    for rules in NAMED_RULESETS:
        records: list[Record] = []
        for path in (folder / f"{rules}.jsonl", folder / f"{rules}.jsonl.gz"):
            if path.exists():
                records += read_records(path)
        if records:
            found[rules] = best_records(records, rules)
    return found


def _span(games: dict[int, Record]) -> str:
    numbers = sorted(games)
    if numbers == list(range(1, len(numbers) + 1)):
        return f"1 to {len(numbers):,}"
    return f"{len(numbers):,} games between {numbers[0]:,} and {numbers[-1]:,}"


def _table(header: list[tuple[str, str]], rows: list[list[str]]) -> str:
    """An HTML table (cells already HTML) in the site's comparison style, which stacks on a phone:
    each header is (its text, the short label a cell carries on a phone)."""
    head = "".join(f'<th scope="col">{text}</th>' for text, _short in header)
    body = "".join(
        f'<tr><th scope="row">{row[0]}</th>'
        + "".join(f'<td data-label="{html_text(header[i][1])}">{cell}</td>'
                  for i, cell in enumerate(row) if i)
        + "</tr>"
        for row in rows
    )
    return (f'<div class="sc-compare-wrap"><table class="sc-compare sc-stacked sc-winnability">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def rates_rows(results: dict[str, dict[int, Record]]) -> list[list[str]]:
    """Per rule set: the games solved, won, lost, unknown, the rate among the decided games with its 95%
    Wilson interval, the rate over every game if each unknown was lost or won, and the solver time."""
    rows = []
    for rules, best in results.items():
        rates = rates_of(best)
        low, high = rates.interval
        rate = (f"<strong>{_pct(rates.rate)}</strong> ({_pct(low)} to {_pct(high)})"
                if rates.rate is not None else "—")
        lost_all, won_all = rates.bounds
        seconds = sum(r.cost for r in best.values())
        rows.append([f"<code>{rules}</code>", f"{rates.total:,}", f"{rates.won:,}", f"{rates.lost:,}",
                     f"{rates.unknown:,}", rate, f"{_pct(lost_all)} to {_pct(won_all)}", _duration(seconds)])
    return rows


def rates_table(page: GeneratedPage, results: dict[str, dict[int, Record]]) -> str:
    """The table of rates (:func:`rates_rows`) and how far each campaign got."""
    if not results:
        return "*(No results file was found in `data/winnability/` when this site was built.)*"
    header = [("Rule set", ""), ("Games solved", "Solved"), ("Won", "Won"), ("Lost", "Lost"),
              ("Unknown", "Unknown"), ("Win rate (95% Wilson interval)", "Win rate"),
              ("If the unknowns were all lost, all won", "Bounds"), ("Solver CPU time", "CPU time")]
    spans = "; ".join(f"`{rules}` games {_span(best)}" for rules, best in results.items())
    return (page.fragment(_table(header, rates_rows(results)))
            + f"\n\nGames solved so far: {spans} (PySolFC's numbering).\n\n" + solver_versions(results))


def solver_versions(results: dict[str, dict[int, Record]]) -> str:
    """Which version of the solver made the records that count, per rule set (a file re-solved
    only in part keeps the earlier version's decided games).

    >>> print(solver_versions({"wasp": {1: Record(1, "wasp", "lost", 5, 0.1, 9, 64, "1.0"),
    ...                                 2: Record(2, "wasp", "won", 7, 0.1, 9, 64, "2.0", line="")}}))
    The solver's version behind the records that count: `wasp` 1.0 for 1 game, 2.0 for 1 game.
    """
    parts = []
    for rules, best in results.items():
        counts: dict[str, int] = {}
        for record in best.values():
            counts[record.solver] = counts.get(record.solver, 0) + 1
        versions = ", ".join(f"{html_text(version)} for {count:,} game{'s' if count != 1 else ''}"
                             for version, count in sorted(counts.items()))
        parts.append(f"`{rules}` {versions}")
    return f"The solver's version behind the records that count: {'; '.join(parts)}."


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:,.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"


def published_table(page: GeneratedPage, results: dict[str, dict[int, Record]]) -> str:
    """The figures published before, beside ours for the rule set closest to each."""
    closest = {0: ("aisleriot",), 1: ("classic",), 2: ()}
    rows = []
    for i, (what, sample, search, figure) in enumerate(PUBLISHED):
        ours = []
        for rules in closest[i]:
            if rules in results and (rate := rates_of(results[rules]).rate) is not None:
                low, high = rates_of(results[rules]).interval
                ours.append(f"<code>{rules}</code> {_pct(rate)} ({_pct(low)} to {_pct(high)})")
        rows.append([html_text(what), html_text(sample), html_text(search),
                     f"about {100 * figure:.1f}%", "; ".join(ours) or "—"])
    header = [("Rules", ""), ("Sample", "Sample"), ("Search", "Search"), ("Figure", "Figure"),
              ("Ours, the closest rule set", "Ours")]
    return page.fragment(_table(header, rows))


def _hardest(page: GeneratedPage, results: dict[str, dict[int, Record]], count: int = 5) -> str:
    rows = []
    for rules, best in results.items():
        tops = sorted(best.values(), key=lambda r: (-r.nodes, r.game))[:count]
        rows.append([f"<code>{rules}</code>", "; ".join(
            f"game {r.game}: {r.nodes:,} positions, {r.cost:.1f} s, {r.outcome}" for r in tops)])
    header = [("Rule set", ""), ("The hardest games", "Hardest")]
    return page.fragment(_table(header, rows)) if rows else "*(No results yet.)*"


def winnable_lists(results: dict[str, dict[int, Record]]) -> str:
    """Per rule set, a folded list of the game numbers proven winnable, to pick a deal from.

    The numbers are kept out of the site's search index (``data-search-exclude``): thousands
    of them made a quarter of the index, which every reader's browser builds, and a search for
    a number found the list rather than a rule. The page itself still finds one (Ctrl+F).
    """
    if not results:
        return "*(No results yet.)*"
    parts = []
    for rules, best in results.items():
        won = sorted(g for g, r in best.items() if r.outcome == "won")
        parts += [f'??? success "Winnable under `{rules}`: {len(won):,} games of {len(best):,} solved"', "",
                  "    " + (", ".join(map(str, won)) or "none yet"), "    { data-search-exclude }", ""]
    return "\n".join(parts)


def unknown_lists(results: dict[str, dict[int, Record]]) -> str:
    """Per rule set, every game still unknown: the biggest budget it was tried at, what ran out
    (the positions, or the memory), and the CPU time of that try.

    >>> best = {"standard": {388: Record(388, "standard", "unknown", 50, 1.0, 50, 64, "v", proof="nodes")}}
    >>> print(unknown_lists(best).splitlines()[2][:57])
        game 388: 50 positions searched, none of them won and
    """
    parts = []
    for rules, best in results.items():
        unknown = sorted((r for r in best.values() if not r.decided), key=lambda r: r.game)
        if not unknown:
            continue
        parts += [f'??? note "Still unknown under `{rules}`: {len(unknown):,} games"', ""]
        for r in unknown:
            what = (f"the memory budget of {r.memory_mb:,} MB ran out first" if r.proof == "memory"
                    else "none of them won and the reachable positions not yet exhausted")
            parts.append(f"    game {r.game}: {r.budget:,} positions searched, {what} ({r.cost:.1f} s)")
            parts.append("")
    return "\n".join(parts) if parts else "*(No game is unknown: every game solved was decided.)*"


# -- plots ---------------------------------------------------------------------


def verdicts_table(page: GeneratedPage) -> str:
    """Every verdict the solver gives, its word and what it means, from the vocabulary."""
    from scorpion_shared.vocabulary import VOCABULARY

    header = [("Verdict", ""), ("Why", "Why"), ("What it means", "Means")]
    rows = [[f"<code>{html_text(v.outcome)}</code>", f"<code>{html_text(v.why)}</code>" if v.why else "—",
             html_text(v.meaning)] for v in VOCABULARY.verdicts]
    return page.fragment(_table(header, rows))


def makers(page: GeneratedPage, root: Path) -> dict[str, Callable[[], str]]:
    """The page's markers (``<!-- scorpion:winnability-… -->``) and what each becomes."""
    def results() -> dict[str, dict[int, Record]]:
        return cached_results(root)

    return {
        "winnability-table": lambda: rates_table(page, results()),
        "solver-verdicts": lambda: verdicts_table(page),
        "winnability-published": lambda: published_table(page, results()),
        "winnability-hardest": lambda: _hardest(page, results()),
        "winnability-plots": lambda: plots(page, results()),
        "winnability-games": lambda: winnable_lists(results()),
        "winnability-unknown": lambda: unknown_lists(results()),
    }
