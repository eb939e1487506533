"""Hand classes for strategy tables: hands up to a permutation of the side suits.

With the trump suit fixed, the non-trump ("side") suits are interchangeable:
permuting them maps every deal onto an equivalent deal. A hand is therefore
described by its trump rank set plus the *multiset* of its side-suit rank
sets. Each such description is a class; for 5-card hands there are 71,262
classes in ``swiss`` and 484,731 in ``flemish``.

Canonical form (the class representative, a real hand of the class):

- the trump lane is kept as it is;
- the side lanes (16-bit rank sets, bit = rank index as in :mod:`rumbaodds.cards`) are
  sorted by their integer value, **largest first**, and laid onto the side
  suits in the rule set's suit order (``rules.suits`` without the trump suit).
  For ``swiss`` with trump S that is C, D, H: clubs hold the largest lane.

The weight of a class is the number of real hands (for that one trump suit)
that map onto it: the number of distinct assignments of its side-lane
multiset to the side suits, ``k! / prod(multiplicity!)`` with ``k`` side suits.
Weights sum to ``C(deck_size, hand_size)``.

Classes are enumerated combinatorially (trump rank set, then a multiset of
side rank sets of the remaining size) with numpy, never by scanning hands.
The rows of :class:`HandClasses` are sorted by representative mask, so a hand
is looked up by canonicalising it and a ``searchsorted``.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from ..cards import RANKS, SUIT_BITS, SUITS, CardError, cards_of, format_card, parse_suit
from ..rules import RuleSet

LANE = (1 << SUIT_BITS) - 1

# popcount / highest bit of a 16-bit lane (numpy >= 1.26 has no bitwise_count).
_POP16 = np.array([bin(i).count("1") for i in range(1 << SUIT_BITS)], dtype=np.int8)
_TOP16 = np.array([i.bit_length() - 1 for i in range(1 << SUIT_BITS)], dtype=np.int8)


# ---------------------------------------------------------------------------
# suits
# ---------------------------------------------------------------------------
def resolve_trump_suit(rules: RuleSet, trump_suit: int | str | None = None) -> int:
    """Suit index (C=0 .. S=3) of ``trump_suit``; ``None`` means the rule set's last suit."""
    if trump_suit is None:
        return rules.suit_indices[-1]
    if isinstance(trump_suit, str):
        suit = parse_suit(trump_suit)
    else:
        suit = int(trump_suit)
        if not 0 <= suit < len(SUITS):
            raise CardError(f"unknown suit index {trump_suit!r} (0..{len(SUITS) - 1})", str(trump_suit))
    rules.check_suit(suit)
    return suit


def side_suits(rules: RuleSet, trump_suit: int) -> tuple[int, ...]:
    """The non-trump suits of the rule set, in rule-set order (where canonical lanes go)."""
    return tuple(s for s in rules.suit_indices if s != trump_suit)


# ---------------------------------------------------------------------------
# canonical form
# ---------------------------------------------------------------------------
def _check_deck(mask: int, rules: RuleSet) -> None:
    extra = mask & ~rules.deck_mask
    if extra:
        card = format_card(cards_of(extra)[0])
        raise CardError(f"card {card} is not in the {rules.name} deck ({rules.ranks_text()})", card)


def canonical_hand(mask: int, trump_suit: int | str | None, rules: RuleSet) -> int:
    """Representative mask of the class of hand ``mask`` (see the module docstring).

    Invariant under any permutation of the side suits; the trump lane is kept.
    A card outside the rule set's deck is a :class:`CardError`.
    """
    mask = int(mask)
    trump = resolve_trump_suit(rules, trump_suit)
    _check_deck(mask, rules)
    sides = side_suits(rules, trump)
    lanes = sorted(((mask >> (SUIT_BITS * s)) & LANE for s in sides), reverse=True)
    out = mask & (LANE << (SUIT_BITS * trump))
    for suit, lane in zip(sides, lanes, strict=False):
        out |= lane << (SUIT_BITS * suit)
    return out


def canonical_hands(masks, trump_suit: int | str | None, rules: RuleSet) -> np.ndarray:
    """Vectorised :func:`canonical_hand` over an array of masks (returns uint64)."""
    masks = np.asarray(masks, dtype=np.uint64)
    trump = resolve_trump_suit(rules, trump_suit)
    outside = masks & np.uint64(~rules.deck_mask & ((1 << 64) - 1))
    if np.any(outside):
        _check_deck(int(masks[np.flatnonzero(outside)[0]]), rules)
    sides = side_suits(rules, trump)
    lanes = np.stack([(masks >> np.uint64(SUIT_BITS * s)) & np.uint64(LANE) for s in sides], axis=-1)
    lanes = np.sort(lanes, axis=-1)[..., ::-1]
    out = masks & np.uint64(LANE << (SUIT_BITS * trump))
    for j, suit in enumerate(sides):
        out |= lanes[..., j] << np.uint64(SUIT_BITS * suit)
    return out


# ---------------------------------------------------------------------------
# the classes
# ---------------------------------------------------------------------------
def _freeze(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class HandClasses:
    """All classes of ``rules.hand_size``-card hands for one trump suit.

    ``hands`` (uint64, ascending) are the canonical representatives, ``weights``
    (int64) the number of real hands of the trump suit in each class. Arrays
    are read-only. Per-class features (vectorised, one value per row):
    :meth:`n_trumps`, :meth:`top_trump_rank`, :meth:`side_aces`,
    :meth:`side_kings`, :meth:`side_count`, :meth:`side_voids`.
    """

    rules: RuleSet
    trump_suit: int
    side_suits: tuple[int, ...]
    hands: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.hands)

    # -- lanes ---------------------------------------------------------------
    @property
    def trump_lanes(self) -> np.ndarray:
        """Trump rank set of each class (int64, bit = rank index)."""
        return ((self.hands >> np.uint64(SUIT_BITS * self.trump_suit)) & np.uint64(LANE)).astype(np.int64)

    @property
    def side_lanes(self) -> np.ndarray:
        """(n_classes, n_side_suits) int64 side rank sets, in :attr:`side_suits` order (non-increasing)."""
        return np.stack(
            [((self.hands >> np.uint64(SUIT_BITS * s)) & np.uint64(LANE)).astype(np.int64) for s in self.side_suits],
            axis=1,
        )

    # -- features --------------------------------------------------------------
    def n_trumps(self) -> np.ndarray:
        """Number of trumps in the hand (int64)."""
        return _POP16[self.trump_lanes].astype(np.int64)

    def top_trump_rank(self) -> np.ndarray:
        """Rank index (0 = two .. 12 = ace) of the highest trump, -1 without trumps (int64)."""
        return _TOP16[self.trump_lanes].astype(np.int64)

    def side_count(self, rank: int | str) -> np.ndarray:
        """How many side suits hold ``rank`` (a rank index or a rank letter such as ``"A"``)."""
        if isinstance(rank, str):
            text = "T" if rank.strip() == "10" else rank.strip().upper()
            if len(text) != 1 or text not in RANKS:
                raise CardError(f"unknown rank {rank!r}", rank)
            r = RANKS.index(text)
        else:
            r = int(rank)
        return ((self.side_lanes >> r) & 1).sum(axis=1).astype(np.int64)

    def side_aces(self) -> np.ndarray:
        return self.side_count("A")

    def side_kings(self) -> np.ndarray:
        return self.side_count("K")

    def side_voids(self) -> np.ndarray:
        """Number of side suits with no card in the hand."""
        return (self.side_lanes == 0).sum(axis=1).astype(np.int64)

    def features(self):
        """pandas DataFrame, one row per class: hand, weight, trumps, top_trump, side_aces, side_kings, side_voids."""
        import pandas as pd

        return pd.DataFrame(
            {
                "hand": self.hands,
                "weight": self.weights,
                "trumps": self.n_trumps(),
                "top_trump": self.top_trump_rank(),
                "side_aces": self.side_aces(),
                "side_kings": self.side_kings(),
                "side_voids": self.side_voids(),
            }
        )

    # -- lookup ----------------------------------------------------------------
    def rows_of(self, masks, strict: bool = True) -> np.ndarray:
        """Class row of each real hand in ``masks`` (any suit permutation); -1 if none (or KeyError if strict)."""
        canon = canonical_hands(masks, self.trump_suit, self.rules)
        rows = np.searchsorted(self.hands, canon)
        rows_clipped = np.minimum(rows, len(self.hands) - 1)
        found = self.hands[rows_clipped] == canon
        if strict and not np.all(found):
            bad = int(np.asarray(masks, dtype=np.uint64).reshape(-1)[np.flatnonzero(~found.reshape(-1))[0]])
            raise KeyError(_not_a_hand(bad, self.rules))
        return np.where(found, rows_clipped, -1).astype(np.int64)

    def row_of(self, mask: int) -> int:
        """Class row of one real hand (KeyError if it is not a ``hand_size``-card hand of the deck)."""
        return class_index(self, mask)

    def hand_text(self, row: int) -> str:
        return " ".join(format_card(c) for c in cards_of(int(self.hands[row])))


def _not_a_hand(mask: int, rules: RuleSet) -> str:
    text = " ".join(format_card(c) for c in cards_of(mask)) or "empty hand"
    return f"{text}: {bin(mask).count('1')} cards, rule set {rules.name!r} deals {rules.hand_size}"


def class_index(classes: HandClasses, mask: int) -> int:
    """Row in ``classes`` of the class of real hand ``mask``; KeyError if there is none."""
    canon = canonical_hand(mask, classes.trump_suit, classes.rules)
    row = int(np.searchsorted(classes.hands, np.uint64(canon)))
    if row >= len(classes.hands) or int(classes.hands[row]) != canon:
        raise KeyError(_not_a_hand(int(mask), classes.rules))
    return row


def _partitions(total: int, parts: int, cap: int, largest: int | None = None):
    """Non-increasing tuples of ``parts`` integers in 0..cap summing to ``total``."""
    if largest is None:
        largest = cap
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(min(total, largest), -1, -1):
        if first * parts < total:
            break
        for rest in _partitions(total - first, parts - 1, cap, first):
            yield (first,) + rest


def _cartesian(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rows of ``a`` x rows of ``b`` (2-D int64 arrays), concatenated column-wise."""
    return np.concatenate([np.repeat(a, len(b), axis=0), np.tile(b, (len(a), 1))], axis=1)


@functools.lru_cache(maxsize=16)
def _enumerate(rules: RuleSet, trump: int) -> HandClasses:
    bits = [RANKS.index(r) for r in rules.ranks]
    n_ranks, h = len(bits), rules.hand_size
    sides = side_suits(rules, trump)
    k = len(sides)
    subsets = {
        s: np.array([sum(1 << b for b in combo) for combo in itertools.combinations(bits, s)], dtype=np.int64)
        for s in range(0, min(h, n_ranks) + 1)
    }
    trump_blocks, side_blocks = [], []
    for t in range(0, min(h, n_ranks) + 1):
        for part in _partitions(h - t, k, n_ranks):
            block = np.zeros((1, 0), dtype=np.int64)
            for size, group in itertools.groupby(part):
                c = len(list(group))
                pool = subsets[size]
                idx = np.array(list(itertools.combinations_with_replacement(range(len(pool)), c)), dtype=np.int64)
                block = _cartesian(block, pool[idx].reshape(-1, c))
            trump_blocks.append(np.repeat(subsets[t], len(block)))
            side_blocks.append(np.tile(block, (len(subsets[t]), 1)))
    trump_lanes = np.concatenate(trump_blocks)
    lanes = np.sort(np.concatenate(side_blocks, axis=0), axis=1)[:, ::-1]
    # weight = k! / prod(multiplicity!) over equal lanes (equal lanes are adjacent after the sort)
    run = np.ones(len(lanes), dtype=np.int64)
    denom = np.ones(len(lanes), dtype=np.int64)
    for j in range(1, k):
        run = np.where(lanes[:, j] == lanes[:, j - 1], run + 1, 1)
        denom *= run
    weights = math.factorial(k) // denom
    hands = trump_lanes.astype(np.uint64) << np.uint64(SUIT_BITS * trump)
    for j, suit in enumerate(sides):
        hands |= lanes[:, j].astype(np.uint64) << np.uint64(SUIT_BITS * suit)
    order = np.argsort(hands, kind="stable")
    return HandClasses(
        rules=rules,
        trump_suit=trump,
        side_suits=sides,
        hands=_freeze(hands[order]),
        weights=_freeze(weights[order].astype(np.int64)),
    )


def enumerate_classes(rules: RuleSet, trump_suit: int | str | None = None) -> HandClasses:
    """Every class of ``rules.hand_size``-card hands for one trump suit, with weights.

    ``trump_suit`` is a suit index or letter; the default (``None``) is the
    rule set's **last** suit (``rules.suits[-1]``, S for swiss and flemish).
    Results are cached per (rules, trump suit) and read-only.
    """
    return _enumerate(rules, resolve_trump_suit(rules, trump_suit))


# ---------------------------------------------------------------------------
# (trump card rank, class) pairs
# ---------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TrumpRankPairs:
    """All (turned trump card rank, hand class) pairs, the trump card not in the hand.

    Rows are sorted by trump rank, then class row. ``trump_ranks`` are rank
    indices (0 = two .. 12 = ace), ``class_rows`` index ``classes``, and
    ``weights`` count real hands of the class (for that trump suit) with that
    trump card: the class weight, since the trump card is one fixed card
    outside the hand.
    """

    classes: HandClasses
    trump_ranks: np.ndarray
    class_rows: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.trump_ranks)

    def _keys(self, trump_ranks, class_rows) -> np.ndarray:
        return np.asarray(trump_ranks, dtype=np.int64) * len(self.classes) + np.asarray(class_rows, dtype=np.int64)

    def rows_of(self, trump_ranks, class_rows) -> np.ndarray:
        """Pair row of each (trump rank, class row); -1 where the trump card is in the hand."""
        keys = self._keys(trump_ranks, class_rows)
        table = self._keys(self.trump_ranks, self.class_rows)
        rows = np.minimum(np.searchsorted(table, keys), len(table) - 1)
        return np.where(table[rows] == keys, rows, -1).astype(np.int64)

    def row_of(self, trump_rank: int, hand_mask: int) -> int:
        """Pair row of a real hand with trump card of rank ``trump_rank``; KeyError if impossible."""
        class_row = class_index(self.classes, hand_mask)
        row = int(self.rows_of(trump_rank, class_row))
        if row < 0:
            raise KeyError(f"trump card {format_card(self.classes.trump_suit * SUIT_BITS + trump_rank)} "
                           f"is in the hand or not in the {self.classes.rules.name} deck")
        return row


@functools.lru_cache(maxsize=8)
def enumerate_trump_rank_pairs(rules: RuleSet, trump_suit: int | str | None = None) -> TrumpRankPairs:
    """All (trump card rank, class) pairs for one trump suit (default: the rule set's last suit).

    Swiss, 5 cards: 546,012 pairs. Weights sum to the number of (hand, trump
    card) pairs: sum over hands of (ranks per suit - trumps in the hand).
    """
    classes = enumerate_classes(rules, trump_suit)
    lanes = classes.trump_lanes
    ranks, rows = [], []
    for r in sorted(RANKS.index(x) for x in rules.ranks):
        free = np.flatnonzero(((lanes >> r) & 1) == 0)
        ranks.append(np.full(len(free), r, dtype=np.int64))
        rows.append(free.astype(np.int64))
    class_rows = np.concatenate(rows)
    return TrumpRankPairs(
        classes=classes,
        trump_ranks=_freeze(np.concatenate(ranks)),
        class_rows=_freeze(class_rows),
        weights=_freeze(classes.weights[class_rows].copy()),
    )


__all__ = [
    "HandClasses",
    "TrumpRankPairs",
    "canonical_hand",
    "canonical_hands",
    "class_index",
    "enumerate_classes",
    "enumerate_trump_rank_pairs",
    "resolve_trump_suit",
    "side_suits",
]
