"""Solved strategies: what every shipped one cost and how exploitable it is; the swiss 5-player solve against its
15-minute target; and whether ``ask`` against the equilibrium agrees with the equilibrium's own actions.

    python -m benchmarks.bench_strategy                 # the shipped strategies (instant)
    python -m benchmarks.bench_strategy --solve         # swiss 5 from scratch until every seat is below 0.05
    python -m benchmarks.bench_strategy --consistency   # 2,000 hands per preset (swiss 5, flemish 4), a few minutes
"""

from __future__ import annotations

import argparse
import time

from rumbaodds.rules import FLEMISH, SWISS, get_rules
from rumbaodds.strategy import solver as S
from rumbaodds.strategy import store
from rumbaodds.strategy.abstraction import fit_abstraction
from rumbaodds.strategy.consistency import consistency

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


def game_rows() -> list[dict]:
    """Issue 38: the score-aware strategies' exploitability in game terms (stakes per hand), beside what a best
    response gains against the per-hand equilibrium played at every score (both measured by the solve)."""
    from rumbaodds.strategy.score_aware import find_score

    rows = []
    for rules, n in SHIPPED:
        solved = find_score(get_rules(rules), n)
        if solved is None:
            rows.append({"rules": rules, "players": n, "score-aware": "not solved"})
            continue
        aware, blind = solved.meta["exploitability_stakes"], solved.meta["hand_equilibrium_exploitability_stakes"]
        rows.append({"rules": rules, "players": n, "iterations": solved.meta["iterations"],
                     "seconds": solved.meta["seconds"],
                     "score-aware worst seat (stakes/hand)": max(aware[str(s)]["mean"] for s in range(n)),
                     "worst upper 95%": max(aware[str(s)]["high"] for s in range(n)),
                     "per-hand equilibrium worst seat": max(blind[str(s)]["mean"] for s in range(n))})
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


def main(quick: bool = False, solve_target: bool = False, check: bool = False) -> None:
    print_table("Shipped strategies (rumbaodds strategy show --rules R --players N)", shipped_rows())
    print_table("Score-aware strategies: a best response's gain in stakes per hand, from score states as they occur "
                "in games (rumbaodds strategy solve-game)", game_rows())
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
