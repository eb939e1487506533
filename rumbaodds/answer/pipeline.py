"""One answer to "should I call Rumba?", the same wherever it is asked: the answer pipeline.

``rumbaodds ask``, the page and the JSON API of ``rumbaodds serve`` and the
Python API (:func:`ask`, :func:`answer`) all answer a
:class:`~.question.Question` through :func:`answer`, and serve it as
:func:`document`; so the command line and the page can never give different
numbers or different JSON. A question goes to the best source that answers it
to the precision asked:

1. a run of the player's own (``samples``, ``seed``, or ``simulate``): a simulation, exactly that run;
2. else a table that covers the situation (full tables under ``tables_root``, packed ones there, then the packed
   tables shipped in the package; :func:`rumbaodds.tables.find_answer`), when it answers everything asked:
   the recommendation resolved (the paired margin's 95% interval above 0), the exchange resolved where play is
   recommended, a value for every choice (a format-1 packed table keeps only the decision), and with
   ``precision`` every half-width below it;
3. what the table leaves open is *settled*: a bounded simulation of the very situation (adaptive stopping,
   :class:`rumbaodds.answer.stopping.Settled`, a few seconds at most; its seed derived from the table's and the
   question, :func:`settle_seed`, so the same question gets the same answer) whose deals are merged with the
   table's (each value the inverse-variance weighted mean of the two independent estimates; the exchange and the
   values the table lacks from the simulation alone), and the answer says so ("table + 12,000 simulated deals to
   settle the exchange");
4. no table: a simulation (by default until its answer is settled, :mod:`rumbaodds.answer.stopping`).

An exchange is named only where it is resolved; otherwise the answer says "too close to call between X and Y"
(:class:`rumbaodds.answer.results.ExchangeCall`). ``meta`` says where the numbers came from (``source`` in the JSON):
``kind`` table, simulation or table+simulation; for a table its file, cell (seat, trump rank, class) and deals;
for a simulation its deals and seed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from ..cardplay import DEFAULT_PLAY
from ..game import Choice
from ..stats import Estimate
from ..tables import find_answer
from . import simulation, stopping
from .question import Question
from .results import Accumulator, AskResult, ChoiceResult, ExchangeCall
from .situation import Situation

OPEN_TEXT = {"margin": "the recommendation", "exchange": "the exchange", "values": "the values the table lacks",
             "precision": "the precision asked"}


def lookup(root, situation: Situation, opponents, play: str) -> AskResult | None:
    """The first table that answers ``situation``, as an AskResult (or None): full tables under ``root``, then
    packed ones under ``root``, then the packed tables shipped in the package (rumbaodds.tables.find_answer)."""
    return find_answer(root, situation, opponents, play)


def ask(hand, trump, players: int, seat: int, rules="swiss", opponents=None, play=DEFAULT_PLAY,
        passes_in_a_row: int = 0, dealer_knocked: bool = False, before=None, samples: int | None = None,
        precision: float | None = None, seed: int | None = None, swapped_by: int | None = None,
        progress: Callable[[int, int], None] | None = None, device="cpu", tables=None) -> AskResult:
    """``simulation.ask``'s question through the pipeline: the shipped tables (and those under ``tables``) first,
    what they leave open simulated, else a simulation (:func:`answer`); ``result.meta`` says which."""
    question = Question.of(hand, trump, players, seat, rules, passes_in_a_row=passes_in_a_row,
                           dealer_knocked=dealer_knocked, before=before, swapped_by=swapped_by, opponents=opponents,
                           play=play, samples=samples, precision=precision, seed=seed, device=device)
    return answer(question, tables, progress=progress)


def from_table(question: Question, tables_root="tables", simulate: bool = False) -> AskResult | None:
    """The table's own answer when a table under ``tables_root`` (or shipped) covers ``question``, else None (what
    it leaves open is not settled here: :func:`answer` does that).

    A table answers only when the player asked for no run of his own (samples, precision, seed) and not
    ``simulate``.
    """
    if simulate or question.own_run:
        return None
    found = lookup(tables_root, question.situation, question.opponents, question.play)
    if found is not None:  # what a page may serve at once, while kernels compile, and settle later with answer()
        found.meta.setdefault("kind", "table")
        found.meta["open"] = open_parts(found)
    return found


def open_parts(result: AskResult, precision: float | None = None) -> list[str]:
    """What a table's answer leaves open of what the player asked (empty: the table answers it all)."""
    out = []
    if result.meta.get("missing"):
        out.append("values")
    if not result.resolved:
        out.append("margin")
    if result.recommendation == "play" and result.exchange is not None and not result.exchange.resolved:
        out.append("exchange")
    if precision is not None and max(c.ev.half_width for c in result.options.values()) >= precision:
        out.append("precision")
    return out


def answer(question: Question, tables_root="tables", simulate: bool = False,
           progress: Callable[[int, int], None] | None = None, settle_budget: float = stopping.SETTLE_BUDGET_S,
           guard: Callable[[], AbstractContextManager] | None = None) -> AskResult:
    """The answer to ``question`` from the best source (module docstring); ``meta`` says which.

    ``guard()``: a context entered around any simulation (a server's lock: a table lookup never waits for it).
    """
    guard = guard or nullcontext
    if simulate or question.samples is not None or question.seed is not None:
        with guard():
            return simulation.simulate(question, progress)
    found = lookup(tables_root, question.situation, question.opponents, question.play)
    if found is None:
        with guard():
            return simulation.simulate(question, progress)
    found.meta.setdefault("kind", "table")
    left = open_parts(found, question.precision)
    found.meta["open"] = left  # what the table alone leaves open (from_table's answer carries it too)
    if not left:
        return found
    with guard():
        if "precision" in left:  # finer than the table: a run of its own to that precision
            result = simulation.simulate(question, progress)
            result.meta["table_not_used"] = f"{found.meta['table']}: its half-widths are wider than the precision " \
                                            f"asked"
            return result
        say_the_table_while_compiling(found, question)
        return settle(found, question, left, progress, settle_budget)


def say_the_table_while_compiling(table: AskResult, question: Question) -> bool:
    """Say the table's own answer now when settling it must first compile the simulator (a fresh install's first
    question: half a minute on two cores): on stderr, on the compile line's logger, so that the player at the
    table has an answer in seconds and the settled one after. Returns whether it was said."""
    from ..engine.compiled import is_compiled, log
    from ..engine.hand import ask_batch

    if simulation.resolve_device(question.device).name != "cpu" or is_compiled(ask_batch):
        return False
    m = table.margin
    ahead = "" if m is None or table.runner_up is None else (
        f", ahead of {table.runner_up} by {m.mean:.2f} points per hand (95% interval {m.low:.2f} to {m.high:.2f})")
    log.info("while the simulator compiles, the table's answer (%s deals): %s%s; the settled answer follows",
             f"{table.samples:,}", table.recommendation, ahead)
    return True


def settle(table: AskResult, question: Question, left: list[str], progress=None,
           budget: float = stopping.SETTLE_BUDGET_S) -> AskResult:
    """Simulate ``question`` until what ``table`` left open is settled (or ``budget`` seconds), merged with it."""
    job = simulation.Job.of(question.situation, question.opponents, question.play)
    seed = settle_seed(table, question)
    acc = Accumulator(len(job.names), job.situation.players + 1)
    paired = paired_of(job, acc)

    def judge(sim: AskResult) -> bool:
        merged = merge(table, sim, paired)
        rule = settle_rule
        if not stopping.sure(merged.margin, rule.z):  # whatever was open: the merged decision must be sure
            return False
        if merged.recommendation == "play" and merged.exchange is not None and \
                not stopping.sure(merged.exchange.difference, rule.z):
            return False
        if "values" in left:
            lacking = [c.ev.half_width for name, c in merged.actions.items() if name in table.meta["missing"]]
            if lacking and max(lacking) > stopping.DEFAULT_PRECISION:
                return False
        return True

    settle_rule = stopping.Settled(first=stopping.SETTLE_FIRST_LOOK, budget=budget, judge=judge)
    acc, reason, _seconds = stopping.run(job, seed, simulation.resolve_device(question.device), settle_rule, progress,
                                         acc=acc, result_of=simulation.result_of)
    sim = simulation.result_of(job, seed, acc)
    merged = merge(table, sim, paired)
    what = [p for p in ("margin", "exchange", "values") if p in left or (p == "exchange" and
                                                                        merged.recommendation == "play")]
    what = [p for p in what if p != "exchange" or merged.exchange is not None]
    text = (f"table + {acc.n:,} simulated deals to settle "
            + " and ".join(OPEN_TEXT[p] for p in what))
    if reason == "time":
        text += f" (stopped at the {budget:g} s budget)"
    merged.meta = {**table.meta, "kind": "table+simulation", "settled": what, "text": text,
                   "simulation": {"deals": acc.n, "effective_deals": acc.effective_samples, "seed": seed,
                                  "stopped": reason}}
    return merged


def settle_seed(table: AskResult, question: Question) -> int:
    """The seed of the simulation that settles a table's answer: derived from the table's seed, its cell and the
    hand as asked, so the same question gets the same answer (on the command line and the page alike)."""
    s = question.situation
    text = f"settle:{table.meta.get('seed')}:{table.meta.get('cell')}:{s.hand}:{s.trump_card}:{s.seat}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & ((1 << 63) - 1)


def _pooled(a: Estimate, b: Estimate) -> Estimate:
    """The inverse-variance weighted mean of two independent estimates of one value, with its 95% interval."""
    va, vb = (a.half_width / 1.959963984540054) ** 2, (b.half_width / 1.959963984540054) ** 2
    if va <= 0 and vb <= 0:
        return b if b.samples >= a.samples else a
    if va <= 0 or vb <= 0:  # an exact value (pass is 0) stays exact
        return a if va <= 0 else b
    wa, wb = 1 / va, 1 / vb
    mean = (wa * a.mean + wb * b.mean) / (wa + wb)
    half = 1.959963984540054 * math.sqrt(1 / (wa + wb))
    return Estimate(mean, mean - half, mean + half, a.samples + b.samples)


def _pooled_share(a: Estimate, b: Estimate) -> Estimate:
    """Two independent Rumba success shares, pooled by their deals, with a Wilson interval over all of them."""
    n = a.samples + b.samples
    if n <= 0:
        return b
    hits = a.mean * a.samples + b.mean * b.samples
    return Estimate.of_proportion(hits, n) if float(hits).is_integer() else \
        Estimate.of_weighted_proportion(hits, n, n, n)


def paired_of(job: simulation.Job, acc: Accumulator) -> Callable[[str, str], Estimate]:
    """``paired(a, b)``: EV(a) - EV(b) on the simulation's own deals, for choices named as in its options."""

    def paired(a: str, b: str) -> Estimate:
        plans = {name: c for c, name in enumerate(job.names)}
        if Choice.NO_RUMBA in (a, b):
            plans[Choice.NO_RUMBA] = simulation.round_two_plan(job, acc)[0]
        return acc.difference(plans[a], plans[b])

    return paired


def merge(table: AskResult, sim: AskResult, paired: Callable[[str, str], Estimate]) -> AskResult:
    """The table's answer and a simulation of the same situation as one answer.

    Every choice the table values is pooled with the simulation's (independent deals); the others are the
    simulation's. The margin of the merged best and runner-up is the simulation's paired margin, pooled with the
    table's where the table's pair is the same; the exchange is the simulation's (the table keeps no paired
    difference of two exchanges) unless the table resolved it.
    """
    options: dict[str, ChoiceResult] = {}
    for name, c in sim.options.items():
        t = table.options.get(name)
        if t is None or name == Choice.NO_RUMBA:
            options[name] = c
            continue
        merged = ChoiceResult(name, _pooled(t.ev, c.ev), c.discard, c.p_success, c.outcomes, c.tricks, c.plan)
        if t.p_success is not None and c.p_success is not None:
            merged.p_success = _pooled_share(t.p_success, c.p_success)
        options[name] = merged
    actions = {}
    for name, c in options.items():
        action = Choice(name).action
        if action not in actions or c.ev.mean < actions[action][1].ev.mean:
            actions[action] = (name, c)
    kinds = sorted(actions, key=lambda a: actions[a][1].ev.mean)
    if sim.situation.rumba_first and Choice.NO_RUMBA in options:
        kinds = [a for a in kinds if a not in ("pass", "play")]
    best = kinds[0]
    runner = kinds[1] if len(kinds) > 1 else None
    margin = None
    if runner is not None:
        margin = paired(actions[runner][0], actions[best][0])
        if (table.recommendation, table.runner_up) == (best, runner) and table.margin is not None \
                and _same_play(table, actions, best, runner):
            margin = _pooled(table.margin, margin)
    exchange = sim.exchange
    if table.exchange is not None and table.exchange.resolved and sim.exchange is not None:
        exchange = ExchangeCall(table.exchange.best, sim.exchange.second, sim.exchange.difference, True)
    ess = (sim.effective_samples or sim.samples) + (table.effective_samples or table.samples)
    return AskResult(sim.situation, sim.opponents, sim.play, sim.seed, table.samples + sim.samples,
                     sim.tries_per_sample, options, best, runner, margin, effective_samples=ess, notes=sim.notes,
                     exchange=exchange)


def _same_play(table: AskResult, actions: dict, best: str, runner: str) -> bool:
    """Does the table's margin compare the same choices (for play: the same exchange) as the merged one?"""
    if "play" not in (best, runner):
        return True
    table_play = table.actions.get("play")
    return table_play is not None and table_play.name == actions["play"][0]


def knock_answer(trump, players: int, rules="swiss", opponents=None, play: str = DEFAULT_PLAY, samples=None,
                 precision=None, seed=None, inner_samples: int = 200, progress=None, tables_root="tables",
                 guard: Callable[[], AbstractContextManager] | None = None):
    """The dealer's knock question through the same pipeline: a table's knock values (full tables, or format-2
    packed ones) when one covers it and its difference is resolved, else :func:`rumbaodds.answer.simulation.knock`
    (inside ``guard()``, as :func:`answer`)."""
    from ..tables.build import KNOCK_INNER

    own = samples is not None or precision is not None or seed is not None or inner_samples != KNOCK_INNER
    found = None if own else knock_from_table(tables_root, trump, players, rules, opponents, play)
    if found is not None and found.resolved:
        return found
    with (guard or nullcontext)():
        result = simulation.knock(trump, players, rules, opponents, play, samples=samples, precision=precision,
                                seed=seed, inner_samples=inner_samples, progress=progress)
    if found is not None:
        result.meta["table_too_close"] = f"{found.meta['table']}: {found.margin.text()} from {found.samples:,} deals"
    return result


def knock_from_table(root, trump, players: int, rules, opponents, play: str):
    """The knock values of the first table that covers the question, as a KnockResult (source table), or None."""
    from ..cards import RANKS, parse_card
    from ..opponents.resolve import opponent_policy
    from ..rules import get_rules
    from ..tables.lookup import find_tables, load_table, manifest_matches, read_manifest
    from ..tables.pack import find_packed, knock_rows, load_packed

    rules_ = get_rules(rules)
    trump_card = parse_card(trump) if isinstance(trump, str) else int(trump)
    policy = opponent_policy(opponents, rules_, players)
    rank = trump_card % 16
    candidates = []
    for folder in find_tables(root) if root is not None else []:
        candidates.append((folder / "table.parquet", lambda f=folder: load_table(f).knock, "table"))
    for path in find_packed(root):
        candidates.append((path, lambda p=path: knock_rows(load_packed(p)), "packed table"))
    for path, rows_of, kind in candidates:
        try:
            manifest = read_manifest(path)
        except (OSError, KeyError, ValueError):
            continue
        if not manifest_matches(manifest, rules_, players, policy, play):
            continue
        rows = rows_of()
        if rows is None:
            continue
        records = rows.to_dict(orient="records") if hasattr(rows, "to_dict") else rows
        row = next((r for r in records if int(r["trump_rank"]) == rank), None)
        if row is None:
            continue
        n = int(row["samples"])
        est = lambda key: Estimate(float(row[key]), float(row[key + "_low"]), float(row[key + "_high"]), n)  # noqa
        p = float(row["p_success"])
        result = simulation.KnockResult(rules_, players, trump_card, policy, play, int(manifest["seed"]), n,
                                      int(row["inner_samples"]), est("ev_knock"), est("ev_no_knock"), est("gain"),
                                      Estimate.of_proportion(round(p * n), n), {}, None, "table")
        result.meta = {"kind": "table", "source": kind, "table": str(path), "trump_rank": RANKS[rank], "deals": n,
                       "seed": int(manifest["seed"])}
        return result
    return None


def document(result: AskResult) -> dict:
    """The ``--json`` document of an answer: ``to_dict()`` and its ``source`` (table, simulation or both)."""
    data = result.to_dict()
    data["source"] = source_of(result)
    return data


def source_of(result: AskResult) -> dict:
    """Where an answer's numbers came from: ``kind`` table|simulation|table+simulation, and the details."""
    meta = dict(result.meta)
    if "kind" not in meta:  # a result built elsewhere (an old caller): a table's meta has "table"
        meta["kind"] = "table" if "table" in meta else "simulation"
        if meta["kind"] == "simulation":
            meta.update(deals=result.samples, seed=result.seed, effective_deals=result.effective_samples)
    return meta


def source_lines(result: AskResult) -> list[str]:
    """Where the numbers came from, in words: a table's file and cell (and what was simulated to settle it), or
    the simulation's deals and seed."""
    meta = source_of(result)
    if meta["kind"] == "simulation":
        ess = meta.get("effective_deals")
        effective = f" (effective {ess:,.0f})" if ess is not None and ess < meta["deals"] - 0.5 else ""
        why = stopping.STOP_TEXT.get(meta.get("stopped"), "")
        search = meta.get("search")
        searched = "" if not search else (
            f"; every card by search: {search['decisions']:,} decisions with a choice, "
            f"{search['worlds_per_decision'] or 0:.1f} worlds each ({search['worlds_asked']} asked)")
        return [f"Simulated now: {meta['deals']:,} deals{effective}, seed {meta['seed']}"
                + (f"; stopped at {why}" if why else "") + searched + "."]
    if meta["kind"] == "table":
        packed = meta["source"] == "packed table"
        head = f"From the {meta['source']} {meta['table']} (no simulation run" + \
            (f"; {meta['deals']:,} deals, seed {meta['seed']}):" if packed else "):")
    else:
        sim = meta["simulation"]
        head = f"From the {meta['source']} {meta['table']} and {sim['deals']:,} deals simulated now (seed " \
               f"{sim['seed']}) to settle " + " and ".join(OPEN_TEXT[p] for p in meta["settled"]) + \
               (f", stopped at its {stopping.SETTLE_BUDGET_S:g} s budget" if sim["stopped"] == "time" else "") + ":"
    key = meta.get("cell_key")
    cell = f"  cell {meta['cell']}"
    if key:
        cell += (f": seat {key['seat']}, trump rank {key['trump_rank']}, class {key['class']} ({key['class_hand']} "
                 f"with trumps in {key.get('class_trump_suit', '?')})")
    lines = [head, cell + f", {meta['deals']:,} deals, seed {meta['seed']}"]
    group = meta.get("group")
    if group and not group["own_cell"]:
        lines.append("  a neighbour-group table: the cell of the hand's group (the same trumps and side cards from the "
                     "ten up, its low side cards spread evenly), moved by the group's offset model for where this "
                     "hand's low cards sit and widened by what the model leaves")
    return lines


def source_text(result: AskResult) -> str:
    """Where the numbers came from, in one line."""
    return " ".join(line.strip() for line in source_lines(result))


__all__ = ["Question", "ask", "answer", "document", "from_table", "lookup", "merge", "open_parts", "settle",
           "source_of", "source_text", "source_lines", "knock_answer", "knock_from_table"]
