"""Double-dummy solves per second: random deals, the chosen seat is the deal's leader.

`python -m benchmarks.bench_dd [--quick]`. Targets on a 2-core machine: swiss 5
players >= 30,000 deals/s, swiss 7 players >= 1,000 deals/s. The solve time of
one deal varies a lot (a few deals at 7 players need 10^5..10^6 search nodes),
so the 7-player rows use enough deals to average over that tail.
"""

from __future__ import annotations

import argparse

import numpy as np

from rumbaodds.engine.dd import solve_batch
from rumbaodds.engine.rng import deal_batch
from rumbaodds.rules import FLEMISH, SWISS

from .common import best_time, compile_seconds, print_table, with_threads

# (rules, players, deals in a full run)
CASES = (
    (SWISS, 3, 200_000),
    (SWISS, 5, 100_000),
    (SWISS, 7, 10_000),
    (FLEMISH, 2, 400_000),
    (FLEMISH, 4, 100_000),
    (FLEMISH, 6, 20_000),
)
TARGETS = {("swiss", 5): 30_000, ("swiss", 7): 1_000}
SEED = 2024


def run(quick: bool = False) -> list[dict]:
    rows = []
    for rules, players, count in CASES:
        if quick:
            count //= 200
        hands, trump_cards, leaders = deal_batch(rules.deck_array(), players, rules.hand_size, SEED, 0, count)
        trumps = trump_cards >> 4
        follow = rules.follow_code
        solve_batch(hands[:4], leaders[:4], trumps[:4], leaders[:4], follow)  # compile / load from cache
        values = solve_batch(hands, leaders, trumps, leaders, follow)

        def job(hands=hands, leaders=leaders, trumps=trumps, follow=follow):
            solve_batch(hands, leaders, trumps, leaders, follow)

        both = count / best_time(job, repeat=1 if quick else 3)
        one = count / with_threads(1, lambda: best_time(job, repeat=1))
        target = TARGETS.get((rules.name, players))
        rows.append({
            "rules": rules.name, "players": players, "deals": count,
            "deals_per_s": both, "1_core_per_s": one,
            "target_per_s": target if target else "-",
            "mean_dd_of_leader": float(np.mean(values)),
        })
    return rows


def compile_time() -> float:
    """First call in a fresh interpreter with an empty Numba cache: dd_tricks and solve_batch."""
    return compile_seconds(
        "import numpy as np\n"
        "from rumbaodds.engine.dd import dd_tricks, solve_batch\n"
        "h = np.array([1, 2, 4], dtype=np.uint64)\n"
        "z = np.zeros(1, dtype=np.int64)\n"
        "dd_tricks(h, 0, 0, 0, 0)\n"
        "solve_batch(h[None, :], z, z, z, 0)\n"
    )


def main(quick: bool = False) -> None:
    print_table("double-dummy solves per second, seat = leader, random deals, Numba's default threads "
                "(targets: swiss 5 >= 30,000/s, swiss 7 >= 1,000/s on 2 cores)", run(quick))
    if quick:
        print("first-call compile time of dd_tricks + solve_batch (empty cache): skipped in --quick")
    else:
        print(f"first-call compile time of dd_tricks + solve_batch (empty cache): {compile_time():.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a twentieth of the deals, one timing each")
    main(parser.parse_args().quick)
