"""What the asking player saw of the earlier seats, as a plan for the conditioned deal.

The kernel (``engine/condition.py``) deals the earlier seats one by one and
accepts their hands by the words the hero heard. This module decides, once
per question, how each earlier seat is drawn (docs/SIMULATION.md step 2):

- by rejection (*easy*) where a random hand of the cards left says his words
  often, or exactly from the conditional distribution (*hard*) with the
  importance weight it needs where that is rare; either way the answer is
  exact, only the speed differs;
- *stretched* where the opponent model would never say his words with any
  hand left to that seat (the hero holds the cards the model needs): then the
  hands that come closest to saying them are used, each point of hand score
  further away e times less likely, and the result says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..cards import RANKS, card_id, format_card
from ..engine import condition as K
from ..engine import policy as P
from ..rules import RulesError, RuleSet
from .situation import WORD_NAMES

HARD_BELOW = K.HARD_BELOW
EASY_PRODUCT = 0.05  # rejection must accept at least this share of tries


@dataclass(frozen=True)
class Plan:
    """Per earlier seat: the word heard, drawn exactly or by rejection, stretched; the card nobody earlier holds."""

    words: np.ndarray  # int64[n]
    hard: np.ndarray  # int64[n]
    stretched: np.ndarray  # int64[n]
    stretch: np.ndarray  # float64[n, NSCORE]
    excluded: np.ndarray  # int64[n]: per seat, the two of trump when he would have swapped it, else -1
    base_z: tuple[float, ...]  # P(a random hand of the cards left says his words), per earlier seat

    def as_tuple(self) -> tuple:
        return (self.words, self.hard, self.stretched, self.stretch, self.excluded)

    @property
    def stretched_seats(self) -> tuple[int, ...]:
        return tuple(int(s) for s in np.flatnonzero(self.stretched))

    def describe(self) -> list[str]:
        notes = []
        for s in self.stretched_seats:
            notes.append(f"seat {s} said {WORD_NAMES[int(self.words[s])]}, which the opponent model never says with "
                         f"the cards left to him: the hands closest to saying it stand in (model stretched)")
        return notes


def two_of_trump(trump_card: int) -> int:
    return card_id(trump_card // 16, RANKS.index("2"))


def excluded_card(rules: RuleSet, hand, trump_card: int, knocked: bool, swapped_by: int, swaps: bool) -> int:
    """The two of trump, when no earlier seat can have held it (he would have swapped it [D-9])."""
    two = two_of_trump(trump_card)
    if not rules.two_of_trump_swap or knocked or swapped_by >= 0 or not swaps or trump_card == two or two in hand:
        return -1
    return two


def _contexts(s: int, words: list[int], rules: RuleSet, knocked: bool, jack_forced: bool):
    """Every (context, pass allowed, Rumba allowed, throw-in allowed) seat ``s`` may have met, given the words."""
    known_play = sum(1 for w in words[:s] if w == P.W_PLAY)
    unknown = sum(1 for w in words[:s] if w == P.W_NONE)
    rumba = P.W_RUMBA in words[:s]
    throw_ok = rules.throw_in and not knocked and (not rumba or rules.throw_in_after_rumba)
    out = set()
    for players in range(known_play, known_play + unknown + 1):
        if knocked:
            out.add((P.CTX_KNOCK + min(players, 2), not jack_forced, False, False))
        elif rules.speaking_order == "rumba-first":
            out.add((P.CTX_ROUND1, True, not rumba, throw_ok))
        elif rumba:
            forced = jack_forced or rules.others_after_rumba == "must-play"
            out.add((P.CTX_RUMBA + min(players, 2), not forced, False, throw_ok))
        else:
            out.add((P.CTX_OPEN + min(players, 3), not jack_forced, True, throw_ok))
    return sorted(out)


def _counts(pool: np.ndarray, excluded: int, k: int, trump: int, top: int, below_rank: int, values: np.ndarray):
    """Numbers of hands of ``k`` cards of ``pool`` by (score, has a high card) and the number of candidates."""
    counts = np.zeros(K.NGROUPS, dtype=np.int64)
    members = np.zeros((K.NGROUPS, 64), dtype=np.int64)
    table = np.zeros((K.NGROUPS + 1, K.KMAX, P.NSCORE, 2))
    present = np.zeros(K.NGROUPS, dtype=np.int64)
    candidates, _mask = K.group_cards(pool, 0, len(pool), excluded, trump, top, below_rank, values, counts, members)
    groups = K.count_hands(counts, k, table, present)
    return table[groups, k], candidates


def make_plan(rules: RuleSet, players: int, seat: int, hand, trump_card: int, before: list[int], knocked: bool,
              swapped_by: int, policy) -> Plan:
    """The conditioning plan of one question (``before``: word codes of seats 0..seat-1)."""
    n = players
    words = np.full(n, P.W_NONE, dtype=np.int64)
    words[:seat] = before
    hard = np.zeros(n, dtype=np.int64)
    stretched = np.zeros(n, dtype=np.int64)
    stretch = np.zeros((n, P.NSCORE))
    trump = trump_card // 16
    top = RANKS.index(rules.ranks[-1])
    below_rank = RANKS.index(rules.throw_in_below)
    jack_forced = rules.jack_of_trump_forces_play and trump_card % 16 == RANKS.index("J")
    two = two_of_trump(trump_card)
    known = set(hand) | {trump_card} | ({two} if swapped_by >= 0 else set())
    pool = np.array([c for c in rules.deck if c not in known], dtype=np.int64)
    excluded = np.array([excluded_card(rules, hand, trump_card, knocked, swapped_by, policy.swaps(s))
                         for s in range(n)], dtype=np.int64)
    pol = policy.as_tuple()
    alpha = np.zeros((P.NSCORE, 2))
    base_z = []
    rumba_seen = False
    for s in range(seat):
        k = rules.hand_size - (1 if s == swapped_by else 0)
        fixed_value = policy.card_score(trump_card, trump, top, s) if s == swapped_by else 0
        fixed_high = s == swapped_by and trump_card % 16 >= below_rank
        table, candidates = _counts(pool, int(excluded[s]), k, trump, top, below_rank, policy.values[s])
        ways = math.comb(candidates, k)
        unasked = rules.speaking_order == "rumba-first" and rumba_seen and not knocked

        def mass(stretched_seat: bool) -> list[float]:
            out = []
            for ctx, pass_ok, rumba_ok, throw_ok in _contexts(s, list(words), rules, knocked, jack_forced):
                K.acceptance(alpha, s, ctx, pass_ok, rumba_ok, throw_ok, words[s], stretched_seat, stretch, pol)
                total = 0.0
                for x in range(P.NSCORE):
                    for e in range(2):
                        if table[x, e] > 0:
                            xt = min(x + fixed_value, P.NSCORE - 1)
                            high = 1 if (e or fixed_high) else 0
                            total += table[x, e] * alpha[xt, 1 - high]
                out.append(total / ways)
            return out

        z = [1.0] if unasked else mass(False)
        if max(z) <= 0.0:
            stretch[s] = _stretch_row(s, list(words), table, fixed_value, rules, knocked, jack_forced, policy)
            stretched[s] = 1
            z = mass(True)
            if max(z) <= 0.0:
                raise RulesError(f"seat {s} cannot have said {WORD_NAMES[int(words[s])]}: with every hand left to him "
                                 f"he would have thrown in")
        base_z.append(min(z))
        hard[s] = 1 if (stretched[s] or min(z) < HARD_BELOW) and not unasked else 0
        if words[s] == P.W_RUMBA:
            rumba_seen = True
    easy = sorted((base_z[s], s) for s in range(seat) if not hard[s])
    product = math.prod(z for z, _ in easy)
    while easy and product < EASY_PRODUCT:
        z, s = easy.pop(0)
        hard[s] = 1
        product /= z
    return Plan(words, hard, stretched, stretch, excluded, tuple(base_z))


def _stretch_row(s, words, table, fixed_value, rules, knocked, jack_forced, policy) -> np.ndarray:
    """exp(-distance) from the nearest score at which the model says the word (docs/SIMULATION.md step 2)."""
    reachable = [min(x + fixed_value, P.NSCORE - 1) for x in range(P.NSCORE) if table[x].sum() > 0]
    says = np.zeros(P.NSCORE, dtype=bool)
    for ctx, pass_ok, rumba_ok, _throw in _contexts(s, words, rules, knocked, jack_forced):
        for x in range(P.NSCORE):
            q = P.masked_row(policy.words, s, ctx, x, pass_ok, rumba_ok)
            if P.word_probability(q[0], q[1], q[2], words[s]) > 0:
                says[x] = True
    scores = np.arange(P.NSCORE)
    if says.any():
        targets = scores[says]
        gap = np.abs(scores[:, None] - targets[None, :]).min(axis=1).astype(float)
    elif words[s] == P.W_PASS:
        gap = (scores - min(reachable)).astype(float)  # the weakest hands come closest to a pass
    else:
        gap = (max(reachable) - scores).astype(float)  # the strongest come closest to playing or a Rumba
    gap -= min(gap[x] for x in reachable)
    return np.exp(-np.maximum(gap, 0.0))


def describe_swap(swapped_by: int, trump_card: int) -> str:
    return f"seat {swapped_by} swapped the two of trump for {format_card(trump_card)}"


__all__ = ["Plan", "make_plan", "excluded_card", "two_of_trump", "HARD_BELOW"]
