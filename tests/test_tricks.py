"""Trick kernels against RULES.md §3 and §6, by hand and against the plain-Python twin.

Hand-worked tests run through both the kernel and the twin (``impl`` fixture).
Then the kernels must equal the twin on many random deals, whatever the thread
count, and some invariants must hold on hypothesis-chosen deals and states.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rumbaodds.cards import cards_of, mask_of, parse_card, parse_hand, parse_suit
from rumbaodds.engine import playout, rng, tricks
from rumbaodds.rules import FLEMISH, FOLLOW_FLEMISH, FOLLOW_STECHZWANG, SWISS
from rumbaodds.twins import common as twin

SW = FOLLOW_STECHZWANG
FL = FOLLOW_FLEMISH

HYPO = settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])


# -- helpers -----------------------------------------------------------------
def cards(text: str) -> set[int]:
    return set(parse_hand(text))


def trick_state(played: str, trump: int) -> tuple[int | None, int | None]:
    """(led suit, currently winning card) of a trick in progress, worked out from RULES.md §3 directly."""
    played_cards = parse_hand(played)
    if not played_cards:
        return None, None
    led = played_cards[0] // 16
    win = played_cards[0]
    for c in played_cards[1:]:
        if c // 16 == win // 16:
            if c % 16 > win % 16:
                win = c
        elif c // 16 == trump:
            win = c
    return led, win


def kernel_legal(hand, led, win, trump, follow):
    mask = tricks.legal_mask(np.uint64(mask_of(hand)), -1 if led is None else led, -1 if win is None else win,
                             trump, follow)
    return set(cards_of(int(mask)))


def kernel_greedy(legal, led, win, trump):
    return int(tricks.greedy_card(np.uint64(mask_of(legal)), -1 if led is None else led,
                                  -1 if win is None else win, trump))


def kernel_winner(played, leader, trump):
    return int(tricks.trick_winner(np.array(played, dtype=np.int64), leader, trump))


def kernel_play(hands, leader, trump, follow):
    arr = np.array([mask_of(h) for h in hands], dtype=np.uint64)
    won = np.zeros(len(hands), dtype=np.int64)
    tricks.play_greedy(arr, leader, trump, follow, won)
    assert not arr.any()  # hands are consumed
    return [int(x) for x in won]


class Kernel:
    legal = staticmethod(kernel_legal)
    greedy = staticmethod(kernel_greedy)
    winner = staticmethod(kernel_winner)
    play = staticmethod(kernel_play)


class Twin:
    legal = staticmethod(lambda hand, led, win, trump, follow: twin.legal_cards(set(hand), led, win, trump, follow))
    greedy = staticmethod(twin.greedy_card)
    winner = staticmethod(twin.trick_winner)
    play = staticmethod(twin.play_greedy)


@pytest.fixture(params=[Kernel, Twin], ids=["kernel", "twin"])
def impl(request):
    return request.param


def legal(impl, follow, trump_letter, played, hand):
    trump = parse_suit(trump_letter)
    led, win = trick_state(played, trump)
    return impl.legal(cards(hand), led, win, trump, follow)


def greedy(impl, follow, trump_letter, played, hand):
    trump = parse_suit(trump_letter)
    led, win = trick_state(played, trump)
    return impl.greedy(impl.legal(cards(hand), led, win, trump, follow), led, win, trump)


# -- legal cards: leading ------------------------------------------------------
@pytest.mark.parametrize("follow", [SW, FL])
def test_leader_may_play_any_card(impl, follow):
    assert legal(impl, follow, "S", "", "HA HK S6 C7 D9") == cards("HA HK S6 C7 D9")
    assert legal(impl, follow, "S", "", "S6") == cards("S6")


# -- swiss (Stechzwang, seed 000 rules 18-20) ------------------------------------
def test_swiss_clause1_must_play_winning_card_of_led_suit(impl):
    assert legal(impl, SW, "S", "H9", "HA H7 S6 C7") == cards("HA")
    assert legal(impl, SW, "S", "H9", "HA HK H7 S6") == cards("HA HK")
    # the winning card is the current winner, not the led card
    assert legal(impl, SW, "S", "H9 HK H6", "HQ HA S6") == cards("HA")


def test_swiss_clause1_any_led_suit_card_when_none_wins(impl):
    assert legal(impl, SW, "S", "HQ", "HJ H7 SA CA") == cards("HJ H7")
    # trick already trumped: no heart can win, any heart, and no trumping instead
    assert legal(impl, SW, "S", "H9 S6", "HA H7 SA") == cards("HA H7")


def test_swiss_clause2_must_trump_without_led_suit(impl):
    assert legal(impl, SW, "S", "H9", "S6 SJ C7 DA") == cards("S6 SJ")


def test_swiss_clause2_must_overtrump_if_able(impl):
    assert legal(impl, SW, "S", "H9 SJ", "S6 SQ SA C7") == cards("SQ SA")
    assert legal(impl, SW, "S", "H9 S6 HA SJ", "S7 SK DA") == cards("SK")


def test_swiss_clause2_rule20_must_still_trump_when_cannot_overtrump(impl):
    assert legal(impl, SW, "S", "H9 SJ", "S6 S7 CA DA") == cards("S6 S7")


def test_swiss_clause3_neither_led_suit_nor_trump_any_card(impl):
    assert legal(impl, SW, "S", "H9", "C7 DA DK") == cards("C7 DA DK")
    assert legal(impl, SW, "S", "H9 SJ", "C7 DA") == cards("C7 DA")


def test_swiss_led_suit_is_trump(impl):
    assert legal(impl, SW, "S", "S9", "SA S6 HA") == cards("SA")
    assert legal(impl, SW, "S", "SK", "SQ S6 HA") == cards("SQ S6")
    assert legal(impl, SW, "S", "S9", "HA C7") == cards("HA C7")


# -- flemish (seed 001) ------------------------------------------------------------
def test_flemish_clause1_must_follow_suit_winning_if_able(impl):
    assert legal(impl, FL, "S", "H9", "HA H2 S3") == cards("HA")
    assert legal(impl, FL, "S", "HQ", "HJ H2 SA") == cards("HJ H2")
    assert legal(impl, FL, "S", "H9 S2", "HA H3 SA") == cards("HA H3")
    assert legal(impl, FL, "S", "S9", "SA S6 HA") == cards("SA")  # led suit is trump
    assert legal(impl, FL, "S", "SK", "SQ S6 HA") == cards("SQ S6")


def test_flemish_clause2_free_choice_trumping_not_compulsory(impl):
    assert legal(impl, FL, "S", "H9", "S2 C7 DA") == cards("S2 C7 DA")
    assert legal(impl, FL, "S", "H9", "C7 DA") == cards("C7 DA")


def test_flemish_clause2_D1_no_undertrump_while_holding_winning_trump(impl):
    """[D-1]: a player who plays a trump while holding a winning trump must play a winning trump."""
    assert legal(impl, FL, "S", "H9 SJ", "S6 SQ C7 DA") == cards("SQ C7 DA")
    assert legal(impl, FL, "S", "H9 SJ", "S6 SQ SA") == cards("SQ SA")
    assert legal(impl, FL, "S", "H9 S5 HA SJ", "S6 S2 SK D2") == cards("SK D2")


def test_flemish_clause2_D1_only_losing_trumps_any_card(impl):
    """[D-1]: holding only losing trumps, he may play any card, the losing trumps included."""
    assert legal(impl, FL, "S", "H9 SJ", "S6 S2 C7") == cards("S6 S2 C7")
    assert legal(impl, FL, "S", "H9 SJ", "S6 S2") == cards("S6 S2")


def test_flemish_with_swiss_trick_differs(impl):
    # the same situation: swiss forces a (losing) trump, flemish allows the discard
    assert legal(impl, SW, "D", "C8 DK", "D7 HA") == cards("D7")
    assert legal(impl, FL, "D", "C8 DK", "D7 HA") == cards("D7 HA")


# -- trick winner ------------------------------------------------------------
@pytest.mark.parametrize(
    "played, leader, trump, seat",
    [
        ("H9 HK H2", 0, "S", 1),  # highest of the led suit
        ("H9 HK H2", 2, "S", 0),  # seats counted from the leader
        ("H9 CA DA", 1, "S", 1),  # off-suit high cards never win
        ("H9 HA S6", 0, "S", 2),  # a trump beats the led suit
        ("H9 S6 SK S7", 0, "S", 2),  # highest trump
        ("H9 S6 SK S7", 3, "S", 1),
        ("S6 SA HA", 0, "S", 1),  # led suit is trump
        ("C2 CA", 1, "H", 0),
        ("DA D2 D3 HA SA CA", 4, "C", 3),  # CA: the only trump
    ],
)
def test_trick_winner(impl, played, leader, trump, seat):
    assert impl.winner(parse_hand(played), leader, parse_suit(trump)) == seat


# -- greedy choice (RULES.md §6) --------------------------------------------------
@pytest.mark.parametrize(
    "hand, trump, card",
    [
        ("HA SK C7", "S", "SK"),  # every trump above every non-trump
        ("S6 HA DA", "S", "S6"),
        ("HK HQ C7", "S", "HK"),  # then rank
        ("HA SA CA", "D", "SA"),  # ties C < D < H < S
        ("HA CA DA", "S", "HA"),
        ("CA DA", "H", "DA"),
    ],
)
@pytest.mark.parametrize("follow", [SW, FL])
def test_greedy_leads_strongest(impl, follow, hand, trump, card):
    assert greedy(impl, follow, trump, "", hand) == parse_card(card)


def test_greedy_follows_with_weakest_winning_card(impl):
    assert greedy(impl, SW, "S", "H9", "HA HK HT H7") == parse_card("HT")
    assert greedy(impl, SW, "S", "H9", "S6 SA C7") == parse_card("S6")
    assert greedy(impl, SW, "S", "H9 SJ", "S6 SQ SA") == parse_card("SQ")
    assert greedy(impl, FL, "S", "H9", "S2 SA C7 DA") == parse_card("S2")  # flemish: trumps when it wins
    assert greedy(impl, FL, "S", "H9 SJ", "S6 SQ C7 DA") == parse_card("SQ")


def test_greedy_follows_with_weakest_legal_card_when_none_wins(impl):
    assert greedy(impl, SW, "S", "HQ", "HJ H7 SA") == parse_card("H7")
    assert greedy(impl, SW, "S", "H9 SJ", "S6 S7 CA") == parse_card("S6")
    assert greedy(impl, SW, "S", "H9", "DA CA C7 D7") == parse_card("C7")  # ties C < D
    assert greedy(impl, FL, "S", "H9 SJ", "S6 D7 C7") == parse_card("C7")  # trump is strongest, C < D
    assert greedy(impl, FL, "S", "H9 SJ", "S6 S2") == parse_card("S2")


def test_greedy_card_given_legal_set(impl):
    trump = parse_suit("S")
    # led hearts, HK winning: winners among the legal cards are HA and the trumps
    assert impl.greedy(cards("HA S2 DA"), parse_suit("H"), parse_card("HK"), trump) == parse_card("HA")
    assert impl.greedy(cards("H2 CA DA"), parse_suit("H"), parse_card("HK"), trump) == parse_card("H2")
    assert impl.greedy(cards("CA DA"), parse_suit("H"), parse_card("HK"), trump) == parse_card("CA")


# -- a whole hand, worked by hand -----------------------------------------------------
# seat 0: HA D7, seat 1: SK C8, seat 2: S6 D9; trump spades, seat 0 leads.
# Trick 1: seat 0 leads HA (its strongest). Seat 1 has no heart: swiss must trump, flemish
# trumps because SK wins; SK. Seat 2 has no heart and only the losing S6: swiss must still
# trump (rule 20) -> S6; flemish [D-1] allows any card, greedy plays its weakest -> D9. Seat 1 wins.
# Trick 2: seat 1 leads C8. Swiss: seat 2 holds D9 -> D9, seat 0 D7: seat 1 wins -> [0, 2, 0].
# Flemish: seat 2 holds S6 -> trumps and wins, seat 0 D7 -> [0, 1, 1].
SMALL_DEAL = ["HA D7", "SK C8", "S6 D9"]


@pytest.mark.parametrize("follow, expected", [(SW, [0, 2, 0]), (FL, [0, 1, 1])])
def test_small_deal_played_out_by_hand(impl, follow, expected):
    hands = [cards(h) for h in SMALL_DEAL]
    assert impl.play(hands, 0, parse_suit("S"), follow) == expected


@pytest.mark.parametrize("follow", [SW, FL])
def test_small_deal_other_leader(impl, follow):
    # Seat 2 leads its strongest card, the trump S6. Seat 0 has no spade: any card, none wins,
    # greedy plays its weakest, D7. Seat 1 must follow spades and SK wins: SK. Seat 1 wins.
    # Trick 2: seat 1 leads C8, seat 2 D9, seat 0 HA (off-suit, never wins): seat 1 again.
    hands = [cards(h) for h in SMALL_DEAL]
    assert impl.play(hands, 2, parse_suit("S"), follow) == [0, 2, 0]


# -- kernel == twin on random deals ----------------------------------------------------
CONFIGS = [(SWISS, 3), (SWISS, 5), (SWISS, 7), (FLEMISH, 2), (FLEMISH, 4), (FLEMISH, 6)]
N_DEALS = 10_000
SEED = 20240607


def twin_batch(rules, players, seed, start, count):
    masks, trump_cards, leaders, won = [], [], [], []
    for i in range(start, start + count):
        hands, trump_card, leader = twin.deal(rules.deck, players, rules.hand_size, seed, i)
        masks.append([mask_of(h) for h in hands])
        trump_cards.append(trump_card)
        leaders.append(leader)
        won.append(twin.play_greedy(hands, leader, trump_card // 16, rules.follow_code))
    return (np.array(masks, dtype=np.uint64), np.array(trump_cards), np.array(leaders), np.array(won))


@pytest.mark.parametrize("rules, players", CONFIGS, ids=[f"{r.name}-{n}" for r, n in CONFIGS])
def test_kernels_equal_twin_on_random_deals(rules, players):
    deck = rules.deck_array()
    hands, trump_cards, leaders = rng.deal_batch(deck, players, rules.hand_size, SEED, 0, N_DEALS)
    t_hands, t_trump_cards, t_leaders, t_won = twin_batch(rules, players, SEED, 0, N_DEALS)
    # dealing is exact
    np.testing.assert_array_equal(hands, t_hands)
    np.testing.assert_array_equal(trump_cards, t_trump_cards)
    np.testing.assert_array_equal(leaders, t_leaders)
    # and it is a deal: disjoint hands of hand_size cards from the deck, trump card not in any hand
    deck_mask = np.uint64(rules.deck_mask)
    union = np.bitwise_or.reduce(hands, axis=1)
    assert np.all(union & ~deck_mask == 0)
    assert all(bin(int(u)).count("1") == players * rules.hand_size for u in union[:500])
    assert all(not (int(u) >> int(t)) & 1 for u, t in zip(union[:500], trump_cards[:500], strict=False))
    # greedy play-out
    won = playout.play_batch(hands, leaders, trump_cards >> 4, rules.follow_code)
    np.testing.assert_array_equal(won, t_won)
    assert np.all(won.sum(axis=1) == rules.hand_size)
    fused = playout.random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, SEED, 0, N_DEALS)
    np.testing.assert_array_equal(fused, t_won)


def test_deal_batch_start_offset_matches_twin():
    deck = SWISS.deck_array()
    hands, trump_cards, leaders = rng.deal_batch(deck, 5, 5, 7, 12_345, 100)
    t_hands, t_trump_cards, t_leaders, _ = twin_batch(SWISS, 5, 7, 12_345, 100)
    np.testing.assert_array_equal(hands, t_hands)
    np.testing.assert_array_equal(trump_cards, t_trump_cards)
    np.testing.assert_array_equal(leaders, t_leaders)
    empty, _, _ = rng.deal_batch(deck, 5, 5, 7, 0, 0)
    assert empty.shape == (0, 5)


@pytest.mark.parametrize("rules, players", [(SWISS, 5), (FLEMISH, 4)], ids=["swiss-5", "flemish-4"])
def test_results_do_not_depend_on_thread_count(rules, players):
    deck = rules.deck_array()
    original = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            hands, trump_cards, leaders = rng.deal_batch(deck, players, rules.hand_size, SEED, 0, 5000)
            won = playout.play_batch(hands, leaders, trump_cards >> 4, rules.follow_code)
            fused = playout.random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, SEED, 0, 5000)
            results.append((hands, trump_cards, leaders, won, fused))
    finally:
        numba.set_num_threads(original)
    for a, b in zip(*results, strict=False):
        np.testing.assert_array_equal(a, b)


# -- properties ------------------------------------------------------------------------
deals = st.tuples(
    st.sampled_from(CONFIGS + [(SWISS, 4), (SWISS, 6), (FLEMISH, 3), (FLEMISH, 5)]),
    st.integers(0, 2**63 - 1),
    st.integers(0, 2**40),
)


@st.composite
def trick_states(draw):
    """A hand and a trick state (led suit, winning card) that can occur in play, any trump."""
    deck = FLEMISH.deck
    hand = draw(st.sets(st.sampled_from(deck), min_size=1, max_size=8))
    trump = draw(st.integers(0, 3))
    if draw(st.booleans()):
        return hand, None, None, trump
    led = draw(st.integers(0, 3))
    win_suit = draw(st.sampled_from(sorted({led, trump})))
    win = draw(st.sampled_from([c for c in deck if c // 16 == win_suit and c not in hand]))
    return hand, led, win, trump


@HYPO
@given(trick_states(), st.sampled_from([SW, FL]))
def test_legal_card_exists_and_is_in_hand(state, follow):
    hand, led, win, trump = state
    for impl in (Kernel, Twin):
        allowed = impl.legal(hand, led, win, trump, follow)
        assert allowed and allowed <= hand


@HYPO
@given(trick_states(), st.sampled_from([SW, FL]))
def test_kernel_legal_and_greedy_equal_twin_on_random_states(state, follow):
    hand, led, win, trump = state
    allowed = twin.legal_cards(set(hand), led, win, trump, follow)
    assert kernel_legal(hand, led, win, trump, follow) == allowed
    assert kernel_greedy(allowed, led, win, trump) == twin.greedy_card(allowed, led, win, trump)
    assert twin.greedy_card(allowed, led, win, trump) in allowed


@HYPO
@given(st.lists(st.sampled_from(FLEMISH.deck), min_size=1, max_size=6, unique=True), st.integers(0, 5),
       st.integers(0, 3))
def test_kernel_trick_winner_equals_twin(played, leader, trump):
    leader %= len(played)
    assert kernel_winner(played, leader, trump) == twin.trick_winner(played, leader, trump)


def instrumented_playout(hands, leader, trump, follow, choose):
    """Twin play-out that records every trick; ``choose(legal, led, win)`` picks the card."""
    hands = [set(h) for h in hands]
    n = len(hands)
    won = [0] * n
    log = []
    for _ in range(len(hands[0])):
        led = win = None
        played = []
        for k in range(n):
            seat = (leader + k) % n
            allowed = twin.legal_cards(hands[seat], led, win, trump, follow)
            assert allowed and allowed <= hands[seat]
            card = choose(allowed, led, win)
            assert card in allowed
            hands[seat].remove(card)
            played.append(card)
            if led is None:
                led, win = card // 16, card
            elif twin.card_beats(card, win, trump):
                win = card
        winner = twin.trick_winner(played, leader, trump)
        assert played[(winner - leader) % n] == win
        log.append((leader, played))
        won[winner] += 1
        leader = winner
    assert all(not h for h in hands)
    return won, log


@HYPO
@given(deals, st.randoms(use_true_random=False))
def test_every_card_played_once_and_tricks_sum_to_hand_size(deal, rand):
    (rules, players), seed, index = deal
    hands, trump_card, leader = twin.deal(rules.deck, players, rules.hand_size, seed, index)
    trump = trump_card // 16
    dealt = sorted(c for h in hands for c in h)
    assert len(set(dealt)) == players * rules.hand_size and trump_card not in dealt
    policies = {
        "greedy": lambda allowed, led, win: twin.greedy_card(allowed, led, win, trump),
        "random": lambda allowed, led, win: rand.choice(sorted(allowed)),
    }
    for name, choose in policies.items():
        won, log = instrumented_playout(hands, leader, trump, rules.follow_code, choose)
        assert sum(won) == rules.hand_size
        assert all(len(played) == players for _, played in log)
        assert sorted(c for _, played in log for c in played) == dealt
        for seat in range(players):  # each seat played exactly its own cards
            mine = {played[(seat - lead) % players] for lead, played in log}
            assert mine == hands[seat]
        if name == "greedy":
            assert won == twin.play_greedy(hands, leader, trump, rules.follow_code)
            assert won == kernel_play(hands, leader, trump, rules.follow_code)


@HYPO
@given(deals)
def test_kernel_deal_equals_twin_deal(deal):
    (rules, players), seed, index = deal
    hands, trump_cards, leaders = rng.deal_batch(rules.deck_array(), players, rules.hand_size, seed, index, 1)
    t_hands, t_trump_card, t_leader = twin.deal(rules.deck, players, rules.hand_size, seed, index)
    assert [int(m) for m in hands[0]] == [mask_of(h) for h in t_hands]
    assert int(trump_cards[0]) == t_trump_card and int(leaders[0]) == t_leader
