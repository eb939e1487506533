"""The double-dummy solver's transposition table (engine/dd.py): lower / upper bounds of the tricks MAX makes.

One table is shared by the yes/no searches of one deal; a stamp per deal
replaces clearing it. An entry's key is the state (two words) and its tag
the stamp, the tricks left and the trick in progress; its info packs the
tag and the bounds. Entries live in buckets of two slots. At a trick
boundary the key is coarser and still exact (:func:`shape_key`): only the
order of the live cards within each suit and their owners matter.
"""

import numpy as np
from numba import njit

from .bits import U0, U1, lowest_card, suit_lane
from .rng import mix64

TT_BITS = 18  # the largest transposition table: 2**TT_BITS entries of 24 bytes (see table_bits)


@njit(cache=True)
def new_table(bits):
    """An empty transposition table of ``2**bits`` entries: (keys (two words each), infos).

    An entry is valid only when its info carries the current stamp (>= 1), so
    zeroed infos are enough and the keys need no clearing.
    """
    size = 1 << bits
    return np.empty((size, 2), dtype=np.uint64), np.zeros(size, dtype=np.int64)


@njit(cache=True)
def table_bits(cards):
    """Table size (log2) for deals of ``cards`` cards in all: searches grow fast with the deal.

    A table costs about a millisecond to set up at the largest size, and a
    table too small for the search costs far more (7-player deals need
    10^5..10^6 nodes now and then), so the size follows the deal.
    """
    if cards <= 15:
        return 12
    if cards <= 20:
        return 14
    if cards <= 25:
        return 16
    return TT_BITS


@njit(cache=True, inline="always")
def slot_of(lo, hi, meta, size_mask):
    z = mix64(lo ^ (np.uint64(meta + 1) * np.uint64(0x9E3779B97F4A7C15))) ^ hi
    return np.int64(mix64(z) & size_mask)


@njit(cache=True, inline="always")
def shape_key(held, owner):
    """Exact key of a trick-boundary state up to the ranks of the cards gone.

    Suit by suit, low to high, the owner code (seat + 1) of every card still
    held, 3 bits each, and a 0 after each suit: at most 35 + 4 codes, 117 bits,
    in two words. Two states with the same codes differ only in which cards
    have been played, so each card has the same rank among the live cards of
    its suit: the same game from here on.
    """
    lo = U0
    hi = U0
    for suit in range(4):
        lane = held & suit_lane(suit)
        while lane:
            c = lowest_card(lane)
            lane &= lane - U1
            hi = (hi << np.uint64(3)) | (lo >> np.uint64(61))
            lo = (lo << np.uint64(3)) | owner[c]
        hi = (hi << np.uint64(3)) | (lo >> np.uint64(61))
        lo = lo << np.uint64(3)
    return lo, hi


@njit(cache=True, inline="always")
def probe_entry(lo, hi, tag, tt_keys, tt_infos, size_mask):
    """Info word of the entry for this key and tag, or -1. Entries live in buckets of two slots."""
    slot = slot_of(lo, hi, tag & 0xFFFF, size_mask)
    for _ in range(2):
        info = tt_infos[slot]
        if (info >> 8) == tag and tt_keys[slot, 0] == lo and tt_keys[slot, 1] == hi:
            return info
        slot ^= 1
    return -1


@njit(cache=True, inline="always")
def store_bounds(lo, hi, tag, left, need, result, tt_keys, tt_infos, size_mask):
    """Record that MAX can (``result``) or cannot make ``need`` more tricks from this state.

    ``tag``: stamp of the deal, tricks left and the trick in progress. A new
    entry takes the slot of its bucket left by an earlier deal, else the one
    with fewer tricks left (the cheaper state to search again).
    """
    slot = slot_of(lo, hi, tag & 0xFFFF, size_mask)
    lb = 0
    ub = left
    found = False
    for _ in range(2):
        info = tt_infos[slot]
        if (info >> 8) == tag and tt_keys[slot, 0] == lo and tt_keys[slot, 1] == hi:
            lb = (info >> 4) & 15
            ub = info & 15
            found = True
            break
        slot ^= 1
    if not found:
        # slot is back at the first of the pair
        stamp = tag >> 19
        first = tt_infos[slot]
        second = tt_infos[slot ^ 1]
        if (first >> 27) == stamp and ((second >> 27) != stamp or ((second >> 24) & 7) < ((first >> 24) & 7)):
            slot ^= 1
    if result:
        if need > lb:
            lb = need
    elif need - 1 < ub:
        ub = need - 1
    tt_keys[slot, 0] = lo
    tt_keys[slot, 1] = hi
    tt_infos[slot] = (tag << 8) | (lb << 4) | ub


__all__ = ["TT_BITS", "new_table", "table_bits", "slot_of", "shape_key", "probe_entry", "store_bounds"]
