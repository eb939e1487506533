"""Table builds on Dask: the same bytes as a local build, and kill-and-resume of the client, for real.

One LocalCluster of 2 worker processes (one thread each, one Numba thread
each) is started for the module and reached by its address (the
``--scheduler tcp://HOST:PORT`` path). The kill test runs the command line
with ``--scheduler dask --workers 2`` (its own LocalCluster), SIGKILLs that
client half way, checks that its workers went with it, and resumes on the
module's cluster: no finished chunk is rewritten, and the table equals the
local build byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from rumbaodds.opponents.models import get_model
from rumbaodds.rules import RuleSet, get_rules
from rumbaodds.tables import TableError, TableSpec, build_table, load_table, schedulers

distributed = pytest.importorskip("distributed")  # the test extra installs it; elsewhere these are skipped

TINY = RuleSet(name="tiny", suits="CDH", ranks="TJQK", hand_size=2, min_players=2, max_players=3, exchange_limit=1,
               rumba_min_tricks=2, throw_in_below="J", knock=False)
MODEL = get_model("default")
TINY_TOML = """base = "swiss"
name = "tiny"
suits = "CDH"
ranks = "TJQK"
hand_size = 2
min_players = 2
max_players = 3
exchange_limit = 1
rumba_min_tricks = 2
throw_in_below = "J"
knock = false
"""


@pytest.fixture(scope="module")
def cluster():
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_port=0, silence_logs=logging.ERROR,
                                  env={"NUMBA_NUM_THREADS": "1"}) as c:
        yield c.scheduler_address


def _chunks(out: Path) -> dict[str, tuple[int, str]]:
    return {p.name: (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
            for p in sorted((out / "chunks").glob("chunk-*.parquet"))}


def test_dask_gives_the_same_bytes_as_the_local_build(cluster, tmp_path):
    spec = TableSpec(TINY, 3, MODEL, precision=0.3, seed=31)
    build_table(spec, tmp_path / "local", chunk_cells=60)
    build_table(spec, tmp_path / "dask", chunk_cells=60, scheduler=cluster)
    local, dask = _chunks(tmp_path / "local"), _chunks(tmp_path / "dask")
    assert len(local) == 7 and {k: v[1] for k, v in local.items()} == {k: v[1] for k, v in dask.items()}
    assert (tmp_path / "local" / "table.parquet").read_bytes() == (tmp_path / "dask" / "table.parquet").read_bytes()
    pd.testing.assert_frame_equal(load_table(tmp_path / "local").frame, load_table(tmp_path / "dask").frame,
                                  check_exact=True)


def test_a_worker_with_other_code_is_refused(cluster, tmp_path, monkeypatch):
    import rumbaodds.engine

    monkeypatch.setattr(rumbaodds.engine, "KERNEL_DIGEST", "0123456789abcdef")
    with pytest.raises(TableError, match="install the same rumbaodds on every worker"):
        build_table(TableSpec(TINY, 2, MODEL, seed=1, cells=4), tmp_path / "t", scheduler=cluster)


def test_unreachable_scheduler_and_missing_dask_are_one_line_errors(tmp_path, monkeypatch):
    monkeypatch.setattr(schedulers, "CONNECT_TIMEOUT", "1s")
    spec = TableSpec(TINY, 2, MODEL, seed=1, cells=4)
    with pytest.raises(TableError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        build_table(spec, tmp_path / "a", scheduler="tcp://127.0.0.1:9")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask were not installed
    with pytest.raises(TableError, match=r"pip install 'rumbaodds\[dask\]'"):
        build_table(spec, tmp_path / "b", scheduler="dask")
    assert not (tmp_path / "b").exists()  # refused before anything was written


def _session_alive(sid: int) -> list[int]:
    out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True).stdout.split("\n")
    return [int(p) for p, s in (line.split() for line in out if line.strip()) if int(s) == sid]


N_CHUNKS = 31  # 3 seats x 124 pairs / 12 cells


def test_kill_the_dask_client_and_resume(cluster, tmp_path):
    rules = tmp_path / "tiny.toml"
    rules.write_text(TINY_TOML)
    out = tmp_path / "interrupted"
    base = [sys.executable, "-c", "import sys; from rumbaodds.cli import main; sys.argv[0] = 'rumbaodds'; main()",
            "tables", "build", "--rules", str(rules), "--players", "3", "--precision", "0.1", "--seed", "41",
            "--chunk-cells", "12", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(base + ["--scheduler", "dask", "--workers", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while proc.poll() is None and time.monotonic() < deadline:
            if len(list((out / "chunks").glob("chunk-*.parquet"))) >= 3:
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
        proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL, ("the build ended before it could be killed",
                                                    proc.stderr.read().decode())
        for _ in range(100):  # the LocalCluster's workers notice their client is gone and stop
            if not _session_alive(proc.pid):
                break
            time.sleep(0.1)
        assert _session_alive(proc.pid) == [], "worker processes outlived their killed client"
    finally:
        for pid in _session_alive(proc.pid):  # only what this test started (its own session)
            os.kill(pid, signal.SIGKILL)
    before = _chunks(out)
    assert 3 <= len(before) < N_CHUNKS and not (out / "table.parquet").exists()

    resumed = subprocess.run(base + ["--scheduler", cluster], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    after = _chunks(out)
    assert sorted(after) == [f"chunk-{i:05d}.parquet" for i in range(N_CHUNKS)]
    for name, stamp in before.items():
        assert after[name] == stamp, f"{name} was recomputed"

    spec = TableSpec(get_rules(str(rules)), 3, MODEL, precision=0.1, seed=41)
    build_table(spec, tmp_path / "clean", chunk_cells=12)
    assert {n: d for n, (_, d) in after.items()} == {n: d for n, (_, d) in _chunks(tmp_path / "clean").items()}
    assert (out / "table.parquet").read_bytes() == (tmp_path / "clean" / "table.parquet").read_bytes()
