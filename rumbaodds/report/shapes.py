"""Hand shapes a player recognises at a glance: the rows and columns of the action grids.

A player reads his hand **as he speaks with it**: in flemish, holding the two of trump he swaps it for the
turned card first [D-9] (the engine's hero always does, docs/SIMULATION.md step 3), so he then holds the
turned card instead of the two. Every feature below is of that hand.

Rows (the trump holding). ``A``, ``K``, ``Q`` are the deck's three highest trumps (the letters are taken
from the deck, so a house deck topped by the K reads K, Q, J), ``x`` is any lower trump (J and below in
swiss and flemish). One to three trumps are written out (``AKx``, ``Qx``, ``x``); four trumps are grouped by
their top two (``AK+2``: A, K and two more; ``A+3``: A without the K; ``K+3``; ``4, no A/K``); five trumps are
one row. Rows run from the strongest holding at the top to ``none`` at the bottom.

Columns (side aces and kings, the suits that are not trump): ``none``, ``K``, ``KK`` (two kings or more),
``A``, ``AK``, ``AKK`` (an ace, two kings or more), ``AA``, ``AAK`` (two aces, a king or more), ``AAA``.

The small grid (for the decisions measured on a sample of hands with ``ask``, where a box needs several hands)
merges rows by trump count and top trump, and columns into none / K / A / A+ (an ace and another ace or king).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import RANKS, SUIT_BITS
from ..rules import RuleSet
from ..tables.handclasses import resolve_trump_suit

LANE = (1 << SUIT_BITS) - 1
_POP16 = np.array([bin(i).count("1") for i in range(1 << SUIT_BITS)], dtype=np.int64)
_TOP16 = np.array([i.bit_length() - 1 for i in range(1 << SUIT_BITS)], dtype=np.int64)


def rank_name(rank: int) -> str:
    """Rank index to the printed rank: 8 -> '10', 12 -> 'A'."""
    letter = RANKS[int(rank)]
    return "10" if letter == "T" else letter


@dataclass(frozen=True)
class Honours:
    """The deck's top three ranks (index and printed name) and the rank the grid calls ``x`` below."""

    top: int
    names: tuple[str, str, str]

    @classmethod
    def of(cls, rules: RuleSet) -> Honours:
        top = RANKS.index(rules.ranks[-1])
        names = tuple(rank_name(top - d) if top - d >= RANKS.index(rules.ranks[0]) else "?" for d in range(3))
        return cls(top, names)  # type: ignore[arg-type]

    @property
    def low_text(self) -> str:
        """What ``x`` stands for, e.g. 'a trump J or lower'."""
        below = self.top - 3
        return f"a trump {rank_name(below)} or lower" if below >= 0 else "a lower trump"


def trump_rows(rules: RuleSet) -> list[str]:
    """Row labels, strongest first, that hands of this rule set can have."""
    a, k, q = Honours.of(rules).names
    h = rules.hand_size
    rows = []
    if h >= 5:
        rows.append("5 trumps")
    if h >= 4:
        rows += [f"{a}{k}+2", f"{a}+3", f"{k}+3", f"4, no {a}/{k}"]
    three = [f"{a}{k}{q}", f"{a}{k}x", f"{a}{q}x", f"{a}xx", f"{k}{q}x", f"{k}xx", f"{q}xx", "xxx"]
    two = [f"{a}{k}", f"{a}{q}", f"{a}x", f"{k}{q}", f"{k}x", f"{q}x", "xx"]
    one = [a, k, q, "x"]
    if h >= 3:
        rows += three
    if h >= 2:
        rows += two
    rows += one + ["none"]
    return rows


def side_columns(rules: RuleSet) -> list[str]:
    a, k, _ = Honours.of(rules).names
    return ["none", k, f"{k}{k}", a, f"{a}{k}", f"{a}{k}{k}", f"{a}{a}", f"{a}{a}{k}", f"{a}{a}{a}"]


def small_rows(rules: RuleSet) -> list[str]:
    a, k, q = Honours.of(rules).names
    rows = []
    if rules.hand_size >= 3:
        rows += [f"3+, {a}", f"3+, {k}", f"3+ no {a}/{k}"]
    if rules.hand_size >= 2:
        rows += [f"{a}+1", f"{k}+1", f"{q}+1", "xx"]
    return rows + [a, k, q, "x", "none"]


def small_columns(rules: RuleSet) -> list[str]:
    a, k, _ = Honours.of(rules).names
    return ["none", k, a, f"{a}+"]


# -- features of the hand he speaks with -------------------------------------------------------------------
@dataclass
class Features:
    """Per hand (vectorised): what the grids read. Arrays of equal length."""

    trump_lane: np.ndarray  # rank bits of his trumps, after the swap of the two
    n_trumps: np.ndarray
    top_trump: np.ndarray  # rank index, -1 without trumps
    side_aces: np.ndarray
    side_kings: np.ndarray
    zero_cards: np.ndarray  # side cards below the king: keep value 0 (docs/SIMULATION.md)
    low_trumps: np.ndarray  # trumps four or more ranks below the top (10 and lower): keep value 2
    throw_in: np.ndarray  # bool: every card below rules.throw_in_below and the rules allow a throw-in
    swapped: np.ndarray  # bool: he held the two of trump and swapped it for the turned card


def spoken_masks(hands, trump_ranks, rules: RuleSet, trump_suit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(hand masks he speaks with, swapped?) for dealt ``hands`` (uint64) and turned-card ranks [D-9]."""
    hands = np.asarray(hands, dtype=np.uint64).copy()
    ranks = np.asarray(trump_ranks, dtype=np.int64)
    swapped = np.zeros(len(hands), dtype=bool)
    if rules.two_of_trump_swap:
        t = resolve_trump_suit(rules, trump_suit)
        two_rank = RANKS.index("2")
        two = np.uint64(1 << (SUIT_BITS * t + two_rank))
        swapped = ((hands & two) != 0) & (ranks != two_rank)
        turned = np.left_shift(np.uint64(1), (np.uint64(SUIT_BITS * t) + ranks.astype(np.uint64)))
        hands = np.where(swapped, (hands & ~two) | turned, hands)
    return hands, swapped


def features(hands, trump_ranks, rules: RuleSet, trump_suit: int | None = None) -> Features:
    """Features of dealt ``hands`` (uint64 masks with trump suit ``trump_suit``, default the table's)."""
    t = resolve_trump_suit(rules, trump_suit)
    spoken, swapped = spoken_masks(hands, trump_ranks, rules, t)
    lanes = [((spoken >> np.uint64(SUIT_BITS * s)) & np.uint64(LANE)).astype(np.int64) for s in range(4)]
    trump_lane = lanes[t]
    top = RANKS.index(rules.ranks[-1])
    sides = [lanes[s] for s in range(4) if s != t]
    aces = sum(((lane >> top) & 1) for lane in sides)
    kings = sum(((lane >> (top - 1)) & 1) for lane in sides) if top >= 1 else np.zeros(len(spoken), np.int64)
    high = (1 << top) | ((1 << (top - 1)) if top >= 1 else 0)
    zero = sum(_POP16[lane & ~high & LANE] for lane in sides)
    low = sum(1 << r for r in range(RANKS.index(rules.throw_in_below)))
    low_all = np.uint64(sum(low << (SUIT_BITS * s) for s in range(4)))
    throw = np.full(len(spoken), bool(rules.throw_in)) & ((spoken & ~low_all) == 0)
    low_trump_bits = (1 << max(0, top - 3)) - 1
    low_trumps = _POP16[trump_lane & low_trump_bits]
    return Features(trump_lane, _POP16[trump_lane], _TOP16[trump_lane], np.asarray(aces, np.int64),
                    np.asarray(kings, np.int64), np.asarray(zero, np.int64), low_trumps, throw, swapped)


def row_labels(f: Features, rules: RuleSet) -> np.ndarray:
    """The grid row of each hand (see the module docstring)."""
    hon = Honours.of(rules)
    a, k, q = hon.names
    lane = f.trump_lane
    bits = [((lane >> (hon.top - d)) & 1).astype(bool) if hon.top - d >= 0 else np.zeros(len(lane), bool)
            for d in range(3)]
    n = f.n_trumps
    held = bits[0].astype(int) + bits[1] + bits[2]
    # one to three trumps: the honours held, then an x per lower trump
    letters = np.where(bits[0], a, "").astype(object) + np.where(bits[1], k, "") + np.where(bits[2], q, "")
    written = letters + np.array(["x" * i for i in range(6)], dtype=object)[np.clip(n - held, 0, 5)]
    four = np.select([bits[0] & bits[1], bits[0], bits[1]], [f"{a}{k}+2", f"{a}+3", f"{k}+3"], f"4, no {a}/{k}")
    out = np.select([n == 0, n >= 5, n == 4], ["none", "5 trumps", four.astype(object)], written)
    return out.astype(object)


def column_labels(f: Features, rules: RuleSet) -> np.ndarray:
    cols = side_columns(rules)
    aces = np.minimum(f.side_aces, 3)
    kings = np.minimum(f.side_kings, 2)
    index = np.select([aces == 0, aces == 1, aces == 2], [kings, 3 + kings, 6 + np.minimum(kings, 1)], 8)
    return np.array(cols, dtype=object)[index]


def small_row_labels(f: Features, rules: RuleSet) -> np.ndarray:
    hon = Honours.of(rules)
    a, k, q = hon.names
    n = f.n_trumps
    d = np.clip(hon.top - f.top_trump, 0, 3)  # 0: A, 1: K, 2: Q, 3: x
    three = np.array([f"3+, {a}", f"3+, {k}", f"3+ no {a}/{k}", f"3+ no {a}/{k}"], dtype=object)[d]
    two = np.array([f"{a}+1", f"{k}+1", f"{q}+1", "xx"], dtype=object)[d]
    one = np.array([a, k, q, "x"], dtype=object)[d]
    return np.select([n == 0, n >= 3, n == 2], ["none", three, two], one).astype(object)


def small_column_labels(f: Features, rules: RuleSet) -> np.ndarray:
    cols = small_columns(rules)
    aces, kings = f.side_aces, f.side_kings
    index = np.select([(aces == 0) & (kings == 0), aces == 0, (aces == 1) & (kings == 0)], [0, 1, 2], 3)
    return np.array(cols, dtype=object)[index]


def hand_mask(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def box_of_hand(cards, trump_card: int, rules: RuleSet) -> tuple[str, str]:
    """(row, column) of a real hand (any trump suit) with turned card ``trump_card``: what a player reads."""
    t = int(trump_card) // SUIT_BITS
    f = features(np.array([hand_mask(cards)], dtype=np.uint64), np.array([int(trump_card) % SUIT_BITS]), rules,
                 trump_suit=t)
    return str(row_labels(f, rules)[0]), str(column_labels(f, rules)[0])


__all__ = ["Features", "Honours", "box_of_hand", "column_labels", "features", "rank_name", "row_labels",
           "side_columns", "small_column_labels", "small_columns", "small_row_labels", "small_rows",
           "spoken_masks", "trump_rows"]
