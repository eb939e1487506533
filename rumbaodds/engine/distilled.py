"""The ``distilled`` card play in kernel form (docs/SIMULATION.md "Card play"): PIMC's choices, learned.

Each legal card gets the score ``WEIGHTS[follow rule, role, moment] . features`` and the
best is played (ties: the weakest card in the §6 order). The features and
their order are those of the readable twin, ``rumbaodds/twins/distilled.py``;
the weights are fitted to PIMC by ``python -m rumbaodds.distil``
(``rumbaodds/distil/``) and kept in ``distilled_weights.py``. Tests compare
kernel and twin feature by feature and card by card.

The kernel computes the twin's numbers and sums them in the twin's order, so
its choices are the twin's bit for bit. It is only faster: it reads its
quotients from :data:`QUOTIENT` instead of dividing, counts sure trumps in
constant time, and the card play of the tables reads the shipped weights as
constants (:func:`shipped_distilled_card`), with the first three terms of each
folded weight summed ahead of time (:data:`PREFIX`, the same additions in the
same order) and its last five, the masters', too (:data:`TAIL`), and each
card's score is summed written out (:func:`dot_in_order`);
``benchmarks/bench_hand`` measures it.

At some of the Rumba caller's leads (by follow rule, active players and trick:
the second lead at 3 swiss players, the first at 7) an ensemble of trees of
``distilled_trees.py`` adds its score (:func:`tree_slot`, :func:`tree_score`;
twins/distilled.py, the same sums in the same order).
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from .bits import U0, U1, bit, highest_card, lowest_card, popcount, suit_lane
from .distilled_trees import TREES
from .distilled_weights import WEIGHTS
from .tricks import beaters, strength, weakest

ROLE_CALLER, ROLE_DEFENDER, ROLE_NORMAL = 0, 1, 2
N_CONTEXT = 16
N_CARD = 16
N_FEATURES = N_CARD * (1 + N_CONTEXT)
# QUOTIENT[d, k] = k / d, the very float division of the twin, read instead of divided (a division costs as much
# as a dozen additions); every numerator and denominator of the features is below 16 (hand size <= 5, <= 13 ranks)
QUOTIENT = np.array([[k / d if d else 0.0 for k in range(16)] for d in range(16)])


def quotient(k, d):
    """``k / d`` (0 where ``d`` is 0) in compiled code: on the CPU read from :data:`QUOTIENT`; on the GPU divided
    (engine/gpu.py: IEEE division rounds as Python's, and every function that reads a table gets its own copy of
    it in the 64 KB of constants)."""
    return QUOTIENT[d, k]


@overload(quotient, target="cpu")
def _quotient_cpu(k, d):
    return lambda k, d: QUOTIENT[d, k]


def divided(k, d):
    """:func:`quotient` as the GPU computes it (tests/test_distilled.py: every entry of :data:`QUOTIENT`)."""
    return k / d if d else 0.0


PREFIX_TERMS = 3  # the moment's numbers summed ahead of time: trumps, sure trump tricks, unseen trumps (up to 6)


def context_prefix(weights):
    """``weights[..., role, moment, feature]`` -> ``[..., role, moment, trumps, sure, unseen trumps, card feature]``:
    ``w[i] + w[c0] * trumps / 5 + w[c1] * sure / 5 + w[c2] * unseen / 6``, added left to right as :func:`_wt` and
    the twin add them, element by element in float64: bit for bit their partial sums."""
    w = np.asarray(weights, dtype=np.float64)
    cross = w[..., N_CARD:].reshape(w.shape[:-1] + (N_CARD, N_CONTEXT))
    grid = (np.arange(6) / 5, np.arange(6) / 5, np.arange(7) / 6)  # the twin's trumps / 5, sure / 5, unseen / 6
    acc = w[..., None, None, None, :N_CARD]
    for k in range(PREFIX_TERMS):
        shape = [1, 1, 1, 1]
        shape[k] = len(grid[k])
        acc = acc + cross[..., None, None, None, :, k] * grid[k].reshape(shape)
    return np.ascontiguousarray(acc)


PREFIX = context_prefix(WEIGHTS)  # of the shipped weights, by follow rule (387 KB)
MASTER_TERMS = 5  # the moment's last numbers (his masters): with the tricks needed, summed apart as the twin does
NEEDED_TERM = 3  # the tricks still needed: summed with the masters' numbers, not in order
assert NEEDED_TERM == PREFIX_TERMS  # _wt_rest skips it right after the prefix


def master_tail(weights):
    """``weights[..., role, moment, feature]`` -> ``[..., role, moment, masters, needed, sure tricks, card feature]``:
    the terms of each folded weight that the twin sums apart, ``0.0 + w[c3] * needed / 3 + w[c11] * masters / 5 +
    ... + w[c15] * (masters - needed) / 5``, left to right as :func:`_wt` and the twin: bit for bit their sum."""
    w = np.asarray(weights, dtype=np.float64)
    cross = w[..., N_CARD:].reshape(w.shape[:-1] + (N_CARD, N_CONTEXT))
    m, n, s = np.meshgrid(np.arange(6), np.arange(6), np.arange(6), indexing="ij")
    terms = [(NEEDED_TERM, n / 3)] + list(zip(range(N_CONTEXT - MASTER_TERMS, N_CONTEXT), (
        m / 5, s / 5, (m >= n).astype(np.float64), (m > n).astype(np.float64), (m - n) / 5), strict=True))
    acc = np.zeros(w.shape[:-1] + (6, 6, 6, N_CARD))
    for k, number in terms:
        acc = acc + cross[..., None, None, None, :, k] * number[..., None]
    return np.ascontiguousarray(acc)


TAIL = master_tail(WEIGHTS)  # of the shipped weights, by follow rule (331 KB)


def shipped_prefix(follow):
    """(:data:`PREFIX`, :data:`TAIL`) of follow rule ``follow``, in compiled code. On the CPU the tables
    themselves; the GPU engine (gpu.py) makes them ``None`` there (a GPU holds 64 KB of constants), and the folded
    weights are summed whole."""
    return PREFIX[follow], TAIL[follow]


@overload(shipped_prefix, target="cpu")
def _shipped_prefix_cpu(follow):
    return lambda follow: (PREFIX[follow], TAIL[follow])


@njit(cache=True, inline="always")
def shipped_trees(follow):
    """The shipped trees of follow rule ``follow``: (slot, start, feature, threshold, leaf), ``slot[players,
    trick]`` the ensemble that scores the caller's lead there (-1: none), ensemble ``e`` the trees ``start[e]`` to
    ``start[e + 1]`` of the pooled arrays (no padding: a GPU holds them among its 64 KB of constants)."""
    return TREES[0][follow], TREES[1], TREES[2], TREES[3], TREES[4]


@njit(cache=True, inline="always")
def tree_slot(trees, role, pos, won_bits, m):
    """The ensemble that scores this decision (-1: none): only the Rumba caller's leads, by the active players and
    the trick (tricks played so far)."""
    if role != ROLE_CALLER or pos != 0:
        return -1
    played = 0
    for p in range(m):
        played += won_of(won_bits, p)
    return trees[0][m, played]


@njit(cache=True, inline="always")
def _descend(feature, threshold, row, t, node):
    """Tree ``t``'s next node from ``node``: left (2i+1) where the number is at most the threshold or the node has
    no feature (-1), else right (2i+2); the side added as 0 or 1, without a branch on the numbers."""
    j = feature[t, node]
    left = (j < 0) | (row[j if j >= 0 else 0] <= threshold[t, node])
    return 2 * node + 2 - (1 if left else 0)


@njit(cache=True, inline="always")
def tree_score(trees, e, row):
    """Ensemble ``e``'s score of a card: ``row`` its N_CARD numbers then the moment's N_CONTEXT, an array; the
    leaves reached summed tree by tree in float64 (a float32 threshold compared as float64).

    Four trees descend side by side (their loads overlap; alone each waits on its last), and their leaves are
    added in the trees' order, so the sum is the plain one's, bit for bit (the twin's ``tree_score``)."""
    t = trees[1][e]
    end = trees[1][e + 1]
    feature = trees[2]
    threshold = trees[3]
    leaf = trees[4]
    inner = feature.shape[1]
    depth = 0
    while (1 << depth) - 1 < inner:
        depth += 1
    total = 0.0
    while t + 4 <= end:
        n0 = n1 = n2 = n3 = 0
        for _ in range(depth):
            n0 = _descend(feature, threshold, row, t, n0)
            n1 = _descend(feature, threshold, row, t + 1, n1)
            n2 = _descend(feature, threshold, row, t + 2, n2)
            n3 = _descend(feature, threshold, row, t + 3, n3)
        total += leaf[t, n0 - inner]
        total += leaf[t + 1, n1 - inner]
        total += leaf[t + 2, n2 - inner]
        total += leaf[t + 3, n3 - inner]
        t += 4
    while t < end:
        node = 0
        for _ in range(depth):
            node = _descend(feature, threshold, row, t, node)
        total += leaf[t, node - inner]
        t += 1
    return total


@njit(cache=True, inline="always")
def _fold(mask):
    return (mask | (mask >> np.uint64(16)) | (mask >> np.uint64(32)) | (mask >> np.uint64(48))) & np.uint64(0xFFFF)


@njit(cache=True)
def deck_ranks(deck_mask):
    """(lowest, highest) rank of the deck."""
    ranks = _fold(deck_mask)
    return lowest_card(ranks), highest_card(ranks)


@njit(cache=True, inline="always")
def won_of(won_bits, p):
    """Tricks of active player ``p`` from the packed counts (4 bits a player): no array, so the GPU can run it."""
    return (won_bits >> (4 * p)) & 15


@njit(cache=True, inline="always")
def voids_of(void_bits, p):
    """Suits player ``p`` has shown he lacks (bit s: suit s), from the packed voids (4 bits a player)."""
    return (void_bits >> (4 * p)) & 15


@njit(cache=True, inline="always")
def trump_counts(hand, unseen, trump):
    """(trumps held, sure trump tricks, unseen trumps up to 6): the moment's first three numbers as counts. Sure:
    his trumps from the top, each above every unseen trump, i.e. all his trumps above the highest unseen one."""
    lane = suit_lane(trump)
    trumps = hand & lane
    unseen_trumps = unseen & lane
    if unseen_trumps:
        sure = popcount(trumps & ~((bit(highest_card(unseen_trumps)) << U1) - U1))
    else:
        sure = popcount(trumps)
    return popcount(trumps), sure, min(popcount(unseen_trumps), 6)


@njit(cache=True, inline="always")
def needed_of(won_bits, me, caller, need):
    """Tricks still needed: a Rumba's minimum less the caller's tricks; a normal player, 1 until he has a trick."""
    if caller < 0:
        return 1 if won_of(won_bits, me) == 0 else 0
    return max(need - won_of(won_bits, caller), 0)


@njit(cache=True, inline="always")
def master_counts(hand, unseen, trump):
    """(masters held, sure tricks held): his cards with no unseen card of their suit above them, and those of them
    nobody can trump either (trumps, or any master once no trump is unseen)."""
    masters = 0
    side = 0
    for s in range(4):
        lane = suit_lane(s)
        above = unseen & lane
        mine = hand & lane
        if above:
            mine &= ~((bit(highest_card(above)) << U1) - U1)
        count = popcount(mine)
        masters += count
        if s != trump:
            side += count
    sure_tricks = masters if (unseen & suit_lane(trump)) == U0 else masters - side
    return masters, sure_tricks


@njit(cache=True, inline="always")
def moment_counts(hand, unseen, trump, me, won_bits, caller, need):
    """The counts of the moment that index the tables, computed once a decision: (trumps held, sure trump
    tricks, unseen trumps up to 6, masters held, sure tricks held, tricks still needed)."""
    n_trumps, sure, n_unseen = trump_counts(hand, unseen, trump)
    masters, sure_tricks = master_counts(hand, unseen, trump)
    return n_trumps, sure, n_unseen, masters, sure_tricks, needed_of(won_bits, me, caller, need)


@njit(cache=True, inline="always")
def context_of(counts, hand, me, m, leader, pos, win_idx, caller):
    """The moment as twins/distilled.py ``context`` from :func:`moment_counts`: a tuple of N_CONTEXT floats."""
    n_trumps, sure, n_unseen, masters, sure_tricks, needed = counts
    cards_left = popcount(hand)
    if caller < 0:
        all_needed = 0.0
        caller_winning = 0.0
        caller_after = 0.0
        safe = 0.0
    else:
        all_needed = 1.0 if 0 < cards_left <= needed else 0.0
        caller_played = (caller - leader) % m < pos
        caller_winning = 1.0 if (pos > 0 and win_idx == caller) else 0.0
        caller_after = 1.0 if (me != caller and not caller_played) else 0.0
        safe = 1.0 if (me != caller and caller_played and win_idx != caller) else 0.0
    q = quotient
    return (q(n_trumps, 5), q(sure, 5), q(n_unseen, 6), q(needed, 3), q(cards_left, 5), q(m - 1 - pos, 6), q(m, 7),
            caller_winning, caller_after, safe, all_needed, q(masters, 5), q(sure_tricks, 5),
            1.0 if masters >= needed else 0.0, 1.0 if masters > needed else 0.0, (masters - needed) / 5)


@njit(cache=True, inline="always")
def context_tuple(hand, unseen, trump, me, m, leader, pos, win_idx, won_bits, caller, need):
    """The moment as twins/distilled.py ``context``: a tuple of N_CONTEXT floats (the kernels allocate nothing)."""
    return context_of(moment_counts(hand, unseen, trump, me, won_bits, caller, need), hand, me, m, leader, pos,
                      win_idx, caller)


@njit(cache=True)
def context_features(hand, unseen, trump, me, m, leader, pos, win_idx, won, caller, need, out):
    """``out[0..N_CONTEXT)``: :func:`context_tuple` with the tricks won as an array (for tests and research)."""
    won_bits = 0
    for p in range(m):
        won_bits |= won[p] << (4 * p)
    ctx = context_tuple(hand, unseen, trump, me, m, leader, pos, win_idx, won_bits, caller, need)
    for k in range(N_CONTEXT):
        out[k] = ctx[k]


@njit(cache=True, inline="always")
def features_of(card, place, count, min_winner_key, hand, unseen, trump, following, beat, unseen_trumps,
                opponent_voids, low_rank, top_rank):
    """The card as twins/distilled.py ``card_features`` (a tuple of N_CARD floats), given what one decision
    shares: its place among the ``count`` legal cards (§6 order), the weakest winning card's strength key, the
    cards that beat the trick's winner (``beat``)."""
    suit = card >> 4
    rank = card & 15
    is_trump = suit == trump
    lane = suit_lane(suit)
    higher = lane & ~((bit(card) << U1) - U1)  # cards of its suit above it
    above = popcount(unseen & higher)
    below = popcount(unseen & lane & (bit(card) - U1))
    length = popcount(hand & lane)
    wins = True
    if following:
        wins = (beat >> np.uint64(card)) & U1 != U0
    sure_win = wins and above == 0 and (is_trump or unseen_trumps == 0)
    span = max(top_rank - low_rank, 1)
    return (1.0 if is_trump else 0.0,
            1.0 if above == 0 else 0.0,
            min(above, 4) / 4,
            quotient(min(below, 6), 6),
            1.0 if length == 1 else 0.0,
            quotient(length, 5),
            min(popcount(unseen & lane), 8) / 8,
            1.0 if (not is_trump and unseen_trumps > 0) else 0.0,
            1.0 if (following and wins) else 0.0,
            1.0 if (following and sure_win) else 0.0,
            quotient(rank - low_rank, span),
            quotient(place, count - 1),
            1.0 if (following and wins and strength(card, trump) == min_winner_key) else 0.0,
            1.0 if place == 0 else 0.0,
            1.0 if place == count - 1 else 0.0,
            1.0 if (opponent_voids >> np.uint64(suit)) & U1 else 0.0)


@njit(cache=True)
def card_features(card, hand, legal, unseen, trump, pos, win_card, opponent_voids, low_rank, top_rank, out):
    """``out[0..N_CARD)``: the card, as twins/distilled.py ``card_features`` (one card alone, for tests; the play
    shares the decision's work between its cards)."""
    following = pos > 0
    beat = beaters(win_card, trump) if following else U0
    winners = legal & beat
    min_winner_key = strength(weakest(winners, trump), trump) if winners else -1
    place = 0
    rest = legal
    while rest:
        c = weakest(rest, trump)
        if c == card:
            break
        rest &= ~bit(c)
        place += 1
    feat = features_of(card, place, popcount(legal), min_winner_key, hand, unseen, trump, following, beat,
                       popcount(unseen & suit_lane(trump)), opponent_voids, low_rank, top_rank)
    for i in range(N_CARD):
        out[i] = feat[i]


@njit(cache=True, inline="always")
def _wt(w, ctx, i):
    """Card feature ``i``'s weight with the moment ``ctx`` folded in (the tricks needed and the last
    :data:`MASTER_TERMS` terms summed apart, then added: the twin's order)."""
    acc = w[i]
    j = N_CARD + i * N_CONTEXT
    for k in range(N_CONTEXT - MASTER_TERMS):
        if k != NEEDED_TERM:
            acc += w[j + k] * ctx[k]
    tail = 0.0
    tail += w[j + NEEDED_TERM] * ctx[NEEDED_TERM]
    for k in range(N_CONTEXT - MASTER_TERMS, N_CONTEXT):
        tail += w[j + k] * ctx[k]
    return acc + tail


@njit(cache=True)
def folded_weights(w, ctx):
    """``w[i] + sum_k w[N_CARD + i * N_CONTEXT + k] * ctx[k]`` for each card feature ``i``: the moment folded into
    one weight per card feature, once per decision (twins/distilled.py ``card_weights``, the same sums in the same
    order); a tuple, so nothing is allocated."""
    return (_wt(w, ctx, 0), _wt(w, ctx, 1), _wt(w, ctx, 2), _wt(w, ctx, 3), _wt(w, ctx, 4), _wt(w, ctx, 5),
            _wt(w, ctx, 6), _wt(w, ctx, 7), _wt(w, ctx, 8), _wt(w, ctx, 9), _wt(w, ctx, 10), _wt(w, ctx, 11),
            _wt(w, ctx, 12), _wt(w, ctx, 13), _wt(w, ctx, 14), _wt(w, ctx, 15))


@njit(cache=True, inline="always")
def _wt_rest(first, tail, w, ctx, i):
    """:func:`_wt` with its first :data:`PREFIX_TERMS` terms already summed in ``first[i]`` and those summed apart
    (the tricks needed, the masters') in ``tail[i]``."""
    acc = first[i]
    j = N_CARD + i * N_CONTEXT
    for k in range(PREFIX_TERMS + 1, N_CONTEXT - MASTER_TERMS):  # the needed term (PREFIX_TERMS) is in the tail
        acc += w[j + k] * ctx[k]
    return acc + tail[i]


@njit(cache=True)
def folded_from_prefix(first, tail, w, ctx):
    """:func:`folded_weights`, bit for bit, from ``first`` (:func:`context_prefix` at the moment's trump counts)
    and ``tail`` (:func:`master_tail` at his masters)."""
    return (_wt_rest(first, tail, w, ctx, 0), _wt_rest(first, tail, w, ctx, 1), _wt_rest(first, tail, w, ctx, 2),
            _wt_rest(first, tail, w, ctx, 3), _wt_rest(first, tail, w, ctx, 4), _wt_rest(first, tail, w, ctx, 5),
            _wt_rest(first, tail, w, ctx, 6), _wt_rest(first, tail, w, ctx, 7), _wt_rest(first, tail, w, ctx, 8),
            _wt_rest(first, tail, w, ctx, 9), _wt_rest(first, tail, w, ctx, 10), _wt_rest(first, tail, w, ctx, 11),
            _wt_rest(first, tail, w, ctx, 12), _wt_rest(first, tail, w, ctx, 13), _wt_rest(first, tail, w, ctx, 14),
            _wt_rest(first, tail, w, ctx, 15))


def folded_at(tables, w, ctx, role, moment, counts):
    """The folded weights of ``w = weights[role, moment]``: from ``tables`` (:func:`context_prefix` and
    :func:`master_tail` of the same weights, read at the moment's :func:`moment_counts`) when there are some, else
    summed whole (``tables`` None). Which is chosen when compiling."""
    if tables is None:
        return folded_weights(w, ctx)
    n_trumps, sure, n_unseen, masters, sure_tricks, needed = counts
    return folded_from_prefix(tables[0][role, moment, n_trumps, sure, n_unseen],
                              tables[1][role, moment, masters, needed, sure_tricks], w, ctx)


@overload(folded_at, inline="always")
def _folded_at(tables, w, ctx, role, moment, counts):
    if isinstance(tables, types.NoneType):
        return lambda tables, w, ctx, role, moment, counts: folded_weights(w, ctx)

    def with_tables(tables, w, ctx, role, moment, counts):
        n_trumps, sure, n_unseen, masters, sure_tricks, needed = counts
        return folded_from_prefix(tables[0][role, moment, n_trumps, sure, n_unseen],
                                  tables[1][role, moment, masters, needed, sure_tricks], w, ctx)

    return with_tables


@njit(cache=True)
def card_weights(w, ctx, out):
    """``out[0..N_CARD)``: :func:`folded_weights` into an array (for tests)."""
    folded = folded_weights(w, (ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6], ctx[7], ctx[8], ctx[9],
                                ctx[10], ctx[11], ctx[12], ctx[13], ctx[14], ctx[15]))
    for i in range(N_CARD):
        out[i] = folded[i]


@njit(cache=True, inline="always")
def shipped_distilled_card(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won_bits, void_bits,
                           caller, need, low_rank, top_rank, follow):
    """:func:`distilled_card` with the shipped :data:`WEIGHTS` of follow rule ``follow``: the card play of every
    table and answer. Read as constants (and :data:`PREFIX` with them), the weights need not be passed on each
    call, which is most of why this is faster than :func:`distilled_card`."""
    return _distilled_choice(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won_bits, void_bits,
                             caller, need, low_rank, top_rank, WEIGHTS[follow], shipped_prefix(follow),
                             shipped_trees(follow))


@njit(cache=True)
def distilled_card(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won_bits, void_bits, caller,
                   need, low_rank, top_rank, weights, trees):
    """The ``distilled`` card of active player ``me``.

    ``won_bits`` / ``void_bits``: per active player 4 bits, his tricks so far and the suits he has shown he lacks
    (:func:`won_of`, :func:`voids_of`). ``weights``: (role, moment, feature), :data:`WEIGHTS` of the rule set's
    follow rule (or another fit, for research); ``trees``: (slot, count, feature, threshold, leaf),
    :func:`shipped_trees` (or a slot of -1 everywhere: none). A single legal card is played at once; ties go to
    the weakest card in the §6 order. Allocates nothing (the GPU engine compiles it too).
    """
    return _distilled_choice(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won_bits, void_bits,
                             caller, need, low_rank, top_rank, weights, None, trees)


@njit(cache=True, inline="always")
def _distilled_choice(hand, legal, unseen, trump, me, m, leader, pos, win_card, win_idx, won_bits, void_bits, caller,
                      need, low_rank, top_rank, weights, prefix, trees):
    """The choice itself; ``prefix``: (:data:`PREFIX`, :data:`TAIL`) of ``weights`` or ``None`` (sum the folded
    weights whole); ``trees``: as :func:`distilled_card`."""
    if (legal & (legal - U1)) == U0:
        return lowest_card(legal)
    role = ROLE_NORMAL if caller < 0 else (ROLE_CALLER if me == caller else ROLE_DEFENDER)
    opponent_voids = 0
    if role == ROLE_DEFENDER:
        opponent_voids = voids_of(void_bits, caller)
    else:
        for p in range(m):
            if p != me:
                opponent_voids |= voids_of(void_bits, p)
    counts = moment_counts(hand, unseen, trump, me, won_bits, caller, need)
    ctx = context_of(counts, hand, me, m, leader, pos, win_idx, caller)
    moment = 0 if pos == 0 else 1
    folded = folded_at(prefix, weights[role, moment], ctx, role, moment, counts)
    following = pos > 0
    beat = beaters(win_card, trump) if following else U0
    winners = legal & beat
    min_winner_key = strength(weakest(winners, trump), trump) if winners else -1
    unseen_trumps = popcount(unseen & suit_lane(trump))
    count = popcount(legal)
    ensemble = tree_slot(trees, role, pos, won_bits, m)
    if ensemble >= 0:
        return choice_with_trees(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump,
                                 following, beat, unseen_trumps, opponent_voids, low_rank, top_rank)
    return best_scored(None, legal, count, folded, trees, ensemble, min_winner_key, hand, unseen, trump, following,
                       beat, unseen_trumps, opponent_voids, low_rank, top_rank)


@njit(cache=True, inline="always")
def dot_in_order(a, b):
    """``sum(a[i] * b[i])`` of two tuples of N_CARD floats, from 0.0 and index by index as the twin adds them,
    written out: indexed in a loop, a tuple costs a jump through a table for each number (a fifth of the
    distilled play's time: whole hands took 0.321 CPU seconds per 40,000 deals with the loop, 0.284 without)."""
    score = 0.0
    score += a[0] * b[0]
    score += a[1] * b[1]
    score += a[2] * b[2]
    score += a[3] * b[3]
    score += a[4] * b[4]
    score += a[5] * b[5]
    score += a[6] * b[6]
    score += a[7] * b[7]
    score += a[8] * b[8]
    score += a[9] * b[9]
    score += a[10] * b[10]
    score += a[11] * b[11]
    score += a[12] * b[12]
    score += a[13] * b[13]
    score += a[14] * b[14]
    score += a[15] * b[15]
    return score


@njit(cache=True, inline="always")
def best_scored(row, legal, count, folded, trees, ensemble, min_winner_key, hand, unseen, trump, following, beat,
                unseen_trumps, opponent_voids, low_rank, top_rank):
    """The legal card of the highest score, weakest first (§6 order: a later card must score strictly more).
    ``row``: ``None`` (the weights alone; compiled without the trees) or the trees' scratch, its moment's part
    filled, and ensemble ``ensemble``'s score is added."""
    best = -1
    best_score = 0.0
    rest = legal
    for place in range(count):
        c = weakest(rest, trump)
        rest &= ~bit(c)
        feat = features_of(c, place, count, min_winner_key, hand, unseen, trump, following, beat, unseen_trumps,
                           opponent_voids, low_rank, top_rank)
        score = dot_in_order(folded, feat)
        if row is not None:
            for i in range(N_CARD):
                row[i] = feat[i]
            score += tree_score(trees, ensemble, row)
        if best < 0 or score > best_score:
            best = c
            best_score = score
    return best


def choice_with_trees(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump, following,
                      beat, unseen_trumps, opponent_voids, low_rank, top_rank):
    """The loop of :func:`_distilled_choice` with ensemble ``ensemble``'s score added to each card's, in compiled
    code: :func:`choice_on_row` on a scratch row, on the CPU an array (one a hand at most), on the GPU the
    thread's local array (engine/gpu.py)."""
    raise NotImplementedError("compiled code only")


@overload(choice_with_trees, target="cpu")
def _choice_with_trees_cpu(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump,
                           following, beat, unseen_trumps, opponent_voids, low_rank, top_rank):
    def on_the_cpu(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump, following, beat,
                   unseen_trumps, opponent_voids, low_rank, top_rank):
        return choice_on_row(np.empty(N_CARD + N_CONTEXT), legal, count, folded, ctx, trees, ensemble,
                             min_winner_key, hand, unseen, trump, following, beat, unseen_trumps, opponent_voids,
                             low_rank, top_rank)
    return on_the_cpu


@njit(cache=True, inline="always")
def choice_on_row(row, legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump, following,
                  beat, unseen_trumps, opponent_voids, low_rank, top_rank):
    """:func:`choice_with_trees` with ``row`` its scratch. Apart from the common loop, and on an array: read by a
    computed index, tuples of numbers cost a branch a read, and inlined in the common loop the trees slowed every
    decision, though they score one a hand (``benchmarks/bench_hand.py``)."""
    for i in range(N_CONTEXT):
        row[N_CARD + i] = ctx[i]
    return best_scored(row, legal, count, folded, trees, ensemble, min_winner_key, hand, unseen, trump, following,
                       beat, unseen_trumps, opponent_voids, low_rank, top_rank)


__all__ = ["WEIGHTS", "TREES", "shipped_trees", "tree_score", "tree_slot", "choice_with_trees", "choice_on_row",
           "best_scored", "dot_in_order",
           "QUOTIENT", "quotient", "divided",
           "PREFIX", "PREFIX_TERMS", "TAIL", "MASTER_TERMS", "master_tail", "needed_of", "NEEDED_TERM",
           "moment_counts", "context_of", "context_prefix", "folded_from_prefix", "folded_at", "shipped_prefix",
           "trump_counts", "master_counts", "distilled_card", "shipped_distilled_card", "card_weights",
           "folded_weights", "context_features", "context_tuple", "card_features", "deck_ranks", "won_of", "voids_of",
           "N_FEATURES", "N_CONTEXT", "N_CARD"]
