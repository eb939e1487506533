"""Double-dummy solver (RULES.md §6 "double-dummy value").

For a deal seen by everybody, a leader, a trump suit, a follow rule and one
chosen seat: the most tricks that seat (MAX) makes for certain when all other
seats (MIN, one side) play to hold it to as few as possible. The readable
specification is ``twin_dd.py``; tests compare the two.

How the search works:

- The value is found by a series of yes/no searches "can MAX make at least
  ``k`` tricks?", ``k`` raised from a sure lower bound until the answer is no
  or an upper bound is reached.
- Each yes/no search is an alpha-beta search (MAX needs one good card, MIN one
  refutation) written as a loop over an explicit stack indexed by ply: Numba
  cannot load a cached recursive function.
- At each trick boundary: cut when the tricks still needed are none or more
  than are left; cut on cheap bounds (MAX's trumps above every other trump
  are sure tricks; an opponent's trumps above all of MAX's are sure losses);
  probe a transposition table. Within one deal the cards still held and the
  leader fix the state (who holds a card never changes), so the table is keyed
  by that mask and the leader and stores lower / upper bounds of the tricks
  MAX still makes; a stamp per deal replaces clearing it.
- Equivalent cards (one hand's cards of one suit with no other live card
  between them, live = every hand plus the current trick) are tried once.
- Move ordering: the side that wants the trick tries winning cards first.
- The last trick is played out directly.
"""

import numpy as np
from numba import njit, prange

from .bits import U0, U1, above_in_suit, bit, highest_card, lowest_card, popcount, suit_lane
from .rng import mix64
from .tricks import beaters, beats, legal_mask, play_greedy

MAX_SEATS = 7
MAX_HAND = 5
MAX_PLIES = MAX_SEATS * MAX_HAND
TT_BITS = 16

# Columns of the per-ply integer stack.
_CUR = 0  # seat to play
_LED = 1  # led suit (-1 at a trick boundary)
_WCARD = 2  # card winning the trick so far
_WSEAT = 3  # seat that played it
_TLEAD = 4  # leader of the current trick
_WON = 5  # tricks MAX has won before this trick
_NMV = 6  # number of candidate cards
_IMV = 7  # next candidate to try
_STORE = 8  # 1: a searched trick boundary, store its result in the table
_NCOLS = 9


@njit(cache=True)
def new_table(bits):
    """An empty transposition table of ``2**bits`` entries: (keys, infos)."""
    size = 1 << bits
    return np.zeros(size, dtype=np.uint64), np.zeros(size, dtype=np.int64)


@njit(cache=True)
def new_stack():
    """Scratch for one search: (per-ply integers, candidate cards, table masks)."""
    return (
        np.zeros((MAX_PLIES + 1, _NCOLS), dtype=np.int64),
        np.zeros((MAX_PLIES + 1, 8), dtype=np.int64),
        np.zeros(MAX_PLIES + 1, dtype=np.uint64),
    )


@njit(cache=True, inline="always")
def _slot(held, leader, size_mask):
    return np.int64(mix64(held ^ (np.uint64(leader + 1) * np.uint64(0x9E3779B97F4A7C15))) & size_mask)


@njit(cache=True)
def trick_bounds(hands, n, seat, on_lead, trump, left, pending):
    """Cheap (lower, upper) bounds of the tricks MAX (``seat``) makes in the next ``left`` tricks.

    ``on_lead``: MAX leads the first of them. ``pending``: bit mask of the
    seats still to play to the current trick (0 at a trick boundary); each of
    them will hold one card fewer than now, which the bounds allow for.

    Lower: MAX's trumps above every other live trump win whenever played. On
    lead, MAX also cashes its top cards of a side suit for as many rounds as
    every opponent holding a trump must follow that suit; and when its top
    trumps are at least as many as any opponent's trumps, it draws them all
    (a trump lead must be followed) and then cashes everything that is top.
    Upper: an opponent's trumps above all of MAX's trumps each cost MAX a trick.
    """
    lane = suit_lane(trump)
    own = hands[seat]
    mine = own & lane
    others = U0
    most = 0
    for p in range(n):
        if p != seat:
            others |= hands[p]
            m = popcount(hands[p] & lane)
            if m > most:
                most = m
    other_trumps = others & lane
    if other_trumps == U0:
        top = mine
    else:
        top = mine & above_in_suit(highest_card(other_trumps))
    lower = popcount(top)
    if on_lead:
        drawn = lower >= most
        if drawn:
            lower = popcount(mine)
        for suit in range(4):
            if suit == trump:
                continue
            side = suit_lane(suit)
            theirs = others & side
            if theirs == U0:
                tops = popcount(own & side)
            else:
                tops = popcount(own & above_in_suit(highest_card(theirs)))
            if tops == 0:
                continue
            if not drawn:
                for p in range(n):
                    if p != seat and (hands[p] & lane) != U0:
                        length = popcount(hands[p] & side) - ((pending >> p) & 1)
                        if length < tops:
                            tops = length
            if tops > 0:
                lower += tops
    if mine == U0:
        over = lane
    else:
        over = above_in_suit(highest_card(mine))
    worst = 0
    for p in range(n):
        if p != seat:
            m = popcount(hands[p] & over) - ((pending >> p) & 1)
            if m > worst:
                worst = m
    return lower, left - worst


@njit(cache=True, inline="always")
def _order_score(card, trump):
    return ((64 if (card >> 4) == trump else 0) + (card & 15) * 4 + (card >> 4))


@njit(cache=True)
def gen_moves(hands, n, cur, seat, pos, tlead, led, wcard, wseat, trump, follow, live, row, scores):
    """Fill ``row`` with the cards worth trying for ``cur``, best first; return how many."""
    legal = legal_mask(hands[cur], led, wcard, trump, follow)
    count = 0
    rest = legal
    while rest:
        c = lowest_card(rest)
        rest &= rest - U1
        above = live & above_in_suit(c)
        if above != U0 and (legal & bit(lowest_card(above))) != U0:
            continue  # equivalent to the next card up in the same hand
        s = _order_score(c, trump)
        if pos == 0:
            top = above == U0
            if cur == seat:
                score = s + (256 if top else 0)
            else:
                # lead what MAX cannot beat, cheapest first
                mine = hands[seat]
                suit_mine = mine & suit_lane(c >> 4)
                if suit_mine != U0:
                    safe = (suit_mine & above_in_suit(c)) == U0
                else:
                    safe = (c >> 4) == trump or (mine & suit_lane(trump)) == U0
                score = (256 if safe else 0) + 128 - s
        else:
            win = beats(c, wcard, trump)
            max_pos = seat - tlead
            if max_pos < 0:
                max_pos += n
            if cur == seat:
                if win:
                    score = 256 + (200 - s if pos == n - 1 else s)
                else:
                    score = 128 - s
            elif max_pos < pos:
                # MAX has played: beat it cheaply if it wins, else throw the cheapest card
                if wseat == seat and win:
                    score = 256 + 200 - s
                else:
                    score = 128 - s
            else:
                # MAX still to play: make the trick expensive
                if win:
                    score = 256 + s
                else:
                    score = 128 - s
        # insertion, best first
        j = count
        while j > 0 and scores[j - 1] < score:
            scores[j] = scores[j - 1]
            row[j] = row[j - 1]
            j -= 1
        scores[j] = score
        row[j] = c
        count += 1
    return count


@njit(cache=True)
def can_make(hands, leader, trump, follow, seat, k, tt_keys, tt_infos, stamp, st, mv, tab):
    """Can ``seat`` make at least ``k`` tricks? ``hands`` is restored on return."""
    n = hands.shape[0]
    size_mask = np.uint64(tt_keys.shape[0] - 1)
    hsize = popcount(hands[0])
    scores = np.empty(8, dtype=np.int64)
    d = 0
    st[0, _CUR] = leader
    st[0, _LED] = -1
    st[0, _WCARD] = -1
    st[0, _WSEAT] = -1
    st[0, _TLEAD] = leader
    st[0, _WON] = 0
    tab[0] = U0
    entering = True
    while True:
        if entering:
            # a new node at ply d: decide it at once if a trick boundary allows, else list its cards
            entering = False
            pos = d % n
            st[d, _STORE] = 0
            decided = False
            result = False
            if pos == 0:
                need = k - st[d, _WON]
                left = hsize - d // n
                if need <= 0:
                    result = True
                    decided = True
                elif need > left:
                    decided = True
                elif left == 1:
                    p = st[d, _TLEAD]
                    wc = lowest_card(hands[p])
                    ws = p
                    for i in range(1, n):
                        p += 1
                        if p == n:
                            p = 0
                        c = lowest_card(hands[p])
                        if beats(c, wc, trump):
                            wc = c
                            ws = p
                    result = ws == seat
                    decided = True
                else:
                    lower, upper = trick_bounds(hands, n, seat, st[d, _TLEAD] == seat, trump, left, 0)
                    if lower >= need:
                        result = True
                        decided = True
                    elif upper < need:
                        decided = True
                    else:
                        held = U0
                        for p in range(n):
                            held |= hands[p]
                        slot = _slot(held, st[d, _TLEAD], size_mask)
                        info = tt_infos[slot]
                        if tt_keys[slot] == held and (info >> 8) == stamp * 8 + st[d, _TLEAD]:
                            if ((info >> 4) & 15) >= need:
                                result = True
                                decided = True
                            elif (info & 15) < need:
                                decided = True
                        if not decided:
                            st[d, _STORE] = 1
            else:
                # inside a trick: cut when this trick's fate settles the question
                left = hsize - d // n
                won = st[d, _WON]
                tlead = st[d, _TLEAD]
                max_pos = seat - tlead
                if max_pos < 0:
                    max_pos += n
                wc = st[d, _WCARD]
                if max_pos < pos:
                    # MAX has played: bound the tricks after this one
                    pending = 0
                    later = U0
                    p = st[d, _CUR]
                    for i in range(pos, n):
                        later |= hands[p]
                        pending |= 1 << p
                        p += 1
                        if p == n:
                            p = 0
                    if st[d, _WSEAT] != seat:
                        w_lo = won
                        w_hi = won
                    elif (later & beaters(wc, trump)) == U0:
                        w_lo = won + 1
                        w_hi = won + 1
                    else:
                        w_lo = won
                        w_hi = won + 1
                    if w_lo >= k:
                        result = True
                        decided = True
                    elif w_hi + left - 1 < k:
                        decided = True
                    else:
                        lower, upper = trick_bounds(hands, n, seat, w_lo > won, trump, left - 1, pending)
                        if w_lo + lower >= k:
                            result = True
                            decided = True
                        elif w_hi + upper < k:
                            decided = True
                elif won + left - 1 < k and (hands[seat] & beaters(wc, trump)) == U0:
                    decided = True
            if not decided:
                live = tab[d]
                for p in range(n):
                    live |= hands[p]
                st[d, _NMV] = gen_moves(
                    hands, n, st[d, _CUR], seat, pos, st[d, _TLEAD], st[d, _LED], st[d, _WCARD],
                    st[d, _WSEAT], trump, follow, live, mv[d], scores,
                )
                st[d, _IMV] = 0
                continue
        elif st[d, _IMV] < st[d, _NMV]:
            # play the next candidate at ply d and enter the child
            c = mv[d, st[d, _IMV]]
            st[d, _IMV] += 1
            cur = st[d, _CUR]
            hands[cur] &= ~bit(c)
            pos = d % n
            led = st[d, _LED]
            wc = st[d, _WCARD]
            ws = st[d, _WSEAT]
            if pos == 0:
                led = c >> 4
                wc = c
                ws = cur
            elif beats(c, wc, trump):
                wc = c
                ws = cur
            e = d + 1
            if pos == n - 1:
                st[e, _CUR] = ws
                st[e, _LED] = -1
                st[e, _WCARD] = -1
                st[e, _WSEAT] = -1
                st[e, _TLEAD] = ws
                st[e, _WON] = st[d, _WON] + (1 if ws == seat else 0)
                tab[e] = U0
            else:
                nxt = cur + 1
                if nxt == n:
                    nxt = 0
                st[e, _CUR] = nxt
                st[e, _LED] = led
                st[e, _WCARD] = wc
                st[e, _WSEAT] = ws
                st[e, _TLEAD] = st[d, _TLEAD]
                st[e, _WON] = st[d, _WON]
                tab[e] = tab[d] | bit(c)
            d = e
            entering = True
            continue
        else:
            # candidates exhausted: MAX found no making card (False), MIN no refutation (True)
            result = st[d, _CUR] != seat
        # node d is decided with ``result``: store, undo, and go up while parents are decided too
        while True:
            if st[d, _STORE] == 1:
                _store(hands, n, st[d, _TLEAD], hsize - d // n, k - st[d, _WON], result,
                       tt_keys, tt_infos, stamp, size_mask)
            if d == 0:
                return result
            d -= 1
            cur = st[d, _CUR]
            hands[cur] |= bit(mv[d, st[d, _IMV] - 1])
            if (cur == seat) != result:
                break  # MAX's card failed or MIN's card did not refute: try the next one


@njit(cache=True)
def _store(hands, n, leader, left, need, result, tt_keys, tt_infos, stamp, size_mask):
    held = U0
    for p in range(n):
        held |= hands[p]
    slot = _slot(held, leader, size_mask)
    info = tt_infos[slot]
    tag = stamp * 8 + leader
    if tt_keys[slot] == held and (info >> 8) == tag:
        lb = (info >> 4) & 15
        ub = info & 15
    else:
        lb = 0
        ub = left
    if result:
        if need > lb:
            lb = need
    else:
        if need - 1 < ub:
            ub = need - 1
    tt_keys[slot] = held
    tt_infos[slot] = (tag << 8) | (lb << 4) | ub


@njit(cache=True)
def solve_one(hands, leader, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, tab):
    """Double-dummy tricks of ``seat`` with the scratch given (``stamp`` unique per deal and table)."""
    n = hands.shape[0]
    left = popcount(hands[0])
    lower, upper = trick_bounds(hands, n, seat, leader == seat, trump, left, 0)
    if lower == upper:
        return lower
    # first guess: the tricks of a greedy play-out
    trial = hands.copy()
    won = np.zeros(n, dtype=np.int64)
    play_greedy(trial, leader, trump, follow, won)
    k = min(max(won[seat], lower + 1), upper)
    if can_make(hands, leader, trump, follow, seat, k, tt_keys, tt_infos, stamp, st, mv, tab):
        lower = k
        while lower < upper:
            if not can_make(hands, leader, trump, follow, seat, lower + 1, tt_keys, tt_infos, stamp, st, mv, tab):
                break
            lower += 1
        return lower
    upper = k - 1
    while upper > lower:
        if can_make(hands, leader, trump, follow, seat, upper, tt_keys, tt_infos, stamp, st, mv, tab):
            break
        upper -= 1
    return upper


@njit(cache=True)
def dd_tricks(hands, leader, trump, follow, seat):
    """Double-dummy tricks of ``seat``: ``hands`` uint64 (n,), all the same size; not modified."""
    work = hands.copy()
    tt_keys, tt_infos = new_table(12)
    st, mv, tab = new_stack()
    return solve_one(work, leader, trump, follow, seat, tt_keys, tt_infos, 1, st, mv, tab)


@njit(cache=True, parallel=True)
def solve_batch(hands, leaders, trumps, seats, follow):
    """Double-dummy tricks for each deal: ``hands`` (count, n) uint64 -> (count,) int64.

    Split into fixed chunks (not per thread), each with its own table and stack,
    so the results never depend on the thread count.
    """
    count, n = hands.shape
    out = np.zeros(count, dtype=np.int64)
    chunks = max(1, min(count, 64))
    for chunk in prange(chunks):
        lo = chunk * count // chunks
        hi = (chunk + 1) * count // chunks
        tt_keys, tt_infos = new_table(TT_BITS)
        st, mv, tab = new_stack()
        work = np.empty(n, dtype=np.uint64)
        for i in range(lo, hi):
            work[:] = hands[i]
            out[i] = solve_one(work, leaders[i], trumps[i], follow, seats[i], tt_keys, tt_infos, i - lo + 1,
                               st, mv, tab)
    return out


__all__ = ["dd_tricks", "solve_batch", "solve_one", "can_make", "trick_bounds", "new_table", "new_stack"]
