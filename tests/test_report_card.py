"""The rule card's bound on its worst grid box (issue 36, rumbaodds.report.card): on a grid built here, where the
plain greedy fit gives a small box away, the bounded fit keeps every box of at least WORST_SHARE of the hands within
WORST_LOSS points per hand, and says which box is its worst."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rumbaodds.report import card as rulecard
from rumbaodds.report import shapes
from rumbaodds.report.cells import ACTIONS, Cells, hand_features
from rumbaodds.rules import get_rules
from rumbaodds.tables.handclasses import resolve_trump_suit

SWISS = get_rules("swiss")
PLAYERS = 3
SEAT_GROUPS = [(0,), (1,), (2,)]


def built_cells(hands: int = 6000, seed: int = 3) -> Cells:
    """Random swiss hands at 3 players, each of weight 1, the table's values made up by rule: pass is best with no
    trump (play loses 0.4), Rumba with three low trumps (row ``xxx``: play loses 2.0, a few percent of the hands, in
    boxes of a few tenths of a percent), play elsewhere (the others lose 1.0)."""
    rng = np.random.default_rng(seed)
    t = resolve_trump_suit(SWISS, None)
    deck = np.array(SWISS.deck)
    masks, ranks = [], []
    for _ in range(hands):
        cards = rng.choice(deck, SWISS.hand_size + 1, replace=False)
        while cards[-1] // 16 != t:  # the turned card is of the trump suit
            cards = rng.choice(deck, SWISS.hand_size + 1, replace=False)
        m = 0
        for c in cards[:-1]:
            m |= 1 << int(c)
        masks.append(m)
        ranks.append(int(cards[-1]) % 16)
    hands_u = np.array(masks, dtype=np.uint64)
    f = hand_features(hands_u, np.array(ranks), SWISS)
    f.update(hand=hands_u, trump_rank=np.array(ranks, dtype=np.int64))
    rows = shapes.trump_rows(SWISS)
    sit, play, rumba = (ACTIONS.index(a) for a in ("pass", "play", "rumba"))
    loss = np.ones((hands, 3))
    best = np.full(hands, play)
    none = f["n_trumps"] == 0
    box = f["row"] == rows.index("xxx")
    best[none], best[box] = sit, rumba
    loss[np.arange(hands), best] = 0.0
    loss[none, play] = 0.4
    loss[box, play] = 2.0
    runner = np.where(best == play, sit, play)
    n = np.arange(hands)
    return Cells(SWISS, PLAYERS, None, Path("built"), {}, best.astype(np.int8), runner.astype(np.int8),
                 np.zeros(hands, np.int8), loss[n, runner], np.full(hands, 0.01), np.full(hands, np.nan),
                 np.full(hands, 1000), loss, np.ones((hands, 3), bool), np.full((hands, 3), 0.01),
                 np.zeros(hands, bool), seats=n % PLAYERS, weights=np.ones(hands), features=f)


@pytest.fixture(scope="module")
def fitted():
    fc = built_cells()
    plain = rulecard.fit_card(fc, max_lines=2, bounded=False, seat_groups=SEAT_GROUPS)
    bounded = rulecard.fit_card(fc, max_lines=2, line_limit=4, seat_groups=SEAT_GROUPS)
    return fc, plain, bounded


def box_loss(fc: Cells, card: rulecard.RuleCard, seats, row: str, col: str) -> tuple[float, float]:
    """(points per hand following ``card`` loses in that box, the box's share of every hand), straight from the
    cells."""
    f = rulecard.atom_features({**{k: fc.feature(k) for k in ("n_trumps", "top_trump", "side_aces", "voids", "points",
                                                              "trump_rank", "row", "col")}, "seat": fc.seat})
    choice = card.choice(f)
    inside = (np.isin(fc.seat, seats) & (fc.feature("row") == list(fc.rows).index(row))
              & (fc.feature("col") == list(fc.cols).index(col)))
    w = fc.weight
    return float((w * fc.loss[np.arange(len(fc)), choice])[inside].sum() / w[inside].sum()), \
        float(w[inside].sum() / w.sum())


def test_the_plain_fit_breaks_the_bound_on_the_built_grid(fitted):
    # negative control: two lines spent on the big groups ("Play with a trump. Otherwise pass.") leave the Rumba
    # boxes at 2.0 points per hand
    fc, plain, _ = fitted
    assert plain.texts(SWISS) in (["Play with a trump.", "Otherwise pass."], ["Pass with no trump.", "Otherwise play."])
    worst = plain.worst
    assert worst.box.row == "xxx" and worst.lost == pytest.approx(2.0)
    lost, share = box_loss(fc, plain, worst.box.seats, "xxx", worst.box.col)
    assert lost == pytest.approx(worst.lost) and share == pytest.approx(worst.share)
    assert worst.share >= rulecard.WORST_SHARE and worst.lost > rulecard.WORST_LOSS


def test_the_bounded_fit_keeps_every_box_within_the_bound(fitted):
    fc, plain, bounded = fitted
    assert len(plain.lines) < len(bounded.lines) <= 4  # the bound took an exception line
    assert bounded.worst.lost <= rulecard.WORST_LOSS and bounded.lost.mean <= rulecard.TARGET_LOSS
    # every box of at least WORST_SHARE of the hands, counted from the cells, is within the bound
    for seats in SEAT_GROUPS:
        for row in fc.rows:
            for col in fc.cols:
                inside = np.isin(fc.seat, seats) & (fc.feature("row") == list(fc.rows).index(row)) & \
                    (fc.feature("col") == list(fc.cols).index(col))
                if fc.weight[inside].sum() / fc.weight.sum() >= rulecard.WORST_SHARE:
                    assert box_loss(fc, bounded, seats, row, col)[0] <= rulecard.WORST_LOSS + 1e-9, (seats, row, col)
    # and the worst box it states is the worst one, as the cells say
    w = bounded.worst
    assert box_loss(fc, bounded, w.box.seats, w.box.row, w.box.col)[0] == pytest.approx(w.lost)
    assert any("Call Rumba" in text for text in bounded.texts(SWISS))


def test_the_words_a_box_needs():
    """The words the bound needed on the shipped tables: two void side suits, the trump A turned up."""
    assert rulecard.Atom("voids", ">=", 2).text(12) == "two void side suits"
    assert rulecard.Atom("voids", "<=", 1).text(12) == "at most one void side suit"
    assert rulecard.Atom("turned", ">=", 12).text(12) == "the trump A turned up"
    assert rulecard.Atom("turned", "<=", 11).text(12) == "not the trump A turned up"
    f = {"turned": np.array([12, 8]), "voids": np.array([2, 1])}
    assert rulecard.Atom("turned", ">=", 12).holds(f).tolist() == [True, False]
    assert rulecard.Atom("voids", ">=", 2).holds(f).tolist() == [True, False]


def test_a_box_exception_line_names_the_box_as_the_grids_do():
    """The exception lines' own words: a grid box by its row and column (and split by the voids), read off a real
    hand as the grids place it (card_features gives the hand's row and column)."""
    from rumbaodds.report import shapes
    from rumbaodds.rules import SWISS

    rows, cols = shapes.trump_rows(SWISS), shapes.side_columns(SWISS)
    line = rulecard.CardLine("rumba", rulecard.Condition("dealer", (
        rulecard.Atom("row", "==", rows.index("Ax")), rulecard.Atom("col", "==", cols.index("K")),
        rulecard.Atom("voids", ">=", 1))))
    assert line.text(SWISS) == "Dealer: call Rumba with trumps Ax and side K and a void side suit."
    assert rulecard.Atom("row", "==", rows.index("none")).text(12, SWISS) == "no trump"
    assert rulecard.Atom("col", "==", cols.index("none")).text(12, SWISS) == "no side ace or king"
    from rumbaodds.cards import parse_hand

    hands = [parse_hand("CK CQ CJ ST SA"), parse_hand("CK D9 H7 ST SA"), parse_hand("CK CQ CJ ST SK")]
    f = rulecard.card_features(hands, [parse_hand("S8")[0]] * 3, [2, 2, 2], SWISS)
    assert line.condition.holds(f, 3).tolist() == [True, False, False]  # no void; not Ax


# -- the line sums: kernels against their plain twins (report/line_sums.py, twins/card_lines.py) ------------------
@pytest.mark.parametrize("seed", range(6))
def test_the_line_sum_kernels_equal_their_twins(seed):
    from rumbaodds.report import line_sums
    from rumbaodds.twins import card_lines

    rng = np.random.default_rng(seed)
    candidates, groups, boxes = int(rng.integers(1, 40)), int(rng.integers(1, 60)), int(rng.integers(1, 8))
    masks = rng.random((candidates, groups)) < rng.uniform(0.0, 0.6)
    values = rng.normal(size=(groups, 3))
    lists = line_sums.member_lists(masks)
    assert np.allclose(line_sums.masked_sums(*lists, values), card_lines.masked_sums(masks, values), atol=1e-12)
    # the first k candidates' lists are those of masks[:k]
    k = int(rng.integers(0, candidates + 1))
    assert np.allclose(line_sums.masked_sums(*line_sums.first_lists(lists, k), values),
                       card_lines.masked_sums(masks[:k], values), atol=1e-12)
    box_of = rng.integers(0, boxes, groups)
    delta, sums = rng.normal(size=groups), rng.normal(size=boxes)
    bound, keep = rng.uniform(-1, 1, boxes), rng.random(boxes) < 0.7
    got = line_sums.box_move_totals(*lists, delta, box_of, sums, bound, keep, 100.0)
    want = card_lines.box_move_totals(masks, delta, box_of, sums, bound, keep, 100.0)
    assert np.allclose(got, want, atol=1e-9)


def test_a_box_over_its_bound_weighs_in_the_line_sums_only_where_kept():
    """Hand-worked: one candidate over groups 0 and 1 (box 0), group 2 in box 1. Box 0 at 1.0 with bound 0.5 and
    the candidate moving it by -0.5 - 0.3: the loss changes by -0.8 (group 2's +0.3 is not the candidate's), and the
    excess by 0 - 0.5, so weight * -0.5 when box 0 is kept and nothing when it is not."""
    from rumbaodds.report import line_sums

    masks = np.array([[True, True, False]])
    delta = np.array([-0.5, -0.3, 0.3])
    box_of = np.array([0, 0, 1])
    sums, bound = np.array([1.0, 0.0]), np.array([0.5, 0.0])
    lists = line_sums.member_lists(masks)
    kept = line_sums.box_move_totals(*lists, delta, box_of, sums, bound, np.array([True, True]), 10.0)
    assert kept[0] == pytest.approx(-0.8 + 10.0 * -0.5)
    not_kept = line_sums.box_move_totals(*lists, delta, box_of, sums, bound, np.array([False, True]), 10.0)
    assert not_kept[0] == pytest.approx(-0.8)
