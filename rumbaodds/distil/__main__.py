"""``python -m rumbaodds.distil [--out DIR] [--scale S] [--no-believe-call]``: record PIMC, fit, write
engine/distilled_weights.py and engine/distilled_trees.py.

The recordings (one gzipped JSON Lines file per configuration, under
``--out``, default ``build/distil``) are kept, so a run killed midway starts
again where it stopped and a refit needs no new PIMC play. Fixed seeds: the
same command gives the same weights.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

import numpy as np

from ..rules import FLEMISH, SWISS
from .fit import design, fit_all
from .record import record_deals
from .trees import DEPTH, fit_trees, tree_rows
from .trees import agreement as tree_agreement
from .weights import write_trees, write_weights

# (rule set, players, deals, Rumba?, seed): Rumbas and normal games. Each follow rule gets weights of its own
# (pooling swiss and flemish cost the swiss 5-player caller 6 points of Rumba success); the player count is a
# feature, so 4 and 6 players are played from the fits at 3, 5 and 7 (swiss) and 4 (flemish). The 7-player
# Rumbas joined the weights in numbers version 5: fitted to the trees alone, the 7-player caller lost 2.5 points
# of Rumba success to a PIMC caller (issue 17, docs/SIMULATION.md).
CONFIGS = (
    (SWISS, 5, 4000, True, 11), (SWISS, 5, 4000, False, 12),
    (FLEMISH, 4, 3000, True, 21), (FLEMISH, 4, 3000, False, 22),
    (SWISS, 3, 3000, True, 31), (SWISS, 3, 3000, False, 32),
    (SWISS, 7, 3000, True, 71),
)
# Recorded for the trees alone (the weights stay those of CONFIGS): none today.
TREE_CONFIGS: tuple = ()
# The caller's leads that trees score (distil/trees.py): (rule set, active players, trick, trees, the Rumbas fitted
# to). Where search gained most against the weights (issue 17, bench_cardplay --where): the second lead at 3
# players, the first three at 7. In flemish the weights did as well as search already.
TREE_SPECS = (
    (SWISS, 3, 1, 80, (SWISS, 3, 3000, True, 31)),
    (SWISS, 7, 0, 40, (SWISS, 7, 3000, True, 71)),
    (SWISS, 7, 1, 40, (SWISS, 7, 3000, True, 71)),
    (SWISS, 7, 2, 40, (SWISS, 7, 3000, True, 71)),
)


# the shipped weights record their Rumbas with defenders who believe the call (numbers version 4, issue 17)
BELIEVE_CALL = True


def config_name(rules, players: int, count: int, rumba: bool, seed: int, believe: bool) -> str:
    kind = ("Rumba (the defenders believe the call)" if believe else "Rumba") if rumba else "normal"
    return f"{rules.name} {players}p {kind} {count} deals seed {seed}"


def recording(folder: Path, rules, players: int, count: int, rumba: bool, seed: int,
              believe: bool) -> list[dict]:
    """The recorded decisions of one configuration, from ``folder`` if recorded before. ``believe``: in a Rumba
    the defenders' worlds give the caller a hand the deals give him (distil/record.py ``points_belief``)."""
    kind = ("rumba-believed" if believe else "rumba") if rumba else "normal"
    path = folder / f"{rules.name}-{players}p-{kind}-{count}-{seed}.jsonl.gz"
    if path.exists():
        with gzip.open(path, "rt") as f:
            return [json.loads(line) for line in f]
    start = time.perf_counter()
    records = record_deals(rules, players, count, seed, rumba, believe=believe and rumba)
    tmp = path.with_suffix(".tmp")
    with gzip.open(tmp, "wt") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    tmp.replace(path)
    print(f"  recorded {path.name}: {len(records)} decisions in {time.perf_counter() - start:.0f} s", flush=True)
    return records


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rumbaodds.distil", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/distil"), help="folder of the recordings")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of each configuration's deals")
    parser.add_argument("--dry-run", action="store_true", help="fit and report, do not write the weights")
    parser.add_argument("--labels", choices=("equivalent", "tied"), default="equivalent",
                        help="which cards count as PIMC's choice (distil/fit.py design)")
    parser.add_argument("--weighting", choices=("none", "spread", "regret"), default="none",
                        help="how much each decision counts (distil/fit.py decision_weights)")
    parser.add_argument("--believe-call", action=argparse.BooleanOptionalAction, default=BELIEVE_CALL,
                        help="record the Rumbas with defenders who believe the call (the caller's hand is one the "
                             "deals give him: distil/record.py points_belief), as the shipped weights are")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    groups: dict = {}
    names, tree_names = [], []
    tree_data: dict = {}
    wanted = [spec[4] for spec in TREE_SPECS]
    for config in CONFIGS + TREE_CONFIGS:
        rules, players, count, rumba, seed = config
        count = max(1, int(count * args.scale))
        (tree_names if config in TREE_CONFIGS else names).append(
            config_name(rules, players, count, rumba, seed, args.believe_call))
        records = recording(args.out, rules, players, count, rumba, seed, args.believe_call)
        if config in wanted:
            tree_data[config] = records
        if config in TREE_CONFIGS:
            continue
        for key, (xs, ys, vs) in design(records, rules, args.labels).items():
            gx, gy, gv = groups.setdefault(key, ([], [], []))
            gx.extend(xs)
            gy.extend(ys)
            gv.extend(vs)
    weights, report = fit_all(groups, weighting=args.weighting)
    for (follow, role, when), row in sorted(report.items()):
        print(f"  {('swiss', 'flemish')[follow]:7s} {('caller', 'defender', 'normal')[role]:8s} "
              f"{('lead', 'follow')[when]:6s} "
              f"{row['decisions']:6d} decisions, agrees with PIMC on {row['agreement']:.1%}")
    trees = fit_tree_rules(tree_data, weights)
    if not args.dry_run:
        options = "" if (args.labels, args.weighting) == ("equivalent", "none") else \
            f" --labels {args.labels} --weighting {args.weighting}"
        options += "" if args.believe_call else " --no-believe-call"
        provenance = (f"Made by `python -m rumbaodds.distil{options}` from PIMC's decisions (32 worlds a decision) "
                      "in:\n"
                      + "\n".join(f"- {n}" for n in names))
        print(f"  wrote {write_weights(weights, provenance)}")
        tree_provenance = provenance + "".join(f"\n- {n} (for the trees only)" for n in tree_names)
        print(f"  wrote {write_trees(*trees, tree_provenance)}")


def fit_tree_rules(tree_data: dict, weights: np.ndarray) -> tuple[np.ndarray, ...]:
    """(slot, start, feature, threshold, leaf): an ensemble per TREE_SPECS entry, fitted to its Rumbas'
    decisions there (``tree_data``: records by configuration), correcting the fitted ``weights``; ensemble e is
    the trees ``start[e]`` to ``start[e + 1]``."""
    slot = np.full((2, 8, 5), -1, dtype=np.int64)
    start = np.cumsum([0] + [spec[3] for spec in TREE_SPECS]).astype(np.int64)
    feature = np.full((start[-1], 2 ** DEPTH - 1), -1, dtype=np.int8)
    threshold = np.zeros((start[-1], 2 ** DEPTH - 1), dtype=np.float32)
    leaf = np.zeros((start[-1], 2 ** DEPTH), dtype=np.float32)
    for e, (rules, players, trick, trees, config) in enumerate(TREE_SPECS):
        x, y, groups, linear = tree_rows(tree_data[config], rules, weights[rules.follow_code], players, trick)
        f, t, lf = fit_trees(x, y, groups, linear, trees=trees)
        a, b = start[e], start[e + 1]
        feature[a:b], threshold[a:b], leaf[a:b] = f, t, lf
        slot[rules.follow_code, players, trick] = e
        before = tree_agreement(f, t, np.zeros_like(lf), x, y, groups, linear)
        after = tree_agreement(f, t, lf, x, y, groups, linear)
        print(f"  {rules.name:7s} caller   lead {trick + 1} at {players} players {len(np.unique(groups)):6d} "
              f"decisions, agrees with PIMC on {before:.1%} by the weights, {after:.1%} with {trees} trees")
    return slot, start, feature, threshold, leaf

if __name__ == "__main__":
    main()
