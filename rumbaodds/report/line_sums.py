"""What each candidate line of the rule card would move: sums over the groups a condition holds for, in Numba.

The card's fit (:mod:`.card`) asks one question thousands of times: for each of some 50,000 candidate conditions,
the sum of a per-group number over the groups the condition holds for (and, for the exception lines, per grid box).
Dense, that is a (candidates x groups) product; a condition holds for about a tenth of the groups, so the kernels
walk each candidate's own groups (:func:`member_lists`) instead. Their plain twins: ``rumbaodds/twins/card_lines.py``
(tests/test_report_card.py compares them).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def member_lists(masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indptr, groups): candidate ``c`` holds for groups ``groups[indptr[c]:indptr[c + 1]]`` (ascending)."""
    masks = np.asarray(masks, dtype=bool)
    _rows, groups = np.nonzero(masks)  # row-major: by candidate, then group
    indptr = np.zeros(len(masks) + 1, dtype=np.int64)
    np.cumsum(masks.sum(axis=1), out=indptr[1:])
    return indptr, groups.astype(np.int32)


def first_lists(lists: tuple[np.ndarray, np.ndarray], k: int) -> tuple[np.ndarray, np.ndarray]:
    """The member lists of the first ``k`` candidates (those of ``masks[:k]``)."""
    indptr, groups = lists
    return indptr[:k + 1], groups[:indptr[k]]


@njit(cache=True)
def masked_sums(indptr, groups, values):
    """Per candidate and column: the sum of ``values[:, j]`` (groups x columns) over its groups."""
    cols = values.shape[1]
    out = np.zeros((indptr.shape[0] - 1, cols))
    for c in range(out.shape[0]):
        for k in range(indptr[c], indptr[c + 1]):
            g = groups[k]
            for j in range(cols):
                out[c, j] += values[g, j]
    return out


@njit(cache=True)
def box_move_totals(indptr, groups, delta, box_of, sums, bound, keep, weight):
    """Per candidate: the change of ``sum(loss) + weight * sum over kept boxes of max(0, box sum - bound)`` when its
    groups move by ``delta``. ``box_of``: each group's box; ``sums``: each box's loss now."""
    nb = sums.shape[0]
    moved = np.zeros(nb)
    seen = np.zeros(nb, dtype=np.bool_)
    touched = np.empty(nb, dtype=np.int64)
    out = np.empty(indptr.shape[0] - 1)
    for c in range(out.shape[0]):
        total = 0.0
        m = 0
        for k in range(indptr[c], indptr[c + 1]):
            g = groups[k]
            b = box_of[g]
            total += delta[g]
            moved[b] += delta[g]
            if not seen[b]:
                seen[b] = True
                touched[m] = b
                m += 1
        excess = 0.0
        for j in range(m):
            b = touched[j]
            if keep[b]:
                excess += max(0.0, sums[b] + moved[b] - bound[b]) - max(0.0, sums[b] - bound[b])
            moved[b] = 0.0
            seen[b] = False
        out[c] = total + weight * excess
    return out
