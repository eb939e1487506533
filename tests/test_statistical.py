"""Statistical truth tests: ``ask`` (Monte Carlo) against ``exact_ask`` (every deal enumerated).

On tiny rule sets (3 suits x 4 ranks, 2-card hands, 3 players: 9 unknown
cards, 362,880 orders) the exact expectation of every choice is computable,
so the simulator's intervals can be checked against the truth:

1. ``test_ask_matches_exact``: one long run per situation; every exact value
   lies inside its interval. The situations include rare earlier words (an
   earlier Rumba, drawn exactly with importance weights) and words the model
   never says (stretched), which exact enumeration weighs the same way.
2. ``test_interval_coverage``: over 200 seeds with short runs, the 95%
   intervals cover the exact value 90%..99% of the time.
3. ``test_coverage_check_has_power``: a deliberately wrong "exact" value is
   *not* covered 90% of the time, so check 2 can fail.

Everything is deterministic (fixed seeds; ``ask`` gives every sample its own
stream), but the seeds were fixed once, not hunted for.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from statistics import NormalDist

import pytest
from simulate import job_of

from rumbaodds.answer.simulation import ask, exact_ask
from rumbaodds.opponents.models import OpponentModel
from rumbaodds.rules import FLEMISH, RuleSet
from rumbaodds.stats import Z95

PLAYERS = 3
# 12 cards - 2 in the hand - the turned card, each order under both renamings of the 2 side suits (step 2b)
ORDERS = math.factorial(9) * 2

# -- tiny rule sets -------------------------------------------------------------------
# swiss-like: Stechzwang, knock, throw-in (two tens), passers' cards under the stock,
# sit out on the third pass in a row. Stock 5 >= 3 players x 1 card, so the exchange
# never reaches the passers' cards and exact enumeration is exact.
TINY_SWISS = RuleSet(name="tiny-swiss", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3,
                     exchange_limit=1, rumba_min_tricks=2, throw_in_below="J")
# flemish-like: everything of the flemish preset (follow rule, put-away, must-play after a
# Rumba, no lone Rumba, first-after-dealer lead, flemish scores); ranks 2 J Q K so the jack
# of trump forcing play and the two-of-trump swap both stay on.
TINY_FLEMISH = FLEMISH.replace(name="tiny-flemish", suits="CDH", ranks="2JQK", hand_size=2, min_players=2,
                               max_players=3, exchange_limit=1, rumba_min_tricks=2)
assert TINY_FLEMISH.follow_rule == "flemish" and TINY_FLEMISH.passer_cards == "put-away"
assert TINY_FLEMISH.others_after_rumba == "must-play" and not TINY_FLEMISH.lone_rumba_allowed
assert TINY_FLEMISH.rumba_lead == "first-after-dealer"
assert TINY_FLEMISH.jack_of_trump_forces_play and TINY_FLEMISH.two_of_trump_swap

# Two cards score at most 11 hand points (trump K 6 + trump Q 5): the `default` model never
# calls Rumba there. `tiny` is scaled to 2-card hands so earlier seats call Rumba, join,
# exchange and knock for real.
TINY_MODEL = OpponentModel("tiny", rumba_points=7, play_points=3, join_points=5, join_knock_points=4, discard_below=1)
# calls Rumba only on the very best two cards: an earlier Rumba is rare, drawn exactly (a hard seat)
RARE_MODEL = OpponentModel("rare", rumba_points=11, play_points=3, join_points=5, join_knock_points=4,
                           discard_below=1)
# plays only strong hands: an earlier "play" is rare too, and the hero may still call Rumba
CHOOSY_MODEL = OpponentModel("choosy", rumba_points=11, play_points=9, join_points=5, join_knock_points=4,
                             discard_below=1)


@dataclass(frozen=True)
class Case:
    id: str
    hand: str
    trump: str
    seat: int
    rules: RuleSet
    opponents: str | OpponentModel
    play: str
    kwargs: dict = field(default_factory=dict, hash=False)

    def args(self):
        return (self.hand, self.trump, PLAYERS, self.seat, self.rules, self.opponents, self.play)


CASES = [
    Case("swiss-s0-default-expert", "HK CQ", "HJ", 0, TINY_SWISS, "default", "expert"),
    Case("swiss-s1-bold-greedy", "HQ DK", "HT", 1, TINY_SWISS, "bold", "greedy"),
    Case("swiss-s2-tiny-before-2passes", "HT CK", "HJ", 2, TINY_SWISS, TINY_MODEL, "expert",
         dict(before="pass,play", passes_in_a_row=2)),
    Case("swiss-s1-bold-knocked", "HQ CK", "HK", 1, TINY_SWISS, "bold", "expert", dict(dealer_knocked=True)),
    Case("swiss-s2-all-greedy-throw-in", "CT DT", "CK", 2, TINY_SWISS, "all", "greedy"),
    Case("swiss-s1-tiny-after-rumba", "HK DK", "CQ", 1, TINY_SWISS, TINY_MODEL, "expert", dict(before="rumba")),
    Case("flemish-s0-default-two-swap", "H2 CK", "HQ", 0, TINY_FLEMISH, "default", "expert"),
    Case("flemish-s1-all-greedy-jack-forced", "HK DQ", "HJ", 1, TINY_FLEMISH, "all", "greedy"),
    Case("flemish-s2-tiny-before", "HQ DK", "H2", 2, TINY_FLEMISH, TINY_MODEL, "expert", dict(before="pass,play")),
    Case("flemish-s2-tiny-greedy-after-rumba", "HK CQ", "HQ", 2, TINY_FLEMISH, TINY_MODEL, "greedy",
         dict(before="rumba,play")),
    Case("swiss-s2-rare-rumba-pass", "HQ CK", "HJ", 2, TINY_SWISS, RARE_MODEL, "expert", dict(before="rumba,pass")),
    Case("swiss-s2-rare-play-rumba", "HQ DK", "HJ", 2, TINY_SWISS, RARE_MODEL, "greedy", dict(before="play,rumba")),
    Case("swiss-s1-default-stretched-rumba", "HQ DK", "HJ", 1, TINY_SWISS, "default", "expert",
         dict(before="rumba")),
    Case("flemish-s2-rare-rumba", "HQ DK", "H2", 2, TINY_FLEMISH, RARE_MODEL, "expert", dict(before="rumba,-")),
    Case("swiss-s2-choosy-play-pass", "HQ DK", "HJ", 2, TINY_SWISS, CHOOSY_MODEL, "expert", dict(before="play,pass")),
]
BY_ID = {c.id: c for c in CASES}

# -- the one long run per situation ------------------------------------------------------
LONG_SAMPLES = 100_000
LONG_SEED = 1
# About 40 random intervals are checked in test 1 over all situations (EVs of non-constant
# choices, p_success, p_uncontested, tries per sample). Each plain 95% interval misses its
# exact value 5% of the time by chance, so ~2 misses would be expected even with a perfect
# simulator. Bonferroni: each interval is widened to 1 - 0.05/50 = 99.9% (z = 3.29), which
# keeps the chance of any false alarm among up to 50 intervals below 5%. Miscalibration of
# the plain 95% intervals themselves is what test 2 checks.
INTERVAL_BUDGET = 50
Z_WIDE = NormalDist().inv_cdf(1 - 0.05 / (2 * INTERVAL_BUDGET))  # 3.29

# -- coverage ------------------------------------------------------------------------------
COVERAGE_SEEDS = range(200)
COVERAGE_SAMPLES = 2_000
COVERAGE_BAND = (0.90, 0.99)
COVERAGE_CASES = ["swiss-s0-default-expert", "swiss-s2-tiny-before-2passes", "flemish-s2-tiny-before",
                  "swiss-s2-choosy-play-pass", "swiss-s2-rare-play-rumba"]  # the last: weights that vary


def wilson(hits: int, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval at any z (stats.Estimate.of_proportion is the z = 1.96 one).

    The ends are exactly 0 with no hits and exactly 1 with all hits (in floating
    point centre - half can come out as 1e-17 instead of 0).
    """
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return low, high


def widened(est, z: float = Z_WIDE) -> tuple[float, float]:
    """The normal-approximation interval of ``est`` at ``z`` instead of 1.96."""
    half = est.half_width * z / Z95
    return est.mean - half, est.mean + half


@functools.cache
def exact(case_id: str) -> dict:
    case = BY_ID[case_id]
    return exact_ask(*case.args(), **case.kwargs)


@functools.cache
def coverage_runs(case_id: str) -> list:
    """(EV estimates by choice, p_success estimate) of the 200 short runs, computed once."""
    case = BY_ID[case_id]
    runs = []
    for seed in COVERAGE_SEEDS:
        r = ask(*case.args(), samples=COVERAGE_SAMPLES, seed=seed, **case.kwargs)
        assert r.samples == COVERAGE_SAMPLES and r.seed == seed
        p = r.options["rumba"].p_success if "rumba" in r.options else None
        runs.append(({name: c.ev for name, c in r.options.items()}, p))
    return runs


def ev_coverage(runs, choice: str, truth: float) -> float:
    return sum(evs[choice].low <= truth <= evs[choice].high for evs, _ in runs) / len(runs)


def p_coverage(runs, truth: float) -> float:
    return sum(p.low <= truth <= p.high for _, p in runs) / len(runs)


def in_band(fraction: float) -> bool:
    return COVERAGE_BAND[0] <= fraction <= COVERAGE_BAND[1]


def random_choices(runs) -> list[str]:
    """Choices whose score varies between deals (a constant one has a zero-width interval)."""
    return [name for name in runs[0][0] if any(evs[name].half_width > 0 for evs, _ in runs)]


# =============================================================================
# 1. one long run per situation against the exact values
# =============================================================================
@pytest.mark.statistical
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_ask_matches_exact(case):
    ex = exact(case.id)
    accepted = ex["_accepted"]["weight"]
    assert 0 < accepted <= ORDERS
    r = ask(*case.args(), samples=LONG_SAMPLES, seed=LONG_SEED, **case.kwargs)
    weighted = bool(job_of(case.hand, case.trump, PLAYERS, case.seat, case.rules, case.opponents, case.play,
                           case.kwargs.get("passes_in_a_row", 0), case.kwargs.get("dealer_knocked", False),
                           case.kwargs.get("before")).plan.hard.any())
    assert r.samples == LONG_SAMPLES
    assert set(r.options) == set(ex) - {"_accepted"}

    # the situation is worth testing: some choice is random and, given a choice, they differ
    # (after a flemish Rumba call the only choice is to play)
    evs = [ex[name]["ev"] for name in r.options]
    assert len(evs) == 1 or max(evs) - min(evs) > 0.5, evs
    assert any(c.ev.half_width > 0 for c in r.options.values())

    misses = []
    for name, choice in r.options.items():
        truth = ex[name]["ev"]
        if choice.ev.half_width == 0:  # every sample scored the same: so must every deal
            if not math.isclose(choice.ev.mean, truth, abs_tol=1e-9):
                misses.append(f"{name}: constant {choice.ev.mean} but exact {truth}")
            continue
        low, high = widened(choice.ev)
        if not low <= truth <= high:
            misses.append(f"{name}: exact EV {truth:+.5f} outside 99.9% [{low:+.5f}, {high:+.5f}] "
                          f"(95%: {choice.ev.text(5)})")
        if name == "rumba":
            n = r.effective_samples
            played = 1 - choice.outcomes.void - choice.outcomes.not_allowed
            if r.effective_samples == r.samples:  # the library's Wilson is the z = 1.96 case of the one widened here
                m = round(played * r.samples)
                hits = round(choice.p_success.mean * m)
                assert wilson(hits, m, Z95) == pytest.approx((choice.p_success.low, choice.p_success.high),
                                                             abs=1e-9)
            shares = (("p_success", choice.p_success.mean, n * played),
                      ("p_uncontested", choice.outcomes.uncontested, n), ("p_made", choice.outcomes.made, n),
                      ("p_void", choice.outcomes.void, n))
            for what, estimate, size in shares:
                true_p = ex[name][what]
                low, high = wilson(round(estimate * size), round(size), Z_WIDE)
                if not low <= true_p <= high:
                    misses.append(f"rumba {what}: exact {true_p:.5f} outside 99.9% Wilson [{low:.5f}, {high:.5f}]")

    # the rejection step (no seat drawn exactly): tries per sample is geometric with mean ORDERS / accepted
    # (with a seat drawn exactly the tries only count the easy seats' rejections)
    p_accept = accepted / ORDERS
    if weighted:
        pass
    elif p_accept == 1:
        assert r.tries_per_sample == 1
    else:
        mean, sd = 1 / p_accept, math.sqrt(1 - p_accept) / p_accept
        half = Z_WIDE * sd / math.sqrt(LONG_SAMPLES)
        if abs(r.tries_per_sample - mean) > half:
            misses.append(f"tries per sample {r.tries_per_sample:.4f}, exact {mean:.4f} +- {half:.4f}")
    assert not misses, f"{case.id}: " + "; ".join(misses)


# =============================================================================
# 2. coverage of the 95% intervals over 200 seeds
# =============================================================================
@pytest.mark.statistical
@pytest.mark.parametrize("case_id", COVERAGE_CASES)
def test_interval_coverage(case_id):
    """Each 95% interval covers the exact value in 90%..99% of 200 independent runs.

    With true coverage 95% the number covered out of 200 is Binomial(200, 0.95):
    sd 1.5%, so the band 90%..99% is about 3 sd either side (a false alarm has
    probability ~0.1% per check); an interval that is too narrow or biased by a
    fraction of its width falls below 90%.
    """
    ex = exact(case_id)
    runs = coverage_runs(case_id)
    report = {}
    random = random_choices(runs)
    assert len(random) >= 1
    for name in runs[0][0]:
        cov = ev_coverage(runs, name, ex[name]["ev"])
        report[name] = cov
        if name not in random:  # the same in every deal: every run gives it (to the rounding of a weighted mean)
            assert all(abs(evs[name].mean - ex[name]["ev"]) <= 1e-9 * (1 + abs(ex[name]["ev"])) for evs, _ in runs), \
                f"{name}: constant in every run, but not the exact value"
    if "rumba" in ex:
        p = ex["rumba"]["p_success"]
        if 0 < p < 1:
            report["p_success"] = p_coverage(runs, p)
        else:  # a Rumba that always (never) succeeds: every run must see exactly that
            assert all(run_p.mean == p for _, run_p in runs), f"p_success is exactly {p}, but not in every run"
    bad = {k: v for k, v in report.items() if (k in random or k == "p_success") and not in_band(v)}
    assert not bad, f"{case_id}: coverage outside {COVERAGE_BAND}: {bad} (all: {report})"


# =============================================================================
# 3. negative control: the coverage check rejects a wrong "exact" value
# =============================================================================
@pytest.mark.statistical
@pytest.mark.parametrize("case_id", COVERAGE_CASES)
def test_coverage_check_has_power(case_id):
    ex = exact(case_id)
    runs = coverage_runs(case_id)
    for name in random_choices(runs):
        for shift in (+0.5, -0.5):
            cov = ev_coverage(runs, name, ex[name]["ev"] + shift)
            assert not in_band(cov), f"{name}: EV {shift:+} points off still covered {cov:.0%} of the time"
    for shift in (+0.05, -0.05) if "rumba" in ex else ():
        cov = p_coverage(runs, ex["rumba"]["p_success"] + shift)
        assert not in_band(cov), f"p_success {shift:+} off still covered {cov:.0%} of the time"
