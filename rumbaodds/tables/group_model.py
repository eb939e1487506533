"""How a neighbour group's cell answers for another hand of its group: an offset model and a widening.

A group table (:mod:`.groups`) simulates one hand per group, the representative. Another hand of the group (a
*member*) differs from it by a *distance* (a side 7 is not a side 5), measured at build time on the calibration's
members, each on the same deals as its representative. Two things are fitted on it, per value (play, Rumba,
the Rumba's success), each in units of the representative's per-deal spread ``sigma`` (for the success
``max(sqrt(p (1 - p)), P_FLOOR)``), because a value that scatters more per deal also moves more between neighbours:

- **the offset**: least squares of the standardised difference ``z = (member - representative) / sigma`` on where the
  member sits in its group against the representative (:func:`position`: the sum of its low side ranks, and the sum
  over side suits of the highest low rank; with an intercept). A member's value is the representative's plus
  ``sigma`` times the predicted offset. Measured: it halves the Rumba's and the success's distance (flemish 2
  players: 95th percentile 0.31 -> 0.15 spreads);
- **the widening**: what the offset leaves, the leave-one-out residuals (each member predicted by a fit without it),
  sets :func:`factor`: the smallest widening of the cell's interval whose chance of holding a member's value,
  averaged over the calibration's members, is 95% given the cell's own deals. The sampling error ``N(0, sigma^2 /
  n)`` and the residual distance add, so a cell of few deals widens little and one of many deals more.

The decision is ranked again on the moved values as the table kernel ranks it (pass, Rumba, the best play; a Rumba
the table dropped as clearly worse is not ranked); the margin keeps the table's paired interval where it compares
the same two choices, widened by both values' extra widths in quadrature, else it is the unpaired difference.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np

from ..rules import RuleSet
from ..stats import Z95, Estimate
from .handclasses import enumerate_trump_rank_pairs
from .neighbours import low_ranks

VALUES = ("play", "rumba", "success")
QUANTILE = 0.95  # the summary's quantile of the distances
LEVEL = 0.95  # a widened interval holds a member's value this often, over the calibration's members
P_FLOOR = 0.2  # the Rumba's success: a spread of at least 0.2 (p(1-p) at p = 4.2%), so sure Rumbas still widen


def position(rules: RuleSet, pair_rows, below: str) -> np.ndarray:
    """Per pair row: (sum of the low side cards' rank indices, sum over side suits of the highest low rank held, 0
    for none): where in its neighbour group a hand sits. Vectorised."""
    pairs = enumerate_trump_rank_pairs(rules)
    lanes = pairs.classes.side_lanes[pairs.class_rows[np.asarray(pair_rows, dtype=np.int64)]]
    total = np.zeros(lanes.shape[0])
    top = np.zeros(lanes.shape)
    for r in low_ranks(rules, below):
        held = (lanes >> r) & 1
        total += r * held.sum(axis=1)
        top = np.where(held == 1, r, top)  # ascending ranks: the last one held is the highest
    return np.stack([total, top.sum(axis=1)], axis=1)


def design(rules: RuleSet, members, representatives, below: str) -> np.ndarray:
    """The offset model's rows: (1, where each member sits against its representative)."""
    where = position(rules, members, below) - position(rules, representatives, below)
    return np.column_stack([np.ones(len(where)), where])


def per_deal_spread(half, deals) -> np.ndarray:
    """A value's per-deal spread ``sigma`` from its 95% half-width over ``deals`` deals (at least one)."""
    return np.asarray(half, dtype=np.float64) * np.sqrt(np.maximum(np.asarray(deals, dtype=np.float64), 1.0)) / Z95


def p_spread(p) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0)
    return np.maximum(np.sqrt(p * (1 - p)), P_FLOOR)


@dataclass(frozen=True, eq=False)
class GroupModel:
    """Per value: the offset's coefficients (per unit of spread), the calibration's leave-one-out residual distances
    (what :func:`factor` widens by) and its raw distances (before the offset, for the summary)."""

    beta: dict[str, np.ndarray]
    residual: dict[str, np.ndarray]
    raw: dict[str, np.ndarray]

    @classmethod
    def fit(cls, calibration: dict, rules: RuleSet, below: str) -> GroupModel:
        """From a calibration (:func:`.groups.standardised` columns, or a manifest's lists): signed ``z`` per value,
        NaN or None where a member or its representative has no such value."""
        x_all = design(rules, calibration["member"], calibration["representative"], below)
        beta, residual, raw = {}, {}, {}
        for value in VALUES:
            z = np.array([np.nan if v is None else v for v in calibration[value]], dtype=np.float64)
            ok = np.isfinite(z)
            x, z = x_all[ok], z[ok]
            if len(z) <= x.shape[1]:  # too few to fit an offset: none
                beta[value], residual[value] = np.zeros(x_all.shape[1]), np.abs(z)
            else:
                inverse = np.linalg.pinv(x.T @ x)
                beta[value] = inverse @ x.T @ z
                leverage = np.einsum("ij,jk,ik->i", x, inverse, x)
                residual[value] = np.abs(z - x @ beta[value]) / np.maximum(1.0 - leverage, 1e-9)
            raw[value] = np.abs(z)
        return cls(beta, residual, raw)

    def offset(self, value: str, x: np.ndarray) -> np.ndarray:
        """The predicted standardised offset of ``value`` for design rows ``x`` (:func:`design`)."""
        return np.asarray(x, dtype=np.float64) @ self.beta[value]

    def summary(self) -> dict:
        """Per value: members, the 95th percentile of the distance before and after the offset, the coefficients."""
        def q(values) -> float:
            return float(np.quantile(values, QUANTILE)) if len(values) else 0.0

        return {v: {"members": int(len(self.raw[v])), "q95": q(self.raw[v]), "q95_after_offset": q(self.residual[v]),
                    "offset": [float(b) for b in self.beta[v]]} for v in VALUES}


def _phi(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.array([math.erf(v / math.sqrt(2.0)) for v in x.ravel()]).reshape(x.shape))


@functools.lru_cache(maxsize=4096)
def _factor(z: tuple, deals: float, level: float) -> float:
    zn = np.asarray(z, dtype=np.float64) * math.sqrt(deals)

    def cover(w: float) -> float:
        return float(np.mean(_phi(w - zn) - _phi(-w - zn)))

    lo = Z95
    if not len(zn) or cover(lo) >= level:
        return 1.0
    hi = Z95 + float(zn.max()) + 4.0
    for _ in range(40):  # bisection on the half-width in sampling standard errors
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if cover(mid) < level else (lo, mid)
    return hi / Z95


def factor(z: np.ndarray, deals: float, level: float = LEVEL) -> float:
    """How much a cell of ``deals`` deals must widen its 95% half-width to hold its members' values at ``level``.

    A member's estimate is the representative's (moved by the offset), off by its sampling error ``e ~ N(0, sigma^2
    / deals)`` and by its distance ``d``; with ``|d| = z sigma`` drawn from the calibration, a half-width of ``w sigma
    / sqrt(deals)`` holds it with chance ``Phi(w - z sqrt(deals)) - Phi(-w - z sqrt(deals))``: the factor is the
    smallest ``w / 1.96`` whose mean chance over the calibration is ``level``."""
    return _factor(tuple(np.round(np.asarray(z, dtype=np.float64), 12)), float(max(deals, 1.0)), level)


def moved(estimate: Estimate, offset: float, z: np.ndarray, deals: float) -> Estimate:
    """A representative's value as a member's: moved by ``offset`` per-deal spreads, its half-width times
    :func:`factor` of the residual distances ``z``."""
    half = estimate.half_width
    mean = estimate.mean + offset * float(per_deal_spread(half, deals))
    wide = half * factor(z, deals)
    return Estimate(mean, mean - wide, mean + wide, estimate.samples)


def moved_p(estimate: Estimate, offset: float, z: np.ndarray) -> Estimate:
    """The Rumba's success as a member's: moved by ``offset`` spreads ``max(sqrt(p (1 - p)), P_FLOOR)``, each side
    of its interval times :func:`factor` at the deals that give that side's width in units of the spread (the
    Wilson interval is uneven); a side that reached 0 or 1 still does."""
    spread = float(p_spread(estimate.mean))
    mean = min(1.0, max(0.0, estimate.mean + offset * spread))
    sides = []
    for side in (estimate.mean - estimate.low, estimate.high - estimate.mean):
        deals = (Z95 * spread / side) ** 2 if side > 1e-9 else 1e6
        sides.append(max(side, 1e-9) * factor(z, deals))
    # an interval that reaches 0 or 1 keeps reaching it: a Rumba that never failed on the representative's deals
    # may be sure for the member too, however the offset moves its mean
    low = 0.0 if estimate.low <= 1e-12 else max(0.0, mean - sides[0])
    high = 1.0 if estimate.high >= 1.0 - 1e-12 else min(1.0, mean + sides[1])
    return Estimate(mean, low, high, estimate.samples)


def widen_margin(margin: Estimate, extra: list[float]) -> Estimate:
    """A paired margin widened by the extra widths (in quadrature) of the two values it is the difference of."""
    wide = float(np.sqrt(margin.half_width ** 2 + sum(e * e for e in extra)))
    return Estimate(margin.mean, margin.mean - wide, margin.mean + wide, margin.samples)


def rank(values: dict[str, float], rumba_live: bool, allowed=None) -> tuple[str, str]:
    """(best, runner-up) as the table kernel ranks them: a stable sort of (pass, Rumba, best play) by value, lower
    first, less a Rumba the table dropped, and (``allowed``) less the choices the situation bars; at least two must
    be left."""
    order = [k for k in ("pass", "rumba", "play") if (k != "rumba" or rumba_live) and (allowed is None or k in allowed)]
    ranked = sorted(order, key=lambda k: values[k])  # sorted() is stable: ties keep the kernel's order
    return ranked[0], ranked[1]


def member_cell(cell, model: GroupModel, x: np.ndarray):
    """A group table's decoded cell (``pack.Cell``) as the answer for a member at design row ``x``: values moved and
    widened, the decision ranked again, the margin as the module docstring says."""
    weight = cell.ess / cell.samples if cell.samples else 1.0
    deals = {"play": cell.ess, "rumba": cell.rumba_deals * weight}
    old = {"play": cell.play, "rumba": cell.rumba}
    new = {k: moved(old[k], float(model.offset(k, x)), model.residual[k], deals[k]) for k in old}
    extra = {k: math.sqrt(max(0.0, new[k].half_width ** 2 - old[k].half_width ** 2)) for k in old}
    values = {"pass": Estimate(0.0, 0.0, 0.0, cell.samples)} | new
    best, runner = rank({k: v.mean for k, v in values.items()}, cell.rumba_deals >= cell.samples)
    m = values[runner].mean - values[best].mean
    if "pass" in (best, runner):  # the other one's value is the margin (pass is 0 on every deal)
        half = values[runner if best == "pass" else best].half_width
    elif {best, runner} == {cell.best, cell.runner}:  # the table's paired margin of the same two, widened
        half = widen_margin(cell.margin, [extra["play"], extra["rumba"]]).half_width
    else:
        half = math.hypot(values[best].half_width, values[runner].half_width)
    margin = Estimate(m, m - half, m + half, cell.margin.samples)
    p = moved_p(cell.p_success, float(model.offset("success", x)), model.residual["success"])
    return dataclasses.replace(cell, best=best, runner=runner, play=new["play"], rumba=new["rumba"], margin=margin,
                               p_success=p)


__all__ = ["GroupModel", "VALUES", "LEVEL", "P_FLOOR", "position", "design", "per_deal_spread", "p_spread", "factor",
           "moved", "moved_p", "widen_margin", "rank", "member_cell"]
