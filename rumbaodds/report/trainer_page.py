"""The trainer on a phone: one self-contained page of situations answered by the shipped tables, graded by tap.

:func:`write_trainer_page` deals a few thousand spots as they occur at the table
(:class:`rumbaodds.learning.trainer.Trainer`: random player count 3-7, seat, cards and turned card; the earlier
words not told, as the tables assume), answers each from the shipped packed tables and grades every choice open
there with :func:`rumbaodds.learning.grading.grade`
(points lost with their interval, band, reason), and writes them into one HTML file with a small script that
deals a round, takes a tap, shows the grade at once and sums up the round, with a drill of the spots got wrong
(the same hands with the suits permuted). No outside file, font or request: once loaded it works offline.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..cards import format_card
from ..learning.grading import BEST_BELOW, INACCURACY_BELOW, MISTAKE_BELOW, Decision, equilibrium_mix, grade
from ..learning.trainer import Spot, Trainer

CHOICES = ("pass", "play", "rumba", "throw-in")


def spot_record(spot: Spot) -> dict:
    """What the page needs of one spot: the deal and every open choice's grade (rounded to the cent)."""
    s, result = spot.situation, spot.result
    shares = equilibrium_mix(s, result.opponents)
    grades = {}
    reasons = {}
    for action in CHOICES:
        if action not in {c.action for c in s.choices()}:
            continue
        g = grade(result, Decision.of(action), shares)
        grades[action] = [round(g.loss.mean, 2), round(g.loss.low, 2), round(g.loss.high, 2), int(g.at_least), g.band]
        reasons[action] = g.reason
        best_text = g.best_text
        best = g.best
    base = reasons[best]
    return {"p": s.players, "s": s.seat, "h": [format_card(c) for c in s.hand], "t": format_card(s.trump_card),
            "b": best, "bt": best_text, "g": grades, "w": base,
            "wc": {a: r for a, r in reasons.items() if r != base},
            "ru": result.runner_up,
            "m": None if result.margin is None else [round(result.margin.mean, 2), round(result.margin.low, 2),
                                                     round(result.margin.high, 2)]}


def sample_spots(count: int = 3000, seed: int = 1, tables_root=None, progress=None) -> list[dict]:
    """``count`` spots dealt as at the table, each answered by a table (never simulated)."""
    trainer = Trainer(seed=seed, table_only=True, tables_root=tables_root or "tables")
    out = []
    for i in range(count):
        out.append(spot_record(trainer.deal()))
        if progress is not None:
            progress(i + 1, count)
    return out


BOUND_NOTE = '"≥" marks a loss the tables bound from below: they keep only the two best choices. '


def page_html(spots: list[dict], meta: dict) -> str:
    data = json.dumps({"spots": spots, "meta": meta}, separators=(",", ":"))
    # tables that keep every choice's value (packed format 2) grade every loss exactly: no "≥" to explain
    bounded = any(g[3] for spot in spots for g in spot["g"].values())
    return (PAGE.replace("__DATA__", data.replace("</", "<\\/")).replace("__TITLE__", html.escape(meta["title"]))
            .replace("__BOUND__", BOUND_NOTE if bounded else ""))


def write_trainer_page(out="reports/trainer.html", count: int = 3000, seed: int = 1, tables_root=None,
                       progress=None) -> Path:
    """Write the trainer page with ``count`` spots (dealt with ``seed``); returns its path."""
    spots = sample_spots(count, seed, tables_root, progress)
    meta = {"title": "Rumba trainer", "count": len(spots), "seed": seed, "rules": "swiss",
            "bands": {"best": BEST_BELOW, "inaccuracy": INACCURACY_BELOW, "mistake": MISTAKE_BELOW}}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page_html(spots, meta), encoding="utf-8")
    return out


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
<p class="sub">Swiss rules. Choose as at the table; the answer comes from the solved tables at once.</p>
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
0.05 points lost, inaccuracy below 0.25, mistake below 1, blunder 1 or more; too close to grade when the 95% interval
includes 0; mixed when the solved equilibrium plays both with hands like this. Accuracy counts best, mixed and too
close. __BOUND__Opponents play the solved
equilibrium; the earlier seats' words are not told, only that nobody called Rumba or threw in. <span id="count"></span>
</p>
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
    `${current.s} of ${current.p}.`;
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
$("count").textContent = `${SPOTS.length.toLocaleString("en")} situations dealt as at the table (3-7 players), ` +
  `answered by the shipped tables.`;
deal();
document.body.dataset.ready = "1";
</script>
</body></html>
"""

__all__ = ["write_trainer_page", "sample_spots", "spot_record", "page_html", "CHOICES"]
