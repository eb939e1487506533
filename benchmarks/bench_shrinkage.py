"""How much precision does pooling neighbouring cells add to the shipped tables? (a measurement for issue 35)

    python -m benchmarks.bench_shrinkage [--players 5] [--json]

Empirical Bayes over the cells of a shipped swiss table: a weighted least-squares model of each cell's value (the
Rumba's and play's expected score change) over features of its hand, fitted separately per player count on every
cell of the table, per seat: the trumps held by rank, the side cards by rank, the turned card's rank, the count of
trumps and of void side suits. Each cell's own deals are then the correction: with the cell's estimate ``y`` (its
sampling standard error ``s``), the model's ``m`` and the spread ``tau`` of the true values about the model (per seat
and trump count, by moments: the mean of ``(y - m)^2 - s^2``), the pooled estimate is ``m + w (y - m)`` with
``w = tau^2 / (tau^2 + s^2)`` and standard error ``sqrt(w) s``: the normal-normal posterior, honest exactly when the
cells' true values scatter about the model with that spread (checked below against 200,000-deal truths).

Printed per player count: the cells, the fitted spread ``tau`` (median over groups), the median half-width of a
cell alone and pooled, and the precision ratio (``(s / pooled s)^2``: how many times the cell's own deals the pooled
estimate is worth). Then, on the situations of ``benchmarks/check_tables`` (issue 35's draw, with their
200,000-deal truths from its cache; run it first), the share of 95% intervals holding the truth and the median
half-width, alone and pooled. The model is fitted once per table with no random step, so the figures are exact for
the shipped tables.

Measured (2026-12-06, `python -m benchmarks.bench_shrinkage`, all five tables, the draw's 100 swiss situations):
the Rumba's value scatters about this model with tau 0.74-0.83 points, so pooling only halves its half-width (2.01
to 1.24 median, 3.05 to 2.04 at the 90th percentile) and its intervals then hold 85 of 100 truths (alone: 94): the
hand's value is not additive in these features, and the spread about the model is not the same for every hand of a
group. Play's value fits far better, but its moment estimate of tau falls to the floor at 3-5 players (the packed
half-widths are rounded up, up to 20% wider than the cell's sampling error, so ``(y - m)^2 - s^2`` runs negative)
and the pooled intervals hold 28 of 100 truths: pooling is only as honest as the sampling variances it is given,
which rebuilt tables must keep unrounded (or fit tau on held-out truths). Both lessons are for issue 35's
estimator.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from rumbaodds.cards import RANKS
from rumbaodds.rules import SWISS
from rumbaodds.stats import Z95
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.pack import IMPOSSIBLE, SHIPPED, SUFFIX, Codec, load_packed

from .common import print_table

CHUNK = 250_000


def decoded(packed, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(means, standard errors) of ``ev_play`` or ``ev_rumba`` for every cell (``decode_cell``, vectorised)."""
    c = packed.columns
    codec = Codec(**packed.manifest["packed"]["codec"])
    n, rumba_n = packed.deals()
    ess = c["ess"].astype(np.float64) if "ess" in c else n.astype(np.float64)
    weight = ess / np.maximum(n, 1)
    deals = (n if name == "ev_play" else rumba_n) * weight
    half = codec.sigma_half(c[name + "_half"], deals)
    mean = c[name].astype(np.float64) * codec.mean_step(half)
    return mean, half / Z95


def hand_features(rules, players: int) -> tuple[np.ndarray, int]:
    """Per (trump rank, class) pair: the columns the model reads (before the seat), and their count."""
    pairs = enumerate_trump_rank_pairs(rules)
    classes = pairs.classes
    ranks = [RANKS.index(r) for r in rules.ranks]
    trump_lane = classes.trump_lanes[pairs.class_rows]
    side = classes.side_lanes[pairs.class_rows]
    cols = [np.ones(len(pairs))]
    cols += [((trump_lane >> r) & 1).astype(np.float64) for r in ranks]  # each trump held
    cols += [((side >> r) & 1).sum(axis=1).astype(np.float64) for r in ranks]  # side cards of each rank
    cols += [(pairs.trump_ranks == r).astype(np.float64) for r in ranks[1:]]  # the turned card's rank
    n_trumps = classes.n_trumps()[pairs.class_rows]
    cols += [(n_trumps == k).astype(np.float64) for k in range(2, rules.hand_size + 1)]
    voids = classes.side_voids()[pairs.class_rows]
    cols += [(voids == k).astype(np.float64) for k in (1, 2)]
    held = [((trump_lane >> r) & 1).astype(np.float64) for r in ranks]
    cols += [held[i] * held[j] for i in range(len(ranks)) for j in range(i + 1, len(ranks))]  # pairs of trumps
    aces = classes.side_aces()[pairs.class_rows]
    for k in range(rules.hand_size + 1):  # the trump count with the side aces and the turned card's rank
        is_k = (n_trumps == k).astype(np.float64)
        cols += [is_k * (aces == a) for a in (1, 2, 3)]
        cols += [is_k * (pairs.trump_ranks == r) for r in ranks[1:]]
    x = np.stack(cols, axis=1).astype(np.float32)
    return x, n_trumps


def pooled(packed, rules, players: int, name: str) -> dict:
    """The model per seat and the pooled estimate of every cell (module docstring)."""
    y, s = decoded(packed, name)
    x, n_trumps = hand_features(rules, players)
    pairs = len(x)
    impossible = (packed.columns["code"] & IMPOSSIBLE) != 0
    m = np.zeros_like(y)
    tau2 = np.zeros_like(y)
    for seat in range(players):
        rows = slice(seat * pairs, (seat + 1) * pairs)
        ys, ss, ok = y[rows], s[rows], ~impossible[rows]
        w = np.where(ok, 1.0 / np.maximum(ss, 1e-3) ** 2, 0.0)
        xtx = np.zeros((x.shape[1], x.shape[1]))
        xty = np.zeros(x.shape[1])
        for start in range(0, pairs, CHUNK):
            xc = x[start:start + CHUNK].astype(np.float64)
            wc = w[start:start + CHUNK]
            xtx += xc.T @ (xc * wc[:, None])
            xty += xc.T @ (wc * ys[start:start + CHUNK])
        beta = np.linalg.lstsq(xtx + 1e-6 * np.eye(len(xtx)), xty, rcond=None)[0]
        fit = (x.astype(np.float64) @ beta)
        m[rows] = fit
        excess = (ys - fit) ** 2 - ss ** 2
        for k in np.unique(n_trumps):
            group = (n_trumps == k) & ok
            tau2[rows][group] = max(float(excess[group].mean()), 1e-4) if group.any() else 1e-4
    w = tau2 / (tau2 + s ** 2)
    return {"y": y, "s": s, "m": m, "tau2": tau2, "post": m + w * (y - m), "post_s": np.sqrt(w) * s,
            "impossible": impossible}


def table_rows(players: int, name: str) -> dict:
    packed = load_packed(SHIPPED / f"swiss-{players}p{SUFFIX}")
    p = pooled(packed, SWISS, players, name)
    ok = ~p["impossible"]
    return p, {"players": players, "value": name, "cells": int(ok.sum()),
               "tau (median)": float(np.median(np.sqrt(p["tau2"][ok]))),
               "half alone (median)": float(np.median(Z95 * p["s"][ok])),
               "half pooled (median)": float(np.median(Z95 * p["post_s"][ok])),
               "precision ratio (median)": float(np.median((p["s"][ok] / p["post_s"][ok]) ** 2))}


def against_truths(fits: dict) -> list[dict]:
    """Alone and pooled, on check_tables' swiss situations with a truth in its cache."""
    from rumbaodds.answer import pipeline
    from rumbaodds.answer.question import Question
    from rumbaodds.engine import NUMBERS_VERSION

    from . import check_quotes

    cache = check_quotes.load_cache(check_quotes.CACHE / f"truths-v{NUMBERS_VERSION}.jsonl")
    rows = []
    for value, key in (("ev_rumba", "rumba"), ("ev_play", "play")):
        alone, pool = [], []
        for s in check_quotes.draw("swiss", 100):
            truth = next((v for k, v in cache.items() if k.startswith(f"swiss|{s['players']}|{s['seat']}|"
                                                                          f"{s['hand']}|{s['trump']}|")), None)
            if truth is None or truth[key] is None or (s["players"], value) not in fits:
                continue
            found = pipeline.from_table(Question(check_quotes._situation(s)))
            if found is None:
                continue
            row = int(found.meta["cell"])
            p = fits[(s["players"], value)]
            t = truth[key][0]
            alone.append((abs(p["y"][row] - t) <= Z95 * p["s"][row], Z95 * p["s"][row]))
            pool.append((abs(p["post"][row] - t) <= Z95 * p["post_s"][row], Z95 * p["post_s"][row]))
        for label, pairs in (("alone", alone), ("pooled", pool)):
            if pairs:
                rows.append({"value": value, "estimate": label, "situations": len(pairs),
                             "intervals holding the truth": sum(h for h, _ in pairs) / len(pairs),
                             "half-width median": float(np.median([w for _, w in pairs])),
                             "half-width p90": float(np.percentile([w for _, w in pairs], 90))})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    fits, rows = {}, []
    for players in args.players or range(SWISS.min_players, SWISS.max_players + 1):
        for name in ("ev_rumba", "ev_play"):
            p, row = table_rows(players, name)
            fits[(players, name)] = p
            rows.append(row)
    truths = against_truths(fits)
    if args.json:
        print(json.dumps({"tables": rows, "truths": truths}, default=float))
        return
    print_table("Pooling neighbouring cells: the shipped swiss tables (empirical Bayes)", rows)
    print_table("Against 200,000-deal truths (benchmarks/check_tables' situations)", truths)


if __name__ == "__main__":
    main()
