"""Double-dummy solver (RULES.md §6 "double-dummy value").

For a deal seen by everybody, a leader, a trump suit, a follow rule and one
chosen seat: the most tricks that seat (MAX) makes for certain when all other
seats (MIN, one side) play to hold it to as few as possible. The readable
specification is ``rumbaodds/twins/dd.py``; tests compare the two.

How the search works:

- The value is found by yes/no searches "can MAX make at least ``k``
  tricks?": the first ``k`` is the greedy play-out's count, then ``k`` moves
  up or down until the answer flips, within cheap bounds.
- Each yes/no search is an alpha-beta search (MAX needs one good card, MIN one
  refutation) written as a loop over an explicit stack indexed by ply: Numba
  cannot load a cached recursive function.
- Cuts: at a trick boundary when the tricks still needed are none or more
  than are left; on cheap bounds (:func:`trick_bounds`), also inside a trick
  once MAX has played and the fate of the trick is known or bounded.
- A transposition table (``transposition.py``) of lower / upper bounds of
  the tricks MAX makes from a state, shared by the searches of one deal.
  Within a deal who holds a card never changes, so inside a trick the state
  is the mask of cards still held plus the trick in progress (leader, led
  suit, winning card and seat). At a trick boundary the key is coarser and
  still exact: only the order of the live cards within each suit and their
  owners matter (``shape_key``), so states that differ only in which low
  cards are gone share an entry.
- Equivalent cards (one hand's cards of one suit with no other live card
  between them, live = every hand plus the current trick) are tried once.
- Move ordering: the side that wants the trick tries winning cards first.
- The last trick is played out directly.
"""

import numpy as np
from numba import njit, prange

from .bits import U0, U1, above_in_suit, bit, highest_card, lowest_card, suit_lane
from .transposition import new_table, probe_entry, shape_key, store_bounds, table_bits
from .tricks import beaters, beats, legal_mask, play_greedy

MAX_SEATS = 7
MAX_HAND = 5
MAX_PLIES = MAX_SEATS * MAX_HAND
MAX_CHUNKS = 64  # solve_batch splits its deals into at most this many chunks ...
CHUNK_DEALS = 128  # ... of at least this many deals (fixed numbers: results never depend on threads)
TT_MIN_POS = 2  # probe the table at trick boundaries and from this many cards into a trick on

# Columns of the per-ply integer stack.
_CUR = 0  # seat to play
_LED = 1  # led suit (-1 at a trick boundary)
_WCARD = 2  # card winning the trick so far (-1 at a boundary)
_WSEAT = 3  # seat that played it (-1 at a boundary)
_TLEAD = 4  # leader of the current trick
_WON = 5  # tricks MAX has won before this trick
_NMV = 6  # number of candidate cards
_IMV = 7  # next candidate to try
_STORE = 8  # 1: a searched node whose result goes into the table
_NCOLS = 9

# Columns of the per-ply mask stack.
_HELD = 0  # every card still in a hand
_TABLE = 1  # cards on the table in the current trick
_KEY_LO = 2  # table key of the node (two words)
_KEY_HI = 3


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def count_cards(mask):
    """Number of cards in a mask, without a loop (bits.popcount loops once per card)."""
    x = mask - ((mask >> U1) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True)
def check_deal(hands, leader, trump, seat):
    """Refuse what the solver cannot handle: 2..7 hands of one size 0..5, seats and trump in range."""
    n = hands.shape[0]
    if n < 2 or n > MAX_SEATS:
        raise ValueError("double-dummy solver: a deal has 2..7 hands")
    size = count_cards(hands[0])
    if size > MAX_HAND:
        raise ValueError("double-dummy solver: a hand holds at most 5 cards")
    for p in range(1, n):
        if count_cards(hands[p]) != size:
            raise ValueError("double-dummy solver: all hands must hold the same number of cards")
    if leader < 0 or leader >= n or seat < 0 or seat >= n:
        raise ValueError("double-dummy solver: leader and seat must be seats of the deal")
    if trump < 0 or trump > 3:
        raise ValueError("double-dummy solver: trump is a suit 0..3")


@njit(cache=True)
def new_stack():
    """Scratch for one deal at a time: (per-ply integers, candidate cards, per-ply masks, spare).

    ``mv[d, :8]`` are the cards to try at ply ``d`` and ``mv[d, 8:]`` their
    ordering scores. ``spare[:64]`` holds each card's owner code (seat + 1);
    ``spare[64:]`` and ``st[-1]`` are the hands and tricks of the greedy guess.
    """
    return (
        np.zeros((MAX_PLIES + 2, _NCOLS), dtype=np.int64),
        np.zeros((MAX_PLIES + 1, 16), dtype=np.int64),
        np.zeros((MAX_PLIES + 1, 4), dtype=np.uint64),
        np.zeros(64 + MAX_SEATS, dtype=np.uint64),
    )


@njit(cache=True, inline="always")
def _meta(st, d):
    """The trick in progress at ply ``d`` in 16 bits: leader, led suit, winning card and seat."""
    return st[d, _TLEAD] | ((st[d, _LED] + 1) << 3) | ((st[d, _WCARD] + 1) << 6) | ((st[d, _WSEAT] + 1) << 13)


@njit(cache=True)
def trick_bounds(hands, n, seat, held, on_lead, trump, left, pending):
    """Cheap (lower, upper) bounds of the tricks MAX (``seat``) makes in the next ``left`` tricks.

    ``held``: every card in a hand. ``on_lead``: MAX leads the first of those
    tricks. ``pending``: bit mask of the seats still to play to the current
    trick (0 at a trick boundary); each will hold one card fewer than now,
    which the bounds allow for.

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
    others = held & ~own
    other_trumps = others & lane
    if other_trumps == U0:
        top = mine
    else:
        top = mine & above_in_suit(highest_card(other_trumps))
    lower = count_cards(top)
    if on_lead and own != top:
        most = 0
        if other_trumps != U0:
            for p in range(n):
                if p != seat:
                    m = count_cards(hands[p] & lane)
                    if m > most:
                        most = m
        drawn = lower >= most
        if drawn:
            lower = count_cards(mine)
        for suit in range(4):
            if suit == trump:
                continue
            side = suit_lane(suit)
            theirs = others & side
            if theirs == U0:
                tops = count_cards(own & side)
            else:
                tops = count_cards(own & above_in_suit(highest_card(theirs)))
            if tops == 0:
                continue
            if not drawn:
                for p in range(n):
                    if p != seat and (hands[p] & lane) != U0:
                        length = count_cards(hands[p] & side) - ((pending >> p) & 1)
                        if length < tops:
                            tops = length
            if tops > 0:
                lower += tops
    if mine == U0:
        over = lane
    else:
        over = above_in_suit(highest_card(mine))
    worst = 0
    if (others & over) != U0:
        for p in range(n):
            if p != seat:
                m = count_cards(hands[p] & over) - ((pending >> p) & 1)
                if m > worst:
                    worst = m
    return lower, left - worst


@njit(cache=True, inline="always")
def _strength(card, trump):
    return (64 if (card >> 4) == trump else 0) + (card & 15) * 4 + (card >> 4)


@njit(cache=True, inline="always")
def gen_moves(hands, n, cur, seat, pos, tlead, led, wcard, wseat, trump, follow, live, row):
    """Write the cards worth trying for ``cur`` into ``row[:8]``, best first; return how many.

    ``row[8:]`` holds their ordering scores.
    """
    legal = legal_mask(hands[cur], led, wcard, trump, follow)
    max_pos = seat - tlead
    if max_pos < 0:
        max_pos += n
    count = 0
    rest = legal
    while rest:
        c = lowest_card(rest)
        rest &= rest - U1
        above = live & above_in_suit(c)
        if above != U0 and (legal & bit(lowest_card(above))) != U0:
            continue  # equivalent to the next live card up, in the same hand
        s = _strength(c, trump)
        if pos == 0:
            if cur == seat:
                # MAX leads: cards no one can beat in their suit first, strongest first
                score = s + (256 if above == U0 else 0)
            else:
                # MIN leads: what MAX cannot beat first, cheapest first
                mine = hands[seat]
                suit_mine = mine & suit_lane(c >> 4)
                if suit_mine != U0:
                    safe = (suit_mine & above_in_suit(c)) == U0
                else:
                    safe = (c >> 4) == trump or (mine & suit_lane(trump)) == U0
                score = (256 if safe else 0) + 128 - s
        else:
            win = beats(c, wcard, trump)
            if cur == seat:
                # MAX: winners first (the cheapest when last to play, else the strongest)
                if win:
                    score = 256 + (200 - s if pos == n - 1 else s)
                else:
                    score = 128 - s
            elif max_pos < pos:
                # MIN after MAX: beat MAX cheaply if it wins, else throw the cheapest card
                if wseat == seat and win:
                    score = 456 - s
                else:
                    score = 128 - s
            elif win:
                # MIN before MAX: make the trick expensive
                score = 256 + s
            else:
                score = 128 - s
        j = count
        while j > 0 and row[8 + j - 1] < score:
            row[8 + j] = row[8 + j - 1]
            row[j] = row[j - 1]
            j -= 1
        row[8 + j] = score
        row[j] = c
        count += 1
    return count


@njit(cache=True)
def can_make(hands, leader, trump, follow, seat, k, tt_keys, tt_infos, stamp, st, mv, um, owner):
    """Can ``seat`` make at least ``k`` tricks?

    ``hands`` is restored on return; ``owner`` is scratch (see :func:`new_stack`).
    """
    return can_make_from(hands, leader, -1, -1, -1, U0, trump, follow, seat, k, tt_keys, tt_infos, stamp,
                         st, mv, um, owner)


@njit(cache=True)
def can_make_from(hands, tlead, led, wcard, wseat, table, trump, follow, seat, k, tt_keys, tt_infos, stamp,
                  st, mv, um, owner):
    """Can ``seat`` make at least ``k`` more tricks, the trick in progress included?

    The trick in progress: led by ``tlead``, the cards ``table`` on the table
    (none at a trick boundary: ``led`` = ``wcard`` = ``wseat`` = -1), ``led``
    suit, winning card ``wcard`` played by ``wseat``. The seat to play is the
    next one after the cards on the table. The search starts at ply ``d0`` =
    cards on the table, so that ``d % n`` stays the place in the trick.
    ``hands`` is restored on return.
    """
    n = hands.shape[0]
    size_mask = np.uint64(tt_keys.shape[0] - 1)
    d0 = count_cards(table)
    cur = tlead + d0
    if cur >= n:
        cur -= n
    hsize = count_cards(hands[cur])  # tricks left, the current one included
    d = d0
    st[d0, _CUR] = cur
    st[d0, _LED] = led
    st[d0, _WCARD] = wcard
    st[d0, _WSEAT] = wseat
    st[d0, _TLEAD] = tlead
    st[d0, _WON] = 0
    held = U0
    for p in range(n):
        held |= hands[p]
    um[d0, _HELD] = held
    um[d0, _TABLE] = table
    for p in range(n):
        rest = hands[p]
        while rest:
            owner[lowest_card(rest)] = np.uint64(p + 1)
            rest &= rest - U1
    entering = True
    while True:
        if entering:
            # a new node at ply d: decide it at once if bounds or the table allow, else list its cards
            entering = False
            pos = d % n
            st[d, _STORE] = 0
            decided = False
            result = False
            probe = False
            won = st[d, _WON]
            need = k - won
            left = hsize - d // n  # tricks left, the current one included
            if pos == 0:
                if need <= 0:
                    result = True
                    decided = True
                elif need > left:
                    decided = True
                elif left == 1:
                    p = st[d, _TLEAD]
                    wc = lowest_card(hands[p])
                    ws = p
                    for _ in range(1, n):
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
                    lower, upper = trick_bounds(hands, n, seat, um[d, _HELD], st[d, _TLEAD] == seat, trump, left, 0)
                    if lower >= need:
                        result = True
                        decided = True
                    elif upper < need:
                        decided = True
                    else:
                        probe = True
            else:
                max_pos = seat - st[d, _TLEAD]
                if max_pos < 0:
                    max_pos += n
                wc = st[d, _WCARD]
                if max_pos < pos:
                    # MAX has played: is this trick settled, and what can the later ones add?
                    pending = 0
                    later = U0
                    p = st[d, _CUR]
                    for _ in range(pos, n):
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
                        lower, upper = trick_bounds(hands, n, seat, um[d, _HELD], w_lo > won, trump, left - 1, pending)
                        if w_lo + lower >= k:
                            result = True
                            decided = True
                        elif w_hi + upper < k:
                            decided = True
                        else:
                            probe = pos >= TT_MIN_POS
                elif need > left - 1 and (hands[seat] & beaters(wc, trump)) == U0:
                    decided = True  # MAX must win this trick and cannot
                else:
                    probe = pos >= TT_MIN_POS
            if probe:
                meta = _meta(st, d)
                if pos == 0:
                    lo, hi = shape_key(um[d, _HELD], owner)
                else:
                    lo = um[d, _HELD]
                    hi = U0
                um[d, _KEY_LO] = lo
                um[d, _KEY_HI] = hi
                info = probe_entry(lo, hi, (stamp << 19) | (left << 16) | meta, tt_keys, tt_infos, size_mask)
                if info >= 0:
                    if ((info >> 4) & 15) >= need:
                        result = True
                        decided = True
                    elif (info & 15) < need:
                        decided = True
                if not decided:
                    st[d, _STORE] = 1
            if not decided:
                st[d, _NMV] = gen_moves(
                    hands, n, st[d, _CUR], seat, pos, st[d, _TLEAD], st[d, _LED], st[d, _WCARD],
                    st[d, _WSEAT], trump, follow, um[d, _HELD] | um[d, _TABLE], mv[d],
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
            um[e, _HELD] = um[d, _HELD] & ~bit(c)
            if pos == n - 1:
                st[e, _CUR] = ws
                st[e, _LED] = -1
                st[e, _WCARD] = -1
                st[e, _WSEAT] = -1
                st[e, _TLEAD] = ws
                st[e, _WON] = st[d, _WON] + (1 if ws == seat else 0)
                um[e, _TABLE] = U0
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
                um[e, _TABLE] = um[d, _TABLE] | bit(c)
            d = e
            entering = True
            continue
        else:
            # candidates exhausted: MAX found no making card (False), MIN no refutation (True)
            result = st[d, _CUR] != seat
        # node d is decided with ``result``: store, undo, and go up while parents are decided too
        while True:
            if st[d, _STORE] == 1:
                left = hsize - d // n
                store_bounds(um[d, _KEY_LO], um[d, _KEY_HI], (stamp << 19) | (left << 16) | _meta(st, d), left,
                             k - st[d, _WON], result, tt_keys, tt_infos, size_mask)
            if d == d0:
                return result
            d -= 1
            cur = st[d, _CUR]
            hands[cur] |= bit(mv[d, st[d, _IMV] - 1])
            if (cur == seat) != result:
                break  # MAX's card failed or MIN's card did not refute: try the next one


@njit(cache=True)
def solve_one(hands, leader, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um, owner):
    """Double-dummy tricks of ``seat``, with the scratch given; ``stamp`` must be new for the table.

    ``hands`` is used as work space and restored on return.
    """
    n = hands.shape[0]
    left = count_cards(hands[0])
    held = U0
    for p in range(n):
        held |= hands[p]
    lower, upper = trick_bounds(hands, n, seat, held, leader == seat, trump, left, 0)
    if lower >= upper:
        return lower
    # first question: can the seat make what a greedy play-out gives it?
    trial = owner[64:64 + n]
    trial[:] = hands
    won = st[MAX_PLIES + 1, :n]
    won[:] = 0
    play_greedy(trial, leader, trump, follow, won)
    k = min(max(won[seat], lower + 1), upper)
    if can_make(hands, leader, trump, follow, seat, k, tt_keys, tt_infos, stamp, st, mv, um, owner):
        lower = k
        while lower < upper:
            if not can_make(hands, leader, trump, follow, seat, lower + 1, tt_keys, tt_infos, stamp,
                            st, mv, um, owner):
                break
            lower += 1
        return lower
    upper = k - 1
    while upper > lower:
        if can_make(hands, leader, trump, follow, seat, upper, tt_keys, tt_infos, stamp, st, mv, um, owner):
            break
        upper -= 1
    return upper


@njit(cache=True)
def solve_from(hands, tlead, led, wcard, wseat, table, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um,
               owner):
    """Double-dummy tricks of ``seat`` from a trick in progress on, that trick included.

    The trick as in :func:`can_make_from`; at a trick boundary (``table`` empty)
    this is :func:`solve_one`. Within one deal (one ``stamp``) every call shares
    the table. ``hands`` is restored on return.
    """
    if table == U0:
        return solve_one(hands, tlead, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um, owner)
    n = hands.shape[0]
    cur = tlead + count_cards(table)
    if cur >= n:
        cur -= n
    left = count_cards(hands[cur])
    k = 1
    while k <= left and can_make_from(hands, tlead, led, wcard, wseat, table, trump, follow, seat, k, tt_keys,
                                      tt_infos, stamp, st, mv, um, owner):
        k += 1
    return k - 1


@njit(cache=True)
def card_values(hands, tlead, led, wcard, wseat, table, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um,
                owner, cards, values):
    """For each legal card of the seat to play: the double-dummy tricks of ``seat`` once it is played.

    Tricks from the trick in progress on, that trick included. Writes the
    cards (low to high) and their values into ``cards`` and ``values``;
    returns how many. ``hands`` is restored on return.
    """
    n = hands.shape[0]
    pos = count_cards(table)
    cur = tlead + pos
    if cur >= n:
        cur -= n
    legal = legal_mask(hands[cur], led, wcard, trump, follow)
    count = 0
    rest = legal
    while rest:
        c = lowest_card(rest)
        rest &= rest - U1
        hands[cur] &= ~bit(c)
        if pos == 0:
            nled = c >> 4
            nw = c
            nws = cur
        elif beats(c, wcard, trump):
            nled = led
            nw = c
            nws = cur
        else:
            nled = led
            nw = wcard
            nws = wseat
        if pos == n - 1:
            value = 1 if nws == seat else 0
            if hands[cur] != U0:
                value += solve_one(hands, nws, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um, owner)
        else:
            value = solve_from(hands, tlead, nled, nw, nws, table | bit(c), trump, follow, seat, tt_keys,
                               tt_infos, stamp, st, mv, um, owner)
        hands[cur] |= bit(c)
        cards[count] = c
        values[count] = value
        count += 1
    return count


@njit(cache=True)
def dd_tricks(hands, leader, trump, follow, seat):
    """Double-dummy tricks of ``seat``: ``hands`` uint64 (n,), all the same size 1..5; not modified."""
    check_deal(hands, leader, trump, seat)
    work = hands.copy()
    tt_keys, tt_infos = new_table(table_bits(hands.shape[0] * count_cards(hands[0])))
    st, mv, um, owner = new_stack()
    stamp = np.int64(1)  # a plain int64: a literal 1 would compile a second specialisation
    return solve_one(work, leader, trump, follow, seat, tt_keys, tt_infos, stamp, st, mv, um, owner)


@njit(cache=True, parallel=True)
def solve_batch(hands, leaders, trumps, seats, follow):
    """Double-dummy tricks for each deal: ``hands`` (count, n) uint64 -> (count,) int64.

    Split into fixed chunks (not per thread), each with its own table and stack,
    so the results never depend on the thread count.
    """
    count, n = hands.shape
    size = 0
    for i in range(count):  # here, not in the parallel loop, which would not pass the error on
        check_deal(hands[i], leaders[i], trumps[i], seats[i])
        size = max(size, count_cards(hands[i, 0]))
    bits = table_bits(n * size)
    out = np.zeros(count, dtype=np.int64)
    chunks = max(1, min(MAX_CHUNKS, count // CHUNK_DEALS))
    for chunk in prange(chunks):
        lo = chunk * count // chunks
        hi = (chunk + 1) * count // chunks
        tt_keys, tt_infos = new_table(bits)
        st, mv, um, owner = new_stack()
        work = np.empty(n, dtype=np.uint64)
        for i in range(lo, hi):
            work[:] = hands[i]
            out[i] = solve_one(work, leaders[i], trumps[i], follow, seats[i], tt_keys, tt_infos, i - lo + 1,
                               st, mv, um, owner)
    return out


__all__ = [
    "MAX_SEATS",
    "MAX_HAND",
    "dd_tricks",
    "solve_batch",
    "solve_one",
    "can_make",
    "can_make_from",
    "solve_from",
    "card_values",
    "trick_bounds",
    "gen_moves",
    "new_table",
    "new_stack",
]
