"""The swiss dealer's blind knock (rule 7): knock before looking, or look and choose?

One outer deal is what the dealer would meet. Knocking: he calls Rumba blind,
takes the turned card for his weakest card when it is stronger [D-3], and the
others join or not by the policy's knock context. Not knocking: the earlier
seats speak by the policy, the dealer looks at his hand and their words and
takes the choice with the best mean over ``inner`` samples of ``ask``
conditioned on exactly what he saw (a fresh stream); that choice is then
played on this very deal, so the estimate is unbiased for the dealer's policy
(selection noise can only make it slightly worse than the true best).
"""

import numpy as np
from numba import njit, prange

from .bits import U1, bit
from .condition import HARD_BELOW, acceptance, count_hands, group_cards, seat_context
from .hand import (
    OUT_FIELDS,
    SEARCHED,
    STATS,
    STATS_AT,
    ask_sample,
    evaluate_choices,
    finish_hand,
    new_scratch,
)
from .policy import P_SWAP, W_NONE, W_RUMBA, draw_uniforms, may_throw_in
from .rng import shuffle, stream_start
from .rules_layout import R_EXCHANGE, R_HAND, R_JACK_FORCES, R_THROW_BELOW, R_THROW_IN, R_TOP_RANK, R_TWO_SWAP
from .speak import C_PASS, C_PLAY, C_RUMBA, C_THROW_IN, JACK, hero_swaps_two, speak_seats, two_of
from .tricks import strength, weakest


@njit(cache=True)
def deal_dealer_first(deck, unknown, n, hand_size, seed, index, hands):
    """``knock``: shuffle deck-minus-trump-card; the dealer's hand first, then seats 0..n-2."""
    deck[:] = unknown
    state = shuffle(deck, stream_start(seed, index))
    pos = 0
    for s in range(n):
        seat = n - 1 if s == 0 else s - 1
        mask = np.uint64(0)
        for j in range(hand_size):
            mask |= bit(deck[pos])
            pos += 1
        hands[seat] = mask
    return state, pos


@njit(cache=True)
def dealer_choices(hand, rumba_called, jack_forced, rp):
    """The choices open to a dealer who did not knock, as choice codes."""
    out = np.empty(rp[R_EXCHANGE] + 4, dtype=np.int64)
    k = 0
    if not jack_forced:
        out[k] = C_PASS
        k += 1
    if rumba_called:
        out[k] = C_PLAY
        return out[:k + 1]
    out[k] = C_RUMBA
    k += 1
    if rp[R_THROW_IN] and may_throw_in(hand, rp[R_THROW_BELOW]):
        out[k] = C_THROW_IN
        k += 1
    for d in range(rp[R_EXCHANGE] + 1):
        out[k] = C_PLAY + d
        k += 1
    return out[:k]


@njit(cache=True)
def plan_seen(unknown_inner, words, n, swapped_by, excluded, trump_card, jack_forced, rp, pol, plan, cond):
    """The conditioning plan of the dealer's inner ``ask``: his earlier seats' words, hard where rare."""
    plan_word, plan_hard, plan_stretch, stretch, excluded_card = plan
    counts, members, table, present, taken, alpha, cache = cond
    trump = trump_card >> 4
    top = rp[R_TOP_RANK]
    below_rank = rp[R_THROW_BELOW]
    rumba_seat = -1
    for s in range(n - 1):
        excluded_card[s] = excluded if pol[0][s, P_SWAP] == 1 else -1
        plan_word[s] = words[s]
        plan_stretch[s] = 0
        ctx, pass_ok, rumba_ok, throw_ok = seat_context(s, n, words, rumba_seat, False, jack_forced, rp)
        k = rp[R_HAND] - 1 if s == swapped_by else rp[R_HAND]
        acceptance(alpha, s, ctx, pass_ok, rumba_ok, throw_ok, words[s], False, stretch, pol)
        candidates, _mask = group_cards(unknown_inner, 0, unknown_inner.shape[0], excluded_card[s], trump, top,
                                        below_rank, pol[1][s], counts, members)
        groups = count_hands(counts, k, table, present)
        cache[0] = 0  # the table no longer holds what the cache says
        total = 0.0
        for x in range(table.shape[2]):
            for e in range(2):
                total += table[groups, k, x, e] * alpha[x, 1 - e]
        ways = 1.0
        for i in range(k):
            ways = ways * (candidates - i) / (i + 1)
        plan_hard[s] = 1 if total < HARD_BELOW * ways else 0
        if words[s] == W_RUMBA:
            rumba_seat = s


@njit(cache=True)
def knock_sample(deck_mask, unknown, trump_card, n, rp, pol, policy, seed, index, inner, out, scratch, inner_scratch,
                 inner_policy):
    """One deal seen by the dealer: out[0] = knocking blind, out[1] = not knocking (then his best choice). The
    hands themselves are played by ``policy``, the dealer's inner deals (which choice is best) by
    ``inner_policy``: with play by search the same as the fast play's (a search on each of hundreds of inner
    deals would cost hours an answer)."""
    deck, hands2, ints, cards, us, cond, forced, probs = scratch
    hand_size = rp[R_HAND]
    trump = trump_card >> 4
    size = unknown.shape[0]
    hands = hands2[0]
    words = ints[0]
    dealer = n - 1
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    state, pos = deal_dealer_first(deck, unknown, n, hand_size, seed, index, hands)
    for s in range(n - 1):
        state = draw_uniforms(state, us, s)
    own = hands[dealer]
    stock = deck[pos:size]
    # -- knocking blind [D-3]
    saved = hands.copy()
    low = weakest(own, trump)
    table_mask = bit(trump_card)
    if strength(trump_card, trump) > strength(low, trump):
        hands[dealer] = (own & ~bit(low)) | bit(trump_card)
        table_mask = np.uint64(0)
    for s in range(n):
        words[s] = W_NONE
    speak_seats(hands, n, 0, n, -1, -1, words, dealer, trump_card, trump_card, True, jack_forced, rp, pol, us, forced)
    finish_hand(hands, n, words, dealer, dealer, 0, 0, trump, table_mask, rp, pol, us, policy, deck_mask, stock,
                size - pos, state, hands2[2], ints[2], cards, out, 0, True, jack_forced, trump_card)
    # -- not knocking: the dealer sees his hand and the earlier words
    hands[:] = saved
    for s in range(n):
        words[s] = W_NONE
    rumba_seat, turned, void, _p = speak_seats(hands, n, 0, n - 1, -1, -1, words, -1, trump_card, trump_card, False,
                                               jack_forced, rp, pol, us, forced)
    if void:  # an earlier throw-in: the hand is dealt again, nothing changes [D-4]
        out[1, 0] = 0
        out[1, 1] = -1
        out[1, 2] = 0
        out[1, 3] = -2
        return
    swapped_by = -1
    if turned != trump_card:
        two = two_of(trump)
        for s in range(n - 1):
            if (hands[s] >> np.uint64(trump_card)) & U1 and not (saved[s] >> np.uint64(trump_card)) & U1:
                swapped_by = s
    else:
        two = two_of(trump)
    excluded = -1
    if rp[R_TWO_SWAP] == 1 and swapped_by < 0 and trump_card != two \
            and not (own >> np.uint64(two)) & U1:
        excluded = two
    choices = dealer_choices(own, rumba_seat >= 0, jack_forced, rp)
    # the inner ask: the cards the dealer does not see
    known = own | bit(trump_card)
    if swapped_by >= 0:
        known |= bit(two)
    unknown_inner = np.empty(size + 1, dtype=np.int64)
    k = 0
    for j in range(size):
        if not (known >> np.uint64(unknown[j])) & U1:
            unknown_inner[k] = unknown[j]
            k += 1
    unknown_inner = unknown_inner[:k]
    i_deck, i_hands2, i_ints, i_cards, i_us, i_cond, i_forced, i_probs = inner_scratch
    plan = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros((n, 64), dtype=np.float64), np.full(n, -1, dtype=np.int64))
    plan_seen(unknown_inner, words, n, swapped_by, excluded, trump_card, jack_forced, rp, pol, plan, i_cond)
    sums = np.zeros(choices.shape[0])
    counted = 0
    inner_out = np.zeros((choices.shape[0], OUT_FIELDS), dtype=np.int64)
    inner_seed = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for j in range(inner):
        tries, weight = ask_sample(deck_mask, unknown_inner, own, trump_card, n, dealer, rp, pol, plan, inner_policy, 0,
                                   False, swapped_by, choices, inner_seed,
                                   np.uint64(index) * np.uint64(inner) + np.uint64(j), inner_out,
                                   (i_deck[:k], i_hands2, i_ints, i_cards, i_us, i_cond, i_forced, i_probs))
        if tries < 0:
            continue
        counted += 1
        for c in range(choices.shape[0]):
            sums[c] += weight * inner_out[c, 0]
    best = 0
    for c in range(1, choices.shape[0]):
        if sums[c] < sums[best]:
            best = c
    chosen = choices[best:best + 1]
    hands[dealer] = hero_swaps_two(own, turned, trump_card, False, rp)
    if hands[dealer] != own:
        turned = two
    evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, dealer, chosen, 0, False, jack_forced, rp, pol,
                     us, policy, deck_mask, stock, size - pos, state, hands2, ints, cards, out[1:2], forced, probs)
    out[1, 3] = chosen[0] if counted > 0 else -1


@njit(cache=True, parallel=True)
def knock_batch(deck_mask, unknown, trump_card, n, rp, pol, policy, seed, start, count, inner):
    """Per deal: knocking (score, tricks, contested, -) and not knocking (score, -, -, choice code)."""
    results = np.zeros((count, 2, OUT_FIELDS), dtype=np.int8)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        out = np.zeros((2, OUT_FIELDS), dtype=np.int64)
        scratch = new_scratch(n, unknown.shape[0])
        inner_scratch = new_scratch(n, unknown.shape[0])
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            out[:] = 0
            knock_sample(deck_mask, unknown, trump_card, n, rp, pol, policy, seed, start + i, inner, out, scratch,
                         inner_scratch, policy)
            for r in range(2):
                for f in range(OUT_FIELDS):
                    results[i, r, f] = out[r, f]
    return results


@njit(cache=True, parallel=True)
def knock_batch_searched(deck_mask, unknown, trump_card, n, rp, pol, inner_policy, seed, start, count, inner):
    """:func:`knock_batch` with the hands played by search (``pimc``: the knocked hand and the choice the dealer
    took), his inner deals by ``inner_policy``; and the search's counters: (results, [decisions with a choice,
    worlds they used]). One deal a task: their costs differ."""
    results = np.zeros((count, 2, OUT_FIELDS), dtype=np.int8)
    counters = np.zeros((count, STATS), dtype=np.int64)
    for i in prange(count):
        out = np.zeros((2, OUT_FIELDS), dtype=np.int64)
        scratch = new_scratch(n, unknown.shape[0])
        knock_sample(deck_mask, unknown, trump_card, n, rp, pol, SEARCHED, seed, start + i, inner, out, scratch,
                     new_scratch(n, unknown.shape[0]), inner_policy)
        for r in range(2):
            for f in range(OUT_FIELDS):
                results[i, r, f] = out[r, f]
        for k in range(STATS):
            counters[i, k] = scratch[3][STATS_AT + k]
    return results, counters.sum(axis=0)


__all__ = ["knock_batch", "knock_batch_searched", "knock_sample", "dealer_choices", "plan_seen"]
