"""`rumbaodds serve` as a player meets it: the first answer after start, then warm answers, median and worst.

A fresh ``rumbaodds serve`` process on a free loopback port (the Numba cache
as it is; with ``--cold`` also an empty one, the first start after an
install: a table answer must not wait the minutes the kernels compile).
Then, once warm, each situation of issue 19 asked over HTTP several times:
a table answer, a simulated one (default 200,000 deals), rare earlier words,
a 7-player dealer after six earlier words, the knock (where the server has
the route). Also what a table answer costs while a huge (at-cap) simulation
runs. ``--quick``: a smoke run (few repeats, small samples), not
measurements.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from .common import print_table

ROOT = Path(__file__).resolve().parent.parent
README = {"hand": "HA HK HQ S6 C7", "trump": "H9", "players": 5, "seat": 2}
SITUATIONS = [  # (name, path, query): warm answers, each asked `repeat` times
    ("table answer (shipped table)", "/api/ask", README),
    ("simulated answer (README hand)", "/api/ask", {**README, "simulate": 1}),
    ("rare earlier words: last seat after pass, rumba, play", "/api/ask",
     {"hand": "S7 C8 D9 ST C6", "trump": "H9", "players": 4, "seat": 3, "before": "pass,rumba,play"}),
    ("7-player dealer after six earlier words", "/api/ask",
     {"hand": "HA HK S6 C7 D9", "trump": "H8", "players": 7, "seat": 6, "before": "pass,play,pass,play,pass,play"}),
    ("knock (5 players, trump H9)", "/api/knock", {"trump": "H9", "players": 5}),
]


def fetch(url: str, timeout: float = 300.0) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"{}")


@contextmanager
def serving(cache: str | None = None):
    """A fresh `rumbaodds serve --port 0` process; yields its URL, its start and the seconds to its first line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    with tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", "from rumbaodds.cli import main; main()", "serve", "--port", "0",
                                 "--tables", empty], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env)
        try:
            line = proc.stdout.readline()
            if not line.startswith("rumbaodds serve: http://"):
                raise RuntimeError(f"serve did not start: {line!r}")
            yield line.split()[2], start, time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(timeout=60)


def first_answers(cache: str | None = None) -> dict:
    """Seconds from starting `serve` to its first table answer, its first simulated answer and the warm-up's end."""
    with serving(cache) as (url, start, listening):
        status, _ = fetch(url + "api/ask?" + urlencode(README))
        table = time.perf_counter() - start
        assert status == 200, status
        status, _ = fetch(url + "api/ask?" + urlencode({**README, "samples": 20_000, "seed": 1}))
        simulated = time.perf_counter() - start
        assert status == 200, status
        while fetch(url + "api/status")[1]["warm"]["state"] not in ("ready", "failed"):
            time.sleep(0.1)
        warm = time.perf_counter() - start
    return {"listening s": listening, "first table answer s": table,
            "first simulated answer (20,000 deals) s": simulated, "warm-up done s": warm}


def while_compiling(cache: str) -> dict:
    """On an empty cache, once the default path is warm: a normal 2,000-deal question asked while another path
    (the whole game of ``scores=``) compiles in its own process (web/warm.py), and that request's own wait."""
    with serving(cache) as (url, start, _):
        while fetch(url + "api/status")[1]["warm"]["state"] not in ("ready", "failed"):
            time.sleep(0.1)
        game = {}
        scores = {**README, "scores": "20,20,20,20,20", "samples": 200, "seed": 3}

        def ask_game():
            began = time.perf_counter()
            game["status"] = fetch(url + "api/ask?" + urlencode(scores))[0]
            game["seconds"] = time.perf_counter() - began
        thread = threading.Thread(target=ask_game, daemon=True)
        thread.start()
        time.sleep(0.5)
        compiling = fetch(url + "api/status")[1]["queue"].get("compiling", [])
        began = time.perf_counter()
        status, body = fetch(url + "api/ask?" + urlencode({**README, "simulate": 1, "samples": 2_000, "seed": 5}))
        normal = time.perf_counter() - began
        thread.join()
    return {"compiling meanwhile": ", ".join(compiling) or "(nothing)", "normal 2,000-deal answer s": normal,
            "its status": status, "the scores= answer (waited for its compile) s": game.get("seconds"),
            "scores= status": game.get("status")}


def warm_answers(url: str, repeat: int, quick: bool) -> list[dict]:
    rows = []
    for number, (name, path, query) in enumerate(SITUATIONS):
        times, status, body = [], None, {}
        for i in range(repeat):
            asked = query if number == 0 else {**query, "seed": i + 1, **({"samples": 2_000} if quick else {})}
            start = time.perf_counter()
            status, body = fetch(url + path.lstrip("/") + "?" + urlencode(asked))
            times.append(time.perf_counter() - start)
            if status != 200:
                break
        if status == 404:
            rows.append({"situation": name, "asks": 0, "median s": "-", "worst s": "-",
                         "answered by": f"not served here ({path} answers 404)"})
            continue
        if status == 200:
            source = body.get("source", {}).get("source", "simulation")
            deals = body.get("samples")
            source += f", {deals:,} deals" if isinstance(deals, int) else ""
        else:
            source = f"HTTP {status}: {str(body.get('error', ''))[:80]}"
        rows.append({"situation": name, "asks": len(times), "median s": statistics.median(times),
                     "worst s": max(times), "answered by": source})
    return rows


def settled(url: str) -> None:
    """Wait for the warm-up, the idle-time kernels included."""
    while True:
        status = fetch(url + "api/status")[1]
        if status["warm"]["state"] in ("ready", "failed") and not status["busy"] and not status["queue"]["waiting"]:
            return
        time.sleep(0.1)


def under_load(url: str, quick: bool) -> dict:
    """A table answer, timed while an at-cap simulation runs (the queue's promise: within a second)."""
    from rumbaodds.web.params import SAMPLES_CAP

    samples = 50_000 if quick else SAMPLES_CAP
    huge = threading.Thread(target=fetch, args=(url + "api/ask?" + urlencode({**README, "samples": samples,
                                                                               "seed": 99}),), daemon=True)
    huge.start()
    while not fetch(url + "api/status")[1]["busy"]:
        time.sleep(0.01)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        fetch(url + "api/ask?" + urlencode(README))
        times.append(time.perf_counter() - start)
    busy = fetch(url + "api/status")[1]["busy"]
    huge.join()
    return {"huge run (deals)": samples, "table answers during it": len(times), "median s": statistics.median(times),
            "worst s": max(times), "huge run still running at the end": busy}


def main(quick: bool = False, cold: bool = False) -> None:
    rows = [{"numba cache": "as it is", **first_answers()}]
    if cold and not quick:
        with tempfile.TemporaryDirectory() as cache:
            rows.append({"numba cache": "empty (first start after an install)", **first_answers(cache)})
    print_table("first answers after `rumbaodds serve` starts, a fresh process (seconds from the start)", rows)
    if cold and not quick:
        with tempfile.TemporaryDirectory() as cache:
            print_table("an empty cache, the default path warm: a normal question while another path compiles",
                        [while_compiling(cache)])
    if not cold:
        print("the same with an empty Numba cache: `python -m benchmarks.bench_serve --cold` (minutes)")
    repeat = 2 if quick else 5
    with serving() as (url, _, _):
        settled(url)
        print_table(f"warm answers over HTTP, {repeat} asks each (default settings unless --quick: 2,000 deals)",
                    warm_answers(url, repeat, quick))
        print_table("a table answer while a huge simulation runs", [under_load(url, quick)])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a smoke run: few repeats, small samples")
    parser.add_argument("--cold", action="store_true", help="also the first start with an empty Numba cache")
    args = parser.parse_args()
    main(args.quick, args.cold)
