"""How an opponent decides, in kernel form: a policy is a handful of arrays.

Every opponent decision (throw in, pass / play / Rumba, join a Rumba or a
knock, how many cards to exchange) depends on what that player knows: his
seat, a *context* (what the earlier seats said) and the *score* of his hand,
an additive strength index (the sum of per-card values, 0..63). A policy gives
a probability for every action of every (seat, context, score), so named
threshold models (``models.py``) and solved mixed strategies run through the
same code. docs/SIMULATION.md "Opponent policies" is the specification; the
twin is ``rumbaodds/twins/condition.py``.

Layout (see :func:`policy_tuple`):
- ``ints``: int64[n, P_SIZE] switches per seat (P_* indices; ``P_CONTEXT_FREE`` is read from row 0);
- ``values``: int64[n, 2, 16], each seat's score value of a card by (is trump, ranks below the deck's top),
  per seat so that one seat can play another style than the rest of the table;
- ``words``: float64[n, NCTX, NSCORE, 3], P(pass, play, rumba);
- ``throws``: float64[n, NCTX, NSCORE], P(throw in | the hand may be thrown in);
- ``exchanges``: float64[n, NCTX, NSCORE, 6], P(discard k cards) when ``ints[P_EXCHANGE_MODE] == 1``, by the
  context he spoke in (a normal game: ``open+k``).
"""

import numpy as np
from numba import njit

from .bits import U0, U1, lowest_card
from .keep import keep_value
from .rng import mix64, next_state

# policy switches
P_EXCHANGE_MODE, P_DISCARD_BELOW, P_SWAP, P_CONTEXT_FREE, P_SIZE = range(5)
EXCHANGE_BY_KEEP, EXCHANGE_BY_TABLE = 0, 1

NSCORE = 64
MAX_CARD_VALUE = 12  # five cards stay below NSCORE

# contexts: no Rumba yet (+ earlier players, up to 3), after a Rumba call (+ others in, up to 2),
# after a knock (+ joined so far, up to 2), rumba-first round one
CTX_OPEN, CTX_RUMBA, CTX_KNOCK, CTX_ROUND1, NCTX = 0, 4, 7, 10, 11

# words (also the action index of ``words`` for the first three)
W_NONE, W_PASS, W_PLAY, W_RUMBA, W_THROW_IN = -1, 0, 1, 2, 3

INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def uniform(state):
    """A float in [0, 1) from the stream position ``state`` (53 bits)."""
    return np.float64(mix64(state) >> np.uint64(11)) * INV53


@njit(cache=True)
def draw_uniforms(state, us, seat):
    """``us[seat, 0..3]``: the four decision numbers of a seat (throw-in, word, round-two word, exchange)."""
    for j in range(4):
        state = next_state(state)
        us[seat, j] = uniform(state)
    return state


@njit(cache=True, inline="always")
def card_value(card, trump, top, values):
    distance = top - (card & 15)
    if distance < 0 or distance > 15:
        return 0
    return values[1 if (card >> 4) == trump else 0, distance]


@njit(cache=True)
def hand_score(hand, trump, top, values):
    """The additive strength index of a hand, clipped to NSCORE - 1."""
    total = 0
    rest = hand
    while rest:
        total += card_value(lowest_card(rest), trump, top, values)
        rest &= rest - U1
    return min(total, NSCORE - 1)


@njit(cache=True, inline="always")
def may_throw_in(hand, below_rank):
    """Every card ranked below ``below_rank`` (swiss: below ten) [D-4]."""
    high = ((np.uint64(0xFFFF) << np.uint64(below_rank)) & np.uint64(0xFFFF))
    lanes = high | (high << np.uint64(16)) | (high << np.uint64(32)) | (high << np.uint64(48))
    return (hand & lanes) == U0


@njit(cache=True, inline="always")
def masked_row(words, seat, ctx, score, pass_ok, rumba_ok):
    """P(pass, play, rumba) with the actions the rules forbid removed; all forbidden: play."""
    p0 = words[seat, ctx, score, 0] if pass_ok else 0.0
    p1 = words[seat, ctx, score, 1]
    p2 = words[seat, ctx, score, 2] if rumba_ok else 0.0
    total = p0 + p1 + p2
    if total <= 0.0:
        return 0.0, 1.0, 0.0
    return p0 / total, p1 / total, p2 / total


@njit(cache=True, inline="always")
def pick_word(q0, q1, q2, u):
    """Inverse distribution: pass below q0, play below q0 + q1, else Rumba (guarding rounding)."""
    if u < q0:
        return W_PASS
    if u < q0 + q1:
        return W_PLAY
    if q2 > 0.0:
        return W_RUMBA
    return W_PLAY if q1 > 0.0 else W_PASS


@njit(cache=True, inline="always")
def word_probability(q0, q1, q2, word):
    """P(word) of a masked row; W_NONE means "not Rumba" (pass or play)."""
    if word == W_PASS:
        return q0
    if word == W_PLAY:
        return q1
    if word == W_RUMBA:
        return q2
    return q0 + q1


@njit(cache=True, inline="always")
def pick_not_rumba(q0, q1, u):
    """Pass or play, given that the seat did not call Rumba."""
    total = q0 + q1
    if total <= 0.0:
        return W_PLAY
    return W_PASS if u < q0 / total else W_PLAY


@njit(cache=True, inline="always")
def keep_discards(hand, trump, top, limit, discard_below):
    """The named models' exchange: how many cards have a keep value below ``discard_below`` (at most ``limit``)."""
    count = 0
    rest = hand
    while rest:
        card = lowest_card(rest)
        rest &= rest - U1
        if keep_value(card, trump, top) < discard_below:
            count += 1
    return min(count, limit)


@njit(cache=True, inline="always")
def exchange_wish(ints, exchanges, seat, ctx, hand, score, trump, top, limit, u):
    """How many cards an opponent wants to exchange (before the stock cuts it)."""
    if ints[P_EXCHANGE_MODE] == EXCHANGE_BY_KEEP:
        return keep_discards(hand, trump, top, limit, ints[P_DISCARD_BELOW])
    total = 0.0
    for k in range(limit + 1):
        total += exchanges[seat, ctx, score, k]
    if total <= 0.0:
        return 0
    acc = 0.0
    for k in range(limit + 1):
        acc += exchanges[seat, ctx, score, k] / total
        if u < acc:
            return k
    return limit


__all__ = [
    "P_EXCHANGE_MODE", "P_DISCARD_BELOW", "P_SWAP", "P_CONTEXT_FREE", "P_SIZE", "EXCHANGE_BY_KEEP",
    "EXCHANGE_BY_TABLE", "NSCORE", "NCTX", "CTX_OPEN", "CTX_RUMBA", "CTX_KNOCK", "CTX_ROUND1", "uniform",
    "hand_score", "masked_row", "pick_word", "word_probability", "pick_not_rumba", "exchange_wish",
]
