"""Whole hands per second (kernel against twin), `ask` at 200,000 samples, and compile time."""

from __future__ import annotations

import time

import numpy as np

from rumbaodds import analysis
from rumbaodds.cards import mask_of, parse_card, parse_hand
from rumbaodds.engine import hand as kernel
from rumbaodds.models import MODELS
from rumbaodds.rules import SWISS
from rumbaodds.twins import hand as twin_hand

from .common import best_time, cached_seconds, compile_seconds, print_table, with_threads

HAND, TRUMP, PLAYERS, SEAT = "HA HK HQ S6 C7", "H9", 5, 2
ASK_SNIPPET = (
    "from rumbaodds.analysis import ask\n"
    f"ask({HAND!r}, {TRUMP!r}, {PLAYERS}, {SEAT}, samples=1000, seed=1)\n"
)


def _kernel_inputs():
    hand = parse_hand(HAND)
    trump = parse_card(TRUMP)
    situation = analysis.make_situation(hand, trump, PLAYERS, SEAT)
    names = situation.choices()
    codes = np.array([analysis._choice_code(n) for n in names], dtype=np.int64)
    unknown = np.array([c for c in SWISS.deck if c not in hand and c != trump], dtype=np.int64)
    args = (np.uint64(SWISS.deck_mask), unknown, np.uint64(mask_of(hand)), trump, PLAYERS, SEAT,
            kernel.rules_array(SWISS), MODELS["default"].as_array(), kernel.POLICY_EXPERT, 0, False,
            np.full(SEAT, -1, dtype=np.int64), codes)
    return hand, trump, names, args


def run(quick: bool = False) -> list[dict]:
    hand, trump, names, args = _kernel_inputs()
    count = 50_000 if quick else 400_000
    kernel.ask_batch(*args, np.uint64(1), 0, 100)
    both = count / best_time(lambda: kernel.ask_batch(*args, np.uint64(1), 0, count))
    one = count / with_threads(1, lambda: best_time(lambda: kernel.ask_batch(*args, np.uint64(1), 0, count)))
    twin_count = 200 if quick else 1_000
    start = time.perf_counter()
    for i in range(twin_count):
        twin_hand.simulate_sample(SWISS, PLAYERS, SEAT, hand, trump, MODELS["default"], "expert", seed=1, index=i)
    plain = twin_count / (time.perf_counter() - start)
    choices = len(names)
    return [{
        "situation": f"swiss {PLAYERS}p seat {SEAT}, {choices} choices/deal",
        "hands_per_s_2_cores": both * choices, "hands_per_s_1_core": one * choices, "twin_hands_per_s": plain * choices,
        "kernel_vs_twin": both / plain, "2_cores_vs_1": both / one,
    }]


def ask_seconds() -> float:
    analysis.ask(HAND, TRUMP, PLAYERS, SEAT, samples=1000, seed=1)
    return best_time(lambda: analysis.ask(HAND, TRUMP, PLAYERS, SEAT, samples=200_000, seed=1), repeat=3)


def main(quick: bool = False) -> None:
    print_table("whole hands per second, default opponents, expert play (a hand = one choice of the asking "
                "player played out; target >= 1e6/s on 2 cores)", run(quick))
    print(f"`ask` with 200,000 deals once compiled: {ask_seconds():.2f} s (target < 2 s)")
    cold = compile_seconds(ASK_SNIPPET)
    print(f"first `ask` in a new interpreter, empty Numba cache (compile included): {cold:.1f} s")
    print(f"first `ask` in a new interpreter, Numba cache warm: {cached_seconds(ASK_SNIPPET):.1f} s")


if __name__ == "__main__":
    main()
