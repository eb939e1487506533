"""What a meld is (RULES.md §8.2-§8.3), said as plainly as possible: the specification.

Every function here looks at one meld (some real cards and a number of jokers)
and tries every way of laying it out. The brute force, the plain-Python twin
and the display of the kernel's answers all use these functions; the kernel
(``solver.py``) generates melds its own, faster way and the tests compare.

- A *group* is 3 or 4 cards of one rank, no suit twice; a joker stands for a
  missing suit. Value: its size times the rank's value (ace ``ace_high_value``).
- A *sequence* is a window of 3 or more consecutive positions of one suit
  (position 0 the low ace, 1..12 the two..king, 13 the high ace) that never
  holds both aces (no K-A-2); every real card sits on its own position and a
  joker on each position left. Value: the sum of the positions' values, so a
  joker counts what it stands for.
- Jokers are placed for the highest value (§8.4); [D-14] at least
  ``min_real_cards`` real cards; rummi [D-15] as the rule set's fields say.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import ACE, JOKER, format_type, penalty, position_value, rank_of, rank_value, suit_of, type_of
from .rules import RummyRules


@dataclass(frozen=True)
class Meld:
    """A laid-out meld: ``layout`` lists its cards in order, ``JOKER`` where a joker lies."""

    kind: str  # "group" or "sequence"
    layout: tuple[int, ...]
    value: int
    stands_for: tuple[int, ...] = ()  # the card each joker stands for, in layout order

    @property
    def reals(self) -> tuple[int, ...]:
        return tuple(sorted(c for c in self.layout if c != JOKER))

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.layout if c == JOKER)

    @property
    def size(self) -> int:
        return len(self.layout)

    def tokens(self) -> list[str]:
        return [format_type(c) for c in self.layout]

    def text(self) -> str:
        parts = []
        stands = iter(self.stands_for)
        for c in self.layout:
            parts.append(f"JK={format_type(next(stands))}" if c == JOKER else format_type(c))
        return " ".join(parts)

    def penalty(self, rules: RummyRules) -> int:
        return sum(penalty(c, rules) for c in self.layout)


def positions_of(card: int, rules: RummyRules) -> tuple[int, ...]:
    """Sequence positions a real card can take: an ace is 13, or 0 too where aces may be low."""
    if rank_of(card) == ACE:
        return (0, 13) if rules.ace_low else (13,)
    return (rank_of(card) + 1,)


def card_at(suit: int, position: int) -> int:
    return type_of(suit, ACE if position in (0, 13) else position - 1)


def group_meld(reals: Sequence[int], jokers: int, rules: RummyRules) -> Meld | None:
    """The group these cards make, or None (§8.2, [D-14], [D-15])."""
    reals = sorted(reals)
    if not reals or any(c == JOKER for c in reals):
        return None
    ranks = {rank_of(c) for c in reals}
    suits = [suit_of(c) for c in reals]
    size = len(reals) + jokers
    if len(ranks) != 1 or len(set(suits)) != len(suits):
        return None  # one rank, no suit twice
    if not 3 <= size <= 4:
        return None
    if len(reals) < rules.min_real_cards:  # [D-14]
        return None
    if rules.jokers_at_most_real and jokers > len(reals):  # [D-15]
        return None
    if rules.group_joker_needs_four and jokers > 0 and size != 4:  # [D-15]
        return None
    rank = ranks.pop()
    missing = [type_of(s, rank) for s in range(4) if s not in suits][:jokers]
    return Meld("group", tuple(reals) + (JOKER,) * jokers, size * rank_value(rank, rules), tuple(missing))


def sequence_melds(reals: Sequence[int], jokers: int, rules: RummyRules) -> list[Meld]:
    """Every valid layout of these cards as a sequence (§8.2-§8.3, [D-14], [D-15])."""
    reals = list(reals)
    if not reals or any(c == JOKER for c in reals):
        return []
    if len({suit_of(c) for c in reals}) != 1 or len(set(reals)) != len(reals):
        return []  # one suit, no card twice
    if len(reals) < rules.min_real_cards:  # [D-14]
        return []
    if rules.jokers_at_most_real and jokers > len(reals):  # [D-15]
        return []
    suit = suit_of(reals[0])
    size = len(reals) + jokers
    if size < 3:
        return []
    found = []
    lowest = 0 if rules.ace_low else 1
    fixed = [p for c in reals if rank_of(c) != ACE for p in positions_of(c, rules)]
    first, last = lowest, 14 - size
    if fixed:  # the window must cover every card that is not an ace (only saves time)
        first, last = max(first, max(fixed) - size + 1), min(last, min(fixed))
    for lo in range(first, last + 1):
        window = range(lo, lo + size)
        if 0 in window and 13 in window:
            continue  # both aces: around the corner
        taken = set()
        for card in reals:
            inside = [p for p in positions_of(card, rules) if p in window]
            if not inside:
                break
            taken.add(inside[0])  # a window holds at most one of the ace's positions
        else:
            joker_places = [p for p in window if p not in taken]
            if not rules.jokers_adjacent and any(p + 1 in joker_places for p in joker_places):  # [D-15]
                continue
            layout = tuple(JOKER if p in joker_places else card_at(suit, p) for p in window)
            value = sum(position_value(p, rules) for p in window)
            found.append(Meld("sequence", layout, value, tuple(card_at(suit, p) for p in joker_places)))
    return found


def best_meld(reals: Sequence[int], jokers: int, rules: RummyRules, kind: str | None = None) -> Meld | None:
    """The highest-value valid meld of exactly these cards (ties: group before sequence, lower window)."""
    return _best_meld(tuple(sorted(reals)), jokers, rules, kind)


@lru_cache(maxsize=1 << 18)
def _best_meld(reals: tuple[int, ...], jokers: int, rules: RummyRules, kind: str | None) -> Meld | None:
    if len({rank_of(c) for c in reals}) > 1 and len({suit_of(c) for c in reals}) > 1:
        return None  # neither one rank nor one suit (only saves time)
    options = []
    if kind in (None, "group"):
        group = group_meld(reals, jokers, rules)
        if group is not None:
            options.append(group)
    if kind in (None, "sequence"):
        options.extend(sequence_melds(reals, jokers, rules))
    if not options:
        return None
    return max(options, key=lambda m: m.value)  # max keeps the first of equal values


def meld_value(reals: Sequence[int], jokers: int, rules: RummyRules) -> int | None:
    meld = best_meld(reals, jokers, rules)
    return None if meld is None else meld.value


def is_meld(cards: Sequence[int], rules: RummyRules) -> bool:
    """Can these cards (jokers as ``JOKER``) be laid as one meld?"""
    reals = [c for c in cards if c != JOKER]
    return best_meld(reals, len(cards) - len(reals), rules) is not None


__all__ = ["Meld", "group_meld", "sequence_melds", "best_meld", "meld_value", "is_meld", "positions_of", "card_at"]
