"""The report page: one self-contained HTML file per rule set (inline CSS, charts as data URIs, one small
inline script that opens a box's panel on a tap).

Responsive: a viewport meta, grids as HTML tables that fit 400 px (every text 11 px or more), charts scaled to
the width. The printable cards (PNG, PDF) lie beside the page and are linked, never needed to read it.
"""

from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field

from ..cardplay import DEFAULT_PLAY
from ..opponents.models import ALWAYS, MODELS, NEVER
from . import precision as fmt
from .blocks import (
    MIXED_SHARE,
    SCRIPT,
    TAP_CSS,
    card_html,
    exchange_table,
    exploit_table,
    full_exchange_block,
    full_grid_block,
    grid_block,
    legend_html,
    line_html,
    ordered_lines,
    rule_card_html,
    strip_table,
)
from .card import RuleCard
from .charts import COUNT_DOWN, MARGIN_FULL
from .grids import Grid, KnockStrip
from .lines import Line
from .shapes import Honours
from .sources import TableInfo

E = html.escape


@dataclass
class Chart:
    name: str  # file stem of the PNG
    title: str
    caption: str
    png: bytes


@dataclass
class CountSection:
    """Everything of one player count."""

    players: int
    grids: list[Grid]
    lines: list[Line]
    info: TableInfo
    third: Grid | None = None
    jack: Grid | None = None
    strip: KnockStrip | None = None
    files: dict[str, str] = field(default_factory=dict)  # kind -> file name beside the page
    lost: float = math.nan  # points per hand the card's Rumba and pass lines give away (same table)
    footer: str = ""
    card: RuleCard | None = None  # the card fitted to every cell of a packed full table
    sampled: str = ""  # where the grids come from a full table: what the third-pass grid and knock strip come from


@dataclass
class ModelEntry:
    name: str
    description: str
    grid: Grid | None
    lines: list[Line]
    moved: float
    info: TableInfo | None
    why_missing: str = ""


@dataclass
class WordsEntry:
    grid: Grid
    line: Line | None
    command: str
    skipped: int
    notes: list[str]


@dataclass
class ReportPage:
    rules: object
    rules_arg: str
    generated: str
    sections: list[CountSection]
    words: list[WordsEntry]
    models: list[ModelEntry]
    model_players: int
    charts: list[Chart]
    tables: list[TableInfo]
    command: str
    full_commands: list[str]
    lone_dealer: dict | None = None
    lone_line: Line | None = None
    jack_lines: dict[int, Line] = field(default_factory=dict)
    ask_budget: str = ""
    notes: list[str] = field(default_factory=list)
    exchange: Grid | None = None  # every seat at the comparisons' player count, for the exchange counts
    exploit: dict | None = None  # style -> seat -> Estimate dict: the best response's gain over the equilibrium
    source: str = ""  # one sentence: which tables the grids and cards come from
    other_lines: list = field(default_factory=list)  # lines beside a full card: after two passes, knock, join
    play: str = DEFAULT_PLAY  # the card play every table and answer of the page was simulated with


CSS = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:0;color:#1d1d1d;
background:#fafafa}
main{max-width:1400px;margin:0 auto;padding:10px 14px 40px}
h1{font-size:22px;margin:6px 0 2px}h2{font-size:19px;margin:26px 0 8px;border-bottom:2px solid #ccc}
h3{font-size:16px;margin:16px 0 6px}p{margin:6px 0}
.small,figcaption,.note{font-size:13px;color:#444}
.warn{background:#fff6d6;border-left:4px solid #e0a800;padding:6px 10px;margin:8px 0;font-size:14px}
nav{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0}nav a{background:#e8eef6;border-radius:12px;padding:3px 10px;
font-size:14px;text-decoration:none;color:#1d3f73}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:12px}
.card{background:#fff;border:2px solid #333;border-radius:8px;padding:8px 10px}
.card h3{margin:0 0 4px}.card ol{margin:0;padding-left:20px}.card li{margin:3px 0;font-size:14px}
.card .saved{font-size:12px;color:#555;white-space:nowrap}
.card .foot{font-size:12px;color:#555;margin-top:4px}
.grids{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,430px),1fr));gap:14px;margin:8px 0}
.gridbox{background:#fff;border:1px solid #ddd;border-radius:6px;padding:6px;min-width:0}
.gridbox h4{font-size:14px;margin:0 0 2px}.gridbox .note{font-size:12px;margin:2px 0 4px}
table.g{border-collapse:separate;border-spacing:1px;width:100%;table-layout:fixed}
table.g th{font-size:11px;font-weight:600;color:#333;padding:1px;overflow:hidden;white-space:nowrap}
table.g th.r{text-align:right;padding-right:4px;width:58px;white-space:normal;line-height:1.1}
table.g td{font-size:11px;line-height:1.1;text-align:center;height:27px;padding:0;border-radius:2px;
overflow:hidden;white-space:nowrap}
table.g td b{display:block;font-size:12px}table.g td.e{background:#f1f1f1}
table.g td .n{display:block;overflow:hidden;letter-spacing:-.4px}
@media (max-width:480px){table.g th.r{width:46px}.card li{font-size:13px;margin:1px 0;line-height:1.28}
.card .pts,.card .lost{font-size:12px}}
td.close{background-image:repeating-linear-gradient(135deg,rgba(255,255,255,.5) 0 2px,transparent 2px 6px)}
td.mixed{background-image:radial-gradient(rgba(255,255,255,.8) 1.2px,transparent 1.5px);background-size:5px 5px}
td.d{text-shadow:0 0 2px #000,0 0 1px #000}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:13px;margin:6px 0}
.legend span.k{display:inline-block;width:22px;height:14px;vertical-align:-2px;margin-right:4px;border:1px solid #999}
table.t{border-collapse:collapse;font-size:13px;margin:6px 0;max-width:100%}
table.t td,table.t th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
table.t th{background:#f0f0f0;text-align:left}.num{text-align:right;white-space:nowrap}
table.t code{word-break:break-all;font-size:11px}
@media (max-width:600px){table.t{font-size:11px}table.t td,table.t th{padding:2px 3px}main{padding:8px 10px 30px}}
.scroll{overflow-x:auto;max-width:100%}
figure{margin:10px 0 18px}figure img{width:100%;max-width:560px;height:auto;border:1px solid #ddd;background:#fff}
.figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,480px),1fr));gap:14px}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;background:#f0f0f0}
pre{padding:8px;white-space:pre-wrap;word-break:break-all}
a{color:#1d4f91}
"""


def models_table() -> str:
    fields = [("rumba_points", "calls Rumba from"), ("play_points", "plays (no Rumba yet) from"),
              ("join_points", "joins a called Rumba from"), ("join_knock_points", "joins a knock from"),
              ("discard_below", "exchanges cards worth less than"), ("throw_in", "throws in when allowed"),
              ("swap_two", "swaps the two of trump")]

    def show(v):
        if isinstance(v, bool):
            return "yes" if v else "no"
        return "never" if v >= NEVER else "always" if v <= ALWAYS else str(v)

    head = "".join(f"<th>{E(n)}</th>" for n in MODELS)
    rows = "".join(f"<tr><td>{E(label)}</td>" + "".join(f"<td class=num>{E(show(getattr(m, key)))}</td>"
                                                         for m in MODELS.values()) + "</tr>" for key, label in fields)
    return f"<div class=scroll><table class=t><tr><th>opponent (hand points)</th>{head}</tr>{rows}</table></div>"


MODEL_TEXT = (
    "Every opponent decides by what he knows: his seat, what the earlier seats said, and the score of his own "
    "hand. The named models score a hand by its <i>hand points</i> (trump A 6, K 5, Q 4, J 3, lower trumps 2; "
    "side A 3, side K 1; other cards 0) and decide by thresholds, the same at every seat. "
    "<b>default</b> is a sensible club player; <b>cautious</b> needs three more points for a Rumba and two more to "
    "play or join; <b>bold</b> calls, plays and joins two points earlier, exchanges more and never throws in; "
    "<b>all</b> plays every hand and joins every Rumba and knock, never calls Rumba, never exchanges, throws in or "
    "swaps (an exact, extreme case). A knock is joined two points lower than a Rumba because the knocking dealer "
    "has not seen his cards.")


def words_html(page: ReportPage) -> str:
    parts = []
    for entry in page.words:
        g = entry.grid
        note = g.note
        line = ""
        if entry.line is not None:
            line = f"<ol class=small>{line_html(entry.line)}</ol>"
        skipped = f" {entry.skipped} sampled hands are impossible here and were left out." if entry.skipped else ""
        notes = "".join(f"<p class=note>Note: {E(n)}.</p>" for n in entry.notes[:3])
        parts.append(f"<div>{grid_block(g, None, note)}{line}<p class=note>{E(skipped)} One hand: "
                     f"<code>{E(entry.command)}</code></p>{notes}</div>")
    return f"<div class=grids>{''.join(parts)}</div>" if parts else ""


def render(page: ReportPage) -> str:
    rules = page.rules
    quick = any(t.quick for t in page.tables)
    total_cells = sum(t.cells for t in page.tables)
    total_deals = sum(t.deals for t in page.tables)
    source = page.source or ("quick tables (a random share of the hand classes, drawn by how often they occur)"
                             if quick else "full tables (every hand class)")
    nav = "".join(f"<a href=\"#p{s.players}\">{s.players} players</a>" for s in page.sections)
    nav += "<a href=\"#exchange\">exchange</a><a href=\"#words\">after earlier words</a>"
    nav += "<a href=\"#models\">opponents</a>"
    nav += "<a href=\"#charts\">charts</a><a href=\"#method\">method</a>"
    actions = ["pass", "play", "rumba"] + (["knock", "look"] if rules.knock else [])
    full = any(s.card is not None for s in page.sections)
    out = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
           "<meta name=viewport content=\"width=device-width, initial-scale=1\">",
           f"<title>Rumba strategy: {E(rules.name)}</title><style>{CSS}{TAP_CSS}</style></head><body><main>",
           f"<h1>Rumba strategy: {E(rules.name)}</h1>",
           f"<p class=small>{E(plain_description(rules))}. Generated {E(page.generated)} from {E(source)}: "
           f"{total_cells:,} situations (seat, turned card, hand), {total_deals:,} simulated deals in "
           f"all.</p>",
           f"<p class=warn><b>{E(COUNT_DOWN)}</b> Find your hand: the row is your trumps, the column your side aces "
           f"and kings; the colour says what to do.</p>",
           f"<nav>{nav}</nav>",
           "<h2>The cards</h2><div class=cards>"]
    for s in page.sections:
        if s.card is not None:
            out.append(rule_card_html(s.card, rules, s.players, s.files))
            continue
        extra = [page.jack_lines[s.players]] if s.players in page.jack_lines else []
        out.append(card_html(s, rules, page.lone_line, extra))
    out.append("</div>")
    others = [x for x in page.other_lines if x is not None]
    if any(s.card is not None for s in page.sections) and (others or page.lone_line):
        items = "".join(line_html(x) for x in ordered_lines(others + ([page.lone_line] if page.lone_line else [])))
        out.append(f"<h3>Other decisions, {page.model_players} players</h3><p class=small>What the full tables do "
                   f"not hold, simulated on a sample of hands at {page.model_players} players (the grids below say "
                   f"how many); not on the printed card.</p><ol class=small>{items}</ol>")
    out.append("<h2>How to read the grids</h2>" + legend_html(actions))
    out.append(
        f"<p class=small>Rows: your trumps as you speak (A, K, Q: those trumps; x: a trump J or lower; "
        f"<i>AK+2</i>: A, K and two more). Columns: your aces and kings in the other suits. Colour: the action with "
        f"the best average over the hands in the box; its strength is the margin, what the second-best action "
        f"costs in points per hand, from pale (0) to full ({MARGIN_FULL:g} or more), the same scale in every grid. "
        f"In a box: that cost (≈0 when its 95% interval reaches 0) and {BOX_SECOND[full]}. <b>Close</b> "
        f"(striped): the interval of the cost includes 0, either choice will do. <b>Mixed</b> (dotted): "
        f"{MIXED_TEXT[full]}: ask about your own hand (<code>rumbaodds ask</code> or <code>rumbaodds serve</code>). "
        f"Tap a box for every value with its interval{' and two example hands' if full else ''}.</p>")
    if rules.two_of_trump_swap:
        out.append("<p class=small><b>The two of trump:</b> holding it, swap it for the turned card before you "
                   "speak (RULES.md [D-9]); then read the grid with that card in your hand.</p>")
    for s in page.sections:
        out.append(f"<h2 id=p{s.players}>{s.players} players</h2>")
        if s.card is not None:
            blocks = [full_grid_block(g, f"{s.players} players, {grid_seats(g, s.players)}",
                                          f"Every hand, weighted by how often it is dealt; {g.cells:,} situations, "
                                          f"{g.deals:,} simulated deals.",
                                          strip_html(s.strip, s.sampled) if (s.strip is not None and g.seats ==
                                                                             (s.players - 1,)) else "",
                                          Honours.of(rules).low_text)
                      for g in s.grids]
        else:
            blocks = [grid_block(g, s.strip if (s.strip is not None and g.seats == (s.players - 1,)) else None)
                      for g in s.grids]
        if s.third is not None:
            blocks.append(grid_block(s.third, None, f"Any seat, after {rules.sit_out_limit - 1} passes in a row: "
                                     f"this pass costs {rules.sit_out_penalty}; a throw-in does not."))
        if s.jack is not None:
            blocks.append(grid_block(s.jack, None, "Any seat, the jack of trump turned: everybody must play "
                                     "(no pass)."))
        out.append(f"<div class=grids>{''.join(blocks)}</div>")
        t = s.info
        out.append(f"<p class=note>{t.cells:,} situations ({t.cells_per_seat:,} per seat), {t.deals:,} deals, "
                   f"{'quick' if t.quick else 'full'} table <code>{E(t.path)}</code>.{E(' ' + s.sampled)}</p>")
    if page.exchange is not None and page.exchange.boxes and \
            next(iter(page.exchange.boxes.values())).extra.get("full"):
        out.append(f"<h2 id=exchange>How many cards to exchange</h2>{full_exchange_block(page.exchange)}")
    elif page.exchange is not None:
        g = page.exchange
        out.append(f"<h2 id=exchange>How many cards to exchange</h2><div class=grids><div class=gridbox>"
                   f"<h4>{E(g.title)}</h4>"
                   f"<p class=note>Where playing is best: the number of cards to exchange (your weakest by keep "
                   f"value) with the best average; its strength is what the next-best count costs; striped where "
                   f"that is within the noise. {g.cells:,} situations, {g.deals:,} deals.</p>{exchange_table(g)}"
                   f"</div></div>")
    out.append("<h2 id=words>After earlier words</h2>")
    out.append(f"<p class=small>The grids above assume you know nothing of the earlier seats' words. Here "
               f"<code>rumbaodds ask --before ...</code> answers for a sample of hands at {page.model_players} "
               f"players ({E(page.ask_budget)}); rows and columns merged so that each box has several hands. "
               f"Boxes and colours as above.</p>")
    if rules.others_after_rumba == "must-play":
        out.append("<p class=small><b>After a Rumba call</b> every later player must play (RULES.md §5.4): no "
                   "decision to make.</p>")
    if page.lone_dealer:
        d = page.lone_dealer
        play = fmt.number(d["play"], 1) if d.get("play") is not None else "n/a"
        out.append(f"<p class=small><b>The lone dealer:</b> when everybody passed, the dealer may not call Rumba "
                   f"(nobody would play with him, §5.5); playing scores {E(play)} without trick play ([D-7]), "
                   f"passing 0: play. (<code>rumbaodds ask \"{E(d['hand'])}\" --trump {E(d['trump'])} --players "
                   f"{d['players']} --seat {d['players'] - 1} --rules {E(page.rules_arg)} --before "
                   f"{E(d['before'])}</code>: choices {E(', '.join(d['choices']))}.)</p>")
    out.append(words_html(page))
    out.append(f"<h2 id=models>Opponent models, {page.model_players} players</h2><p class=small>{MODEL_TEXT}</p>")
    out.append(models_table())
    for m in page.models:
        if m.grid is None:
            out.append(f"<p class=small><b>{E(m.name)}</b>: {E(m.why_missing)}</p>")
        elif m.name not in MODELS:  # a solved policy (e.g. equilibrium): its own description
            out.append(f"<p class=small><b>{E(m.name)}</b> is a solved opponent policy (docs/SIMULATION.md, "
                       f"\"Opponent policies\"): each seat says each word with a probability by his seat, what was "
                       f"said before him and his hand's score. {E(m.description)}.</p>")
    if page.exploit:
        out.append(exploit_table(page.exploit, page.model_players))
    base = page.models[0].name if page.models else "default"  # the opponents of the cards (build.base_model)
    out.append("<p class=small>How the answer moves with the opponents: the grid of every seat together for each "
               f"model, its card, and the share of hands whose box has another best action than against {E(base)} "
               "opponents (boxes that are close in either grid may differ by chance).</p>")
    blocks = []
    for m in page.models:
        if m.grid is None:
            continue
        moved = "" if m.name == base or not math.isfinite(m.moved) else \
            f" {fmt.share(m.moved)} of hands are in a box whose best action is not {E(base)}'s."
        lines = "".join(line_html(x) for x in m.lines)
        blocks.append(f"<div>{grid_block(m.grid, None, E(m.description) + '.' + moved)}"
                      f"<ol class=small>{lines}</ol></div>")
    out.append(f"<div class=grids>{''.join(blocks)}</div>")
    out.append("<h2 id=charts>Charts</h2><div class=figs>")
    for chart in page.charts:
        uri = "data:image/png;base64," + base64.b64encode(chart.png).decode("ascii")
        title = chart.title if chart.title[-1:] in ".?!" else chart.title + "."
        out.append(f"<figure id=\"{E(chart.name)}\"><img src=\"{uri}\" alt=\"{E(chart.title)}\"><figcaption><b>"
                   f"{E(title)}</b> {E(chart.caption)} <a href=\"{E(chart.name)}.png\">PNG</a></figcaption></figure>")
    out.append("</div>")
    out.append(method_html(page))
    out.append(f"</main>{SCRIPT}</body></html>")
    return "\n".join(out)


BOX_SECOND = {True: "its share of all hands at those seats in percent (<.1: under 0.1%)",
              False: "the number of simulated situations (seat, turned card, hand class) behind it"}
MIXED_TEXT = {True: f"for more than {MIXED_SHARE:.0%} of its hands the table is sure another choice is "
                    f"better",
              False: "not every hand in the box has this best choice"}


def plain_description(rules) -> str:
    """The rule set's description without the rule book's seed tags ("(seed 000)")."""
    import re

    return re.sub(r"\s*\(seed \d+\)", "", rules.description)


def grid_seats(grid: Grid, players: int) -> str:
    seats = list(grid.seats)
    if seats == [0]:
        return "first to speak"
    if seats == [players - 1]:
        return "dealer"
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {seats[0]}\u2013{seats[-1]}"


def strip_html(strip: KnockStrip, sampled: str) -> str:
    inner = f" x {strip.inner} inner" if strip.inner else ""
    return (f"<p class=note>Before looking at his cards the dealer knocks (K) or looks first (L), by the turned "
            f"card; {strip.samples:,}{inner} deals per card.</p>{strip_table(strip)}")


def method_html(page: ReportPage) -> str:
    rows = []
    for t in page.tables:
        knock = "" if t.knock_samples is None else f"{t.knock_samples:,}" + (f" x {t.knock_inner}" if t.knock_inner
                                                                              else "")
        rows.append(f"<tr><td class=num>{t.players}</td><td>{E(t.model)}</td><td>{'quick' if t.quick else 'full'}: "
                    f"<code>{E(t.path)}</code></td><td class=num>{t.cells:,}</td><td class=num>{t.deals:,}</td>"
                    f"<td class=num>{E(knock)}</td></tr>")
    notes = "".join(f"<li>{E(n)}</li>" for n in page.notes)
    full = any(s.card is not None for s in page.sections)
    return (
        "<h2 id=method>Method and precision</h2><ul class=small>"
        "<li>A situation is (speaking seat, rank of the turned trump card, hand up to the order of the side suits); "
        "its values come from simulating whole hands (docs/SIMULATION.md) with the other players following the "
        f"opponent model and {E(page.play)} card play, you with no passes behind you unless stated.</li>"
        "<li>A box's value of each choice is the average over its situations, weighted by how often each hand is "
        "dealt. Its 95% interval: over a full table, the situations' own Monte Carlo intervals; over a quick "
        "table's randomly drawn situations, a t interval of their spread (a box of one has none: ?).</li>"
        + ("<li>Full tables keep, per situation, the best choice, the second best and what it costs; the cost of "
           "a third choice is known only to be at least that, and is counted so (the page says where).</li>"
           "<li>The card: lines in words (your seat, trumps, highest trump, side aces, a void, hand points) fitted "
           "greedily to every situation of the table, each line replaced by the best given the others until "
           "nothing improves; what a line saves is what forgetting it would cost. Its loss is measured against "
           "each situation's best choice in the table, whose own noise makes even a perfect player lose a little "
           "against it.</li>" if full else
           "<li>Card lines are searched exhaustively over small families of rules in words (trumps held, the "
           "highest trump, side aces) and scored on the same table.</li>")
        + "<li>The best choice of a situation is what <code>rumbaodds ask</code> recommends from it (tested).</li>"
        "<li>Numbers keep their sign only when their interval excludes 0 (else ≈0); shares read 100% only when "
        "certain.</li>"
        f"{notes}</ul>"
        "<div class=scroll><table class=t><tr><th>players</th><th>opponents</th><th>table</th><th>situations</th>"
        "<th>deals</th><th>knock deals per card</th></tr>" + "".join(rows) + "</table></div>"
        f"<p class=small>Reproduce: <code>make report</code> (both rule sets), or</p><pre>{E(page.command)}</pre>"
        "<p class=small>It reuses the tables above when they are there, else builds quick ones. Full precision "
        "(every class, hours to days per table on two cores; the report then reads those instead):</p>"
        f"<pre>{E(chr(10).join(page.full_commands))}</pre>")


def render_index(entries) -> str:
    """The reports/ front page: (name, href, description) per rule set."""
    items = "".join(f"<li><a href=\"{E(href)}\">{E(name)}</a>: {E(desc)}</li>" for name, href, desc in entries)
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content=\"width=device-width, initial-scale=1\"><title>rumbaodds reports</title>"
            f"<style>{CSS}</style></head><body><main><h1>Rumba strategy reports</h1>"
            f"<p class=warn><b>{E(COUNT_DOWN)}</b></p><ul>{items}</ul>"
            "<p class=small>Made by <code>make report</code> (rumbaodds report).</p></main></body></html>")


__all__ = ["Chart", "CountSection", "ModelEntry", "ReportPage", "WordsEntry", "render", "render_index"]
