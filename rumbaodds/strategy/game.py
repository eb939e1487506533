"""The solver's kernel: one seat's decision on one deal, every action of his evaluated on that deal.

A deal is drawn whole (every hand, the card turned, the stock). The swiss
dealer knocks with the strategy's probability for the card turned. The seats
before the traverser speak by the current policy; at his turn his information
set is recorded (context, hand score, whether he may throw in, the card's
rank) and each of his legal actions is played out by the engine's own
``evaluate_choices`` against the rest of the table following the policy
(common random numbers). The dealer traverser's own knock is evaluated
apart, and his speaking is evaluated as if he had not knocked (counterfactual
values). Nothing here is specific to solving: the same code plays ``ask``.
The score-aware solver needs every seat's outcome of each action
(``traverse_full``): there each action is played to the end by every seat,
also when he passes, by the whole game's hand (``match.kernel.play_spoken``).
"""

import numpy as np
from numba import njit, prange

from ..engine.bits import U0, bit
from ..engine.condition import seat_context
from ..engine.hand import evaluate_choices, finish_hand, new_scratch, rename_side_suits
from ..engine.policy import CTX_RUMBA, W_NONE, W_PLAY, draw_uniforms, hand_score, may_throw_in, uniform
from ..engine.rng import next_state, shuffle, stream_start
from ..engine.rules_layout import R_EXCHANGE, R_HAND, R_JACK_FORCES, R_KNOCK, R_LONE_RUMBA_OK, R_THROW_BELOW, R_TOP_RANK
from ..engine.speak import C_PASS, C_PLAY, C_RUMBA, C_THROW_IN, JACK, hero_swaps_two, speak_rest, speak_seats, two_of
from ..match.kernel import new_hand_scratch, play_spoken
from ..match.score import THROWN_IN

# actions of a word information set: pass, Rumba, play with k discards; then the throw-in
A_PASS, A_RUMBA, A_PLAY = 0, 1, 2
UNSET = 127  # an action the rules do not allow here
# info fields
I_REACHED, I_CTX, I_SCORE, I_THROWABLE, I_RANK, I_KNOCK_SCORE, I_KNOCK_DONE, I_VOID, I_SIZE = range(9)


@njit(cache=True)
def legal_choices(ctx, pass_ok, rumba_ok, throwable, limit, choices, actions):
    """The traverser's choice codes and their action indices; returns how many.

    The fast path of the game's rules (``rumbaodds.game``: the words ``HandState.legal_words`` allows, with
    0..exchange_limit discards in a normal game); ``strategy/twin_game.py`` takes them from the state machine
    and tests/test_strategy.py keeps the two equal deal by deal.
    """
    k = 0
    if pass_ok:
        choices[k] = C_PASS
        actions[k] = A_PASS
        k += 1
    if rumba_ok:
        choices[k] = C_RUMBA
        actions[k] = A_RUMBA
        k += 1
    plays = limit + 1 if ctx < CTX_RUMBA else 1  # the exchange only matters in a normal game
    for d in range(plays):
        choices[k] = C_PLAY + d
        actions[k] = A_PLAY + d
        k += 1
    if throwable:
        choices[k] = C_THROW_IN
        actions[k] = A_PLAY + limit + 1
        k += 1
    return k


@njit(cache=True)
def traverse_deal(hands_in, trump_card, stock, n, traverser, knocked, rp, pol, play, us, deck_mask, info, q,
                  scratch, choices, actions, full=None):
    """The traverser's information set and the score of each of his actions on this deal (hands given).

    Other seats draw their outcomes from ``us`` or take the forced ones of ``scratch``. Returns (the probability
    of the forced outcomes up to his turn, the number of his choices): ``choices[:count]`` / ``actions[:count]``
    are his choice codes and action indices, and ``scratch`` probs hold, per choice, the probability of the
    forced outcomes after his turn.
    """
    deck, hands2, ints, cards, _us, cond, forced, probs = scratch
    hands = hands2[0]
    words = ints[0]
    for s in range(n):
        hands[s] = hands_in[s]
        words[s] = W_NONE
    dealer = n - 1
    trump = trump_card >> 4
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    limit = rp[R_EXCHANGE]
    turned = trump_card
    if knocked:
        perm = np.arange(4)
        turned = rename_side_suits(hands, n, stock[:0], perm, True, trump_card, trump_card)
    rumba_seat, turned, void, prob = speak_seats(hands, n, 0, traverser, -1, -1, words, dealer if knocked else -1,
                                                 turned, trump_card, knocked, jack_forced, rp, pol, us, forced)
    info[I_VOID] = 1 if void else 0
    if void:  # an earlier throw-in: no decision for him, the hand is dealt again [D-4]
        return prob, 0
    info[I_REACHED] = 1
    ctx, pass_ok, rumba_ok, throw_ok = seat_context(traverser, n, words, rumba_seat, knocked, jack_forced, rp)
    own = hands[traverser]
    hands[traverser] = hero_swaps_two(own, turned, trump_card, knocked, rp)
    if hands[traverser] != own:
        turned = two_of(trump)
    score = hand_score(hands[traverser], trump, rp[R_TOP_RANK], pol[1][traverser])
    throwable = throw_ok and may_throw_in(hands[traverser], rp[R_THROW_BELOW])
    if rumba_ok and traverser == dealer and rp[R_LONE_RUMBA_OK] == 0:
        alone = True
        for s in range(traverser):
            if words[s] == W_PLAY:
                alone = False
        if alone:
            rumba_ok = False  # a lone player cannot call Rumba (flemish §5.5): not offered
    info[I_CTX] = ctx
    info[I_SCORE] = score
    info[I_THROWABLE] = 1 if throwable else 0
    count = legal_choices(ctx, pass_ok, rumba_ok, throwable, limit, choices, actions)
    if full is not None:  # every seat's outcome of each action (the score-aware solver): played to the end
        play_every_seat(hands, words, rumba_seat, turned, trump_card, n, traverser, knocked, jack_forced, rp, pol, us,
                        play, deck_mask, stock, scratch, choices[:count], actions[:count], q, full)
        return prob, count
    out = np.zeros((count, 4), dtype=np.int64)
    evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, traverser, choices[:count], 0, knocked,
                     jack_forced, rp, pol, us, play, deck_mask, stock, stock.shape[0], np.uint64(0), hands2, ints,
                     cards, out, forced, probs)
    for c in range(count):
        q[actions[c]] = out[c, 0]
    return prob, count


@njit(cache=True)
def play_every_seat(hands, words, rumba_seat, turned, trump_card, n, traverser, knocked, jack_forced, rp, pol, us,
                    play, deck_mask, stock, scratch, choices, actions, q, full):
    """Each action of the traverser played to the end by every seat, as a whole game's hand is
    (``match.kernel.play_spoken``, also when he passes): ``full`` = (kinds[actions], changes[actions, n],
    passed[actions, n], the hand scratch); ``q``: his own change (no sit-out penalty: the game adds it); ``scratch``
    probs[c]: the probability of the later seats' forced outcomes after choice ``c`` (exact enumeration)."""
    kinds, changes, passed, hand_scratch = full
    _deck, hands2, ints, cards, _us, _cond, forced, probs = scratch
    _pool, m_hands, m_ints, m_cards, _m_us, _m_forced = hand_scratch
    spoken_hands = hands2[3]
    spoken_words = ints[3]
    trump = trump_card >> 4
    for c in range(choices.shape[0]):
        a = actions[c]
        choice = choices[c]
        for s in range(n):
            changes[a, s] = 0
            passed[a, s] = 0
        kinds[a] = THROWN_IN  # the throw-in [D-4], his own or a later seat's
        probs[c] = 1.0
        if choice != C_THROW_IN:
            for s in range(n):
                spoken_hands[s] = hands[s]
                spoken_words[s] = words[s]
            final_rumba, table, void, _called, probs[c] = speak_rest(spoken_hands, n, traverser, choice,
                                                                     spoken_words, rumba_seat, turned, trump_card,
                                                                     knocked, jack_forced, rp, pol, us, forced)
            if not void:
                discard_k = choice - C_PLAY if choice >= C_PLAY else 0
                kinds[a] = play_spoken(spoken_hands, n, spoken_words, final_rumba, table, trump, rp, pol, play,
                                       deck_mask, stock, stock.shape[0], np.uint64(0), m_hands, m_ints, m_cards, us,
                                       changes[a], passed[a], traverser, discard_k)
        q[a] = changes[a, traverser]


@njit(cache=True)
def knock_value(hands_in, trump_card, stock, n, rp, pol, play, us, deck_mask, scratch):
    """The dealer's score when he knocks blind on this deal [D-3] (the others answer by the policy)."""
    deck, hands2, ints, cards, _us, cond, forced, probs = scratch
    hands = hands2[0]
    words = ints[0]
    for s in range(n):
        hands[s] = hands_in[s]
        words[s] = W_NONE
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    turned = rename_side_suits(hands, n, stock[:0], np.arange(4), True, trump_card, trump_card)
    table_mask = bit(turned) if turned >= 0 else U0
    _r, _t, _v, prob = speak_seats(hands, n, 0, n, -1, -1, words, n - 1, trump_card, trump_card, True, jack_forced,
                                   rp, pol, us, forced)
    out = np.zeros((1, 4), dtype=np.int64)
    finish_hand(hands, n, words, n - 1, n - 1, 0, 0, trump_card >> 4, table_mask, rp, pol, us, play, deck_mask,
                stock, stock.shape[0], np.uint64(0), hands2[2], ints[2], cards, out, 0, True, jack_forced,
                trump_card)
    return out[0, 0], prob


def traverse_batch(deck, n, traversers, rp, pol, knock_prob, play, seed, start, actions_count):
    """Per sample: info (I_* fields) and the score of every action of its traverser (UNSET where not allowed).

    Sample ``i`` deals from stream ``start + i`` of ``seed``: one Fisher-Yates of the whole deck; seats take
    ``hand_size`` cards in order, then the card turned, then the stock.
    """
    info, q, _kinds, _changes, _passed = traverse_all(deck, n, traversers, rp, pol, knock_prob, play, seed, start,
                                                      actions_count, False)
    return info, q


def traverse_full(deck, n, traversers, rp, pol, knock_prob, play, seed, start, actions_count):
    """``traverse_batch`` with every seat's outcome of each action (the score-aware solver values it in the game):
    info, q (his own change), kinds[count, actions], changes[count, actions, n], passed[count, actions, n]; the
    same deals and decisions, every action played to the end by every seat (``play_every_seat``)."""
    return traverse_all(deck, n, traversers, rp, pol, knock_prob, play, seed, start, actions_count, True)


@njit(cache=True, parallel=True)
def traverse_all(deck, n, traversers, rp, pol, knock_prob, play, seed, start, actions_count, every_seat):
    """The loop of :func:`traverse_batch` and :func:`traverse_full` (``every_seat``)."""
    count = traversers.shape[0]
    info = np.zeros((count, I_SIZE), dtype=np.int64)
    q = np.full((count, actions_count), UNSET, dtype=np.int8)
    wide = count if every_seat else 0
    kinds = np.full((wide, actions_count), -1, dtype=np.int8)
    changes = np.zeros((wide, actions_count, n), dtype=np.int8)
    passed = np.zeros((wide, actions_count, n), dtype=np.int8)
    hand_size = rp[R_HAND]
    m = deck.shape[0]
    deck_mask = np.uint64(0)
    for c in deck:
        deck_mask |= bit(c)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        scratch = new_scratch(n, m)
        pool = np.empty(m, dtype=np.int64)
        hands = np.zeros(n, dtype=np.uint64)
        us = np.zeros((n, 4))
        row = np.full(actions_count, UNSET, dtype=np.int64)
        choices = np.zeros(16, dtype=np.int64)
        actions = np.zeros(16, dtype=np.int64)
        full = (np.full(actions_count, -1, dtype=np.int64), np.zeros((actions_count, n), dtype=np.int64),
                np.zeros((actions_count, n), dtype=np.int64), new_hand_scratch(n, m))
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            state = stream_start(seed, start + i)
            pool[:] = deck
            state = shuffle(pool, state)
            for s in range(n):
                mask = U0
                for j in range(hand_size):
                    mask |= bit(pool[s * hand_size + j])
                hands[s] = mask
            trump_card = pool[n * hand_size]
            stock = pool[n * hand_size + 1:]
            for s in range(n):
                state = draw_uniforms(state, us, s)
            state = next_state(state)
            u_knock = uniform(state)
            t = traversers[i]
            rank = trump_card & 15
            info[i, I_RANK] = rank
            knocked = False
            if rp[R_KNOCK] == 1:
                if t == n - 1:
                    score, _p = knock_value(hands, trump_card, stock, n, rp, pol, play, us, deck_mask, scratch)
                    info[i, I_KNOCK_SCORE] = score
                    info[i, I_KNOCK_DONE] = 1
                else:
                    knocked = u_knock < knock_prob[rank]
            row[:] = UNSET
            if every_seat:
                full[0][:] = -1
                traverse_deal(hands, trump_card, stock, n, t, knocked, rp, pol, play, us, deck_mask, info[i], row,
                              scratch, choices, actions, full)
                for a in range(actions_count):
                    kinds[i, a] = full[0][a]
                    for s in range(n):
                        changes[i, a, s] = full[1][a, s]
                        passed[i, a, s] = full[2][a, s]
            else:
                traverse_deal(hands, trump_card, stock, n, t, knocked, rp, pol, play, us, deck_mask, info[i], row,
                              scratch, choices, actions)
            for a in range(actions_count):
                q[i, a] = row[a]
    return info, q, kinds, changes, passed


__all__ = ["traverse_batch", "traverse_full", "traverse_all", "traverse_deal", "play_every_seat", "knock_value",
           "legal_choices", "A_PASS", "A_RUMBA", "A_PLAY", "UNSET",
           "I_REACHED", "I_CTX", "I_SCORE", "I_THROWABLE", "I_RANK", "I_KNOCK_SCORE", "I_KNOCK_DONE", "I_VOID"]
