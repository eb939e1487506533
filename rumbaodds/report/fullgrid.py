"""Action grids from every cell of a full table (:mod:`.full`), each hand weighted by how often it is dealt.

A box holds every (turned trump rank, hand class) pair of its row and column at the seats of its grid. Per box,
over its hands (weights: real hands), for each choice the mean **loss** against each hand's own best choice
(0 where the choice is the hand's best); the box's choice is the one that loses least, its **cost** (what the
second best costs) the difference of the two mean losses, with the 95% interval of the cells' own Monte Carlo
intervals (1.96 x sqrt(sum w^2 (h / 1.96)^2) / sum w). Every box where hands exist is filled.

A box also says how its hands split: the share whose own best choice is the box's (``agree``), and the share
for which the table is sure (its interval excludes a tie) that another choice is better (``sure_other``). A box
is **mixed** when that share exceeds ``MIXED`` (ask about your own hand there); **close** when the cost's
interval reaches 0. Each box keeps two example hands (the most frequent one of its choice, and the most frequent
one that the table is sure wants something else, else a second one of its choice).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..cards import SUIT_BITS, format_card
from .data import ACTIONS, PLAY, RUMBA, Z95
from .full import FullCells
from .grids import MIXED_SHARE as MIXED
from .grids import Box, Grid, Interval

MERGE_LOSS = 0.002  # middle seats share a grid while it costs each of them at most this (points per hand)


def seat_runs(fc: FullCells) -> list[tuple[int, ...]]:
    """First to speak, runs of middle seats whose pooled grid costs each at most MERGE_LOSS, the dealer."""
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


def _box_sums(fc: FullCells, seats) -> tuple[np.ndarray, np.ndarray]:
    """(per box weight, per box x choice weighted loss sums) over ``seats``."""
    pf = fc.pairs
    nb = len(pf.rows) * len(pf.cols)
    key = pf.row.astype(np.int64) * len(pf.cols) + pf.col
    w = pf.weight
    sums = np.zeros((nb, 3))
    for s in seats:
        sl = fc.seat_slice(s)
        for a in range(3):
            sums[:, a] += np.bincount(key, w * fc.loss[sl, a], nb)
    return np.bincount(key, w, nb) * len(seats), sums


def _pooled_cost(fc: FullCells, seats, seat: int) -> float:
    """Points per hand ``seat`` loses by following the pooled grid of ``seats`` instead of its own."""
    _, pooled = _box_sums(fc, seats)
    _, own = _box_sums(fc, [seat])
    choice = pooled.argmin(axis=1)
    total = float(fc.pairs.weight.sum())
    return float((own[np.arange(len(own)), choice] - own.min(axis=1)).sum() / total)


def hand_text(mask: int) -> str:
    return " ".join(format_card(c) for c in range(64) if (int(mask) >> c) & 1)


def full_grid(fc: FullCells, seats, title: str) -> Grid:
    """The grid of ``seats`` (pooled) from every cell (see the module docstring)."""
    pf = fc.pairs
    rows, cols = list(pf.rows), list(pf.cols)
    nc = len(cols)
    seats = tuple(int(s) for s in seats)
    idx = np.concatenate([np.arange(fc.seat_slice(s).start, fc.seat_slice(s).stop) for s in seats])
    pair = np.tile(np.arange(len(pf)), len(seats))
    key = (pf.row.astype(np.int64) * nc + pf.col)[pair]
    w = pf.weight[pair] * (~fc.impossible[idx])
    nb = len(rows) * nc
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
        # 95% half-width of each choice's mean loss (cells independent)
        loss_hw = np.stack([Z95 * np.sqrt(np.bincount(key, (w * half[:, a] / Z95) ** 2, nb)) / weight
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
        cost_hw = Z95 * np.sqrt(np.bincount(key, (w * h / Z95) ** 2, nb)) / weight
        agree = np.bincount(key, w * (best_cell == b), nb) / weight
        sure_other = np.bincount(key, w * (sure & (best_cell != b)), nb) / weight
        unknown = np.bincount(key, w * ~(known[rows_i, r] & known[rows_i, b]), nb) / weight
        by_best = np.stack([np.bincount(key, w * (best_cell == a), nb) for a in range(3)], axis=1) / weight[:, None]
        ps = fc.p_success[idx].astype(np.float64)
        ok = np.isfinite(ps) & (best_cell == ACTIONS.index(RUMBA))  # Rumba's success where it is each hand's best
        p_rumba = np.bincount(key, w * np.where(ok, ps, 0.0), nb) / np.bincount(key, w * ok, nb)
    cells = np.bincount(key, minlength=nb)
    deals = np.bincount(key, fc.samples[idx].astype(np.float64), nb)
    # exchange: the weighted most frequent best count among the hands whose best is to play
    play = best_cell == ACTIONS.index(PLAY)
    k_sums = np.stack([np.bincount(key, w * (play & (fc.best_k[idx] == k)), nb) for k in range(5)], axis=1)
    examples = _examples(fc, seats, key, w, best_cell, b, sure, idx, pair)

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


def _examples(fc: FullCells, seats, key, w, best_cell, box_best_of_cell, sure, idx, pair) -> dict[int, list[dict]]:
    """Per box: the most frequent hand whose own best is the box's choice, and the most frequent one the table
    is sure wants another choice (else the next most frequent of the box's choice)."""
    frame = pd.DataFrame({"key": key, "w": w, "agree": best_cell == box_best_of_cell,
                          "other": sure & (best_cell != box_best_of_cell), "cell": idx, "pair": pair})
    frame = frame[frame["w"] > 0].sort_values(["key", "w", "cell"], ascending=[True, False, True])
    firsts = frame[frame["agree"]].drop_duplicates("key")
    others = frame[frame["other"]].drop_duplicates("key")
    seconds = frame[frame["agree"] & ~frame["cell"].isin(firsts["cell"])].drop_duplicates("key")
    out: dict[int, list[dict]] = {}
    for part in (firsts, others, seconds):
        for k, cell, p in zip(part["key"].to_numpy(), part["cell"].to_numpy(), part["pair"].to_numpy()):
            got = out.setdefault(int(k), [])
            if len(got) < 2:
                got.append(_example(fc, int(cell), int(p)))
    return out


def _example(fc: FullCells, cell: int, pair: int) -> dict:
    pf = fc.pairs
    trump_suit = _trump_suit(fc)
    return {"hand": hand_text(int(pf.hand[pair])),
            "trump": format_card(trump_suit * SUIT_BITS + int(pf.trump_rank[pair])),
            "seat": int(cell // len(pf)), "best": ACTIONS[int(fc.best[cell])],
            "runner": ACTIONS[int(fc.runner[cell])], "margin": float(fc.margin[cell]),
            "half": float(fc.margin_half[cell])}


def _trump_suit(fc: FullCells) -> int:
    from ..tables.handclasses import enumerate_classes

    return enumerate_classes(fc.rules).trump_suit


def seat_grids(fc: FullCells, title_of) -> list[Grid]:
    return [full_grid(fc, seats, title_of(seats, fc.players)) for seats in seat_runs(fc)]


__all__ = ["MERGE_LOSS", "MIXED", "full_grid", "hand_text", "seat_grids", "seat_runs"]
