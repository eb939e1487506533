"""Brute force over every partition of a small hand: the slowest and most literal opening value.

Every way to split the hand into melds and cards left in hand is tried: the
lowest real card left either stays in hand or goes into a block with any
sub-multiset of the other cards left that share its rank or its suit, and
jokers (a block mixing ranks and suits is never a meld, §8.2); each block is
judged by ``melds.best_meld``. Exponential: for hands of up to about 10 cards,
to check the kernel and the twin.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from .cards import JOKER, rank_of, suit_of
from .melds import Meld, best_meld
from .rules import RummyRules
from .twin import lay_limit, meld_weight


def sub_multisets(cards: tuple[int, ...]):
    """Each distinct sub-multiset of a sorted tuple once, as a sorted tuple."""
    seen = set()
    for k in range(len(cards) + 1):
        for chosen in combinations(cards, k):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def brute_force(hand: list[int], rules: RummyRules, objective: str = "value") -> tuple[int, list[Meld]]:
    """(best weight, melds) over all partitions of the hand into melds and cards kept."""
    cards = tuple(sorted(hand))  # jokers (52) sort last

    @cache  # the same cards left (and room) by different splits need the same answer
    def search(left: tuple[int, ...], room: int) -> tuple[int, list[Meld]]:
        reals = [c for c in left if c != JOKER]
        if not reals:
            return 0, ()
        first = reals[0]
        rest = list(left)
        rest.remove(first)
        rest = tuple(rest)
        best = search(rest, room)  # the lowest real card is kept in hand
        kin = tuple(c for c in rest if c == JOKER or rank_of(c) == rank_of(first) or suit_of(c) == suit_of(first))
        for block in sub_multisets(kin):
            if len(block) + 1 < 3 or len(block) + 1 > room:
                continue
            block_reals = [first, *(c for c in block if c != JOKER)]
            meld = best_meld(block_reals, len(block) + 1 - len(block_reals), rules)
            if meld is None:
                continue
            remaining = list(rest)
            for c in block:
                remaining.remove(c)
            weight, melds = search(tuple(remaining), room - meld.size)
            weight += meld_weight(meld, rules, objective)
            if weight > best[0]:
                best = (weight, (meld, *melds))
        return best

    weight, melds = search(cards, lay_limit(len(cards), rules))
    return weight, list(melds)


__all__ = ["brute_force", "sub_multisets"]
