"""Trick kernels: legal cards, trick winner, the greedy policy and its play-out.

The readable specification of each kernel is its twin in ``rumbaodds/twins/common.py``
(the trick rules: ``rumbaodds/game/tricks.py``); tests
compare the two. A trick in progress is described by ``led_suit`` (-1 while
nobody has played) and ``win_card``, the card that currently wins it.
"""

import numpy as np
from numba import njit

from .bits import U0, U1, above_in_suit, bit, highest_card, leading_zeros, lowest_card, popcount, suit_lane

FOLLOW_STECHZWANG = 0
FOLLOW_FLEMISH = 1


@njit(cache=True, inline="always")
def beaters(win_card, trump):
    """Mask of every card that would beat ``win_card`` (RULES.md §3 "winning card")."""
    above = above_in_suit(win_card)
    if (win_card >> 4) == trump:
        return above
    return above | suit_lane(trump)


@njit(cache=True, inline="always")
def beats(card, win_card, trump):
    return (beaters(win_card, trump) >> np.uint64(card)) & U1 != U0


@njit(cache=True)
def legal_mask(hand, led_suit, win_card, trump, follow):
    """Cards of ``hand`` that may be played now (RULES.md §3)."""
    if led_suit < 0:
        return hand
    beat = beaters(win_card, trump)
    led = hand & suit_lane(led_suit)
    if led:
        winning = led & beat
        return winning if winning else led
    trumps = hand & suit_lane(trump)
    if follow == FOLLOW_STECHZWANG:
        if trumps:
            winning = trumps & beat
            return winning if winning else trumps
        return hand
    # flemish: free choice, but no losing trump while holding a winning one [D-1]
    winning_trumps = trumps & beat
    if winning_trumps:
        return hand & ~(trumps & ~winning_trumps)
    return hand


@njit(cache=True, inline="always")
def strength(card, trump):
    """Greedy order (RULES.md §6): trumps above all, then rank, ties C < D < H < S."""
    suit = card >> 4
    return (64 if suit == trump else 0) + (card & 15) * 4 + suit


@njit(cache=True, inline="always")
def _fold(mask):
    """The four 16-bit suit lanes OR-ed together: which ranks occur in any suit."""
    return (mask | (mask >> np.uint64(16)) | (mask >> np.uint64(32)) | (mask >> np.uint64(48))) & np.uint64(0xFFFF)


_LANE_STARTS = np.uint64(0x0001000100010001)


@njit(cache=True)
def strongest(mask, trump):
    """Strongest card of a non-empty mask in the greedy order, in constant time."""
    trumps = mask & suit_lane(trump)
    if trumps:
        return highest_card(trumps)
    rank = highest_card(_fold(mask))
    return highest_card((mask >> np.uint64(rank)) & _LANE_STARTS) + rank  # the highest suit breaks ties


@njit(cache=True)
def weakest(mask, trump):
    """Weakest card of a non-empty mask in the greedy order, in constant time."""
    side = mask & ~suit_lane(trump)
    if side:
        rank = lowest_card(_fold(side))
        return lowest_card((side >> np.uint64(rank)) & _LANE_STARTS) + rank  # the lowest suit breaks ties
    return lowest_card(mask)


@njit(cache=True)
def greedy_card(legal, led_suit, win_card, trump):
    """The greedy policy's card: lead the strongest, else the weakest winner, else the weakest."""
    if led_suit < 0:
        return strongest(legal, trump)
    winning = legal & beaters(win_card, trump)
    if winning:
        return weakest(winning, trump)
    return weakest(legal, trump)


@njit(cache=True)
def play_greedy(hands, leader, trump, follow, tricks):
    """Play out ``hands`` (uint64 per seat, consumed) with everybody greedy; add tricks won.

    The same choices as ``legal_mask`` + ``greedy_card`` card by card (tests
    compare both with the twin), unrolled for speed: inside one suit the
    weakest card is simply the lowest bit.
    """
    n = hands.shape[0]
    rounds = popcount(hands[0])
    trump_lane = suit_lane(trump)
    stechzwang = follow == FOLLOW_STECHZWANG
    for _ in range(rounds):
        seat = leader
        card = strongest(hands[seat], trump)
        hands[seat] &= ~bit(card)
        led_lane = suit_lane(card >> 4)
        beat = beaters(card, trump)
        win_seat = seat
        for _k in range(1, n):
            seat += 1
            if seat == n:
                seat = 0
            hand = hands[seat]
            won = False
            led = hand & led_lane
            if led:
                winning = led & beat
                if winning:
                    card = lowest_card(winning)
                    won = True
                else:
                    card = lowest_card(led)
            else:
                winning_trumps = hand & trump_lane & beat
                if winning_trumps:  # both rules: the weakest winning trump [D-1]
                    card = lowest_card(winning_trumps)
                    won = True
                elif stechzwang and hand & trump_lane:
                    card = lowest_card(hand & trump_lane)
                else:
                    card = weakest(hand, trump)
            hands[seat] = hand & ~bit(card)
            if won:
                beat = beaters(card, trump)
                win_seat = seat
        tricks[win_seat] += 1
        leader = win_seat


# -- the strength layout: the greedy play-out's fast path ------------------------------
# For one trump suit, card ``suit * 16 + rank`` gets the bit of its greedy strength
# (RULES.md §6): a non-trump sits at ``rank * 3 + (its place among the three other suits,
# C < D < H < S)``, bits 0..38; a trump at ``39 + rank``, bits 39..51. Then the strongest card
# is the highest bit, the weakest the lowest; a non-trump suit is every third bit below 39
# (``LED_MASK`` of any of its bits), and the cards beating the winning card ``w`` are the bits
# above ``w`` in its suit or in trumps: ``above(w) & (suit(w) | TRUMP_BITS)``.
TRUMP_BASE = 39
TRUMP_BITS = np.uint64(0x1FFF << TRUMP_BASE)
_THIRDS = sum(1 << (3 * rank) for rank in range(13))
LED_MASK = np.array([_THIRDS << (p % 3) if p < TRUMP_BASE else 0x1FFF << TRUMP_BASE for p in range(64)],
                    dtype=np.uint64)


@njit(cache=True, inline="always")
def strength_bit(card, trump):
    """Position of ``card`` in the strength layout of ``trump``."""
    suit = card >> 4
    rank = card & 15
    if suit == trump:
        return TRUMP_BASE + rank
    return rank * 3 + suit - (1 if suit > trump else 0)


@njit(cache=True)
def strength_hand(hand, trump):
    """A suit-layout hand (cards.py) in the strength layout of ``trump``."""
    out = U0
    while hand:
        out |= bit(strength_bit(lowest_card(hand), trump))
        hand &= hand - U1
    return out


@njit(cache=True, inline="always")
def play_greedy_pair(hands_a, hands_b, players, leader_a, leader_b, rounds, follow, won_a, won_b):
    """``play_greedy`` on two deals at once, hands in the strength layout (consumed).

    Adds tricks won to ``won_a`` / ``won_b``. Interleaving two independent deals
    lets the processor overlap their dependency chains. Per card: the legal cards
    are the led suit if held, else (swiss) the trumps if held, else the hand (flemish
    [D-1] only bars losing trumps when a winning one is held, and then a winner is
    chosen anyway); the card is the lowest legal bit that beats the trick's winner,
    else the lowest legal bit; ``legal & above(winner) & (led suit | trumps)`` are the winners,
    since the winner is always of the led suit or a trump. Branch-free, and seats
    are unsigned so that indexing needs no wraparound test.
    """
    n = np.uint64(players)
    only_trumps = TRUMP_BITS if follow == FOLLOW_STECHZWANG else U0
    seat_a = np.uint64(leader_a)
    seat_b = np.uint64(leader_b)
    for _ in range(rounds):
        hand_a = hands_a[seat_a]
        hand_b = hands_b[seat_b]
        top_a = np.uint64(63) - leading_zeros(hand_a)
        top_b = np.uint64(63) - leading_zeros(hand_b)
        win_a = U1 << top_a
        win_b = U1 << top_b
        hands_a[seat_a] = hand_a ^ win_a
        hands_b[seat_b] = hand_b ^ win_b
        led_a = LED_MASK[top_a]
        led_b = LED_MASK[top_b]
        can_win_a = led_a | TRUMP_BITS
        can_win_b = led_b | TRUMP_BITS
        win_seat_a = seat_a
        win_seat_b = seat_b
        for _k in range(1, players):
            seat_a += U1
            seat_a = U0 if seat_a == n else seat_a
            seat_b += U1
            seat_b = U0 if seat_b == n else seat_b
            hand_a = hands_a[seat_a]
            hand_b = hands_b[seat_b]
            suit_a = hand_a & led_a
            suit_b = hand_b & led_b
            trumps_a = hand_a & only_trumps
            trumps_b = hand_b & only_trumps
            legal_a = suit_a if suit_a else (trumps_a if trumps_a else hand_a)
            legal_b = suit_b if suit_b else (trumps_b if trumps_b else hand_b)
            beat_a = legal_a & ~((win_a << U1) - U1) & can_win_a
            beat_b = legal_b & ~((win_b << U1) - U1) & can_win_b
            pick_a = beat_a if beat_a else legal_a
            pick_b = beat_b if beat_b else legal_b
            card_a = pick_a & ~(pick_a - U1)  # lowest bit
            card_b = pick_b & ~(pick_b - U1)
            hands_a[seat_a] = hand_a ^ card_a
            hands_b[seat_b] = hand_b ^ card_b
            if beat_a:
                win_a = card_a
                win_seat_a = seat_a
            if beat_b:
                win_b = card_b
                win_seat_b = seat_b
        won_a[win_seat_a] += 1
        won_b[win_seat_b] += 1
        seat_a = win_seat_a
        seat_b = win_seat_b


@njit(cache=True)
def trick_winner(cards, leader, trump):
    """Seat that wins a complete trick; ``cards[k]`` was played by seat ``(leader + k) % n``."""
    n = cards.shape[0]
    win_card = cards[0]
    win_pos = 0
    for k in range(1, n):
        if beats(cards[k], win_card, trump):
            win_card = cards[k]
            win_pos = k
    return (leader + win_pos) % n


__all__ = [
    "FOLLOW_STECHZWANG",
    "FOLLOW_FLEMISH",
    "beaters",
    "beats",
    "legal_mask",
    "strength",
    "strongest",
    "weakest",
    "greedy_card",
    "play_greedy",
    "play_greedy_pair",
    "strength_bit",
    "strength_hand",
    "trick_winner",
    "highest_card",
]
