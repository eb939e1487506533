"""Lines in words, one decision each, fitted to a table's frame and ordered by the points they save: a quick
table's card (its Rumba and pass lines per seat group, after the passes, the exchange, the knock) and the lines
beside a full table's rule card (after the passes, the knock, joining, the jack of trump turned).

Every line is a rule in words a player checks without adding anything up (trumps held, the highest trump,
side aces), found by an exhaustive search over a small family, scored by the points per hand it gives away
against the table's best choice in each cell (weighted mean of EV(line's choice) - EV(cell's best)):

- Rumba (and: join a Rumba, join a knock, Rumba with the jack of trump turned): "X when C1 or C2", a clause
  C = (at least ``a`` trumps, the highest ``b`` or better, at least ``u`` side aces); C2, when there is one,
  needs a side ace;
- pass: "pass with fewer than t trumps, or t below the b, and fewer than u side aces";
- exchange: "when you play, exchange your cards worth less than v" (keep values: side cards below the K 0,
  side K 1, trumps 10 and lower 2);
- knock: "knock when the turned card is r or higher".

Each line's **points saved** are the points per hand (where its decision arises) it saves against the best
one-word rule for the same decision (never / always), with a 95% interval; lines are listed by them. A line
is fitted per seat group and printed once when the groups agree. The search is scored on the table it is
fitted on.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..cards import RANKS
from . import precision as fmt
from .cells import PLAY, RUMBA, SIT, values
from .grids import Interval, mean_interval
from .shapes import rank_name

NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True)
class Clause:
    """At least ``a`` trumps, the highest of rank ``b`` or better, at least ``u`` side aces."""

    a: int
    b: int
    u: int = 0

    def holds(self, f) -> np.ndarray:
        return ((np.asarray(f["n_trumps"]) >= self.a) & (np.asarray(f["top_trump"]) >= self.b)
                & (np.asarray(f["side_aces"]) >= self.u))

    def text(self, lowest: int, top: int) -> str:
        """'a trump Q or higher', '3+ trumps headed by the K or higher', '2+ trumps and a side ace'."""
        high = self.b > lowest + self.a - 1  # not every holding of a trumps has its top this high
        name = rank_name(self.b)
        if self.a == 1:
            trumps = (f"the trump {name}" if self.b >= top else f"a trump {name} or higher") if high else "a trump"
        else:
            trumps = f"{self.a}+ trumps"
            if high:
                trumps += f" headed by the {name}" + ("" if self.b >= top else " or higher")
        if self.u:
            trumps += " and a side ace" if self.u == 1 else f" and {self.u} side aces"
        return trumps


@dataclass(frozen=True)
class TwoWayRule:
    """Take the action when any clause holds (no clause: never)."""

    clauses: tuple[Clause, ...] = ()

    def fires(self, f) -> np.ndarray:
        out = np.zeros(len(np.asarray(f["n_trumps"])), dtype=bool)
        for c in self.clauses:
            out |= c.holds(f)
        return out

    def text(self, lowest: int, top: int) -> str:
        if not self.clauses:
            return "never"
        return "with " + ", or ".join(c.text(lowest, top) for c in self.clauses)


def clause_family(rules, hand_size: int) -> tuple[list[Clause], list[Clause]]:
    ranks = [RANKS.index(r) for r in rules.ranks]
    first = [Clause(a, b) for a in range(1, hand_size + 1) for b in ranks if b >= ranks[0] + a - 1]
    second = [Clause(a, b, 1) for a in range(1, hand_size) for b in ranks if b >= ranks[0] + a - 1]
    return first, second


@dataclass(frozen=True)
class SitRule:
    """Sit out when (trumps < t, or t trumps below rank b) and side aces < u. t = 0: never."""

    t: int = 0
    b: int = -1
    u: int = 9

    def fires(self, f) -> np.ndarray:
        n, top = np.asarray(f["n_trumps"]), np.asarray(f["top_trump"])
        weak = (n < self.t) | ((n == self.t) & (top < self.b))
        return weak & (np.asarray(f["side_aces"]) < self.u)

    @property
    def never(self) -> bool:
        return self.t == 0 or self.u == 0

    def text(self, lowest: int, top: int) -> str:
        """'pass with no trump, or one trump below the Q, and no side ace'."""
        if self.never:
            return "never pass"
        word = NUMBER_WORDS.get(self.t, str(self.t))
        plural = "s" if self.t != 1 else ""
        if self.b > top:
            base = f"at most {word} trump{plural}" if self.t else "no trump"
        else:
            fewer = "no trump" if self.t == 1 else f"fewer than {self.t} trumps"
            base = fewer if self.b <= lowest else f"{fewer}, or {word} trump{plural} below the {rank_name(self.b)}"
        if self.u == 1:
            base += ", and no side ace"
        elif self.u == 2:
            base += ", and at most one side ace"
        elif self.u < 9:
            base += f", and fewer than {self.u} side aces"
        return "pass with " + base


def sit_family(rules, hand_size: int) -> list[SitRule]:
    ranks = [RANKS.index(r) for r in rules.ranks]
    out = [SitRule()]
    for t in range(1, min(hand_size, 3) + 1):
        for b in ranks + [ranks[-1] + 1]:
            for u in (1, 2, 9):
                out.append(SitRule(t, b, u))
    return out


# -- losses --------------------------------------------------------------------------------------------------
def losses(f: pd.DataFrame, scenario: str) -> dict[str, np.ndarray]:
    """Per cell: EV(action) - EV(cell's best) for sit out, play, Rumba (inf where barred)."""
    vals = {a: values(f, a, scenario)[0] for a in (SIT, PLAY, RUMBA)}
    best = np.minimum.reduce(list(vals.values()))
    return {a: v - best for a, v in vals.items()}


def _halves(f: pd.DataFrame, scenario: str) -> dict[str, np.ndarray]:
    return {a: values(f, a, scenario)[1] for a in (SIT, PLAY, RUMBA)}


def _keys(f: pd.DataFrame) -> np.ndarray:
    """Cells with equal (trumps, top trump, side aces) fall under the same rules: one group each."""
    return (f["n_trumps"].to_numpy() * 64 + (f["top_trump"].to_numpy() + 1) * 4 + np.minimum(f["side_aces"], 3)
            ).astype(np.int64)


@dataclass
class Line:
    """One line of the card: its words, the points it saves (interval), its agreement with the table."""

    decision: str  # rumba, sit, third, exchange, knock, join, join_knock, jack, lone
    text: str
    saved: Interval | None = None
    points_lost: float = math.nan
    agreement: float = math.nan
    where: str = ""  # when the decision arises, e.g. "per hand"
    seats: str = ""  # "" (every seat) or the seat group it is for
    detail: dict = field(default_factory=dict)

    def saved_text(self) -> str:
        if self.saved is None:
            return ""
        return fmt.cost(self.saved.mean, self.saved.low, self.saved.high, 2)


def _grouped_loss(f: pd.DataFrame, scenario: str):
    """Per (trumps, top, aces) group: weighted sums of the losses of each action (inf -> large)."""
    keys = _keys(f)
    uniq, inv = np.unique(keys, return_inverse=True)
    w = f["w"].to_numpy(float)
    loss = losses(f, scenario)
    sums = {}
    for a, lost in loss.items():
        finite = np.where(np.isfinite(lost), lost, 1e6)
        sums[a] = np.bincount(inv, w * finite, len(uniq))
    first = np.zeros(len(uniq), dtype=np.int64)
    first[inv[::-1]] = np.arange(len(inv))[::-1]  # a representative cell of each group
    reps = {col: f[col].to_numpy()[first] for col in ("n_trumps", "top_trump", "side_aces")}
    return reps, sums, w.sum()


def fit_main(f: pd.DataFrame, rules, scenario: str = "normal", rumba: TwoWayRule | None = None):
    """(Rumba rule, sit rule, points lost per hand) with the fewest points lost; ``rumba`` fixed when given."""
    reps, sums, total = _grouped_loss(f, scenario)
    first, second = clause_family(rules, rules.hand_size)
    if rumba is not None:
        candidates = [rumba]
    else:
        candidates = [TwoWayRule()] + [TwoWayRule((c,)) for c in first] + \
            [TwoWayRule((c1, c2)) for c1, c2 in itertools.product(first, second) if c2.a < c1.a]
    sits = sit_family(rules, rules.hand_size)
    fire = np.stack([r.fires(reps) for r in candidates], axis=1).astype(float)  # groups x R
    sit = np.stack([s.fires(reps) for s in sits], axis=0).astype(float)  # S x groups
    base = sums[RUMBA] @ fire + sums[PLAY] @ (1 - fire)  # R
    extra = (sit * (sums[SIT] - sums[PLAY])[None, :]) @ (1 - fire)  # S x R
    loss = (base[None, :] + extra) / total
    s_i, r_i = np.unravel_index(np.argmin(np.round(loss, 9), axis=None), loss.shape)  # ties: simplest first
    return candidates[int(r_i)], sits[int(s_i)], float(loss[s_i, r_i])


def card_choice(f: pd.DataFrame, rumba: TwoWayRule, sit: SitRule, scenario: str) -> np.ndarray:
    can_sit = np.isfinite(values(f, SIT, scenario)[0])
    return np.where(rumba.fires(f), RUMBA, np.where(sit.fires(f) & can_sit, SIT, PLAY))


def choice_values(f: pd.DataFrame, choice: np.ndarray, scenario: str) -> tuple[np.ndarray, np.ndarray]:
    v = {a: values(f, a, scenario) for a in (SIT, PLAY, RUMBA)}
    val = np.select([choice == RUMBA, choice == SIT], [v[RUMBA][0], v[SIT][0]], v[PLAY][0])
    half = np.select([choice == RUMBA, choice == SIT], [v[RUMBA][1], v[SIT][1]], v[PLAY][1])
    return val, half


def saving(f: pd.DataFrame, base_choice, card_choice_, scenario: str, quick: bool) -> Interval:
    """Points per hand the card's choices save against ``base_choice`` (interval over the cells)."""
    vb, hb = choice_values(f, base_choice, scenario)
    vc, hc = choice_values(f, card_choice_, scenario)
    d = vb - vc
    h = np.where(base_choice == card_choice_, 0.0, np.hypot(hb, hc))
    return mean_interval(d, h, f["w"].to_numpy(float), quick)


def agreement(f: pd.DataFrame, choice: np.ndarray, scenario: str) -> float:
    best = f["best_third" if scenario == "third" else "best"].to_numpy()
    w = f["w"].to_numpy(float)
    return float((w * (choice == best)).sum() / w.sum())


def points_lost(f: pd.DataFrame, choice: np.ndarray, scenario: str) -> float:
    loss = losses(f, scenario)
    val = np.select([choice == RUMBA, choice == SIT], [loss[RUMBA], loss[SIT]], loss[PLAY])
    w = f["w"].to_numpy(float)
    return float((w * val).sum() / w.sum())


@dataclass
class SeatFit:
    seats: tuple[int, ...]
    title: str
    rumba: TwoWayRule
    sit: SitRule
    frame: pd.DataFrame


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def lowest_rank(rules) -> int:
    return RANKS.index(rules.ranks[0])


def _split_pays(parts: list[pd.DataFrame], pooled: list[np.ndarray], own: list[np.ndarray], scenario: str,
                quick: bool) -> bool:
    """Do seat-group rules save points against one rule for every seat, beyond the noise?"""
    f = pd.concat(parts)
    a, b = np.concatenate(pooled), np.concatenate(own)
    va, ha = choice_values(f, a, scenario)
    vb, hb = choice_values(f, b, scenario)
    iv = mean_interval(va - vb, np.where(a == b, 0.0, np.hypot(ha, hb)), f["w"].to_numpy(float), quick)
    return bool(np.isfinite(iv.low) and iv.low > 0)


def main_lines(frame: pd.DataFrame, rules, groups: list[tuple[tuple[int, ...], str]], quick: bool,
               scenario: str = "normal") -> tuple[list[Line], list[SeatFit]]:
    """The Rumba and sit-out lines: one rule for every seat, or one per seat group where that saves points
    beyond the noise (groups with the same words share a line)."""
    low, top = lowest_rank(rules), RANKS.index(rules.ranks[-1])
    parts = [(seats, title, frame[frame["seat"].isin(seats) & ~frame["jack"].to_numpy(bool)])
             for seats, title in groups]
    parts = [p for p in parts if not p[2].empty]
    if not parts:
        return [], []
    everyone = pd.concat([p[2] for p in parts])
    r0, s0, _ = fit_main(everyone, rules, scenario)
    own = [fit_main(f, rules, scenario) for _, _, f in parts]
    frames = [f for _, _, f in parts]
    split_r = len(parts) > 1 and _split_pays(frames, [card_choice(f, r0, s0, scenario) for f in frames],
                                             [card_choice(f, o[0], s0, scenario) for f, o in zip(frames, own)],
                                             scenario, quick)
    rumbas = [o[0] if split_r else r0 for o in own]
    if split_r:  # refit each group's sit-out rule with its Rumba rule, else keep the common one
        own = [fit_main(f, rules, scenario, rumba=r) for f, r in zip(frames, rumbas)]
    split_s = len(parts) > 1 and _split_pays(frames, [card_choice(f, r, s0, scenario) for f, r in zip(frames, rumbas)],
                                             [card_choice(f, r, o[1], scenario) for f, r, o in
                                              zip(frames, rumbas, own)], scenario, quick)
    sits = [o[1] if split_s else s0 for o in own]
    fits = [SeatFit(seats, title, r, s, f) for (seats, title, f), r, s in zip(parts, rumbas, sits)]
    lines = []
    for decision in ("rumba", "sit"):
        words = [fit.rumba.text(low, top) if decision == "rumba" else fit.sit.text(low, top) for fit in fits]
        for text in dict.fromkeys(words):
            chunk = [fit for fit, w in zip(fits, words) if w == text]
            f = pd.concat([c.frame for c in chunk])
            choice = np.concatenate([card_choice(c.frame, c.rumba, c.sit, scenario) for c in chunk])
            if decision == "rumba":
                base = np.concatenate([card_choice(c.frame, TwoWayRule(), c.sit, scenario) for c in chunk])
                line_text = "Call Rumba " + text + "." if chunk[0].rumba.clauses else "Never call Rumba."
            else:
                always_play = np.concatenate([card_choice(c.frame, c.rumba, SitRule(), scenario) for c in chunk])
                always_sit = np.concatenate([card_choice(c.frame, c.rumba, SitRule(9, 99, 9), scenario)
                                             for c in chunk])
                base = min((always_play, always_sit), key=lambda c: points_lost(f, c, scenario))
                line_text = "Never pass: play (or call Rumba)." if chunk[0].sit.never else \
                    _cap(text) + "; otherwise play."
            seats = "" if len(chunk) == len(fits) else ", ".join(c.title for c in chunk)
            lines.append(Line(decision, line_text, saving(f, base, choice, scenario, quick),
                              points_lost(f, choice, scenario), agreement(f, choice, scenario), "per hand", seats))
    return lines, fits


def third_line(frame: pd.DataFrame, rules, fits: list[SeatFit], quick: bool) -> Line | None:
    """Swiss: the pass that reaches the sit-out limit costs the penalty; refit the sit-out line there."""
    if rules.sit_out_limit <= 0 or not fits:
        return None
    f = pd.concat([fit.frame for fit in fits])
    usual = np.concatenate([card_choice(fit.frame, fit.rumba, fit.sit, "third") for fit in fits])
    rumba = fits[0].rumba
    _, sit3, _ = fit_main(f, rules, "third", rumba=rumba)
    choice = np.concatenate([card_choice(fit.frame, fit.rumba, sit3, "third") for fit in fits])
    low, top = lowest_rank(rules), RANKS.index(rules.ranks[-1])
    n = rules.sit_out_limit - 1
    head = f"After {n} passes in a row (the next costs {rules.sit_out_penalty}): "
    text = head + ("always play" if sit3.never else sit3.text(low, top)) + \
        ("; throw in instead where you may (all cards below the " + rank_name(RANKS.index(rules.throw_in_below))
         + ")." if rules.throw_in else ".")
    return Line("third", text, saving(f, usual, choice, "third", quick), points_lost(f, choice, "third"),
                agreement(f, choice, "third"), f"per hand after {n} passes", "",
                {"usual_lost": points_lost(f, usual, "third")})


# -- exchange ---------------------------------------------------------------------------------------------------
def discard_count(f: pd.DataFrame, below: int, limit: int) -> np.ndarray:
    """Cards with keep value below ``below`` (1: side cards under the K; 2: also side K; 3: also trumps <= 10)."""
    count = f["zero_cards"].to_numpy().copy()
    if below >= 2:
        count += f["side_kings"].to_numpy()
    if below >= 3:
        count += f["low_trumps"].to_numpy()
    return np.minimum(count, limit)


EXCHANGE_WORDS = {1: "your side cards below the king", 2: "your side cards below the ace",
                  3: "every card but the side aces and your trumps J and higher"}


def exchange_line(f: pd.DataFrame, rules, quick: bool) -> Line | None:
    """Among the hands where playing is best: which exchange rule loses least against the best count."""
    f = f[f["best"] == PLAY]
    ks = [int(c[6:]) for c in f.columns if c.startswith("v_play") and c[6:].isdigit()]
    if f.empty or len(ks) < 2:
        return None
    plays = np.stack([f[f"v_play{k}"].to_numpy(float) for k in ks], axis=1)
    halves = np.stack([f[f"h_play{k}"].to_numpy(float) for k in ks], axis=1)
    best = plays.min(axis=1)
    w = f["w"].to_numpy(float)
    rows = np.arange(len(f))

    def lost(k_vec):
        return float((w * (plays[rows, k_vec] - best)).sum() / w.sum())

    const = min(ks, key=lambda k: (lost(np.full(len(f), k)), k))
    rules_ = {v: discard_count(f, v, max(ks)) for v in (1, 2, 3)}
    v_best = min(rules_, key=lambda v: (lost(rules_[v]), v))
    k_rule = rules_[v_best]
    base = np.full(len(f), const)
    d = plays[rows, base] - plays[rows, k_rule]
    h = np.where(base == k_rule, 0.0, np.hypot(halves[rows, base], halves[rows, k_rule]))
    saved = mean_interval(d, h, w, quick)
    agree = float((w * (k_rule == f["best_k"].to_numpy())).sum() / w.sum())
    text = f"When you play, exchange {EXCHANGE_WORDS[v_best]} (up to {max(ks)} cards)."
    return Line("exchange", text, saved, lost(k_rule), agree, "per hand you play", "",
                {"constant": const, "constant_lost": lost(base)})


# -- knock -------------------------------------------------------------------------------------------------------
def knock_line(knock: pd.DataFrame) -> Line | None:
    """Knock when the turned card ranks at least r (ranks equally likely): fewest points lost, vs never/always."""
    if knock is None or knock.empty:
        return None
    k = knock.sort_values("trump_rank")
    ranks = k["trump_rank"].to_numpy()
    ek, en = k["ev_knock"].to_numpy(float), k["ev_no_knock"].to_numpy(float)
    half = (k["gain_high"].to_numpy(float) - k["gain_low"].to_numpy(float)) / 2
    best = np.minimum(ek, en)

    def value(knocks):
        return np.where(knocks, ek, en)

    options = [(None, np.zeros(len(ranks), bool))] + [(int(r), ranks >= r) for r in ranks[::-1]]
    r_best, kn = min(options, key=lambda o: round(float((value(o[1]) - best).mean()), 9))
    never, always = np.zeros(len(ranks), bool), np.ones(len(ranks), bool)
    base = min((never, always), key=lambda o: float((value(o) - best).mean()))
    d = value(base) - value(kn)
    h = np.where(base == kn, 0.0, half)
    saved = Interval(float(d.mean()), float(d.mean() - math.sqrt((h ** 2).sum()) / len(d)),
                     float(d.mean() + math.sqrt((h ** 2).sum()) / len(d)))
    text = "Dealer: never knock." if r_best is None else \
        f"Dealer: knock (before looking) when the turned card is {rank_name(r_best)} or higher."
    agree = float(((kn) == (ek < en)).mean())
    return Line("knock", text, saved, float((value(kn) - best).mean()), agree, "per hand you deal", "",
                {"from_rank": r_best})


# -- a two-way decision measured on sampled hands (join, jack turned) -------------------------------------------
def fit_two_way(f: pd.DataFrame, rules, yes: str, no: str, value: dict[str, np.ndarray], quick: bool = True
                ) -> tuple[TwoWayRule, Interval, float, float]:
    """Take ``yes`` when the rule fires, else ``no``: the rule with the fewest points lost; its saving against
    the better of always / never, its points lost and agreement. ``value[a]`` = per-hand value of action a."""
    first, second = clause_family(rules, rules.hand_size)
    candidates = [TwoWayRule()] + [TwoWayRule((c,)) for c in first] + \
        [TwoWayRule((c1, c2)) for c1, c2 in itertools.product(first, second) if c2.a < c1.a]
    w = f["w"].to_numpy(float)
    vy, vn = value[yes], value[no]
    best = np.minimum(vy, vn)

    def lost(fire):
        return float((w * (np.where(fire, vy, vn) - best)).sum() / w.sum())

    fires = [r.fires(f) for r in candidates]
    i = min(range(len(candidates)), key=lambda j: (round(lost(fires[j]), 9), j))
    fire = fires[i]
    always, never = np.ones(len(f), bool), np.zeros(len(f), bool)
    base = min((never, always), key=lost)
    d = np.where(base, vy, vn) - np.where(fire, vy, vn)
    h = value.get("half", np.zeros(len(f)))
    saved = mean_interval(d, np.where(base == fire, 0.0, h), w, quick)
    agree = float((w * (fire == (vy < vn))).sum() / w.sum())
    return candidates[i], saved, lost(fire), agree


__all__ = ["Clause", "Line", "SitRule", "TwoWayRule", "card_choice", "exchange_line", "fit_main", "fit_two_way",
           "knock_line", "losses", "main_lines", "third_line"]
