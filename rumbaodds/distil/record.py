"""Recording PIMC's decisions: deals played with every seat by PIMC, each choice with what the player knew.

A decision is kept when the player had two or more legal cards. Its record is
plain integers (masks as Python ints), so features can change without
playing the deals again: the player's hand, his legal cards, the cards he has
not seen, the trick so far (leader, led suit, winning card and seat), the
tricks won per seat, the Rumba caller (-1: a normal game), the cards each seat
is known not to hold, and PIMC's card.
"""

from __future__ import annotations

import numpy as np

from ..engine import pimc
from ..engine.dd import new_stack
from ..engine.keep import hand_points
from ..engine.rng import deal_batch, stream_start
from ..engine.tricks import beats, legal_mask
from ..rules import RuleSet

U64 = 0xFFFFFFFFFFFFFFFF
CALLER_SHARE = 0.10  # Rumba deals: the caller's hand is among the strongest 10% by keep-value points


def _u64(value) -> np.uint64:
    return np.uint64(int(value) & U64)


def rumba_deals(rules: RuleSet, players: int, count: int, seed: int):
    """``count`` deals whose hand 0 (the caller, who leads) is among the strongest ``CALLER_SHARE`` of hands.

    Returns (hands (count, players) uint64, trump suits, turned cards)."""
    top = max(c & 15 for c in rules.deck)
    pool = int(max(4 * count, 2000) / CALLER_SHARE)
    hands, trump_cards, _ = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, pool)
    trumps = (trump_cards >> 4).astype(np.int64)
    points = np.array([hand_points(h, t, top) for h, t in zip(hands[:, 0], trumps, strict=True)])
    keep = np.flatnonzero(points >= np.quantile(points, 1 - CALLER_SHARE))[:count]
    return hands[keep], trumps[keep], trump_cards[keep].astype(np.int64)


def normal_deals(rules: RuleSet, players: int, count: int, seed: int):
    """``count`` random deals for a normal game: (hands, trump suits, turned cards, leaders)."""
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, count)
    return hands, (trump_cards >> 4).astype(np.int64), trump_cards.astype(np.int64), leaders.astype(np.int64)


def record_deals(rules: RuleSet, players: int, count: int, seed: int, rumba: bool, worlds: int = pimc.DEFAULT_WORLDS,
                 progress=None) -> list[dict]:
    """Play ``count`` deals with every seat by PIMC; the list of decisions with a choice.

    ``rumba``: hand 0 calls a Rumba and leads, the others defend (each PIMC
    player's objective: docs/SIMULATION.md "Card play"); else a normal game
    from the deal's own leader, each player for himself.
    """
    if rumba:
        hands_all, trumps, turned = rumba_deals(rules, players, count, seed)
        leaders = np.zeros(len(hands_all), dtype=np.int64)
    else:
        hands_all, trumps, turned, leaders = normal_deals(rules, players, count, seed)
    util_caller, util_normal = pimc.utility_tables(rules)
    tt_keys, tt_infos, _ = pimc.new_tables()
    st, mv, um, owner = new_stack()
    scratch = np.zeros(64, np.int64)
    world = np.zeros(players, np.uint64)
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    deck_mask = np.uint64(rules.deck_mask)
    follow = rules.follow_code
    caller = 0 if rumba else -1
    stamp = 0
    out: list[dict] = []
    for d in range(len(hands_all)):
        hands = hands_all[d].copy()
        trump = int(trumps[d])
        state = _u64(stream_start(seed, d))
        seen = _u64(1 << int(turned[d]))
        played = np.uint64(0)
        forbidden = np.zeros(players, np.uint64)
        won = np.zeros(players, np.int64)
        leader = int(leaders[d])
        for trick in range(rules.hand_size):
            led, wcard, wseat, table = -1, -1, -1, np.uint64(0)
            p = leader
            for pos in range(players):
                hand = hands[p]
                legal = int(legal_mask(hand, led, wcard, trump, follow)) & U64
                max_seat = caller if rumba else p
                card, state, stamp, _used = pimc.pimc_card(
                    hands, p, leader, led, wcard, wseat, table, deck_mask, played, seen, forbidden, won, trump, follow,
                    max_seat, util_caller if rumba else util_normal, worlds, state, tt_keys, tt_infos, stamp, st, mv,
                    um, owner, scratch, world, cards, values)
                state = _u64(state)
                if legal & (legal - 1):
                    unseen = int(deck_mask & ~hand & ~played & ~seen) & U64
                    out.append({"players": players, "follow": follow, "trump": trump, "me": p, "pos": pos,
                                "trick": trick, "leader": leader, "led": led, "wcard": wcard, "wseat": wseat,
                                "hand": int(hand) & U64, "legal": legal, "unseen": unseen, "caller": caller,
                                "won": [int(w) for w in won], "forbidden": [int(f) & U64 for f in forbidden],
                                "card": int(card)})
                forbidden[p] |= pimc.observe(card, led, wcard, trump, follow)
                bit = _u64(1 << int(card))
                hands[p] = hand & ~bit
                played |= bit
                table |= bit
                if led < 0:
                    led, wcard, wseat = int(card) >> 4, int(card), p
                elif beats(card, wcard, trump):
                    wcard, wseat = int(card), p
                p = (p + 1) % players
            won[wseat] += 1
            leader = wseat
        if progress is not None:
            progress(d + 1, len(hands_all))
    return out


__all__ = ["record_deals", "rumba_deals", "normal_deals", "CALLER_SHARE"]
