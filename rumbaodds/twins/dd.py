"""Plain-Python twin of the double-dummy solver (RULES.md §6 "double-dummy value").

Written for reading, not for speed: an exhaustive minimax over every legal
card, built on the trick rules of ``rumbaodds.game.tricks``. The chosen seat maximises its
tricks; all other seats, playing as one side, minimise them. The only
shortcut is a cache on the state at trick boundaries (the hands still held and
the leader), which makes 5-card deals at 3 players usable in tests.
"""

from __future__ import annotations

from functools import cache

from .common import card_beats, legal_cards, suit_of


def dd_tricks(hands: list[set[int]], leader: int, trump: int, follow: int, seat: int) -> int:
    """Tricks ``seat`` makes for certain when all hands are seen and the others play against it."""
    n = len(hands)
    if len({len(h) for h in hands}) != 1:
        raise ValueError("all hands must hold the same number of cards")
    if not 0 <= leader < n or not 0 <= seat < n:
        raise ValueError("leader and seat must be seats of the deal")

    @cache
    def rest_of_hand(held: tuple[frozenset[int], ...], leader: int) -> int:
        """Tricks ``seat`` makes from a trick boundary: ``held`` per seat, ``leader`` to lead."""
        if not held[0]:
            return 0
        return play_trick(held, leader, 0, None, None, None)

    def play_trick(held, leader, played, led_suit, win_card, win_seat) -> int:
        """Value once ``played`` cards of the current trick lie on the table."""
        if played == n:
            return (win_seat == seat) + rest_of_hand(held, win_seat)
        player = (leader + played) % n
        outcomes = []
        for card in legal_cards(set(held[player]), led_suit, win_card, trump, follow):
            after = tuple(h - {card} if p == player else h for p, h in enumerate(held))
            if led_suit is None:
                outcome = play_trick(after, leader, played + 1, suit_of(card), card, player)
            elif card_beats(card, win_card, trump):
                outcome = play_trick(after, leader, played + 1, led_suit, card, player)
            else:
                outcome = play_trick(after, leader, played + 1, led_suit, win_card, win_seat)
            outcomes.append(outcome)
        return max(outcomes) if player == seat else min(outcomes)

    return rest_of_hand(tuple(frozenset(h) for h in hands), leader)


__all__ = ["dd_tricks"]
