"""The game value of a choice (issue 21 item 3): this hand played out with it, then the rest of the game.

One sample is one sample of ``ask`` (``engine/hand.py::ask_sample``: the deal
conditioned on what the player saw, its importance weight, every choice on
the same deal) with, for every choice, every seat's score change and pass
flag kept (``kernel.play_spoken``: the same speaking, exchange, card play and
score, also when the asking player passes). The score sheet then applies the
hand (``score.apply_hand``: seat ``n - 1`` deals it, seats are players) and, if
nobody has reached 0, the rest of the game is game ``index`` of the rest
seed's stream (``scored.play_game_scored``: every player by his score class's
strategy where he sees the score, else by his fixed policy), the same games
for every choice (common random numbers: the later hands are dealt alike
whatever this hand did).

The per-hand answer comes out of the same run unchanged: ``out`` is exactly
what ``ask_batch`` gives for these samples. The twin is ``choice_twin.py``.
"""

import numpy as np
from numba import njit, prange

from ..engine.hand import (
    C_PLAY,
    C_SKIP,
    C_THROW_IN,
    OUT_FIELDS,
    deal_sample,
    evaluate_choices,
    new_scratch,
)
from ..engine.speak import speak_rest
from .kernel import new_hand_scratch, play_spoken
from .score import THROWN_IN, apply_hand, game_over, settle
from .scored import new_work, play_game_scored

REST_SALT = 0x2109_6A3E_5EED  # the rest of the game: game ``index`` of seed ``(seed ^ REST_SALT) mod 2**63``


def rest_seed(seed: int) -> int:
    """The seed of the games that follow the asked hand (another stream than the hand's own)."""
    return (int(seed) ^ REST_SALT) % 2**63


@njit(cache=True)
def new_game_scratch(n, deck_size):
    """Score state work space: scores, streaks, won, changes, passed, start scores and streaks of the rest of the
    game, the rest's own changes and passed; the payout; a hand's scratch."""
    ints = np.zeros((9, n), dtype=np.int64)
    payout = np.zeros(n, dtype=np.float64)
    return ints, payout, new_hand_scratch(n, deck_size)


@njit(cache=True)
def choice_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, gp, pol, plan, policy, passes, knocked,
                  swapped_by, choices, seed, index, deck, stack, knock_stack, fixed, fixed_knock, aware, scores0,
                  streaks0, rest, max_hands, out, scratch, game_scratch, work, kinds, changes_out, passed_out, pays,
                  wins, deals):
    """One sample for every choice: ``out`` as ``ask_sample``; per choice the hand's kind, every seat's change and
    pass flag, then the asking player's payout and win share and the deals the game took (this one included;
    negative: unfinished). ``stack`` .. ``aware``: the rest of the game's players (the score-aware stack, its
    knock by class, the fixed policies, their knocks, who sees the score: ``strategy.score_aware.GameTable``);
    ``work``: ``scored.new_work``. Returns (tries, weight) as ``ask_sample``."""
    tries, weight, rumba_seat, turned, pos, size, jack_forced, state = deal_sample(
        deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, knocked, swapped_by, seed, index, scratch)
    if tries < 0:
        return -1, 0.0
    deck_work, hands2, ints, cards, us, _cond, forced, probs = scratch
    hands = hands2[0]
    words = ints[0]
    trump = trump_card >> 4
    stock = deck_work[pos:size]
    evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, hero, choices, passes, knocked, jack_forced,
                     rp, pol, us, policy, deck_mask, stock, size - pos, state, hands2, ints, cards, out, forced, probs)
    g_ints, payout, hand_scratch = game_scratch
    scores, streaks, won, changes, passed = g_ints[0], g_ints[1], g_ints[2], g_ints[3], g_ints[4]
    _pool, m_hands, m_ints, m_cards, _us, _forced = hand_scratch
    spoken_hands = hands2[3]
    spoken_words = ints[3]
    for slot in range(choices.shape[0]):
        choice = choices[slot]
        kinds[slot] = -1
        pays[slot] = 0.0
        wins[slot] = 0.0
        deals[slot] = 0
        for s in range(n):
            changes[s] = 0
            passed[s] = 0
        if choice == C_SKIP:
            continue
        kind = THROWN_IN  # the throw-in [D-4], his own or after he spoke
        if choice != C_THROW_IN:
            for s in range(n):
                spoken_hands[s] = hands[s]
                spoken_words[s] = words[s]
            final_rumba, table, void, _called, _prob = speak_rest(spoken_hands, n, hero, choice, spoken_words,
                                                                  rumba_seat, turned, trump_card, knocked,
                                                                  jack_forced, rp, pol, us, forced)
            if not void:
                discard_k = choice - C_PLAY if choice >= C_PLAY else 0
                kind = play_spoken(spoken_hands, n, spoken_words, final_rumba, table, trump, rp, pol, policy,
                                   deck_mask, stock, size - pos, state, m_hands, m_ints, m_cards, us, changes,
                                   passed, hero, discard_k)
        kinds[slot] = kind
        for s in range(n):
            changes_out[slot, s] = changes[s]
            passed_out[slot, s] = passed[s]
            scores[s] = scores0[s]
            streaks[s] = streaks0[s]
        dealer = apply_hand(scores, streaks, n - 1, kind, changes, passed, rp)  # seat n-1 deals this hand
        taken = 1
        if game_over(scores, gp):
            settle(scores, gp, won, payout)
        else:
            for s in range(n):
                g_ints[5, s] = scores[s]
                g_ints[6, s] = streaks[s]
            w_pol, sources, classes = work  # what ``work`` holds stays valid from game to game
            more = play_game_scored(deck, n, g_ints[5], g_ints[6], dealer, rp, gp, stack, knock_stack, fixed,
                                    fixed_knock, aware, policy, deck_mask, rest, index, max_hands, scores, streaks,
                                    won, payout, hand_scratch, g_ints[7], g_ints[8], w_pol, sources, classes,
                                    g_ints[:0], g_ints[:0], g_ints[0, :0])
            taken = more + 1 if more > 0 else more - 1
        winners = 0
        for s in range(n):
            winners += won[s]
        pays[slot] = payout[hero]
        wins[slot] = won[hero] / winners if winners > 0 else 0.0
        deals[slot] = taken
    return tries, weight


@njit(cache=True, parallel=True)
def choice_batch(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, gp, pol, plan, policy, passes, knocked,
                 swapped_by, choices, seed, deck, stack, knock_stack, fixed, fixed_knock, aware, scores0, streaks0,
                 rest, max_hands, start, count):
    """Samples ``start .. start+count-1``: ``ask_batch``'s (results, tries, weights), then per sample and choice the
    hand's kind, every seat's change and pass flag, the asking player's payout, win share and the game's deals."""
    k = choices.shape[0]
    results = np.zeros((count, k, OUT_FIELDS), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int32)
    weights = np.zeros(count, dtype=np.float64)
    kinds = np.zeros((count, k), dtype=np.int8)
    changes = np.zeros((count, k, n), dtype=np.int16)
    passed = np.zeros((count, k, n), dtype=np.int8)
    pays = np.zeros((count, k), dtype=np.float64)
    wins = np.zeros((count, k), dtype=np.float64)
    deals = np.zeros((count, k), dtype=np.int32)
    chunks = max(1, min(count, 256))
    for chunk in prange(chunks):
        out = np.zeros((k, OUT_FIELDS), dtype=np.int64)
        scratch = new_scratch(n, unknown.shape[0])
        game_scratch = new_game_scratch(n, deck.shape[0])
        work = new_work(n, stack)
        kind_row = np.zeros(k, dtype=np.int64)
        change_rows = np.zeros((k, n), dtype=np.int64)
        passed_rows = np.zeros((k, n), dtype=np.int64)
        pay_row = np.zeros(k, dtype=np.float64)
        win_row = np.zeros(k, dtype=np.float64)
        deal_row = np.zeros(k, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            t, w = choice_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, gp, pol, plan, policy,
                                 passes, knocked, swapped_by, choices, seed, start + i, deck, stack, knock_stack,
                                 fixed, fixed_knock, aware, scores0, streaks0, rest, max_hands, out, scratch,
                                 game_scratch, work, kind_row, change_rows, passed_rows, pay_row, win_row, deal_row)
            tries[i] = t
            weights[i] = w
            for c in range(k):
                for f in range(OUT_FIELDS):
                    results[i, c, f] = out[c, f]
                kinds[i, c] = kind_row[c]
                pays[i, c] = pay_row[c]
                wins[i, c] = win_row[c]
                deals[i, c] = deal_row[c]
                for s in range(n):
                    changes[i, c, s] = change_rows[c, s]
                    passed[i, c, s] = passed_rows[c, s]
    return results, tries, weights, kinds, changes, passed, pays, wins, deals


__all__ = ["choice_sample", "choice_batch", "rest_seed", "REST_SALT", "new_game_scratch"]
