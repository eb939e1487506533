"""Fitting trees for some of the caller's leads, on top of the weights (docs/SIMULATION.md "Card play").

The linear score of ``distilled`` misses some decisions that matter most near
the Rumba threshold (issue 17, ``benchmarks/bench_cardplay.py --where``):
which card the Rumba caller leads to the second trick at three players,
where PIMC often leads a trump or a low card and keeps his ace for later,
and his first lead at seven. What pays there depends on combinations (how
many trumps are unseen, how many masters he holds, how many tricks he still
needs) that a weighted sum cannot express; shallow trees on the same 32
numbers (16 of the card, 16 of the moment) can. Each such decision (follow
rule, active players, trick) gets an ensemble of its own, fitted to PIMC's
decisions there (``distil/__main__.py`` TREE_SPECS): trees fitted to the 3-
and 5-player Rumbas gained 0.3 points or less at 5 players and cost a fifth of
the play's speed, so they play only where they were shown to help.

The trees correct the weights rather than replace them: a card's score is
its linear score plus the leaves its numbers reach. They are fitted by
Newton boosting of the same conditional logit as the weights (distil/fit.py:
PIMC's card and the cards equivalent to it count as chosen), starting from
the linear scores, depth-wise to a fixed depth, each node split at the
midpoint between two values of the number that most lowers the loss.
Deterministic: no sampling; ties between splits go to the first number and
the lowest threshold. Thresholds and leaves are kept in float32 (the GPU
holds them as constants, engine/gpu.py), and the fit scores with the kept
values.
"""

from __future__ import annotations

import numpy as np

from ..rules import RuleSet
from ..twins.distilled import card_features, card_weights, context, moment, tree_score
from .fit import equivalent, view_of

TREES, DEPTH, RATE, MIN_LEAF, L2 = 80, 4, 0.3, 20, 1.0


def is_tree_decision(record: dict, players: int, trick: int) -> bool:
    """A recorded decision of the caller's lead to ``trick`` (0: the first) at ``players`` active players, with a
    choice."""
    legal = record["legal"]
    return (record["caller"] >= 0 and record["me"] == record["caller"] and record["pos"] == 0
            and sum(record["won"]) == trick and len(record["won"]) == players and legal & (legal - 1) != 0)


def linear_score(w, row) -> float:
    """The weights' score of a card from its row (the card's 16 numbers, the moment's 16), as the twin sums it."""
    score = 0.0
    for wi, fi in zip(card_weights(w, list(row[16:])), row[:16], strict=True):
        score += wi * fi
    return score


def tree_rows(records: list[dict], rules: RuleSet, weights, players: int, trick: int) -> tuple[np.ndarray, ...]:
    """(rows, labels, decision of each row, linear score of each row): each legal card of each decision
    :func:`is_tree_decision` picks, as the twin's 32 numbers; ``weights``: the follow rule's (role, moment,
    feature)."""
    xs, ys, groups, start = [], [], [], []
    decision = 0
    for record in records:
        if not is_tree_decision(record, players, trick):
            continue
        decision += 1
        v = view_of(record, rules)
        ctx = context(v)
        w = weights[v.role][moment(v)]
        for card in sorted(v.legal):
            row = card_features(v, card) + ctx
            xs.append(row)
            ys.append(1.0 if equivalent(card, record["card"], v.unseen) else 0.0)
            groups.append(decision)
            start.append(linear_score(w, row))
    return (np.array(xs, dtype=np.float64).reshape(-1, 32), np.array(ys), np.array(groups, dtype=np.int64),
            np.array(start))


def _best_split(codes, cuts, g, h, rows):
    """(gain, feature, code) of the best split of ``rows``: rows with code <= ``code`` go left."""
    gs, hs = g[rows].sum(), h[rows].sum()
    parent = gs * gs / (hs + L2)
    best = (0.0, -1, -1)
    for j in range(codes.shape[1]):
        n_codes = len(cuts[j]) + 1
        if n_codes < 2:
            continue
        c = codes[rows, j]
        gl = np.cumsum(np.bincount(c, g[rows], n_codes))[:-1]
        hl = np.cumsum(np.bincount(c, h[rows], n_codes))[:-1]
        nl = np.cumsum(np.bincount(c, None, n_codes))[:-1]
        ok = (nl >= MIN_LEAF) & (len(rows) - nl >= MIN_LEAF)
        if not ok.any():
            continue
        gain = gl * gl / (hl + L2) + (gs - gl) ** 2 / (hs - hl + L2) - parent
        gain = np.where(ok, gain, -np.inf)
        k = int(np.argmax(gain))
        if gain[k] > best[0] + 1e-12:
            best = (float(gain[k]), j, k)
    return best


def fit_trees(x: np.ndarray, y: np.ndarray, groups: np.ndarray, start: np.ndarray | None = None,
              trees: int = TREES, depth: int = DEPTH, rate: float = RATE):
    """(feature, threshold, leaf): ``trees`` trees of ``depth`` levels in heap order (node i's children
    2i+1, 2i+2; a row goes left when its number is <= the threshold; feature -1: everybody left).

    Rows of one decision share a ``groups`` value (contiguous or not); ``start``: each row's score before the
    trees (the linear score; default 0). A card's probability is the softmax of its decision's scores."""
    inner, leaves = 2 ** depth - 1, 2 ** depth
    feature = np.full((trees, inner), -1, dtype=np.int8)
    threshold = np.zeros((trees, inner), dtype=np.float32)
    leaf = np.zeros((trees, leaves), dtype=np.float32)
    cuts, codes = [], np.zeros(x.shape, dtype=np.int64)
    for j in range(x.shape[1]):
        values = np.unique(x[:, j])
        cuts.append(((values[:-1] + values[1:]) / 2).astype(np.float32))  # still strictly between the values
        codes[:, j] = np.searchsorted(values, x[:, j])
    _, group = np.unique(groups, return_inverse=True)
    count = group.max() + 1
    score = np.zeros(len(y)) if start is None else np.asarray(start, dtype=np.float64).copy()
    for t in range(trees):
        top = np.full(count, -np.inf)
        np.maximum.at(top, group, score)
        p = np.exp(score - top[group])
        p /= np.bincount(group, p, count)[group]
        q = p * y / np.bincount(group, p * y, count)[group]  # the chosen class's share of each card
        g, h = p - q, np.maximum(p * (1 - p), 1e-6)
        nodes = {0: np.arange(len(y))}
        for node in range(inner):
            rows = nodes.pop(node)
            gain, j, k = _best_split(codes, cuts, g, h, rows) if len(rows) >= 2 * MIN_LEAF else (0.0, -1, -1)
            if j < 0:
                left, right = rows, rows[:0]
            else:
                feature[t, node], threshold[t, node] = j, cuts[j][k]
                go_left = x[rows, j] <= threshold[t, node]
                left, right = rows[go_left], rows[~go_left]
            nodes[2 * node + 1], nodes[2 * node + 2] = left, right
        for i in range(leaves):
            rows = nodes[inner + i]
            if len(rows):
                leaf[t, i] = -rate * g[rows].sum() / (h[rows].sum() + L2)
                score[rows] += float(leaf[t, i])
    return feature, threshold, leaf


def agreement(feature, threshold, leaf, x, y, groups, start=None) -> float:
    """Share of decisions where the best-scoring card (``start`` plus the trees; ties: the lowest card id) is
    PIMC's choice."""
    scores = np.array([tree_score((len(feature), feature, threshold, leaf), r) for r in x])
    if start is not None:
        scores = scores + start
    hits = []
    for d in np.unique(groups):
        rows = np.flatnonzero(groups == d)
        hits.append(y[rows[int(np.argmax(scores[rows]))]] > 0)
    return float(np.mean(hits))


__all__ = ["fit_trees", "tree_rows", "is_tree_decision", "linear_score", "agreement", "TREES", "DEPTH", "RATE",
           "MIN_LEAF"]
