"""Simulations of ``rumbaodds serve``: a bounded queue, a small worker pool, real progress and cancelling.

Every simulation a request asks for runs as a :class:`Job` on the
:class:`SimulationQueue`: a fixed pool of worker threads (one by default:
each simulation already uses every core) in front of a queue of a few
waiting jobs. A job beyond that is refused with :class:`Busy` (HTTP 503 with
Retry-After), so a burst of requests can never pile up work without bound;
table answers and pages never enter the queue.

A job's progress is what :func:`rumbaodds.answer.simulation.simulate` (and
``match.ask.ask_game``) report through their ``progress(done, planned)``
callback after every batch. The same callback enforces the limits of one
request: cancelled by the player, the client gone (the connection closed, or
a page job no longer polled), past the deals cap or past the time limit, it
raises and the run stops after the batch in flight. Finished page jobs are
kept a while (the newest ``keep``) for the page to collect.

A job names the kernels it needs (``needs``: a path of ``warm.PATHS``). When they are not compiled yet, the job
is held aside while a separate process compiles them (``warm.Compiler``), and joins the queue when they are
ready: a compile never holds the queue, so the paths that are ready go on answering (issue 37).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("rumbaodds.web")
ABANDONED_SECONDS = 30.0  # a page job nobody polled for this long is cancelled (the page polls every 150 ms)
HIGH, NORMAL, LOW = 0, 1, 2  # queue priorities: the warm-up's kernel first, then requests, idle-time warm-ups last


class Cancelled(Exception):
    """Raised from the progress callback of a cancelled job (the player cancelled it or went away)."""


class BadInput(Exception):
    """Raised by a job's work for input the player can fix: the job ends with HTTP status 400 and this message."""


class WorkLimit(BadInput):
    """A run past the limits of one request on this server (HTTP 400 naming the limit)."""


class Busy(Exception):
    """The queue is full: HTTP 503, try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Budget:
    """The limits of one run: at most ``deals`` deals (None: no cap) and ``seconds`` of simulation.

    The seconds count from the end of the first batch, so a kernel compiled by that batch (a cold cache)
    does not count; the batch itself is bounded work (simulation.BATCH deals)."""

    deals: int | None = None
    seconds: float | None = None
    what: str = "simulation"


@dataclass
class Job:
    id: str
    state: str = "waiting"  # waiting -> running -> done | error | cancelled
    note: str = ""
    done: int = 0
    planned: int | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    clock: float | None = None  # the first batch's end: the time limit counts from here (not the compilation)
    finished: float | None = None
    result: dict | None = None
    error: str | None = None
    status: int = 200
    cancel_requested: bool = False
    budget: Budget = field(default_factory=Budget)
    gone: threading.Event | None = None  # set by the server when the client's connection closed
    polled: float | None = None  # a page job: when the page last asked for it (None: not a polled job)
    ended: threading.Event = field(default_factory=threading.Event, repr=False)

    def check(self, done: int | None = None) -> None:
        """Raise when the run must stop: Cancelled (asked, the client gone or not polling), WorkLimit (the budget)."""
        if self.cancel_requested:
            raise Cancelled("cancelled")
        if self.gone is not None and self.gone.is_set():
            raise Cancelled("the client went away")
        now = time.monotonic()
        if self.polled is not None and now - self.polled > ABANDONED_SECONDS:
            raise Cancelled(f"nobody asked for this job for {ABANDONED_SECONDS:.0f} s")
        budget = self.budget
        if budget.deals is not None and done is not None and done > budget.deals:
            raise WorkLimit(f"the {budget.what} stopped at {budget.deals:,} deals, the most one request simulates "
                            f"on this server, before reaching its precision: ask for a coarser precision")
        if budget.seconds is not None and self.clock is not None and now - self.clock > budget.seconds:
            raise WorkLimit(f"the {budget.what} stopped after {budget.seconds:g} s, the longest one request "
                            f"simulates on this server ({self.done:,} deals done): ask for fewer samples or a "
                            f"coarser precision")

    def progress(self, done: int, planned: int) -> None:
        """The ``progress`` callback handed to the simulation."""
        if self.clock is None:
            self.clock = time.monotonic()
        self.check(int(done))
        self.state, self.done, self.planned = "running", int(done), int(planned)

    def start(self) -> None:
        """The run begins (it had to wait for the simulator); a job cancelled while waiting stops here."""
        self.started = time.monotonic()
        self.check()
        self.state, self.note = "running", ""

    def finish(self, state: str, result: dict | None = None, error: str | None = None, status: int = 200) -> None:
        self.state, self.result, self.error, self.status = state, result, error, status
        self.finished = time.monotonic()
        self.ended.set()

    def snapshot(self) -> dict:
        now = time.monotonic()
        if self.polled is not None:
            self.polled = now
        # the seconds it ran: none for a job that never started (a table answer, or cancelled while it waited)
        ran = (self.finished or now) - self.started if self.started is not None else 0.0
        out = {"id": self.id, "state": self.state, "note": self.note, "done": self.done, "planned": self.planned,
               "seconds": round(ran, 3)}
        if self.state == "done":
            out["result"] = self.result
        if self.state in ("error", "cancelled"):
            out["error"] = self.error
            out["status"] = self.status
        return out


_ids = itertools.count(1)


def new_job(budget: Budget = Budget(), gone: threading.Event | None = None, polled: bool = False) -> Job:
    job = Job(id=f"{next(_ids)}-{time.time_ns() % 10**6:06d}", budget=budget, gone=gone)
    if polled:
        job.polled = time.monotonic()
    return job


def run_job(job: Job, work: Callable[[Job], dict]) -> None:
    """Run ``work(job)`` here; its return value becomes the job's result, its exception the job's error."""
    try:
        job.start()
        job.finish("done", work(job))
    except Cancelled as exc:
        job.finish("cancelled", error=str(exc) or "cancelled", status=409)
    except BadInput as exc:
        job.finish("error", error=str(exc), status=400)
    except Exception as exc:  # noqa: BLE001 - a job must never take the server down
        log.exception("job %s failed", job.id)
        job.finish("error", error=f"internal error ({type(exc).__name__}: {exc}); see the server's log", status=500)


class SimulationQueue:
    """``workers`` threads run queued jobs one at a time each; at most ``waiting`` requests wait for them.

    ``lock`` is held while a job runs: with one worker it is the old "one simulation at a time" lock, and any
    other code that runs a parallel kernel outside the queue takes it too. Work of priority HIGH or LOW
    (the warm-up) is never refused; LOW work runs only when no request waits.
    """

    def __init__(self, workers: int = 1, waiting: int = 4, typical_seconds: float = 5.0, compiler=None):
        self.workers, self.capacity, self.typical_seconds = workers, waiting, typical_seconds
        self.compiler = compiler  # warm.Compiler (or a stand-in): compiles a job's kernels outside the queue
        self.lock = threading.Lock()
        self._cond = threading.Condition()
        self._heap: list[tuple[int, int, Job, Callable]] = []
        self._held: list[tuple[int, int, Job, Callable, str]] = []  # waiting for their kernels to compile
        self._order = itertools.count()
        self._running: dict[str, Job] = {}
        self._threads: list[threading.Thread] = []
        self._closed = False

    # -- asking -----------------------------------------------------------------------------------------------
    def submit(self, job: Job, work: Callable[[Job], dict], priority: int = NORMAL, needs: str | None = None) -> Job:
        """Queue ``work(job)``; raises Busy when ``waiting`` requests already wait (never for HIGH or LOW work).

        ``needs``: the kernels' path (warm.PATHS); not compiled yet, the job waits outside the queue while another
        process compiles them."""
        hold = needs is not None and self.compiler is not None and not self.compiler.ready(needs)
        with self._cond:
            if self._closed:
                raise Busy("the server is stopping", 5)
            self.drop_gone()
            if priority == NORMAL and self.waiting() >= self.capacity:
                ahead = self.waiting() + len(self._running)
                retry = max(1, round(ahead * self.typical_seconds / self.workers))
                raise Busy(f"the simulator is busy: {len(self._running)} running and {self.waiting()} waiting, "
                           f"the most this server queues; try again in about {retry} s", retry)
            if hold:
                job.note = self.compiler.note(needs)
                self._held.append((priority, next(self._order), job, work, needs))
            else:
                heapq.heappush(self._heap, (priority, next(self._order), job, work))
                self._start_workers()
                self._cond.notify()
        if hold:
            self.compiler.ensure(needs, self._compiled)
        return job

    def _compiled(self, needs: str) -> None:
        """The kernels of ``needs`` are compiled (or their compile failed): the jobs held for them join the queue."""
        with self._cond:
            for item in [h for h in self._held if h[4] == needs]:
                self._held.remove(item)
                priority, order, job, work, _ = item
                if job.ended.is_set():
                    continue
                job.note = ""
                heapq.heappush(self._heap, (priority, order, job, work))
            self._start_workers()
            self._cond.notify_all()

    def cancel(self, job: Job) -> None:
        """Stop ``job``: a waiting one leaves the queue at once, a running one stops after its batch."""
        job.cancel_requested = True
        with self._cond:
            kept = [item for item in self._heap if item[2] is not job]
            held = [item for item in self._held if item[2] is not job]
            if len(kept) != len(self._heap) or len(held) != len(self._held):
                self._heap, self._held = kept, held
                heapq.heapify(self._heap)
                job.finish("cancelled", error="cancelled", status=409)

    def drop_gone(self) -> None:
        """Waiting jobs whose client went away (or nobody polls) leave the queue: their place goes to another."""
        with self._cond:
            for waiting in (self._heap, self._held):
                for item in list(waiting):
                    job = item[2]
                    try:
                        job.check()
                    except Cancelled:
                        waiting.remove(item)
                        job.finish("cancelled", error="the client went away", status=409)
                    except BadInput:
                        pass
            heapq.heapify(self._heap)

    def waiting(self) -> int:
        """Requests waiting, in the queue or for their kernels (warm-up work not counted)."""
        return sum(1 for priority, *_ in [*self._heap, *self._held] if priority == NORMAL)

    def stats(self) -> dict:
        with self._cond:
            compiling = sorted({item[4] for item in self._held})
            return {"running": len(self._running), "waiting": self.waiting(), "workers": self.workers,
                    "queue": self.capacity, "compiling": compiling}

    def idle(self) -> bool:
        with self._cond:
            return not self._heap and not self._running and not self._held

    def close(self) -> None:
        """Refuse new work, cancel what waits and stop what runs after its batch (the server stops)."""
        with self._cond:
            self._closed = True
            for job in self._running.values():
                job.cancel_requested = True
            for _, _, job, *_ in [*self._heap, *self._held]:
                job.cancel_requested = True
                job.finish("cancelled", error="the server is stopping", status=503)
            self._heap.clear()
            self._held.clear()
            self._cond.notify_all()
        if self.compiler is not None:
            self.compiler.close()

    # -- the workers -------------------------------------------------------------------------------------------
    def _start_workers(self) -> None:
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._work, name=f"simulator-{len(self._threads)}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _next(self):
        with self._cond:
            while True:
                if self._closed:
                    return None
                if self._heap:
                    priority, _, job, work = heapq.heappop(self._heap)
                    self._running[job.id] = job
                    return job, work
                self._cond.wait()

    def _work(self) -> None:
        while True:
            item = self._next()
            if item is None:
                return
            job, work = item
            try:
                if not job.ended.is_set():  # not cancelled while it waited
                    with self.lock:
                        run_job(job, work)
            finally:
                with self._cond:
                    self._running.pop(job.id, None)


class JobBoard:
    """The page's jobs, kept for polling: the newest ``keep`` of them."""

    def __init__(self, queue: SimulationQueue, keep: int = 64):
        self.queue = queue
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, job: Job) -> Job:
        with self._lock:
            self._jobs[job.id] = job
            while len(self._jobs) > self.keep:
                self._jobs.popitem(last=False)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            self.queue.cancel(job)
        return job
