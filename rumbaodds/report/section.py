"""One player count of the report from its source of cells (:mod:`.cells`): its grids, its card, its printed card.

:func:`count_section` takes every cell of a packed full table, or the cells of a table's frame (a quick table's
sample), and gives the same :class:`.page.CountSection`:

- grids per seat group (:func:`.grids.seat_grids`); the pass that reaches the sit-out limit, the jack of trump
  turned and the dealer's knock where the source holds them (a packed table does not: they come from the quick
  table of the usual player count, where there is one, and are said to);
- the card: over every cell of a packed table the rule card (:func:`.card.fit_card`), compared with the grids
  (:func:`compare`); over a table's frame its lines in words (:func:`card_lines`, :mod:`.lines`): the Rumba and
  pass lines per seat group, then the pass after the limit, the exchange, the knock;
- the printed card (A4 and A5 PDFs, the A4 page as a PNG), and ``cards.json`` beside the page for the rule cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ..rules import RuleSet
from . import card as cardmod
from . import grids, lines, page, printcard
from .blocks import line_text, ordered_lines, print_summary
from .cells import ACTIONS, PLAY, RUMBA, Cells
from .grids import mean_interval
from .group_cells import quadrature
from .sources import Loaded, TableInfo, shown_path

PRINT_DPI = 150  # the printed card's PNG: the A4 page at print size


def count_section(cells: Cells, loaded: Loaded | None, rules: RuleSet, model: str,
                  say: Callable[[str], None] = lambda s: None) -> page.CountSection:
    """The grids and card of ``cells``' player count (see the module docstring). ``loaded``: the table the cells
    come from, or (every cell of a packed table) the quick table of the usual player count, or None."""
    if cells.packed:
        return packed_section(cells, rules, model, loaded, say)
    return table_section(loaded, rules, cells.players)


def table_section(loaded: Loaded, rules: RuleSet, players: int) -> page.CountSection:
    """A table's frame: its grids (every scenario it holds), its lines in words, its knock strip."""
    cells = loaded.cells
    groups = grids.seat_groups(cells)
    seat_grids = [grids.grid(cells, g, grids.group_title(g, players)) for g in groups]
    everyone = tuple(range(players))
    third = jack = strip = None
    if rules.sit_out_limit > 0:
        third = grids.grid(cells, everyone, f"After {rules.sit_out_limit - 1} passes in a row", "third")
    if rules.jack_of_trump_forces_play and cells.frame["jack"].any():
        jack = grids.grid(cells, everyone, "Jack of trump turned", "jack")
    if loaded.knock is not None and rules.knock:
        strip = grids.knock_strip(loaded.knock)
    found, lost = card_lines(loaded, rules, players, groups, cardmod.MAX_LINES)
    return page.CountSection(players, seat_grids, found, loaded.info, third, jack, strip, lost=lost)


def packed_section(fc: Cells, rules: RuleSet, model: str, quick: Loaded | None,
                   say: Callable[[str], None] = lambda s: None) -> page.CountSection:
    """Every cell of a packed table: its grids and rule card; after the passes and the knock from ``quick``."""
    n = fc.players
    seat_grids = grids.seat_grids(fc)
    say(f"  {n} players: {len(seat_grids)} grids; fitting the card")
    card = cardmod.fit_card(fc)
    compare(fc, card, seat_grids)
    say(f"  {n} players: the card loses {card.lost.mean:.3f} points per hand (no card in these words less than "
        f"{card.floor:.3f}), agrees {card.agreement:.1%}")
    info = TableInfo(n, model, len(fc), fc.deals, False, shown_path(fc.path))
    third = jack = strip = None
    sampled = ""
    if quick is not None:
        if rules.sit_out_limit > 0:
            third = grids.grid(quick.cells, tuple(range(n)), f"After {rules.sit_out_limit - 1} passes in a row",
                               "third", small=True)  # a sample: rows and columns merged
        if quick.knock is not None and rules.knock:
            strip = grids.knock_strip(quick.knock)
        if rules.jack_of_trump_forces_play and quick.frame["jack"].any():  # the full cells rank a barred pass
            jack = grids.grid(quick.cells, tuple(range(n)), "Jack of trump turned", "jack", small=True)
        sampled = (f"The grid after {rules.sit_out_limit - 1} passes in a row and the dealer's knock are not in "
                   f"the full table: they come from a sample of hands ({quick.info.cells:,} situations, "
                   f"{quick.info.deals:,} deals).") if (third or strip) else ""
        if jack is not None:
            sampled += (" " if sampled else "") + (
                f"The grid with the jack of trump turned (no pass) comes from a sample of hands "
                f"({quick.info.cells:,} situations, {quick.info.deals:,} deals): the full table's cells rank the "
                f"pass too, so its grids and card leave those hands out.")
    return page.CountSection(n, seat_grids, [], info, third, jack, strip, card=card, sampled=sampled)


# -- a table's lines in words ------------------------------------------------------------------------------------
def coarser(groups: list[tuple[int, ...]]) -> list[list[tuple[int, ...]]]:
    """The seat groups of the grids, then coarser ones: the middle seats as one group, the dealer apart from the
    rest, every seat alike (the card's last resort: one Rumba line and one pass line)."""
    every = tuple(s for g in groups for s in g)
    out = [list(groups)]
    if len(groups) > 3:
        out.append([groups[0], tuple(s for g in groups[1:-1] for s in g), groups[-1]])
    if len(groups) > 2:
        out.append([every[:-1], groups[-1]])
    out.append([every])
    return out


def card_lines(loaded: Loaded, rules: RuleSet, players: int, groups, room: int) -> tuple[list, float]:
    """The card of a quick table in at most ``room`` lines: its Rumba and pass lines per seat group (the finest
    grouping of :func:`coarser` that leaves room), then the lines after the passes, the exchange, the knock.
    Returns (lines, points per hand its Rumba and pass lines give away)."""
    f, quick = loaded.frame, loaded.info.quick
    for option in coarser(groups):
        found, fits = lines.main_lines(f, rules, [(g, grids.short_title(g, players)) for g in option], quick)
        extra = [lines.third_line(f, rules, fits, quick), lines.exchange_line(f[~f["jack"]], rules, quick),
                 lines.knock_line(loaded.knock) if rules.knock else None]
        found += [x for x in extra if x is not None]
        if len(found) <= room:
            break
    cells = pd.concat([fit.frame for fit in fits]) if fits else f.iloc[:0]
    choice = np.concatenate([lines.card_choice(fit.frame, fit.rumba, fit.sit, "normal") for fit in fits]) \
        if fits else np.array([])
    lost = lines.points_lost(cells, choice, "normal") if len(cells) else float("nan")
    return found, lost


def jack_line(loaded: Loaded, rules: RuleSet) -> lines.Line | None:
    f = loaded.frame[loaded.frame["jack"].to_numpy(bool)]
    if f.empty:
        return None
    value = {RUMBA: f["v_rumba"].to_numpy(float), PLAY: f["v_play"].to_numpy(float),
             "half": np.hypot(f["h_rumba"].to_numpy(float), f["h_play"].to_numpy(float))}
    rule, saved, lost, agree = lines.fit_two_way(f, rules, RUMBA, PLAY, value, loaded.info.quick)
    text = ("Jack of trump turned (everybody plays): call Rumba " + rule.text(lines.lowest_rank(rules),
                                                                            charts_top(rules)) + ".")
    if not rule.clauses:
        text = "Jack of trump turned (everybody plays): play, never call Rumba."
    return lines.Line("jack", text, saved, lost, agree, "per hand with the jack turned")


def charts_top(rules: RuleSet) -> int:
    from ..cards import RANKS

    return RANKS.index(rules.ranks[-1])


# -- every cell of a packed table: the rule card against the grids ------------------------------------------
def choices(fc: Cells, card: cardmod.RuleCard, seat_grids: list[grids.Grid]) -> tuple[np.ndarray, np.ndarray]:
    """(card's choice, grid box's choice) per cell (ACTIONS indices)."""
    keys, nb = grids.box_keys(fc)
    nc = len(fc.cols)
    card_c = np.empty(len(fc), dtype=np.int64)
    grid_c = np.empty(len(fc), dtype=np.int64)
    for s in range(fc.players):
        at = fc.at_seat(s)
        feats = {name: fc.feature(name)[at] for name in ("n_trumps", "top_trump", "side_aces", "voids", "points",
                                                         "trump_rank", "row", "col")}
        card_c[at] = card.choice(cardmod.atom_features({**feats, "seat": np.full(len(at), s)}))
        g = next(g for g in seat_grids if s in g.seats)
        box_choice = np.zeros(nb, dtype=np.int64)
        for (r, c), box in g.boxes.items():
            box_choice[fc.rows.index(r) * nc + fc.cols.index(c)] = ACTIONS.index(box.best)
        grid_c[at] = box_choice[keys[at]]
    return card_c, grid_c


def compare(fc: Cells, card: cardmod.RuleCard, seat_grids: list[grids.Grid]) -> None:
    """Fill ``card.vs_grid`` (share of hands where card and grid differ) and ``card.grid_lost``."""
    card_c, grid_c = choices(fc, card, seat_grids)
    w = fc.weight
    rows = np.arange(len(fc))
    card.vs_grid = float((w * (card_c != grid_c)).sum() / w.sum())
    card.grid_lost = float((w * fc.loss[rows, grid_c]).sum() / w.sum())


def other_lines(quick: Loaded, rules: RuleSet) -> list[lines.Line]:
    """The lines the full table cannot give, from the quick table: after the passes, the knock."""
    f, q = quick.frame, quick.info.quick
    n = quick.info.players
    groups = grids.seat_groups(quick.cells)
    _, fits = lines.main_lines(f, rules, [(g, grids.short_title(g, n)) for g in groups], q)
    out = [lines.third_line(f, rules, fits, q), lines.knock_line(quick.knock) if rules.knock else None]
    return [x for x in out if x is not None]


# -- the printed card, cards.json, the success chart -------------------------------------------------------------
def print_files(folder: Path, section: page.CountSection, rules: RuleSet, footer: str, dpi: int,
                extra: list[lines.Line]) -> dict[str, str]:
    """A quick table's printed card: its grids and lines on A4 (PDF, PNG at print size) and A5 (PDF)."""
    sub = [g for g in section.grids] + [g for g in (section.third, section.jack) if g is not None]
    title = f"Rumba ({rules.name}), {section.players} players: what to do with your hand"
    texts = [line_text(x) for x in ordered_lines(section.lines + extra)]
    summary = ""
    if math.isfinite(section.lost):
        summary = (f"Its Rumba and pass lines give away {section.lost:.2f} points per hand against the quick "
                   f"table's best choice.")
    head = "Lines by the points per hand they save."
    n = section.players
    a4 = printcard.a4_page(sub, texts, summary, title, footer, head)
    a4_pdf = printcard.pdf_bytes([a4])
    (folder / f"card_{n}p.pdf").write_bytes(a4_pdf)
    (folder / f"card_{n}p_a5.pdf").write_bytes(printcard.pdf_bytes(printcard.a5_pages(sub, texts, summary, title,
                                                                                      footer, head)))
    (folder / f"card_{n}p.png").write_bytes(printcard.png_of_pdf(a4_pdf, a4, dpi))
    return {"A4 PDF": f"card_{n}p.pdf", "A5 PDF": f"card_{n}p_a5.pdf", "PNG": f"card_{n}p.png"}


def rule_card_files(folder: Path, section: page.CountSection, rules: RuleSet, footer: str) -> dict[str, str]:
    """card_<n>p.pdf (A4), card_<n>p_a5.pdf (A5, two pages), card_<n>p.png (the A4 page at print size)."""
    n = section.players
    title = f"Rumba ({rules.name}), {n} players: what to do with your hand"
    card = section.card
    texts = printcard.rule_texts(card, rules)
    summary = print_summary(card)
    a4 = printcard.a4_page(section.grids, texts, summary, title, footer)
    a4_pdf = printcard.pdf_bytes([a4])
    (folder / f"card_{n}p.pdf").write_bytes(a4_pdf)
    (folder / f"card_{n}p_a5.pdf").write_bytes(printcard.pdf_bytes(printcard.a5_pages(section.grids, texts, summary,
                                                                                      title, footer)))
    (folder / f"card_{n}p.png").write_bytes(printcard.png_of_pdf(a4_pdf, a4))
    return {"A4 PDF": f"card_{n}p.pdf", "A5 PDF": f"card_{n}p_a5.pdf", "PNG": f"card_{n}p.png"}


def write_cards(folder: Path, sections: list[page.CountSection], rules: RuleSet) -> Path | None:
    """``cards.json`` beside the page: every full card's lines, what each saves, its loss and agreement."""
    import json

    def r(x: float) -> float:
        return round(float(x), 6)

    cards = {}
    for s in sections:
        card = s.card
        if card is None:
            continue
        cards[str(s.players)] = {
            "lines": [{"text": line.text(rules), "saved": [r(line.saved.mean), r(line.saved.low), r(line.saved.high)]}
                      for line in card.lines],
            "lost": [r(card.lost.mean), r(card.lost.low), r(card.lost.high)], "agreement": r(card.agreement),
            "agreement_sure": r(card.agreement_sure), "differs_from_grid": r(card.vs_grid),
            "grid_lost": r(card.grid_lost), "floor": r(card.floor), "lower_bound_share": r(card.lower_bound_share),
            "worst_box": worst_json(card.worst), "table": s.info.path}
    if not cards:
        return None
    path = folder / "cards.json"
    bounds = {"worst_box_lost": cardmod.WORST_LOSS, "worst_box_min_share": cardmod.WORST_SHARE,
              "lost": cardmod.TARGET_LOSS}
    path.write_text(json.dumps({"rules": rules.name, "bounds": bounds, "cards": cards}, indent=1) + "\n",
                    encoding="utf-8")
    return path


def worst_json(w: cardmod.WorstBox | None) -> dict | None:
    """``cards.json``'s ``worst_box``: the grid box (its grid's title and seats, row and column as the grid names
    them) where following the card loses most, ``lost`` points per hand, its ``share`` of every hand dealt (and of
    the hands at its grid's seats)."""
    if w is None:
        return None
    return {"lost": round(w.lost, 6), "grid": w.box.grid, "seats": list(w.box.seats), "row": w.box.row,
            "col": w.box.col, "share": round(w.share, 6), "share_at_seats": round(w.share_at_seats, 6)}


def summary_lines(folder: str | Path) -> list[str]:
    """One line per player count of the card in ``folder/cards.json``: its agreement and loss (what
    ``rumbaodds report`` prints)."""
    import json

    path = Path(folder) / "cards.json"
    if not path.exists():
        return []
    doc = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for n, c in doc["cards"].items():
        floor = f"; no card in these words, however long: {c['floor']:.3f}" if "floor" in c else ""
        w = c.get("worst_box")
        worst = (f"; worst box {w['grid']}, {w['row']} / {w['col']}: {w['lost']:.3f} per hand, {w['share']:.2%} of "
                 f"hands") if w else ""
        out.append(f"{doc['rules']}, {n} players: the card ({len(c['lines'])} lines) agrees with the tables' best "
                   f"choice for {c['agreement']:.1%} of hands ({c['agreement_sure']:.1%} where the table is sure) "
                   f"and loses {c['lost'][0]:.3f} points per hand (the grids: {c['grid_lost']:.3f}{floor}{worst})")
    return out


def packed_series(fc: Cells) -> dict:
    """Every cell of a packed table: P(Rumba succeeds) by trump row, pooled over seats and side cards, weighted by
    how often hands occur; the intervals are binomial over each situation's Rumba deals."""
    rows = list(fc.rows)
    ps = fc.p_success.astype(float)
    w = fc.weight * np.isfinite(ps) * (fc.feature("n_trumps") > 0)
    key = fc.feature("row").astype(np.int64)
    if fc.source is None:
        deals = np.maximum(fc.samples.astype(float), 1.0)
    else:  # a group table: a member has the deals of its group's cell, and shares its error (quadrature)
        source_deals = np.zeros(int(fc.source.max()) + 1)
        source_deals[fc.source[fc.samples > 0]] = fc.samples[fc.samples > 0]
        deals = np.maximum(source_deals[fc.source], 1.0)
    nb = len(rows)
    wsum = np.bincount(key, w, nb)
    mean = np.bincount(key, w * np.nan_to_num(ps), nb)
    sd = w * np.sqrt(np.nan_to_num(ps * (1 - ps)) / deals)
    var = quadrature(key, sd, nb, fc.source) ** 2
    pts = {}
    for i in np.flatnonzero(wsum > 0):
        m = mean[i] / wsum[i]
        half = 1.96 * math.sqrt(var[i]) / wsum[i]
        pts[rows[i]] = (m, max(0.0, m - half), min(1.0, m + half), int((key == i).sum()))
    return pts


def frame_series(cells: Cells) -> dict:
    """A table's frame: P(Rumba succeeds) by trump row, its interval as the grids' box means (rows of fewer than 2
    situations left out)."""
    f = cells.frame
    f = f[~f["jack"].to_numpy(bool) & (f["n_trumps"] > 0)]
    pts = {}
    for r, g in f.groupby("row"):
        ps = g["p_success"].to_numpy(float)
        if len(g) < 2 or not np.isfinite(ps).all():
            continue
        half = (g["p_success_high"].to_numpy(float) - g["p_success_low"].to_numpy(float)) / 2
        iv = mean_interval(ps, half, g["w"].to_numpy(float), cells.quick)
        if np.isfinite(iv.low):
            pts[r] = (iv.mean, max(0.0, iv.low), min(1.0, iv.high), len(g))
    return pts


def success_series(sources: dict[int, Cells], rules: RuleSet) -> tuple[list[str], dict]:
    """P(Rumba succeeds) by trump row per player count, from each count's source of cells."""
    from .shapes import trump_rows

    return trump_rows(rules), {f"{n} players": (packed_series(c) if c.packed else frame_series(c))
                               for n, c in sorted(sources.items())}


__all__ = ["PRINT_DPI", "card_lines", "choices", "coarser", "compare", "count_section", "jack_line", "other_lines",
           "packed_section", "print_files", "rule_card_files", "success_series", "summary_lines", "table_section",
           "worst_json", "write_cards"]
