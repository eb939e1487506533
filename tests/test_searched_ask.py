"""``ask --play pimc`` (issue 17): every card of a simulated hand by search (engine/searched_play.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from rumbaodds import analysis
from rumbaodds.cards import parse_card, parse_hand
from rumbaodds.cli import main
from rumbaodds.cli.render import progress_bar
from rumbaodds.engine import hand as kernel
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled_weights import WEIGHTS
from rumbaodds.engine.rng import deal_batch
from rumbaodds.engine.searched_play import POLICY_PIMC, searched_tricks, utilities
from rumbaodds.rules import FLEMISH, SWISS

RULES = {"swiss": SWISS, "flemish": FLEMISH}
ASK = ["ask", "HA HK S6 C7 D9", "--trump", "H8", "--players", "5", "--seat", "2"]


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_the_utilities_are_the_score_sheets(name):
    """The kernel reads the utilities from the rules array as pimc.utility_tables does from the rule set; a rule
    field changed moves both (the control)."""
    rules = RULES[name]
    for r in (rules, rules.replace(rumba_fail_score=rules.rumba_fail_score + 3)):
        got = utilities(kernel.rules_array(r))
        want = pimc.utility_tables(r)
        assert all((g == w).all() for g, w in zip(got, want, strict=True))
    assert (utilities(kernel.rules_array(rules))[0] != pimc.utility_tables(
        rules.replace(rumba_fail_score=rules.rumba_fail_score + 3))[0]).any()


@pytest.mark.parametrize("name,caller", [("swiss", 1), ("swiss", -1), ("flemish", 0)])
def test_a_searched_hand_is_pimc_play_deal_on_the_deals_stream(name, caller):
    """play_step with the searched play plays the active seats as pimc.play_deal with every seat PIMC, the worlds
    from the deal's stream: the same tricks, and its counters are play_deal's."""
    rules = RULES[name]
    n = 4
    hands, trump_cards, _ = deal_batch(rules.deck_array(), n, rules.hand_size, 21, 0, 8)
    trumps = trump_cards >> 4
    rp = kernel.rules_array(rules)
    util_caller, util_normal = pimc.utility_tables(rules)
    seats = np.full(n, pimc.SEAT_PIMC, dtype=np.int64)
    for i in range(hands.shape[0]):
        words = np.full(n, kernel.W_PLAY, dtype=np.int64)
        if caller >= 0:
            words[caller] = kernel.W_RUMBA
        in_play = np.zeros(n, dtype=np.uint64)
        tricks = np.zeros(n, dtype=np.int64)
        cards = np.zeros(kernel.STATS_AT + 2, dtype=np.int64)
        state = np.uint64(1000 + i)
        m = kernel.play_step(hands[i].copy(), n, words, caller, int(trumps[i]), np.uint64(0), rp, POLICY_PIMC,
                             np.uint64(rules.deck_mask), in_play, tricks, state, cards)
        assert m == n
        lead = kernel.lead_index(caller, n - 1, rp)
        want = np.zeros(n, dtype=np.int64)
        stats = np.zeros(2, dtype=np.int64)
        pimc.play_deal(hands[i].copy(), lead, int(trumps[i]), rules.follow_code, np.uint64(rules.deck_mask), -1,
                       caller, seats, util_caller, util_normal, rules.rumba_min_tricks, WEIGHTS, pimc.DEFAULT_WORLDS,
                       state, np.uint64(0), want, pimc.new_tables(), stats)
        assert (tricks[:n] == want).all(), i
        assert (cards[kernel.STATS_AT:] == stats).all() and stats[0] > 0


def test_searched_tricks_is_compiled_code_only():
    with pytest.raises(NotImplementedError):
        searched_tricks(None, 0, 0, 0, 0, -1, 0, 0, None, 3, None, 0, None, 0)


def test_the_searched_batch_repeats_and_counts_its_worlds():
    situation = analysis.make_situation(parse_hand("HA HK S6 C7 D9"), parse_card("H8"), 4, 1)
    job = analysis.Job.of(situation, None, analysis.SEARCHED)
    first = job.batch(7, 0, 40)
    counted = job.searched.copy()
    again = analysis.Job.of(job.situation, None, analysis.SEARCHED).batch(7, 0, 40)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    decisions, worlds = counted
    assert decisions > 0 and 0 < worlds <= pimc.DEFAULT_WORLDS * decisions
    job.batch(7, 40, 10)
    assert (job.searched > counted).all()  # every batch adds to the counters
    # the control: the fast play on the same deals is another card play, and counts nothing
    fast = analysis.Job.of(job.situation, None, "distilled")
    assert not np.array_equal(fast.batch(7, 0, 40)[0], first[0]) and not fast.searched.any()


def test_ask_by_search_says_its_worlds_and_repeats_with_its_seed():
    args = [*ASK, "--play", "pimc", "--samples", "500", "--seed", "3"]
    runner = CliRunner()
    one = runner.invoke(main, [*args, "--json"])
    assert one.exit_code == 0, one.output
    doc = json.loads(one.output)
    search = doc["source"]["search"]
    assert search["worlds_asked"] == 32 and 0 < search["worlds_per_decision"] <= 32 and search["decisions"] > 0
    assert runner.invoke(main, [*args, "--json"]).output == one.output
    human = runner.invoke(main, args)
    assert human.exit_code == 0 and "worlds each (32 asked)" in " ".join(human.output.split())
    assert "card play pimc" in " ".join(human.output.split())


@pytest.mark.parametrize("extra,words", [
    (["--scores", "20,14,7,3,18"], "--scores"),
    (["--device", "gpu"], "GPU"),
])
def test_ask_by_search_refuses_what_it_cannot_do(extra, words):
    result = CliRunner().invoke(main, [*ASK, "--play", "pimc", *extra])
    assert result.exit_code == 2 and words.lower() in result.output.lower(), result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_the_game_value_has_no_search():
    from rumbaodds.match.ask import ask_game
    from rumbaodds.rules import RulesError

    with pytest.raises(RulesError, match="pimc"):
        ask_game("HA HK S6 C7 D9", "H8", 5, 2, (20, 14, 7, 3, 18), play="pimc")


def test_knock_has_no_search():
    result = CliRunner().invoke(main, ["knock", "--trump", "H8", "--players", "4", "--play", "pimc"])
    assert result.exit_code == 2 and "pimc" in result.output


def test_the_progress_bar_draws_before_it_knows_the_planned_deals():
    """The first frame has no planned deals yet (None): it must draw, not fail (it failed on every terminal)."""
    with progress_bar(True, "simulating") as update:
        update(250, 16_000)
        update(500, None)
