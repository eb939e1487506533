"""Bit primitives shared by the kernels (cards are bits of a uint64, see cards.py).

Everything is typed ``uint64`` on purpose: in Numba, mixing ``uint64`` with
``int64`` silently gives ``float64``.
"""

import numpy as np
from numba import config, njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

if config.DISABLE_JIT:  # the intrinsics only exist compiled; plain-Python stand-ins for coverage runs

    def trailing_zeros(mask):  # noqa: F811
        mask = int(mask)
        return (mask & -mask).bit_length() - 1

    def leading_zeros(mask):  # noqa: F811
        return 64 - int(mask).bit_length()

U0 = np.uint64(0)
U1 = np.uint64(1)
LANE = np.uint64(0xFFFF)


@njit(cache=True, inline="always")
def bit(card):
    return U1 << np.uint64(card)


@njit(cache=True, inline="always")
def suit_lane(suit):
    """Mask of every card of ``suit``."""
    return LANE << np.uint64(suit * 16)


@njit(cache=True, inline="always")
def lowest_card(mask):
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def highest_card(mask):
    return np.int64(63 - leading_zeros(mask))


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def popcount(mask):
    """Cards in ``mask``, in constant time (the bit-parallel sum of SWAR)."""
    x = np.uint64(mask)
    x = x - ((x >> U1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def above_in_suit(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    rank = np.uint64(card & 15)
    suit = np.uint64(card >> 4)
    return ((LANE << (rank + U1)) & LANE) << (suit * np.uint64(16))
