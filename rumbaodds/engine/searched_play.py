"""PIMC as the card play of a whole simulated hand (``ask --play pimc``; docs/SIMULATION.md ``pimc``).

Every active player plays by search (engine/pimc.py ``play_deal``: K worlds a decision, each valued by the
mid-trick double-dummy search). A whole hand by search costs some hundreds of fast ones (``ask`` runs about 430
deals a second on two cores), so it is the yardstick a player can ask for, not an engine of tables. The CPU only:
the GPU engine compiles the hand without it, and ``analysis`` refuses ``--device gpu`` with it.
"""

import numpy as np
from numba import njit
from numba.extending import overload

from .bits import U0, bit, lowest_card
from .condition import seat_context
from .distilled_weights import WEIGHTS
from .pimc import DEFAULT_WORLDS, SEAT_PIMC, new_tables, play_deal
from .policy import NSCORE, W_RUMBA, masked_row
from .rules_layout import (
    R_FAIL,
    R_MIN_TRICKS,
    R_NORMAL_NO_TRICK,
    R_NORMAL_PER_TRICK,
    R_TOP_RANK,
    R_WIN_FLAT,
    R_WIN_PER_TRICK,
)

POLICY_PIMC = 5  # engine/play.py's policy codes go up to 4
# the searched play as a kernel argument: a type of its own (a tuple, not an int), so that the kernels compiled for
# the fast plays (an int policy) never compile the search (engine/hand.py ``play_active``; issue 37: the search was
# two thirds of a cold ``ask``'s compile, for a play the question never used)
SEARCHED = (POLICY_PIMC,)
STATS = 2  # what a searched hand adds to its counters: decisions with a choice, worlds those used


def searched_tricks(in_play, m, lead, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need, rp, state,
                    counters, at, pol, words, rumba_seat, knocked, jack_forced, trump_card):
    """Play ``in_play[:m]`` (the active seats in seat order, ``lead`` leads) by PIMC for everybody; add the tricks
    of each to ``tricks``, and the decisions with a choice and the worlds they used to ``counters[at]`` and
    ``counters[at + 1]``. The worlds come from the deal's own stream ``state``, so every choice of one deal
    meets the same worlds' randomness and ``--seed`` repeats them. In a Rumba the defenders' worlds believe the
    call of seat ``rumba_seat`` as the opponents' policy ``pol`` makes it after the earlier ``words``
    (:func:`call_probabilities`; engine/pimc.py ``believed_world``). The turned ``trump_card`` is where everybody
    knows it is: on the table (``table_mask``), or in the hand of the seat that took it, a knocking dealer [D-3] or
    the swapper of the two [D-9] (-1: not known here). In compiled code only."""
    raise NotImplementedError("compiled code only")


@njit(cache=True)
def call_probabilities(pol, words, rumba_seat, knocked, jack_forced, rp, believed):
    """``believed[score]``: the probability that seat ``rumba_seat`` calls Rumba with a hand of that score, at his
    turn (the earlier seats' ``words``, no Rumba before his), under the opponents' policy ``pol``: what a defender
    who hears the call believes of the caller's hand (issue 17: a Rumba caller's hand is drawn from the hands that
    call Rumba under the opponents' strategy). The throw-in a weak hand might have taken is left out: hands that
    may be thrown in all but never call. A knock is blind [D-3]: it says nothing, every score 1."""
    if knocked or rumba_seat < 0:
        believed[:] = 1.0
        return
    n = words.shape[0]
    ctx, pass_ok, _rumba_ok, _throw_ok = seat_context(rumba_seat, n, words, -1, False, jack_forced, rp)
    for score in range(NSCORE):
        believed[score] = masked_row(pol[2], rumba_seat, ctx, score, pass_ok, True)[W_RUMBA]


@njit(cache=True)
def utilities(rp):
    """(the Rumba caller's, a normal player's) utility of his tricks 0..5 from the rules array: minus his score
    change (pimc.utility_tables from a RuleSet; tests compare the two)."""
    caller = np.empty(6, dtype=np.int64)
    normal = np.empty(6, dtype=np.int64)
    for t in range(6):
        caller[t] = -(rp[R_WIN_FLAT] + rp[R_WIN_PER_TRICK] * t) if t >= rp[R_MIN_TRICKS] else -rp[R_FAIL]
        normal[t] = -(rp[R_NORMAL_PER_TRICK] * t) if t >= 1 else -rp[R_NORMAL_NO_TRICK]
    return caller, normal


@overload(searched_tricks, target="cpu")
def _searched_tricks_cpu(in_play, m, lead, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need, rp, state,
                         counters, at, pol, words, rumba_seat, knocked, jack_forced, trump_card):
    def on_the_cpu(in_play, m, lead, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need, rp, state,
                   counters, at, pol, words, rumba_seat, knocked, jack_forced, trump_card):
        hands = in_play[:m].copy()
        seats = np.full(m, SEAT_PIMC, dtype=np.int64)
        util_caller, util_normal = utilities(rp)
        turned = lowest_card(table_mask) if table_mask != U0 else -1
        public = bit(trump_card) & ~table_mask if trump_card >= 0 else U0  # taken by a seat: known where
        made = np.zeros(STATS, dtype=np.int64)
        believed = np.empty(NSCORE, dtype=np.float64)
        call_probabilities(pol, words, rumba_seat, knocked, jack_forced, rp, believed)
        # the weights and worlds typed as a caller from Python gives them (pimc.play_batch, `deals play`), not as
        # a frozen constant (a read-only array, a literal 32): Numba then compiles play_deal once for both, not a
        # second minute for whichever comes second
        play_deal(hands, lead, trump, follow, deck_mask, turned, rumba_idx, seats, util_caller, util_normal, need,
                  WEIGHTS.copy(), np.int64(DEFAULT_WORLDS), state, np.uint64(0), tricks, new_tables(), made, None,
                  (believed, pol[1][max(rumba_seat, 0)], rp[R_TOP_RANK]), public)
        counters[at] += made[0]
        counters[at + 1] += made[1]
    return on_the_cpu


__all__ = ["POLICY_PIMC", "SEARCHED", "STATS", "call_probabilities", "searched_tricks", "utilities"]
