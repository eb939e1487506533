"""Strategy-table kernel: ``ask`` for many cells (seat, trump card, hand) in one call, each to its own precision.

Cell ``c`` (its global index in the build) draws samples ``c * max_samples + i``
of the run's seed, exactly the deals ``ask(..., seed)`` would draw at that
offset, so a table never depends on chunking, threads, rounds or
interruptions. The per-sample work is ``hand.ask_sample`` (called in one
place, :func:`_sample`); its twin is ``twins.hand.simulate_sample``, and the
twin of this whole kernel is ``rumbaodds/twins/table.py``.

Adaptive precision (docs in ``rumbaodds/tables/build.py``): a cell is
simulated in rounds up to the looks ``min_samples``, ``ceil(min_samples *
growth)``, ... (capped at ``max_samples``, see :func:`looks`) and stops at the
first look where its decision is resolved
(the margin between the best choice and the runner-up, paired on the same
deals, is more than ``z_stop`` standard errors from 0), or every expected value
has a 95% half-width below ``precision``. ``z_stop`` is the Bonferroni
critical value over the looks, so the stopping rule is wrong about the sign of
the margin with probability at most alpha whatever the number of looks.

Dropped columns: the play is simulated once per number of discards, and on
most hands a few of those are plainly worse than the best; the Rumba of a weak
hand is plainly worse than both passing and playing. At each look a cell goes
on without (see :func:`drop_columns`)

- every exchange whose paired difference from the best play exceeds
  ``z_stop`` standard errors, and
- the Rumba, once it is ``z_stop`` standard errors worse than the pass and
  than the best play.

A dropped column is no longer played out (its slot becomes ``C_SKIP``; every
slot plays on its own copy of the deal and its own stream, so the other
columns see the very same deals). It keeps the mean and interval of the look
that dropped it, with that look's deal count (``column_samples``); a dropped
Rumba's outcome shares are those of its deals. A dropped column is never the
best play, nor best or runner-up, again, and it no longer has to reach
``precision``. The stopping rule stays right about the best choice with
probability 1 - alpha per comparison: each dropped column lost its own test
at the same ``z_stop``.

Every statistic is a self-normalised weighted estimate from running sums,
computed in one place (:func:`weighted_mean_var`); the weight of a sample is
1.0 until ``ask_sample`` yields an importance weight. Every variance the
table reports or stops on is guarded by one pseudo-deal at the edge of the
scores' range (:func:`guarded_variance`), so a cell stopped after few deals
does not report a too narrow (or zero-width) interval.

Choice columns: 0 pass (no penalty: always 0), 1 pass as a penalised pass
(the sit-out limit reached), 2 rumba, 3.. play with 0..K discards.
"""

import math

import numpy as np
from numba import njit, prange

from .bits import U1
from .hand import C_PASS, C_PLAY, C_RUMBA, LONE_PLAY, NO_TRICKS, OUT_FIELDS, R_HAND, VOID, ask_sample, new_scratch
from .policy import NSCORE, W_NONE
from .rules_layout import (
    R_FAIL,
    R_LONE_PLAYER,
    R_LONE_RUMBA_SCORE,
    R_NORMAL_NO_TRICK,
    R_NORMAL_PER_TRICK,
    R_RUMBA_NO_TRICK,
    R_RUMBA_PER_TRICK,
    R_SIT_PENALTY,
    R_WIN_FLAT,
    R_WIN_PER_TRICK,
)
from .speak import C_SKIP, two_of

Z95 = 1.959963984540054
COL_PASS, COL_PASS_PENALISED, COL_RUMBA, COL_PLAY = 0, 1, 2, 3
# why a cell stopped
STOP_MAX, STOP_RESOLVED, STOP_PRECISE, STOP_IMPOSSIBLE = 0, 1, 2, 3
# per-cell weighted counters of the Rumba outcome: success (made or uncontested), uncontested, void, lone play,
# played (neither void nor refused), then tricks 0..5 of the contested ones; PLAYED_W2 sums w^2 of the played
P_SUCCESS, P_UNCONTESTED, P_VOID, P_LONE_PLAY, P_PLAYED, P_PLAYED_W2, P_TRICKS = 0, 1, 2, 3, 4, 5, 6
N_COUNTERS = P_TRICKS + 6
SUBCHUNKS = 256  # cells are dealt to threads interleaved, so adaptive cells of very different cost balance
SUM_ROWS = 6  # simulate_cell's per-column sums: x, sum w x, sum w^2 x, means, half-widths, deals when dropped
# Pseudo-deals in every table variance (see guarded_variance): one deal's worth of the widest spread the scores allow
PSEUDO_DEALS = 1.0


def looks(min_samples: int, max_samples: int, growth: float = 2.0) -> list[int]:
    """The sample counts at which a cell may stop: min, ceil(min * growth), ..., max (the last is forced)."""
    out = [min_samples]
    while out[-1] < max_samples:
        out.append(next_look(out[-1], max_samples, growth))
    return out


@njit(cache=True)
def next_look(done, max_samples, growth):
    """The look after ``done`` samples (at least one more sample; the kernel and :func:`looks` share it)."""
    return min(max_samples, max(done + 1, np.int64(math.ceil(done * growth))))


@njit(cache=True, inline="always")
def weighted_mean_var(n, sw, sw2, swx, sw2x, sw2x2):
    """Self-normalised weighted mean of x and the variance of that mean, from running sums.

    ``sw`` = sum w, ``sw2`` = sum w^2, ``swx`` = sum w x, ``sw2x`` = sum w^2 x,
    ``sw2x2`` = sum w^2 x^2 over ``n`` samples:
    mean = swx / sw and var(mean) = (sw2x2 - 2 mean sw2x + mean^2 sw2) / sw^2 * n / (n - 1),
    the delta-method variance of a ratio estimator (with every w = 1 it is s^2 / n,
    the normal interval ``ask`` reports). The one place every table statistic comes from.
    """
    if n == 0 or sw <= 0.0:
        return math.nan, math.nan
    mean = swx / sw
    if n < 2:
        return mean, 0.0
    var = (sw2x2 - 2.0 * mean * sw2x + mean * mean * sw2) / (sw * sw) * n / (n - 1)
    return mean, max(0.0, var)


@njit(cache=True)
def score_range(rp, hand_size):
    """Highest minus lowest score a choice can bring under these rules (RULES.md scoring; 0: a pass or void)."""
    lo = min(0, rp[R_SIT_PENALTY], rp[R_LONE_RUMBA_SCORE], rp[R_LONE_PLAYER], rp[R_NORMAL_NO_TRICK], rp[R_FAIL],
             rp[R_RUMBA_NO_TRICK])
    hi = max(0, rp[R_SIT_PENALTY], rp[R_LONE_RUMBA_SCORE], rp[R_LONE_PLAYER], rp[R_NORMAL_NO_TRICK], rp[R_FAIL],
             rp[R_RUMBA_NO_TRICK])
    for k in range(1, hand_size + 1):
        for x in (rp[R_NORMAL_PER_TRICK] * k, rp[R_WIN_FLAT] + rp[R_WIN_PER_TRICK] * k, rp[R_RUMBA_PER_TRICK] * k):
            lo = min(lo, x)
            hi = max(hi, x)
    return float(hi - lo)


@njit(cache=True, inline="always")
def guarded_variance(var, sw, sw2, half_range):
    """The variance of a mean with ``PSEUDO_DEALS`` pseudo-deals ``half_range`` away from it.

    A table cell may stop after 32 deals, and the scores of a hand take few values: a rare outcome (a Rumba nobody
    contests, a void hand) is often missing from so few deals, and then the sample variance, and the interval,
    is too small or 0 (a hand whose Rumba lost 10 points on all 48 deals has a true value of 9.75). As Agresti and
    Coull add pseudo-observations to a proportion, the per-deal variance s^2 is taken as
    (ess s^2 + PSEUDO_DEALS h^2) / (ess + PSEUDO_DEALS), h half the range the scores allow: it vanishes as the deals
    grow (the interval of a typical cell widens by well under 1% at 4,096 deals), and it keeps a small sample from
    claiming a certainty it did not see.
    """
    if sw2 <= 0.0 or var != var:
        return var
    ess = sw * sw / sw2
    return (var * ess * ess + PSEUDO_DEALS * half_range * half_range) / ((ess + PSEUDO_DEALS) * ess)


@njit(cache=True, inline="always")
def column_estimate(n, sw, sw2, swx, sw2x, sw2xy, a, b, spread):
    """Mean and (guarded) variance of the mean of column ``a``, or of ``a - b`` on the same deals when ``b >= 0``.

    ``spread``: :func:`score_range`. A column lies within it, a difference of two within twice it, except a
    difference with the unpenalised pass, which is 0 on every deal: that is the other column itself.
    """
    if b < 0:
        m, v = weighted_mean_var(n, sw, sw2, swx[a], sw2x[a], sw2xy[a, a])
        return m, guarded_variance(v, sw, sw2, 0.5 * spread)
    m, v = weighted_mean_var(n, sw, sw2, swx[a] - swx[b], sw2x[a] - sw2x[b],
                             sw2xy[a, a] - 2.0 * sw2xy[a, b] + sw2xy[b, b])
    return m, guarded_variance(v, sw, sw2, 0.5 * spread if a == COL_PASS or b == COL_PASS else spread)


@njit(cache=True)
def _sample(deck_mask, unknown, hero, trump_card, n, seat, rp, pol, plan, policy, penalised_passes, choices, seed,
            index, out, scratch):
    """THE call of ``ask_sample``: returns (tries, importance weight); tries < 0: no deal matched.

    A table cell knows nothing of the earlier seats (``plan``: every word unknown), no knock, no swap.
    """
    return ask_sample(deck_mask, unknown, hero, trump_card, n, seat, rp, pol, plan, policy, penalised_passes,
                      False, -1, choices, seed, index, out, scratch)


@njit(cache=True, inline="always")
def _before(a, b):
    """``a`` sorts strictly before ``b`` (as numpy sorts: NaN last)."""
    return a < b or (b != b and a == a)


@njit(cache=True, inline="always")
def top_play(means, dropped, cols):
    """The best play among the exchanges still simulated (the first of equal ones; never all dropped)."""
    top = -1
    for c in range(COL_PLAY, cols):
        if dropped[c] == 0 and (top < 0 or means[c] < means[top]):
            top = c
    return top


@njit(cache=True)
def _decide(n, sw, sw2, swx, sw2x, sw2xy, cols, means, halves, spread, dropped):
    """Fill means/halves of every column not dropped; return (best, runner-up, margin, margin variance).

    Best and runner-up among pass, rumba and the best play (lowest expected change wins, ties in that order);
    the margin is EV(runner-up) - EV(best) on the same deals. Allocates nothing (the GPU runs it too).
    """
    for c in range(cols):
        if dropped[c] == 0:
            m, v = column_estimate(n, sw, sw2, swx, sw2x, sw2xy, c, -1, spread)
            means[c] = m
            halves[c] = Z95 * math.sqrt(v)
    top = top_play(means, dropped, cols)
    # a stable sort of (pass, rumba, best play) by their means, less a dropped Rumba: the first two
    b, r = COL_PASS, COL_RUMBA
    if dropped[COL_RUMBA] > 0:
        r = top
        if _before(means[top], means[b]):
            b, r = top, b
    else:
        if _before(means[r], means[b]):
            b, r = r, b
        if _before(means[top], means[b]):
            b, r = top, b
        elif _before(means[top], means[r]):
            r = top
    d, dv = column_estimate(n, sw, sw2, swx, sw2x, sw2xy, r, b, spread)
    return b, r, d, dv


@njit(cache=True)
def table_choices(exchange_limit):
    """The kernel's choices: rumba, pass, play0..K (rumba first: the pass then shares its speaking with the plays)."""
    choices = np.empty(exchange_limit + 3, dtype=np.int64)
    choices[0] = C_RUMBA
    choices[1] = C_PASS
    for k in range(exchange_limit + 1):
        choices[2 + k] = C_PLAY + k
    return choices


@njit(cache=True)
def new_cell_scratch(n, unknown_size, cols):
    """What :func:`simulate_cell` works in: one per thread (``engine/gpu.py`` preallocates the same per GPU thread)."""
    plan = (np.full(n, W_NONE, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros((n, NSCORE)), np.full(n, -1, dtype=np.int64))
    unknown = np.empty(unknown_size, dtype=np.int64)
    out = np.zeros((cols - 1, OUT_FIELDS), dtype=np.int64)
    sums = np.zeros((SUM_ROWS, cols))  # x, sum w x, sum w^2 x, the cell's means and half-widths, dropped
    sw2xy = np.zeros((cols, cols))
    counts = np.zeros(N_COUNTERS)
    live = np.empty(cols - 1, dtype=np.int64)  # the choices still simulated (C_SKIP: a dropped column)
    return unknown, plan, out, sums, sw2xy, counts, live


@njit(cache=True, inline="always")
def _clearly_worse(n, sw, sw2, swx, sw2x, sw2xy, a, b, spread, z_stop):
    """Column ``a`` is more than ``z_stop`` standard errors worse than column ``b`` on the same deals."""
    d, dv = column_estimate(n, sw, sw2, swx, sw2x, sw2xy, a, b, spread)
    return d > z_stop * math.sqrt(dv)


@njit(cache=True)
def drop_columns(n, sw, sw2, swx, sw2x, sw2xy, cols, means, dropped, live, spread, z_stop):
    """Stop simulating the exchanges clearly worse than the best play, and a Rumba clearly worse than both."""
    top = top_play(means, dropped, cols)
    for c in range(COL_PLAY, cols):
        if c != top and dropped[c] == 0 and _clearly_worse(n, sw, sw2, swx, sw2x, sw2xy, c, top, spread, z_stop):
            dropped[c] = n
            live[c - 1] = C_SKIP  # column c >= 3 is choice slot c - 1
    if dropped[COL_RUMBA] == 0 and _clearly_worse(n, sw, sw2, swx, sw2x, sw2xy, COL_RUMBA, COL_PASS, spread, z_stop) \
            and _clearly_worse(n, sw, sw2, swx, sw2x, sw2xy, COL_RUMBA, top, spread, z_stop):
        dropped[COL_RUMBA] = n
        live[0] = C_SKIP  # the Rumba is slot 0


@njit(cache=True, inline="always")
def count_rumba(rumba_tricks, w, min_tricks, counts):
    """Add one deal's Rumba outcome (its ``out`` tricks field) to the weighted counters."""
    if rumba_tricks == VOID:
        counts[P_VOID] += w
    elif rumba_tricks == LONE_PLAY:
        counts[P_LONE_PLAY] += w
    else:
        counts[P_PLAYED] += w
        counts[P_PLAYED_W2] += w * w
        if rumba_tricks == NO_TRICKS:  # a lone Rumba: nobody joined
            counts[P_UNCONTESTED] += w
            counts[P_SUCCESS] += w
        else:
            counts[P_TRICKS + rumba_tricks] += w
            if rumba_tricks >= min_tricks:
                counts[P_SUCCESS] += w


@njit(cache=True)
def simulate_cell(cell, deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy, penalised_passes, cols,
                  choices, seed, first_cell, min_samples, max_samples, growth, precision, z_stop, min_tricks,
                  excluded_by_trump, scratch, cell_scratch, outputs):
    """Cell ``cell`` to its stopping rule: writes its row of every array of ``outputs`` (see :func:`table_cells`).

    Allocates nothing: the CPU kernel's threads and the GPU's (``engine/gpu.py``) each run it on their scratch.
    """
    unknown, plan, out, sums, sw2xy, counts, live = cell_scratch
    means, halves, shares, best, runner, margin, margin_half, tries, samples, ess, stop, column_samples = outputs
    x = sums[0]
    swx = sums[1]
    sw2x = sums[2]
    cell_means = sums[3]
    cell_halves = sums[4]
    dropped = sums[5]  # a dropped column: the deals it had (0: still simulated)
    hero = hero_hands[cell]
    trump_card = trump_cards[cell]
    seat = seats[cell]
    k = 0
    for j in range(deck.shape[0]):
        card = deck[j]
        if card != trump_card and not (hero >> np.uint64(card)) & U1:
            unknown[k] = card
            k += 1
    holds_two = (hero >> np.uint64(two_of(trump_card >> 4))) & U1
    for s in range(n):
        plan[4][s] = excluded_by_trump[s, trump_card & 15] if not holds_two else -1
    swx[:] = 0.0
    sw2x[:] = 0.0
    sw2xy[:, :] = 0.0
    counts[:] = 0.0
    dropped[:] = 0.0
    for j in range(cols - 1):
        live[j] = choices[j]
    sw = 0.0
    sw2 = 0.0
    tried = 0
    done = 0
    target = min_samples
    reason = STOP_MAX
    b, r, d, dv = 0, 0, 0.0, 0.0
    rumba_sw = 0.0  # sum w of the Rumba's deals, once it is dropped
    spread = score_range(rp, rp[R_HAND])
    while True:
        while done < target:
            index = np.uint64(first_cell + cell) * np.uint64(max_samples) + np.uint64(done)
            t, w = _sample(deck_mask, unknown, hero, trump_card, n, seat, rp, pol, plan, policy,
                           penalised_passes, live, seed, index, out, scratch)
            if t < 0:
                reason = STOP_IMPOSSIBLE
                break
            tried += t
            done += 1
            x[COL_PASS] = 0.0
            x[COL_PASS_PENALISED] = out[1, 0]
            x[COL_RUMBA] = out[0, 0]
            for c in range(2, cols - 1):
                x[c + 1] = out[c, 0]
            sw += w
            sw2 += w * w
            for a in range(cols):
                if dropped[a] == 0:  # a dropped column's sums stay those of its last look
                    swx[a] += w * x[a]
                    sw2x[a] += w * w * x[a]
                    for c in range(a, cols):
                        if dropped[c] == 0:
                            sw2xy[a, c] += w * w * x[a] * x[c]
            if dropped[COL_RUMBA] == 0:
                count_rumba(out[0, 1], w, min_tricks, counts)
        if reason == STOP_IMPOSSIBLE:
            break
        for a in range(cols):  # the products were summed on the upper triangle
            for c in range(a):
                sw2xy[a, c] = sw2xy[c, a]
        b, r, d, dv = _decide(done, sw, sw2, swx, sw2x, sw2xy, cols, cell_means, cell_halves, spread, dropped)
        if done >= max_samples:
            reason = STOP_MAX
            break
        if abs(d) > z_stop * math.sqrt(dv):
            reason = STOP_RESOLVED
            break
        precise = True
        for c in range(1, cols):  # column 0, the unpenalised pass, is exactly 0
            if dropped[c] == 0 and not cell_halves[c] < precision:
                precise = False
        if precise:
            reason = STOP_PRECISE
            break
        drop_columns(done, sw, sw2, swx, sw2x, sw2xy, cols, cell_means, dropped, live, spread, z_stop)
        if dropped[COL_RUMBA] > 0 and rumba_sw == 0.0:
            rumba_sw = sw
        target = next_look(target, max_samples, growth)
    stop[cell] = reason
    samples[cell] = done
    if reason == STOP_IMPOSSIBLE:
        tries[cell] = -1.0
        return
    tries[cell] = tried / done
    ess[cell] = sw * sw / sw2
    for c in range(cols):
        means[cell, c] = cell_means[c]
        halves[cell, c] = cell_halves[c]
        column_samples[cell, c] = np.int64(dropped[c]) if dropped[c] > 0 else done
    for j in range(N_COUNTERS):  # shares of the Rumba's own deals
        shares[cell, j] = counts[j] / (rumba_sw if rumba_sw > 0.0 else sw)
    played = counts[P_PLAYED]
    shares[cell, P_PLAYED_W2] = played * played / counts[P_PLAYED_W2] if counts[P_PLAYED_W2] > 0 \
        else 0.0  # the effective sample size of the played Rumbas
    best[cell] = b
    runner[cell] = r
    margin[cell] = d
    margin_half[cell] = Z95 * math.sqrt(dv)


def new_outputs(cells: int, exchange_limit: int) -> tuple:
    """The arrays :func:`table_cells` returns, zeroed (the GPU engine fills them on the device)."""
    cols = COL_PLAY + exchange_limit + 1
    return (np.zeros((cells, cols)), np.zeros((cells, cols)), np.zeros((cells, N_COUNTERS)),
            np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64), np.zeros(cells), np.zeros(cells),
            np.zeros(cells), np.zeros(cells, dtype=np.int64), np.zeros(cells), np.zeros(cells, dtype=np.int64),
            np.zeros((cells, cols), dtype=np.int64))


@njit(cache=True, parallel=True)
def table_cells(deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy, penalised_passes, exchange_limit,
                seed, first_cell, min_samples, max_samples, growth, precision, z_stop, min_tricks, excluded_by_trump):
    """Per cell: mean and 95% half-width of every column, Rumba outcome shares, best, runner-up, margin, deals.

    ``min_samples == max_samples`` is a fixed-size run; otherwise the adaptive rule of the module docstring.
    ``excluded_by_trump[seat, rank]``: the two of trump that seat cannot hold (he would have swapped it), or -1.
    """
    cells = hero_hands.shape[0]
    cols = COL_PLAY + exchange_limit + 1
    means = np.zeros((cells, cols))
    halves = np.zeros((cells, cols))
    shares = np.zeros((cells, N_COUNTERS))  # weighted shares of the Rumba outcomes over all deals
    best = np.zeros(cells, dtype=np.int64)
    runner = np.zeros(cells, dtype=np.int64)
    margin = np.zeros(cells)
    margin_half = np.zeros(cells)
    tries = np.zeros(cells)
    samples = np.zeros(cells, dtype=np.int64)
    ess = np.zeros(cells)
    stop = np.zeros(cells, dtype=np.int64)
    column_samples = np.zeros((cells, cols), dtype=np.int64)  # deals of each column (fewer: a dropped one)
    outputs = (means, halves, shares, best, runner, margin, margin_half, tries, samples, ess, stop, column_samples)
    unknown_size = deck.shape[0] - rp[R_HAND] - 1
    choices = table_choices(exchange_limit)
    chunks = max(1, min(cells, SUBCHUNKS))
    for chunk in prange(chunks):
        scratch = new_scratch(n, unknown_size)
        cell_scratch = new_cell_scratch(n, unknown_size, cols)
        for cell in range(chunk, cells, chunks):  # interleaved: neighbouring cells cost alike
            simulate_cell(cell, deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy,
                          penalised_passes, cols, choices, seed, first_cell, min_samples, max_samples, growth,
                          precision, z_stop, min_tricks, excluded_by_trump, scratch, cell_scratch, outputs)
    return outputs
