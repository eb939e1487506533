"""The trainer on a phone: one self-contained page of situations, each simulated until its grade is sure.

:func:`write_trainer_page` deals spots as they occur at the table (:class:`rumbaodds.learning.trainer.Trainer`:
random player count 3-7, seat, cards and turned card; the earlier words not told, as the shipped tables assume; only
spots a table covers), simulates each one (:func:`rumbaodds.answer.simulation.simulate`, with a seed of its own
drawn from the build's seed and the spot's number, so a build is reproducible) until every open choice's loss
against the best one is known to :data:`HALF_WIDTH` points (the 95% half-width of the paired difference on the same
deals), at most :data:`CAP_DEALS` deals, and grades every choice with :func:`rumbaodds.learning.grading.grade`
(points lost with their interval, band, reason). A spot ships only where its grade is sure (:func:`sure`,
:func:`shown_sure`): no choice too close to grade, even as the page writes it, to the cent. The tables' own answers
(32 to 94 deals a cell) are too coarse for that: a play they call too close at 0.38 points [-0.38, 1.15] loses 0.51
[0.49, 0.53] on 200,000 deals.

The build is resumable: every spot done (shipped or left out) is one line of a JSON Lines file under ``cache``
(``build/trainer/`` by default, git-ignored), named by the build's parameters; a killed build deals the same spots
again and simulates only those not yet written.

The page itself has a small script that deals a round (:func:`page_order`: the spots its ``?seed=`` picks), takes a
tap, shows the grade at once and sums up the round, with a drill of the spots got wrong (the same hands with the
suits permuted). No outside file, font or request: once loaded it works offline.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..answer.question import Question
from ..answer.results import Accumulator, AskResult
from ..answer.simulation import simulate
from ..answer.stopping import View
from ..cards import format_card
from ..game import Choice
from ..learning.grading import (
    BEST_BELOW,
    INACCURACY_BELOW,
    MISTAKE_BELOW,
    Decision,
    Grade,
    equilibrium_mix,
    grade,
)
from ..learning.trainer import Spot, Trainer

CHOICES = ("pass", "play", "rumba", "throw-in")
HALF_WIDTH = 0.1  # points: every loss on the page is known to within this (95%), after rounding to the cent
STOP_HALF_WIDTH = HALF_WIDTH - 0.005  # the simulation's own target: the cent rounding of both ends adds 0.005
FIRST_DEALS = 4_000  # deals before the first look
CHUNK = 2_000  # deals per kernel call, a look after each
CAP_DEALS = 200_000  # the most deals one spot gets (ask's default cap); a spot not known by then is left out
CACHE = Path("build/trainer")
CACHE_VERSION = 1  # bump when a record's content changes: an older cache is then not read


def spot_seed(seed: int, number: int) -> int:
    """The simulation seed of spot ``number`` of a build with ``seed`` (63 bits, the kernels' range)."""
    return int(np.random.SeedSequence([int(seed), int(number)]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def page_order(seed, spots: int, count: int) -> list[int]:
    """The spots (indices into the page's list of ``spots``) the page deals first with ``?seed=seed``: the page's
    own generator (Park-Miller, 48271) mirrored step for step, so a test can grade what a player is shown.
    Drills draw from the same generator, so this is the order of a first round only."""
    try:
        rng = int(str(seed).strip()) % 2147483647 or 1  # parseInt(...) % 2147483647 || 1
    except ValueError:
        raise ValueError(f"seed {seed!r}: the page's order is known only for a number") from None
    out = []
    for _ in range(count):
        rng = (rng * 48271) % 2147483647
        out.append(math.floor((rng - 1) / 2147483646 * spots))
    return out


# -- simulating a spot until its grade is known -----------------------------------------------------------------
def action_index(result: AskResult) -> dict[str, int]:
    """Each open action's choice (``play``: its best exchange) as an index of the simulated choices."""
    names = list(result.options)
    return {action: names.index(c.name) for action, c in result.actions.items()}


def paired_losses(result: AskResult, acc: Accumulator) -> dict[str, object]:
    """Every open action's loss against the best choice, paired on the same deals: EV(action) - EV(best)."""
    index = action_index(result)
    best = index[result.recommendation]
    return {action: acc.difference(i, best) for action, i in index.items() if action != result.recommendation}


@dataclass
class KnownLosses:
    """A stopping rule (:func:`rumbaodds.answer.stopping.run`'s): a look every ``chunk`` deals from ``first``, until
    every open action's paired loss against the best has a 95% half-width of at most ``half_width`` points, or the
    ``cap``. Keeps the run's Accumulator (``acc``) for :func:`grades_of`."""

    half_width: float = STOP_HALF_WIDTH
    first: int = FIRST_DEALS
    cap: int = CAP_DEALS
    chunk: int = CHUNK
    planned: int | None = None
    reason: str = "cap"
    acc: Accumulator | None = None

    def __post_init__(self):
        self.planned = self.cap

    def next_count(self, done: int) -> int:
        return min(self.chunk, self.cap - done)

    def check(self, done: int, view: View, elapsed: float) -> str | None:
        self.acc = view.acc
        if done >= self.first:
            losses = paired_losses(view.answer(), view.acc)
            if all(loss.half_width <= self.half_width for loss in losses.values()):
                return "precision"
        return "cap" if done >= self.cap else None


def simulate_spot(spot: Spot, seed: int, rule: KnownLosses | None = None) -> tuple[AskResult, Accumulator]:
    """``spot`` simulated from ``seed`` until its losses are known (``rule``): the answer and its deals' sums."""
    rule = rule or KnownLosses()
    result = simulate(Question(spot.situation, seed=seed), rule=rule)
    return result, rule.acc


def grades_of(result: AskResult, acc: Accumulator | None = None) -> dict[str, Grade]:
    """Every open action graded by :func:`rumbaodds.learning.grading.grade`. With ``acc`` (the simulation's sums),
    each loss is the paired difference on the same deals, as ``grade`` takes the runner-up's margin (the answer
    seen with that action as its runner-up); without, ``grade``'s own (unpaired past the runner-up)."""
    situation = result.situation
    shares = equilibrium_mix(situation, result.opponents)
    open_actions = {c.action for c in situation.choices()}
    paired = paired_losses(result, acc) if acc is not None and Choice.NO_RUMBA not in result.options else {}
    out = {}
    for action in CHOICES:
        if action not in open_actions:
            continue
        seen = result
        if action in paired:
            seen = dataclasses.replace(result, runner_up=action, margin=paired[action])
        out[action] = grade(seen, Decision.of(action), shares)
    return out


def sure(grades: dict[str, Grade]) -> bool:
    """Is every grade sure, so that more deals would not change it into another verdict? No loss too close to
    grade (its interval includes 0), and a ``mixed`` only where the loss is surely below the quarter point that
    the mixed label allows (more deals could otherwise show the hand's own cost and call it a mistake)."""
    for g in grades.values():
        if g.band == "too close":
            return False
        if g.band == "mixed" and g.loss.high >= INACCURACY_BELOW:
            return False
    return True


def shown_sure(record: dict) -> bool:
    """Is every grade sure as the page writes it, to the cent (:func:`spot_record`)? :func:`sure`, and a loss that is
    not exactly 0 has an interval that excludes 0 once rounded too (not "0.00 to 0.11"), a mixed one stays below the
    quarter point."""
    for mean, low, high, at_least, band in record["g"].values():
        if at_least or band == "too close":
            return False
        if band == "mixed":
            if high >= INACCURACY_BELOW:
                return False
        elif (mean, low, high) != (0, 0, 0) and low <= 0:
            return False
    return True


def _cents(x: float) -> float:
    return round(float(x), 2) + 0.0  # no -0.0 on the page


def spot_record(spot: Spot, grades: dict[str, Grade] | None = None, result: AskResult | None = None,
                **more) -> dict:
    """What the page needs of one spot: the deal and every open choice's grade (rounded to the cent); ``grades``
    (default: :func:`grades_of` the spot's own answer) of ``result`` (default: the spot's), ``more`` added."""
    s = spot.situation
    result = result or spot.result
    grades = grades if grades is not None else grades_of(result)
    cells = {a: [_cents(g.loss.mean), _cents(g.loss.low), _cents(g.loss.high), int(g.at_least), g.band]
             for a, g in grades.items()}
    reasons = {a: g.reason for a, g in grades.items()}
    first = next(iter(grades.values()))
    best = first.best
    base = reasons[best]
    return {"p": s.players, "s": s.seat, "h": [format_card(c) for c in s.hand], "t": format_card(s.trump_card),
            "b": best, "bt": first.best_text, "g": cells, "w": base,
            "wc": {a: r for a, r in reasons.items() if r != base},
            "ru": result.runner_up,
            "m": None if result.margin is None else [_cents(result.margin.mean), _cents(result.margin.low),
                                                     _cents(result.margin.high)], **more}


# -- the build ------------------------------------------------------------------------------------------------------
@dataclass
class Build:
    """What a build did: the spots shipped, those left out: too close to call (a loss whose interval includes 0, to
    the cent, or a mixed grade whose loss may reach the quarter point) or not known by the cap."""

    spots: list[dict]
    dealt: int = 0
    too_close: int = 0
    capped: int = 0
    deals: int = 0  # deals simulated for every spot dealt (the shipped and the left out)
    seconds: float = 0.0  # simulation time summed over the spots (a resumed build counts its earlier part too)


def cache_file(cache: Path, seed: int, tables_root) -> Path:
    name = f"spots-v{CACHE_VERSION}-seed{seed}-hw{HALF_WIDTH:g}-cap{CAP_DEALS}"
    if str(tables_root) != "tables":
        name += "-" + "".join(ch if ch.isalnum() else "_" for ch in str(tables_root))[-40:]
    return Path(cache) / f"{name}.jsonl"


def _read_cache(path: Path) -> dict[int, dict]:
    done = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
                done[int(entry["i"])] = entry
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a killed build: that spot is simulated again
    return done


def sample_spots(count: int = 2000, seed: int = 1, tables_root=None, progress=None,
                 cache: Path | None = CACHE, rule: Callable[[], KnownLosses] = KnownLosses) -> Build:
    """Deal spots as at the table until ``count`` have a sure grade; each simulated (:func:`simulate_spot`) with
    :func:`spot_seed` (``seed``, its number) and written to the cache as it is done (``cache`` None: none).
    ``progress(shipped, count)`` after each spot."""
    tables_root = tables_root or "tables"
    trainer = Trainer(seed=seed, table_only=True, tables_root=tables_root)
    path = None if cache is None else cache_file(Path(cache), seed, tables_root)
    done = {} if path is None else _read_cache(path)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    build = Build([])
    sink = None if path is None else path.open("a", encoding="utf-8")
    if sink is not None and sink.tell() > 0 and not path.read_bytes().endswith(b"\n"):
        sink.write("\n")  # after a line cut short: the next spot starts a line of its own
    try:
        while len(build.spots) < count:
            number = build.dealt
            spot = trainer.deal()  # dealt again on a resumed build: the same spots in the same order
            build.dealt += 1
            entry = done.get(number)
            if entry is None:
                start = time.perf_counter()
                result, acc = simulate_spot(spot, spot_seed(seed, number), rule())
                grades = grades_of(result, acc)
                known = result.meta.get("stopped") == "precision"
                record = spot_record(spot, grades, result, n=result.samples, i=number)
                keep = known and sure(grades) and shown_sure(record)
                why = "sure" if keep else "cap" if not known else \
                    "too close" if any(g.band == "too close" for g in grades.values()) else \
                    "mixed edge" if not sure(grades) else "0 to the cent"
                entry = {"i": number, "keep": keep, "why": why,
                         "deals": result.samples, "seconds": round(time.perf_counter() - start, 3), "spot": record}
                if sink is not None:
                    sink.write(json.dumps(entry, separators=(",", ":")) + "\n")
                    sink.flush()
            build.deals += int(entry["deals"])
            build.seconds += float(entry["seconds"])
            if entry["keep"] and shown_sure(entry["spot"]):  # (entries cached before shown_sure was asked)
                build.spots.append(entry["spot"])
            elif entry["why"] == "cap":
                build.capped += 1
            else:
                build.too_close += 1
            if progress is not None:
                progress(len(build.spots), count)
    finally:
        if sink is not None:
            sink.close()
    return build


BOUND_NOTE = '"≥" marks a loss the tables bound from below: they keep only the two best choices. '


def how_text(meta: dict) -> str:
    """The line on the page that says how its grades were made."""
    low, high = meta.get("deals_range", (0, 0))
    left = meta.get("left_out", 0)
    return (f"{meta['count']:,} situations dealt as at the table (3-7 players), each spot simulated with "
            f"{low:,} to {high:,} deals, until every choice's loss is known to ±{meta['half_width']:g} points "
            f"(95%); spots too close to call left out ({left:,} of {meta['dealt']:,} dealt).")


def page_html(spots: list[dict], meta: dict) -> str:
    data = json.dumps({"spots": spots, "meta": meta}, separators=(",", ":"))
    # a simulated answer values every choice: no "≥" to explain unless a spot's loss is a table's lower bound
    bounded = any(g[3] for spot in spots for g in spot["g"].values())
    how = html.escape(how_text(meta)) if "half_width" in meta else ""
    return (PAGE.replace("__DATA__", data.replace("</", "<\\/")).replace("__TITLE__", html.escape(meta["title"]))
            .replace("__BOUND__", BOUND_NOTE if bounded else "").replace("__HOW__", how))


def write_trainer_page(out="reports/trainer.html", count: int = 2000, seed: int = 1, tables_root=None,
                       progress=None, cache: Path | None = CACHE) -> tuple[Path, Build]:
    """Write the trainer page with ``count`` spots of sure grade (dealt with ``seed``); returns its path and what
    the build did."""
    build = sample_spots(count, seed, tables_root, progress, cache)
    deals = [s["n"] for s in build.spots]
    meta = {"title": "Rumba trainer", "count": len(build.spots), "seed": seed, "rules": "swiss",
            "bands": {"best": BEST_BELOW, "inaccuracy": INACCURACY_BELOW, "mistake": MISTAKE_BELOW},
            "half_width": HALF_WIDTH, "cap": CAP_DEALS, "dealt": build.dealt,
            "left_out": build.too_close + build.capped, "too_close": build.too_close, "capped": build.capped,
            "deals_range": [min(deals, default=0), max(deals, default=0)]}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page_html(build.spots, meta), encoding="utf-8")
    return out, build


PAGE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
:root{--ink:#1d2433;--soft:#5f6b7a;--line:#dde2ea;--bg:#f6f7fa;--best:#1b7f3b;--close:#4a6078;--inacc:#8a6100;
--mist:#c0561b;--blun:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:17px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:560px;margin:0 auto;padding:12px 14px 32px}
h1{font-size:22px;margin:4px 0 2px} .sub{color:var(--soft);font-size:15px;margin:0 0 10px}
.bar{display:flex;justify-content:space-between;align-items:center;font-size:15px;color:var(--soft);margin:6px 0}
.card-box{background:#fff;border:1px solid var(--line);border-radius:14px;padding:12px;margin:10px 0}
.where{font-size:16px;margin:0 0 10px}
.hand{display:flex;gap:6px;flex-wrap:wrap;align-items:flex-end}
.c{width:56px;height:78px;border:1px solid #c9ced8;border-radius:9px;background:#fff;display:flex;flex-direction:column;
align-items:center;justify-content:center;font-weight:700;font-size:22px;line-height:1.1;box-shadow:0 1px 2px #0001}
.c small{font-size:24px;font-weight:400}
.red{color:#c62828} .blk{color:#1d2433}
.trumpwrap{display:flex;align-items:center;gap:10px;margin-top:10px;font-size:16px}
.c.trump{outline:3px solid #e0a800;outline-offset:1px}
.choices{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:12px 0}
button{font:inherit;font-size:18px;font-weight:600;min-height:52px;min-width:44px;border-radius:12px;
border:1px solid #b9c1ce;background:#fff;color:var(--ink);padding:8px 12px;cursor:pointer}
button:active{transform:translateY(1px)} button.main{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button[disabled]{opacity:.45;cursor:default}
.grade{border-left:8px solid var(--soft)} .grade h2{margin:0 0 6px;font-size:22px}
.b-best,.b-mixed{border-color:var(--best)} .b-best h2,.b-mixed h2{color:var(--best)}
.b-tooclose{border-color:var(--close)} .b-tooclose h2{color:var(--close)}
.b-inaccuracy{border-color:var(--inacc)} .b-inaccuracy h2{color:var(--inacc)}
.b-mistake{border-color:var(--mist)} .b-mistake h2{color:var(--mist)}
.b-blunder{border-color:var(--blun)} .b-blunder h2{color:var(--blun)}
.grade p{margin:6px 0}
table{border-collapse:collapse;width:100%;font-size:16px;margin-top:6px}
td{padding:5px 4px;border-top:1px solid var(--line)} td.n{text-align:right;white-space:nowrap}
tr.you td{font-weight:700}
.figs{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:8px 0}
.fig{background:var(--bg);border-radius:10px;padding:8px;text-align:center}
.fig b{display:block;font-size:26px}
.worst li{margin:6px 0}
.note{color:var(--soft);font-size:14px} .pc{font-weight:600;white-space:nowrap}
#mine{font-size:15px}
select{font:inherit;font-size:16px;min-height:44px;border-radius:10px;border:1px solid #b9c1ce;background:#fff;
padding:4px 8px}
.hidden{display:none}
</style></head>
<body><main>
<h1>Rumba trainer</h1>
<p class="sub">Swiss rules. Choose as at the table; the grade comes at once.</p>
<div class="bar"><span id="progress"></span>
<label>Hands per round <select id="length"><option>10</option><option selected>20</option><option>40</option></select>
</label></div>

<section id="question" class="card-box">
<p class="where" id="where"></p>
<div class="hand" id="hand"></div>
<div class="trumpwrap"><span>Trump card</span><span id="trump"></span><span id="trumpword" class="note"></span></div>
<div class="choices" id="choices">
<button data-choice="pass">Pass</button><button data-choice="play">Play</button>
<button data-choice="rumba">Rumba</button><button data-choice="throw-in">Throw in</button>
</div>
<p class="note">Play means: play with your best exchange (shown with the answer).</p>
</section>

<section id="answer" class="card-box grade hidden">
<h2 id="band"></h2>
<p id="mine" class="note"></p>
<p id="lost"></p>
<p id="best"></p>
<p id="why"></p>
<table id="all"></table>
<button class="main" id="next" style="width:100%;margin-top:10px">Next hand</button>
</section>

<section id="summary" class="card-box hidden">
<h2 id="sumtitle" style="margin:0 0 6px">Round over</h2>
<div class="figs">
<div class="fig"><b id="f-n"></b>decisions</div><div class="fig"><b id="f-acc"></b>accuracy</div>
<div class="fig"><b id="f-avg"></b>points lost per hand</div><div class="fig"><b id="f-tot"></b>points lost in all</div>
</div>
<div id="worstbox"><p style="margin:8px 0 0"><b>Worst decisions</b></p><ol class="worst" id="worst"></ol></div>
<div class="choices">
<button class="main" id="drill">Drill my mistakes</button><button id="again">New round</button>
</div>
</section>

<p class="note">Points are per hand and count down like the score sheet: the best choice loses 0. Grades: best below
0.05 points lost, inaccuracy below 0.25, mistake below 1, blunder 1 or more; mixed when the solved equilibrium plays
both with hands like this (it counts as best). Accuracy counts best and mixed. __BOUND__Opponents play the solved
equilibrium; the earlier seats' words are not told, only that nobody called Rumba or threw in.</p>
<p class="note" id="how">__HOW__</p>
</main>
<script id="data" type="application/json">__DATA__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const SPOTS = DATA.spots;
const SUIT = {S: ["\u2660", "blk", "spades"], H: ["\u2665", "red", "hearts"], D: ["\u2666", "red", "diamonds"],
              C: ["\u2663", "blk", "clubs"]};
const ROLE = ["first to speak", "second to speak", "third to speak", "fourth to speak", "fifth to speak",
              "sixth to speak"];
const NAME = {"pass": "pass", "play": "play", "rumba": "Rumba", "throw-in": "throw in"};
const BAND = {"best": "Best", "mixed": "Best (mixed)", "too close": "Too close to grade", "inaccuracy": "Inaccuracy",
              "mistake": "Mistake", "blunder": "Blunder"};
const CORRECT = ["best", "mixed", "too close"];
let rng = (parseInt(new URLSearchParams(location.search).get("seed"), 10) || Date.now()) % 2147483647 || 1;
function random() { rng = (rng * 48271) % 2147483647; return (rng - 1) / 2147483646; }
let round = [], queue = [], current = null, drilling = false;
const $ = (id) => document.getElementById(id);

function cardHtml(card, extra) {
  const s = SUIT[card[0]], rank = card[1] === "T" ? "10" : card[1];
  return `<span class="c ${s[1]} ${extra || ""}" aria-label="${card}">${rank}<small>${s[0]}</small></span>`;
}
function esc(text) { return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
function pretty(text) {
  return esc(text).replace(/\b([CDHS])([2-9TJQKA])\b/g, (m, s, r) =>
    `<span class="${SUIT[s][1]} pc">${r === "T" ? "10" : r}${SUIT[s][0]}</span>`);
}
function role(spot) { return spot.s === spot.p - 1 ? "the dealer, last to speak" : ROLE[spot.s]; }
function lossText(g) {
  if (g[0] === 0 && g[1] === 0 && g[2] === 0) return "0";
  return `${g[3] ? "\u2265 " : ""}${g[0].toFixed(2)}`;
}
function permuteSuits(spot) {
  const suits = ["C", "D", "H", "S"], to = suits.slice();
  for (let i = to.length - 1; i > 0; i--) { const j = Math.floor(random() * (i + 1)); [to[i], to[j]] = [to[j], to[i]]; }
  const map = {}; suits.forEach((s, i) => { map[s] = to[i]; });
  const move = (text) => text.replace(/\b([CDHS])([2-9TJQKA])\b/g, (m, s, r) => map[s] + r);
  const wc = {}; Object.keys(spot.wc).forEach((k) => { wc[k] = move(spot.wc[k]); });
  return Object.assign({}, spot, {h: spot.h.map(move), t: move(spot.t), bt: move(spot.bt), w: move(spot.w), wc: wc,
                                   drill: true});
}
function length() { return parseInt($("length").value, 10); }
function show(id) { ["question", "answer", "summary"].forEach((x) => $(x).classList.toggle("hidden", x !== id)); }

function deal() {
  current = drilling ? queue.shift() : SPOTS[Math.floor(random() * SPOTS.length)];
  const total = drilling ? round.length + queue.length + 1 : length();
  $("progress").textContent = `${drilling ? "Drill: hand" : "Hand"} ${round.length + 1} of ${total}`;
  $("where").innerHTML = `<b>${current.p} players</b>, you are seat ${current.s} (${role(current)}). ` +
    (current.s ? "Earlier words: not told; nobody called Rumba." : "You speak first.");
  $("hand").innerHTML = current.h.map((c) => cardHtml(c)).join("");
  $("trump").innerHTML = cardHtml(current.t, "trump");
  $("trumpword").textContent = `${SUIT[current.t[0]][2]} are trump`;
  document.querySelectorAll("#choices button").forEach((b) => {
    b.disabled = !(b.dataset.choice in current.g);
    b.classList.toggle("hidden", b.dataset.choice === "throw-in" && !("throw-in" in current.g));
  });
  show("question");
  window.scrollTo(0, 0);
}

function answer(choice) {
  const g = current.g[choice], band = g[4];
  round.push({spot: current, choice: choice, g: g});
  const box = $("answer");
  box.className = "card-box grade b-" + band.replace(" ", "");
  $("band").textContent = BAND[band];
  if (g[0] === 0 && g[1] === 0 && g[2] === 0) {
    $("lost").textContent = `You chose ${NAME[choice]}: no points lost.`;
  } else {
    $("lost").textContent = `You chose ${NAME[choice]}: ${g[3] ? "at least " : ""}${g[0].toFixed(2)} points lost ` +
      `per hand (95% interval ${g[1].toFixed(2)} to ${g[2].toFixed(2)}).`;
  }
  $("mine").innerHTML = `Your hand: ${pretty(current.h.join(" "))}; trump card ${pretty(current.t)}; seat ` +
    `${current.s} of ${current.p}.` + (current.n ? ` Graded on ${current.n.toLocaleString("en")} simulated deals.` :
    "");
  $("best").innerHTML = `<b>Best: ${pretty(current.bt.replace("rumba", "Rumba"))}.</b>`;
  $("why").innerHTML = "Why: " + pretty(current.wc[choice] || current.w) + ".";
  $("all").innerHTML = "<tr><td colspan=3 class=note>Every choice, points lost per hand</td></tr>" +
    Object.keys(current.g).map((c) => {
      const x = current.g[c];
      return `<tr class="${c === choice ? "you" : ""}"><td>${NAME[c]}${c === choice ? " (you)" : ""}</td>` +
        `<td class="n">${lossText(x)}</td><td>${BAND[x[4]]}</td></tr>`;
    }).join("");
  $("next").textContent = (round.length >= (drilling ? round.length + queue.length : length())) ?
    "See the round" : "Next hand";
  show("answer");
  window.scrollTo(0, 0);
}

function summary() {
  const n = round.length, lost = round.reduce((a, r) => a + r.g[0], 0);
  const right = round.filter((r) => CORRECT.includes(r.g[4])).length;
  $("sumtitle").textContent = drilling ? "Drill over" : "Round over";
  $("f-n").textContent = n;
  $("f-acc").textContent = n ? Math.round(100 * right / n) + "%" : "-";
  $("f-avg").textContent = n ? (lost / n).toFixed(2) : "-";
  $("f-tot").textContent = lost.toFixed(2);
  const wrong = round.filter((r) => !CORRECT.includes(r.g[4])).sort((a, b) => b.g[0] - a.g[0]);
  $("worst").innerHTML = wrong.slice(0, 3).map((r) =>
    `<li>${pretty(r.spot.h.join(" "))}, trump ${pretty(r.spot.t)}, seat ${r.spot.s} of ${r.spot.p}: ` +
    `${NAME[r.choice]} instead of ${pretty(r.spot.bt.replace("rumba", "Rumba"))}, ${lossText(r.g)} points ` +
    `(${BAND[r.g[4]].toLowerCase()})</li>`).join("");
  $("progress").textContent = drilling ? "Drill done" : `Round of ${n} hands`;
  $("worstbox").classList.toggle("hidden", wrong.length === 0);
  $("drill").disabled = wrong.length === 0;
  $("drill").textContent = wrong.length ? `Drill my ${wrong.length} mistake${wrong.length > 1 ? "s" : ""}` :
    "No mistakes to drill";
  queue = wrong.map((r) => permuteSuits(r.spot));
  show("summary");
  window.scrollTo(0, 0);
}

document.querySelectorAll("#choices button").forEach((b) => {
  b.addEventListener("click", () => answer(b.dataset.choice));
});
$("next").addEventListener("click", () => {
  const done = drilling ? queue.length === 0 : round.length >= length();
  if (done) summary(); else deal();
});
$("drill").addEventListener("click", () => { drilling = true; round = []; deal(); });
$("again").addEventListener("click", () => { drilling = false; round = []; queue = []; deal(); });
$("length").addEventListener("change", () => { if (!drilling && round.length === 0) deal(); });
deal();
document.body.dataset.ready = "1";
</script>
</body></html>
"""

__all__ = ["write_trainer_page", "sample_spots", "spot_record", "page_html", "page_order", "grades_of", "sure",
           "shown_sure",
           "simulate_spot", "spot_seed", "paired_losses", "KnownLosses", "Build", "how_text", "CHOICES",
           "HALF_WIDTH", "CAP_DEALS"]
