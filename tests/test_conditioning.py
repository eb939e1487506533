"""What the asking player heard (docs/SIMULATION.md step 2): the plan of the conditioned deal, and that every word a
player can hear at the table gets an answer (issue 7)."""

from __future__ import annotations

import numpy as np
import pytest
from simulate import job_of

from rumbaodds.answer import simulation
from rumbaodds.cards import format_card, parse_card
from rumbaodds.engine import policy as P
from rumbaodds.rules import FLEMISH, SWISS, RulesError


def test_unknown_words_are_drawn_by_rejection():
    job = job_of("H7 C8 D9 S6 CT", "H9", 5, 3, SWISS, "default", before=None)
    plan = job.plan
    assert not plan.hard.any() and not plan.stretched.any()
    assert all(z > 0.9 for z in plan.base_z)  # "did not call Rumba, did not throw in": almost every hand


def test_a_rare_rumba_is_drawn_exactly_and_weighs_the_sample():
    job = job_of("H7 C8 D9 S6 CT", "H9", 5, 3, SWISS, "default", before="play,rumba,pass")
    assert job.plan.hard[1] == 1 and not job.plan.stretched.any()
    assert job.plan.base_z[1] < 0.01  # 17+ hand points: rare
    _res, tries, weights = job.batch(5, 0, 2_000)
    assert (tries >= 1).all() and (weights > 0).all()
    assert np.ptp(weights) > 0  # seat 1's cards depend on seat 0's: the weights vary


def test_a_rumba_the_model_cannot_have_called_is_stretched_and_said():
    """The hero holds the ace and king of trump: no hand left reaches 17 hand points."""
    result = simulation.ask("HA HK S6 C7 D9", "H8", 5, 2, before="rumba,pass", samples=4_000, seed=2,
                           opponents="default")
    assert result.samples == 4_000 and list(result.actions) == ["pass", "play"]
    assert any("stretched" in note for note in result.notes)
    assert result.to_dict()["notes"] == list(result.notes)


def test_the_two_of_trump_excluded_from_earlier_seats_who_would_have_swapped_it():
    job = job_of("SA S9 D8 C7 D9", "HK", 4, 2, FLEMISH, "default")
    two = parse_card("H2")
    assert list(job.plan.excluded[:2]) == [two, two]
    job = job_of("SA S9 D8 C7 D9", "HK", 4, 2, FLEMISH, "all")  # model all never swaps: no information
    assert list(job.plan.excluded[:2]) == [-1, -1]
    job = job_of("SA S9 D8 C7 D9", "HK", 4, 2, FLEMISH, "default", swapped_by=0)
    assert list(job.plan.excluded[:2]) == [-1, -1]
    assert two not in job.unknown() and parse_card("HK") not in job.unknown()


@pytest.mark.parametrize("bad, message", [
    (dict(swapped_by=2), "earlier seat"),
    (dict(swapped_by=0, hand="H2 S9 D8 C7 D9"), "you hold the two"),
    (dict(swapped_by=0, rules=SWISS, trump="H9"), "no swap"),
    (dict(swapped_by=0, trump="H2"), "the two itself"),
])
def test_swapped_by_is_checked(bad, message):
    kw = dict(hand="SA S9 D8 C7 D9", trump="HK", players=4, seat=2, rules=FLEMISH)
    kw.update(bad)
    with pytest.raises((RulesError, ValueError), match=message):
        simulation.make_situation(kw["hand"], kw["trump"], kw["players"], kw["seat"], kw["rules"],
                                swapped_by=kw["swapped_by"])


def test_rumba_first_before_words_are_round_one_words():
    rules = SWISS.replace(name="rf", speaking_order="rumba-first")
    with pytest.raises(RulesError, match="rumba-first"):
        simulation.make_situation("HA HK HQ S6 C7", "H9", 5, 2, rules, before="pass,play")
    assert simulation.make_situation("HA HK HQ S6 C7", "H9", 5, 2, rules, before="-,rumba").before == ("-", "rumba")


def test_every_hand_gets_an_answer_after_an_earlier_rumba():
    """Random hands, a Rumba called by seat 0 or seat 1: always an answer (rare words included), never an error."""
    rng = np.random.default_rng(4)
    deck = list(SWISS.deck)
    for i in range(12):
        cards = rng.choice(deck, 6, replace=False)
        hand, trump = [format_card(c) for c in cards[:5]], format_card(cards[5])
        before = "rumba,pass" if i % 2 else "play,rumba"
        result = simulation.ask(hand, trump, 5, 2, before=before, samples=1_000, seed=i)
        assert result.samples == 1_000 and result.effective_samples > 0
        assert set(result.actions) <= {"pass", "play", "throw-in"}


def test_the_policy_contexts_are_read_from_the_earlier_words():
    from rumbaodds.answer.conditioning import _contexts

    ctx = _contexts(3, [P.W_PLAY, P.W_NONE, P.W_PASS], SWISS, False, False)
    assert {c[0] for c in ctx} == {P.CTX_OPEN + 1, P.CTX_OPEN + 2}  # the unknown seat played or passed
    ctx = _contexts(2, [P.W_RUMBA, P.W_PLAY], SWISS, False, False)
    assert ctx == [(P.CTX_RUMBA + 1, True, False, True)]
    ctx = _contexts(2, [P.W_PASS, P.W_PLAY], SWISS, True, False)
    assert ctx == [(P.CTX_KNOCK + 1, True, False, False)]
