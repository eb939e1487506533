"""A compile never holds the server's queue (issue 37): a path's kernels compile in a process of their own.

The mechanism, with a stand-in compiler that finishes when the test says: a request whose kernels are not
compiled waits outside the queue, saying so, while a request of a ready path is answered; the control runs the
same compile inside the queue (the old way) and the ready request waits behind it. Then the real compiler: a
separate process, a failure that still lets the held requests run, and ``python -m rumbaodds.web.warm``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from rumbaodds.web import warm
from rumbaodds.web.app import App
from rumbaodds.web.jobs import NORMAL, SimulationQueue, new_job

README = {"hand": "HA HK HQ S6 C7", "trump": "H9", "players": 5, "seat": 2}


class StandInCompiler:
    """``ready`` paths are compiled; any other compiles until ``release`` is set (in a thread, as the real one)."""

    def __init__(self, ready=("ask",)):
        self.ready_paths = set(ready)
        self.release = threading.Event()
        self.asked: list[str] = []

    def ready(self, name):
        return name in self.ready_paths

    def note(self, name):
        return warm.PATHS[name].note()

    def ensure(self, name, then):
        self.asked.append(name)

        def compile_():
            self.release.wait(30)
            self.ready_paths.add(name)
            then(name)
        threading.Thread(target=compile_, daemon=True).start()

    def close(self):
        self.release.set()


def wait_for(predicate, timeout=10.0):
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            raise AssertionError("timed out")
        time.sleep(0.01)
    return time.perf_counter() - start


def test_a_path_that_compiles_holds_up_no_other_path():
    compiler = StandInCompiler()
    queue = SimulationQueue(compiler=compiler)
    ran = []
    game = queue.submit(new_job(), lambda job: ran.append("game") or {}, NORMAL, needs="game")
    assert game.state == "waiting"
    assert game.note.startswith("compiling the game value of every choice: first run only")
    assert queue.stats()["compiling"] == ["game"] and compiler.asked == ["game"]
    ask = queue.submit(new_job(), lambda job: ran.append("ask") or {}, NORMAL, needs="ask")
    assert wait_for(ask.ended.is_set) < 10.0  # answered while the other path compiles
    assert ask.state == "done" and ran == ["ask"] and not game.ended.is_set()
    compiler.release.set()
    wait_for(game.ended.is_set)
    assert game.state == "done" and ran == ["ask", "game"] and game.note == ""
    assert queue.stats()["compiling"] == []


def test_the_control_a_compile_inside_the_queue_holds_every_path():
    """The old way: the game request compiles inside the queue (its work blocks): the ready request waits."""
    queue = SimulationQueue()  # no compiler: every job goes straight into the queue
    compiling = threading.Event()
    game = queue.submit(new_job(), lambda job: compiling.wait(30) and {}, NORMAL, needs="game")
    ask = queue.submit(new_job(), lambda job: {}, NORMAL, needs="ask")
    time.sleep(0.5)
    assert not ask.ended.is_set()  # held up by another path's compile
    compiling.set()
    wait_for(ask.ended.is_set)
    assert game.state == "done"


def test_a_held_job_counts_as_waiting_and_can_be_cancelled():
    queue = SimulationQueue(waiting=1, compiler=StandInCompiler())
    held = queue.submit(new_job(), lambda job: {}, NORMAL, needs="knock")
    assert queue.waiting() == 1 and not queue.idle()
    with pytest.raises(Exception, match="busy"):
        queue.submit(new_job(), lambda job: {}, NORMAL, needs="ask")
    queue.cancel(held)
    assert held.state == "cancelled" and queue.waiting() == 0 and queue.idle()
    queue.close()


def test_the_server_answers_a_simulated_question_while_the_game_path_compiles(monkeypatch):
    """Through the routes: a `scores=` request waits for its kernels (the page sees the note), a plain simulated
    question of the ready path is answered meanwhile, with a real simulation."""
    import rumbaodds.match.ask as match_ask

    monkeypatch.setattr(match_ask, "ask_game", lambda **kw: (_ for _ in ()).throw(AssertionError("not yet")))
    warm.PATHS["ask"].warm()  # the default path is warm (compiled or loaded here), as after the server's warm-up
    compiler = StandInCompiler()
    app = App("no-tables", compiler=compiler)
    query = {k: [str(v)] for k, v in {**README, "scores": "20,20,20,20,20", "seed": 1, "samples": 100}.items()}
    page_job = json.loads(app.handle("POST", "/api/jobs", query).body)
    assert page_job["state"] == "waiting" and page_job["note"].startswith("compiling the game value of every choice")
    assert app.status()["queue"]["compiling"] == ["game"]
    start = time.perf_counter()
    reply = app.handle("GET", "/api/ask", {k: [str(v)] for k, v in {**README, "seed": 1, "samples": 2000,
                                                                     "simulate": 1}.items()})
    assert reply.status == 200, reply.body
    assert time.perf_counter() - start < 10.0
    assert json.loads(reply.body)["samples"] == 2000
    app.jobs.cancel(page_job["id"])
    app.simulations.close()


def _not_compiled():
    return SimpleNamespace(signatures=[], _cache=SimpleNamespace(_cache_file=SimpleNamespace(
        _index_path="/nonexistent/index.nbi")))


@pytest.mark.parametrize("code, ready", [(0, True), (3, False)])
def test_the_compiler_runs_a_process_and_always_releases_its_requests(code, ready, monkeypatch):
    """A separate process compiles; whether it succeeds or fails, the held requests are released (a failure
    is logged and the path then compiles in the queue, the old way)."""
    monkeypatch.setattr(warm.KernelPath, "kernels", lambda self: [_not_compiled()])
    compiler = warm.Compiler(command=lambda name: [sys.executable, "-c", f"import sys; sys.exit({code})"])
    assert not compiler.ready("knock")
    released = threading.Event()
    compiler.ensure("knock", lambda name: released.set())
    assert released.wait(30)
    assert compiler.ready("knock") is ready
    wait_for(lambda: compiler.compiling() == [])


def test_warm_refuses_an_unknown_path_in_one_line():
    proc = subprocess.run([sys.executable, "-m", "rumbaodds.web.warm", "nope"], capture_output=True, text=True)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1 and "unknown path 'nope'" in proc.stderr


def test_every_path_names_kernels_that_exist():
    for path in warm.PATHS.values():
        kernels = path.kernels()
        assert kernels and all(hasattr(k, "signatures") and hasattr(k, "py_func") for k in kernels), path.name
