"""Recording PIMC's decisions: deals played with every seat by PIMC, each choice with what the player knew.

A decision is kept when the player had two or more legal cards. Its record is
plain integers (masks as Python ints), so features can change without
playing the deals again: the player's hand, his legal cards, the cards he has
not seen, the trick so far (leader, led suit, winning card and seat), the
tricks won per seat, the Rumba caller (-1: a normal game), the cards each seat
is known not to hold, PIMC's card and its summed utility of each legal card
(``sums``, low to high, over ``used`` worlds: how much the choice matters),
and the card the seat played (``played``: PIMC's, or the distilled fit's).

The states are those of the deal as it is played: every seat by PIMC, or
some seats by a ``distilled`` fit (``seats``), whose decisions are still
labelled with PIMC's card. The latter teaches the fit the states its own
play leads to (DAgger: Ross, Gordon and Bagnell 2011).
"""

from __future__ import annotations

import numpy as np

from ..engine import pimc
from ..engine.bits import lowest_card, popcount
from ..engine.dd import new_stack
from ..engine.distilled import deck_ranks, shipped_trees
from ..engine.keep import hand_points
from ..engine.policy import NSCORE
from ..engine.rng import deal_batch, stream_start
from ..engine.tricks import beats, legal_mask
from ..rules import RuleSet

U64 = 0xFFFFFFFFFFFFFFFF
CALLER_SHARE = 0.10  # Rumba deals: the caller's hand is among the strongest 10% by keep-value points


def _u64(value) -> np.uint64:
    return np.uint64(int(value) & U64)


def rumba_deals(rules: RuleSet, players: int, count: int, seed: int):
    """``count`` deals whose hand 0 (the caller, who leads) is among the strongest ``CALLER_SHARE`` of hands by
    keep-value points. Not by a solved strategy's threshold, which moves with the card play: the recordings, and so
    the weights, must not depend on what is built from them.

    Returns (hands (count, players) uint64, trump suits, turned cards, the least points kept)."""
    top = max(c & 15 for c in rules.deck)
    pool = int(max(4 * count, 2000) / CALLER_SHARE)
    hands, trump_cards, _ = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, pool)
    trumps = (trump_cards >> 4).astype(np.int64)
    points = np.array([hand_points(h, t, top) for h, t in zip(hands[:, 0], trumps, strict=True)])
    least = np.quantile(points, 1 - CALLER_SHARE)
    keep = np.flatnonzero(points >= least)[:count]
    return hands[keep], trumps[keep], trump_cards[keep].astype(np.int64), int(np.ceil(least))


def points_belief(rules: RuleSet, least: int) -> tuple:
    """What the recorded Rumbas' defenders believe of the caller (engine/pimc.py ``belief``): exactly what the
    deals are, a hand of at least ``least`` keep-value points (engine/keep.py ``hand_points`` as a hand score:
    a trump ``d`` ranks below the top is worth 2 + max(4 - d, 0), a side ace 3, a side king 1). Not a solved
    strategy's call probabilities, for the reason of :func:`rumba_deals`."""
    top = max(c & 15 for c in rules.deck)
    values = np.zeros((2, 16), dtype=np.int64)
    for d in range(16):
        values[1, d] = 2 + max(4 - d, 0)
    values[0, 0], values[0, 1] = 3, 1
    probs = (np.arange(NSCORE) >= least).astype(np.float64)
    return probs, values, top


def normal_deals(rules: RuleSet, players: int, count: int, seed: int):
    """``count`` random deals for a normal game: (hands, trump suits, turned cards, leaders)."""
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, count)
    return hands, (trump_cards >> 4).astype(np.int64), trump_cards.astype(np.int64), leaders.astype(np.int64)


def record_deals(rules: RuleSet, players: int, count: int, seed: int, rumba: bool, worlds: int = pimc.DEFAULT_WORLDS,
                 progress=None, seats=None, weights=None, believe: bool = False) -> list[dict]:
    """Play ``count`` deals, recording PIMC's choice at every decision with a choice.

    ``rumba``: hand 0 calls a Rumba and leads (a strong hand, see
    :func:`rumba_deals`), the others defend (each PIMC player's objective:
    docs/SIMULATION.md "Card play"); else a normal game from the deal's own
    leader, each player for himself. ``seats``: who plays the card, per seat
    (``pimc.SEAT_PIMC``, the default, or ``pimc.SEAT_DISTILLED`` with
    ``weights`` by follow rule); PIMC labels every decision either way. ``believe``: the defenders' worlds give
    the caller what the deals give him, a hand among the strongest (:func:`points_belief`).
    """
    belief = None
    if rumba:
        hands, trumps, turned, least = rumba_deals(rules, players, count, seed)
        deals = (hands, np.zeros(len(hands), dtype=np.int64), trumps, turned)
        belief = points_belief(rules, least) if believe else None
    else:
        hands, trumps, turned, leaders = normal_deals(rules, players, count, seed)
        deals = (hands, leaders, trumps, turned)
    seats = [pimc.SEAT_PIMC] * players if seats is None else list(seats)
    records, _ = play_deals(rules, deals, seed, 0 if rumba else -1, lambda p, trick, pos: seats[p], weights, worlds,
                            label_all=True, progress=progress, belief=belief)
    return records


def play_deals(rules: RuleSet, deals, seed: int, caller: int, plays, weights=None, worlds: int = pimc.DEFAULT_WORLDS,
               label_all: bool = True, progress=None, belief=None) -> tuple[list[dict], np.ndarray]:
    """Play ``deals`` (hands (count, players) uint64, leaders, trump suits, turned cards); (records, tricks).

    ``plays(seat, trick, position in the trick)``: that decision's card play,
    ``pimc.SEAT_PIMC`` or ``pimc.SEAT_DISTILLED`` (``weights`` by follow
    rule), so search can be put exactly where one asks what it gains.
    ``caller``: the Rumba player (-1: a normal game). PIMC labels, and a
    record keeps, every decision with a choice (``label_all``) or only those
    PIMC plays. ``tricks``: (count, players) tricks won. Deal ``d`` draws
    PIMC's worlds from the stream ``d`` of ``seed``. ``belief``: what the
    defenders believe of the caller's hand (engine/pimc.py ``pimc_sums``).
    """
    hands_all, leaders, trumps, turned = deals
    count, players = hands_all.shape
    rumba = caller >= 0
    util_caller, util_normal = pimc.utility_tables(rules)
    tt_keys, tt_infos, _ = pimc.new_tables()
    st, mv, um, owner = new_stack()
    scratch = np.zeros(64, np.int64)
    world = np.zeros(players, np.uint64)
    cards = np.zeros(8, np.int64)
    values = np.zeros(8, np.int64)
    sums = np.zeros(8, np.int64)
    deck_mask = np.uint64(rules.deck_mask)
    low_rank, top_rank = deck_ranks(deck_mask)
    follow = rules.follow_code
    stamp = 0
    out: list[dict] = []
    tricks = np.zeros((count, players), dtype=np.int64)
    for d in range(count):
        hands = hands_all[d].copy()
        trump = int(trumps[d])
        state = _u64(stream_start(seed, d))
        seen = _u64(1 << int(turned[d]))
        played = np.uint64(0)
        forbidden = np.zeros(players, np.uint64)
        won = np.zeros(players, np.int64)
        caller_shown = np.uint64(0)
        leader = int(leaders[d])
        for trick in range(rules.hand_size):
            led, wcard, wseat, table = -1, -1, -1, np.uint64(0)
            p = leader
            for pos in range(players):
                hand = hands[p]
                legal = int(legal_mask(hand, led, wcard, trump, follow)) & U64
                max_seat = caller if rumba else p
                unseen = int(deck_mask & ~hand & ~played & ~seen) & U64
                policy = plays(p, trick, pos)
                if not legal & (legal - 1):
                    card = int(lowest_card(_u64(legal)))
                else:
                    label = -1
                    if label_all or policy == pimc.SEAT_PIMC:
                        state, stamp, used = pimc.pimc_sums(
                            hands, p, leader, led, wcard, wseat, table, deck_mask, played, seen, forbidden, won,
                            trump, follow, max_seat, util_caller if rumba else util_normal, worlds, state, tt_keys,
                            tt_infos, stamp, st, mv, um, owner, scratch, world, cards, values, sums, belief, caller,
                            caller_shown)
                        state = _u64(state)
                        label = int(pimc.best_summed(_u64(legal), sums, trump, p == max_seat))
                    if policy == pimc.SEAT_PIMC:
                        card = label
                    else:
                        card = int(pimc.distilled_seat_card(
                            hand, _u64(legal), _u64(unseen), trump, p, leader, pos, wcard, wseat, won, forbidden,
                            caller, rules.rumba_min_tricks, low_rank, top_rank, weights[follow],
                            shipped_trees(follow)))
                    if label >= 0:
                        out.append({"players": players, "follow": follow, "trump": trump, "me": p, "pos": pos,
                                    "trick": trick, "leader": leader, "led": led, "wcard": wcard, "wseat": wseat,
                                    "hand": int(hand) & U64, "legal": legal, "unseen": unseen, "caller": caller,
                                    "won": [int(w) for w in won], "forbidden": [int(f) & U64 for f in forbidden],
                                    "card": label, "sums": [int(x) for x in sums[:popcount(legal)]],
                                    "used": int(used), "played": card})
                forbidden[p] |= pimc.observe(card, led, wcard, trump, follow)
                bit = _u64(1 << int(card))
                hands[p] = hand & ~bit
                if p == caller:
                    caller_shown |= bit
                played |= bit
                table |= bit
                if led < 0:
                    led, wcard, wseat = int(card) >> 4, int(card), p
                elif beats(card, wcard, trump):
                    wcard, wseat = int(card), p
                p = (p + 1) % players
            won[wseat] += 1
            leader = wseat
        tricks[d] = won
        if progress is not None:
            progress(d + 1, count)
    return out, tricks


__all__ = ["record_deals", "play_deals", "rumba_deals", "normal_deals", "points_belief", "CALLER_SHARE"]
