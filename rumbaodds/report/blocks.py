"""The page's blocks as HTML: grids (boxes whose values show on a tap), the knock strip, the exchange counts, the
cards and their lines, for either source of cells (:mod:`.cells`). Plain HTML; the page carries one small inline
script (``SCRIPT``, no external assets) that opens a box's panel.

A box's panel lines are stored in its ``data-d`` attribute (lines separated by newlines) and written with
``textContent``, never parsed as HTML. A grid pooled from a table's frame shows in each box the margin (or
``≈0``) and the situations behind it, and on a tap every value with its interval. A grid from every cell of a
packed table (``full_*``) shows what the second-best choice costs (bold; ``≈0`` when its 95% interval reaches
0) and its share of all hands at those seats; a tap shows every value of the box and two example hands. A card
is either the rule card fitted to every cell (:func:`rule_card_html`) or a table's lines in words
(:func:`card_html`).
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

from . import precision as fmt
from .card import RuleCard
from .cells import KNOCK, PLAY, RUMBA, SIT
from .charts import MARGIN_FULL, box_label, dark, hex_of, shade
from .grids import ACTION_WORDS, MIXED_SHARE, Box, Grid, KnockStrip
from .lines import Line

if TYPE_CHECKING:
    from .page import CountSection

E = html.escape
WORD = {SIT: "pass", PLAY: "play", RUMBA: "Rumba"}
DO = {SIT: "pass", PLAY: "play", RUMBA: "call Rumba"}


# -- a table's frame: grids, the knock strip, the exchange counts, lines in words ------------------------------
def _interval_text(iv, digits: int = 1) -> str:
    if iv is None or not (math.isfinite(iv.low) and math.isfinite(iv.high)):
        return "not enough situations for an interval"
    return fmt.with_interval(iv.mean, iv.low, iv.high, digits)


def box_title(grid: Grid, box: Box) -> str:
    """The tooltip of a box: every value behind it, with intervals."""
    parts = [f"{box.row} / {box.col}: {ACTION_WORDS.get(box.best, box.best)}"]
    for a, iv in box.values.items():
        parts.append(f"{ACTION_WORDS.get(a, a)} {_interval_text(iv)}")
    if box.margin is not None and box.runner is not None:
        m = box.margin
        cost = _interval_text(m) if math.isfinite(m.low) else "unknown (too few situations)"
        parts.append(f"choosing {ACTION_WORDS.get(box.runner, box.runner)} instead costs {cost} points per hand")
    if "p_success_ci" in box.extra and box.best == RUMBA:
        p = box.extra["p_success_ci"]
        if math.isfinite(p.low):
            parts.append(f"Rumba succeeds {fmt.share_with_interval(p.mean, max(0, p.low), min(1, p.high))}")
    if box.extra.get("p_lone_play"):
        parts.append(f"Rumba refused (you play alone) in {fmt.share(box.extra['p_lone_play'])} of deals")
    if "exchange" in box.extra:
        parts.append(f"best exchange: {box.extra['exchange']} cards")
    agree = "every hand agrees" if not box.mixed else f"{fmt.share(box.agree)} of its hands agree"
    parts.append(f"{box.cells:,} situations, {box.deals:,} deals; {agree}")
    return "\n".join(parts)


def grid_table(grid: Grid) -> str:
    head = "".join(f"<th>{E(c)}</th>" for c in grid.cols)
    out = [f"<table class=g><tr><th class=r>trumps</th>{head}</tr>"]
    for r in grid.rows:
        if not any(not grid.box(r, c).empty for c in grid.cols):
            continue  # a row with no hands at all (e.g. 5 trumps in a quick table)
        cells = []
        for c in grid.cols:
            box = grid.box(r, c)
            if box.empty:
                cells.append("<td class=e></td>")
                continue
            rgb = shade(box.best, box.margin.mean if box.margin else None)
            classes = ("close" if box.close else ("mixed" if box.mixed else "")) + (" d" if dark(rgb) else "")
            colour = "#fff" if dark(rgb) else "#111"
            cells.append(f"<td class=\"t {classes}\" tabindex=0 style=\"background-color:{hex_of(rgb)};"
                         f"color:{colour}\" "
                         f"data-d=\"{E(box_title(grid, box))}\"><b>{E(box_label(box))}</b>"
                         f"<span class=n>{E(count_text(box.cells))}</span></td>")
        out.append(f"<tr><th class=r>{E(r)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return "".join(out)


def strip_table(strip: KnockStrip) -> str:
    head = "".join(f"<th>{E(b.row)}</th>" for b in strip.boxes)
    cells = []
    for b in strip.boxes:
        rgb = shade(b.best, b.margin.mean)
        colour = "#fff" if dark(rgb) else "#111"
        m = b.margin
        saves = (m.mean, m.low, m.high) if b.best == KNOCK else (-m.mean, -m.high, -m.low)
        title = (f"Turned {b.row}: {ACTION_WORDS[b.best]}\nKnocking saves {fmt.with_interval(*saves)} points per "
                 f"hand against looking first\n{b.deals:,} deals")
        classes = ("close" if b.close else "") + (" d" if dark(rgb) else "")
        letter = "K" if b.best == KNOCK else "L"
        cells.append(f"<td class=\"t {classes}\" tabindex=0 style=\"background-color:{hex_of(rgb)};color:{colour}\" "
                     f"data-d=\"{E(title)}\"><b>{letter}</b>{E(box_label(b))}</td>")
    return (f"<table class=g><tr><th class=r>turned</th>{head}</tr><tr><th class=r>dealer</th>{''.join(cells)}"
            f"</tr></table>")


def exchange_table(grid: Grid) -> str:
    """Boxes where playing is best: how many cards to exchange (the weakest by keep value), shaded by what one
    card more or less costs; striped where the best count's lead is within the noise (unpaired, conservative)."""
    head = "".join(f"<th>{E(c)}</th>" for c in grid.cols)
    out = [f"<table class=g><tr><th class=r>trumps</th>{head}</tr>"]
    for r in grid.rows:
        cells, any_box = [], False
        for c in grid.cols:
            box = grid.box(r, c)
            means = box.extra.get("exchange_values") if not box.empty else None
            if not means:
                cells.append("<td class=e></td>")
                continue
            any_box = True
            order = sorted(means, key=lambda k: (means[k].mean, k))
            k1, k2 = order[0], order[1] if len(order) > 1 else order[0]
            lead = means[k2].mean - means[k1].mean
            half = math.hypot(means[k1].half, means[k2].half)
            close = not (math.isfinite(half) and lead - half > 0)
            rgb = shade("play", lead)
            colour = "#fff" if dark(rgb) else "#111"
            title = (f"{r} / {c}, playing: exchange {k1}\n" + "\n".join(
                f"exchange {k}: {_interval_text(means[k])}" for k in sorted(means)) + f"\n{box.cells:,} situations")
            cells.append(f"<td class=\"t {'close' if close else ''}{' d' if dark(rgb) else ''}\" tabindex=0 style=\""
                         f"background-color:{hex_of(rgb)};color:{colour}\" data-d=\"{E(title)}\"><b>{k1}</b>"
                         f"{box.cells}</td>")
        if any_box:
            out.append(f"<tr><th class=r>{E(r)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return "".join(out)


def exploit_table(exploit: dict, players: int) -> str:
    """Issue 8 item 6: against a whole table of one style, what the best response gains over the equilibrium."""
    head = "".join(f"<th>seat {k}</th>" for k in range(players))
    rows = []
    for style, seats in exploit.items():
        cells = "".join(f"<td class=num title=\"95%: {fmt.number(seats[str(k)]['low'], 2)} to "
                        f"{fmt.number(seats[str(k)]['high'], 2)}\">{fmt.number(seats[str(k)]['mean'], 2)}</td>"
                        for k in range(players) if str(k) in seats)
        rows.append(f"<tr><th>{E(style)}</th>{cells}</tr>")
    return ("<h3 id=exploit>Reading your table</h3><p class=small>If every other player plays one style, the best "
            "response to that table gains this many points per hand over playing the equilibrium (by your seat; "
            "hover for the 95% interval; from the solved strategy's file, <code>rumbaodds strategy show</code>). "
            "Small numbers: the equilibrium is already a good answer to that table.</p>"
            f"<div class=scroll><table class=t><tr><th>table of</th>{head}</tr>{''.join(rows)}</table></div>")


def grid_block(grid: Grid, strip: KnockStrip | None = None, note: str = "") -> str:
    unit = "hands" if grid.scenario not in ("normal", "third", "jack") else "situations"
    counts = f"{grid.cells:,} {unit}, {grid.deals:,} deals"
    parts = [f"<div class=gridbox><h4>{E(grid.title)}</h4><p class=note>{E(note + ' ' if note else '')}{counts}."
             f"</p>", grid_table(grid)]
    if strip is not None:
        inner = f" x {strip.inner} inner" if strip.inner else ""
        parts.append(f"<p class=note>Before looking at his cards the dealer knocks (K) or looks first (L), by the "
                     f"turned card; {strip.samples:,}{inner} deals per card.</p>{strip_table(strip)}")
    parts.append("</div>")
    return "".join(parts)


def legend_html(actions) -> str:
    items = []
    for a in actions:
        pale, full = hex_of(shade(a, 0.0)), hex_of(shade(a, MARGIN_FULL))
        items.append(f"<span><span class=k style=\"background:linear-gradient(90deg,{pale},{full})\"></span>"
                     f"{E(ACTION_WORDS[a])}</span>")
    items.append("<span><span class=\"k\" style=\"background:#ccc repeating-linear-gradient(135deg,rgba(255,255,255,"
                 ".6) 0 3px,transparent 3px 7px)\"></span>close</span>")
    items.append("<span><span class=k style=\"background:#ccc radial-gradient(rgba(255,255,255,.85) 1.3px,"
                 "transparent 1.6px);background-size:6px 6px\"></span>mixed</span>")
    return f"<div class=legend>{''.join(items)}</div>"


def line_html(line: Line) -> str:
    who = f"<b>{E(line.seats)}:</b> " if line.seats else ""
    saved = ""
    if line.saved is not None:
        s = line.saved
        ok = math.isfinite(s.low) and math.isfinite(s.high)
        value = fmt.cost(s.mean, s.low, s.high, 2) if ok else "?"
        saved = f" <span class=saved>saves {E(value)} {E(line.where)}</span>"
    return f"<li>{who}{E(line.text)}{saved}</li>"


def _saved_key(line: Line) -> tuple[int, float]:
    """Lines whose saving is known to be above 0 first, each group by the points saved."""
    s = line.saved
    if s is None or not math.isfinite(s.mean):
        return (0, -1.0)
    return (int(math.isfinite(s.low) and s.low > 0), s.mean)


def ordered_lines(lines: list[Line]) -> list[Line]:
    """Lines whose saving is known to be above 0 first, by the points saved; lines without a number last."""
    return sorted([x for x in lines if x.saved is not None], key=_saved_key, reverse=True) + \
        [x for x in lines if x.saved is None]


def line_text(line: Line) -> str:
    """A line as plain text (the printable card)."""
    who = f"{line.seats}: " if line.seats else ""
    saved = ""
    if line.saved is not None:
        s = line.saved
        ok = math.isfinite(s.low) and math.isfinite(s.high)
        saved = f" (saves {fmt.cost(s.mean, s.low, s.high, 2) if ok else '?'} {line.where})"
    return who + line.text + saved


def card_html(section: CountSection, rules, lone: Line | None = None, extra: list[Line] | None = None) -> str:
    lines = ordered_lines(section.lines + (extra or []) + ([lone] if lone is not None else []))
    items = "".join(line_html(x) for x in lines)
    files = " · ".join(f"<a href=\"{E(name)}\">{E(kind)}</a>" for kind, name in section.files.items())
    held = ""
    if math.isfinite(section.lost):
        held = (f" Its Rumba and pass lines give away {fmt.number(section.lost, 2, signed=False)} points per "
                f"hand against the table's best.")
    return (f"<div class=card id=card{section.players}><h3>{section.players} players: the card</h3><ol>{items}</ol>"
            f"<p class=foot>Lines by the points they save (against the best one-word rule, 95% interval "
            f"above 0).{held} Print: {files}</p></div>")


# -- every cell of a packed table: grids with a tap panel, the rule card --------------------------------------
TAP_CSS = """
table.g td.t{cursor:pointer}table.g td.on{outline:3px solid #111;outline-offset:-2px}
table.g td.dp{white-space:normal;height:auto;text-align:left;padding:0;background:none;overflow:visible}
.detail{background:#fffbe6;border:1px solid #d9c98a;border-radius:6px;padding:6px 8px;margin:3px 0;
font-size:13px;line-height:1.4;color:#111}.detail p{margin:2px 0}.detail b{font-weight:600}
.detail .x{float:right;border:0;background:#eee;border-radius:4px;font-size:13px;padding:2px 8px;cursor:pointer}
.card .lost{font-size:13px;margin:6px 0 2px}.card .pts{font-size:13px;color:#333;margin:2px 0 6px}
"""

SCRIPT = """<script>
(function(){
  function show(td){
    var row=td.parentNode,table=td.closest('table');
    table.querySelectorAll('td.on').forEach(function(x){x.classList.remove('on')});
    var dr=table.querySelector('tr.dr');
    if(!dr){dr=document.createElement('tr');dr.className='dr';var c=document.createElement('td');c.className='dp';
      dr.appendChild(c)}
    var cell=dr.firstChild;cell.colSpan=row.children.length;cell.textContent='';
    row.parentNode.insertBefore(dr,row.nextSibling);
    var panel=document.createElement('div');panel.className='detail';cell.appendChild(panel);
    var close=document.createElement('button');close.className='x';close.textContent='close';
    close.onclick=function(){dr.hidden=true;td.classList.remove('on')};panel.appendChild(close);
    td.getAttribute('data-d').split('\\n').forEach(function(line,i){
      var p=document.createElement('p');
      if(i===0){var b=document.createElement('b');b.textContent=line;p.appendChild(b)}else{p.textContent=line}
      panel.appendChild(p)});
    td.classList.add('on');dr.hidden=false;
  }
  document.addEventListener('click',function(ev){
    var td=ev.target.closest&&ev.target.closest('td[data-d]');if(td){show(td)}});
  document.addEventListener('keydown',function(ev){
    if((ev.key==='Enter'||ev.key===' ')&&ev.target.matches&&ev.target.matches('td[data-d]')){
      ev.preventDefault();show(ev.target)}});
})();
</script>"""


def share_text(p: float) -> str:
    """A box's share of all hands at its seats, in percent without the sign (the box is narrow): ``<.1``,
    ``0.4``, ``12``."""
    if not math.isfinite(p):
        return ""
    pct = 100 * p
    if pct < 0.05:
        return "<.1"
    return f"{pct:.1f}" if pct < 9.95 else f"{pct:.0f}"


def count_text(n: int) -> str:
    """A box's situation count as the narrow box shows it: in full up to 5 digits, then in thousands ("123k"; the
    tap gives every digit)."""
    return str(n) if n < 100_000 else f"{n // 1000}k"


def cost_text(box: Box) -> str:
    m = box.margin
    if m is None:
        return "only"
    return fmt.cost(m.mean, m.low, m.high)


def _row_words(row: str, low: str = "") -> str:
    if "x" in row and low:
        return f"{_row_words(row)} (x: {low})"
    if row == "none":
        return "no trump"
    if row == "5 trumps":
        return "five trumps"
    if "+" in row and row[0] != "4":
        return f"{row.replace('+', ' and ')} more trumps"
    if row.startswith("4, no"):
        return "four trumps, none of them A or K"
    return f"trumps {row}"


def _col_words(col: str) -> str:
    return "no side ace or king" if col == "none" else f"side {col}"


def box_detail(box: Box, where: str, low: str = "") -> list[str]:
    """The lines a tap shows: every value of the box, in words, with its interval (``low``: what x stands for)."""
    e = box.extra
    best, runner = box.best, box.runner
    lines = [f"{_row_words(box.row, low)}, {_col_words(box.col)} ({where})"]
    agree = e.get("by_best", {}).get(best, box.agree)
    lines.append(f"{share_text(e.get('share', math.nan)).replace('<.1', '<0.1')}% of hands. Best: {DO[best]} "
                 f"(the table's best for "
                 f"{fmt.share(agree)} of these hands).")
    if box.margin is not None and runner is not None:
        m = box.margin
        bound = e.get("unknown", 0.0) > 0.005
        cost = fmt.with_interval(m.mean, m.low, m.high, 2).replace("+", "")
        lines.append(f"Second best: {DO[runner]}, costs {'at least ' if bound else ''}{cost} points per hand.")
        if bound:
            lines.append(f"(For {fmt.share(e['unknown'])} of these hands the table keeps no value of a third choice: "
                         f"its cost counts as the margin, a lower bound.)")
    if box.sure_other > 0.0005:
        others = {a: v for a, v in e.get("by_best", {}).items() if a != best and v > 0.0005}
        split = ", ".join(f"{WORD[a]} {fmt.share(v)}" for a, v in others.items())
        lines.append(f"For {fmt.share(box.sure_other)} the table is sure another choice is better ({split} "
                     f"have it as best): ask about your own hand.")
    else:
        lines.append("No hand here for which the table is sure another choice is better.")
    if best == RUMBA and "p_success" in e:
        lines.append(f"A Rumba called here succeeds {fmt.share(e['p_success'])} of the time.")
    if "exchange" in e:
        k = e["exchange"]
        lines.append(f"When you play: exchange {k} card{'s' if k != 1 else ''} (best for "
                     f"{fmt.share(e['exchange_share'])} of the hands here that play).")
    for ex in e.get("examples", []):
        m, h = ex["margin"], ex["half"]
        margin = f"{DO[ex['runner']]} costs {fmt.with_interval(m, m - h, m + h, 2).replace('+', '')}"
        lines.append(f"Example: {ex['hand']}, turned {ex['trump']}, seat {ex['seat']}: {DO[ex['best']]} ({margin}).")
    lines.append(f"{box.cells:,} table entries (seat, turned card, hand), {box.deals:,} simulated deals.")
    return lines


def full_grid_table(grid: Grid, where: str, low: str = "") -> str:
    """A packed table's grid: every box with hands filled; a tap shows its values."""
    head = "".join(f"<th>{E(c)}</th>" for c in grid.cols)
    out = [f"<table class=g><tr><th class=r>trumps</th>{head}</tr>"]
    for r in grid.rows:
        if all(grid.box(r, c).empty for c in grid.cols):
            continue
        cells = []
        for c in grid.cols:
            box = grid.box(r, c)
            if box.empty:
                cells.append("<td class=e></td>")
                continue
            rgb = shade(box.best, box.margin.mean if box.margin else None)
            classes = "t " + ("close" if box.close else ("mixed" if box.mixed else "")) + (" d" if dark(rgb) else "")
            colour = "#fff" if dark(rgb) else "#111"
            data = E("\n".join(box_detail(box, where, low)))
            cells.append(f"<td class=\"{classes.strip()}\" tabindex=0 style=\"background-color:{hex_of(rgb)};"
                         f"color:{colour}\" data-d=\"{data}\"><b>{E(cost_text(box))}</b>"
                         f"{E(share_text(box.extra.get('share', math.nan)))}</td>")
        out.append(f"<tr><th class=r>{E(r)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    return "".join(out)


def full_exchange_table(grid: Grid) -> str:
    """A packed table's grid: where some hands of a box play, how many cards they exchange best (the most frequent
    count), shaded by the share of those hands for which it is best."""
    head = "".join(f"<th>{E(c)}</th>" for c in grid.cols)
    out = [f"<table class=g><tr><th class=r>trumps</th>{head}</tr>"]
    for r in grid.rows:
        row, any_box = [], False
        for c in grid.cols:
            box = grid.box(r, c)
            by_k = box.extra.get("exchange_by_k") if not box.empty else None
            if not by_k:
                row.append("<td class=e></td>")
                continue
            any_box = True
            k, share = box.extra["exchange"], box.extra["exchange_share"]
            rgb = shade(PLAY, 3.0 * max(0.0, (share - 0.4) / 0.6))
            colour = "#fff" if dark(rgb) else "#111"
            lines = [f"{_row_words(r)}, {_col_words(c)}: when you play, exchange {k}",
                     f"Best for {fmt.share(share)} of the hands here that play (they are "
                     f"{fmt.share(box.extra.get('play_share', math.nan))} of the box).",
                     "Best count: " + ", ".join(f"{n} cards {fmt.share(v)}" for n, v in by_k.items()) + "."]
            row.append(f"<td class=\"t{' d' if dark(rgb) else ''}\" tabindex=0 style=\"background-color:"
                       f"{hex_of(rgb)};color:{colour}\" data-d=\"{E(chr(10).join(lines))}\"><b>{k}</b>"
                       f"{E(fmt.share(share))}</td>")
        if any_box:
            out.append(f"<tr><th class=r>{E(r)}</th>{''.join(row)}</tr>")
    out.append("</table>")
    return "".join(out)


def full_exchange_block(grid: Grid) -> str:
    return (f"<div class=grids><div class=gridbox><h4>{E(grid.title)}</h4><p class=note>Where some hands of a "
            f"box play: the number of cards to exchange (your weakest by keep value) that is best for most of "
            f"them, and for what share; darker when more of them agree. From every situation of the table.</p>"
            f"{full_exchange_table(grid)}</div></div>")


def full_grid_block(grid: Grid, where: str, note: str, after: str = "", low: str = "") -> str:
    return (f"<div class=gridbox><h4>{E(grid.title)}</h4><p class=note>{E(note)}</p>{full_grid_table(grid, where, low)}"
            f"{after}</div>")


def money(x: float) -> str:
    return fmt.number(x, 3, signed=False)


def rule_card_html(card: RuleCard, rules, players: int, files: dict[str, str]) -> str:
    items = "".join(f"<li>{E(line.text(rules))} <span class=saved>saves {E(saved_text(line.saved))} per hand"
                    f"</span></li>" for line in card.lines)
    links = " · ".join(f"<a href=\"{E(name)}\">{E(kind)}</a>" for kind, name in files.items())
    return (f"<div class=card id=card{players}><h3>{players} players: the card</h3>"
            f"<p class=pts>{E(POINTS_TEXT)} Read from the top: the first line that fits your hand says what to "
            f"do.</p><ol>{items}</ol>"
            f"<p class=lost>{E(card_summary(card))}</p><p class=foot>Print: {links}</p></div>")


POINTS_TEXT = "Points: trump A 6, K 5, Q 4, J 3, other trumps 2; side A 3, side K 1."


def saved_text(s) -> str:
    return fmt.cost(s.mean, s.low, s.high, 3) if math.isfinite(s.low) else "n/a"


def worst_text(card: RuleCard) -> str:
    """One sentence: the grid box (of at least WORST_SHARE of the hands) where following the card loses most."""
    w = card.worst
    if w is None:
        return ""
    return (f"Worst box: {w.box.grid}, trumps {w.box.row}, side {w.box.col}: following the card there loses "
            f"{money(w.lost)} points per hand, {100 * w.share:.1f}% of hands dealt.")


def print_summary(card: RuleCard) -> str:
    """The card's figures in two printed lines."""
    text = (f"Following this card loses {money(card.lost.mean)} points per hand against the tables' best choice and "
            f"agrees with it for {fmt.share(card.agreement)} of hands ({fmt.share(card.agreement_sure)} where the "
            f"table is sure).")
    if card.worst is not None:
        text += " " + worst_text(card)
    if math.isfinite(card.vs_grid):
        text += (f" It simplifies the grids: for {fmt.share(card.vs_grid)} of hands it says otherwise than your box "
                 f"(the grids lose {money(card.grid_lost)}).")
    return text


def card_summary(card: RuleCard) -> str:
    text = (f"Following this card loses {money(card.lost.mean)} points per hand against the tables' best choice "
            f"and agrees with it for {fmt.share(card.agreement)} of hands ({fmt.share(card.agreement_sure)} of "
            f"those where the table is sure).")
    if card.worst is not None:
        text += " " + worst_text(card)
    if math.isfinite(card.vs_grid):
        text += (f" It is a simplification of the grids: for {fmt.share(card.vs_grid)} of hands it says something "
                 f"else than your box, and the grids lose {money(card.grid_lost)}.")
    if math.isfinite(card.floor):
        text += (f" No card in these words can lose less than {money(card.floor)}, however many lines it has: hands "
                 f"that look alike to every condition still differ in their best choice.")
    if card.lower_bound_share > 0.0005:
        text += (f" (For {fmt.share(card.lower_bound_share)} of hands the card picks a choice whose value the "
                 f"table does not keep: counted at its lower bound.)")
    return text


__all__ = ["DO", "MIXED_SHARE", "POINTS_TEXT", "SCRIPT", "TAP_CSS", "WORD", "box_detail", "box_title", "card_html",
           "card_summary", "cost_text", "count_text", "exchange_table", "exploit_table", "full_exchange_block",
           "full_exchange_table", "full_grid_block", "full_grid_table", "grid_block", "grid_table", "legend_html",
           "line_html", "line_text", "ordered_lines", "print_summary", "rule_card_html", "saved_text", "share_text",
           "strip_table", "worst_text"]
