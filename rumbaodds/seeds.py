"""A run's seed: the one given, or a fresh one drawn (and printed by the caller), always in the kernels' range.

Every command that simulates takes ``--seed``; the kernels' streams
(``engine/rng.py``) take a non-negative 63-bit integer, so that is the one
range checked here, for Rumba and rummy alike.
"""

from __future__ import annotations

import secrets

from .rules import RulesError

SEED_LIMIT = 2**63  # seeds are 0..2**63-1


def check_seed(seed: int | None) -> int:
    """``seed`` as an int in 0..2**63-1, or a fresh random one when it is None; else a one-line RulesError."""
    if seed is None:
        return secrets.randbits(63)
    if not 0 <= int(seed) < SEED_LIMIT:
        raise RulesError(f"--seed must be in 0..2**63-1, got {seed}")
    return int(seed)


__all__ = ["SEED_LIMIT", "check_seed"]
