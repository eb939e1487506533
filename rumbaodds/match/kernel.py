"""The hands of a whole game in Numba (RULES.md §9): one hand with every seat's score change kept.

Every hand is the engine's own: the speaking of ``engine/speak.py`` with no
asking player (every seat decides by the policy), the exchange, lead, card
play and score of ``engine/hand.py`` and ``engine/play.py``; what is new here
is only that every seat's score change is kept. The loop of §9 around the
hands (``score.py``) is ``scored.py``'s, where each hand's table of policies
is chosen by the score. The twin is ``twin.py``; tests compare them game by
game.

Random numbers: game ``g`` of seed ``s`` owns the stream ``stream_start(s, g)``;
each deal (a void one too) takes the next position of it and starts its own
stream at ``mix64`` of it. That stream deals the hand (one Fisher-Yates of the
whole deck; seats take ``hand_size`` cards in seat order, then the card
turned, then the stock, as ``strategy/game.py``), then draws every seat's four
decision numbers, then the dealer's knock number; the swiss passers' cards are
shuffled from the position after that. Games depend on (seed, g) alone, so any
batching and any thread count give the same games.
"""

import numpy as np
from numba import njit, prange

from ..engine.bits import U0, bit
from ..engine.hand import exchange_step, play_step, score_of
from ..engine.policy import W_NONE, W_PLAY, W_RUMBA, draw_uniforms, uniform
from ..engine.rng import mix64, next_state, shuffle, stream_start
from ..engine.rules_layout import (
    R_EXCHANGE,
    R_HAND,
    R_JACK_FORCES,
    R_KNOCK,
    R_LONE_PLAYER,
    R_LONE_RUMBA_OK,
    R_LONE_RUMBA_SCORE,
    R_RUMBA_FIRST,
)
from ..engine.speak import JACK, forbidden_lone_rumba, round_two, speak_seats
from ..engine.tricks import strength, weakest
from .score import PLAYED, THROWN_IN, VOID_NOBODY

MAX_HANDS = 10_000  # a game still open after this many deals is reported unfinished (never seen in practice)


@njit(cache=True)
def new_hand_scratch(n, deck_size):
    pool = np.empty(deck_size, dtype=np.int64)
    hands = np.zeros((2, n), dtype=np.uint64)  # seats, then the active seats in play
    ints = np.zeros((4, n), dtype=np.int64)  # words, wishes, tricks, active seat of each play index
    cards = np.zeros(64, dtype=np.int64)  # the stock with the swiss passers' cards under it
    us = np.zeros((n, 4), dtype=np.float64)
    forced = np.full(n, -1, dtype=np.int64)
    return pool, hands, ints, cards, us, forced


@njit(cache=True)
def play_dealt(pool, n, knocked, rp, pol, play, deck_mask, state, scratch, changes, passed):
    """One hand on the dealt ``pool`` (hands in seat order, the card turned, the stock); returns its kind.

    ``changes[s]``: seat ``s``'s score change without the sit-out penalty; ``passed[s]``: he passed. ``state`` is
    the stream position the swiss passers' cards are shuffled from. Steps as docs/SIMULATION.md, every seat by
    the policy: the knocking dealer takes the turned card [D-3], speaking (swaps [D-9], throw-ins [D-4]), the
    outcome (void [D-6], lone players [D-7]), the exchange, the lead [D-8] [D-10], the tricks, the score.
    """
    _pool, hands2, ints, cards, us, forced = scratch
    hands = hands2[0]
    words = ints[0]
    hand_size = rp[R_HAND]
    for s in range(n):
        mask = U0
        for j in range(hand_size):
            mask |= bit(pool[s * hand_size + j])
        hands[s] = mask
        words[s] = W_NONE
        changes[s] = 0
        passed[s] = 0
    trump_card = pool[n * hand_size]
    stock = pool[n * hand_size + 1:]
    stock_len = stock.shape[0]
    trump = trump_card >> 4
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    turned = trump_card
    dealer = n - 1
    if knocked:  # the dealer takes the turned card for his weakest card if it is stronger [D-3]
        low = weakest(hands[dealer], trump)
        if strength(trump_card, trump) > strength(low, trump):
            hands[dealer] = (hands[dealer] & ~bit(low)) | bit(trump_card)
            turned = -1
    rumba_seat, turned, void, _prob = speak_seats(hands, n, 0, n, -1, -1, words, dealer if knocked else -1, turned,
                                                  trump_card, knocked, jack_forced, rp, pol, us, forced)
    if void:
        return THROWN_IN
    if rp[R_RUMBA_FIRST] == 1 and not knocked:
        round_two(hands, n, -1, -1, words, rumba_seat, trump, jack_forced, rp, pol, us)
    if not knocked:
        rumba_seat = forbidden_lone_rumba(words, n, rumba_seat, rp)
    return play_spoken(hands, n, words, rumba_seat, turned, trump, rp, pol, play, deck_mask, stock, stock_len, state,
                       hands2, ints, cards, us, changes, passed, -1, 0)


@njit(cache=True)
def play_spoken(hands, n, words, rumba_seat, turned, trump, rp, pol, play, deck_mask, stock, stock_len, state,
                hands2, ints, cards, us, changes, passed, hero, discard_k):
    """A hand after speaking (``words`` final, ``turned`` the card face up or -1): outcome, exchange, lead, tricks,
    score of every seat; returns its kind and fills ``changes`` (without the sit-out penalty) and ``passed``.

    ``hero`` (-1: none) exchanges ``discard_k`` cards, every other active seat by the policy (his numbers ``us``);
    the swiss passers' cards are shuffled from ``state``. ``hands`` change in place; ``hands2[1]``, ``ints[1:4]``
    and ``cards`` are work space (``new_hand_scratch``).
    """
    for s in range(n):
        changes[s] = 0
        passed[s] = 0
    active = 0
    for s in range(n):
        if words[s] == W_PLAY or words[s] == W_RUMBA:
            active += 1
        else:
            passed[s] = 1
    if active == 0:  # [D-6]
        return VOID_NOBODY
    if active == 1:
        for s in range(n):
            if passed[s] == 0:
                if s == rumba_seat:
                    changes[s] = rp[R_LONE_RUMBA_SCORE] if rp[R_LONE_RUMBA_OK] else rp[R_LONE_PLAYER]
                else:
                    changes[s] = rp[R_LONE_PLAYER]  # [D-7]
        return PLAYED
    if rumba_seat < 0 and rp[R_EXCHANGE] > 0:
        exchange_step(hands, n, words, hero, discard_k, trump, rp, pol, us, stock, stock_len, state, ints[1], cards)
    tricks = ints[2]
    table_mask = bit(turned) if turned >= 0 else U0
    play_step(hands, n, words, rumba_seat, trump, table_mask, rp, play, deck_mask, hands2[1], tricks, state,
              cards, pol, False, False, -1)  # never the search (match/ask.py refuses it): nothing believes the call
    k = 0
    for s in range(n):
        if passed[s] == 0:  # the active seats play in seat order
            changes[s] = score_of(tricks[k], s == rumba_seat, rumba_seat >= 0, rp)
            k += 1
    return PLAYED


@njit(cache=True)
def play_hand(deck, n, rp, pol, knock_prob, play, deck_mask, state, scratch, changes, passed):
    """Deal one hand from the stream position ``state`` and play it (``play_dealt``); returns its kind."""
    pool, _hands, _ints, _cards, us, _forced = scratch
    pool[:] = deck
    state = shuffle(pool, state)
    for s in range(n):
        state = draw_uniforms(state, us, s)
    state = next_state(state)
    u_knock = uniform(state)
    knocked = rp[R_KNOCK] == 1 and u_knock < knock_prob[pool[n * rp[R_HAND]] & 15]
    return play_dealt(pool, n, knocked, rp, pol, play, deck_mask, state, scratch, changes, passed)


@njit(cache=True, parallel=True)
def hand_batch(deck, n, rp, pol, knock_prob, play, seed, start, count):
    """Single hands ``start .. start+count-1`` (hand ``i`` from ``mix64(stream_start(seed, i))``): kinds, changes
    and passes by seat. What the exact check and the tests compare one hand at a time."""
    kinds = np.zeros(count, dtype=np.int8)
    changes_out = np.zeros((count, n), dtype=np.int16)
    passed_out = np.zeros((count, n), dtype=np.int8)
    deck_mask = U0
    for c in deck:
        deck_mask |= bit(c)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        scratch = new_hand_scratch(n, deck.shape[0])
        changes = np.zeros(n, dtype=np.int64)
        passed = np.zeros(n, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            kinds[i] = play_hand(deck, n, rp, pol, knock_prob, play, deck_mask, mix64(stream_start(seed, start + i)),
                                 scratch, changes, passed)
            for s in range(n):
                changes_out[i, s] = changes[s]
                passed_out[i, s] = passed[s]
    return kinds, changes_out, passed_out


__all__ = ["play_dealt", "play_spoken", "play_hand", "hand_batch", "new_hand_scratch",
           "MAX_HANDS"]
