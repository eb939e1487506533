"""Rummy: opening values solved per second (kernel, twin, ratio) and `rummy odds` deals per second.

`python -m benchmarks.bench_rummy [--quick]`. ``kernel_per_s`` is wall time with
Numba's default threads (on a machine shared with other work it is what was
left over); ``kernel_per_cpu_s`` and ``twin_per_cpu_s`` count CPU seconds of
one thread, so their ratio holds whatever else runs. Targets on a 2-core machine:
at least 200,000 solved 14-card hands per second (the kernel, Numba's default
threads), and `rummy odds` with 100,000 samples and 10 turns in under 5 s
once compiled. The hands are uniform random 14-card hands of each rule set's
deck; the odds hand cannot open as dealt in any rule set, so every sample
plays until it opens or the 10 turns are over.
"""

from __future__ import annotations

import argparse
import random
import time

from rumbaodds.rummy.cards import deck_types, hand_array
from rumbaodds.rummy.melds import _best_meld
from rumbaodds.rummy.odds import odds
from rumbaodds.rummy.rules import PRESETS
from rumbaodds.rummy.solver import NO_TARGET, OBJECTIVES, solve_batch
from rumbaodds.rummy.twin import _melds_with, solve_twin

from .common import best_time, compile_seconds, print_table, with_threads

HARD = "HA H5 D7 S9 C2 C4 CT CJ S2 D4 H9 SK CK"  # opening value 0 in every rule set
SEED = 2024


def cpu_time(func) -> float:
    """CPU seconds of one call on one thread: what the code costs, whatever else the machine runs."""
    start = time.process_time()
    func()
    return time.process_time() - start


def random_hands(rules, count: int, size: int = 14, seed: int = SEED) -> list[list[int]]:
    rng = random.Random(seed)
    deck = deck_types(rules)
    return [rng.sample(deck, size) for _ in range(count)]


def solver_rows(quick: bool) -> list[dict]:
    rows = []
    count = 2_000 if quick else 200_000
    twin_count = 30 if quick else 3_000
    for rules in PRESETS.values():
        hands = random_hands(rules, count)
        array = hand_array(hands)
        params = rules.params()
        for objective in ("value", "lex"):
            obj = OBJECTIVES[objective]
            solve_batch(array[:8], params, obj, NO_TARGET)  # compile / load from cache

            def job(array=array, params=params, obj=obj):
                solve_batch(array, params, obj, NO_TARGET)

            both = count / best_time(job, repeat=1 if quick else 3)
            one = count / with_threads(1, lambda job=job: cpu_time(job))
            _best_meld.cache_clear()  # the twin starts cold for every row
            _melds_with.cache_clear()
            start = time.process_time()
            for hand in hands[:twin_count]:
                solve_twin(hand, rules, objective)
            twin = twin_count / (time.process_time() - start)
            rows.append({"rules": rules.name, "objective": objective, "hands": count, "kernel_per_s": both,
                         "kernel_per_cpu_s": one, "twin_per_cpu_s": twin, "kernel/twin": one / twin,
                         "target_per_s": 200_000})
    return rows


def odds_rows(quick: bool) -> list[dict]:
    rows = []
    samples = 1_000 if quick else 100_000
    for rules in PRESETS.values():
        odds(HARD, rules, samples=200, seed=1)  # compile / load from cache
        start = time.perf_counter()
        result = odds(HARD, rules, players=4, turns=10, samples=samples, seed=SEED)
        seconds = time.perf_counter() - start
        rows.append({"rules": rules.name, "samples": samples, "turns": 10, "seconds": seconds,
                     "deals_per_s": samples / seconds, "target_s": 5.0 if not quick else "-",
                     "p_open_by_10": f"{result.by_turn[-1].mean:.3f}"})
    return rows


def compile_time() -> tuple[float, float]:
    """First calls in a fresh interpreter with an empty Numba cache: the solver, then the odds kernel."""
    solver = compile_seconds("from rumbaodds.rummy.solver import solve\nsolve('HA H2 H3 JK', 'romme')\n")
    both = compile_seconds("from rumbaodds.rummy.odds import odds\n"
                           f"odds('{HARD}', 'romme', samples=50, seed=1)\n")
    return solver, both


def main(quick: bool = False) -> None:
    print_table("rummy: opening values solved per second, random 14-card hands (value: the opening value and one "
                "meld set; lex: value then fewest penalty points, what `rummy open` shows); twin = plain Python "
                "(target: >= 200,000/s on 2 cores)", solver_rows(quick))
    print_table(f"rummy odds: {HARD!r}, 4 players, 10 turns, once compiled (target: 100,000 samples < 5 s)",
                odds_rows(quick))
    if quick:
        print("first-call compile time (empty cache): skipped in --quick")
    else:
        solver, both = compile_time()
        print(f"first-call compile time (empty cache): solver {solver:.1f} s; solver + odds kernel {both:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a tenth of the hands and samples, one timing each")
    main(parser.parse_args().quick)
