"""Plain-Python twin of the meld solver: a memoised recursion on the rules of ``melds.py``.

The best weight of what is left is: take the lowest real card left; either it
stays in hand, or it goes into one meld with other cards left (of its rank for
a group, of its suit for a sequence, and jokers), each meld judged by
``melds.best_meld``. At most ``limit`` cards are laid ([D-16]). Written to be
read, not to be fast; tests require the kernel to give the same weights.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

from .cards import JOKER, penalty, rank_of, suit_of
from .melds import Meld, best_meld
from .rules import RummyRules
from .solver import LEX


def meld_weight(meld: Meld, rules: RummyRules, objective: str) -> int:
    if objective == "value":
        return meld.value
    pen = sum(penalty(c, rules) for c in meld.layout)
    if objective == "penalty":
        return pen
    return meld.value * LEX + pen


def lay_limit(cards: int, rules: RummyRules) -> int:
    return cards - 1 if rules.keep_one_card else cards


def melds_with(card: int, others: tuple[int, ...], jokers: int, rules: RummyRules) -> list[Meld]:
    """Every meld that holds ``card`` and some of ``others`` and jokers, each at its best layout."""
    same_rank = tuple(sorted({c for c in others if rank_of(c) == rank_of(card) and suit_of(c) != suit_of(card)}))
    same_suit = tuple(sorted({c for c in others if suit_of(c) == suit_of(card) and c != card}))
    return _melds_with(card, same_rank, same_suit, jokers, rules)


@lru_cache(maxsize=1 << 16)
def _melds_with(card: int, same_rank: tuple[int, ...], same_suit: tuple[int, ...], jokers: int,
                rules: RummyRules) -> list[Meld]:
    found = []
    for kind, pool in (("group", same_rank), ("sequence", same_suit)):
        for k in range(len(pool) + 1):
            for chosen in combinations(pool, k):
                reals = (card, *chosen)
                for j in range(jokers + 1):
                    if len(reals) + j < 3:
                        continue
                    meld = best_meld(reals, j, rules, kind)
                    if meld is not None:  # the best layout; for the penalty any valid one would do
                        found.append(meld)
    return found


def solve_twin(hand: list[int], rules: RummyRules, objective: str = "value") -> tuple[int, list[Meld]]:
    """(best weight, melds) of a hand of types (jokers as ``JOKER``)."""
    reals = tuple(sorted(c for c in hand if c != JOKER))
    jokers = len(hand) - len(reals)

    @cache
    def best(left: tuple[int, ...], jokers_left: int, room: int) -> tuple[int, tuple[Meld, ...]]:
        if not left or room < 3:
            return 0, ()
        card, rest = left[0], left[1:]
        answer = best(rest, jokers_left, room)  # the lowest card stays in hand
        for meld in melds_with(card, rest, jokers_left, rules):
            if meld.size > room:
                continue
            remaining = list(rest)
            for c in meld.reals:
                if c != card:
                    remaining.remove(c)
            weight, melds = best(tuple(remaining), jokers_left - meld.jokers, room - meld.size)
            weight += meld_weight(meld, rules, objective)
            if weight > answer[0]:
                answer = (weight, (meld, *melds))
        return answer

    weight, melds = best(reals, jokers, lay_limit(len(hand), rules))
    return weight, list(melds)


__all__ = ["solve_twin", "melds_with", "meld_weight", "lay_limit"]
