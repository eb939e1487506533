"""Solved opponents (issue 8): the abstraction, the solver's kernel against its twin, the exact truth on a tiny
rule set, resuming a solve, the strategy files, and ``--opponents equilibrium`` end to end."""

from __future__ import annotations

import numpy as np
import pytest

from rumbaodds.answer import simulation
from rumbaodds.engine.play import POLICY_EXPERT
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import FLEMISH, SWISS, RulesError, RuleSet
from rumbaodds.strategy import solver as S
from rumbaodds.strategy import store
from rumbaodds.strategy.abstraction import fit_abstraction
from rumbaodds.strategy.exact import exact_gains
from rumbaodds.strategy.game import (
    A_PASS,
    A_PLAY,
    I_CTX,
    I_KNOCK_DONE,
    I_KNOCK_SCORE,
    I_REACHED,
    I_SCORE,
    I_THROWABLE,
    I_VOID,
    traverse_batch,
)
from rumbaodds.strategy.run import solve
from rumbaodds.strategy.solver import DEFAULT_POLICY  # the card play the solver plays (cardplay.DEFAULT_PLAY)
from rumbaodds.strategy.tables import Strategy, action_count, to_policy
from rumbaodds.strategy.twin_game import twin_traverse

# 3 suits x 3 ranks, 2-card hands, 3 players: every deal can be visited (22,680 of them); a knock and a throw-in
TINY = RuleSet(name="tiny-eq", suits="CDH", ranks="QKA", hand_size=2, min_players=2, max_players=3, exchange_limit=0,
               rumba_min_tricks=2, throw_in_below="K", sit_out_limit=0)


@pytest.fixture(scope="module")
def tiny_abstraction():
    return fit_abstraction(TINY, players=3, samples=40_000)


@pytest.fixture(scope="module")
def tiny_solved(tiny_abstraction):
    state = S.SolveState(TINY, 3, tiny_abstraction, seed=3, samples=12_000)
    for _ in range(70):
        S.iterate(state)
    return S.average_strategy(state)


_UNIFORM = {}


def uniform_gains(abstraction):
    if "gains" not in _UNIFORM:
        uniform = Strategy.uniform(TINY, 3, abstraction.buckets)
        _UNIFORM["gains"] = exact_gains(TINY, 3, abstraction, uniform, DEFAULT_POLICY)
    return _UNIFORM["gains"]


# -- the abstraction ------------------------------------------------------------------------------------
def test_strength_index_beats_hand_points_and_has_enough_buckets():
    ab = fit_abstraction(SWISS, samples=120_000, seed=2)
    assert ab.buckets >= 16
    values = ab.value_array()
    assert values.min() >= 0 and values.max() <= 12
    assert np.sort(values.reshape(-1))[-5:].sum() < 64  # five cards stay inside the score range
    assert values[1, 0] > values[1, 4] > 0  # the ace of trump above a low trump, both worth something
    assert ab.r2 > ab.r2_points  # it predicts a Rumba caller's tricks better than keep-value points
    assert list(ab.bucket_of_score) == sorted(ab.bucket_of_score)


# -- the solver's kernel against its twin -----------------------------------------------------------------
@pytest.mark.parametrize("rules, players, seat", [(SWISS, 4, 3), (SWISS, 5, 1), (TINY, 3, 2),
                                                  (SWISS.replace(name="f-ish", passer_cards="put-away"), 3, 0)])
def test_traverse_kernel_equals_twin(rules, players, seat, tiny_abstraction):
    ab = tiny_abstraction if rules is TINY else fit_abstraction(rules, players=players, samples=20_000)
    strategy = Strategy.uniform(rules, players, ab.buckets)
    strategy.knock[:] = np.linspace(0, 1, 16)
    pol = to_policy(strategy, ab)
    count = 40
    info, q = traverse_batch(rules.deck_array(), players, np.full(count, seat, dtype=np.int64),
                             simulation.kernel.rules_array(rules), pol.as_tuple(), strategy.knock, POLICY_EXPERT,
                             np.uint64(17), 100, action_count(rules))
    for i in range(count):
        t_info, t_q = twin_traverse(rules, players, seat, pol, strategy.knock, "expert", 17, 100 + i)
        got = {"reached": info[i, I_REACHED], "ctx": info[i, I_CTX], "score": info[i, I_SCORE],
               "throwable": info[i, I_THROWABLE], "knock_score": info[i, I_KNOCK_SCORE],
               "knock_done": info[i, I_KNOCK_DONE], "void": info[i, I_VOID]}
        want = {k: v for k, v in t_info.items() if k != "rank"}
        if not want["reached"]:
            want.update(ctx=0, score=0, throwable=0)
        assert got == want, f"sample {i}"
        assert list(q[i]) == t_q, f"sample {i}"


@pytest.mark.parametrize("rules, players, seat", [(SWISS, 4, 1), (SWISS, 5, 3), (FLEMISH, 2, 0), (FLEMISH, 3, 2)])
def test_traverse_full_equals_twin(rules, players, seat):
    """Every seat's outcome of every action (the score-aware solver's input, issue 38) equals the twin's hand played
    to the end by every seat, deal by deal; the traverser's own change is ``traverse_batch``'s score."""
    from rumbaodds.strategy.game import traverse_full

    ab = fit_abstraction(rules, players=players, samples=20_000)
    strategy = Strategy.uniform(rules, players, ab.buckets)
    strategy.knock[:] = np.linspace(0, 1, 16) if rules.knock else 0.0
    pol = to_policy(strategy, ab)
    count = 30
    args = (rules.deck_array(), players, np.full(count, seat, dtype=np.int64), simulation.kernel.rules_array(rules),
            pol.as_tuple(), strategy.knock, POLICY_EXPERT, np.uint64(23), 50, action_count(rules))
    info, q, kinds, changes, passed = traverse_full(*args)
    _info, q_hand = traverse_batch(*args)
    np.testing.assert_array_equal(q, q_hand)
    for i in range(count):
        every = {}
        _t_info, t_q = twin_traverse(rules, players, seat, pol, strategy.knock, "expert", 23, 50 + i, every)
        assert list(q[i]) == t_q, f"sample {i}"
        for a in range(q.shape[1]):
            if a in every:
                kind, ch, ps = every[a]
                assert (int(kinds[i, a]), changes[i, a].tolist(), passed[i, a].tolist()) == (kind, list(ch),
                                                                                            list(ps)), (i, a)
            else:
                assert kinds[i, a] == -1, (i, a)


# -- the truth on a tiny rule set -----------------------------------------------------------------------
@pytest.mark.statistical
def test_solved_tiny_game_leaves_no_seat_a_gain_above_a_hundredth(tiny_abstraction, tiny_solved):
    gains = exact_gains(TINY, 3, tiny_abstraction, tiny_solved, DEFAULT_POLICY)
    assert (gains < 0.01).all(), gains
    assert (gains > -1e-9).all(), gains  # a best response never does worse than the strategy itself


@pytest.mark.statistical
def test_exact_gain_has_power(tiny_abstraction, tiny_solved):
    """Negative controls: the uniform strategy, and the solution with seat 0's pass and play swapped."""
    assert (uniform_gains(tiny_abstraction) > 0.3).all()
    spoiled = Strategy(tiny_solved.word.copy(), tiny_solved.throw.copy(), tiny_solved.knock.copy())
    spoiled.word[0, 0, :, [A_PASS, A_PLAY]] = spoiled.word[0, 0, :, [A_PLAY, A_PASS]]
    gains = exact_gains(TINY, 3, tiny_abstraction, spoiled, DEFAULT_POLICY)
    assert gains[0] > 0.1, gains  # the spoiled seat is far from a best response (the others may now gain too)


@pytest.mark.statistical
def test_sampled_exploitability_agrees_with_the_exact_gain(tiny_abstraction, tiny_solved):
    """The solver's measure (chosen on half the deals, scored on the other half) is close to the truth."""
    uniform = Strategy.uniform(TINY, 3, tiny_abstraction.buckets)
    exact = uniform_gains(tiny_abstraction)
    sampled = S.exploitability(TINY, 3, tiny_abstraction, uniform, 60_000, seed=8)
    for seat in range(3):
        est = sampled[seat]
        assert est.low - 0.02 <= exact[seat] <= est.high + 0.02, (seat, exact[seat], est)


def test_the_best_response_never_looks_at_the_deal_it_is_scored_on(tiny_abstraction):
    """With the jack of trump turned a pass is forbidden (§5.2, flemish) on some deals of an information set whose
    best response is to pass. There the response must be his next best action by the choosing half's means (play),
    not the best outcome of that very deal (Rumba): that clairvoyant fallback inflated the measured flemish
    exploitability by about 0.06 points per hand."""
    from rumbaodds.engine import policy as P
    from rumbaodds.strategy.game import I_CTX, I_REACHED, I_SCORE, I_SIZE

    info = np.zeros((3, I_SIZE), dtype=np.int64)
    info[:, I_REACHED] = 1
    info[:, I_CTX] = 0
    info[:, I_SCORE] = 0  # one information set: seat 0, context 0, the lowest bucket
    nan = np.nan
    assert action_count(TINY) == 4  # columns: pass, Rumba, play, throw-in
    q = np.array([[0.0, -4.0, 3.0, nan],   # a pass is allowed: he passes
                  [nan, -4.0, 3.0, nan],   # forbidden: play (0 by the means) before Rumba (2), whatever this deal did
                  [nan, nan, nan, nan]])   # nothing allowed here at all: scores 0
    samples = S.Samples(np.zeros(3, dtype=np.int64), info, q)
    means = np.full((3, P.NCTX, tiny_abstraction.buckets, 3), np.inf)
    bucket = tiny_abstraction.bucket_array()[0]
    means[0, 0, bucket] = [-1.0, 2.0, 0.0]  # pass, Rumba, play
    throw_best = np.zeros((3, P.NCTX, tiny_abstraction.buckets), dtype=bool)
    response = S._respond(samples, tiny_abstraction, means, throw_best)
    assert response[0] == 0.0 and response[1] == 3.0, response  # the clairvoyant answer for row 1 was -4


# -- solving, resuming, files ------------------------------------------------------------------------------
def test_solve_resumes_and_gives_the_same_strategy(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path / "cache"))
    kw = dict(samples=3_000, seed=4, eval_samples=4_000, check_every=2, styles=("bold",))
    straight = solve(TINY, 3, iterations=4, out=tmp_path / "a.npz", **kw)
    solve(TINY, 3, iterations=2, out=tmp_path / "b.npz", **kw)  # a solve stopped halfway...
    resumed = solve(TINY, 3, iterations=4, out=tmp_path / "b.npz", **kw)  # ...and run again
    assert resumed.meta["iterations"] == 4
    np.testing.assert_array_equal(resumed.strategy.word, straight.strategy.word)
    np.testing.assert_array_equal(resumed.strategy.knock, straight.strategy.knock)
    loaded = store.load(tmp_path / "b.npz")
    np.testing.assert_allclose(loaded.strategy.word, resumed.strategy.word, atol=1e-6)
    assert loaded.rules == TINY and loaded.players == 3
    assert set(loaded.exploitability) == {"0", "1", "2", "total"}
    assert "bold" in loaded.meta["exploit_styles"]
    with pytest.raises(RulesError, match="other settings"):
        solve(TINY, 3, iterations=5, out=tmp_path / "b.npz", **{**kw, "samples": 2_000})


def test_a_solve_never_resumes_a_checkpoint_of_other_numbers(tmp_path, monkeypatch):
    """After a numbers-version bump (new card play) a solve starts over: a finished checkpoint of the old version,
    resumed, would give the old strategy back re-measured. Control: the same version resumes it."""
    from rumbaodds import engine
    from rumbaodds.strategy import run

    iterations = []
    monkeypatch.setattr(run, "iterate", lambda state: iterations.append(state.iteration) or S.iterate(state))
    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path / "cache"))
    kw = dict(samples=2_000, seed=5, eval_samples=2_000, check_every=2, styles=("bold",))
    solve(TINY, 3, iterations=2, out=tmp_path / "s.npz", **kw)
    old = run.checkpoint_path(tmp_path / "s.npz")
    assert old.exists() and engine.NUMBERS_TAG in old.name and iterations == [0, 1]
    solve(TINY, 3, iterations=2, out=tmp_path / "s.npz", **kw)
    assert iterations == [0, 1]  # control: the same numbers resume the finished solve, no iteration
    monkeypatch.setattr(engine, "NUMBERS_VERSION", engine.NUMBERS_VERSION + 1)
    monkeypatch.setattr(engine, "NUMBERS_TAG", f"n{engine.NUMBERS_VERSION}")
    assert run.checkpoint_path(tmp_path / "s.npz") != old
    solve(TINY, 3, iterations=2, out=tmp_path / "s.npz", **kw)
    assert iterations == [0, 1, 0, 1]  # solved again from iteration 0
    assert run.checkpoint_path(tmp_path / "s.npz").exists() and old.exists()


def test_house_rule_without_a_solution_says_how_to_solve_it(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path))
    house = SWISS.replace(name="house", sit_out_limit=4)
    with pytest.raises(RulesError, match="rumbaodds strategy solve --rules FILE.toml --players 4"):
        opponent_policy("equilibrium", house, 4)
    with pytest.raises(RulesError, match="one-round"):
        solve(SWISS.replace(name="rf", speaking_order="rumba-first"), 4, iterations=1)


# -- the shipped strategies -----------------------------------------------------------------------------------
SHIPPED = [("swiss", n) for n in range(3, 8)] + [("flemish", n) for n in range(2, 7)]


@pytest.mark.parametrize("rules, players", SHIPPED)
def test_every_preset_and_player_count_ships_a_solved_strategy(rules, players):
    from rumbaodds.rules import get_rules

    solved = store.find(get_rules(rules), players)
    assert solved.path.parent == store.SHIPPED
    for seat in range(players):
        assert solved.exploitability[str(seat)]["high"] < store.exploitability_target(solved.rules, players), \
            (seat, solved.exploitability[str(seat)])
    assert solved.abstraction.buckets >= 16
    assert np.allclose(solved.strategy.word.sum(axis=-1)[:, :7], 1.0, atol=1e-5)


def test_ask_against_the_equilibrium_and_a_mixed_table():
    eq = simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, opponents="equilibrium", samples=4_000, seed=1)
    assert eq.recommendation == "rumba" and eq.opponents.meta["kind"] == "strategy"
    mixed = simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, opponents="equilibrium,3=bold,4=cautious", samples=4_000,
                         seed=1)
    assert mixed.opponents.meta["seats"] == {"3": "bold", "4": "cautious"}
    assert mixed.options["rumba"].ev.mean != eq.options["rumba"].ev.mean


def test_opponents_left_out_are_the_equilibrium_or_else_the_default_style_said_so(tmp_path, monkeypatch):
    """Issue 8 item 5: the equilibrium is the default model; a house rule without a solved strategy falls back to
    the default style, and the answer says it did."""
    from click.testing import CliRunner

    from rumbaodds.cli import main
    from rumbaodds.opponents.resolve import default_opponents, describe

    monkeypatch.setenv("RUMBAODDS_STRATEGIES", str(tmp_path / "cache"))
    plain = simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, samples=2_000, seed=4)
    named = simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, opponents="equilibrium", samples=2_000, seed=4)
    assert plain.opponents.meta["kind"] == "strategy" and plain.opponents == named.opponents
    assert plain.options["rumba"].ev == named.options["rumba"].ev
    house = tmp_path / "house.toml"
    house.write_text('base = "swiss"\nsit_out_limit = 4\n')
    from rumbaodds.rules import get_rules

    rules = get_rules(str(house))
    assert default_opponents(rules, 5)[0] == "default"
    fallback = simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, rules=str(house), samples=2_000, seed=4)
    assert fallback.opponents.meta["kind"] == "thresholds" and "no solved strategy" in describe(fallback.opponents)
    with pytest.raises(RulesError, match="strategy solve"):  # named explicitly, it is not silently replaced
        simulation.ask("HA HK HQ S6 C7", "H9", 5, 2, rules=str(house), opponents="equilibrium", samples=100)
    out = CliRunner().invoke(main, ["ask", "HA HK HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2",
                                    "--samples", "2000", "--seed", "4", "--rules", str(house)])
    assert out.exit_code == 0 and "no solved strategy" in " ".join(out.output.split())
    out = CliRunner().invoke(main, ["ask", "HA HK HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2",
                                    "--samples", "2000", "--seed", "4", "--seat-model", "3=bold"])
    assert out.exit_code == 0 and "seat 3 bold" in " ".join(out.output.split()), out.output
