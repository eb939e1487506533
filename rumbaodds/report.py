"""The strategy report: charts and a one-page rule card read from strategy tables.

``rumbaodds report`` (``cli/report_cmd.py``) is a thin layer over this module.
Everything here except :func:`obtain_table` and :func:`make_report` is a pure
function of pandas frames, so it is tested on hand-made frames without
building a table.

Conventions (the same as the rest of rumbaodds):

- Scores count **down**: a negative expected change is good and the best
  choice has the lowest expected change. Every chart says so.
- A table row is a *cell* = (seat, trump rank, hand class). Aggregates are
  weighted by how often the hand occurs: the class ``weight`` in a full table.
  A quick table (``cells=N``) holds N (trump rank, class) pairs drawn with
  probability proportional to ``weight``, so there each drawn cell already
  stands for an equal share of all hands and gets weight 1 (weighting it
  again would count common hands twice).
- The table's choice for a cell is recomputed from its means: pass = 0 (not
  available when the jack of trump forces play), play = ``ev_play`` (best
  exchange), Rumba = ``ev_rumba``. For the swiss sit-out rule, the
  *third-pass* scenario values sitting out at ``ev_pass_penalised``, or 0
  when the hand may be thrown in (a throw-in is not a pass).

The rule card is fitted, per player count, by a small exhaustive search that
minimises the points a player gives away per hand by following the card
instead of the table (weighted mean of EV(card's choice) - EV(table's best)):

- call Rumba when ``n_trumps >= a and top_trump >= b``, or when
  ``hand_points >= p``, or never;
- otherwise sit out when ``hand_points < q`` (else play);
- swiss, pass number ``sit_out_limit`` in a row: sit out when ``hand_points < q3``;
- the dealer knocks when the turned card's rank is at least ``r`` (or never).

The search is scored on the same table it is fitted on; a 2-fold split of the
(trump rank, class) pairs gives the held-out figure reported next to it.
"""

from __future__ import annotations

import base64
import html
import io
import json
import shlex
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from .cards import RANKS
from .models import OpponentModel, get_model
from .rules import RulesError, RuleSet, get_rules

if TYPE_CHECKING:  # matplotlib is imported when a chart is drawn (keeps the CLI quick to start)
    from matplotlib.figure import Figure

# -- budget -------------------------------------------------------------------------------
QUICK_CELLS = 3_000  # (trump rank, class) pairs per seat in a quick table
QUICK_SAMPLES = 150  # deals per cell
QUICK_KNOCK_SAMPLES = 400  # deals per trump rank for knock.parquet
QUICK_KNOCK_INNER = 50  # inner deals per deal for the no-knock choice
QUICK_CHUNK = 2_500  # cells per chunk file (fixed: a resumed build must use the same chunks)
FULL_SAMPLES = 1_000
REPORT_MODELS = ("default", "cautious", "bold")
MODEL_PLAYERS = {"swiss": 5, "flemish": 4}  # the usual table for the opponent-model comparison
COUNT_DOWN = "Scores count down: a negative change is good, the best choice has the lowest expected change."
MIN_CELLS = 3  # a heatmap box or a point of a line needs at least this many cells
DPI = 90
KINDS = ("pass", "rumba", "play")  # tie order of the table kernel: pass, Rumba, play

COLUMNS = ["seat", "trump_rank", "class_row", "weight", "n_trumps", "top_trump", "side_aces", "side_kings",
           "hand_points", "throw_in_allowed", "ev_pass_penalised", "ev_rumba", "ev_rumba_half", "p_success",
           "ev_play", "ev_play_half", "samples", "tries"]


class ReportError(RulesError):
    """Bad report input (player range, model list, ...); the message says why."""


@dataclass(frozen=True)
class Budget:
    """The sample budget of quick tables the report builds when none is found."""

    cells: int = QUICK_CELLS
    samples_per_cell: int = QUICK_SAMPLES
    knock_samples: int = QUICK_KNOCK_SAMPLES
    knock_inner: int = QUICK_KNOCK_INNER
    seed: int = 0
    play: str = "expert"

    def __post_init__(self) -> None:
        for name in ("cells", "samples_per_cell", "knock_samples", "knock_inner"):
            if getattr(self, name) < (2 if name == "samples_per_cell" else 1):
                raise ReportError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")


# -- small helpers ------------------------------------------------------------------------
def rank_name(rank: int) -> str:
    """Rank index to the printed rank: 8 -> '10', 12 -> 'A'."""
    letter = RANKS[int(rank)]
    return "10" if letter == "T" else letter


def parse_players(text: str | None, rules: RuleSet) -> list[int]:
    """'3-7', '5', '3,5,7' (None: every count the rule set allows) -> sorted player counts."""
    if text is None or not str(text).strip():
        return list(range(rules.min_players, rules.max_players + 1))
    out: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                out.update(range(lo, hi + 1))
            else:
                out.add(int(part))
        except ValueError:
            raise ReportError(f"--players: {part!r} is not a number or a range such as 3-7") from None
    if not out:
        raise ReportError(f"--players: {text!r} names no player count")
    for n in sorted(out):
        rules.check_players(n)
    return sorted(out)


def model_players(rules: RuleSet, players: Sequence[int]) -> int:
    """The player count of the opponent-model comparison: 5 swiss, 4 flemish, else the middle one."""
    wanted = MODEL_PLAYERS.get(rules.name, (rules.min_players + rules.max_players + 1) // 2)
    if wanted in players or not players:
        return wanted
    return min(players, key=lambda n: (abs(n - wanted), n))


def quick_table(manifest: dict) -> bool:
    """Was this table built from a weighted-random subset of cells?"""
    from .handclasses import enumerate_trump_rank_pairs

    cells = manifest.get("cells")
    if cells is None:
        return False
    rules = RuleSet(**manifest["rules"])
    return int(cells) < len(enumerate_trump_rank_pairs(rules))


def seat_label(seat: int, players: int) -> str:
    if seat == 0:
        return "seat 0 (first)"
    if seat == players - 1:
        return f"seat {seat} (dealer)"
    return f"seat {seat}"


# -- preparing a table frame --------------------------------------------------------------
def prepare(frame: pd.DataFrame, rules: RuleSet, subset: bool = False) -> pd.DataFrame:
    """The table frame with the report's columns added (see the module docstring).

    ``w`` (analysis weight), ``ev_sit`` / ``ev_sit_third`` (sitting out; inf when not allowed),
    ``choice`` / ``choice_third`` (the table's best kind), ``ev_best`` / ``ev_best_third``,
    ``ev_other`` (best choice other than Rumba) and ``rumba_edge`` = EV(Rumba) - EV(best other).
    """
    f = frame.copy()
    if "tries" in f:
        f = f[f["tries"] >= 0]
    f = f.reset_index(drop=True)
    f["w"] = 1.0 if subset else f["weight"].astype(float)
    pass_ok = np.ones(len(f), dtype=bool)
    if rules.jack_of_trump_forces_play:
        pass_ok &= f["trump_rank"].to_numpy() != RANKS.index("J")
    throw = f["throw_in_allowed"].to_numpy(dtype=bool) if "throw_in_allowed" in f else np.zeros(len(f), bool)
    f["ev_sit"] = np.where(pass_ok | throw, 0.0, np.inf)
    if rules.sit_out_limit > 0:
        penalised = np.where(pass_ok, f["ev_pass_penalised"].to_numpy(dtype=float), np.inf)
        f["ev_sit_third"] = np.where(throw, np.minimum(0.0, penalised), penalised)
    else:
        f["ev_sit_third"] = f["ev_sit"]
    play = f["ev_play"].to_numpy(dtype=float)
    rumba = f["ev_rumba"].to_numpy(dtype=float)
    for suffix, sit in (("", f["ev_sit"].to_numpy()), ("_third", f["ev_sit_third"].to_numpy())):
        values = np.stack([sit, rumba, play], axis=1)
        best = values.argmin(axis=1)  # first minimum: pass, then Rumba, then play (the kernel's order)
        f[f"choice{suffix}"] = np.array(KINDS)[best]
        f[f"ev_best{suffix}"] = values[np.arange(len(f)), best]
    f["ev_other"] = np.minimum(f["ev_sit"].to_numpy(), play)
    f["rumba_edge"] = rumba - f["ev_other"].to_numpy()
    f["rumba_best"] = (f["choice"] == "rumba").astype(float)
    f["sit_best"] = (f["choice"] == "pass").astype(float)
    f["sit_best_third"] = (f["choice_third"] == "pass").astype(float)
    return f


def grouped(frame: pd.DataFrame, by: str | list[str], value: str, min_cells: int = 1) -> pd.DataFrame:
    """Weighted mean of ``value`` per group: columns ``by``, ``value``, ``cells``, ``weight``."""
    keys = [by] if isinstance(by, str) else list(by)
    if frame.empty:
        return pd.DataFrame(columns=[*keys, value, "cells", "weight"])
    g = frame.assign(_wv=frame[value] * frame["w"]).groupby(keys, sort=True)
    out = pd.DataFrame({"_wv": g["_wv"].sum(), "weight": g["w"].sum(), "cells": g["w"].size()})
    out[value] = out["_wv"] / out["weight"]
    out = out[out["cells"] >= min_cells].reset_index()
    return out[[*keys, value, "cells", "weight"]]


def weighted_share(frame: pd.DataFrame, mask) -> float:
    w = frame["w"].to_numpy()
    total = w.sum()
    return float((w * np.asarray(mask, dtype=float)).sum() / total) if total > 0 else float("nan")


def honours(aces: int, kings: int) -> str:
    """Side aces and kings as a short label: 'AAK', 'none'."""
    text = "A" * int(aces) + "K" * int(kings)
    return text or "none"


# -- the rule card ------------------------------------------------------------------------
@dataclass(frozen=True)
class RumbaRule:
    """``never``; ``trumps``: n_trumps >= a and top_trump >= b; ``points``: hand_points >= p."""

    kind: str = "never"
    a: int = 0
    b: int = 0
    p: int = 0

    def fires(self, frame: pd.DataFrame) -> np.ndarray:
        if self.kind == "never":
            return np.zeros(len(frame), dtype=bool)
        if self.kind == "trumps":
            return (frame["n_trumps"].to_numpy() >= self.a) & (frame["top_trump"].to_numpy() >= self.b)
        return frame["hand_points"].to_numpy() >= self.p

    def text(self, rules: RuleSet | None = None) -> str:
        if self.kind == "never":
            return "never"
        if self.kind == "points":
            return f"your hand is worth {self.p}+ points"
        trumps = f"you hold {self.a}+ trump{'s' if self.a > 1 else ''}"
        lowest = RANKS.index(rules.ranks[0]) if rules is not None else 0
        if self.b <= lowest + self.a - 1:  # any a trumps have a top trump this high
            return trumps
        return f"{trumps}, the highest {rank_name(self.b)} or better"


def rumba_rules(rules: RuleSet, max_points: int) -> list[RumbaRule]:
    """The searched family: never, every (a, b) and every points threshold, simplest first."""
    ranks = [RANKS.index(r) for r in rules.ranks]
    out = [RumbaRule()]
    out += [RumbaRule("trumps", a=a, b=b) for a in range(1, rules.hand_size + 1) for b in ranks]
    out += [RumbaRule("points", p=p) for p in range(1, max_points + 2)]
    return out


@dataclass(frozen=True)
class Fit:
    """A fitted card for one scenario: its rule, agreement with the table and points given away."""

    rumba: RumbaRule
    sit_below: int  # sit out when hand_points < sit_below (0: never)
    agreement: float  # weighted share of hands where the card's choice is the table's best
    points_lost: float  # weighted mean of EV(card's choice) - EV(table's best), points per hand (>= 0)


def card_choices(frame: pd.DataFrame, rumba: RumbaRule, sit_below: int, third: bool = False) -> np.ndarray:
    """The card's choice per cell: 'rumba', 'pass' (sit out) or 'play'."""
    sit_col = "ev_sit_third" if third else "ev_sit"
    sit = (frame["hand_points"].to_numpy() < sit_below) & np.isfinite(frame[sit_col].to_numpy())
    return np.where(rumba.fires(frame), "rumba", np.where(sit, "pass", "play"))


def evaluate_card(frame: pd.DataFrame, rumba: RumbaRule, sit_below: int, third: bool = False) -> Fit:
    """Agreement and points lost of a card on a prepared frame (weighted by ``w``)."""
    suffix = "_third" if third else ""
    choice = card_choices(frame, rumba, sit_below, third)
    value = np.select([choice == "rumba", choice == "pass"],
                      [frame["ev_rumba"].to_numpy(), frame[f"ev_sit{suffix}"].to_numpy()],
                      frame["ev_play"].to_numpy())
    w = frame["w"].to_numpy()
    lost = float((w * (value - frame[f"ev_best{suffix}"].to_numpy())).sum() / w.sum())
    agree = float((w * (choice == frame[f"choice{suffix}"].to_numpy())).sum() / w.sum())
    return Fit(rumba, sit_below, agree, lost)


def _losses(frame: pd.DataFrame, third: bool):
    suffix = "_third" if third else ""
    best = frame[f"ev_best{suffix}"].to_numpy()
    choice = frame[f"choice{suffix}"].to_numpy()
    sit = frame[f"ev_sit{suffix}"].to_numpy()
    loss_p = frame["ev_play"].to_numpy() - best
    agree_p = (choice == "play").astype(float)
    can_sit = np.isfinite(sit)
    loss_s = np.where(can_sit, sit - best, loss_p)  # the card's "sit out" means play where passing is barred
    agree_s = np.where(can_sit, choice == "pass", choice == "play").astype(float)
    loss_r = frame["ev_rumba"].to_numpy() - best
    agree_r = (choice == "rumba").astype(float)
    return loss_r, agree_r, loss_s, agree_s, loss_p, agree_p


def _best_q(w, hp, mask, loss_s, agree_s, loss_p, agree_p, n_bins):
    """For cells in ``mask``: the sit-out threshold q (sit when hp < q) with the least weighted loss."""
    ww = w * mask
    s = np.bincount(hp, ww * loss_s, n_bins)
    p = np.bincount(hp, ww * loss_p, n_bins)
    sa = np.bincount(hp, ww * agree_s, n_bins)
    pa = np.bincount(hp, ww * agree_p, n_bins)
    zero = np.zeros(1)
    loss = np.concatenate([zero, np.cumsum(s)]) + (p.sum() - np.concatenate([zero, np.cumsum(p)]))
    agree = np.concatenate([zero, np.cumsum(sa)]) + (pa.sum() - np.concatenate([zero, np.cumsum(pa)]))
    # q = 0 .. n_bins; least loss, then most agreement, then the smallest q
    q = int(np.lexsort((np.arange(len(loss)), -np.round(agree, 9), np.round(loss, 9)))[0])
    return q, loss[q], agree[q]


def search_card(frame: pd.DataFrame, rules: RuleSet, third_rumba: RumbaRule | None = None,
                third: bool = False, sit_only: bool = False) -> Fit:
    """The card (Rumba rule and sit-out threshold) with the fewest points lost on ``frame``.

    ``third``: the third-pass scenario, with the Rumba rule fixed to ``third_rumba``.
    """
    hp = frame["hand_points"].to_numpy().astype(np.int64)
    n_bins = int(hp.max()) + 1 if len(hp) else 1
    w = frame["w"].to_numpy(dtype=float)
    total = w.sum()
    loss_r, agree_r, loss_s, agree_s, loss_p, agree_p = _losses(frame, third)
    candidates = [third_rumba] if third_rumba is not None else rumba_rules(rules, n_bins)
    best_key, best_fit = None, None
    for order, rule in enumerate(candidates):
        fires = rule.fires(frame)
        rest = (~fires).astype(float)
        q, loss, agree = _best_q(w, hp, rest, loss_s, agree_s, loss_p, agree_p, n_bins)
        loss += float((w * fires * loss_r).sum())
        agree += float((w * fires * agree_r).sum())
        key = (round(loss / total, 9), -round(agree / total, 9), order)
        if best_key is None or key < best_key:
            best_key, best_fit = key, Fit(rule, q, agree / total, loss / total)
    return best_fit


def call_threshold(frame: pd.DataFrame) -> int | None:
    """Hand points from which calling Rumba loses the fewest points (other hands: the table's best other choice).

    None when never calling is best.
    """
    hp = frame["hand_points"].to_numpy().astype(np.int64)
    w = frame["w"].to_numpy(dtype=float)
    loss_r = frame["ev_rumba"].to_numpy() - frame["ev_best"].to_numpy()
    loss_o = frame["ev_other"].to_numpy() - frame["ev_best"].to_numpy()
    n_bins = int(hp.max()) + 2 if len(hp) else 2
    r = np.bincount(hp, w * loss_r, n_bins)
    o = np.bincount(hp, w * loss_o, n_bins)
    # rumba from p on: sum_{h<p} o + sum_{h>=p} r, p = 0 .. n_bins (n_bins: never)
    zero = np.zeros(1)
    loss = np.concatenate([zero, np.cumsum(o)]) + (r.sum() - np.concatenate([zero, np.cumsum(r)]))
    p = int(np.argmin(np.round(loss[::-1], 9)))  # ties: the highest threshold (call least)
    p = len(loss) - 1 - p
    return None if p >= n_bins else p


@dataclass(frozen=True)
class KnockFit:
    from_rank: int | None  # knock when the turned card ranks at least this; None: never
    agreement: float  # share of trump ranks where the card picks the better of knock / no knock
    points_lost: float  # mean over trump ranks (each equally likely) of EV(card) - EV(better), points

    def text(self) -> str:
        if self.from_rank is None:
            return "never"
        return f"the turned card is {rank_name(self.from_rank)} or higher"


def search_knock(knock: pd.DataFrame) -> KnockFit:
    """Knock when trump rank >= r, r searched (or never), least mean points lost over the ranks."""
    k = knock.sort_values("trump_rank")
    ranks = k["trump_rank"].to_numpy()
    ek, en = k["ev_knock"].to_numpy(dtype=float), k["ev_no_knock"].to_numpy(dtype=float)
    best = np.minimum(ek, en)
    knock_better = ek < en
    fits = []
    for r in [None, *ranks[::-1]]:  # never first, then from the highest rank down (ties: knock least)
        knocks = np.zeros(len(ranks), bool) if r is None else ranks >= r
        value = np.where(knocks, ek, en)
        fits.append(KnockFit(None if r is None else int(r), float((knocks == knock_better).mean()),
                             float((value - best).mean())))
    return min(fits, key=lambda f: round(f.points_lost, 9))


@dataclass
class RuleCard:
    """The fitted card for one player count."""

    players: int
    normal: Fit
    heldout_points_lost: float | None = None
    third: Fit | None = None  # swiss: the pass that reaches the sit-out limit
    knock: KnockFit | None = None
    cells: int = 0

    def lines(self, rules: RuleSet) -> list[str]:
        out = [f"Call Rumba when {self.normal.rumba.text(rules)}."]
        out.append(f"Sit out when {_below(self.normal.sit_below)}." if self.normal.sit_below > 0
                   else "Never sit out: always play.")
        if self.third is not None:
            behind = f"After {rules.sit_out_limit - 1} passes in a row (the next costs {rules.sit_out_penalty})"
            out.append(f"{behind}: sit out only when {_below(self.third.sit_below)}." if self.third.sit_below > 0
                       else f"{behind}: always play, or throw in if you may.")
        if self.knock is not None:
            out.append("Dealer: never knock." if self.knock.from_rank is None
                       else f"Dealer: knock when {self.knock.text()}.")
        return out


def _below(q: int) -> str:
    return "your hand is worth 0 points" if q == 1 else f"your hand is worth less than {q} points"


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _folds(frame: pd.DataFrame) -> np.ndarray:
    """A fixed 2-fold split of the (trump rank, class) pairs (all seats of a pair in one fold)."""
    if "class_row" in frame:
        key = frame["trump_rank"].to_numpy().astype(np.uint64) * np.uint64(10_000_019) + \
            frame["class_row"].to_numpy().astype(np.uint64)
    else:
        key = np.arange(len(frame), dtype=np.uint64)
    key = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
    return (key & np.uint64(1)).astype(np.int64)


def heldout_loss(frame: pd.DataFrame, rules: RuleSet) -> float | None:
    """Points lost by a card fitted on one half of the pairs and scored on the other (both ways)."""
    fold = _folds(frame)
    total, weight = 0.0, 0.0
    for k in (0, 1):
        fit_on, test_on = frame[fold == k], frame[fold != k]
        if fit_on.empty or test_on.empty:
            return None
        fit = search_card(fit_on, rules)
        scored = evaluate_card(test_on, fit.rumba, fit.sit_below)
        w = test_on["w"].sum()
        total += scored.points_lost * w
        weight += w
    return total / weight


def rule_card(frame: pd.DataFrame, rules: RuleSet, players: int, knock: pd.DataFrame | None = None) -> RuleCard:
    """Fit the card for one player count on a prepared frame (and its knock table, if any)."""
    normal = search_card(frame, rules)
    third = search_card(frame, rules, third_rumba=normal.rumba, third=True) if rules.sit_out_limit > 0 else None
    kfit = search_knock(knock) if (knock is not None and rules.knock and len(knock)) else None
    return RuleCard(players, normal, heldout_loss(frame, rules), third, kfit, len(frame))


# -- charts -------------------------------------------------------------------------------
def _mpl():
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    return matplotlib


def new_figure(width: float, height: float) -> Figure:
    """A matplotlib Figure on the Agg canvas (no pyplot, no global state)."""
    _mpl()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _footer(fig: Figure, note: str) -> None:
    """Sample counts and the sign convention under the charts, wrapped to the figure's width."""
    width = max(60, int(fig.get_figwidth() * 14.5))
    text = "\n".join(textwrap.wrap(note, width) + textwrap.wrap(COUNT_DOWN, width))
    fig.supxlabel(text, fontsize=8.5, color="#333333")


def _title(fig: Figure, title: str) -> None:
    width = max(40, int(fig.get_figwidth() * 8))
    fig.suptitle("\n".join(textwrap.wrap(title, width)), fontsize=13, fontweight="bold")


def fig_png(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes (Agg), reduced to a 256-colour palette to keep reports small."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    try:
        from PIL import Image

        img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        small = io.BytesIO()
        img.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
            small, format="PNG", optimize=True)
        if small.tell() < buf.tell():
            return small.getvalue()
    except Exception:  # pragma: no cover - Pillow missing or failing: keep the plain PNG
        pass
    return buf.getvalue()


def _heatmap(ax, fig, grid: pd.DataFrame, title: str, label: str, fmt: str, cmap: str, vmin: float, vmax: float,
             xlabel: str, ylabel: str, xrot: float = 0):
    if grid.size == 0:  # too few cells for any box: an empty (grey) map that still says what it is
        grid = pd.DataFrame([[np.nan]], index=["-"], columns=["-"])
    data = np.ma.masked_invalid(grid.to_numpy(dtype=float))
    cm = _mpl().colormaps[cmap].with_extremes(bad="#e8e8e8")
    im = ax.imshow(data, origin="lower", aspect="auto", cmap=cm, vmin=vmin, vmax=vmax)
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns], rotation=xrot,
                  ha="right" if xrot else "center", rotation_mode="anchor" if xrot else "default")
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if grid.shape[1] > 10 and fmt.endswith(".1f"):  # many boxes: whole points fit, tenths would overlap
        fmt = fmt[:-3] + ".0f"
    span = vmax - vmin
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            v = data[i, j]
            if v is np.ma.masked:
                continue
            rel = (v - vmin) / span if span else 0.5
            dark = rel < 0.25 or rel > 0.75 if cmap.startswith("RdBu") else rel < 0.45
            ax.text(j, i, format(v, fmt), ha="center", va="center", fontsize=7,
                    color="white" if dark else "black")
    bar = fig.colorbar(im, ax=ax, shrink=0.9)
    bar.set_label(label, fontsize=8)
    return im


def _grid(frame, rows, cols, value, min_cells, scale=1.0, col_order=None):
    g = grouped(frame, [rows, cols], value, min_cells)
    grid = g.pivot(index=rows, columns=cols, values=value) * scale
    if col_order is not None:
        grid = grid.reindex(columns=[c for c in col_order if c in grid.columns])
    return grid


def _edge_limit(*grids) -> float:
    vals = np.concatenate([np.abs(g.to_numpy(dtype=float)).ravel() for g in grids if g.size] or [np.zeros(1)])
    vals = vals[np.isfinite(vals)]
    return float(min(12.0, max(1.0, np.ceil(vals.max())))) if len(vals) else 1.0


def _seat_lines(ax, frame, players, value, scale, min_cells, ylabel, title):
    colors = _mpl().colormaps["tab10"]
    for seat in range(players):
        g = grouped(frame[frame["seat"] == seat], "hand_points", value, min_cells)
        if g.empty:
            continue
        ax.plot(g["hand_points"], g[value] * scale, marker="o", ms=2.5, lw=1.3, color=colors(seat % 10),
                label=seat_label(seat, players))
    _points_axis(ax)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)


def _legend(ax, **kwargs) -> None:
    """A legend where there is something to name (a chart with too few cells may have no lines)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kwargs)


def _points_axis(ax) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.set_xlabel("hand points (sum of keep values)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def sample_note(cells_per_seat: int, seats: int, samples: int, quick: bool) -> str:
    kind = "quick table: weighted-random cells" if quick else "full table: every cell"
    return (f"{cells_per_seat:,} cells per seat x {seats} seats = {cells_per_seat * seats:,} cells, "
            f"{samples:,} deals per cell ({kind}; a cell = seat, trump rank, hand class).")


def call_chart(frame: pd.DataFrame, rules: RuleSet, players: int, note: str, min_cells: int = MIN_CELLS) -> Figure:
    """When to call Rumba at one player count: success and Rumba's edge over hand features and seats."""
    fig = new_figure(14, 8.6)
    axs = fig.subplots(2, 3)
    ranks = [RANKS.index(r) for r in rules.ranks]
    with_trumps = frame[frame["n_trumps"] > 0]
    ps = _grid(with_trumps, "n_trumps", "top_trump", "p_success", min_cells, 100.0, ranks)
    edge = _grid(with_trumps, "n_trumps", "top_trump", "rumba_edge", min_cells, 1.0, ranks)
    capped = zip(frame["side_aces"].clip(upper=2), frame["side_kings"].clip(upper=2), strict=True)
    hon = frame.assign(honours=[honours(a, k) for a, k in capped])
    hon_order = sorted(set(hon["honours"]), key=lambda s: (3 * s.count("A") + s.count("K"), s))
    edge_h = _grid(hon, "n_trumps", "honours", "rumba_edge", min_cells, 1.0, hon_order)
    for g in (ps, edge):
        g.columns = [rank_name(c) for c in g.columns]
    lim = _edge_limit(edge, edge_h)
    blank = f"grey: fewer than {min_cells} cells"
    _heatmap(axs[0, 0], fig, ps, f"P(Rumba succeeds), all seats ({blank})", "P(success), % of hands", ".0f",
             "viridis", 0, 100, "highest trump held", "number of trumps held (cards)")
    _heatmap(axs[0, 1], fig, edge, "EV(Rumba) - EV(best other choice), all seats",
             "points per hand (negative: Rumba better)", "+.1f", "RdBu_r", -lim, lim,
             "highest trump held", "number of trumps held (cards)")
    _heatmap(axs[0, 2], fig, edge_h, "Same edge by side aces (A) and kings (K) held",
             "points per hand (negative: Rumba better)", "+.1f", "RdBu_r", -lim, lim,
             "side aces (A) and kings (K) held (3 counted as 2)", "number of trumps held (cards)", xrot=40)
    _seat_lines(axs[1, 0], frame, players, "p_success", 100.0, min_cells, "P(Rumba succeeds), % of hands",
                "P(success) by hand points and seat")
    axs[1, 0].set_ylim(0, 100)
    _seat_lines(axs[1, 1], frame, players, "rumba_edge", 1.0, min_cells,
                "EV(Rumba) - EV(best other), points per hand", "Rumba's edge by hand points and seat")
    axs[1, 1].axhline(0, color="black", lw=0.8)
    axs[1, 1].text(0.02, 0.03, "below 0: calling Rumba is better", transform=axs[1, 1].transAxes, fontsize=8)
    _seat_lines(axs[1, 2], frame, players, "rumba_best", 100.0, min_cells, "hands where Rumba is best, %",
                "Share of hands where Rumba is the best choice")
    axs[1, 2].set_ylim(-2, 102)
    _legend(axs[1, 0], fontsize=7.5, loc="upper left", title="speaking seat", title_fontsize=7.5)
    _title(fig, f"{rules.name}, {players} players: when to call Rumba")
    _footer(fig, note)
    return fig


def knock_chart(knocks: dict[int, pd.DataFrame], rules: RuleSet, note: str) -> Figure:
    """The dealer's knock: EV of knocking blind against looking first, by trump rank and player count."""
    from matplotlib.lines import Line2D

    fig = new_figure(13.5, 5.2)
    ax0, ax1 = fig.subplots(1, 2)
    colors = _mpl().colormaps["tab10"]
    ranks = [RANKS.index(r) for r in rules.ranks]
    handles = []
    for i, (players, k) in enumerate(sorted(knocks.items())):
        k = k.sort_values("trump_rank")
        c = colors(i % 10)
        x = k["trump_rank"].to_numpy()
        ax0.plot(x, k["ev_knock"], color=c, marker="o", ms=3, lw=1.5)
        ax0.plot(x, k["ev_no_knock"], color=c, ls="--", lw=1.2)
        diff = -k["gain"].to_numpy()
        low, high = -k["gain_high"].to_numpy(), -k["gain_low"].to_numpy()
        ax1.errorbar(x + (i - (len(knocks) - 1) / 2) * 0.08, diff, yerr=np.abs(np.vstack([diff - low, high - diff])),
                     color=c, marker="o", ms=3, lw=1.3, capsize=2)
        handles.append(Line2D([], [], color=c, marker="o", ms=3, label=f"{players} players"))
    handles += [Line2D([], [], color="grey", lw=1.5, label="knock (left)"),
                Line2D([], [], color="grey", ls="--", lw=1.2, label="no knock (left)")]
    for ax in (ax0, ax1):
        ax.set_xticks(ranks, [rank_name(r) for r in ranks])
        ax.set_xlabel("rank of the turned trump card")
        ax.grid(alpha=0.3)
    ax0.set_ylabel("dealer's expected score change, points per hand")
    ax0.set_title("EV(knock) (solid) and EV(no knock: look, then best choice) (dashed)", fontsize=10)
    ax1.axhline(0, color="black", lw=0.8)
    ax1.set_ylabel("EV(knock) - EV(no knock), points per hand")
    ax1.set_title("Knocking minus not knocking, 95% intervals (below 0: knock)", fontsize=10)
    fig.legend(handles=handles, loc="outside right center", fontsize=8, title="players", title_fontsize=8)
    _title(fig, f"{rules.name}: should the dealer knock?")
    _footer(fig, note)
    return fig


def sitout_chart(frames: dict[int, pd.DataFrame], rules: RuleSet, note: str,
                 cards: dict[int, RuleCard] | None = None, min_cells: int = MIN_CELLS) -> Figure:
    """Where passing beats playing, by hand points and seat (swiss: also the penalised pass)."""
    from matplotlib.lines import Line2D

    n = len(frames)
    fig = new_figure(12, 2.55 * n + 1.3)
    axs = fig.subplots(n, 2, squeeze=False).T  # axs[0, j]: EV of playing, axs[1, j]: share sitting out
    third = rules.sit_out_limit > 0
    nth = _ordinal(rules.sit_out_limit) if third else ""
    colors = _mpl().colormaps["tab10"]
    for j, (players, f) in enumerate(sorted(frames.items())):
        ax = axs[0, j]
        _seat_lines(ax, f, players, "ev_play", 1.0, min_cells, "EV(play), points per hand",
                    f"{players} players: EV of playing, best exchange (above a line: passing is better)")
        ax.axhline(0, color="black", lw=1)
        if third:
            pen = float((f["ev_pass_penalised"] * f["w"]).sum() / f["w"].sum())
            ax.axhline(pen, color="crimson", lw=1, ls="--")
            ax.annotate(f"{nth} pass {pen:+.1f}", (1, pen), xycoords=("axes fraction", "data"), xytext=(-2, -3),
                        textcoords="offset points", ha="right", va="top", fontsize=7.5, color="crimson")
        ax = axs[1, j]
        g = grouped(f, "hand_points", "sit_best", min_cells)
        ax.plot(g["hand_points"], g["sit_best"] * 100, color="black", marker="o", ms=3)
        if third:
            g3 = grouped(f, "hand_points", "sit_best_third", min_cells)
            ax.plot(g3["hand_points"], g3["sit_best_third"] * 100, color="crimson", ls="--", marker="s", ms=3)
        if cards and players in cards and cards[players].normal.sit_below > 0:
            q = cards[players].normal.sit_below
            ax.axvline(q - 0.5, color="grey", ls=":")
            ax.annotate(f"card: below {q}", (q - 0.5, 50), xytext=(3, 0), textcoords="offset points",
                        fontsize=7.5, color="dimgrey")
        ax.set_ylim(-2, 102)
        _points_axis(ax)
        ax.set_ylabel("share of hands, %")
        ax.set_title(f"{players} players: hands where sitting out is best (all seats)", fontsize=10)
        ax.grid(alpha=0.3)
    most = max(frames) if frames else 0
    handles = [Line2D([], [], color=colors(s % 10), marker="o", ms=3, label=f"seat {s}") for s in range(most)]
    handles += [Line2D([], [], color="black", lw=1, label="pass: 0 (left)")]
    if third:
        handles += [Line2D([], [], color="crimson", ls="--", lw=1, label=f"{nth} pass in a row (left)")]
    handles += [Line2D([], [], color="black", marker="o", ms=3, label="usual pass (right)")]
    if third:
        handles += [Line2D([], [], color="crimson", ls="--", marker="s", ms=3,
                           label=f"{nth} pass in a row,\nthrow in if allowed (right)")]
    if cards:
        handles += [Line2D([], [], color="grey", ls=":", label="the rule card's\nsit-out threshold")]
    fig.legend(handles=handles, loc="outside right center", fontsize=8,
               title="seat 0 speaks first,\nthe last seat deals", title_fontsize=8)
    _title(fig, f"{rules.name}: when to sit out")
    _footer(fig, note)
    return fig


def model_chart(frames: dict[str, pd.DataFrame], rules: RuleSet, players: int, note: str,
                min_cells: int = MIN_CELLS) -> Figure:
    """How the answers move with the opponent model, at one player count."""
    fig = new_figure(14, 5.2)
    ax0, ax1, ax2 = fig.subplots(1, 3)
    colors = {"default": "tab:blue", "cautious": "tab:green", "bold": "tab:red"}
    shares = {}
    for i, (name, f) in enumerate(frames.items()):
        c = colors.get(name, _mpl().colormaps["tab10"](i % 10))
        p = call_threshold(f)
        label = f"{name} (call at {p}+ points)" if p is not None else f"{name} (never call)"
        g = grouped(f, "hand_points", "rumba_best", min_cells)
        ax0.plot(g["hand_points"], g["rumba_best"] * 100, color=c, marker="o", ms=3, label=label)
        if p is not None:
            ax0.axvline(p - 0.5, color=c, ls=":", lw=1.2)
        g = grouped(f, "hand_points", "sit_best", min_cells)
        ax1.plot(g["hand_points"], g["sit_best"] * 100, color=c, marker="o", ms=3, label=name)
        shares[name] = [100 * weighted_share(f, f["choice"] == k) for k in ("pass", "play", "rumba")]
    ax0.set_title("Rumba is best (dotted: call threshold)", fontsize=10)
    ax1.set_title("Sitting out is best", fontsize=10)
    for ax in (ax0, ax1):
        _points_axis(ax)
        ax.set_ylabel("share of hands, %")
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
        _legend(ax, fontsize=7.5, title="opponent model", title_fontsize=7.5)
    x = np.arange(3)
    width = 0.8 / max(1, len(shares))
    for i, (name, vals) in enumerate(shares.items()):
        bars = ax2.bar(x + (i - (len(shares) - 1) / 2) * width, vals, width, label=name,
                       color=colors.get(name, _mpl().colormaps["tab10"](i % 10)))
        ax2.bar_label(bars, fmt="%.0f", fontsize=7)
    ax2.set_xticks(x, ["sit out", "play", "Rumba"])
    ax2.set_xlabel("the table's best choice")
    ax2.set_ylabel("share of all hands (weighted), %")
    ax2.set_title("How often each choice is best", fontsize=10)
    ax2.legend(fontsize=7.5, title="opponent model", title_fontsize=7.5)
    _title(fig, f"{rules.name}, {players} players: how the answers move with the opponents' style")
    _footer(fig, note)
    return fig


# -- HTML ---------------------------------------------------------------------------------
@dataclass
class Chart:
    name: str  # file stem of the PNG
    title: str
    caption: str
    png: bytes


@dataclass
class TableInfo:
    players: int
    model: str
    cells_per_seat: int
    samples: int
    quick: bool
    path: str
    knock_samples: int | None = None
    knock_inner: int | None = None


@dataclass
class ReportData:
    rules: RuleSet
    cards: list[RuleCard]
    charts: list[Chart]
    tables: list[TableInfo]
    command: str
    full_commands: list[str]
    hand_points_text: str
    generated: str = ""
    notes: list[str] = field(default_factory=list)


CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:0 auto;max-width:1200px;
padding:12px 20px;color:#1d1d1d;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin:1.2em 0 .4em;border-bottom:1px solid #ccc}
.warn{background:#fff6d6;border-left:4px solid #e0a800;padding:6px 10px;margin:8px 0}
table{border-collapse:collapse;font-size:.92em}td,th{border:1px solid #ccc;padding:4px 7px;vertical-align:top}
th{background:#f2f2f2;text-align:left}.card td{font-size:.95em}.num{text-align:right;white-space:nowrap}
figure{margin:10px 0 24px}figure img{max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.9em;color:#333}code,pre{background:#f4f4f4;font-size:.9em}pre{padding:8px;overflow-x:auto}
.small{font-size:.85em;color:#444}td.rule{min-width:560px}
"""


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def card_html(data: ReportData) -> str:
    rules = data.rules
    rows = []
    for card in data.cards:
        lines = card.lines(rules)
        held = "" if card.heldout_points_lost is None else f"{card.heldout_points_lost:.2f}"
        third = ""
        if card.third is not None:
            third = f"<td class=num>{_pct(card.third.agreement)} / {card.third.points_lost:.2f}</td>"
        knock = ""
        if rules.knock:
            knock = "<td class=num>—</td>" if card.knock is None else \
                f"<td class=num>{_pct(card.knock.agreement)} / {card.knock.points_lost:.2f}</td>"
        rows.append(f"<tr><th>{card.players}</th><td class=rule>{'<br>'.join(html.escape(x) for x in lines)}</td>"
                    f"<td class=num>{_pct(card.normal.agreement)}</td><td class=num>{card.normal.points_lost:.2f}</td>"
                    f"<td class=num>{held}</td>{third}{knock}</tr>")
    head = ("<tr><th>players</th><th>the card</th><th>agrees with the table</th>"
            "<th>points given away per hand</th><th>same, held-out</th>")
    if rules.sit_out_limit > 0:
        head += f"<th>after {rules.sit_out_limit - 1} passes: agrees / points</th>"
    if rules.knock:
        head += "<th>knock: ranks agreeing / points</th>"
    head += "</tr>"
    return (f"<p class=small>{html.escape(data.hand_points_text)}</p>"
            f"<table class=card>{head}{''.join(rows)}</table>")


def _sentence(text: str) -> str:
    return text if text[-1:] in ".?!" else text + "."


def render_report(data: ReportData) -> str:
    """The self-contained report page: charts as data URIs, links only to the PNG files beside it."""
    rules = data.rules
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>rumbaodds report: {rules.name}</title>",
             f"<style>{CSS}</style></head><body>",
             f"<h1>Rumba strategy report: {html.escape(rules.name)}</h1>",
             f"<p class=small>{html.escape(rules.description)}. Generated {html.escape(data.generated)}.</p>",
             f"<p class=warn><b>{html.escape(COUNT_DOWN)}</b> A margin or difference below 0 favours the first "
             f"choice named.</p>",
             "<h2>Rule card</h2>",
             "<p>Plain rules fitted to the table, per player count. <i>Agrees</i>: share of hands, weighted by how "
             "often each hand occurs, where the card's choice (sit out / play / Rumba) is the table's best. "
             "<i>Points given away</i>: weighted mean of EV(card's choice) - EV(table's best), points per hand "
             "(0 is perfect). Each card was found by an exhaustive search over the simple rules listed under "
             "<a href=\"#method\">method</a> and scored on the same table; the held-out column fits it on half "
             "of the (trump rank, hand class) pairs and scores it on the other half.</p>",
             card_html(data)]
    for n in data.notes:
        parts.append(f"<p class=small>{html.escape(n)}</p>")
    parts.append("<h2>Charts</h2>")
    for chart in data.charts:
        uri = "data:image/png;base64," + base64.b64encode(chart.png).decode("ascii")
        parts.append(f"<figure id=\"{chart.name}\"><img src=\"{uri}\" alt=\"{html.escape(chart.title)}\">"
                     f"<figcaption><b>{html.escape(_sentence(chart.title))}</b> {html.escape(chart.caption)} "
                     f"<a href=\"{chart.name}.png\">PNG</a></figcaption></figure>")
    parts.append("<h2>Sample budget</h2><table><tr><th>players</th><th>opponents</th><th>table</th>"
                 "<th>cells per seat</th><th>deals per cell</th><th>simulated hands</th><th>knock deals per trump rank"
                 "</th></tr>")
    for t in data.tables:
        knock = "—" if t.knock_samples is None else f"{t.knock_samples:,} (x {t.knock_inner:,} inner)"
        parts.append(f"<tr><td class=num>{t.players}</td><td>{t.model}</td><td>{'quick' if t.quick else 'full'}: "
                     f"<code>{html.escape(t.path)}</code></td><td class=num>{t.cells_per_seat:,}</td>"
                     f"<td class=num>{t.samples:,}</td><td class=num>{t.cells_per_seat * t.players * t.samples:,}"
                     f"</td><td class=num>{knock}</td></tr>")
    parts.append("</table>")
    parts.append("<p>Reproduce this report with <code>make report</code> (both rule sets) or the command below; it "
                 "reuses the tables above when they are there, else builds the quick ones (a few minutes on two "
                 f"cores):</p><pre>{html.escape(data.command)}</pre>")
    parts.append("<p>Full precision (1,000 deals per cell over every cell: hours to days per table on two cores; "
                 "the report then reads those tables instead of the quick ones):</p>"
                 f"<pre>{html.escape(chr(10).join(data.full_commands))}</pre>")
    parts.append("<h2 id=method>Method</h2><ul>"
                 "<li>A cell is (speaking seat, rank of the turned trump card, hand class); its numbers come from "
                 "simulating whole hands (docs/SIMULATION.md) with the other players following the opponent model "
                 "and expert card play; the player has no passes behind him unless stated.</li>"
                 "<li>Quick tables hold a random set of (trump rank, class) pairs drawn by how often they occur, so "
                 "each counts once; full tables weight each class by how many real hands it stands for.</li>"
                 "<li>The table's best choice is the lowest of pass (0), play (best exchange) and Rumba; sitting "
                 "out is barred when the jack of trump forces play. The edge of Rumba is EV(Rumba) minus the best "
                 "of the other two.</li>"
                 "<li>Searched rules: call Rumba when (trumps >= a and highest trump >= b) or (hand points >= p) or "
                 "never; otherwise sit out when hand points < q, else play (with the table's best exchange); "
                 "the dealer knocks when the turned card ranks >= r, or never. Chosen: fewest points given away.</li>"
                 "<li>Each cell's values are Monte Carlo means: with few deals per cell the table's own best choice "
                 "is partly noise, which adds to the disagreement and to the points given away.</li></ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


def render_index(entries: Sequence[tuple[str, str, str]]) -> str:
    """The reports/ front page: (name, href, description) per rule set."""
    items = "".join(f"<li><a href=\"{html.escape(href)}\">{html.escape(name)}</a>: {html.escape(desc)}</li>"
                    for name, href, desc in entries)
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>rumbaodds reports</title>"
            f"<style>{CSS}</style></head><body><h1>Rumba strategy reports</h1>"
            f"<p class=warn><b>{html.escape(COUNT_DOWN)}</b></p><ul>{items}</ul>"
            f"<p class=small>Made by <code>make report</code> (rumbaodds report).</p></body></html>")


# -- tables: find or build -----------------------------------------------------------------
def hand_points_text(rules: RuleSet) -> str:
    top = len(rules.ranks) - 1
    names = [rank_name(RANKS.index(rules.ranks[top - d])) for d in range(4)]
    return (f"Hand points: each trump counts {', '.join(f'{n} {6 - d}' for d, n in enumerate(names))}, any lower "
            f"trump 2; a side-suit {names[0]} counts 3, a side-suit {names[1]} 1, other cards 0.")


def _matches(manifest: dict, rules: RuleSet, players: int, model: OpponentModel, budget: Budget) -> bool:
    from .tables import manifest_matches

    return manifest_matches(manifest, rules, players, model, budget.play)


def _good_enough(manifest: dict, budget: Budget) -> bool:
    cells = manifest.get("cells")
    adaptive = manifest.get("samples_per_cell") is None  # adaptive precision: better than any quick table
    return (adaptive or manifest["samples_per_cell"] >= budget.samples_per_cell) and (cells is None
                                                                                     or cells >= budget.cells)


def quick_folder(root: Path, rules: RuleSet, players: int, model: OpponentModel, budget: Budget) -> Path:
    from .engine import NUMBERS_DIGEST

    return Path(root) / (f"{rules.name}-{players}p-{model.name}-{budget.play}-{budget.samples_per_cell}x-"
                         f"{budget.cells}cells-seed{budget.seed}-{NUMBERS_DIGEST[:8]}")


@dataclass
class Loaded:
    frame: pd.DataFrame  # prepared
    knock: pd.DataFrame | None
    info: TableInfo


def _read(folder: Path, rules: RuleSet) -> tuple[pd.DataFrame, pd.DataFrame | None, dict]:
    table = pq.read_table(folder / "table.parquet", columns=COLUMNS)
    manifest = json.loads(pq.read_schema(folder / "table.parquet").metadata[b"rumbaodds"])
    knock_path = folder / "knock.parquet"
    knock = pd.read_parquet(knock_path) if knock_path.exists() else None
    return table.to_pandas(), knock, manifest


def obtain_table(root: str | Path, rules: RuleSet, players: int, model: OpponentModel, budget: Budget,
                 say: Callable[[str], None] = lambda s: None) -> Loaded:
    """A matching table under ``root`` (at least the budget's precision), else a quick one built into it."""
    from .tables import TableSpec, build_table, find_tables, knock_values

    root = Path(root)
    found = []
    for folder in find_tables(root):
        try:
            manifest = json.loads(pq.read_schema(folder / "table.parquet").metadata[b"rumbaodds"])
        except Exception:  # noqa: BLE001 - an unreadable folder is simply not a match
            continue
        if _matches(manifest, rules, players, model, budget) and _good_enough(manifest, budget):
            size = (manifest["cells"] or 10**12) * (manifest["samples_per_cell"] or manifest["max_samples"])
            found.append((size, str(folder), folder))
    started = time.perf_counter()
    if found:
        folder = max(found)[2]
        say(f"  reusing {folder}")
    else:
        spec = TableSpec(rules, players, model, budget.play, budget.samples_per_cell, budget.seed, budget.cells)
        folder = quick_folder(root, rules, players, model, budget)
        folder.mkdir(parents=True, exist_ok=True)
        say(f"  building quick table {folder} ({budget.cells:,} cells x {players} seats x "
            f"{budget.samples_per_cell:,} deals)")

        def progress(done: int, total: int) -> None:
            if done and done < total:
                say(f"    {done:,}/{total:,} cells, {time.perf_counter() - started:.0f} s")

        if rules.knock and not (folder / "knock.parquet").exists():
            _write_knock(folder, knock_values(spec, samples=budget.knock_samples, inner=budget.knock_inner))
        build_table(spec, folder, chunk_cells=QUICK_CHUNK, progress=progress)
        say(f"    done in {time.perf_counter() - started:.1f} s")
    if rules.knock and not (folder / "knock.parquet").exists():  # a table built without its knock file
        spec = TableSpec(rules, players, model, budget.play, budget.samples_per_cell, budget.seed, budget.cells)
        _write_knock(folder, knock_values(spec, samples=budget.knock_samples, inner=budget.knock_inner))
    frame, knock, manifest = _read(folder, rules)
    subset = quick_table(manifest)
    prepared = prepare(frame, rules, subset)
    cells = len(prepared) // players
    deals = manifest["samples_per_cell"] or round(float(frame["samples"].mean()))  # adaptive: the mean per cell
    info = TableInfo(players, model.name, cells, int(deals), subset, str(folder),
                     None if knock is None else int(knock["samples"].iloc[0]),
                     None if knock is None else int(knock["inner_samples"].iloc[0]))
    return Loaded(prepared, knock, info)


def _write_knock(folder: Path, frame: pd.DataFrame) -> None:
    import pyarrow as pa

    from .tables import _write_atomic

    _write_atomic(pa.Table.from_pandas(frame, preserve_index=False), folder / "knock.parquet")


# -- the whole report ------------------------------------------------------------------------
def _chart(fig: Figure, name: str, title: str, caption: str, dpi: int) -> Chart:
    return Chart(name, title, caption, fig_png(fig, dpi))


def report_command(rules_arg: str, players_arg: str | None, tables: str, out: str, budget: Budget,
                   models: Sequence[str], model_n: int | None) -> str:
    args = ["rumbaodds", "report", "--rules", rules_arg]
    if players_arg:
        args += ["--players", players_arg]
    args += ["--tables", str(tables), "--out", str(out)]
    default = Budget()
    for opt, value, base in (("--cells", budget.cells, default.cells),
                             ("--samples-per-cell", budget.samples_per_cell, default.samples_per_cell),
                             ("--knock-samples", budget.knock_samples, default.knock_samples),
                             ("--knock-inner", budget.knock_inner, default.knock_inner),
                             ("--seed", budget.seed, default.seed)):
        if value != base:
            args += [opt, str(value)]
    if tuple(models) != REPORT_MODELS:
        args += ["--models", ",".join(models)]
    if model_n is not None:
        args += ["--model-players", str(model_n)]
    return shlex.join(args)


def full_commands(rules_arg: str, rules: RuleSet, players: Sequence[int], models: Sequence[str], model_n: int,
                  tables: str) -> list[str]:
    from .handclasses import enumerate_trump_rank_pairs

    pairs = len(enumerate_trump_rank_pairs(rules))
    lines = [f"# every cell: {pairs:,} (trump rank, hand class) pairs per seat x {FULL_SAMPLES:,} deals each",
             f"# = {pairs * FULL_SAMPLES * players[0]:,} simulated hands for {players[0]} players "
             f"(resumable: rerun the same command after an interruption)"]
    r = shlex.quote(rules_arg)
    for n in players:
        lines.append(f"rumbaodds tables build --rules {r} --players {n}")
    for m in models:
        if m != "default":
            lines.append(f"rumbaodds tables build --rules {r} --players {model_n} --opponents {m}")
    lines.append(f"rumbaodds report --rules {r} --tables {shlex.quote(str(tables).rstrip('/') + '/')}")
    return lines


def _budget_note(items: list[tuple[str, TableInfo]], each: str) -> str:
    """'each model: 3,000 cells per seat x 200 deals per cell' (or one entry per table when they differ)."""
    sizes = {(i.cells_per_seat, i.samples, i.quick) for _, i in items}
    tail = " (a cell = seat, trump rank, hand class)."
    if len(sizes) == 1:
        cells, samples, quick = sizes.pop()
        kind = "quick tables, weighted-random cells" if quick else "full tables"
        return f"{each}: {cells:,} cells per seat x {samples:,} deals per cell ({kind}){tail}"
    return "; ".join(f"{name}: {i.cells_per_seat:,} cells/seat x {i.samples:,} deals" for name, i in items) + tail


def make_report(rules_arg: str, players_arg: str | None = None, tables: str | Path = "tables",
                out: str | Path = "reports", budget: Budget | None = None, models: Sequence[str] = REPORT_MODELS,
                model_n: int | None = None, dpi: int = DPI, say: Callable[[str], None] = lambda s: None) -> Path:
    """Find or build the tables, fit the rule cards, draw the charts, write ``out/<rules>/index.html``.

    Returns the path of the written page; also rewrites ``out/index.html`` to link every report in ``out``.
    """
    budget = budget or Budget()
    rules = get_rules(rules_arg)
    players = parse_players(players_arg, rules)
    model_list = [get_model(m) for m in models]
    if not model_list:
        raise ReportError("--models: name at least one opponent model")
    default = get_model("default")
    mn = model_n if model_n is not None else model_players(rules, players)
    rules.check_players(mn)
    jobs = [(n, default) for n in players] + [(mn, m) for m in model_list if m != default]
    started = time.perf_counter()
    loaded: dict[tuple[int, str], Loaded] = {}
    for i, (n, model) in enumerate(jobs, 1):
        say(f"[{i}/{len(jobs)}] {rules.name}, {n} players, opponents {model.name}")
        loaded[(n, model.name)] = obtain_table(tables, rules, n, model, budget, say)
    if default not in model_list and (mn, "default") not in loaded:  # pragma: no cover - defensive
        loaded[(mn, "default")] = obtain_table(tables, rules, mn, default, budget, say)
    say(f"tables ready in {time.perf_counter() - started:.1f} s; fitting rule cards and drawing charts")

    cards = {n: rule_card(loaded[(n, "default")].frame, rules, n, loaded[(n, "default")].knock) for n in players}
    charts: list[Chart] = []
    for n in players:
        d = loaded[(n, "default")]
        note = sample_note(d.info.cells_per_seat, n, d.info.samples, d.info.quick) + " Opponents: default."
        fig = call_chart(d.frame, rules, n, note)
        charts.append(_chart(fig, f"call_{n}p", f"When to call Rumba, {n} players",
                             "Top: pooled over seats, by the highest trump held and by side aces and kings. Bottom: "
                             "by hand points, one line per speaking seat. Rumba's edge is EV(Rumba) - EV(best other "
                             "choice): negative means calling Rumba is better.", dpi))
    knocks = {n: loaded[(n, "default")].knock for n in players if loaded[(n, "default")].knock is not None}
    if rules.knock and knocks:
        k0 = next(iter(knocks.values()))
        note = (f"{int(k0['samples'].iloc[0]):,} deals per trump rank and player count, each no-knock choice from "
                f"{int(k0['inner_samples'].iloc[0]):,} inner deals; {len(k0)} trump ranks. Opponents: default.")
        charts.append(_chart(knock_chart(knocks, rules, note), "knock", "Should the dealer knock?",
                             "The dealer decides before looking at his cards. Bars are 95% intervals of the paired "
                             "difference.", dpi))
    frames = {n: loaded[(n, "default")].frame for n in players}
    infos = [loaded[(n, "default")].info for n in players]
    note = _budget_note([(f"{i.players}p", i) for i in infos], "each player count") + " Opponents: default."
    charts.append(_chart(sitout_chart(frames, rules, note, cards), "sitout", "When to sit out",
                         "Left: mean EV of playing (best exchange) per seat against the value of passing. "
                         "Right: share of hands where sitting out is the table's best choice.", dpi))
    mframes = {m.name: loaded[(mn, m.name)].frame for m in model_list}
    minfo = [loaded[(mn, m.name)].info for m in model_list]
    note = _budget_note([(i.model, i) for i in minfo], "each model") + f" {mn} seats."
    charts.append(_chart(model_chart(mframes, rules, mn, note), "models", f"Opponent models, {mn} players",
                         "default, cautious and bold opponents (docs/SIMULATION.md). The call threshold is the "
                         "hand-points rule 'call Rumba from p points' that gives away the fewest points.", dpi))
    tables_info = [loaded[k].info for k in loaded]
    data = ReportData(rules, [cards[n] for n in players], charts, tables_info,
                      report_command(rules_arg, players_arg, str(tables), str(out), budget,
                                     [m.name for m in model_list], model_n),
                      full_commands(rules_arg, rules, players, [m.name for m in model_list], mn, str(tables)),
                      hand_points_text(rules), time.strftime("%Y-%m-%d"))
    if any(i.quick for i in tables_info):
        data.notes.append("These numbers come from quick tables (a random share of the hand classes, few deals per "
                          "cell): expect the thresholds to move by a point or so with a full build.")
    folder = Path(out) / rules.name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    for chart in charts:
        (folder / f"{chart.name}.png").write_bytes(chart.png)
    page = folder / "index.html"
    page.write_text(render_report(data), encoding="utf-8")
    write_index(out)
    say(f"report written: {page} ({time.perf_counter() - started:.1f} s in all)")
    return page


def write_index(out: str | Path) -> Path:
    out = Path(out)
    entries = []
    for page in sorted(out.glob("*/index.html")):
        name = page.parent.name
        try:
            desc = get_rules(name).description
        except RulesError:
            desc = "house rules"
        entries.append((name, f"{name}/index.html", desc))
    path = out / "index.html"
    path.write_text(render_index(entries), encoding="utf-8")
    return path


__all__ = ["Budget", "Chart", "Fit", "KnockFit", "ReportData", "ReportError", "RuleCard", "RumbaRule",
           "call_chart", "call_threshold", "card_choices", "evaluate_card", "fig_png", "grouped", "knock_chart",
           "make_report", "model_chart", "obtain_table", "parse_players", "prepare", "render_index",
           "render_report", "rule_card", "search_card", "search_knock", "sitout_chart", "write_index"]
