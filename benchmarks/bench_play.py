"""Is `expert` card play stronger than `greedy`? Same deals, four pairings of Rumba player and defenders."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from rumbaodds.engine import hand as kernel
from rumbaodds.engine.rng import deal_one
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.stats import Estimate

from .common import print_table

PAIRINGS = (
    ("greedy vs greedy", kernel.POLICY_GREEDY),
    ("expert vs greedy", kernel.POLICY_EXPERT_RUMBA),
    ("greedy vs expert", kernel.POLICY_EXPERT_DEFENCE),
    ("expert vs expert", kernel.POLICY_EXPERT),
)


@njit(cache=True, parallel=True)
def rumba_tricks(deck_template, players, rp, min_points, policies, seed, count):
    """Random deals where seat 0 has Rumba points; everybody plays; seat 0 leads. Tricks of seat 0 per policy."""
    hand_size = rp[kernel.R_HAND]
    out = np.full((count, policies.shape[0]), -1, dtype=np.int64)
    chunks = max(1, min(count, 256))
    deck_mask = np.uint64(0)
    for c in deck_template:
        deck_mask |= np.uint64(1) << np.uint64(c)
    for chunk in prange(chunks):
        deck = np.empty_like(deck_template)
        hands = np.zeros(players, dtype=np.uint64)
        play = np.zeros(players, dtype=np.uint64)
        tricks = np.zeros(players, dtype=np.int64)
        for i in range(chunk * count // chunks, (chunk + 1) * count // chunks):
            trump_card, _ = deal_one(deck_template, players, hand_size, seed, i, deck, hands)
            trump = trump_card >> 4
            if kernel.hand_points(hands[0], trump, rp[kernel.R_TOP_RANK]) < min_points:
                continue
            for p in range(policies.shape[0]):
                play[:] = hands
                tricks[:] = 0
                kernel.play_tricks(play, players, 0, trump, rp[kernel.R_FOLLOW], policies[p], 0, deck_mask,
                                   np.uint64(1) << np.uint64(trump_card), tricks, rp[kernel.R_MIN_TRICKS])
                out[i, p] = tricks[0]
    return out


def run(quick: bool = False) -> list[dict]:
    count = 20_000 if quick else 4_000_000
    rows = []
    policies = np.array([code for _, code in PAIRINGS], dtype=np.int64)
    for rules, players in ((SWISS, 5), (FLEMISH, 4)):
        rp = kernel.rules_array(rules)
        tricks = rumba_tricks(rules.deck_array(), players, rp, 14, policies, 11, count)
        tricks = tricks[tricks[:, 0] >= 0]
        made = (tricks >= rules.rumba_min_tricks).astype(np.float64)
        base = made[:, 0]
        for (label, _), column in zip(PAIRINGS, made.T, strict=True):
            share = Estimate.of_mean(column)
            diff = Estimate.of_mean(column - base)
            rows.append({
                "rules": f"{rules.name} {players}p", "rumba player vs defenders": label, "deals": share.samples,
                "rumbas_made": f"{share.mean:.4f}",
                "vs greedy/greedy": f"{diff.mean:+.4f} [{diff.low:+.4f}, {diff.high:+.4f}]",
            })
    return rows


def main(quick: bool = False) -> None:
    print_table("play strength: share of Rumbas made (3+ tricks) on the same deals, seat 0 holding 14+ hand points, "
                "everybody in, Rumba player leads", run(quick))


if __name__ == "__main__":
    main()
