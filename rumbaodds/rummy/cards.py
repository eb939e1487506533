"""Rummy cards: two decks and jokers as small integers, and their text form (RULES.md §8.1).

A card *type* is ``suit * 13 + rank`` (suits C D H S = 0..3 as in ``rumbaodds.cards``;
rank 0 for the two up to 12 for the ace) and the joker is type 52. With two
decks a type may appear twice in a hand, never three times. Kernels see a hand
as two ``uint64`` masks (``m1``: types held at least once, ``m2``: held twice)
plus a joker count.

Sequence *positions* (used by the meld rules): the low ace is position 0, the
two..king are 1..12 and the high ace is 13, so a sequence is a window of
consecutive positions that never holds both 0 and 13 (no "around the corner").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from ..cards import RANKS, SUITS, CardError
from .rules import MAX_HAND, RummyRules

JOKER = 52
TYPES = 52
ACE = 12
_UNICODE_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
JOKER_TOKENS = ("JK", "*")


def type_of(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def parse_token(token: str) -> int:
    """Type of ``HA``, ``S10``, ``dT``, ``♣7``, or 52 for a joker (``JK`` or ``*``, any case)."""
    text = str(token).strip()
    if text.upper() in JOKER_TOKENS:
        return JOKER
    if len(text) < 2:
        raise CardError(f"unknown card {token!r} (write suit then rank, e.g. HA, S10, dT; a joker is JK)", str(token))
    suit_text, rank_text = text[0], text[1:].upper()
    if rank_text == "10":
        rank_text = "T"
    letter = _UNICODE_SUITS.get(suit_text, suit_text.upper())
    if letter not in SUITS or len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"unknown card {token!r} (write suit then rank, e.g. HA, S10, dT; a joker is JK)", str(token))
    return type_of(SUITS.index(letter), RANKS.index(rank_text))


def format_type(card: int) -> str:
    if card == JOKER:
        return "JK"
    return SUITS[suit_of(card)] + RANKS[rank_of(card)]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(format_type(c) for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by suit C D H S, then rank; jokers last."""
    return (4, 0) if card == JOKER else (suit_of(card), rank_of(card))


def parse_rummy_hand(text: str | Iterable, rules: RummyRules, sizes: Iterable[int] | None = None,
                     what: str = "the hand") -> list[int]:
    """Card types of a hand such as ``"HA H2 H3 JK"``; refuses what the rule set's deck cannot hold.

    A card more often than there are decks, more jokers than the deck has, and (when
    ``sizes`` is given) a hand of another size are :class:`CardError`s naming the problem.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [parse_token(t) if isinstance(t, str) else _type_of_int(t) for t in tokens]
    check_cards(cards, rules, what)
    if sizes is not None:
        sizes = tuple(sizes)
        if len(cards) not in sizes:
            wanted = " or ".join(str(s) for s in sizes)
            raise CardError(f"{what} has {len(cards)} cards; {rules.name} needs {wanted}", None)
    return cards


def check_cards(cards: Iterable[int], rules: RummyRules, what: str = "the hand") -> None:
    counts = Counter(cards)
    for card, n in counts.items():
        if card == JOKER:
            if n > rules.jokers:
                raise CardError(f"{what} holds {n} jokers; the {rules.name} deck has {rules.jokers}", "JK")
        elif n > rules.decks:
            word = {1: "once", 2: "twice"}.get(rules.decks, f"{rules.decks} times")
            raise CardError(f"card {format_type(card)} appears {n} times; the {rules.name} deck ({rules.decks} x 52) "
                            f"has each card {word}", format_type(card))
    total = sum(counts.values())
    if total > MAX_HAND:
        raise CardError(f"{what} has {total} cards; at most {MAX_HAND} fit a hand", None)


def _type_of_int(value) -> int:
    card = int(value)
    if not 0 <= card <= JOKER:
        raise CardError(f"unknown card type {value!r}", str(value))
    return card


def deck_types(rules: RummyRules) -> list[int]:
    """The whole deck as a list of types, each card ``decks`` times, then the jokers."""
    return [t for t in range(TYPES) for _ in range(rules.decks)] + [JOKER] * rules.jokers


def unknown_cards(rules: RummyRules, seen: Iterable[int]) -> list[int]:
    """The deck minus the cards seen (each seen card removes one copy)."""
    left = Counter(deck_types(rules))
    for card in seen:
        left[card] -= 1
        if left[card] < 0:  # pragma: no cover - check_cards refuses this first
            raise CardError(f"card {format_type(card)} seen more often than the deck holds it", format_type(card))
    return [t for t in range(TYPES + 1) for _ in range(left[t])]


# -- values (RULES.md §8.3 and §8.6) ------------------------------------------------------------
def rank_value(rank: int, rules: RummyRules) -> int:
    """Value of a card of ``rank`` in a group (and the non-ace value in a sequence)."""
    if rank == ACE:
        return rules.ace_high_value
    return min(rank + 2, 10)


def position_value(position: int, rules: RummyRules) -> int:
    """Value of sequence position 0 (low ace) .. 13 (high ace): what a card or joker there counts."""
    if position == 0:
        return rules.ace_low_value
    if position == 13:
        return rules.ace_high_value
    return min(position + 1, 10)


def penalty(card: int, rules: RummyRules) -> int:
    """Penalty points of a card left in hand (§8.6)."""
    if card == JOKER:
        return rules.joker_penalty
    if rank_of(card) == ACE:
        return rules.ace_penalty
    return min(rank_of(card) + 2, 10)


def hand_penalty(cards: Iterable[int], rules: RummyRules) -> int:
    return sum(penalty(c, rules) for c in cards)


def hand_array(hands: Iterable[Iterable[int]], width: int = MAX_HAND) -> np.ndarray:
    """Hands (lists of types) as an int8 array padded with -1, one row per hand."""
    hands = [list(h) for h in hands]
    out = np.full((len(hands), width), -1, dtype=np.int8)
    for i, hand in enumerate(hands):
        if len(hand) > width:
            raise CardError(f"a hand of {len(hand)} cards: at most {width} fit", None)
        out[i, :len(hand)] = hand
    return out


__all__ = ["JOKER", "TYPES", "ACE", "parse_token", "format_type", "format_cards", "parse_rummy_hand", "check_cards",
           "deck_types", "unknown_cards", "rank_value", "position_value", "penalty", "hand_penalty", "hand_array",
           "sort_key", "type_of", "suit_of", "rank_of"]
