"""Greedy play-outs per second, random dealing included: kernel (2 cores, 1 core) against its twin."""

from __future__ import annotations

import time

from rumbaodds.engine.playout import random_greedy_playouts
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.twins import common as twin

from .common import best_time, compile_seconds, print_table, with_threads

CASES = ((SWISS, 5), (FLEMISH, 4))


def twin_rate(rules, players: int, count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        hands, trump_card, leader = twin.deal(rules.deck, players, rules.hand_size, 7, i)
        twin.play_greedy(hands, leader, trump_card // 16, rules.follow_code)
    return count / (time.perf_counter() - start)


def run(quick: bool = False) -> list[dict]:
    count = 50_000 if quick else 4_000_000
    rows = []
    for rules, players in CASES:
        deck = rules.deck_array()
        random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, 1, 0, 100)  # compile

        def job():
            random_greedy_playouts(deck, players, rules.hand_size, rules.follow_code, 1, 0, count)

        repeat = 1 if quick else 3
        both = count / best_time(job, repeat)
        one = count / with_threads(1, lambda: best_time(job, repeat))
        plain = twin_rate(rules, players, 500 if quick else 10_000)
        rows.append({
            "rules": rules.name, "players": players,
            "kernel_2_cores_per_s": both, "kernel_1_core_per_s": one, "twin_per_s": plain,
            "kernel_vs_twin": both / plain, "1_core_vs_twin": one / plain, "2_cores_vs_1": both / one,
        })
    return rows


def compile_time() -> float:
    return compile_seconds(
        "from rumbaodds.rules import SWISS\n"
        "from rumbaodds.engine.playout import random_greedy_playouts\n"
        "random_greedy_playouts(SWISS.deck_array(), 5, 5, 0, 1, 0, 10)\n"
    )


def main(quick: bool = False) -> None:
    print_table("greedy play-outs per second, dealing included (target: swiss 5 >= 6e6/s on 2 cores, "
                ">= 1000x twin)", run(quick))
    if quick:
        print("first-call compile time of the greedy play-out (empty cache): skipped in --quick")
    else:
        print(f"first-call compile time of the greedy play-out (empty cache): {compile_time():.1f} s")


if __name__ == "__main__":
    main()
