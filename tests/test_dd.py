"""The double-dummy solver (``engine/dd.py``) against hand-worked deals and its twin (``engine/twin_dd.py``).

RULES.md §6 "double-dummy value": the most tricks a seat makes for certain
when every hand is visible and all other seats play together against it.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rumbaodds.cards import mask_of, parse_card, parse_hand, parse_suit
from rumbaodds.engine.dd import dd_tricks, solve_batch
from rumbaodds.engine.rng import deal_batch
from rumbaodds.engine.tricks import legal_mask
from rumbaodds.rules import FLEMISH, FOLLOW_FLEMISH, FOLLOW_STECHZWANG, SWISS
from rumbaodds.twins import common as twin
from rumbaodds.twins.dd import dd_tricks as twin_dd_tricks

SW = FOLLOW_STECHZWANG
FL = FOLLOW_FLEMISH


def masks(*hands: str) -> np.ndarray:
    return np.array([mask_of(parse_hand(h)) for h in hands], dtype=np.uint64)


def sets_of(row) -> list[set[int]]:
    return [{c for c in range(64) if (int(m) >> c) & 1} for m in row]


def both(hands: np.ndarray, leader: int, trump: str, follow: int, seat: int) -> int:
    """Kernel value, checked against the twin on the way."""
    value = dd_tricks(hands, leader, parse_suit(trump), follow, seat)
    assert value == twin_dd_tricks(sets_of(hands), leader, parse_suit(trump), follow, seat)
    return value


# =============================================================================
# hand-worked deals
# =============================================================================
def test_top_five_trumps_make_every_trick():
    hands = masks("HA HK HQ HJ HT", "SA SK SQ CA CK", "DA DK DQ D6 H6", "C6 C7 C8 S6 S7", "D7 D8 S8 S9 H7")
    for leader in range(5):
        assert dd_tricks(hands, leader, parse_suit("H"), SW, 0) == 5
        assert dd_tricks(hands, leader, parse_suit("H"), FL, 0) == 5


def test_top_three_trumps_make_three_and_no_more():
    # Seat 0's spades win whenever played; its C6 and D6 are below every other club and diamond,
    # and the others, with no trump to spend, keep clubs and diamonds above them.
    hands = masks("SA SK SQ C6 D6", "CA CK DA DK HA", "CQ DQ HK HQ HJ")
    for leader in range(3):
        assert both(hands, leader, "S", SW, 0) == 3
        assert both(hands, leader, "S", FL, 0) == 3


def test_two_top_trumps_take_both_tricks_whoever_leads():
    # Seat 1 holds HA HK, above the other trumps HQ and H6: each wins whenever played, so seat 1
    # takes both tricks and nobody else makes one.
    hands = masks("HQ D6", "HA HK", "CA H6")
    for leader in range(3):
        assert [both(hands, leader, "H", SW, s) for s in range(3)] == [0, 2, 0]
        assert [both(hands, leader, "H", FL, s) for s in range(3)] == [0, 2, 0]


def test_two_card_endgame_greedy_loses_a_trick_dd_keeps():
    # Flemish, 2 players, diamonds trump; seat 1 leads holding D7 ST against DA HA.
    # Greedy leads the strongest card, D7: DA takes it and HA the last trick, 0 for seat 1.
    # Double dummy leads ST first: seat 0 ruffs with DA (else ST wins) and leads HA, which
    # seat 1 ruffs with D7: one trick.
    hands = masks("DA HA", "D7 ST")
    greedy = twin.play_greedy(sets_of(hands), 1, parse_suit("D"), FL)
    assert greedy == [2, 0]
    assert both(hands, 1, "D", FL, 1) == 1
    assert both(hands, 1, "D", FL, 0) == 1


def test_stechzwang_forced_overtrump_gives_max_a_trick():
    # Spades trump, seat 0 leads HA holding HA SK; seat 1 holds S8 C6, seat 2 SA S6, both void in hearts.
    # swiss: seat 1 must trump (S8), and seat 2, holding the winning SA, must overtrump with it
    # (it may not play S6 under its partner). Seat 2 then leads S6 and SK wins: 1 trick.
    # flemish: seat 1 discards C6, seat 2 trumps cheaply with S6 and keeps SA over SK: 0 tricks.
    hands = masks("HA SK", "S8 C6", "SA S6")
    assert legal_mask(hands[2], parse_suit("H"), parse_card("S8"), parse_suit("S"), SW) == mask_of([parse_card("SA")])
    assert both(hands, 0, "S", SW, 0) == 1
    assert both(hands, 0, "S", FL, 0) == 0


def test_stechzwang_must_trump_even_when_it_cannot_overtrump():
    # Spades trump, seat 2 leads a heart; seat 0 (CA SK) ruffs with SK; seat 1 (C8 S6) is void in hearts.
    # swiss rule 20: seat 1 must still play S6 under SK, so CA wins the last trick: seat 0 makes 2.
    # flemish: seat 1 discards C8 and ruffs CA with S6 later: seat 0 makes 1.
    hands = masks("CA SK", "C8 S6", "HT HA")
    assert both(hands, 2, "S", SW, 0) == 2
    assert both(hands, 2, "S", FL, 0) == 1
    assert both(hands, 2, "S", SW, 1) == 0
    assert both(hands, 2, "S", FL, 1) == 1


def test_flemish_no_underruff_while_able_to_overruff_D1():
    """[D-1]: a flemish player who trumps while holding a winning trump must play a winning trump.

    Spades trump; seat 0 leads HA holding HA S8. Seat 1 holds S5 S3, seat 2 S9 S2, both void in
    hearts. Seat 1 must play a trump (nothing else in hand); seat 2 holds the winning S9 and may not
    underruff with S2, so S9 takes the trick, seat 2 leads S2 and S8 wins: seat 0 makes 1 trick.
    (Were underruffing allowed, seat 2 would play S2, keep S9 over S8, and seat 0 would make none.)
    """
    hands = masks("HA S8", "S5 S3", "S9 S2")
    forced = legal_mask(hands[2], parse_suit("H"), parse_card("S5"), parse_suit("S"), FL)
    assert forced == mask_of([parse_card("S9")])
    assert both(hands, 0, "S", FL, 0) == 1
    # seat 1, with two trumps under S8 and S9, makes nothing
    assert both(hands, 0, "S", FL, 1) == 0


def test_one_card_each_is_the_forced_trick():
    hands = masks("H6", "HA", "S6")
    assert [dd_tricks(hands, 0, parse_suit("S"), SW, s) for s in range(3)] == [0, 0, 1]
    assert [dd_tricks(hands, 0, parse_suit("C"), SW, s) for s in range(3)] == [0, 1, 0]


def test_hands_are_not_modified():
    hands, trump_cards, leaders = deal_batch(SWISS.deck_array(), 5, 5, 3, 0, 20)
    before = hands.copy()
    for i in range(20):
        dd_tricks(hands[i], leaders[i], trump_cards[i] >> 4, SW, 0)
    solve_batch(hands, leaders, trump_cards >> 4, leaders, SW)
    assert np.array_equal(hands, before)


# =============================================================================
# kernel against twin on random deals
# =============================================================================
def random_cases(rules, players_range, hand_size, deals_per_count, seed):
    for players in players_range:
        hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, hand_size, seed, 0, deals_per_count)
        for i in range(deals_per_count):
            yield hands[i], int(leaders[i]), int(trump_cards[i]) >> 4


@pytest.mark.parametrize("hand_size, deals", [(1, 30), (2, 20), (3, 8)])
@pytest.mark.parametrize("rules, players", [(SWISS, range(2, 8)), (FLEMISH, range(2, 7))], ids=["swiss", "flemish"])
def test_kernel_equals_twin_on_endgames(rules, players, hand_size, deals):
    checked = 0
    for row, leader, trump in random_cases(rules, players, hand_size, deals, 100 + hand_size):
        plain = sets_of(row)
        for seat in range(row.shape[0]):
            expected = twin_dd_tricks(plain, leader, trump, rules.follow_code, seat)
            assert dd_tricks(row, leader, trump, rules.follow_code, seat) == expected, (row, leader, trump, seat)
            checked += 1
    assert checked >= 160


@pytest.mark.parametrize("rules, deals", [(SWISS, 24), (FLEMISH, 12)], ids=["swiss", "flemish"])
def test_kernel_equals_twin_on_full_deals_three_players(rules, deals):
    for row, leader, trump in random_cases(rules, [3], 5, deals, 7):
        plain = sets_of(row)
        for seat in range(3):
            expected = twin_dd_tricks(plain, leader, trump, rules.follow_code, seat)
            assert dd_tricks(row, leader, trump, rules.follow_code, seat) == expected, (row, leader, trump, seat)


# =============================================================================
# solve_batch
# =============================================================================
@pytest.mark.parametrize(
    "rules, players, count", [(SWISS, 3, 400), (SWISS, 5, 300), (SWISS, 7, 150), (FLEMISH, 2, 400), (FLEMISH, 6, 150)]
)
def test_solve_batch_equals_dd_tricks(rules, players, count):
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, 5, 21, 0, count)
    trumps = trump_cards >> 4
    seats = np.arange(count, dtype=np.int64) % players
    batch = solve_batch(hands, leaders, trumps, seats, rules.follow_code)
    one = [dd_tricks(hands[i], leaders[i], trumps[i], rules.follow_code, seats[i]) for i in range(count)]
    assert batch.tolist() == one


def test_solve_batch_does_not_depend_on_thread_count():
    hands, trump_cards, leaders = deal_batch(SWISS.deck_array(), 6, 5, 4, 0, 300)
    trumps = trump_cards >> 4
    many = solve_batch(hands, leaders, trumps, leaders, SW)
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single = solve_batch(hands, leaders, trumps, leaders, SW)
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(many, single)


def test_solve_batch_handles_small_and_empty_batches():
    empty = np.zeros((0, 3), dtype=np.uint64)
    none = np.zeros(0, dtype=np.int64)
    assert solve_batch(empty, none, none, none, SW).shape == (0,)
    hands = masks("HA HK", "S6 S7", "C6 C7")
    one = np.zeros(1, dtype=np.int64)
    assert solve_batch(hands[None, :], one, one + 2, one, SW).tolist() == [2]


# =============================================================================
# properties
# =============================================================================
deals = st.tuples(
    st.sampled_from([(SWISS, n) for n in range(3, 8)] + [(FLEMISH, n) for n in range(2, 7)]),
    st.integers(1, 5),
    st.integers(0, 2**32),
)


def draw(spec):
    (rules, players), hand_size, seed = spec
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, hand_size, seed, 0, 1)
    return rules, hands[0], int(leaders[0]), int(trump_cards[0]) >> 4, hand_size


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals)
def test_values_lie_in_range_and_all_seats_together_make_at_most_the_hand(spec):
    # Every seat playing its own guaranteeing strategy at once gives one play in which each seat
    # makes at least its value; that play has hand_size tricks, so the values add up to no more.
    rules, row, leader, trump, hand_size = draw(spec)
    values = [dd_tricks(row, leader, trump, rules.follow_code, s) for s in range(row.shape[0])]
    assert all(0 <= v <= hand_size for v in values)
    assert sum(values) <= hand_size


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals, st.integers(0, 6), st.permutations(range(4)))
def test_values_do_not_depend_on_seat_numbers_or_suit_names(spec, shift, perm):
    rules, row, leader, trump, _ = draw(spec)
    n = row.shape[0]
    shift %= n
    follow = rules.follow_code
    seat = (leader + 1) % n
    value = dd_tricks(row, leader, trump, follow, seat)
    rotated = np.roll(row, shift)  # old seat p sits at p + shift
    assert dd_tricks(rotated, (leader + shift) % n, trump, follow, (seat + shift) % n) == value
    renamed = np.array([mask_of(perm[c // 16] * 16 + c % 16 for c in hand) for hand in sets_of(row)], dtype=np.uint64)
    assert dd_tricks(renamed, leader, perm[trump], follow, seat) == value


def test_seat_with_every_top_trump_of_its_length_makes_them():
    # lower bound check on random deals: a seat's trumps above every other trump are sure tricks
    for rules, players in ((SWISS, 5), (FLEMISH, 4)):
        hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, 5, 9, 0, 200)
        for i in range(200):
            trump = int(trump_cards[i]) >> 4
            for seat in range(players):
                mine = [c for c in sets_of(hands[i])[seat] if c // 16 == trump]
                theirs = [c for p, h in enumerate(sets_of(hands[i])) if p != seat for c in h if c // 16 == trump]
                sure = sum(1 for c in mine if all(c > o for o in theirs))
                assert dd_tricks(hands[i], leaders[i], trump, rules.follow_code, seat) >= sure



@pytest.mark.parametrize(
    "hands, leader, trump, seat",
    [
        (np.array([1, 2, 4, 8, 16, 32, 64, 128], dtype=np.uint64), 0, 0, 0),  # 8 hands
        (np.array([1], dtype=np.uint64), 0, 0, 0),  # 1 hand
        (np.array([1, 6], dtype=np.uint64), 0, 0, 0),  # sizes differ
        (np.array([63, 63 << 16], dtype=np.uint64), 0, 0, 0),  # 6 cards
        (np.array([1, 2], dtype=np.uint64), 2, 0, 0),  # leader out of range
        (np.array([1, 2], dtype=np.uint64), 0, 0, 5),  # seat out of range
        (np.array([1, 2], dtype=np.uint64), 0, 4, 0),  # no such suit
    ],
)
def test_bad_deals_are_refused(hands, leader, trump, seat):
    with pytest.raises(ValueError, match="double-dummy solver"):
        dd_tricks(hands, leader, trump, SW, seat)
    one = np.array([leader], dtype=np.int64)
    with pytest.raises(ValueError, match="double-dummy solver"):
        solve_batch(hands[None, :], one, np.array([trump], dtype=np.int64), np.array([seat], dtype=np.int64), SW)


def test_empty_hands_make_nothing():
    assert dd_tricks(np.zeros(3, dtype=np.uint64), 0, 0, SW, 1) == 0
