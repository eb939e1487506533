"""The rummy page of the reports (``reports/rummy/index.html``): opening odds of random deals.

``rumbaodds rummy report`` is a thin layer over :func:`make_rummy_report`.
One chart per rule set (P(can open by turn k) by jokers held, by opening value
at the deal, and with one more joker on the same deals), the tables behind
them with sample counts and 95% intervals, the value of a joker, and the
example hand of issue 11 under the three rule sets. Self-contained HTML: the
charts are embedded PNGs. The style (CSS, palette PNGs, the front page) is the
one of ``rumbaodds/report.py``.
"""

from __future__ import annotations

import base64
import html
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..report.charts import fig_png
from ..report.index import write_index
from ..report.page import CSS
from .opening import opening
from .rules import DESCRIPTION, PRESETS, RummyRules
from .tables import OpeningTable, build_table, by_jokers, by_value, curve, joker_value_rows

if TYPE_CHECKING:
    from matplotlib.figure import Figure

SAMPLES = 100_000
DPI = 72
EXAMPLE = "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK"
SHOWN_TURNS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15)


def _lines(ax, groups, turns: int, title: str, colours) -> None:
    ks = list(range(turns + 1))
    for (label, n, c), colour in zip(groups, colours):
        ax.plot(ks, [e.mean for e in c], marker="o", ms=3, lw=1.6, color=colour, label=f"{label} (n={n:,})")
        ax.fill_between(ks, [e.low for e in c], [e.high for e in c], color=colour, alpha=0.25, lw=0)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("turn k (draws; 0 = as dealt)")
    ax.set_xlim(0, turns)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")


def opening_chart(table: OpeningTable) -> Figure:
    """Three panels: by jokers held, by value at the deal, paired deals with and without one more joker."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(14, 4.2))
    axes = fig.subplots(1, 3, sharey=True)
    cmap = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d"]
    _lines(axes[0], by_jokers(table), table.turns, "by jokers in the dealt hand", cmap)
    _lines(axes[1], by_value(table), table.turns, "by opening value of the dealt hand", cmap)
    pairs = [("as dealt", table.pairs, curve(table.pair_without, table.turns)),
             ("one card swapped for a joker", table.pairs, curve(table.pair_with, table.turns))]
    _lines(axes[2], pairs, table.turns, "the same deals with one more joker", ["#555555", "#d62728"])
    axes[0].set_ylabel("P(can open by turn k)")
    r = table.rules
    fig.suptitle(f"{r.name}: opening needs {r.opening_threshold}; {table.samples:,} random deals and {table.pairs:,} "
                 f"paired deals, {table.players} players, seed {table.seed}; shaded: 95% Wilson intervals",
                 fontsize=10)
    fig.subplots_adjust(left=0.05, right=0.99, bottom=0.14, top=0.85, wspace=0.06)
    return fig


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def curve_table(groups, turns: int) -> str:
    ks = [k for k in SHOWN_TURNS if k <= turns]
    head = "".join(f"<th class=num>k={k}</th>" for k in ks)
    rows = []
    for label, n, c in groups:
        worst = max(c[k].half_width for k in ks)
        cells = "".join(f"<td class=num title=\"[{_pct(c[k].low)}, {_pct(c[k].high)}]\">{_pct(c[k].mean)}</td>"
                        for k in ks)
        rows.append(f"<tr><td>{html.escape(label)}</td><td class=num>{n:,}</td>{cells}"
                    f"<td class=num>±{_pct(worst)}</td></tr>")
    return (f"<table><tr><th>dealt hand</th><th class=num>deals</th>{head}<th class=num>95% half-width (max)</th>"
            f"</tr>{''.join(rows)}</table>")


def rules_table(rules_list: list[RummyRules]) -> str:
    fields = [("cards", lambda r: f"{r.decks} x 52 + {r.jokers} jokers"), ("hand", lambda r: str(r.hand_size)),
              ("players", lambda r: f"{r.min_players}..{r.max_players}"),
              ("opening needs", lambda r: str(r.opening_threshold)),
              ("aces in sequences", lambda r: "low (A-2-3, 1) or high (Q-K-A, 11)" if r.ace_low else "high only (11)"),
              ("non-jokers per meld [D-14]", lambda r: f"at least {r.min_real_cards}"),
              ("jokers side by side [D-15]", lambda r: "allowed" if r.jokers_adjacent else "no"),
              ("jokers vs other cards [D-15]", lambda r: "no more jokers" if r.jokers_at_most_real else "any"),
              ("joker in a group [D-15]", lambda r: "only in a group of 4" if r.group_joker_needs_four else "yes"),
              ("penalty: joker / ace", lambda r: f"{r.joker_penalty} / {r.ace_penalty}")]
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in rules_list)
    body = "".join(f"<tr><td>{html.escape(name)}</td>" + "".join(f"<td>{html.escape(f(r))}</td>" for r in rules_list)
                   + "</tr>" for name, f in fields)
    return f"<table><tr><th>field</th>{head}</tr>{body}</table>"


def example_html() -> str:
    rows = []
    for name in PRESETS:
        d = opening(EXAMPLE, name)
        melds = "; ".join(f"{' '.join(m)} ({v})" for m, v in zip(d["melds"], d["meld_values"]))
        rows.append(f"<tr><td>{name}</td><td class=num>{d['opening_value']}</td><td>{'yes' if d['can_open'] else 'no'}"
                    f" (needs {d['threshold']})</td><td>{html.escape(melds)}</td><td class=num>{d['left_penalty']}</td>"
                    f"</tr>")
    return ("<table><tr><th>rules</th><th class=num>opening value</th><th>can open</th><th>melds (value)</th>"
            f"<th class=num>penalty left</th></tr>{''.join(rows)}</table>"
            "<p class=small>Why they differ: in <b>romme</b> the joker completes the sevens (D7 S7 JK = 21) and A-2-3 "
            "counts with the low ace (6): 29 + 21 + 6 = 56. In <b>rummi</b> a joker may sit in a group only when the "
            "group then has 4 cards [D-15], so the joker goes to the clubs instead (C9 CT CJ JK = 39) and 39 + 6 = 45. "
            "In <b>romme40</b> aces are high only, so HA H2 H3 is no meld: 29 + 21 = 50.</p>")


# On a phone the tables of this page (up to 8 columns) fit the window: fixed layout, cells wrap, 11 px text.
FIT_CSS = ("@media (max-width:600px){table.t{table-layout:fixed;width:100%}"
           "table.t td,table.t th,table.t .num{white-space:normal;overflow-wrap:anywhere}}")


def render(tables: list[OpeningTable], charts: dict[str, bytes], command: str, generated: str, seconds: float) -> str:
    parts = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>rumbaodds report: rummy</title>",
             "<meta name=viewport content=\"width=device-width, initial-scale=1\">",
             f"<style>{CSS}{FIT_CSS}</style></head><body><main>",
             "<h1>Rummy opening odds: Rommé, Rummi, Rommé 40</h1>",
             f"<p class=small>{html.escape(DESCRIPTION)}. Generated {html.escape(generated)} in {seconds:.0f} s.</p>",
             "<p>The first question of a rummy hand: can I lay out my 30 (or 40) points, and if not, how soon? Each "
             "random deal gives the player 13 cards from the rule set's deck; each turn he draws from the stock, "
             "opens as soon as his 14 cards hold melds worth the threshold (laying at most 13, one card kept to "
             "discard [D-16]), else discards by the policy <i>keep-high</i>: never a joker, the card whose loss "
             "keeps the highest opening value, then the card with the fewest partners, then the lowest card. The "
             "other players draw too and never give him a card. Turn 0 is the hand as dealt. Exactly what is "
             "simulated, and every decision where the rule book is open: <code>docs/RUMMY.md</code>.</p>",
             "<h2>Rule sets</h2>", rules_table([t.rules for t in tables]),
             "<h2>At a glance</h2><table><tr><th>rules</th><th class=num>deals</th><th class=num>opens as dealt</th>"
             "<th class=num>by turn 3</th><th class=num>by turn 6</th><th class=num>by turn 10</th>"
             "<th class=num>by turn 15</th><th class=num>a joker more: turns sooner</th></tr>"]
    for t in tables:
        c = curve(t.opened, t.turns)
        jv = joker_value_rows(t)[0][1]
        cells = "".join(f"<td class=num>{_pct(c[k].mean)}% <span class=small>±{_pct(c[k].half_width)}</span></td>"
                        for k in (0, 3, 6, 10, 15) if k <= t.turns)
        parts.append(f"<tr><td>{t.rules.name}</td><td class=num>{t.samples:,}</td>{cells}"
                     f"<td class=num>{jv.mean:.2f} [{jv.low:.2f}, {jv.high:.2f}]</td></tr>")
    parts.append("</table>")
    for t in tables:
        uri = "data:image/png;base64," + base64.b64encode(charts[t.rules.name]).decode("ascii")
        parts.append(f"<h2 id={t.rules.name}>{html.escape(t.rules.name)}: {html.escape(t.rules.description)}</h2>")
        parts.append(f"<figure><img src=\"{uri}\" alt=\"P(can open by turn k), {t.rules.name}\"><figcaption>"
                     "Left: by the number of jokers dealt. Middle: by the opening value of the dealt hand (at most 12 "
                     "of its 13 cards). Right: the same deals as dealt and with one real card (drawn at random) "
                     "swapped for a joker nobody holds, everything else equal. Sample counts in the legends; shaded: "
                     "95% intervals.</figcaption></figure>")
        parts.append("<p>P(can open by turn k), in %; hover a number for its 95% interval.</p>")
        parts.append(curve_table(by_jokers(t) + by_value(t), t.turns))
        rows = "".join(f"<tr><td>{html.escape(label)}</td><td class=num>{e.samples:,}</td><td class=num>"
                       f"{e.mean:.2f}</td><td class=num>[{e.low:.2f}, {e.high:.2f}]</td></tr>"
                       for label, e in joker_value_rows(t))
        parts.append("<p>The value of a joker: how many turns sooner the same deal opens with one of its cards "
                     f"swapped for a joker (mean of the paired difference; a deal that does not open within "
                     f"{t.turns} turns counts {t.turns + 1}, so where many do not, this understates the gain).</p>"
                     "<table><tr><th>deals</th><th class=num>pairs</th><th class=num>turns sooner</th>"
                     f"<th class=num>95% interval</th></tr>{rows}</table>")
    parts.append("<h2>The example hand</h2><p><code>rumbaodds rummy open \"" + html.escape(EXAMPLE) +
                 "\" --rules R</code>:</p>" + example_html())
    parts.append("<h2>Reproduce</h2><p>Every number on this page (well under a minute on two cores once compiled):</p>"
                 f"<pre>{html.escape(command)}</pre><p>One rule set as a table: <code>rumbaodds rummy tables --rules "
                 "rummi --samples 100000 --seed 0</code>; one hand: <code>rumbaodds rummy odds HAND --rules rummi"
                 "</code>.</p>")
    parts.append("</main></body></html>")
    return "\n".join(parts).replace("<table>", "<table class=t>")  # the Rumba reports' table style


def make_rummy_report(out: str | Path = "reports", samples: int = SAMPLES, seed: int = 0, dpi: int = DPI,
                      say: Callable[[str], None] = lambda s: None) -> Path:
    started = time.perf_counter()
    tables = []
    charts = {}
    for name, rules in PRESETS.items():
        t0 = time.perf_counter()
        table = build_table(rules, samples, seed)
        tables.append(table)
        charts[name] = fig_png(opening_chart(table), dpi)
        say(f"  {name}: {table.samples:,} deals + {table.pairs:,} pairs in {time.perf_counter() - t0:.1f} s")
    args = ["rumbaodds", "rummy", "report", "--out", str(out)]
    if samples != SAMPLES:
        args += ["--samples", str(samples)]
    if seed != 0:
        args += ["--seed", str(seed)]
    page_html = render(tables, charts, shlex.join(args), time.strftime("%Y-%m-%d"), time.perf_counter() - started)
    folder = Path(out) / "rummy"
    folder.mkdir(parents=True, exist_ok=True)
    page = folder / "index.html"
    page.write_text(page_html, encoding="utf-8")
    write_index(Path(out))
    return page


__all__ = ["make_rummy_report", "opening_chart", "render", "write_index", "SAMPLES", "DPI"]
