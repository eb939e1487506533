"""`rumbaodds serve` without a browser: the JSON API, its errors, the jobs and the command.

The API must serve the very document `rumbaodds ask --json` prints, byte for
byte, from a simulation and from a table; and the command line's output must
be what it was before the shared :mod:`rumbaodds.answer` existed (checked
against the old formula, ``json.dumps(to_dict())`` plus ``source`` for a
table). Bad input gets HTTP 400 with the command line's own one-line message;
an unexpected exception gets 500 with a JSON error, is logged, and the server
goes on serving.
"""

from __future__ import annotations

import json
import logging
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlencode

import pytest
from browser import TINY_QUESTION, build_tiny_table, running_server, tiny_questions
from click.testing import CliRunner

from rumbaodds.answer import pipeline, simulation
from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.cli import main
from rumbaodds.cli.ask_cmd import ask as ask_command
from rumbaodds.opponents.models import get_model
from rumbaodds.rules import get_rules
from rumbaodds.tables import answer_from_table, find_tables, load_table
from rumbaodds.web.app import App
from rumbaodds.web.jobs import Job
from rumbaodds.web.params import GAME_SAMPLES_CAP, KNOCK_SAMPLES_CAP, PARAMS, SAMPLES_CAP

HAND = "HA HK HQ S6 C7"
README = {"hand": HAND, "trump": "H9", "players": 5, "seat": 2}
CLI_README = ["ask", HAND, "--trump", "H9", "--players", "5", "--seat", "2"]


def query(**params) -> dict[str, list[str]]:
    return parse_qs(urlencode(params), keep_blank_values=True)


def cli(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    rules_path, tables_root = build_tiny_table(tmp_path_factory.mktemp("serve-tiny"))
    return rules_path, tables_root, App(tables_root, {"tiny": get_rules(rules_path)})


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return App(tmp_path_factory.mktemp("no-tables"))


# -- the same document as the command line ----------------------------------------------------------------------
def test_api_serves_the_cli_json_byte_for_byte(app):
    response = app.handle("GET", "/api/ask", query(**README, samples=3000, seed=5))
    assert response.status == 200 and response.content_type == "application/json"
    printed = cli([*CLI_README, "--samples", 3000, "--seed", 5, "--json", "--tables", app.tables_root])
    assert printed.exit_code == 0, printed.output
    assert response.body.decode() == printed.stdout
    simulated = simulation.ask(HAND, "H9", 5, 2, samples=3000, seed=5)
    assert printed.stdout == json.dumps(pipeline.document(simulated)) + "\n"  # the numbers of a plain simulation
    assert json.loads(response.body)["source"]["kind"] == "simulation"


def test_api_serves_the_table_answer_like_ask_and_tables_query(tiny):
    rules_path, tables_root, app = tiny
    q = TINY_QUESTION
    response = app.handle("GET", "/api/ask", query(**q, rules="tiny"))
    assert response.status == 200, response.body
    common = [q["hand"], "--trump", q["trump"], "--players", q["players"], "--seat", q["seat"], "--rules", rules_path,
              "--tables", tables_root, "--json"]
    asked, queried = cli(["ask", *common]), cli(["tables", "query", *common])
    assert asked.exit_code == 0 and queried.exit_code == 0, asked.output + queried.output
    page, table = json.loads(response.body), json.loads(queried.stdout)  # the page: the table's answer at once
    assert {k: v for k, v in page.items() if k != "source"} == {k: v for k, v in table.items() if k != "source"}
    assert page["source"]["kind"] == table["source"]["kind"] == "table"  # its source also says what is left open
    situation = simulation.make_situation(q["hand"], q["trump"], q["players"], q["seat"], get_rules(rules_path))
    found = answer_from_table(load_table(find_tables(tables_root)[0]), situation, get_model("default"), DEFAULT_PLAY)
    assert json.loads(queried.stdout)["source"]["kind"] == "table"
    assert json.loads(queried.stdout)["recommendation"] == found.recommendation
    if page["source"].get("open"):  # what the table leaves open, ask settles by a simulation and says so
        assert json.loads(asked.stdout)["source"]["kind"] == "table+simulation"
    else:  # nothing left open: ask answers from the table alone
        assert asked.stdout == queried.stdout


def test_settle_asks_the_table_answer_to_be_settled_as_ask_does(tiny):
    rules_path, tables_root, app = tiny
    open_q, closed_q = tiny_questions(rules_path, tables_root)
    at_once = json.loads(app.handle("GET", "/api/ask", query(**open_q, rules="tiny")).body)
    assert at_once["source"]["kind"] == "table" and at_once["source"]["open"]
    settled = app.handle("GET", "/api/ask", query(**open_q, rules="tiny", settle=1))
    doc = json.loads(settled.body)
    assert settled.status == 200 and doc["source"]["kind"] == "table+simulation"
    assert set(doc["source"]["open"]) == set(at_once["source"]["open"]) and doc["source"]["simulation"]["deals"] > 0
    printed = cli(["ask", open_q["hand"], "--trump", open_q["trump"], "--players", 3, "--seat", open_q["seat"],
                   "--rules", rules_path, "--tables", tables_root, "--json"])
    assert printed.exit_code == 0, printed.output
    if "time" not in (doc["source"]["simulation"]["stopped"], json.loads(printed.stdout)["source"]["simulation"][
            "stopped"]):  # a settling run cut by its clock is the one thing that may differ
        assert settled.body.decode() == printed.stdout
    nothing = json.loads(app.handle("GET", "/api/ask", query(**closed_q, rules="tiny", settle=1)).body)
    assert nothing["source"]["kind"] == "table" and nothing["source"]["open"] == []  # nothing to settle: the table


def test_a_seed_makes_the_page_simulate_even_where_a_table_answers(tiny):
    _, _, app = tiny
    doc = json.loads(app.handle("GET", "/api/ask", query(**TINY_QUESTION, rules="tiny", seed=3, samples=500)).body)
    assert doc["source"]["kind"] == "simulation" and doc["seed"] == 3 and doc["samples"] == 500


def test_every_parameter_is_named_like_an_option_of_ask():
    options = {p.name for p in ask_command.params}
    # settle: the page's follow-up; `ask` always settles what a table leaves open, so it needs no option
    assert {p.name for p in PARAMS} - {"settle"} <= options and "settle" not in options
    assert {"rules", "before", "opponents", "samples", "seed", "play", "precision"} <= {p.name for p in PARAMS}


# -- bad input: HTTP 400 with the command line's message --------------------------------------------------------
SAME_AS_CLI = [
    ("duplicate-card", {"hand": "HA HA HQ S6 C7"}, []),
    ("seat-missing", {"seat": 7}, ["--seat", "7"]),
    ("too-many-cards", {"hand": "HA HK HQ S6 C7 D8"}, []),
    ("trump-in-hand", {"trump": "HA"}, ["--trump", "HA"]),
    ("not-in-deck", {"hand": "HA HK HQ S2 C7"}, []),
    ("unknown-card", {"hand": "HA HK HQ S6 X7"}, []),
    ("players", {"players": 9}, ["--players", "9"]),
    ("before-count", {"before": "pass"}, ["--before", "pass"]),
    ("before-word", {"before": "pass,knock"}, ["--before", "pass,knock"]),
    ("dealer-knocks-himself", {"seat": 4, "dealer_knocked": 1}, ["--seat", "4", "--dealer-knocked"]),
    ("samples-and-precision", {"samples": 10, "precision": 0.1}, ["--samples", "10", "--precision", "0.1"]),
    ("samples-zero", {"samples": 0}, ["--samples", "0"]),
    ("seed-negative", {"seed": -1}, ["--seed", "-1"]),
    ("flemish-card", {"rules": "flemish", "hand": "HA HK HQ S6 C7 D2"}, ["--rules", "flemish"]),
]


@pytest.mark.parametrize("change, cli_change", [pytest.param(q, c, id=name) for name, q, c in SAME_AS_CLI])
def test_bad_input_is_a_400_with_the_cli_message(app, change, cli_change):
    params = {**README, **change}
    response = app.handle("GET", "/api/ask", query(**params))
    assert response.status == 400
    error = json.loads(response.body)["error"]
    args = ["ask", params["hand"], "--trump", "H9", "--players", "5", "--seat", "2"]
    printed = cli(args + cli_change)
    assert printed.exit_code == 2
    assert printed.stderr == f"rumbaodds: error: {error}\n"


@pytest.mark.parametrize("params, words", [
    pytest.param({"trump": "H9", "players": 5, "seat": 2}, ["missing parameter 'hand'"], id="missing"),
    pytest.param({**README, "players": "five"}, ["players", "'five'", "whole number"], id="not-a-number"),
    pytest.param({**README, "precision": "nan"}, ["precision", "finite"], id="nan"),
    pytest.param({**README, "dealer_knocked": "maybe"}, ["dealer_knocked", "'maybe'"], id="flag"),
    pytest.param({**README, "colour": "red"}, ["unknown parameter 'colour'", "hand, trump"], id="unknown-param"),
    pytest.param({**README, "rules": "house.toml"}, ["unknown rule set 'house.toml'", "swiss, flemish", "--rules"],
                 id="no-files-by-path"),
    pytest.param({**README, "opponents": "/etc/passwd"}, ["unknown opponent model", "default, cautious"],
                 id="no-model-files"),
    pytest.param({**README, "samples": 10**9}, ["--samples", "20,000,000"], id="too-many-samples"),
    pytest.param({**README, "passes_in_a_row": "99999999999999999999"}, ["--passes-in-a-row", "0..99"],
                 id="passes-overflow"),
    pytest.param({**README, "precision": "1e-300"}, ["--precision", "0.01..100"], id="precision-tiny"),
    pytest.param({**README, "precision": "inf"}, ["precision", "finite"], id="precision-inf"),
    pytest.param({**README, "seed": str(2**63)}, ["--seed", "2**63-1"], id="seed-too-big"),
    pytest.param({**README, "samples": "1" + "0" * 40}, ["--samples"], id="samples-41-digits"),
    pytest.param({**README, "players": "-1"}, ["--players", "2..52"], id="players-negative"),
    pytest.param({**README, "seat": "1e3"}, ["seat", "whole number"], id="seat-float"),
])
def test_bad_parameters_are_named(app, params, words):
    response = app.handle("GET", "/api/ask", query(**params))
    assert response.status == 400
    error = json.loads(response.body)["error"]
    assert "\n" not in error
    for word in words:
        assert word in error


def test_a_repeated_parameter_is_refused(app):
    response = app.handle("GET", "/api/ask", {**query(**README), "seat": ["1", "2"]})
    assert response.status == 400 and "'seat' given 2 times" in json.loads(response.body)["error"]


def test_an_impossible_situation_is_a_400(app, monkeypatch):
    def impossible(*args, **kwargs):
        raise simulation.RulesError("this situation is (almost) impossible under the opponent model")

    monkeypatch.setattr(simulation, "simulate", impossible)
    response = app.handle("GET", "/api/ask", query(**README, seed=1))
    assert response.status == 400 and "impossible" in json.loads(response.body)["error"]


# -- over HTTP: errors never take the server down -------------------------------------------------------------------
def fetch(url: str, method: str = "GET", data: bytes | None = None):
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.headers.get("Content-Type"), reply.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Content-Type"), err.read()


def test_http_errors_are_json_and_the_server_keeps_serving(app, monkeypatch, caplog):
    with running_server(app, warm=False) as url:
        status, kind, body = fetch(url + "api/ask?" + urlencode({**README, "seat": 9}))
        assert status == 400 and kind == "application/json"
        assert json.loads(body) == {"error": "seat 9 does not exist with 5 players (seats 0..4, 4 is the dealer)"}

        def broken(*args, **kwargs):
            raise ZeroDivisionError("a bug")

        monkeypatch.setattr(simulation, "simulate", broken)
        with caplog.at_level(logging.ERROR, logger="rumbaodds.web"):
            status, kind, body = fetch(url + "api/ask?" + urlencode({**README, "seed": 1}))
        assert status == 500 and kind == "application/json"
        assert "ZeroDivisionError: a bug" in json.loads(body)["error"] and "Traceback" not in body.decode()
        assert any("Traceback" in r.exc_text for r in caplog.records if r.exc_text)  # logged for the owner
        monkeypatch.undo()

        for path, method, code in [("nosuch", "GET", 404), ("api/ask", "POST", 405), ("api/jobs", "GET", 405),
                                   ("api/jobs/123", "GET", 404), ("api/jobs/123/cancel", "POST", 404),
                                   ("api/ask", "PUT", 501)]:
            status, kind, body = fetch(url + path, method, b"" if method in ("POST", "PUT") else None)
            assert status == code and kind == "application/json" and "error" in json.loads(body), path
        status, _, body = fetch(url + "api/jobs", "POST", b"x" * 100_000)
        assert status == 413
        status, kind, body = fetch(url + "api/ask?" + urlencode({**README, "samples": 2000, "seed": 2}))
        assert status == 200 and json.loads(body)["samples"] == 2000  # still serving


def test_the_page_is_one_self_contained_file(app):
    with running_server(app, warm=False) as url:
        status, kind, body = fetch(url)
    page = body.decode()
    assert status == 200 and kind.startswith("text/html")
    assert '<meta name="viewport"' in page and "<style>" in page and "<script>" in page
    for outside in ("http://", "https://", "<link", " src="):
        assert outside not in page, outside


def test_the_trainer_is_served_at_slash_trainer_where_its_page_was_made(tmp_path):
    made = tmp_path / "trainer.html"
    made.write_text("<!doctype html><title>Rumba trainer</title>")
    served = App(tmp_path, trainer=made)
    assert served.meta()["trainer"] == "/trainer"
    response = served.handle("GET", "/trainer", {})
    assert response.status == 200 and response.content_type.startswith("text/html")
    assert response.body == made.read_bytes()
    made.write_text("<!doctype html><title>Rumba trainer, made again</title>")  # read when asked: the page as it is now
    assert served.handle("GET", "/trainer/", {}).body == made.read_bytes()
    assert served.handle("POST", "/trainer", {}).status == 405
    for app in (App(tmp_path, trainer=tmp_path / "none.html"), App(tmp_path)):  # no page: none linked, /trainer says
        assert app.meta()["trainer"] is None                                    # how to make it
        response = app.handle("GET", "/trainer", {})
        assert response.status == 404 and response.content_type.startswith("text/html")
        assert b"rumbaodds train --page reports/trainer.html" in response.body


def test_a_knock_request_is_capped_like_an_ask_and_meta_gives_the_caps(app):
    response = app.handle("GET", "/api/knock", query(trump="H9", players=4, samples=KNOCK_SAMPLES_CAP + 1))
    assert response.status == 400  # refused at once, not stopped after 60 s of simulation
    error = json.loads(response.body)["error"]
    assert error.startswith(f"samples: at most {KNOCK_SAMPLES_CAP:,} knock deals per request on this server")
    assert "rumbaodds knock --samples" in error and "\n" not in error
    assert app.meta()["caps"] == {"samples": SAMPLES_CAP, "game_samples": GAME_SAMPLES_CAP,
                                  "knock_samples": KNOCK_SAMPLES_CAP}  # the page's "more deals" stays within them


def test_serve_refuses_a_trainer_page_that_is_not_there(tmp_path):
    result = cli(["serve", "--trainer", tmp_path / "none.html", "--port", 0])
    assert result.exit_code == 2 and "no file" in result.stderr and "rumbaodds train --page" in result.stderr
    assert "--trainer" in cli(["serve", "--help"]).stdout


def test_meta_gives_each_deck_from_its_rule_set(app):
    meta = json.loads(app.handle("GET", "/api/meta", {}).body)
    assert len(meta["rule_sets"]["swiss"]["deck"]) == 36 and "S6" in meta["rule_sets"]["swiss"]["deck"]
    assert "S5" not in meta["rule_sets"]["swiss"]["deck"]
    assert len(meta["rule_sets"]["flemish"]["deck"]) == 52 and "C2" in meta["rule_sets"]["flemish"]["deck"]
    assert meta["rule_sets"]["flemish"]["knock"] is False and meta["rule_sets"]["swiss"]["knock"] is True
    assert set(meta["opponents"]) >= {"default", "cautious", "bold", "all"}
    assert meta["tables"] == []


# -- jobs: real progress, cancelling --------------------------------------------------------------------------------
def wait(app, job_id, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        snap = json.loads(app.handle("GET", f"/api/jobs/{job_id}", {}).body)
        if snap["state"] in ("done", "error", "cancelled"):
            return snap
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} still {snap['state']}")


def test_a_job_reports_the_progress_of_ask_and_gives_the_same_document(app, monkeypatch):
    calls = []
    real = Job.progress

    def spy(self, done, planned):
        calls.append((done, planned))
        return real(self, done, planned)

    monkeypatch.setattr(Job, "progress", spy)
    response = app.handle("POST", "/api/jobs", query(**README, samples=120_000, seed=9))
    assert response.status == 202
    snap = wait(app, json.loads(response.body)["id"])
    assert snap["state"] == "done" and snap["done"] == snap["planned"] == 120_000
    assert calls == [(50_000, 120_000), (100_000, 120_000), (120_000, 120_000)]  # one call per batch of ask
    direct = app.handle("GET", "/api/ask", query(**README, samples=120_000, seed=9))
    assert snap["result"] == json.loads(direct.body)


def test_a_bad_job_is_refused_at_once_or_ends_in_an_error(app):
    response = app.handle("POST", "/api/jobs", query(**{**README, "hand": "HA HK"}))
    assert response.status == 400 and "has 5 cards, got 2" in json.loads(response.body)["error"]
    response = app.handle("POST", "/api/jobs", query(**README, samples=0))  # a range: refused at the door too
    assert response.status == 400 and "--samples must be 1..20,000,000" in json.loads(response.body)["error"]


def test_an_error_found_in_the_job_ends_it_as_a_400(app, monkeypatch):
    def impossible(*args, **kwargs):
        raise simulation.RulesError("no deal matches what the earlier seats did")

    monkeypatch.setattr(simulation, "simulate", impossible)
    response = app.handle("POST", "/api/jobs", query(**README, samples=100, seed=1))
    snap = wait(app, json.loads(response.body)["id"])
    assert snap["state"] == "error" and snap["status"] == 400 and "no deal matches" in snap["error"]


def test_a_cancelled_job_stops_after_its_batch(app):
    response = app.handle("POST", "/api/jobs", query(**README, samples=SAMPLES_CAP, seed=1))
    job_id = json.loads(response.body)["id"]
    end = time.monotonic() + 60
    while json.loads(app.handle("GET", f"/api/jobs/{job_id}", {}).body)["done"] == 0 and time.monotonic() < end:
        time.sleep(0.02)
    app.handle("POST", f"/api/jobs/{job_id}/cancel", {})
    snap = wait(app, job_id)
    assert snap["state"] == "cancelled" and 0 < snap["done"] < SAMPLES_CAP
    end = time.monotonic() + 10
    while not app.simulations.idle() and time.monotonic() < end:
        time.sleep(0.01)
    assert app.simulations.idle() and not app.simulation_lock.locked()


# -- the command ------------------------------------------------------------------------------------------------------
def test_serve_help_names_the_api():
    result = cli(["serve", "--help"])
    assert result.exit_code == 0
    for word in ("--port", "--host", "--tables", "/api/ask", "rumbaodds ask --json"):
        assert word in result.stdout


def test_serve_on_a_busy_port_is_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        result = cli(["serve", "--port", busy.getsockname()[1], "--tables", tmp_path])
    assert result.exit_code == 2
    assert result.stderr.startswith("rumbaodds: error: cannot listen on 127.0.0.1:") and result.stderr.count("\n") == 1


def test_serve_rule_files_need_their_own_names(tmp_path):
    (tmp_path / "swiss.toml").write_text('base = "swiss"\nname = "swiss"\n')
    result = cli(["serve", "--rules", tmp_path / "swiss.toml", "--port", 0])
    assert result.exit_code == 2 and "named like another one" in result.stderr


def test_serve_runs_as_a_command_until_interrupted(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "from rumbaodds.cli import main; main()", "serve", "--port", "0",
                             "--tables", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("rumbaodds serve: http://127.0.0.1:"), line
        url = line.split()[2]
        status, kind, body = fetch(url + "api/status")
        assert status == 200 and json.loads(body)["warm"]["state"] in ("cold", "warming", "ready")
    finally:
        proc.send_signal(signal.SIGTERM)  # as `kill` does; Ctrl-C takes the same way out
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "stopped" in err and "Traceback" not in err
