"""What a Rumba call says of the caller's hand, for the worlds of PIMC's defenders (engine/pimc.py
``believed_world``; docs/SIMULATION.md ``pimc``).

A defender who heard seat ``s`` call Rumba keeps a sampled world with the probability that the caller's hand in it
calls, under the opponents' strategy: his probability of calling by hand score (in the context he spoke in:
how many seats before him said play) and the card values that score his hand.
"""

from __future__ import annotations

import numpy as np

from ..engine.policy import CTX_OPEN, CTX_ROUND1, W_RUMBA
from ..rules import RulesError, RuleSet
from .resolve import opponent_policy


def call_belief(rules: RuleSet, players: int, seat: int, opponents="equilibrium", earlier_players: int = 0) -> tuple:
    """(P(seat calls Rumba) by hand score, his card values, the deck's top rank): engine/pimc.py's ``belief``.

    ``earlier_players``: how many seats before him said play (his context; rumba-first: none, round one). Pass
    allowed (not a turned jack that forces play): ``ask --play pimc`` computes the same in the kernel
    (engine/searched_play.py ``call_probabilities``), and tests compare the two."""
    if not 0 <= seat < players:
        raise RulesError(f"seat {seat} does not exist with {players} players (0..{players - 1})")
    policy = opponent_policy(opponents, rules, players)
    top = max(c & 15 for c in rules.deck)
    ctx = CTX_ROUND1 if rules.speaking_order == "rumba-first" else CTX_OPEN + min(earlier_players, 3)
    row = np.asarray(policy.words[seat, ctx], dtype=np.float64)
    total = row[:, 0] + row[:, 1] + row[:, 2]  # engine/policy.py masked_row's sum, in its order
    probs = np.where(total > 0, row[:, W_RUMBA] / np.where(total > 0, total, 1.0), 0.0)
    return (np.ascontiguousarray(probs), np.ascontiguousarray(policy.values[seat], dtype=np.int64), top)


__all__ = ["call_belief"]
