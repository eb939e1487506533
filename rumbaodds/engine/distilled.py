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


@njit(cache=True, inline="always")
def features_of(card, place, count, min_winner_key, hand, unseen, trump, following, beat, unseen_trumps,
                opponent_voids, low_rank, top_rank, out):
    """``out[0..N_CARD)`` of ``card``, given what one decision shares: its place among the ``count`` legal cards
    (§6 order), the weakest winning card's strength key, the cards that beat the trick's winner (``beat``)."""
    suit = card >> 4
    rank = card & 15
    is_trump = suit == trump
    lane = suit_lane(suit)
    higher = lane & ~((bit(card) << U1) - U1)  # cards of its suit above it
    above = popcount(unseen & higher)
    below = popcount(unseen & lane & (bit(card) - U1))
    length = popcount(hand & lane)
    wins = True
    if following:
        wins = (beat >> np.uint64(card)) & U1 != U0
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
    out[12] = 1.0 if (following and wins and strength(card, trump) == min_winner_key) else 0.0
    out[13] = 1.0 if place == 0 else 0.0
    out[14] = 1.0 if place == count - 1 else 0.0
    out[15] = 1.0 if (opponent_voids >> np.uint64(suit)) & U1 else 0.0


@njit(cache=True)
def sorted_legal(legal, trump, following, beat, cards):
    """``cards[:count]``: the legal cards weakest first (§6 order); returns (count, the weakest winner's key or -1)."""
    count = 0
    min_winner_key = -1
    rest = legal
    while rest:
        c = lowest_card(rest)
        rest &= rest - U1
        key = strength(c, trump)
        j = count
        while j > 0 and strength(cards[j - 1], trump) > key:  # insertion: at most five cards
            cards[j] = cards[j - 1]
            j -= 1
        cards[j] = c
        count += 1
        if following and (beat >> np.uint64(c)) & U1 and (min_winner_key < 0 or key < min_winner_key):
            min_winner_key = key
    return count, min_winner_key


@njit(cache=True)
def card_features(card, hand, legal, unseen, trump, pos, win_card, opponent_voids, low_rank, top_rank, out):
    """``out[0..N_CARD)``: the card, as twins/distilled.py ``card_features`` (one card alone; the play shares
    the decision's work between its cards)."""
    following = pos > 0
    beat = beaters(win_card, trump) if following else U0
    cards = np.empty(64, dtype=np.int64)
    count, min_winner_key = sorted_legal(legal, trump, following, beat, cards)
    place = 0
    while cards[place] != card:
        place += 1
    features_of(card, place, count, min_winner_key, hand, unseen, trump, following, beat,
                popcount(unseen & suit_lane(trump)), opponent_voids, low_rank, top_rank, out)


@njit(cache=True)
def card_weights(w, ctx, out):
    """``out[i] = w[i] + sum_k w[N_CARD + i * N_CONTEXT + k] * ctx[k]``: the moment folded into one weight per card
    feature, once per decision (twins/distilled.py ``card_weights``, the same sums in the same order)."""
    j = N_CARD
    for i in range(N_CARD):
        acc = w[i]
        for k in range(N_CONTEXT):
            acc += w[j] * ctx[k]
            j += 1
        out[i] = acc


@njit(cache=True)
def distilled_card(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won, voids, caller, need,
                   low_rank, top_rank, weights, ctx, feat, folded, cards):
    """The ``distilled`` card of active player ``me`` (``voids[p]``: bit s set when ``p`` showed no suit ``s``).

    ``weights``: (role, moment, feature), :data:`WEIGHTS` of the rule set's follow rule (or another fit, for
    research); ``ctx`` (N_CONTEXT), ``feat`` and ``folded`` (N_CARD) and ``cards`` (int64, 8 or more) are scratch
    arrays. A single legal card is played at once; ties go to the weakest card in the §6 order.
    """
    if (legal & (legal - U1)) == U0:
        return lowest_card(legal)
    role = ROLE_NORMAL if caller < 0 else (ROLE_CALLER if me == caller else ROLE_DEFENDER)
    opponent_voids = 0
    if role == ROLE_DEFENDER:
        opponent_voids = voids[caller]
    else:
        for p in range(m):
            if p != me:
                opponent_voids |= voids[p]
    context_features(hand, unseen, trump, me, m, leader, pos, win_idx, won, caller, need, ctx)
    card_weights(weights[role, 0 if pos == 0 else 1], ctx, folded)
    following = pos > 0
    beat = beaters(win_card, trump) if following else U0
    count, min_winner_key = sorted_legal(legal, trump, following, beat, cards)
    unseen_trumps = popcount(unseen & suit_lane(trump))
    best = -1
    best_score = 0.0
    for place in range(count):  # weakest first: a later card must score strictly more
        c = cards[place]
        features_of(c, place, count, min_winner_key, hand, unseen, trump, following, beat, unseen_trumps,
                    opponent_voids, low_rank, top_rank, feat)
        score = 0.0
        for i in range(N_CARD):
            score += folded[i] * feat[i]
        if best < 0 or score > best_score:
            best = c
            best_score = score
    return best


__all__ = ["WEIGHTS", "distilled_card", "card_weights", "context_features", "card_features", "deck_ranks",
           "N_FEATURES", "N_CONTEXT", "N_CARD"]
