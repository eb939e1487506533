"""Recording PIMC for the distillation (distil/record.py) and the fit's options (distil/fit.py), issue 17.

A record carries PIMC's summed utility of every legal card, so the fit can
weigh how much a choice matters; rollouts can be played by a distilled fit
while PIMC still labels every decision (DAgger).
"""

from __future__ import annotations

import numpy as np
import pytest

from rumbaodds.distil.fit import card_values, decision_weights, design, fit_logit, view_of
from rumbaodds.distil.record import play_deals, record_deals
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled import N_FEATURES, TREES
from rumbaodds.engine.tricks import strength
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import distilled as twin


def _pimc_choice_is_best(record) -> bool:
    """PIMC's card has the best summed utility, and no weaker card (§6 order) has as much: its tie rule."""
    legal = sorted(c for c in range(64) if (record["legal"] >> c) & 1)
    values = card_values(record)
    best = values.max()
    card = record["card"]
    if values[legal.index(card)] != best:
        return False
    return all(values[i] < best or strength(c, record["trump"]) >= strength(card, record["trump"])
               for i, c in enumerate(legal))


@pytest.mark.parametrize("rules,players,rumba", [(SWISS, 4, True), (FLEMISH, 3, False)])
def test_a_pimc_rollout_plays_the_card_it_records_the_best_sum(rules, players, rumba):
    records = record_deals(rules, players, 6, 5, rumba, worlds=6)
    assert records
    for r in records:
        assert r["played"] == r["card"]
        assert len(r["sums"]) == bin(r["legal"]).count("1") and 0 < r["used"] <= 6
        assert _pimc_choice_is_best(r)


def test_a_distilled_rollout_plays_its_own_card_and_pimc_still_labels_it():
    """Seats by a distilled fit play the twin's card in the recorded state; the label stays PIMC's best sum.

    Negative control: with random weights the fit often disagrees with PIMC, so played != card somewhere."""
    weights = np.random.default_rng(8).normal(size=(2, 3, 2, N_FEATURES))
    seats = [pimc.SEAT_DISTILLED] * 4
    records = record_deals(SWISS, 4, 8, 9, True, worlds=6, seats=seats, weights=weights)
    differ = 0
    for r in records:
        v = view_of(r, SWISS)
        trees = (TREES[0][SWISS.follow_code], *TREES[1:])
        assert r["played"] == twin.distilled_card(v, weights[SWISS.follow_code], trees)
        assert _pimc_choice_is_best(r)
        differ += r["played"] != r["card"]
    assert differ > 0


def test_values_are_the_choosers_and_decision_weights_hand_worked():
    caller = {"caller": 0, "me": 0, "sums": [-20, 12, 4], "used": 4}
    defender = dict(caller, me=2)
    normal = {"caller": -1, "me": 3, "sums": [5, -5], "used": 5}
    assert card_values(caller).tolist() == [-5.0, 3.0, 1.0]
    assert card_values(defender).tolist() == [5.0, -3.0, -1.0]  # he minimises the caller's utility
    assert card_values(normal).tolist() == [1.0, -1.0]
    assert card_values({"caller": -1, "me": 0, "card": 3}) is None  # an old record without values
    vs = [card_values(caller), card_values(normal)]
    assert decision_weights(vs, "spread").tolist() == [8.0, 2.0]
    assert decision_weights(vs, "regret").tolist() == [3.0 - (-5.0 + 1.0) / 2, 2.0]
    assert decision_weights(vs, "none") is None
    with pytest.raises(ValueError, match="record again"):
        decision_weights(vs + [None], "spread")


def test_tied_labels_count_every_card_as_good_as_pimcs():
    records = record_deals(SWISS, 3, 4, 2, True, worlds=4)
    equivalent = design(records, SWISS, "equivalent")
    tied = design(records, SWISS, "tied")
    more = 0
    for key in equivalent:
        for y_eq, y_tie, values in zip(equivalent[key][1], tied[key][1], tied[key][2], strict=True):
            assert set(np.flatnonzero(y_tie)) == set(np.flatnonzero(values == values.max()))
            assert np.all(y_tie >= y_eq)  # PIMC's card and its equivalents are tied with it
            more += int(y_tie.sum() > y_eq.sum())
    assert more > 0  # some tie is not an equivalence: the two labels differ


def test_a_decision_of_weight_zero_counts_as_dropped_and_weight_two_as_twice():
    rng = np.random.default_rng(4)
    truth = rng.normal(size=6)
    xs = [rng.normal(size=(int(rng.integers(2, 5)), 6)) for _ in range(300)]
    ys = [np.eye(len(x))[int(np.argmax(x @ truth + rng.normal(size=len(x))))] for x in xs]
    dropped = fit_logit(xs[:250], ys[:250])
    zero = fit_logit(xs, ys, weight=np.r_[np.ones(250), np.zeros(50)])
    assert np.allclose(zero, dropped, atol=1e-6)
    twice = fit_logit(xs + xs[:50], ys + ys[:50])
    doubled = fit_logit(xs, ys, weight=np.r_[2 * np.ones(50), np.ones(250)])
    assert np.allclose(doubled, twice, atol=1e-6)
    assert not np.allclose(doubled, fit_logit(xs, ys), atol=1e-3)  # the weights do move the fit
    with pytest.raises(ValueError, match="weighs 0"):
        fit_logit(xs, ys, weight=np.zeros(300))


def test_play_deals_puts_search_only_where_asked():
    """All distilled: the tricks of pimc.play_batch, and no PIMC decision. PIMC at the caller's second lead only:
    a record at exactly those decisions, each played as PIMC's best sum."""
    from rumbaodds.engine.distilled import WEIGHTS
    from rumbaodds.engine.rng import deal_batch

    hands, trump_cards, _ = deal_batch(SWISS.deck_array(), 4, SWISS.hand_size, 3, 0, 30)
    deals = (hands, np.zeros(30, dtype=np.int64), (trump_cards >> 4).astype(np.int64), trump_cards.astype(np.int64))
    records, tricks = play_deals(SWISS, deals, 1, 0, lambda p, trick, pos: pimc.SEAT_DISTILLED, WEIGHTS,
                                 label_all=False)
    util_caller, util_normal = pimc.utility_tables(SWISS)
    want, _ = pimc.play_batch(hands, deals[1], deals[2], deals[3], SWISS.follow_code, np.uint64(SWISS.deck_mask), 0,
                              np.full(4, pimc.SEAT_DISTILLED), util_caller, util_normal, SWISS.rumba_min_tricks,
                              WEIGHTS, 8, 1, np.arange(30, dtype=np.int64))
    assert records == [] and np.array_equal(tricks, want)
    second_lead = lambda p, trick, pos: pimc.SEAT_PIMC if (p, trick, pos) == (0, 1, 0) else pimc.SEAT_DISTILLED  # noqa: E731
    records, tricks = play_deals(SWISS, deals, 1, 0, second_lead, WEIGHTS, worlds=6, label_all=False)
    assert records and all((r["me"], r["trick"], r["pos"]) == (0, 1, 0) for r in records)
    assert all(r["played"] == r["card"] and _pimc_choice_is_best(r) for r in records)
    assert tricks.sum(axis=1).tolist() == [SWISS.hand_size] * 30


@pytest.mark.parametrize("rules", [SWISS, FLEMISH])
def test_the_recorded_defenders_believe_what_the_deals_are(rules):
    """points_belief scores a hand as its keep-value points (engine/keep.py hand_points), and the worlds it keeps
    give the caller at least the least points rumba_deals kept; the control, worlds that ignore the call, give
    him fewer most of the time. So the recorded defenders' labels assume the caller's hand the deals give him."""
    import random

    from rumbaodds.distil.record import points_belief, rumba_deals
    from rumbaodds.engine.keep import hand_points
    from rumbaodds.engine.policy import hand_score

    hands, trumps, _turned, least = rumba_deals(rules, 4, 50, 3)
    top = max(c & 15 for c in rules.deck)
    assert all(hand_points(h, t, top) >= least for h, t in zip(hands[:, 0], trumps, strict=True))
    probs, values, _top = points_belief(rules, least)
    rng = random.Random(5)
    for _ in range(300):
        hand = np.uint64(sum(1 << c for c in rng.sample(list(rules.deck), rules.hand_size)))
        trump = rng.randrange(4)
        assert hand_score(hand, trump, top, values) == hand_points(hand, trump, top)
    own = int(hands[0, 2])  # a defender's hand: the caller's cards are unseen to him
    unseen = np.uint64(rules.deck_mask & ~own)
    counts = np.array([rules.hand_size] * 4, dtype=np.int64)
    forbidden = np.zeros(4, dtype=np.uint64)
    world = np.zeros(4, dtype=np.uint64)
    scratch = np.zeros(64, dtype=np.int64)
    trump = int(trumps[0])
    strong = {True: 0, False: 0}
    for believe in (True, False):
        state = np.uint64(99)
        for _ in range(400):
            if believe:
                state, ok = pimc.believed_world(unseen, counts, forbidden, 2, np.uint64(state), scratch, world,
                                                (probs, values, top), 0, np.uint64(0), trump)
            else:
                state, ok = pimc.sample_world(unseen, counts, forbidden, 2, np.uint64(state), scratch, world)
            assert ok
            strong[believe] += hand_points(world[0], trump, top) >= least
    assert strong[True] >= 396  # (a world after 64 refusals is kept as it is: rare)
    assert strong[False] < 200


def test_believing_defenders_are_asked_for_and_change_only_the_defenders_labels():
    """record_deals(believe=True) plays the same deals; the caller's first lead (before any defender's world is
    drawn) is recorded alike, and some defender's label or rollout differs: the belief reaches the search. The
    default (no belief) is what the shipped weights were fitted to."""
    plain = record_deals(SWISS, 4, 12, 5, True, worlds=8)
    believed = record_deals(SWISS, 4, 12, 5, True, worlds=8, believe=True)
    assert plain[0] == believed[0] and plain[0]["me"] == plain[0]["caller"] == 0
    assert plain != believed
    assert record_deals(SWISS, 4, 12, 5, True, worlds=8) == plain
