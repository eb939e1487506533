"""Keep values and hand points (docs/SIMULATION.md "Keep value and hand points"), in constant time.

The keep value says how much a card is worth keeping: trumps by height,
side aces and kings. The asking player's exchange throws his lowest keep
values, and the named opponent models score hands by hand points (the sum).
:func:`keep_value` is its one definition: the Python side calls its plain
form (:func:`keep_value_py`) or the table :func:`keep_value_table` made from it.
"""

import numpy as np
from numba import njit

from .bits import U0, U1, bit, suit_lane
from .tricks import weakest


@njit(cache=True, inline="always")
def keep_value(card, trump, top):
    distance = top - (card & 15)
    if (card >> 4) == trump:
        return 2 + max(0, 4 - distance)
    if distance == 0:
        return 3
    if distance == 1:
        return 1
    return 0


keep_value_py = keep_value.py_func  # the same function, plain Python (no compile), for the readable side


def keep_value_table() -> np.ndarray:
    """``keep_value`` by (is trump, ranks below the top): the per-card values of a policy's hand score."""
    values = np.zeros((2, 16), dtype=np.int64)
    for is_trump in range(2):
        for d in range(16):
            values[is_trump, d] = keep_value_py(15 - d, 0 if is_trump else 1, 15)  # card rank 15 - d of suit 0
    return values


_RANK_LANES = np.uint64(0x0001000100010001)


@njit(cache=True, inline="always")
def _popcount(mask):
    """Branch-free population count (SWAR)."""
    mask = mask - ((mask >> np.uint64(1)) & np.uint64(0x5555555555555555))
    mask = (mask & np.uint64(0x3333333333333333)) + ((mask >> np.uint64(2)) & np.uint64(0x3333333333333333))
    mask = (mask + (mask >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((mask * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def hand_points(hand, trump, top):
    """Sum of ``keep_value`` over the hand, in constant time."""
    lane = suit_lane(trump)
    trumps = (hand & lane) >> np.uint64(16 * trump)
    side = hand & ~lane
    total = 2 * _popcount(trumps)
    for d in range(4):  # trumps ranked ``d`` below the top add 4 - d more
        if top - d >= 0:
            total += (4 - d) * np.int64((trumps >> np.uint64(top - d)) & U1)
    total += 3 * _popcount(side & (_RANK_LANES << np.uint64(top)))
    if top >= 1:
        total += _popcount(side & (_RANK_LANES << np.uint64(top - 1)))
    return total


@njit(cache=True, inline="always")
def lowest_keep(hand, count, trump, top):
    """Mask of the ``count`` cards with the lowest keep value, ties weakest first (§6 order).

    Taken class by class of keep value (the twin's ``keep_order`` sorts card by card).
    """
    lane = suit_lane(trump)
    trumps = hand & lane
    side = hand & ~lane
    side_top = side & (_RANK_LANES << np.uint64(top))
    side_next = side & (_RANK_LANES << np.uint64(top - 1)) if top >= 1 else U0
    high = U0  # trumps within four ranks of the top: keep values 3..6
    for d in range(4):
        if top - d >= 0:
            high |= U1 << np.uint64(16 * trump + top - d)
    chosen = U0
    for cls in range(5):
        if cls == 0:
            mask = side & ~side_top & ~side_next  # value 0
        elif cls == 1:
            mask = side_next  # value 1
        elif cls == 2:
            mask = trumps & ~high  # value 2
        elif cls == 3:
            mask = side_top  # value 3, side cards weaker than any trump
        else:
            mask = trumps & high  # values 3..6, ascending with rank
        while count > 0 and mask:
            card = weakest(mask, trump)
            mask &= ~bit(card)
            chosen |= bit(card)
            count -= 1
    return chosen


