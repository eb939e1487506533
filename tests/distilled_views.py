"""States of the ``distilled`` play to test on: every View the twin meets while a hand is played by a simple rule."""

from __future__ import annotations

import numpy as np

from rumbaodds.cards import card_rank, cards_of
from rumbaodds.game.tricks import card_beats, legal_cards, suit_of
from rumbaodds.twins import distilled as twin


def views_of_a_hand(rules, hands_row, leader, turned, caller, choose=None, tricks=None):
    """Every View met while the hand is played, each player his lowest legal card or ``choose(view)``, for the
    first ``tricks`` tricks (default: all)."""
    hands = [set(cards_of(int(m))) for m in hands_row]
    n = len(hands)
    ranks = [card_rank(c) for c in rules.deck]
    outside = set(rules.deck) - {turned}
    won = [0] * n
    voids = [set() for _ in range(n)]
    out = []
    for _ in range(rules.hand_size if tricks is None else tricks):
        led = win_card = win_seat = None
        for pos in range(n):
            p = (leader + pos) % n
            legal = legal_cards(hands[p], led, win_card, turned >> 4, rules.follow_code)
            view = twin.View(hand=frozenset(hands[p]), legal=frozenset(legal), unseen=frozenset(outside - hands[p]),
                             trump=turned >> 4, me=p, players=n, leader=leader, position=pos, win_card=win_card,
                             win_seat=win_seat, won=tuple(won), voids=tuple(frozenset(v) for v in voids),
                             caller=caller, need=rules.rumba_min_tricks, low_rank=min(ranks), top_rank=max(ranks))
            out.append(view)
            card = min(legal) if choose is None else choose(view)
            hands[p].discard(card)
            outside.discard(card)
            if led is None:
                led, win_card, win_seat = suit_of(card), card, p
                continue
            if suit_of(card) != led:
                voids[p].add(led)
            if card_beats(card, win_card, turned >> 4):
                win_card, win_seat = card, p
        won[win_seat] += 1
        leader = win_seat
    return out


def mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))
