"""Whole games (RULES.md §9) where players may see the score: each hand, each player decides by his own model.

Hands one after another until one or more players reach 0, each hand the
hand kernel's own (``kernel.play_hand``: the deal, its random numbers, every
seat's score change) and the score sheet's (``score.py``). Before every hand
the table's policy is put together seat by seat: a *score-aware* player
takes his seat's row from the strategy of his score class
(``strategy/score_classes.py``: own distance, the leader's, whether a pass
costs the penalty), any other player his seat's row of his own fixed policy
(the per-hand equilibrium, a style). The dealer's blind knock is his as
well. ``aware[p]`` is 0 for a score-aware player, else 1 + the number of his
fixed policy (players who share one share a number, so their seats need no
copy when the deal moves). :func:`game_batch` plays a table of one fixed
policy (nobody sees the score). The twin is ``twin.continue_game`` with
``scored_twin.table_policy``; tests compare them game by game.

Random numbers: game ``g`` of seed ``s`` owns the stream ``stream_start(s, g)``;
each deal (a void one too) takes the next position of it and starts its own
stream at ``mix64`` of it (``kernel.py`` says how a hand draws from it). Games
depend on (seed, g) alone, so any batching and any thread count give the
same games.
"""

import numpy as np
from numba import njit, prange

from ..engine.bits import U0, bit
from ..engine.rng import mix64, next_state, stream_start
from ..strategy.score_classes import seat_classes
from .kernel import new_hand_scratch, play_hand
from .score import G_GOAL, apply_hand, game_over, settle


@njit(cache=True)
def new_work(n, stack):
    """Working policy arrays of one table (the kernel's layout, ``n`` seats) and each seat's last source."""
    ints, values, words, throws, exchanges = stack
    work = (np.empty_like(ints), np.empty_like(values), np.empty_like(words[0]), np.empty_like(throws[0]),
            np.empty_like(exchanges[0]))
    return work, np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64)


@njit(cache=True)
def select_policy(scores, passes, dealer, rp, gp, stack, fixed, aware, work, sources, classes):
    """Fill ``work`` with every seat's row for this hand; returns the dealer's player.

    A seat copies only when its source (a class of the stack, or a fixed policy) changed since the last hand.
    """
    n = scores.shape[0]
    s_ints, s_values, s_words, s_throws, s_exchanges = stack
    f_ints, f_values, f_words, f_throws, f_exchanges = fixed
    w_ints, w_values, w_words, w_throws, w_exchanges = work
    nclass = s_words.shape[0]
    seat_classes(scores, passes, dealer, gp[G_GOAL], rp, classes)
    for s in range(n):
        p = (dealer + 1 + s) % n
        source = classes[s] if aware[p] == 0 else nclass + aware[p] - 1
        if source == sources[s]:
            continue
        sources[s] = source
        if aware[p] == 0:
            c = classes[s]
            w_ints[s] = s_ints[s]
            w_values[s] = s_values[s]
            w_words[s] = s_words[c, s]
            w_throws[s] = s_throws[c, s]
            w_exchanges[s] = s_exchanges[c, s]
        else:
            w_ints[s] = f_ints[p, s]
            w_values[s] = f_values[p, s]
            w_words[s] = f_words[p, s]
            w_throws[s] = f_throws[p, s]
            w_exchanges[s] = f_exchanges[p, s]
    return dealer


@njit(cache=True)
def play_game_scored(deck, n, scores0, passes0, dealer0, rp, gp, stack, knock_stack, fixed, fixed_knock, aware, play,
                     deck_mask, seed, index, max_hands, scores, passes, won, payout, scratch, changes, passed, work,
                     sources, classes, trace_scores, trace_passes, trace_dealer):
    """Game ``index``: hands from the score state until it ends (§9), every hand's table chosen by the score;
    returns the deals it took (<0: unfinished): the final ``scores`` and ``passes``, the ``won`` flags and the
    ``payout`` (``score.settle``) are left in place. The first ``trace_scores.shape[0]`` hands' score states are
    recorded (what the solver learns the game's values from)."""
    for p in range(n):
        scores[p] = scores0[p]
        passes[p] = passes0[p]
        won[p] = 0
        payout[p] = 0.0
    dealer = dealer0
    game_state = stream_start(seed, index)
    deals = 0
    while deals < max_hands:
        if deals < trace_scores.shape[0]:
            for p in range(n):
                trace_scores[deals, p] = scores[p]
                trace_passes[deals, p] = passes[p]
            trace_dealer[deals] = dealer
        select_policy(scores, passes, dealer, rp, gp, stack, fixed, aware, work, sources, classes)
        if aware[dealer] == 0:
            knock = knock_stack[classes[n - 1]]
        else:
            knock = fixed_knock[dealer]
        game_state = next_state(game_state)
        kind = play_hand(deck, n, rp, work, knock, play, deck_mask, mix64(game_state), scratch, changes, passed)
        dealer = apply_hand(scores, passes, dealer, kind, changes, passed, rp)
        deals += 1
        if game_over(scores, gp):
            settle(scores, gp, won, payout)
            return deals
    return -deals


@njit(cache=True, parallel=True)
def scored_batch(deck, n, scores0, passes0, dealer0, rp, gp, stack, knock_stack, fixed, fixed_knock, aware, play,
                 seed, start, count, max_hands, trace):
    """Games ``start .. start+count-1``: final scores, won flags, payouts, deals per game, and the score states of
    each game's first ``trace`` hands (scores and passes by player, the dealer; -1 past the game's end)."""
    finals = np.zeros((count, n), dtype=np.int32)
    wins = np.zeros((count, n), dtype=np.int8)
    pays = np.zeros((count, n), dtype=np.float64)
    deals = np.zeros(count, dtype=np.int32)
    t_scores = np.full((count, trace, n), -1, dtype=np.int32)
    t_passes = np.zeros((count, trace, n), dtype=np.int8)
    t_dealer = np.full((count, trace), -1, dtype=np.int8)
    deck_mask = U0
    for c in deck:
        deck_mask |= bit(c)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        scratch = new_hand_scratch(n, deck.shape[0])
        scores = np.zeros(n, dtype=np.int64)
        passes = np.zeros(n, dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        payout = np.zeros(n, dtype=np.float64)
        changes = np.zeros(n, dtype=np.int64)
        passed = np.zeros(n, dtype=np.int64)
        work, sources, classes = new_work(n, stack)
        ts = np.zeros((trace, n), dtype=np.int64)
        tp = np.zeros((trace, n), dtype=np.int64)
        td = np.zeros(trace, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            d = play_game_scored(deck, n, scores0, passes0, dealer0, rp, gp, stack, knock_stack, fixed, fixed_knock,
                                 aware, play, deck_mask, seed, start + i, max_hands, scores, passes, won, payout,
                                 scratch, changes, passed, work, sources, classes, ts, tp, td)
            deals[i] = d
            for p in range(n):
                finals[i, p] = scores[p]
                wins[i, p] = won[p]
                pays[i, p] = payout[p]
            for h in range(min(abs(d), trace)):
                for p in range(n):
                    t_scores[i, h, p] = ts[h, p]
                    t_passes[i, h, p] = tp[h, p]
                t_dealer[i, h] = td[h]
    return finals, wins, pays, deals, t_scores, t_passes, t_dealer


def game_batch(deck, n, scores0, passes0, dealer0, rp, gp, pol, knock_prob, play, seed, start, count, max_hands):
    """Games where every player decides by the one policy ``pol`` (a policy tuple, by seat) and the dealer knocks by
    ``knock_prob``: final scores (count, n), won flags, payouts, deals per game. Plain Python over
    :func:`scored_batch` (a table of one fixed policy, and one class nobody reads)."""
    ints, values, words, throws, exchanges = pol
    stack = (ints, values, words[None], throws[None], exchanges[None])
    fixed = tuple(np.ascontiguousarray(np.repeat(a[None], n, axis=0)) for a in pol)
    knock = np.ascontiguousarray(np.repeat(np.asarray(knock_prob, dtype=np.float64)[None], n, axis=0))
    out = scored_batch(deck, n, scores0, passes0, dealer0, rp, gp, stack, np.zeros((1, 16)), fixed, knock,
                       np.ones(n, dtype=np.int64), play, seed, start, count, max_hands, 0)
    return out[:4]


__all__ = ["scored_batch", "game_batch", "play_game_scored", "select_policy", "new_work"]
