"""Plain-Python twins of the small kernels (trick play, random numbers, dealing): the readable specification.

Written for clarity, not speed: hands are Python sets of card ids, tricks are
lists. The trick rules themselves (who may play what, who wins) are the game's
(``rumbaodds.game.tricks``, RULES.md §3); this module adds the greedy policy
(§6) and the twin of ``engine/rng.py``. Tests run kernel and twin on the same
inputs and require equal answers. Card ids are ``suit * 16 + rank`` (cards.py).
"""

from __future__ import annotations

from ..game.tricks import Tricks, card_beats, legal_cards, rank_of, suit_of
from ..rules import FOLLOW_FLEMISH as FLEMISH
from ..rules import FOLLOW_STECHZWANG as STECHZWANG

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STREAM = 0xD1B54A32D192ED03


def strength(card: int, trump: int) -> tuple[int, int, int]:
    return (suit_of(card) == trump, rank_of(card), suit_of(card))


def greedy_card(legal: set[int], led_suit: int | None, win_card: int | None, trump: int) -> int:
    """RULES.md §6 greedy policy."""
    if led_suit is None:
        return max(legal, key=lambda c: strength(c, trump))
    winning = [c for c in legal if card_beats(c, win_card, trump)]
    if winning:
        return min(winning, key=lambda c: strength(c, trump))
    return min(legal, key=lambda c: strength(c, trump))


def trick_winner(cards: list[int], leader: int, trump: int) -> int:
    n = len(cards)
    best = 0
    for k in range(1, n):
        if card_beats(cards[k], cards[best], trump):
            best = k
    return (leader + best) % n


def play_greedy(hands: list[set[int]], leader: int, trump: int, follow: int) -> list[int]:
    """Tricks per seat when every seat plays greedy (the game's trick rules, §3)."""
    play = Tricks(hands, leader, trump, follow)
    while not play.done:
        play.play(greedy_card(play.legal_cards(), play.led_suit, play.win_card, trump))
    return play.won


# -- random numbers and dealing (twin of rng.py) -------------------------------
def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Stream:
    """SplitMix64 stream of sample ``index`` under ``seed``."""

    def __init__(self, seed: int, index: int):
        self.state = mix64((seed * GOLDEN + index * STREAM + 1) & MASK64)

    def below(self, bound: int) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return ((mix64(self.state) >> 11) * bound) >> 53

    def uniform(self) -> float:
        """A float in [0, 1): the top 53 bits of the next output."""
        self.state = (self.state + GOLDEN) & MASK64
        return float(mix64(self.state) >> 11) * 2.0**-53


def deal(deck: list[int], players: int, hand_size: int, seed: int, index: int):
    """Sample ``index``: (hands as sets, trump card, leader).

    Fisher-Yates on the first cards; each 64-bit output of the stream gives
    two draws, its low then its high 32 bits, scaled as ``(u * bound) >> 32``.
    """
    deck = list(deck)
    stream = Stream(seed, index)
    word = 0
    for j in range(players * hand_size + 1):
        if j % 2 == 0:
            stream.state = (stream.state + GOLDEN) & MASK64
            word = mix64(stream.state)
            u = word & 0xFFFFFFFF
        else:
            u = word >> 32
        k = j + ((u * (len(deck) - j)) >> 32)
        deck[j], deck[k] = deck[k], deck[j]
    hands = [set(deck[p * hand_size:(p + 1) * hand_size]) for p in range(players)]
    trump_card = deck[players * hand_size]
    stream.state = (stream.state + GOLDEN) & MASK64
    leader = ((mix64(stream.state) & 0xFFFFFFFF) * players) >> 32
    return hands, trump_card, leader


__all__ = ["STECHZWANG", "FLEMISH", "suit_of", "rank_of", "card_beats", "legal_cards", "strength", "greedy_card",
           "trick_winner", "play_greedy", "mix64", "Stream", "deal"]
