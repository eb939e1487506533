"""Real-browser helpers for the `rumbaodds serve` tests: Debian's Chromium driven by Playwright, and a server.

Playwright drives the Chromium that ``apt-get install chromium`` puts at
``/usr/bin/chromium`` (through ``executable_path``): no browser is ever
downloaded. The flags make it start as root, offline and quietly.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    """Debian's Chromium, or $RUMBAODDS_CHROMIUM; None when there is none."""
    for candidate in (os.environ.get("RUMBAODDS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def skip_reason() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    if chromium_path() is None:
        return "no Chromium installed (apt-get install -y chromium; .ci/run does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing (pip install -e '.[test]')"
    return None


@contextmanager
def browser_context(width: int = 1400, height: int = 1000, touch: bool = False):
    """A fresh headless Chromium (own user-data-dir) with one browser context of the given viewport; ``touch``: a
    phone's touch screen (Playwright's tap)."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="rumbaodds-chromium-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS,
                viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def running_server(app, warm: bool = True):
    """`rumbaodds serve`'s server for ``app`` on a free port of 127.0.0.1, in a thread; yields its URL."""
    from rumbaodds.web.server import make_server

    server = make_server(app, "127.0.0.1", 0)
    if warm:
        app.start_warmup()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()


# -- a tiny rule set with a built table, for answers that come from a table -----------------------------------
TINY_TOML = """base = "swiss"
name = "tiny"
suits = "CDH"
ranks = "TJQK"
hand_size = 2
min_players = 2
max_players = 3
exchange_limit = 1
rumba_min_tricks = 2
throw_in_below = "J"
knock = false
"""
TINY_QUESTION = {"hand": "CJ HK", "trump": "HJ", "players": 3, "seat": 2}


def build_tiny_table(root: Path):
    """(rules TOML path, tables root) with one small table of the tiny rule set for 3 players."""
    from rumbaodds.cardplay import DEFAULT_PLAY
    from rumbaodds.opponents.models import get_model
    from rumbaodds.rules import get_rules
    from rumbaodds.tables import TableSpec, build_table

    root = Path(root)
    rules_path = root / "tiny.toml"
    rules_path.write_text(TINY_TOML)
    spec = TableSpec(get_rules(rules_path), 3, get_model("default"), DEFAULT_PLAY, 200, 4)  # the page's own play
    build_table(spec, root / "tables" / "tiny3", chunk_cells=1_000)
    return rules_path, root / "tables"


def tiny_questions(rules_path, tables_root, count: int = 400):
    """(a question whose table answer leaves something open, one whose answer leaves nothing open) of the tiny
    table, found by asking it: whatever the build gives, both kinds are tested."""
    from rumbaodds.answer import pipeline
    from rumbaodds.answer.question import Question
    from rumbaodds.rules import get_rules

    rules = get_rules(rules_path)
    cards = "CT CJ CQ CK DT DJ DQ DK HT HJ HQ HK".split()
    found = {}
    for i in range(count):
        hand, trump, seat = (cards[i % 12], cards[(i // 12) % 12]), cards[(i * 7 + 3) % 12], i % 3
        if len({*hand, trump}) < 3:
            continue
        q = {"hand": " ".join(hand), "trump": trump, "players": 3, "seat": seat}
        table = pipeline.from_table(Question.of(**q, rules=rules), tables_root)
        if table is not None:
            found.setdefault(bool(table.meta["open"]), q)
        if len(found) == 2:
            return found[True], found[False]
    raise AssertionError("the tiny table has no answer of both kinds")
