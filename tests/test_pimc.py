"""PIMC card play (``engine/pimc.py``) against its twin, the expert play, the revealed cards and an exact expectation.

docs/SIMULATION.md "Card play", ``pimc``: worlds consistent with what the play
revealed (RULES.md §3 read backwards), values by the mid-trick double-dummy
search, the best summed utility (minus the score change, RULES.md §4.8).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from rumbaodds.cards import parse_card, parse_suit
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled import WEIGHTS
from rumbaodds.engine.play import POLICY_EXPERT, POLICY_GREEDY, play_tricks
from rumbaodds.engine.rng import deal_batch, stream_start
from rumbaodds.game.tricks import card_beats, legal_cards
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import pimc as twin
from rumbaodds.twins.common import Stream

RULES = {"swiss": SWISS, "flemish": FLEMISH}


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def cards_of(m) -> set[int]:
    return {c for c in range(64) if (int(m) >> c) & 1}


def batch(rules, n, size, count, seed, caller, seats, worlds=8):
    hands, trumps, leaders = deal_batch(rules.deck_array(), n, size, seed, 0, count)
    turned = trumps.astype(np.int64)
    uc, un = pimc.utility_tables(rules)
    out, stats = pimc.play_batch(hands, leaders.astype(np.int64), turned >> 4, turned, rules.follow_code,
                                 np.uint64(rules.deck_mask), caller, np.array(seats, dtype=np.int64), uc, un,
                                 rules.rumba_min_tricks, WEIGHTS, worlds,
                                 seed, np.arange(count, dtype=np.int64))
    return hands, turned, leaders, out, stats


def test_utilities_follow_the_score_sheet():
    """RULES.md §4.8 swiss: caller 3..5 tricks -2 each, else +10; a normal player -k, +5 for none (negated)."""
    caller, normal = pimc.utility_tables(SWISS)
    assert list(caller) == [-10, -10, -10, 6, 8, 10]
    assert list(normal) == [-5, 1, 2, 3, 4, 5]
    from rumbaodds.game.score import trick_score
    for rules in (SWISS, FLEMISH):
        caller, normal = pimc.utility_tables(rules)
        assert list(caller) == [-trick_score(rules, t, True, True) for t in range(6)]
        assert list(normal) == [-trick_score(rules, t, False, False) for t in range(6)]


@pytest.mark.parametrize("name,caller", [("swiss", 0), ("swiss", -1), ("flemish", 1), ("flemish", -1)])
def test_greedy_and_expert_seats_play_as_the_hand_kernel(name, caller):
    """play_deal with every seat expert (or greedy) plays the cards of play.play_tricks: the same tricks."""
    rules = RULES[name]
    for policy, code in ((POLICY_EXPERT, pimc.SEAT_EXPERT), (POLICY_GREEDY, pimc.SEAT_GREEDY)):
        hands, turned, leaders, out, _ = batch(rules, 4, 5, 300, 3, caller, [code] * 4)
        for i in range(hands.shape[0]):
            tricks = np.zeros(4, dtype=np.int64)
            play_tricks(hands[i].copy(), 4, int(leaders[i]), int(turned[i]) >> 4, rules.follow_code, policy, caller,
                        np.uint64(rules.deck_mask), np.uint64(1 << int(turned[i])), tricks, rules.rumba_min_tricks)
            assert (tricks == out[i]).all(), i


@pytest.mark.parametrize("name,n,size,caller,seats", [
    ("swiss", 3, 2, 0, [2, 2, 2]),
    ("swiss", 4, 3, -1, [2, 1, 2, 0]),
    ("flemish", 3, 3, -1, [2, 2, 2]),
    ("flemish", 4, 2, 2, [1, 2, 2, 2]),
])
def test_kernel_equals_twin_with_a_fixed_seed(name, n, size, caller, seats):
    rules = RULES[name]
    hands, turned, leaders, out, stats = batch(rules, n, size, 12, 11, caller, seats, worlds=6)
    uc, un = pimc.utility_tables(rules)
    used = 0
    for i in range(hands.shape[0]):
        won, u = twin.play_deal([cards_of(m) for m in hands[i]], int(leaders[i]), int(turned[i]) >> 4,
                                rules.follow_code, rules.deck, int(turned[i]), None if caller < 0 else caller, seats,
                                list(uc), list(un), 6, 11, i)
        assert won == list(out[i]), i
        used += u
    assert used == stats[1] and used > 0


@pytest.mark.parametrize("name,caller", [("swiss", 0), ("swiss", -1)])
def test_a_turned_card_a_seat_took_is_his_in_every_world(name, caller):
    """The turned card a seat took (a knocking dealer [D-3], the swapper of the two [D-9]) is public: play_deal's
    ``public`` card is counted as seen by every player and PIMC's worlds give it to its holder, kernel == twin
    (twins/pimc.py adds it to his sampled hand in plain sets). Control: where nobody knows it, the play differs
    on some deal."""
    rules = RULES[name]
    n, size, worlds, seed = 4, 4, 6, 13
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), n, size, seed, 0, 14)
    uc, un = pimc.utility_tables(rules)
    seats = np.full(n, pimc.SEAT_PIMC, dtype=np.int64)
    holder = 0 if caller < 0 else caller
    differs = 0
    for i in range(hands.shape[0]):
        trump = int(trump_cards[i]) >> 4
        taken = max(cards_of(hands[i, holder]), key=lambda c: (c >> 4 == trump, c & 15))  # his best card
        plays = {}
        for public in (np.uint64(1 << taken), np.uint64(0)):
            tricks = np.zeros(n, dtype=np.int64)
            stats = np.zeros(2, dtype=np.int64)
            pimc.play_deal(hands[i].copy(), int(leaders[i]), trump, rules.follow_code, np.uint64(rules.deck_mask), -1,
                           caller, seats, uc, un, rules.rumba_min_tricks, WEIGHTS, worlds, np.uint64(seed),
                           np.uint64(i), tricks, pimc.new_tables(), stats, None, None, public)
            plays[int(public)] = list(tricks)
        won, _u = twin.play_deal([cards_of(m) for m in hands[i]], int(leaders[i]), trump, rules.follow_code,
                                 rules.deck, None, None if caller < 0 else caller, list(seats), list(uc), list(un),
                                 worlds, seed, i, public={taken})
        assert won == plays[1 << taken], i
        differs += plays[1 << taken] != plays[0]
    assert differs > 0


# -- what the play reveals ------------------------------------------------------------------------
def random_history(rng: random.Random, rules, n: int, size: int, plies: int):
    """A random legal play of ``plies`` cards: (hands now, leader of the trick, trick, played, history, trump)."""
    deck = list(rules.deck)
    rng.shuffle(deck)
    hands = [set(deck[p * size:(p + 1) * size]) for p in range(n)]
    trump = rng.randrange(4)
    leader, trick, played, history = rng.randrange(n), [], set(), []
    for _ in range(plies):
        p = (leader + len(trick)) % n
        led = trick[0] // 16 if trick else None
        win = None
        for c in trick:
            if win is None or card_beats(c, win, trump):
                win = c
        c = rng.choice(sorted(legal_cards(hands[p], led, win, trump, rules.follow_code)))
        history.append((p, c, led, win))
        hands[p].remove(c)
        played.add(c)
        trick.append(c)
        if len(trick) == n:
            best = 0
            for k in range(1, n):
                if card_beats(trick[k], trick[best], trump):
                    best = k
            leader, trick = (leader + best) % n, []
    return hands, leader, trick, played, history, trump


def replays_legally(world, history, trump, follow) -> bool:
    """Would every card of the history have been legal with the world's hands (plus the cards played since)?"""
    later = [set() for _ in world]
    for p, c, led, win in reversed(history):
        later[p].add(c)
        if world[p] is None:
            continue
        if c not in legal_cards(world[p] | later[p], led, win, trump, follow):
            return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.sampled_from(["swiss", "flemish"]), hst.integers(3, 6), hst.integers(1, 5), hst.integers(0, 2**32),
       hst.data())
def test_sampled_worlds_never_contradict_the_play(name, n, size, seed, data):
    rules = RULES[name]
    rng = random.Random(seed)
    plies = data.draw(hst.integers(0, n * size - 1))
    hands, leader, trick, played, history, trump = random_history(rng, rules, n, size, plies)
    me = (leader + len(trick)) % n
    forbidden = np.zeros(n, dtype=np.uint64)
    for p, c, led, win in history:
        forbidden[p] |= np.uint64(pimc.observe(c, -1 if led is None else led, -1 if win is None else win, trump,
                                               rules.follow_code))
    counts = np.array([len(h) for h in hands], dtype=np.int64)
    unseen = np.uint64(mask(set(rules.deck) - hands[me] - played))
    state = stream_start(np.uint64(seed), np.uint64(0))
    scratch = np.zeros(64, dtype=np.int64)
    world = np.zeros(n, dtype=np.uint64)
    for _ in range(5):
        state, ok = pimc.sample_world(unseen, counts, forbidden, me, np.uint64(state), scratch, world)
        assert ok
        sets = [None if p == me else cards_of(world[p]) for p in range(n)]
        taken = set()
        for p in range(n):
            if p != me:
                assert len(sets[p]) == counts[p] and sets[p] <= cards_of(unseen) and not sets[p] & taken
                taken |= sets[p]
        assert replays_legally(sets, history, trump, rules.follow_code)
    # the true world is consistent too (no over-reach of observe), and twin observe == kernel observe
    assert replays_legally([None if p == me else hands[p] for p in range(n)], history, trump, rules.follow_code)
    for p in range(n):
        if p != me:
            assert not hands[p] & cards_of(forbidden[p])
    for p, c, led, win in history:
        assert twin.observe(c, led, win, trump, rules.follow_code, rules.deck) == set(rules.deck) & cards_of(
            pimc.observe(c, -1 if led is None else led, -1 if win is None else win, trump, rules.follow_code))


def test_observe_hand_worked():
    """§3 swiss: void in the led suit and no trump played shows no trump (Stechzwang); flemish shows only the void."""
    d6, d9, c6, h6, ha = (parse_card(t) for t in ("D6", "D9", "C6", "H6", "HA"))
    hearts = parse_suit("H")
    deck = set(FLEMISH.deck)

    def seen(m):
        return cards_of(m) & deck

    diamonds = {c for c in deck if c // 16 == parse_suit("D")}
    trumps = {c for c in deck if c // 16 == hearts}
    sw, fl = SWISS.follow_code, FLEMISH.follow_code
    assert seen(pimc.observe(c6, parse_suit("D"), d9, hearts, sw)) == diamonds | trumps
    assert seen(pimc.observe(c6, parse_suit("D"), d9, hearts, fl)) == diamonds
    # following low under D9: no diamond above D9
    assert seen(pimc.observe(d6, parse_suit("D"), d9, hearts, sw)) == {c for c in diamonds if c > d9}
    # a trump under the winning HA: no trump above HA (none exists), and the void
    assert seen(pimc.observe(h6, parse_suit("D"), ha, hearts, sw)) == diamonds
    # a trump under a winning H9 (flemish, trumping was free): the void and no trump above H9
    h9 = parse_card("H9")
    assert seen(pimc.observe(h6, parse_suit("D"), h9, hearts, fl)) == diamonds | {c for c in trumps if c > h9}
    assert pimc.observe(ha, -1, -1, hearts, sw) == 0  # a lead reveals nothing


# -- all worlds: an exact expectation ---------------------------------------------------------------
def test_pimc_over_all_worlds_equals_brute_force():
    """A tiny deck (3 suits x 3 ranks), 3 players of 2 cards: every consistent world, found two ways, same means."""
    from fractions import Fraction
    from itertools import permutations

    deck = [s * 16 + r for s in range(3) for r in (10, 11, 12)]
    rng = random.Random(4)
    checked = 0
    for trial in range(40):
        rng.shuffle(deck)
        n, size = 3, 2
        hands = [set(deck[p * size:(p + 1) * size]) for p in range(n)]
        trump = rng.randrange(3)
        follow = (SWISS if trial % 2 else FLEMISH).follow_code
        leader, trick, played, history = rng.randrange(n), [], set(), []
        for _ in range(rng.randrange(1, 4)):  # play 1..3 random legal cards
            p = (leader + len(trick)) % n
            led = trick[0] // 16 if trick else None
            win = None
            for c in trick:
                if win is None or card_beats(c, win, trump):
                    win = c
            c = rng.choice(sorted(legal_cards(hands[p], led, win, trump, follow)))
            history.append((p, c, led, win))
            hands[p].remove(c)
            played.add(c)
            trick.append(c)
            if len(trick) == n:
                best = max(range(n), key=lambda k: (trick[k] // 16 == trump, trick[k] // 16 == trick[0] // 16,
                                                    trick[k] % 16))
                leader, trick = (leader + best) % n, []
        me = (leader + len(trick)) % n
        forbidden = [set() for _ in range(n)]
        for p, c, led, win in history:
            forbidden[p] |= twin.observe(c, led, win, trump, follow, deck)
        util = [-5, 1, 2]
        won = [0] * n
        exact = twin.exact_values(hands, me, leader, trick, deck, played, set(), forbidden, won, trump, follow, me,
                                  util)
        # brute force: every way to deal the unseen cards, kept when the history replays legally
        unseen = sorted(set(deck) - hands[me] - played)
        counts = [len(h) for h in hands]
        sums, count = {}, 0
        seen_worlds = set()
        for perm in permutations(unseen):
            world, pos = [None] * n, 0
            for p in range(n):
                if p != me:
                    world[p] = frozenset(perm[pos:pos + counts[p]])
                    pos += counts[p]
            key = tuple(world)
            if key in seen_worlds:
                continue
            seen_worlds.add(key)
            if not replays_legally([None if w is None else set(w) for w in world], history, trump, follow):
                continue
            world[me] = frozenset(hands[me])
            for c, v in twin.card_values(world, leader, trick, trump, follow, me).items():
                sums[c] = sums.get(c, 0) + util[v]
            count += 1
        assert count >= 1
        assert exact == {c: Fraction(s, count) for c, s in sums.items()}
        checked += 1
    assert checked == 40


def test_replay_check_catches_worlds_that_ignore_the_play():
    """Negative control: worlds dealt without the revealed constraints do contradict the play now and then."""
    rng = random.Random(9)
    caught = 0
    for i in range(200):
        n, size = 4, 5
        hands, leader, trick, played, history, trump = random_history(rng, SWISS, n, size, rng.randrange(6, 18))
        me = (leader + len(trick)) % n
        counts = np.array([len(h) for h in hands], dtype=np.int64)
        unseen = np.uint64(mask(set(SWISS.deck) - hands[me] - played))
        world = np.zeros(n, dtype=np.uint64)
        free = np.zeros(n, dtype=np.uint64)
        _, ok = pimc.sample_world(unseen, counts, free, me, np.uint64(i), np.zeros(64, np.int64), world)
        sets = [None if p == me else cards_of(world[p]) for p in range(n)]
        caught += not replays_legally(sets, history, trump, SWISS.follow_code)
    assert caught >= 20


@settings(max_examples=60, deadline=None)
@given(hst.integers(0, 2**32), hst.integers(0, 3), hst.booleans())
def test_sampler_kernel_equals_twin_also_when_the_constraints_are_tight(seed, suit, tight):
    """Seat 1 may hold only one suit (tight: exactly as many cards of it as it holds, so the uniform tries fail
    and the constrained deal runs); seat 2 holds no card of that suit. Kernel and twin deal the same worlds."""
    rng = random.Random(seed)
    deck = list(SWISS.deck)
    rng.shuffle(deck)
    mine = set(deck[:5])
    unseen = set(deck[5:]) - mine
    lane = {c for c in SWISS.deck if c // 16 == suit}
    count1 = len(unseen & lane) if tight else min(2, len(unseen & lane))
    counts = [5, count1, 5, 4]
    forbidden = [set(), set(SWISS.deck) - lane, set(lane), set()]
    stream = Stream(seed, 3)
    state = np.uint64(stream.state)
    f = np.array([mask(x) for x in forbidden], dtype=np.uint64)
    world = np.zeros(4, dtype=np.uint64)
    scratch = np.zeros(64, dtype=np.int64)
    for _ in range(4):
        state, ok = pimc.sample_world(np.uint64(mask(unseen)), np.array(counts, dtype=np.int64), f, 0,
                                      np.uint64(state), scratch, world)
        want = twin.sample_world(unseen, counts, forbidden, 0, stream)
        assert ok and want is not None
        assert [cards_of(world[p]) for p in (1, 2, 3)] == [want[p] for p in (1, 2, 3)]
        assert want[1] <= lane and not want[2] & lane
        assert int(state) == stream.state
