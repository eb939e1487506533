"""PIMC card play (docs/SIMULATION.md "Card play", ``pimc``): perfect-information Monte Carlo.

At each decision the player deals the cards he has not seen ``K`` times at
random, consistent with what the play so far has revealed (:func:`observe`),
values every legal card by the mid-trick double-dummy search of each world
(``dd.card_values``) and plays the card with the best summed utility (ties:
the weakest in the §6 order). The readable specification is
``rumbaodds/twins/pimc.py``; tests compare the two with a fixed seed.

A whole hand is played by :func:`play_deal`, each seat with its own policy
(greedy, expert, pimc or distilled), so that a benchmark can pit one against another on
the same deals.
"""

import numpy as np
from numba import njit

from .bits import U0, U1, bit, lowest_card, suit_lane
from .dd import MAX_SEATS, card_values, count_cards, new_stack, new_table
from .distilled import deck_ranks, distilled_card, shipped_trees
from .play import expert_card
from .policy import hand_score, uniform
from .rng import below, next_state, shuffle, stream_start
from .transposition import TT_BITS
from .tricks import FOLLOW_STECHZWANG, beaters, beats, legal_mask, strongest, weakest

SEAT_GREEDY, SEAT_EXPERT, SEAT_PIMC, SEAT_DISTILLED = 0, 1, 2, 3  # per-seat card play of play_deal
DEFAULT_WORLDS = 32
TRIES = 50  # rejection tries per world, then as many tries of the constrained deal
BELIEF_TRIES = 64  # consistent worlds drawn until the caller's hand in one would call Rumba (then the last one)


@njit(cache=True)
def observe(card, led, wcard, trump, follow):
    """Cards a player cannot hold after playing ``card`` to a trick (led suit ``led``, winning ``wcard``).

    RULES.md §3, read backwards: not following shows a void in the led suit;
    following without winning shows no winning card of the led suit; in swiss
    (Stechzwang) a non-trump when void shows no trump, a trump that does not
    win shows no winning trump; in flemish a trump that does not win shows no
    winning trump [D-1]. A lead reveals nothing.
    """
    if led < 0:
        return U0
    suit = card >> 4
    beat = beaters(wcard, trump)
    lane = suit_lane(trump)
    wins = beats(card, wcard, trump)
    if suit == led:
        return U0 if wins else beat & suit_lane(led)
    out = suit_lane(led)
    if suit != trump:
        if follow == FOLLOW_STECHZWANG:
            out |= lane
    elif not wins:
        out |= beat & lane
    return out


@njit(cache=True)
def _kth(mask, k):
    """The ``k``-th lowest card of ``mask`` (0-based)."""
    for _ in range(k):
        mask &= mask - U1
    return lowest_card(mask)


@njit(cache=True)
def sample_world(unseen, counts, forbidden, me, state, scratch, world):
    """Deal ``unseen`` to every seat but ``me``: ``counts[p]`` cards each, none of ``forbidden[p]``.

    First up to TRIES uniform deals (a shuffle, then seats in order), kept at
    the first that breaks no constraint: uniform over the consistent worlds.
    Then up to TRIES constrained deals: seats with the least room to spare
    first, each taking random cards it may hold. Returns (state, ok); ``ok``
    False when no try succeeded (``world`` is then not a valid world).
    """
    n = counts.shape[0]
    u = 0
    rest = unseen
    while rest:
        scratch[u] = lowest_card(rest)
        rest &= rest - U1
        u += 1
    for _ in range(TRIES):
        state = shuffle(scratch[:u], state)
        pos = 0
        ok = True
        for p in range(n):
            if p == me:
                continue
            m = U0
            for _j in range(counts[p]):
                m |= bit(scratch[pos])
                pos += 1
            if m & forbidden[p]:
                ok = False
                break
            world[p] = m
        if ok:
            return state, True
    order = np.empty(n, dtype=np.int64)
    slack = np.empty(n, dtype=np.int64)
    others = 0
    for p in range(n):
        if p == me:
            continue
        s = count_cards(unseen & ~forbidden[p]) - counts[p]
        j = others
        while j > 0 and slack[j - 1] > s:
            slack[j] = slack[j - 1]
            order[j] = order[j - 1]
            j -= 1
        slack[j] = s
        order[j] = p
        others += 1
    for _ in range(TRIES):
        free = unseen
        ok = True
        for i in range(others):
            p = order[i]
            pool = free & ~forbidden[p]
            size = count_cards(pool)
            if size < counts[p]:
                ok = False
                break
            m = U0
            for _j in range(counts[p]):
                state = next_state(state)
                c = _kth(pool, below(state, size))
                pool &= ~bit(c)
                size -= 1
                m |= bit(c)
            world[p] = m
            free &= ~m
        if ok:
            return state, True
    return state, False


@njit(cache=True)
def believed_world(unseen, counts, forbidden, me, state, scratch, world, belief, caller, caller_shown, trump):
    """:func:`sample_world`, the caller's hand drawn from the hands that call Rumba (docs/SIMULATION.md ``pimc``):
    each consistent world is kept with the probability that the caller's whole hand in it (his cards there and
    those he has played, ``caller_shown``) calls Rumba, ``belief`` = (that probability by hand score, the
    caller's card values, the deck's top rank), engine/policy.py ``hand_score``; rejection on the world's own
    stream, so the kept worlds follow the hands' posterior given the call. After :data:`BELIEF_TRIES`
    consistent worlds none kept: the last one. Returns (state, ok) as :func:`sample_world`."""
    probs, values, top = belief
    for _ in range(BELIEF_TRIES):
        state, ok = sample_world(unseen, counts, forbidden, me, state, scratch, world)
        if not ok:
            return state, False
        state = next_state(state)
        if uniform(state) < probs[hand_score(world[caller] | caller_shown, trump, top, values)]:
            return state, True
    return state, True


@njit(cache=True)
def pimc_sums(hands, me, tlead, led, wcard, wseat, table, deck_mask, played, seen, forbidden, won, trump, follow,
              max_seat, util, worlds, state, tt_keys, tt_infos, stamp, st, mv, um, owner, scratch, world, cards,
              values, sums, belief=None, caller=-1, caller_shown=U0):
    """``sums[i]``: the utility of ``me``'s ``i``-th legal card (low to high) summed over the sampled worlds.

    The arguments are :func:`pimc_card`'s. Returns (state, stamp, worlds used). Apart, so that the
    distillation (distil/record.py) can record how much better PIMC finds one card than another.
    ``belief`` (None: the worlds ignore the words): a Rumba defender draws the caller's hand by
    :func:`believed_world`. A ``seen`` card in a seat's hand (the turned card a seat took: a knocking dealer
    [D-3], a swap of the two [D-9]) is where everybody knows it is: every world gives it to that seat.
    """
    n = hands.shape[0]
    hand = hands[me]
    counts = np.empty(n, dtype=np.int64)
    for p in range(n):
        counts[p] = count_cards(hands[p] & ~seen)  # his cards that the others do not know
    unseen = deck_mask & ~hand & ~played & ~seen
    known = caller_shown  # the caller's cards the defenders know: those he played, a seen one he holds
    if caller >= 0:
        known |= hands[caller] & seen
    sums[:] = 0
    used = 0
    for _ in range(worlds):
        if belief is None:  # (pruned when compiled without a belief)
            state, ok = sample_world(unseen, counts, forbidden, me, state, scratch, world)
        elif caller < 0 or me == caller:
            state, ok = sample_world(unseen, counts, forbidden, me, state, scratch, world)
        else:
            state, ok = believed_world(unseen, counts, forbidden, me, state, scratch, world, belief, caller,
                                       known, trump)
        if not ok:
            continue
        for p in range(n):
            world[p] |= hands[p] & seen
        world[me] = hand
        stamp += 1
        count = card_values(world, tlead, led, wcard, wseat, table, trump, follow, max_seat, tt_keys, tt_infos,
                            stamp, st, mv, um, owner, cards, values)
        for i in range(count):
            sums[i] += util[won[max_seat] + values[i]]
        used += 1
    return state, stamp, used


@njit(cache=True)
def best_summed(legal, sums, trump, maximise):
    """The card of ``legal`` with the best sum (``sums`` low to high, as :func:`pimc_sums`); ties go to the weakest
    in the §6 order. ``maximise``: the player counts his own tricks, else he minimises another's."""
    sign = 1 if maximise else -1
    best = -1
    best_i = 0
    rest = legal
    while rest:  # weakest first (§6 order): a later card must be strictly better
        c = weakest(rest, trump)
        rest &= ~bit(c)
        i = count_cards(legal & (bit(c) - U1))  # index of c in the low-to-high order of card_values
        if best < 0 or sign * sums[i] > sign * sums[best_i]:
            best = c
            best_i = i
    return best


@njit(cache=True)
def pimc_card(hands, me, tlead, led, wcard, wseat, table, deck_mask, played, seen, forbidden, won, trump, follow,
              max_seat, util, worlds, state, tt_keys, tt_infos, stamp, st, mv, um, owner, scratch, world, cards,
              values, belief=None, caller=-1, caller_shown=U0):
    """The PIMC card of ``me`` (``hands`` are the true hands: only ``me``'s and the counts are read).

    ``deck_mask``: the rule set's deck; ``played``: cards played so far (the current trick included); ``seen``:
    other cards seen (the turned card, on the table or in the hand that took it); ``won``: tricks per seat so far;
    ``max_seat``: whose tricks count (``util[t]``, t his total tricks); ``me``
    maximises the summed utility when he is ``max_seat``, else minimises it.
    ``belief``, ``caller``, ``caller_shown``: as :func:`pimc_sums`.
    Returns (card, state, stamp, worlds used).
    """
    legal = legal_mask(hands[me], led, wcard, trump, follow)
    if (legal & (legal - U1)) == U0:
        return lowest_card(legal), state, stamp, 0
    sums = np.zeros(8, dtype=np.int64)
    state, stamp, used = pimc_sums(hands, me, tlead, led, wcard, wseat, table, deck_mask, played, seen, forbidden,
                                   won, trump, follow, max_seat, util, worlds, state, tt_keys, tt_infos, stamp, st,
                                   mv, um, owner, scratch, world, cards, values, sums, belief, caller, caller_shown)
    return best_summed(legal, sums, trump, me == max_seat), state, stamp, used


@njit(cache=True)
def distilled_seat_card(hand, legal, unseen, trump, me, leader, pos, wcard, wseat, won, forbidden, caller, need,
                        low_rank, top_rank, weights, trees):
    """The ``distilled`` card of seat ``me``, from the tricks per seat and the cards the play forbids each seat
    (``observe``): packed as the kernel reads them (4 bits a seat; a void is a whole suit forbidden). ``trees``:
    engine/distilled.py ``shipped_trees`` of the follow rule (the weights may be another fit's)."""
    won_bits = 0
    void_bits = 0
    for q in range(won.shape[0]):
        won_bits |= won[q] << (4 * q)
        for s in range(4):
            if forbidden[q] & suit_lane(s) == suit_lane(s):
                void_bits |= 1 << (4 * q + s)
    return distilled_card(hand, legal, unseen, trump, me, won.shape[0], leader, pos, wcard, wseat, won_bits,
                          void_bits, caller, need, low_rank, top_rank, weights, trees)


@njit(cache=True)
def play_deal(hands, leader, trump, follow, deck_mask, turned, caller, seats, util_caller, util_normal, need, weights,
              worlds, seed, index, tricks, tables, stats, trees=None, belief=None, public=U0):
    """Play ``hands`` (the active seats, clockwise) to the end, each seat by ``seats[p]``; add tricks per seat.

    ``turned``: the card face up on the table (-1: none), seen by expert,
    pimc and distilled. ``caller``: the Rumba player (-1: a normal game);
    ``need``: the tricks a Rumba needs; ``weights``: the distilled play's by
    follow rule (engine/distilled.py WEIGHTS, or another fit). The random numbers
    of deal ``index`` under ``seed`` come from their own stream. ``tables``:
    (tt_keys, tt_infos, stamp) reused across deals. ``stats[0]`` += pimc's
    decisions with a choice (more than one legal card), ``stats[1]`` += worlds used. ``trees``: the distilled
    play's trees as engine/distilled_trees.py ``TREES`` (slots by follow rule), ``None``: the shipped ones.
    ``belief``: what the call says of the caller's hand, for the PIMC defenders' worlds (:func:`believed_world`;
    None: nothing). ``public``: cards in a seat's hand whose place everybody knows (the turned card a seat took);
    every player counts them as seen, PIMC's worlds give them to their holder.
    """
    if trees is None:
        seat_trees = shipped_trees(follow)
    else:
        seat_trees = (trees[0][follow], trees[1], trees[2], trees[3], trees[4])
    n = hands.shape[0]
    tt_keys, tt_infos, stamp_arr = tables
    stamp = stamp_arr[0]
    st, mv, um, owner = new_stack()
    scratch = np.zeros(64, dtype=np.int64)
    world = np.zeros(n, dtype=np.uint64)
    cards = np.zeros(8, dtype=np.int64)
    values = np.zeros(8, dtype=np.int64)
    forbidden = np.zeros(n, dtype=np.uint64)
    won = np.zeros(n, dtype=np.int64)
    shown = np.zeros(n, dtype=np.uint64)  # each seat's cards played so far
    low_rank, top_rank = deck_ranks(deck_mask)
    state = stream_start(seed, index)
    seen = (bit(turned) if turned >= 0 else U0) | public
    played = U0
    outside = deck_mask & ~seen  # the expert's unseen cards: not on the table, not played, not his
    rounds = count_cards(hands[0])
    for _ in range(rounds):
        led = -1
        wcard = -1
        wseat = -1
        table = U0
        p = leader
        caller_played = False
        for pos in range(n):
            hand = hands[p]
            legal = legal_mask(hand, led, wcard, trump, follow)
            if seats[p] == SEAT_GREEDY:
                if led < 0:
                    card = strongest(legal, trump)
                else:
                    winning = legal & beaters(wcard, trump)
                    card = weakest(winning, trump) if winning else weakest(legal, trump)
            elif seats[p] == SEAT_EXPERT:
                card = expert_card(hand, legal, led, wcard, wseat if led >= 0 else leader, p, pos == n - 1,
                                   caller, caller_played, outside & ~hand, trump)
            elif seats[p] == SEAT_DISTILLED:
                card = distilled_seat_card(hand, legal, outside & ~hand, trump, p, leader, pos, wcard, wseat, won,
                                           forbidden, caller, need, low_rank, top_rank, weights[follow],
                                           seat_trees)
            else:
                max_seat = caller if caller >= 0 else p
                util = util_caller if caller >= 0 else util_normal
                caller_shown = shown[caller] if caller >= 0 else U0
                card, state, stamp, used = pimc_card(
                    hands, p, leader, led, wcard, wseat, table, deck_mask, played, seen, forbidden, won, trump, follow,
                    max_seat, util, worlds, state, tt_keys, tt_infos, stamp, st, mv, um, owner, scratch, world,
                    cards, values, belief, caller, caller_shown)
                if used > 0:
                    stats[0] += 1
                    stats[1] += used
            forbidden[p] |= observe(card, led, wcard, trump, follow)
            shown[p] |= bit(card)
            hands[p] = hand & ~bit(card)
            played |= bit(card)
            outside &= ~bit(card)
            table |= bit(card)
            if led < 0:
                led = card >> 4
                wcard = card
                wseat = p
            elif beats(card, wcard, trump):
                wcard = card
                wseat = p
            if p == caller:
                caller_played = True
            p += 1
            if p == n:
                p = 0
        won[wseat] += 1
        tricks[wseat] += 1
        leader = wseat
    stamp_arr[0] = stamp


@njit(cache=True)
def new_tables():
    """Transposition table and stamp shared by the searches of many deals (stamps keep deals apart)."""
    tt_keys, tt_infos = new_table(TT_BITS)
    return tt_keys, tt_infos, np.zeros(1, dtype=np.int64)


@njit(cache=True)
def play_batch(hands, leaders, trumps, turned, follow, deck_mask, caller, seats, util_caller, util_normal, need,
               weights, worlds, seed, indices, trees=None, belief=None):
    """Tricks per seat for each deal: ``hands`` (count, n) uint64 -> (count, n) int64; stats (decisions, worlds).

    Deal ``i`` draws from the stream ``indices[i]`` of ``seed``. ``trees``, ``belief``: as :func:`play_deal`.
    """
    count, n = hands.shape
    if n > MAX_SEATS:
        raise ValueError("pimc: at most 7 hands")
    out = np.zeros((count, n), dtype=np.int64)
    stats = np.zeros(2, dtype=np.int64)
    tables = new_tables()
    work = np.empty(n, dtype=np.uint64)
    for i in range(count):
        work[:] = hands[i]
        play_deal(work, leaders[i], trumps[i], follow, deck_mask, turned[i], caller, seats, util_caller, util_normal,
                  need, weights, worlds, seed, indices[i], out[i], tables, stats, trees, belief)
    return out, stats


def utility_tables(rules):
    """(caller's, normal player's) utility by his tricks 0..5: minus his score change (docs/SIMULATION.md).

    Scores count down, so minus the change is what a player wants high; both
    rise with the tricks, with the cliff at the Rumba's minimum and at 0 tricks.
    The score sheet of ``game/score.py`` (``trick_score``), read from the rule
    set's fields; a test compares the two.
    """
    caller = [-(rules.rumba_success_flat + rules.rumba_success_per_trick * t) if t >= rules.rumba_min_tricks
              else -rules.rumba_fail_score for t in range(6)]
    normal = [-(rules.normal_per_trick * t) if t >= 1 else -rules.normal_no_trick for t in range(6)]
    return np.array(caller, dtype=np.int64), np.array(normal, dtype=np.int64)


__all__ = ["SEAT_GREEDY", "SEAT_EXPERT", "SEAT_PIMC", "SEAT_DISTILLED", "DEFAULT_WORLDS", "BELIEF_TRIES", "observe",
           "sample_world", "believed_world",
           "pimc_card", "pimc_sums", "best_summed", "distilled_seat_card", "play_deal", "play_batch", "new_tables",
           "utility_tables"]
