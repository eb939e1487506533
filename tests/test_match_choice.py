"""The game value of a choice (issue 21 item 3): kernel == twin, the per-hand answer unchanged, and the game's own
preferences at the end of a game (RULES.md §9, [D-18], [D-20])."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from rumbaodds.answer import simulation
from rumbaodds.answer.situation import make_situation
from rumbaodds.cli import main
from rumbaodds.match.api import table_for
from rumbaodds.match.ask import ask_game
from rumbaodds.match.choice import choice_batch, rest_seed
from rumbaodds.match.kernel import MAX_HANDS
from rumbaodds.match.score import game_array
from rumbaodds.match.scored_twin import table_policy
from rumbaodds.match.twin import twin_choice_sample
from rumbaodds.rules import FLEMISH, SWISS


def run_kernel(job, rules, scores, passes, seed, count, opponents="hand-equilibrium"):
    """``choice_batch`` with the rest of the game played by ``opponents`` (a game table, ``match.api.table_for``);
    also returns the twin's policy of that table."""
    table = table_for(rules, job.situation.players, opponents)
    args = job.args()
    out = choice_batch(*args[:7], game_array(rules), *args[7:], np.uint64(seed), rules.deck_array(),
                       table.stack, table.knock_stack, table.fixed, table.fixed_knock, table.aware,
                       np.array(scores, np.int64), np.array(passes, np.int64), np.uint64(rest_seed(seed)), MAX_HANDS,
                       0, count)
    return out, table_policy(rules, table), None


@pytest.mark.parametrize("rules, n, seat, hand, trump, scores, passes, before, opponents", [
    (SWISS, 5, 2, "HA HK S6 C7 D9", "H8", [15, 17, 4, 19, 12], [0, 2, 0, 1, 0], None, "hand-equilibrium"),
    (SWISS, 4, 1, "S6 C7 D8 S9 C6", "H8", [9, 3, 14, 6], [2, 2, 0, 0], "pass", "hand-equilibrium"),
    (FLEMISH, 4, 3, "HA HK SQ C7 D9", "H8", [12, 5, 9, 16], [0, 0, 0, 0], None, "hand-equilibrium"),
    # the rest of the game score-aware (issue 38), one player blind: every hand's table chosen by the score
    (SWISS, 5, 2, "HA HK S6 C7 D9", "H8", [5, 3, 4, 2, 12], [0, 2, 0, 1, 0], None, "equilibrium,0=hand-equilibrium"),
    (FLEMISH, 4, 3, "HA HK SQ C7 D9", "H8", [2, 5, 1, 6], [0, 0, 0, 0], None, None),
])
def test_kernel_equals_twin_sample_by_sample(rules, n, seat, hand, trump, scores, passes, before, opponents):
    situation = make_situation(hand, trump, n, seat, rules, passes[seat], False, before)
    job = simulation.Job.of(situation, play="expert")  # the twin plays greedy or expert
    count, seed = 12, 4
    (results, tries, weights, kinds, changes, passed, pays, wins, deals), policy, knock = run_kernel(
        job, rules, scores, passes, seed, count, opponents)
    for i in range(count):
        twin = twin_choice_sample(rules, n, seat, situation.hand, situation.trump_card, job.policy, job.plan,
                                  "expert", job.names, scores, passes, policy, knock, seed, i, rest_seed(seed))
        for c, name in enumerate(job.names):
            kind, ch, ps, pay, win, taken = twin[name]
            got = (int(kinds[i, c]), changes[i, c].tolist(), passed[i, c].tolist(), int(deals[i, c]))
            assert got == (kind, list(ch), list(ps), taken), (i, name)
            assert pays[i, c] == pytest.approx(pay) and wins[i, c] == pytest.approx(win), (i, name)


def test_the_hand_part_is_asks_own_sample_by_sample():
    """Every choice's hand, with every seat kept, gives the asking player exactly ``ask_batch``'s score change
    (his sit-out penalty added, swiss rule 17), so the per-hand answer beside the game value is ``ask``'s."""
    situation = make_situation("HA HK S6 C7 D9", "H8", 5, 2, SWISS, 2, False, None)
    job = simulation.Job.of(situation)
    scores, passes = [15, 17, 4, 19, 12], [0, 0, 2, 0, 0]
    (results, tries, weights, kinds, changes, passed, *_), _, _ = run_kernel(job, SWISS, scores, passes, 9, 400)
    ask_results, ask_tries, ask_weights = job.batch(9, 0, 400)
    assert np.array_equal(results, ask_results) and np.array_equal(tries, ask_tries)
    assert np.array_equal(weights, ask_weights)
    penalty = SWISS.pass_penalty(2)
    assert penalty > 0
    hero = changes[:, :, 2] + passed[:, :, 2] * penalty * (kinds == 0)
    assert np.array_equal(hero, results[:, :, 0].astype(np.int64))
    assert (passed[:, job.names.index("pass"), 2][kinds[:, job.names.index("pass")] == 0] == 1).all()


def test_far_from_the_end_the_game_agrees_with_the_hand():
    answer = ask_game("HA HK S6 C7 D9", "H8", 5, 2, [20] * 5, samples=4000, seed=2)
    assert answer.hand.recommendation == "play" and answer.recommendation == "play" and not answer.differs
    assert answer.margin().low > 2.0  # play beats the runner-up by stakes, not by noise


def test_one_point_from_home_the_game_plays_a_hand_the_hand_alone_passes():
    """At 1 point any trick ends the game and wins it [D-18], everybody paying his score [D-20]: a weak hand the
    per-hand answer passes (a trickless +5 costs more than -1 gains) is played by the game value, ahead of the pass
    on the same deals; far from the end (negative control) the game finds no such margin for playing it. The
    opponents are the per-hand equilibrium's, blind to the score, so that only the score rules are under test.
    Score-aware opponents (issue 38, the default) see him one point from home and fight for every trick: against
    them the same trumpless hand is better passed (two passes cost nothing), by far more than noise."""
    hand, trump = "ST C7 D8 S9 C6", "H8"  # the card play held fixed (expert): the score rules are under test
    blind = "hand-equilibrium"
    near = ask_game(hand, trump, 5, 2, [20, 20, 1, 20, 20], samples=10_000, seed=5, play="expert", opponents=blind)
    far = ask_game(hand, trump, 5, 2, [20] * 5, samples=10_000, seed=5, play="expert", opponents=blind)
    assert near.hand.recommendation == "pass" and far.hand.recommendation == "pass"
    assert near.recommendation == "play" and near.differs and near.by_game.runner_up == "pass"
    assert near.margin().low > 1.0  # stakes, paired on the same deals
    assert near.payout("rumba").high < near.payout("pass").low - 20  # a failed Rumba (+10) throws the lead away
    assert far.margin() is None or far.recommendation == "pass" or far.margin().low < 1.0
    fought = ask_game(hand, trump, 5, 2, [20, 20, 1, 20, 20], samples=10_000, seed=5, play="expert")
    assert fought.recommendation == "pass" and fought.margin().low > 3.0  # measured: 7.3 [6.6, 8.1] stakes


def test_cli_scores_json_has_a_game_block_and_bad_scores_end_at_the_door():
    args = ["ask", "HA HK S6 C7 D9", "--trump", "H8", "--players", "5", "--seat", "2"]
    result = CliRunner().invoke(main, [*args, "--scores", "20,20,20,20,20", "--samples", "500", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["recommendation"] == data["game"]["per_hand_recommendation"]
    assert set(data["game"]["actions"]) >= {"pass", "play", "rumba"} and "positive = received" in data["game"]["sign"]
    for bad, words in [("20,20,20", "3 scores for 5 players"), ("20,x,20,20,20", "'x' is not a whole number"),
                       ("20,20,0,20,20", "at 0 or below it is over")]:
        result = CliRunner().invoke(main, [*args, "--scores", bad])
        assert result.exit_code == 2 and words in result.output and len(result.output.strip().splitlines()) == 1
    result = CliRunner().invoke(main, [*args, "--passes", "0,0,0,0,0"])
    assert result.exit_code == 2 and "--passes goes with --scores" in result.output
