"""Plain-Python twins of the kernels: the readable specification.

Written for clarity, not speed: hands are Python sets of card ids, tricks are
lists. Tests run kernel and twin on the same inputs and require equal answers.
Card ids are ``suit * 16 + rank`` (cards.py).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STREAM = 0xD1B54A32D192ED03

STECHZWANG = 0
FLEMISH = 1


def suit_of(card: int) -> int:
    return card // 16


def rank_of(card: int) -> int:
    return card % 16


def card_beats(card: int, win_card: int, trump: int) -> bool:
    """Would ``card`` take the trick from ``win_card``?"""
    if suit_of(card) == suit_of(win_card):
        return rank_of(card) > rank_of(win_card)
    return suit_of(card) == trump


def legal_cards(hand: set[int], led_suit: int | None, win_card: int | None, trump: int, follow: int) -> set[int]:
    """RULES.md §3, clause by clause."""
    if led_suit is None:
        return set(hand)
    winners = {c for c in hand if card_beats(c, win_card, trump)}
    same_suit = {c for c in hand if suit_of(c) == led_suit}
    if same_suit:  # clause 1 of both rules: follow suit, winning if able
        return (same_suit & winners) or same_suit
    trumps = {c for c in hand if suit_of(c) == trump}
    if follow == STECHZWANG:
        if trumps:  # swiss clause 2: must trump, overtrump if able
            return (trumps & winners) or trumps
        return set(hand)  # swiss clause 3
    winning_trumps = trumps & winners
    if winning_trumps:  # [D-1]: no losing trump while holding a winning one
        return (set(hand) - trumps) | winning_trumps
    return set(hand)


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
    """Tricks per seat when every seat plays greedy."""
    hands = [set(h) for h in hands]
    n = len(hands)
    tricks = [0] * n
    for _ in range(len(hands[0])):
        played: list[int] = []
        led_suit = win_card = None
        for k in range(n):
            seat = (leader + k) % n
            card = greedy_card(legal_cards(hands[seat], led_suit, win_card, trump, follow), led_suit, win_card, trump)
            hands[seat].remove(card)
            played.append(card)
            if led_suit is None:
                led_suit, win_card = suit_of(card), card
            elif card_beats(card, win_card, trump):
                win_card = card
        leader = trick_winner(played, leader, trump)
        tricks[leader] += 1
    return tricks


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
