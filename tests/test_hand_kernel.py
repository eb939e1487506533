"""The whole-hand Numba kernel (``engine/hand.py``) against its plain-Python twin (``engine/twin_hand.py``).

docs/SIMULATION.md demands that both agree sample by sample: the tries of the
conditioning and, for every choice of the hero, (score change, tricks,
contested). Situations are drawn at random from a seeded generator over both
rule sets, a rumba-first swiss variant, every allowed player count, every
opponent model, both card-play policies, passes in a row 0..3, a knock and
earlier words. Then: the knock kernel against the twin, independence from
threads and batch splits, ``ask_exact`` against a brute-force count on a tiny
rule set, and the identity ``ask`` (opponents ``all``, greedy, seat 0) ==
``tricks.play_greedy`` on the same deals.
"""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
import pytest

from rumbaodds import analysis
from rumbaodds.analysis import WORDS, _choice_code
from rumbaodds.cards import RANKS, card_id, format_card, mask_of, parse_card, parse_hand
from rumbaodds.engine import hand as K
from rumbaodds.engine import twin
from rumbaodds.engine import twin_hand as th
from rumbaodds.engine.tricks import play_greedy
from rumbaodds.models import MODELS, OpponentModel
from rumbaodds.rules import FLEMISH, SWISS

POLICY = {"greedy": K.POLICY_GREEDY, "expert": K.POLICY_EXPERT}
SWISS_RF = SWISS.replace(name="swiss-rf", speaking_order="rumba-first")
RULE_SETS = (SWISS, FLEMISH, SWISS_RF)
MODEL_NAMES = ("default", "cautious", "bold", "all")
SAMPLES = 50
SEED = 20240611


# =============================================================================
# calling the kernel the way analysis.ask does
# =============================================================================
def before_codes(before, seat):
    words = before if before else ("-",) * seat
    return np.array([WORDS[w] for w in words] or [0], dtype=np.int64)[:max(1, seat)]


def kernel_ask(rules, n, seat, hand, trump_card, model, policy, passes, knocked, before, seed, start, count):
    names = th.hero_choices(rules, n, seat, hand, trump_card, knocked)
    codes = np.array([_choice_code(x) for x in names], dtype=np.int64)
    unknown = np.array(th.unknown_cards(rules, hand, trump_card), dtype=np.int64)
    res, tries = K.ask_batch(np.uint64(rules.deck_mask), unknown, np.uint64(mask_of(hand)), trump_card, n, seat,
                             K.rules_array(rules), model.as_array(), POLICY[policy], passes, knocked,
                             before_codes(before, seat), codes, np.uint64(seed), start, count)
    return names, res, tries


# =============================================================================
# random situations
# =============================================================================
def _feasible_before(rules, n, seat, hand, trump_card, model, knocked, rng):
    """Words of the earlier seats from one random deal that the twin accepts (None if none found)."""
    if seat == 0 or rules.speaking_order == "rumba-first":
        return None
    sit = th.Situation(rules, n, seat, trump_card, model, knocked)
    unknown = th.unknown_cards(rules, hand, trump_card)
    for _ in range(200):
        order = [unknown[j] for j in rng.permutation(len(unknown))]
        hands, _stock = th.deal_opponents(order, n, seat, hand, rules.hand_size)
        words = th.earlier_words(sit, hands, None)
        if words is not None:
            return tuple(words)
    return None


def _random_hand(rules, rng, kind):
    deck = list(rules.deck)
    trump_suit = int(rng.integers(0, 4))
    if kind == "low" and rules.throw_in:  # every card below ten: the throw-in is open
        limit = RANKS.index(rules.throw_in_below)
        pool = [c for c in deck if c % 16 < limit]
        hand = [int(c) for c in rng.choice(pool, 5, replace=False)]
    elif kind == "strong":  # many trumps: the Rumba is worth asking
        trumps = [c for c in deck if c // 16 == trump_suit]
        picked = [int(c) for c in rng.choice(trumps, 3, replace=False)]
        rest = [c for c in deck if c not in picked]
        hand = picked + [int(c) for c in rng.choice(rest, 2, replace=False)]
    else:
        hand = [int(c) for c in rng.choice(deck, 5, replace=False)]
    if kind == "two" and rules.two_of_trump_swap:  # the hero holds the two of trump
        two = card_id(trump_suit, RANKS.index("2"))
        if two not in hand:
            hand[0] = two
    rest = [c for c in deck if c not in hand and c // 16 == trump_suit]
    if kind == "jack" and rules.jack_of_trump_forces_play and card_id(trump_suit, RANKS.index("J")) in rest:
        trump_card = card_id(trump_suit, RANKS.index("J"))
    else:
        trump_card = int(rng.choice(rest)) if rest else int(rng.choice([c for c in deck if c not in hand]))
    return sorted(hand), trump_card


def make_situations(count=40):
    rng = np.random.default_rng(SEED)
    out = []
    kinds = ("any", "low", "strong", "two", "jack", "any")
    i = 0
    while len(out) < count:
        rules = RULE_SETS[i % 3]
        players = list(range(rules.min_players, rules.max_players + 1))
        n = players[(i // 3) % len(players)]
        model = MODELS[MODEL_NAMES[(i // 3) % 4]]
        policy = ("greedy", "expert")[(i // 2) % 2]
        kind = kinds[int(rng.integers(0, len(kinds)))]
        i += 1
        hand, trump_card = _random_hand(rules, rng, kind)
        seat = int(rng.integers(0, n))
        passes = int(rng.integers(0, 4))
        knocked = bool(rules.knock and seat != n - 1 and rng.random() < 0.3)
        before = _feasible_before(rules, n, seat, hand, trump_card, model, knocked, rng) \
            if rng.random() < 0.5 else None
        case = (rules, n, seat, tuple(hand), trump_card, model, policy, passes, knocked, before)
        # keep situations the conditioning can reach (a -1 would make the twin loop 10,000 times)
        _names, _res, tries = kernel_ask(*case, SEED, 0, SAMPLES)
        if (tries < 0).any():
            continue
        out.append(case)
    return out


SITUATIONS = make_situations()


def _case_id(case):
    rules, n, seat, hand, trump_card, model, policy, passes, knocked, before = case
    text = " ".join(format_card(c) for c in hand)
    return (f"{rules.name}-n{n}-s{seat}-{text.replace(' ', '.')}-T{format_card(trump_card)}-{model.name}-{policy}"
            f"-p{passes}{'-knocked' if knocked else ''}{'-before' if before else ''}")


def test_situations_cover_the_space():
    """The random draw reaches every rule set, player count, model, policy, pass count, a knock and words."""
    seen = {(c[0].name, c[1]) for c in SITUATIONS}
    for rules in RULE_SETS:
        for n in range(rules.min_players, rules.max_players + 1):
            assert (rules.name, n) in seen, (rules.name, n)
    assert {c[5].name for c in SITUATIONS} == set(MODEL_NAMES)
    assert {c[6] for c in SITUATIONS} == {"greedy", "expert"}
    assert {c[7] for c in SITUATIONS} == {0, 1, 2, 3}
    assert any(c[8] for c in SITUATIONS)
    assert any(c[9] for c in SITUATIONS)
    names = [th.hero_choices(c[0], c[1], c[2], c[3], c[4], c[8]) for c in SITUATIONS]
    assert any("throw-in" in x for x in names)
    assert any("pass" not in x for x in names)  # a flemish jack of trump turned


@pytest.mark.parametrize("case", SITUATIONS, ids=_case_id)
def test_kernel_equals_twin_sample_by_sample(case):
    rules, n, seat, hand, trump_card, model, policy, passes, knocked, before = case
    names, res, tries = kernel_ask(*case, SEED, 0, SAMPLES)
    for i in range(SAMPLES):
        t_tries, t_out = th.simulate_sample(rules, n, seat, list(hand), trump_card, model, policy, passes=passes,
                                            knocked=knocked, before=before, seed=SEED, index=i)
        k_out = {nm: (int(res[i, c, 0]), int(res[i, c, 1]), bool(res[i, c, 2])) for c, nm in enumerate(names)}
        assert (int(tries[i]), k_out) == (t_tries, t_out), f"sample {i}"


# =============================================================================
# knock_batch, knocking part
# =============================================================================
KNOCK_CASES = [
    (SWISS, 3, "HA", "default", "greedy"),
    (SWISS, 4, "S6", "bold", "expert"),
    (SWISS, 5, "DK", "cautious", "expert"),
    (SWISS, 6, "CT", "all", "greedy"),
    (SWISS, 7, "H9", "default", "expert"),
    (SWISS_RF, 5, "HA", "bold", "greedy"),
]


@pytest.mark.parametrize("rules, n, trump, model, policy", KNOCK_CASES)
def test_knock_kernel_equals_twin(rules, n, trump, model, policy):
    trump_card = parse_card(trump)
    unknown = np.array([c for c in rules.deck if c != trump_card], dtype=np.int64)
    start, count = 7, 40
    res = K.knock_batch(np.uint64(rules.deck_mask), unknown, trump_card, n, K.rules_array(rules),
                        MODELS[model].as_array(), POLICY[policy], np.uint64(SEED), start, count, 2)
    for i in range(count):
        want = th.simulate_knock_sample(rules, n, trump_card, MODELS[model], policy, seed=SEED, index=start + i)
        got = (int(res[i, 0, 0]), int(res[i, 0, 1]), bool(res[i, 0, 2]))
        assert got == want, f"sample {start + i}"


# =============================================================================
# threads and batch splits
# =============================================================================
SPLIT_CASE = (SWISS, 5, 2, tuple(parse_hand("HA HK S6 C7 D9")), parse_card("H8"), MODELS["default"], "expert", 2,
              False, None)


def test_ask_batch_independent_of_thread_count():
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        _n, res1, tries1 = kernel_ask(*SPLIT_CASE, 5, 0, 600)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        _n, res2, tries2 = kernel_ask(*SPLIT_CASE, 5, 0, 600)
    finally:
        numba.set_num_threads(old)
    np.testing.assert_array_equal(res1, res2)
    np.testing.assert_array_equal(tries1, tries2)


def test_ask_batch_independent_of_batch_split():
    _n, whole, tries = kernel_ask(*SPLIT_CASE, 5, 0, 600)
    parts, part_tries = [], []
    for start, count in ((0, 1), (1, 255), (256, 257), (513, 87)):
        _n, res, t = kernel_ask(*SPLIT_CASE, 5, start, count)
        parts.append(res)
        part_tries.append(t)
    np.testing.assert_array_equal(np.concatenate(parts), whole)
    np.testing.assert_array_equal(np.concatenate(part_tries), tries)
    # a different seed gives different deals
    _n, other, _t = kernel_ask(*SPLIT_CASE, 6, 0, 600)
    assert not np.array_equal(other, whole)


def test_knock_batch_independent_of_threads_and_split():
    trump_card = parse_card("HA")
    unknown = np.array([c for c in SWISS.deck if c != trump_card], dtype=np.int64)

    def run(start, count):
        return K.knock_batch(np.uint64(SWISS.deck_mask), unknown, trump_card, 5, K.rules_array(SWISS),
                             MODELS["default"].as_array(), K.POLICY_EXPERT, np.uint64(9), start, count, 5)

    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run(0, 120)
    finally:
        numba.set_num_threads(old)
    np.testing.assert_array_equal(run(0, 120), one)
    np.testing.assert_array_equal(np.concatenate([run(0, 50), run(50, 70)]), one)


# =============================================================================
# ask_exact on a tiny rule set
# =============================================================================
RENAMINGS = 2  # orders of TINY's two side suits (SIMULATION.md step 2b)
TINY = SWISS.replace(name="tiny", suits="DHS", ranks="QKA", hand_size=2, min_players=2, max_players=3,
                     exchange_limit=1, passer_cards="put-away", rumba_min_tricks=2)
# hand points of two cards reach 11: a model that calls Rumba and plays often enough to reject orders
TINY_MODEL = OpponentModel("tiny", rumba_points=9, play_points=5, join_points=6, discard_below=1, throw_in=True,
                           swap_two=True)


def _twin_enumeration(rules, n, seat, hand, trump_card, model, policy, passes, knocked, before):
    """(accepted (order, side-suit renaming) pairs, {choice: sum of the hero's score}), by the twin."""
    sit = th.Situation(rules, n, seat, trump_card, model, knocked)
    choices = th.hero_choices(rules, n, seat, hand, trump_card, knocked)
    unknown = sorted(th.unknown_cards(rules, hand, trump_card))
    accepted = 0
    sums = dict.fromkeys(choices, 0)
    for order in itertools.permutations(unknown):
        dealt, dealt_stock = th.deal_opponents(list(order), n, seat, hand, rules.hand_size)
        earlier = th.earlier_words(sit, dealt, before)
        if earlier is None:
            continue
        for rename in th.side_suit_orders(rules, sit.trump):  # SIMULATION.md step 2b, every renaming
            accepted += 1
            hands = [{th.renamed(c, rename) for c in h} for h in dealt]
            stock = [th.renamed(c, rename) for c in dealt_stock]
            my_hand = [th.renamed(c, rename) for c in hand]
            table_card = trump_card
            if knocked:
                table_card = th.knocker_takes_turned_card(hands[sit.dealer], trump_card, sit.trump)
            _play_choices(sit, choices, hands, stock, my_hand, table_card, earlier, knocked, policy, passes, sums)
    return accepted, sums


def _play_choices(sit, choices, hands, stock, hand, table_card, earlier, knocked, policy, passes, sums):
    """Add the hero's score of every choice on one renamed deal to ``sums``."""
    for choice in choices:
        my_hands = [set(h) for h in hands]
        my_table = table_card
        if not knocked:
            my_hands[sit.seat], my_table = th.hero_hand_after_swap(sit.rules, hand, sit.trump_card)
        word, k = ("play", int(choice[4:])) if choice.startswith("play") else (choice, 0)
        spoken = th.speak(sit, my_hands, earlier, word, my_table)
        score, _tricks, _contested = th.finish_hand(sit, my_hands, spoken, stock, k, 0, policy, passes)
        sums[choice] += score


@pytest.mark.parametrize("seat, before", [(0, None), (1, None), (2, None), (2, ("play", "play"))])
def test_ask_exact_model_all_accepts_every_order(seat, before):
    """Model ``all`` never throws in, swaps or calls Rumba and always plays: every order is accepted."""
    out = analysis.exact_ask("HA SK", "DQ", 3, seat, rules=TINY, opponents="all", play="greedy", before=before)
    assert out["_accepted"]["orders"] == math.factorial(len(TINY.deck) - 3) * RENAMINGS


def test_ask_exact_model_all_never_passes():
    """Earlier words that model ``all`` never says: no order is accepted."""
    cards, trump_card = parse_hand("HA SK"), parse_card("DQ")
    names = th.hero_choices(TINY, 3, 2, cards, trump_card)
    codes = np.array([_choice_code(x) for x in names], dtype=np.int64)
    unknown = np.array(th.unknown_cards(TINY, cards, trump_card), dtype=np.int64)
    for before, want in ((("play", "pass"), 0), (("play", "play"), math.factorial(len(unknown)) * RENAMINGS)):
        accepted, _s, _q, _t = K.ask_exact(np.uint64(TINY.deck_mask), unknown, np.uint64(mask_of(cards)), trump_card,
                                           3, 2, K.rules_array(TINY), MODELS["all"].as_array(), K.POLICY_GREEDY, 0,
                                           False, before_codes(before, 2), codes)
        assert accepted == want


@pytest.mark.parametrize(
    "n, seat, hand, trump, before, knocked, passes, policy",
    [
        (3, 2, "HA SK", "DQ", None, False, 0, "greedy"),
        (3, 2, "HA SK", "DQ", ("play", "pass"), False, 2, "expert"),
        (3, 1, "DK SQ", "DA", ("pass",), False, 0, "expert"),
        (3, 1, "HQ SQ", "HA", None, True, 2, "greedy"),
        (2, 1, "HK HQ", "SA", None, False, 0, "expert"),
    ],
)
def test_ask_exact_equals_twin_enumeration(n, seat, hand, trump, before, knocked, passes, policy):
    cards, trump_card = parse_hand(hand), parse_card(trump)
    out = analysis.exact_ask(hand, trump, n, seat, rules=TINY, opponents=TINY_MODEL, play=policy,
                             passes_in_a_row=passes, dealer_knocked=knocked, before=before)
    accepted, sums = _twin_enumeration(TINY, n, seat, cards, trump_card, TINY_MODEL, policy, passes, knocked, before)
    assert out["_accepted"]["orders"] == accepted
    assert 0 < accepted <= math.factorial(len(TINY.deck) - 3) * RENAMINGS
    for choice, total in sums.items():
        assert out[choice]["ev"] == pytest.approx(total / accepted, abs=1e-12), choice


def test_ask_exact_conditioning_rejects_orders():
    """A Rumba-prone model at seat 0 rejects some orders for seat 2: the count is the twin's, below n!."""
    cards, trump_card = parse_hand("SQ DQ"), parse_card("DK")
    out = analysis.exact_ask("SQ DQ", "DK", 3, 2, rules=TINY, opponents=TINY_MODEL, play="greedy")
    accepted, _sums = _twin_enumeration(TINY, 3, 2, cards, trump_card, TINY_MODEL, "greedy", 0, False, None)
    assert out["_accepted"]["orders"] == accepted < math.factorial(len(TINY.deck) - 3) * RENAMINGS


# =============================================================================
# the identity: opponents all, greedy, seat 0  ==  play_greedy on the same deals
# =============================================================================
@pytest.mark.parametrize("n, hand, trump", [(4, "HA S6 C7 D8 SK", "H9"), (5, "HK HQ SA DA C6", "H6")])
def test_rumba_all_greedy_seat0_equals_play_greedy(n, hand, trump):
    samples, seed = 2000, 77
    cards, trump_card = parse_hand(hand), parse_card(trump)
    result = analysis.ask(hand, trump, n, 0, rules="swiss", opponents="all", play="greedy", samples=samples,
                          seed=seed)
    unknown = th.unknown_cards(SWISS, cards, trump_card)
    hist = np.zeros(6, dtype=np.int64)
    for i in range(samples):
        # SIMULATION.md step 1: Fisher-Yates over U, len(U) draws; seats 1..n-1 take 5 cards each
        deck = list(unknown)
        stream = twin.Stream(seed, i)
        for j in range(len(deck)):
            k = j + stream.below(len(deck) - j)
            deck[j], deck[k] = deck[k], deck[j]
        # step 2b: the deal's side suits renamed by one more draw
        orders = th.side_suit_orders(SWISS, trump_card // 16)
        rename = orders[stream.below(len(orders))]
        deck = [th.renamed(c, rename) for c in deck]
        mine = [th.renamed(c, rename) for c in cards]
        hands = [mask_of(mine)] + [mask_of(deck[5 * (s - 1):5 * s]) for s in range(1, n)]
        tricks = np.zeros(n, dtype=np.int64)
        play_greedy(np.array(hands, dtype=np.uint64), 0, trump_card // 16, SWISS.follow_code, tricks)
        hist[tricks[0]] += 1
    rumba = result.options["rumba"]
    made = int(hist[3:].sum())
    assert 0 < made
    assert rumba.p_success.mean == made / samples
    assert rumba.p_uncontested == 0.0
    assert rumba.tricks == tuple(float(x / samples) for x in hist)
    assert result.tries_per_sample == 1.0
