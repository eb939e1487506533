"""Kernels compiled in a process of their own, so that one path's compile never holds up another's answers.

The server runs one simulation at a time (``jobs.SimulationQueue``). A kernel that compiles inside that queue
holds it for as long as Numba takes (a minute on two cores), and every request behind it waits, whatever it
asks. So a request whose path (:data:`PATHS`: the hand simulator, the game value of every choice, the knock) is not
compiled yet is held aside while a separate Python process (``python -m rumbaodds.web.warm PATH``) compiles
that path into Numba's on-disk cache; the queue goes on answering the paths that are ready, and the held
request joins the queue once the cache holds its kernels (loading them takes about a second). Issue 37.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from ..engine.compiled import COLD_SECONDS, is_compiled

log = logging.getLogger("rumbaodds.web")
WARM_HAND = ("HA HK HQ S6 C7", "H9", 5, 2)  # the README's hand: compiles every kernel ask uses


@dataclass(frozen=True)
class KernelPath:
    """A family of requests that share their kernels: what compiles them and how they are named to a player."""

    name: str
    what: str  # as engine.compiled names it ("the simulator", ...)

    def kernels(self) -> list:
        """The dispatchers this path runs (imported here, so that naming a path compiles nothing)."""
        if self.name == "ask":
            from ..engine.hand import ask_batch

            return [ask_batch]
        if self.name == "game":
            from ..match.choice import choice_batch

            return [choice_batch]
        from ..engine.knock import knock_batch

        return [knock_batch]

    def warm(self) -> None:
        """Run the path once on a tiny question: compiles (or loads) every kernel it needs."""
        from ..answer import simulation

        hand, trump, players, seat = WARM_HAND
        if self.name == "ask":
            simulation.ask(hand, trump, players=players, seat=seat, samples=1_000, seed=0)
        elif self.name == "game":
            from ..match.ask import ask_game

            ask_game(hand, trump, players, seat, scores=(20,) * players, samples=10, seed=0)
        else:
            simulation.knock(trump, players, samples=2, seed=0, inner_samples=2)

    def note(self) -> str:
        seconds = COLD_SECONDS.get(self.what)
        return f"compiling {self.what}: first run only" + (f", about {seconds} s" if seconds else "")


PATHS = {p.name: p for p in (KernelPath("ask", "the simulator"), KernelPath("game", "the game value of every choice"),
                             KernelPath("knock", "the knock simulator"))}


class Compiler:
    """Compiles a path in a separate process, one process per path at a time, and says when it is ready."""

    def __init__(self, command: Callable[[str], list[str]] | None = None):
        self.command = command or (lambda name: [sys.executable, "-m", "rumbaodds.web.warm", name])
        self._lock = threading.Lock()
        self._ready: set[str] = set()
        self._waiters: dict[str, list[Callable[[str], None]]] = {}
        self._procs: dict[str, subprocess.Popen] = {}
        self._closed = False

    def ready(self, name: str) -> bool:
        """Compiled in this process, or in Numba's cache (then loaded in about a second)."""
        with self._lock:
            if name in self._ready:
                return True
        if all(is_compiled(kernel) for kernel in PATHS[name].kernels()):
            with self._lock:
                self._ready.add(name)
            return True
        return False

    def note(self, name: str) -> str:
        """What a job held for path ``name`` says while it waits."""
        return PATHS[name].note()

    def compiling(self) -> list[str]:
        with self._lock:
            return sorted(self._waiters)

    def ensure(self, name: str, then: Callable[[str], None]) -> None:
        """Compile path ``name`` in a process of its own (unless it already compiles) and call ``then(name)`` once
        it is done: ready, or failed (then the path compiles in the queue the old way, and the log says why)."""
        with self._lock:
            ready_now = name in self._ready
            start = not ready_now and name not in self._waiters
            if not ready_now:
                self._waiters.setdefault(name, []).append(then)
        if ready_now:
            then(name)
        elif start:
            threading.Thread(target=self._compile, args=(name,), name=f"compile-{name}", daemon=True).start()

    def _compile(self, name: str) -> None:
        log.info("%s (in a separate process)", PATHS[name].note())
        ok = False
        try:
            with self._lock:
                if self._closed:
                    raise RuntimeError("the server is stopping")
                proc = subprocess.Popen(self.command(name), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
                self._procs[name] = proc
            _, err = proc.communicate()
            ok = proc.returncode == 0
            if not ok:
                log.error("compiling %s failed (exit %s): %s", name, proc.returncode, (err or "").strip()[-500:])
        except Exception as exc:  # noqa: BLE001 - the held requests still run, compiling in the queue
            log.error("compiling %s failed: %s", name, exc)
        with self._lock:
            self._procs.pop(name, None)
            if ok:
                self._ready.add(name)
            waiters = self._waiters.pop(name, [])
        for then in waiters:
            then(name)

    def close(self) -> None:
        """Stop every compiling process (the server stops)."""
        with self._lock:
            self._closed = True
            procs = list(self._procs.values())
        for proc in procs:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    """``python -m rumbaodds.web.warm PATH...``: compile these paths into Numba's cache and exit."""
    names = (argv if argv is not None else sys.argv[1:]) or list(PATHS)
    unknown = [n for n in names if n not in PATHS]
    if unknown:
        print(f"rumbaodds.web.warm: error: unknown path {unknown[0]!r} (known: {', '.join(PATHS)})", file=sys.stderr)
        return 2
    for name in names:
        PATHS[name].warm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
