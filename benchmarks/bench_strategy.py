"""Solved strategies: what every shipped one cost and how exploitable it is; the swiss 5-player solve against its
15-minute target; and whether ``ask`` against the equilibrium agrees with the equilibrium's own actions.

    python -m benchmarks.bench_strategy                 # the shipped strategies (instant)
    python -m benchmarks.bench_strategy --solve         # swiss 5 from scratch until every seat is below 0.05
    python -m benchmarks.bench_strategy --consistency   # 2,000 hands per preset (swiss 5, flemish 4), a few minutes
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumbaodds import analysis
from rumbaodds.cards import RANKS
from rumbaodds.conditioning import WORD_NAMES
from rumbaodds.engine.twin_condition import turn_of
from rumbaodds.rules import FLEMISH, SWISS, get_rules
from rumbaodds.strategy import solver as S
from rumbaodds.strategy import store
from rumbaodds.strategy.abstraction import fit_abstraction
from rumbaodds.strategy.game import A_PASS, A_RUMBA
from rumbaodds.strategy.tables import to_policy
from rumbaodds.strategy.twin_game import deal_and_speak

from .common import print_table

SHIPPED = [("swiss", n) for n in range(3, 8)] + [("flemish", n) for n in range(2, 7)]


def shipped_rows() -> list[dict]:
    rows = []
    for rules, n in SHIPPED:
        solved = store.find(get_rules(rules), n)
        ex = solved.exploitability
        rows.append({"rules": rules, "players": n, "iterations": solved.meta["iterations"],
                     "deals/seat/iter": solved.meta["samples_per_iteration"], "seconds": solved.meta["seconds"],
                     "worst seat": max(ex[str(s)]["mean"] for s in range(n)),
                     "worst upper 95%": max(ex[str(s)]["high"] for s in range(n)),
                     "total": ex["total"]["mean"], "buckets": solved.abstraction.buckets})
    return rows


def solve_to_target(target: float = 0.05) -> dict:
    """Swiss 5 from scratch, checking every 5 iterations, until every seat's upper 95% bound is below ``target``."""
    start = time.perf_counter()
    ab = fit_abstraction(SWISS, seed=1)
    state = S.SolveState(SWISS, 5, ab, seed=0, samples=40_000)
    while True:
        for _ in range(5):
            S.iterate(state)
        ex = S.exploitability(SWISS, 5, ab, S.average_strategy(state), 50_000, seed=state.iteration)
        worst = max(e.high for e in ex.values())
        print(f"  iteration {state.iteration}: {time.perf_counter() - start:.0f} s, worst seat upper bound "
              f"{worst:.3f}, per seat " + " ".join(f"{e.mean:.3f}" for e in ex.values()))
        if worst < target or state.iteration >= 200:
            return {"iterations": state.iteration, "seconds": round(time.perf_counter() - start, 1),
                    "worst seat upper 95%": worst}


def consistency(rules, players: int, hands: int = 2_000, samples: int = 10_000, seed: int = 3) -> dict:
    """Deals played by the equilibrium; at a random seat's turn, ``ask`` (knowing the earlier words, a knock, a swap)
    against the equilibrium's own most likely action for that seat, context and bucket."""
    solved = store.find(rules, players)
    policy = to_policy(solved.strategy, solved.abstraction)
    top = RANKS.index(rules.ranks[-1])
    seats = np.random.default_rng(seed).integers(0, players, size=hands)
    asked, agree, lost = 0, 0, []
    for i, seat in enumerate(int(s) for s in seats):
        d = deal_and_speak(rules, players, seat, policy, solved.strategy.knock, seed, i)
        if d["void"]:
            continue
        hero = d["dealt"][seat]
        swapper = next((s for s in range(seat) if d["trump_card"] in d["hands"][s]), None)
        words = [WORD_NAMES[c] for c in d["codes"]]
        jack = rules.jack_of_trump_forces_play and d["trump_card"] % 16 == RANKS.index("J")
        turn = turn_of(seat, d["codes"], players - 1 if d["knocked"] else d["rumba_seat"], d["knocked"], jack, rules)
        spoken = hero if swapper is not None or d["knocked"] else _after_swap(rules, hero, d["trump_card"])
        bucket = solved.abstraction.bucket_array()[policy.score(spoken, d["trump_card"] // 16, top, seat)]
        row = solved.strategy.word[seat, turn.ctx, bucket]
        own = {A_PASS: "pass", A_RUMBA: "rumba"}.get(int(row.argmax()), "play")
        result = analysis.ask(sorted(hero), d["trump_card"], players, seat, rules, policy, samples=samples,
                              seed=seed + i, before=words or None, dealer_knocked=d["knocked"], swapped_by=swapper)
        asked += 1
        if result.recommendation == own or (own == "pass" and result.recommendation == "throw-in"):
            agree += 1
        else:
            chosen = result.actions.get(own)
            best = result.actions[result.recommendation]
            if chosen is not None:
                lost.append(chosen.ev.mean - best.ev.mean)
    lost = np.array(lost)
    return {"rules": rules.name, "players": players, "hands asked": asked, "agree": agree / max(1, asked),
            "mean loss where they differ": float(lost.mean()) if len(lost) else 0.0,
            "max loss where they differ": float(lost.max()) if len(lost) else 0.0,
            "loss per hand overall": float(lost.sum() / max(1, asked))}


def _after_swap(rules, hand, trump_card):
    two = trump_card // 16 * 16 + RANKS.index("2")
    if rules.two_of_trump_swap and two in hand and trump_card != two:
        return (set(hand) - {two}) | {trump_card}
    return hand


def main(quick: bool = False, solve_target: bool = False, check: bool = False) -> None:
    print_table("Shipped strategies (rumbaodds strategy show --rules R --players N)", shipped_rows())
    if solve_target:
        print("\n## Solving swiss 5 players from scratch to every seat below 0.05 points per hand")
        print_table("result", [solve_to_target()])
    if check:
        rows = [consistency(SWISS, 5, 200 if quick else 2_000), consistency(FLEMISH, 4, 200 if quick else 2_000)]
        print_table("ask against the equilibrium vs the equilibrium's own action", rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--solve", action="store_true")
    parser.add_argument("--consistency", action="store_true")
    args = parser.parse_args()
    main(args.quick, args.solve, args.consistency)
