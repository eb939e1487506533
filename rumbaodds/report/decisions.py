"""Decisions the tables do not hold, measured with ``answer.simulation.ask`` on a sample of hands.

Tables answer the first word with nothing known of the earlier seats. After earlier words (a Rumba call, a
knock, passes or plays, an earlier swap of the two of trump) the report asks ``answer.simulation.ask(..., before=...)``
for a stratified sample of hands: the (trump rank, class) pairs are drawn by how often they occur, then up to
``Budget.ask_hands`` per box of the small grid (shapes.py), each asked with ``Budget.ask_samples`` deals and
its own seed. A box's value is the mean over its hands, with a t interval over them; each hand stands for
its box's share of all hands (``w``), so fitted rules weigh boxes by how often they occur.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..cards import cards_of
from ..rules import RulesError, RuleSet
from ..tables.handclasses import enumerate_trump_rank_pairs
from . import shapes
from .cells import JOIN, PLAY, RUMBA, SIT
from .grids import Box, Grid, mean_interval
from .sources import Budget

POOL_DRAWS = 200_000  # weighted draws of (trump rank, class) pairs the boxes are filled from
# per box, hands asked in place of those a scenario rules out (after seat 0 swapped the two of trump, a hand holding
# the turned card's rank cannot be dealt): a box keeps its hands, so that it can state its choice
SPARES = 12


@dataclass(frozen=True)
class Scenario:
    """One situation after earlier words, asked at one seat."""

    key: str
    title: str
    question: str
    players: int
    seat: int
    before: str | None = None
    dealer_knocked: bool = False
    swapped_by: int | None = None
    two_way: bool = False  # join or pass (after a Rumba call or a knock)

    def ask_kwargs(self) -> dict:
        return {"before": self.before, "dealer_knocked": self.dealer_knocked, "swapped_by": self.swapped_by}

    def command(self, rules_arg: str, example: str, trump: str) -> str:
        parts = [f"rumbaodds ask \"{example}\" --trump {trump} --players {self.players} --seat {self.seat}",
                 f"--rules {rules_arg}"]
        if self.before:
            parts.append(f"--before {self.before}")
        if self.dealer_knocked:
            parts.append("--dealer-knocked")
        if self.swapped_by is not None:
            parts.append(f"--swapped-by {self.swapped_by}")
        return " ".join(parts)


def scenarios(rules: RuleSet, players: int) -> list[Scenario]:
    """The earlier-word situations worth a chart for this rule set at ``players`` (the usual table)."""
    out = []
    mid = min(2, players - 1)
    if rules.others_after_rumba == "choose" and players >= 3 and rules.speaking_order == "one-round":
        before = ",".join(["rumba"] + ["-"] * (mid - 1))
        out.append(Scenario("join_rumba", "Seat 0 called Rumba: join or pass?",
                            f"You speak at seat {mid} of {players}; seat 0 called Rumba.", players, mid, before,
                            two_way=True))
    if rules.knock and players >= 3:
        out.append(Scenario("join_knock", "The dealer knocked: join or pass?",
                            f"You speak at seat 1 of {players}; the dealer knocked (a blind Rumba).", players, 1,
                            dealer_knocked=True, two_way=True))
    if mid >= 1 and rules.speaking_order == "one-round":
        passes = ",".join(["pass"] * mid)
        plays = ",".join(["play"] * mid)
        out.append(Scenario("after_passes", f"After {mid} passes", f"Seat {mid} of {players}; everybody before you "
                            f"passed.", players, mid, passes))
        out.append(Scenario("after_plays", f"After {mid} plays", f"Seat {mid} of {players}; everybody before you "
                            f"said play.", players, mid, plays))
    if rules.two_of_trump_swap and mid >= 1:
        out.append(Scenario("after_swap", "Seat 0 swapped the two of trump",
                            f"Seat {mid} of {players}; seat 0 took the turned card for the two of trump (the two "
                            f"now lies face up).", players, mid, swapped_by=0))
    return out


# -- the hand sample ------------------------------------------------------------------------------------------
@dataclass
class HandSample:
    """Sampled hands: one row per hand, its small box, weight share and (trump rank, class row)."""

    frame: pd.DataFrame
    trump_suit: int


def sample_hands(rules: RuleSet, per_box: int, seed: int, spares: int = SPARES) -> HandSample:
    """Up to ``per_box`` hands per small-grid box, drawn by frequency within the box (see the module docstring), and
    up to ``spares`` more per box (``spare``), asked in place of hands a scenario rules out."""
    pairs = enumerate_trump_rank_pairs(rules)
    rng = np.random.default_rng(seed)
    p = pairs.weights / pairs.weights.sum()
    draws = rng.choice(len(pairs), size=POOL_DRAWS, p=p)
    ranks = pairs.trump_ranks[draws]
    hands = pairs.classes.hands[pairs.class_rows[draws]]
    feats = shapes.features(hands, ranks, rules)
    f = pd.DataFrame({"pair": draws, "trump_rank": ranks, "class_row": pairs.class_rows[draws], "hand": hands,
                      "srow": shapes.small_row_labels(feats, rules), "scol": shapes.small_column_labels(feats, rules),
                      "n_trumps": feats.n_trumps, "top_trump": feats.top_trump, "side_aces": feats.side_aces,
                      "side_kings": feats.side_kings, "swapped": feats.swapped})
    if rules.jack_of_trump_forces_play:  # the jack of trump turned: everybody plays, a rule of its own
        from ..cards import RANKS

        f = f[f["trump_rank"] != RANKS.index("J")]
    share = f.groupby(["srow", "scol"]).size() / len(f)  # each box's share of all hands (jack turned aside)
    picked, extra = [], []
    for (r, c), group in f.groupby(["srow", "scol"], sort=True):
        take = group.iloc[: per_box]  # the draws are already in random order
        w = float(share[(r, c)]) / len(take)
        picked.append(take.assign(w=w, spare=False))
        extra.append(group.iloc[per_box: per_box + spares].assign(w=w, spare=True))
    # the spares after every box's hands: the hands' rows (and so their seeds) do not depend on the spares
    out = pd.concat(picked + extra).reset_index(drop=True)
    return HandSample(out, pairs.classes.trump_suit)


# -- asking --------------------------------------------------------------------------------------------------
KIND = {"pass": SIT, "throw-in": SIT, "play": PLAY, "rumba": RUMBA}


@dataclass
class Measured:
    scenario: Scenario
    frame: pd.DataFrame  # per hand: w, boxes, features, v_/h_ per action, best
    actions: tuple[str, ...]
    samples: int
    skipped: int = 0
    notes: list[str] = field(default_factory=list)


def _cache_key(scenario: Scenario, sample: HandSample, rules: RuleSet, opponents: str, budget: Budget) -> str:
    """What the answers of :func:`measure` depend on: the code's numbers version, the rules, the opponents' policy,
    the situation, the hands and the budget."""
    import hashlib
    import json

    from ..engine import NUMBERS_TAG
    from ..opponents.resolve import opponent_policy

    digest = opponent_policy(opponents, rules, scenario.players).to_dict()["digest"]
    doc = {"numbers": NUMBERS_TAG, "rules": rules.to_dict(), "opponents": digest, "play": budget.play,
           "scenario": [scenario.players, scenario.seat, scenario.before, scenario.dealer_knocked,
                        scenario.swapped_by], "samples": budget.ask_samples, "seed": budget.seed,
           "hands": hashlib.sha256(sample.frame[["trump_rank", "hand"]].to_numpy().tobytes()).hexdigest()}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:24]


def measure(scenario: Scenario, sample: HandSample, rules: RuleSet, opponents: str, budget: Budget,
            say: Callable[[str], None] = lambda s: None, cache: Path | None = None) -> Measured:
    """``ask`` every sampled hand in ``scenario`` (hands the situation rules out are skipped and counted).

    With ``cache`` (a folder), the answers are kept there under a key of everything they depend on, and read
    back next time instead of asked again."""
    f = sample.frame
    path = None if cache is None else \
        Path(cache) / f"asked-{scenario.key}-{_cache_key(scenario, sample, rules, opponents, budget)}.json"
    if path is not None and path.exists():
        doc = json.loads(path.read_text(encoding="utf-8"))
        values = pd.DataFrame(doc["rows"])
        say(f"  {scenario.key}: {len(values)} hands, answers read from {path}")
        return _measured(scenario, f, values, budget, doc["skipped"], set(doc["notes"]))
    rows, skipped, notes = _ask_all(scenario, sample, rules, opponents, budget)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"rows": rows, "skipped": skipped, "notes": sorted(notes)}), encoding="utf-8")
        tmp.replace(path)
    m = _measured(scenario, f, pd.DataFrame(rows), budget, skipped, notes)
    say(f"  {scenario.key}: {len(m.frame)} hands x {budget.ask_samples} deals" + (f", {skipped} skipped" if skipped
                                                                                    else ""))
    return m


def _ask_all(scenario: Scenario, sample: HandSample, rules: RuleSet, opponents: str, budget: Budget
             ) -> tuple[list[dict], int, set[str]]:
    from ..answer.simulation import ask

    rows = []
    skipped = 0
    notes: set[str] = set()
    f = sample.frame
    spare = f["spare"].to_numpy(bool) if "spare" in f else np.zeros(len(f), dtype=bool)
    spares: dict[tuple, list[int]] = {}
    for j in np.flatnonzero(spare):
        spares.setdefault((f["srow"].iat[j], f["scol"].iat[j]), []).append(int(j))

    def asked(i: int):
        r = f.iloc[i]
        try:
            return ask(cards_of(int(r["hand"])), sample.trump_suit * 16 + int(r["trump_rank"]), scenario.players,
                       scenario.seat, rules, opponents, budget.play, samples=budget.ask_samples,
                       seed=budget.seed + 7919 * i, **scenario.ask_kwargs())
        except (RulesError, ValueError):  # the scenario rules this hand out
            return None

    for i in np.flatnonzero(~spare):
        i = int(i)
        result = asked(i)
        box = spares.get((f["srow"].iat[i], f["scol"].iat[i]), [])
        while result is None and box:  # a spare of the same box in its place
            i = box.pop(0)
            result = asked(i)
        if result is None:
            skipped += 1
            continue
        notes.update(result.notes)
        row = {"i": i, "best": KIND.get(result.recommendation, result.recommendation)}
        for name, choice in result.actions.items():
            kind = KIND.get(name)
            if kind is None:
                continue
            if kind == SIT and f"v_{SIT}" in row and row[f"v_{SIT}"] <= choice.ev.mean:
                continue  # pass and throw-in are both sitting out: keep the better
            row[f"v_{kind}"] = float(choice.ev.mean)
            row[f"h_{kind}"] = float(choice.ev.half_width)
        rows.append(row)
    return rows, skipped, notes


def _measured(scenario: Scenario, f: pd.DataFrame, values: pd.DataFrame, budget: Budget, skipped: int,
              notes: set[str]) -> Measured:
    frame = f.iloc[values["i"].to_numpy()].reset_index(drop=True) if len(values) else f.iloc[:0]
    frame = pd.concat([frame, values.drop(columns=["i"]).reset_index(drop=True)], axis=1) if len(values) else frame
    actions = tuple(a for a in (SIT, PLAY, RUMBA) if f"v_{a}" in frame and frame[f"v_{a}"].notna().any())
    return Measured(scenario, frame, actions, budget.ask_samples, skipped, sorted(notes))


def measured_grid(m: Measured, rules: RuleSet) -> Grid:
    """The small grid of a measured scenario (join / pass for the two-way ones)."""
    f = m.frame
    boxes = {}
    names = {SIT: SIT, PLAY: JOIN if m.scenario.two_way else PLAY, RUMBA: RUMBA}
    for (r, c), g in f.groupby(["srow", "scol"], sort=False):
        box = Box(r, c, len(g), len(g) * m.samples, float(g["w"].sum()))
        w = g["w"].to_numpy(float)
        vals = {}
        for a in m.actions:
            if g[f"v_{a}"].isna().any():  # not open to every hand of the box
                continue
            vals[names[a]] = (g[f"v_{a}"].to_numpy(float), g[f"h_{a}"].to_numpy(float))
            box.values[names[a]] = mean_interval(*vals[names[a]], w, True)
        order = sorted(vals, key=lambda a: (box.values[a].mean, list(vals).index(a)))
        box.best = order[0]
        own = np.array([names.get(x, x) for x in g["best"]])
        box.agree = float((w * (own == box.best)).sum() / w.sum())
        if len(order) > 1:
            box.runner = order[1]
            d = vals[box.runner][0] - vals[box.best][0]
            box.margin = mean_interval(d, np.hypot(vals[box.runner][1], vals[box.best][1]), w, True)
        boxes[(r, c)] = box
    actions = tuple(names[a] for a in m.actions)
    return Grid(m.scenario.title, shapes.small_rows(rules), shapes.small_columns(rules), actions, boxes,
                (m.scenario.seat,), m.scenario.key, True, m.scenario.question)


def example_hand(m: Measured, sample: HandSample) -> tuple[str, str] | None:
    """A hand of the sample (as text) and its trump card, for the page's reproduce command."""
    from ..cards import format_card

    if m.frame.empty:
        return None
    r = m.frame.iloc[0]
    cards = " ".join(format_card(c) for c in cards_of(int(r["hand"])))
    return cards, format_card(sample.trump_suit * 16 + int(r["trump_rank"]))


def lone_dealer(rules: RuleSet, players: int, opponents: str, budget: Budget) -> dict | None:
    """Flemish: the dealer who heard everybody pass may not call Rumba (§5.5); his play scores
    ``lone_player_score`` without trick play [D-7]. Checked with ``ask`` on one hand."""
    from ..answer.simulation import ask

    if rules.lone_rumba_allowed or rules.speaking_order != "one-round" or players < 2:
        return None
    before = ",".join(["pass"] * (players - 1))
    hand = "C3 D4 H5 S6 C7" if rules.hand_size == 5 and "3" in rules.ranks else None
    if hand is None:
        return None
    trump = f"{rules.suits[-1]}{rules.ranks[len(rules.ranks) // 2]}"
    result = ask(hand, trump, players, players - 1, rules, opponents, budget.play, before=before,
                 samples=budget.ask_samples, seed=budget.seed)
    play = result.actions.get("play")
    return {"before": before, "hand": hand, "trump": trump, "players": players,
            "choices": sorted(result.actions), "play": None if play is None else play.ev.mean,
            "play_half": None if play is None else play.ev.half_width, "recommendation": result.recommendation,
            "samples": result.samples}


def two_way_value(m: Measured, yes: str = PLAY, no: str = SIT) -> dict[str, np.ndarray]:
    f = m.frame
    return {yes: f[f"v_{yes}"].to_numpy(float), no: f[f"v_{no}"].to_numpy(float),
            "half": np.hypot(f[f"h_{yes}"].to_numpy(float), f[f"h_{no}"].to_numpy(float))}


def moved_share(a: Grid, b: Grid) -> float:
    """Weighted share of hands (by ``a``'s boxes) whose box has another best action in ``b``."""
    total = moved = 0.0
    for key, box in a.boxes.items():
        other = b.box(*key)
        if box.empty or other.empty:
            continue
        total += box.weight
        if box.best != other.best:
            moved += box.weight
    return moved / total if total else math.nan


__all__ = ["HandSample", "Measured", "Scenario", "example_hand", "lone_dealer", "measure", "measured_grid",
           "moved_share", "sample_hands", "scenarios", "two_way_value"]
