"""benchmarks/check_quotes.py (issue 35's measure): the draw is fixed, and the figures count what the issue says.

Hand-made answers with known truths: a table whose intervals hold the truths, are narrow and name the truth's
choices meets every target; the negative controls (wide intervals, a missed truth, a wrong choice, an exchange not
named, a rule set no table answers) each fail exactly the target they break.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.check_quotes import draw, summary, verdict  # noqa: E402

sys.path.pop(0)


def test_the_draw_is_fixed_and_half_hold_two_trumps():
    first, again = draw("swiss", 20), draw("swiss", 20)
    assert first == again and len({(s["hand"], s["trump"]) for s in first}) == 20
    for s in first[1::2]:
        assert sum(1 for card in s["hand"].split() if card[0] == s["trump"][0]) >= 2
    assert all(3 <= s["players"] <= 7 and 0 <= s["seat"] < s["players"] for s in first)
    assert all(2 <= s["players"] <= 6 for s in draw("flemish", 20))
    assert draw("swiss", 20) != draw("flemish", 20)


def _answer(play=(-1.0, 0.1), rumba=(2.0, 0.2), success=(0.5, 0.02), best="play", margin=1.0, exchange=("S6",)):
    iv = lambda mean, half: [mean, mean - half, mean + half]  # noqa: E731
    return {"recommendation": best, "runner_up": "pass", "margin": iv(margin, 0.1), "play": iv(*play),
            "rumba": iv(*rumba), "success": iv(*success), "exchange": None if exchange is None else list(exchange)}


TRUTH = _answer(play=(-1.05, 0.01), rumba=(2.1, 0.01), success=(0.51, 0.003))


def test_a_table_that_knows_meets_every_target():
    row = summary([({}, _answer(), TRUTH)] * 10)
    assert all(verdict(row).values()), verdict(row)
    assert row["play: intervals holding the truth"] == 1 and row["rumba: half-width median"] == pytest.approx(0.2)


@pytest.mark.parametrize("table, broken", [
    (_answer(rumba=(2.0, 0.6)), {"rumba half-width median <= 0.25", "rumba half-width p90 <= 0.5"}),
    (_answer(play=(-0.5, 0.1)), {"play coverage >= 94%"}),
    (_answer(success=(0.5, 0.05)), {"success half-width median <= 3 pp"}),
    (_answer(best="rumba"), {"best choice where clear"}),
    (_answer(exchange=None), {"exchange named and equal"}),
    (_answer(exchange=("C7",)), {"exchange named and equal"}),
])
def test_each_negative_control_breaks_its_target(table, broken):
    failed = {name for name, ok in verdict(summary([({}, table, TRUTH)] * 10)).items() if not ok}
    assert failed == broken


def test_a_rule_set_no_table_answers_meets_nothing():
    assert not any(verdict(summary([({}, None, TRUTH)] * 5)).values())


def test_a_choice_too_close_in_truth_is_not_counted():
    close = dict(TRUTH, margin=[0.1, 0.09, 0.11])
    row = summary([({}, _answer(best="rumba"), close)] * 4)
    assert row["best choice: truth's margin > 0.2"] == 0 and verdict(row)["best choice where clear"]
