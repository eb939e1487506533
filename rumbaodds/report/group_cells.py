"""A neighbour-group table's cells in the report: every pair read from its group's cell, and boxes whose cells share
their group's error.

A group table (:mod:`rumbaodds.tables.groups`) keeps one cell per neighbour group; :func:`every_pair` gives every
(seat, trump rank, class) pair the numbers ``ask`` gives it (the group's cell, moved and widened for a hand that is
not the representative), so the report pools a group table like a table of every cell. The hands that read one
group's cell share its sampling error: :func:`quadrature` adds their errors before adding a box's cells in
quadrature.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..rules import RuleSet

SIT, PLAY, RUMBA = "pass", "play", "rumba"  # the keys of a decoded table's values (report.cells.Decoded)


def every_pair(d, packed, rules: RuleSet, players: int) -> tuple[object, np.ndarray]:
    """A neighbour-group table's decoded cells (``report.cells.Decoded``) as every pair's, in full-table order, and the
    packed cell each reads: its group representative's, a member's values moved and widened and its decision ranked
    again as ``ask`` does (``group_model.member_cell``, vectorised over the few distinct deal counts). Deals: the
    representative's own cell has its deals, a member 0, so that a sum of deals counts each simulated deal once."""
    from ..tables.group_model import design, factor, p_spread, per_deal_spread
    from ..tables.neighbours import representative_index, representative_rows
    from ..tables.pack import KINDS, group_model

    below = packed.manifest["packed"]["neighbours"]["below"]
    index = representative_index(rules, below)
    rep_pair = representative_rows(rules, below)[index]
    own_pair = rep_pair == np.arange(len(index))
    model = group_model(packed)
    x = design(rules, np.arange(len(index)), rep_pair, below)
    offset = {v: np.tile(np.where(own_pair, 0.0, model.offset(v, x)), players) for v in ("play", "rumba", "success")}
    own = np.tile(own_pair, players)
    # the packed cell of every pair as int32 (a 6-player flemish table is 34 M pairs)
    cells = (np.arange(players, dtype=np.int32)[:, None] * np.int32(packed.pairs) + index[None, :].astype(np.int32)
             ).ravel()
    n, rumba_n = packed.deals()
    ess = packed.columns["ess"].astype(np.float64) if "ess" in packed.columns else n.astype(np.float64)
    weight = np.where(n > 0, ess / np.maximum(n, 1), 1.0)

    values, extra = {SIT: (np.zeros(len(cells)), np.zeros(len(cells)))}, {}
    for action, deals, key in ((PLAY, ess, "play"), (RUMBA, rumba_n * weight, "rumba")):
        mean, half = d.values[action]
        grow = {count: factor(model.residual[key], count) for count in np.unique(deals)}  # a few deal counts
        wide = np.where(own, 1.0, np.array([grow[count] for count in deals])[cells]) * half[cells]
        sigma = per_deal_spread(half, deals)
        values[action] = (mean[cells] + offset[key] * sigma[cells], wide)
        extra[action] = np.sqrt(np.maximum(0.0, wide ** 2 - half[cells] ** 2))
    # ranked as the table kernel ranks: a stable sort of (pass, Rumba, best play), less a dropped Rumba
    order = [KINDS.index(k) for k in ("pass", "rumba", "play")]
    kind_action = {KINDS.index("pass"): SIT, KINDS.index("rumba"): RUMBA, KINDS.index("play"): PLAY}
    live = (rumba_n >= n)[cells]
    means = np.stack([values[kind_action[k]][0] for k in order], axis=1)
    means[:, 1] = np.where(live, means[:, 1], np.inf)
    ranked = np.argsort(means, axis=1, kind="stable").astype(np.int8)
    del means
    kinds = np.array(order, dtype=np.int64)
    best_k, runner_k = kinds[ranked[:, 0]], kinds[ranked[:, 1]]
    del ranked
    old = d.code[cells]
    code = (old & ~np.int64(15)) | best_k | (runner_k << 2)
    rows = np.arange(len(cells))
    means_by_kind = np.stack([values[kind_action[k]][0] for k in range(3)], axis=1)
    halves_by_kind = np.stack([values[kind_action[k]][1] for k in range(3)], axis=1)
    margin = means_by_kind[rows, runner_k] - means_by_kind[rows, best_k]
    pass_k = KINDS.index("pass")
    with_pass = (best_k == pass_k) | (runner_k == pass_k)
    other = np.where(best_k == pass_k, runner_k, best_k)
    same = ((best_k == (old & 3)) & (runner_k == ((old >> 2) & 3))) | ((best_k == ((old >> 2) & 3)) &
                                                                       (runner_k == (old & 3)))
    paired = np.sqrt(d.margin_half[cells] ** 2 + extra[PLAY] ** 2 + extra[RUMBA] ** 2)
    unpaired = np.hypot(halves_by_kind[rows, best_k], halves_by_kind[rows, runner_k])
    margin_half = np.where(with_pass, halves_by_kind[rows, other], np.where(same, paired, unpaired))
    # a representative's own cell as the table has it (its decision ranked on unrounded values)
    code, margin = np.where(own, old, code), np.where(own, d.margin[cells], margin)
    margin_half = np.where(own, d.margin_half[cells], margin_half)
    p = d.p_success[cells]
    p = np.where(own, p, np.clip(p + offset["success"] * p_spread(p), 0.0, 1.0))
    samples = np.where(own, d.samples[cells], 0).astype(np.int32)
    return dataclasses.replace(d, code=code, margin=margin, margin_half=margin_half, p_success=p, samples=samples,
                               values=values), cells


def quadrature(key: np.ndarray, x: np.ndarray, nb: int, source: np.ndarray | None = None) -> np.ndarray:
    """Per box ``sqrt(sum x^2)`` over its cells (independent errors); with ``source`` (a group table's), the cells
    reading one packed cell are summed first (one shared error: ``sqrt(sum over sources (sum x)^2)``)."""
    if source is None:
        return np.sqrt(np.bincount(key, x * x, nb))
    span = int(source.max()) + 1 if len(source) else 1
    ids, inverse = np.unique(key.astype(np.int64) * span + source, return_inverse=True)
    shared = np.bincount(inverse, x)
    return np.sqrt(np.bincount(ids // span, shared * shared, nb))


__all__ = ["every_pair", "quadrature"]
