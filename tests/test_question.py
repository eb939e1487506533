"""The question object and the one answer pipeline (issue 18): checked at the door, a table where one answers."""

from __future__ import annotations

import math

import pytest

from rumbaodds.answer import pipeline, simulation
from rumbaodds.answer.question import Question
from rumbaodds.game import Choice
from rumbaodds.rules import RulesError

HAND = ("HA HK HQ S6 C7", "H9", 5, 2)


@pytest.mark.parametrize("kwargs, message", [
    ({"samples": 0}, "--samples must be"),
    ({"samples": 10**40}, "--samples"),
    ({"precision": math.nan}, "not a finite number"),
    ({"precision": math.inf}, "not a finite number"),
    ({"precision": 1e-300}, "--precision must be"),
    ({"samples": 100, "precision": 0.5}, "not both"),
    ({"seed": -1}, "--seed must be"),
    ({"seed": 2**63}, "--seed must be"),
])
def test_bad_numbers_are_refused_when_the_question_is_built(kwargs, message):
    with pytest.raises(RulesError, match=message):
        Question.of(*HAND, **kwargs)


def test_the_python_api_checks_alike():
    """simulation.ask builds the same Question: NaN never reaches the run loop (it used to run to the 20M cap)."""
    with pytest.raises(RulesError, match="not a finite number"):
        simulation.ask(*HAND, precision=math.nan)


def test_the_public_api_is_the_pipeline():
    """``from rumbaodds.answer import ask`` (README) is the pipeline's: tables first; the simulation alone is
    ``rumbaodds.answer.simulation.ask``. The names are imported on first use, not with the package."""
    import rumbaodds.answer
    from rumbaodds.answer import Question as public_question
    from rumbaodds.answer import answer, ask, document, knock_answer

    assert (ask, answer, document, knock_answer) == (pipeline.ask, pipeline.answer, pipeline.document,
                                                      pipeline.knock_answer)
    assert public_question is Question and rumbaodds.answer.ask is pipeline.ask
    assert ask is not simulation.ask
    with pytest.raises(AttributeError):
        rumbaodds.answer.no_such_name  # noqa: B018


def test_a_bad_situation_is_refused_too():
    with pytest.raises(ValueError, match="H2"):
        Question.of("HA HK HQ S6 H2", "H9", 5, 2)


def test_a_table_answers_unless_the_player_asks_for_a_run_of_his_own():
    plain = Question.of(*HAND)
    assert not plain.own_run
    found = pipeline.answer(plain)
    assert found.meta["source"] == "packed table"  # the swiss 5-player table shipped in the package
    for own in (Question.of(*HAND, samples=2_000, seed=1), Question.of(*HAND, seed=1)):
        assert own.own_run and pipeline.from_table(own) is None
    assert pipeline.from_table(plain, simulate=True) is None


def test_a_simulated_answer_is_the_python_apis():
    question = Question.of(*HAND, samples=2_000, seed=5)
    via_pipeline = pipeline.answer(question)
    via_api = simulation.ask(*HAND, samples=2_000, seed=5)
    assert via_pipeline.meta["kind"] == "simulation" and via_pipeline.meta["seed"] == 5
    assert via_pipeline.to_dict() == via_api.to_dict()
    assert set(via_pipeline.options) >= {Choice.PASS, Choice.RUMBA, Choice.PLAY0}
