"""Writing the fitted weights as ``engine/distilled_weights.py``: a module, so the kernel cache follows it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine import distilled

TARGET = Path(distilled.__file__).with_name("distilled_weights.py")


def weights_source(weights: np.ndarray, provenance: str) -> str:
    """The text of the weights module: the array in full (repr round-trips float64 exactly)."""
    def nested(a, indent: str) -> str:
        if a.ndim == 1:
            numbers = [repr(float(x)) for x in a]
            lines = [", ".join(numbers[i:i + 4]) for i in range(0, len(numbers), 4)]  # short lines
            return f"{indent}[\n{indent}    " + f",\n{indent}    ".join(lines) + f",\n{indent}]"
        return f"{indent}[\n" + ",\n".join(nested(b, indent + "    ") for b in a) + f",\n{indent}]"

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


__all__ = ["write_weights", "weights_source", "TARGET"]
