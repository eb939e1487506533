"""Counter-based random numbers and dealing, reproducible whatever the thread count.

Sample ``i`` of a run with seed ``s`` draws from its own SplitMix64 stream,
started from ``(s, i)`` alone, so chunks and threads can split the samples any
way and still produce identical deals. The twin is ``rumbaodds/twins/common.py``.
"""

import numpy as np
from numba import njit, prange

from .bits import U0, bit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STREAM = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def stream_start(seed, index):
    """State of sample ``index``'s stream (seed and index are uint64)."""
    return mix64(np.uint64(seed) * GOLDEN + np.uint64(index) * STREAM + np.uint64(1))


@njit(cache=True, inline="always")
def next_state(state):
    return state + GOLDEN


@njit(cache=True, inline="always")
def below(state, bound):
    """Uniform integer in [0, bound) from the stream position ``state``; bound <= 2**11."""
    z = mix64(state)
    return np.int64(((z >> np.uint64(11)) * np.uint64(bound)) >> np.uint64(53))


@njit(cache=True)
def shuffle(deck, state):
    """Fisher-Yates on all of ``deck`` (in place), one ``below`` draw per place; returns the new state."""
    size = deck.shape[0]
    for j in range(size):
        state = next_state(state)
        k = j + below(state, size - j)
        tmp = deck[j]
        deck[j] = deck[k]
        deck[k] = tmp
    return state


LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def deal_one(deck_template, players, hand_size, seed, index, deck, hands):
    """Deal sample ``index``: fill ``hands`` and return (trump card, leader).

    The hot path of every play-out benchmark, so each 64-bit output feeds two
    draws (its low, then its high 32 bits: ``(u * bound) >> 32``).
    """
    deck[:] = deck_template
    state = stream_start(seed, index)
    size = deck.shape[0]
    z = U0
    for j in range(players * hand_size + 1):
        if j & 1 == 0:
            state = next_state(state)
            z = mix64(state)
            u = z & LOW32
        else:
            u = z >> np.uint64(32)
        k = j + np.int64((u * np.uint64(size - j)) >> np.uint64(32))
        tmp = deck[j]
        deck[j] = deck[k]
        deck[k] = tmp
    for p in range(players):
        mask = U0
        for j in range(hand_size):
            mask |= bit(deck[p * hand_size + j])
        hands[p] = mask
    trump_card = deck[players * hand_size]
    state = next_state(state)
    leader = np.int64(((mix64(state) & LOW32) * np.uint64(players)) >> np.uint64(32))
    return trump_card, leader


@njit(cache=True, inline="always")
def deal_block(size, players, hand_size, seed, first, words, picks, decks, dealt, leaders):
    """Deal samples ``first .. first+B-1`` (``B = dealt.shape[0]``) as ``deal_one`` does, as deck places.

    ``dealt[b, j]`` is the place in the deck template of the ``j``-th card dealt
    (seat ``p`` gets ``j`` in ``[p * hand_size, (p + 1) * hand_size)``, the trump card
    is ``j = players * hand_size``) and ``leaders[b]`` the leader: the same draws as
    ``deal_one``. Faster: a sample's 64-bit outputs are independent of each other
    (state ``s0 + q * GOLDEN``), so they are made in one vectorisable loop, and the
    shuffles of the ``B`` samples are interleaved so that their chains of loads and
    stores overlap. Scratch: ``words`` (B, >= 32) uint64, ``picks`` (B, 64) uint64,
    ``decks`` (B, 64) uint8; ``dealt`` (B, 64) uint8, ``leaders`` (B,) int64.
    """
    block = dealt.shape[0]
    count = players * hand_size + 1
    used = (count + 1) >> 1  # 64-bit outputs of the shuffle; the next one draws the leader
    made = (used + 8) & ~7
    for b in range(block):
        start = stream_start(seed, first + b)
        for q in range(made):
            words[b, q] = mix64(start + GOLDEN * np.uint64(q + 1))
    for b in range(block):
        for q in range(used):
            j = 2 * q
            word = words[b, q]
            picks[b, j] = np.uint64(j) + (((word & LOW32) * np.uint64(size - j)) >> np.uint64(32))
            picks[b, j + 1] = np.uint64(j + 1) + (((word >> np.uint64(32)) * np.uint64(size - j - 1)) >> np.uint64(32))
        leaders[b] = np.int64(((words[b, used] & LOW32) * np.uint64(players)) >> np.uint64(32))
        for j in range(size):
            decks[b, j] = j
    for j in range(count):
        for b in range(block):
            k = picks[b, j]
            dealt[b, j] = decks[b, k]
            decks[b, k] = decks[b, j]


@njit(cache=True, parallel=True)
def deal_batch(deck_template, players, hand_size, seed, start, count):
    """Deals ``start .. start+count-1`` of the stream: hands (count, players), trump cards, leaders."""
    hands = np.zeros((count, players), dtype=np.uint64)
    trump_cards = np.zeros(count, dtype=np.int64)
    leaders = np.zeros(count, dtype=np.int64)
    chunks = max(1, min(count, 64))
    for chunk in prange(chunks):
        lo = chunk * count // chunks
        hi = (chunk + 1) * count // chunks
        deck = np.empty_like(deck_template)
        row = np.zeros(players, dtype=np.uint64)
        for i in range(lo, hi):
            trump_card, leader = deal_one(deck_template, players, hand_size, seed, start + i, deck, row)
            hands[i, :] = row
            trump_cards[i] = trump_card
            leaders[i] = leader
    return hands, trump_cards, leaders
