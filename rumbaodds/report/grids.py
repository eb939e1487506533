"""Action grids: a source's cells (:mod:`.cells`) pooled into boxes of hands a player recognises (rows x columns
of shapes.py), per seat group; and the dealer's knock strip.

:func:`grid` pools any source; how depends on what its cells are:

- every cell of a packed full table (:func:`full_grid`, which pools any source of cells this way): each hand
  weighted by how often it is dealt. Per box,
  for each choice the mean **loss** against each hand's own best choice (0 where it is the hand's best); the
  box's choice is the one that loses least, its **cost** (what the second best costs) the difference of the two
  mean losses, with the 95% interval of the cells' own Monte Carlo intervals
  (1.96 x sqrt(sum w^2 (h / 1.96)^2) / sum w). Every box where hands exist is filled. A box also says how its
  hands split: the share whose own best is the box's (``agree``) and the share for which the table is sure (its
  interval excludes a tie) that another choice is better (``sure_other``); it is **mixed** when that share
  exceeds ``MIXED_SHARE``. Each box keeps two example hands (the most frequent one of its choice, and the most
  frequent one the table is sure wants something else, else a second one of its choice). Middle seats share a
  grid while it costs each of them at most ``MERGE_LOSS`` (:func:`seat_runs`).
- the cells of a table's frame (:func:`action_grid`, any scenario: normal, after the passes, jack turned): a
  box's value of an action is the weighted mean of its cells' values, its best action the lowest, its
  **margin** EV(second-best) - EV(best). The 95% interval of a box mean: a quick table (cells drawn at random,
  weight 1 each) from the spread of the cells' values over the box, t-quantile x s / sqrt(n) (it contains their
  Monte Carlo noise too; a box needs 2 cells); a full one from the cells' own half-widths as above. A box is
  mixed when not every cell in it has the box's action as its own best. Middle seats share a grid until their
  grids' clear boxes disagree (:func:`frame_seat_groups`).

Either way a box is **close** (hatched) when the interval of its margin includes 0 (or it has too few cells to
tell); only a box that is neither close nor mixed tells every hand in it what ``ask`` says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..cards import SUIT_BITS, format_card
from . import shapes
from .cells import (
    ACTIONS,
    KNOCK,
    LOOK,
    PLAY,
    RUMBA,
    SIT,
    Z95,
    Cells,
    diff_half,
    scenario_actions,
    scenario_cells,
    values,
)
from .group_cells import quadrature

MIXED_SHARE = 0.10  # full tables: a box is mixed when more than this share of its hands surely want another choice
MERGE_LOSS = 0.002  # full tables: middle seats share a grid while it costs each of them at most this (points per hand)

# two-sided 95% Student t quantiles by degrees of freedom (1..30); 1.96 beyond
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df: int) -> float:
    if df < 1:
        return math.inf
    return _T95[df - 1] if df <= len(_T95) else Z95


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    @classmethod
    def unknown(cls, mean: float = math.nan) -> Interval:
        return cls(mean, -math.inf, math.inf)


def mean_interval(v: np.ndarray, h: np.ndarray, w: np.ndarray, quick: bool) -> Interval:
    """Weighted mean of per-cell values ``v`` (95% half-widths ``h``, weights ``w``) with its 95% interval."""
    v, h, w = (np.asarray(x, dtype=float) for x in (v, h, w))
    n = len(v)
    if n == 0 or w.sum() <= 0:
        return Interval.unknown()
    mean = float((w * v).sum() / w.sum())
    mc = float(Z95 * math.sqrt(((w * h / Z95) ** 2).sum()) / w.sum())
    if not quick:
        return Interval(mean, mean - mc, mean + mc)
    if n < 2:
        return Interval.unknown(mean)
    # cells drawn at random: the spread of their values (weighted mean of iid draws, delta method)
    se = math.sqrt(float((w * w * (v - mean) ** 2).sum()) / float(w.sum()) ** 2 * n / (n - 1))
    half = max(t95(n - 1) * se, mc)
    return Interval(mean, mean - half, mean + half)


@dataclass
class Box:
    """One box of a grid: what the hands in it should do, and how sure that is."""

    row: str
    col: str
    cells: int = 0
    deals: int = 0
    weight: float = 0.0
    values: dict[str, Interval] = field(default_factory=dict)
    best: str | None = None
    runner: str | None = None
    margin: Interval | None = None  # EV(runner) - EV(best): the points a mistake gives away
    agree: float = math.nan  # weighted share of cells whose own best is the box's
    extra: dict = field(default_factory=dict)
    sure_other: float = math.nan  # full tables: weighted share of hands the table is sure want another choice

    @property
    def empty(self) -> bool:
        return self.cells == 0 or self.best is None

    @property
    def close(self) -> bool:
        return self.margin is None or not self.margin.low > 0

    @property
    def mixed(self) -> bool:
        """Quick tables: not every cell agrees. Full tables (``sure_other`` known): more than
        ``MIXED_SHARE`` of the hands surely want another choice (a cell's noise alone does not make a box mixed)."""
        if math.isfinite(self.sure_other):
            return self.sure_other > MIXED_SHARE
        return not self.agree >= 1.0 - 1e-12

    @property
    def clear(self) -> bool:
        """Solid: the margin's interval excludes 0 and every hand of the box agrees."""
        return not self.empty and not self.close and not self.mixed

    @property
    def hatched(self) -> bool:
        return not self.empty and not self.clear


@dataclass
class Grid:
    """Boxes by (row, column), with what stands behind them."""

    title: str
    rows: list[str]
    cols: list[str]
    actions: tuple[str, ...]
    boxes: dict[tuple[str, str], Box]
    seats: tuple[int, ...] = ()
    scenario: str = "normal"
    quick: bool = True
    note: str = ""

    @property
    def cells(self) -> int:
        return sum(b.cells for b in self.boxes.values())

    @property
    def deals(self) -> int:
        return sum(b.deals for b in self.boxes.values())

    def box(self, row: str, col: str) -> Box:
        return self.boxes.get((row, col)) or Box(row, col)

    def share(self, predicate) -> float:
        """Weighted share of the grid's hands in boxes where ``predicate(box)``."""
        total = sum(b.weight for b in self.boxes.values())
        return sum(b.weight for b in self.boxes.values() if predicate(b)) / total if total else math.nan


def box_stats(cells: pd.DataFrame, row: str, col: str, actions: tuple[str, ...], scenario: str, quick: bool,
              best_col: str) -> Box:
    """Pool the cells of one box (see the module docstring)."""
    box = Box(row, col, len(cells), int(cells["samples"].sum()), float(cells["w"].sum()))
    if cells.empty:
        return box
    w = cells["w"].to_numpy(float)
    vals = {}
    for a in actions:
        v, h = values(cells, a, scenario)
        if not np.all(np.isfinite(v)):
            continue
        vals[a] = (v, h)
        box.values[a] = mean_interval(v, h, w, quick)
    if not vals:
        return box
    order = sorted(vals, key=lambda a: (box.values[a].mean, actions.index(a)))
    box.best = order[0]
    own = cells[best_col].to_numpy()
    box.agree = float((w * (own == box.best)).sum() / w.sum())
    if len(order) > 1:
        box.runner = order[1]
        d = vals[box.runner][0] - vals[box.best][0]
        box.margin = mean_interval(d, diff_half(cells, box.runner, box.best, scenario), w, quick)
    if RUMBA in vals:
        for col_name in ("p_success", "p_lone_play", "p_void", "p_uncontested"):
            x = cells[col_name].to_numpy(float)
            if np.isfinite(x).all():
                box.extra[col_name] = float((w * x).sum() / w.sum())
        ps = cells["p_success"].to_numpy(float)
        lo, hi = cells["p_success_low"].to_numpy(float), cells["p_success_high"].to_numpy(float)
        if np.isfinite(ps).all():
            box.extra["p_success_ci"] = mean_interval(ps, (hi - lo) / 2, w, quick)
    if box.best == PLAY:
        ks = [int(c[6:]) for c in cells.columns if c.startswith("v_play") and c[6:].isdigit()]
        means = {k: mean_interval(cells[f"v_play{k}"], cells[f"h_play{k}"], w, quick) for k in ks}
        k_best = min(means, key=lambda k: (means[k].mean, k))
        box.extra["exchange"] = k_best
        box.extra["exchange_values"] = means
    return box


def action_grid(frame: pd.DataFrame, rules, title: str, seats, scenario: str = "normal", quick: bool = True,
                small: bool = False) -> Grid:
    """The grid of the given seats (pooled) in a scenario (normal / third / jack)."""
    cells = scenario_cells(frame, scenario)
    cells = cells[cells["seat"].isin(list(seats))]
    rows = shapes.small_rows(rules) if small else shapes.trump_rows(rules)
    cols = shapes.small_columns(rules) if small else shapes.side_columns(rules)
    rkey, ckey = ("srow", "scol") if small else ("row", "col")
    actions = scenario_actions(scenario)
    best_col = "best_third" if scenario == "third" else "best"
    boxes = {}
    for (r, c), group in cells.groupby([rkey, ckey], sort=False):
        boxes[(r, c)] = box_stats(group, r, c, actions, scenario, quick, best_col)
    return Grid(title, rows, cols, actions, boxes, tuple(seats), scenario, quick)


# -- seat groups -----------------------------------------------------------------------------------------
def seat_word(seat: int, players: int) -> str:
    if seat == players - 1:
        return "dealer"
    if seat == 0:
        return "first to speak"
    return f"seat {seat}"


def group_title(seats, players: int) -> str:
    seats = list(seats)
    if seats == [0]:
        return "First to speak (seat 0)"
    if seats == [players - 1]:
        return f"Dealer (seat {players - 1}, speaks last)"
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return f"Seats {seats[0]}\u2013{seats[-1]} (middle)" if seats == list(range(seats[0], seats[-1] + 1)) else \
        "Seats " + ", ".join(map(str, seats))


def grids_differ(a: Grid, b: Grid) -> bool:
    """Two grids differ where a box is clear in both with different actions."""
    return any(box.clear and b.box(*key).clear and box.best != b.box(*key).best for key, box in a.boxes.items())


def frame_seat_groups(frame: pd.DataFrame, rules, players: int, quick: bool, scenario: str = "normal"
                      ) -> list[tuple]:
    """A table frame's seat groups: first to speak, the middle seats, the dealer; middle seats split into runs
    where their grids differ."""
    if players == 1:
        return [(0,)]
    middle = list(range(1, players - 1))
    groups: list[list[int]] = []
    if middle:
        singles = {s: action_grid(frame, rules, "", [s], scenario, quick) for s in middle}
        run = [middle[0]]
        for s in middle[1:]:
            if any(grids_differ(singles[s], singles[r]) for r in run):
                groups.append(run)
                run = [s]
            else:
                run.append(s)
        groups.append(run)
    return [(0,)] + [tuple(g) for g in groups] + [(players - 1,)]


def player_grids(frame: pd.DataFrame, rules, players: int, quick: bool, scenario: str = "normal") -> list[Grid]:
    return [action_grid(frame, rules, group_title(g, players), g, scenario, quick)
            for g in frame_seat_groups(frame, rules, players, quick, scenario)]


def grid_for(seat_grids: list[Grid], jack: Grid | None, seat: int, trump_card: int, rules) -> Grid:
    """The grid a player reads: the jack grid when the jack of trump is turned (flemish), else his seat's."""
    from ..cards import RANKS

    if jack is not None and rules.jack_of_trump_forces_play and int(trump_card) % 16 == RANKS.index("J"):
        return jack
    return next(g for g in seat_grids if seat in g.seats)


def short_title(seats, players: int) -> str:
    """'first to speak', 'seats 1–3', 'dealer', 'not the dealer' (the card's seat labels)."""
    seats = list(seats)
    if seats == [0]:
        return "First to speak"
    if seats == [players - 1]:
        return "Dealer"
    if seats == list(range(players - 1)) and players > 2:
        return "Not the dealer"
    return f"Seat {seats[0]}" if len(seats) == 1 else f"Seats {seats[0]}\u2013{seats[-1]}"


def box_of(grid: Grid, cards, trump_card: int, rules) -> Box:
    """The box a player holding ``cards`` reads (small grids: the merged rows and columns)."""
    row, col = shapes.box_of_hand(cards, trump_card, rules)
    return grid.box(row, col)


# -- every cell of a packed table ---------------------------------------------------------------------------
def seat_runs(fc: Cells) -> list[tuple[int, ...]]:
    """Seat groups pooled by loss (:func:`full_grid`): first to speak, runs of middle seats whose pooled grid costs
    each at most MERGE_LOSS, the dealer."""
    n = fc.players
    if n == 1:
        return [(0,)]
    middle = list(range(1, n - 1))
    runs: list[list[int]] = []
    for s in middle:
        if runs and all(_pooled_cost(fc, runs[-1] + [s], t) <= MERGE_LOSS for t in runs[-1] + [s]):
            runs[-1].append(s)
        else:
            runs.append([s])
    return [(0,)] + [tuple(r) for r in runs] + [(n - 1,)]


def _box_sums(fc: Cells, seats) -> np.ndarray:
    """Per box x choice, the weighted loss sums over ``seats``."""
    key, nb = box_keys(fc)
    w = fc.weight
    sums = np.zeros((nb, 3))
    for s in seats:
        at = fc.at_seat(s)
        for a in range(3):
            sums[:, a] += np.bincount(key[at], w[at] * fc.loss[at, a], nb)
    return sums


def _pooled_cost(fc: Cells, seats, seat: int) -> float:
    """Points per hand ``seat`` loses by following the pooled grid of ``seats`` instead of its own."""
    pooled = _box_sums(fc, seats)
    own = _box_sums(fc, [seat])
    choice = pooled.argmin(axis=1)
    total = float(fc.weight[fc.at_seat(seat)].sum())
    return float((own[np.arange(len(own)), choice] - own.min(axis=1)).sum() / total)


def box_keys(fc: Cells) -> tuple[np.ndarray, int]:
    """(per cell its box of the full grid, row * columns + column; the number of boxes)."""
    nc = len(fc.cols)
    return fc.feature("row").astype(np.int64) * nc + fc.feature("col"), len(fc.rows) * nc


def hand_text(mask: int) -> str:
    return " ".join(format_card(c) for c in range(64) if (int(mask) >> c) & 1)


def full_grid(fc: Cells, seats, title: str) -> Grid:
    """The grid of ``seats`` (pooled) by each choice's mean loss against each hand's own best (see the module
    docstring): what the report draws from every cell of a packed table; it pools any source the same way."""
    rows, cols = list(fc.rows), list(fc.cols)
    nc = len(cols)
    seats = tuple(int(s) for s in seats)
    idx = np.concatenate([fc.at_seat(s) for s in seats])
    keys, nb = box_keys(fc)
    key = keys[idx]
    w = fc.weight[idx]
    weight = np.bincount(key, w, nb)
    total = float(w.sum())
    loss = fc.loss[idx].astype(np.float64)
    known = fc.known[idx]
    half = fc.loss_half[idx].astype(np.float64)
    best_cell = fc.best[idx]
    sure = fc.sure[idx]
    mean_loss = np.stack([np.bincount(key, w * loss[:, a], nb) for a in range(3)], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_loss /= weight[:, None]
        # 95% half-width of each choice's mean loss (cells independent; a group table's cells of one group not)
        source = None if fc.source is None else fc.source[idx]
        loss_hw = np.stack([Z95 * quadrature(key, w * half[:, a] / Z95, nb, source) / weight
                            for a in range(3)], axis=1)
    # ties: a choice whose loss is known for more hands first (a lower bound ties with the margin it is bounded
    # by), then pass, play, Rumba
    unknown_share = np.stack([np.bincount(key, w * ~known[:, a], nb) for a in range(3)], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        unknown_share /= weight[:, None]
    rank = np.nan_to_num(mean_loss, nan=np.inf) + 1e-6 * np.nan_to_num(unknown_share) + np.arange(3)[None, :] * 1e-12
    order = np.argsort(rank, axis=1, kind="stable")
    box_best, box_runner = order[:, 0], order[:, 1]
    b, r = box_best[key], box_runner[key]
    rows_i = np.arange(len(idx))
    d = loss[rows_i, r] - loss[rows_i, b]
    # the paired half-width where one of the two is the cell's own best, else both added in quadrature
    h = np.where(best_cell == b, half[rows_i, r], np.where(best_cell == r, half[rows_i, b],
                                                            np.hypot(half[rows_i, r], half[rows_i, b])))
    with np.errstate(invalid="ignore", divide="ignore"):
        cost = np.bincount(key, w * d, nb) / weight
        cost_hw = Z95 * quadrature(key, w * h / Z95, nb, source) / weight
        agree = np.bincount(key, w * (best_cell == b), nb) / weight
        sure_other = np.bincount(key, w * (sure & (best_cell != b)), nb) / weight
        unknown = np.bincount(key, w * ~(known[rows_i, r] & known[rows_i, b]), nb) / weight
        by_best = np.stack([np.bincount(key, w * (best_cell == a), nb) for a in range(3)], axis=1) / weight[:, None]
        ps = fc.p_success[idx].astype(np.float64)
        ok = np.isfinite(ps) & (best_cell == ACTIONS.index(RUMBA))  # Rumba's success where it is each hand's best
        p_rumba = np.bincount(key, w * np.where(ok, ps, 0.0), nb) / np.bincount(key, w * ok, nb)
    shown = w > 0  # the cells the grid reads (not: impossible, or flemish with the jack of trump turned)
    cells = np.bincount(key, shown, nb).astype(np.int64)
    deals = np.bincount(key, fc.samples[idx] * shown, nb)
    # exchange: the weighted most frequent best count among the hands whose best is to play
    play = best_cell == ACTIONS.index(PLAY)
    k_sums = np.stack([np.bincount(key, w * (play & (fc.best_k[idx] == k)), nb) for k in range(5)], axis=1)
    examples = _examples(fc, key, w, best_cell, b, sure, idx)

    boxes = {}
    for i in np.flatnonzero(weight > 0):
        ri, ci = divmod(int(i), nc)
        a_best, a_run = ACTIONS[box_best[i]], ACTIONS[box_runner[i]]
        box = Box(rows[ri], cols[ci], int(cells[i]), int(deals[i]), float(weight[i]))
        box.best, box.runner = a_best, a_run
        box.values = {ACTIONS[a]: Interval(float(mean_loss[i, a]), float(mean_loss[i, a] - loss_hw[i, a]),
                                           float(mean_loss[i, a] + loss_hw[i, a])) for a in range(3)}
        box.margin = Interval(float(cost[i]), float(cost[i] - cost_hw[i]), float(cost[i] + cost_hw[i]))
        box.agree = float(agree[i])
        box.sure_other = float(sure_other[i])
        box.extra.update({
            "full": True, "share": float(weight[i] / total), "unknown": float(unknown[i]),
            "by_best": {ACTIONS[a]: float(by_best[i, a]) for a in range(3)},
            "examples": examples.get(int(i), []),
        })
        if math.isfinite(p_rumba[i]):
            box.extra["p_success"] = float(p_rumba[i])
        if k_sums[i].sum() > 0:
            box.extra["exchange"] = int(k_sums[i].argmax())
            box.extra["exchange_share"] = float(k_sums[i].max() / k_sums[i].sum())
            box.extra["exchange_by_k"] = {k: float(k_sums[i, k] / k_sums[i].sum()) for k in range(5)
                                          if k_sums[i, k] > 0}
            box.extra["play_share"] = float(by_best[i, ACTIONS.index(PLAY)])
        boxes[(rows[ri], cols[ci])] = box
    return Grid(title, rows, cols, ACTIONS, boxes, seats, "normal", quick=False,
                note=f"every hand, {len(idx):,} table cells")


def _examples(fc: Cells, key, w, best_cell, box_best_of_cell, sure, idx) -> dict[int, list[dict]]:
    """Per box: the most frequent hand whose own best is the box's choice, and the most frequent one the table
    is sure wants another choice (else the next most frequent of the box's choice)."""
    frame = pd.DataFrame({"key": key, "w": w, "agree": best_cell == box_best_of_cell,
                          "other": sure & (best_cell != box_best_of_cell), "cell": idx})
    frame = frame[frame["w"] > 0].sort_values(["key", "w", "cell"], ascending=[True, False, True])
    firsts = frame[frame["agree"]].drop_duplicates("key")
    others = frame[frame["other"]].drop_duplicates("key")
    seconds = frame[frame["agree"] & ~frame["cell"].isin(firsts["cell"])].drop_duplicates("key")
    out: dict[int, list[dict]] = {}
    for part in (firsts, others, seconds):
        for k, cell in zip(part["key"].to_numpy(), part["cell"].to_numpy()):
            got = out.setdefault(int(k), [])
            if len(got) < 2:
                got.append(_example(fc, int(cell)))
    return out


def _example(fc: Cells, cell: int) -> dict:
    hand, trump_rank, seat = fc.situation(cell)
    return {"hand": hand_text(hand), "trump": format_card(_trump_suit(fc) * SUIT_BITS + trump_rank),
            "seat": seat, "best": ACTIONS[int(fc.best[cell])],
            "runner": ACTIONS[int(fc.runner[cell])], "margin": float(fc.margin[cell]),
            "half": float(fc.margin_half[cell])}


def _trump_suit(fc: Cells) -> int:
    from ..tables.handclasses import enumerate_classes

    return enumerate_classes(fc.rules).trump_suit


# -- any source -------------------------------------------------------------------------------------------------
def grid(cells: Cells, seats, title: str, scenario: str = "normal", small: bool = False) -> Grid:
    """The grid of ``seats`` (pooled) from any source of cells (see the module docstring); a packed table holds
    only the normal scenario at the full rows and columns."""
    if cells.packed:
        if scenario != "normal" or small:
            raise ValueError(f"a packed table has no {scenario} {'small ' if small else ''}grid")
        return full_grid(cells, seats, title)
    return action_grid(cells.frame, cells.rules, title, seats, scenario, cells.quick, small)


def seat_groups(cells: Cells, scenario: str = "normal") -> list[tuple[int, ...]]:
    """First to speak, the middle seats (in runs that share a grid), the dealer."""
    if cells.packed:
        return seat_runs(cells)
    return frame_seat_groups(cells.frame, cells.rules, cells.players, cells.quick, scenario)


def seat_grids(cells: Cells, title_of=None) -> list[Grid]:
    """One grid per seat group (titles: ``title_of(seats, players)``, by default :func:`group_title`)."""
    title_of = title_of or group_title
    return [grid(cells, seats, title_of(seats, cells.players)) for seats in seat_groups(cells)]


# -- the knock strip -------------------------------------------------------------------------------------
@dataclass
class KnockStrip:
    """Per turned-card rank: knock blind, or look first (and then take the grid's action)."""

    boxes: list[Box]
    samples: int
    inner: int | None


def knock_strip(knock: pd.DataFrame) -> KnockStrip:
    """From knock values (tables.knock_values): gain = EV(no knock) - EV(knock), > 0: knocking is better."""
    out = []
    for _, r in knock.sort_values("trump_rank").iterrows():
        gain = Interval(float(r["gain"]), float(r["gain_low"]), float(r["gain_high"]))
        box = Box(shapes.rank_name(int(r["trump_rank"])), "", 1, int(r["samples"]), 1.0)
        box.values = {KNOCK: Interval(float(r["ev_knock"]), float(r["ev_knock_low"]), float(r["ev_knock_high"])),
                      LOOK: Interval(float(r["ev_no_knock"]), float(r["ev_no_knock_low"]),
                                     float(r["ev_no_knock_high"]))}
        if gain.mean > 0:
            box.best, box.runner, box.margin = KNOCK, LOOK, gain
        else:
            box.best, box.runner, box.margin = LOOK, KNOCK, Interval(-gain.mean, -gain.high, -gain.low)
        box.agree = 1.0
        box.extra["trump_rank"] = int(r["trump_rank"])
        if "p_success" in r:
            box.extra["p_success"] = float(r["p_success"])
        out.append(box)
    inner = int(knock["inner_samples"].iloc[0]) if "inner_samples" in knock else None
    return KnockStrip(out, int(knock["samples"].iloc[0]), inner)


ACTION_WORDS = {SIT: "pass", PLAY: "play", RUMBA: "Rumba", KNOCK: "knock", LOOK: "look first", "join": "join"}

__all__ = ["ACTION_WORDS", "MERGE_LOSS", "MIXED_SHARE", "Box", "Grid", "Interval", "KnockStrip", "action_grid",
           "box_of", "box_stats", "frame_seat_groups", "full_grid", "grid", "grid_for", "grids_differ", "group_title",
           "hand_text", "knock_strip", "mean_interval", "player_grids", "seat_grids", "seat_groups", "seat_runs",
           "short_title", "t95"]
