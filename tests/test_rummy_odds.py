"""The `rummy odds` kernel: against its plain-Python twin sample by sample, its discard policy against the
policy's definition, and its estimates against exact enumeration (with negative controls)."""

import random
from collections import Counter

import numpy as np
import pytest

from rumbaodds.cards import CardError
from rumbaodds.rules import RulesError
from rumbaodds.rummy import twin_odds
from rumbaodds.rummy.cards import JOKER, deck_types, parse_rummy_hand, parse_token, unknown_cards
from rumbaodds.rummy.odds import MODE_DEAL, MODE_HAND, MODE_JOKER, discards, odds, rules_arrays, simulate_batch
from rumbaodds.rummy.rules import PRESETS, ROMME, ROMME40, RUMMI, RummyRules
from rumbaodds.rummy.solver import solve_hands
from rumbaodds.rummy.tables import build_table, by_value, curve, table_dict

# A small deck (one deck, two jokers, 7-card hands): its stock runs out within a few turns and the
# second draw can be enumerated exactly.
TINY = RummyRules(name="tiny", decks=1, jokers=2, hand_size=7, max_players=4, opening_threshold=20)
HARD = "HA H5 D7 S9 C2 C4 CT CJ S2 D4 H9 SK CK"  # opening value 0 in every rule set


def run_kernel(mode, hand, pool, up, players, turns, rules, policy, seed, n):
    params, pm, tie = rules_arrays(rules, policy)
    return simulate_batch(mode, np.array(hand or [0]), np.array(pool), up, players, rules.hand_size, turns, params,
                          pm, tie, seed, 0, n)


def compare_with_twin(mode, hand, pool, up, players, turns, rules, policy, seed, n):
    opened, value, jokers, with_joker = run_kernel(mode, hand, pool, up, players, turns, rules, policy, seed, n)
    for i in range(n):
        twin = twin_odds.sample(mode, hand, pool, up, players, turns, rules, policy, seed, i)
        if mode == MODE_JOKER:
            kernel = (opened[i], with_joker[i], jokers[i], value[i])
        else:
            kernel = (opened[i], value[i], jokers[i])
        assert tuple(int(x) for x in kernel) == tuple(twin), (rules.name, mode, i)
    return opened


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=lambda r: r.name)
def test_discard_policy_matches_its_definition(rules):
    """The kernel's shortcut (cards outside the solver's melds keep the value) picks the card the definition
    picks: highest value kept, fewest partners, the tie-break, the lowest type."""
    rng = random.Random(21)
    deck = deck_types(rules)
    hands = [rng.sample(deck, 14) for _ in range(80)]
    for _ in range(80):  # dense hands: melds everywhere, the shortcut is tried hard
        pool = [s * 13 + r for s in (0, 2) for r in range(2, 9) for _ in range(2)] + [JOKER] * rules.jokers
        hands.append(rng.sample(pool, 14))
    for policy in ("keep-high", "shed-points"):
        kernel = discards(hands, rules, policy)
        for hand, card in zip(hands, kernel):
            assert card == twin_odds.discard_of(hand, rules, policy)
            assert card != JOKER


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=lambda r: r.name)
def test_kernel_equals_twin_sample_by_sample(rules):
    full = deck_types(rules)
    compare_with_twin(MODE_DEAL, [], full, -1, 4, 15, rules, "keep-high", 5, 20)
    compare_with_twin(MODE_JOKER, [], full, -1, 3, 15, rules, "keep-high", 6, 15)
    hand = parse_rummy_hand(HARD, rules)
    up = parse_token("CQ")
    compare_with_twin(MODE_HAND, hand, unknown_cards(rules, [*hand, up]), up, 2, 6, rules, "shed-points", 7, 10)


def test_kernel_equals_twin_when_the_stock_runs_out():
    """TINY with 4 players: 54 - 7 - 1 - 21 = 25 cards of stock, empty in the 7th round; 20 turns."""
    full = deck_types(TINY)
    opened = compare_with_twin(MODE_DEAL, [], full, -1, 4, 20, TINY.replace(opening_threshold=60), "keep-high",
                               8, 30)
    assert (opened > 7).sum() >= 10  # many samples played past the renewal of the stock


def test_same_seed_same_answer_whatever_the_threads_and_batches():
    hand = parse_rummy_hand(HARD, ROMME)
    a = odds(hand, ROMME, samples=3000, seed=42)
    b = odds(hand, ROMME, samples=3000, seed=42)
    assert [e.mean for e in a.by_turn] == [e.mean for e in b.by_turn]
    pool = unknown_cards(ROMME, hand)
    params, pm, tie = rules_arrays(ROMME, "keep-high")
    args = (MODE_HAND, np.array(hand), np.array(pool), -1, 4, 13, 10, params, pm, tie, 42, 0, 3000)
    one = simulate_batch(*args, threads=1)[0]
    two = simulate_batch(*args, threads=2)[0]
    assert np.array_equal(one, two)
    first = simulate_batch(*args[:-2], 0, 1000)[0]
    later = simulate_batch(*args[:-2], 1000, 2000)[0]
    assert np.array_equal(np.concatenate([first, later]), one)


def test_a_hand_that_can_open_already_needs_no_simulation():
    r = odds("HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK", "rummi", samples=1000, seed=1)
    assert r.deal_value == 45 and r.can_open_now
    assert all(e.mean == 1.0 and e.samples == 1000 for e in r.by_turn)


def test_bad_odds_inputs():
    with pytest.raises(RulesError, match="players"):
        odds(HARD, ROMME, players=5)
    with pytest.raises(RulesError, match="--turns"):
        odds(HARD, ROMME, turns=0)
    with pytest.raises(CardError, match="unknown card 'ZZ'"):
        odds(HARD, ROMME, discard="ZZ", samples=10)
    with pytest.raises(CardError, match="appears 3 times"):
        odds(HARD.replace("H5", "HA"), ROMME, discard="HA", samples=10)
    with pytest.raises(CardError, match="needs 13"):
        odds("HA H2 H3", ROMME)


# -- exact enumeration ---------------------------------------------------------------------------------
def exact_first_draws(hand, rules, pool):
    """P(open by draw 1) and P(open by draw 2), enumerated: the draws are uniform over the unknown cards left
    (the other players' hands and draws are as random as the stock, and nothing comes back this early)."""
    counts = Counter(pool)
    types = sorted(counts)
    total = len(pool)
    first = [sorted([*hand, x]) for x in types]
    opens1 = solve_hands(first, rules, "value", rules.opening_threshold)[0] >= rules.opening_threshold
    keep = discards(first, rules)
    p1 = sum(counts[x] for x, o in zip(types, opens1) if o) / total
    p2 = p1
    for x, o, d in zip(types, opens1, keep):
        if o:
            continue
        thirteen = [*hand, x]
        thirteen.remove(d)
        left = counts.copy()
        left[x] -= 1
        second = [sorted([*thirteen, y]) for y in types if left[y]]
        weights = [left[y] for y in types if left[y]]
        opens2 = solve_hands(second, rules, "value", rules.opening_threshold)[0] >= rules.opening_threshold
        p2 += counts[x] / total * sum(w for w, o2 in zip(weights, opens2) if o2) / (total - 1)
    return p1, p2


def within(estimate, p, z=4.0):
    """The exact value within z standard errors of the estimate (z = 4: a deterministic test with a fixed
    seed, yet one a wrong model of a few per cent fails)."""
    se = max((estimate.mean * (1 - estimate.mean) / estimate.samples) ** 0.5, 1e-9)
    return abs(estimate.mean - p) <= z * se


@pytest.mark.statistical
@pytest.mark.parametrize("rules,hand", [
    (TINY, "D3 S6 JK SJ H5 D7 C3"),
    (TINY, "H3 H8 S5 CA D8 D7 HK"),
    (ROMME40, HARD),
    (RUMMI, "HA H5 D7 S9 C2 C4 CT CJ S2 D4 H9 SK JK"),
])
def test_monte_carlo_matches_exact_enumeration_of_two_draws(rules, hand):
    cards = parse_rummy_hand(hand, rules)
    pool = unknown_cards(rules, cards)
    p1, p2 = exact_first_draws(cards, rules, pool)
    est = odds(cards, rules, players=3, turns=2, samples=60_000, seed=3)
    assert 0.01 < p2 < 0.99 and p2 > p1
    assert within(est.by_turn[0], p1) and within(est.by_turn[1], p2)
    assert est.by_turn[1].low <= est.by_turn[1].mean <= est.by_turn[1].high
    # negative controls: the exact answers of a neighbouring question are far outside
    assert not within(est.by_turn[1], p1)
    q1, q2 = exact_first_draws(cards, rules.replace(opening_threshold=rules.opening_threshold + 5), pool)
    assert not within(est.by_turn[1], q2)


@pytest.mark.statistical
def test_a_known_open_card_leaves_the_stock():
    """A hand that opens at the first draw only with the queen of clubs or a joker (CT CJ CQ CK = 40 in
    romme40): P = 4/U, and 3/(U-1) when one CQ lies open; taking that open card opens for sure (exact)."""
    hand = parse_rummy_hand(HARD, ROMME40)
    cq = parse_token("CQ")
    pool = unknown_cards(ROMME40, hand)
    assert solve_hands([[*hand, cq]], ROMME40, "value")[1][0] >= 40
    p_free, _ = exact_first_draws(hand, ROMME40, pool)
    with_card = odds(hand, ROMME40, players=2, turns=1, samples=200_000, seed=4, discard="CQ")
    assert with_card.discard_opens is True and with_card.discard_value >= 40
    pool_known = unknown_cards(ROMME40, [*hand, cq])
    p_known, _ = exact_first_draws(hand, ROMME40, pool_known)
    assert p_known < p_free
    assert within(with_card.by_turn[0], p_known) and not within(with_card.by_turn[0], p_free)


# -- tables ----------------------------------------------------------------------------------------------
def test_tables_are_consistent():
    table = build_table(ROMME40, samples=1500, seed=2, turns=6, players=4, pairs=1000)
    assert table.samples == 1500 and 900 < table.pairs <= 1000
    c = curve(table.opened, table.turns)
    assert [e.mean for e in c] == sorted(e.mean for e in c)  # P(open by k) never falls
    assert c[0].mean == np.mean(table.deal_value >= 40)  # turn 0: the hand as dealt
    assert by_value(table)[-1][2][0].mean == 1.0  # the bin at the threshold opens at once
    d = table_dict(table)
    assert sum(g["samples"] for g in d["by_jokers"]) == 1500 == sum(g["samples"] for g in d["by_value"])
    assert d["joker_value"][0]["turns_sooner"] > 0  # a joker helps, on average
    again = build_table(ROMME40, samples=1500, seed=2, turns=6, players=4, pairs=1000)
    assert np.array_equal(again.opened, table.opened) and np.array_equal(again.pair_with, table.pair_with)


def test_joker_pairs_share_everything_but_the_swapped_card():
    params, pm, tie = rules_arrays(ROMME, "keep-high")
    pool = np.array(deck_types(ROMME))
    without, value, jokers, with_joker = simulate_batch(MODE_JOKER, np.zeros(1), pool, -1, 4, 13, 15, params, pm,
                                                        tie, 9, 0, 2000)
    plain, value2, jokers2, _ = simulate_batch(MODE_DEAL, np.zeros(1), pool, -1, 4, 13, 15, params, pm, tie, 9, 0,
                                               2000)
    ok = with_joker >= 0
    assert np.array_equal(without[ok], plain[ok]) and np.array_equal(value[ok], value2[ok])
    assert np.mean(with_joker[ok] <= without[ok]) > 0.9
