"""A table is valid when today's code recomputes a fixed sample of its cells exactly.

Shipped tables are not stamped with a digest of the code (a comment edit
would make them stale) but with ``engine.NUMBERS_VERSION``, and proved by
recomputation: a fixed sample of cells (blocks of consecutive cells from
seeded random starts) is simulated again with the table's own settings and
seed (its manifest: rule set, opponents, card play, adaptive precision) and
packed the same way (:func:`.pack.packed_columns`); every packed value must
equal the stored one. A cell draws sample ``i`` from stream
``cell * max_samples + i`` of the table's seed (:mod:`.build`), so a cell
recomputed alone is the cell of the full build. A refactor keeps the tables
valid; any change that moves a number (a rule of the kernels, a score, the
stopping rule, the quantisation) makes some cell differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..opponents.policies import Policy
from ..opponents.resolve import opponent_policy
from ..rules import RuleSet
from .build import calibration_part, chunk_frame, plan_rows, simulate_cells
from .pack import CODEC, Codec, load_packed, packed_columns
from .spec import DEFAULT_GROWTH, TableError, TableSpec

VALIDITY_SEED = 2026  # the fixed sample of cells: the same cells in every check
DEFAULT_BLOCKS = 12  # random starts per table...
DEFAULT_BLOCK = 5  # ...of consecutive cells each (one kernel call per block)
CALIBRATION_CHECKED = 8  # a group table's calibration members recomputed (4,096 deals each, with their representative)
COMPARED = ("code", "margin", "margin_half", "p_success", "samples", "rumba_deals", "ess")  # format 1
# format 2 (pack.py): the same where it keeps them, and its own
COMPARED_2 = ("code", "looks", "samples", "rumba_deals", "ev_play", "ev_play_half", "ev_rumba", "ev_rumba_half",
              "margin", "margin_half", "p_success", "ess")


def manifest_opponents(manifest: dict, rules: RuleSet) -> Policy:
    """The opponents a table was built against, rebuilt by name and checked against the manifest's digest."""
    wanted = manifest["opponents"]
    name = "equilibrium" if wanted.get("kind") == "strategy" else wanted["name"]
    policy = opponent_policy(name, rules, int(manifest["players"]))
    if policy.to_dict()["digest"] != wanted["digest"]:
        raise TableError(f"the opponents of this table ({wanted['name']}, digest {wanted['digest']}) are not the "
                         f"{name!r} of this install (digest {policy.to_dict()['digest']})")
    return policy


def manifest_spec(manifest: dict, rules: RuleSet | None = None, opponents: Policy | None = None) -> TableSpec:
    """The TableSpec that built a table (its manifest's settings and seed); ``rules``/``opponents`` override."""
    table_rules = RuleSet(**manifest["rules"])
    rules = rules or table_rules
    policy = opponents or manifest_opponents(manifest, table_rules)
    budget = ({"samples_per_cell": manifest["samples_per_cell"]} if manifest.get("samples_per_cell") else
              {"precision": manifest["precision"], "min_samples": manifest["min_samples"],
               "max_samples": manifest["max_samples"], "growth": manifest.get("growth") or DEFAULT_GROWTH})
    groups = manifest.get("neighbours")
    return TableSpec(rules, int(manifest["players"]), policy, manifest["play"], seed=int(manifest["seed"]),
                     knock_samples=manifest.get("knock_samples"), neighbours=groups["below"] if groups else None,
                     **budget)


def sample_cells(total: int, blocks: int = DEFAULT_BLOCKS, block: int = DEFAULT_BLOCK,
                 seed: int = VALIDITY_SEED) -> list[tuple[int, int]]:
    """``blocks`` runs of ``block`` consecutive cells (first, end) of a table of ``total`` cells: a fixed sample."""
    starts = np.random.default_rng(seed).choice(max(1, total - block + 1), size=min(blocks, total), replace=False)
    return [(int(s), min(total, int(s) + block)) for s in sorted(starts)]


def recompute_packed(spec: TableSpec, first: int, end: int, pairs: int, packed: dict | None = None
                     ) -> dict[str, np.ndarray]:
    """The packed values of cells ``first..end-1`` of a full table of ``spec`` (``pairs`` per seat), as int64.

    ``packed``: the stored table's ``manifest["packed"]`` (its format, looks and codec; default format 1)."""
    packed = packed or {"format": 1}
    cells = np.arange(first, end, dtype=np.int64)
    seats, pair_rows = cells // pairs, plan_rows(spec)[cells % pairs]  # a group table: representatives only
    frame = chunk_frame(spec, seats, pair_rows, first, simulate_cells(spec, seats, pair_rows, first))
    codec = Codec(**packed["codec"]) if "codec" in packed else CODEC
    columns = packed_columns(frame, spec.sample_range[1], packed["format"], packed.get("looks"), codec)
    if packed["format"] == 1:  # packed_columns keeps ess only where it differs from samples
        columns["ess"] = frame["ess"].to_numpy().round()
    names = COMPARED if packed["format"] == 1 else COMPARED_2
    return {name: np.asarray(columns[name]).astype(np.int64) for name in names if name in columns}


def stored_packed(columns: dict[str, np.ndarray], first: int, end: int) -> dict[str, np.ndarray]:
    """The stored packed values of cells ``first..end-1``, as int64 (ess: the deals where none is stored)."""
    out = {name: columns[name][first:end].astype(np.int64) for name in COMPARED + COMPARED_2 if name in columns}
    if "samples" in out:
        out.setdefault("ess", out["samples"])
    return out


def check_calibration(spec: TableSpec, groups: dict, result: Validity, members: int = CALIBRATION_CHECKED) -> None:
    """A group table's calibration: its first ``members`` recomputed (standardised distances equal to the stored
    ones, to 1e-9), and the stored model summary refitted from the stored calibration."""
    from .group_model import GroupModel
    from .groups import standardised

    stored = pd.DataFrame(groups["calibration"]).astype({"play": float, "rumba": float, "success": float})
    again = standardised(calibration_part(spec, 0, most=members))
    for name in ("seat", "member", "representative", "play", "rumba", "success"):
        a, b = again[name].to_numpy(np.float64), stored[name].to_numpy(np.float64)[:len(again)]
        same = (np.isnan(a) & np.isnan(b)) | np.isclose(a, b, rtol=1e-9, atol=1e-12)
        for i in np.flatnonzero(~same):
            result.differences.append((-1 - int(i), f"calibration {name}", int(round(b[i] * 1e6)),
                                       int(round(a[i] * 1e6))))
    fitted = GroupModel.fit(groups["calibration"], spec.rules, groups["below"]).summary()
    for value, figures in groups["model"].items():  # to 1e-9: another machine's linear algebra may round apart
        for key, stored_figure in figures.items():
            a, b = np.ravel(fitted[value][key]), np.ravel(stored_figure)
            if a.shape != b.shape or not np.allclose(a, b, rtol=1e-9, atol=1e-12):
                result.differences.append((-1, f"group model {value} {key}", 0, 1))


@dataclass
class Validity:
    """What a check found: the cells recomputed and every (cell, column, stored, recomputed) that differs."""

    path: Path
    cells: int = 0
    differences: list[tuple[int, str, int, int]] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.cells > 0 and not self.differences

    def describe(self) -> str:
        if self.valid:
            return f"{self.path.name}: {self.cells} cells recomputed, every packed value equal"
        shown = ", ".join(f"cell {c} {n} {a} != {b}" for c, n, a, b in self.differences[:5])
        return f"{self.path.name}: {len(self.differences)} packed values of {self.cells} cells differ ({shown})"


def check_packed(path: str | Path, blocks: int = DEFAULT_BLOCKS, block: int = DEFAULT_BLOCK,
                 rules: RuleSet | None = None, seed: int = VALIDITY_SEED) -> Validity:
    """Recompute a fixed sample of a packed table's cells with this code and its own settings; compare exactly.

    ``rules``: recompute under another rule set (a negative control: a score changed by one point must differ).
    """
    packed = load_packed(path)
    m = packed.manifest
    spec = manifest_spec(m, rules, None if rules is None else manifest_opponents(m, RuleSet(**m["rules"])))
    pairs = packed.pairs
    if pairs != len(plan_rows(spec)):
        raise TableError(f"{path}: {pairs} pairs per seat, the rule set has another number")
    result = Validity(Path(path))
    if "neighbours" in m["packed"]:
        check_calibration(spec, m["packed"]["neighbours"], result)
    for first, end in sample_cells(pairs * spec.players, blocks, block, seed):
        again = recompute_packed(spec, first, end, pairs, m["packed"])
        stored = stored_packed(packed.columns, first, end)
        for name in again:
            if name not in stored:
                result.differences.append((first, name, -1, int(again[name][0])))
                continue
            for i in np.flatnonzero(again[name] != stored[name]):
                result.differences.append((first + int(i), name, int(stored[name][i]), int(again[name][i])))
        result.cells += end - first
    return result


__all__ = ["check_packed", "manifest_spec", "manifest_opponents", "sample_cells", "recompute_packed", "Validity",
           "VALIDITY_SEED"]
