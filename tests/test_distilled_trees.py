"""The trees of the ``distilled`` play (some of the Rumba caller's leads, issue 17): kernel == twin, read only at
their slot, a hand-worked ensemble, the fit (a known chooser recovered, noise not; a start corrected) and the
generated module."""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import numpy as np
import pytest
from distilled_views import mask, views_of_a_hand

from rumbaodds.cards import cards_of
from rumbaodds.distil.trees import agreement, fit_trees, is_tree_decision
from rumbaodds.distil.weights import write_trees
from rumbaodds.engine import distilled as kernel
from rumbaodds.engine.rng import deal_batch
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import distilled as twin
from rumbaodds.twins.common import strength

INNER, LEAVES = 15, 16


def random_trees(seed: int, count: int = 12):
    """An ensemble on every number (card and moment), thresholds inside their ranges, some nodes without a split."""
    rng = np.random.default_rng(seed)
    feature = rng.integers(0, 32, (count, INNER)).astype(np.int8)
    feature[rng.random((count, INNER)) < 0.15] = -1
    threshold = (rng.random((count, INNER)) * 0.9).astype(np.float32)
    leaf = rng.normal(size=(count, LEAVES)).astype(np.float32)
    return count, feature, threshold, leaf


def placed(ensemble, players: int = 3, trick: int = 1):
    """The trees of one follow rule with ``ensemble`` at the caller's lead to ``trick`` at ``players`` players."""
    count, feature, threshold, leaf = ensemble
    slot = np.full((8, 5), -1, dtype=np.int64)
    slot[players, trick] = 0
    return slot, np.array([0, count]), feature, threshold, leaf


NO_TREES = (np.full((8, 5), -1, dtype=np.int64),) + placed(random_trees(1))[1:]


def caller_second_leads(rules, players: int, count: int, seed: int):
    """Views where the Rumba caller (seat 0) leads to the second trick: he plays his strongest card, the others
    their lowest."""
    hands, turned_cards, _ = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, count)
    out = []
    for row, turned in zip(hands, turned_cards.astype(int), strict=True):
        def choose(v, trump=turned >> 4):
            return max(v.legal, key=lambda c: strength(c, trump)) if v.me == 0 else min(v.legal)  # he wins often

        out.extend(v for v in views_of_a_hand(rules, row, 0, turned, 0, choose, tricks=2)
                   if sum(v.won) == 1 and v.me == 0 and v.position == 0 and len(v.legal) > 1)
    return out


def kernel_card(v, weights, trees) -> int:
    won_bits = sum(w << (4 * p) for p, w in enumerate(v.won))
    void_bits = sum(1 << (4 * p + s) for p in range(v.players) for s in v.voids[p])
    return int(kernel.distilled_card(mask(v.hand), mask(v.legal), mask(v.unseen), v.trump, v.me, v.players,
                                     v.leader, v.position, -1 if v.win_card is None else v.win_card,
                                     -1 if v.win_seat is None else v.win_seat, won_bits, void_bits,
                                     -1 if v.caller is None else v.caller, v.need, v.low_rank, v.top_rank, weights,
                                     trees))


@pytest.mark.parametrize("rules,players", [(SWISS, 3), (FLEMISH, 3), (SWISS, 5), (FLEMISH, 4)])
def test_the_kernel_plays_the_twins_card_with_any_trees(rules, players):
    """Random trees on all 32 numbers, placed at the caller's second lead at three players: the kernel's card
    there is the twin's. At three players the trees change it (negative control: without trees the card differs
    somewhere); at other player counts they are not read."""
    views = caller_second_leads(rules, players, 400, 17 + players)
    assert len(views) > 40
    weights = kernel.WEIGHTS[rules.follow_code]
    used = players == 3
    differ = 0
    for seed in range(3):
        trees = placed(random_trees(seed))
        for v in views:
            assert (twin.tree_of(v, trees) == 0) == used
            card = kernel_card(v, weights, trees)
            assert card == twin.distilled_card(v, weights, trees), v
            differ += card != twin.distilled_card(v, weights, NO_TREES)
    assert (differ > 0) == used


def test_trees_are_read_only_at_the_callers_lead_of_their_slot():
    """tree_of: the caller's lead to the slot's trick at the slot's player count; not another lead, a defender,
    a follow, another player count."""
    trees = placed(random_trees(2))
    v = caller_second_leads(SWISS, 3, 60, 3)[0]
    assert twin.tree_of(v, trees) == 0
    assert twin.tree_of(v, NO_TREES) == -1
    assert twin.tree_of(v, None) == -1
    assert twin.tree_of(replace(v, won=(0,) * v.players), trees) == -1
    assert twin.tree_of(replace(v, won=(1, 1) + (0,) * (v.players - 2)), trees) == -1
    assert twin.tree_of(replace(v, caller=1), trees) == -1
    assert twin.tree_of(replace(v, caller=None), trees) == -1
    assert twin.tree_of(replace(v, position=1), trees) == -1
    assert twin.tree_of(replace(v, players=4, won=v.won + (0,)), trees) == -1
    assert twin.tree_of(replace(v, won=(0,) * v.players), placed(random_trees(2), 3, 0)) == 0


def test_a_tree_scores_as_worked_by_hand():
    """One tree, depth 4: root splits number 0 (trump) at 0.5, its right child (node 2) number 16 (trumps held /
    5) at 0.3, node 6 nobody (all left to node 13), node 13 number 1 (master) at 0.5. A trump master with 2 trumps
    held goes right, right, left, right: node 28, leaf 13. The same card with 1 trump goes right, left to node 5,
    whose subtree is unsplit: left, left to node 23, leaf 8."""
    feature = np.full((1, INNER), -1, dtype=np.int8)
    threshold = np.zeros((1, INNER), dtype=np.float32)
    feature[0, 0], threshold[0, 0] = 0, 0.5
    feature[0, 2], threshold[0, 2] = 16, 0.3
    feature[0, 13], threshold[0, 13] = 1, 0.5
    leaf = np.arange(LEAVES, dtype=np.float32)[None, :] * 10
    trees = (1, feature, threshold, leaf)
    two = (2, np.repeat(feature, 2, 0), np.repeat(threshold, 2, 0), np.repeat(leaf, 2, 0))
    master = [0.0] * 32
    master[0], master[1], master[16] = 1.0, 1.0, 0.4
    one_trump = list(master)
    one_trump[16] = 0.2  # node 2 -> left: node 5, 11, 23: leaf 8
    side = list(one_trump)
    side[0] = 0.0  # all left: leaf 0
    for row, want in ((master, 130.0), (one_trump, 80.0), (side, 0.0), ([1.0] * 32, 130.0)):
        assert twin.tree_score(trees, row) == want
        assert twin.tree_score(two, row) == 2 * want
        assert kernel.tree_score(placed(trees), 0, np.array(row)) == want
        assert kernel.tree_score(placed(two), 0, np.array(row)) == 2 * want
        # pooled after five other trees (ensemble 1: trees 5 and 6): read from its own start, to its own end
        other = random_trees(9, 5)
        pool = (placed(other)[0], np.array([0, 5, 7]), np.concatenate([other[1], two[1]]),
                np.concatenate([other[2], two[2]]), np.concatenate([other[3], two[3]]))
        assert kernel.tree_score(pool, 1, np.array(row)) == twin.tree_score(twin.ensemble_of(pool, 1), row) == 2 * want
        assert kernel.tree_score(pool, 0, np.array(row)) == twin.tree_score(other, row)


def test_the_fit_recovers_a_known_chooser_and_not_noise():
    """In each decision exactly one card is chosen: the one whose number 0 is above 0.5 exactly when the moment's
    number 20 is not (an exclusive or). Trees fitted on half the decisions choose right on the other half nearly
    always; with the labels shuffled across cards (negative control) near chance."""
    rng = np.random.default_rng(4)
    xs, ys, groups = [], [], []
    for d in range(2000):
        k = int(rng.integers(2, 5))
        ctx = rng.random(16)
        chosen = int(rng.integers(k))
        for i in range(k):
            row = np.concatenate([rng.random(16), ctx])
            high = (i == chosen) != (ctx[4] > 0.5)  # number 0 above 0.5 for the chosen card iff number 20 <= 0.5
            row[0] = 0.5 + rng.random() / 2 if high else rng.random() / 2
            xs.append(row)
            ys.append(float(i == chosen))
            groups.append(d)
    x, y, groups = np.array(xs), np.array(ys), np.array(groups)
    half = groups < 1000
    trees = fit_trees(x[half], y[half], groups[half])
    assert agreement(*trees, x[~half], y[~half], groups[~half]) > 0.9
    shuffled = y.copy()
    for d in range(2000):
        rows = np.flatnonzero(groups == d)
        shuffled[rows] = rng.permutation(y[rows])
    noise = fit_trees(x[half], shuffled[half], groups[half])
    assert agreement(*noise, x[~half], shuffled[~half], groups[~half]) < 0.5


def test_the_trees_correct_the_start_they_are_given():
    """The chosen card maximises a known linear score plus a bonus the score lacks (card number 0 above 0.5 while
    the moment's number 20 is). Trees fitted from that linear score (``start``) choose right nearly always with
    it; the linear score alone (no trees) does clearly worse."""
    rng = np.random.default_rng(9)
    xs, ys, groups, start = [], [], [], []
    for d in range(2000):
        k = int(rng.integers(2, 5))
        ctx = rng.random(16)
        rows = np.array([np.concatenate([rng.random(16), ctx]) for _ in range(k)])
        linear = 2 * rows[:, 3]
        bonus = 3.0 * ((rows[:, 0] > 0.5) & (ctx[4] > 0.5))
        chosen = int(np.argmax(linear + bonus))
        xs.extend(rows)
        ys.extend((np.arange(k) == chosen).astype(float))
        groups.extend([d] * k)
        start.extend(linear)
    x, y, groups, start = np.array(xs), np.array(ys), np.array(groups), np.array(start)
    half = groups < 1000
    trees = fit_trees(x[half], y[half], groups[half], start[half])
    test = ~half
    with_start = agreement(*trees, x[test], y[test], groups[test], start[test])
    assert with_start > 0.88
    assert agreement(trees[0], trees[1], np.zeros_like(trees[2]), x[test], y[test], groups[test],
                     start[test]) < with_start - 0.05


def test_the_fits_start_is_the_plays_linear_score():
    """tree_rows' start (the score the trees correct) picks the twin's card where there are no trees: the fit
    starts from the play's own weights, not another score."""
    from rumbaodds.distil.trees import linear_score

    w = kernel.WEIGHTS[SWISS.follow_code]
    for v in caller_second_leads(SWISS, 3, 100, 8):
        legal = sorted(v.legal, key=lambda c: strength(c, v.trump))  # weakest first, as the play's ties
        scores = [linear_score(w[twin.ROLE_CALLER][twin.LEAD], twin.card_features(v, c) + twin.context(v))
                  for c in legal]
        assert legal[int(np.argmax(scores))] == twin.distilled_card(v, w, None)


def test_the_trees_module_round_trips_every_bit(tmp_path):
    """write_trees writes a module whose arrays equal the fitted ones exactly."""
    slot, start, feature, threshold, leaf = placed(random_trees(6))
    slots = np.stack([slot, np.full_like(slot, -1)])
    path = write_trees(slots, start, feature, threshold, leaf, "a test", tmp_path / "t.py")
    spec = importlib.util.spec_from_file_location("t", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for got, want in zip(module.TREES, (slots, start, feature, threshold, leaf), strict=True):
        assert np.array_equal(got, want) and got.dtype == np.asarray(want).dtype
    with pytest.raises(ValueError, match="slots"):
        write_trees(slot, start, feature, threshold, leaf, "one rule", tmp_path / "bad.py")
    with pytest.raises(ValueError, match="start"):
        write_trees(slots + 1, start, feature, threshold, leaf, "slot 1 of one ensemble", tmp_path / "bad.py")
    with pytest.raises(ValueError, match="start"):
        write_trees(slots, start + 1, feature, threshold, leaf, "more trees than there are", tmp_path / "bad.py")


def test_the_shipped_weights_and_trees_fit_a_gpus_constant_memory():
    """The GPU engine holds the weights and the trees among its 64 KB of constants (engine/gpu.py); the trees are
    pooled without padding so that they fit (padded to the largest ensemble, numbers version 5's would not)."""
    shipped = kernel.WEIGHTS.nbytes + sum(a.nbytes for a in kernel.TREES)
    assert shipped <= 60 * 1024
    padded = len(kernel.TREES[1]) - 1, int(np.diff(kernel.TREES[1]).max())  # ensembles, trees of the largest
    assert kernel.WEIGHTS.nbytes + padded[0] * padded[1] * (INNER * 5 + LEAVES * 4) > 64 * 1024  # control


def test_the_shipped_trees_sit_where_search_gained_and_name_their_recordings():
    """Swiss: the second lead at 3 players and the first three at 7 (issue 17); flemish none. The provenance lists
    every configuration `python -m rumbaodds.distil` records, and each ensemble's Rumbas are among them."""
    from rumbaodds.distil.__main__ import BELIEVE_CALL, CONFIGS, TREE_CONFIGS, TREE_SPECS, config_name
    from rumbaodds.engine import distilled_trees

    slot = kernel.TREES[0]
    placed_at = {(int(f), int(p), int(t)) for f, p, t in zip(*np.nonzero(slot >= 0), strict=True)}
    assert placed_at == {(SWISS.follow_code, 3, 1), (SWISS.follow_code, 7, 0), (SWISS.follow_code, 7, 1),
                         (SWISS.follow_code, 7, 2)}
    assert {(r.follow_code, p, t) for r, p, t, _, _ in TREE_SPECS} == placed_at
    for config in CONFIGS + TREE_CONFIGS:
        assert config_name(*config, BELIEVE_CALL) in distilled_trees.__doc__
    assert all(spec[4] in CONFIGS + TREE_CONFIGS for spec in TREE_SPECS)


def test_the_tree_decisions_of_a_recording_are_the_twins():
    """is_tree_decision (which rows the fit sees) agrees with the twin's tree_of on recorded-like decisions."""
    trees = placed(random_trees(3))
    for v in caller_second_leads(SWISS, 3, 80, 5):
        record = {"caller": v.caller, "me": v.me, "pos": v.position, "won": list(v.won),
                  "legal": int(mask(v.legal))}
        assert is_tree_decision(record, 3, 1) == (twin.tree_of(v, trees) == 0)
        assert not is_tree_decision(record, 3, 0) and not is_tree_decision(record, 4, 1)
        record["me"] = 1
        assert not is_tree_decision(record, 3, 1)


def test_play_batch_takes_other_trees_for_research():
    """``pimc.play_batch(..., trees)`` (bench_cardplay --held-out): ``None`` plays the shipped trees, the shipped
    ``TREES`` passed in play the same tricks; with every slot emptied some 3-player Rumbas are played otherwise,
    and in the twin so are they, deal by deal."""
    from rumbaodds.engine import pimc

    hands, turned_cards, _ = deal_batch(SWISS.deck_array(), 3, SWISS.hand_size, 5, 0, 300)
    turned = turned_cards.astype(np.int64)
    trumps = turned >> 4
    leaders = np.zeros(len(hands), dtype=np.int64)
    seats = np.full(3, pimc.SEAT_DISTILLED, dtype=np.int64)
    util_caller, util_normal = pimc.utility_tables(SWISS)
    args = (leaders, trumps, turned, SWISS.follow_code, np.uint64(SWISS.deck_mask), 0, seats, util_caller,
            util_normal, SWISS.rumba_min_tricks, kernel.WEIGHTS, 8, 1, np.arange(len(hands), dtype=np.int64))
    shipped = pimc.play_batch(hands, *args)[0]
    assert np.array_equal(pimc.play_batch(hands, *args, kernel.TREES)[0], shipped)
    empty = (np.full_like(kernel.TREES[0], -1),) + tuple(kernel.TREES[1:])
    without = pimc.play_batch(hands, *args, empty)[0]
    differ = np.flatnonzero((without != shipped).any(axis=1))
    assert len(differ) > 0
    for i in differ[:3]:
        for trees, tricks in ((None, without[i]), (kernel.TREES, shipped[i])):
            got = twin.play_hand([cards_of(int(m)) for m in hands[i]], 0, int(trumps[i]), SWISS.follow_code, 0,
                                 SWISS.rumba_min_tricks, SWISS.deck, kernel.WEIGHTS, turned=int(turned[i]),
                                 trees=trees)
            assert list(got) == list(tricks), (i, trees is None)
