"""The mid-trick double-dummy search (``engine/dd.py``: ``can_make_from``, ``solve_from``, ``card_values``).

PIMC values each legal card by a double-dummy search started in the middle of
a trick (RULES.md §6 "double-dummy value", from a trick in progress). Checked
against the trick-boundary solver on thousands of deals, and against a plain
minimax written here on small mid-trick positions.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from rumbaodds.engine.dd import card_values, dd_tricks, new_stack, new_table, solve_from
from rumbaodds.engine.rng import deal_batch
from rumbaodds.game.tricks import card_beats, legal_cards
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import pimc as twin

RULES = {"swiss": SWISS, "flemish": FLEMISH}


def minimax(hands: list[frozenset], tlead: int, trick: tuple, trump: int, follow: int, seat: int) -> int:
    """Tricks ``seat`` makes from here (the trick in progress included), every card legal by the game's rules."""
    n = len(hands)

    @cache
    def value(hands, tlead, trick):
        if len(trick) == n:
            best = 0
            for k in range(1, n):
                if card_beats(trick[k], trick[best], trump):
                    best = k
            winner = (tlead + best) % n
            return (winner == seat) + (value(hands, winner, ()) if hands[winner] else 0)
        p = (tlead + len(trick)) % n
        led = trick[0] // 16 if trick else None
        win = None
        if trick:
            win = trick[0]
            for c in trick[1:]:
                if card_beats(c, win, trump):
                    win = c
        outs = [value(tuple(h - {c} if q == p else h for q, h in enumerate(hands)), tlead, trick + (c,))
                for c in legal_cards(hands[p], led, win, trump, follow)]
        return max(outs) if p == seat else min(outs)

    return value(tuple(hands), tlead, tuple(trick))


class Solver:
    """One table and stack for many searches; a new stamp per position."""

    def __init__(self):
        self.keys, self.infos = new_table(18)
        self.st, self.mv, self.um, self.owner = new_stack()
        self.stamp = 0
        self.cards = np.zeros(8, dtype=np.int64)
        self.values = np.zeros(8, dtype=np.int64)

    def values_of(self, hands, tlead, trick, trump, follow, seat) -> dict[int, int]:
        led, win, wseat, table = -1, -1, -1, 0
        n = len(hands)
        for k, c in enumerate(trick):
            if k == 0 or card_beats(c, win, trump):
                win, wseat = c, (tlead + k) % n
            table |= 1 << c
        if trick:
            led = trick[0] // 16
        self.stamp += 1
        work = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
        before = work.copy()
        count = card_values(work, tlead, led, win, wseat, np.uint64(table), trump, follow, seat, self.keys,
                            self.infos, self.stamp, self.st, self.mv, self.um, self.owner, self.cards, self.values)
        assert (work == before).all()  # hands restored
        return {int(self.cards[i]): int(self.values[i]) for i in range(count)}


def random_position(rng: random.Random, rules, n: int, size: int, on_table: int):
    deck = list(rules.deck)
    rng.shuffle(deck)
    hands = [set(deck[p * size:(p + 1) * size]) for p in range(n)]
    trump = rng.randrange(4)
    follow = rules.follow_code
    tlead = rng.randrange(n)
    trick = []
    for k in range(on_table):
        p = (tlead + k) % n
        led = trick[0] // 16 if trick else None
        win = None
        if trick:
            win = trick[0]
            for c in trick[1:]:
                if card_beats(c, win, trump):
                    win = c
        c = rng.choice(sorted(legal_cards(hands[p], led, win, trump, follow)))
        hands[p].remove(c)
        trick.append(c)
    return [frozenset(h) for h in hands], tlead, tuple(trick), trump, follow


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_card_values_at_boundary_equal_the_solver(name):
    """At a trick boundary the best card's value (MAX leads) or the worst (MIN leads) is the solver's value."""
    rules = RULES[name]
    solver = Solver()
    checked = 0
    for n in (3, 4, 5):
        for size in (1, 2, 3, 4, 5):
            hands, trumps, leaders = deal_batch(rules.deck_array(), n, size, 17 + n, 0, 100 if size < 5 else 60)
            for i in range(hands.shape[0]):
                trump = int(trumps[i]) >> 4
                leader = int(leaders[i])
                seat = i % n
                sets = [frozenset(c for c in range(64) if (int(m) >> c) & 1) for m in hands[i]]
                vals = solver.values_of(sets, leader, (), trump, rules.follow_code, seat)
                want = dd_tricks(hands[i], leader, trump, rules.follow_code, seat)
                got = max(vals.values()) if leader == seat else min(vals.values())
                assert got == want, (sets, leader, trump, seat)
                checked += 1
    assert checked >= 1000


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_card_values_mid_trick_equal_plain_minimax(name):
    rules = RULES[name]
    rng = random.Random(5 if name == "swiss" else 6)
    solver = Solver()
    for _ in range(300):
        n = rng.choice((3, 4, 5))
        size = rng.choice((1, 2, 3))
        on_table = rng.randrange(n)
        hands, tlead, trick, trump, follow = random_position(rng, rules, n, size, on_table)
        seat = rng.randrange(n)
        vals = solver.values_of(hands, tlead, trick, trump, follow, seat)
        p = (tlead + len(trick)) % n
        for c, v in vals.items():
            after = [h - {c} if q == p else h for q, h in enumerate(hands)]
            assert v == minimax(after, tlead, trick + (c,), trump, follow, seat), (hands, tlead, trick, c)
        # twin == kernel
        assert twin.card_values(hands, tlead, list(trick), trump, follow, seat) == vals
        # and the whole position, from solve_from
        work = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
        if trick:
            want = max(vals.values()) if p == seat else min(vals.values())
            led = trick[0] // 16
            win, wseat = trick[0], tlead
            for k, c in enumerate(trick[1:], 1):
                if card_beats(c, win, trump):
                    win, wseat = c, (tlead + k) % n
            solver.stamp += 1
            got = solve_from(work, tlead, led, win, wseat, np.uint64(sum(1 << c for c in trick)), trump, follow,
                             seat, solver.keys, solver.infos, solver.stamp, solver.st, solver.mv, solver.um,
                             solver.owner)
            assert got == want


def test_hand_worked_mid_trick():
    """RULES.md §3: seat 1 led C6; seat 0 holding C7 and HA must follow with the club, wins, then cashes HA."""
    from rumbaodds.cards import parse_card, parse_suit
    c6, c7, ha, sa = (parse_card(t) for t in ("C6", "C7", "HA", "SA"))
    hands = [frozenset({c7, ha}), frozenset({sa})]
    for follow in (SWISS.follow_code, FLEMISH.follow_code):
        vals = Solver().values_of(hands, 1, (c6,), parse_suit("H"), follow, 0)
        assert vals == {c7: 2}
        assert minimax([frozenset({ha}), frozenset({sa})], 1, (c6, c7), parse_suit("H"), follow, 0) == 2
        # negative control: counting seat 1's tricks instead gives 0
        assert Solver().values_of(hands, 1, (c6,), parse_suit("H"), follow, 1) == {c7: 0}
