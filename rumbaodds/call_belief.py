"""What a Rumba call says of the caller's hand, for the worlds of PIMC's defenders (engine/pimc.py
``believed_world``; docs/SIMULATION.md ``pimc``).

A defender who heard seat ``s`` call Rumba keeps a sampled world with the probability that the caller's hand in it
calls, under the opponents' strategy: his probability of calling by hand score (the first word of his seat with
nobody having played before him) and the card values that score his hand.
"""

from __future__ import annotations

import numpy as np

from .engine.policy import CTX_OPEN, W_RUMBA
from .opponents import opponent_policy
from .rules import RulesError, RuleSet


def call_belief(rules: RuleSet, players: int, seat: int, opponents="equilibrium") -> tuple:
    """(P(seat calls Rumba) by hand score, his card values, the deck's top rank): engine/pimc.py's ``belief``."""
    if not 0 <= seat < players:
        raise RulesError(f"seat {seat} does not exist with {players} players (0..{players - 1})")
    policy = opponent_policy(opponents, rules, players)
    top = max(c & 15 for c in rules.deck)
    return (np.ascontiguousarray(policy.words[seat, CTX_OPEN, :, W_RUMBA], dtype=np.float64),
            np.ascontiguousarray(policy.values[seat], dtype=np.int64), top)


__all__ = ["call_belief"]
