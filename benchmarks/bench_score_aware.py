"""Issue 38: do the shipped score-aware strategies win games? Whole games, no model of the game's values.

For every preset and player count with a score-aware strategy, four tables of ``rumbaodds game`` from the start
score (player 0 first to speak, seed 1): player 0 score-aware among score-blind players (per-hand equilibrium), and
everybody blind; player 0 blind among score-aware players, and everybody aware. What player 0 gains by seeing the
score, in stakes per game with a 95% interval, in each company. The solver's own exploitability (in its model of
the game's values) is printed by ``bench_strategy``; this is the check that does not rest on that model.

    python -m benchmarks.bench_score_aware [GAMES [RULES:PLAYERS ...]]
"""

from __future__ import annotations

import math
import sys

from rumbaodds.match.api import game_values
from rumbaodds.rules import PRESETS
from rumbaodds.strategy.score_aware import find_score

from .common import print_table

Z95 = 1.959963984540054


def _player0(rules, n, opponents, games):
    v = game_values(rules, n, opponents=opponents, games=games, seed=1)
    return float(v.payout[0]), float(v.payout_se()[0]), float(v.p_win[0]), v.unfinished


def rows(games: int = 20_000, only: list[str] | None = None) -> list[dict]:
    out = []
    for name, rules in PRESETS.items():
        for n in range(rules.min_players, rules.max_players + 1):
            if find_score(rules, n) is None or (only and f"{name}:{n}" not in only):
                continue
            aware_among_blind = _player0(rules, n, "hand-equilibrium,0=equilibrium", games)
            all_blind = _player0(rules, n, "hand-equilibrium", games)
            blind_among_aware = _player0(rules, n, "equilibrium,0=hand-equilibrium", games)
            all_aware = _player0(rules, n, None, games)
            gain = aware_among_blind[0] - all_blind[0]
            gain_half = Z95 * math.hypot(aware_among_blind[1], all_blind[1])
            keep = all_aware[0] - blind_among_aware[0]
            keep_half = Z95 * math.hypot(all_aware[1], blind_among_aware[1])
            out.append({"rules": name, "players": n, "games": games,
                        "aware among blind: gain (stakes/game)": f"{gain:+.2f} ± {gain_half:.2f}",
                        "win chance": f"{aware_among_blind[2] - all_blind[2]:+.3f}",
                        "among aware: what seeing is worth": f"{keep:+.2f} ± {keep_half:.2f}",
                        "win chance ": f"{all_aware[2] - blind_among_aware[2]:+.3f}",
                        "unfinished": aware_among_blind[3] + all_blind[3] + blind_among_aware[3] + all_aware[3]})
    return out


def main(games: int = 20_000, only: list[str] | None = None) -> None:
    print_table("player 0 seeing the score against not seeing it, whole games from the start score (seed 1)",
                rows(games, only))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000, sys.argv[2:])
