"""The ``distilled`` card play in kernel form (docs/SIMULATION.md "Card play"): PIMC's choices, learned.

Each legal card gets the score ``WEIGHTS[follow rule, role, moment] . features`` and the
best is played (ties: the weakest card in the §6 order). The features and
their order are those of the readable twin, ``rumbaodds/twins/distilled.py``;
the weights are fitted to PIMC by ``python -m rumbaodds.distil``
(``rumbaodds/distil/``) and kept in ``distilled_weights.py``. Tests compare
kernel and twin feature by feature and card by card.
"""

import numpy as np
from numba import njit

from .bits import U0, U1, bit, highest_card, lowest_card, popcount, suit_lane
from .distilled_weights import WEIGHTS
from .tricks import beaters, strength

ROLE_CALLER, ROLE_DEFENDER, ROLE_NORMAL = 0, 1, 2
N_CONTEXT = 11
N_CARD = 16
N_FEATURES = N_CARD * (1 + N_CONTEXT)


@njit(cache=True, inline="always")
def _fold(mask):
    return (mask | (mask >> np.uint64(16)) | (mask >> np.uint64(32)) | (mask >> np.uint64(48))) & np.uint64(0xFFFF)


@njit(cache=True)
def deck_ranks(deck_mask):
    """(lowest, highest) rank of the deck."""
    ranks = _fold(deck_mask)
    return lowest_card(ranks), highest_card(ranks)


@njit(cache=True)
def context_features(hand, unseen, trump, me, m, leader, pos, win_idx, won, caller, need, out):
    """``out[0..N_CONTEXT)``: the moment, as twins/distilled.py ``context``."""
    lane = suit_lane(trump)
    trumps = hand & lane
    unseen_trumps = unseen & lane
    top_unseen = highest_card(unseen_trumps) if unseen_trumps else -1
    sure = 0
    rest = trumps
    while rest:  # from the top: each above every unseen trump
        c = highest_card(rest)
        if c > top_unseen:
            sure += 1
            rest &= ~bit(c)
        else:
            break
    cards_left = popcount(hand)
    out[0] = popcount(trumps) / 5
    out[1] = sure / 5
    out[2] = min(popcount(unseen_trumps), 6) / 6
    if caller < 0:
        needed = 1 if won[me] == 0 else 0
        all_needed = 0.0
        caller_winning = 0.0
        caller_after = 0.0
        safe = 0.0
    else:
        needed = max(need - won[caller], 0)
        all_needed = 1.0 if 0 < cards_left <= needed else 0.0
        caller_played = (caller - leader) % m < pos
        caller_winning = 1.0 if (pos > 0 and win_idx == caller) else 0.0
        caller_after = 1.0 if (me != caller and not caller_played) else 0.0
        safe = 1.0 if (me != caller and caller_played and win_idx != caller) else 0.0
    out[3] = needed / 3
    out[4] = cards_left / 5
    out[5] = (m - 1 - pos) / 6
    out[6] = m / 7
    out[7] = caller_winning
    out[8] = caller_after
    out[9] = safe
    out[10] = all_needed


@njit(cache=True)
def card_features(card, hand, legal, unseen, trump, pos, win_card, opponent_voids, low_rank, top_rank, out):
    """``out[0..N_CARD)``: the card, as twins/distilled.py ``card_features``."""
    suit = card >> 4
    rank = card & 15
    is_trump = suit == trump
    lane = suit_lane(suit)
    higher = lane & ~((bit(card) << U1) - U1)  # cards of its suit above it
    above = popcount(unseen & higher)
    below = popcount(unseen & lane & (bit(card) - U1))
    length = popcount(hand & lane)
    unseen_trumps = popcount(unseen & suit_lane(trump))
    following = pos > 0
    wins = True
    if following:
        wins = (beaters(win_card, trump) >> np.uint64(card)) & U1 != U0
    key = strength(card, trump)
    place = 0
    count = 0
    lowest_winner = True
    weakest = True
    strongest = True
    beat = beaters(win_card, trump) if following else U0
    rest = legal
    while rest:
        c = lowest_card(rest)
        rest &= rest - U1
        count += 1
        k = strength(c, trump)
        if k < key:
            place += 1
            weakest = False
            if following and (beat >> np.uint64(c)) & U1:
                lowest_winner = False
        elif k > key:
            strongest = False
    sure_win = wins and above == 0 and (is_trump or unseen_trumps == 0)
    span = max(top_rank - low_rank, 1)
    out[0] = 1.0 if is_trump else 0.0
    out[1] = 1.0 if above == 0 else 0.0
    out[2] = min(above, 4) / 4
    out[3] = min(below, 6) / 6
    out[4] = 1.0 if length == 1 else 0.0
    out[5] = length / 5
    out[6] = min(popcount(unseen & lane), 8) / 8
    out[7] = 1.0 if (not is_trump and unseen_trumps > 0) else 0.0
    out[8] = 1.0 if (following and wins) else 0.0
    out[9] = 1.0 if (following and sure_win) else 0.0
    out[10] = (rank - low_rank) / span
    out[11] = place / (count - 1)
    out[12] = 1.0 if (following and wins and lowest_winner) else 0.0
    out[13] = 1.0 if weakest else 0.0
    out[14] = 1.0 if strongest else 0.0
    out[15] = 1.0 if (opponent_voids >> np.uint64(suit)) & U1 else 0.0


@njit(cache=True)
def distilled_card(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won, voids, caller, need,
                   low_rank, top_rank, weights, ctx, feat):
    """The ``distilled`` card of active player ``me`` (``voids[p]``: bit s set when ``p`` showed no suit ``s``).

    ``weights``: (role, moment, feature), :data:`WEIGHTS` of the rule set's
    follow rule (or another fit, for research); ``ctx`` (N_CONTEXT) and ``feat`` (N_CARD) are scratch arrays.
    A single legal card is played at once.
    """
    if (legal & (legal - U1)) == U0:
        return lowest_card(legal)
    role = ROLE_NORMAL if caller < 0 else (ROLE_CALLER if me == caller else ROLE_DEFENDER)
    w = weights[role, 0 if pos == 0 else 1]
    opponent_voids = 0
    if role == ROLE_DEFENDER:
        opponent_voids = voids[caller]
    else:
        for p in range(m):
            if p != me:
                opponent_voids |= voids[p]
    context_features(hand, unseen, trump, me, m, leader, pos, win_idx, won, caller, need, ctx)
    best = -1
    best_score = 0.0
    rest = legal
    while rest:  # weakest first (§6 order): a later card must score strictly more
        c = lowest_card(rest)
        k_best = strength(c, trump)
        probe = rest
        while probe:
            d = lowest_card(probe)
            probe &= probe - U1
            k = strength(d, trump)
            if k < k_best:
                c = d
                k_best = k
        rest &= ~bit(c)
        card_features(c, hand, legal, unseen, trump, pos, win_card, opponent_voids, low_rank, top_rank, feat)
        score = 0.0
        for i in range(N_CARD):
            score += w[i] * feat[i]
        j = N_CARD
        for i in range(N_CARD):
            for k in range(N_CONTEXT):
                score += w[j] * (feat[i] * ctx[k])
                j += 1
        if best < 0 or score > best_score:
            best = c
            best_score = score
    return best


__all__ = ["WEIGHTS", "distilled_card", "context_features", "card_features", "deck_ranks", "N_FEATURES", "N_CONTEXT",
           "N_CARD"]
