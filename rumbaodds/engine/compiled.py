"""Whether a kernel must compile before it runs, and the one line that says so (issue 37).

A fresh install's first answer waits for Numba to compile the simulator (``cache=True`` keeps it for every later
run). That wait is part of the product: a user who sees nothing for half a minute thinks the program hangs. So
the first call of a command's kernel on an empty cache says, once, on stderr::

    rumbaodds: compiling the simulator: first run only, about 40 s

The seconds are the cold compile times measured on a two-core machine (``python -m benchmarks.bench_cold``
prints them; the constants below are its figures). The line goes through the logger ``rumbaodds.compile``
(level INFO, its own stderr handler): a library user can silence it with ``setLevel(logging.WARNING)``.
"""

from __future__ import annotations

import logging
import os
import sys

# cold compile seconds of each command's kernels on two cores (benchmarks/bench_cold.py, an empty NUMBA_CACHE_DIR)
COLD_SECONDS = {"the simulator": 40, "the knock simulator": 55, "the whole-game simulator": 35,
                "the game value of every choice": 55, "the table builder": 45}

log = logging.getLogger("rumbaodds.compile")


class StderrHandler(logging.Handler):
    """Writes to the ``sys.stderr`` of the moment (a test runner or click may have replaced it); ``rumbaodds serve``
    logs through one too."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # a closed stream must not stop an answer
            self.handleError(record)


if not log.handlers:
    _handler = StderrHandler()
    _handler.setFormatter(logging.Formatter("rumbaodds: %(message)s"))
    log.addHandler(_handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # `serve` logs to the root logger: the line is said once, not twice

_announced: set[str] = set()


def is_compiled(dispatcher) -> bool:
    """True when ``dispatcher`` (an ``@njit(cache=True)`` function) runs without compiling: compiled in this
    process, or found in Numba's cache (its index file exists). Unknown (Numba's internals moved): True, so
    that nothing false is said."""
    if dispatcher.signatures:
        return True
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:
        return True


def announce_compile(dispatcher, what: str = "the simulator") -> bool:
    """Say once per process that ``what`` compiles now, when ``dispatcher`` is neither compiled nor cached;
    returns whether it was said."""
    if what in _announced or is_compiled(dispatcher):
        return False
    _announced.add(what)
    seconds = COLD_SECONDS.get(what)
    about = f", about {seconds} s" if seconds else ""
    log.info("compiling %s: first run only%s", what, about)
    return True


__all__ = ["COLD_SECONDS", "StderrHandler", "announce_compile", "is_compiled"]
