"""On a real CUDA GPU: the kernel equals the CPU kernel sample by sample, at a size the simulator cannot run.

Skipped, with the reason, wherever there is no GPU (CI has none); run on a
GPU machine with ``pytest tests/test_gpu_hardware.py`` (``benchmarks/gpu.py``
measures the speed).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    pytest.skip("needs a real GPU, not the CUDA simulator (test_gpu_sim.py covers that)", allow_module_level=True)

from rumbaodds.engine.devices import gpu_problem  # noqa: E402

_problem = gpu_problem()
if _problem is not None:
    pytest.skip(f"needs a CUDA GPU: {_problem}", allow_module_level=True)

from gpu_cases import ASKS, TABLES, batch_args, table_args  # noqa: E402

from rumbaodds.answer import simulation  # noqa: E402
from rumbaodds.engine import gpu  # noqa: E402
from rumbaodds.engine import hand as K  # noqa: E402
from rumbaodds.engine import table as T  # noqa: E402


@pytest.mark.parametrize("case", ASKS, ids=[c[0] for c in ASKS])
def test_ask_batch_equals_the_cpu_sample_by_sample(case):
    args = batch_args(case, seed=17, start=123_456, count=20_000)
    cpu = K.ask_batch(*args)
    dev = gpu.ask_batch(*args)
    for name, a, b in zip(("results", "tries", "weights"), dev, cpu):
        np.testing.assert_array_equal(a, b, err_msg=name)  # weights bit for bit: no fused multiply-add


def test_ask_on_the_gpu_equals_the_cpu():
    kwargs = dict(hand="HA HK S6 C7 D8", trump="H9", players=4, seat=2, rules="swiss", before="pass,rumba",
                  samples=120_000, seed=8)
    assert simulation.ask(**kwargs, device="gpu").to_dict() == simulation.ask(**kwargs, device="cpu").to_dict()


@pytest.mark.parametrize("case", TABLES, ids=[t[0] for t in TABLES])
def test_table_cells_equal_the_cpu_kernel(case):
    _id, rules, players, settings, _first, _cells = case
    bigger = (_id, rules, players, {k: v * 8 if k.endswith("samples") or k == "samples_per_cell" else v
                                     for k, v in settings.items()}, 0, 40 * players)
    args = table_args(bigger)
    for a, b in zip(gpu.table_cells(*args), T.table_cells(*args)):
        np.testing.assert_array_equal(a, b)
