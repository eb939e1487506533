"""Where a build's tasks run: in this process, or on Dask (a LocalCluster here, or a running cluster).

A scheduler takes the task function and the keys still to do, and yields
``(key, result)`` as results arrive, in any order; the build writes each one
to disk at once. Results do not depend on where or in which order tasks run
(see :mod:`.build`), so every scheduler gives the same bytes. Dask is
imported only when a Dask scheduler is asked for (``pip install
'rumbaodds[dask]'``).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator

from .spec import TableError

LOCAL = "local"
DASK = "dask"
CONNECT_TIMEOUT = "10s"  # to reach a running Dask scheduler


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class LocalScheduler:
    """Tasks one after the other in this process; each uses every core through Numba."""

    name = LOCAL

    def run(self, task: Callable, keys: Iterable, label: str = "") -> Iterator[tuple[object, object]]:
        for key in keys:
            yield key, task(key)


def worker_code() -> str:
    """The numbers version and kernel digest of the rumbaodds a Dask worker imports (run on every worker first)."""
    return local_code()


def local_code() -> str:
    """``v<numbers version>-<kernel digest>``: two installs that compute the same table numbers agree on it."""
    from .. import engine

    return f"v{engine.NUMBERS_VERSION}-{engine.KERNEL_DIGEST}"


class DaskScheduler:
    """Tasks on Dask: a LocalCluster of ``workers`` processes (address None) or the scheduler at ``address``.

    On a LocalCluster each worker process has one Dask thread and cores // workers Numba threads. On a
    cluster of your own, start one ``dask worker ADDRESS --nthreads 1`` per machine (each task then uses
    every core of its machine through Numba), or ``--nworkers K --nthreads 1`` with ``NUMBA_NUM_THREADS``
    set to cores / K. Every worker needs the same rumbaodds installed: it is checked before the build.
    """

    name = DASK

    def __init__(self, address: str | None = None, workers: int | None = None):
        self.address = address
        self.workers = workers
        self.cluster = None
        self.client = None
        self.threads: int | None = None

    def __enter__(self) -> DaskScheduler:
        from distributed import Client, LocalCluster
        if self.address is None:
            n = self.workers or _cores()
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                        scheduler_port=0, silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
            self.threads = max(1, _cores() // n)
        else:
            try:
                self.client = Client(self.address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise TableError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        try:
            if self.cluster is None:
                self.client.wait_for_workers(1, timeout=60)
            self._check_workers()
        except BaseException:
            self.__exit__(None, None, None)  # a failed start leaves no client or cluster behind
            raise
        return self

    def _check_workers(self) -> None:
        here = local_code()
        try:
            digests = self.client.run(worker_code)
        except Exception as exc:  # noqa: BLE001 - a worker without rumbaodds fails to unpickle the function
            raise TableError(f"a Dask worker cannot run rumbaodds ({type(exc).__name__}: {exc}); install the same "
                             f"rumbaodds on every worker") from None
        other = {w: d for w, d in digests.items() if d != here}
        if other:
            worker, code = next(iter(other.items()))
            raise TableError(f"Dask worker {worker} runs rumbaodds {code} (numbers version-kernel digest), this "
                             f"machine {here}: install the same rumbaodds on every worker")

    def __exit__(self, *exc) -> None:
        with contextlib.suppress(Exception):
            if self.client is not None:
                self.client.close()
        with contextlib.suppress(Exception):
            if self.cluster is not None:
                self.cluster.close()

    def run(self, task: Callable, keys: Iterable, label: str = "") -> Iterator[tuple[object, object]]:
        from distributed import as_completed

        futures = {}
        for key in keys:
            name = f"rumbaodds-{label}-{key[0]}-{key[1]}" if isinstance(key, tuple) else None
            futures[self.client.submit(task, key, self.threads, key=name, pure=False)] = key
        for future, result in as_completed(futures, with_results=True):
            key = futures.pop(future)
            future.release()
            yield key, result


def check_scheduler(scheduler: str, workers: int | None = None) -> str:
    """``local``, ``dask`` or ``address`` for a valid ``--scheduler``; a TableError naming the problem otherwise."""
    if workers is not None and workers < 1:
        raise TableError(f"--workers must be positive, got {workers}")
    if scheduler == LOCAL:
        return LOCAL
    if scheduler != DASK and "://" not in scheduler:
        raise TableError(f"unknown --scheduler {scheduler!r} (use local, dask or the address of a Dask scheduler, "
                         f"e.g. tcp://HOST:8786)")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise TableError(f"--scheduler {scheduler} needs dask.distributed: pip install 'rumbaodds[dask]'") from None
    return DASK if scheduler == DASK else "address"


def open_scheduler(scheduler: str, workers: int | None = None):
    """A context manager for ``--scheduler``: local, dask, or the address of a Dask scheduler."""
    kind = check_scheduler(scheduler, workers)
    if kind == LOCAL:  # every core through Numba threads; --workers is for Dask
        return contextlib.nullcontext(LocalScheduler())
    return DaskScheduler(None if kind == DASK else scheduler, workers)
