"""Exact game values of a tiny rule set: every deal enumerated, then dynamic programming over score states.

The truth the game simulator is checked against (tests/test_match_exact.py).
One hand's outcome (kind, score change and pass of every seat) is exact over
every order of the deck's first cards (all that a hand can reach), each
equally likely under the shuffle, with a deterministic policy (every
probability 0 or 1) and a dealer who knocks on a rank or never, so that a
deal decides the hand. The same distribution serves every dealer (seats are
counted from the dealer, §2). The game is then a Markov chain on score states
(scores, passes in a row, dealer), moved by ``score.apply_hand`` and ended and
paid by ``score.settle``: its values solve one sparse linear system. Scores
can rise (+5 for no trick), so states above ``cap`` points are cut off into
one absorbing state worth nothing; :func:`game_table` reports the chance of
ever reaching it, which bounds what the cut can move.
"""

from __future__ import annotations

from collections import Counter
from math import prod

import numpy as np
from numba import njit

from ..engine.bits import U0, bit
from ..engine.rules_layout import R_HAND, rules_array
from .kernel import new_hand_scratch, play_dealt
from .score import apply_hand, game_array, game_over, settle

CHANGE_BIAS = 32  # a seat's change + this fits in 6 bits


@njit(cache=True)
def enumerate_hands(deck, n, reach, rp, pol, knock_prob, play):
    """Outcome key of every order of the deck's first ``reach`` cards (mixed-radix codes, Fisher-Yates picks).

    Key: kind, then per seat (passed, change + CHANGE_BIAS) in 7 bits.
    """
    m = deck.shape[0]
    total = 1
    for j in range(reach):
        total *= m - j
    keys = np.empty(total, dtype=np.int64)
    deck_mask = U0
    for c in deck:
        deck_mask |= bit(c)
    scratch = new_hand_scratch(n, m)
    us = scratch[4]
    for s in range(n):
        for j in range(4):
            us[s, j] = 0.5  # a deterministic policy decides alike for every number
    pool = np.empty(m, dtype=np.int64)
    changes = np.zeros(n, dtype=np.int64)
    passed = np.zeros(n, dtype=np.int64)
    trump_at = n * rp[R_HAND]
    for code in range(total):
        pool[:] = deck
        rest = code
        for j in range(reach):
            k = j + rest % (m - j)
            rest //= m - j
            tmp = pool[j]
            pool[j] = pool[k]
            pool[k] = tmp
        knocked = knock_prob[pool[trump_at] & 15] >= 1.0
        kind = play_dealt(pool, n, knocked, rp, pol, play, deck_mask, np.uint64(0), scratch, changes, passed)
        key = np.int64(kind)
        for s in range(n):
            key = (key << 7) | (passed[s] << 6) | (changes[s] + CHANGE_BIAS)
        keys[code] = key
    return keys


def hand_distribution(rules, n: int, policy, knock_prob, play: int = 1) -> dict:
    """{(kind, changes by seat, passed by seat): probability} of one hand, exactly."""
    if not policy.deterministic:
        raise ValueError("exact hands need a deterministic policy")
    if not np.all((knock_prob == 0.0) | (knock_prob == 1.0)):
        raise ValueError("exact hands need a dealer who knocks on a rank always or never")
    reach = n * rules.hand_size + 1 + n * rules.exchange_limit
    stock = len(rules.deck) - n * rules.hand_size - 1
    if n * rules.exchange_limit > stock:
        raise ValueError("the exchange could reach the passers' cards: not exact")
    reach = min(reach, len(rules.deck))
    if prod(range(len(rules.deck) - reach + 1, len(rules.deck) + 1)) > 50_000_000:
        raise ValueError("too many deals to enumerate")
    keys = enumerate_hands(rules.deck_array(), n, reach, rules_array(rules), policy.as_tuple(),
                           np.asarray(knock_prob, dtype=np.float64), play)
    values, counts = np.unique(keys, return_counts=True)
    out = {}
    for key, count in zip(values.tolist(), counts.tolist(), strict=True):
        changes, passed = [], []
        for _s in range(n):
            changes.append((key & 63) - CHANGE_BIAS)
            passed.append((key >> 6) & 1)
            key >>= 7
        out[(int(key), tuple(reversed(changes)), tuple(reversed(passed)))] = count / len(keys)
    return out


def streak_key(passes, rules) -> tuple:
    """Streaks as far as they matter: capped at the sit-out limit minus one (or modulo it without repeats)."""
    limit = rules.sit_out_limit
    if limit <= 0:
        return tuple(0 for _ in passes)
    if rules.sit_out_repeats:
        return tuple(min(int(p), limit - 1) for p in passes)
    return tuple(int(p) % limit for p in passes)


def game_table(rules, n: int, outcomes: dict, starts, cap: int = 40, apply=None, also=()):
    """Exact values of the score states reachable from ``starts`` [(scores, passes, dealer)].

    Returns ({state: (payout per player, win share per player)}, P(cut off) per start, and for each rule set of
    ``also`` (other §9 payout fields on the same game) its own {state: payout per player}). ``apply`` replaces
    ``score.apply_hand`` (the negative controls of the tests).
    """
    from scipy.sparse import csr_matrix, identity
    from scipy.sparse.linalg import spsolve

    apply = apply or apply_hand
    rp, gp = rules_array(rules), game_array(rules)
    payers = [gp] + [game_array(other) for other in also]
    index: dict = {}
    order: list = []
    rows, cols, probs = [], [], []
    ends: list = []  # per state: payouts of each payout rule, then the win share, then the cut

    def state_id(state) -> int:
        if state not in index:
            index[state] = len(order)
            order.append(state)
            ends.append(np.zeros(n * (len(payers) + 1) + 1))
        return index[state]

    for scores, passes, dealer in starts:
        state_id((tuple(scores), streak_key(passes, rules), dealer))
    arrays = [(kind, np.array(ch, np.int64), np.array(ps, np.int64), p) for (kind, ch, ps), p in outcomes.items()]
    scores = np.zeros(n, np.int64)
    passes = np.zeros(n, np.int64)
    won = np.zeros(n, np.int64)
    pay = np.zeros(n)
    i = 0
    while i < len(order):
        scores0, passes0, dealer0 = order[i]
        end = ends[i]
        for kind, changes, passed, p in arrays:
            scores[:] = scores0
            passes[:] = passes0
            dealer = int(apply(scores, passes, dealer0, kind, changes, passed, rp))
            if game_over(scores, gp):
                for k, g in enumerate(payers):
                    settle(scores, g, won, pay)
                    end[k * n:(k + 1) * n] += p * pay
                end[len(payers) * n:-1] += p * won / won.sum()
            elif scores.max() > cap:
                end[-1] += p
            else:
                j = state_id((tuple(scores.tolist()), streak_key(passes, rules), dealer))
                rows.append(i)
                cols.append(j)
                probs.append(p)
        i += 1
    size = len(order)
    matrix = identity(size, format="csc") - csr_matrix((probs, (rows, cols)), shape=(size, size)).tocsc()
    solved = np.asarray(spsolve(matrix, np.array(ends))).reshape(size, -1)
    k = len(payers)
    table = {state: (solved[r, :n], solved[r, k * n:(k + 1) * n]) for r, state in enumerate(order)}
    others = [{state: solved[r, (j + 1) * n:(j + 2) * n] for r, state in enumerate(order)} for j in range(k - 1)]
    return table, solved[:len(starts), -1], others


def outcome_summary(outcomes: dict) -> Counter:
    """How much probability each hand kind has (a check that the tiny game has all of them)."""
    out: Counter = Counter()
    for (kind, _c, _p), p in outcomes.items():
        out[kind] += p
    return out


__all__ = ["enumerate_hands", "hand_distribution", "game_table", "outcome_summary", "streak_key"]
