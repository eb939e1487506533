"""Do the shipped tables' answers agree with simulation? Random swiss hands, table answer against a long run.

    python -m benchmarks.check_answers [--hands 10] [--deals 200000] [--seed 2026]

For ``--hands`` random swiss hands at each player count 3-7 that a shipped packed table answers, every value the
table's answer holds (play with its exchange, Rumba, the margin where play is not one of the two best, the Rumba's
success) is compared with an independent ``ask`` run of ``--deals`` deals: ``|table - sim| / sqrt(se_t^2 +
se_s^2)`` is about |standard normal|. Printed: how many values, the share inside the combined 95% interval (about
95% expected), the largest z against the family-wise bound (1e-3 over every value; none beyond expected). Then,
for other random hands whose answer names an exchange, what it loses against the simulation's best exchange.
``tests/test_answer_pipeline.py`` runs the same check on fewer deals (issue 19).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from statistics import NormalDist

from rumbaodds.answer import pipeline, simulation
from rumbaodds.answer.question import Question
from rumbaodds.cards import format_card
from rumbaodds.rules import SWISS
from rumbaodds.stats import Z95
from rumbaodds.tables.pack import SHIPPED, SUFFIX


def pairs_of_values(players_list, hands_each: int, deals: int, seed: int) -> list[tuple[float, float, float, float]]:
    """(table value, its standard error, simulated value, its standard error) for every value a shipped table's
    answer holds, on random swiss hands."""
    out = []
    rng = random.Random(seed)
    se = lambda e: e.half_width / Z95  # noqa: E731
    for players in players_list:
        if not (SHIPPED / f"swiss-{players}p{SUFFIX}").exists():
            continue
        asked = tries = 0
        while asked < hands_each:
            tries += 1
            assert tries <= 100 * hands_each, f"the shipped swiss {players}-player table answers no default question"
            cards = rng.sample([format_card(c) for c in SWISS.deck], 6)
            seat = rng.randrange(players)
            table = pipeline.from_table(Question.of(" ".join(cards[:5]), cards[5], players, seat))
            if table is None:
                continue
            asked += 1
            sim = simulation.ask(" ".join(cards[:5]), cards[5], players, seat, samples=deals, seed=seed + asked)
            for name, c in table.actions.items():
                if name in ("pass", "throw-in") or name not in sim.actions:
                    continue
                s = sim.options[c.name]  # play: the same exchange
                out.append((c.ev.mean, se(c.ev), s.ev.mean, se(s.ev)))
            b, r = sim.actions[table.recommendation].ev, sim.actions[table.runner_up].ev
            if "play" not in (table.recommendation, table.runner_up):  # the sim's best exchange is another column
                out.append((table.margin.mean, se(table.margin), r.mean - b.mean, math.hypot(se(b), se(r))))
            q = sim.actions["rumba"].p_success if "rumba" in sim.actions else None
            p = table.meta["p_success"]
            if q is not None and 0 < q.mean < 1:
                out.append((p[0], (p[2] - p[1]) / 2 / Z95, q.mean, se(q)))
    return out


def zs(rows, shift: float = 0.0) -> list[float]:
    return [abs(t + shift * math.hypot(a, b) - s) / math.hypot(a, b) for t, a, s, b in rows if math.hypot(a, b) > 0]


def family_z(count: int) -> float:
    return NormalDist().inv_cdf(1 - 1e-3 / (2 * max(1, count)))


def named_exchanges(players_list, hands_each: int, deals: int, seed: int) -> list[tuple[float, float, tuple]]:
    """For random swiss hands whose answer (the pipeline: table, settled where it must be) names an exchange: what
    that exchange loses against the best one of a ``deals``-deal simulation, its half-width there, and the hand
    (cards, players, seat)."""
    out = []
    rng = random.Random(seed)
    for players in players_list:
        for _ in range(hands_each):
            cards = rng.sample([format_card(c) for c in SWISS.deck], 6)
            seat = rng.randrange(players)
            result = pipeline.answer(Question.of(" ".join(cards[:5]), cards[5], players, seat))
            if result.exchange is None or not result.exchange.resolved or "play" not in result.actions:
                continue
            sim = simulation.ask(" ".join(cards[:5]), cards[5], players, seat, samples=deals, seed=rng.randrange(2**31))
            values = {tuple(c.discard): c.ev for n, c in sim.options.items() if n.startswith("play")}
            chosen = values[tuple(result.exchange.best)]
            out.append((chosen.mean - min(v.mean for v in values.values()), chosen.half_width, (cards, players, seat)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10, help="hands per player count")
    parser.add_argument("--deals", type=int, default=200_000, help="deals of each hand's simulation")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    started = time.perf_counter()
    rows = pairs_of_values([3, 4, 5, 6, 7], args.hands, args.deals, args.seed)
    z = zs(rows)
    bound = family_z(len(z))
    inside = sum(x <= Z95 for x in z) / len(z)
    print(f"{len(z)} values of {5 * args.hands} hands, {args.deals:,} deals each: {inside:.1%} inside the combined "
          f"95% interval; largest z {max(z):.2f} (family-wise bound {bound:.2f}, {sum(x > bound for x in z)} beyond); "
          f"{time.perf_counter() - started:.0f} s")
    started = time.perf_counter()
    named = named_exchanges([3, 4, 5, 6, 7], args.hands, args.deals, args.seed + 1)
    worst = max(named, default=(0.0, 0.0, None))
    print(f"exchanges named by {len(named)} of {5 * args.hands} answers: {sum(n[0] <= 1e-12 for n in named)} "
          f"the simulation's best, {sum(n[0] <= 0.05 for n in named)} within 0.05 points of it; the worst "
          f"loses {worst[0]:.3f} (half-width {worst[1]:.3f}); {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
