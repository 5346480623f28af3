"""The Winnability page's three plots, drawn at build time from the results files
(SVG by matplotlib, with no network): the positions searched per game, the share
of games a budget decides, and the win rates beside the published figures.
"""

from __future__ import annotations

import io
import re

from scorpion_conformance.solving.campaign import rates_of
from scorpion_conformance.solving.results import Record

from .text import GeneratedPage

__all__ = ["PUBLISHED", "plots"]

#: The figures published before this project: (what, sample, search, figure).
PUBLISHED = (
    ("stock any time, runs stay", "1,000 random deals", "a bounded search, unknowns left over", 0.128),
    ("stock only when stuck", "20,000 deals", "a lossy search (may miss wins)", 0.09),
    ("not said", "none", "a guess in a rules book (\"about 1 in 10\")", 0.10),
)
_COLOURS = ("#1d7a4c", "#c77d00", "#3060b0", "#a0306a", "#607080")


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
    """One panel per rule set over a shared axis: histograms of like shape never hide each other."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = max(len(results), 1)
    figure, panels = plt.subplots(rows, 1, sharex=True, squeeze=False, facecolor="white",
                                  figsize=(7.0, 0.9 + 0.95 * rows))
    top = max((r.nodes for best in results.values() for r in best.values()), default=1)
    edges = [10 ** (k / 4) for k in range(0, 4 * (len(str(max(top, 1))) + 1))]
    for axes, colour, (rules, best) in zip(panels[:, 0], _COLOURS, results.items(), strict=False):
        nodes = [max(r.nodes, 1) for r in best.values()]
        axes.hist(nodes, bins=edges, weights=[1 / len(nodes)] * len(nodes),
                  histtype="stepfilled", linewidth=1.4, color=colour, alpha=0.75)
        axes.text(0.99, 0.85, rules, transform=axes.transAxes, ha="right", va="top", fontsize=9,
                  color=colour, fontweight="bold")
        axes.set_ylim(0, None)
        axes.grid(alpha=0.3)
        axes.tick_params(labelsize=8)
    panels[0, 0].set_title("Positions searched per game, one panel per rule set", fontsize=11)
    panels[-1, 0].set_xscale("log")
    panels[-1, 0].set_xlabel("positions searched (log scale)")
    figure.supylabel("share of the games solved", fontsize=9)
    figure.tight_layout()
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


def _rate_groups(rates: list[tuple[str, float, float, float]], gap: float = 0.2) -> list[list[int]]:
    """The rule sets' indexes in groups of close rates, so that each group gets an axis of its own.

    >>> _rate_groups([("a", 0.12, 0.11, 0.13), ("b", 0.86, 0.85, 0.87), ("c", 0.10, 0.09, 0.11)])
    [[2, 0], [1]]
    """
    order = sorted(range(len(rates)), key=lambda i: rates[i][1])
    groups: list[list[int]] = []
    for i in order:
        if groups and rates[i][1] - rates[groups[-1][-1]][1] <= gap:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _rates_plot(results: dict[str, dict[int, Record]]) -> str:
    """Each rate with its interval; rates far apart on axes of their own, each fitted to its points."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rates = [(rules, r.rate or 0.0, *r.interval) for rules, r in
             ((rules, rates_of(best)) for rules, best in results.items()) if r.rate is not None]
    groups = _rate_groups(rates) or [[]]
    figure, panels = plt.subplots(1, len(groups), squeeze=False, facecolor="white", figsize=(7.0, 3.4),
                                  width_ratios=[max(len(g), 1) for g in groups])
    styles = (":", "--", "-.")
    for axes, group in zip(panels[0], groups, strict=True):
        low = min([rates[i][2] for i in group] or [0.0])
        high = max([rates[i][3] for i in group] or [1.0])
        shown = [(what, rate, style) for (what, _s, _m, rate), style in zip(PUBLISHED, styles, strict=True)
                 if low - 0.05 <= rate <= high + 0.05]
        low = min([low, *(rate for _w, rate, _st in shown)])
        high = max([high, *(rate for _w, rate, _st in shown)])
        pad = max(0.1 * (high - low), 0.005)
        for x, i in enumerate(group):
            rules, rate, lo, hi = rates[i]
            colour = _COLOURS[list(results).index(rules) % len(_COLOURS)]
            axes.errorbar([x], [100 * rate], yerr=[[100 * (rate - lo)], [100 * (hi - rate)]], fmt="o",
                          capsize=6, color=colour)
        for what, rate, style in shown:
            axes.axhline(100 * rate, linestyle=style, color="#888888", linewidth=1,
                         label=f"published: about {100 * rate:.1f}% ({what})")
        axes.set_ylim(100 * (low - pad), 100 * (high + pad))
        axes.set_xticks(range(len(group)), [rates[i][0] for i in group])
        axes.set_xlim(-0.6, max(len(group), 1) - 0.4)
        axes.grid(alpha=0.3)
        if shown:
            axes.legend(fontsize=7, loc="best")
    panels[0, 0].set_ylabel("win rate (%)")
    figure.suptitle("Win rate per rule set, with its 95% Wilson interval", fontsize=11)
    figure.tight_layout()
    return _svg(figure, "rates")


def plots(page: GeneratedPage, results: dict[str, dict[int, Record]]) -> str:
    """The three plots as figures with captions, each an HTML fragment of the page."""
    if not results:
        return "*(No results yet: no plot.)*"
    drawn = [
        (_nodes_plot(results), "How many positions the solver searched per game, one panel per rule set "
                               "(on the same axis). Games "
                               "that a dead-deal theorem proves lost before any search count as one; "
                               "unknown games at the budget they ran out of."),
        (_budget_plot(results), "The share of all games solved so far that a budget of so many "
                                "positions decides: where the curve flattens, a bigger budget buys little."),
        (_rates_plot(results), "Our rates with their 95% intervals, and the published figures as lines. "
                               "Rates far apart are drawn on axes of their own, each fitted to its "
                               "points, so that close rates stay apart."),
    ]
    return "\n\n".join(page.fragment(f'<figure class="winnability-figure" style="width:100%;margin:1em 0">'
                                     f"{svg}<figcaption>{caption}</figcaption></figure>")
                       for svg, caption in drawn)


