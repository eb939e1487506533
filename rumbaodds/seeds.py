"""A run's seed: the one given, or a fresh one drawn (and printed by the caller), always in the kernels' range.

Every command that simulates takes ``--seed``; the kernels' streams
(``engine/rng.py``) take a non-negative 63-bit integer, so that is the one
range checked here, for Rumba and rummy alike.
"""

from __future__ import annotations

import secrets

from .limits import SEED, LimitError
from .rules import RulesError


def check_seed(seed: int | None) -> int:
    """``seed`` as an int in the stream's range (``limits.SEED``), or a fresh random one when it is None; else a
    one-line RulesError, as the command line's own check says it."""
    if seed is None:
        return secrets.randbits(63)
    try:
        return SEED.parse(seed, "--seed")
    except LimitError as exc:
        raise RulesError(str(exc)) from None


__all__ = ["check_seed"]
