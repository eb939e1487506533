"""Plain-Python twins of the rule card's line sums (``report/line_sums.py``), from their definitions.

Each candidate is a row of a dense boolean mask over the groups; nothing is precomputed.
"""

from __future__ import annotations


def masked_sums(masks, values) -> list[list[float]]:
    """Per candidate (a row of ``masks``) and column: the sum of ``values[g][j]`` over the groups g it holds for."""
    columns = range(len(values[0])) if len(values) else range(0)
    return [[sum(float(v[j]) for v, held in zip(values, row, strict=True) if held) for j in columns] for row in masks]


def box_move_totals(masks, delta, box_of, sums, bound, keep, weight) -> list[float]:
    """Per candidate: (loss plus ``weight`` times every kept box's excess over its bound) after its groups move by
    ``delta``, minus the same before."""
    def cost(box_sums):
        return weight * sum(max(0.0, s - b) for s, b, k in zip(box_sums, bound, keep, strict=True) if k)

    out = []
    for row in masks:
        after = [float(s) for s in sums]
        total = 0.0
        for g, held in enumerate(row):
            if held:
                after[box_of[g]] += float(delta[g])
                total += float(delta[g])
        out.append(total + cost(after) - cost(sums))
    return out
