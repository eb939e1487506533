"""A strategy as arrays, and the same strategy as the opponents' policy of the engine.

A strategy gives every seat, for every (context, bucket of the strength
index), a probability of each action: pass, Rumba, play with 0..K discards
(``word``); of throwing in where his hand may be thrown in (``throw``); and
the swiss dealer's probability of knocking blind on each rank of the card
turned (``knock``). The two of trump is always swapped (it can only improve
the hand). :func:`to_policy` expands a strategy to the kernel's layout (per
hand score), so ``ask``, ``knock`` and tables play against it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import policy as P
from ..opponents.policies import Policy
from ..rules import RuleSet
from .abstraction import Abstraction
from .game import A_PASS, A_PLAY, A_RUMBA


def action_count(rules: RuleSet) -> int:
    """Actions of a word information set plus the throw-in column: pass, Rumba, play0..K, throw-in."""
    return A_PLAY + rules.exchange_limit + 2


@dataclass
class Strategy:
    """Probabilities by seat, context and bucket (see the module docstring)."""

    word: np.ndarray  # [n, NCTX, buckets, 2 + K + 1]
    throw: np.ndarray  # [n, NCTX, buckets]
    knock: np.ndarray  # [16] by rank of the card turned

    @classmethod
    def uniform(cls, rules: RuleSet, players: int, buckets: int) -> Strategy:
        k = rules.exchange_limit
        word = np.zeros((players, P.NCTX, buckets, A_PLAY + k + 1))
        word[:, P.CTX_OPEN:P.CTX_RUMBA] = 1.0 / word.shape[-1]
        word[:, P.CTX_RUMBA:, :, A_PASS] = 0.5  # joining: pass or play, no exchange, no Rumba
        word[:, P.CTX_RUMBA:, :, A_PLAY] = 0.5
        throw = np.full((players, P.NCTX, buckets), 0.5)
        knock = np.full(16, 0.5 if rules.knock else 0.0)
        return cls(word, throw, knock)

    @property
    def players(self) -> int:
        return self.word.shape[0]


def to_policy(strategy: Strategy, abstraction: Abstraction, name: str = "equilibrium", meta: dict | None = None,
              ) -> Policy:
    """The strategy in the kernel's policy layout (every hand score takes its bucket's row)."""
    n = strategy.players
    bucket = abstraction.bucket_array()
    word = strategy.word[:, :, bucket, :]  # [n, NCTX, NSCORE, actions]
    plays = word[..., A_PLAY:]
    play_total = plays.sum(axis=-1)
    words = np.zeros((n, P.NCTX, P.NSCORE, 3))
    words[..., P.W_PASS] = word[..., A_PASS]
    words[..., P.W_PLAY] = play_total
    words[..., P.W_RUMBA] = word[..., A_RUMBA]
    exchanges = np.zeros((n, P.NCTX, P.NSCORE, 6))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(play_total[..., None] > 0, plays / play_total[..., None], 0.0)
    exchanges[..., :plays.shape[-1]] = share
    exchanges[..., 0] += np.where(play_total > 0, 0.0, 1.0)
    throws = strategy.throw[:, :, bucket]
    ints = np.zeros((n, P.P_SIZE), dtype=np.int64)
    ints[:, P.P_EXCHANGE_MODE] = P.EXCHANGE_BY_TABLE
    ints[:, P.P_SWAP] = 1
    ints[:, P.P_CONTEXT_FREE] = 0
    values = np.repeat(abstraction.value_array()[None], n, axis=0)
    return Policy(name, n, ints, values, words, throws, exchanges,
                  {"kind": "strategy", **(meta or {})})


__all__ = ["Strategy", "to_policy", "action_count"]
