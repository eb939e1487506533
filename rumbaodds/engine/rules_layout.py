"""A RuleSet in kernel form: one int64 array, indexed by the R_* constants."""

import numpy as np

from ..cards import RANKS

(R_FOLLOW, R_HAND, R_EXCHANGE, R_PUT_AWAY, R_KNOCK, R_THROW_IN, R_THROW_BELOW, R_JACK_FORCES, R_TWO_SWAP,
 R_RUMBA_LEAD_FIRST, R_MUST_PLAY, R_LONE_RUMBA_OK, R_LONE_RUMBA_SCORE, R_LONE_PLAYER, R_MIN_TRICKS,
 R_WIN_PER_TRICK, R_WIN_FLAT, R_FAIL, R_NORMAL_PER_TRICK, R_NORMAL_NO_TRICK, R_RUMBA_PER_TRICK,
 R_RUMBA_NO_TRICK, R_SIT_LIMIT, R_SIT_PENALTY, R_RUMBA_FIRST, R_TOP_RANK, R_SIT_REPEATS, R_VOID_PASS,
 R_THROW_AFTER_RUMBA, R_NORMAL_LEAD_FIRST, R_SIZE) = range(31)


def rules_array(rules) -> np.ndarray:
    """Kernel layout of a RuleSet (R_* indices)."""
    values = {
        R_FOLLOW: rules.follow_code,
        R_HAND: rules.hand_size,
        R_EXCHANGE: rules.exchange_limit,
        R_PUT_AWAY: rules.passer_cards == "put-away",
        R_KNOCK: rules.knock,
        R_THROW_IN: rules.throw_in,
        R_THROW_BELOW: RANKS.index(rules.throw_in_below),
        R_JACK_FORCES: rules.jack_of_trump_forces_play,
        R_TWO_SWAP: rules.two_of_trump_swap,
        R_RUMBA_LEAD_FIRST: rules.rumba_lead == "first-after-dealer",
        R_MUST_PLAY: rules.others_after_rumba == "must-play",
        R_LONE_RUMBA_OK: rules.lone_rumba_allowed,
        R_LONE_RUMBA_SCORE: rules.lone_rumba_score,
        R_LONE_PLAYER: rules.lone_player_score,
        R_MIN_TRICKS: rules.rumba_min_tricks,
        R_WIN_PER_TRICK: rules.rumba_success_per_trick,
        R_WIN_FLAT: rules.rumba_success_flat,
        R_FAIL: rules.rumba_fail_score,
        R_NORMAL_PER_TRICK: rules.normal_per_trick,
        R_NORMAL_NO_TRICK: rules.normal_no_trick,
        R_RUMBA_PER_TRICK: rules.rumba_others_per_trick,
        R_RUMBA_NO_TRICK: rules.rumba_others_no_trick,
        R_SIT_LIMIT: rules.sit_out_limit,
        R_SIT_PENALTY: rules.sit_out_penalty,
        R_RUMBA_FIRST: rules.speaking_order == "rumba-first",
        R_TOP_RANK: RANKS.index(rules.ranks[-1]),
        R_SIT_REPEATS: rules.sit_out_repeats,
        R_VOID_PASS: rules.void_counts_as_pass,
        R_THROW_AFTER_RUMBA: rules.throw_in_after_rumba,
        R_NORMAL_LEAD_FIRST: rules.normal_lead == "first-after-dealer",
    }
    out = np.zeros(R_SIZE, dtype=np.int64)
    for key, value in values.items():
        out[key] = int(value)
    return out
