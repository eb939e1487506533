"""Whole-game values from a score state: every player's chance to win and expected payout (RULES.md §9).

``game_values`` simulates games from a score state with the kernel of
``scored.py``, every player deciding by his score class's strategy (the
shipped score-aware equilibrium, issue 38) or by a fixed policy of the hand
alone (``hand-equilibrium``, a style), and playing cards by the default card
play. Payouts
are in stake units, positive = received (zero-sum for ``to-winners`` and
``pairwise``). Game ``i`` depends on (seed, i) alone, so a run in batches, or
resumed later from ``start``, adds up to exactly the same games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..answer.simulation import POLICIES
from ..cardplay import DEFAULT_PLAY
from ..engine.compiled import announce_compile
from ..engine.rules_layout import rules_array
from ..opponents.policies import Policy
from ..opponents.resolve import EQUILIBRIUM, opponent_policy
from ..rules import PRESETS, RulesError, RuleSet, get_rules
from ..strategy.score_aware import HAND_EQUILIBRIUM, GameTable, find_score, game_table
from .kernel import MAX_HANDS
from .score import game_array
from .scored import scored_batch

DEFAULT_GAMES = 20_000
DEFAULT_SEED = 2109  # issue 21
BATCH = 65_536
Z95 = 1.959963984540054


def strategy_rules(rules: RuleSet) -> RuleSet:
    """The rule set whose solved strategy a game uses: one hand does not depend on the §9 fields, so a house rule
    that only changes the game (payout, start score ...) plays the preset's strategy."""
    hand = rules.hand_rules()
    key = {k: v for k, v in hand.to_dict().items() if k not in ("name", "description", "start_score")}
    for preset in PRESETS.values():
        if {k: v for k, v in preset.to_dict().items() if k not in ("name", "description", "start_score")} == key:
            return preset
    return hand


def game_policy(rules: RuleSet, players: int, opponents=None) -> tuple[Policy, np.ndarray]:
    """(policy of every seat, the dealer's knock probability by rank of the card turned).

    ``opponents`` None or ``equilibrium``: the per-hand solved strategy (its knock too); else anything
    ``resolve.opponent_policy`` takes, and a dealer who never knocks. One fixed policy of the hand alone: a game's
    table of players (who may see the score) is :func:`table_for`'s.
    """
    knock = np.zeros(16, dtype=np.float64)
    base = strategy_rules(rules)
    named = opponents.strip() if isinstance(opponents, str) else ""
    base_name = named.split(",")[0].strip().lower()
    if opponents is None or (isinstance(opponents, str) and base_name in (EQUILIBRIUM, "")):
        from ..strategy.store import find

        policy = opponent_policy(named if "," in named else EQUILIBRIUM, base, players)
        if rules.knock:
            knock[:] = np.asarray(find(base, players).strategy.knock, dtype=np.float64)[:16]
        return policy, knock
    return opponent_policy(opponents, base, players), knock


# What a game answer assumes of players who do not see the score: said in its output
SCORE_BLIND = ("every player decides each hand by the opponents' strategy for the hand alone (the per-hand "
               "equilibrium or a style): nobody looks at the score")


def table_for(rules: RuleSet, players: int, opponents=None) -> GameTable:
    """How every player of a game decides: ``opponents`` None or ``equilibrium`` is the score-aware equilibrium
    where one is solved (else the per-hand one, and the table says nobody sees the score); ``hand-equilibrium``
    the per-hand equilibrium; a style, a TOML file or a Policy a fixed policy. ``BASE,P=STYLE,...`` seats another
    model at player ``P`` (``game --seat-model``: players, not seats, since the deal moves round the table)."""
    base = strategy_rules(rules)
    solved = find_score(base, players)
    if not (opponents is None or isinstance(opponents, str)):
        policy, knock = game_policy(rules, players, opponents)
        return game_table(base, players, [(policy.name, policy, knock)] * players, None)
    parts = [part.strip() for part in (opponents or "").split(",")]
    cache: dict = {}

    def one(name: str):
        key = (name or EQUILIBRIUM).lower()
        if key not in cache:
            if key == EQUILIBRIUM and solved is not None:
                cache[key] = (EQUILIBRIUM, None, None)
            elif key in (EQUILIBRIUM, HAND_EQUILIBRIUM):
                cache[key] = (HAND_EQUILIBRIUM, *game_policy(rules, players, None))
            else:
                cache[key] = (name, *game_policy(rules, players, name))
        return cache[key]

    per_player = [one(parts[0])] * players
    for part in parts[1:]:
        player, _, style = part.partition("=")
        if not player.strip().isdigit() or not style.strip():
            raise RulesError(f"--seat-model {part!r}: write PLAYER=STYLE, e.g. 0=hand-equilibrium")
        p = int(player)
        if not 0 <= p < players:
            raise RulesError(f"--seat-model {part!r}: player {p} does not exist with {players} players")
        per_player[p] = one(style.strip())
    return game_table(base, players, per_player, solved if any(pol is None for _n, pol, _k in per_player) else None)


def table_assumes(table: GameTable) -> str:
    """What a game answer assumes of its players, in words (said in every output)."""
    aware = [p for p, a in enumerate(table.sees_score) if a]
    if not aware:
        return SCORE_BLIND
    blind = [p for p, a in enumerate(table.sees_score) if not a]
    who = "every player decides" if not blind else "players " + ", ".join(map(str, aware)) + " decide"
    text = (f"{who} each hand by the score-aware equilibrium (strategies by his own distance to 0, the leader's "
            f"and whether a pass costs the sit-out penalty)")
    if blind:
        text += "; " + "; ".join(f"player {p} by {table.names[p]}, blind to the score" for p in blind)
    return text


@dataclass(frozen=True)
class GameState:
    """Every player's score and passes in a row, and who deals the next hand (players clockwise)."""

    scores: tuple[int, ...]
    passes: tuple[int, ...]
    dealer: int

    @classmethod
    def make(cls, rules: RuleSet, players: int | None = None, scores=None, passes=None,
             dealer: int | None = None) -> GameState:
        if scores is None:
            if players is None:
                raise RulesError("give the players or every player's score")
            scores = [rules.start_score] * players
        scores = tuple(int(s) for s in scores)
        n = len(scores) if players is None else players
        if len(scores) != n:
            raise RulesError(f"--scores: {len(scores)} scores for {n} players")
        rules.check_players(n)
        if any(s <= rules.goal_score for s in scores):
            raise RulesError(f"--scores: a player is already at {rules.goal_score} or below: the game is over")
        if any(s > 999 for s in scores):
            raise RulesError("--scores: scores above 999 are not a game")
        passes = tuple([0] * n if passes is None else (int(p) for p in passes))
        if len(passes) != n:
            raise RulesError(f"--passes: {len(passes)} streaks for {n} players")
        if any(p < 0 for p in passes):
            raise RulesError("--passes: a streak of passes cannot be negative")
        dealer = n - 1 if dealer is None else int(dealer)
        if not 0 <= dealer < n:
            raise RulesError(f"--dealer: player {dealer} does not exist with {n} players (0..{n - 1})")
        return cls(scores, passes, dealer)

    @property
    def players(self) -> int:
        return len(self.scores)


@dataclass
class GameValues:
    """Per player: wins and payouts summed over ``games`` (resumable: add batches with :meth:`add`)."""

    rules: RuleSet
    state: GameState
    opponents: str
    play: str
    seed: int
    games: int = 0
    sees_score: list = field(default=None)  # per player: decides by the score-aware strategy
    assumes: str = SCORE_BLIND
    unfinished: int = 0
    deals: int = 0
    ties: int = 0
    wins: np.ndarray = field(default=None)
    wins_sq: np.ndarray = field(default=None)
    pay_sum: np.ndarray = field(default=None)
    pay_sq: np.ndarray = field(default=None)

    def __post_init__(self) -> None:
        n = self.state.players
        for name in ("wins", "wins_sq", "pay_sum", "pay_sq"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(n))

    def add(self, wins: np.ndarray, pays: np.ndarray, deals: np.ndarray) -> None:
        """Add a batch: won flags (games, n), payouts (games, n), deals per game (negative: unfinished)."""
        winners = wins.sum(axis=1, keepdims=True)
        share = np.where(winners > 0, wins / np.maximum(winners, 1), 0.0)  # a tie of k winners: 1/k each
        self.games += len(deals)
        self.unfinished += int((deals < 0).sum())
        self.ties += int((winners > 1).sum())
        self.deals += int(np.abs(deals).sum())
        self.wins += share.sum(axis=0)
        self.wins_sq += (share * share).sum(axis=0)
        self.pay_sum += pays.sum(axis=0)
        self.pay_sq += (pays * pays).sum(axis=0)

    @property
    def p_win(self) -> np.ndarray:
        """Each player's share of the win: his chance to win, a win shared by k tied winners counting 1/k (the
        shares of all players add up to 1)."""
        return self.wins / max(self.games, 1)

    def p_win_se(self) -> np.ndarray:
        return _se(self.wins, self.wins_sq, self.games)

    @property
    def payout(self) -> np.ndarray:
        return self.pay_sum / max(self.games, 1)

    def payout_se(self) -> np.ndarray:
        return _se(self.pay_sum, self.pay_sq, self.games)

    @property
    def mean_deals(self) -> float:
        return self.deals / max(self.games, 1)

    def win_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each player's chance to win when some games did not finish: at least his wins among all games, at most
        that plus every unfinished game."""
        games = max(self.games, 1)
        return self.wins / games, (self.wins + self.unfinished) / games

    def unfinished_text(self) -> str:
        """Why no chance to win is given (empty when every game finished)."""
        if not self.unfinished:
            return ""
        return (f"{self.unfinished:,} of {self.games:,} games did not finish within {MAX_HANDS:,} hands (under "
                f"these opponents the scores need not reach 0): no chance to win or payout can be given, only "
                f"bounds on the chance")

    def see_list(self) -> list[bool]:
        return list(self.sees_score) if self.sees_score is not None else [False] * self.state.players

    def to_dict(self) -> dict:
        if self.unfinished:  # a chance over the finished games only would ignore them: bounds, never a number
            low, high = self.win_bounds()
            return {
                "rules": self.rules.name, "payout_rule": self.rules.payout, "players": self.state.players,
                "scores": list(self.state.scores), "passes": list(self.state.passes), "dealer": self.state.dealer,
                "opponents": self.opponents, "play": self.play, "seed": self.seed, "games": self.games,
                "unfinished": self.unfinished, "note": self.unfinished_text(), "tied_games": self.ties,
                "players_see_the_score": self.see_list(), "assumes": self.assumes,
                "mean_deals": self.mean_deals, "sign": "payout in stake units, positive = received",
                "per_player": [{"player": p, "score": self.state.scores[p], "p_win": None, "p_win_95": None,
                                "p_win_bounds": [float(low[p]), float(high[p])], "payout": None, "payout_95": None}
                               for p in range(self.state.players)],
            }
        wse = self.p_win_se()
        se = self.payout_se()
        return {
            "rules": self.rules.name, "payout_rule": self.rules.payout, "players": self.state.players,
            "scores": list(self.state.scores), "passes": list(self.state.passes), "dealer": self.state.dealer,
            "opponents": self.opponents, "play": self.play, "seed": self.seed, "games": self.games,
            "unfinished": self.unfinished, "tied_games": self.ties, "mean_deals": self.mean_deals,
            "players_see_the_score": self.see_list(), "assumes": self.assumes,
            "sign": "payout in stake units, positive = received",
            "per_player": [{"player": p, "score": self.state.scores[p], "p_win": float(self.p_win[p]),
                            "p_win_95": [float(self.p_win[p] - Z95 * wse[p]), float(self.p_win[p] + Z95 * wse[p])],
                            "payout": float(self.payout[p]),
                            "payout_95": [float(self.payout[p] - Z95 * se[p]), float(self.payout[p] + Z95 * se[p])]}
                           for p in range(self.state.players)],
        }


def _se(total: np.ndarray, squares: np.ndarray, n: int) -> np.ndarray:
    """Standard error of a mean from its sum and sum of squares over ``n`` games."""
    n = max(n, 1)
    var = np.maximum(squares / n - (total / n) ** 2, 0.0) * n / max(n - 1, 1)
    return np.sqrt(var / n)


def game_values(rules="swiss", players: int | None = None, scores=None, passes=None, dealer: int | None = None,
                games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED, opponents=None, play: str = DEFAULT_PLAY,
                start: int = 0, into: GameValues | None = None) -> GameValues:
    """Every player's chance to win and expected payout from a score state, by ``games`` simulated games.

    ``start``: the first game's index (continue an earlier run with ``into`` and ``start=into.games``).
    """
    rules = get_rules(rules)
    state = GameState.make(rules, players, scores, passes, dealer)
    n = state.players
    if games < 1:
        raise RulesError(f"--games must be positive, got {games}")
    if not 0 <= int(seed) < 2**63:
        raise RulesError(f"--seed must be in 0..2**63-1, got {seed}")
    if play not in POLICIES:
        raise RulesError(f"unknown card play {play!r} (use {' or '.join(POLICIES)})")
    table = table_for(rules, n, opponents)
    out = into or GameValues(rules, state, EQUILIBRIUM if opponents is None else str(opponents), play, int(seed),
                             sees_score=table.sees_score, assumes=table_assumes(table))
    rp, gp = rules_array(rules), game_array(rules)
    deck = rules.deck_array()
    done = 0
    announce_compile(scored_batch, "the whole-game simulator")
    while done < games:
        count = min(BATCH, games - done)
        _finals, wins, pays, deals, *_trace = scored_batch(
            deck, n, np.array(state.scores, dtype=np.int64), np.array(state.passes, dtype=np.int64), state.dealer, rp,
            gp, table.stack, table.knock_stack, table.fixed, table.fixed_knock, table.aware, POLICIES[play],
            np.uint64(seed), np.uint64(start + done), count, MAX_HANDS, 0)
        out.add(wins, pays, deals)
        done += count
    return out


def interval_text(value: float, half: float, digits: int = 2) -> str:
    return f"{value:+.{digits}f} ± {half:.{digits}f}" if math.isfinite(half) else f"{value:+.{digits}f}"


__all__ = ["game_values", "GameValues", "GameState", "SCORE_BLIND", "game_policy", "table_for", "table_assumes",
           "strategy_rules", "DEFAULT_GAMES", "DEFAULT_SEED"]
