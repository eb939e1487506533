"""The tricks (RULES.md §3): who may play what, and who wins, clause by clause.

Card ids are ``suit * 16 + rank`` (cards.py). ``follow`` is a rule set's
``follow_code``: ``FOLLOW_STECHZWANG`` (swiss, seed 000 rules 18-20) or
``FOLLOW_FLEMISH`` (seed 001, [D-1]).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules import FOLLOW_STECHZWANG


def suit_of(card: int) -> int:
    return card // 16


def rank_of(card: int) -> int:
    return card % 16


def card_beats(card: int, win_card: int, trump: int) -> bool:
    """§3 "winning card": would ``card`` take the trick from ``win_card``, the card winning it now?"""
    if suit_of(card) == suit_of(win_card):
        return rank_of(card) > rank_of(win_card)
    return suit_of(card) == trump


def legal_cards(hand: Iterable[int], led_suit: int | None, win_card: int | None, trump: int,
                follow: int) -> set[int]:
    """The cards a player may play (§3), clause by clause; ``led_suit`` None: he leads, any card."""
    hand = set(hand)
    if led_suit is None:
        return hand  # §3: the leader plays any card
    winners = {c for c in hand if card_beats(c, win_card, trump)}
    same_suit = {c for c in hand if suit_of(c) == led_suit}
    if same_suit:  # clause 1 of both rules: follow suit, winning if able
        return (same_suit & winners) or same_suit
    trumps = {c for c in hand if suit_of(c) == trump}
    if follow == FOLLOW_STECHZWANG:
        if trumps:  # swiss clause 2: must trump, overtrump if able (rule 20: a losing trump if he cannot)
            return (trumps & winners) or trumps
        return hand  # swiss clause 3
    winning_trumps = trumps & winners
    if winning_trumps:  # flemish clause 2 [D-1]: trumping is free, but no under-trumping while able to over-trump
        return (hand - trumps) | winning_trumps
    return hand


class Tricks:
    """The card play of one hand: ``hands`` of the players in it, clockwise; index ``leader`` leads trick one.

    A trick goes to the highest trump, else the highest card of the led suit; its winner leads the next (§3).
    """

    def __init__(self, hands: list[Iterable[int]], leader: int, trump: int, follow: int):
        self.hands = [set(h) for h in hands]
        if len({len(h) for h in self.hands}) != 1:
            raise ValueError("all hands must hold the same number of cards")
        self.trump = trump
        self.follow = follow
        self.leader = leader
        self.won = [0] * len(self.hands)
        self.trick: list[tuple[int, int]] = []  # (index, card) of the trick on the table
        self.played: set[int] = set()  # every card played so far, this trick included
        self.log: list[tuple[int, list[tuple[int, int]], int]] = []  # (leader, cards, winner) per finished trick
        self.win_index: int | None = None

    @property
    def done(self) -> bool:
        return not self.trick and not self.hands[0]

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def led_suit(self) -> int | None:
        return suit_of(self.trick[0][1]) if self.trick else None

    @property
    def win_card(self) -> int | None:
        return None if self.win_index is None else dict(self.trick)[self.win_index]

    def legal_cards(self) -> set[int]:
        if self.done:
            return set()
        return legal_cards(self.hands[self.to_play], self.led_suit, self.win_card, self.trump, self.follow)

    def play(self, card: int) -> None:
        if card not in self.legal_cards():
            raise ValueError(f"card {card} may not be played now (RULES.md §3)")
        p = self.to_play
        self.hands[p].remove(card)
        self.played.add(card)
        if not self.trick or card_beats(card, self.win_card, self.trump):
            self.win_index = p
        self.trick.append((p, card))
        if len(self.trick) == len(self.hands):  # the trick is complete: its winner leads the next
            winner = self.win_index
            self.won[winner] += 1
            self.log.append((self.leader, self.trick, winner))
            self.leader, self.trick, self.win_index = winner, [], None


__all__ = ["suit_of", "rank_of", "card_beats", "legal_cards", "Tricks"]
