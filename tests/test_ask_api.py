"""The Python API of the hand analyzer: ``simulation.ask``, ``simulation.knock`` and their results.

Which choices each situation offers (RULES.md §4, §5; docs/SIMULATION.md step
3), the fields of the JSON form, reproducibility, the precision mode, the
DataFrame, the sit-out penalty of the pass (swiss rule 17), and bad input:
every mistake raises CardError / RulesError / ModelError naming the problem.
"""

from __future__ import annotations

import json
import math

import pytest

from rumbaodds.answer import simulation
from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.cards import CardError, parse_hand
from rumbaodds.opponents.models import ModelError
from rumbaodds.rules import RulesError

HAND = "HA HK HQ S6 C7"
SMALL = 2000


def ask(hand=HAND, trump="H9", players=5, seat=2, **kw):
    kw.setdefault("samples", SMALL)
    kw.setdefault("seed", 11)
    return simulation.ask(hand, trump, players, seat, **kw)


# =============================================================================
# which choices are open
# =============================================================================
SWISS_PLAYS = ["play0", "play1", "play2", "play3", "play4"]
FLEMISH_PLAYS = ["play0", "play1", "play2", "play3"]

CHOICE_CASES = [
    # (id, kwargs for ask, expected choices)
    ("swiss", dict(), ["pass", *SWISS_PLAYS, "rumba"]),
    ("swiss-all-below-ten", dict(hand="H7 H8 S6 C7 D9", trump="DA"), ["pass", *SWISS_PLAYS, "rumba", "throw-in"]),
    ("swiss-one-ten", dict(hand="HT H8 S6 C7 D9", trump="DA"), ["pass", *SWISS_PLAYS, "rumba"]),
    ("swiss-dealer", dict(seat=4), ["pass", *SWISS_PLAYS, "rumba"]),
    ("swiss-knocked", dict(dealer_knocked=True), ["pass", "play0"]),
    ("swiss-knocked-low", dict(hand="H7 H8 S6 C7 D9", trump="DA", dealer_knocked=True), ["pass", "play0"]),
    ("swiss-after-rumba", dict(hand="H7 H8 S6 C7 DT", trump="DA", before="pass,rumba", opponents="bold"),
     ["pass", "play0"]),
    ("swiss-rumba-first", dict(rules=None), ["pass", *SWISS_PLAYS, "rumba", "no-rumba"]),
    ("flemish", dict(rules="flemish", players=4, trump="D5"), ["pass", *FLEMISH_PLAYS, "rumba"]),
    ("flemish-low-no-throw-in", dict(rules="flemish", players=4, hand="H2 H3 S4 C5 D6", trump="DA"),
     ["pass", *FLEMISH_PLAYS, "rumba"]),
    ("flemish-jack-turned", dict(rules="flemish", players=4, trump="DJ"), [*FLEMISH_PLAYS, "rumba"]),
    ("flemish-jack-after-rumba", dict(rules="flemish", players=4, hand="S3 S4 C5 C7 H9", trump="DJ",
                                      before="play,rumba", opponents="bold"), ["play0"]),
]


def _kwargs(kw):
    kw = dict(kw)
    if "rules" in kw and kw["rules"] is None:
        from rumbaodds.rules import SWISS

        kw["rules"] = SWISS.replace(name="swiss-rf", speaking_order="rumba-first")
    return kw


@pytest.mark.parametrize("kw, expected", [c[1:] for c in CHOICE_CASES], ids=[c[0] for c in CHOICE_CASES])
def test_every_open_choice_is_reported(kw, expected):
    result = ask(**_kwargs(kw))
    assert list(result.options) == expected
    assert result.situation.choices() == [c for c in expected if c != "no-rumba"]
    d = result.to_dict()
    assert set(d["play_options"]) == {c for c in expected if c.startswith("play")}
    kinds = {"play" if c.startswith("play") else c for c in expected}
    if "no-rumba" in expected:  # rumba-first: pass and play are the parts of the round-two plan
        kinds -= {"pass", "play"}
    assert set(d["actions"]) == kinds
    for name, option in result.options.items():
        assert option.ev.samples == result.samples, name
        assert option.ev.low <= option.ev.mean <= option.ev.high, name


def test_flemish_after_rumba_the_hero_must_play():
    result = ask(hand="S3 S4 C5 C7 H9", trump="D5", players=4, seat=2, rules="flemish", before="pass,rumba",
                 opponents="bold")
    assert list(result.options) == ["play0"]


# =============================================================================
# JSON fields, actions, recommendation, DataFrame
# =============================================================================
MIXED = "HA HT SK S6 C7"  # a Rumba that sometimes fails


def test_json_fields():
    result = ask(hand=MIXED, seed=5)
    d = json.loads(json.dumps(result.to_dict()))
    assert d["samples"] == SMALL
    assert d["seed"] == 5
    assert d["rules"] == "swiss" and d["players"] == 5 and d["seat"] == 2
    assert d["hand"] == MIXED.split() and d["trump"] == "H9"
    assert d["passes_in_a_row"] == 0 and d["dealer_knocked"] is False and d["before"] == ["-", "-"]
    assert d["opponents"] == "equilibrium" and d["play"] == DEFAULT_PLAY and d["tries_per_sample"] >= 1
    assert d["recommendation"] in d["actions"]
    assert set(d["actions"]) == {"pass", "play", "rumba"}
    for name, action in d["actions"].items():
        low, high = action["ev_ci"]
        assert low <= action["ev"] <= high, name
    rumba = d["actions"]["rumba"]
    low, high = rumba["p_success_ci"]
    assert 0 <= low <= rumba["p_success"] <= high <= 1
    assert 0 < rumba["p_success"] < 1
    shares = [rumba[k] for k in ("p_made", "p_lost", "p_uncontested", "p_void", "p_not_allowed")]
    assert all(0 <= p <= 1 for p in shares) and math.isclose(sum(shares), 1.0)
    played = rumba["p_made"] + rumba["p_lost"] + rumba["p_uncontested"]
    assert rumba["p_success"] == pytest.approx((rumba["p_made"] + rumba["p_uncontested"]) / played)
    assert "over the Rumbas that were played" in rumba["p_success_means"]
    assert d["effective_samples"] == SMALL and d["notes"] == []
    assert len(rumba["tricks"]) == 6
    assert math.isclose(sum(rumba["tricks"]), 1.0)
    assert all(0 <= p <= 1 for p in rumba["tricks"])
    if result.exchange is not None and not result.exchange.resolved:  # never names an exchange it has not resolved
        assert d["actions"]["play"]["discard"] is None
    else:
        assert d["actions"]["play"]["discard"] == d["play_options"][_best_play(result)]["discard"]
    assert d["runner_up"] in d["actions"] and d["runner_up"] != d["recommendation"]
    low, high = d["margin"]["ev_ci"]
    assert low <= d["margin"]["ev"] <= high
    assert d["margin"]["ev"] >= 0


def test_p_success_of_a_certain_rumba_is_one_though_some_are_voided():
    d = ask(seed=5).to_dict()  # HA HK HQ of trump: the Rumba never fails; only a later throw-in voids it
    rumba = d["actions"]["rumba"]
    assert rumba["p_success"] == 1.0 and rumba["p_lost"] == 0.0
    assert rumba["p_void"] > 0  # some are voided, and they are not counted as failures
    assert rumba["p_made"] + rumba["p_uncontested"] + rumba["p_void"] == pytest.approx(1.0, abs=1e-12)
    assert rumba["p_not_allowed"] == 0.0
    assert all(p == 0 for p in rumba["tricks"][:3])
    low, high = rumba["p_success_ci"]
    assert low <= rumba["p_success"] <= high


def _best_play(result):
    plays = {n: c.ev.mean for n, c in result.options.items() if n.startswith("play")}
    return min(plays, key=plays.get)


def test_recommendation_is_the_lowest_expected_change():
    for kw in (dict(), dict(hand="H7 H8 S6 C7 D9", trump="DA"), dict(rules="flemish", players=4, trump="D5")):
        result = ask(**kw)
        best = min(result.options.values(), key=lambda c: c.ev.mean)
        label = "play" if best.name.startswith("play") else best.name
        assert result.recommendation == label
        assert result.actions["play"] is result.options[_best_play(result)]


def test_discards_are_the_lowest_keep_values():
    result = ask()
    assert result.options["play0"].discard == ()
    shown = [" ".join(simulation.format_card(c) for c in result.options[f"play{k}"].discard) for k in range(5)]
    assert shown == ["", "S6", "S6 C7", "HQ S6 C7", "HK HQ S6 C7"]


def test_same_seed_same_numbers_other_seed_other_numbers():
    one, two = ask(seed=123).to_dict(), ask(seed=123).to_dict()
    assert one == two
    three = ask(seed=124).to_dict()
    assert three["actions"]["rumba"]["ev"] != one["actions"]["rumba"]["ev"]


def test_seed_is_drawn_and_reported_when_omitted():
    result = simulation.ask(HAND, "H9", 5, 2, samples=200)
    assert 0 <= result.seed < 2**63
    again = simulation.ask(HAND, "H9", 5, 2, samples=200, seed=result.seed)
    assert again.to_dict() == result.to_dict()


def test_to_frame_columns():
    frame = ask().to_frame()
    assert list(frame.columns) == ["choice", "discard", "ev", "ev_low", "ev_high", "samples", "p_success",
                                   "p_success_low", "p_success_high", "recommended"]
    assert list(frame["choice"]) == ["pass", *SWISS_PLAYS, "rumba"]
    assert (frame["samples"] == SMALL).all()
    assert (frame["ev_low"] <= frame["ev"]).all() and (frame["ev"] <= frame["ev_high"]).all()
    assert frame["recommended"].sum() == 1


def test_precision_mode_stops_with_every_half_width_below_target(monkeypatch):
    monkeypatch.setattr(simulation, "BATCH", 500)
    target = 0.12
    calls = []
    result = ask(samples=None, precision=target, seed=3, progress=lambda done, planned: calls.append(done))
    assert result.samples % 500 == 0 and result.samples >= 1000
    assert calls == list(range(500, result.samples + 1, 500))
    assert max(c.ev.half_width for c in result.options.values()) < target
    # it stopped at the first batch that was precise enough (batches are sample ranges: same deals)
    shorter = ask(samples=result.samples - 500, seed=3)
    assert max(c.ev.half_width for c in shorter.options.values()) >= target


def test_progress_reports_planned_samples(monkeypatch):
    monkeypatch.setattr(simulation, "BATCH", 700)
    calls = []
    ask(samples=1500, progress=lambda done, planned: calls.append((done, planned)))
    assert calls == [(700, 1500), (1400, 1500), (1500, 1500)]


# =============================================================================
# the pass and the sit-out penalty (swiss rule 17)
# =============================================================================
def _pass_scores(result):
    ev = result.options["pass"].ev
    return ev.mean, ev.low, ev.high


@pytest.mark.parametrize("passes", [2, 3])
def test_third_pass_costs_five_when_nobody_voids(passes):
    """Model ``all`` never throws in and always plays: the hand is never void, the pass costs +5 exactly."""
    assert _pass_scores(ask(opponents="all", passes_in_a_row=passes)) == (5, 5, 5)


def test_third_pass_after_a_knock_costs_five():
    """A knock is never void (the dealer plays): +5 exactly whatever the model."""
    assert _pass_scores(ask(dealer_knocked=True, passes_in_a_row=2)) == (5, 5, 5)


@pytest.mark.parametrize("passes", [0, 1])
def test_first_and_second_pass_cost_nothing(passes):
    assert _pass_scores(ask(opponents="all", passes_in_a_row=passes)) == (0, 0, 0)


def test_third_pass_with_void_hands_costs_between_zero_and_five():
    """A void hand (throw-in, nobody plays) costs nothing: EV(pass) = 5 x P(not void), on a 5-point grid."""
    result = ask(hand="H7 H8 S6 C7 D9", trump="DA", opponents="cautious", passes_in_a_row=2, seat=0, players=3)
    ev = result.options["pass"].ev
    assert 0 < ev.mean < 5
    total = ev.mean * result.samples
    assert abs(total - 5 * round(total / 5)) < 1e-6
    # the throw-in (void) never costs anything
    assert _pass_scores(result) != (0, 0, 0)
    assert result.options["throw-in"].ev.mean == 0


def test_flemish_pass_never_costs():
    assert _pass_scores(ask(rules="flemish", players=4, trump="D5", passes_in_a_row=2, opponents="all")) == (0, 0, 0)


# =============================================================================
# knock
# =============================================================================
def test_knock_fields_and_reproducible():
    result = simulation.knock("HA", 5, samples=300, inner_samples=10, seed=4)
    d = json.loads(json.dumps(result.to_dict()))
    for key in ("rules", "players", "trump", "opponents", "play", "samples", "inner_samples", "seed",
                "recommendation", "actions", "margin"):
        assert key in d, key
    assert d["samples"] == 300 and d["inner_samples"] == 10 and d["seed"] == 4 and d["trump"] == "HA"
    assert d["recommendation"] in ("knock", "no knock")
    knock, no_knock = d["actions"]["knock"], d["actions"]["no-knock"]
    assert knock["ev_ci"][0] <= knock["ev"] <= knock["ev_ci"][1]
    assert no_knock["ev_ci"][0] <= no_knock["ev"] <= no_knock["ev_ci"][1]
    assert knock["p_success_ci"][0] <= knock["p_success"] <= knock["p_success_ci"][1]
    assert math.isclose(sum(no_knock["choices"].values()), 1.0)
    assert math.isclose(d["margin"]["ev"], no_knock["ev"] - knock["ev"], abs_tol=1e-9)
    assert (d["recommendation"] == "knock") == (knock["ev"] < no_knock["ev"])
    again = simulation.knock("HA", 5, samples=300, inner_samples=10, seed=4)
    assert again.to_dict() == result.to_dict()
    frame = result.to_frame()
    assert list(frame["choice"]) == ["knock", "no-knock"]
    assert {"ev", "ev_low", "ev_high", "samples"} <= set(frame.columns)


@pytest.mark.parametrize(
    "kw, exc, words",
    [
        (dict(rules="flemish"), RulesError, ["flemish", "knock"]),
        (dict(players=9), RulesError, ["9 players"]),
        (dict(trump="HX"), CardError, ["HX"]),
        (dict(trump="H2"), CardError, ["H2"]),
        (dict(opponents="nosuch"), ModelError, ["nosuch"]),
        (dict(play="nosuch"), RulesError, ["nosuch"]),
        (dict(samples=0), RulesError, ["--samples"]),
        (dict(inner_samples=0), RulesError, ["--inner-samples"]),
    ],
)
def test_knock_bad_input(kw, exc, words):
    args = dict(trump="HA", players=5, samples=10, inner_samples=2, seed=1)
    args.update(kw)
    with pytest.raises(exc) as info:
        simulation.knock(**args)
    for word in words:
        assert word in str(info.value)


# =============================================================================
# bad input
# =============================================================================
BAD = [
    ("unknown-card", dict(hand="HA HK HX S6 C7"), CardError, ["HX"]),
    ("unknown-trump", dict(trump="Q9"), CardError, ["Q9"]),
    ("duplicate", dict(hand="HA HA HQ S6 C7"), CardError, ["duplicate", "HA"]),
    ("four-cards", dict(hand="HA HK HQ S6"), CardError, ["5 cards", "got 4"]),
    ("six-cards", dict(hand="HA HK HQ S6 C7 D8"), CardError, ["5 cards", "got 6"]),
    ("trump-in-hand", dict(trump="HA"), CardError, ["trump card HA"]),
    ("card-not-in-swiss-deck", dict(hand="HA HK HQ S6 C2"), CardError, ["C2", "swiss"]),
    ("trump-not-in-swiss-deck", dict(trump="H2"), CardError, ["H2", "swiss"]),
    ("seat-too-high", dict(seat=5), RulesError, ["seat 5", "5 players"]),
    ("seat-negative", dict(seat=-1), RulesError, ["seat -1"]),
    ("too-many-players", dict(players=9, seat=2), RulesError, ["9 players", "3..7"]),
    ("too-few-players", dict(players=2, seat=0), RulesError, ["2 players", "3..7"]),
    ("flemish-seven", dict(rules="flemish", players=7, trump="D5"), RulesError, ["7 players", "2..6"]),
    ("unknown-rules", dict(rules="jass"), RulesError, ["jass"]),
    ("knock-in-flemish", dict(rules="flemish", players=4, trump="D5", dealer_knocked=True), RulesError,
     ["flemish", "knock"]),
    ("knock-dealer-asks", dict(seat=4, dealer_knocked=True), RulesError, ["dealer"]),
    ("before-count", dict(before="pass"), RulesError, ["--before", "got 1"]),
    ("before-word", dict(before="pass,maybe"), RulesError, ["'maybe'"]),
    ("before-two-rumbas", dict(seat=3, before="rumba,pass,rumba"), RulesError, ["only the first Rumba"]),
    ("before-rumba-after-knock", dict(before="pass,rumba", dealer_knocked=True), RulesError, ["knock"]),
    ("before-flemish-pass-after-rumba", dict(rules="flemish", players=5, trump="D5", seat=3,
                                             before="rumba,pass,play"), RulesError, ["must play"]),
    ("negative-passes", dict(passes_in_a_row=-1), RulesError, ["passes in a row"]),
    ("unknown-model", dict(opponents="nosuch"), ModelError, ["nosuch"]),
    ("missing-model-file", dict(opponents="nosuch.toml"), ModelError, ["nosuch.toml"]),
    ("unknown-policy", dict(play="nosuch"), RulesError, ["nosuch"]),
    ("zero-samples", dict(samples=0), RulesError, ["--samples"]),
    ("zero-precision", dict(samples=None, precision=0.0), RulesError, ["--precision"]),
    ("bad-seed", dict(seed=-1), RulesError, ["--seed"]),
]


@pytest.mark.parametrize("kw, exc, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_problem(kw, exc, words):
    with pytest.raises(exc) as info:
        ask(**kw)
    assert type(info.value) is exc
    for word in words:
        assert word in str(info.value)


def test_card_error_carries_the_token():
    with pytest.raises(CardError) as info:
        ask(hand="HA HK HX S6 C7")
    assert info.value.token == "HX"


def test_make_situation_checks_without_simulating():
    s = simulation.make_situation("ha, hk, hq, s10, c7", "h9", 5, 2)
    assert s.hand == tuple(parse_hand("HA HK HQ ST C7"))
    assert s.before == ("-", "-")
    s = simulation.make_situation(HAND, "H9", 5, 2, before=["Pass", " play "])
    assert s.before == ("pass", "play")


def test_flemish_lone_dealer_rumba_is_reported_as_a_lone_play_not_a_success():
    """Flemish, 2 players, the dealer, seat 0's word unknown: when seat 0 passes his Rumba is not allowed and he
    plays alone (-5); those deals are neither successes nor failures of a Rumba."""
    result = simulation.ask("C2 D3 S4 C5 D7", "H9", 2, 1, "flemish", "default", samples=20_000, seed=4)
    rumba = result.options["rumba"]
    assert rumba.outcomes.not_allowed > 0.3  # seat 0 passes a good share of hands
    assert rumba.outcomes.lost > 0.3  # this weak hand loses most contested Rumbas
    played = rumba.outcomes.made + rumba.outcomes.lost + rumba.outcomes.uncontested
    assert rumba.p_success.mean == pytest.approx((rumba.outcomes.made + rumba.outcomes.uncontested) / played)
    assert rumba.p_success.mean < 0.4


def test_flemish_dealer_who_heard_a_pass_is_not_offered_a_rumba():
    result = simulation.ask("HA HK HQ S4 D7", "H9", 2, 1, "flemish", "default", before="pass", samples=2_000,
                          seed=4)
    assert "rumba" not in result.options and result.recommendation in ("play", "pass")
