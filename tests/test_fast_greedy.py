"""The fast greedy play-out path (strength layout, dealing in blocks, deals played in pairs) against the twin.

``random_greedy_playouts`` and ``play_batch`` run on ``deal_block`` and
``play_greedy_pair``; these tests require the same tricks per seat as
``twin.deal`` + ``twin.play_greedy`` deal by deal, whatever the block and chunk
boundaries, odd counts and thread count.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from rumbaodds.cards import mask_of
from rumbaodds.engine import playout, rng, tricks
from rumbaodds.rules import FLEMISH, FOLLOW_FLEMISH, FOLLOW_STECHZWANG, SWISS
from rumbaodds.twins import common as twin

CONFIGS = [(SWISS, 3), (SWISS, 5), (SWISS, 7), (FLEMISH, 2), (FLEMISH, 4), (FLEMISH, 6)]
IDS = [f"{r.name}-{n}" for r, n in CONFIGS]
N_DEALS = 10_001  # odd: the last block is partly past the end
SEED = 987654321


def twin_deals(rules, players, seed, start, count):
    deals, won = [], []
    for i in range(start, start + count):
        hands, trump_card, leader = twin.deal(rules.deck, players, rules.hand_size, seed, i)
        deals.append((hands, trump_card, leader))
        won.append(twin.play_greedy(hands, leader, trump_card // 16, rules.follow_code))
    return deals, np.array(won, dtype=np.int64)


@pytest.fixture(scope="module", params=CONFIGS, ids=IDS)
def config(request):
    rules, players = request.param
    deals, won = twin_deals(rules, players, SEED, 3, N_DEALS)
    return rules, players, deals, won


def test_random_playouts_equal_twin(config):
    rules, players, _, won = config
    fused = playout.random_greedy_playouts(rules.deck_array(), players, rules.hand_size, rules.follow_code,
                                           SEED, 3, N_DEALS)
    assert fused.dtype == np.int8 and fused.shape == (N_DEALS, players)
    np.testing.assert_array_equal(fused, won)


def test_play_batch_equals_twin(config):
    rules, players, deals, won = config
    hands = np.array([[mask_of(h) for h in d[0]] for d in deals], dtype=np.uint64)
    trumps = np.array([d[1] // 16 for d in deals], dtype=np.int64)
    leaders = np.array([d[2] for d in deals], dtype=np.int64)
    np.testing.assert_array_equal(playout.play_batch(hands, leaders, trumps, rules.follow_code), won)


@pytest.mark.parametrize("start, count", [(0, 1), (5, 2), (7, 3), (11, 5), (0, 255), (1, 257), (2, 1031)])
@pytest.mark.parametrize("rules, players", [(SWISS, 5), (FLEMISH, 3)], ids=["swiss-5", "flemish-3"])
def test_any_start_and_count(rules, players, start, count):
    """Block and chunk edges fall anywhere; every slice equals the twin and the longer run."""
    _, won = twin_deals(rules, players, 42, start, count)
    deck = rules.deck_array()
    got = playout.random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, 42, start, count)
    np.testing.assert_array_equal(got, won)
    longer = playout.random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, 42, 0, start + count)
    np.testing.assert_array_equal(longer[start:], got)


@pytest.mark.parametrize("hand_size", [1, 2, 3, 4])
@pytest.mark.parametrize("rules, players", [(SWISS, 4), (FLEMISH, 5)], ids=["swiss-4", "flemish-5"])
def test_short_hands(rules, players, hand_size):
    won = [twin.play_greedy(h, lead, t // 16, rules.follow_code)
           for h, t, lead in (twin.deal(rules.deck, players, hand_size, 5, i) for i in range(2001))]
    got = playout.random_greedy_playouts(rules.deck_array(), players, hand_size, rules.follow_code, 5, 0, 2001)
    np.testing.assert_array_equal(got, np.array(won))


def test_play_batch_mixed_hand_sizes():
    """Deals of different sizes in one batch: pairs only form between deals of equal size."""
    rows, leaders, trumps, expected = [], [], [], []
    for i in range(3001):
        size = 5 if i % 7 else 1 + i % 5
        rules = FLEMISH if i % 2 else SWISS
        hands, trump_card, leader = twin.deal(rules.deck, 4, size, 77, i)
        rows.append([mask_of(h) for h in hands])
        leaders.append(leader)
        trumps.append(trump_card // 16)
        expected.append(twin.play_greedy(hands, leader, trump_card // 16, FOLLOW_STECHZWANG))
    won = playout.play_batch(np.array(rows, dtype=np.uint64), np.array(leaders), np.array(trumps), FOLLOW_STECHZWANG)
    np.testing.assert_array_equal(won, np.array(expected))


def test_play_batch_empty():
    assert playout.play_batch(np.zeros((0, 3), dtype=np.uint64), np.zeros(0, dtype=np.int64),
                              np.zeros(0, dtype=np.int64), FOLLOW_FLEMISH).shape == (0, 3)
    assert playout.random_greedy_playouts(SWISS.deck_array(), 5, 5, 0, 1, 0, 0).shape == (0, 5)


def test_strength_layout_orders_cards_like_the_twin():
    """Bit order = greedy strength (RULES.md §6), each trump's layout a one-to-one map into 52 bits."""
    for trump in range(4):
        order = sorted(FLEMISH.deck, key=lambda c: twin.strength(c, trump))
        bits = [int(tricks.strength_bit(c, trump)) for c in order]
        assert bits == sorted(bits) and len(set(bits)) == 52 and max(bits) < 52
        for c in FLEMISH.deck:  # the led-suit masks: a card's suit, trumps for a trump
            suit_bits = {int(tricks.strength_bit(d, trump)) for d in FLEMISH.deck if d // 16 == c // 16}
            led = int(tricks.LED_MASK[int(tricks.strength_bit(c, trump))])
            assert {b for b in range(64) if led >> b & 1} == suit_bits
        hand = [c for c in FLEMISH.deck if c % 3 == trump % 3]
        assert int(tricks.strength_hand(np.uint64(mask_of(hand)), trump)) == sum(
            1 << int(tricks.strength_bit(c, trump)) for c in hand)


def test_deal_block_equals_twin_deal():
    """``deal_block`` (the play-out's dealer) makes ``deal_one``'s deals, as deck places."""
    for rules, players in CONFIGS:
        deck = rules.deck_array()
        dealt, leaders = _block_kernel(deck, players, rules.hand_size, 11, 1000, 4)
        for b in range(4):
            t_hands, t_trump, t_leader = twin.deal(rules.deck, players, rules.hand_size, 11, 1000 + b)
            n = rules.hand_size
            assert [set(int(deck[x]) for x in dealt[b, p * n:(p + 1) * n]) for p in range(players)] == t_hands
            assert int(deck[dealt[b, players * n]]) == t_trump and int(leaders[b]) == t_leader


@numba.njit(cache=False)
def _block_kernel(deck, players, hand_size, seed, first, block):
    words = np.empty((block, 32), dtype=np.uint64)
    picks = np.empty((block, 64), dtype=np.uint64)
    decks = np.empty((block, 64), dtype=np.uint8)
    dealt = np.empty((block, 64), dtype=np.uint8)
    leaders = np.empty(block, dtype=np.int64)
    rng.deal_block(deck.shape[0], players, hand_size, seed, first, words, picks, decks, dealt, leaders)
    return dealt, leaders


@pytest.mark.parametrize("rules, players", [(SWISS, 5), (FLEMISH, 4), (SWISS, 3)],
                         ids=["swiss-5", "flemish-4", "swiss-3"])
def test_fast_path_does_not_depend_on_thread_count(rules, players):
    deck = rules.deck_array()
    hands, trump_cards, leaders = rng.deal_batch(deck, players, rules.hand_size, SEED, 0, 20_001)
    original = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            results.append((
                playout.random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, SEED, 0, 20_001),
                playout.play_batch(hands, leaders, trump_cards >> 4, rules.follow_code),
            ))
    finally:
        numba.set_num_threads(original)
    for a, b in zip(*results, strict=False):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(results[0][0], results[0][1])
    assert np.all(results[0][0].sum(axis=1) == rules.hand_size)


def test_pair_play_equals_play_greedy_by_hand():
    """``play_greedy_pair`` on the worked deal of test_tricks (SMALL_DEAL), both rules, both leaders."""
    from rumbaodds.cards import parse_hand, parse_suit

    small = [set(parse_hand(h)) for h in ["HA D7", "SK C8", "S6 D9"]]
    trump = parse_suit("S")
    for follow, expected in ((FOLLOW_STECHZWANG, [0, 2, 0]), (FOLLOW_FLEMISH, [0, 1, 1])):
        a = np.array([int(tricks.strength_hand(np.uint64(mask_of(h)), trump)) for h in small], dtype=np.uint64)
        b = a.copy()
        won_a = np.zeros(3, dtype=np.int64)
        won_b = np.zeros(3, dtype=np.int64)
        _pair(a, b, 0, 2, follow, won_a, won_b)
        assert list(won_a) == expected == twin.play_greedy(small, 0, trump, follow)
        assert list(won_b) == [0, 2, 0] == twin.play_greedy(small, 2, trump, follow)
        assert not a.any() and not b.any()


@numba.njit(cache=False)
def _pair(a, b, leader_a, leader_b, follow, won_a, won_b):
    tricks.play_greedy_pair(a, b, a.shape[0], leader_a, leader_b, 2, follow, won_a, won_b)
