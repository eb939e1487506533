"""The first answer of each command on a fresh install: its cold compile time (issue 37).

Each command runs twice as a new user runs it, in a fresh interpreter: first with an empty Numba cache (a new
``NUMBA_CACHE_DIR``: every kernel it needs compiles), then again on the cache that run left (loaded, not
compiled). The difference is what compiling costs that command. `python -m benchmarks.bench_cold` (a few
minutes on two cores); ``--only ask`` runs one command. The compile line each cold run printed
("rumbaodds: compiling ...", engine/compiled.py) is shown beside it, with the estimate it gave, and for ``ask``
the seconds until it said the table's answer while the simulator compiled (answer/pipeline.py
``say_the_table_while_compiling``): what a player at the table waits for on a fresh install.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HAND = ["ask", "HA HK HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2"]
COMMANDS = {  # name: (arguments of `rumbaodds`, what it compiles)
    "ask": ([*HAND, "--json"], "the hand simulator (the answer pipeline: a table settled by simulation)"),
    "ask-simulated": ([*HAND, "--seed", "1", "--samples", "2000", "--json"], "the hand simulator, no table"),
    "knock": (["knock", "--trump", "HA", "--players", "5", "--seed", "1", "--samples", "200", "--json"],
              "the knock simulator (and the hand simulator it asks)"),
    "game": (["game", "--rules", "swiss", "--players", "5", "--games", "200", "--seed", "1", "--json"],
             "the whole-game simulator"),
    "ask-scores": ([*HAND, "--scores", "15,17,4,19,12", "--seed", "1", "--samples", "500", "--json"],
                   "the game value of every choice"),
    "tables": (["tables", "build", "--rules", "swiss", "--players", "3", "--cells", "2", "--samples-per-cell", "20",
                "--knock-samples", "2", "--seed", "1", "--no-progress", "--out", "{out}"], "the table builder"),
}


def console_script() -> str:
    found = shutil.which("rumbaodds", path=str(Path(sys.executable).parent)) or shutil.which("rumbaodds")
    if found is None:
        raise SystemExit("the rumbaodds console script is not installed (pip install -e .)")
    return found


def timed(args: list[str], cache: str) -> tuple[float, str, float | None]:
    """Wall seconds of one run of ``rumbaodds args`` with Numba's cache in ``cache``, its compile line, and the
    seconds until it said the table's answer on stderr while compiling (None: it did not)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    early = None
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = subprocess.Popen([console_script(), *(a.format(out=out) for a in args)], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        reader = threading.Thread(target=proc.stdout.read)  # drained, so that its pipe never fills up
        reader.start()
        err = []
        for line in proc.stderr:
            if early is None and "the table's answer" in line:
                early = time.perf_counter() - start
            err.append(line)
        proc.wait()
        reader.join()
        seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"rumbaodds {' '.join(args)} failed: {''.join(err).strip()}")
    said = [line.strip() for line in err if "compiling" in line]
    return seconds, " / ".join(said), early


def measure(names) -> list[dict]:
    rows = []
    for name in names:
        args, what = COMMANDS[name]
        with tempfile.TemporaryDirectory() as cache:
            cold, said, early = timed(args, cache)
            warm, _, _ = timed(args, cache)
        rows.append({"command": name, "cold s": cold, "warm s": warm, "compile s": cold - warm,
                     "table's answer said at s": early, "said while compiling": said or "(nothing)",
                     "compiles": what})
        print(f"{name}: first run {cold:.1f} s on an empty cache, {warm:.1f} s once cached", flush=True)
    return rows


def main(quick: bool = False, only: str | None = None) -> None:
    from .common import print_table

    if quick:
        print("cold compile times: `python -m benchmarks.bench_cold` (minutes; not in --quick)")
        return
    names = [only] if only else list(COMMANDS)
    print(f"each command in a new interpreter, an empty Numba cache then the one it left; {os.cpu_count()} cores")
    print_table("first answer on a fresh install (compile s = cold - warm)", measure(names))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=sorted(COMMANDS), help="one command")
    main(only=parser.parse_args().only)
