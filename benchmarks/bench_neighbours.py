"""How alike are neighbouring hands, and how much precision does pooling them add? (measurements for issue 35)

    python -m benchmarks.bench_neighbours [--situations 100] [--deals 64 256 1024] [--members 24] [--alike]
                                          [--representative] [--floor] [--json]

On issue 35's situations (``benchmarks/check_quotes.py``'s draw, both rule sets, with their 200,000-deal truths from
its cache, made where missing):

1. ``--alike``: each situation against its neighbour (one low side card one rank up or down, the same seat and
   turned card), both at 200,000 deals: how far the values of play and Rumba and the Rumba's success move, the
   spread ``tau`` of a group implied by it (``E (a - b)^2 = 2 tau^2``), and the per-deal spread of the difference
   when both hands are played on the same seeds (common deals) against independent deals. About 7 minutes.
2. Pooling: each situation's neighbour group (:mod:`rumbaodds.tables.neighbours`, at most ``--members`` cells, its
   own always among them), every cell simulated with ``--deals`` deals (``simulate``: the cell's own deals, as a
   table has them), pooled by :func:`rumbaodds.tables.pooling.pool` with one spread per rule set, flat and scaled
   to each cell's per-deal variance (both on the same cells); play is pooled per discard count and the best pooled
   count taken. Printed per rule set and deals per cell, for play, Rumba and
   success: the share of 95% intervals holding the truth and the median half-width, alone and pooled, and the
   precision gain (the cell's own variance over the pooled one: how many times its own deals the pooled estimate
   is worth, the ratio issue 35 asks for).
3. ``--representative``: each situation's hand against its group's representative (the group's middle, what a
   table of one cell per group would answer it with), both on the same seeds: how far apart, ``kappa`` (the
   distance in units of the hand's per-deal spread), and what is left after a two-feature offset model of where
   the hand sits in its group, predicted leave-one-out.

4. ``--floor``: what a table of one cell per group can answer a hand that is not its group's representative with,
   whatever the representative's deals: the half-width of such a hand's Rumba value and success from the shipped
   flemish tables' calibrations (``group_model.factor`` of their offset model's residuals), at 64, 600 and 2,400
   deals per representative, for a per-deal spread of 8 points and a success of 85%. Instant (no simulation).

The seeds are fixed (situation i's member j, ``deals``), so the figures are exactly reproducible.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math

import numpy as np

from rumbaodds.answer import simulation
from rumbaodds.answer.question import Question
from rumbaodds.answer.situation import make_situation
from rumbaodds.cards import SUIT_BITS, cards_of, format_card, parse_card
from rumbaodds.engine import NUMBERS_VERSION
from rumbaodds.rules import get_rules
from rumbaodds.stats import Z95
from rumbaodds.tables.handclasses import canonical_hand, enumerate_trump_rank_pairs, side_suits
from rumbaodds.tables.neighbours import group_members, low_mask, representative, representative_lanes
from rumbaodds.tables.pooling import pool

from .check_quotes import CACHE, draw, figures, load_cache, truth
from .common import print_table

VALUES = ("play", "rumba", "success")


def _seed(*parts) -> int:
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big") & ((1 << 63) - 1)


def _text(cards) -> str:
    return " ".join(format_card(c) for c in cards)


def neighbour(s: dict) -> str | None:
    """The situation's hand with its first low side card one rank up (else down), if that card is free."""
    rules = get_rules(s["rules"])
    hand = [parse_card(c) for c in s["hand"].split()]
    trump = parse_card(s["trump"])
    low = low_mask(rules)
    for c in hand:
        if c // 16 == trump // 16 or not low >> (c % 16) & 1:
            continue
        for d in (c + 1, c - 1):
            if low >> (d % 16) & 1 and d not in hand and d != trump:
                return _text([d if x == c else x for x in hand])
    return None


def _values(result) -> dict:
    """Per value: (mean, variance) of one simulated cell; play per discard count (``play0``..)."""
    out = {}
    for name, choice in result.options.items():
        if name == "rumba" or str(name).startswith("play"):
            out[str(name)] = (choice.ev.mean, (choice.ev.half_width / Z95) ** 2)
    rumba = result.options.get("rumba")
    if rumba is not None and rumba.p_success is not None and rumba.p_success.samples:
        p = rumba.p_success
        out["success"] = (p.mean, max(p.mean * (1 - p.mean), 0.25 / p.samples) / p.samples)
    return out


def alike(situations: list[dict], samples: int = 200_000, paired_runs: int = 20, paired_deals: int = 4_000) -> list:
    rows = []
    for s in situations:
        other = neighbour(s)
        if other is None:
            continue
        a = make_situation(s["hand"], s["trump"], s["players"], s["seat"], s["rules"])
        b = make_situation(other, s["trump"], s["players"], s["seat"], s["rules"])
        ta = figures(simulation.simulate(Question(a, samples=samples, seed=_seed("truth", s["hand"], s["index"]))))
        tb = figures(simulation.simulate(Question(b, samples=samples, seed=_seed("truth", other, s["index"]))))
        diffs = {k: [] for k in VALUES}
        for r in range(paired_runs):
            fa = figures(simulation.simulate(Question(a, samples=paired_deals, seed=1000 + r)))
            fb = figures(simulation.simulate(Question(b, samples=paired_deals, seed=1000 + r)))
            for k in VALUES:
                if fa[k] and fb[k]:
                    diffs[k].append(fa[k][0] - fb[k][0])
        rows.append({"rules": s["rules"], "a": ta, "b": tb, "paired": {
            k: float(np.std(v, ddof=1) * math.sqrt(paired_deals)) if len(v) > 2 else None for k, v in diffs.items()}})
    out = []
    for rules in ("swiss", "flemish"):
        rs = [r for r in rows if r["rules"] == rules]
        for k in VALUES:
            both = [r for r in rs if r["a"][k] and r["b"][k]]
            d = np.array([r["a"][k][0] - r["b"][k][0] for r in both])
            se2 = np.array([((r["a"][k][2] - r["a"][k][1]) / (2 * Z95)) ** 2 + ((r["b"][k][2] - r["b"][k][1]) /
                                                                             (2 * Z95)) ** 2 for r in both])
            alone = [(r["a"][k][2] - r["a"][k][1]) / (2 * Z95) * math.sqrt(samples) * math.sqrt(2) for r in both]
            paired = [r["paired"][k] for r in both if r["paired"][k] is not None]
            out.append({"rules": rules, "value": k, "pairs": len(both), "|a-b| median": float(np.median(abs(d))),
                        "|a-b| p90": float(np.percentile(abs(d), 90)),
                        "tau": math.sqrt(max(0.0, float(np.mean(d**2 - se2)) / 2)),
                        "sd/deal independent": float(np.median(alone)),
                        "sd/deal common deals": float(np.median(paired)),
                        "variance ratio": float(np.median(alone)) ** 2 / float(np.median(paired)) ** 2})
    return out


def low_rank_features(mask: int, trump_suit: int, rules) -> tuple[int, int]:
    """(sum of the low side cards' rank indices, sum over side suits of the highest low rank held): where in its
    group a hand sits."""
    total = top = 0
    for suit in side_suits(rules, trump_suit):
        lane = (mask >> (SUIT_BITS * suit)) & low_mask(rules)
        ranks = [i for i in range(SUIT_BITS) if lane >> i & 1]
        total += sum(ranks)
        top += max(ranks, default=0)
    return total, top


def _loo_residuals(x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Leave-one-out residuals of the least-squares fit of ``z`` on ``x`` (each point predicted without itself)."""
    out = np.empty(len(z))
    for i in range(len(z)):
        keep = np.arange(len(z)) != i
        beta = np.linalg.lstsq(x[keep], z[keep], rcond=None)[0]
        out[i] = z[i] - x[i] @ beta
    return out


def against_representative(situations: list[dict], deals: int = 20_000) -> list[dict]:
    """Section 3: each situation's hand against its group's representative (:func:`neighbours.representative`, the
    group's middle), both on the same seeds: how far the representative's numbers are from the hand's, absolutely
    and in units of the hand's per-deal spread (the ``kappa`` a table of representatives would widen by); and what
    is left after an offset model (the distance over the per-deal spread, fitted by least squares on where the hand
    sits in its group against the representative, :func:`low_rank_features`), each hand predicted leave-one-out."""
    rows = {}
    for s in situations:
        rules = get_rules(s["rules"])
        hand = sum(1 << parse_card(c) for c in s["hand"].split())
        trump = parse_card(s["trump"]) // 16
        rep = representative(hand, trump, rules)
        own = canonical_hand(hand, trump, rules)
        if rep == own:
            continue
        seed = _seed("representative", s["index"])
        a = simulation.simulate(Question(make_situation(s["hand"], s["trump"], s["players"], s["seat"], rules),
                                         samples=deals, seed=seed))
        b = simulation.simulate(Question(make_situation(_text(cards_of(rep)), s["trump"], s["players"], s["seat"],
                                                        rules), samples=deals, seed=seed))
        fa, fb = figures(a), figures(b)
        where = np.subtract(low_rank_features(own, trump, rules), low_rank_features(rep, trump, rules))
        for k in VALUES:
            if fa[k] and fb[k]:
                sd = (fa[k][2] - fa[k][1]) / (2 * Z95) * math.sqrt(deals)
                if sd > 0:
                    rows.setdefault((s["rules"], k), []).append((fa[k][0] - fb[k][0], sd, *where))
    out = []
    for (rules, k), found in rows.items():
        d, sd, x = (np.array([r[0] for r in found]), np.array([r[1] for r in found]),
                    np.array([(1.0, r[2], r[3]) for r in found]))
        left = np.abs(_loo_residuals(x, d / sd) * sd)
        out.append({"rules": rules, "value": k, "hands": len(found), "|hand - rep| median": float(np.median(abs(d))),
                    "p90": float(np.percentile(abs(d), 90)), "max": float(abs(d).max()),
                    "kappa": float(math.sqrt((d**2).sum() / (sd**2).sum())),
                    "after offset model, median": float(np.median(left)), "p90 ": float(np.percentile(left, 90))})
    return out


def representative_shares() -> list[dict]:
    """Per rule set: how many (trump rank, class) pairs are their group's representative (a table of one cell per
    group holds that share of the cells)."""
    out = []
    for name in ("swiss", "flemish"):
        rules = get_rules(name)
        pairs = enumerate_trump_rank_pairs(rules)
        reps = representative_lanes(rules)[pairs.classes.side_lanes].all(axis=1)[pairs.class_rows]
        out.append({"rules": name, "pairs": len(pairs), "representatives": int(reps.sum()),
                    "share": float(reps.mean())})
    return out


def _members(s: dict, most: int) -> list[str]:
    rules = get_rules(s["rules"])
    hand = sum(1 << parse_card(c) for c in s["hand"].split())
    trump = parse_card(s["trump"]) // 16
    own = " ".join(sorted(s["hand"].split()))
    canon = group_members(hand, trump, rules, most=most, seed=s["index"])
    mine = canonical_hand(hand, trump, rules)
    return [own if m == mine else _text(cards_of(m)) for m in canon]


def simulate_groups(situations: list[dict], deals: int, most: int) -> dict[str, list]:
    """Per rule set: every cell of each situation's neighbour group (at most ``most``) simulated with ``deals``
    deals: (situation, whether it is the situation's own cell, its values)."""
    out = {}
    for rules in ("swiss", "flemish"):
        cells = out[rules] = []
        for s in (x for x in situations if x["rules"] == rules):
            own = " ".join(sorted(s["hand"].split()))
            for j, hand in enumerate(_members(s, most)):
                sit = make_situation(hand, s["trump"], s["players"], s["seat"], rules)
                res = simulation.simulate(Question(sit, samples=deals, seed=_seed("pool", s["index"], j, deals)))
                cells.append((s, hand == own, _values(res)))
    return out


def pooled(simulated: dict[str, list], deals: int, truths: dict, scaled: bool = False) -> list[dict]:
    """Issue 35's figures alone and pooled, per rule set, on :func:`simulate_groups`' cells. ``scaled``: each
    cell's spread about its group in proportion to its per-deal variance (``pool(..., scale=)``)."""
    out = []
    for rules, cells in simulated.items():
        groups = np.array([c[0]["index"] for c in cells])
        n = len(cells)
        est = {}  # name -> (own mean, own variance, pooled mean, pooled se, tau); nan where a cell lacks it
        for name in sorted({k for c in cells for k in c[2]}):
            have = np.array([name in c[2] and c[2][name][1] > 0 for c in cells])
            y = np.array([c[2][name][0] if h else np.nan for c, h in zip(cells, have)])
            v = np.array([c[2][name][1] if h else np.nan for c, h in zip(cells, have)])
            p = pool(y[have], v[have], groups[have], scale=v[have] * deals if scaled else None)
            mean, se = np.full(n, np.nan), np.full(n, np.nan)
            mean[have], se[have] = p.mean, p.se
            est[name] = (y, v, mean, se, float(p.tau[0]))
        plays = [k for k in est if k.startswith("play")]
        rows = {k: {"alone": [], "pooled": [], "held alone": [], "held pooled": [], "gain": []} for k in VALUES}
        for i, (s, own, _values_) in enumerate(cells):
            if not own:
                continue
            t = truths[s["index"]]
            for k in VALUES:
                names = [x for x in (plays if k == "play" else [k]) if x in est and not np.isnan(est[x][2][i])]
                if not t[k] or not names:
                    continue
                # values are score changes (lower is better): the best pooled discard count, the best of the cell's own
                pick = min(names, key=lambda x: est[x][2][i])
                alone = min(names, key=lambda x: est[x][0][i])
                y, v, m, se, _tau = est[pick]
                ya, va = est[alone][0][i], est[alone][1][i]
                rows[k]["alone"].append(Z95 * math.sqrt(va))
                rows[k]["pooled"].append(Z95 * se[i])
                rows[k]["held alone"].append(abs(ya - t[k][0]) <= Z95 * math.sqrt(va))
                rows[k]["held pooled"].append(abs(m[i] - t[k][0]) <= Z95 * se[i])
                rows[k]["gain"].append(v[i] / se[i] ** 2)
        for k in VALUES:
            r = rows[k]
            if r["alone"]:
                out.append({"rules": rules, "deals/cell": deals, "spread": "scaled" if scaled else "flat", "value": k,
                            "situations": len(r["alone"]),
                            "held alone": float(np.mean(r["held alone"])),
                            "held pooled": float(np.mean(r["held pooled"])),
                            "half alone": float(np.median(r["alone"])), "half pooled": float(np.median(r["pooled"])),
                            "precision gain": float(np.median(r["gain"])),
                            "tau": est["play0" if k == "play" else k][4]})
    return out


def situations_and_truths(count: int, samples: int = 200_000) -> tuple[list[dict], dict]:
    """Issue 35's first ``count`` situations of each rule set and their truths (``samples`` deals, cached)."""
    situations = draw("swiss", count) + draw("flemish", count)
    cache_file = CACHE / f"truths-v{NUMBERS_VERSION}.jsonl"
    cache = load_cache(cache_file)
    truths = {}
    for s in situations:
        s["index"] = f"{s['rules']}-{s['index']}"
        truths[s["index"]] = truth(s, samples, cache, cache_file)
    return situations, truths


def pooling_rows(situations: list[dict], truths: dict, deals: list[int], members: int) -> list[dict]:
    """Section 2's rows: per deals per cell, both spreads (flat, scaled) on the same simulated cells."""
    rows = []
    for d in deals:
        simulated = simulate_groups(situations, d, members)
        rows += pooled(simulated, d, truths) + pooled(simulated, d, truths, scaled=True)
    return rows


def group_floor(spread: float = 8.0, p: float = 0.85, deals=(64, 600, 2_400)) -> list[dict]:
    """Section 4: a member's half-widths from the shipped flemish group tables at ``deals`` per representative."""
    from rumbaodds.tables.group_model import factor, p_spread
    from rumbaodds.tables.pack import SHIPPED, SUFFIX, group_model, load_packed

    rows = []
    for path in sorted(SHIPPED.glob(f"flemish-*{SUFFIX}")):
        packed = load_packed(path)
        model = group_model(packed)
        for n in deals:
            rows.append({"table": path.name.removesuffix(SUFFIX), "deals per representative": n,
                         "Rumba value half (points)": spread * Z95 * factor(model.residual["rumba"], n) / math.sqrt(n),
                         "success half (pp)": 100 * float(p_spread(p)) * Z95 * factor(model.residual["success"], n)
                         / math.sqrt(n)})
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--situations", type=int, default=100)
    parser.add_argument("--deals", type=int, nargs="+", default=[64, 256, 1024])
    parser.add_argument("--members", type=int, default=24)
    parser.add_argument("--alike", action="store_true", help="also section 1 (about 7 minutes)")
    parser.add_argument("--representative", action="store_true", help="also section 3 (about a minute)")
    parser.add_argument("--floor", action="store_true", help="only section 4 (instant)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.floor:
        rows = group_floor()
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            print_table("4. A member's half-widths from a group table (spread 8 points, success 85%)", rows)
        return
    situations, truths = situations_and_truths(args.situations)
    report = {}
    if args.alike:
        report["alike"] = alike(situations)
    if args.representative:
        report["representative"] = against_representative(situations)
        report["representatives"] = representative_shares()
    report["pooled"] = pooling_rows(situations, truths, args.deals, args.members)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    if "alike" in report:
        print_table("1. Neighbours (one low side card one rank away), both at 200,000 deals", report["alike"])
    if "representative" in report:
        print_table("3. A hand against its group's representative, on the same seeds (20,000 deals)",
                    report["representative"])
        print_table("3. The representatives' share of the cells", report["representatives"])
    print_table("2. Pooling each situation's neighbour group (intervals against the 200,000-deal truths)",
                report["pooled"])


if __name__ == "__main__":
    main()
