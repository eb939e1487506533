"""Card play of a whole hand: the greedy, expert and distilled policies (docs/SIMULATION.md "Card play")."""

import numpy as np
from numba import njit

from .bits import U0, U1, above_in_suit, bit, highest_card, popcount, suit_lane
from .distilled import deck_ranks, shipped_distilled_card
from .tricks import FOLLOW_STECHZWANG, beaters, legal_mask, strongest, weakest

# card play: everybody greedy / everybody expert / only the Rumba player expert / only the defenders expert /
# everybody distilled
POLICY_GREEDY, POLICY_EXPERT, POLICY_EXPERT_RUMBA, POLICY_EXPERT_DEFENCE, POLICY_DISTILLED = 0, 1, 2, 3, 4
# the kernel code of each card play a question can name (rumbaodds/cardplay.py CARD_PLAYS)
POLICY_CODES = {"greedy": POLICY_GREEDY, "expert": POLICY_EXPERT, "distilled": POLICY_DISTILLED}

_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def above_unseen(unseen):
    """Mask of every card ranked above all unseen cards of its suit (the whole suit if none is unseen)."""
    x = unseen
    x |= (x >> np.uint64(1)) & np.uint64(0x7FFF7FFF7FFF7FFF)
    x |= (x >> np.uint64(2)) & np.uint64(0x3FFF3FFF3FFF3FFF)
    x |= (x >> np.uint64(4)) & np.uint64(0x0FFF0FFF0FFF0FFF)
    x |= (x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)
    return ~x


@njit(cache=True, inline="always")
def expert_card(hand, legal, led_suit, win_card, win_idx, me, last, rumba_idx, rumba_played, unseen, trump):
    """docs/SIMULATION.md "Card play", expert (constant time: safe cards from ``above_unseen``)."""
    lane = suit_lane(trump)
    if led_suit < 0:
        trumps = hand & lane
        if trumps:
            top = highest_card(trumps)
            if me == rumba_idx:
                if (trumps & (trumps - U1)) or (unseen & above_in_suit(top)) == U0:
                    return top
            elif (trumps & (trumps - U1)) and (unseen & above_in_suit(top)) == U0:
                return top
        side = hand & ~lane & above_unseen(unseen)
        if side:
            return strongest(side, trump)
        return weakest(hand, trump)
    if rumba_idx >= 0 and me != rumba_idx and win_idx != rumba_idx and rumba_played:
        return weakest(legal, trump)
    winning = legal & beaters(win_card, trump)
    if winning:
        if last:
            return weakest(winning, trump)
        # a trump is safe above every unseen trump; a side card also needs no unseen trump
        safe = winning & above_unseen(unseen)
        if unseen & lane:
            safe &= lane
        if safe:
            return weakest(safe, trump)
        return strongest(winning, trump)  # nothing is safe: make overtaking as hard as possible
    return weakest(legal, trump)


@njit(cache=True)
def play_tricks(hands, m, leader, trump, follow, policy, rumba_idx, deck_mask, table_mask, tricks, need):
    """Play ``hands[:m]`` (the active seats in seat order) to the end; add tricks per index.

    ``legal_mask`` and ``greedy_card`` written out in the loop, the unseen cards
    kept up to date instead of recomputed. ``need``: the tricks a Rumba needs
    (the distilled play reads it).
    """
    if policy == POLICY_DISTILLED:
        play_distilled(hands, m, leader, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need)
        return
    expert_rumba = policy == POLICY_EXPERT or policy == POLICY_EXPERT_RUMBA
    expert_defence = policy == POLICY_EXPERT or policy == POLICY_EXPERT_DEFENCE
    lane = suit_lane(trump)
    stechzwang = follow == FOLLOW_STECHZWANG
    outside = deck_mask & ~table_mask  # not on the table; less the played cards as they fall
    rounds = popcount(hands[0])
    for _ in range(rounds):
        idx = leader
        hand = hands[idx]
        expert = expert_rumba if idx == rumba_idx else expert_defence
        if expert:
            card = expert_card(hand, hand, -1, -1, leader, idx, m == 1, rumba_idx, False, outside & ~hand, trump)
        else:
            card = strongest(hand, trump)
        hands[idx] = hand & ~bit(card)
        outside &= ~bit(card)
        led_suit = card >> 4
        led_lane = suit_lane(led_suit)
        win_card = card
        win_idx = idx
        beat = beaters(card, trump)
        rumba_played = idx == rumba_idx
        for pos in range(1, m):
            idx += 1
            if idx == m:
                idx = 0
            hand = hands[idx]
            led = hand & led_lane
            if led:
                legal = led & beat
                if not legal:
                    legal = led
            else:
                trumps = hand & lane
                if stechzwang:
                    if trumps:
                        legal = trumps & beat
                        if not legal:
                            legal = trumps
                    else:
                        legal = hand
                else:
                    winning_trumps = trumps & beat
                    legal = hand & ~(trumps & ~winning_trumps) if winning_trumps else hand
            is_rumba = idx == rumba_idx
            expert = expert_rumba if is_rumba else expert_defence
            if not expert:
                winning = legal & beat
                card = weakest(winning, trump) if winning else weakest(legal, trump)
            else:
                card = expert_card(hand, legal, led_suit, win_card, win_idx, idx, pos == m - 1, rumba_idx,
                                   rumba_played, outside & ~hand, trump)
            hands[idx] = hand & ~bit(card)
            outside &= ~bit(card)
            if (beat >> np.uint64(card)) & U1:
                win_card = card
                win_idx = idx
                beat = beaters(card, trump)
            if is_rumba:
                rumba_played = True
        tricks[win_idx] += 1
        leader = win_idx




@njit(cache=True)
def play_distilled(hands, m, leader, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need):
    """``play_tricks`` with everybody ``distilled``: also keeps the tricks won and the voids each player showed,
    packed 4 bits a player (engine/distilled.py ``won_of``, ``voids_of``), so nothing is allocated."""
    stechzwang = follow == FOLLOW_STECHZWANG
    outside = deck_mask & ~table_mask
    low_rank, top_rank = deck_ranks(deck_mask)
    won_bits = 0
    void_bits = 0
    rounds = popcount(hands[0])
    for _ in range(rounds):
        idx = leader
        win_card = -1
        win_idx = -1
        led_suit = -1
        beat = U0
        for pos in range(m):
            hand = hands[idx]
            legal = legal_mask(hand, led_suit, win_card, trump, follow)
            card = shipped_distilled_card(hand, legal, outside & ~hand, trump, idx, m, leader, pos, win_card, win_idx,
                                          won_bits, void_bits, rumba_idx, need, low_rank, top_rank, follow)
            hands[idx] = hand & ~bit(card)
            outside &= ~bit(card)
            if pos == 0:
                led_suit = card >> 4
                win_card = card
                win_idx = idx
                beat = beaters(card, trump)
            else:
                if card >> 4 != led_suit:  # not following shows a void [RULES.md §3]
                    void_bits |= 1 << (4 * idx + led_suit)
                    if stechzwang and card >> 4 != trump:  # nor trumping: no trump either
                        void_bits |= 1 << (4 * idx + trump)
                if (beat >> np.uint64(card)) & U1:
                    win_card = card
                    win_idx = idx
                    beat = beaters(card, trump)
            idx += 1
            if idx == m:
                idx = 0
        tricks[win_idx] += 1
        won_bits += 1 << (4 * win_idx)
        leader = win_idx
