"""Where a cold test run spends its time compiling: every Numba compile, its kernel, signature and test.

A cold `make test` compiles every kernel the tests touch, and a kernel compiles once per argument type: two
tests handing it differently typed arrays (an "A" layout for a "C" one, a read-only array, a literal) pay twice.
This probe finds those. As a pytest plugin it records Numba's own ``numba:compile`` events (an actual compile,
not a load from the cache) in each test process::

    rm -rf /tmp/cold && NUMBA_CACHE_DIR=/tmp/cold COMPILE_PROBE=/tmp/probe \\
        .venv/bin/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -m "not statistical and not slow" \\
        -p benchmarks.compile_probe
    .venv/bin/python -m benchmarks.compile_probe /tmp/probe

The second command prints the compile seconds per kernel (top-level compiles: a kernel compiled inside another's
compile is part of that one's time), how many signatures and processes it compiled in, and per test file. The
warm-up's own compiles (tests/conftest.py, in processes of their own) are not in it.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import time
from pathlib import Path

_stack: list[float] = []
_current = {"test": "(collection)"}
_out = None


def _record(event, started: float) -> None:
    data = event.data or {}
    fn = getattr(data.get("dispatcher"), "py_func", None)
    name = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', '?')}"
    _out.write(json.dumps({"pid": os.getpid(), "test": _current["test"], "kernel": name,
                           "signature": str(data.get("args")), "seconds": time.perf_counter() - started,
                           "depth": len(_stack)}) + "\n")
    _out.flush()


def pytest_configure(config):
    """Start listening (each test process; the folder is $COMPILE_PROBE, default /tmp/compile-probe)."""
    global _out
    from numba.core import event

    folder = Path(os.environ.get("COMPILE_PROBE", "/tmp/compile-probe"))
    folder.mkdir(parents=True, exist_ok=True)
    _out = open(folder / f"compiles-{os.getpid()}.jsonl", "a", encoding="utf-8")  # noqa: SIM115 (the run's life)

    class Listener(event.Listener):
        def on_start(self, ev):
            _stack.append(time.perf_counter())

        def on_end(self, ev):
            _record(ev, _stack.pop())

    event.register("numba:compile", Listener())


def pytest_runtest_setup(item):
    _current["test"] = item.nodeid


def summary(folder: Path) -> tuple[list[dict], list[dict]]:
    """(per kernel, per test file) from a probe folder: top-level compile seconds, signatures, processes."""
    rows = [json.loads(line) for path in sorted(folder.glob("compiles-*.jsonl")) for line in path.open()]
    top = [r for r in rows if r["depth"] == 0]
    kernels = collections.defaultdict(lambda: {"seconds": 0.0, "compiles": 0, "signatures": set(), "pids": set()})
    files = collections.Counter()
    for r in top:
        k = kernels[r["kernel"]]
        k["seconds"] += r["seconds"]
        k["compiles"] += 1
        k["signatures"].add(r["signature"])
        k["pids"].add(r["pid"])
        files[r["test"].split("::")[0]] += r["seconds"]
    per_kernel = [{"kernel": name, "seconds": k["seconds"], "compiles": k["compiles"],
                   "signatures": len(k["signatures"]), "processes": len(k["pids"])}
                  for name, k in sorted(kernels.items(), key=lambda kv: -kv[1]["seconds"])]
    per_file = [{"test file": name, "compile seconds": s} for name, s in files.most_common()]
    return per_kernel, per_file


def main() -> None:
    from .common import print_table

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    per_kernel, per_file = summary(parser.parse_args().folder)
    print(f"compiles in the test processes: {sum(r['seconds'] for r in per_kernel):.0f} s "
          f"({sum(r['compiles'] for r in per_kernel)} top-level compiles)")
    print_table("per kernel (compiled more than once: another signature, or in both processes)", per_kernel[:25])
    print_table("per test file", per_file[:20])


if __name__ == "__main__":
    main()
