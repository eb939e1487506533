"""Opponent policies as the kernels see them: probabilities by seat, context and hand score.

A :class:`Policy` is the array form of any opponent model (docs/SIMULATION.md
"Opponent policies"): the named threshold models of :mod:`.models` become
deterministic policies here, and solved (mixed) strategies are policies too,
so every command runs every kind of opponent through one engine. This module is
only the record and its constructors; which opponents a question names
("equilibrium", "default,3=bold", a TOML file) is resolved in :mod:`.resolve`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from ..cards import RANKS
from ..engine import policy as P
from ..engine.keep import keep_value_table  # the kernel's keep value, tabulated (one definition)


@dataclass(frozen=True, eq=False)
class Policy:
    """Kernel arrays of an opponent policy for one rule set and player count.

    Two policies are equal when they decide alike: same players and arrays (the digest of :meth:`to_dict`), whatever
    their names; so a policy can key a cache and a table is found again for the same opponents.
    """

    name: str
    players: int
    ints: np.ndarray  # int64[n, P_SIZE], per seat
    values: np.ndarray  # int64[n, 2, 16]: each seat's card score by (is trump, ranks below the top)
    words: np.ndarray  # float64[n, NCTX, NSCORE, 3]
    throws: np.ndarray  # float64[n, NCTX, NSCORE]
    exchanges: np.ndarray  # float64[n, NCTX, NSCORE, 6]
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        # One memory layout and dtype for every policy, however it was made: Numba compiles a kernel once per
        # argument type, and a fancy-indexed array ("A" layout: to_policy's throws) is another type than a
        # contiguous one ("C"), so a kernel used with both kinds of opponents compiled twice, on a user's first
        # answers as in the tests (tests/test_kernel_signatures.py).
        for name, dtype in (("ints", np.int64), ("values", np.int64), ("words", np.float64),
                            ("throws", np.float64), ("exchanges", np.float64)):
            object.__setattr__(self, name, np.ascontiguousarray(getattr(self, name), dtype=dtype))

    def as_tuple(self) -> tuple:
        return (self.ints, self.values, self.words, self.throws, self.exchanges)

    def to_dict(self) -> dict:
        """What identifies these opponents (tables are stamped with it): name, kind and a digest of the arrays."""
        digest = hashlib.sha256()
        for a in (self.ints, self.values, self.words, self.throws, self.exchanges):
            digest.update(np.ascontiguousarray(a).tobytes())
        return {"name": self.name, "kind": self.meta.get("kind"), "digest": digest.hexdigest()[:16]}

    def __eq__(self, other) -> bool:
        return isinstance(other, Policy) and self.players == other.players and \
            self.to_dict()["digest"] == other.to_dict()["digest"]

    def __hash__(self) -> int:
        return hash((self.players, self.to_dict()["digest"]))

    def to_data(self) -> dict:
        """Plain data (lists) to rebuild this policy with :meth:`from_data`: what travels with a table's spec."""
        return {"name": self.name, "players": self.players, "ints": self.ints.tolist(),
                "values": self.values.tolist(), "words": self.words.tolist(), "throws": self.throws.tolist(),
                "exchanges": self.exchanges.tolist(), "meta": self.meta}

    @classmethod
    def from_data(cls, data: dict) -> Policy:
        return cls(data["name"], int(data["players"]), np.asarray(data["ints"], dtype=np.int64),
                   np.asarray(data["values"], dtype=np.int64), np.asarray(data["words"], dtype=np.float64),
                   np.asarray(data["throws"], dtype=np.float64), np.asarray(data["exchanges"], dtype=np.float64),
                   dict(data.get("meta", {})))

    def swaps(self, seat: int) -> bool:
        """Does this seat swap the two of trump for the turned card [D-9]?"""
        return bool(self.ints[seat, P.P_SWAP])

    @property
    def deterministic(self) -> bool:
        """Every probability 0 or 1 (exact enumeration needs no decision numbers)."""
        arrays = [self.words, self.throws]
        if (self.ints[:, P.P_EXCHANGE_MODE] == P.EXCHANGE_BY_TABLE).any():
            arrays.append(self.exchanges)
        return all(bool(np.all((a == 0.0) | (a == 1.0))) for a in arrays)

    def card_score(self, card: int, trump: int, top: int, seat: int = 0) -> int:
        distance = top - card % 16
        if not 0 <= distance <= 15:
            return 0
        return int(self.values[seat, 1 if card // 16 == trump else 0, distance])

    def score(self, cards, trump: int, top: int, seat: int = 0) -> int:
        return min(sum(self.card_score(c, trump, top, seat) for c in cards), P.NSCORE - 1)

    def with_seat(self, seat: int, other: Policy) -> Policy:
        """This policy with seat ``seat`` playing ``other``'s policy (a mixed table)."""
        if other.players != self.players:
            raise ValueError(f"policy {other.name!r} is for {other.players} players, not {self.players}")
        arrays = [a.copy() for a in (self.ints, self.values, self.words, self.throws, self.exchanges)]
        for a, b in zip(arrays, (other.ints, other.values, other.words, other.throws, other.exchanges)):
            a[seat] = b[seat]
        arrays[0][:, P.P_CONTEXT_FREE] = int(bool(self.ints[0, P.P_CONTEXT_FREE] and other.ints[0, P.P_CONTEXT_FREE]
                                                  and np.array_equal(self.words, other.words)))
        return Policy(f"{self.name}+{seat}={other.name}", self.players, *arrays,
                      {**self.meta, "kind": "mixed", "seats": {**self.meta.get("seats", {}), str(seat): other.name},
                       "base": self.meta.get("base", self.name)})

    def with_values(self, seat: int, values: np.ndarray) -> Policy:
        """The same policy with seat ``seat`` scoring hands by ``values`` (the solver's traverser)."""
        all_values = self.values.copy()
        all_values[seat] = values
        return Policy(self.name, self.players, self.ints, all_values, self.words, self.throws, self.exchanges,
                      self.meta)


def named_policy(model, rules, players: int) -> Policy:
    """A threshold model (``models.OpponentModel``) as a deterministic policy, the same for every seat."""
    scores = np.arange(P.NSCORE)
    words = np.zeros((players, P.NCTX, P.NSCORE, 3))
    open_row = np.zeros((P.NSCORE, 3))
    open_row[scores >= model.rumba_points, P.W_RUMBA] = 1.0
    plays = (scores >= model.play_points) & (scores < model.rumba_points)
    open_row[plays, P.W_PLAY] = 1.0
    open_row[(scores < model.play_points) & (scores < model.rumba_points), P.W_PASS] = 1.0

    def join_row(threshold: int) -> np.ndarray:
        row = np.zeros((P.NSCORE, 3))
        row[scores >= threshold, P.W_PLAY] = 1.0
        row[scores < threshold, P.W_PASS] = 1.0
        return row

    round1 = np.zeros((P.NSCORE, 3))
    round1[scores >= model.rumba_points, P.W_RUMBA] = 1.0
    round1[scores < model.rumba_points, P.W_PASS] = 1.0
    for ctx in range(P.CTX_OPEN, P.CTX_RUMBA):
        words[:, ctx] = open_row
    for ctx in range(P.CTX_RUMBA, P.CTX_KNOCK):
        words[:, ctx] = join_row(model.join_points)
    for ctx in range(P.CTX_KNOCK, P.CTX_ROUND1):
        words[:, ctx] = join_row(model.join_knock_points)
    words[:, P.CTX_ROUND1] = round1
    throws = np.full((players, P.NCTX, P.NSCORE), 1.0 if model.throw_in else 0.0)
    ints = np.zeros((players, P.P_SIZE), dtype=np.int64)
    ints[:, P.P_EXCHANGE_MODE] = P.EXCHANGE_BY_KEEP
    ints[:, P.P_DISCARD_BELOW] = model.discard_below
    ints[:, P.P_SWAP] = int(model.swap_two)
    ints[:, P.P_CONTEXT_FREE] = 1
    exchanges = np.zeros((players, P.NCTX, P.NSCORE, 6))
    exchanges[..., 0] = 1.0
    values = np.repeat(keep_value_table()[None], players, axis=0)
    return Policy(model.name, players, ints, values, words, throws, exchanges,
                  {"kind": "thresholds", "model": model.to_dict(), "top": RANKS.index(rules.ranks[-1])})


def scripted_policy(players: int, words: list[str], discards: list[int], swap_two: bool = True,
                    name: str = "scripted") -> Policy:
    """Every seat says its given word (pass, play, rumba or throw-in) whatever its cards, and exchanges its given
    number of cards: the golden whole hands (tests/golden/) replay through the engine with this."""
    table = np.zeros((players, P.NCTX, P.NSCORE, 3))
    throws = np.zeros((players, P.NCTX, P.NSCORE))
    exchanges = np.zeros((players, P.NCTX, P.NSCORE, 6))
    codes = {"pass": P.W_PASS, "play": P.W_PLAY, "rumba": P.W_RUMBA, "throw-in": P.W_PASS}
    for s, word in enumerate(words):
        table[s, :, :, codes[word]] = 1.0
        throws[s] = 1.0 if word == "throw-in" else 0.0
        exchanges[s, ..., discards[s]] = 1.0
    ints = np.zeros((players, P.P_SIZE), dtype=np.int64)
    ints[:, P.P_EXCHANGE_MODE] = P.EXCHANGE_BY_TABLE
    ints[:, P.P_SWAP] = int(swap_two)
    values = np.repeat(keep_value_table()[None], players, axis=0)
    return Policy(name, players, ints, values, table, throws, exchanges, {"kind": "scripted"})


__all__ = ["Policy", "named_policy", "scripted_policy", "keep_value_table"]
