"""Background jobs: a simulation runs in its own thread and reports real progress while the page polls.

A job's progress is what :func:`rumbaodds.analysis.ask` reports through its
``progress(done, planned)`` callback after every batch. Cancelling a job makes
that callback raise :class:`Cancelled`, so the run stops after the batch in
flight. Finished jobs are kept a while (the newest ``keep``) for the page to
collect.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("rumbaodds.web")


class Cancelled(Exception):
    """Raised from the progress callback of a cancelled job."""


class BadInput(Exception):
    """Raised by a job's work for input the player can fix: the job ends with HTTP status 400 and this message."""


@dataclass
class Job:
    id: str
    state: str = "waiting"  # waiting -> running -> done | error | cancelled
    note: str = ""
    done: int = 0
    planned: int | None = None
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    result: dict | None = None
    error: str | None = None
    status: int = 200
    cancel_requested: bool = False

    def progress(self, done: int, planned: int) -> None:
        """The ``progress`` callback handed to ``analysis.ask``."""
        if self.cancel_requested:
            raise Cancelled
        self.state, self.done, self.planned = "running", int(done), int(planned)

    def start(self) -> None:
        """The run begins (it had to wait for the simulator); a job cancelled while waiting stops here."""
        if self.cancel_requested:
            raise Cancelled
        self.state, self.note = "running", ""

    def snapshot(self) -> dict:
        now = time.monotonic()
        out = {"id": self.id, "state": self.state, "note": self.note, "done": self.done, "planned": self.planned,
               "seconds": round((self.finished or now) - (self.started or now), 3)}
        if self.state == "done":
            out["result"] = self.result
        if self.state in ("error", "cancelled"):
            out["error"] = self.error
            out["status"] = self.status
        return out


class JobBoard:
    """Starts jobs in threads and keeps the newest ``keep`` of them for polling."""

    def __init__(self, keep: int = 64):
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def submit(self, work: Callable[[Job], dict]) -> Job:
        """Run ``work(job)`` in a new thread; its return value becomes the job's result."""
        job = Job(id=f"{next(self._ids)}-{time.time_ns() % 10**6:06d}")
        with self._lock:
            self._jobs[job.id] = job
            while len(self._jobs) > self.keep:
                self._jobs.popitem(last=False)
        threading.Thread(target=self._run, args=(job, work), name=f"job-{job.id}", daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.cancel_requested = True
        return job

    @staticmethod
    def _run(job: Job, work: Callable[[Job], dict]) -> None:
        job.started = time.monotonic()
        try:
            job.result = work(job)
            job.state = "done"
        except Cancelled:
            job.state, job.error, job.status = "cancelled", "cancelled", 409
        except BadInput as exc:
            job.state, job.error, job.status = "error", str(exc), 400
        except Exception as exc:  # noqa: BLE001 - a job must never take the server down
            log.exception("job %s failed", job.id)
            job.state, job.error, job.status = "error", f"internal error ({type(exc).__name__}: {exc}); see the " \
                                                        f"server's log", 500
        finally:
            job.finished = time.monotonic()
