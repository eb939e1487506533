"""Strategy-table kernel: ``ask`` for many cells (seat, trump card, hand) in one call.

Cell ``c`` (its global index in the build) draws samples ``c * samples + i``
of the run's seed, exactly the deals ``ask(..., seed)`` would draw at that
offset, so a table never depends on chunking, threads or interruptions. The
per-sample work is ``hand.ask_sample``; its twin is ``twin_hand.simulate_sample``.

Choice columns: 0 pass (no penalty: always 0), 1 pass as a penalised pass
(the sit-out limit reached), 2 rumba, 3.. play with 0..K discards.
"""

import math

import numpy as np
from numba import njit, prange

from .bits import U1
from .hand import C_PASS, C_PLAY, C_RUMBA, LONE_PLAY, NO_TRICKS, OUT_FIELDS, VOID, ask_sample, new_scratch
from .policy import NSCORE, W_NONE
from .speak import two_of

Z95 = 1.959963984540054
COL_PASS, COL_PASS_PENALISED, COL_RUMBA, COL_PLAY = 0, 1, 2, 3


@njit(cache=True)
def _stats(buffer, samples, cols):
    means = np.zeros(cols)
    halves = np.zeros(cols)
    for c in range(cols):
        total = 0.0
        for i in range(samples):
            total += buffer[i, c]
        mean = total / samples
        var = 0.0
        for i in range(samples):
            d = buffer[i, c] - mean
            var += d * d
        var = var / (samples - 1) if samples > 1 else 0.0
        means[c] = mean
        halves[c] = Z95 * math.sqrt(var / samples)
    return means, halves


@njit(cache=True, parallel=True)
def table_cells(deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy, penalised_passes, exchange_limit,
                seed, first_cell, samples, min_tricks, excluded_by_trump):
    """Per cell: mean and 95% half-width of every column, rumba details, best column, runner-up and margin."""
    cells = hero_hands.shape[0]
    cols = COL_PLAY + exchange_limit + 1
    means = np.zeros((cells, cols))
    halves = np.zeros((cells, cols))
    success = np.zeros(cells, dtype=np.int64)
    uncontested = np.zeros(cells, dtype=np.int64)
    void = np.zeros(cells, dtype=np.int64)
    lone_play = np.zeros(cells, dtype=np.int64)
    tricks = np.zeros((cells, 6), dtype=np.int64)
    best = np.zeros(cells, dtype=np.int64)
    runner = np.zeros(cells, dtype=np.int64)
    margin = np.zeros(cells)
    margin_half = np.zeros(cells)
    tries = np.zeros(cells)
    hand_size = rp[1]
    unknown_size = deck.shape[0] - hand_size - 1
    choices = np.empty(cols - 1, dtype=np.int64)  # the kernel's choices: rumba, pass, play0..K
    choices[0] = C_RUMBA  # rumba first: the pass then shares its speaking with the plays after it
    choices[1] = C_PASS
    for k in range(exchange_limit + 1):
        choices[2 + k] = C_PLAY + k
    chunks = max(1, min(cells, 64))
    for chunk in prange(chunks):
        scratch = new_scratch(n, unknown_size)
        out = np.zeros((cols - 1, OUT_FIELDS), dtype=np.int64)
        plan = (np.full(n, W_NONE, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                np.zeros((n, NSCORE)), np.full(n, -1, dtype=np.int64))
        unknown = np.empty(unknown_size, dtype=np.int64)
        buffer = np.zeros((samples, cols))
        for cell in range(chunk * cells // chunks, (chunk + 1) * cells // chunks):
            hero = hero_hands[cell]
            trump_card = trump_cards[cell]
            seat = seats[cell]
            k = 0
            for card in deck:
                if card != trump_card and not (hero >> np.uint64(card)) & U1:
                    unknown[k] = card
                    k += 1
            holds_two = (hero >> np.uint64(two_of(trump_card >> 4))) & U1
            for s in range(n):
                plan[4][s] = excluded_by_trump[s, trump_card & 15] if not holds_two else -1
            tried = 0
            for i in range(samples):
                index = np.uint64(first_cell + cell) * np.uint64(samples) + np.uint64(i)
                t, _w = ask_sample(deck_mask, unknown, hero, trump_card, n, seat, rp, pol, plan, policy,
                                   penalised_passes, False, -1, choices, seed, index, out, scratch)
                if t < 0:
                    tried = -1
                    break
                tried += t
                buffer[i, COL_PASS] = 0.0
                buffer[i, COL_PASS_PENALISED] = out[1, 0]
                buffer[i, COL_RUMBA] = out[0, 0]
                for c in range(2, cols - 1):
                    buffer[i, c + 1] = out[c, 0]
                rumba_tricks = out[0, 1]
                if rumba_tricks == NO_TRICKS:  # a lone Rumba: nobody joined
                    uncontested[cell] += 1
                    success[cell] += 1
                elif rumba_tricks == VOID:
                    void[cell] += 1
                elif rumba_tricks == LONE_PLAY:
                    lone_play[cell] += 1
                else:
                    tricks[cell, rumba_tricks] += 1
                    if rumba_tricks >= min_tricks:
                        success[cell] += 1
            if tried < 0:
                tries[cell] = -1.0
                continue
            tries[cell] = tried / samples
            m, h = _stats(buffer, samples, cols)
            means[cell, :] = m
            halves[cell, :] = h
            # best and runner-up among pass, rumba and the best play (lowest expected change wins)
            top_play = COL_PLAY
            for c in range(COL_PLAY + 1, cols):
                if m[c] < m[top_play]:
                    top_play = c
            kinds = np.array([COL_PASS, COL_RUMBA, top_play])
            order = np.argsort(np.array([m[COL_PASS], m[COL_RUMBA], m[top_play]]), kind="mergesort")
            b = kinds[order[0]]
            r = kinds[order[1]]
            best[cell] = b
            runner[cell] = r
            diff_mean = 0.0
            for i in range(samples):
                diff_mean += buffer[i, r] - buffer[i, b]
            diff_mean /= samples
            var = 0.0
            for i in range(samples):
                d = buffer[i, r] - buffer[i, b] - diff_mean
                var += d * d
            var = var / (samples - 1) if samples > 1 else 0.0
            margin[cell] = diff_mean
            margin_half[cell] = Z95 * math.sqrt(var / samples)
    return means, halves, success, uncontested, void, lone_play, tricks, best, runner, margin, margin_half, tries
