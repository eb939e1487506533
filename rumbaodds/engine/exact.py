"""Exact expectations of ``ask`` by visiting every order of the unknown cards (tiny rule sets only).

Every order is equally likely under the shuffle. The earlier seats take their
cards in seat order; an order's weight is the probability that those hands
say what the hero saw (0 or 1 under a deterministic policy, a fraction for a
stretched seat), exactly the weight of the importance-sampled conditioning.
Each order is taken under every renaming of the side suits (step 2b). The
policy must be deterministic (every probability 0 or 1; the caller checks),
so the decision numbers do not matter. The swiss passers' shuffle uses a
fixed stream position, so the answer is exact only where the exchange cannot
reach the passers' cards (the caller checks).
"""

import numpy as np
from numba import njit

from .bits import U0, bit
from .condition import acceptance, seat_context
from .hand import (
    OUT_FIELDS,
    VOID,
    evaluate_choices,
    new_scratch,
    rename_side_suits,
    side_suit_count,
    side_suit_permutation,
)
from .policy import W_NONE, W_RUMBA, hand_score, masked_row, may_throw_in, pick_not_rumba
from .rng import stream_start
from .rules_layout import R_HAND, R_JACK_FORCES, R_RUMBA_FIRST, R_THROW_BELOW, R_TOP_RANK
from .speak import JACK, hero_swaps_two, two_of

MAX_CALLER = 8  # outcome index: round-one Rumba caller + 1 (0: nobody)


@njit(cache=True)
def next_permutation(order):
    """Rearrange ``order`` into its next lexicographic permutation; False after the last."""
    i = order.shape[0] - 2
    while i >= 0 and order[i] >= order[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = order.shape[0] - 1
    while order[j] <= order[i]:
        j -= 1
    tmp = order[i]
    order[i] = order[j]
    order[j] = tmp
    order[i + 1:] = order[i + 1:][::-1].copy()
    return True


@njit(cache=True)
def earlier_weight(order, n, hero, trump_card, swapped_by, excluded, jack_forced, knocked, rp, pol, plan, hands,
                   words, alpha):
    """Deal the earlier seats from the front of ``order``; (weight, Rumba seat, cards used)."""
    plan_word, plan_hard, plan_stretch, stretch, _ = plan
    hand_size = rp[R_HAND]
    trump = trump_card >> 4
    top = rp[R_TOP_RANK]
    below_rank = rp[R_THROW_BELOW]
    weight = 1.0
    rumba_seat = -1
    pos = 0
    rumba_first = rp[R_RUMBA_FIRST] == 1 and not knocked
    for s in range(hero):
        words[s] = W_NONE
    for s in range(hero):
        k = hand_size - 1 if s == swapped_by else hand_size
        hand = bit(trump_card) if s == swapped_by else U0
        for j in range(k):
            hand |= bit(order[pos + j])
        pos += k
        hands[s] = hand
        if excluded[s] >= 0 and (hand >> np.uint64(excluded[s])) & np.uint64(1):
            return 0.0, -1, pos
        if rumba_first and rumba_seat >= 0:
            continue  # no round-one turn after a Rumba
        ctx, pass_ok, rumba_ok, throw_ok = seat_context(s, n, words, rumba_seat, knocked, jack_forced, rp)
        acceptance(alpha, s, ctx, pass_ok, rumba_ok, throw_ok, plan_word[s], plan_stretch[s] == 1, stretch, pol)
        score = hand_score(hand, trump, top, pol[1][s])
        weight *= alpha[score, 1 if may_throw_in(hand, below_rank) else 0]
        if weight == 0.0:
            return 0.0, -1, pos
        word = plan_word[s]
        if word == W_NONE and not rumba_first:
            q0, q1, q2 = masked_row(pol[2], s, ctx, score, pass_ok, rumba_ok)
            word = pick_not_rumba(q0, q1, 0.5)
        words[s] = word
        if word == W_RUMBA:
            rumba_seat = s
    return weight, rumba_seat, pos


@njit(cache=True)
def ask_exact(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes, knocked, swapped_by,
              choices):
    """(total weight, per-choice sums of weight x score by round-one caller, per-choice trick histograms).

    ``sums[c, caller + 1]``; ``tricks[c, t - VOID]`` (weights).
    """
    size = unknown.shape[0]
    order = np.sort(unknown.copy())
    scratch = new_scratch(n, size)
    deck, hands2, ints, cards, us, cond, forced, probs = scratch
    us[:] = 0.5
    alpha = cond[5]
    out = np.zeros((choices.shape[0], OUT_FIELDS), dtype=np.int64)
    sums = np.zeros((choices.shape[0], MAX_CALLER + 1), dtype=np.float64)
    tricks = np.zeros((choices.shape[0], 9), dtype=np.float64)
    total = 0.0
    trump = trump_card >> 4
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    excluded = plan[4]
    state = stream_start(0, 0)
    orders = 1
    for j in range(2, side_suit_count(deck_mask, trump) + 1):
        orders *= j
    perm = np.zeros(4, dtype=np.int64)
    dealt = np.zeros(n, dtype=np.uint64)
    stock = np.zeros(size, dtype=np.int64)
    hands = hands2[0]
    words = ints[0]
    while True:
        weight, rumba_seat, pos = earlier_weight(order, n, hero, trump_card, swapped_by, excluded, jack_forced,
                                                 knocked, rp, pol, plan, hands, words, alpha)
        if weight > 0.0:
            hands[hero] = hero_hand
            for s in range(hero, n):
                words[s] = W_NONE
            for s in range(hero + 1, n):
                mask = U0
                for j in range(rp[R_HAND]):
                    mask |= bit(order[pos])
                    pos += 1
                hands[s] = mask
            total += weight * orders
            dealt[:] = hands
            saved_words = words.copy()
            for p in range(orders):  # every renaming of the side suits, equally likely
                hands[:] = dealt
                words[:] = saved_words
                stock[:size - pos] = order[pos:size]
                side_suit_permutation(deck_mask, trump, p, perm)
                turned = two_of(trump) if swapped_by >= 0 else trump_card
                turned = rename_side_suits(hands, n, stock[:size - pos], perm, knocked, trump_card, turned)
                own = hands[hero]
                hands[hero] = hero_swaps_two(own, turned, trump_card, knocked, rp)
                if hands[hero] != own:
                    turned = two_of(trump)
                evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, hero, choices, passes, knocked,
                                 jack_forced, rp, pol, us, policy, deck_mask, stock[:size - pos], size - pos, state,
                                 hands2, ints, cards, out, forced, probs)
                for c in range(choices.shape[0]):
                    sums[c, out[c, 3] + 1] += weight * out[c, 0]
                    tricks[c, out[c, 1] - VOID] += weight
        if not next_permutation(order):
            break
    return total, sums, tricks
