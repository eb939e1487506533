"""The ``distilled`` card play (issue 17): kernel == twin, legal play, and the fit that makes its weights.

Kernel (engine/distilled.py, engine/play.py play_distilled, engine/pimc.py
SEAT_DISTILLED) and twin (twins/distilled.py) are compared feature by feature
and card by card, with the shipped weights and with random ones (so a
mismatch in a feature the shipped weights barely use still shows).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from distilled_views import mask, views_of_a_hand
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from rumbaodds.cards import cards_of
from rumbaodds.distil.fit import agreement, equivalent, fit_logit
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled import (
    MASTER_TERMS,
    N_CARD,
    N_CONTEXT,
    N_FEATURES,
    QUOTIENT,
    TREES,
    WEIGHTS,
    card_features,
    card_weights,
    context_features,
    context_prefix,
    divided,
    dot_in_order,
    folded_from_prefix,
    folded_weights,
    master_tail,
)
from rumbaodds.engine.play import POLICY_DISTILLED, play_tricks
from rumbaodds.engine.rng import deal_batch
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import distilled as twin

RULES = {"swiss": SWISS, "flemish": FLEMISH}


def deals(rules, players, count, seed):
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, count)
    return hands, trump_cards.astype(np.int64), leaders.astype(np.int64)


def random_weights(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(2, 3, 2, N_FEATURES))


def twin_tricks(rules, hands_row, leader, turned, caller, weights, trees=TREES):
    return twin.play_hand([cards_of(int(m)) for m in hands_row], leader, turned >> 4, rules.follow_code, caller,
                          rules.rumba_min_tricks, rules.deck, weights, turned=turned, trees=trees)


@pytest.mark.parametrize("name,players,caller", [("swiss", 5, 0), ("swiss", 3, -1), ("swiss", 3, 1), ("swiss", 7, 2),
                                                  ("flemish", 4, 1), ("flemish", 6, -1)])
@pytest.mark.parametrize("weights_seed", [None, 11])
def test_kernel_plays_the_twins_cards(name, players, caller, weights_seed):
    """pimc.play_batch with every seat distilled == the twin, deal by deal (shipped and random weights)."""
    rules = RULES[name]
    weights = WEIGHTS if weights_seed is None else random_weights(weights_seed)
    hands, turned, leaders = deals(rules, players, 120, 7 + players)
    util_caller, util_normal = pimc.utility_tables(rules)
    seats = np.full(players, pimc.SEAT_DISTILLED, dtype=np.int64)
    out, _ = pimc.play_batch(hands, leaders, turned >> 4, turned, rules.follow_code, np.uint64(rules.deck_mask),
                             caller, seats, util_caller, util_normal, rules.rumba_min_tricks, weights, 1, 1,
                             np.arange(len(hands), dtype=np.int64))
    for i in range(len(hands)):
        want = twin_tricks(rules, hands[i], int(leaders[i]), int(turned[i]), None if caller < 0 else caller, weights)
        assert out[i].tolist() == want, i


@pytest.mark.parametrize("name,players,caller", [("swiss", 5, 0), ("swiss", 3, 0), ("swiss", 7, 1),
                                                  ("swiss", 4, -1), ("flemish", 5, 3)])
def test_the_table_engine_plays_the_twins_cards(name, players, caller):
    """play_tricks(POLICY_DISTILLED), the path of every table and ask, == the twin with the shipped weights."""
    rules = RULES[name]
    hands, turned, leaders = deals(rules, players, 150, 3)
    for i in range(len(hands)):
        tricks = np.zeros(players, dtype=np.int64)
        play_tricks(hands[i].copy(), players, int(leaders[i]), int(turned[i]) >> 4, rules.follow_code,
                    POLICY_DISTILLED, caller, np.uint64(rules.deck_mask), np.uint64(1 << int(turned[i])), tricks,
                    rules.rumba_min_tricks)
        want = twin_tricks(rules, hands[i], int(leaders[i]), int(turned[i]), None if caller < 0 else caller, WEIGHTS)
        assert tricks.tolist() == want, i


@pytest.mark.parametrize("name,players,caller", [("swiss", 5, 0), ("flemish", 4, -1), ("swiss", 6, 3)])
def test_features_equal_the_twins(name, players, caller):
    """context_features and card_features == the twin's, value by value, on every state of 40 hands."""
    rules = RULES[name]
    hands, turned, leaders = deals(rules, players, 40, 5)
    ctx = np.empty(N_CONTEXT)
    feat = np.empty(N_CARD)
    folded = np.empty(N_CARD)
    checked = 0
    for i in range(len(hands)):
        for v in views_of_a_hand(rules, hands[i], int(leaders[i]), int(turned[i]), caller if caller >= 0 else None):
            won = np.array(v.won, dtype=np.int64)
            context_features(mask(v.hand), mask(v.unseen), v.trump, v.me, v.players, v.leader, v.position,
                             -1 if v.win_seat is None else v.win_seat, won, caller, v.need, ctx)
            assert ctx.tolist() == twin.context(v)
            w = random_weights(len(v.hand))[0, v.role, twin.moment(v)]
            card_weights(w, ctx, folded)
            assert folded.tolist() == twin.card_weights(w, twin.context(v))
            opponents = twin.opponents(v)
            voids = 0
            for p in opponents:
                for s in v.voids[p]:
                    voids |= 1 << s
            for card in (v.legal if len(v.legal) > 1 else ()):  # a single legal card is played unscored
                card_features(card, mask(v.hand), mask(v.legal), mask(v.unseen), v.trump, v.position,
                              -1 if v.win_card is None else v.win_card, voids, v.low_rank, v.top_rank, feat)
                assert feat.tolist() == twin.card_features(v, card), (v, card)
                checked += 1
    assert checked > 500


def _prefix_in_another_order(weights):
    """A negative control: the same three terms added last to first (float addition is not associative)."""
    w = np.asarray(weights)
    out = np.empty(w.shape[:-1] + (6, 6, 7, N_CARD))
    for t, s, u in np.ndindex(6, 6, 7):
        terms = [w[..., N_CARD + np.arange(N_CARD) * N_CONTEXT + k] * x for k, x in enumerate((t / 5, s / 5, u / 6))]
        out[..., t, s, u, :] = w[..., :N_CARD] + (terms[2] + (terms[1] + terms[0]))
    return out


@pytest.mark.parametrize("weights_seed", [None, 3])
def test_the_prefix_folds_bit_for_bit_as_the_whole_sum(weights_seed):
    """folded_from_prefix == folded_weights, every bit, at every trump count the tables meet (and masters, tricks
    needed and sure tricks drawn at random for the tail); a prefix summed in another order does not (so the check
    sees the order)."""
    weights = WEIGHTS if weights_seed is None else random_weights(weights_seed)
    prefix = context_prefix(weights)
    tail = master_tail(weights)
    other = _prefix_in_another_order(weights)
    rng = np.random.default_rng(5)
    differs = 0
    for f, role, moment in np.ndindex(*weights.shape[:3]):
        w = weights[f, role, moment]
        for t, s, u in np.ndindex(6, 6, 7):
            rest = tuple(rng.integers(0, 7, N_CONTEXT - 4 - MASTER_TERMS) / 6)  # the moment's middle numbers
            m, n, sure = (int(x) for x in rng.integers(0, 6, 3))
            masters = (m / 5, sure / 5, float(m >= n), float(m > n), (m - n) / 5)
            ctx = (QUOTIENT[5, t], QUOTIENT[5, s], QUOTIENT[6, u], QUOTIENT[3, n]) + rest + masters
            want = folded_weights(w, ctx)
            assert folded_from_prefix(prefix[f, role, moment, t, s, u], tail[f, role, moment, m, n, sure], w,
                                      ctx) == want
            differs += folded_from_prefix(other[f, role, moment, t, s, u], tail[f, role, moment, m, n, sure], w,
                                          ctx) != want
    assert differs > 0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 7), caller=st.integers(-1, 2),
       name=st.sampled_from(sorted(RULES)))
def test_distilled_play_is_legal_and_deals_every_trick(seed, players, caller, name):
    """Any weights: the twin plays only legal cards (play_hand checks via legal_cards) and all tricks are won."""
    rules = RULES[name]
    hands, turned, leaders = deals(rules, players, 1, seed)
    won = twin_tricks(rules, hands[0], int(leaders[0]), int(turned[0]), None if caller < 0 else caller,
                      random_weights(seed % 1000))
    assert sum(won) == rules.hand_size


def test_the_gpus_division_is_the_cpus_table():
    """The GPU divides where the CPU reads QUOTIENT (engine/gpu.py, to keep its 64 KB of constants): the same
    float64 for every entry, compiled and plain. The control: float32 division differs somewhere."""
    compiled = njit(divided)
    for d in range(16):
        for k in range(16):
            assert compiled(k, d) == divided(k, d) == QUOTIENT[d, k], (k, d)
    assert any(float(np.float32(k) / np.float32(d)) != QUOTIENT[d, k] for d in range(1, 16) for k in range(16))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=2 * N_CARD, max_size=2 * N_CARD))
def test_a_cards_score_is_the_twins_sum_bit_for_bit(numbers):
    """dot_in_order (the score written out, engine/distilled.py) adds as the twin's loop: from 0.0, index by index;
    compiled, on any numbers. The control: the same terms added last to first differ somewhere."""
    a, b = tuple(numbers[:N_CARD]), tuple(numbers[N_CARD:])
    in_order = 0.0
    for ai, bi in zip(a, b, strict=True):
        in_order += ai * bi
    assert dot_in_order(a, b) == in_order


def test_the_order_of_a_cards_score_is_seen():
    """The control of the test above: an order other than the twin's gives other bits on some numbers."""
    rng = np.random.default_rng(5)
    differs = 0
    for _ in range(200):
        a, b = tuple(rng.normal(size=N_CARD)), tuple(rng.normal(size=N_CARD))
        backwards = 0.0
        for ai, bi in zip(reversed(a), reversed(b), strict=True):
            backwards += ai * bi
        differs += dot_in_order(a, b) != backwards
    assert differs > 0


def test_equivalent_cards_have_no_unseen_card_between_them():
    # swiss hearts: 6..A are ranks 6..14 of suit 2 (card id 32 + rank)
    h = lambda r: 32 + r  # noqa: E731
    assert equivalent(h(13), h(14), frozenset())  # K and A, nothing between
    assert equivalent(h(10), h(14), frozenset({h(6)}))  # T..A with only the 6 unseen: J Q K played or mine
    assert not equivalent(h(10), h(14), frozenset({h(12)}))  # the Q between is unseen
    assert not equivalent(h(14), 16 + 14, frozenset())  # other suits never


def test_the_fit_recovers_a_known_chooser_and_not_noise():
    """Choices made by a known weight vector are fitted back (agreement near 1); shuffled choices are not."""
    rng = np.random.default_rng(3)
    truth = rng.normal(size=12)
    xs = [rng.normal(size=(int(rng.integers(2, 6)), 12)) for _ in range(1500)]
    ys = []
    for x in xs:
        y = np.zeros(len(x))
        y[int(np.argmax(x @ truth))] = 1.0
        ys.append(y)
    w = fit_logit(xs[:1000], ys[:1000], ridge=1e-4)
    assert agreement(xs[1000:], ys[1000:], w) > 0.9
    noise = [rng.permutation(y) for y in ys]  # negative control: the labels no longer follow the features
    w_noise = fit_logit(xs[:1000], noise[:1000], ridge=1e-4)
    assert agreement(xs[1000:], noise[1000:], w_noise) < 0.5


def test_the_weights_module_round_trips_every_bit(tmp_path):
    """write_weights writes a module whose WEIGHTS equal the fitted array exactly (repr of float64 round-trips)."""
    import importlib.util

    from rumbaodds.distil.weights import write_weights

    weights = random_weights(5) * 1e-3
    path = write_weights(weights, "a test", tmp_path / "w.py")
    spec = importlib.util.spec_from_file_location("w", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert np.array_equal(module.WEIGHTS, weights)
    with pytest.raises(ValueError, match="shape"):
        write_weights(weights[0], "wrong shape", tmp_path / "bad.py")


def test_the_shipped_weights_name_the_recordings_they_were_fitted_to():
    """The provenance in engine/distilled_weights.py lists every configuration `python -m rumbaodds.distil` records."""
    from rumbaodds.distil.__main__ import BELIEVE_CALL, CONFIGS, config_name
    from rumbaodds.engine import distilled_weights

    for config in CONFIGS:
        assert config_name(*config, BELIEVE_CALL) in distilled_weights.__doc__
    # the control: the names of the recordings the other default would fit to are not there
    assert not any(config_name(*config, not BELIEVE_CALL) in distilled_weights.__doc__ for config in CONFIGS
                   if config[3])


def test_the_masters_of_the_moment_hand_worked():
    """Masters: cards with no unseen card of their suit above; sure: masters nobody can trump (swiss, hearts
    trump). HA, SA and SK (SA is his own) are masters, H9 (HT unseen) and D6 (D7 unseen) are not; while a heart
    is unseen only HA is sure; the Rumba still needs 3 tricks. Kernel and twin both."""
    from rumbaodds.cards import parse_card

    hand = frozenset(parse_card(c) for c in ("HA", "H9", "SA", "SK", "D6"))
    unseen = frozenset(c for c in SWISS.deck if c not in hand and c != parse_card("HQ"))
    v = twin.View(hand=hand, legal=hand, unseen=unseen, trump=2, me=0, players=5, leader=0, position=0,
                  win_card=None, win_seat=None, won=(0,) * 5, voids=(frozenset(),) * 5, caller=0, need=3,
                  low_rank=6, top_rank=14)
    tail = twin.CONTEXT_NAMES.index("masters held")
    assert twin.context(v)[tail:] == [3 / 5, 1 / 5, 1.0, 0.0, 0.0]
    no_trumps_out = frozenset(c for c in unseen if c >> 4 != 2)
    assert twin.context(replace(v, unseen=no_trumps_out))[tail:] == [4 / 5, 4 / 5, 1.0, 1.0, 1 / 5]  # H9 too
    one_trick_won = replace(v, won=(2, 0, 0, 0, 0))  # needs 1 more: masters beyond what he needs
    assert twin.context(one_trick_won)[tail:] == [3 / 5, 1 / 5, 1.0, 1.0, 2 / 5]
    normal = replace(v, caller=None)  # a normal player needs 1 trick until he has one
    assert twin.context(normal)[tail:] == [3 / 5, 1 / 5, 1.0, 1.0, 2 / 5]
    ctx = np.empty(N_CONTEXT)
    for view in (v, replace(v, unseen=no_trumps_out), one_trick_won, normal):
        context_features(mask(view.hand), mask(view.unseen), view.trump, 0, 5, 0, 0, -1,
                         np.array(view.won, dtype=np.int64), -1 if view.caller is None else 0, 3, ctx)
        assert ctx.tolist() == twin.context(view)
