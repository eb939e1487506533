"""A shared warm-up of Numba's kernel cache before the test processes start (issue 37: the test run's time).

With ``-n`` (``make test``: two test processes), each process would compile the same big kernels (the hand
simulator, the whole-game simulator, the knock) side by side on a cold cache: the same minute twice. Instead
the controlling process compiles them once into the on-disk cache first, each path in a process of its own
(``python -m rumbaodds.web.warm PATH``, what ``rumbaodds serve`` does), and the test processes load them.
A test that needs a kernel compiled from nothing still does it itself; this only removes the duplicate work.
A single-process run (``pytest tests/test_x.py``) skips the warm-up: its own first test compiles what it needs.

The longest files are collected first (:data:`LONGEST_FIRST`), so that neither process ends the run alone.
"""

from __future__ import annotations

import subprocess
import sys
import time

WARM_PATHS = ("ask", "game", "knock")


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # a test process of xdist: the controller warmed the cache already
        return
    workers = config.getoption("numprocesses", default=None)
    if not workers or config.getoption("collectonly"):
        return
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "rumbaodds.web.warm", name], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for name in WARM_PATHS]
    failed = []
    for name, proc in zip(WARM_PATHS, procs):
        _, err = proc.communicate()
        if proc.returncode != 0:  # the tests still compile what they need, and will say what is wrong
            failed.append(f"{name}: {(err or '').strip().splitlines()[-1:]}")
    said = f"; failed: {failed}" if failed else ""
    print(f"kernel cache warmed ({', '.join(WARM_PATHS)}) in {time.perf_counter() - start:.0f} s{said}",
          file=sys.stderr)


# The longest test files first (seconds on two cores with an empty Numba cache, `--durations=0`, 2026-12-06), the
# others after them in their usual order: each of two test processes takes the next file when it is free, so a
# long file left to the end ran alone while the other process idled. The Makefile turns off xdist's own order
# (`--no-loadscope-reorder`, by the number of tests in a file). A renamed file only loses its place.
LONGEST_FIRST = ("test_searched_ask.py", "test_shipped_validity.py", "test_report_full.py", "test_cli_deals.py",
                 "test_match_kernel.py", "test_strategy.py", "test_score_aware.py", "test_hand_kernel.py",
                 "test_serve_api.py", "test_report.py", "test_tables.py", "test_tricks.py", "test_serve_browser.py",
                 "test_distilled_trees.py", "test_match_maps.py", "test_exact_game.py", "test_serve_page.py")


def pytest_collection_modifyitems(config, items):
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order
