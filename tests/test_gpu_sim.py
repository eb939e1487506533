"""The CUDA kernel (``engine/gpu.py``) in Numba's CUDA simulator equals the CPU kernel, sample by sample.

No GPU needed: with ``NUMBA_ENABLE_CUDASIM=1`` numba-cuda runs each kernel
thread in Python, and the shared ``@njit`` game code (``hand.ask_sample``) on
the CPU. What this checks is everything the GPU path adds around that code:
the thread to sample mapping (each simulated thread runs several samples on
one scratch row), stream indices, the host's preallocated scratch, results,
tries and importance weights written back, the dispatch from ``ask`` and the
CLI. That the same code also compiles for a real GPU (with the CPU's
rounding) is test_gpu_ptx.py; running it there, test_gpu_hardware.py.

The simulator is chosen when numba.cuda is first imported, so in the default
run (no ``NUMBA_ENABLE_CUDASIM``) the one test here runs this very file again
in a fresh interpreter with the simulator on; run it directly with
``NUMBA_ENABLE_CUDASIM=1 pytest tests/test_gpu_sim.py`` to see each test.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

if importlib.util.find_spec("numba_cuda") is None:
    pytest.skip("numba-cuda is not installed (pip install -e '.[test]' installs it): the CUDA simulator tests need it",
                allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent

if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":

    def test_cuda_kernel_in_the_simulator_equals_the_cpu_kernel():
        env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
        proc = subprocess.run([sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider", "-x"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
        last = proc.stdout.strip().splitlines()[-1]
        assert " passed" in last and "skipped" not in last and "failed" not in last, proc.stdout[-2000:]

else:
    from click.testing import CliRunner
    from gpu_cases import ASKS, TABLES, batch_args, job, table_args
    from numba.cuda.core import config as cuda_config

    from rumbaodds.answer import simulation
    from rumbaodds.cli import main
    from rumbaodds.engine import gpu
    from rumbaodds.engine import hand as K
    from rumbaodds.engine import table as T
    from rumbaodds.engine.devices import resolve_device
    from rumbaodds.opponents.models import get_model
    from rumbaodds.rules import SWISS
    from rumbaodds.tables import TableSpec, build_table, load_table

    OUTPUTS = ("means", "halves", "shares", "best", "runner", "margin", "margin_half", "tries", "samples", "ess",
               "stop", "column_samples")

    SAMPLES = 120  # four simulated threads, each running 30 samples on its scratch

    def test_the_simulator_is_on():
        assert cuda_config.ENABLE_CUDASIM and gpu.SIMULATOR
        assert resolve_device("gpu").name == "gpu" and "simulator" in resolve_device("auto").description
        assert gpu.launch_size(SAMPLES, False) < SAMPLES  # threads reuse their scratch, as the CPU's chunks do

    @pytest.mark.parametrize("case", ASKS, ids=[c[0] for c in ASKS])
    def test_ask_batch_equals_the_cpu_sample_by_sample(case):
        args = batch_args(case, seed=11, start=5_000, count=SAMPLES)
        cpu = K.ask_batch(*args)
        dev = gpu.ask_batch(*args)
        for name, a, b in zip(("results", "tries", "weights"), dev, cpu):
            assert a.dtype == b.dtype and a.shape == b.shape, name
            np.testing.assert_array_equal(a, b, err_msg=name)  # weights bit for bit
        assert (cpu[1] > 0).all()

    def test_scratch_kept_between_batches_changes_nothing():
        """The threads' scratch stays on the device for the next batch (gpu._resident): other situations before
        it, or the same one, leave every result as the CPU's."""
        gpu._RESIDENT.clear()
        for case in (ASKS[1], ASKS[0], ASKS[1], ASKS[4], ASKS[1]):
            args = batch_args(case, seed=4, start=300, count=SAMPLES)
            for a, b in zip(gpu.ask_batch(*args), K.ask_batch(*args)):
                np.testing.assert_array_equal(a, b)
        assert 1 <= len(gpu._RESIDENT) <= gpu.KEEP_RESIDENT

    def test_rare_words_carry_importance_weights_on_both():
        """The earlier Rumba is drawn exactly (condition.py): weights below 1 that vary with the deal."""
        for case in ASKS:
            if "rumba" in case[0]:
                assert job(case).plan.hard.any()
                _, _, weights = gpu.ask_batch(*batch_args(case, seed=2, start=0, count=SAMPLES))
                assert (weights > 0).all() and (weights < 1).all() and len(np.unique(weights)) > 3

    def test_the_comparison_can_fail():
        """Negative controls: the next samples, or another rule field, give other results."""
        args = batch_args(ASKS[1], seed=11, start=5_000, count=SAMPLES)
        cpu = K.ask_batch(*args)
        shifted = gpu.ask_batch(*args[:-2], 5_001, SAMPLES)
        assert not np.array_equal(shifted[0][:-1], cpu[0][:-1]) and not np.array_equal(shifted[2][:-1], cpu[2][:-1])
        for a, b in zip(shifted, cpu):
            np.testing.assert_array_equal(a[:-1], b[1:])  # ... and are the CPU's next samples
        args = batch_args(ASKS[0], seed=11, start=5_000, count=SAMPLES)  # a normal game
        rp = args[6].copy()
        rp[K.R_NORMAL_PER_TRICK] -= 1  # swiss scores a trick -1: now -2
        changed = gpu.ask_batch(*args[:6], rp, *args[7:])
        assert not np.array_equal(changed[0], K.ask_batch(*args)[0])
        np.testing.assert_array_equal(changed[0], K.ask_batch(*args[:6], rp, *args[7:])[0])

    def test_ask_api_on_the_gpu_equals_the_cpu():
        kwargs = dict(hand="HA HK S6 C7 D8", trump="H9", players=4, seat=2, rules="swiss", before="pass,rumba",
                      samples=120, seed=8)
        on_gpu = simulation.ask(**kwargs, device="gpu")
        on_cpu = simulation.ask(**kwargs, device="cpu")
        assert on_gpu.to_dict() == on_cpu.to_dict()
        assert on_cpu.effective_samples < 120  # weighted: the sums were formed from the weights alike

    def test_cli_ask_says_which_device_ran():
        base = ["ask", "S2 SK HA D5 C9", "--trump", "S7", "--players", "4", "--seat", "1", "--rules", "flemish",
                "--samples", "60", "--seed", "3", "--simulate", "--json"]
        runs = {d: CliRunner().invoke(main, [*base, "--device", d]) for d in ("gpu", "cpu")}
        assert all(r.exit_code == 0 for r in runs.values()), {d: r.output for d, r in runs.items()}
        data = {d: json.loads(r.stdout) for d, r in runs.items()}
        assert data["gpu"]["device"]["name"] == "gpu" and "simulator" in data["gpu"]["device"]["description"]
        assert "device" not in data["cpu"]  # the default (cpu) document is the web API's
        assert {**data["gpu"], "device": None} == {**data["cpu"], "device": None}
        human = CliRunner().invoke(main, [*base[:-1], "--device", "auto"])
        assert human.exit_code == 0 and "Simulated on the GPU, Numba's CUDA simulator" in human.stdout

    def assert_same_cells(dev, cpu):
        assert len(dev) == len(cpu) == len(OUTPUTS)
        for name, a, b in zip(OUTPUTS, dev, cpu):
            assert a.dtype == b.dtype and a.shape == b.shape, name
            np.testing.assert_array_equal(a, b, err_msg=name)  # bit for bit, floats too

    @pytest.mark.parametrize("case", TABLES, ids=[t[0] for t in TABLES])
    def test_table_cells_equal_the_cpu_kernel(case):
        args = table_args(case)
        cpu = T.table_cells(*args)
        assert_same_cells(gpu.table_cells(*args), cpu)
        assert (cpu[8] >= 1).all() and (cpu[7] >= 1).all()
        if "adaptive" in case[0]:  # cells stopped at different looks: threads ran different lengths
            assert len(np.unique(cpu[8])) > 1

    def test_table_cells_that_give_up_equal_the_cpu_kernel():
        args = list(table_args(TABLES[2]))
        words = args[7][2].copy()
        words[0] = [0.0, 0.0, 1.0]  # seat 0 always calls Rumba: a later hero's cells (nobody called) never deal
        args[7] = (*args[7][:2], words, *args[7][3:])
        cpu = T.table_cells(*args)
        assert_same_cells(gpu.table_cells(*args), cpu)
        assert (cpu[10] == T.STOP_IMPOSSIBLE).any() and (cpu[7] == -1).any()

    def test_table_build_on_the_gpu_equals_the_cpu_build(tmp_path):
        spec = TableSpec(SWISS, 3, get_model("default"), "expert", samples_per_cell=4, seed=5, cells=2)
        frames = {}
        for device in ("gpu", "cpu"):
            build_table(spec, tmp_path / device, chunk_cells=4, with_knock=False, device=device)
            frames[device] = load_table(tmp_path / device).frame
        assert len(frames["cpu"]) == 6
        assert frames["gpu"].equals(frames["cpu"])

    def test_cli_tables_build_says_which_device_ran(tmp_path):
        args = ["tables", "build", "--rules", "flemish", "--players", "3", "--samples-per-cell", "3", "--cells", "1",
                "--seed", "2",
                "--no-progress"]
        result = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "t"), "--device", "gpu"])
        assert result.exit_code == 0, result.output
        assert "cells simulated on the GPU, Numba's CUDA simulator" in result.stdout

    def test_benchmark_runs_in_the_simulator():
        proc = subprocess.run([sys.executable, "-m", "benchmarks.gpu", "--simulate", "--tiny"], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert "CPU == GPU" in proc.stdout and "gpu_ask_deals/s" in proc.stdout and "projected" in proc.stdout
