"""The score-aware solver against the exact game equilibrium on the tiny game, every payout and setting (issue 38).

    python -m benchmarks.bench_exact_game [--rows win-only,to-winners,longer,by-seat] [--default-penalties]

The tiny game of ``tests/test_exact_game.py`` (2 players, 3 suits of Q K A, two cards each, start score 4, no knock,
no trick +2, failed Rumba +3, sit-out +2). Per row: the per-hand equilibrium (70 iterations, seed 3), the
score-aware solve started from it (``solve_score(..., base=)``), and an exact best response of each player against
each (``strategy.exact_game.ExactGame``, games cut off above ``cap`` points): its gain in stakes per hand dealt,
players 0 / 1. The first row is what the statistical test asserts (at most 0.02); the others are the figures
docs/STRATEGY.md "Checked exactly" quotes.

Rows (each about 2-6 minutes on two cores):

- ``win-only``: payout win-only, 120 iterations, 4 rounds, 20,000 games, cap 22;
- ``to-winners``: the default payout, the same solve, cap 16;
- ``longer``: to-winners, 240 iterations, 8 rounds, 40,000 games, cap 16;
- ``by-seat``: the same with the seat in the game's values (``--values-by-seat``).

``--default-penalties`` adds the to-winners row at the rule book's penalties (+5 no trick, +10 failed Rumba), cut
at 40 points (long: its game has far more states).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from rumbaodds.rules import RuleSet
from rumbaodds.strategy import solver as S
from rumbaodds.strategy import store
from rumbaodds.strategy.abstraction import fit_abstraction
from rumbaodds.strategy.exact_game import ExactGame
from rumbaodds.strategy.score_solver import score_blind, solve_score
from rumbaodds.strategy.solver import DEFAULT_POLICY

from .common import print_table

TINY_GAME = RuleSet(name="tiny-game", suits="CDH", ranks="QKA", hand_size=2, min_players=2, max_players=2,
                    exchange_limit=0, rumba_min_tricks=2, throw_in_below="K", knock=False, start_score=4,
                    normal_no_trick=2, rumba_others_no_trick=2, rumba_fail_score=3, sit_out_penalty=2)
SHORT = dict(iterations=120, rounds=4, games=20_000)
LONG = dict(iterations=240, rounds=8, games=40_000)
ROWS = {
    "win-only": (TINY_GAME.replace(payout="win-only"), SHORT, False, 22),
    "to-winners": (TINY_GAME, SHORT, False, 16),
    "longer": (TINY_GAME, LONG, False, 16),
    "by-seat": (TINY_GAME, LONG, True, 16),
}
DEFAULT_PENALTIES = (TINY_GAME.replace(normal_no_trick=5, rumba_others_no_trick=5, rumba_fail_score=10,
                                       sit_out_penalty=5), SHORT, False, 40)


def row(name: str, rules: RuleSet, solve: dict, by_seat: bool, cap: int, folder: Path) -> dict:
    start = time.perf_counter()
    abstraction = fit_abstraction(rules, players=2, samples=20_000)
    state = S.SolveState(rules, 2, abstraction, seed=3, samples=12_000)
    for _ in range(70):
        S.iterate(state)
    base = store.Solved(S.average_strategy(state), rules, 2, abstraction, {"name": "tiny"})
    score = solve_score(rules, 2, out=folder / f"{name}.npz", base=base, samples=20_000, states=20,
                        eval_samples=40_000, by_seat=by_seat, **solve)
    aware = ExactGame(rules, 2, abstraction, score.strategy, DEFAULT_POLICY, cap=cap).solve()
    blind = ExactGame(rules, 2, abstraction, score_blind(base, 2), DEFAULT_POLICY, cap=cap).solve()
    gains = [f"{aware[p]['gain_per_hand']:.3f}" for p in range(2)]
    blind_gains = [f"{blind[p]['gain_per_hand']:.3f}" for p in range(2)]
    return {"row": name, "payout": rules.payout, "solve": f"{solve['iterations']} it., {solve['rounds']} rounds, "
            f"{solve['games']:,} games" + (", by seat" if by_seat else ""), "cap": cap,
            "score-aware 0 / 1": " / ".join(gains), "per-hand equilibrium 0 / 1": " / ".join(blind_gains),
            "cut chance": f"{max(aware[p]['cut_chance'] for p in range(2)):.1e}",
            "seconds": round(time.perf_counter() - start)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--default-penalties", action="store_true")
    args = parser.parse_args(argv)
    wanted = [r for r in args.rows.split(",") if r]
    unknown = [r for r in wanted if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {', '.join(unknown)} (use {', '.join(ROWS)})")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RUMBAODDS_STRATEGIES"] = str(Path(tmp) / "cache")  # the solves' checkpoints, not the user's
        for name in wanted:
            rows.append(row(name, *ROWS[name], Path(tmp)))
            print(rows[-1], flush=True)
        if args.default_penalties:
            rows.append(row("default penalties", *DEFAULT_PENALTIES, Path(tmp)))
    print_table("best response's gain, stakes per hand dealt (score-aware solve and per-hand equilibrium)", rows)


if __name__ == "__main__":
    main()
