"""Fitting the ``distilled`` card play to PIMC's recorded choices: a conditional logit per role and moment.

For one decision with legal cards ``c_1 .. c_k`` the model gives card ``c_i``
the probability ``exp(w . x_i) / sum_j exp(w . x_j)``, ``x_i`` its features
(``twins/distilled.py``). PIMC's choice is often one of several equivalent
cards (touching cards of a suit, with no unseen card between them): every
card equivalent to it counts as chosen, so the likelihood of a decision is
the summed probability of the chosen class. The negative log-likelihood plus
a small ridge penalty is convex; Newton's method finds its minimum in a few
dozen steps, deterministically, so one command reproduces the shipped weights.
"""

from __future__ import annotations

import numpy as np

from ..cards import card_rank, card_suit
from ..rules import RuleSet
from ..twins.distilled import N_FEATURES, View, features, moment

RIDGE = 1e-3


def _cards(mask: int) -> list[int]:
    return [c for c in range(64) if (mask >> c) & 1]


def _voids(forbidden: int) -> frozenset[int]:
    """Suits a player has shown he lacks: PIMC's record forbids him the whole suit."""
    return frozenset(s for s in range(4) if (forbidden >> (16 * s)) & 0xFFFF == 0xFFFF)


def view_of(record: dict, rules: RuleSet) -> View:
    """The player's knowledge at a recorded decision (distil/record.py) as a View."""
    ranks = [card_rank(c) for c in rules.deck]
    wcard = record["wcard"] if record["led"] >= 0 else None
    return View(hand=frozenset(_cards(record["hand"])), legal=frozenset(_cards(record["legal"])),
                unseen=frozenset(_cards(record["unseen"])), trump=record["trump"], me=record["me"],
                players=record["players"], leader=record["leader"], position=record["pos"], win_card=wcard,
                win_seat=record["wseat"] if wcard is not None else None, won=tuple(record["won"]),
                voids=tuple(_voids(f) for f in record["forbidden"]),
                caller=record["caller"] if record["caller"] >= 0 else None, need=rules.rumba_min_tricks,
                low_rank=min(ranks), top_rank=max(ranks))


def equivalent(a: int, b: int, unseen: frozenset[int]) -> bool:
    """Same suit and no unseen card between them: whoever holds the rest, the two play alike."""
    if card_suit(a) != card_suit(b):
        return False
    lo, hi = sorted((a, b))
    return not any(lo < u < hi for u in unseen)


def card_values(record: dict) -> np.ndarray | None:
    """PIMC's mean utility of each legal card (ascending card order) for the player choosing, so higher is
    better for him (a defender minimises the caller's utility); None for a record without ``sums``."""
    if "sums" not in record or not record.get("used"):
        return None
    sign = -1.0 if record["caller"] >= 0 and record["me"] != record["caller"] else 1.0
    return sign * np.asarray(record["sums"], dtype=np.float64) / record["used"]


def design(records: list[dict], rules: RuleSet, labels: str = "equivalent"):
    """Per (follow rule, role, moment): the feature matrices of the decisions, which cards count as chosen, and
    PIMC's values of the cards (:func:`card_values`).

    ``labels``: "equivalent", PIMC's card and every card equivalent to it; "tied", every card PIMC values as
    highly as its own (equivalent cards included: they make the same tricks in every world)."""
    out: dict[tuple[int, int, int], tuple[list, list, list]] = {}
    for record in records:
        v = view_of(record, rules)
        legal = sorted(v.legal)
        x = np.array([features(v, c) for c in legal])
        values = card_values(record)
        if labels == "tied":
            if values is None:
                raise ValueError("tied labels need PIMC's values (sums): record again")
            chosen = (values >= values.max() - 1e-9).astype(np.float64)
        else:
            chosen = np.array([1.0 if equivalent(c, record["card"], v.unseen) else 0.0 for c in legal])
        xs, ys, vs = out.setdefault((rules.follow_code, v.role, moment(v)), ([], [], []))
        xs.append(x)
        ys.append(chosen)
        vs.append(values)
    return out


def decision_weights(vs: list, how: str) -> np.ndarray | None:
    """How much each decision counts in the fit: None (all alike), "spread" (PIMC's best card less its worst,
    in utility points) or "regret" (the best less the mean of the others). A decision where every card is
    worth the same teaches nothing about what to play."""
    if how == "none":
        return None
    if any(v is None for v in vs):
        raise ValueError(f"decision weights {how!r} need PIMC's values (sums): record again")
    if how == "spread":
        return np.array([v.max() - v.min() for v in vs])
    if how == "regret":
        return np.array([v.max() - (v.sum() - v.max()) / (len(v) - 1) for v in vs])
    raise ValueError(f"decision weights: {how!r}")


def fit_logit(xs: list[np.ndarray], ys: list[np.ndarray], ridge: float = RIDGE, steps: int = 60,
              weight: np.ndarray | None = None) -> np.ndarray:
    """Newton's method on the ridge-penalised negative log-likelihood of the chosen classes.

    ``weight``: how much each decision counts (default: all alike), e.g. how much PIMC's choice matters."""
    x = np.concatenate(xs)
    y = np.concatenate(ys)
    count = len(xs)
    omega = np.ones(count) if weight is None else np.asarray(weight, dtype=np.float64)
    if not omega.sum() > 0:
        raise ValueError("every decision weighs 0: nothing to fit")
    omega = omega * (count / omega.sum())  # mean 1: the ridge keeps its strength
    group = np.concatenate([np.full(len(m), i) for i, m in enumerate(xs)])
    starts = np.concatenate([[0], np.cumsum([len(m) for m in xs])[:-1]])  # decisions are contiguous blocks
    w = np.zeros(x.shape[1])

    def loss_of(w_try):
        s = x @ w_try
        top = np.maximum.reduceat(s, starts)
        pt = np.exp(s - top[group])
        ll = np.log(np.bincount(group, pt * y, count) / np.bincount(group, pt, count))
        return -np.mean(omega * ll) + 0.5 * ridge * w_try @ w_try

    last = np.inf
    for _ in range(steps):
        s = x @ w
        top = np.maximum.reduceat(s, starts)
        p = np.exp(s - top[group])
        z = np.bincount(group, p, count)
        zc = np.bincount(group, p * y, count)
        loss = -np.mean(omega * np.log(zc / z)) + 0.5 * ridge * w @ w
        p /= z[group]  # model probability of each card
        q = p * y / (zc / z)[group]  # probability of each card given the chosen class
        og = omega[group]
        grad = x.T @ (og * (p - q)) / count + ridge * w
        # Hessian: E_p[xx'] - E_q[xx'] - (mean_p mean_p' - mean_q mean_q') per decision, each weighted
        mp = np.add.reduceat(p[:, None] * x, starts)
        mq = np.add.reduceat(q[:, None] * x, starts)
        hess = (x.T @ ((og * (p - q))[:, None] * x) - mp.T @ (omega[:, None] * mp) + mq.T @ (omega[:, None] * mq))
        hess = hess / count + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess + 1e-9 * np.eye(x.shape[1]), grad)
        w_new = w - step
        # the Hessian of the class likelihood is not always positive: back off on an increase
        t = 1.0
        while t > 1e-4:
            w_try = w - t * step
            if loss_of(w_try) <= loss:
                w_new = w_try
                break
            t /= 2
        else:
            break
        w = w_new
        if last - loss < 1e-9:
            break
        last = loss
    return w


def agreement(xs: list[np.ndarray], ys: list[np.ndarray], w: np.ndarray) -> float:
    """Share of decisions where the highest-scoring card is one PIMC chose (or equivalent)."""
    return float(np.mean([y[int(np.argmax(x @ w))] > 0 for x, y in zip(xs, ys, strict=True)]))


def fit_all(groups, ridge: float = RIDGE, weighting: str = "none") -> tuple[np.ndarray, dict]:
    """Weights (2 follow rules, 3 roles, 2 moments, N_FEATURES) and each group's decisions and agreement."""
    weights = np.zeros((2, 3, 2, N_FEATURES))
    report = {}
    for key, (xs, ys, vs) in sorted(groups.items()):
        w = fit_logit(xs, ys, ridge, weight=decision_weights(vs, weighting))
        weights[key] = w
        report[key] = {"decisions": len(xs), "agreement": agreement(xs, ys, w)}
    return weights, report


__all__ = ["view_of", "card_values", "design", "decision_weights", "fit_logit", "fit_all", "agreement", "equivalent",
           "RIDGE"]
