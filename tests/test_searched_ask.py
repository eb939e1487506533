"""``ask --play pimc`` (issue 17): every card of a simulated hand by search (engine/searched_play.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from rumbaodds.answer import simulation
from rumbaodds.cards import cards_of, parse_card, parse_hand
from rumbaodds.cli import main
from rumbaodds.cli.render import progress_bar
from rumbaodds.engine import hand as kernel
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled_weights import WEIGHTS
from rumbaodds.engine.knock import knock_batch, knock_batch_searched
from rumbaodds.engine.policy import NSCORE
from rumbaodds.engine.rng import deal_batch
from rumbaodds.engine.searched_play import SEARCHED, call_probabilities, searched_tricks, utilities
from rumbaodds.opponents.call_belief import call_belief
from rumbaodds.opponents.resolve import opponent_policy
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


def believed(rules, n, caller, knocked, opponents="equilibrium"):
    """What the defenders of a call by ``caller`` (everybody before him said play) believe, by the Python side
    (rumbaodds/opponents/call_belief.py); a knock: every hand (blind)."""
    probs, values, top = call_belief(rules, n, max(caller, 0), opponents, earlier_players=max(caller, 0))
    return (np.ones_like(probs) if knocked else probs), values, top


@pytest.mark.parametrize("name,caller,knocked", [("swiss", 1, False), ("swiss", -1, False), ("flemish", 0, False),
                                                 ("swiss", 3, True)])
def test_a_searched_hand_is_pimc_play_deal_on_the_deals_stream(name, caller, knocked):
    """play_step with the searched play plays the active seats as pimc.play_deal with every seat PIMC, the worlds
    from the deal's stream and, in a Rumba, the defenders believing the call as the opponents' policy makes it in
    the caller's context (a knock: blind, and the knocking dealer took the turned card, his best here, which
    everybody then knows he holds): the same tricks, and its counters are play_deal's."""
    rules = RULES[name]
    n = 4
    hands, trump_cards, _ = deal_batch(rules.deck_array(), n, rules.hand_size, 21, 0, 8)
    trumps = trump_cards >> 4
    rp = kernel.rules_array(rules)
    pol = opponent_policy("equilibrium", rules, n).as_tuple()
    util_caller, util_normal = pimc.utility_tables(rules)
    seats = np.full(n, pimc.SEAT_PIMC, dtype=np.int64)
    belief = believed(rules, n, caller, knocked)
    for i in range(hands.shape[0]):
        words = np.full(n, kernel.W_PLAY, dtype=np.int64)
        if caller >= 0:
            words[caller] = kernel.W_RUMBA
        in_play = np.zeros(n, dtype=np.uint64)
        tricks = np.zeros(n, dtype=np.int64)
        cards = np.zeros(kernel.STATS_AT + 2, dtype=np.int64)
        state = np.uint64(1000 + i)
        taken = max(cards_of(int(hands[i, caller])), key=lambda c: (c >> 4 == trumps[i], c & 15)) if knocked else -1
        public = np.uint64(1 << taken) if taken >= 0 else np.uint64(0)
        m = kernel.play_step(hands[i].copy(), n, words, caller, int(trumps[i]), np.uint64(0), rp, SEARCHED,
                             np.uint64(rules.deck_mask), in_play, tricks, state, cards, pol, knocked, False, taken)
        assert m == n
        lead = kernel.lead_index(caller, n - 1, rp)
        want = np.zeros(n, dtype=np.int64)
        stats = np.zeros(2, dtype=np.int64)
        pimc.play_deal(hands[i].copy(), lead, int(trumps[i]), rules.follow_code, np.uint64(rules.deck_mask), -1,
                       caller, seats, util_caller, util_normal, rules.rumba_min_tricks, WEIGHTS, pimc.DEFAULT_WORLDS,
                       state, np.uint64(0), want, pimc.new_tables(), stats, None, belief, public)
        assert (tricks[:n] == want).all(), i
        assert (cards[kernel.STATS_AT:] == stats).all() and stats[0] > 0


@pytest.mark.parametrize("rules,caller,before,opponents", [
    (SWISS, 0, (), "equilibrium"), (SWISS, 2, (1,), "equilibrium"), (SWISS, 4, (0, 1, 3), "equilibrium"),
    (FLEMISH, 3, (0, 1, 2), "equilibrium"), (SWISS, 3, (0, 2), "bold"),
    (SWISS.replace(speaking_order="rumba-first"), 2, (0, 1), "default")])  # (no strategy is solved for it)
def test_the_kernels_belief_of_a_call_is_the_policys_in_his_context(rules, caller, before, opponents):
    """call_probabilities reads the caller's P(Rumba) by hand score in the context he spoke in (how many earlier
    seats said play; rumba-first: round one) as call_belief does from the policy; a knock believes every hand.
    Controls: the context of no earlier players differs where some played, and the belief is not blind."""
    n = 5
    rp = kernel.rules_array(rules)
    pol = opponent_policy(opponents, rules, n).as_tuple()
    words = np.full(n, kernel.W_PASS, dtype=np.int64)
    words[list(before)] = kernel.W_PLAY
    words[caller] = kernel.W_RUMBA
    got = np.empty(NSCORE)
    call_probabilities(pol, words, caller, False, False, rp, got)
    want = call_belief(rules, n, caller, opponents, earlier_players=len(before))[0]
    assert np.array_equal(got, want)
    assert got.min() < got.max()  # some hands call less often than others: the call says something
    if before and rules.speaking_order != "rumba-first" and opponents == "equilibrium":
        assert not np.array_equal(got, call_belief(rules, n, caller, opponents, earlier_players=0)[0])
    call_probabilities(pol, words, caller, True, False, rp, got)
    assert (got == 1.0).all()


def test_searched_tricks_is_compiled_code_only():
    with pytest.raises(NotImplementedError):
        searched_tricks(None, 0, 0, 0, 0, -1, 0, 0, None, 3, None, 0, None, 0, None, None, -1, False, False, -1)


def test_the_searched_batch_repeats_and_counts_its_worlds():
    situation = simulation.make_situation(parse_hand("HA HK S6 C7 D9"), parse_card("H8"), 4, 1)
    job = simulation.Job.of(situation, None, simulation.SEARCHED)
    first = job.batch(7, 0, 40)
    counted = job.searched.copy()
    again = simulation.Job.of(job.situation, None, simulation.SEARCHED).batch(7, 0, 40)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    decisions, worlds = counted
    assert decisions > 0 and 0 < worlds <= pimc.DEFAULT_WORLDS * decisions
    job.batch(7, 40, 10)
    assert (job.searched > counted).all()  # every batch adds to the counters
    # the control: the fast play on the same deals is another card play, and counts nothing
    fast = simulation.Job.of(job.situation, None, "distilled")
    assert not np.array_equal(fast.batch(7, 0, 40)[0], first[0]) and not fast.searched.any()


def test_ask_by_search_says_its_worlds_and_repeats_with_its_seed():
    args = [*ASK, "--play", "pimc", "--samples", "500", "--seed", "3"]
    runner = CliRunner()
    one = runner.invoke(main, [*args, "--json"])
    assert one.exit_code == 0, one.output
    doc = json.loads(one.stdout)
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


def test_a_searched_knock_chooses_by_the_fast_play_and_plays_by_search():
    """knock_batch_searched: the dealer's inner deals (which choice he takes when he does not knock) are the fast
    play's, so his choices are exactly knock_batch's with that play; the hands are played by search (a control:
    the knocked hands' tricks differ from the fast play's somewhere), and the counters count its decisions."""
    rules = SWISS
    n, trump_card = 4, parse_card("H8")
    unknown = np.array([c for c in rules.deck if c != trump_card], dtype=np.int64)
    args = (np.uint64(rules.deck_mask), unknown, trump_card, n, kernel.rules_array(rules),
            opponent_policy("equilibrium", rules, n).as_tuple())
    fast = simulation.POLICIES["distilled"]
    searched, counters = knock_batch_searched(*args, fast, np.uint64(5), 0, 24, 12)
    plain = knock_batch(*args, fast, np.uint64(5), 0, 24, 12)
    assert (searched[:, 1, 3] == plain[:, 1, 3]).all()  # the same choice on every deal
    assert (searched[:, :, 1] != plain[:, :, 1]).any()  # but not the same play
    assert counters[0] > 0 and 0 < counters[1] <= 32 * counters[0]
    again, _ = knock_batch_searched(*args, fast, np.uint64(5), 0, 24, 12)
    assert (again == searched).all()


def test_knock_by_search_says_its_worlds_and_repeats_with_its_seed():
    args = ["knock", "--trump", "H8", "--players", "4", "--play", "pimc", "--samples", "30", "--inner-samples",
            "20", "--seed", "4"]
    runner = CliRunner()
    one = runner.invoke(main, [*args, "--json"])
    assert one.exit_code == 0, one.output
    doc = json.loads(one.stdout)
    assert doc["play"] == "pimc" and doc["samples"] == 30
    search = doc["source"]["search"]
    assert search["worlds_asked"] == 32 and search["decisions"] > 0 and search["inner_play"] == "distilled"
    assert runner.invoke(main, [*args, "--json"]).output == one.output
    human = runner.invoke(main, args)
    assert human.exit_code == 0 and "inner deals by distilled" in " ".join(human.output.split()), human.output


def test_the_progress_bar_draws_before_it_knows_the_planned_deals():
    """The first frame has no planned deals yet (None): it must draw, not fail (it failed on every terminal)."""
    with progress_bar(True, "simulating") as update:
        update(250, 16_000)
        update(500, None)
