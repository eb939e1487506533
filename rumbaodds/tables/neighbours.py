"""Neighbouring hands: hands alike but for the ranks of their low side cards (a table estimator's pooling groups).

Swapping a side 7 for a side 8 barely moves a hand's numbers (measured by ``python -m benchmarks.bench_neighbours``:
the value of play by 0.007 points at the median, the Rumba's success by about one percentage point). A **neighbour
group** keeps what matters exactly (the trumps, every side card at or above ``rules``' ``LOW_BELOW`` rank, how many
cards each side suit holds) and forgets which low side ranks they are. The cells of one group (one seat, one
turned card) are what :mod:`.pooling` pools, and a group table (:mod:`.groups`) simulates one cell per group, its
:func:`representative`.
"""

from __future__ import annotations

import functools
import itertools
import random

import numpy as np

from ..cards import RANKS, SUIT_BITS
from ..rules import RuleSet
from .handclasses import (
    LANE,
    canonical_hand,
    canonical_hands,
    enumerate_trump_rank_pairs,
    resolve_trump_suit,
    side_suits,
)

LOW_BELOW = "T"  # side cards below the ten are "low": 6-9 in swiss, 2-9 in flemish


def low_ranks(rules: RuleSet, below: str = LOW_BELOW) -> list[int]:
    """The rank indices of the rule set's low ranks (those below ``below``), ascending."""
    top = RANKS.index(below)
    return sorted(RANKS.index(r) for r in rules.ranks if RANKS.index(r) < top)


def low_mask(rules: RuleSet, below: str = LOW_BELOW) -> int:
    """The rank bits of the rule set's low ranks."""
    return sum(1 << r for r in low_ranks(rules, below))


def group_key(mask: int, trump_suit: int | str, rules: RuleSet, below: str = LOW_BELOW) -> tuple:
    """What a neighbour group keeps of hand ``mask``: the trump lane, and per side suit (sorted: the side suits are
    interchangeable) its high ranks and its count of low ones."""
    trump = resolve_trump_suit(rules, trump_suit)
    low = low_mask(rules, below)
    sides = []
    for s in side_suits(rules, trump):
        lane = (int(mask) >> (SUIT_BITS * s)) & LANE
        sides.append((lane & ~low, bin(lane & low).count("1")))
    return (int(mask) >> (SUIT_BITS * trump)) & LANE, tuple(sorted(sides, reverse=True))


def group_members(mask: int, trump_suit: int | str, rules: RuleSet, below: str = LOW_BELOW, most: int | None = None,
                  seed: int = 0) -> list[int]:
    """The hand classes (canonical masks, ascending) of ``mask``'s neighbour group; with ``most``, a seeded random
    choice of at most that many, always holding ``mask``'s own class."""
    trump = resolve_trump_suit(rules, trump_suit)
    ranks, low = low_ranks(rules, below), low_mask(rules, below)
    per_suit = []
    for s in side_suits(rules, trump):
        lane = (int(mask) >> (SUIT_BITS * s)) & LANE
        count = bin(lane & low).count("1")
        per_suit.append([((lane & ~low) | sum(1 << r for r in chosen)) << (SUIT_BITS * s)
                         for chosen in itertools.combinations(ranks, count)])
    trump_part = int(mask) & (LANE << (SUIT_BITS * trump))
    members = sorted({canonical_hand(trump_part | sum(parts), trump, rules) for parts in itertools.product(*per_suit)})
    own = canonical_hand(int(mask), trump, rules)
    if most is not None and len(members) > most:
        others = [m for m in members if m != own]
        members = sorted([own] + random.Random(seed).sample(others, most - 1))
    return members


def spread_ranks(rules: RuleSet, count: int, below: str = LOW_BELOW) -> int:
    """The rank bits of ``count`` low ranks spread evenly over the low ranks (the representative's low cards): the
    middle of the group, so that its members scatter about it on both sides (k of L low ranks: positions
    ``floor((j + 1/2) L / k)``, j < k)."""
    low = low_ranks(rules, below)
    if not 0 <= count <= len(low):
        raise ValueError(f"{count} low cards of {len(low)} low ranks")
    return sum(1 << low[(2 * j + 1) * len(low) // (2 * count)] for j in range(count))


def representative(mask: int, trump_suit: int | str, rules: RuleSet, below: str = LOW_BELOW) -> int:
    """The canonical hand of ``mask``'s group whose low side cards are :func:`spread_ranks` in every side suit."""
    trump = resolve_trump_suit(rules, trump_suit)
    low = low_mask(rules, below)
    out = int(mask) & (LANE << (SUIT_BITS * trump))
    for s in side_suits(rules, trump):
        lane = (int(mask) >> (SUIT_BITS * s)) & LANE
        out |= ((lane & ~low) | spread_ranks(rules, bin(lane & low).count("1"), below)) << (SUIT_BITS * s)
    return canonical_hand(out, trump, rules)


def representative_lanes(rules: RuleSet, below: str = LOW_BELOW) -> np.ndarray:
    """For every 16-bit side lane: whether its low cards are the spread ones (a representative's lane). A class is
    its group's representative where every side lane is (``representative_lanes(rules)[classes.side_lanes]
    .all(axis=1)``): one cell per group, vectorised over every class."""
    low = low_mask(rules, below)
    lanes = np.arange(1 << SUIT_BITS)
    count = np.array([bin(int(x)).count("1") for x in lanes & low])
    n_low = bin(low).count("1")
    spread = np.array([spread_ranks(rules, k, below) for k in range(n_low + 1)] + [0] * (SUIT_BITS - n_low + 1))
    return (lanes & low) == spread[count]


@functools.lru_cache(maxsize=8)
def representative_rows(rules: RuleSet, below: str = LOW_BELOW) -> np.ndarray:
    """The (trump rank, class) pair rows whose class is its group's representative, ascending: the cells of a
    neighbour-group table (:attr:`.spec.TableSpec.neighbours`). The trump lane is kept by the group, so every trump
    rank a member may be asked with is a pair of its representative too. Read-only."""
    pairs = enumerate_trump_rank_pairs(rules)
    flagged = representative_lanes(rules, below)[pairs.classes.side_lanes].all(axis=1)
    rows = np.flatnonzero(flagged[pairs.class_rows]).astype(np.int64)
    rows.flags.writeable = False
    return rows


@functools.lru_cache(maxsize=8)
def representative_index(rules: RuleSet, below: str = LOW_BELOW) -> np.ndarray:
    """For every (trump rank, class) pair: the index of its group's representative among :func:`representative_rows`
    (vectorised :func:`representative_pair`: each side lane's low cards replaced by the spread ones, the hand made
    canonical again). Read-only."""
    pairs = enumerate_trump_rank_pairs(rules)
    classes = pairs.classes
    low = low_mask(rules, below)
    n_low = bin(low).count("1")
    spread = np.array([spread_ranks(rules, k, below) for k in range(n_low + 1)], dtype=np.int64)
    lanes = classes.side_lanes
    counts = np.zeros(lanes.shape, dtype=np.int64)
    for r in low_ranks(rules, below):
        counts += (lanes >> r) & 1
    moved = (lanes & ~low) | spread[counts]
    hands = classes.hands & np.uint64(LANE << (SUIT_BITS * classes.trump_suit))
    for j, suit in enumerate(classes.side_suits):
        hands = hands | (moved[:, j].astype(np.uint64) << np.uint64(SUIT_BITS * suit))
    rep_class = classes.rows_of(canonical_hands(hands, classes.trump_suit, rules))
    rep_pairs = pairs.rows_of(pairs.trump_ranks, rep_class[pairs.class_rows])
    index = np.searchsorted(representative_rows(rules, below), rep_pairs)
    index.flags.writeable = False
    return index


def representative_pair(rules: RuleSet, pair: int, below: str = LOW_BELOW) -> int:
    """The pair row of pair ``pair``'s group representative (the same trump rank)."""
    pairs = enumerate_trump_rank_pairs(rules)
    classes = pairs.classes
    hand = representative(int(classes.hands[pairs.class_rows[pair]]), classes.trump_suit, rules, below)
    return int(pairs.rows_of(pairs.trump_ranks[pair], classes.row_of(hand)))


__all__ = ["LOW_BELOW", "representative_rows", "representative_index", "representative_pair",
           "low_ranks", "low_mask", "group_key", "group_members", "spread_ranks", "representative",
           "representative_lanes"]
