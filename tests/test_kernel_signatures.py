"""Every kind of opponent reaches the kernels as one argument type, so a kernel compiles once, not once per kind.

Numba compiles a kernel per argument type, and an array's memory layout is part of its type: a fancy-indexed
array is "A" (any layout), a contiguous one "C". The solved strategies' throw-in table came out of ``to_policy``
fancy-indexed, so every kernel (the hand, the knock, the tables, the game) compiled a second time, 15-45 s each on a
cold cache, when a user (or a test) asked with a named style after the equilibrium. Negative control: the raw
fancy-indexed array is still another type, so the check below can see the difference it guards.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from rumbaodds.opponents.policies import Policy
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import get_rules
from rumbaodds.strategy.solver import simulate
from rumbaodds.strategy.store import find


@pytest.mark.parametrize("rules_name, players", [("swiss", 5), ("flemish", 4)])
def test_every_kind_of_opponent_is_one_kernel_argument_type(rules_name, players):
    rules = get_rules(rules_name)
    kinds = ["equilibrium", "default", "bold", "default,1=bold"]
    types = {kind: numba.typeof(opponent_policy(kind, rules, players).as_tuple()) for kind in kinds}
    assert len(set(types.values())) == 1, types
    assert all(a.layout == "C" for a in types["equilibrium"].types)


def test_a_fancy_indexed_array_is_another_type_and_a_policy_makes_it_contiguous():
    base = np.zeros((5, 12, 40))
    fancy = base[:, :, np.arange(40) % 7]  # what to_policy does with the strategy's throws
    assert numba.typeof(fancy).layout != "C"  # the negative control: the difference is real
    p = Policy("x", 5, np.zeros((5, 8), np.int32), np.zeros((5, 2, 16)), np.zeros((5, 12, 40, 3)), fancy,
               np.zeros((5, 12, 40, 6)))
    assert numba.typeof(p.throws) == numba.typeof(np.zeros((5, 12, 40)))
    assert p.ints.dtype == np.int64 and p.values.dtype == np.int64 and np.array_equal(p.throws, fancy)


class _Seen(Exception):
    """Raised by the spy once it has the kernel's arguments: the kernel itself need not compile here."""


def test_the_solvers_knock_vector_is_contiguous_whatever_it_was_given(monkeypatch):
    """solver.simulate hands the dealer's knock to the traversal kernel; a strided view compiled it again."""
    import rumbaodds.strategy.solver as solver

    rules = get_rules("swiss")
    solved = find(rules, 3)
    strided = np.repeat(np.asarray(solved.strategy.knock, dtype=np.float64), 2)[::2]
    assert numba.typeof(strided).layout != "C"  # the negative control
    seen = []

    def spy(*args):
        seen.append((numba.typeof(args[4]), numba.typeof(args[5])))
        raise _Seen

    monkeypatch.setattr(solver, "traverse_batch", spy)
    with pytest.raises(_Seen):
        simulate(rules, 3, solved.abstraction, solved.strategy, 4, 1, knock_prob=strided)
    policy, knock = seen[0]
    assert knock.layout == "C" and all(a.layout == "C" for a in policy.types)
