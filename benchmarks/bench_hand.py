"""Whole hands per second (kernel against twin), `ask` at 200,000 samples, and compile time."""

from __future__ import annotations

import time

import numpy as np

from rumbaodds.answer import simulation
from rumbaodds.cards import parse_card, parse_hand
from rumbaodds.engine import hand as kernel
from rumbaodds.opponents.models import MODELS
from rumbaodds.rules import SWISS
from rumbaodds.twins import hand as twin_hand

from .common import best_time, cached_seconds, compile_seconds, cpu_ratio, print_table, with_threads

HAND, TRUMP, PLAYERS, SEAT = "HA HK HQ S6 C7", "H9", 5, 2
ASK_SNIPPET = (
    "from rumbaodds.answer.simulation import ask\n"
    f"ask({HAND!r}, {TRUMP!r}, {PLAYERS}, {SEAT}, samples=1000, seed=1)\n"
)


def _job(play: str = "expert") -> simulation.Job:
    """The kernel's arguments for the benchmark's question, as ``ask`` builds them (simulation.Job)."""
    situation = simulation.make_situation(parse_hand(HAND), parse_card(TRUMP), PLAYERS, SEAT)
    return simulation.Job.of(situation, MODELS["default"], play)


def run_plays(quick: bool = False) -> list[dict]:
    """Whole hands per second of each card play on 2 cores, in one run, and each against ``expert`` (a ratio), also
    as CPU time on one thread (common.cpu_ratio: steady on a shared machine)."""
    count = 5_000 if quick else 200_000
    repeat = 1 if quick else 3
    rates = {}
    calls = {}
    for play in simulation.POLICIES:
        args = _job(play).args()
        kernel.ask_batch(*args, np.uint64(1), 0, 100)
        rates[play] = count / best_time(lambda args=args: kernel.ask_batch(*args, np.uint64(1), 0, count), repeat)
        calls[play] = lambda args=args: kernel.ask_batch(*args, np.uint64(1), 0, count // 5)
    cpu = cpu_ratio(calls, "expert", pairs=1 if quick else 6)
    return [{"card play": play, "deals_per_s_2_cores": rate, "vs expert": rate / rates["expert"],
             "vs expert, CPU time": cpu[play]} for play, rate in rates.items()]


def run(quick: bool = False) -> list[dict]:
    job = _job()
    args = job.args()
    count = 5_000 if quick else 400_000
    kernel.ask_batch(*args, np.uint64(1), 0, 100)
    repeat = 1 if quick else 3
    both = count / best_time(lambda: kernel.ask_batch(*args, np.uint64(1), 0, count), repeat)
    one = count / with_threads(1, lambda: best_time(lambda: kernel.ask_batch(*args, np.uint64(1), 0, count), repeat))
    twin_count = 20 if quick else 1_000
    s = job.situation
    start = time.perf_counter()
    for i in range(twin_count):
        twin_hand.simulate_sample(SWISS, PLAYERS, SEAT, s.hand, s.trump_card, job.policy, job.plan, "expert", seed=1,
                                  index=i)
    plain = twin_count / (time.perf_counter() - start)
    choices = len(job.names)
    return [{
        "situation": f"swiss {PLAYERS}p seat {SEAT}, {choices} choices/deal",
        "hands_per_s_2_cores": both * choices, "hands_per_s_1_core": one * choices, "twin_hands_per_s": plain * choices,
        "kernel_vs_twin": both / plain, "2_cores_vs_1": both / one,
    }]


def ask_seconds(samples: int = 200_000) -> float:
    simulation.ask(HAND, TRUMP, PLAYERS, SEAT, samples=1000, seed=1)
    return best_time(lambda: simulation.ask(HAND, TRUMP, PLAYERS, SEAT, samples=samples, seed=1), repeat=3)


def main(quick: bool = False) -> None:
    print_table("whole hands per second, default opponents, expert play (a hand = one choice of the asking "
                "player played out; target >= 1e6/s on 2 cores)", run(quick))
    print_table("whole hands per second by card play (the default opponents; the distilled play should keep at "
                "least half of expert's throughput)", run_plays(quick))
    samples = 20_000 if quick else 200_000
    print(f"`ask` with {samples:,} deals once compiled: {ask_seconds(samples):.2f} s (target < 2 s at 200,000)")
    if quick:  # a cold compile of the whole ask path is a minute or more
        print("first `ask` in a new interpreter, empty Numba cache (compile included): skipped in --quick")
    else:
        cold = compile_seconds(ASK_SNIPPET)
        print(f"first `ask` in a new interpreter, empty Numba cache (compile included): {cold:.1f} s")
    print(f"first `ask` in a new interpreter, Numba cache warm: {cached_seconds(ASK_SNIPPET):.1f} s")


if __name__ == "__main__":
    main()
