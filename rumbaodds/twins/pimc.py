"""Plain-Python twin of the PIMC card play (``engine/pimc.py``, docs/SIMULATION.md "Card play").

Written for reading, not for speed (use it on hands of 2-3 cards): the values
come from an exhaustive minimax over the game's trick rules
(``rumbaodds.game.tricks``); worlds are dealt with the same random numbers as
the kernel (``twins.common.Stream``), so with one seed both play the same cards.
"""

from __future__ import annotations

from functools import cache

from ..game.tricks import card_beats, legal_cards, suit_of
from .common import STECHZWANG, Stream, greedy_card, strength
from .hand import expert_card

GREEDY, EXPERT, PIMC = 0, 1, 2
TRIES = 50
BELIEF_TRIES = 64
NSCORE = 64  # engine/policy.py: hand scores are clipped below it


def _winning(trick: list[int], trump: int) -> tuple[int | None, int | None]:
    """(winning card, its place in the trick) of the cards on the table."""
    if not trick:
        return None, None
    best = 0
    for k in range(1, len(trick)):
        if card_beats(trick[k], trick[best], trump):
            best = k
    return trick[best], best


def card_values(hands, tlead: int, trick: list[int], trump: int, follow: int, seat: int) -> dict[int, int]:
    """For each legal card of the seat to play: the tricks ``seat`` makes from this trick on once it is played.

    ``seat`` maximises, every other seat (one side) minimises (RULES.md §6, from a trick in progress).
    """
    n = len(hands)

    @cache
    def value(held: tuple[frozenset[int], ...], tlead: int, trick: tuple[int, ...]) -> int:
        if len(trick) == n:
            _, best = _winning(list(trick), trump)
            winner = (tlead + best) % n
            return (winner == seat) + (value(held, winner, ()) if held[winner] else 0)
        p = (tlead + len(trick)) % n
        outs = [value(_without(held, p, c), tlead, trick + (c,)) for c in _legal(held[p], list(trick), trump, follow)]
        return max(outs) if p == seat else min(outs)

    held = tuple(frozenset(h) for h in hands)
    p = (tlead + len(trick)) % n
    return {c: value(_without(held, p, c), tlead, tuple(trick) + (c,))
            for c in sorted(_legal(held[p], trick, trump, follow))}


def _without(held, p, card):
    return tuple(h - {card} if q == p else h for q, h in enumerate(held))


def _legal(hand, trick, trump, follow):
    win, _ = _winning(trick, trump)
    return legal_cards(hand, suit_of(trick[0]) if trick else None, win, trump, follow)


def observe(card: int, led: int | None, win: int | None, trump: int, follow: int, deck) -> set[int]:
    """Cards a player cannot hold after playing ``card``: §3 read backwards (see the kernel's ``observe``)."""
    if led is None:
        return set()
    wins = card_beats(card, win, trump)
    beaters = {c for c in deck if card_beats(c, win, trump)}
    if suit_of(card) == led:
        return set() if wins else {c for c in beaters if suit_of(c) == led}
    out = {c for c in deck if suit_of(c) == led}
    if suit_of(card) != trump:
        if follow == STECHZWANG:
            out |= {c for c in deck if suit_of(c) == trump}
    elif not wins:
        out |= {c for c in beaters if suit_of(c) == trump}
    return out


def sample_world(unseen: set[int], counts: list[int], forbidden: list[set[int]], me: int, stream: Stream):
    """Hands for every seat but ``me`` (None for ``me``), or None when no try succeeds: the kernel's algorithm."""
    cards = sorted(unseen)
    n = len(counts)
    for _ in range(TRIES):
        for j in range(len(cards)):  # Fisher-Yates, as rng.shuffle
            k = j + stream.below(len(cards) - j)
            cards[j], cards[k] = cards[k], cards[j]
        world, pos = [None] * n, 0
        for p in range(n):
            if p == me:
                continue
            world[p] = set(cards[pos:pos + counts[p]])
            pos += counts[p]
            if world[p] & forbidden[p]:
                break
        else:
            return world
    others = [p for p in range(n) if p != me]
    order = sorted(others, key=lambda p: len(unseen - forbidden[p]) - counts[p])  # stable: seat order on ties
    for _ in range(TRIES):
        free, world = set(unseen), [None] * n
        for p in order:
            pool = sorted(free - forbidden[p])
            if len(pool) < counts[p]:
                break
            world[p] = set()
            for _j in range(counts[p]):
                c = pool.pop(stream.below(len(pool)))
                world[p].add(c)
            free -= world[p]
        else:
            return world
    return None


def hand_score(cards, trump: int, top: int, values) -> int:
    """The strategy's strength index of a hand (engine/policy.py): each card's value by trump or side suit and
    distance from the top rank, summed, clipped to NSCORE - 1."""
    total = 0
    for c in cards:
        distance = top - (c & 15)
        if 0 <= distance <= 15:
            total += int(values[1 if c >> 4 == trump else 0][distance])
    return min(total, NSCORE - 1)


def believed_world(unseen, counts, forbidden, me: int, stream: Stream, belief, caller: int, caller_shown: set[int],
                   trump: int):
    """A world in which the caller's whole hand would call Rumba: consistent worlds drawn one after another, each
    kept with that hand's probability of calling (``belief`` = (by hand score, card values, top rank)); after
    BELIEF_TRIES, the last consistent one. None when no consistent world is found."""
    probs, values, top = belief
    for _ in range(BELIEF_TRIES):
        world = sample_world(unseen, counts, forbidden, me, stream)
        if world is None:
            return None
        if stream.uniform() < probs[hand_score(world[caller] | caller_shown, trump, top, values)]:
            return world
    return world


def pimc_card(hands, me: int, tlead: int, trick: list[int], deck, played: set[int], seen: set[int],
              forbidden: list[set[int]], won: list[int], trump: int, follow: int, max_seat: int, util,
              worlds: int, stream: Stream, belief=None, caller: int | None = None,
              caller_shown: frozenset[int] = frozenset()) -> tuple[int, int]:
    """(card, worlds used): the legal card with the best summed ``util[tricks of max_seat]`` over sampled worlds.

    ``me`` maximises when he is ``max_seat``, else minimises; ties go to the weakest card (§6 order).
    ``belief``: a Rumba defender (not the ``caller``) draws the caller's hand from those that call
    (:func:`believed_world`). A ``seen`` card in a seat's hand (the turned card a seat took) stays his in
    every world.
    """
    hand = set(hands[me])
    legal = _legal(hand, trick, trump, follow)
    if len(legal) == 1:
        return next(iter(legal)), 0
    counts = [len(set(h) - seen) for h in hands]
    unseen = set(deck) - hand - played - seen
    known = set(caller_shown) | (set(hands[caller]) & seen if caller is not None else set())
    sums = dict.fromkeys(legal, 0)
    used = 0
    for _ in range(worlds):
        if belief is None or caller is None or me == caller:
            world = sample_world(unseen, counts, forbidden, me, stream)
        else:
            world = believed_world(unseen, counts, forbidden, me, stream, belief, caller, known, trump)
        if world is None:
            continue
        world = [w if w is None else w | (set(hands[p]) & seen) for p, w in enumerate(world)]
        world[me] = hand
        for c, v in card_values(world, tlead, trick, trump, follow, max_seat).items():
            sums[c] += util[won[max_seat] + v]
        used += 1
    sign = 1 if me == max_seat else -1
    best = None
    for c in sorted(legal, key=lambda c: strength(c, trump)):
        if best is None or sign * sums[c] > sign * sums[best]:
            best = c
    return best, used


def play_deal(hands, leader: int, trump: int, follow: int, deck, turned: int | None, caller: int | None, seats,
              util_caller, util_normal, worlds: int, seed: int, index: int, belief=None,
              public=frozenset()) -> tuple[list[int], int]:
    """(tricks per seat, worlds used): ``hands`` played to the end, seat ``p`` by ``seats[p]`` (GREEDY/EXPERT/PIMC);
    ``belief``: what the call says of the caller's hand, for the PIMC defenders (:func:`believed_world`);
    ``public``: cards in a hand whose place everybody knows (the turned card a seat took), seen by all."""
    hands = [set(h) for h in hands]
    n = len(hands)
    stream = Stream(seed, index)
    seen = (set() if turned is None else {turned}) | set(public)
    played: set[int] = set()
    forbidden = [set() for _ in range(n)]
    shown = [set() for _ in range(n)]  # each seat's cards played so far
    won = [0] * n
    used_total = 0
    while hands[leader]:
        trick: list[int] = []
        caller_played = False
        for pos in range(n):
            p = (leader + pos) % n
            led = suit_of(trick[0]) if trick else None
            win, place = _winning(trick, trump)
            if seats[p] == GREEDY:
                card = greedy_card(_legal(hands[p], trick, trump, follow), led, win, trump)
            elif seats[p] == EXPERT:
                unseen = set(deck) - hands[p] - played - seen
                partner_wins = (caller is not None and p != caller and caller_played
                                and (leader + place) % n != caller)
                card = expert_card(hands[p], unseen, trump, follow, led_suit=led, win_card=win,
                                   is_rumba_player=p == caller, partner_wins=partner_wins, last_to_play=pos == n - 1)
            else:
                max_seat = p if caller is None else caller
                util = util_normal if caller is None else util_caller
                card, used = pimc_card(hands, p, leader, trick, deck, played, seen, forbidden, won, trump, follow,
                                       max_seat, util, worlds, stream, belief, caller,
                                       frozenset(shown[caller]) if caller is not None else frozenset())
                used_total += used
            forbidden[p] |= observe(card, led, win, trump, follow, deck)
            shown[p].add(card)
            hands[p].discard(card)
            played.add(card)
            trick.append(card)
            caller_played = caller_played or p == caller
        _, best = _winning(trick, trump)
        leader = (leader + best) % n
        won[leader] += 1
    return won, used_total


def consistent_worlds(unseen: set[int], counts: list[int], forbidden: list[set[int]], me: int):
    """Every world (hands for every seat but ``me``) that gives no seat a card it cannot hold."""
    from itertools import combinations

    others = [p for p in range(len(counts)) if p != me]

    def deal(i, free):
        if i == len(others):
            yield {}
            return
        p = others[i]
        for chosen in combinations(sorted(free - forbidden[p]), counts[p]):
            for rest in deal(i + 1, free - set(chosen)):
                yield {p: set(chosen), **rest}

    for hands in deal(0, set(unseen)):
        yield [hands.get(p) for p in range(len(counts))]


def exact_values(hands, me: int, tlead: int, trick: list[int], deck, played: set[int], seen: set[int],
                 forbidden: list[set[int]], won: list[int], trump: int, follow: int, max_seat: int, util):
    """PIMC with every consistent world instead of a sample: the mean utility of each legal card."""
    from fractions import Fraction

    hand = set(hands[me])
    counts = [len(set(h) - seen) for h in hands]
    unseen = set(deck) - hand - played - seen
    sums: dict[int, int] = {}
    worlds = 0
    for world in consistent_worlds(unseen, counts, forbidden, me):
        world = [w if w is None else w | (set(hands[p]) & seen) for p, w in enumerate(world)]
        world[me] = hand
        for c, v in card_values(world, tlead, trick, trump, follow, max_seat).items():
            sums[c] = sums.get(c, 0) + util[won[max_seat] + v]
        worlds += 1
    return {c: Fraction(s, worlds) for c, s in sums.items()}


__all__ = ["GREEDY", "EXPERT", "PIMC", "card_values", "observe", "sample_world", "pimc_card", "play_deal",
           "consistent_worlds", "exact_values"]
