"""Writing the fitted weights as ``engine/distilled_weights.py`` (and the trees as ``engine/distilled_trees.py``):
modules, so the kernel cache follows them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine import distilled

TARGET = Path(distilled.__file__).with_name("distilled_weights.py")
TREES_TARGET = Path(distilled.__file__).with_name("distilled_trees.py")


def nested(a: np.ndarray, indent: str) -> str:
    """An array as nested lists, four numbers a line (repr round-trips float64 exactly)."""
    if a.ndim == 1:
        numbers = [repr(float(x)) if a.dtype.kind == "f" else str(int(x)) for x in a]
        lines = [", ".join(numbers[i:i + 4]) for i in range(0, len(numbers), 4)]  # short lines
        return f"{indent}[\n{indent}    " + f",\n{indent}    ".join(lines) + f",\n{indent}]"
    return f"{indent}[\n" + ",\n".join(nested(b, indent + "    ") for b in a) + f",\n{indent}]"


def weights_source(weights: np.ndarray, provenance: str) -> str:
    """The text of the weights module: the array in full."""
    return (f'"""Weights of the ``distilled`` card play (engine/distilled.py): generated, do not edit.\n\n'
            f"{provenance.strip()}\n\"\"\"\n\nimport numpy as np\n\n"
            f"# [follow: swiss Stechzwang, flemish][role: caller, defender, normal][moment: lead, follow]\n"
            f"# [feature: twins/distilled.py order]\n"
            f"WEIGHTS = np.array(\n{nested(weights, '    ')},\n    dtype=np.float64,\n)\n")


def write_weights(weights: np.ndarray, provenance: str, path: Path = TARGET) -> Path:
    if weights.shape != (2, 3, 2, distilled.N_FEATURES):
        raise ValueError(f"weights of shape {weights.shape}, want (2, 3, 2, {distilled.N_FEATURES})")
    path.write_text(weights_source(weights, provenance))
    return path


def trees_source(slot, start, feature, threshold, leaf, provenance: str) -> str:
    """The text of the trees module: which ensemble scores which lead, and every tree in full, the ensembles one
    after the other (float32 thresholds and leaves, unpadded: small enough for a GPU's 64 KB of constants with
    the weights)."""
    return (f'"""Trees of the ``distilled`` card play (engine/distilled.py): generated, do not edit.\n\n'
            f"{provenance.strip()}\n\"\"\"\n\nimport numpy as np\n\n"
            f"# [follow: swiss Stechzwang, flemish][active players][trick]: the ensemble that scores the Rumba\n"
            f"# caller's lead (-1: the weights alone)\n"
            f"TREE_SLOT = np.array(\n{nested(slot, '    ')},\n    dtype=np.int64,\n)\n"
            f"# [ensemble + 1]: ensemble e is the trees TREE_START[e] to TREE_START[e + 1] of the arrays below\n"
            f"TREE_START = np.array({[int(c) for c in start]}, dtype=np.int64)\n"
            f"# [tree][inner node, heap order]: the number split on (-1: none, every row goes left)\n"
            f"TREE_FEATURE = np.array(\n{nested(feature, '    ')},\n    dtype=np.int8,\n)\n"
            f"# [tree][inner node]: a row goes left where its number is at most this\n"
            f"TREE_THRESHOLD = np.array(\n{nested(threshold, '    ')},\n    dtype=np.float32,\n)\n"
            f"# [tree][leaf]: the score a leaf adds to the weights'\n"
            f"TREE_LEAF = np.array(\n{nested(leaf, '    ')},\n    dtype=np.float32,\n)\n"
            f"TREES = (TREE_SLOT, TREE_START, TREE_FEATURE, TREE_THRESHOLD, TREE_LEAF)\n")


def write_trees(slot, start, feature, threshold, leaf, provenance: str, path: Path = TREES_TARGET) -> Path:
    """Write the trees (engine/distilled_trees.py) as a module. ``start``: ensemble e is trees ``start[e]`` to
    ``start[e + 1]``."""
    if np.shape(slot) != (2, 8, 5):
        raise ValueError(f"trees: slots of shape {np.shape(slot)}, want (2 follow rules, 8 players, 5 tricks)")
    start = np.asarray(start)
    if (start.ndim != 1 or len(start) < 1 or start[0] != 0 or np.any(np.diff(start) < 0)
            or not (start[-1] == len(feature) == len(threshold) == len(leaf)) or np.max(slot) >= len(start) - 1):
        raise ValueError("trees: start must run from 0 to the number of trees, one entry per ensemble and one more")
    path.write_text(trees_source(slot, start, feature, threshold, leaf, provenance))
    return path


__all__ = ["write_weights", "weights_source", "write_trees", "trees_source", "TARGET", "TREES_TARGET"]
