"""Calling the whole-hand kernel and its twin the way ``simulation.ask`` does, for tests."""

from __future__ import annotations

import numpy as np

from rumbaodds.answer.simulation import Job, make_situation
from rumbaodds.twins import hand as th


def job_of(hand, trump, players, seat, rules="swiss", opponents="default", play="expert", passes=0, knocked=False,
           before=None, swapped_by=None) -> Job:
    situation = make_situation(hand, trump, players, seat, rules, passes, knocked, before, swapped_by)
    return Job.of(situation, opponents, play)


def twin_of(job: Job, seed: int, index: int):
    """(tries, weight, {choice: (score, tricks, contested, caller)}) of one sample by the twin."""
    s = job.situation
    return th.simulate_sample(s.rules, s.players, s.seat, s.hand, s.trump_card, job.policy, job.plan, job.play,
                              s.passes_in_a_row, s.dealer_knocked, s.swapped_by, seed=seed, index=index,
                              choices=list(job.names))


def assert_kernel_equals_twin(job: Job, seed: int = 7, samples: int = 30, start: int = 0) -> None:
    """Kernel and twin agree sample by sample: tries, weight, and every choice's four fields."""
    results, tries, weights = job.batch(seed, start, samples)
    for i in range(samples):
        t_tries, t_weight, t_out = twin_of(job, seed, start + i)
        kernel = {name: tuple(int(x) for x in results[i, c]) for c, name in enumerate(job.names)}
        twin = {name: tuple(int(x) for x in t_out[name]) for name in job.names}
        assert (int(tries[i]), kernel) == (t_tries, twin), f"sample {start + i}"
        assert weights[i] == t_weight or abs(weights[i] - t_weight) <= 1e-12 * abs(t_weight), f"sample {start + i}"


def twin_sample(rules, players, seat, hand, turned, model, play="greedy", passes=0, knocked=False, before=None,
                swapped_by=None, seed=0, index=0):
    """(tries, {choice: (score, tricks, contested)}): the twin's view of one sample, for hand-worked tests."""
    job = job_of(list(hand), turned, players, seat, rules, model, play, passes, knocked, before, swapped_by)
    tries, _weight, out = twin_of(job, seed, index)
    return tries, {name: (v[0], v[1], bool(v[2])) for name, v in out.items()}


def kernel_results(job: Job, seed: int, start: int, count: int):
    results, tries, weights = job.batch(seed, start, count)
    return results, np.asarray(tries), np.asarray(weights)
