"""One given deal through the whole-hand kernel, as one seat sees it: the golden-hand replay.

``ask_sample`` draws its deal; here the deal is given (every hand, the stock
in order, the passers' pile), the words come from a scripted policy, and the
kernel's own speaking, exchange, lead, card play and scoring do the rest, so
tests can check hands worked out by hand from the rule book (tests/golden/).
The swiss passers' pile is given in order: it is replayed as a stock that
already holds it (``passer_cards = put-away`` with the pile appended).
"""

import numpy as np
from numba import njit

from .hand import OUT_FIELDS, VOID, evaluate_choices, finish_hand, new_scratch, rename_side_suits
from .policy import W_NONE
from .rules_layout import R_JACK_FORCES
from .speak import JACK, hero_swaps_two, speak_seats, two_of


@njit(cache=True)
def replay_seat(deck_mask, hands_in, stock, trump_card, n, hero, choice, knocked, rp, pol, policy, passes):
    """(score, tricks or code, contested, caller) of seat ``hero`` choosing ``choice`` on this deal."""
    scratch = new_scratch(n, stock.shape[0] + 1)
    deck, hands2, ints, cards, us, cond, forced, probs = scratch
    us[:] = 0.5  # the scripted policy is deterministic
    hands = hands2[0]
    words = ints[0]
    for s in range(n):
        hands[s] = hands_in[s]
        words[s] = W_NONE
    out = np.zeros((1, OUT_FIELDS), dtype=np.int64)
    trump = trump_card >> 4
    jack_forced = rp[R_JACK_FORCES] == 1 and (trump_card & 15) == JACK
    perm = np.arange(4)
    turned = rename_side_suits(hands, n, stock[:0], perm, knocked, trump_card, trump_card)  # the knocker's take
    table_mask = np.uint64(1) << np.uint64(turned) if turned >= 0 else np.uint64(0)
    state = np.uint64(0)
    if knocked and hero == n - 1:  # the knocking dealer himself
        speak_seats(hands, n, 0, n, -1, -1, words, n - 1, trump_card, trump_card, True, jack_forced, rp, pol, us,
                    forced)
        finish_hand(hands, n, words, n - 1, hero, 0, passes, trump, table_mask, rp, pol, us, policy, deck_mask, stock,
                    stock.shape[0], state, hands2[2], ints[2], cards, out, 0, True, jack_forced,
                    trump_card)
        return out[0]
    rumba_seat, turned, void, _p = speak_seats(hands, n, 0, hero, -1, -1, words, n - 1 if knocked else -1, turned,
                                               trump_card, knocked, jack_forced, rp, pol, us, forced)
    if void:  # an earlier seat threw in [D-4]
        out[0, 1] = VOID
        return out[0]
    own = hands[hero]
    hands[hero] = hero_swaps_two(own, turned, trump_card, knocked, rp)
    if hands[hero] != own:
        turned = two_of(trump)
    choices = np.array([choice], dtype=np.int64)
    evaluate_choices(hands, words, rumba_seat, turned, trump_card, n, hero, choices, passes, knocked, jack_forced, rp,
                     pol, us, policy, deck_mask, stock, stock.shape[0], state, hands2, ints, cards, out, forced, probs)
    return out[0]


__all__ = ["replay_seat"]
