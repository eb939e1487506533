"""Card play against card play on the same deals (issue 17): greedy, expert, distilled and PIMC in each role.

`python -m benchmarks.bench_cardplay [--quick] [--deals N]`. A duplicate comparison: every pairing of card
plays plays the very same deals.

- Rumbas (swiss 5 and flemish 4 players; swiss 3 and 7 with fewer pairings): hand 0 calls and leads, the
  others defend, the turned card is seen. Two sets of callers: *strong* (the top 5% of hands by keep-value
  points, engine/keep.py ``hand_points``) and *near the threshold* (hands whose equilibrium score, the
  solved strategy's strength index of the first seat, is within 1 of the lowest score at which that seat
  calls Rumba more often than not: the hands where the choice is close). P(caller makes the Rumba's
  tricks) with a 95% interval, its paired difference from everybody ``distilled``, and deals per second
  (one thread).
- Normal games (random deals and leaders, everybody plays): hand 0's mean score change by pairing (scores
  count down: lower is better), paired against everybody ``distilled``.
- PIMC's worlds per decision K: a PIMC caller against expert defenders for K in 8, 16, 32, 64, each paired
  against K = 64.

`--where [--deals N]`: where a PIMC caller's gain comes from. The caller plays PIMC at one kind of
decision only (his lead of trick t, or every card he follows with), distilled elsewhere, against distilled
defenders, on the threshold deals (swiss 5 and flemish 4, default 10,000; swiss 3 half and swiss 7 a quarter
as many).

`--held-out [--deals N]`: what the distilled play's trees gain (the caller by the weights alone, with the
trees, by PIMC) on threshold deals of a seed of their own, swiss 3 (default 5,000) and 7 (2,000) players.

`--exploitability [--deals N]` measures only what search gains against the default card play near the
threshold, on more deals (default 10,000; swiss 3 and 7 a quarter): everybody distilled, a PIMC caller
against distilled defenders, a distilled caller against PIMC defenders, everybody PIMC; and the same four
in normal games (swiss 5 and flemish 4, 3 in 10 of the deals: 3,000).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from rumbaodds.distil.record import play_deals
from rumbaodds.engine import pimc
from rumbaodds.engine.distilled import TREES, WEIGHTS
from rumbaodds.engine.keep import hand_points
from rumbaodds.engine.policy import CTX_OPEN, hand_score
from rumbaodds.engine.rng import deal_batch
from rumbaodds.opponents.call_belief import call_belief
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import FLEMISH, SWISS

from .common import print_table

SEED = 1717
PLAYERS = 5
TOP_SHARE = 0.05  # strong callers: the strongest 5% of hands
G, E, D, P = pimc.SEAT_GREEDY, pimc.SEAT_EXPERT, pimc.SEAT_DISTILLED, pimc.SEAT_PIMC
NAMES = {G: "greedy", E: "expert", D: "distilled", P: "pimc"}
# (caller's card play, defenders' card play); the first is the reference of the paired differences
PAIRINGS = ((D, D), (G, G), (E, E), (P, P), (P, D), (D, P), (P, E), (E, P))
FEW_PAIRINGS = ((D, D), (E, E), (P, P))
SEARCH_PAIRINGS = ((D, D), (P, D), (D, P), (P, P))  # can search gain against the default play?


def _pool(rules, players: int, seed: int, count: int):
    hands, trump_cards, _ = deal_batch(rules.deck_array(), players, rules.hand_size, seed, 0, count)
    return hands, (trump_cards >> 4).astype(np.int64), trump_cards.astype(np.int64)


def strong_rumbas(count: int, rules=SWISS, players: int = PLAYERS, seed: int = SEED):
    """``count`` deals whose hand 0 is among the top ``TOP_SHARE`` of hands by keep-value points.

    Returns (hands, leaders (all 0: the caller leads), trumps, turned cards).
    """
    top = max(c & 15 for c in rules.deck)
    hands, trumps, turned = _pool(rules, players, seed, int(max(4 * count, 2000) / TOP_SHARE))
    points = np.array([hand_points(h, t, top) for h, t in zip(hands[:, 0], trumps, strict=True)])
    keep = np.flatnonzero(points >= np.quantile(points, 1 - TOP_SHARE))[:count]
    return hands[keep], np.zeros(len(keep), dtype=np.int64), trumps[keep], turned[keep]


def threshold_rumbas(count: int, rules=SWISS, players: int = PLAYERS, seed: int = SEED + 2):
    """``count`` deals whose hand 0 is near the equilibrium's Rumba threshold (see the module docstring)."""
    policy = opponent_policy("equilibrium", rules, players)
    top = max(c & 15 for c in rules.deck)
    calls = policy.words[0, CTX_OPEN, :, 2]
    threshold = int(np.argmax(calls > 0.5)) if (calls > 0.5).any() else len(calls) - 1
    hands, trumps, turned = _pool(rules, players, seed, 60 * count)
    scores = np.array([hand_score(h, t, top, policy.values[0]) for h, t in zip(hands[:, 0], trumps, strict=True)])
    keep = np.flatnonzero(np.abs(scores - threshold) <= 1)[:count]
    return hands[keep], np.zeros(len(keep), dtype=np.int64), trumps[keep], turned[keep]


def play(deals, caller_play: int, defence_play: int, worlds: int = pimc.DEFAULT_WORLDS, rules=SWISS,
         rumba: bool = True, trees=None, belief=None):
    """(hand 0's tricks per deal, seconds, worlds used per PIMC decision); hand 0 plays ``caller_play``.

    ``rumba``: hand 0 called a Rumba, else a normal game. ``trees``: the distilled play's (engine/pimc.py
    ``play_deal``; ``None``: the shipped ones). ``belief``: PIMC defenders infer the caller's hand from his call
    (rumbaodds/opponents/call_belief.py)."""
    hands, leaders, trumps, turned = deals
    seats = np.full(hands.shape[1], defence_play, dtype=np.int64)
    seats[0] = caller_play
    util_caller, util_normal = pimc.utility_tables(rules)
    args = (leaders, trumps, turned, rules.follow_code, np.uint64(rules.deck_mask), 0 if rumba else -1, seats,
            util_caller, util_normal, rules.rumba_min_tricks, WEIGHTS, worlds, SEED)
    pimc.play_batch(hands[:2], *args, np.arange(2, dtype=np.int64), trees, belief)  # compile / load from cache
    start = time.perf_counter()
    tricks, stats = pimc.play_batch(hands, *args, np.arange(len(hands), dtype=np.int64), trees, belief)
    seconds = time.perf_counter() - start
    return tricks[:, 0], seconds, (stats[1] / stats[0] if stats[0] else float("nan"))


def run_inferred(count: int, rules=SWISS, players: int = PLAYERS) -> list[dict]:
    """Near the threshold: PIMC defenders who infer the caller's hand from his call, against the distilled caller
    and the PIMC caller, paired against everybody distilled (and the defenders who do not infer)."""
    deals = threshold_rumbas(count, rules, players)
    belief = call_belief(rules, players, 0)  # hand 0 speaks first: the threshold deals' own table
    pairings = ((D, D, None), (D, P, None), (D, P, belief), (P, P, None), (P, P, belief))
    results = [play(deals, caller, defence, rules=rules, belief=b) for caller, defence, b in pairings]
    base = results[0][0] >= rules.rumba_min_tricks
    rows = []
    for (caller, defence, b), (tricks, seconds, per) in zip(pairings, results, strict=True):
        made = tricks >= rules.rumba_min_tricks
        p, half = share(made)
        d, dhalf = paired(made.astype(np.int64), base.astype(np.int64))
        rows.append({"caller": NAMES[caller], "defenders": NAMES[defence] + (", infer the call" if b else ""),
                     "deals": len(made), "P(makes it) %": f"{100 * p:.1f} ± {100 * half:.1f}",
                     "vs all distilled (pp)": f"{100 * d:+.1f} ± {100 * dhalf:.1f}", "deals/s": len(made) / seconds,
                     "worlds/decision": per})
    return rows


def share(made: np.ndarray) -> tuple[float, float]:
    """Mean of a 0/1 array and the half-width of its 95% interval (normal approximation)."""
    p = float(made.mean())
    return p, 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / len(made))


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean of ``a - b`` and the half-width of its 95% interval (the same deals: a paired difference)."""
    d = (a - b).astype(np.float64)
    return float(d.mean()), 1.96 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else float("nan")


def run(quick: bool = False, count: int | None = None, rules=SWISS, players: int = PLAYERS,
        pairings=PAIRINGS, callers: str = "strong") -> list[dict]:
    """Rumbas: P(the caller makes it) of each pairing, paired against the first pairing."""
    count = count or (40 if quick else 2000)
    deals = (strong_rumbas if callers == "strong" else threshold_rumbas)(count, rules, players)
    results = {pair: play(deals, *pair, rules=rules) for pair in pairings}
    base = results[pairings[0]][0] >= rules.rumba_min_tricks
    rows = []
    for (caller, defence), (tricks, seconds, per) in results.items():
        made = tricks >= rules.rumba_min_tricks
        p, half = share(made)
        d, dhalf = paired(made.astype(np.int64), base.astype(np.int64))
        rows.append({
            "caller": NAMES[caller], "defenders": NAMES[defence], "deals": len(made),
            "P(makes it) %": f"{100 * p:.1f} ± {100 * half:.1f}",
            f"vs all {NAMES[pairings[0][0]]} (pp)": f"{100 * d:+.1f} ± {100 * dhalf:.1f}",
            "mean tricks": float(tricks.mean()),
            "deals/s": len(made) / seconds,
            "worlds/decision": per,
        })
    return rows


def run_normal(quick: bool = False, count: int | None = None, rules=SWISS, players: int = PLAYERS,
               pairings=PAIRINGS) -> list[dict]:
    """Normal games on random deals (random leader): hand 0's mean score change by pairing."""
    count = count or (40 if quick else 1000)
    hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, rules.hand_size, SEED + 1, 0, count)
    deals = (hands, leaders.astype(np.int64), (trump_cards >> 4).astype(np.int64), trump_cards.astype(np.int64))
    _, util = pimc.utility_tables(rules)
    results = {pair: play(deals, *pair, rules=rules, rumba=False) for pair in pairings}
    base = -util[results[pairings[0]][0]]
    rows = []
    for (me, others), (tricks, seconds, per) in results.items():
        change = -util[tricks]
        d, dhalf = paired(change, base)
        rows.append({"hand 0": NAMES[me], "others": NAMES[others], "deals": count,
                     "mean score change": f"{change.mean():+.3f} ± {1.96 * change.std(ddof=1) / math.sqrt(count):.3f}",
                     f"vs all {NAMES[pairings[0][0]]}": f"{d:+.3f} ± {dhalf:.3f}", "deals/s": count / seconds,
                     "worlds/decision": per})
    return rows


def run_worlds(quick: bool = False, count: int | None = None, ks=(8, 16, 32, 64)) -> list[dict]:
    """PIMC caller against expert defenders, K worlds per decision, paired against the largest K."""
    count = count or (20 if quick else 500)
    deals = strong_rumbas(count)
    results = {k: play(deals, P, E, worlds=k) for k in ks}
    ref = results[ks[-1]][0] >= SWISS.rumba_min_tricks
    rows = []
    for k, (tricks, seconds, _) in results.items():
        made = tricks >= SWISS.rumba_min_tricks
        p, half = share(made)
        d, dhalf = paired(made.astype(np.int64), ref.astype(np.int64))
        rows.append({"K": k, "deals": len(made), "P(3+ tricks) %": f"{100 * p:.1f} ± {100 * half:.1f}",
                     f"vs K={ks[-1]} (pp)": f"{100 * d:+.1f} ± {100 * dhalf:.1f}", "deals/s": len(made) / seconds})
    return rows


def main(quick: bool = False, count: int | None = None) -> None:
    for rules, players in ((SWISS, 5), (FLEMISH, 4)):
        for callers in ("strong", "threshold"):
            who = f"a top-{TOP_SHARE:.0%} hand" if callers == "strong" else "a hand near the Rumba threshold"
            print_table(f"Rumba, card play on the same deals: {rules.name} {players} players, Rumba by {who} "
                        f"(hand 0 calls and leads), K = {pimc.DEFAULT_WORLDS}",
                        run(quick, count, rules, players, callers=callers))
        print_table(f"normal game, card play on the same deals: {rules.name} {players} players, hand 0's score "
                    f"change (down is good)", run_normal(quick, None if count is None else count // 2, rules, players))
    for players in (3, 7):
        print_table(f"Rumba, card play on the same deals: swiss {players} players, Rumba by a hand near the "
                    f"threshold", run(quick, None if count is None else count // 2, SWISS, players, FEW_PAIRINGS,
                                     callers="threshold"))
    print_table("PIMC worlds per decision K: swiss 5, Rumba, PIMC caller, expert defenders", run_worlds(quick))


def run_where(count: int, rules=SWISS, players: int = PLAYERS) -> list[dict]:
    """P(the caller makes it) with PIMC at one kind of the caller's decisions, paired against all distilled."""
    deals = threshold_rumbas(count, rules, players)
    base = play(deals, D, D, rules=rules)[0] >= rules.rumba_min_tricks
    kinds = [(f"his lead of trick {t + 1}", lambda p, trick, pos, t=t: p == 0 and pos == 0 and trick == t)
             for t in range(rules.hand_size - 1)]
    kinds.append(("every card he follows with", lambda p, trick, pos: p == 0 and pos > 0))
    rows = [{"PIMC plays": "nothing (all distilled)", "deals": len(base),
             "P(makes it) %": f"{100 * base.mean():.1f}", "vs all distilled (pp)": "+0.0", "PIMC decisions": 0}]
    for name, where in kinds:
        def plays(p, trick, pos, where=where):
            return P if where(p, trick, pos) else D
        records, tricks = play_deals(rules, deals, SEED, 0, plays, WEIGHTS, label_all=False)
        made = tricks[:, 0] >= rules.rumba_min_tricks
        d, dhalf = paired(made.astype(np.int64), base.astype(np.int64))
        rows.append({"PIMC plays": name, "deals": len(made), "P(makes it) %": f"{100 * made.mean():.1f}",
                     "vs all distilled (pp)": f"{100 * d:+.1f} ± {100 * dhalf:.1f}", "PIMC decisions": len(records)})
    return rows


def main_where(count: int | None = None) -> None:
    count = count or 10_000
    for rules, players, n in ((SWISS, 5, count), (FLEMISH, 4, count), (SWISS, 3, count // 2), (SWISS, 7, count // 4)):
        print_table(f"Where a PIMC caller gains: {rules.name} {players} players, Rumba by a hand near the threshold, "
                    f"the caller by PIMC at one kind of decision, distilled defenders, K = {pimc.DEFAULT_WORLDS}",
                    run_where(n, rules, players))


HELD_OUT_SEED = SEED + 100  # not the seed of any deals above, nor of the recordings the play was fitted to


def run_held_out(count: int, rules=SWISS, players: int = 3) -> list[dict]:
    """What the distilled play's trees gain, on threshold deals of their own seed: the caller distilled with
    the weights alone, with the shipped trees, and by PIMC, against distilled defenders; paired against the
    weights alone. The figures by which the trees were chosen (docs/SIMULATION.md, "Trees for two decisions")."""
    deals = threshold_rumbas(count, rules, players, seed=HELD_OUT_SEED)
    none = (np.full_like(TREES[0], -1),) + tuple(TREES[1:])
    base = play(deals, D, D, rules=rules, trees=none)[0] >= rules.rumba_min_tricks
    rows = []
    for name, caller, trees in (("distilled, the weights alone", D, none), ("distilled, with its trees", D, None),
                                ("PIMC", P, None)):
        made = base if trees is none else play(deals, caller, D, rules=rules, trees=trees)[0] >= rules.rumba_min_tricks
        p, half = share(made)
        d, dhalf = paired(made.astype(np.int64), base.astype(np.int64))
        rows.append({"caller": name, "deals": len(made), "P(makes it) %": f"{100 * p:.1f} ± {100 * half:.1f}",
                     "vs the weights alone (pp)": f"{100 * d:+.1f} ± {100 * dhalf:.1f}"})
    return rows


def main_held_out(count: int | None = None) -> None:
    count = count or 5_000
    for players, n in ((3, count), (7, count * 2 // 5)):
        print_table(f"What the trees gain: swiss {players} players, Rumba by a hand near the threshold (seed "
                    f"{HELD_OUT_SEED}), distilled defenders", run_held_out(n, SWISS, players))


def main_exploitability(count: int | None = None) -> None:
    count = count or 10_000
    for rules, players, n in ((SWISS, 5, count), (FLEMISH, 4, count), (SWISS, 3, count // 4), (SWISS, 7, count // 4)):
        print_table(f"Can search gain against distilled? {rules.name} {players} players, Rumba by a hand near the "
                    f"threshold, K = {pimc.DEFAULT_WORLDS}",
                    run(False, n, rules, players, SEARCH_PAIRINGS, callers="threshold"))
    for rules, players, n in ((SWISS, 5, count), (FLEMISH, 4, count), (SWISS, 3, count // 4), (SWISS, 7, count // 4)):
        print_table(f"Defenders who infer the caller's hand from his call: {rules.name} {players} players, Rumba by "
                    f"a hand near the threshold, K = {pimc.DEFAULT_WORLDS}", run_inferred(n, rules, players))
    for rules, players in ((SWISS, 5), (FLEMISH, 4)):
        print_table(f"Can search gain against distilled? normal games, {rules.name} {players} players, hand 0's score "
                    f"change (down is good)", run_normal(False, count * 3 // 10, rules, players, SEARCH_PAIRINGS))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    parser.add_argument("--deals", type=int, default=None, help="Rumba deals per pairing (default 2000, --quick 40)")
    parser.add_argument("--exploitability", action="store_true",
                        help="only search against distilled near the threshold, on more deals (default 10,000)")
    parser.add_argument("--held-out", action="store_true",
                        help="only what the distilled play's trees gain, on deals of their own seed (swiss 3: "
                             "default 5,000; swiss 7: 2 in 5 of them)")
    parser.add_argument("--where", action="store_true",
                        help="only where a PIMC caller's gain comes from (default 10,000 deals)")
    args = parser.parse_args()
    if args.held_out:
        main_held_out(args.deals)
    elif args.where:
        main_where(args.deals)
    elif args.exploitability:
        main_exploitability(args.deals)
    else:
        main(args.quick, args.deals)
