"""Pooling neighbouring cells: each cell's value from its own deals and its neighbour group's, with honest intervals.

The model (normal, two levels): a cell's estimate ``y_i`` (sampling variance ``v_i``, from its own deals) scatters
about its true value ``theta_i``, and the true values of one group (:mod:`.neighbours`) scatter about the group's
mean ``mu_g`` with a spread ``tau`` shared by every group of a stratum (a seat, say). ``tau^2`` is estimated by
moments (DerSimonian and Laird, pooled over the stratum's groups: the excess of the groups' weighted squared
deviations over what sampling alone gives); ``mu_g`` is the weighted mean of the group with weights
``1 / (v_i + tau^2)``. The pooled estimate of a cell is the normal posterior given ``tau``::

    B_i = v_i / (v_i + tau^2)
    theta_hat_i = B_i mu_hat_g + (1 - B_i) y_i
    var_i = (1 - B_i) v_i + B_i^2 var(mu_hat_g)

the second term is the group mean's own uncertainty (``y_i`` is part of ``mu_hat_g``, so this is the exact posterior
variance with a flat prior on ``mu_g``, Morris 1983). What the intervals assume: the ``v_i`` are the cells' unrounded
sampling variances (rounded-up ones make ``tau`` too small, ``benchmarks/bench_shrinkage.py``), the true values
of a group are exchangeable (no cell known in advance to sit higher than its neighbours), ``tau`` is the same across
a stratum (or, with ``scale``, in proportion to each cell's per-deal spread), and the uncertainty of ``tau`` itself
is left out (small where a stratum has many groups).

Measured on the real rule sets (``python -m benchmarks.bench_neighbours``, docs/SIMULATION.md): one flat ``tau`` is
not honest there (mid-probability Rumbas differ from their neighbours far more than hopeless ones, and are shrunk as
much: 59-88% of the success intervals hold the truth); the spread scaled to the per-deal variance is (86-99%).
With ``spread_between=False`` (``tau = 0``) every cell is its group's mean: the negative control of
tests/test_pooling.py, whose intervals hold the truth too rarely wherever neighbours truly differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Pooled:
    """Per cell: ``mean`` and ``se`` pooled, ``shrink`` (``B_i``: the weight of the group's mean); per stratum (in
    the order of ``np.unique(stratum)``): ``tau``."""

    mean: np.ndarray
    se: np.ndarray
    shrink: np.ndarray
    tau: np.ndarray

    def precision_gain(self, variance: np.ndarray) -> np.ndarray:
        """How many times its own deals each pooled estimate is worth: ``v_i / var_i``."""
        return np.asarray(variance, dtype=np.float64) / np.maximum(self.se**2, 1e-300)


def _group_sums(group: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(group, values, size)


def spread(y: np.ndarray, v: np.ndarray, group: np.ndarray, scale: np.ndarray | None = None) -> float:
    """DerSimonian-Laird ``tau^2`` over groups (ids 0..G-1): ``max(0, (Q - df) / c)`` pooled over the groups.

    With ``scale`` the spread of cell i is ``tau^2 * scale_i`` (and ``tau^2`` is the factor): with weights
    ``w = 1 / v``, ``E Q = df + tau^2 * sum_g (sum w s - sum w^2 s / sum w)``, so ``c`` weighs each cell by its
    scale."""
    size = int(group.max()) + 1 if len(group) else 0
    scale = np.ones(len(y)) if scale is None else np.asarray(scale, dtype=np.float64)
    w = 1.0 / v
    sw = _group_sums(group, w, size)
    safe = np.where(sw > 0, sw, 1.0)
    mean = _group_sums(group, w * y, size) / safe
    q = float((w * (y - mean[group]) ** 2).sum())
    counts = np.bincount(group, minlength=size)
    df = float((counts[counts > 0] - 1).sum())
    c = float((_group_sums(group, w * scale, size) - _group_sums(group, w * w * scale, size) / safe).sum())
    return max(0.0, (q - df) / c) if c > 0 else 0.0


def pool(y, variance, group, stratum=None, spread_between: bool = True, scale=None) -> Pooled:
    """Pooled estimates of cells ``y`` (their sampling ``variance``, > 0) in neighbour groups ``group`` (any ids),
    ``tau`` fitted per ``stratum`` (any ids; None: one stratum). ``spread_between=False``: ``tau = 0``. ``scale``:
    each cell's spread is ``tau^2 * scale_i`` (say its per-deal variance: a hand whose deals scatter more has
    neighbours that differ more); ``tau`` is then that factor's square root."""
    y = np.asarray(y, dtype=np.float64)
    v = np.asarray(variance, dtype=np.float64)
    if not (v > 0).all():
        raise ValueError("every cell needs a positive sampling variance")
    if len(y) == 0:
        return Pooled(mean=y, se=v, shrink=v, tau=np.zeros(0))
    _, g = np.unique(np.asarray(group), return_inverse=True)
    strata, s = np.unique(np.zeros(len(y), np.int64) if stratum is None else np.asarray(stratum),
                          return_inverse=True)
    scale = np.ones(len(y)) if scale is None else np.asarray(scale, dtype=np.float64)
    tau2 = np.zeros(len(strata))
    if spread_between:
        for k in range(len(strata)):
            inside = s == k
            _, local = np.unique(g[inside], return_inverse=True)
            tau2[k] = spread(y[inside], v[inside], local, scale[inside])
    t2 = tau2[s] * scale
    w = 1.0 / (v + t2)
    size = int(g.max()) + 1
    sw = _group_sums(g, w, size)
    mu = _group_sums(g, w * y, size) / sw
    mu_var = 1.0 / sw
    shrink = v / (v + t2)
    mean = shrink * mu[g] + (1.0 - shrink) * y
    var = (1.0 - shrink) * v + shrink**2 * mu_var[g]
    return Pooled(mean=mean, se=np.sqrt(var), shrink=shrink, tau=np.sqrt(tau2))


__all__ = ["Pooled", "pool", "spread"]
