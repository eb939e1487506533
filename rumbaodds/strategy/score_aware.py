"""Score-aware strategies on disk and as tables of the game kernel (issue 38).

A score-aware strategy is one per-hand strategy per score class
(``score_classes.py``), stacked: its ``word`` and ``throw`` arrays have
``CLASSES * players`` rows (row ``c * players + s``: seat ``s`` in class
``c``) and its ``knock`` ``CLASSES * 16`` entries (the dealer's class, the
rank of the card turned). It is stored as a per-hand strategy is
(``store.py``), named ``RULES-Np-score.npz``, with the same abstraction as
the per-hand equilibrium it started from. :class:`GameTable` says how each
player of a game decides: by that strategy (he sees the score) or by a fixed
policy of the hand alone (the per-hand equilibrium, a style).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import policy as P
from ..opponents.policies import Policy
from ..opponents.resolve import HAND_EQUILIBRIUM
from ..rules import RulesError, RuleSet
from . import store
from .score_classes import CLASSES
from .tables import Strategy, to_policy

SHARE_HANDS = 200_000  # random hands behind the shares of hands in each strength bucket
SHARE_SEED = 38


def file_name(rules: RuleSet, players: int) -> str:
    return f"{store.rules_key(rules)}-{players}p-score.npz"


def default_path(rules: RuleSet, players: int):
    return store.default_path(rules, players).with_name(file_name(rules, players))


def find_score(rules: RuleSet, players: int) -> store.Solved | None:
    """The score-aware strategy of these rules and players (shipped, else cached), or None where none is solved."""
    for folder in (store.SHIPPED, store.cache_folder()):
        path = folder / file_name(rules, players)
        if path.exists():
            solved = store.load(path)
            if solved.rules.to_dict() | {"name": "", "description": ""} == \
                    rules.to_dict() | {"name": "", "description": ""}:
                return solved
    return None


def class_rows(strategy: Strategy, players: int, c: int) -> Strategy:
    """The per-hand strategy of score class ``c``."""
    return Strategy(strategy.word[c * players:(c + 1) * players], strategy.throw[c * players:(c + 1) * players],
                    strategy.knock[c * 16:(c + 1) * 16])


def stack_arrays(solved: store.Solved) -> tuple[tuple, np.ndarray]:
    """The kernel's stack (ints, values, words[C], throws[C], exchanges[C]) and the knock by class [C, 16]."""
    n = solved.players
    pol = to_policy(solved.strategy, solved.abstraction)  # CLASSES * n rows
    shape = (CLASSES, n)
    stack = (np.ascontiguousarray(pol.ints[:n]), np.ascontiguousarray(pol.values[:n]),
             np.ascontiguousarray(pol.words.reshape(shape + pol.words.shape[1:])),
             np.ascontiguousarray(pol.throws.reshape(shape + pol.throws.shape[1:])),
             np.ascontiguousarray(pol.exchanges.reshape(shape + pol.exchanges.shape[1:])))
    return stack, np.ascontiguousarray(solved.strategy.knock.reshape(CLASSES, 16))


def bucket_shares(rules: RuleSet, solved: store.Solved, hands: int = SHARE_HANDS, seed: int = SHARE_SEED) -> np.ndarray:
    """The share of random hands in each strength bucket of ``solved``'s abstraction (trump suit random)."""
    rng = np.random.default_rng(seed)
    deck = np.array(rules.deck, dtype=np.int64)
    top = int(max(c % 16 for c in rules.deck))
    values = solved.abstraction.value_array()
    picks = np.argsort(rng.random((hands, len(deck))), axis=1)[:, :rules.hand_size]
    cards = deck[picks]
    trump = rng.integers(0, 4, size=hands)
    distance = top - cards % 16
    is_trump = (cards // 16 == trump[:, None]).astype(np.int64)
    ok = (distance >= 0) & (distance <= 15)
    score = np.where(ok, values[is_trump, np.clip(distance, 0, 15)], 0).sum(axis=1)
    bucket = solved.abstraction.bucket_array()[np.minimum(score, P.NSCORE - 1)]
    return np.bincount(bucket, minlength=solved.abstraction.buckets) / hands


def join_rates(solved: store.Solved, base: store.Solved, classes, shares: np.ndarray) -> list[tuple[float, float]]:
    """Per seat: (P(he joins a Rumba called before him, nobody in yet) with a random hand by the score-aware
    strategy of his class, the same by the per-hand equilibrium). What ``ask --scores`` says of the opponents."""
    from .game import A_PASS  # strategy.game plays hands with match's kernel, which imports this module

    n = solved.players
    out = []
    for s, c in enumerate(classes):
        aware = class_rows(solved.strategy, n, int(c)).word[s, P.CTX_RUMBA]
        blind = base.strategy.word[s, P.CTX_RUMBA]
        out.append((float(shares @ (1.0 - aware[:, A_PASS])), float(shares @ (1.0 - blind[:, A_PASS]))))
    return out


@dataclass
class GameTable:
    """How every player of a game decides (players clockwise), in the scored game kernel's arrays."""

    names: list[str]  # per player: equilibrium (score-aware), hand-equilibrium, or a style
    aware: np.ndarray  # int64[players]: 0 = by the score-aware stack, else 1 + the number of his fixed policy
    stack: tuple
    knock_stack: np.ndarray
    fixed: tuple  # per player, per seat: (ints, values, words, throws, exchanges)
    fixed_knock: np.ndarray  # [players, 16]

    @property
    def sees_score(self) -> list[bool]:
        return [bool(a == 0) for a in self.aware]


def game_table(rules: RuleSet, players: int, per_player: list[tuple[str, Policy, np.ndarray]],
               solved: store.Solved | None) -> GameTable:
    """A table from each player's (name, fixed policy or None for score-aware, knock by rank)."""
    if solved is None and any(pol is None for _name, pol, _k in per_player):
        raise RulesError(f"no score-aware strategy for rule set {rules.name!r} at {players} players")
    template = next((pol for _n, pol, _k in per_player if pol is not None), None)
    if solved is not None:
        stack, knock_stack = stack_arrays(solved)
    else:  # nobody sees the score: an empty stack of one class the kernel never reads
        stack = tuple(np.ascontiguousarray(a[None]) if i >= 2 else a for i, a in enumerate(template.as_tuple()))
        knock_stack = np.zeros((1, 16))
    if template is None:  # everybody sees the score: fixed rows the kernel never reads
        template = Policy("unused", players, stack[0], stack[1], stack[2][0], stack[3][0], stack[4][0])
    fixed = [[], [], [], [], []]
    knocks = np.zeros((players, 16))
    for p, (_name, pol, knock) in enumerate(per_player):
        arrays = (pol or template).as_tuple()
        for i, a in enumerate(arrays):
            fixed[i].append(a)
        knocks[p] = knock if pol is not None else 0.0
    fixed = tuple(np.ascontiguousarray(np.stack(f)) for f in fixed)
    ids: list = []  # distinct fixed policies (equal arrays: one number)
    aware = np.zeros(players, dtype=np.int64)
    for p, (_name, pol, _k) in enumerate(per_player):
        if pol is not None:
            if pol not in ids:
                ids.append(pol)
            aware[p] = 1 + ids.index(pol)
    return GameTable([name for name, _p, _k in per_player], aware, stack, knock_stack, fixed, knocks)


__all__ = ["bucket_shares", "join_rates", "HAND_EQUILIBRIUM", "find_score", "stack_arrays", "GameTable", "game_table",
           "file_name", "default_path", "class_rows"]
