"""The simulation itself: ``ask`` (should I call Rumba?), ``simulate`` (the same for a Question) and ``knock``.

These never read a table: the pipeline (:mod:`.pipeline`, ``from rumbaodds.answer import ask``) answers from a
table where one covers the question and runs these where none does. Each result carries
its seed, its sample count, its effective sample size and a 95% interval for
every figure, and turns into a pandas DataFrame. Scores keep the score
sheet's sign: they count down, so a negative expected change is good and the
best choice has the lowest one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import limits
from ..cardplay import CARD_PLAYS, DEFAULT_PLAY, SEARCHED_PLAY
from ..cards import format_card, mask_of
from ..engine import exact as exact_kernel
from ..engine import hand as kernel
from ..engine.devices import Device, ask_batch, resolve_device
from ..engine.pimc import DEFAULT_WORLDS
from ..engine.play import POLICY_CODES
from ..engine.searched_play import POLICY_PIMC
from ..game import Choice
from ..game.state import two_of_trump
from ..opponents.policies import Policy
from ..opponents.resolve import opponent_policy
from ..rules import RulesError, RuleSet
from ..seeds import check_seed
from ..stats import Z95, Estimate
from . import stopping
from .conditioning import Plan, make_plan
from .question import Question
from .results import SCORE_SIGN, Accumulator, AskResult, ChoiceResult, ExchangeCall, RumbaOutcomes
from .situation import Situation, make_situation

POLICIES = {name: POLICY_CODES[name] for name in CARD_PLAYS}  # the kernel code of each card play
SEARCHED = SEARCHED_PLAY  # everybody plays by search (engine/searched_play.py)
ASK_PLAYS = {**POLICIES, SEARCHED: POLICY_PIMC}  # the card plays a question may name
BATCH = 50_000  # stopping.BATCH
MAX_SAMPLES = limits.MAX_DEALS  # the most deals one run simulates (limits: the door's caps)

__all__ = ["ask", "simulate", "exact_ask", "knock", "make_situation", "Situation", "AskResult", "ChoiceResult", "Job",
           "POLICIES", "ASK_PLAYS", "SEARCHED", "SCORE_SIGN"]


def _choice_code(name: str) -> int:
    choice = Choice(name)
    if choice is Choice.PASS:
        return kernel.C_PASS
    if choice is Choice.RUMBA:
        return kernel.C_RUMBA
    if choice is Choice.THROW_IN:
        return kernel.C_THROW_IN
    return kernel.C_PLAY + choice.exchanged


def discard_cards(hand: Sequence[int], k: int, trump: int, rules: RuleSet) -> tuple[int, ...]:
    """The ``k`` cards of ``hand`` the asking player exchanges: those of lowest keep value (the kernel's rule).

    What ``ask``, the tables and the packed tables show as the discard of the choice "play with k discards".
    """
    mask = kernel.lowest_keep(np.uint64(mask_of(hand)), k, trump, kernel.rules_array(rules)[kernel.R_TOP_RANK])
    return tuple(c for c in hand if (int(mask) >> c) & 1)


def exact_discard(situation: Situation, cards) -> tuple[int, ...]:
    """The cards of an exact discard as the hand he speaks with holds them (the two of trump he swapped for the
    turned card [D-9] is the turned card now); RulesError for a card he does not hold, or more than he may
    exchange."""
    held = situation.spoken_hand()
    two = two_of_trump(situation.trump_card)
    out = []
    for card in cards:
        card = situation.trump_card if card == two and card not in held and situation.trump_card in held else card
        if card not in held or card in out:
            raise RulesError(f"discard {format_card(card)}: not a card of the hand "
                             f"{' '.join(format_card(c) for c in held)}, or named twice")
        out.append(card)
    if not 0 < len(out) <= situation.rules.exchange_limit:
        raise RulesError(f"an exact discard of {len(out)} cards: {situation.rules.name} exchanges 1.."
                         f"{situation.rules.exchange_limit}")
    return tuple(sorted(out))


def exact_code(situation: Situation, cards: Sequence[int]) -> int:
    """The kernel's code of a play exchanging ``cards`` (engine/hand.py EXACT_DISCARD): bit i names the i-th lowest
    card id of the hand he speaks with."""
    held = sorted(situation.spoken_hand())
    return kernel.C_PLAY + kernel.EXACT_DISCARD + sum(1 << held.index(c) for c in cards)


def _check_play(play: str, plays: dict = ASK_PLAYS) -> int:
    if play not in plays:
        raise RulesError(f"unknown card play {play!r} (use {' or '.join(plays)})")
    return plays[play]


@dataclass(frozen=True)
class Job:
    """Everything the kernel needs for one question, built once (tests and benchmarks use it too)."""

    situation: Situation
    policy: Policy
    play: str
    names: tuple[str, ...]
    plan: Plan
    # plays that exchange the very cards named (a review grades the discard a player made), simulated on the same
    # deals after ``names``: their results are columns ``len(names)..`` (:attr:`slots`)
    exact: tuple[tuple[int, ...], ...] = ()
    # with play by search: decisions with a choice and the worlds they used, over every batch so far
    searched: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64), compare=False, repr=False)

    @classmethod
    def of(cls, situation: Situation, opponents=None, play: str = DEFAULT_PLAY, exact=()) -> Job:
        policy = opponent_policy(opponents, situation.rules, situation.players)
        _check_play(play)
        plan = make_plan(situation.rules, situation.players, situation.seat, situation.hand, situation.trump_card,
                         situation.before_codes(), situation.dealer_knocked,
                         -1 if situation.swapped_by is None else situation.swapped_by, policy)
        return cls(situation, policy, play, tuple(situation.choices()), plan,
                   tuple(exact_discard(situation, cards) for cards in exact))

    @property
    def slots(self) -> tuple[str, ...]:
        """Every simulated column: the choices, then each exact discard as ``play:ID,ID`` (the twin's names)."""
        return self.names + tuple("play:" + ",".join(str(c) for c in cards) for cards in self.exact)

    def unknown(self) -> np.ndarray:
        s = self.situation
        known = set(s.hand) | {s.trump_card} | ({s.table_card} if s.swapped_by is not None else set())
        return np.array([c for c in s.rules.deck if c not in known], dtype=np.int64)

    def args(self) -> tuple:
        s = self.situation
        codes = np.array([_choice_code(n) for n in self.names]
                         + [exact_code(s, cards) for cards in self.exact], dtype=np.int64)
        return (np.uint64(s.rules.deck_mask), self.unknown(), np.uint64(mask_of(s.hand)), s.trump_card, s.players,
                s.seat, kernel.rules_array(s.rules), self.policy.as_tuple(), self.plan.as_tuple(), ASK_PLAYS[self.play],
                s.passes_in_a_row, s.dealer_knocked, -1 if s.swapped_by is None else s.swapped_by, codes)

    def batch(self, seed: int, start: int, count: int, device: Device | None = None):
        """(results (count, choices, 4) int8, tries, weights) of samples ``start .. start+count-1``.

        ``device`` (engine/devices.py): where they are simulated; the same numbers on the CPU and a GPU. Play by
        search (``pimc``) runs on the CPU and counts its decisions and worlds in :attr:`searched`."""
        if self.play == SEARCHED:
            args = self.args()
            *batch, counters = kernel.ask_batch_searched(*args[:9], *args[10:], np.uint64(seed), start, count)
            self.searched[:] += counters  # the array in place: the Job is frozen
            return tuple(batch)
        if device is not None:
            return ask_batch(device, *self.args(), np.uint64(seed), start, count)
        return kernel.ask_batch(*self.args(), np.uint64(seed), start, count)


def ask(hand, trump, players: int, seat: int, rules="swiss", opponents=None, play=DEFAULT_PLAY,
        passes_in_a_row: int = 0, dealer_knocked: bool = False, before=None, samples: int | None = None,
        precision: float | None = None, seed: int | None = None, swapped_by: int | None = None,
        progress: Callable[[int, int], None] | None = None, device: str | Device = "cpu") -> AskResult:
    """Estimate every choice open to the player in ``seat`` holding ``hand`` by simulation (never a table:
    ``rumbaodds.answer.pipeline.ask`` takes the same arguments and answers through the pipeline, tables first).

    ``samples`` fixes the run length; ``precision`` instead runs until the 95% half-width of every expected value
    is below it; with neither, the run stops once its answer is settled (``rumbaodds.answer.stopping``: 4,000 to
    200,000 deals, within a few seconds). ``swapped_by``: an earlier seat swapped the two of trump for the
    turned card ``trump`` [D-9]. ``progress(done, planned)`` is called after each batch.
    ``device``: cpu, gpu or auto (``engine.devices.resolve_device``; the same numbers on either).
    The same question as a :class:`~.question.Question`: :func:`simulate`.
    """
    question = Question.of(hand, trump, players, seat, rules, passes_in_a_row=passes_in_a_row,
                           dealer_knocked=dealer_knocked, before=before, swapped_by=swapped_by, opponents=opponents,
                           play=play, samples=samples, precision=precision, seed=seed, device=device)
    return simulate(question, progress)


def simulate(question: Question, progress: Callable[[int, int], None] | None = None, rule=None) -> AskResult:
    """Simulate ``question``: every choice on the same conditioned deals, until its samples, its precision or, by
    default, until its answer is settled (``rumbaodds.answer.stopping``; ``rule`` replaces the question's own)."""
    situation = question.situation
    job = Job.of(situation, question.opponents, question.play)
    seed = check_seed(question.seed)
    engine = resolve_device(question.device)
    if question.play == SEARCHED:
        if engine.name != "cpu":
            raise RulesError(f"--play {SEARCHED} runs on the CPU only: drop --device")
        # compile (or load) the search before the clock starts: a first run's budget is for deals, not for the
        # two minutes of compiling; sample 0 is simulated again, the same, by the run itself
        job.batch(seed, 0, 1)
        job.searched[:] = 0
    rule = rule or stopping.rule_for(question, BATCH)
    acc, reason, _seconds = stopping.run(job, seed, engine, rule, progress, result_of=result_of)
    result = result_of(job, seed, acc)
    result.meta = {"kind": "simulation", "deals": acc.n, "effective_deals": acc.effective_samples, "seed": seed,
                   "stopped": reason}
    if question.play == SEARCHED:
        result.meta["search"] = search_meta(*job.searched)
    return result


def _rumba_result(name: str, acc: Accumulator, c: int, min_tricks: int) -> ChoiceResult:
    result = ChoiceResult(name, acc.estimate(c))
    total = acc.sw.sum()
    made_codes = list(range(3 + min_tricks, 9))
    lost_codes = list(range(3, 3 + min_tricks))
    share = lambda codes: float(acc.tricks[c, codes].sum() / total)  # noqa: E731
    result.outcomes = RumbaOutcomes(share(made_codes), share(lost_codes), share([2]), share([0]), share([1]))
    played = made_codes + lost_codes + [2]
    result.p_success = Estimate.of_weighted_proportion(float(acc.tricks[c, made_codes + [2]].sum()),
                                                       float(acc.tricks[c, played].sum()),
                                                       max(float(acc.tricks_w2[c, played].sum()), 1e-300), acc.n)
    contested = acc.tricks[c, 3:].sum()
    result.tricks = tuple(float(x / contested) if contested else 0.0 for x in acc.tricks[c, 3:])
    return result


def round_two_plan(job: Job, acc: Accumulator) -> tuple[np.ndarray, dict]:
    """rumba-first: the hero's best round-two answer for every round-one outcome (nobody, or seat r called)."""
    names = job.names
    outcomes = acc.sw.shape[0]
    candidates = [i for i, n in enumerate(names) if n == Choice.PASS or Choice(n).is_play]
    plan = np.full(outcomes, candidates[0])
    described = {}
    for o in range(outcomes):
        if acc.sw[o] <= 0:
            continue
        options = candidates if o == 0 else [i for i in candidates if names[i] in (Choice.PASS, Choice.PLAY0)]
        means = {i: acc.swx[i, o] / acc.sw[o] for i in options}
        best = min(options, key=lambda i: means[i])
        plan[o] = best
        label = names[best] if o == 0 else ("join" if names[best] == Choice.PLAY0 else "pass")
        key = "if nobody calls Rumba" if o == 0 else f"if seat {o - 1} calls Rumba"
        described[key] = {"choice": label, "share": float(acc.sw[o] / acc.sw.sum()),
                          "ev_given": float(means[best])}
    return plan, described


def result_of(job: Job, seed: int, acc: Accumulator) -> AskResult:
    """The answer of ``job``'s simulated deals ``acc`` (every choice, the best, the runner-up and their paired
    margin); the game value of a choice (match/ask.py) reads its deals through this too."""
    situation, names = job.situation, job.names
    options: dict[str, ChoiceResult] = {}
    for c, name in enumerate(names):
        if name == Choice.RUMBA:
            result = _rumba_result(name, acc, c, situation.rules.rumba_min_tricks)
        else:
            result = ChoiceResult(name, acc.estimate(c))
        if Choice(name).is_play:
            result.discard = discard_cards(situation.hand, Choice(name).exchanged, situation.trump, situation.rules)
        options[name] = result
    plans: dict[str, object] = {name: c for c, name in enumerate(names)}
    if situation.rumba_first and any(n == Choice.PASS or Choice(n).is_play for n in names):
        plan, described = round_two_plan(job, acc)
        options[Choice.NO_RUMBA] = ChoiceResult(Choice.NO_RUMBA, acc.estimate(plan), plan=described)
        plans[Choice.NO_RUMBA] = plan
        kinds = [n for n in plans if n != Choice.PASS and not Choice(n).is_play]
    else:
        kinds = list(plans)
    label = lambda name: Choice(name).action  # noqa: E731
    ranked = sorted(kinds, key=lambda n: options[n].ev.mean)
    best = ranked[0]
    # the runner-up is the best choice of another kind (another discard count is still "play")
    runner = next((n for n in ranked[1:] if label(n) != label(best)), None)
    margin = acc.difference(plans[runner], plans[best]) if runner is not None else None
    return AskResult(situation, job.policy, job.play, seed, acc.n, acc.tries / max(1, acc.n), options, label(best),
                     None if runner is None else label(runner), margin, effective_samples=acc.effective_samples,
                     notes=tuple(job.plan.describe()), exchange=exchange_call(names, options, acc))


def exchange_call(names, options: dict[str, ChoiceResult], acc: Accumulator) -> ExchangeCall | None:
    """The best exchange against the second-best, paired on the same deals; None with fewer than two exchanges."""
    plays = sorted((c for c, n in enumerate(names) if Choice(n).is_play), key=lambda c: options[names[c]].ev.mean)
    if len(plays) < 2:
        return None
    best, second = plays[0], plays[1]
    difference = acc.difference(second, best)
    return ExchangeCall(options[names[best]].discard, options[names[second]].discard, difference, difference.low > 0)


def exact_ask(hand, trump, players: int, seat: int, rules, opponents=None, play=DEFAULT_PLAY,
              passes_in_a_row: int = 0, dealer_knocked: bool = False, before=None, swapped_by: int | None = None,
              max_orders: int = 5_000_000) -> dict[str, dict]:
    """Exact value of every choice by enumerating every deal: for tiny rule sets, to check ``ask``.

    Returns ``{choice: {"ev": ..., "p_success": ... (rumba), "tricks": [...]}}`` plus
    ``"_accepted"``: the total weight of the card orders consistent with what the player saw.
    """
    situation = make_situation(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before, swapped_by)
    job = Job.of(situation, opponents, play)
    if not job.policy.deterministic:
        raise RulesError("exact enumeration needs a deterministic opponent policy")
    rules_ = situation.rules
    unknown = job.unknown()
    if math.factorial(len(unknown)) > max_orders:
        raise RulesError(f"{len(unknown)} unknown cards: {math.factorial(len(unknown)):,} orders is too many to "
                         f"enumerate (limit {max_orders:,})")
    stock = len(unknown) - (players - 1) * rules_.hand_size
    if rules_.passer_cards == "stock-bottom" and players * rules_.exchange_limit > stock:
        raise RulesError("the exchange could reach the passers' shuffled cards: exact enumeration does not cover it")
    total, sums, tricks = exact_kernel.ask_exact(*job.args())
    if total <= 0:
        raise RulesError("no deal is consistent with what the earlier seats did under this opponent model")
    out: dict[str, dict] = {"_accepted": {"weight": float(total)}}
    for c, name in enumerate(job.names):
        entry = {"ev": float(sums[c].sum() / total), "by_caller": [float(x / total) for x in sums[c]]}
        if name == Choice.RUMBA:
            hist = tricks[c]
            m = rules_.rumba_min_tricks
            entry.update(p_made=hist[3 + m:].sum() / total, p_lost=hist[3:3 + m].sum() / total,
                         p_uncontested=hist[2] / total, p_void=hist[0] / total, p_not_allowed=hist[1] / total)
            played = hist[2:].sum()
            entry["p_success"] = float((hist[2] + hist[3 + m:].sum()) / played) if played else math.nan
            entry["tricks"] = list(hist[3:] / max(1e-300, hist[3:].sum()))
        out[name] = entry
    return out


# -- knock --------------------------------------------------------------------------------
KNOCK_DEFAULT = 4_000  # outer deals of a default knock answer at most (its old fixed length)
KNOCK_LOOKS = (500, 1_000, 2_000, 4_000)  # where a default knock answer may stop (stopping.Settled's idea)
KNOCK_CHUNK = 250  # outer deals per kernel call of a default answer: the time budget is checked this often
KNOCK_TIE = 0.05  # points: knocking and not knocking known to be within this of each other is "too close to call"


@dataclass
class KnockResult:
    rules: RuleSet
    players: int
    trump_card: int
    opponents: object
    play: str
    seed: int
    samples: int
    inner_samples: int
    knock: Estimate
    no_knock: Estimate
    margin: Estimate  # EV(no knock) - EV(knock): positive means knocking is better
    p_success: Estimate
    no_knock_choices: dict[str, float]
    p_uncontested: float = 0.0
    stopped: str = "deals"  # why the simulation stopped (stopping.STOP_TEXT), or "table"
    meta: dict = field(default_factory=dict)  # where the numbers came from (answer.source_of)

    @property
    def recommendation(self) -> str:
        return "knock" if self.knock.mean < self.no_knock.mean else "no knock"

    @property
    def resolved(self) -> bool:
        """Does the 95% interval of the difference exclude 0? Otherwise the answer is "too close to call"."""
        return self.margin.low > 0 or self.margin.high < 0

    def verdict(self) -> str:
        """The answer in one sentence (knocking's effect on the expected score: negative is good)."""
        m = self.margin
        change = f"knocking changes the expected score by {-m.mean:+.2f} points (95% interval {-m.high:+.2f} to " \
                 f"{-m.low:+.2f})"
        if not self.resolved:
            return (f"Recommendation: too close to call ({self.recommendation} is ahead on these deals); {change}, "
                    f"which includes 0.")
        return f"Recommendation: {self.recommendation}; {change}."

    def to_dict(self) -> dict:
        return {
            "rules": self.rules.name,
            "players": self.players,
            "trump": format_card(self.trump_card),
            "opponents": getattr(self.opponents, "name", str(self.opponents)),
            "play": self.play,
            "samples": self.samples,
            "inner_samples": self.inner_samples,
            "seed": self.seed,
            "score_sign": SCORE_SIGN,
            "recommendation": self.recommendation,
            "resolved": self.resolved,
            "too_close_to_call": not self.resolved,
            "verdict": self.verdict(),
            "stopped": self.stopped,
            "actions": {
                "knock": {**self.knock.as_dict("ev"), **self.p_success.as_dict("p_success"),
                          "p_uncontested": self.p_uncontested},
                "no-knock": {**self.no_knock.as_dict("ev"), "choices": self.no_knock_choices},
            },
            "margin": self.margin.as_dict("ev"),
            "source": self.meta or {"kind": "simulation", "deals": self.samples, "seed": self.seed,
                                    "stopped": self.stopped},
        }

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([
            {"choice": "knock", "ev": self.knock.mean, "ev_low": self.knock.low, "ev_high": self.knock.high,
             "samples": self.samples},
            {"choice": "no-knock", "ev": self.no_knock.mean, "ev_low": self.no_knock.low,
             "ev_high": self.no_knock.high, "samples": self.samples},
        ])


def knock(trump, players: int, rules="swiss", opponents=None, play=DEFAULT_PLAY, samples: int | None = None,
          precision: float | None = None, seed: int | None = None, inner_samples: int = 200,
          progress: Callable[[int, int], None] | None = None, budget: float | None = None) -> KnockResult:
    """The dealer, before looking at his cards: knock, or look and take the best choice?

    ``samples`` outer deals, or until both half-widths are below ``precision``; with neither, until the answer is
    settled: at 500, 1,000, 2,000 or 4,000 deals, the first where the difference is more than the Bonferroni ``z``
    of a 5% error over those four looks (2.50) standard errors from 0, or known to within KNOCK_TIE points, or
    when the next deals would end after ``budget`` seconds (default stopping.TIME_BUDGET_S; none when ``seed`` is
    given, so a seeded answer is the same on any machine). ``play`` ``pimc``: the knocked hand and the dealer's
    chosen one are played by search, his inner deals (which choice is best) by the default card play; a default
    answer then stops within stopping.SEARCH_BUDGET_S, unseeded.
    """
    from ..cards import parse_card
    from ..engine.compiled import announce_compile
    from ..engine.knock import knock_batch, knock_batch_searched
    from ..rules import get_rules

    rules_ = get_rules(rules)
    if not rules_.knock:
        raise RulesError(f"rule set {rules_.name!r} has no knock")
    rules_.check_players(players)
    trump_card = parse_card(trump) if isinstance(trump, str) else int(trump)
    rules_.check_cards([trump_card])
    policy = opponent_policy(opponents, rules_, players)
    code = _check_play(play)
    if inner_samples <= 0:
        raise RulesError(f"--inner-samples must be positive, got {inner_samples}")
    searched = play == SEARCHED
    if budget is None:
        budget = math.inf if seed is not None else stopping.SEARCH_BUDGET_S if searched else stopping.TIME_BUDGET_S
    seed = check_seed(seed)
    unknown = np.array([c for c in rules_.deck if c != trump_card], dtype=np.int64)
    rp = kernel.rules_array(rules_)
    counters = np.zeros(2, dtype=np.int64)  # with play by search: decisions with a choice, the worlds they used

    def deals(start: int, count: int) -> np.ndarray:
        args = (np.uint64(rules_.deck_mask), unknown, trump_card, players, rp, policy.as_tuple())
        if not searched:
            announce_compile(knock_batch, "the knock simulator")
            return knock_batch(*args, code, np.uint64(seed), start, count, inner_samples)
        # the dealer's inner deals (hundreds a deal) by the default play: only the hands themselves by search
        results, used = knock_batch_searched(*args, POLICIES[DEFAULT_PLAY], np.uint64(seed), start, count,
                                             inner_samples)
        counters[:] += used
        return results

    if searched:  # compile (or load) the search before the clock starts, as ask does; deal 0 is played again
        deals(0, 1)
        counters[:] = 0
    settled = samples is None and precision is None
    planned = samples if samples is not None else (KNOCK_DEFAULT if settled else None)
    if planned is not None and planned <= 0:
        raise RulesError(f"--samples must be positive, got {planned}")
    z = stopping.z_stop(len(KNOCK_LOOKS))
    clock = stopping.Clock()
    chunks = []
    done = 0
    # outer deal i is the same deal in any batch: the numbers do not move
    batch = KNOCK_CHUNK if settled or searched else 1_000
    stopped = "deals" if samples is not None else ("cap" if settled else "precision")
    while True:
        count = min(batch, planned - done) if planned is not None else batch
        if count <= 0:
            break
        chunks.append(deals(done, count))
        done += count
        if progress is not None:
            progress(done, planned or done)
        if settled:
            if done in KNOCK_LOOKS:
                res = np.concatenate(chunks)
                gain = Estimate.of_mean(res[:, 1, 0].astype(float) - res[:, 0, 0].astype(float))
                if abs(gain.mean) > z * gain.half_width / Z95 or gain.half_width <= KNOCK_TIE:
                    stopped = "settled"
                    break
            elapsed = clock()
            if done < planned and elapsed + elapsed / done * min(batch, planned - done) > budget:
                stopped = "time"
                break
        elif planned is None:
            res = np.concatenate(chunks)
            if max(Estimate.of_mean(res[:, r, 0].astype(float)).half_width for r in range(2)) < precision:
                break
            if done >= MAX_SAMPLES // 100:
                stopped = "cap"
                break
    res = np.concatenate(chunks)
    knock_scores = res[:, 0, 0].astype(np.float64)
    no_knock_scores = res[:, 1, 0].astype(np.float64)
    tricks = res[:, 0, 1].astype(np.int64)
    success = int(((tricks < 0) | (tricks >= rules_.rumba_min_tricks)).sum())
    codes = res[:, 1, 3].astype(np.int64)
    names = {kernel.C_PASS: Choice.PASS, kernel.C_RUMBA: Choice.RUMBA, kernel.C_THROW_IN: Choice.THROW_IN,
             -1: "undecided", -2: "void (earlier throw-in)"}
    shares: dict[str, float] = {}
    for value in np.unique(codes):
        name = names[int(value)] if int(value) in names else Choice.play(int(value) - kernel.C_PLAY)
        shares[name] = float((codes == value).mean())
    result = KnockResult(rules_, players, trump_card, policy, play, seed, done, inner_samples,
                         Estimate.of_mean(knock_scores), Estimate.of_mean(no_knock_scores),
                         Estimate.of_mean(no_knock_scores - knock_scores), Estimate.of_proportion(success, done),
                         shares, float((tricks < 0).mean()), stopped)
    result.meta = {"kind": "simulation", "deals": done, "seed": seed, "stopped": stopped}
    if searched:
        result.meta["search"] = search_meta(*counters, inner_play=DEFAULT_PLAY)
    return result


def search_meta(decisions, worlds, **more) -> dict:
    """What an answer by search says of its search: the worlds asked, decisions with a choice, worlds they used."""
    decisions, worlds = int(decisions), int(worlds)
    return {"worlds_asked": DEFAULT_WORLDS, "decisions": decisions, "worlds": worlds,
            "worlds_per_decision": worlds / decisions if decisions else None, **more}


def knock_across_models(trump, players: int, rules="swiss", models=("cautious", "default", "bold", "all"),
                        **kwargs) -> dict[str, KnockResult]:
    """How the knock answer moves with the opponent model (same seed for all: common deals)."""
    seed = check_seed(kwargs.pop("seed", None))
    return {name: knock(trump, players, rules, name, seed=seed, **kwargs) for name in models}
