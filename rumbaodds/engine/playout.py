"""Batched greedy play-outs: many deals at once, split over threads by chunk.

Each chunk owns a slice of the output, so results never depend on the thread
count; random deals come from the counter-based streams of ``rng.py``.
"""

import numpy as np
from numba import njit, prange

from .rng import deal_one
from .tricks import play_greedy


@njit(cache=True, parallel=True)
def play_batch(hands, leaders, trumps, follow):
    """Greedy tricks per seat for each deal: ``hands`` (count, n) uint64 -> (count, n) int64."""
    count, n = hands.shape
    tricks = np.zeros((count, n), dtype=np.int64)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        row = np.empty(n, dtype=np.uint64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            row[:] = hands[i]
            play_greedy(row, leaders[i], trumps[i], follow, tricks[i])
    return tricks


@njit(cache=True, parallel=True)
def random_greedy_playouts(deck_template, players, hand_size, follow, seed, start, count):
    """Deal ``count`` random deals (stream ``seed``, from ``start``) and play them greedily.

    Returns tricks per seat as (count, players) int8: the benchmark's unit of
    work and the reference for "p_success equals the greedy share" checks.
    """
    tricks = np.zeros((count, players), dtype=np.int8)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        deck = np.empty_like(deck_template)
        row = np.empty(players, dtype=np.uint64)
        won = np.zeros(players, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            trump_card, leader = deal_one(deck_template, players, hand_size, seed, start + i, deck, row)
            won[:] = 0
            play_greedy(row, leader, trump_card >> 4, follow, won)
            for p in range(players):
                tricks[i, p] = won[p]
    return tricks
