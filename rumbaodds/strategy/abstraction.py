"""The abstraction of the solved game: a strength index of a hand, and buckets of it.

A player's decision depends on his seat, the context (what the earlier seats
said) and his hand; the hand enters through a *strength index*: the sum of a
value per card, by (trump or not, ranks below the deck's top). The values are
fitted, per rule set, as the expected tricks each card brings a Rumba caller
whom every other player joins (least squares over random deals, the default
card play, at the reference table size), scaled to integers 0..12. Being additive,
the index keeps the exact conditioning of ``engine/condition.py`` possible
for every opponent. It is compared with the keep-value hand points by how
well each predicts those tricks on fresh deals (``fit.r2`` against
``fit.r2_points``). Every score of the index is a bucket of its
own, except scores too rare to learn from (under 0.05% of random hands),
which join the next: the strong hands, where the decisions are made, keep
their resolution (about 30 buckets in both presets).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numba import njit, prange

from ..cardplay import DEFAULT_PLAY
from ..cards import RANKS
from ..engine import policy as P
from ..engine.bits import U1, bit, lowest_card
from ..engine.keep import hand_points
from ..engine.play import POLICY_CODES, play_tricks
from ..engine.rng import below, next_state, stream_start
from ..engine.rules_layout import R_FOLLOW, R_HAND, R_MIN_TRICKS, R_TOP_RANK, rules_array
from ..opponents.policies import keep_value_table
from ..rules import RuleSet

DEFAULT_POLICY = POLICY_CODES[DEFAULT_PLAY]  # the card play of every answer (cardplay.py)

REFERENCE_PLAYERS = {"swiss": 5, "flemish": 4}
MIN_SHARE = 0.0005  # a bucket holds at least this share of random hands
FEATURES = 32  # (is trump) x (ranks below the top, 0..15)


@njit(cache=True, parallel=True)
def rumba_deals(deck, players, rp, seed, count):
    """Random deals: seat 0 calls Rumba and every other seat joins; (seat 0's hand, trump suit, his tricks)."""
    hand_size = rp[R_HAND]
    hands_out = np.zeros(count, dtype=np.uint64)
    trumps_out = np.zeros(count, dtype=np.int64)
    tricks_out = np.zeros(count, dtype=np.int64)
    deck_mask = np.uint64(0)
    for c in deck:
        deck_mask |= bit(c)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        pool = np.empty_like(deck)
        hands = np.zeros(players, dtype=np.uint64)
        tricks = np.zeros(players, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            pool[:] = deck
            state = stream_start(seed, i)
            size = pool.shape[0]
            dealt = players * hand_size + 1
            for j in range(dealt):
                state = next_state(state)
                r = j + below(state, size - j)
                tmp = pool[j]
                pool[j] = pool[r]
                pool[r] = tmp
            for s in range(players):
                mask = np.uint64(0)
                for j in range(hand_size):
                    mask |= bit(pool[s * hand_size + j])
                hands[s] = mask
            trump_card = pool[players * hand_size]
            hands_out[i] = hands[0]
            trumps_out[i] = trump_card >> 4
            tricks[:] = 0
            leader = 0  # seat 0 leads a Rumba under both leads: he is the Rumba player and the first active seat
            play_tricks(hands, players, leader, trump_card >> 4, rp[R_FOLLOW], DEFAULT_POLICY, 0, deck_mask,
                        bit(trump_card), tricks, rp[R_MIN_TRICKS])
            tricks_out[i] = tricks[0]
    return hands_out, trumps_out, tricks_out


@njit(cache=True)
def feature_counts(hands, trumps, top):
    """Per deal: how many cards of each (is trump, ranks below the top) the hand holds."""
    out = np.zeros((hands.shape[0], FEATURES))
    for i in range(hands.shape[0]):
        rest = hands[i]
        while rest:
            card = lowest_card(rest)
            rest &= rest - U1
            distance = top - (card & 15)
            if 0 <= distance < 16:
                out[i, (16 if (card >> 4) == trumps[i] else 0) + distance] += 1.0
    return out


@njit(cache=True)
def points_of(hands, trumps, top):
    out = np.zeros(hands.shape[0])
    for i in range(hands.shape[0]):
        out[i] = hand_points(hands[i], trumps[i], top)
    return out


@dataclass(frozen=True)
class Abstraction:
    """Card values of the strength index, its buckets, and how it was fitted."""

    values: tuple[tuple[int, ...], tuple[int, ...]]  # (side, trump) x ranks below the top
    bucket_of_score: tuple[int, ...]  # NSCORE entries
    edges: tuple[int, ...]  # the lowest score of each bucket after the first
    r2: float  # of the index predicting a Rumba caller's tricks, on fresh deals
    r2_points: float  # of the keep-value hand points, on the same deals
    samples: int
    reference_players: int

    @property
    def buckets(self) -> int:
        return max(self.bucket_of_score) + 1

    def value_array(self) -> np.ndarray:
        return np.array(self.values, dtype=np.int64)

    def bucket_array(self) -> np.ndarray:
        return np.array(self.bucket_of_score, dtype=np.int64)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Abstraction:
        return cls(tuple(tuple(v) for v in data["values"]), tuple(data["bucket_of_score"]), tuple(data["edges"]),
                   float(data["r2"]), float(data["r2_points"]), int(data["samples"]), int(data["reference_players"]))

    def describe(self) -> str:
        return (f"strength index: per-card trick values, {self.buckets} buckets; predicts a Rumba caller's tricks "
                f"with R^2 {self.r2:.3f} (keep-value hand points: {self.r2_points:.3f}), {self.samples:,} deals")


def _r2(x: np.ndarray, y: np.ndarray) -> float:
    """R^2 of the least-squares line of y on x."""
    design = np.column_stack([np.ones_like(x), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    return float(1 - resid.var() / y.var())


def fit_abstraction(rules: RuleSet, players: int | None = None, samples: int = 400_000, seed: int = 1) -> Abstraction:
    """Fit the card values by least squares of a Rumba caller's tricks, then cut the buckets."""
    players = players or REFERENCE_PLAYERS.get(rules.name, max(rules.min_players, min(5, rules.max_players)))
    rp = rules_array(rules)
    top = int(rp[R_TOP_RANK])
    deck = rules.deck_array()
    hands, trumps, tricks = rumba_deals(deck, players, rp, np.uint64(seed), samples)
    features = feature_counts(hands, trumps, top)
    half = samples // 2
    design = np.column_stack([np.ones(half), features[:half]])
    coef, *_ = np.linalg.lstsq(design, tricks[:half].astype(float), rcond=None)
    per_card = np.maximum(coef[1:], 0.0)
    present = np.zeros(FEATURES, dtype=bool)
    for d in range(len(rules.ranks)):
        present[d] = present[16 + d] = True
    per_card[~present] = 0.0
    best_five = np.sort(per_card)[-rules.hand_size:].sum()
    scale = min(P.MAX_CARD_VALUE / max(per_card.max(), 1e-9), (P.NSCORE - 4) / max(best_five, 1e-9))
    values = np.round(per_card * scale).astype(np.int64).reshape(2, 16)
    # fresh deals: how well each index predicts the tricks
    score_test = features[half:] @ values.reshape(-1).astype(float)
    r2 = _r2(score_test, tricks[half:].astype(float))
    r2_points = _r2(points_of(hands[half:], trumps[half:], top), tricks[half:].astype(float))
    # buckets: every score of the index its own, those held by fewer than MIN_SHARE of random hands merged
    # upwards into the next (the strong tail, where decisions lie, keeps its resolution while it has hands)
    scores = np.minimum(features @ values.reshape(-1).astype(float), P.NSCORE - 1).astype(int)
    share = np.bincount(scores, minlength=P.NSCORE) / len(scores)
    edges, mass = [], 0.0
    for x in range(P.NSCORE):
        if mass >= MIN_SHARE and share[x] > 0:
            edges.append(x)
            mass = 0.0
        mass += share[x]
    if edges and share[edges[-1]:].sum() < MIN_SHARE:  # a last bucket too thin: join it to the one below
        edges.pop()
    bucket = np.searchsorted(np.array(edges), np.arange(P.NSCORE), side="right")
    return Abstraction((tuple(int(v) for v in values[0]), tuple(int(v) for v in values[1])),
                       tuple(int(b) for b in bucket), tuple(edges), r2, r2_points, samples, players)


def keep_point_abstraction() -> tuple[np.ndarray, np.ndarray]:
    """The named models' index (keep values, one bucket per point), for comparisons."""
    return keep_value_table(), np.arange(P.NSCORE, dtype=np.int64)


__all__ = ["Abstraction", "fit_abstraction", "REFERENCE_PLAYERS", "RANKS"]
