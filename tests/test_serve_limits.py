"""A server that stays up for everyone (issue 19 item 4): raw sockets against a real `rumbaodds serve` on loopback.

Every bad request of the issue (an oversized header block, ``Content-Length:
-1``, a foreign Host, numbers far out of range, a run longer than one request
may ask for) gets a 4xx with a one-line JSON error, and the server goes on
answering others at once. One huge simulation (at the cap) running does not
delay a table answer by a second; a full queue answers 503 with Retry-After;
a client that goes away cancels its run. Everything here is bounded: loopback
only, socket timeouts, simulations at most at the server's own cap.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlencode

import pytest
from browser import running_server

from rumbaodds.answer import simulation
from rumbaodds.web import app as app_module
from rumbaodds.web import jobs
from rumbaodds.web.app import App, Hosts
from rumbaodds.web.jobs import Budget, Cancelled, WorkLimit, new_job
from rumbaodds.web.params import GAME_SAMPLES_CAP, MAX_SECONDS, PARAMS, PRECISION_FLOOR, SAMPLES_CAP, WORK_SECONDS
from rumbaodds.web.server import MAX_BODY, MAX_HEADER_BYTES

README = {"hand": "HA HK HQ S6 C7", "trump": "H9", "players": 5, "seat": 2}  # answered by the shipped table
TIMEOUT = 20.0  # no socket waits longer


# -- raw HTTP over a socket ------------------------------------------------------------------------------------------
@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    closed: bool  # the server closed the connection after this answer
    seconds: float

    def error(self) -> str:
        """The one-line JSON error of a refused request."""
        assert self.headers.get("content-type") == "application/json", self.headers
        data = json.loads(self.body)
        assert set(data) == {"error"}, data
        assert "\n" not in data["error"] and data["error"], data
        return data["error"]


def address(url: str) -> tuple[str, int]:
    host, port = url.split("//")[1].strip("/").rsplit(":", 1)
    return host, int(port)


def exchange(url: str, data: bytes | list[bytes], timeout: float = TIMEOUT) -> Reply:
    """Send ``data`` (pieces sent one by one) and read one response; ``closed``: EOF follows it."""
    start = time.perf_counter()
    with socket.create_connection(address(url), timeout=timeout) as sock:
        for piece in [data] if isinstance(data, bytes) else data:
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):  # refused half way (431): read what it said
                break
            time.sleep(0.01 if not isinstance(data, bytes) else 0)
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            assert chunk, f"connection closed without an answer (got {buffer!r})"
            buffer += chunk
        head, _, body = buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", 0))
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk, "connection closed in the middle of the body"
            body += chunk
        seconds = time.perf_counter() - start
        sock.settimeout(2.0)
        try:
            rest = sock.recv(65536)
            closed = rest == b""
            assert closed or not rest, f"more than one answer: {rest[:200]!r}"  # a desync would answer again
        except TimeoutError:
            closed = False
        except ConnectionResetError:
            closed = True
    return Reply(status, headers, body[:length], closed, seconds)


def get(url: str, path: str, host: str = "localhost", extra: str = "") -> Reply:
    return exchange(url, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode())


def ask_path(**params) -> str:
    return "/api/ask?" + urlencode({**README, **params})


def still_serving(url: str) -> None:
    """The server answers another request at once."""
    reply = get(url, "/api/status")
    assert reply.status == 200 and reply.seconds < 1.0, reply
    assert "warm" in json.loads(reply.body)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("no-tables"))  # the shipped packed tables answer README
    simulation.ask(*README.values(), samples=1_000, seed=0)  # the kernel compiled or loaded: timings below are warm
    with running_server(app, warm=False) as url:
        assert get(url, ask_path()).status == 200  # the table lookup warm too
        yield url, app


# -- bad requests: 4xx with a one-line JSON error, and the server keeps answering -------------------------------------
BAD_QUERIES = [
    ("passes-overflow", {"passes_in_a_row": "99999999999999999999"}, "--passes-in-a-row must be 0..99"),
    ("precision-tiny", {"precision": "1e-300"}, "--precision must be 0.01..100"),
    ("precision-below-floor", {"precision": "0.02"}, f"precision: at least {PRECISION_FLOOR:g} per request on this"),
    ("samples-20M", {"samples": "20000000"}, f"samples: at most {SAMPLES_CAP:,} per request on this server"),
    ("samples-over-cap", {"samples": str(SAMPLES_CAP + 1)}, f"at most {SAMPLES_CAP:,}"),
    ("game-samples", {"samples": str(GAME_SAMPLES_CAP + 1), "scores": "20,20,20,20,20"},
     f"at most {GAME_SAMPLES_CAP:,} with scores"),
    ("seed-huge", {"seed": "1" + "0" * 30}, "--seed"),
    ("players-negative", {"players": "-5"}, "--players must be 2..52"),
    ("nan", {"precision": "nan"}, "finite"),
    ("too-many-fields", {f"x{i}": "1" for i in range(80)}, "malformed request"),
]


@pytest.mark.parametrize("params, words", [pytest.param(p, w, id=n) for n, p, w in BAD_QUERIES])
def test_bad_numbers_are_a_400_and_the_server_goes_on(server, params, words):
    url, _ = server
    reply = get(url, ask_path(**params))
    assert reply.status == 400, reply
    assert words in reply.error()
    still_serving(url)


ABSURD = ["99999999999999999999", "-99999999999999999999", "1e308", "-1e-300", "nan", "inf", "0x10", "1,5", "1e3", ""]


@pytest.mark.parametrize("name", [p.name for p in PARAMS if p.kind in ("int", "float", "list")])
def test_every_number_is_range_checked_never_a_500(server, name):
    """Every integer, float and list parameter of the API, each absurd value: 200 (a blank is "not given") or 400."""
    url, _ = server
    for value in ABSURD:
        if value == "" and name == "passes":
            continue  # not given: a whole-game simulation of its own (tests/test_serve_scores.py)
        extra = {"scores": "20,20,20,20,20"} if name == "passes" else {}
        reply = get(url, ask_path(**{**extra, name: value}))
        if value == "":  # a blank value is a form's empty field: not given (a table answer; players and seat missing)
            assert reply.status == (400 if name in ("players", "seat") else 200), (name, reply)
            continue
        assert reply.status == 400, (name, value, reply)
        reply.error()
    still_serving(url)


def test_an_oversized_header_block_is_a_431_and_the_connection_closed(server):
    url, _ = server
    follow = b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n\r\n"  # read as a new request: a desync
    big = b"X-Padding: " + b"a" * (MAX_HEADER_BYTES + 1000) + b"\r\n"
    at_once = exchange(url, b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n" + big + b"\r\n" + follow)
    assert at_once.status == 431 and at_once.closed, at_once
    assert "header block too large" in at_once.error()
    pieces = [b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n"] + [big[i:i + 4096] for i in range(0, len(big), 4096)]
    in_pieces = exchange(url, pieces + [b"\r\n" + follow])
    assert in_pieces.status == 431 and in_pieces.closed, in_pieces
    in_pieces.error()
    still_serving(url)


@pytest.mark.parametrize("length", ["-1", "abc", "1e3", "12, 13"])
def test_a_bogus_content_length_is_a_400_without_a_hang(server, length):
    url, _ = server
    reply = exchange(url, f"POST /api/jobs HTTP/1.1\r\nHost: localhost\r\nContent-Length: {length}\r\n\r\nhand=HA"
                     .encode(), timeout=5)
    assert reply.status == 400 and reply.closed and reply.seconds < 2.0, reply
    assert "Content-Length" in reply.error()
    still_serving(url)


def test_a_large_body_is_a_413_and_a_garbled_request_a_400(server):
    url, _ = server
    reply = exchange(url, f"POST /api/jobs HTTP/1.1\r\nHost: localhost\r\nContent-Length: {MAX_BODY * 10}\r\n\r\n"
                     .encode() + b"x" * 1000)
    assert reply.status == 413 and reply.closed and "body too large" in reply.error()
    reply = exchange(url, b"HELLO THERE\r\n\r\n")
    assert reply.status == 400 and reply.closed and "malformed HTTP request" in reply.error()
    reply = exchange(url, b"GET /api/status HTTP/1.1\r\n\r\n")  # HTTP/1.1 needs a Host
    assert reply.status == 400 and "Host" in reply.error()
    reply = exchange(url, b"DELETE /api/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert reply.status == 501 and "use GET or POST" in reply.error()
    still_serving(url)


@pytest.mark.parametrize("host, status", [
    ("localhost", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200), ("LOCALHOST.", 200),
    ("evil.example", 421), ("localhost.evil.example", 421), ("127.0.0.1.nip.io", 421), ("192.168.1.20:8000", 421),
    ("localhost:80:80", 421), ("[::1", 421),
])
def test_only_localhost_names_are_answered(server, host, status):
    url, _ = server
    for path in ("/", ask_path()):  # the page as well as the API: a foreign page cannot read either
        reply = get(url, path, host=host)
        assert reply.status == status, (host, path, reply)
        if status != 200:
            assert "not served here" in reply.error() or "not a host name" in reply.error()


def test_hosts_allow_the_host_served_on():
    hosts = Hosts()
    assert hosts.problem("") is None  # HTTP/1.0 without a Host (no browser sends that)
    assert hosts.problem("myhost.lan:8000") is not None
    hosts.allow("myhost.lan")
    assert hosts.problem("MyHost.lan:8000") is None and hosts.problem("evil.example") is not None
    everywhere = Hosts()
    everywhere.allow("0.0.0.0")
    assert everywhere.problem("192.168.1.20:8000") is None and everywhere.problem("[fe80::1]:80") is None
    assert everywhere.problem("evil.example") is not None  # a name is what DNS rebinding needs: still refused
    assert everywhere.problem(socket.gethostname()) is None


# -- the limits of one run, without sockets --------------------------------------------------------------------------
def test_the_caps_come_from_the_work_budget():
    assert SAMPLES_CAP == 500_000 and GAME_SAMPLES_CAP == 40_000 and PRECISION_FLOOR == 0.05
    assert 1 <= WORK_SECONDS <= 10 and MAX_SECONDS > WORK_SECONDS
    assert simulation.BATCH < SAMPLES_CAP  # cancelling and the limits act between batches


def test_a_run_stops_past_its_deals_or_its_seconds():
    job = new_job(Budget(deals=100_000, seconds=None))
    job.start()
    job.progress(100_000, 100_000)  # at the cap: fine
    with pytest.raises(WorkLimit, match="stopped at 100,000 deals, the most one request simulates"):
        job.progress(150_000, 150_000)
    job = new_job(Budget(seconds=0.2))
    job.start()
    time.sleep(0.3)  # the first batch (a cold kernel compiles in it) does not count
    job.progress(1, 10)
    time.sleep(0.3)
    with pytest.raises(WorkLimit, match=r"stopped after 0.2 s, the longest one request simulates .*1 deals done"):
        job.progress(2, 10)
    gone = threading.Event()
    job = new_job(gone=gone)
    job.start()
    job.progress(1, 10)
    gone.set()
    with pytest.raises(Cancelled, match="went away"):
        job.progress(2, 10)


def test_a_precision_run_past_the_cap_is_a_400_naming_it(monkeypatch):
    app = App("no-tables")

    def endless(question, progress):
        for done in range(50_000, 10**9, 50_000):
            progress(done, done)

    monkeypatch.setattr(simulation, "simulate", endless)
    query = {**{k: [str(v)] for k, v in README.items()}, "precision": ["0.05"], "simulate": ["1"]}  # never a table
    reply = app.handle("GET", "/api/ask", query)
    assert reply.status == 400
    assert f"stopped at {SAMPLES_CAP:,} deals, the most one request simulates" in json.loads(reply.body)["error"]


# -- the queue: nobody waits behind a huge run, nobody queues without bound ------------------------------------------
class Blocking:
    """A stand-in for simulation.simulate that runs (reporting progress) until released or cancelled."""

    def __init__(self):
        self.release, self.started, self.cancelled = threading.Event(), threading.Event(), threading.Event()
        self.runs = 0
        self.result = simulation.ask(*README.values(), samples=100, seed=1)  # made before simulate is replaced

    def __call__(self, question, progress):
        self.runs += 1
        self.started.set()
        done = 0
        try:
            while not self.release.wait(0.01):
                done += 1
                progress(done, 10**6)
        except Cancelled:
            self.cancelled.set()
            raise
        return self.result


@contextmanager
def fake_server(monkeypatch, waiting=1):
    blocking = Blocking()
    monkeypatch.setattr(simulation, "simulate", blocking)
    app = App("no-tables", waiting=waiting)
    with running_server(app, warm=False) as url:
        try:
            yield url, app, blocking
        finally:
            blocking.release.set()


def send_only(url: str, path: str) -> socket.socket:
    sock = socket.create_connection(address(url), timeout=TIMEOUT)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    return sock


def wait_for(condition, seconds: float = 10.0) -> float:
    start = time.perf_counter()
    while not condition():
        assert time.perf_counter() - start < seconds, "timed out"
        time.sleep(0.01)
    return time.perf_counter() - start


def test_beyond_the_queue_is_a_503_with_retry_after(monkeypatch):
    with fake_server(monkeypatch, waiting=1) as (url, app, blocking):
        running = send_only(url, ask_path(seed=1))
        wait_for(blocking.started.is_set)
        waiting = send_only(url, ask_path(seed=2))
        wait_for(lambda: app.simulations.stats()["waiting"] == 1)
        refused = get(url, ask_path(seed=3))
        assert refused.status == 503 and refused.seconds < 1.0, refused
        assert int(refused.headers["retry-after"]) >= 1 and "busy" in refused.error()
        job = exchange(url, b"POST /api/jobs?" + urlencode({**README, "seed": 4}).encode()
                       + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert job.status == 503 and "retry-after" in job.headers  # the page's jobs share the queue
        table = get(url, ask_path())  # a table answer does not queue
        assert table.status == 200 and table.seconds < 1.0 and json.loads(table.body)["source"]
        blocking.release.set()
        for sock in (running, waiting):
            assert b"200 OK" in sock.recv(65536)
            sock.close()


def test_a_client_that_goes_away_cancels_its_run_and_frees_its_place(monkeypatch):
    with fake_server(monkeypatch, waiting=1) as (url, app, blocking):
        running = send_only(url, ask_path(seed=1))
        wait_for(blocking.started.is_set)
        waiting = send_only(url, ask_path(seed=2))
        wait_for(lambda: app.simulations.stats()["waiting"] == 1)
        waiting.close()  # gone while it waited: it leaves the queue
        wait_for(lambda: app.simulations.stats()["waiting"] == 0, 2.0)
        running.close()  # gone while it ran: cancelled after the batch in flight
        assert wait_for(blocking.cancelled.is_set, 2.0) < 1.0
        wait_for(app.simulations.idle, 2.0)
        assert blocking.runs == 1  # the one that left the queue never ran


def test_a_page_job_nobody_polls_is_cancelled(monkeypatch):
    monkeypatch.setattr(jobs, "ABANDONED_SECONDS", 0.3)
    blocking = Blocking()
    monkeypatch.setattr(simulation, "simulate", blocking)
    app = App("no-tables")
    reply = app.handle("POST", "/api/jobs", {k: [str(v)] for k, v in {**README, "seed": 1}.items()})
    job_id = json.loads(reply.body)["id"]
    wait_for(blocking.started.is_set)
    assert wait_for(blocking.cancelled.is_set, 3.0) >= 0.2  # not polled: stopped
    snap = json.loads(app.handle("GET", f"/api/jobs/{job_id}", {}).body)
    assert snap["state"] == "cancelled" and "nobody asked" in snap["error"]


def test_a_table_answer_does_not_wait_for_the_warm_up(monkeypatch):
    release = threading.Event()
    real_ask = simulation.ask
    monkeypatch.setattr(simulation, "ask", lambda *a, **k: release.wait(30) and real_ask(*a, **k))  # a slow compile
    app = App("no-tables")
    app.start_warmup()
    try:
        wait_for(lambda: app.warm["tables"] == "ready" and not app.simulations.idle())
        start = time.perf_counter()
        reply = app.handle("GET", "/api/ask", {k: [str(v)] for k, v in README.items()})
        assert reply.status == 200 and json.loads(reply.body)["source"]
        assert time.perf_counter() - start < 1.0 and app.warm["state"] == "warming"
    finally:
        release.set()
    wait_for(lambda: app.warm["state"] == "ready", 30)


def test_the_warm_up_of_serve_also_compiles_the_whole_game_and_knock_kernels(monkeypatch):
    warmed = []
    monkeypatch.setattr(simulation, "ask", lambda *a, **k: None)
    monkeypatch.setattr(app_module, "_warm_game", lambda job: warmed.append("game") or {})
    monkeypatch.setattr(app_module, "_warm_knock", lambda job: warmed.append("knock") or {})
    app = App("no-tables")
    app.start_warmup(extras=True).join(30)
    wait_for(app.simulations.idle)
    assert app.warm["state"] == "ready" and warmed == ["game", "knock"]
    plain = App("no-tables")
    plain.start_warmup().join(30)
    wait_for(plain.simulations.idle)
    assert warmed == ["game", "knock"]  # tests' servers skip them


def test_a_huge_run_does_not_delay_a_table_answer_by_a_second(server):
    """The load test: a real at-cap simulation runs while a table answer, the page and the status are asked for."""
    url, app = server
    huge = [send_only(url, ask_path(samples=SAMPLES_CAP, seed=seed)) for seed in (7, 8, 9)]  # one runs, two wait
    try:
        wait_for(lambda: app.simulations.stats()["running"] == 1)
        time.sleep(0.3)  # well into its batches
        times = {}
        for name, path in (("table answer", ask_path()), ("page", "/"), ("status", "/api/status"),
                           ("another table answer", ask_path(seat=1, hand="SA S9 D6 C7 CK"))):
            assert app.simulations.stats()["running"] == 1  # asked while a huge run runs
            reply = get(url, path)
            assert reply.status == 200, (name, reply)
            times[name] = reply.seconds
        shown = ", ".join(f"{k} {v:.3f} s" for k, v in times.items())
        print(f"\nwhile a {SAMPLES_CAP:,}-deal run ran: {shown}")
        assert max(times.values()) < 1.0, times
    finally:
        for sock in huge:
            sock.close()  # and they are cancelled: the simulator is free within a batch
    assert wait_for(app.simulations.idle, 5.0) < 3.0


def test_the_help_and_the_readme_state_the_limits_the_server_applies():
    from pathlib import Path

    from click.testing import CliRunner

    from rumbaodds.cli import main

    shown = CliRunner().invoke(main, ["serve", "--help"]).stdout.replace("\n", " ")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text().replace("\n", " ")
    for text in (shown, readme):
        assert f"{SAMPLES_CAP:,}" in text and f"precision {PRECISION_FLOOR:g}" in " ".join(text.split())
    assert f"{GAME_SAMPLES_CAP:,} with `scores`" in readme and f"past {MAX_SECONDS:.0f} s" in " ".join(readme.split())


def test_stopping_the_server_stops_what_runs_and_what_waits():
    from rumbaodds.web.jobs import SimulationQueue

    queue = SimulationQueue(waiting=2)

    def endless(job):
        while True:
            job.progress(1, 2)
            time.sleep(0.01)

    running, waiting = new_job(), new_job()
    queue.submit(running, endless)
    wait_for(lambda: running.state == "running")
    queue.submit(waiting, endless)
    queue.close()
    assert running.ended.wait(2) and waiting.ended.wait(2)
    assert running.state == waiting.state == "cancelled" and waiting.status == 503
    with pytest.raises(jobs.Busy, match="stopping"):
        queue.submit(new_job(), endless)


def test_a_job_that_never_ran_says_zero_seconds_never_negative():
    """Issue 36: a table job's snapshot said "seconds": -145.56 (its end minus *now*, never having started). A job
    finished without running says 0; the control, a job that ran, says how long it ran."""
    table_job = jobs.new_job()
    table_job.finish("done", {})
    time.sleep(0.05)
    assert table_job.snapshot()["seconds"] == 0.0
    cancelled = jobs.new_job()
    cancelled.finish("cancelled", error="cancelled", status=409)
    assert cancelled.snapshot()["seconds"] == 0.0
    ran = jobs.new_job()
    ran.start()
    time.sleep(0.05)
    ran.finish("done", {})
    time.sleep(0.05)
    assert 0.04 <= ran.snapshot()["seconds"] < 0.09  # its run, not the time since
