"""The deal as the asking player has seen it: exact conditioning on the earlier seats' words.

Seats before the hero are dealt one by one (docs/SIMULATION.md step 2). An
*easy* seat, whose words are likely, takes the next cards of one Fisher-Yates
shuffle of the unknown cards and the try restarts if his modelled throw-in or
words disagree with what the hero saw (rejection: exact, weight 1). A *hard*
seat (a rare word: an earlier Rumba, a word the hero's cards make unlikely, a
stretched model) draws his hand from the exact conditional distribution
instead: the cards left are grouped by (score value, high card), a dynamic
programme counts the hands of every (score, has a card the throw-in forbids),
the hand's (score, high) is drawn from those counts times the acceptance
probability of the words, then the cards group by group. The sample then
carries the weight ``Z``, the probability that a hand of the cards left says
those words, so self-normalised estimates are exact. The twin is
``rumbaodds/twins/condition.py``; both consume the stream identically.
"""

import numpy as np
from numba import njit

from .bits import U0, bit
from .policy import (
    CTX_KNOCK,
    CTX_OPEN,
    CTX_ROUND1,
    CTX_RUMBA,
    NSCORE,
    W_NONE,
    W_PLAY,
    W_RUMBA,
    card_value,
    draw_uniforms,
    hand_score,
    masked_row,
    may_throw_in,
    pick_not_rumba,
    pick_word,
    uniform,
    word_probability,
)
from .rng import below, next_state
from .rules_layout import R_HAND, R_MUST_PLAY, R_RUMBA_FIRST, R_THROW_AFTER_RUMBA, R_THROW_BELOW, R_THROW_IN, R_TOP_RANK

MAX_TRIES = 1_000_000
HARD_BELOW = 0.25  # a seat whose words a random hand of the cards left says less often is drawn exactly
NGROUPS = 32  # (card value 0..15) x (high card or not)
KMAX = 6  # hand sizes 0..5


@njit(cache=True, inline="always")
def seat_context(s, n, words, rumba_seat, knocked, jack_forced, rp):
    """(context, pass allowed, Rumba allowed, throw-in allowed) of seat ``s`` at his turn to speak."""
    if knocked:
        joined = 0
        for e in range(s):
            if words[e] == W_PLAY:
                joined += 1
        return CTX_KNOCK + min(joined, 2), not jack_forced, False, False
    throw_ok = rp[R_THROW_IN] == 1 and (rumba_seat < 0 or rp[R_THROW_AFTER_RUMBA] == 1)
    if rp[R_RUMBA_FIRST] == 1:
        return CTX_ROUND1, True, rumba_seat < 0, throw_ok
    players = 0
    for e in range(s):
        if words[e] == W_PLAY:
            players += 1
    if rumba_seat >= 0:
        return CTX_RUMBA + min(players, 2), not (jack_forced or rp[R_MUST_PLAY] == 1), False, throw_ok
    return CTX_OPEN + min(players, 3), not jack_forced, True, throw_ok


@njit(cache=True)
def binomial(n, k):
    if k < 0 or k > n:
        return 0.0
    out = 1  # exact in integers (k <= KMAX); no np.round: a GPU has no llvm.rint (engine/gpu.py)
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return np.float64(out)


@njit(cache=True)
def acceptance(alpha, s, ctx, pass_ok, rumba_ok, throw_ok, word, stretched, stretch, pol):
    """``alpha[score, eligible]``: P(no throw-in and ``word``) of a hand of that score and throw-in eligibility."""
    words = pol[2]
    throws = pol[3]
    for x in range(NSCORE):
        if stretched:
            p_word = stretch[s, x]
        else:
            q0, q1, q2 = masked_row(words, s, ctx, x, pass_ok, rumba_ok)
            p_word = word_probability(q0, q1, q2, word)
        alpha[x, 0] = p_word
        alpha[x, 1] = p_word * (1.0 - throws[s, ctx, x]) if throw_ok else p_word


@njit(cache=True)
def group_cards(pool, lo, hi, excluded, trump, top, below_rank, values, counts, members):
    """Sort the candidate cards ``pool[lo:hi]`` (less ``excluded``) into groups (value, high).

    Returns (their number, the mask of the candidate cards)."""
    for g in range(NGROUPS):
        counts[g] = 0
    total = 0
    mask = U0
    for i in range(lo, hi):
        card = pool[i]
        if card == excluded:
            continue
        g = card_value(card, trump, top, values) * 2 + (1 if (card & 15) >= below_rank else 0)
        members[g, counts[g]] = card
        counts[g] += 1
        total += 1
        mask |= bit(card)
    return total, mask


@njit(cache=True)
def count_hands(counts, k, table, present):
    """``table[i, j, x, e]``: hands of ``j`` cards from the first ``i`` present groups with score ``x``, ``e`` = has a
    high card. Returns the number of present groups (listed in ``present``, ascending)."""
    groups = 0
    for g in range(NGROUPS):
        if counts[g] > 0:
            present[groups] = g
            groups += 1
    table[: groups + 1] = 0.0
    table[0, 0, 0, 0] = 1.0
    for i in range(groups):
        g = present[i]
        value = g // 2
        high = g & 1
        size = counts[g]
        for j in range(k + 1):
            for x in range(NSCORE):
                for e in range(2):
                    ways = table[i, j, x, e]
                    if ways == 0.0:
                        continue
                    for take in range(min(size, k - j) + 1):
                        xx = x + take * value
                        if xx >= NSCORE:
                            break
                        ee = 1 if (e == 1 or (high == 1 and take > 0)) else 0
                        table[i + 1, j + take, xx, ee] += ways * binomial(size, take)
    return groups


@njit(cache=True)
def sample_hard(pool, pos, m, k, fixed_value, fixed_high, excluded, alpha, trump, top, below_rank, values, state,
                counts, members, table, present, taken, cache):
    """Draw ``k`` cards of ``pool[pos:m]`` from the exact conditional distribution ``alpha`` and put them at
    ``pool[pos:pos+k]``. Returns (Z, state); Z = 0 when no hand of these cards says the words.

    ``cache`` remembers the card set, hand size and values whose counts ``table`` holds (the first earlier seat
    sees the same cards every time): the counts are not recomputed then (the result does not depend on it).
    """
    candidates, mask = group_cards(pool, pos, m, excluded, trump, top, below_rank, values, counts, members)
    key = np.int64(0)
    for d in range(16):
        key = key * 7 + values[1, d] * 3 + values[0, d]
    if cache[0] == 1 and np.uint64(cache[1]) == mask and cache[2] == k and cache[3] == key:
        groups = cache[4]
    else:
        groups = count_hands(counts, k, table, present)
        cache[0] = 1
        cache[1] = np.int64(mask)
        cache[2] = k
        cache[3] = key
        cache[4] = groups
    total = 0.0
    for x in range(NSCORE):
        for e in range(2):
            ways = table[groups, k, x, e]
            if ways > 0.0:
                xt = min(x + fixed_value, NSCORE - 1)
                high = 1 if (e == 1 or fixed_high) else 0
                total += ways * alpha[xt, 1 - high]
    if total <= 0.0:
        return 0.0, state
    state = next_state(state)
    target = uniform(state) * total
    acc = 0.0
    pick_x = -1
    pick_e = 0
    last_x = -1
    last_e = 0
    for x in range(NSCORE):
        for e in range(2):
            ways = table[groups, k, x, e]
            if ways > 0.0:
                xt = min(x + fixed_value, NSCORE - 1)
                high = 1 if (e == 1 or fixed_high) else 0
                mass = ways * alpha[xt, 1 - high]
                if mass > 0.0:
                    acc += mass
                    last_x, last_e = x, e
                    if pick_x < 0 and target < acc:
                        pick_x, pick_e = x, e
    if pick_x < 0:  # rounding at the very top
        pick_x, pick_e = last_x, last_e
    # how many cards of each group, last group first
    left, x, e = k, pick_x, pick_e
    for i in range(groups - 1, -1, -1):
        g = present[i]
        value = g // 2
        high = g & 1
        size = counts[g]
        weight_total = 0.0
        for take in range(min(size, left) + 1):
            xx = x - take * value
            if xx < 0:
                break
            for prev in range(2):
                if high == 1 and take > 0:
                    if e != 1:
                        continue
                elif prev != e:
                    continue
                weight_total += binomial(size, take) * table[i, left - take, xx, prev]
        state = next_state(state)
        target = uniform(state) * weight_total
        acc = 0.0
        chosen = -1
        chosen_prev = e
        for take in range(min(size, left) + 1):
            xx = x - take * value
            if xx < 0:
                break
            for prev in range(2):
                if high == 1 and take > 0:
                    if e != 1:
                        continue
                elif prev != e:
                    continue
                w = binomial(size, take) * table[i, left - take, xx, prev]
                if w > 0.0:
                    acc += w
                    if chosen < 0 and target < acc:
                        chosen, chosen_prev = take, prev
        if chosen < 0:
            chosen, chosen_prev = _last_option(table, i, size, left, x, e, value, high)
        taken[i] = chosen
        left -= chosen
        x -= chosen * value
        e = chosen_prev
    # the cards: a partial shuffle inside each group, groups in ascending order
    placed = 0
    for i in range(groups):
        g = present[i]
        size = counts[g]
        for t in range(taken[i]):
            state = next_state(state)
            r = t + below(state, size - t)
            tmp = members[g, t]
            members[g, t] = members[g, r]
            members[g, r] = tmp
            card = members[g, t]
            for j in range(pos + placed, m):
                if pool[j] == card:
                    pool[j] = pool[pos + placed]
                    pool[pos + placed] = card
                    break
            placed += 1
    return total / binomial(candidates, k), state


@njit(cache=True)
def _last_option(table, i, size, left, x, e, value, high):
    """The last option with weight (guards a uniform that rounding put past the total)."""
    out_take, out_prev = 0, e
    for take in range(min(size, left) + 1):
        xx = x - take * value
        if xx < 0:
            break
        for prev in range(2):
            if high == 1 and take > 0:
                if e != 1:
                    continue
            elif prev != e:
                continue
            if binomial(size, take) * table[i, left - take, xx, prev] > 0.0:
                out_take, out_prev = take, prev
    return out_take, out_prev


@njit(cache=True)
def deal_conditioned(unknown, pool, hero_hand, trump_card, n, hero, swapped_by, knocked, jack_forced, excluded, rp,
                     pol, plan_word, plan_hard, plan_stretch, stretch, state, hands, words, us, scratch):
    """Steps 1-2 of docs/SIMULATION.md: deal the earlier seats as the hero saw them, then the rest.

    Returns (ok, state, weight, Rumba seat, cards dealt to earlier seats, tries). ``pool`` ends holding the
    earlier seats' cards first, then the rest shuffled; ``hands``, ``words`` and ``us`` (decision
    numbers) are filled for seats 0..hero-1.
    """
    counts, members, table, present, taken, alpha, cache = scratch
    m = unknown.shape[0]
    hand_size = rp[R_HAND]
    trump = trump_card >> 4
    top = rp[R_TOP_RANK]
    below_rank = rp[R_THROW_BELOW]
    seat_values = pol[1]
    word_table = pol[2]
    throws = pol[3]
    rumba_first = rp[R_RUMBA_FIRST] == 1 and not knocked  # after a knock everybody only joins or passes
    for tries in range(1, MAX_TRIES + 1):
        for j in range(m):  # a loop, not ``pool[:] = unknown``: that one allocates on a GPU (engine/gpu.py)
            pool[j] = unknown[j]
        pos = 0
        weight = 1.0
        rumba_seat = -1
        ok = True
        for s in range(hero):
            words[s] = W_NONE
        for s in range(hero):
            k = hand_size - 1 if s == swapped_by else hand_size
            fixed = bit(trump_card) if s == swapped_by else U0
            values = seat_values[s]
            ctx, pass_ok, rumba_ok, throw_ok = seat_context(s, n, words, rumba_seat, knocked, jack_forced, rp)
            # rumba-first: after a round-one Rumba the seats after the caller have no round-one turn
            unasked = rumba_first and rumba_seat >= 0
            if plan_hard[s] and not unasked:
                fixed_value = card_value(trump_card, trump, top, values) if s == swapped_by else 0
                fixed_high = s == swapped_by and (trump_card & 15) >= below_rank
                acceptance(alpha, s, ctx, pass_ok, rumba_ok, throw_ok, plan_word[s], plan_stretch[s] == 1, stretch,
                           pol)
                z, state = sample_hard(pool, pos, m, k, fixed_value, fixed_high, excluded[s], alpha, trump, top,
                                       below_rank, values, state, counts, members, table, present, taken, cache)
                if z <= 0.0:
                    ok = False
                    break
                weight *= z
            else:
                for j in range(k):
                    state = next_state(state)
                    r = pos + j + below(state, m - pos - j)
                    tmp = pool[pos + j]
                    pool[pos + j] = pool[r]
                    pool[r] = tmp
            hand = fixed
            for j in range(pos, pos + k):
                hand |= bit(pool[j])
            pos += k
            hands[s] = hand
            if excluded[s] >= 0 and (hand >> np.uint64(excluded[s])) & np.uint64(1):
                ok = False  # he would have swapped the two of trump [D-9]
                break
            state = draw_uniforms(state, us, s)
            score = hand_score(hand, trump, top, values)
            if unasked:
                word = W_NONE
            elif plan_hard[s]:
                word = plan_word[s]
                if word == W_NONE and not rumba_first:
                    q0, q1, q2 = masked_row(word_table, s, ctx, score, pass_ok, rumba_ok)
                    word = pick_not_rumba(q0, q1, us[s, 1])
            else:
                if throw_ok and may_throw_in(hand, below_rank) and us[s, 0] < throws[s, ctx, score]:
                    ok = False
                    break
                q0, q1, q2 = masked_row(word_table, s, ctx, score, pass_ok, rumba_ok)
                word = pick_word(q0, q1, q2, us[s, 1])
                if plan_word[s] == W_NONE:
                    if word == W_RUMBA:
                        ok = False
                        break
                elif rumba_first:
                    if word != W_RUMBA:
                        ok = False
                        break
                elif word != plan_word[s]:
                    ok = False
                    break
            if rumba_first and word != W_RUMBA:
                word = W_NONE  # round one: he has not said play or pass yet
            words[s] = word
            if word == W_RUMBA:
                rumba_seat = s
        if not ok:
            continue
        for j in range(pos, m):  # the rest: later seats and the stock
            state = next_state(state)
            r = j + below(state, m - j)
            tmp = pool[j]
            pool[j] = pool[r]
            pool[r] = tmp
        return True, state, weight, rumba_seat, pos, tries
    return False, state, 0.0, -1, 0, -1


@njit(cache=True)
def new_condition_scratch():
    counts = np.zeros(NGROUPS, dtype=np.int64)
    members = np.zeros((NGROUPS, 64), dtype=np.int64)
    table = np.zeros((NGROUPS + 1, KMAX, NSCORE, 2), dtype=np.float64)
    present = np.zeros(NGROUPS, dtype=np.int64)
    taken = np.zeros(NGROUPS, dtype=np.int64)
    alpha = np.zeros((NSCORE, 2), dtype=np.float64)
    cache = np.zeros(5, dtype=np.int64)  # the counts in ``table`` are of: (valid, card mask, size, values, groups)
    return counts, members, table, present, taken, alpha, cache


__all__ = ["deal_conditioned", "seat_context", "sample_hard", "count_hands", "acceptance", "new_condition_scratch",
           "MAX_TRIES"]
