"""``--device cpu|gpu|auto``: which engine runs, said in the output; a missing GPU is a one-line error, exit code 2.

The cases without a GPU are what a new user on this machine sees; they are
skipped where a GPU (or the CUDA simulator) is present. Nothing imports
numba.cuda unless a GPU is asked for.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.engine import devices
from rumbaodds.engine.devices import DeviceError, gpu_problem, resolve_device

ASK = ["ask", "HA HK HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2", "--samples", "300", "--seed", "4",
       "--simulate"]


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_nothing_imports_numba_cuda_unless_a_gpu_is_asked_for():
    code = ("import sys, rumbaodds.answer.simulation, rumbaodds.tables, rumbaodds.cli, rumbaodds.engine.devices; "
            "from rumbaodds.answer.simulation import ask; ask('HA HK HQ S6 C7', 'H9', 5, 2, samples=50, seed=1); "
            "print('numba.cuda' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_cpu_is_the_default_and_says_so():
    result = run([*ASK, "--json"])
    assert result.exit_code == 0, result.output
    assert "device" not in json.loads(result.stdout)  # the default document is the web API's, byte for byte
    human = run(ASK)
    assert human.exit_code == 0 and "Simulated on the CPU, " in human.stdout


def test_an_unknown_device_is_refused():
    with pytest.raises(DeviceError, match="unknown device 'tpu'"):
        resolve_device("tpu")
    result = run([*ASK, "--device", "tpu"])
    assert result.exit_code == 2 and "tpu" in result.output


no_gpu = pytest.mark.skipif(gpu_problem() is None, reason="a GPU (or the CUDA simulator) is here")


@no_gpu
def test_device_gpu_without_a_gpu_is_one_line_naming_what_is_missing():
    build = ["tables", "build", "--players", "3", "--samples-per-cell", "2", "--cells", "1", "--device", "gpu"]
    for args in ([*ASK, "--device", "gpu"], [*ASK, "--device", "gpu", "--json"], build):
        result = run(args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("rumbaodds: error: --device gpu: "), result.stderr
        assert gpu_problem() in lines[0]
        assert "Traceback" not in result.output and result.stdout == ""


@no_gpu
def test_device_auto_without_a_gpu_runs_on_the_cpu_and_says_why():
    result = run([*ASK, "--device", "auto", "--json"])
    assert result.exit_code == 0, result.output
    device = json.loads(result.stdout)["device"]
    assert device["name"] == "cpu" and device["note"] == f"--device auto: {gpu_problem()}"
    cpu = json.loads(run([*ASK, "--json"]).stdout)
    assert {**cpu, "device": None} == {**json.loads(result.stdout), "device": None}
    human = run([*ASK, "--device", "auto"])
    assert human.exit_code == 0 and "Simulated on the CPU" in human.stdout and "--device auto: " in human.stdout


def test_without_numba_cuda_gpu_says_how_to_install_it_and_auto_uses_the_cpu(monkeypatch):
    monkeypatch.setattr(devices, "numba_cuda_installed", lambda: False)
    missing = "numba-cuda is not installed (pip install 'rumbaodds[gpu]')"
    assert gpu_problem() == missing
    with pytest.raises(DeviceError, match=r"--device gpu: numba-cuda is not installed"):
        resolve_device("gpu")
    assert resolve_device("auto").name == "cpu" and resolve_device("auto").note == f"--device auto: {missing}"
    result = run([*ASK, "--device", "gpu"])
    assert result.exit_code == 2 and result.stderr == f"rumbaodds: error: --device gpu: {missing}\n"


@no_gpu
def test_tables_build_auto_without_a_gpu_builds_on_the_cpu_and_says_so(tmp_path):
    result = run(["tables", "build", "--rules", "flemish", "--players", "3", "--samples-per-cell", "2", "--cells",
                  "1", "--seed", "1", "--no-progress", "--out", tmp_path / "t", "--device", "auto"])
    assert result.exit_code == 0, result.output
    assert "cells simulated on the CPU" in result.stdout and "--device auto: " in result.stdout
