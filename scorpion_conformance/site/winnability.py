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

import io
import re
from collections.abc import Callable
from pathlib import Path

from scorpion_conformance.escaping import html_text
from scorpion_conformance.solving.campaign import rates_of
from scorpion_conformance.solving.results import Record, best_records, read_records
from scorpion_conformance.suite.tags import NAMED_RULESETS

from .text import GeneratedPage

__all__ = [
    "PUBLISHED",
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
#: The figures published before this project, as issue 14 quotes them: (what, sample, search, figure).
PUBLISHED = (
    ("stock any time, runs stay", "1,000 random deals", "a bounded search, unknowns left over", 0.128),
    ("stock only when stuck", "20,000 deals", "a lossy search (may miss wins)", 0.09),
    ("not said", "none", "a guess in a rules book (\"about 1 in 10\")", 0.10),
)
_COLOURS = ("#1d7a4c", "#c77d00", "#3060b0", "#a0306a", "#607080")


def _pct(value: float) -> str:
    return f"{100 * value:.2f}%"


_CACHE: dict[tuple[object, ...], dict[str, dict[int, Record]]] = {}


def _cached(root: Path) -> dict[str, dict[int, Record]]:
    """:func:`load_results`, read again only when a results file changed (one build, many markers)."""
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
    """Per rule set, a folded list of the game numbers proven winnable, to pick a deal from."""
    if not results:
        return "*(No results yet.)*"
    parts = []
    for rules, best in results.items():
        won = sorted(g for g, r in best.items() if r.outcome == "won")
        parts += [f'??? success "Winnable under `{rules}`: {len(won):,} games of {len(best):,} solved"', "",
                  "    " + (", ".join(map(str, won)) or "none yet"), ""]
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


def _svg(figure: object, salt: str) -> str:
    """A figure as inline SVG that scales with the page: no XML header, no fixed size."""
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")  # type: ignore[attr-defined]
    plt.close(figure)  # type: ignore[arg-type]
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
                  r'<svg\1 class="winnability-plot" style="width:100%;height:auto"', text, count=1)
    return re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.DOTALL)


def _figure(title: str, xlabel: str, ylabel: str) -> tuple[object, object]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.0, 3.4), facecolor="white")
    axes.set_title(title, fontsize=11)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(alpha=0.3)
    return figure, axes


def _nodes_plot(results: dict[str, dict[int, Record]]) -> str:
    figure, axes = _figure("Positions searched per game", "positions searched (log scale)",
                           "share of the games solved")
    top = max((r.nodes for best in results.values() for r in best.values()), default=1)
    edges = [10 ** (k / 4) for k in range(0, 4 * (len(str(max(top, 1))) + 1))]
    for colour, (rules, best) in zip(_COLOURS, results.items(), strict=False):
        nodes = [max(r.nodes, 1) for r in best.values()]
        axes.hist(nodes, bins=edges, weights=[1 / len(nodes)] * len(nodes),  # type: ignore[attr-defined]
                  histtype="step", linewidth=1.6, color=colour, label=rules)
    axes.set_xscale("log")  # type: ignore[attr-defined]
    axes.legend(fontsize=9)  # type: ignore[attr-defined]
    return _svg(figure, "nodes")


def _budget_plot(results: dict[str, dict[int, Record]]) -> str:
    figure, axes = _figure("Share of games decided within a budget", "budget in positions (log scale)",
                           "share decided")
    for colour, (rules, best) in zip(_COLOURS, results.items(), strict=False):
        nodes = sorted(max(r.nodes, 1) for r in best.values() if r.decided)
        if nodes:
            shares = [(i + 1) / len(best) for i in range(len(nodes))]
            axes.step(nodes, shares, where="post", color=colour, linewidth=1.6, label=rules)  # type: ignore[attr-defined]
    axes.set_xscale("log")  # type: ignore[attr-defined]
    axes.set_ylim(0, 1.02)  # type: ignore[attr-defined]
    axes.legend(fontsize=9, loc="lower right")  # type: ignore[attr-defined]
    return _svg(figure, "budget")


def _rates_plot(results: dict[str, dict[int, Record]]) -> str:
    figure, axes = _figure("Win rate per rule set, with its 95% Wilson interval", "", "win rate (%)")
    names = [rules for rules, best in results.items() if rates_of(best).rate is not None]
    for i, rules in enumerate(names):
        rates = rates_of(results[rules])
        rate, (low, high) = 100 * (rates.rate or 0.0), rates.interval
        axes.errorbar([i], [rate], yerr=[[rate - 100 * low], [100 * high - rate]], fmt="o", capsize=6,  # type: ignore[attr-defined]
                      color=_COLOURS[i % len(_COLOURS)])
    for (what, _sample, _search, figure_rate), style in zip(PUBLISHED, (":", "--", "-."), strict=True):
        axes.axhline(100 * figure_rate, linestyle=style, color="#888888", linewidth=1,  # type: ignore[attr-defined]
                     label=f"published: about {100 * figure_rate:.1f}% ({what})")
    axes.set_xticks(range(len(names)), names)  # type: ignore[attr-defined]
    axes.set_xlim(-0.6, max(len(names), 1) - 0.4)  # type: ignore[attr-defined]
    axes.legend(fontsize=8, loc="best")  # type: ignore[attr-defined]
    return _svg(figure, "rates")


def plots(page: GeneratedPage, results: dict[str, dict[int, Record]]) -> str:
    """The three plots as figures with captions, each an HTML fragment of the page."""
    if not results:
        return "*(No results yet: no plot.)*"
    drawn = [
        (_nodes_plot(results), "How many positions the solver searched per game, per rule set. Games "
                               "that a dead-deal theorem proves lost before any search count as one; "
                               "unknown games at the budget they ran out of."),
        (_budget_plot(results), "The share of all games solved so far that a budget of so many "
                                "positions decides: where the curve flattens, a bigger budget buys little."),
        (_rates_plot(results), "Our rates with their 95% intervals, and the published figures as lines."),
    ]
    return "\n\n".join(page.fragment(f'<figure class="winnability-figure" style="width:100%;margin:1em 0">'
                                     f"{svg}<figcaption>{caption}</figcaption></figure>")
                       for svg, caption in drawn)


def makers(page: GeneratedPage, root: Path) -> dict[str, Callable[[], str]]:
    """The page's markers (``<!-- scorpion:winnability-… -->``) and what each becomes."""
    def results() -> dict[str, dict[int, Record]]:
        return _cached(root)

    return {
        "winnability-table": lambda: rates_table(page, results()),
        "winnability-published": lambda: published_table(page, results()),
        "winnability-hardest": lambda: _hardest(page, results()),
        "winnability-plots": lambda: plots(page, results()),
        "winnability-games": lambda: winnable_lists(results()),
        "winnability-unknown": lambda: unknown_lists(results()),
    }
