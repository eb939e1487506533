"""Whole games per second (RULES.md §9) for swiss 5 and flemish 4 with the equilibrium, and the kernel against its
twin. Target (issue 21): at least 20,000 games per second on 2 cores."""

from __future__ import annotations

import time

import numpy as np

from rumbaodds.engine.rules_layout import rules_array
from rumbaodds.match.api import game_policy
from rumbaodds.match.kernel import MAX_HANDS
from rumbaodds.match.score import game_array
from rumbaodds.match.scored import game_batch
from rumbaodds.match.twin import twin_game
from rumbaodds.rules import FLEMISH, SWISS

from .common import best_time, print_table, with_threads

CASES = ((SWISS, 5), (FLEMISH, 4))


def _games(rules, n, count, seed=1):
    policy, knock = game_policy(rules, n)
    args = (rules.deck_array(), n, np.full(n, rules.start_score, np.int64), np.zeros(n, np.int64), n - 1,
            rules_array(rules), game_array(rules), policy.as_tuple(), knock, 1)
    return lambda start=0: game_batch(*args, np.uint64(seed), np.uint64(start), count, MAX_HANDS), policy, knock


def run(quick: bool = False) -> list[dict]:
    rows = []
    count = 5_000 if quick else 40_000
    for rules, n in CASES:
        batch, policy, knock = _games(rules, n, count)
        deals = batch()[3]  # compile, and the mean length of a game
        per_thread = {}
        for threads in (1, 2):
            seconds = with_threads(threads, lambda b=batch: best_time(b, repeat=2 if quick else 3))
            per_thread[threads] = count / seconds
        twin_count = 20 if quick else 60
        start = time.perf_counter()
        for g in range(twin_count):
            twin_game(rules, n, [rules.start_score] * n, [0] * n, n - 1, policy, knock, "expert", 1, g)
        twin_rate = twin_count / (time.perf_counter() - start)
        rows.append({"rules": rules.name, "players": n, "deals/game": float(np.abs(deals).mean()),
                     "games/s 1 thread": per_thread[1], "games/s 2 threads": per_thread[2],
                     "twin games/s": twin_rate, "kernel/twin (1 thread)": per_thread[1] / twin_rate,
                     "target 20,000/s": "met" if per_thread[2] >= 20_000 else "MISSED"})
    return rows


def main(quick: bool = False) -> None:
    print_table("whole games per second from the start scores, equilibrium players, expert play", run(quick))


if __name__ == "__main__":
    main()
