"""The exact meld solver (RULES.md §8.4): a Numba kernel, its batch driver and the Python API.

For a hand of up to 16 cards (two decks and jokers) it finds the largest total
weight of disjoint valid melds that use at most ``k - 1`` of its ``k`` cards
([D-16]; ``keep_one_card``), and one set of melds that reaches it. The weight
is the objective:

- ``OBJ_VALUE``: the meld value of §8.3 (jokers placed for the highest value):
  the *opening value*;
- ``OBJ_PENALTY``: the penalty points laid out, so the best set leaves the
  *smallest penalty* in hand (§8.6) - a separate objective;
- ``OBJ_LEX``: the value first, then the penalty laid out (``value * 2**16 +
  penalty``): among the sets that reach the opening value, the one leaving the
  fewest penalty points (what ``rummy open`` shows).

Two steps per hand: (1) every candidate meld at its best layout
(``candidates.py``); (2) *packing*, here: a depth-first search with an
explicit stack (numba 0.68 cannot load a cached recursive function). At each
node the lowest card type still held is either left in hand (all its copies)
or melded with one candidate whose lowest type it is; a branch is cut when its
weight plus an upper bound (the best weight each remaining meldable card could
add, and at most ``limit - used`` cards of the largest weight) cannot beat the
best so far. With ``target`` the search stops as soon as it reaches it (can I
open?).

The plain-Python twin is ``twin.py`` (a memoised recursion on the rules of
``melds.py``); ``brute.py`` tries every partition of small hands.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit

from .. import engine  # noqa: F401  (sets the Numba cache folder, keyed by the source digest)
from ..engine.bits import U0, U1, lowest_card
from .candidates import candidates, hand_masks, rule_constants, type_bit
from .cards import check_cards, format_type, hand_array, hand_penalty, parse_rummy_hand, penalty, sort_key
from .melds import Meld, best_meld
from .rules import (
    MAX_HAND,
    P_ACE_HIGH_VALUE,
    P_ACE_LOW,
    P_ACE_LOW_VALUE,
    P_KEEP_ONE,
    RummyRules,
    get_rummy_rules,
)

OBJ_VALUE = 0
OBJ_PENALTY = 1
OBJ_LEX = 2
OBJECTIVES = {"value": OBJ_VALUE, "penalty": OBJ_PENALTY, "lex": OBJ_LEX}
LEX = 1 << 16  # above the largest penalty a hand can lay out (16 cards x 999, the validated maximum)
NO_TARGET = np.int64(1) << np.int64(60)
MAX_MELDS = 8
FIRST_CAPACITY = 1024  # candidate slots; doubled (and the hand solved again) when a hand needs more
STACK = 2 * MAX_HAND + 8


@njit(cache=True)
def new_scratch(capacity):
    """Per-thread work arrays of the solver (candidates, buckets, stack, paths) for ``capacity`` candidates."""
    cmask = np.zeros(capacity, dtype=np.uint64)
    cint = np.zeros((capacity, 5), dtype=np.int64)  # jokers, size, value, penalty, kind
    cw = np.zeros(capacity, dtype=np.int64)
    cub = np.zeros(capacity, dtype=np.int64)
    order = np.zeros(capacity, dtype=np.int64)
    bstart = np.zeros(54, dtype=np.int64)
    wt = np.zeros(52, dtype=np.int64)
    fr_mask = np.zeros((STACK, 2), dtype=np.uint64)
    fr_int = np.zeros((STACK, 8), dtype=np.int64)  # jokers, used, melds, weight, bound, type, next, stage
    path = np.zeros(MAX_MELDS * 2, dtype=np.int64)
    best_path = np.zeros(MAX_MELDS * 2, dtype=np.int64)
    return cmask, cint, cw, cub, order, bstart, fr_mask, fr_int, path, best_path, wt


# -- step 2: packing ---------------------------------------------------------------------------
@njit(cache=True)
def solve_masks(m1, m2, jok, ncards, params, consts, obj, target, scratch):
    """Best weight of disjoint melds (see the module docstring); the melds in ``scratch``'s best path.

    Returns (weight, melds in the best path, candidates): candidates -1 means ``scratch`` is too small.
    """
    cmask, cint, cw, cub, order, bstart, fr_mask, fr_int, path, best_path, wt = scratch
    _pv, prefix, pen_t, mv = consts
    count = candidates(m1, jok, params, prefix, pen_t, cmask, cint)
    if count < 0:
        return np.int64(0), 0, -1
    limit = ncards - 1 if params[P_KEEP_ONE] else ncards
    if count == 0 or limit < 3 or target <= 0:
        return np.int64(0), 0, count
    jvalue = max(10, params[P_ACE_HIGH_VALUE])
    if params[P_ACE_LOW]:
        jvalue = max(jvalue, params[P_ACE_LOW_VALUE])
    meldable = U0
    jokers_used = False
    for c in range(count):
        meldable |= cmask[c]
        if cint[c, 0] > 0:
            jokers_used = True
    for t in range(52):
        wt[t] = 0
        if (meldable >> np.uint64(t)) & U1:
            if obj == OBJ_VALUE:
                wt[t] = mv[t]
            elif obj == OBJ_PENALTY:
                wt[t] = pen_t[t]
            else:
                wt[t] = mv[t] * LEX + pen_t[t]
    if not jokers_used:
        jw = np.int64(0)
    elif obj == OBJ_VALUE:
        jw = jvalue
    elif obj == OBJ_PENALTY:
        jw = pen_t[52]
    else:
        jw = jvalue * LEX + pen_t[52]
    maxw = jw
    ub0 = jw * jok
    for t in range(52):
        if wt[t] > maxw:
            maxw = wt[t]
        b = type_bit(t)
        if m1 & b:
            ub0 += wt[t]
        if m2 & b:
            ub0 += wt[t]
    # weights, bounds and buckets by lowest type
    for t in range(54):
        bstart[t] = 0
    for c in range(count):
        if obj == OBJ_VALUE:
            cw[c] = cint[c, 2]
        elif obj == OBJ_PENALTY:
            cw[c] = cint[c, 3]
        else:
            cw[c] = cint[c, 2] * LEX + cint[c, 3]
        u = cint[c, 0] * jw
        x = cmask[c]
        while x:
            t = lowest_card(x)
            u += wt[t]
            x &= x - U1
        cub[c] = u
        bstart[lowest_card(cmask[c]) + 1] += 1
    for t in range(53):
        bstart[t + 1] += bstart[t]
    for c in range(count):
        t = lowest_card(cmask[c])
        order[bstart[t]] = c
        bstart[t] += 1
    for t in range(52, 0, -1):
        bstart[t] = bstart[t - 1]
    bstart[0] = 0

    best = np.int64(0)
    nbest = 0
    m1 &= meldable  # a card in no candidate always stays in hand: the search skips it
    m2 &= meldable
    t0 = lowest_card(m1)
    fr_mask[0, 0] = m1
    fr_mask[0, 1] = m2
    fr_int[0, 0] = jok
    fr_int[0, 1] = 0  # used
    fr_int[0, 2] = 0  # melds on the path
    fr_int[0, 3] = 0  # weight
    fr_int[0, 4] = ub0
    fr_int[0, 5] = t0
    fr_int[0, 6] = bstart[t0]
    fr_int[0, 7] = 0
    sp = 1
    while sp > 0:
        i = sp - 1
        f1 = fr_mask[i, 0]
        f2 = fr_mask[i, 1]
        t = fr_int[i, 5]
        if fr_int[i, 6] < bstart[t + 1]:
            c = order[fr_int[i, 6]]
            fr_int[i, 6] += 1
            cm = cmask[c]
            if (cm & ~f1) != U0 or cint[c, 0] > fr_int[i, 0] or fr_int[i, 1] + cint[c, 1] > limit:
                continue
            n1 = f1 & ~(cm & ~f2)
            n2 = f2 & ~cm
            used = fr_int[i, 1] + cint[c, 1]
            w = fr_int[i, 3] + cw[c]
            ub = fr_int[i, 4] - cub[c]
            nm = fr_int[i, 2]
            path[nm] = c
            nm += 1
            if w > best:
                best = w
                nbest = nm
                for k in range(nm):
                    best_path[k] = path[k]
                if best >= target:
                    return best, nbest, count
            if n1 == U0:
                continue
            cap = (limit - used) * maxw
            if w + min(ub, cap) <= best:
                continue
            t1 = lowest_card(n1)
            fr_mask[sp, 0] = n1
            fr_mask[sp, 1] = n2
            fr_int[sp, 0] = fr_int[i, 0] - cint[c, 0]
            fr_int[sp, 1] = used
            fr_int[sp, 2] = nm
            fr_int[sp, 3] = w
            fr_int[sp, 4] = ub
            fr_int[sp, 5] = t1
            fr_int[sp, 6] = bstart[t1]
            fr_int[sp, 7] = 0
            sp += 1
        else:
            # every meld of this type is tried: leave all its copies in hand (the frame becomes that child)
            b = type_bit(t)
            copies = 2 if (f2 & b) != U0 else 1
            n1 = f1 & ~b
            ub = fr_int[i, 4] - copies * wt[t]
            cap = (limit - fr_int[i, 1]) * maxw
            if n1 == U0 or fr_int[i, 3] + min(ub, cap) <= best:
                sp -= 1
                continue
            t1 = lowest_card(n1)
            fr_mask[i, 0] = n1
            fr_mask[i, 1] = f2 & ~b
            fr_int[i, 4] = ub
            fr_int[i, 5] = t1
            fr_int[i, 6] = bstart[t1]
    return best, nbest, count


@njit(cache=True)
def solve_row(row, params, consts, obj, target, scratch, melds_out):
    """Solve one hand row; grows the scratch when needed. ``melds_out[k]`` = (mask, jokers, kind, value, penalty).

    Returns (weight, value, penalty laid out, cards laid out, melds, scratch).
    """
    m1, m2, jok, ncards = hand_masks(row)
    while True:
        best, nbest, count = solve_masks(m1, m2, jok, ncards, params, consts, obj, target, scratch)
        if count >= 0:
            break
        scratch = new_scratch(scratch[0].shape[0] * 2)
    cmask, cint = scratch[0], scratch[1]
    best_path = scratch[9]
    value = 0
    pen = 0
    used = 0
    for k in range(nbest):
        c = best_path[k]
        melds_out[k, 0] = np.int64(cmask[c])
        melds_out[k, 1] = cint[c, 0]
        melds_out[k, 2] = cint[c, 4]
        melds_out[k, 3] = cint[c, 2]
        melds_out[k, 4] = cint[c, 3]
        value += cint[c, 2]
        pen += cint[c, 3]
        used += cint[c, 1]
    return best, value, pen, used, nbest, scratch


@njit(cache=True, nogil=True)
def solve_range(hands, params, obj, target, lo, hi, weight, value, pen, used, nmelds, melds):
    """Rows ``lo..hi-1`` of ``hands`` into the output arrays (no GIL: threads run ranges side by side)."""
    consts = rule_constants(params)
    scratch = new_scratch(np.int64(FIRST_CAPACITY))
    out = np.zeros((MAX_MELDS, 5), dtype=np.int64)
    for i in range(lo, hi):
        w, v, p, u, k, scratch = solve_row(hands[i], params, consts, obj, target, scratch, out)
        weight[i] = w
        value[i] = v
        pen[i] = p
        used[i] = u
        nmelds[i] = k
        melds[i, :k, :] = out[:k, :]


def solve_batch(hands: np.ndarray, params: np.ndarray, obj: int, target: int = NO_TARGET, threads: int | None = None):
    """Solve every row of ``hands`` (int8 types, -1 padding): weight, value, penalty, cards laid, melds.

    ``melds[i, k]`` = (type mask as int64, jokers, kind 0 group / 1 sequence, value, penalty).
    Rows are independent, so the answer never depends on ``threads`` (default: Numba's thread count).
    """
    n = hands.shape[0]
    out = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
           np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros((n, MAX_MELDS, 5), dtype=np.int64))
    in_threads(n, lambda lo, hi: solve_range(hands, params, obj, np.int64(target), lo, hi, *out), threads)
    return out


def in_threads(n: int, job, threads: int | None = None, min_chunk: int = 256) -> None:
    """Run ``job(lo, hi)`` over ``0..n`` in contiguous ranges on up to ``threads`` threads (GIL-free kernels)."""
    threads = threads or numba.get_num_threads()
    parts = max(1, min(threads, n // min_chunk))
    bounds = [n * k // parts for k in range(parts + 1)]
    if parts == 1:
        job(0, n)
        return
    with ThreadPoolExecutor(parts) as pool:
        for future in [pool.submit(job, bounds[k], bounds[k + 1]) for k in range(parts)]:
            future.result()


# -- the Python API ---------------------------------------------------------------------------------
@dataclass
class Solution:
    """The answer of the solver for one hand and one objective."""

    hand: list[int]
    rules: RummyRules
    objective: str
    weight: int
    value: int  # meld value of the melds found
    laid_penalty: int  # penalty points of the cards in them
    melds: list[Meld] = field(default_factory=list)

    @property
    def left(self) -> list[int]:
        """The cards not in the melds, in display order."""
        rest = list(self.hand)
        for meld in self.melds:
            for card in meld.layout:
                rest.remove(card)
        return sorted(rest, key=sort_key)

    @property
    def penalty_left(self) -> int:
        return hand_penalty(self.left, self.rules)

    @property
    def cards_laid(self) -> int:
        return sum(m.size for m in self.melds)


def melds_from_rows(rows, rules: RummyRules) -> list[Meld]:
    """The kernel's (mask, jokers, kind) rows as laid-out melds (``melds.py`` places the jokers for display)."""
    out = []
    for mask, jokers, kind, value, _pen in rows:
        reals = [t for t in range(52) if (int(mask) >> t) & 1]
        meld = best_meld(reals, int(jokers), rules, "group" if kind == 0 else "sequence")
        if meld is None or meld.value != value:  # pragma: no cover - a kernel/specification mismatch
            raise AssertionError(f"kernel meld {[format_type(c) for c in reals]} + {jokers} JK value {value} "
                                 f"disagrees with the rule book ({None if meld is None else meld.value})")
        out.append(meld)
    return sorted(out, key=lambda m: (-m.value, [sort_key(c) for c in m.reals]))


def solve_hands(hands, rules: RummyRules | str, objective: str = "value", target: int | None = None):
    """Solve many hands at once (lists of types): the raw arrays of :func:`solve_batch`."""
    rules = get_rummy_rules(rules)
    array = hands if isinstance(hands, np.ndarray) else hand_array(hands)
    return solve_batch(array, rules.params(), OBJECTIVES[objective], NO_TARGET if target is None else int(target))


def solve(hand, rules: RummyRules | str = "romme", objective: str = "value") -> Solution:
    """The best melds of one hand (a string such as ``"HA H2 H3 JK"`` or a list of types)."""
    rules = get_rummy_rules(rules)
    cards = parse_rummy_hand(hand, rules) if isinstance(hand, str) else list(hand)
    check_cards(cards, rules)
    weight, value, pen, _used, nmelds, melds = solve_hands([cards], rules, objective)
    rows = melds[0, : nmelds[0]]
    return Solution(cards, rules, objective, int(weight[0]), int(value[0]), int(pen[0]), melds_from_rows(rows, rules))


def opening_value(hand, rules: RummyRules | str = "romme") -> int:
    return solve(hand, rules, "value").value


__all__ = ["OBJ_VALUE", "OBJ_PENALTY", "OBJ_LEX", "LEX", "NO_TARGET", "Solution", "solve", "solve_hands",
           "solve_batch", "solve_range", "solve_masks", "solve_row", "in_threads", "new_scratch", "hand_masks",
           "rule_constants", "opening_value", "penalty", "melds_from_rows"]
