"""The whole-hand Numba kernel (``engine/hand.py``) against its plain-Python twin (``engine/twin_hand.py``).

docs/SIMULATION.md demands that both agree sample by sample: the tries and the
weight of the conditioning and, for every choice of the hero, (score change,
tricks, contested, round-one caller). Situations cover both presets and the
variants a house-rule file makes (rumba-first, a flemish knock, the Rumba lead
crossed, swiss cards put away), every model, both card plays, passes, a knock,
earlier words with Rumba and ``-``, rare words (drawn exactly), impossible ones
(stretched) and an earlier swap of the two of trump. ``test_rule_sets.py`` adds
hypothesis-drawn rule sets. Then: the knock kernel, thread and batch
independence, ``ask_exact`` against the twin's own enumeration, and the
identity ``ask`` (opponents ``all``, greedy, seat 0) == ``tricks.play_greedy``.
"""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
import pytest
from simulate import assert_kernel_equals_twin, job_of

from rumbaodds.answer import simulation
from rumbaodds.cards import mask_of, parse_card, parse_hand
from rumbaodds.engine import policy as P
from rumbaodds.engine.knock import knock_batch
from rumbaodds.engine.tricks import play_greedy
from rumbaodds.opponents.models import MODELS, OpponentModel
from rumbaodds.opponents.policies import named_policy
from rumbaodds.rules import FLEMISH, SWISS, RulesError
from rumbaodds.twins import common as twin
from rumbaodds.twins import condition as tc
from rumbaodds.twins import hand as th

SEED = 20240611
SWISS_RF = SWISS.replace(name="swiss-rf", speaking_order="rumba-first")
FLEMISH_KNOCK = FLEMISH.replace(name="flemish-knock", knock=True)
SWISS_FIRST = SWISS.replace(name="swiss-lead", rumba_lead="first-after-dealer", passer_cards="put-away")
FLEMISH_RP = FLEMISH.replace(name="flemish-rp", rumba_lead="rumba-player", normal_lead="dealer")

CASES = [
    # hand, trump, players, seat, rules, opponents, play, passes, knocked, before, swapped_by
    ("HA HK HQ S6 C7", "H9", 5, 2, SWISS, "default", "expert", 0, False, None, None),
    ("HA HK S6 C7 D9", "H8", 5, 2, SWISS, "default", "expert", 0, False, "rumba,pass", None),
    ("HA HK S6 C7 D9", "H8", 5, 2, SWISS, "default", "greedy", 2, False, "play,rumba", None),
    ("H6 C7 D8 S9 C6", "HA", 4, 0, SWISS, "cautious", "expert", 2, False, None, None),
    ("SA SK D7 C8 H9", "ST", 5, 3, SWISS, "bold", "expert", 1, False, "pass,play,pass", None),
    ("SA SK D7 C8 H9", "ST", 5, 3, SWISS, "default", "greedy", 2, True, "-,play,-", None),
    ("H7 H8 C6 D9 S6", "H9", 3, 1, SWISS, "all", "expert", 0, False, "play", None),
    ("HA HK HQ HJ HT", "H9", 4, 3, SWISS, "default", "expert", 0, False, "-,rumba,-", None),  # stretched
    ("SA SK D7 C8 H9", "S5", 4, 2, FLEMISH, "default", "expert", 0, False, None, None),
    ("SA SK D7 C8 H9", "S5", 4, 2, FLEMISH, "default", "greedy", 0, False, "play,rumba", None),
    ("SA SK D7 C8 H9", "S5", 4, 2, FLEMISH, "bold", "expert", 0, False, None, 1),
    ("SA SK D7 C8 H9", "SJ", 4, 3, FLEMISH, "cautious", "expert", 0, False, None, None),
    ("S2 SK D7 C8 H9", "SQ", 3, 2, FLEMISH, "default", "expert", 0, False, "pass,pass", None),
    ("HA HK S2 C8 H9", "H5", 6, 5, FLEMISH, "bold", "greedy", 0, False, "-,-,rumba,-,-", None),
    ("S2 SK D7 C8 H9", "SQ", 4, 1, FLEMISH_KNOCK, "default", "expert", 0, True, None, None),
    ("HA HK HQ S6 C7", "H9", 5, 2, SWISS_RF, "default", "expert", 2, False, None, None),
    ("HA HK HQ S6 C7", "H9", 5, 3, SWISS_RF, "bold", "greedy", 0, False, "-,rumba,-", None),
    ("HA HK HQ S6 C7", "H9", 4, 1, SWISS_FIRST, "bold", "expert", 0, False, None, None),
    ("SA SK D7 C8 H9", "S5", 3, 1, FLEMISH_RP, "bold", "expert", 0, False, "rumba", None),
]


def _id(case):
    hand, trump, players, seat, rules, opponents, play, passes, knocked, before, swapped = case
    return (f"{rules.name}-n{players}-s{seat}-{hand.replace(' ', '.')}-T{trump}-{opponents}-{play}-p{passes}"
            f"{'-knocked' if knocked else ''}{'-' + before.replace(',', '.') if before else ''}"
            f"{'-swap' + str(swapped) if swapped is not None else ''}")


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_kernel_equals_twin_sample_by_sample(case):
    hand, trump, players, seat, rules, opponents, play, passes, knocked, before, swapped = case
    job = job_of(hand, trump, players, seat, rules, opponents, play, passes, knocked, before, swapped)
    assert_kernel_equals_twin(job, seed=SEED, samples=25)


def test_cases_reach_every_path():
    """The cases draw hard (exact) seats, a stretched seat, a swap, voids and round-one callers."""
    jobs = [job_of(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10]) for c in CASES]
    assert any(j.plan.hard.any() for j in jobs)
    assert any(j.plan.stretched.any() for j in jobs)
    assert any(j.situation.swapped_by is not None for j in jobs)
    codes = set()
    callers = set()
    for j in jobs:
        res, _t, _w = j.batch(SEED, 0, 25)
        codes |= set(np.unique(res[:, :, 1]).tolist())
        callers |= set(np.unique(res[:, :, 3]).tolist())
    assert {-3, -1, 0, 5} <= codes
    assert len(callers) > 1  # rumba-first: round-one callers recorded


# =============================================================================
# knock_batch, knocking part
# =============================================================================
KNOCK_CASES = [
    (SWISS, 3, "HA", "default", "greedy"),
    (SWISS, 4, "S6", "bold", "expert"),
    (SWISS, 5, "DK", "cautious", "expert"),
    (SWISS, 7, "H9", "all", "greedy"),
    (SWISS_RF, 5, "HA", "bold", "greedy"),
]


@pytest.mark.parametrize("rules, n, trump, model, play", KNOCK_CASES)
def test_knock_kernel_equals_twin(rules, n, trump, model, play):
    trump_card = parse_card(trump)
    policy = named_policy(MODELS[model], rules, n)
    unknown = np.array([c for c in rules.deck if c != trump_card], dtype=np.int64)
    start, count = 7, 30
    res = knock_batch(np.uint64(rules.deck_mask), unknown, trump_card, n, simulation.kernel.rules_array(rules),
                      policy.as_tuple(), simulation.POLICIES[play], np.uint64(SEED), start, count, 2)
    for i in range(count):
        want = th.simulate_knock_sample(rules, n, trump_card, policy, play, seed=SEED, index=start + i)
        got = (int(res[i, 0, 0]), int(res[i, 0, 1]), bool(res[i, 0, 2]))
        assert got == want, f"sample {start + i}"


# =============================================================================
# threads and batch splits
# =============================================================================
def _split_job():
    return job_of("HA HK S6 C7 D9", "H8", 5, 2, SWISS, "default", "expert", 2, False, "rumba,-")


def test_ask_batch_independent_of_thread_count():
    job = _split_job()
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = job.batch(5, 0, 400)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = job.batch(5, 0, 400)
    finally:
        numba.set_num_threads(old)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


def test_ask_batch_independent_of_batch_split():
    job = _split_job()
    whole = job.batch(5, 0, 400)
    parts = [job.batch(5, start, count) for start, count in ((0, 1), (1, 255), (256, 57), (313, 87))]
    for k in range(3):
        np.testing.assert_array_equal(np.concatenate([p[k] for p in parts]), whole[k])
    other = job.batch(6, 0, 400)  # a different seed gives different deals
    assert not np.array_equal(other[0], whole[0])


def test_knock_batch_independent_of_threads_and_split():
    trump_card = parse_card("HA")
    unknown = np.array([c for c in SWISS.deck if c != trump_card], dtype=np.int64)
    policy = named_policy(MODELS["default"], SWISS, 5)

    def run(start, count):
        return knock_batch(np.uint64(SWISS.deck_mask), unknown, trump_card, 5, simulation.kernel.rules_array(SWISS),
                           policy.as_tuple(), simulation.kernel.POLICY_EXPERT, np.uint64(9), start, count, 5)

    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run(0, 80)
    finally:
        numba.set_num_threads(old)
    np.testing.assert_array_equal(run(0, 80), one)
    np.testing.assert_array_equal(np.concatenate([run(0, 30), run(30, 50)]), one)


# =============================================================================
# ask_exact on a tiny rule set, against the twin's own enumeration
# =============================================================================
RENAMINGS = 2  # orders of TINY's two side suits (SIMULATION.md step 2b)
TINY = SWISS.replace(name="tiny", suits="DHS", ranks="QKA", hand_size=2, min_players=2, max_players=3,
                     exchange_limit=1, passer_cards="put-away", rumba_min_tricks=2)
# hand points of two cards reach 11: a model that calls Rumba and plays often enough to reject orders
TINY_MODEL = OpponentModel("tiny", rumba_points=9, play_points=5, join_points=6, join_knock_points=4,
                           discard_below=1, throw_in=True, swap_two=True)


def _twin_enumeration(job):
    """(total weight, {choice: weighted sum of the hero's score}) by enumerating every order through the twin."""
    s = job.situation
    rules, n, seat, policy = s.rules, s.players, s.seat, job.policy
    sit = th.Situation(rules, n, seat, s.trump_card, policy, s.dealer_knocked)
    unknown = sorted(int(c) for c in job.unknown())
    total = 0.0
    sums = dict.fromkeys(job.names, 0.0)
    numbers = [[0.5] * 4 for _ in range(n)]
    for order in itertools.permutations(unknown):
        weight, words, rumba_seat, pos = 1.0, [], -1, 0
        hands = []
        for e in range(seat):
            hand = set(order[pos:pos + rules.hand_size])
            pos += rules.hand_size
            hands.append(hand)
            turn = tc.turn_of(e, words, rumba_seat, s.dealer_knocked, sit.jack_forces_play, rules)
            alpha = tc.acceptance_of(policy, e, turn, int(job.plan.words[e]), False, job.plan.stretch)
            weight *= alpha[sit.score(hand, e), 1 if tc.may_throw_in(hand, rules) else 0]
            word = int(job.plan.words[e])
            if word == P.W_NONE:
                word = tc.pick_not_rumba(tc.row(policy, e, turn.ctx, sit.score(hand, e), turn.pass_ok, turn.rumba_ok),
                                         0.5)
            words.append(word)
            rumba_seat = e if word == P.W_RUMBA else rumba_seat
        if weight == 0.0:
            continue
        hands.append(set(s.hand))
        for _ in range(seat + 1, n):
            hands.append(set(order[pos:pos + rules.hand_size]))
            pos += rules.hand_size
        for rename in th.side_suit_orders(rules, s.trump):  # every renaming, equally likely
            total += weight
            my = [{th.renamed(c, rename) for c in h} for h in hands]
            stock = [th.renamed(c, rename) for c in order[pos:]]
            table = s.trump_card
            if s.dealer_knocked:
                table = th.knocker_takes_turned_card(my[n - 1], s.trump_card, s.trump)
            for choice in job.names:
                if choice == "throw-in":
                    continue
                mine = [set(h) for h in my]
                word, k = ("play", int(choice[4:])) if choice.startswith("play") else (choice, 0)
                spoken = th.speak(sit, mine, words, numbers, word, table, rumba_seat, stock, 0)
                score, _t, _c = th.finish_hand(sit, spoken, k, numbers, job.play, s.passes_in_a_row)
                sums[choice] += weight * score
    return total, sums


@pytest.mark.parametrize("seat, before", [(0, None), (1, None), (2, None), (2, ("play", "play"))])
def test_ask_exact_model_all_accepts_every_order(seat, before):
    """Model ``all`` never throws in, swaps or calls Rumba and always plays: every order is accepted."""
    out = simulation.exact_ask("HA SK", "DQ", 3, seat, rules=TINY, opponents="all", play="greedy", before=before)
    assert out["_accepted"]["weight"] == math.factorial(len(TINY.deck) - 3) * RENAMINGS


@pytest.mark.parametrize(
    "n, seat, hand, trump, before, knocked, passes, play",
    [
        (3, 2, "HA SK", "DQ", None, False, 0, "greedy"),
        (3, 2, "HA SK", "DQ", ("play", "pass"), False, 2, "expert"),
        (3, 2, "SQ DQ", "DK", ("rumba", "-"), False, 0, "greedy"),
        (3, 1, "DK SQ", "DA", ("pass",), False, 0, "expert"),
        (3, 1, "HQ SQ", "HA", None, True, 2, "greedy"),
        (2, 1, "HK HQ", "SA", None, False, 0, "expert"),
    ],
)
def test_ask_exact_equals_twin_enumeration(n, seat, hand, trump, before, knocked, passes, play):
    out = simulation.exact_ask(hand, trump, n, seat, rules=TINY, opponents=TINY_MODEL, play=play,
                             passes_in_a_row=passes, dealer_knocked=knocked, before=before)
    job = job_of(hand, trump, n, seat, TINY, TINY_MODEL, play, passes, knocked, before)
    total, sums = _twin_enumeration(job)
    assert out["_accepted"]["weight"] == pytest.approx(total)
    assert 0 < total <= math.factorial(len(TINY.deck) - 3) * RENAMINGS
    for choice, value in sums.items():
        if choice != "throw-in":
            assert out[choice]["ev"] == pytest.approx(value / total, abs=1e-12), choice


def test_ask_exact_conditioning_weighs_orders():
    """A Rumba-prone model at seat 0 rules out some orders for seat 2: the weight is the twin's, below n!."""
    out = simulation.exact_ask("SQ DQ", "DK", 3, 2, rules=TINY, opponents=TINY_MODEL, play="greedy")
    total, _sums = _twin_enumeration(job_of("SQ DQ", "DK", 3, 2, TINY, TINY_MODEL, "greedy"))
    assert out["_accepted"]["weight"] == pytest.approx(total)
    assert total < math.factorial(len(TINY.deck) - 3) * RENAMINGS


# =============================================================================
# the identity: opponents all, greedy, seat 0  ==  play_greedy on the same deals
# =============================================================================
@pytest.mark.parametrize("n, hand, trump", [(4, "HA S6 C7 D8 SK", "H9"), (5, "HK HQ SA DA C6", "H6")])
def test_rumba_all_greedy_seat0_equals_play_greedy(n, hand, trump):
    samples, seed = 1500, 77
    cards, trump_card = parse_hand(hand), parse_card(trump)
    result = simulation.ask(hand, trump, n, 0, rules="swiss", opponents="all", play="greedy", samples=samples,
                          seed=seed)
    unknown = [c for c in SWISS.deck if c not in cards and c != trump_card]
    hist = np.zeros(6, dtype=np.int64)
    for i in range(samples):
        # SIMULATION.md: one Fisher-Yates over U; seats 1..n-1 take 5 cards each
        deck = list(unknown)
        stream = twin.Stream(seed, i)
        for j in range(len(deck)):
            k = j + stream.below(len(deck) - j)
            deck[j], deck[k] = deck[k], deck[j]
        for _ in range(4 * (n - 1)):  # the later seats' decision numbers
            stream.uniform()
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
    assert rumba.outcomes.made == made / samples
    assert rumba.p_success.mean == made / samples  # nothing voided, nobody refused
    assert rumba.p_uncontested == 0.0
    assert rumba.tricks == tuple(float(x / samples) for x in hist)
    assert result.tries_per_sample == 1.0
    assert result.effective_samples == samples


# -- an exact discard: the very cards a player threw, as a review grades them -------------------------------------
EXACT_CASES = [
    # hand, trump, players, seat, rules, exact discards (the cards he named)
    ("D8 SJ C7 DA DT", "CT", 7, 0, SWISS, ("D8 SJ C7", "SJ", "D8 SJ")),
    ("HA HK HQ S6 C7", "H9", 5, 2, SWISS, ("S6 C7", "HQ S6", "S6 C7 HK")),
    ("S2 SK D7 C8 H9", "SQ", 4, 1, FLEMISH, ("S2 H9", "D7 C8 H9")),  # the two of trump, swapped for SQ [D-9]
    ("SA SK D7 C8 H9", "S5", 3, 2, FLEMISH, ("D7 C8 H9", "SK")),
]


@pytest.mark.parametrize("case", EXACT_CASES, ids=lambda c: f"{c[4].name}-{c[0].replace(' ', '.')}")
def test_exact_discard_kernel_equals_twin(case):
    """The kernel's exact discard (engine/hand.py EXACT_DISCARD, side suits renamed per deal) throws the cards the
    twin throws, sample by sample, beside the policy's plays."""
    from simulate import twin_of

    hand, trump, players, seat, rules, discards = case
    job = job_of(hand, trump, players, seat, rules, "default", "expert")
    job = simulation.Job.of(job.situation, "default", "expert", exact=[parse_hand(d) for d in discards])
    results, tries, _weights = job.batch(SEED, 0, 40)
    for i in range(40):
        t_tries, _w, t_out = th.simulate_sample(*(job.situation.rules, players, seat, job.situation.hand,
                                                  job.situation.trump_card, job.policy, job.plan, job.play,
                                                  0, False, None), seed=SEED, index=i, choices=list(job.slots))
        kernel = {name: tuple(int(x) for x in results[i, c]) for c, name in enumerate(job.slots)}
        assert (int(tries[i]), kernel) == (t_tries, {n: tuple(int(x) for x in t_out[n]) for n in job.slots}), i
    del twin_of


def test_exact_discard_changes_what_is_thrown():
    """Negative control: throwing the trump (C7, his only one) is not the policy's play2 or play3, and its scores
    differ on some deals; throwing the policy's own cards scores exactly as the policy's play does."""
    job = job_of("D8 SJ C7 DA DT", "CT", 7, 0)
    own = simulation.discard_cards(job.situation.hand, 3, job.situation.trump, job.situation.rules)
    job = simulation.Job.of(job.situation, "default", "expert", exact=[parse_hand("D8 SJ C7"), own])
    results, _tries, _w = job.batch(SEED, 0, 400)
    play3 = job.names.index("play3")
    mine, policy_own = len(job.names), len(job.names) + 1
    assert (results[:, policy_own, 0] == results[:, play3, 0]).all()
    assert (results[:, mine, 0] != results[:, play3, 0]).any()


def test_exact_discard_refuses_cards_not_held():
    job = job_of("D8 SJ C7 DA DT", "CT", 7, 0)
    with pytest.raises(RulesError, match="not a card of the hand"):
        simulation.Job.of(job.situation, exact=[parse_hand("HA")])
    with pytest.raises(RulesError, match="exchanges 1"):
        simulation.Job.of(job.situation, exact=[()])
