"""The routes of ``rumbaodds serve`` as plain functions of (method, path, query): no sockets, easy to test.

Every answer comes from :mod:`rumbaodds.answer` (a table when one covers the
question, else :func:`rumbaodds.answer.simulation.simulate`) and is served as
:func:`rumbaodds.answer.pipeline.document`, the very document ``rumbaodds ask --json``
prints. Input the player can fix gives HTTP 400 with ``{"error": ...}`` and
the API's own one-line message; anything else gives 500, is logged with its
traceback (on the server's console only) and the server goes on serving.

The server is shared, so it stays up for everyone: a table answer and the
page are served at once, never behind a simulation; a simulation runs on the
bounded :class:`~.jobs.SimulationQueue` (503 with Retry-After when it is
full), within the limits of one request (:func:`.params.check_work`) and is
cancelled when its client goes away; a request naming a host this server
does not answer to (DNS rebinding: a page elsewhere sending the player's
browser here) gets 421.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .. import limits
from ..answer import pipeline, simulation
from ..answer.question import Question
from ..cardplay import DEFAULT_PLAY
from ..cards import CardError, format_card
from ..opponents.models import MODELS, ModelError, OpponentModel, points_text
from ..opponents.resolve import EQUILIBRIUM
from ..rules import PRESETS, RulesError, RuleSet
from ..tables import find_tables, load_table
from .jobs import HIGH, LOW, BadInput, Budget, Busy, Job, JobBoard, SimulationQueue, new_job
from .params import (
    MAX_SECONDS,
    PARAMS,
    WORK_SECONDS,
    ParamError,
    ask_arguments,
    caps,
    check_knock_work,
    check_work,
    game_arguments,
    parse_query,
    work_cap,
)
from .warm import PATHS, WARM_HAND, Compiler

KNOCK_PARAMS = ("rules", "players", "trump", "opponents", "play", "samples", "precision", "seed")

log = logging.getLogger("rumbaodds.web")
INPUT_ERRORS = (ParamError, CardError, RulesError, ModelError)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")  # the names a local server answers to
WILDCARDS = ("", "0.0.0.0", "::")  # --host values that listen on every address of the machine


EQUILIBRIUM_TEXT = ("equilibrium: solved strategies, every seat a best response to the others (docs/STRATEGY.md); "
                    "the default style where a house rule has none solved")


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()  # more headers (Retry-After)

    @classmethod
    def json(cls, data, status: int = 200) -> Response:
        return cls(status, "application/json", (json.dumps(data) + "\n").encode())

    @classmethod
    def error(cls, message: str, status: int = 400, headers: tuple[tuple[str, str], ...] = ()) -> Response:
        return cls(status, "application/json", (json.dumps({"error": message}) + "\n").encode(), headers)


def page_html() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


NO_TRAINER = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>No trainer here</title></head>
<body style="font:17px/1.45 system-ui, sans-serif; max-width:560px; margin:0 auto; padding:16px">
<h1 style="font-size:21px">No trainer page on this server</h1>
<p>The trainer is a page of its own, made once: <code>rumbaodds train --page reports/trainer.html</code>. Start
<code>rumbaodds serve</code> where that file is (or name it: <code>rumbaodds serve --trainer FILE</code>) and it is
served here, at /trainer.</p><p><a href="/">Back to the odds</a></p></body></html>
"""


class Hosts:
    """The names a request may give in its Host header: the localhost names, plus the address served on.

    Served on every address (``--host 0.0.0.0``): also any IP address and the machine's own name. A name
    elsewhere (``evil.example``) is what a page of another site would send through the player's own browser.
    """

    def __init__(self):
        self.names = set(LOCAL_NAMES)
        self.any_address = False

    def allow(self, host: str) -> None:
        name = host.strip().strip("[]").lower().rstrip(".")
        if name in WILDCARDS:
            self.any_address = True
            self.names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        else:
            self.names.add(name)

    def problem(self, header: str) -> str | None:
        """Why the Host header ``header`` is refused, or None. No header at all (HTTP/1.0) is allowed."""
        text = header.strip()
        if not text:
            return None
        if text.startswith("["):
            name, bracket, port = text[1:].partition("]")
            if not bracket or (port and not port.startswith(":")):
                return f"Host {text[:60]!r}: not a host name and port"
            port = port[1:]
        else:
            name, colon, port = text.partition(":")
            if colon and not port:
                return f"Host {text[:60]!r}: not a host name and port"
        name = name.lower().rstrip(".")
        if port and not (port.isdigit() and len(port) <= 5):
            return f"Host {text[:60]!r}: not a host name and port"
        if name in self.names or (self.any_address and _is_address(name)):
            return None
        return (f"Host {name[:60]!r} is not served here (this server answers to {', '.join(sorted(self.names))}; "
                f"`rumbaodds serve --host NAME` serves another name)")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class App:
    """One server's state: where its tables are, its rule sets and models, the warm-up and the simulations.

    ``workers`` simulations run at once (each uses every core) and ``waiting`` more may wait for them.
    """

    def __init__(self, tables_root="tables", rule_sets: dict[str, RuleSet] | None = None,
                 models: dict[str, OpponentModel] | None = None, workers: int = 1, waiting: int = 4,
                 compiler: Compiler | None = None, trainer: str | Path | None = None):
        self.tables_root = str(tables_root)
        self.trainer = None if trainer is None else Path(trainer)  # the trainer's static page, served at /trainer
        self.rule_sets = {**PRESETS, **(rule_sets or {})}
        # equilibrium first, the default: None lets resolve.opponent_policy take the solved strategy, or the default
        # style where a house rule has none (and say so), as `rumbaodds ask` without --opponents does
        self.models = {EQUILIBRIUM: None, **MODELS, **(models or {})}
        # a path's kernels compile in a process of their own, never inside the queue (warm.py)
        self.simulations = SimulationQueue(workers, waiting, typical_seconds=WORK_SECONDS,
                                           compiler=compiler or Compiler())
        self.simulation_lock = self.simulations.lock  # held while a simulation runs: other kernel runs take it too
        self.jobs = JobBoard(self.simulations)
        self.hosts = Hosts()
        self.warm = {"state": "cold", "seconds": None, "error": None, "tables": "cold"}
        self._described: dict[tuple[str, int], str] = {}

    def listen_on(self, host: str) -> None:
        """The server listens on ``host`` (``--host``): requests may name it too."""
        self.hosts.allow(host)

    # -- warm-up ---------------------------------------------------------------------------------
    def start_warmup(self, extras: bool = False) -> threading.Thread:
        """Compile (or load from the cache) the kernels in the background, so the first answer is quick.

        The table lookup first (the keep rule it needs is small), so that a table answer never waits for the
        big kernels; then ask's kernel ahead of any request in the queue; with ``extras`` (``rumbaodds serve``),
        the whole-game kernel of ``scores=`` and the knock's too, when no request waits. A kernel that is not in
        Numba's cache yet compiles in a separate process first (warm.Compiler), outside the queue.
        """
        thread = threading.Thread(target=self._warm_up, args=(extras,), name="warm-up", daemon=True)
        thread.start()
        return thread

    def _warm_up(self, extras: bool) -> None:
        self.warm["state"] = "warming"
        start = time.perf_counter()
        try:
            pipeline.from_table(Question.of(*WARM_HAND), self.tables_root)
            self.warm["tables"] = "ready"
        except Exception:  # noqa: BLE001 - the kernels' warm-up says what is wrong
            log.exception("warm-up of the table lookup failed")
        job = self.simulations.submit(new_job(), lambda job: simulation.ask(*WARM_HAND, samples=1_000, seed=0), HIGH,
                                      needs="ask")
        job.ended.wait()
        if job.state != "done":
            log.error("warm-up failed: %s", job.error)
            self.warm.update(state="failed", error=job.error)
            return
        self.warm.update(state="ready", seconds=round(time.perf_counter() - start, 2))
        log.info("warm: kernels ready in %.1f s", self.warm["seconds"])
        if extras:
            self.simulations.submit(new_job(), _warm_game, LOW, needs="game")
            self.simulations.submit(new_job(), _warm_knock, LOW, needs="knock")

    # -- answering ---------------------------------------------------------------------------------
    def _from_table(self, values: dict) -> dict | None:
        """The table's document for parsed query ``values``, or None (``scores``: always simulated; ``settle``: the
        answer pipeline on the queue settles what the table leaves open). Served at once, never behind the
        simulation queue; what the table leaves open is in its ``source.open``."""
        if values.get("scores") is not None or values.get("settle"):
            return None
        question = Question.of(**ask_arguments(values))
        found = pipeline.from_table(question, self.tables_root, values.get("simulate", False))
        return None if found is None else pipeline.document(found)  # at once; source.open says what it leaves open

    def _simulate(self, values: dict, job: Job) -> dict:
        """The simulated document for ``values``, on the queue's worker; ``job.progress`` stops it when it must.

        With ``scores``: the game value of every choice (match.ask.ask_game), served as the very document
        ``rumbaodds ask --scores --json`` prints.
        """
        try:
            if values.get("scores") is not None:
                from ..match.ask import ask_game, game_document

                return game_document(ask_game(**game_arguments(values), progress=job.progress))
            question = Question.of(**ask_arguments(values))  # the answer pipeline, as `rumbaodds ask` answers it
            return pipeline.document(pipeline.answer(question, self.tables_root, values.get("simulate", False),
                                                 job.progress))
        except INPUT_ERRORS as exc:
            raise BadInput(str(exc)) from None

    def _budget(self, values: dict) -> Budget:
        """The limits of one run of ``values``: a precision run stops at the deals cap, every run at MAX_SECONDS."""
        what = "game simulation" if values.get("scores") is not None else "simulation"
        return Budget(work_cap(values) if values.get("precision") is not None else None, MAX_SECONDS, what)

    def _waiting_note(self) -> str:
        if self.warm["state"] == "warming":
            return "waiting for the warm-up"
        return "waiting for another run" if not self.simulations.idle() else ""

    def queued(self, work, budget: Budget | None = None, gone: threading.Event | None = None,
               needs: str = "ask") -> Response:
        """Run ``work(job) -> dict`` on the simulation queue and wait for it (raises Busy when the queue is full).

        ``gone`` set (the client closed its connection) cancels the job: it leaves the queue, or stops after
        its batch. Every simulating route goes through here (or the job board), never around the queue.
        """
        job = new_job(budget or Budget(seconds=MAX_SECONDS), gone)
        self.simulations.submit(job, work, needs=needs)
        while not job.ended.wait(0.05):
            if gone is not None and gone.is_set() and not job.cancel_requested:
                self.simulations.cancel(job)
        if job.state == "done":
            return Response.json(job.result)
        return Response.error(job.error or job.state, job.status)

    def _ask(self, values: dict, gone: threading.Event | None) -> Response:
        found = self._from_table(values)
        if found is not None:
            return Response.json(found)
        return self.queued(lambda job: self._simulate(values, job), self._budget(values), gone, _needs(values))

    def _submit(self, values: dict) -> Response:
        """A page job: done at once from a table, else queued (202 with its snapshot, or 503 when full)."""
        found = self._from_table(values)
        job = new_job(self._budget(values), polled=True)
        if found is not None:
            job.finish("done", found)
        else:
            job.note = self._waiting_note()
            self.simulations.submit(job, lambda job: self._simulate(values, job), needs=_needs(values))
        return Response.json(self.jobs.add(job).snapshot(), 202)

    def _checked(self, query: dict[str, list[str]]) -> dict:
        """Parsed values whose situation is known to be valid and whose run fits this server (raises otherwise)."""
        values = parse_query(query, self.rule_sets, self.models)
        Question.of(**ask_arguments(values))
        if values.get("scores") is not None or values.get("passes") is not None:  # checked before any job starts
            from ..match.ask import MAX_SAMPLES, check_scores, scores_in_seats

            passes = check_scores(values["players"], values["seat"], values.get("scores"), values.get("passes"),
                                  values.get("passes_in_a_row") if "passes_in_a_row" in query else None,
                                  values["rules"])
            values["passes"] = passes
            scores_in_seats(values["rules"], values["players"], values["scores"], passes)
            if values.get("samples") is not None and values["samples"] > MAX_SAMPLES:
                raise RulesError(f"--samples with --scores must be 1..{MAX_SAMPLES:,}, got {values['samples']}")
        check_work(values)
        return values

    # -- routes ----------------------------------------------------------------------------------------
    def handle(self, method: str, path: str, query: dict[str, list[str]], host: str | None = None,
               gone: threading.Event | None = None) -> Response:
        """Answer one request; never raises.

        ``host``: the request's Host header ("" when it has none), checked when given (the server always gives
        it). ``gone``: an event the server sets when the client closes its connection.
        """
        try:
            if host is not None:
                problem = self.hosts.problem(host)
                if problem is not None:
                    return Response.error(problem, 421)
            return self._route(method, path, query, gone)
        except INPUT_ERRORS as exc:
            return Response.error(str(exc))
        except Busy as exc:
            return Response.error(str(exc), 503, (("Retry-After", str(exc.retry_after)),))
        except Exception as exc:  # noqa: BLE001 - logged with its traceback; the server goes on
            log.exception("%s %s failed", method, path)
            return Response.error(f"internal error ({type(exc).__name__}: {exc}); see the server's log", 500)

    def _route(self, method: str, path: str, query: dict[str, list[str]], gone: threading.Event | None = None
               ) -> Response:
        path = path.rstrip("/") or "/"
        routes = {
            "/": ("GET", lambda: Response(200, "text/html; charset=utf-8", page_html())),
            "/index.html": ("GET", lambda: Response(200, "text/html; charset=utf-8", page_html())),
            "/favicon.ico": ("GET", lambda: Response(204, "image/x-icon", b"")),
            "/trainer": ("GET", self.trainer_page),
            "/api/ask": ("GET", lambda: self._ask(self._checked(query), gone)),
            "/api/jobs": ("POST", lambda: self._submit(self._checked(query))),
            "/api/status": ("GET", lambda: Response.json(self.status())),
            "/api/knock": ("GET", lambda: self.knock(query, gone)),
            "/api/meta": ("GET", lambda: Response.json(self.meta())),
        }
        if path.startswith("/api/jobs/"):
            parts = path.split("/")[3:]
            job = self.jobs.get(parts[0])
            if job is None:
                return Response.error(f"no job {parts[0][:40]!r} (finished jobs are kept for a while only)", 404)
            if parts[1:] == ["cancel"] and method == "POST":
                return Response.json(self.jobs.cancel(job.id).snapshot())
            if len(parts) == 1 and method == "GET":
                return Response.json(job.snapshot())
            return Response.error(f"{method} {path[:80]}: use GET /api/jobs/ID or POST /api/jobs/ID/cancel", 405)
        if path not in routes:
            return Response.error(f"no page {path[:80]!r} here (the page is /, the API /api/ask)", 404)
        wanted, make = routes[path]
        if method != wanted:
            return Response.error(f"{method} {path}: use {wanted}", 405)
        return make()

    def knock(self, query: dict[str, list[str]], gone: threading.Event | None = None) -> Response:
        """GET /api/knock: the dealer's "knock?" before he looks at his hand, as `rumbaodds knock --json` prints it.

        Checked by params.parse_query like /api/ask (no hand, no seat), with the knock's own ranges (limits.KNOCK_*)
        and this server's cap (params.KNOCK_SAMPLES_CAP); run on the simulation queue like every simulation (limits,
        cancellation).
        """
        extra = sorted(set(query) - set(KNOCK_PARAMS))
        if extra:
            raise ParamError(f"unknown parameter {extra[0]!r} for /api/knock (known: {', '.join(KNOCK_PARAMS)})")
        values = parse_query({**query, "hand": ["-"], "seat": ["0"]}, self.rule_sets, self.models)
        try:
            for name, limit in (("samples", limits.KNOCK_SAMPLES), ("precision", limits.KNOCK_PRECISION)):
                if values.get(name) is not None:
                    limit.check(values[name], f"--{name}")
        except limits.LimitError as exc:
            raise ParamError(str(exc)) from None
        check_knock_work(values)  # the command line's range first (its message), then this server's cap

        def work(job: Job) -> dict:
            try:
                result = simulation.knock(values["trump"], values["players"], values["rules"], values["opponents"],
                                        values.get("play", DEFAULT_PLAY), values.get("samples"),
                                        values.get("precision"), values.get("seed"), progress=job.progress)
            except INPUT_ERRORS as exc:
                raise BadInput(str(exc)) from None
            return {**result.to_dict(), "seed_text": str(result.seed)}  # the seed exact in JavaScript too (> 2**53)

        return self.queued(work, Budget(None, MAX_SECONDS, "knock simulation"), gone, "knock")

    def has_trainer(self) -> bool:
        return self.trainer is not None and self.trainer.is_file()

    def trainer_page(self) -> Response:
        """GET /trainer: the trainer's page (`rumbaodds train --page`, one self-contained file), read when asked so
        that a page made again is served as it is now; where there is none, a page that says how to make it."""
        if not self.has_trainer():
            return Response(404, "text/html; charset=utf-8", NO_TRAINER.encode())
        return Response(200, "text/html; charset=utf-8", self.trainer.read_bytes())

    def status(self) -> dict:
        queue = self.simulations.stats()
        return {"warm": dict(self.warm), "busy": queue["running"] > 0, "queue": queue}

    def table_descriptions(self) -> list[str]:
        """One line per finished table under the root (read once per table file version)."""
        out = []
        for folder in find_tables(self.tables_root):
            key = (str(folder), (folder / "table.parquet").stat().st_mtime_ns)
            if key not in self._described:
                try:
                    self._described[key] = load_table(folder).describe()
                except Exception as exc:  # noqa: BLE001 - a broken table is listed as such, not fatal
                    self._described[key] = f"{folder}: unreadable ({exc})"
            out.append(self._described[key])
        return out

    def meta(self) -> dict:
        """What the page needs to draw its form: decks, seats, models, parameter names, tables."""
        return {
            "rule_sets": {name: {**r.to_dict(), "deck": [format_card(c) for c in r.deck]}
                          for name, r in self.rule_sets.items()},
            "opponents": {name: {**m.to_dict(), "text": points_text(m)} if isinstance(m, OpponentModel) else
                          {"name": name, "text": EQUILIBRIUM_TEXT} for name, m in self.models.items()},
            "play": sorted(simulation.POLICIES), "default_play": DEFAULT_PLAY,
            "params": [p.name for p in PARAMS],
            "caps": caps(),
            "score_sign": simulation.SCORE_SIGN,
            "tables_root": str(Path(self.tables_root)),
            "tables": self.table_descriptions(),
            "trainer": "/trainer" if self.has_trainer() else None,  # the page links the trainer where it is served
            "warm": dict(self.warm),
        }


def _needs(values: dict) -> str:
    """The kernels' path (warm.PATHS) a simulated answer of ``values`` runs."""
    return "game" if values.get("scores") is not None else "ask"


def _warm_game(job: Job) -> dict:
    """The whole-game kernel of ``scores=`` (match.ask.choice_batch), loaded from the cache."""
    PATHS["game"].warm()
    return {}


def _warm_knock(job: Job) -> dict:
    """The knock's kernel (engine.knock.knock_batch), loaded from the cache."""
    PATHS["knock"].warm()
    return {}
