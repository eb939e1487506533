"""Grades settled by simulation (rumbaodds/learning/settling.py): no grade from a table cell that cannot tell.

The three lines a user reviewed (issue 36), with their truths from 200,000-deal simulations: a play that costs
1.12 points against a pass, a play (S6 C7 exchanged) that costs 2.00 against a Rumba, a Rumba that costs 2.05
against a play. The shipped table grades them "too close" or with a +-3 point interval; settled, each is within
0.35 points of its truth, its interval above 0.25. The negative control is the grader that does not settle
(``--table-only``), which fails the same checks.
"""

from __future__ import annotations

import json
import math

import pytest

from rumbaodds.answer.question import Question
from rumbaodds.learning import review as rv
from rumbaodds.learning.grading import ZERO, Decision, Grade
from rumbaodds.learning.settling import GRADE_HALF, is_sure, own_exchange, settle_grade
from rumbaodds.stats import Estimate

LINES = [  # the user's lines, and the truth of the points each loses
    ({"rules": "swiss", "players": 7, "seat": 0, "hand": "D8 SJ C7 DA DT", "trump": "CT", "choice": "play"}, 1.12),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "play", "discard": "S6 C7"}, 2.00),
    ({"players": 5, "seat": 2, "hand": "S6 S7 S8 HA C9", "trump": "ST", "choice": "rumba"}, 2.05),
]


def _review(tmp_path, lines, **kwargs):
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(fields) + "\n" for fields in lines))
    return rv.review_file(path, seed=1, **kwargs)


def _by_line(result):
    return {r.entry.line: r.grade for r in result.reviewed}


def test_review_settles_the_users_three_lines(tmp_path):
    grades = _by_line(_review(tmp_path, [fields for fields, _ in LINES]))
    for line, (fields, truth) in enumerate(LINES, 1):
        g = grades[line]
        assert g.band != "too close", (fields, g.band)
        assert abs(g.loss.mean - truth) <= 0.35, (fields, g.loss)
        assert g.loss.low > 0.25 and g.loss.half_width <= GRADE_HALF, (fields, g.loss)
        assert g.source == "simulation" and any(n.startswith("simulated") for n in g.notes)


def test_negative_control_a_grader_that_does_not_settle_fails(tmp_path):
    """The same lines graded from the table alone: one is "too close", one's interval is wider than a point."""
    grades = _by_line(_review(tmp_path, [fields for fields, _ in LINES], simulate=False))
    assert grades[1].band == "too close"
    assert any(g.loss.half_width > 1.0 for g in grades.values())
    failing = [line for line, (_fields, truth) in enumerate(LINES, 1)
               if grades[line].band == "too close" or grades[line].loss.low <= 0.25
               or abs(grades[line].loss.mean - truth) > 0.35]
    assert len(failing) >= 2


def test_the_discard_he_made_is_graded_not_the_policys(tmp_path):
    """He threw D8 SJ C7, his only trump among them: graded as he made it (the policy throws D8 SJ DT); throwing
    the trump costs more than the policy's play3, and the grade says his cards were simulated."""
    fields = {"players": 7, "seat": 0, "hand": "D8 SJ C7 DA DT", "trump": "CT", "choice": "play"}
    grades = _by_line(_review(tmp_path, [{**fields, "discard": "D8 SJ C7"}, {**fields, "discard": "D8 SJ DT"}]))
    mine, policy = grades[1], grades[2]
    assert any("D8 SJ C7 simulated as you made it" in n for n in mine.notes)
    assert not any("valued as" in n for n in mine.notes)
    assert mine.loss.mean - policy.loss.mean > 3 * math.hypot(mine.loss.half_width, policy.loss.half_width) / 1.96


def test_own_exchange_is_none_for_the_policys_cards():
    s = Question.of("D8 SJ C7 DA DT", "CT", 7, 0).situation
    assert own_exchange(s, Decision.of("play", "D8 SJ DT")) is None
    assert own_exchange(s, Decision.of("play")) is None
    assert own_exchange(s, Decision.of("pass")) is None
    assert set(own_exchange(s, Decision.of("play", "D8 SJ C7"))) == set(Decision.of("play", "D8 SJ C7").discard)


def _grade(loss: Estimate, **kw) -> Grade:
    return Grade("play", "play0", "pass", "pass", (), loss, "mistake", **kw)


class _Answer:
    def __init__(self, margin, recommendation="pass"):
        self.margin, self.recommendation, self.exchange = margin, recommendation, None


@pytest.mark.parametrize("loss, sure", [
    (Estimate(0.60, 0.45, 0.75, 5000), True),  # above 0 and a quarter point wide
    (Estimate(0.60, 0.20, 1.00, 5000), False),  # above 0 but too wide to tell its band
    (Estimate(0.10, -0.05, 0.25, 5000), False),  # its interval holds 0
    (Estimate(0.01, -0.03, 0.05, 5000), True),  # a tie known to +-0.04: nothing to tell
])
def test_is_sure_by_the_loss(loss, sure):
    assert is_sure(_grade(loss), _Answer(Estimate(1.0, 0.5, 1.5, 100))) is sure


def test_is_sure_for_the_best_choice_needs_a_resolved_best():
    g = _grade(ZERO)
    assert is_sure(g, _Answer(Estimate(0.5, 0.2, 0.8, 100)))
    assert not is_sure(g, _Answer(Estimate(0.5, -0.5, 1.5, 100)))  # the table cannot tell the best
    assert not is_sure(_grade(Estimate(0.6, 0.45, 0.75, 100), at_least=True), _Answer(None))
    assert not is_sure(_grade(Estimate(0.6, 0.45, 0.75, 100)), _Answer(None), own=True)


def test_settle_grade_stops_at_the_cap_on_a_tie():
    """A cap too small to settle anything stops there and says so (the grade is what those deals show)."""
    s = Question.of("D8 SJ C7 DA DT", "CT", 7, 0).situation
    g, answer = settle_grade(s, Decision.of("play"), seed=3, cap=200, budget=math.inf)
    assert answer.samples == 200
    assert any("cap of 200 deals" in n for n in g.notes)
