"""Hand classes (trump suit fixed, side suits interchangeable): counts, weights, twin, lookup."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rumbaodds.cards import RANKS, SUITS, CardError, mask_of, parse_hand
from rumbaodds.rules import FLEMISH, SWISS, RuleSet
from rumbaodds.tables.handclasses import (
    canonical_hand,
    canonical_hands,
    class_index,
    enumerate_classes,
    enumerate_trump_rank_pairs,
    side_suits,
)


def tiny(name, suits, ranks, hand_size, max_players=3):
    """A small deck; exchange_limit and rumba_min_tricks scaled so the rule set validates."""
    return RuleSet(
        name=name, suits=suits, ranks=ranks, hand_size=hand_size, min_players=2, max_players=max_players,
        exchange_limit=min(4, hand_size), rumba_min_tricks=min(3, hand_size),
    )


TINY = [
    tiny("t3x4h2", "CDH", "TJQK", 2),
    tiny("t2x5h3", "DS", "9TJQK", 3),
    tiny("t4x4h3", "CDHS", "JQKA", 3),
    tiny("t4x5h5", "CDHS", "TJQKA", 5),
    tiny("t4x3h5", "SHDC", "QKA", 5, max_players=2),
    tiny("t3x6h1", "CHS", "789TJQ", 1),
]


def hand(text: str) -> int:
    return mask_of(parse_hand(text))


def all_hands(rules: RuleSet) -> np.ndarray:
    """Every hand of the deck as uint64 masks (vectorised, for the big decks)."""
    deck = np.array(rules.deck, dtype=np.uint64)
    masks = np.uint64(1) << deck
    last = np.arange(len(deck))
    for _ in range(rules.hand_size - 1):
        counts = len(deck) - 1 - last
        src = np.repeat(np.arange(len(masks)), counts)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        nxt = np.arange(len(src)) - starts + last[src] + 1
        masks = masks[src] | (np.uint64(1) << deck[nxt])
        last = nxt
    return masks


def permute_sides(mask: int, sides: tuple[int, ...], perm) -> int:
    """Move the lane of suit sides[i] to suit sides[perm[i]]; trump lane unchanged."""
    out = mask
    for s in sides:
        out &= ~(0xFFFF << (16 * s))
    for i, s in enumerate(sides):
        out |= ((mask >> (16 * s)) & 0xFFFF) << (16 * sides[perm[i]])
    return out


# -- counts ------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules, n_classes", [(SWISS, 71_262), (FLEMISH, 484_731)], ids=["swiss", "flemish"]
)
def test_class_counts_and_weight_sums(rules, n_classes):
    classes = enumerate_classes(rules)
    assert len(classes) == len(classes.weights) == n_classes
    assert classes.trump_suit == SUITS.index("S")
    assert int(classes.weights.sum()) == comb(rules.deck_size, rules.hand_size)
    assert classes.hands.dtype == np.uint64 and classes.weights.dtype == np.int64
    assert np.all(np.diff(classes.hands.astype(np.float64)) >= 0) and len(np.unique(classes.hands)) == n_classes
    assert set(np.unique(classes.weights)) <= {1, 3, 6}
    assert not classes.hands.flags.writeable


def test_swiss_pairs():
    pairs = enumerate_trump_rank_pairs(SWISS)
    classes = pairs.classes
    assert len(pairs) == 546_012
    n_ranks = len(SWISS.ranks)
    # one (hand, trump card) per trump card and hand from the other 35 cards
    assert int(pairs.weights.sum()) == n_ranks * comb(35, 5)
    assert int(pairs.weights.sum()) == int((classes.weights * (n_ranks - classes.n_trumps())).sum())
    assert np.array_equal(pairs.weights, classes.weights[pairs.class_rows])
    assert not np.any((classes.trump_lanes[pairs.class_rows] >> pairs.trump_ranks) & 1)
    assert set(np.unique(pairs.trump_ranks)) == {RANKS.index(r) for r in SWISS.ranks}


@pytest.mark.parametrize("rules", [SWISS, FLEMISH], ids=["swiss", "flemish"])
def test_full_scan_matches(rules):
    masks = all_hands(rules)
    assert len(masks) == comb(rules.deck_size, rules.hand_size)
    reps, counts = np.unique(canonical_hands(masks, None, rules), return_counts=True)
    classes = enumerate_classes(rules)
    assert np.array_equal(reps, classes.hands)
    assert np.array_equal(counts, classes.weights)
    rows = classes.rows_of(masks[::97])
    assert np.array_equal(classes.hands[rows], canonical_hands(masks[::97], "S", rules))


# -- brute-force twin on tiny decks -------------------------------------------
@pytest.mark.parametrize("rules", TINY, ids=[r.name for r in TINY])
def test_bruteforce_twin(rules):
    for trump in rules.suits:
        t = SUITS.index(trump)
        sides = side_suits(rules, t)
        # orbits under all side-suit permutations, computed without canonical_hand
        orbits = {}
        for cards in itertools.combinations(rules.deck, rules.hand_size):
            m = mask_of(cards)
            orbit = frozenset(permute_sides(m, sides, p) for p in itertools.permutations(range(len(sides))))
            orbits[orbit] = None
        assert sum(len(o) for o in orbits) == comb(rules.deck_size, rules.hand_size)
        expected = {}
        for orbit in orbits:
            reps = {canonical_hand(m, trump, rules) for m in orbit}
            assert len(reps) == 1
            rep = reps.pop()
            assert rep in orbit
            expected[rep] = len(orbit)
        classes = enumerate_classes(rules, trump)
        assert classes.trump_suit == t and classes.side_suits == sides
        got = dict(zip(map(int, classes.hands), map(int, classes.weights), strict=False))
        assert got == expected

        # pairs twin: every (hand, trump card not in the hand)
        pairs = enumerate_trump_rank_pairs(rules, t)
        count = Counter()
        for orbit in orbits:
            for m in orbit:
                row = class_index(classes, m)
                for r in rules.ranks:
                    card = 16 * t + RANKS.index(r)
                    if not (m >> card) & 1:
                        count[(RANKS.index(r), row)] += 1
        rows = zip(pairs.trump_ranks, pairs.class_rows, pairs.weights, strict=True)
        got_pairs = {(int(r), int(c)): int(w) for r, c, w in rows}
        assert got_pairs == dict(count)


def test_default_trump_is_last_suit():
    assert enumerate_classes(TINY[4]).trump_suit == SUITS.index("C")  # suits "SHDC"
    assert enumerate_classes(TINY[0]).trump_suit == SUITS.index("H")


# -- canonical form: property tests on swiss ------------------------------------
swiss_hands = st.lists(st.sampled_from(SWISS.deck), min_size=5, max_size=5, unique=True).map(mask_of)


@settings(max_examples=300, deadline=None)
@given(swiss_hands, st.permutations([0, 1, 2]), st.sampled_from("CDHS"))
def test_canonical_invariant_under_side_permutations(mask, perm, trump):
    t = SUITS.index(trump)
    sides = side_suits(SWISS, t)
    moved = permute_sides(mask, sides, perm)
    canon = canonical_hand(mask, trump, SWISS)
    assert canonical_hand(moved, t, SWISS) == canon
    assert canonical_hand(canon, t, SWISS) == canon
    # same trump lane, same multiset of side lanes, same number of cards
    lane = lambda m, s: (m >> (16 * s)) & 0xFFFF  # noqa: E731
    assert lane(canon, t) == lane(mask, t)
    assert sorted(lane(canon, s) for s in sides) == sorted(lane(mask, s) for s in sides)
    assert int(canonical_hands(np.array([mask, moved], dtype=np.uint64), t, SWISS)[1]) == canon
    classes = enumerate_classes(SWISS, t)
    row = class_index(classes, moved)
    assert row == classes.row_of(mask) and int(classes.hands[row]) == canon


# -- features, hand-worked ---------------------------------------------------------
@pytest.mark.parametrize(
    "text, trump, canon, weight, trumps, top, aces, kings, voids",
    [
        ("SA S6 HA CK DK", "S", "CA DK HK S6 SA", 3, 2, "A", 1, 2, 0),
        ("H6 H7 H8 H9 D6", "S", "C6 C7 C8 C9 D6", 6, 0, None, 0, 0, 1),
        ("S6 S7 S8 S9 ST", "S", "S6 S7 S8 S9 ST", 1, 5, "T", 0, 0, 3),
        ("CA CK CQ HA SA", "C", "CA CK CQ DA HA", 3, 3, "A", 2, 0, 1),
        ("DK D6 HK H6 SJ", "D", "C6 CK D6 DK HJ", 6, 2, "K", 0, 1, 1),
    ],
)
def test_features_hand_worked(text, trump, canon, weight, trumps, top, aces, kings, voids):
    classes = enumerate_classes(SWISS, trump)
    row = class_index(classes, hand(text))
    assert int(classes.hands[row]) == hand(canon)
    assert classes.weights[row] == weight
    assert classes.n_trumps()[row] == trumps
    assert classes.top_trump_rank()[row] == (RANKS.index(top) if top else -1)
    assert classes.side_aces()[row] == aces
    assert classes.side_kings()[row] == kings
    assert classes.side_voids()[row] == voids
    frame = classes.features()
    assert frame.loc[row, "trumps"] == trumps and frame.loc[row, "weight"] == weight


def test_pair_lookup():
    pairs = enumerate_trump_rank_pairs(SWISS)
    m = hand("SA S6 HA CK DK")
    row = pairs.row_of(RANKS.index("K"), m)
    assert pairs.trump_ranks[row] == RANKS.index("K")
    assert pairs.class_rows[row] == class_index(pairs.classes, m)
    assert pairs.weights[row] == 3
    with pytest.raises(KeyError):
        pairs.row_of(RANKS.index("A"), m)  # SA is in the hand
    assert pairs.rows_of([RANKS.index("6")], [pairs.class_rows[row]])[0] == -1


def test_errors():
    classes = enumerate_classes(SWISS)
    with pytest.raises(CardError):
        canonical_hand(hand("H2 HA HK HQ HJ"), "S", SWISS)  # H2 not in the swiss deck
    with pytest.raises(CardError):
        enumerate_classes(TINY[0], "S")  # no spades in that deck
    with pytest.raises(KeyError):
        class_index(classes, hand("HA HK HQ HJ"))  # 4 cards
    assert classes.rows_of(np.array([hand("HA HK HQ HJ")], dtype=np.uint64), strict=False)[0] == -1
    with pytest.raises(KeyError):
        classes.rows_of(np.array([hand("HA HK HQ HJ")], dtype=np.uint64))
