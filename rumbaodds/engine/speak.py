"""Speaking from the hero's turn to the dealer (docs/SIMULATION.md step 4), by the opponent policy.

Each later seat, at his turn: swaps the two of trump if he holds it and the
policy swaps [D-9]; may throw in [D-4]; then says a word drawn from the
policy's row for his seat, context and hand score, with the actions the rules
forbid removed (a Rumba after a Rumba, a lone flemish dealer's Rumba, a pass
when the jack of trump is turned or a flemish Rumba forces play). The
decision numbers ``us`` were drawn for the deal, so every choice of the hero
meets the same opponents (common random numbers). The twin is
``rumbaodds/twins/hand.speak_on`` (on the state machine of ``rumbaodds/game/``).
"""

import numpy as np
from numba import njit

from ..cards import RANKS
from .bits import U1, bit
from .condition import seat_context
from .policy import (
    CTX_OPEN,
    CTX_RUMBA,
    P_SWAP,
    W_NONE,
    W_PASS,
    W_PLAY,
    W_RUMBA,
    W_THROW_IN,
    hand_score,
    masked_row,
    may_throw_in,
    pick_word,
    word_probability,
)
from .rules_layout import (
    R_LONE_RUMBA_OK,
    R_MUST_PLAY,
    R_RUMBA_FIRST,
    R_THROW_BELOW,
    R_TOP_RANK,
    R_TWO_SWAP,
)

# hero choices: pass, rumba, throw-in, then play with k discards = C_PLAY + k; C_SKIP: a slot not simulated
# (the table kernel's exchange that is already clearly worse than the best one)
C_PASS, C_RUMBA, C_THROW_IN, C_PLAY = 0, 1, 2, 3
C_SKIP = -1
TWO = RANKS.index("2")
JACK = RANKS.index("J")


@njit(cache=True, inline="always")
def two_of(trump):
    return trump * 16 + TWO


@njit(cache=True, inline="always")
def swap_two(hands, s, turned, trump_card, knocked, rp, ints):
    """Seat ``s`` swaps the two of trump for the turned card [D-9]; returns the card now face up.

    Only the card first turned can be taken (one swap per hand), never after a knock.
    """
    two = two_of(trump_card >> 4)
    if not knocked and rp[R_TWO_SWAP] == 1 and ints[s, P_SWAP] == 1 and turned == trump_card and turned != two \
            and (hands[s] >> np.uint64(two)) & U1:
        hands[s] = (hands[s] & ~bit(two)) | bit(turned)
        return two
    return turned


@njit(cache=True)
def hero_swaps_two(hero_hand, turned, trump_card, knocked, rp):
    """The hero's hand after he swaps the two of trump for the turned card, when he can [D-9]."""
    two = two_of(trump_card >> 4)
    if not knocked and rp[R_TWO_SWAP] == 1 and turned == trump_card and turned != two \
            and (hero_hand >> np.uint64(two)) & U1:
        return (hero_hand & ~bit(two)) | bit(trump_card)
    return hero_hand


@njit(cache=True, inline="always")
def nobody_plays_before(words, s):
    for e in range(s):
        if words[e] == W_PLAY:
            return False
    return True


@njit(cache=True)
def speak_seats(hands, n, lo, hi, hero, choice, words, rumba_seat, turned, trump_card, knocked, jack_forced, rp, pol,
                us, forced):
    """Seats ``lo .. hi-1`` speak in order (the hero, if among them, says ``choice``); step 4.

    ``forced[s] >= 0`` makes seat ``s`` take that outcome (a word, or W_THROW_IN) instead of drawing it, for exact
    enumeration (``strategy/exact.py``); the probability of the forced outcomes is returned.
    Returns (Rumba seat or -1, the card face up after swaps, void by a throw-in, probability of the forced outcomes).
    """
    prob = 1.0
    ints, values, table, throws = pol[0], pol[1], pol[2], pol[3]
    trump = trump_card >> 4
    top = rp[R_TOP_RANK]
    below_rank = rp[R_THROW_BELOW]
    rumba_first = rp[R_RUMBA_FIRST] == 1 and not knocked
    for s in range(lo, hi):
        if s == hero:
            if choice == C_RUMBA and rumba_seat < 0:
                rumba_seat = s
                words[s] = W_RUMBA
            elif rumba_first:
                words[s] = W_NONE
            else:
                words[s] = W_PASS if choice == C_PASS else W_PLAY
            continue
        if knocked:
            if s == n - 1:
                words[s] = W_RUMBA
                continue
            ctx, pass_ok, rumba_ok, throw_ok = seat_context(s, n, words, n - 1, True, jack_forced, rp)
            score = hand_score(hands[s], trump, top, values[s])
            q0, q1, q2 = masked_row(table, s, ctx, score, pass_ok, False)
            if forced[s] >= 0:
                prob *= 0.0 if forced[s] == W_THROW_IN else word_probability(q0, q1, q2, forced[s])
                words[s] = forced[s] if forced[s] != W_THROW_IN else W_PASS
            else:
                words[s] = pick_word(q0, q1, q2, us[s, 1])
            continue
        turned = swap_two(hands, s, turned, trump_card, knocked, rp, ints)
        if rumba_first and rumba_seat >= 0:
            words[s] = W_NONE  # no round-one turn after a Rumba: he answers in round two
            continue
        ctx, pass_ok, rumba_ok, throw_ok = seat_context(s, n, words, rumba_seat, False, jack_forced, rp)
        score = hand_score(hands[s], trump, top, values[s])
        can_throw = throw_ok and may_throw_in(hands[s], below_rank)
        if forced[s] >= 0:
            p_throw = throws[s, ctx, score] if can_throw else 0.0
            if forced[s] == W_THROW_IN:
                return rumba_seat, turned, True, prob * p_throw
            prob *= 1.0 - p_throw
        elif can_throw and us[s, 0] < throws[s, ctx, score]:
            return rumba_seat, turned, True, prob
        if not rumba_first and s == n - 1 and rp[R_LONE_RUMBA_OK] == 0 and nobody_plays_before(words, s):
            rumba_ok = False  # a lone player cannot call Rumba (flemish §5.5)
        q0, q1, q2 = masked_row(table, s, ctx, score, pass_ok, rumba_ok)
        if forced[s] >= 0:
            word = forced[s]
            prob *= word_probability(q0, q1, q2, word)
        else:
            word = pick_word(q0, q1, q2, us[s, 1])
        if word == W_RUMBA:
            rumba_seat = s
        words[s] = word if not rumba_first or word == W_RUMBA else W_NONE
    return rumba_seat, turned, False, prob


@njit(cache=True)
def speak_rest(hands, n, hero, choice, words, rumba_seat, turned, trump_card, knocked, jack_forced, rp, pol, us,
               forced):
    """Step 4 from the hero's turn on; the earlier words and any Rumba they called are given.

    Returns (Rumba seat or -1, the card face up after swaps, void by a throw-in, the round-one caller, probability
    of the forced outcomes).
    """
    if knocked:
        rumba_seat = n - 1
    rumba_seat, turned, void, prob = speak_seats(hands, n, hero, n, hero, choice, words, rumba_seat, turned,
                                                 trump_card, knocked, jack_forced, rp, pol, us, forced)
    called = rumba_seat
    if void:
        return rumba_seat, turned, True, called, prob
    if rp[R_RUMBA_FIRST] == 1 and not knocked:
        round_two(hands, n, hero, choice, words, rumba_seat, trump_card >> 4, jack_forced, rp, pol, us)
    if not knocked:
        rumba_seat = forbidden_lone_rumba(words, n, rumba_seat, rp)
    return rumba_seat, turned, False, called, prob


@njit(cache=True)
def forbidden_lone_rumba(words, n, rumba_seat, rp):
    """A Rumba the rules forbid (nobody else plays where a lone Rumba is not allowed, flemish §5.5) is a lone play:
    his word becomes ``play``; returns the Rumba seat that stands (-1: none)."""
    if rumba_seat < 0 or rp[R_LONE_RUMBA_OK] == 1:
        return rumba_seat
    for s in range(n):
        if s != rumba_seat and words[s] == W_PLAY:
            return rumba_seat
    words[rumba_seat] = W_PLAY
    return -1


@njit(cache=True)
def round_two(hands, n, hero, choice, words, rumba_seat, trump, jack_forced, rp, pol, us):
    """rumba-first, round two: every seat but the caller, seat 0 first, says play (join) or pass knowing it."""
    values, table = pol[1], pol[2]
    top = rp[R_TOP_RANK]
    for s in range(n):
        if s == rumba_seat:
            continue
        if s == hero:
            words[s] = W_PASS if choice == C_PASS else W_PLAY
            continue
        players = 0
        for e in range(s):
            if words[e] == W_PLAY:
                players += 1
        if rumba_seat >= 0:
            ctx = CTX_RUMBA + min(players, 2)
            pass_ok = not (jack_forced or (rp[R_MUST_PLAY] == 1 and s > rumba_seat))
        else:
            ctx = CTX_OPEN + min(players, 3)
            pass_ok = not jack_forced
        score = hand_score(hands[s], trump, top, values[s])
        q0, q1, q2 = masked_row(table, s, ctx, score, pass_ok, False)
        words[s] = pick_word(q0, q1, q2, us[s, 2])


__all__ = ["speak_rest", "speak_seats", "round_two", "swap_two", "hero_swaps_two", "two_of", "C_PASS", "C_RUMBA",
           "C_THROW_IN", "C_PLAY", "JACK", "TWO"]
