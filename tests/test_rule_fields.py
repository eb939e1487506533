"""The rule-set fields that decide what the seeds leave open: each one changes the numbers, kernel and twin alike."""

import numpy as np
import pytest
from simulate import assert_kernel_equals_twin, job_of

from rumbaodds.answer.simulation import ask, make_situation
from rumbaodds.cards import mask_of
from rumbaodds.engine import hand as kernel
from rumbaodds.opponents.models import MODELS, OpponentModel
from rumbaodds.rules import SWISS
from rumbaodds.twins import hand as twin_hand


@pytest.mark.parametrize(
    ("repeats", "passes_before", "expected"),
    [(True, 1, 0), (True, 2, 5), (True, 3, 5), (True, 5, 5),  # every pass from the third on
     (False, 2, 5), (False, 3, 0), (False, 4, 0), (False, 5, 5)],  # the streak restarts after a penalty
)
def test_sit_out_repeats(repeats, passes_before, expected):
    rules = SWISS.replace(sit_out_repeats=repeats)
    assert rules.pass_penalty(passes_before) == expected
    assert twin_hand.passer_change(rules, passes_before) == expected
    assert kernel.pass_penalty(passes_before, kernel.rules_array(rules)) == expected


@pytest.mark.parametrize("counts", [False, True])
def test_void_counts_as_pass_in_the_score_table(counts):
    rules = SWISS.replace(void_counts_as_pass=counts)
    changes = twin_hand.score_changes(rules, 4, ["pass"] * 4, [None] * 4, passes_in_a_row=[2, 0, 2, 1])
    assert changes == ([5, 0, 5, 0] if counts else [0, 0, 0, 0])
    # a throw-in never counts as a pass [D-4]
    thrown = twin_hand.score_changes(rules, 4, ["throw-in", "pass", "pass", "pass"], [None] * 4,
                                     passes_in_a_row=[2, 2, 2, 2])
    assert thrown == [0, 0, 0, 0]


NOBODY_PLAYS = OpponentModel("nobody", rumba_points=10**6, play_points=10**6, join_points=10**6, discard_below=0,
                             throw_in=False, swap_two=False)


@pytest.mark.parametrize("counts", [False, True])
def test_void_counts_as_pass_when_the_hero_passes_and_nobody_plays(counts):
    """Opponents who never play: the hero's third pass voids the hand; the field decides the +5."""
    rules = SWISS.replace(void_counts_as_pass=counts)
    result = ask("HA HK HQ S6 C7", "H9", 4, 1, rules, NOBODY_PLAYS, passes_in_a_row=2, samples=2_000, seed=3)
    assert result.options["pass"].ev.mean == (5.0 if counts else 0.0)


def _kernel_vs_twin(rules, model, hand, trump, players, seat, samples=40):
    job = job_of(hand, trump, players, seat, rules, model, "expert", passes=2)
    assert_kernel_equals_twin(job, seed=9, samples=samples)


@pytest.mark.parametrize("field", ["sit_out_repeats", "void_counts_as_pass", "throw_in_after_rumba"])
def test_kernel_equals_twin_with_each_field_flipped(field):
    rules = SWISS.replace(**{field: not getattr(SWISS, field)})
    bold_thrower = OpponentModel("thrower", rumba_points=12, play_points=9, join_points=9, join_knock_points=7,
                                 discard_below=1, throw_in=True)
    _kernel_vs_twin(rules, bold_thrower, "HA HK HQ S6 C7", "H9", 6, 1)
    _kernel_vs_twin(rules, MODELS["default"], "H6 C7 D8 S9 C6", "HT", 5, 0)


def test_no_throw_in_after_rumba_when_the_rules_forbid_it():
    allowed = make_situation("H6 C7 D8 S9 C6", "HT", 5, 2, SWISS, before="rumba,play").choices()
    forbidden = make_situation("H6 C7 D8 S9 C6", "HT", 5, 2, SWISS.replace(throw_in_after_rumba=False),
                               before="rumba,play").choices()
    assert "throw-in" in allowed and "throw-in" not in forbidden


@pytest.mark.parametrize("rules", [SWISS, SWISS.replace(name="flemish-ranks", ranks="23456789TJQKA", max_players=6)])
def test_lowest_keep_kernel_equals_twin_keep_order(rules):
    """The exchange's discards (kernel, class by class) equal the twin's card-by-card sort, on random hands."""
    rng = np.random.default_rng(5)
    deck = np.array(rules.deck)
    top = len("23456789TJQKA") - 1
    for _ in range(3_000):
        cards = [int(c) for c in rng.choice(deck, size=5, replace=False)]
        trump = int(rng.integers(4))
        count = int(rng.integers(0, 6))
        expected = mask_of(twin_hand.keep_order(cards, trump, top)[:count])
        assert int(kernel.lowest_keep(np.uint64(mask_of(cards)), count, trump, top)) == expected
