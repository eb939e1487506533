"""The routes of ``rumbaodds serve`` as plain functions of (method, path, query): no sockets, easy to test.

Every answer comes from :mod:`rumbaodds.answer` (a table when one covers the
question, else :func:`rumbaodds.analysis.ask`) and is served as
:func:`rumbaodds.answer.document`, the very document ``rumbaodds ask --json``
prints. Input the player can fix gives HTTP 400 with ``{"error": ...}`` and
the API's own one-line message; anything else gives 500, is logged with its
traceback (on the server's console only) and the server goes on serving.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .. import analysis, answer, limits
from ..cards import CardError, format_card
from ..models import MODELS, ModelError, OpponentModel, points_text
from ..opponents import EQUILIBRIUM
from ..question import Question
from ..rules import PRESETS, RulesError, RuleSet
from ..tables import find_tables, load_table
from .jobs import BadInput, Job, JobBoard
from .params import PARAMS, ParamError, ask_arguments, game_arguments, parse_query

KNOCK_PARAMS = ("rules", "players", "trump", "opponents", "play", "samples", "precision", "seed")

log = logging.getLogger("rumbaodds.web")
INPUT_ERRORS = (ParamError, CardError, RulesError, ModelError)
WARM_HAND = ("HA HK HQ S6 C7", "H9", 5, 2)  # the README's hand: compiles every kernel ask uses


EQUILIBRIUM_TEXT = ("equilibrium: solved strategies, every seat a best response to the others (docs/STRATEGY.md); "
                    "the default style where a house rule has none solved")


@dataclass(frozen=True)
class Response:
    status: int
    content_type: str
    body: bytes

    @classmethod
    def json(cls, data, status: int = 200) -> Response:
        return cls(status, "application/json", (json.dumps(data) + "\n").encode())

    @classmethod
    def error(cls, message: str, status: int = 400) -> Response:
        return cls.json({"error": message}, status)


def page_html() -> bytes:
    return resources.files(__package__).joinpath("page.html").read_bytes()


class App:
    """One server's state: where its tables are, its rule sets and models, the warm-up and the jobs."""

    def __init__(self, tables_root="tables", rule_sets: dict[str, RuleSet] | None = None,
                 models: dict[str, OpponentModel] | None = None):
        self.tables_root = str(tables_root)
        self.rule_sets = {**PRESETS, **(rule_sets or {})}
        # equilibrium first, the default: None lets opponents.opponent_policy take the solved strategy, or the default
        # style where a house rule has none (and say so), as `rumbaodds ask` without --opponents does
        self.models = {EQUILIBRIUM: None, **MODELS, **(models or {})}
        self.simulation_lock = threading.Lock()  # one simulation at a time: each uses every core
        self.jobs = JobBoard()
        self.warm = {"state": "cold", "seconds": None, "error": None}
        self._described: dict[tuple[str, int], str] = {}

    # -- warm-up ---------------------------------------------------------------------------------
    def start_warmup(self) -> threading.Thread:
        """Compile (or load from the cache) the kernels in the background, so the first answer is quick."""
        thread = threading.Thread(target=self._warm_up, name="warm-up", daemon=True)
        thread.start()
        return thread

    def _warm_up(self) -> None:
        with self.simulation_lock:
            self.warm["state"] = "warming"
            start = time.perf_counter()
            try:
                analysis.ask(*WARM_HAND, samples=1_000, seed=0)
                answer.from_table(Question.of(*WARM_HAND), self.tables_root)
            except Exception as exc:  # noqa: BLE001 - the page says so; requests will still try
                log.exception("warm-up failed")
                self.warm.update(state="failed", error=f"{type(exc).__name__}: {exc}")
                return
            self.warm.update(state="ready", seconds=round(time.perf_counter() - start, 2))
            log.info("warm: kernels ready in %.1f s", self.warm["seconds"])

    # -- answering ---------------------------------------------------------------------------------
    def _answer(self, values: dict, job: Job | None = None) -> dict:
        """The document for parsed query ``values``: a table's answer, else a simulation under the lock.

        With ``scores``: the game value of every choice (match.ask.ask_game), always simulated, served as the very
        document ``rumbaodds ask --scores --json`` prints.
        """
        if values.get("scores") is not None:
            return self._game_answer(values, job)
        question = Question.of(**ask_arguments(values))
        found = answer.from_table(question, self.tables_root, values.get("simulate", False))
        if found is not None:
            return answer.document(found)
        progress = None
        if job is not None:
            job.note = "waiting for the warm-up" if self.warm["state"] == "warming" else "waiting for another run"
            progress = job.progress
        with self.simulation_lock:
            if job is not None:
                job.start()  # raises Cancelled when cancelled while waiting
            result = analysis.simulate(question, progress)
        return answer.document(result)

    def _game_answer(self, values: dict, job: Job | None) -> dict:
        from ..match.ask import ask_game, game_document

        progress = None
        if job is not None:
            job.note = "waiting for the warm-up" if self.warm["state"] == "warming" else "waiting for another run"
            progress = job.progress
        with self.simulation_lock:
            if job is not None:
                job.start()
            result = ask_game(**game_arguments(values), progress=progress)
        return game_document(result)

    def _checked(self, query: dict[str, list[str]]) -> dict:
        """Parsed values whose situation is known to be valid (raises the API's own errors otherwise)."""
        values = parse_query(query, self.rule_sets, self.models)
        Question.of(**ask_arguments(values))
        if values.get("scores") is not None or values.get("passes") is not None:  # checked before any job starts
            from ..match.ask import MAX_SAMPLES, check_scores, scores_in_seats

            passes = check_scores(values["players"], values["seat"], values.get("scores"), values.get("passes"),
                                  values.get("passes_in_a_row", 0))
            values["passes"] = passes
            scores_in_seats(values["rules"], values["players"], values["scores"], passes)
            if values.get("samples") is not None and values["samples"] > MAX_SAMPLES:
                raise RulesError(f"--samples with --scores must be 1..{MAX_SAMPLES:,}, got {values['samples']}")
        return values

    def _job_work(self, values: dict):
        def work(job: Job) -> dict:
            try:
                return self._answer(values, job)
            except INPUT_ERRORS as exc:
                raise BadInput(str(exc)) from None

        return work

    # -- routes ----------------------------------------------------------------------------------------
    def handle(self, method: str, path: str, query: dict[str, list[str]]) -> Response:
        """Answer one request; never raises."""
        try:
            return self._route(method, path, query)
        except INPUT_ERRORS as exc:
            return Response.error(str(exc))
        except Exception as exc:  # noqa: BLE001 - logged with its traceback; the server goes on
            log.exception("%s %s failed", method, path)
            return Response.error(f"internal error ({type(exc).__name__}: {exc}); see the server's log", 500)

    def _route(self, method: str, path: str, query: dict[str, list[str]]) -> Response:
        path = path.rstrip("/") or "/"
        routes = {
            "/": ("GET", lambda: Response(200, "text/html; charset=utf-8", page_html())),
            "/index.html": ("GET", lambda: Response(200, "text/html; charset=utf-8", page_html())),
            "/favicon.ico": ("GET", lambda: Response(204, "image/x-icon", b"")),
            "/api/ask": ("GET", lambda: Response.json(self._answer(self._checked(query)))),
            "/api/jobs": ("POST", lambda: Response.json(self.jobs.submit(self._job_work(self._checked(query)))
                                                        .snapshot(), 202)),
            "/api/status": ("GET", lambda: Response.json(self.status())),
            "/api/knock": ("GET", lambda: Response.json(self.knock(query))),
            "/api/meta": ("GET", lambda: Response.json(self.meta())),
        }
        if path.startswith("/api/jobs/"):
            parts = path.split("/")[3:]
            job = self.jobs.get(parts[0])
            if job is None:
                return Response.error(f"no job {parts[0]!r} (finished jobs are kept for a while only)", 404)
            if parts[1:] == ["cancel"] and method == "POST":
                return Response.json(self.jobs.cancel(job.id).snapshot())
            if len(parts) == 1 and method == "GET":
                return Response.json(job.snapshot())
            return Response.error(f"{method} {path}: use GET /api/jobs/ID or POST /api/jobs/ID/cancel", 405)
        if path not in routes:
            return Response.error(f"no page {path!r} here (the page is /, the API /api/ask)", 404)
        wanted, make = routes[path]
        if method != wanted:
            return Response.error(f"{method} {path}: use {wanted}", 405)
        return make()

    def knock(self, query: dict[str, list[str]]) -> dict:
        """GET /api/knock: the dealer's "knock?" before he looks at his hand, as `rumbaodds knock --json` prints it.

        Checked by params.parse_query like /api/ask (no hand, no seat), with the knock's own caps (limits.KNOCK_*).
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
        with self.simulation_lock:
            result = analysis.knock(values["trump"], values["players"], values["rules"], values["opponents"],
                                    values.get("play", "expert"), values.get("samples"), values.get("precision"),
                                    values.get("seed"))
        return {**result.to_dict(), "seed_text": str(result.seed)}  # the seed exact in JavaScript too (> 2**53)

    def status(self) -> dict:
        return {"warm": dict(self.warm), "busy": self.simulation_lock.locked()}

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
            "play": sorted(analysis.POLICIES),
            "params": [p.name for p in PARAMS],
            "score_sign": analysis.SCORE_SIGN,
            "tables_root": str(Path(self.tables_root)),
            "tables": self.table_descriptions(),
            "warm": dict(self.warm),
        }
