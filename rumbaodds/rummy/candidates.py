"""Step 1 of the meld solver: every candidate meld of a hand, at its best layout (Numba).

A candidate is a set of real card types (a bit mask; at most one card of each
type) plus a number of jokers that makes a valid meld (RULES.md §8.2-§8.3,
[D-14], [D-15]). Groups: each subset of the suits held of one rank, with 0..4
jokers. Sequences: windows ``lo..hi`` of positions (0 low ace, 1..12 two..king,
13 high ace; never both aces); inside a window any real cards held may be
used and the positions left take jokers (also where the card is held but
wanted elsewhere). A window is kept only when the same cards one place up are
not valid: the valid windows of fixed cards form one run and position values
never fall going up, so each candidate appears once, at its highest value. A
window with the ace low is kept only when the same cards with the ace high
(the window of the same length ending at the high ace) are not valid: with
jokers to spare both may be, and under the penalty objective, where the two
tie, the solver could otherwise keep the lower one.
The specification it is tested against is ``melds.py``.
"""

import numpy as np
from numba import njit

from .. import engine  # noqa: F401  (sets the Numba cache folder, keyed by the source digest)
from ..engine.bits import U0, U1
from .cards import JOKER
from .rules import (
    P_ACE_HIGH_VALUE,
    P_ACE_LOW,
    P_ACE_LOW_VALUE,
    P_ACE_PENALTY,
    P_GROUP_JOKER_FOUR,
    P_JOKER_PENALTY,
    P_JOKERS_ADJACENT,
    P_JOKERS_AT_MOST_REAL,
    P_MIN_REAL,
)


# -- small bit helpers (int64 masks of at most 14 positions) ------------------------------------
@njit(cache=True, inline="always")
def small_popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def deposit(bits, mask):
    """The ``k``-th set bit of ``mask`` for each set bit ``k`` of ``bits`` (pdep)."""
    out = 0
    k = 0
    m = mask
    while m:
        low = m & -m
        if (bits >> k) & 1:
            out |= low
        m ^= low
        k += 1
    return out


@njit(cache=True, inline="always")
def type_bit(t):
    return U1 << np.uint64(t)


@njit(cache=True)
def hand_masks(row):
    """(m1, m2, jokers, cards) of a hand row (types, -1 padding); m1: held once or more, m2: twice."""
    m1 = U0
    m2 = U0
    jok = np.int64(0)
    n = np.int64(0)
    for i in range(row.shape[0]):
        x = row[i]
        if x < 0:
            continue
        n += 1
        if x == JOKER:
            jok += 1
        else:
            b = type_bit(x)
            if m1 & b:
                m2 |= b
            else:
                m1 |= b
    return m1, m2, jok, n


@njit(cache=True)
def rule_constants(params):
    """Per-rule-set arrays the solver reads: position values, their prefix sums, penalties, best card values."""
    pv = position_values(params)
    prefix = np.zeros(15, dtype=np.int64)
    for p in range(14):
        prefix[p + 1] = prefix[p] + pv[p]
    return pv, prefix, type_penalties(params), max_card_values(params)


@njit(cache=True)
def position_values(params):
    pv = np.empty(14, dtype=np.int64)
    pv[0] = params[P_ACE_LOW_VALUE]
    for p in range(1, 13):
        pv[p] = min(p + 1, 10)
    pv[13] = params[P_ACE_HIGH_VALUE]
    return pv


@njit(cache=True)
def type_penalties(params):
    pen = np.empty(53, dtype=np.int64)
    for t in range(52):
        r = t % 13
        pen[t] = params[P_ACE_PENALTY] if r == 12 else min(r + 2, 10)
    pen[52] = params[P_JOKER_PENALTY]
    return pen


@njit(cache=True)
def max_card_values(params):
    """The most a card of each type can count in a meld (the ace: high or, where allowed, low)."""
    mv = np.empty(52, dtype=np.int64)
    for t in range(52):
        r = t % 13
        if r == 12:
            mv[t] = params[P_ACE_HIGH_VALUE]
            if params[P_ACE_LOW] and params[P_ACE_LOW_VALUE] > mv[t]:
                mv[t] = params[P_ACE_LOW_VALUE]
        else:
            mv[t] = min(r + 2, 10)
    return mv


@njit(cache=True)
def _store(n, cmask, cint, mask, jokers, size, value, pen, kind):
    if n >= cmask.shape[0]:
        return -1
    cmask[n] = mask
    cint[n, 0] = jokers
    cint[n, 1] = size
    cint[n, 2] = value
    cint[n, 3] = pen
    cint[n, 4] = kind
    return n + 1


@njit(cache=True)
def candidates(m1, jok, params, prefix, pen_t, cmask, cint):
    """Fill the candidate arrays; returns their number, or -1 when the arrays are too small."""
    min_real = params[P_MIN_REAL]
    adjacent_ok = params[P_JOKERS_ADJACENT] != 0
    at_most_real = params[P_JOKERS_AT_MOST_REAL] != 0
    four = params[P_GROUP_JOKER_FOUR] != 0
    jpen = pen_t[52]
    n = np.int64(0)
    group = np.int64(0)
    sequence = np.int64(1)
    # groups: 3 or 4 cards of one rank, no suit twice, jokers for missing suits
    for r in range(13):
        g = 0
        for s in range(4):
            if (m1 >> np.uint64(s * 13 + r)) & U1:
                g |= 1 << s
        ng = small_popcount(g)
        if ng < min_real or ng + jok < 3:
            continue
        gv = params[P_ACE_HIGH_VALUE] if r == 12 else min(r + 2, 10)
        for sub in range(1, 16):
            if sub & ~g:
                continue
            nr = small_popcount(sub)
            if nr < min_real:
                continue
            mask = U0
            pr = 0
            for s in range(4):
                if (sub >> s) & 1:
                    mask |= type_bit(s * 13 + r)
                    pr += pen_t[s * 13 + r]
            for j in range(0, min(jok, 4 - nr) + 1):
                size = nr + j
                if size < 3:
                    continue
                if at_most_real and j > nr:
                    continue
                if four and j > 0 and size != 4:
                    continue
                n = _store(n, cmask, cint, mask, j, size, size * gv, pr + j * jpen, group)
                if n < 0:
                    return -1
    # sequences: windows lo..hi of positions (0 low ace, 1..12 two..king, 13 high ace)
    ace_low = params[P_ACE_LOW] != 0
    lo_min = 0 if ace_low else 1
    for s in range(4):
        avail = 0
        for p in range(1, 13):
            if (m1 >> np.uint64(s * 13 + p - 1)) & U1:
                avail |= 1 << p
        if (m1 >> np.uint64(s * 13 + 12)) & U1:
            avail |= 1 << 13
            if ace_low:
                avail |= 1
        if small_popcount(avail) < min_real:
            continue
        for lo in range(lo_min, 12):
            if jok == 0 and not (avail >> lo) & 1:
                continue
            na = 0
            missing = 0
            for hi in range(lo, 14):
                if lo == 0 and hi == 13:
                    break  # both aces: around the corner
                if (avail >> hi) & 1:
                    na += 1
                else:
                    missing += 1
                if missing > jok:
                    break
                length = hi - lo + 1
                if length < 3 or na < min_real:
                    continue
                wmask = ((1 << length) - 1) << lo
                a = avail & wmask
                top_drops = min(jok - missing, na - min_real)
                for d in range(0, top_drops + 1):
                    comb = (1 << d) - 1
                    while comb < (1 << na):
                        real = a & ~deposit(comb, a)
                        nr = na - d
                        j = length - nr
                        ok = not (at_most_real and j > nr)
                        jm = wmask & ~real
                        if ok and not adjacent_ok and (jm & (jm >> 1)) != 0:
                            ok = False
                        if ok and (jm >> lo) & 1 and hi < 13:
                            up = (wmask << 1) & ~real  # the same cards one place up: better or equal
                            if adjacent_ok or (up & (up >> 1)) == 0:
                                ok = False
                        if ok and lo == 0 and real & 1:  # the ace low: the same cards with the ace high, in the
                            alo = 14 - length  # window of the same length ending at it, are worth more where valid
                            alt = (real & ~1) | (1 << 13)
                            if (alt & ((1 << alo) - 1)) == 0:
                                ajm = (((1 << length) - 1) << alo) & ~alt
                                if adjacent_ok or (ajm & (ajm >> 1)) == 0:
                                    ok = False
                        if ok:
                            mask = U0
                            pr = 0
                            x = real
                            while x:
                                low = x & -x
                                p = small_popcount(low - 1)
                                t = s * 13 + (12 if (p == 0 or p == 13) else p - 1)
                                mask |= type_bit(t)
                                pr += pen_t[t]
                                x ^= low
                            n = _store(n, cmask, cint, mask, j, length, prefix[hi + 1] - prefix[lo], pr + j * jpen,
                                       sequence)
                            if n < 0:
                                return -1
                        if d == 0:
                            break
                        low = comb & -comb  # next combination of d bits (Gosper)
                        ripple = comb + low
                        comb = (((ripple ^ comb) >> 2) // low) | ripple
    return n
