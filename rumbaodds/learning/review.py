"""A review of the hands a player wrote down: every decision graded, skill told apart from luck.

A file holds one decision a line, JSON Lines or CSV (with a header), its fields named like ``rumbaodds ask``'s
options: ``rules`` (default swiss), ``players``, ``seat``, ``hand``, ``trump``, ``before``, ``passes_in_a_row``,
``dealer_knocked``, ``swapped_by``, then ``choice`` (pass, play, rumba, join, knock, throw-in), ``discard`` (the
cards he exchanged, if he played) and optionally ``score`` (what the hand scored him, counting down like the score
sheet). Other fields are ignored. A knock line is the dealer's decision before he looked: ``choice`` knock (or
``no knock``), no hand needed.

Each decision is graded by :mod:`.grading` on a table's answer where one covers it and its grade of his choice is
sure (instant), else on a simulation of his very situation, with the cards he exchanged, run until the grade is
sure (:mod:`.settling`: at most ``samples`` deals, one ``seed`` for the whole review so it is reproducible).
Totals: the points his decisions lost (skill: the sum of the losses, an unbiased estimate) and his actual minus
expected score over the lines that give a score (luck; negative: the cards were kind, as scores
count down). A bad line is reported with its number and the reason, and the rest is still reviewed.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..answer import simulation
from ..answer.question import Question
from ..cards import CardError, format_card, parse_card
from ..limits import LimitError
from ..opponents.models import ModelError
from ..rules import RulesError, get_rules
from . import settling
from .grading import CORRECT, Decision, DecisionError, Grade, chosen_option, grade_knock, loss_text

FIELDS = ("rules", "players", "seat", "hand", "trump", "before", "passes_in_a_row", "dealer_knocked", "swapped_by",
          "choice", "discard", "score")
REQUIRED = ("players", "seat", "trump", "choice")
DEFAULT_SAMPLES = settling.GRADE_CAP  # the most deals one decision simulates to settle its grade
KNOCK_INNER = 100  # deals per knock deal for the dealer who looks (simulation.knock's inner_samples)
INPUT_ERRORS = (CardError, RulesError, LimitError, ModelError, ValueError)


class ReviewError(RulesError):
    """The file cannot be reviewed at all (missing, unreadable, not JSON Lines or CSV, no decision in it)."""


@dataclass(frozen=True)
class BadLine:
    line: int
    reason: str

    def text(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass
class Entry:
    """One decision of the file, checked: the question it answers and what the player did."""

    line: int
    fields: dict
    question: Question | None  # None for a knock line
    decision: Decision | None  # None for a knock line
    knocked: bool | None = None  # a knock line: did he knock
    score: float | None = None

    @property
    def knock_line(self) -> bool:
        return self.question is None


@dataclass
class Reviewed:
    entry: Entry
    grade: Grade

    @property
    def luck(self) -> float | None:
        if self.entry.score is None or self.grade.expected is None:
            return None
        return self.entry.score - self.grade.expected.mean


# -- reading ---------------------------------------------------------------------------------------------------------
def _text(path: str | Path) -> str:
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise ReviewError(f"{path}: is a folder, not a file of decisions") from None
    except OSError as exc:
        raise ReviewError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ReviewError(f"{path}: not a text file (byte {exc.start} is not UTF-8): write JSON Lines or CSV") \
            from None


def _is_csv(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return True
    if suffix in (".jsonl", ".json", ".ndjson"):
        return False
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return not first.startswith("{")


def read_records(path: str | Path) -> tuple[list[tuple[int, dict]], list[BadLine]]:
    """(line number, fields) of every decision of the file, and the lines that are not one; ReviewError when the
    file cannot be read at all."""
    path = Path(path)
    text = _text(path)
    records: list[tuple[int, dict]] = []
    bad: list[BadLine] = []
    if not text.strip():
        raise ReviewError(f"{path}: no decision in it (one JSON object or CSV row a line, fields {', '.join(FIELDS)})")
    if _is_csv(path, text):
        reader = csv.DictReader(io.StringIO(text))
        header = [name.strip().lower() for name in (reader.fieldnames or [])]
        missing = [name for name in REQUIRED if name not in header]
        if not header or missing:
            raise ReviewError(f"{path}: a CSV file needs a header naming its columns; missing {', '.join(missing)} "
                              f"(columns: {', '.join(FIELDS)})")
        reader.fieldnames = header
        for row in reader:
            line = reader.line_num
            if None in row:
                bad.append(BadLine(line, f"{len(row[None])} values more than the header's {len(header)} columns"))
                continue
            if all(v is None or not str(v).strip() for v in row.values()):
                continue
            records.append((line, {k: v for k, v in row.items() if v is not None and str(v).strip() != ""}))
    else:
        for number, raw in enumerate(text.splitlines(), 1):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                bad.append(BadLine(number, f"not JSON ({exc.msg} at column {exc.colno})"))
                continue
            if not isinstance(data, dict):
                bad.append(BadLine(number, f"not a JSON object but {type(data).__name__}"))
                continue
            records.append((number, {str(k).lower(): v for k, v in data.items() if v is not None}))
    if not records and not bad:
        raise ReviewError(f"{path}: no decision in it (one JSON object or CSV row a line, fields {', '.join(FIELDS)})")
    return records, bad


def _int(fields: dict, name: str, default=None):
    value = fields.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise RulesError(f"{name} {value!r} is not a whole number")
    try:
        return int(str(value).strip()) if not isinstance(value, int | float) else int(value)
    except ValueError:
        raise RulesError(f"{name} {value!r} is not a whole number") from None


def _flag(fields: dict, name: str) -> bool:
    value = fields.get(name, False)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("", "0", "false", "no", "n"):
        return False
    if text in ("1", "true", "yes", "y"):
        return True
    raise RulesError(f"{name} {value!r}: use true or false")


def _score(fields: dict) -> float | None:
    value = fields.get("score")
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        score = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        score = math.nan
    if not math.isfinite(score) or abs(score) > 1000:
        raise RulesError(f"score {value!r} is not a hand's score (a number such as -3 or 10)")
    return score


def _before(value):
    if value is None:
        return None
    if isinstance(value, list):
        return [str(w) for w in value]
    text = str(value).strip()
    return [w for w in text.replace(";", ",").replace(" ", ",").split(",") if w] if text else None


def parse_entry(line: int, fields: dict) -> Entry:
    """The checked decision of one line (the API's one-line errors for anything wrong)."""
    missing = [name for name in REQUIRED if name not in fields]
    if missing:
        raise RulesError(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    rules = get_rules(str(fields.get("rules", "swiss")))
    players, seat = _int(fields, "players"), _int(fields, "seat")
    choice = " ".join(str(fields["choice"]).strip().lower().split())
    score = _score(fields)
    if choice in ("knock", "no knock", "no-knock"):
        rules.check_players(players)
        if not rules.knock:
            raise RulesError(f"rule set {rules.name!r} has no knock")
        if seat != players - 1:
            raise RulesError(f"only the dealer (seat {players - 1}) knocks, not seat {seat}")
        rules.check_cards([parse_card(str(fields["trump"]))])
        return Entry(line, fields, None, None, choice == "knock", score)
    if "hand" not in fields:
        raise RulesError("missing field hand")
    hand = fields["hand"]
    hand = " ".join(map(str, hand)) if isinstance(hand, list) else str(hand)
    question = Question.of(hand, str(fields["trump"]), players, seat, rules,
                           passes_in_a_row=_int(fields, "passes_in_a_row", 0),
                           dealer_knocked=_flag(fields, "dealer_knocked"), before=_before(fields.get("before")),
                           swapped_by=_int(fields, "swapped_by"))
    decision = Decision.of(choice, fields.get("discard"))
    chosen_option(question.situation, decision)  # a word not open to him is the line's error, before any answer
    return Entry(line, fields, question, decision, None, score)


def load(path: str | Path) -> tuple[list[Entry], list[BadLine]]:
    """Every good decision of the file, and every bad line with its reason."""
    records, bad = read_records(path)
    entries = []
    for line, fields in records:
        try:
            entries.append(parse_entry(line, fields))
        except INPUT_ERRORS as exc:
            bad.append(BadLine(line, " ".join(str(exc).split())))
    return entries, sorted(bad, key=lambda b: b.line)


# -- reviewing --------------------------------------------------------------------------------------------------------
@dataclass
class Review:
    """Every decision graded (sorted by points lost, the worst first), the bad lines, and the totals."""

    reviewed: list[Reviewed]
    bad: list[BadLine]
    seed: int | None = None
    simulated: int = 0  # decisions answered by a simulation
    path: str = ""
    notes: list[str] = field(default_factory=list)

    def totals(self) -> dict:
        graded = self.reviewed
        n = len(graded)
        losses = [r.grade.loss.mean for r in graded]
        lucky = [r for r in graded if r.luck is not None]
        bands = {band: sum(1 for r in graded if r.grade.band == band) for band in
                 ("best", "mixed", "too close", "inaccuracy", "mistake", "blunder")}
        return {
            "decisions": n, "bad_lines": len(self.bad),
            "correct": sum(1 for r in graded if r.grade.band in CORRECT),
            "accuracy": (sum(1 for r in graded if r.grade.band in CORRECT) / n) if n else None,
            "points_lost": float(sum(losses)), "points_lost_per_decision": float(sum(losses) / n) if n else None,
            "at_least": sum(1 for r in graded if r.grade.at_least),
            "scored": len(lucky),
            "score_unvalued": sum(1 for r in graded if r.entry.score is not None and r.luck is None),
            "actual": float(sum(r.entry.score for r in lucky)),
            "expected": float(sum(r.grade.expected.mean for r in lucky)),
            "luck": float(sum(r.luck for r in lucky)),
            "bands": bands, "simulated": self.simulated, "seed": self.seed,
        }

    def rows(self) -> list[dict]:
        out = []
        for r in self.reviewed:
            e, g = r.entry, r.grade
            s = e.question.situation if e.question is not None else None
            row = {
                "line": e.line,
                "rules": s.rules.name if s else str(e.fields.get("rules", "swiss")),
                "players": s.players if s else int(e.fields["players"]),
                "seat": s.seat if s else int(e.fields["seat"]),
                "hand": " ".join(format_card(c) for c in s.hand) if s else "",
                "trump": format_card(s.trump_card) if s else str(e.fields["trump"]).upper(),
                "before": ",".join(s.before) if s else "",
                "passes_in_a_row": s.passes_in_a_row if s else 0,
                "choice": g.action, "discard": " ".join(format_card(c) for c in (e.decision.discard or ()))
                if e.decision else "",
                "score": e.score, "luck": r.luck,
            }
            data = g.to_dict()
            row.update({"best": g.best_text, "points_lost": g.loss.mean, "points_lost_low": g.loss.low,
                        "points_lost_high": g.loss.high, "at_least": g.at_least, "band": g.band,
                        "correct": g.correct, "expected": data["expected"], "source": g.source,
                        "reason": g.reason, "notes": "; ".join(g.notes)})
            out.append(row)
        return out

    def to_dict(self) -> dict:
        return {"file": self.path, "totals": self.totals(), "decisions": self.rows(),
                "bad_lines": [{"line": b.line, "reason": b.reason} for b in self.bad],
                "score_sign": simulation.SCORE_SIGN, "notes": list(self.notes)}

    def to_frame(self) -> pd.DataFrame:
        columns = ["line", "rules", "players", "seat", "hand", "trump", "before", "passes_in_a_row", "choice",
                   "discard", "best", "points_lost", "points_lost_low", "points_lost_high", "at_least", "band",
                   "correct", "expected", "score", "luck", "source", "reason", "notes"]
        return pd.DataFrame(self.rows(), columns=columns)


def review(entries: list[Entry], bad: list[BadLine] | None = None, tables_root="tables", samples: int = DEFAULT_SAMPLES,
           seed: int | None = None, simulate: bool = True, opponents=None,
           progress: Callable[[int, int], None] | None = None, budget: float | None = None) -> Review:
    """Grade every entry: a table's answer where its grade of his choice is sure (:func:`.settling.is_sure`), else
    (``simulate``) his very situation simulated until the grade is sure, at most ``samples`` deals a decision
    (:func:`.settling.settle_grade`; a knock line: ``simulation.knock`` with a tenth of them). ``budget``: seconds a
    decision may simulate; None: no clock when ``seed`` is named (the same grades on any machine), else
    :data:`.settling.GRADE_BUDGET_S`. ``progress(done, planned)`` counts decisions. ``opponents`` None: the
    equilibrium, as the tables assume."""
    from ..seeds import check_seed

    bad = list(bad or [])
    if budget is None:
        budget = math.inf if seed is not None else settling.GRADE_BUDGET_S
    seed = check_seed(seed)
    graded: dict[int, Grade] = {}
    answered: dict[tuple, object] = {}
    settled: dict[tuple, Grade] = {}
    simulated = 0
    knock_samples = max(10, min(samples // 10, 200_000))
    for number, entry in enumerate(entries):
        try:
            if entry.knock_line:
                f = entry.fields
                key = ("knock", str(f.get("rules", "swiss")), int(f["players"]), str(f["trump"]).upper())
                if key not in answered:
                    answered[key] = simulation.knock(str(f["trump"]), int(f["players"]), f.get("rules", "swiss"),
                                                   opponents=opponents, samples=knock_samples, seed=seed,
                                                   inner_samples=KNOCK_INNER)
                    simulated += 1
                graded[entry.line] = grade_knock(answered[key], entry.knocked)
                continue
            q = entry.question
            if opponents is not None:
                q = Question(q.situation, opponents)
            key = (q.situation, str(opponents), entry.decision)
            if key in settled:
                graded[entry.line] = settled[key]
                continue
            g, answer = settling.sure_grade(q, entry.decision, tables_root, seed, budget, samples, simulate)
            if g is None:
                bad.append(BadLine(entry.line, "no table covers this situation (known earlier words, a knock, a "
                                               "penalised pass or another rule set): drop --table-only to simulate"
                                               " it"))
                continue
            if entry.score is not None and g.expected is None and simulate:  # the luck needs his choice's value
                g, answer = settling.settle_grade(q.situation, entry.decision, q.opponents, seed, q.play, budget,
                                                  samples, table=answer)
            if answer is not None and answer.meta.get("kind") == "simulation":
                simulated += 1
            settled[key] = graded[entry.line] = g
        except (RulesError, ModelError, DecisionError) as exc:
            bad.append(BadLine(entry.line, " ".join(str(exc).split())))
        finally:
            if progress is not None:
                progress(number + 1, len(entries))
    reviewed = [Reviewed(e, graded[e.line]) for e in entries if e.line in graded]
    reviewed.sort(key=lambda r: (-r.grade.loss.mean, r.entry.line))
    return Review(reviewed, sorted(bad, key=lambda b: b.line), seed, simulated)


def review_file(path: str | Path, **kwargs) -> Review:
    """Read and review ``path`` (see :func:`review`)."""
    entries, bad = load(path)
    result = review(entries, bad, **kwargs)
    result.path = str(path)
    return result


# -- the page ---------------------------------------------------------------------------------------------------------
BAND_COLOURS = {"best": "#1b7f3b", "mixed": "#1b7f3b", "too close": "#5f6b7a", "inaccuracy": "#9a6b00",
                "mistake": "#c0561b", "blunder": "#b3261e"}


def situation_text(entry: Entry) -> str:
    if entry.knock_line:
        f = entry.fields
        return f"dealer of {int(f['players'])}, trump card {str(f['trump']).upper()}, before looking"
    s = entry.question.situation
    before = "" if all(w == "-" for w in s.before) else f", before: {','.join(s.before)}"
    knocked = ", the dealer knocked" if s.dealer_knocked else ""
    return (f"{' '.join(format_card(c) for c in s.hand)}, trump {format_card(s.trump_card)}, seat {s.seat} of "
            f"{s.players}{before}{knocked}")


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def totals_lines(t: dict) -> list[str]:
    """The totals in words (the command line and the page say the same)."""
    if not t["decisions"]:
        return ["No decision could be graded."]
    b = t["bands"]
    lines = [f"{_plural(t['decisions'], 'decision')} graded: {t['correct']} best or within the noise "
             f"({t['accuracy']:.0%}); {_plural(b['inaccuracy'], 'inaccuracy', 'inaccuracies')}, "
             f"{_plural(b['mistake'], 'mistake')}, {_plural(b['blunder'], 'blunder')}.",
             f"Skill: your decisions lost {t['points_lost']:.2f} points in all, {t['points_lost_per_decision']:.2f} "
             f"per decision, against the best choices"
             + (f" ({t['at_least']} of these losses are lower bounds: a table keeps only its two best choices; "
                f"simulate to know them)." if t["at_least"] else ".")]
    if t["scored"]:
        lines.append(f"Luck: over the {_plural(t['scored'], 'hand')} with a score you scored {t['actual']:+.0f} where "
                     f"your choices expected {t['expected']:+.2f}: {t['luck']:+.2f} points of luck (scores count "
                     f"down: negative is good luck).")
    if t.get("score_unvalued"):
        lines.append(f"{_plural(t['score_unvalued'], 'hand')} with a score left out of the luck: the table does not "
                     f"value that choice (simulate to include them).")
    return lines


def _cards_html(text: str) -> str:
    """Card codes in a text as rank and suit symbol (hearts and diamonds red), the rest escaped."""
    symbols = {"S": ("\u2660", ""), "H": ("\u2665", "r"), "D": ("\u2666", "r"), "C": ("\u2663", "")}

    def card(match) -> str:
        suit, rank = match.group(1), match.group(2)
        symbol, red = symbols[suit]
        return f"<b class='{red}'>{'10' if rank == 'T' else rank}{symbol}</b>"

    return re.sub(r"\b([CDHS])([2-9TJQKA])\b", card, html.escape(text))


def write_html(result: Review, out: str | Path) -> Path:
    """A self-contained page of the review (no script, no outside file): works offline and on a phone."""
    t = result.totals()
    items = []
    for r in result.reviewed:
        g = r.grade
        colour = BAND_COLOURS.get(g.band, "#333")
        luck = "" if r.luck is None else f"; luck {r.luck:+.2f} (scored {r.entry.score:+g})"
        notes = f"<div class='note'>{_cards_html('; '.join(g.notes))}</div>" if g.notes else ""
        lost = "no points lost" if loss_text(g) == "0" else f"{html.escape(loss_text(g))} points lost"
        you = g.action + (", exchanged " + " ".join(format_card(c) for c in r.entry.decision.discard)
                          if r.entry.decision is not None and r.entry.decision.discard else "")
        items.append(
            f"<div class='d' style='border-color:{colour}'><div class='head'><span class='band' "
            f"style='background:{colour}'>{html.escape(g.band)}</span> <b>{lost}</b> <span class='note'>line "
            f"{r.entry.line}</span></div><div>{_cards_html(situation_text(r.entry))}</div>"
            f"<div>You: <b>{_cards_html(you)}</b>; best: <b>{_cards_html(g.best_text)}</b>{luck}</div>"
            f"<div class='why'>Why: {_cards_html(g.reason)}</div>{notes}</div>")
    bad = "".join(f"<li>{html.escape(b.text())}</li>" for b in result.bad)
    totals = "".join(f"<p>{html.escape(line)}</p>" for line in totals_lines(t))
    name = Path(result.path).name or "your hands"
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rumba review: {html.escape(name)}</title>
<style>
body{{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:820px;padding:12px;color:#1d2433;background:#f6f7fa}}
h1{{font-size:22px;margin:4px 0}} h2{{font-size:19px}}
.d{{background:#fff;border:1px solid #dde2ea;border-left:7px solid;border-radius:10px;padding:8px 10px;margin:10px 0}}
.d div{{margin:3px 0}} .head{{display:flex;gap:8px;align-items:center;flex-wrap:wrap}}
.band{{color:#fff;border-radius:6px;padding:1px 8px;white-space:nowrap;font-weight:600}}
.note{{color:#5f6b7a;font-size:14px}} .why{{color:#38414f}} .r{{color:#c62828}} .bad{{color:#b3261e}}
</style></head><body>
<h1>Review of {html.escape(name)}</h1>
{totals}
<p class="note">Points lost per hand against the best choice, with a 95% interval; scores count down like the score
sheet (negative is good). Bands: best below 0.05 points, inaccuracy below 0.25, mistake below 1, blunder 1 or more;
too close when the interval includes 0; mixed when the equilibrium plays both; "≥" a lower bound. The costliest
first. Simulations: seed {result.seed}.</p>
{''.join(items)}
{f'<h2>Lines not reviewed</h2><ul class="bad">{bad}</ul>' if bad else ''}
</body></html>
"""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return out


def write_parquet(result: Review, out: str | Path) -> Path:
    """The graded decisions as a Parquet table (one row a decision), for research."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    result.to_frame().to_parquet(out, index=False)
    return out


__all__ = ["FIELDS", "REQUIRED", "DEFAULT_SAMPLES", "BadLine", "Entry", "Review", "ReviewError", "Reviewed", "load",
           "parse_entry", "read_records", "review", "review_file", "write_html", "write_parquet", "totals_lines",
           "situation_text", "loss_text"]
