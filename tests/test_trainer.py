"""Grading a decision (rumbaodds/learning/grading.py), the trainer (rumbaodds/learning/trainer.py, `rumbaodds train`).

Hand-worked grades on answers written out by hand (every value known, so every loss is checked to the cent), the
bands at their thresholds, a tie never called a mistake (a hypothesis property), mixed strategies graded as mixed
with the real equilibrium, sure trump tricks counted by RULES.md, and the trainer's points lost equal to
``rumbaodds ask``'s margin from the same shipped table on random swiss hands at 3-7 players. Negative controls: the
same checks fail on a loss one quantum off, a planted wrong table, and without the equilibrium.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rumbaodds.answer import pipeline
from rumbaodds.answer.question import Question
from rumbaodds.answer.results import AskResult, ChoiceResult
from rumbaodds.answer.simulation import discard_cards
from rumbaodds.answer.situation import make_situation
from rumbaodds.cards import format_card, parse_hand
from rumbaodds.cli import main
from rumbaodds.learning.grading import (
    BEST_BELOW,
    INACCURACY_BELOW,
    MISTAKE_BELOW,
    Decision,
    DecisionError,
    band_of,
    equilibrium_mix,
    grade,
    sure_trump_tricks,
)
from rumbaodds.learning.trainer import Trainer, summary
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import get_rules
from rumbaodds.stats import Estimate

README = ("HA HK HQ S6 C7", "H9", 5, 2)


def est(mean: float, half: float = 0.0, n: int = 1000) -> Estimate:
    return Estimate(mean, mean - half, mean + half, n)


def written_answer(situation, values: dict[str, tuple[float, float]], margin: tuple[float, float] | None = None,
                   opponents=None) -> AskResult:
    """An answer written out by hand: every choice's (value, half-width); the best and runner-up by kind."""
    options = {}
    for name, (mean, half) in values.items():
        discard = ()
        if name.startswith("play"):
            discard = discard_cards(situation.hand, int(name[4:]), situation.trump, situation.rules)
        options[name] = ChoiceResult(name, est(mean, half), discard=discard)
    kind = lambda n: "play" if n.startswith("play") else n  # noqa: E731
    ranked = sorted(options, key=lambda n: options[n].ev.mean)
    best = ranked[0]
    runner = next(n for n in ranked if kind(n) != kind(best))
    half = math.hypot(options[runner].ev.half_width, options[best].ev.half_width)
    m = est(*margin) if margin else est(options[runner].ev.mean - options[best].ev.mean, half)
    return AskResult(situation, opponents, "expert", 1, 1000, 1.0, options, kind(best), kind(runner), m)


@pytest.fixture(scope="module")
def readme_situation():
    return make_situation(*README)


# -- hand-worked grades ------------------------------------------------------------------------------------------
def test_hand_worked_grades(readme_situation):
    """play1 (exchange S6) is best at -1.00; pass 0; play0 -0.60; rumba +2.00; the paired margin is 1.00 ± 0.20."""
    s = readme_situation
    result = written_answer(s, {"pass": (0.0, 0.0), "play0": (-0.6, 0.15), "play1": (-1.0, 0.2), "rumba": (2.0, 0.3)},
                            margin=(1.0, 0.2))
    assert discard_cards(s.hand, 1, s.trump, s.rules) == tuple(parse_hand("S6"))
    best = grade(result, Decision.of("play", "S6"))
    assert (best.band, best.loss.mean, best.best_text) == ("best", 0.0, "play, exchange S6")
    passed = grade(result, Decision.of("pass"))
    assert passed.loss == result.margin and passed.band == "blunder"  # the runner-up: ask's paired margin itself
    kept = grade(result, Decision.of("play", ()))  # play0, 0.40 worse: unpaired interval hypot(0.15, 0.2) = 0.25
    assert kept.loss.mean == pytest.approx(0.4) and kept.loss.half_width == pytest.approx(0.25)
    assert kept.band == "mistake"
    rumba = grade(result, Decision.of("rumba"))
    assert rumba.loss.mean == pytest.approx(3.0) and rumba.band == "blunder"
    assert "a Rumba needs 3 tricks" in rumba.reason
    other = grade(result, Decision.of("play", "C7"))  # one card, but not the one of lowest keep value
    assert other.option == "play1" and any("S6" in n for n in other.notes)
    untold = grade(result, Decision.of("play"))  # exchange not told: his best exchange
    assert untold.band == "best" and any("not told" in n for n in untold.notes)


@pytest.mark.parametrize("mean, band", [(0.0, "best"), (0.04, "best"), (BEST_BELOW, "inaccuracy"),
                                        (0.2499, "inaccuracy"), (INACCURACY_BELOW, "mistake"), (0.99, "mistake"),
                                        (MISTAKE_BELOW, "blunder"), (7.5, "blunder")])
def test_bands_at_their_thresholds(mean, band):
    """The documented thresholds, each side of each edge (an interval that excludes 0)."""
    loss = Estimate(mean, mean * 0.9, mean * 1.1, 100) if mean else Estimate(0.0, 0.0, 0.0, 100)
    assert band_of(loss) == band


def test_a_tie_is_too_close_and_an_exact_tie_is_best():
    assert band_of(Estimate(2.0, -0.1, 4.1, 50)) == "too close"  # an interval that includes 0: never a blunder
    assert band_of(Estimate(0.3, 0.0, 0.6, 50)) == "too close"  # touching 0 is including it
    assert band_of(Estimate(0.3, 0.01, 0.6, 50)) == "mistake"  # negative control: just above 0


@settings(max_examples=300, deadline=None)
@given(mean=st.floats(-5, 15), below=st.floats(0, 10), above=st.floats(0, 10))
def test_a_tie_is_never_graded_a_mistake(mean, below, above):
    """Whatever the loss, an interval that includes 0 is never an inaccuracy, a mistake or a blunder."""
    low, high = min(mean - below, 0.0), max(mean + above, 0.0)
    assert band_of(Estimate(mean, low, high, 10)) in ("best", "too close")


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.tuples(st.floats(-6, 6), st.floats(0, 3)), min_size=3, max_size=3),
       choice=st.sampled_from(["pass", "play", "rumba"]))
def test_grade_never_calls_a_tie_wrong(readme_situation, values, choice):
    """Through grade(): a loss whose interval includes 0 is best or too close (or mixed), whatever the answer."""
    names = ["pass", "play1", "rumba"]
    table = {n: (v, h) for n, (v, h) in zip(names, values)}
    table["pass"] = (0.0, 0.0)
    result = written_answer(readme_situation, table)
    g = grade(result, Decision.of(choice, "S6" if choice == "play" else None))
    if g.loss.low <= 0 <= g.loss.high:
        assert g.correct, (g.band, g.loss)
    assert g.loss.mean >= 0 or g.at_least


def test_a_choice_worth_exactly_the_best_is_best():
    """A throw-in and a pass are both worth exactly 0 (a void hand, an unpenalised pass): an exact tie is best."""
    s = make_situation("C6 C7 D8 S9 H6", "HA", 4, 1)
    result = written_answer(s, {"pass": (0.0, 0.0), "throw-in": (0.0, 0.0), "play0": (0.8, 0.2), "rumba": (9.0, 0.1)})
    g = grade(result, Decision.of("throw-in"))
    assert g.band == "best" and g.loss.mean == 0
    assert "throw-in voids the hand" in g.reason


def test_decisions_not_open_are_errors(readme_situation):
    result = written_answer(readme_situation, {"pass": (0.0, 0.0), "play1": (-1.0, 0.1), "rumba": (2.0, 0.3)})
    for choice, discard, words in [("throw-in", None, "not open"), ("join", None, "nobody called"),
                                   ("play", "HA HK HQ S6 C7", "allows 0..4"), ("play", "D6", "not in the hand"),
                                   ("knock", None, "before he looks")]:
        with pytest.raises(DecisionError, match=words):
            grade(result, Decision.of(choice, discard))
    with pytest.raises(DecisionError, match="use one of"):
        Decision.of("fold")
    with pytest.raises(DecisionError, match="only a player who plays"):
        Decision.of("pass", "S6")


def test_after_a_rumba_join_is_play_without_exchange():
    s = make_situation("SA SK D7 C8 H9", "ST", 5, 3, before="pass,rumba,play")
    result = written_answer(s, {"pass": (0.0, 0.0), "play0": (0.7, 0.2)})
    assert grade(result, Decision.of("join")).loss.mean == pytest.approx(0.7)
    assert grade(result, Decision.of("play")).option == "play0"
    with pytest.raises(DecisionError, match="nobody exchanges"):
        grade(result, Decision.of("play", "D7"))


# -- mixed strategies -----------------------------------------------------------------------------------------------
MIXED_HAND = ("H7 SA D9 C8 S7", "HK", 5, 2)  # the equilibrium passes about 79% and plays about 21% with this strength


def test_mixed_strategies_are_graded_mixed():
    s = make_situation(*MIXED_HAND)
    policy = opponent_policy(None, s.rules, s.players)
    mix = equilibrium_mix(s, policy)
    assert mix is not None and mix["pass"] >= 0.2 and mix["play"] >= 0.2
    assert sum(mix.values()) == pytest.approx(1.0)
    close = {"pass": (0.0, 0.0), "play3": (-0.15, 0.08), "rumba": (6.0, 0.2)}
    g = grade(written_answer(s, close, margin=(0.15, 0.08), opponents=policy), Decision.of("pass"))
    assert g.band == "mixed" and g.correct and "equilibrium mixes" in g.reason
    assert g.loss.mean == pytest.approx(0.15)  # the points lost stay the answer's own
    # negative controls: no equilibrium (a style) grades the same loss an inaccuracy; a clear cost is not mixed
    assert grade(written_answer(s, close, margin=(0.15, 0.08)), Decision.of("pass")).band == "inaccuracy"
    clear = {"pass": (0.0, 0.0), "play3": (-1.3, 0.3), "rumba": (6.0, 0.2)}
    g = grade(written_answer(s, clear, margin=(1.3, 0.3), opponents=policy), Decision.of("pass"))
    assert g.band == "blunder" and any("mixes" in n for n in g.notes)


def test_a_pure_strategy_is_not_mixed(readme_situation):
    policy = opponent_policy(None, readme_situation.rules, 5)
    mix = equilibrium_mix(readme_situation, policy)
    assert mix["rumba"] > 0.99  # AKQ of trump: the equilibrium calls Rumba


# -- the reason: sure trump tricks (RULES.md §3, [D-2], [D-3], [D-9]) ----------------------------------------------
@pytest.mark.parametrize("hand, trump, rules, extra, sure", [
    ("HA HK HQ S6 C7", "H9", "swiss", {}, "HA HK HQ"),
    ("HK HQ S6 C7 D8", "HA", "swiss", {}, "HK HQ"),  # the turned ace never reaches a hand [D-2]
    ("HK HQ S6 C7 D8", "HA", "swiss", {"dealer_knocked": True}, ""),  # the knocking dealer took it [D-3]
    ("HK HQ S6 C7 D8", "HA", "flemish", {}, ""),  # another player may swap the two for it [D-9]
    ("HK HQ H2 C7 D8", "HA", "flemish", {}, "HA HK HQ"),  # he swaps it himself
    ("HQ HJ S6 C7 D8", "H9", "swiss", {}, ""),  # the ace and king are out there
])
def test_sure_trump_tricks(hand, trump, rules, extra, sure):
    s = make_situation(hand, trump, 5, 1, rules, **extra)
    assert [format_card(c) for c in sure_trump_tricks(s)] == sure.split()


# -- the trainer against ask ------------------------------------------------------------------------------------------
def random_question(rng, deck) -> Question:
    players = int(rng.integers(3, 8))
    cards = rng.choice(deck, 6, replace=False)
    return Question.of(" ".join(format_card(int(c)) for c in cards[:5]), format_card(int(cards[5])), players,
                       int(rng.integers(0, players)))


def test_trainer_points_lost_equal_asks_margin_from_the_same_table():
    """For random swiss hands at 3-7 players: the runner-up loses ask's margin; the best choice is ask's."""
    rng = np.random.default_rng(20)
    deck = get_rules("swiss").deck
    trainer = Trainer(seed=1, table_only=True)
    checked = 0
    for _ in range(200):
        question = random_question(rng, deck)
        asked = pipeline.document(pipeline.from_table(question))  # the table's own answer (`rumbaodds tables query`)
        if asked.get("source", {}).get("source") != "packed table":
            continue
        s = question.situation
        result = trainer.answer(s)
        best = grade(result, Decision.of(asked["recommendation"]))
        assert best.best == asked["recommendation"] and best.loss.mean == 0
        runner = grade(result, Decision.of(asked["runner_up"]))
        assert runner.loss.mean == pytest.approx(asked["margin"]["ev"], abs=1e-12)
        assert [runner.loss.low, runner.loss.high] == pytest.approx(asked["margin"]["ev_ci"], abs=1e-12)
        assert runner.best == asked["recommendation"]
        if asked["margin"]["ev_ci"][0] > 0:  # the interval excludes a tie: wrong, unless the equilibrium mixes
            assert not runner.correct or runner.band == "mixed"
        else:
            assert runner.correct
        checked += 1
    assert checked >= 190  # an impossible cell has no table answer


def test_train_json_points_lost_equal_ask_json_margin():
    """The command lines themselves: `train --hand ... --json` answering the runner-up against `ask --json`."""
    runner = CliRunner()
    rng = np.random.default_rng(7)
    deck = get_rules("swiss").deck
    for _ in range(4):
        q = random_question(rng, deck)
        s = q.situation
        args = [" ".join(format_card(c) for c in s.hand), "--trump", format_card(s.trump_card), "--players",
                str(s.players), "--seat", str(s.seat)]
        asked = json.loads(runner.invoke(main, ["tables", "query", *args, "--json"]).stdout)  # the table's answer
        done = runner.invoke(main, ["train", "--hand", *args, "--json", "--table-only", "--no-drill"],
                             input=asked["runner_up"] + "\n")
        assert done.exit_code == 0, done.output
        graded = json.loads(done.stdout.strip().splitlines()[-1])["decisions"][0]
        assert graded["points_lost"] == pytest.approx(asked["margin"]["ev"], abs=1e-12)
        assert graded["best"] == asked["recommendation"]


def test_a_planted_wrong_table_is_caught(monkeypatch):
    """Negative control: a table whose margin is one quantum off no longer matches ask's."""
    q = Question.of(*README)
    result = pipeline.from_table(q)
    asked = pipeline.document(result)["margin"]["ev"]
    result.margin = Estimate(result.margin.mean + 0.05, result.margin.low, result.margin.high, 32)
    assert grade(result, Decision.of("play")).loss.mean != pytest.approx(asked, abs=1e-12)


# -- the trainer's round --------------------------------------------------------------------------------------------
def test_spots_are_reproducible_and_like_the_table():
    a, b = Trainer(seed=9, table_only=True), Trainer(seed=9, table_only=True)
    first = [a.deal().situation for _ in range(5)]
    assert first == [b.deal().situation for _ in range(5)]
    assert len({s.players for s in first} | {s.players for s in (a.deal().situation for _ in range(15))}) >= 3
    assert all(3 <= s.players <= 7 and 0 <= s.seat < s.players for s in first)
    assert Trainer(seed=10, table_only=True).deal().situation != first[0]  # negative control


def test_drill_repeats_the_same_class_and_seat():
    trainer = Trainer(seed=4, table_only=True, players=5, seat=2)
    spot = trainer.deal()
    wrong = "pass" if spot.result.recommendation != "pass" else "rumba"
    trainer.grade(spot, Decision.of(wrong))
    drills = trainer.drill()
    assert len(drills) == len(trainer.mistakes()) <= 1
    for d in drills:
        s, o = d.situation, spot.situation
        assert (s.players, s.seat, s.before) == (o.players, o.seat, o.before)
        assert sorted(c % 16 for c in s.hand) == sorted(c % 16 for c in o.hand)
        assert s.trump_card % 16 == o.trump_card % 16
        trump_ranks = lambda x: sorted(c % 16 for c in x.hand if c // 16 == x.trump)  # noqa: E731
        assert trump_ranks(s) == trump_ranks(o)
        assert d.result.recommendation == spot.result.recommendation  # the same class: the same cell


def test_words_are_drawn_from_the_strategy():
    trainer = Trainer(seed=2, words=True, players=5, seat=4, samples=2_000)
    spots = [trainer._random_situation() for _ in range(30)]
    words = [w for s in spots for w in s.before]
    assert set(words) <= {"pass", "play", "rumba"} and "pass" in words and "play" in words
    assert all(len(s.before) == 4 and s.before.count("rumba") <= 1 for s in spots)


def test_summary_figures():
    trainer = Trainer(seed=11, table_only=True)
    for choice in ("pass", "play", "rumba", "pass"):
        trainer.grade(trainer.deal(), Decision.of(choice))
    figures = summary(trainer.history)
    losses = [a.grade.loss.mean for a in trainer.history]
    assert figures["decisions"] == 4
    assert figures["points_lost_per_decision"] == pytest.approx(sum(losses) / 4)
    assert figures["accuracy"] == pytest.approx(sum(a.grade.correct for a in trainer.history) / 4)
    assert [w["points_lost"] for w in figures["worst"]] == sorted(
        (a.grade.loss.mean for a in trainer.history if not a.grade.correct), reverse=True)[:3]


# -- the command line -----------------------------------------------------------------------------------------------
def test_train_round_from_standard_input():
    result = CliRunner().invoke(main, ["train", "--seed", "3", "--rounds", "3", "--table-only", "--no-drill"],
                                input="pass\nwhat\nplay\n?\nrumba\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("Your cards:") == 3 and "Round over: 3 decisions" in out
    assert "use one of" in out  # a bad answer is told and asked again, not fatal
    again = CliRunner().invoke(main, ["train", "--seed", "3", "--rounds", "3", "--table-only", "--no-drill"],
                               input="pass\nplay\nrumba\n")
    hands = lambda text: [line for line in text.splitlines() if "Your cards" in line]  # noqa: E731
    assert hands(again.output) == hands(out)


def test_train_ends_at_end_of_input_and_drills():
    result = CliRunner().invoke(main, ["train", "--hand", *README[:1], "--trump", "H9", "--players", "5", "--seat",
                                       "2", "--rounds", "2", "--table-only", "--drill"], input="pass\n")
    assert result.exit_code == 0, result.output
    assert "Round over: 1 decisions" in result.output and "blunder" in result.output
    assert "Drill:" in result.output and "(drill)" in result.output


def test_train_knock_first_for_the_dealer():
    """--knock: the dealer decides before he looks (graded against simulation.knock), then, having looked, speaks."""
    result = CliRunner().invoke(main, ["train", "--knock", "--players", "3", "--seat", "2", "--rounds", "2",
                                       "--samples", "2000", "--seed", "6", "--no-drill", "--json"],
                                input="look\npass\nknock\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    actions = [d["action"] for d in data["decisions"]]
    assert actions == ["no knock", "pass", "knock"]  # after a knock the hand is his Rumba: no further word
    knock = data["decisions"][2]
    assert knock["best"] in ("knock", "no knock") and knock["expected"] is not None
    assert (knock["points_lost"] == 0) == (knock["best"] == "knock")


def test_train_json():
    result = CliRunner().invoke(main, ["train", "--seed", "8", "--rounds", "2", "--table-only", "--json",
                                       "--no-drill"], input="pass\npass\n")
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["seed"] == 8 and data["summary"]["decisions"] == 2
    assert all(not math.isnan(d["points_lost"]) for d in data["decisions"])
