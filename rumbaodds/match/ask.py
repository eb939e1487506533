"""``ask`` with the score: the game value of every choice of this hand (issue 21 item 3, RULES.md §9.3).

Every choice is valued by the asking player's expected payout at the end of
the game (stake units, positive = received) and his probability of winning
the game, each with a 95% interval: the hand is played out with that choice
on ``ask``'s own conditioned samples (the same deals, importance weights
included), then the rest of the game is simulated from the score state it
leaves (``choice.py``). The per-hand answer comes from the same samples and is
exactly what ``simulation.ask`` gives with the same seed, sample count and
opponents. By default the opponents see the score (issue 38): this hand's
seats decide by the score-aware equilibrium of their score classes
(:func:`hand_policy`), and so does every player in the rest of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..answer import simulation
from ..answer.results import AskResult
from ..answer.simulation import Job
from ..answer.situation import make_situation
from ..cardplay import DEFAULT_PLAY
from ..cards import format_card
from ..engine.compiled import announce_compile
from ..game import Choice
from ..rules import RulesError, get_rules
from ..seeds import check_seed
from ..stats import Estimate
from .api import GameState, table_assumes, table_for
from .choice import choice_batch, rest_seed
from .kernel import MAX_HANDS
from .score import game_array

DEFAULT_SAMPLES = 20_000  # samples of a score-aware ask when neither --samples nor --precision is given
BATCH = 5_000
MAX_SAMPLES = 2_000_000
PAYOUT_SIGN = "expected payout at the end of the game in stake units (points x stake), positive = received"


@dataclass
class GameAnswer:
    """Every choice's game value beside its per-hand value (``hand``: the ordinary answer of ``ask``)."""

    hand: AskResult
    by_game: AskResult  # the same choices ranked by game value; its ``ev`` is minus the expected payout
    win: dict[str, Estimate]  # per choice (and the rumba-first plan): the chance to win the game
    state: GameState
    rest_seed: int
    mean_deals: float
    unfinished: int
    # payout(a) - payout(b) in stakes on the same deals (paired), for choices named as in ``by_game.options``
    payout_difference: Callable[[str, str], Estimate] | None = None
    sees_score: tuple = ()  # per player: decides by the score-aware equilibrium (this hand and the rest)
    assumes: str = ""
    # per seat: score class in words, P(joins a Rumba called before him) score-aware and per-hand (random hands)
    opponents_at_score: list = field(default_factory=list)

    @property
    def recommendation(self) -> str:
        return self.by_game.recommendation

    @property
    def differs(self) -> bool:
        """The score changes the best choice."""
        return self.by_game.recommendation != self.hand.recommendation

    def payout(self, name: str) -> Estimate:
        ev = self.by_game.options[name].ev
        return Estimate(-ev.mean, -ev.high, -ev.low, ev.samples)

    def game_actions(self) -> dict[str, str]:
        """Action -> the choice behind it when ranked by game value (``play`` is the best discard count)."""
        return {action: c.name for action, c in self.by_game.actions.items()}

    def margin(self) -> Estimate | None:
        """Payout of the game's best choice minus the runner-up's (stakes, same deals)."""
        m = self.by_game.margin
        return None if m is None else Estimate(m.mean, m.low, m.high, m.samples)

    def to_dict(self) -> dict:
        s = self.state
        actions = {}
        for action, name in self.game_actions().items():
            pay, win = self.payout(name), self.win[name]
            actions[str(action)] = {"choice": str(name), "payout": pay.mean, "payout_95": [pay.low, pay.high],
                               "p_win": win.mean, "p_win_95": [win.low, win.high]}
        margin = self.margin()
        return {
            "scores": list(s.scores), "passes": list(s.passes), "dealer": s.dealer,
            "payout_rule": self.hand.situation.rules.payout, "sign": PAYOUT_SIGN,
            "samples": self.hand.samples, "seed": self.hand.seed, "rest_seed": self.rest_seed,
            "recommendation": str(self.recommendation), "runner_up": self.by_game.runner_up,
            "margin": None if margin is None else {"payout": margin.mean, "payout_95": [margin.low, margin.high]},
            "per_hand_recommendation": str(self.hand.recommendation), "score_changes_the_choice": self.differs,
            "actions": actions, "mean_deals": self.mean_deals, "unfinished_games": self.unfinished,
            "players_see_the_score": list(self.sees_score), "assumes": self.assumes,
            "opponents_at_this_score": self.opponents_at_score,
        }


def check_scores(players: int, seat: int, scores, passes=None, passes_in_a_row: int | None = None, rules=None):
    """Every seat's streak for a score-aware question (RulesError with the command line's messages otherwise).

    ``scores`` None: no score-aware question (then ``passes`` must be None too); returns None. ``passes`` None:
    everybody at 0 passes in a row but the asking seat at ``passes_in_a_row`` (None: not given, 0). Both given must
    agree at his seat (never one silently over the other). ``rules``: streaks under a rule set without a sit-out
    penalty are refused, as they change nothing. Shared by ``ask --scores`` and the web API's ``scores=`` so that
    both refuse the same input with the same words.
    """
    if scores is None:
        if passes is not None:
            raise RulesError("--passes goes with --scores (your own streak alone: --passes-in-a-row)")
        return None
    if not 0 <= seat < players:
        raise RulesError(f"--seat: seat {seat} does not exist with {players} players (0..{players - 1})")
    if len(scores) != players:
        raise RulesError(f"--scores: {len(scores)} scores for {players} players (every seat, seat order)")
    if passes is None:
        return tuple((passes_in_a_row or 0) if s == seat else 0 for s in range(players))
    if passes_in_a_row is not None and passes_in_a_row != passes[seat]:
        raise RulesError(f"--passes-in-a-row {passes_in_a_row} and --passes (seat {seat}: {passes[seat]}) disagree: "
                         f"give one of them")
    if rules is not None and not rules.sit_out_limit and any(passes):
        raise RulesError(f"--passes: rule set {rules.name!r} has no sit-out penalty, so streaks of passes change "
                         f"nothing: drop --passes")
    return tuple(passes)


def game_document(answer: GameAnswer) -> dict:
    """The JSON of a score-aware answer: ``ask --json``'s document of the hand plus its ``game`` block.

    The one document ``ask --scores --json`` prints and the web API serves for ``scores=``.
    """
    from ..answer.pipeline import document

    data = document(answer.hand)
    data["game"] = answer.to_dict()
    return data


def scores_in_seats(rules, players: int, scores, passes=None) -> GameState:
    """The score state of a hand asked at: every seat's score and streak in seat order, seat ``players - 1`` deals."""
    return GameState.make(rules, players, scores, passes, players - 1)


def ask_game(hand, trump, players: int, seat: int, scores, passes=None, rules="swiss", opponents=None,
             play=DEFAULT_PLAY, dealer_knocked: bool = False, before=None, samples: int | None = None,
             precision: float | None = None, seed: int | None = None, swapped_by: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> GameAnswer:
    """The game value of every choice open to the player in ``seat``, beside its per-hand value.

    ``scores``/``passes``: every seat's score and passes in a row in seat order (seat ``players - 1`` deals this
    hand); his own streak is ``passes[seat]``. ``samples`` fixes the run (default 20,000); ``precision`` runs until
    the 95% half-width of every choice's expected payout is below it (stake units). The rest of the game: every
    player by the opponents' model and the card play ``play``: by default the score-aware equilibrium, this hand
    too (each opponent by his score class, ``hand_policy``), else a model of the hand alone (its knock too).
    """
    if play == simulation.SEARCHED:  # thousands of times the work of a hand, by the games' many hands
        raise RulesError(f"the game value has no --play {simulation.SEARCHED}: ask without --scores for it")
    rules_ = get_rules(rules)
    state = scores_in_seats(rules_, players, scores, passes)
    situation = make_situation(hand, trump, players, seat, rules_, state.passes[seat], dealer_knocked, before,
                               swapped_by)
    table = table_for(rules_, players, opponents)
    hand_pol = hand_policy(rules_, state, table) if any(table.sees_score) else None
    job = Job.of(situation, hand_pol if hand_pol is not None else opponents, play)
    seed = check_seed(seed)
    planned = samples if samples is not None else (None if precision is not None else DEFAULT_SAMPLES)
    if planned is not None and not 1 <= planned <= MAX_SAMPLES:
        raise RulesError(f"--samples with --scores must be 1..{MAX_SAMPLES:,}, got {planned}")
    if precision is not None and precision <= 0:
        raise RulesError(f"--precision must be positive, got {precision}")
    args = job.args()
    rest = rest_seed(seed)
    accs = [simulation.Accumulator(len(job.names), players + 1) for _ in range(3)]  # hand, -payout, win share
    deals = unfinished = 0
    announce_compile(choice_batch, "the game value of every choice")
    while True:
        count = min(BATCH, planned - accs[0].n) if planned is not None else BATCH
        if count <= 0:
            break
        results, tries, weights, _kinds, _changes, _passed, pays, wins, taken = choice_batch(
            *args[:7], game_array(rules_), *args[7:], np.uint64(seed), rules_.deck_array(),
            table.stack, table.knock_stack, table.fixed, table.fixed_knock, table.aware,
            np.array(state.scores, np.int64), np.array(state.passes, np.int64), np.uint64(rest), MAX_HANDS, accs[0].n,
            count)
        if (tries < 0).any():
            raise RulesError("no deal matches what the earlier seats did: this situation is impossible under the "
                             "opponent model")
        accs[0].add(results, tries, weights)
        for acc, values in ((accs[1], -pays), (accs[2], wins)):
            as_results = results.astype(np.float64)
            as_results[:, :, 0] = values
            acc.add(as_results, tries, weights)
        deals += int(np.abs(taken).sum())
        unfinished += int((taken < 0).sum())
        if progress is not None:
            progress(accs[0].n, planned or accs[0].n)
        if planned is None and max(accs[1].estimate(c).half_width for c in range(len(job.names))) < precision:
            break
        if accs[0].n >= MAX_SAMPLES:
            break
    hand_result = simulation.result_of(job, seed, accs[0])
    by_game = simulation.result_of(job, seed, accs[1])
    plans = {name: c for c, name in enumerate(job.names)}
    win = {name: accs[2].estimate(c) for name, c in plans.items()}
    if Choice.NO_RUMBA in by_game.options:
        plan, _ = simulation.round_two_plan(job, accs[1])
        win[Choice.NO_RUMBA] = accs[2].estimate(plan)
    from ..answer.pipeline import paired_of

    negated = paired_of(job, accs[1])  # accs[1] holds minus the payout

    def payout_difference(a: str, b: str) -> Estimate:
        d = negated(a, b)
        return Estimate(-d.mean, -d.high, -d.low, d.samples)

    return GameAnswer(hand_result, by_game, win, state, rest, deals / max(1, accs[0].n * len(job.names)),
                      unfinished, payout_difference, tuple(table.sees_score), table_assumes(table),
                      opponents_at_score(rules_, state, seat, table, hand_pol))


def opponents_at_score(rules, state: GameState, seat: int, table, hand_pol) -> list[dict]:
    """What the score does to each score-aware opponent this hand: his class, and how often he joins a Rumba called
    before him (nobody in yet) with a random hand, against the per-hand equilibrium's rate."""
    if hand_pol is None:
        return []
    from ..strategy import store
    from ..strategy.score_aware import bucket_shares, find_score, join_rates
    from ..strategy.score_classes import describe_class
    from .api import strategy_rules

    base_rules = strategy_rules(rules)
    solved, base = find_score(base_rules, state.players), store.find(base_rules, state.players)
    classes = hand_pol.meta["score_classes"]
    rates = join_rates(solved, base, classes, bucket_shares(base_rules, base, hands=50_000))
    return [{"seat": s, "score": state.scores[s], "score_class": describe_class(classes[s]),
             "joins_a_rumba": aware, "joins_a_rumba_per_hand_equilibrium": blind}
            for s, (aware, blind) in enumerate(rates) if s != seat and table.sees_score[s]]


def opponents_text(answer: GameAnswer) -> str:
    """The opponents the score moves, in one sentence (empty where it moves none by 5 points or more)."""
    moved = [o for o in answer.opponents_at_score
             if abs(o["joins_a_rumba"] - o["joins_a_rumba_per_hand_equilibrium"]) >= 0.05]
    if not moved:
        return ""
    return ("At this score " + "; ".join(
        f"seat {o['seat']} ({o['score']} point{'' if o['score'] == 1 else 's'}: {o['score_class']}) joins a Rumba "
        f"called before him with {o['joins_a_rumba']:.0%} of hands ({o['joins_a_rumba_per_hand_equilibrium']:.0%} "
        f"when nobody looks at the score)" for o in moved) + ".")


def hand_policy(rules, state: GameState, table):
    """The policy of this hand's seats at the score state (seat ``players - 1`` deals): every seat's row as the
    game kernel puts it together (``scored.select_policy``), so that this hand and the rest decide alike."""
    from ..engine.rules_layout import rules_array
    from ..opponents.policies import Policy
    from .scored import new_work, select_policy

    n = state.players
    work, sources, classes = new_work(n, table.stack)
    select_policy(np.array(state.scores, np.int64), np.array(state.passes, np.int64), state.dealer,
                  rules_array(rules), game_array(rules), table.stack, table.fixed, table.aware, work, sources, classes)
    return Policy("equilibrium", n, *work, {"kind": "strategy", "score_classes": [int(c) for c in classes],
                                            "score_aware": list(table.sees_score)})


def closing_note(answer: GameAnswer) -> str:
    """Where and why the score changes the choice (or that it does not), in one or two sentences."""
    hand, s = answer.hand, answer.state
    seat = hand.situation.seat
    own = s.scores[seat]
    best_other = min(x for i, x in enumerate(s.scores) if i != seat)
    where = (f"at {own} point{'' if own == 1 else 's'} against the best opponent's {best_other} "
             f"({'everybody at the start' if len(set(s.scores)) == 1 else 'the score matters'})")
    if not answer.differs:
        return f"The score does not change the choice {where}: {answer.recommendation} is best by both measures."
    game_best = answer.game_actions()[answer.recommendation]
    hand_best = answer.game_actions().get(hand.recommendation)
    gain = answer.payout(game_best).mean - (answer.payout(hand_best).mean if hand_best else float("nan"))
    changes = []
    for name in (game_best, hand_best):
        if name is not None:
            changes.append(f"{name} {hand.options[name].ev.mean:+.2f} points this hand")
    finish = rumba_note(answer)
    return (f"The score changes the choice {where}: by the hand alone {hand.recommendation} is best, by the game "
            f"{answer.recommendation} ({'; '.join(changes)}); {answer.recommendation} gains {gain:+.2f} stakes of "
            f"expected payout and moves the chance to win the game from {answer.win[hand_best].mean:.1%} to "
            f"{answer.win[game_best].mean:.1%}" + (f" ({finish})" if finish else "") + ".")


def rumba_note(answer: GameAnswer) -> str:
    """Which Rumbas end the game for the asking player, only where the hand or the game recommends a Rumba."""
    if "rumba" not in (answer.recommendation, answer.hand.recommendation):
        return ""
    return rumba_finish(answer.hand.situation.rules, answer.state.scores[answer.hand.situation.seat])


def rumba_finish(rules, score: int) -> str:
    """Which successful Rumbas take ``score`` to the goal or below (§4.8, §9), in words; empty when none does.

    Every success counts: the fewest tricks that succeed (``rumba_min_tricks``) up to all of them, and the lone
    Rumba nobody joins where the rules allow it (swiss -5, the same as a 3-trick Rumba's -6 does not end a game at
    6)."""
    made = {k: rules.rumba_success_flat + rules.rumba_success_per_trick * k
            for k in range(rules.rumba_min_tricks, rules.hand_size + 1)}
    outcomes = list(made.values()) + ([rules.lone_rumba_score] if rules.lone_rumba_allowed else [])
    if all(score + change <= rules.goal_score for change in outcomes):
        return "any successful Rumba ends the game for him"
    enough = [k for k, change in made.items() if score + change <= rules.goal_score]
    if not enough:
        return ""
    tricks = "all " + str(rules.hand_size) if enough[0] == rules.hand_size else f"{enough[0]} or more"
    return f"a Rumba that takes {tricks} tricks ends the game for him"


def hand_text(answer: GameAnswer) -> str:
    s = answer.hand.situation
    return f"{' '.join(format_card(c) for c in s.hand)}, trump {format_card(s.trump_card)}, seat {s.seat}"


__all__ = ["ask_game", "check_scores", "game_document", "GameAnswer", "closing_note", "PAYOUT_SIGN", "DEFAULT_SAMPLES",
           "scores_in_seats"]
