"""The hand analyzer's Python API: ``ask`` (should I call Rumba?) and ``knock``.

The command line is a thin layer over these functions. Each result carries
its seed, its sample count and a 95% interval for every figure, and turns into
a pandas DataFrame. Scores keep the score sheet's sign: they count down, so a
negative expected change is good and the best choice has the lowest one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .cards import RANKS, CardError, format_card, mask_of, parse_card, parse_hand
from .engine import hand as kernel
from .models import OpponentModel, get_model
from .rules import RulesError, RuleSet, get_rules
from .stats import Estimate

POLICIES = {"greedy": kernel.POLICY_GREEDY, "expert": kernel.POLICY_EXPERT}
WORDS = {"pass": kernel.W_PASS, "play": kernel.W_PLAY, "rumba": kernel.W_RUMBA, "-": kernel.W_NONE}
SCORE_SIGN = "scores count down like the score sheet: negative is good, the lowest expected change is best"
BATCH = 50_000
MAX_SAMPLES = 20_000_000


@dataclass(frozen=True)
class Situation:
    """What the asking player knows at his turn to speak."""

    rules: RuleSet
    players: int
    seat: int
    hand: tuple[int, ...]
    trump_card: int
    passes_in_a_row: int = 0
    dealer_knocked: bool = False
    before: tuple[str, ...] = ()

    @property
    def trump(self) -> int:
        return self.trump_card // 16

    @property
    def rumba_called_before(self) -> bool:
        return "rumba" in self.before

    def choices(self) -> list[str]:
        """Choice names open to the hero: pass, play0..playK, rumba, throw-in."""
        rules = self.rules
        jack_forced = rules.jack_of_trump_forces_play and self.trump_card % 16 == RANKS.index("J")
        must_play = jack_forced or (self.rumba_called_before and rules.others_after_rumba == "must-play")
        names = [] if must_play else ["pass"]
        if self.dealer_knocked:
            return names + ["play0"]
        if self.rumba_called_before:
            names.append("play0")
        else:
            names += [f"play{k}" for k in range(rules.exchange_limit + 1)]
            names.append("rumba")
        # throw-in: at his turn, unless the dealer knocked [D-4]; after a Rumba call where the rules say so
        low = all(c % 16 < RANKS.index(rules.throw_in_below) for c in self.hand)
        if rules.throw_in and low and (not self.rumba_called_before or rules.throw_in_after_rumba):
            names.append("throw-in")
        return names


def make_situation(hand, trump, players: int, seat: int, rules="swiss", passes_in_a_row: int = 0,
                   dealer_knocked: bool = False, before: Sequence[str] | str | None = None) -> Situation:
    """Check everything the player typed; raise CardError / RulesError naming the problem."""
    rules = get_rules(rules)
    rules.check_players(players)
    if not 0 <= seat < players:
        raise RulesError(f"seat {seat} does not exist with {players} players (seats 0..{players - 1}, "
                         f"{players - 1} is the dealer)")
    cards = parse_hand(hand)
    if len(cards) != rules.hand_size:
        raise CardError(f"a {rules.name} hand has {rules.hand_size} cards, got {len(cards)}: "
                        f"{' '.join(format_card(c) for c in cards)}")
    rules.check_cards(cards)
    trump_card = parse_card(trump) if isinstance(trump, str) else int(trump)
    rules.check_cards([trump_card])
    if trump_card in cards:
        raise CardError(f"the trump card {format_card(trump_card)} cannot also be in the hand", format_card(trump_card))
    if passes_in_a_row < 0:
        raise RulesError(f"passes in a row must be 0 or more, got {passes_in_a_row}")
    if dealer_knocked:
        if not rules.knock:
            raise RulesError(f"rule set {rules.name!r} has no knock")
        if seat == players - 1:
            raise RulesError("the dealer cannot ask after his own knock: use `rumbaodds knock`")
    words = _parse_before(before, seat, rules, dealer_knocked)
    _check_before_jack(words, rules, trump_card)
    return Situation(rules, players, seat, tuple(cards), trump_card, passes_in_a_row, dealer_knocked, words)


def _parse_before(before, seat: int, rules: RuleSet, knocked: bool) -> tuple[str, ...]:
    if before is None or before == "":
        return ("-",) * seat
    items = [w.strip().lower() for w in (before.split(",") if isinstance(before, str) else before)]
    if len(items) != seat:
        raise RulesError(f"--before needs one word per earlier seat (seats 0..{seat - 1}): got {len(items)}")
    for i, word in enumerate(items):
        if word not in WORDS:
            raise RulesError(f"--before: seat {i} said {word!r}; use pass, play, rumba or -")
    if items.count("rumba") > 1:
        raise RulesError("--before: only the first Rumba of a hand is allowed")
    if knocked and "rumba" in items:
        raise RulesError("--before: nobody calls Rumba after a knock")
    if "rumba" in items and rules.others_after_rumba == "must-play":
        after = items[items.index("rumba") + 1:]
        if "pass" in after:
            raise RulesError(f"--before: in {rules.name}, every seat after a Rumba must play")
    return tuple(items)


def _check_before_jack(words: tuple[str, ...], rules: RuleSet, trump_card: int) -> None:
    if rules.jack_of_trump_forces_play and trump_card % 16 == RANKS.index("J") and "pass" in words:
        raise RulesError("--before: with the jack of trump turned everybody must play, nobody passes")


@dataclass
class ChoiceResult:
    name: str
    ev: Estimate
    discard: tuple[int, ...] = ()
    p_success: Estimate | None = None
    p_uncontested: float | None = None
    p_void: float | None = None  # a later throw-in voided the Rumba: score 0
    p_lone_play: float | None = None  # not allowed (flemish lone dealer): he plays alone
    tricks: tuple[float, ...] | None = None

    def as_dict(self) -> dict:
        out = self.ev.as_dict("ev")
        if self.name.startswith("play"):
            out["discard"] = [format_card(c) for c in self.discard]
        if self.p_success is not None:
            out.update(self.p_success.as_dict("p_success"))
            out["p_uncontested"] = self.p_uncontested
            out["p_void"] = self.p_void
            out["p_lone_play"] = self.p_lone_play
            out["tricks"] = list(self.tricks)
        return out


@dataclass
class AskResult:
    situation: Situation
    opponents: OpponentModel
    play: str
    seed: int
    samples: int
    tries_per_sample: float
    options: dict[str, ChoiceResult]  # every choice incl. play0..playK
    recommendation: str
    runner_up: str | None
    margin: Estimate | None
    meta: dict = field(default_factory=dict)

    @property
    def actions(self) -> dict[str, ChoiceResult]:
        """One entry per action: ``play`` is the best discard count."""
        out = {}
        plays = [c for c in self.options.values() if c.name.startswith("play")]
        for name, choice in self.options.items():
            if not name.startswith("play"):
                out[name] = choice
            elif choice is min(plays, key=lambda c: c.ev.mean):
                out["play"] = choice
        return dict(sorted(out.items(), key=lambda kv: ["pass", "play", "rumba", "throw-in"].index(kv[0])))

    def to_dict(self) -> dict:
        s = self.situation
        return {
            "rules": s.rules.name,
            "players": s.players,
            "seat": s.seat,
            "hand": [format_card(c) for c in s.hand],
            "trump": format_card(s.trump_card),
            "passes_in_a_row": s.passes_in_a_row,
            "dealer_knocked": s.dealer_knocked,
            "before": list(s.before),
            "opponents": self.opponents.name,
            "play": self.play,
            "samples": self.samples,
            "seed": self.seed,
            "tries_per_sample": self.tries_per_sample,
            "score_sign": SCORE_SIGN,
            "recommendation": self.recommendation,
            "runner_up": self.runner_up,
            "margin": None if self.margin is None else self.margin.as_dict("ev"),
            "actions": {name: c.as_dict() for name, c in self.actions.items()},
            "play_options": {name: c.as_dict() for name, c in self.options.items() if name.startswith("play")},
        }

    def to_frame(self) -> pd.DataFrame:
        rows = []
        for name, c in self.options.items():
            rows.append({
                "choice": name,
                "discard": " ".join(format_card(x) for x in c.discard),
                "ev": c.ev.mean, "ev_low": c.ev.low, "ev_high": c.ev.high, "samples": c.ev.samples,
                "p_success": None if c.p_success is None else c.p_success.mean,
                "p_success_low": None if c.p_success is None else c.p_success.low,
                "p_success_high": None if c.p_success is None else c.p_success.high,
                "recommended": name == self.recommendation or (
                    self.recommendation == "play" and c is self.actions.get("play")),
            })
        return pd.DataFrame(rows)


def _choice_code(name: str) -> int:
    if name == "pass":
        return kernel.C_PASS
    if name == "rumba":
        return kernel.C_RUMBA
    if name == "throw-in":
        return kernel.C_THROW_IN
    return kernel.C_PLAY + int(name[4:])


def _discards(hand: Sequence[int], k: int, trump: int, rules: RuleSet) -> tuple[int, ...]:
    mask = kernel.lowest_keep(np.uint64(mask_of(hand)), k, trump, kernel.rules_array(rules)[kernel.R_TOP_RANK])
    return tuple(c for c in hand if (int(mask) >> c) & 1)


class _Accumulator:
    """Running sums over batches, so any number of samples fits in memory."""

    def __init__(self, n_choices: int):
        self.n = 0
        self.tries = 0
        self.sum = np.zeros(n_choices)
        self.sum_sq = np.zeros(n_choices)
        self.diff_sum = np.zeros((n_choices, n_choices))
        self.diff_sq = np.zeros((n_choices, n_choices))
        # index 0: void, 1: lone play, 2: no tricks played, 3..8: 0..5 tricks (kernel codes + 3)
        self.tricks = np.zeros((n_choices, 9), dtype=np.int64)
        self.success = np.zeros(n_choices, dtype=np.int64)

    def add(self, results: np.ndarray, tries: np.ndarray, min_tricks: int) -> None:
        scores = results[:, :, 0].astype(np.float64)
        self.n += scores.shape[0]
        self.tries += int(tries.sum())
        self.sum += scores.sum(axis=0)
        self.sum_sq += (scores * scores).sum(axis=0)
        diffs = scores[:, :, None] - scores[:, None, :]
        self.diff_sum += diffs.sum(axis=0)
        self.diff_sq += (diffs * diffs).sum(axis=0)
        tricks = results[:, :, 1].astype(np.int64) - kernel.VOID
        for c in range(scores.shape[1]):
            self.tricks[c] += np.bincount(tricks[:, c], minlength=9)[:9]
            self.success[c] += int(((tricks[:, c] == 2) | (tricks[:, c] - 3 >= min_tricks)).sum())

    def estimate(self, c: int) -> Estimate:
        return Estimate.of_sums(self.sum[c], self.sum_sq[c], self.n)

    def difference(self, a: int, b: int) -> Estimate:
        """EV(a) - EV(b) on the same deals (common random numbers)."""
        return Estimate.of_sums(self.diff_sum[a, b], self.diff_sq[a, b], self.n)


def ask(hand, trump, players: int, seat: int, rules="swiss", opponents="default", play="expert",
        passes_in_a_row: int = 0, dealer_knocked: bool = False, before=None, samples: int | None = None,
        precision: float | None = None, seed: int | None = None,
        progress: Callable[[int, int], None] | None = None) -> AskResult:
    """Estimate every choice open to the player in ``seat`` holding ``hand``.

    ``samples`` fixes the run length (default 200,000); ``precision`` instead
    runs until the 95% half-width of every expected value is below it.
    ``progress(done, planned)`` is called after each batch.
    """
    situation = make_situation(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before)
    model = get_model(opponents)
    if play not in POLICIES:
        raise RulesError(f"unknown card play {play!r} (use {' or '.join(POLICIES)})")
    seed = _check_seed(seed)
    names = situation.choices()
    rules_ = situation.rules
    codes = np.array([_choice_code(n) for n in names], dtype=np.int64)
    hero_mask = np.uint64(mask_of(situation.hand))
    unknown = np.array([c for c in rules_.deck if c not in situation.hand and c != situation.trump_card],
                       dtype=np.int64)
    before_codes = np.array([WORDS[w] for w in situation.before] or [0], dtype=np.int64)[:max(1, seat)]
    rp = kernel.rules_array(rules_)
    acc = _Accumulator(len(names))
    planned = samples if samples is not None else (None if precision is not None else 200_000)
    if planned is not None and planned <= 0:
        raise RulesError(f"--samples must be positive, got {planned}")
    if precision is not None and precision <= 0:
        raise RulesError(f"--precision must be positive, got {precision}")
    while True:
        if planned is not None:
            count = min(BATCH, planned - acc.n)
        else:
            count = BATCH
        if count <= 0:
            break
        results, tries = kernel.ask_batch(np.uint64(rules_.deck_mask), unknown, hero_mask, situation.trump_card,
                                          players, seat, rp, model.as_array(), POLICIES[play],
                                          passes_in_a_row, dealer_knocked, before_codes, codes, np.uint64(seed),
                                          acc.n, count)
        if (tries < 0).any():
            raise RulesError("this situation is (almost) impossible under the opponent model: no deal in 10,000 "
                             "tries matches what the earlier seats did")
        acc.add(results, tries, rules_.rumba_min_tricks)
        if progress is not None:
            progress(acc.n, planned or acc.n)
        if planned is None and max(acc.estimate(c).half_width for c in range(len(names))) < precision:
            break
        if acc.n >= MAX_SAMPLES:
            break
    return _ask_result(situation, model, play, seed, names, acc)


def exact_ask(hand, trump, players: int, seat: int, rules, opponents="default", play="expert",
              passes_in_a_row: int = 0, dealer_knocked: bool = False, before=None,
              max_orders: int = 5_000_000) -> dict[str, dict]:
    """Exact value of every choice by enumerating every deal: for tiny rule sets, to check ``ask``.

    Returns ``{choice: {"ev": ..., "p_success": ... (rumba), "tricks": [...]}}`` plus
    ``"_accepted"``, the number of card orders consistent with what the player saw.
    """
    import math

    situation = make_situation(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before)
    model = get_model(opponents)
    rules_ = situation.rules
    names = situation.choices()
    unknown = np.array([c for c in rules_.deck if c not in situation.hand and c != situation.trump_card],
                       dtype=np.int64)
    if math.factorial(len(unknown)) > max_orders:
        raise RulesError(f"{len(unknown)} unknown cards: {math.factorial(len(unknown)):,} orders is too many to "
                         f"enumerate (limit {max_orders:,})")
    stock = len(unknown) - (players - 1) * rules_.hand_size
    if rules_.passer_cards == "stock-bottom" and players * rules_.exchange_limit > stock:
        raise RulesError("the exchange could reach the passers' shuffled cards: exact enumeration does not cover it")
    codes = np.array([_choice_code(n) for n in names], dtype=np.int64)
    before_codes = np.array([WORDS[w] for w in situation.before] or [0], dtype=np.int64)[:max(1, seat)]
    accepted, sums, _squares, tricks = kernel.ask_exact(
        np.uint64(rules_.deck_mask), unknown, np.uint64(mask_of(situation.hand)), situation.trump_card, players,
        seat, kernel.rules_array(rules_), model.as_array(), POLICIES[play], passes_in_a_row, dealer_knocked,
        before_codes, codes)
    if accepted == 0:
        raise RulesError("no deal is consistent with what the earlier seats did under this opponent model")
    out: dict[str, dict] = {"_accepted": {"orders": int(accepted)}}
    for c, name in enumerate(names):
        entry = {"ev": sums[c] / accepted}
        if name == "rumba":
            hist = tricks[c]
            entry["p_void"] = hist[0] / accepted
            entry["p_lone_play"] = hist[1] / accepted
            entry["p_uncontested"] = hist[2] / accepted
            entry["p_success"] = (hist[2] + hist[3 + rules_.rumba_min_tricks:].sum()) / accepted
            entry["tricks"] = list(hist[3:] / max(1, hist[3:].sum()))
        out[name] = entry
    return out


def _ask_result(situation: Situation, model: OpponentModel, play: str, seed: int, names: list[str],
                acc: _Accumulator) -> AskResult:
    options: dict[str, ChoiceResult] = {}
    for c, name in enumerate(names):
        result = ChoiceResult(name, acc.estimate(c))
        if name.startswith("play"):
            result.discard = _discards(situation.hand, int(name[4:]), situation.trump, situation.rules)
        if name == "rumba":
            hist = acc.tricks[c]
            contested = int(hist[3:].sum())
            result.p_success = Estimate.of_proportion(int(acc.success[c]), acc.n)
            result.p_void = float(hist[0] / acc.n)
            result.p_lone_play = float(hist[1] / acc.n)
            result.p_uncontested = float(hist[2] / acc.n)
            result.tricks = tuple(float(x / contested) if contested else 0.0 for x in hist[3:])
        options[name] = result
    ranked = sorted(range(len(names)), key=lambda c: acc.sum[c])
    best = ranked[0]
    # the runner-up is the best choice of another kind (another discard count is still "play")
    runner = next((c for c in ranked[1:] if names[c][:4] != names[best][:4] or names[c] == "pass"), None)
    margin = acc.difference(runner, best) if runner is not None else None
    label = lambda name: "play" if name.startswith("play") else name  # noqa: E731
    return AskResult(situation, model, play, seed, acc.n, acc.tries / max(1, acc.n), options,
                     label(names[best]), None if runner is None else label(names[runner]), margin)


def _check_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(63)
    if not 0 <= int(seed) < 2**63:
        raise RulesError(f"--seed must be in 0..2**63-1, got {seed}")
    return int(seed)


# -- knock --------------------------------------------------------------------------------
@dataclass
class KnockResult:
    rules: RuleSet
    players: int
    trump_card: int
    opponents: OpponentModel
    play: str
    seed: int
    samples: int
    inner_samples: int
    knock: Estimate
    no_knock: Estimate
    margin: Estimate  # EV(no knock) - EV(knock): positive means knocking is better
    p_success: Estimate
    no_knock_choices: dict[str, float]

    @property
    def recommendation(self) -> str:
        return "knock" if self.knock.mean < self.no_knock.mean else "no knock"

    def to_dict(self) -> dict:
        return {
            "rules": self.rules.name,
            "players": self.players,
            "trump": format_card(self.trump_card),
            "opponents": self.opponents.name,
            "play": self.play,
            "samples": self.samples,
            "inner_samples": self.inner_samples,
            "seed": self.seed,
            "score_sign": SCORE_SIGN,
            "recommendation": self.recommendation,
            "actions": {
                "knock": {**self.knock.as_dict("ev"), **self.p_success.as_dict("p_success")},
                "no-knock": {**self.no_knock.as_dict("ev"), "choices": self.no_knock_choices},
            },
            "margin": self.margin.as_dict("ev"),
        }

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([
            {"choice": "knock", "ev": self.knock.mean, "ev_low": self.knock.low, "ev_high": self.knock.high,
             "samples": self.samples},
            {"choice": "no-knock", "ev": self.no_knock.mean, "ev_low": self.no_knock.low,
             "ev_high": self.no_knock.high, "samples": self.samples},
        ])


def knock(trump, players: int, rules="swiss", opponents="default", play="expert", samples: int | None = None,
          precision: float | None = None, seed: int | None = None, inner_samples: int = 200,
          progress: Callable[[int, int], None] | None = None) -> KnockResult:
    """The dealer, before looking at his cards: knock, or look and take the best choice?"""
    rules_ = get_rules(rules)
    if not rules_.knock:
        raise RulesError(f"rule set {rules_.name!r} has no knock")
    rules_.check_players(players)
    trump_card = parse_card(trump) if isinstance(trump, str) else int(trump)
    rules_.check_cards([trump_card])
    model = get_model(opponents)
    if play not in POLICIES:
        raise RulesError(f"unknown card play {play!r} (use {' or '.join(POLICIES)})")
    if inner_samples <= 0:
        raise RulesError(f"--inner-samples must be positive, got {inner_samples}")
    seed = _check_seed(seed)
    unknown = np.array([c for c in rules_.deck if c != trump_card], dtype=np.int64)
    rp = kernel.rules_array(rules_)
    planned = samples if samples is not None else (None if precision is not None else 4_000)
    if planned is not None and planned <= 0:
        raise RulesError(f"--samples must be positive, got {planned}")
    chunks = []
    done = 0
    batch = 1_000
    while True:
        count = min(batch, planned - done) if planned is not None else batch
        if count <= 0:
            break
        chunks.append(kernel.knock_batch(np.uint64(rules_.deck_mask), unknown, trump_card, players, rp,
                                         model.as_array(), POLICIES[play], np.uint64(seed), done, count,
                                         inner_samples))
        done += count
        if progress is not None:
            progress(done, planned or done)
        if planned is None:
            res = np.concatenate(chunks)
            if max(Estimate.of_mean(res[:, r, 0].astype(float)).half_width for r in range(2)) < precision:
                break
            if done >= MAX_SAMPLES // 100:
                break
    res = np.concatenate(chunks)
    knock_scores = res[:, 0, 0].astype(np.float64)
    no_knock_scores = res[:, 1, 0].astype(np.float64)
    tricks = res[:, 0, 1].astype(np.int64)
    success = int(((tricks < 0) | (tricks >= rules_.rumba_min_tricks)).sum())
    codes = res[:, 1, 3].astype(np.int64)
    names = {kernel.C_PASS: "pass", kernel.C_RUMBA: "rumba", kernel.C_THROW_IN: "throw-in",
             -1: "undecided", -2: "void (earlier throw-in)"}
    shares: dict[str, float] = {}
    for code in np.unique(codes):
        name = names.get(int(code), f"play{int(code) - kernel.C_PLAY}")
        shares[name] = float((codes == code).mean())
    return KnockResult(rules_, players, trump_card, model, play, seed, done, inner_samples,
                       Estimate.of_mean(knock_scores), Estimate.of_mean(no_knock_scores),
                       Estimate.of_mean(no_knock_scores - knock_scores), Estimate.of_proportion(success, done),
                       shares)
