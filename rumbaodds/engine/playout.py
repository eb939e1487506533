"""Batched greedy play-outs: many deals at once, split over threads by chunk.

Each chunk owns a slice of the output, so results never depend on the thread
count; random deals come from the counter-based streams of ``rng.py``. Both
kernels play two deals at a time in the strength layout of ``tricks.py``
(``play_greedy_pair``); tests compare them with the twin deal by deal.
"""

import numpy as np
from numba import njit, prange

from .bits import U0, U1, popcount
from .rng import deal_block
from .tricks import play_greedy_pair, strength_bit, strength_hand

BLOCK = 4  # deals dealt together (an even number: they are played in pairs)


@njit(cache=True, parallel=True)
def play_batch(hands, leaders, trumps, follow):
    """Greedy tricks per seat for each deal: ``hands`` (count, n) uint64 -> (count, n) int64."""
    count, n = hands.shape
    tricks = np.zeros((count, n), dtype=np.int64)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        row_a = np.empty(n, dtype=np.uint64)
        row_b = np.empty(n, dtype=np.uint64)
        spare = np.zeros(n, dtype=np.int64)
        i = chunk * count // chunks
        hi = (chunk + 1) * count // chunks
        while i < hi:
            rounds = popcount(hands[i, 0])
            # a partner deal with as many rounds, else deal i again into a spare row
            other = i + 1 if i + 1 < hi and popcount(hands[i + 1, 0]) == rounds else i
            for p in range(n):
                row_a[p] = strength_hand(hands[i, p], trumps[i])
                row_b[p] = strength_hand(hands[other, p], trumps[other])
            won_b = tricks[other] if other != i else spare
            play_greedy_pair(row_a, row_b, n, leaders[i], leaders[other], rounds, follow, tricks[i], won_b)
            i = other + 1 if other != i else i + 1
    return tricks


@njit(cache=True, parallel=True)
def random_greedy_playouts(deck_template, players, hand_size, follow, seed, start, count):
    """Deal ``count`` random deals (stream ``seed``, from ``start``) and play them greedily.

    Returns tricks per seat as (count, players) int8: the benchmark's unit of
    work and the reference for "p_success equals the greedy share" checks.
    The deals are ``deal_one``'s, made ``BLOCK`` at a time by ``deal_block`` as
    deck places; once the trump card is known, a per-trump table gives each
    place's bit in the strength layout; then ``play_greedy_pair`` plays them.
    """
    tricks = np.zeros((count, players), dtype=np.int8)
    size = deck_template.shape[0]
    last = players * hand_size  # place of the trump card in the dealing order
    layout = np.zeros((4, 64), dtype=np.uint64)  # [trump suit, deck place] -> strength bit
    suits = np.zeros(64, dtype=np.uint8)  # deck place -> suit
    for j in range(size):
        suits[j] = deck_template[j] >> 4
        for trump in range(4):
            layout[trump, j] = U1 << np.uint64(strength_bit(deck_template[j], trump))
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        words = np.empty((BLOCK, 32), dtype=np.uint64)
        picks = np.empty((BLOCK, 64), dtype=np.uint64)
        decks = np.empty((BLOCK, 64), dtype=np.uint8)
        dealt = np.empty((BLOCK, 64), dtype=np.uint8)
        leaders = np.empty(BLOCK, dtype=np.int64)
        hands = np.empty((BLOCK, players), dtype=np.uint64)
        spare = np.zeros((BLOCK, players), dtype=np.int8)
        hi = (chunk + 1) * count // chunks
        for i in range(chunk * count // chunks, hi, BLOCK):
            # past the chunk's end, the block's last deals are dealt and played into spare rows
            deal_block(size, players, hand_size, seed, start + i, words, picks, decks, dealt, leaders)
            for b in range(BLOCK):
                row = dealt[b]
                bits = layout[suits[row[last]]]
                seats = hands[b]
                for p in range(players):
                    mask = U0
                    first = p * hand_size
                    for j in range(hand_size):
                        mask |= bits[row[first + j]]
                    seats[p] = mask
            for b in range(0, BLOCK, 2):
                won_a = tricks[i + b] if i + b < hi else spare[b]
                won_b = tricks[i + b + 1] if i + b + 1 < hi else spare[b + 1]
                play_greedy_pair(hands[b], hands[b + 1], players, leaders[b], leaders[b + 1], hand_size, follow,
                                 won_a, won_b)
    return tricks
