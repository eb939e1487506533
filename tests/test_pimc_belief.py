"""PIMC defenders' worlds follow what the Rumba call says of the caller's hand (engine/pimc.py ``believed_world``).

docs/SIMULATION.md ``pimc``: a defender keeps a consistent world with the probability that the caller's whole hand
in it (his cards there and those he has played) calls Rumba under the strategy, so the kept worlds follow the
posterior of his hand given the call.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hst

from rumbaodds.engine import pimc
from rumbaodds.engine.distilled import WEIGHTS
from rumbaodds.engine.policy import NSCORE, hand_score
from rumbaodds.engine.rng import deal_batch
from rumbaodds.rules import SWISS
from rumbaodds.twins import pimc as twin
from rumbaodds.twins.common import Stream

TOP = 14  # swiss: the ace


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def cards_of(m) -> set[int]:
    return {c for c in range(64) if (int(m) >> c) & 1}


def random_belief(rng: random.Random, low: float = 0.0):
    values = np.array([[rng.randrange(0, 5) for _ in range(16)] for _ in range(2)], dtype=np.int64)
    probs = np.array([low + (1 - low) * rng.random() for _ in range(NSCORE)])
    return probs, values, TOP


def test_the_twins_hand_score_is_the_kernels():
    rng = random.Random(2)
    for _ in range(200):
        probs, values, top = random_belief(rng)
        hand = rng.sample(list(SWISS.deck), 5)
        trump = rng.randrange(4)
        assert twin.hand_score(set(hand), trump, top, values) == hand_score(np.uint64(mask(hand)), trump, top, values)


@settings(max_examples=50, deadline=None)
@given(hst.integers(0, 2**32), hst.integers(0, 3), hst.integers(0, 2))
def test_believed_worlds_kernel_equals_twin(seed, trump, shown_count):
    """The same worlds and the same stream position, the caller's played cards counted in his hand."""
    rng = random.Random(seed)
    deck = list(SWISS.deck)
    rng.shuffle(deck)
    shown, unseen = set(deck[5:5 + shown_count]), set(deck[5 + shown_count:17])  # deck[:5]: his own
    counts = [5, 5 - shown_count, 3, 4]  # 12 - shown_count unseen cards
    forbidden = [set(), set(), set(), set()]
    belief = random_belief(rng)
    stream = Stream(seed, 5)
    state = np.uint64(stream.state)
    world = np.zeros(4, dtype=np.uint64)
    scratch = np.zeros(64, dtype=np.int64)
    f = np.zeros(4, dtype=np.uint64)
    for _ in range(3):
        state, ok = pimc.believed_world(np.uint64(mask(unseen)), np.array(counts, dtype=np.int64), f, 0,
                                        np.uint64(state), scratch, world, belief, 1, np.uint64(mask(shown)), trump)
        want = twin.believed_world(unseen, counts, forbidden, 0, stream, belief, 1, shown, trump)
        assert ok and want is not None
        assert [cards_of(world[p]) for p in (1, 2, 3)] == [want[p] for p in (1, 2, 3)]
        assert int(state) == stream.state


def _frequencies(believe: bool, belief, unseen, counts, draws: int):
    state = np.uint64(12345)
    world = np.zeros(3, dtype=np.uint64)
    scratch = np.zeros(64, dtype=np.int64)
    f = np.zeros(3, dtype=np.uint64)
    seen: dict[int, int] = {}
    for _ in range(draws):
        if believe:
            state, ok = pimc.believed_world(np.uint64(mask(unseen)), counts, f, 0, np.uint64(state), scratch, world,
                                            belief, 1, np.uint64(0), 2)
        else:
            state, ok = pimc.sample_world(np.uint64(mask(unseen)), counts, f, 0, np.uint64(state), scratch, world)
        assert ok
        seen[int(world[1])] = seen.get(int(world[1]), 0) + 1
    return seen


def test_the_kept_worlds_follow_the_posterior_of_the_callers_hand():
    """Exact enumeration: the caller (seat 1) holds 2 of 6 unseen cards; his hand's posterior given the call is
    proportional to its calling probability. 20,000 kept worlds match it within 4.5 sigma per hand and by a
    chi-square test; the control, worlds that ignore the call, do not."""
    rng = random.Random(7)
    unseen = [32 + 14, 32 + 9, 16 + 13, 16 + 7, 48 + 11, 0 + 6]  # HA H9 DK D7 SJ C6
    counts = np.array([5, 2, 4], dtype=np.int64)
    belief = random_belief(rng, low=0.15)
    probs, values, top = belief
    hands = [mask(h) for h in itertools.combinations(unseen, 2)]
    weight = {h: probs[hand_score(np.uint64(h), 2, top, values)] for h in hands}
    total = sum(weight.values())
    draws = 20_000
    kept = _frequencies(True, belief, set(unseen), counts, draws)
    chi2 = 0.0
    for h in hands:
        p = weight[h] / total
        sd = math.sqrt(draws * p * (1 - p))
        assert abs(kept.get(h, 0) - draws * p) < 4.5 * sd, (cards_of(h), kept.get(h, 0), draws * p)
        chi2 += (kept.get(h, 0) - draws * p) ** 2 / (draws * p)
    assert chi2 < 45  # 14 degrees of freedom: p < 1e-4 beyond
    ignored = _frequencies(False, belief, set(unseen), counts, draws)
    chi2_ignored = sum((ignored.get(h, 0) - draws * weight[h] / total) ** 2 / (draws * weight[h] / total)
                       for h in hands)
    assert chi2_ignored > 100


def test_a_deal_with_belief_kernel_equals_twin():
    """Whole deals of 3 cards, a PIMC caller and PIMC defenders who believe the call: kernel and twin play the
    same tricks with the same worlds (the sampler's control is the posterior test's)."""
    rules = SWISS
    rng = random.Random(11)
    belief = random_belief(rng, low=0.0)
    n, size, count, worlds = 3, 3, 10, 6
    hands, trumps, leaders = deal_batch(rules.deck_array(), n, size, 4, 0, count)
    turned = trumps.astype(np.int64)
    uc, un = pimc.utility_tables(rules)
    seats = np.full(n, pimc.SEAT_PIMC, dtype=np.int64)
    args = (hands, leaders.astype(np.int64), turned >> 4, turned, rules.follow_code, np.uint64(rules.deck_mask), 0,
            seats, uc, un, rules.rumba_min_tricks, WEIGHTS, worlds, 4, np.arange(count, dtype=np.int64))
    out, stats = pimc.play_batch(*args, None, belief)
    used = 0
    for i in range(count):
        won, u = twin.play_deal([cards_of(m) for m in hands[i]], int(leaders[i]), int(turned[i]) >> 4,
                                rules.follow_code, rules.deck, int(turned[i]), 0, list(seats), list(uc), list(un),
                                worlds, 4, i, belief)
        assert won == list(out[i]), i
        used += u
    assert used == stats[1] > 0


def test_deals_play_infers_the_call_when_asked():
    """`deals play --policy pimc --rumba K --infer-call` prints what play_deals gives with the belief of hand K's
    seat (rumbaodds/opponents/call_belief.py, a probability by hand score); the flag without --policy pimc
    --rumba K is a one-line error."""
    import json

    from click.testing import CliRunner

    from rumbaodds.cli import main
    from rumbaodds.deals.files import generate_deals
    from rumbaodds.deals.play import play_deals
    from rumbaodds.opponents.call_belief import call_belief

    deals = list(generate_deals(SWISS, 4, 6, 3, 9))
    text = "".join(d.to_json() + "\n" for d in deals)
    result = CliRunner().invoke(main, ["deals", "play", "-", "--policy", "pimc", "--rumba", "1", "--worlds", "8",
                                       "--infer-call"], input=text)
    assert result.exit_code == 0, result.output
    got = np.array([json.loads(x)["tricks"] for x in result.output.splitlines()])
    assert (got == play_deals(deals, "pimc", rumba=1, worlds=8, infer=True)).all()
    n = deals[0].players
    belief = call_belief(SWISS, n, 1)
    assert belief[0].shape == (NSCORE,) and 0 <= belief[0].min() and belief[0].max() <= 1
    bad = CliRunner().invoke(main, ["deals", "play", "-", "--policy", "expert", "--infer-call"], input=text)
    assert bad.exit_code == 2 and "--infer-call" in bad.output and len(bad.output.strip().splitlines()) == 1
