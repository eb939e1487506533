"""Action grids: the table's cells pooled into boxes of hands a player recognises (rows x columns of shapes.py).

A box's value of an action is the weighted mean of its cells' values (an average over the hands in it), its
best action the lowest of them, its **margin** (what a mistake costs) EV(second-best) - EV(best) in points per
hand. The 95% interval of a box mean:

- quick table (cells drawn at random, weight 1 each): the spread of the cells' values over the box,
  t-quantile x s / sqrt(n) (it contains the cells' Monte Carlo noise too); a box needs 2 cells;
- full table (every class of the box present): the cells' own Monte Carlo half-widths,
  1.96 x sqrt(sum w_i^2 (h_i / 1.96)^2) / sum w_i.

A box is **close** (hatched) when the interval of its margin includes 0 (or it has too few cells to tell),
and **mixed** (dotted) when not every cell in it has the box's action as its own best: ``ask`` may answer
differently for some hands of the box. Only a box that is neither tells every hand in it what ``ask`` says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import shapes
from .data import KNOCK, LOOK, PLAY, RUMBA, SIT, Z95, diff_half, scenario_actions, scenario_cells, values

MIXED_SHARE = 0.10  # full tables: a box is mixed when more than this share of its hands surely want another choice

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
        ``fullgrid.MIXED`` of the hands surely want another choice (a cell's noise alone does not make a box mixed)."""
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


def seat_groups(frame: pd.DataFrame, rules, players: int, quick: bool, scenario: str = "normal") -> list[tuple]:
    """First to speak, the middle seats, the dealer; middle seats split into runs where their grids differ."""
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
            for g in seat_groups(frame, rules, players, quick, scenario)]


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

__all__ = ["ACTION_WORDS", "Box", "Grid", "Interval", "KnockStrip", "action_grid", "box_of", "box_stats", "grid_for",
           "short_title",
           "group_title", "grids_differ", "knock_strip", "mean_interval", "player_grids", "seat_groups", "t95"]
