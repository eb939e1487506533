"""The report of a player count from every cell of its full table: grids, the rule card, the printed card.

:func:`full_section` is what :func:`.build.make_report` does for a player count whose full table is found
(``full.find_full``: a packed table under ``--tables`` or shipped in the package); the decisions the full table
does not hold (the pass that reaches the sit-out limit, the dealer's knock) come from the quick table of the
usual player count, where there is one, and are said to.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..rules import RuleSet
from . import card as cardmod
from . import fullgrid, grids, page, printcard, rulecard
from .data import ACTIONS, Loaded, TableInfo
from .full import FullCells, NoFullTable, find_full, read_full


def try_full(tables: str | Path, rules: RuleSet, players: int, model: str,
             say: Callable[[str], None] = lambda s: None) -> FullCells | None:
    """Every cell of the full table for these settings, or None where there is none."""
    path = find_full(rules, players, model, tables)
    if path is None:
        return None
    try:
        fc = read_full(path, rules)
    except NoFullTable as exc:
        say(f"  {exc}")
        return None
    say(f"  every situation: {shown_path(path)} ({len(fc):,} situations, {fc.deals:,} deals)")
    return fc


def shown_path(path: Path) -> str:
    """A shipped table's path from the project's root (rumbaodds/tables/packed/...); another one as it is."""
    root = Path(__file__).resolve().parents[2]
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return str(path)


def choices(fc: FullCells, card: rulecard.RuleCard, seat_grids: list[grids.Grid]) -> tuple[np.ndarray, np.ndarray]:
    """(card's choice, grid box's choice) per cell (ACTIONS indices)."""
    pf = fc.pairs
    nc = len(pf.cols)
    feats = {"n_trumps": pf.n_trumps, "top_trump": pf.top_trump, "side_aces": pf.side_aces, "voids": pf.voids,
             "points": pf.points}
    card_c = np.empty(len(fc), dtype=np.int64)
    grid_c = np.empty(len(fc), dtype=np.int64)
    for s in range(fc.players):
        f = rulecard.atom_features({**feats, "seat": np.full(len(pf), s)})
        card_c[fc.seat_slice(s)] = card.choice(f)
        g = next(g for g in seat_grids if s in g.seats)
        box_choice = np.zeros(len(pf.rows) * nc, dtype=np.int64)
        for (r, c), box in g.boxes.items():
            box_choice[pf.rows.index(r) * nc + pf.cols.index(c)] = ACTIONS.index(box.best)
        grid_c[fc.seat_slice(s)] = box_choice[pf.row.astype(np.int64) * nc + pf.col]
    return card_c, grid_c


def compare(fc: FullCells, card: rulecard.RuleCard, seat_grids: list[grids.Grid]) -> None:
    """Fill ``card.vs_grid`` (share of hands where card and grid differ) and ``card.grid_lost``."""
    card_c, grid_c = choices(fc, card, seat_grids)
    w = fc.weight
    rows = np.arange(len(fc))
    card.vs_grid = float((w * (card_c != grid_c)).sum() / w.sum())
    card.grid_lost = float((w * fc.loss[rows, grid_c]).sum() / w.sum())


def full_section(fc: FullCells, rules: RuleSet, model: str, quick: Loaded | None,
                 say: Callable[[str], None] = lambda s: None) -> page.CountSection:
    n = fc.players
    seat_grids = fullgrid.seat_grids(fc, grids.group_title)
    say(f"  {n} players: {len(seat_grids)} grids; fitting the card")
    card = rulecard.fit_card(fc)
    compare(fc, card, seat_grids)
    say(f"  {n} players: the card loses {card.lost.mean:.3f} points per hand (no card in these words less than "
        f"{card.floor:.3f}), agrees {card.agreement:.1%}")
    info = TableInfo(n, model, len(fc), fc.deals, False, shown_path(fc.path))
    third = strip = None
    sampled = ""
    if quick is not None:
        f, q = quick.frame, quick.info.quick
        if rules.sit_out_limit > 0:
            third = grids.action_grid(f, rules, f"After {rules.sit_out_limit - 1} passes in a row", tuple(range(n)),
                                      "third", q, small=True)  # a sample: rows and columns merged
        if quick.knock is not None and rules.knock:
            strip = grids.knock_strip(quick.knock)
        sampled = (f"The grid after {rules.sit_out_limit - 1} passes in a row and the dealer's knock are not in "
                   f"the full table: they come from a sample of hands ({quick.info.cells:,} situations, "
                   f"{quick.info.deals:,} deals).") if (third or strip) else ""
    return page.CountSection(n, seat_grids, [], info, third, None, strip, card=card, sampled=sampled)


def other_lines(quick: Loaded, rules: RuleSet) -> list[cardmod.Line]:
    """The lines the full table cannot give, from the quick table: after the passes, the knock."""
    f, q = quick.frame, quick.info.quick
    n = quick.info.players
    groups = grids.seat_groups(f, rules, n, q)
    _, fits = cardmod.main_lines(f, rules, [(g, grids.short_title(g, n)) for g in groups], q)
    out = [cardmod.third_line(f, rules, fits, q), cardmod.knock_line(quick.knock) if rules.knock else None]
    return [x for x in out if x is not None]


def exchange_grid(fc: FullCells) -> grids.Grid:
    return fullgrid.full_grid(fc, tuple(range(fc.players)), f"{fc.players} players, every seat")


def card_files(folder: Path, section: page.CountSection, rules: RuleSet, footer: str) -> dict[str, str]:
    """card_<n>p.pdf (A4), card_<n>p_a5.pdf (A5, two pages), card_<n>p.png (the A4 page at print size)."""
    n = section.players
    title = f"Rumba ({rules.name}), {n} players: what to do with your hand"
    card = section.card
    texts = printcard.rule_texts(card, rules)
    from .fullpage import print_summary

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
            "table": s.info.path}
    if not cards:
        return None
    path = folder / "cards.json"
    path.write_text(json.dumps({"rules": rules.name, "cards": cards}, indent=1) + "\n", encoding="utf-8")
    return path


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
        out.append(f"{doc['rules']}, {n} players: the card ({len(c['lines'])} lines) agrees with the tables' best "
                   f"choice for {c['agreement']:.1%} of hands ({c['agreement_sure']:.1%} where the table is sure) "
                   f"and loses {c['lost'][0]:.3f} points per hand (the grids: {c['grid_lost']:.3f}{floor})")
    return out


def success_series(full: dict[int, FullCells]) -> tuple[list[str], dict]:
    """P(Rumba succeeds) by trump row, pooled over seats and side cards, weighted by how often hands occur; the
    intervals are binomial over each situation's Rumba deals."""
    series = {}
    rows = []
    for n, fc in sorted(full.items()):
        pf = fc.pairs
        rows = list(pf.rows)
        ps = fc.p_success.astype(float)
        w = fc.weight * np.isfinite(ps) * (fc.per_cell(pf.n_trumps) > 0)
        deals = np.maximum(fc.samples.astype(float), 1.0)
        key = fc.per_cell(pf.row).astype(np.int64)
        nb = len(rows)
        wsum = np.bincount(key, w, nb)
        mean = np.bincount(key, w * np.nan_to_num(ps), nb)
        var = np.bincount(key, (w ** 2) * np.nan_to_num(ps * (1 - ps)) / deals, nb)
        pts = {}
        for i in np.flatnonzero(wsum > 0):
            m = mean[i] / wsum[i]
            half = 1.96 * math.sqrt(var[i]) / wsum[i]
            pts[rows[i]] = (m, max(0.0, m - half), min(1.0, m + half), int((key == i).sum()))
        series[f"{n} players"] = pts
    return rows, series


__all__ = ["card_files", "choices", "compare", "exchange_grid", "full_section", "other_lines", "success_series",
           "summary_lines", "try_full", "write_cards"]
