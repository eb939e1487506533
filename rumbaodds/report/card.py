"""The rule card: ``MAX_LINES`` lines per player count (up to ``LINE_LIMIT`` where its bounds need them), fitted to
a source of cells (:mod:`.cells`).

The report fits it to every cell of a packed full table (the swiss cards, ``cards.json``); it fits the cells of
a table's frame (:func:`.cells.from_table`) the same way, where the report keeps a quick table's lines in words
(:mod:`.lines`).

A card is read from the top: the first line that fits your hand says what to do; the last line says what to do
otherwise. A line is a choice (pass, play, call Rumba) with a condition a player checks at a glance, a
conjunction of at most ``MAX_ATOMS`` of: his seat (first to speak, middle seats, dealer, ...), how many trumps,
his highest trump, side aces, one or two void side suits, whether the turned card is the trump A, and **hand
points** (trump A 6, K 5, Q 4, J 3, lower trumps 2; side A 3, side K 1: the points the opponent models use,
docs/SIMULATION.md).

Fitting (greedy, then refined), from each choice as the last line, keeping the best: repeatedly add, at the
height where it helps most, the line that lowers the card's loss most (the points per hand it gives away against
each hand's best choice in the table, weighted by how often each hand is dealt); then sweep the lines, replacing
each by the best one given the others, until nothing improves. A line's **points saved** are what forgetting
it (and only it) would cost; the last line's, what the other choice there would cost. Cells are pooled first into
groups that every condition treats alike (seat, trumps, top trumps, side aces, side kings, voids, the turned A);
each group lies in one box of the report's grids (seat group, row, column).

**The bounds** (:func:`_bounded_fit`): in no grid box holding at least ``WORST_SHARE`` of the hands dealt may
following the card lose more than ``WORST_LOSS`` points per hand on average, and over all hands at most
``TARGET_LOSS``. Where the plain fit breaks the box bound, exception lines go on top of it, one at a time, each the
line that lowers most the card's loss plus ``BOX_PENALTY`` times the boxes' excess over the bound (counted exactly
for every candidate line); where the card still breaks a bound, the plain fit gets one line more and the
exceptions are sought again, up to ``LINE_LIMIT`` lines. An exception line may also name a grid box itself, whole
or split by the voids or the turned A (:func:`box_candidates`). The card states its worst box (:class:`WorstBox`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ..cards import RANKS
from .cells import ACTIONS, PLAY, RUMBA, SIT, Z95, Cells
from .grids import Interval, box_keys, group_title
from .grids import seat_groups as grid_seat_groups
from .line_sums import box_move_totals, first_lists, masked_sums, member_lists
from .shapes import Honours, rank_name

MAX_LINES = 8  # lines per player count, the last one "otherwise ..."
MAX_ATOMS = 3  # conditions per line (the seat not counted)
ATOM_COST = 2e-4  # points per hand an extra condition must save to be worth reading
# the bounds (:func:`_bounded_fit`): in no grid box of at least WORST_SHARE of the hands dealt may following the card
# lose more than WORST_LOSS points per hand, and on average at most TARGET_LOSS; the card may grow to LINE_LIMIT lines
# to meet them
WORST_LOSS = 0.5
WORST_SHARE = 0.001
TARGET_LOSS = 0.06
LINE_LIMIT = 13
BOX_PENALTY = 100.0  # exception lines: a point per hand of a box's excess over its bound weighs this much loss
NUMBERS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
SEATS = ("every seat", "first to speak", "middle seats", "dealer", "not first to speak", "not the dealer")
VERB = {SIT: "Pass", PLAY: "Play", RUMBA: "Call Rumba"}


@dataclass(frozen=True)
class Atom:
    """One condition on what a player sees: ``feature op value`` (op ">=", "<=", "==")."""

    feature: str  # trumps, top, aces, voids, points, turned (the turned card's rank)
    op: str
    value: int

    def holds(self, f: dict[str, np.ndarray]) -> np.ndarray:
        x = np.asarray(f[self.feature]).astype(np.int64)
        return x >= self.value if self.op == ">=" else (x <= self.value if self.op == "<=" else x == self.value)

    def text(self, top: int, rules=None) -> str:
        v, op = self.value, self.op
        if self.feature in ("row", "col"):  # a grid box's row or column, as the grids beside the card name it
            from .shapes import side_columns, trump_rows

            label = (trump_rows if self.feature == "row" else side_columns)(rules)[v]
            if label == "none":
                return "no trump" if self.feature == "row" else "no side ace or king"
            if self.feature == "row":
                return label if "trump" in label else f"trumps {label}"
            return f"side {label}"
        if self.feature == "trumps":
            word = "trump" if v == 1 else "trumps"
            if op == ">=":
                return "a trump" if v == 1 else f"{v}+ trumps"
            if op == "<=":
                return "no trump" if v == 0 else f"at most {NUMBERS.get(v, v)} {word}"
            return f"exactly {NUMBERS.get(v, v)} {word}"
        if self.feature == "top":
            name = rank_name(v)
            if op == ">=":
                return f"the trump {name}" if v >= top else f"a trump {name} or higher"
            return f"no trump {rank_name(v + 1)} or higher" if v + 1 < top else f"no trump {rank_name(top)}"
        if self.feature == "aces":
            if op == ">=":
                return "a side ace" if v == 1 else f"{v}+ side aces"
            return "no side ace" if v == 0 else f"at most {NUMBERS.get(v, v)} side ace{'s' if v > 1 else ''}"
        if self.feature == "voids":
            if op == ">=":
                return "a void side suit" if v == 1 else f"{NUMBERS.get(v, v)} void side suits"
            plural = "s" if v > 1 else ""
            return "no void side suit" if v == 0 else f"at most {NUMBERS.get(v, v)} void side suit{plural}"
        if self.feature == "points":
            return f"{v}+ points" if op == ">=" else f"at most {v} points"
        if self.feature == "turned":
            ace = rank_name(top)
            return f"the trump {ace} turned up" if op == ">=" else f"not the trump {ace} turned up"
        raise ValueError(self.feature)  # pragma: no cover


@dataclass(frozen=True)
class Condition:
    seats: str = "every seat"
    atoms: tuple[Atom, ...] = ()

    def seat_mask(self, seat: np.ndarray, players: int) -> np.ndarray:
        seat = np.asarray(seat)
        return {"every seat": np.ones(len(seat), bool), "first to speak": seat == 0,
                "middle seats": (seat > 0) & (seat < players - 1), "dealer": seat == players - 1,
                "not first to speak": seat > 0, "not the dealer": seat < players - 1}[self.seats]

    def holds(self, f: dict[str, np.ndarray], players: int) -> np.ndarray:
        out = self.seat_mask(f["seat"], players)
        for a in self.atoms:
            out = out & a.holds(f)
        return out

    def text(self, top: int, rules=None) -> str:
        return " and ".join(a.text(top, rules) for a in self.atoms)


@dataclass
class CardLine:
    action: str
    condition: Condition | None  # None: the last line (otherwise)
    saved: Interval = field(default_factory=lambda: Interval(math.nan, math.nan, math.nan))

    def text(self, rules) -> str:
        top = RANKS.index(rules.ranks[-1])
        if self.condition is None:
            return f"Otherwise {VERB[self.action][0].lower() + VERB[self.action][1:]}."
        c = self.condition
        who = "" if c.seats == "every seat" else c.seats[0].upper() + c.seats[1:] + ": "
        verb = VERB[self.action] if not who else VERB[self.action][0].lower() + VERB[self.action][1:]
        cond = c.text(top, rules)
        return f"{who}{verb} with {cond}." if cond else f"{who}{verb}."


@dataclass
class RuleCard:
    """One player count's card: lines in reading order (the last one: otherwise), and how well it does."""

    players: int
    lines: list[CardLine]
    lost: Interval  # points per hand following the card gives away against the table's best choice
    agreement: float  # weighted share of hands where the card's choice is the table's best
    agreement_sure: float  # the same among hands whose table interval excludes a tie
    pass_lost: float  # points per hand passing every hand gives away (what the lines save together)
    vs_grid: float = math.nan  # weighted share of hands where the card and their grid box differ
    grid_lost: float = math.nan  # points per hand following the grids gives away
    lower_bound_share: float = 0.0  # share of hands where the card's loss is a lower bound (a third choice)
    floor: float = math.nan  # the least any card in these words can lose, however many lines (:func:`floor_of`)
    worst: WorstBox | None = None  # the grid box of at least WORST_SHARE of the hands where the card loses most

    def choice(self, f: dict[str, np.ndarray]) -> np.ndarray:
        """ACTIONS index per hand (``f``: hand features with ``seat``), first matching line."""
        n = len(np.asarray(f["seat"]))
        out = np.full(n, -1, dtype=np.int64)
        for line in self.lines:
            hit = np.ones(n, bool) if line.condition is None else line.condition.holds(f, self.players)
            out = np.where((out < 0) & hit, ACTIONS.index(line.action), out)
        return out

    def texts(self, rules) -> list[str]:
        return [line.text(rules) for line in self.lines]


# -- the candidates --------------------------------------------------------------------------------------------
def atom_family(rules) -> dict[str, list[Atom]]:
    top = Honours.of(rules).top
    h = rules.hand_size
    low = RANKS.index(rules.ranks[0])
    tops = [r for r in range(max(low, top - 3), top + 1)]
    return {
        "trumps": [Atom("trumps", ">=", k) for k in range(1, h + 1)] + [Atom("trumps", "<=", k) for k in range(h)]
        + [Atom("trumps", "==", k) for k in range(1, h)],
        "top": [Atom("top", ">=", r) for r in tops] + [Atom("top", "<=", r - 1) for r in tops],
        "aces": [Atom("aces", ">=", u) for u in range(1, min(3, h) + 1)] + [Atom("aces", "<=", u) for u in range(3)]
        + [Atom("voids", ">=", 1), Atom("voids", "<=", 0), Atom("voids", ">=", 2), Atom("voids", "<=", 1)],
        "points": [Atom("points", ">=", p) for p in range(2, 31)] + [Atom("points", "<=", p) for p in range(1, 30)],
        "turned": [Atom("turned", ">=", top), Atom("turned", "<=", top - 1)],
    }


def _combos(rules, max_atoms: int) -> tuple[list[list[Atom]], np.ndarray]:
    """(atoms per slot, every combination of at most ``max_atoms`` atoms as slot indices (0: none), fewest
    atoms first)."""
    slots = list(atom_family(rules).values())
    idx = np.array(list(itertools.product(*[range(len(a) + 1) for a in slots])), dtype=np.int64)
    k = (idx > 0).sum(axis=1)
    idx = idx[k <= max_atoms]
    return slots, idx[np.argsort((idx > 0).sum(axis=1), kind="stable")]


def _condition(seats: str, slots, row) -> Condition:
    return Condition(seats, tuple(slots[j][i - 1] for j, i in enumerate(row) if i > 0))


def conditions(rules, max_atoms: int = MAX_ATOMS) -> list[Condition]:
    """Every condition of the family, simplest first (every seat before one seat group, fewer atoms first)."""
    slots, idx = _combos(rules, max_atoms)
    return [_condition(seats, slots, row) for seats in SEATS for row in idx]


def candidates(rules, f: dict[str, np.ndarray], players: int, max_atoms: int = MAX_ATOMS
               ) -> tuple[list[Condition], np.ndarray]:
    """(conditions, their masks over ``f``'s rows): one condition per distinct set of rows it holds for, the
    simplest (in :func:`conditions`' order); none that holds for no row. Vectorised over the slots,
    deduplicated by a random projection of the masks."""
    n = len(np.asarray(f["seat"]))
    slots, idx = _combos(rules, max_atoms)
    slot_masks = [np.vstack([np.ones(n, bool)] + [a.holds(f) for a in atoms]) for atoms in slots]
    projection = np.random.default_rng(12345).random(n)
    keep_conds, keep_masks, seen = [], [], set()
    chunk = 4096
    for seats in SEATS:
        seat = Condition(seats).seat_mask(f["seat"], players)
        for start in range(0, len(idx), chunk):
            part = idx[start:start + chunk]
            m = seat[None, :] & slot_masks[0][part[:, 0]]
            for j in range(1, len(slots)):
                m &= slot_masks[j][part[:, j]]
            keys = np.round(m @ projection, 6)
            for j in np.flatnonzero(keys > 0):
                key = float(keys[j])
                if key not in seen:
                    seen.add(key)
                    keep_conds.append(_condition(seats, slots, part[j]))
                    keep_masks.append(m[j])
    return keep_conds, np.array(keep_masks)


# -- groups of cells every condition treats alike ---------------------------------------------------------------
@dataclass
class Groups:
    features: dict[str, np.ndarray]  # per group (seat, trumps, top, aces, kings, voids, points)
    loss: np.ndarray  # (groups, 3) weighted loss sums / total weight
    var: np.ndarray  # (groups, 3, 3) sum of (w h_ab / 1.96)^2 / total^2: the variance of a switch a -> b
    loss_var: np.ndarray  # (groups, 3) the same of each choice's loss against each hand's best
    wrong: np.ndarray  # (groups, 3) weighted share of hands whose best is not this choice
    wrong_sure: np.ndarray  # (groups, 3) ... among the sure hands
    sure: np.ndarray  # (groups,) weighted share of sure hands
    unknown: np.ndarray  # (groups, 3) weighted share of hands whose loss of this choice is a lower bound
    total: float
    share: np.ndarray | None = None  # (groups,) share of every hand dealt
    box: np.ndarray | None = None  # (groups,) the grid box each group lies in (an index into ``boxes``)
    boxes: list[GridBox] = field(default_factory=list)  # every box of the grids: (grid title, row, column)


@dataclass(frozen=True)
class GridBox:
    """One box of the report's grids: its grid (the seat group's title) and its row and column labels."""

    grid: str
    seats: tuple[int, ...]
    row: str
    col: str


def group_cells(fc: Cells, seat_groups: list[tuple[int, ...]] | None = None) -> Groups:
    """``fc``'s cells pooled into groups alike to every condition; each group lies in one box of the grids of
    ``seat_groups`` (default: the report's, :func:`.grids.seat_groups`)."""
    seat = fc.seat.astype(np.int64)
    per = fc.feature
    top = Honours.of(fc.rules).top
    hon = (per("trump_lane") >> max(0, top - 3)) & 15
    turned = per("trump_rank").astype(np.int64)
    key = ((((((seat * 8 + per("n_trumps")) * 16 + hon) * 4 + per("side_aces")) * 4
             + np.minimum(per("side_kings"), 3)) * 4 + per("voids")) * 2 + (turned == top))
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    w = fc.weight
    total = float(w.sum())
    g = len(uniq)
    loss = np.stack([np.bincount(inv, w * fc.loss[:, a], g) for a in range(3)], axis=1) / total
    var = np.zeros((g, 3, 3))
    best = fc.best
    for a, b in itertools.permutations(range(3), 2):
        h = np.where(best == a, fc.loss_half[:, b], np.where(best == b, fc.loss_half[:, a],
                                                              np.hypot(fc.loss_half[:, a], fc.loss_half[:, b])))
        var[:, a, b] = np.bincount(inv, (w * h / Z95) ** 2, g) / total ** 2
    loss_var = np.stack([np.bincount(inv, (w * fc.loss_half[:, a] / Z95) ** 2, g) for a in range(3)],
                        axis=1) / total ** 2
    sure = fc.sure
    wrong = np.stack([np.bincount(inv, w * (best != a), g) for a in range(3)], axis=1) / total
    wrong_sure = np.stack([np.bincount(inv, w * ((best != a) & sure), g) for a in range(3)], axis=1) / total
    unknown = np.stack([np.bincount(inv, w * ~fc.known[:, a], g) for a in range(3)], axis=1) / total
    feats = {"seat": seat[first], "trumps": per("n_trumps")[first].astype(np.int64),
             "top": per("top_trump")[first].astype(np.int64), "aces": per("side_aces")[first].astype(np.int64),
             "voids": per("voids")[first].astype(np.int64), "points": per("points")[first].astype(np.int64),
             "turned": turned[first], "row": per("row")[first].astype(np.int64),
             "col": per("col")[first].astype(np.int64)}
    # the grid box of each group: its seat group's grid, its row and column (a group never straddles two)
    seat_groups = grid_seat_groups(fc) if seat_groups is None else seat_groups
    group_of_seat = np.zeros(fc.players, dtype=np.int64)
    for k, seats in enumerate(seat_groups):
        group_of_seat[list(seats)] = k
    keys, nb = box_keys(fc)
    cell_box = group_of_seat[seat] * nb + keys
    box = cell_box[first]
    if not (box[inv] == cell_box).all():
        raise ValueError("a group of cells alike to the card straddles two grid boxes")
    nc = len(fc.cols)
    boxes = [GridBox(group_title(seats, fc.players), tuple(int(s) for s in seats), fc.rows[i // nc], fc.cols[i % nc])
             for seats in seat_groups for i in range(nb)]
    return Groups(feats, loss, var, loss_var, wrong, wrong_sure, np.bincount(inv, w * sure, g) / total, unknown, total,
                  np.bincount(inv, w, g) / total, box, boxes)


def atom_features(f: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Hand features (cells.hand_features names, with ``seat`` and the turned card's ``trump_rank``) under the names
    the atoms read."""
    out = {"seat": np.asarray(f["seat"]), "trumps": np.asarray(f["n_trumps"]), "top": np.asarray(f["top_trump"]),
           "aces": np.asarray(f["side_aces"]), "voids": np.asarray(f["voids"]), "points": np.asarray(f["points"]),
           "turned": np.asarray(f["trump_rank"])}
    for box in ("row", "col"):  # the grid box, where known: what a box's exception line reads
        if box in f:
            out[box] = np.asarray(f[box])
    return out


# -- fitting -------------------------------------------------------------------------------------------------
def _assign(lines: list[tuple[int, int]], masks: np.ndarray, default: int, n: int) -> np.ndarray:
    out = np.full(n, default, dtype=np.int64)
    for i, a in reversed(lines):
        out = np.where(masks[i], a, out)
    return out


def fit_card(fc: Cells, max_lines: int = MAX_LINES, max_atoms: int = MAX_ATOMS, bounded: bool = True,
             line_limit: int = LINE_LIMIT, seat_groups: list[tuple[int, ...]] | None = None) -> RuleCard:
    """The card of ``fc``'s player count (see the module docstring): the best of the fits started from each
    choice as the last line. ``bounded``: the fewest lines from ``max_lines`` up to ``line_limit`` whose card meets
    both bounds (:func:`_bounded_fit`; where none does, the one that comes nearest); else the plain fit in
    ``max_lines``. ``seat_groups``: the grids whose boxes the bound reads (default: the report's)."""
    g = group_cells(fc, seat_groups)
    cands, masks = candidates(fc.rules, g.features, fc.players, max_atoms)
    cost = np.array([ATOM_COST * len(c.atoms) + (ATOM_COST if c.seats != "every seat" else 0.0) for c in cands])
    if bounded:
        boxes, box_masks = box_candidates(g, fc.players)
        plain = len(cands)
        cands = cands + boxes
        masks = np.vstack([masks, box_masks]) if len(boxes) else masks
        cost = np.r_[cost, np.full(len(boxes), 3 * ATOM_COST)]
        lines, default = _bounded_fit(g, masks, cost, max_lines, max(max_lines, line_limit), plain)
    else:
        lines, default, _ = _plain_fit(g.loss, masks, cost, max_lines)
    return _card(fc, g, cands, masks, lines, default)


BOX_SPLITS = (None, Atom("voids", "<=", 0), Atom("voids", ">=", 1), Atom("voids", ">=", 2),
              Atom("turned", ">=", 99))  # the turned A: its rank is set per rule set in box_candidates


def box_candidates(g: Groups, players: int) -> tuple[list[Condition], np.ndarray]:
    """Exception lines' own conditions: one grid box, named as the grids beside the card name it (its seats, its
    row and column), whole or split by the voids or the turned trump A: "Dealer: call Rumba with trumps Ax and
    side K and two void side suits." A box breaking its bound can then be mended by a line or two, where the plain
    lines' words would need four or five conditions (3 players, the dealer's Ax / K: a Rumba with the side K in
    a long suit, a play with the side cards spread)."""
    conds, masks = [], []
    f = g.features
    top = int(f["top"].max()) if len(f["top"]) else 0
    for seats in ("first to speak", "middle seats", "dealer", "every seat"):
        seat = Condition(seats).seat_mask(f["seat"], players)
        for row, col in sorted(set(zip(f["row"][seat].tolist(), f["col"][seat].tolist()))):
            for split in BOX_SPLITS:
                if split is not None and split.feature == "turned":
                    split = Atom("turned", ">=", top)
                atoms = (Atom("row", "==", int(row)), Atom("col", "==", int(col))) + (() if split is None else
                                                                                     (split,))
                c = Condition(seats, atoms)
                m = c.holds(f, players)
                if m.any():
                    conds.append(c)
                    masks.append(m)
    return conds, (np.array(masks) if masks else np.zeros((0, len(f["seat"])), bool))


def _plain_fit(loss: np.ndarray, masks: np.ndarray, cost: np.ndarray, max_lines: int, lists=None):
    """The best of :func:`_fit` started from each choice as the last line."""
    lists = member_lists(masks) if lists is None else lists
    return min((_fit(loss, masks, cost, max_lines, start, lists=lists) for start in range(len(ACTIONS))),
               key=lambda fit: fit[2])


def _bounded_fit(g: Groups, masks: np.ndarray, cost: np.ndarray, max_lines: int, line_limit: int,
                 plain: int | None = None) -> tuple[list[tuple[int, int]], int]:
    """The fewest lines (from ``max_lines`` up to ``line_limit``) of a card that loses at most ``WORST_LOSS`` per
    hand in every grid box of at least ``WORST_SHARE`` of the hands and at most ``TARGET_LOSS`` on average.

    For each length of the plain fit (``max_lines``, then one line more, grown from the lines it has): exception
    lines on top of it (:func:`_exceptions`) until no box breaks its bound. The first card that meets both bounds;
    where none does within ``line_limit`` lines, the one that comes nearest (no box over its bound if any card
    managed it, then the least average loss). ``plain``: the first so many candidates are the plain lines' (the
    rest, grid boxes, only exception lines)."""
    n = len(g.loss)
    rows = np.arange(n)
    plain = len(masks) if plain is None else plain
    lists = member_lists(masks)  # once: every fit below sums over the same candidates' groups
    head = first_lists(lists, plain)
    lines, default, _ = _plain_fit(g.loss, masks[:plain], cost[:plain], max_lines, head)
    nearest = None
    for room in range(max_lines, line_limit + 1):
        if room > max_lines:
            lines, default, _ = _fit(g.loss, masks[:plain], cost[:plain], room, default, lines, head)
        card = _exceptions(g, masks, cost, lines, default, line_limit - 1, lists)
        # and the whole card refined once more, exceptions and all: each line the best given the others
        refined, refined_default, _ = _fit(g.loss, masks, cost, len(card) + 1, default, card, lists)
        rank = None
        for option, option_default in ((card, default), (refined, refined_default)):
            choice = _assign(option, masks, option_default, n)
            lost = float(g.loss[rows, choice].sum())
            box_lost, share = box_losses(g, choice)
            over = float((box_lost[share >= WORST_SHARE] - WORST_LOSS).max(initial=0.0))
            rank = (over > 0, max(0.0, lost - TARGET_LOSS), len(option))
            if nearest is None or rank < nearest[0]:
                nearest = (rank, option, option_default)
        if nearest[0][:2] == (False, 0.0) or len(lines) + 1 >= line_limit:
            break
    return nearest[1], nearest[2]


def _exceptions(g: Groups, masks: np.ndarray, cost: np.ndarray, lines: list[tuple[int, int]], default: int,
                most: int, lists=None) -> list[tuple[int, int]]:
    """``lines`` with exception lines put on top, one at a time, while a grid box of at least ``WORST_SHARE`` of
    the hands loses more than ``WORST_LOSS`` and there is room (at most ``most`` lines): each time the line (any
    condition, any choice) that lowers most the loss plus ``BOX_PENALTY`` times every box's excess over its bound
    (points per hand over every hand), counted exactly for every candidate line."""
    n = len(g.loss)
    rows = np.arange(n)
    nb = len(g.boxes)
    share = np.bincount(g.box, g.share, nb)
    big = share >= WORST_SHARE
    run_box = np.unique(g.box)  # the boxes that hold groups
    box_of = np.searchsorted(run_box, g.box)
    bound = WORST_LOSS * share[run_box]
    keep = big[run_box]
    indptr, members = member_lists(masks) if lists is None else lists
    lines = list(lines)

    def penalty(sums: np.ndarray) -> float:
        return BOX_PENALTY * float(np.maximum(0.0, sums[keep] - bound[keep]).sum())

    while len(lines) < most:
        choice = _assign(lines, masks, default, n)
        cur = g.loss[rows, choice]
        sums = np.bincount(box_of, cur, len(run_box))
        if not (sums[keep] > bound[keep] + 1e-12).any():
            break
        now = float(cur.sum()) + penalty(sums)
        best = (now - 1e-9, None)
        for a in range(len(ACTIONS)):
            delta = g.loss[:, a] - cur
            total = now + box_move_totals(indptr, members, delta, box_of, sums, bound, keep, BOX_PENALTY) + cost
            i = int(total.argmin())
            if total[i] < best[0]:
                best = (float(total[i]), (i, a))
        if best[1] is None:
            break
        lines.insert(0, best[1])
    return lines


def _fit(loss: np.ndarray, masks: np.ndarray, cost: np.ndarray, max_lines: int, default: int,
         init: list[tuple[int, int]] | None = None, lists=None):
    """Greedy growth (each new line where it saves most, at any height), then sweeps replacing each line by the
    best given the others and refitting the last line, until nothing improves: (lines, default, loss + cost).
    ``loss``: (groups, choices), what each choice loses on each group (points per hand over every hand); ``init``:
    the lines to start from (none: the empty card); ``lists``: ``masks``' :func:`.line_sums.member_lists`."""
    n = len(loss)
    indptr, members = member_lists(masks) if lists is None else lists
    rows = np.arange(n)

    def loss_of(lines, default_):
        return float(loss[rows, _assign(lines, masks, default_, n)].sum()) + float(sum(cost[i] for i, _ in lines))

    def best_lines(places: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[float, tuple[int, int] | None]]:
        """Per (below, free): the line (condition, action) that saves most on ``free`` groups now following
        ``below``. One pass over the candidates' groups for all of them (the pass, not the arithmetic, is what
        costs: a card's fit spends most of its time here); each column is summed as alone."""
        k = len(ACTIONS)
        values = np.empty((n, k * len(places)))
        for p, (below, free) in enumerate(places):
            values[:, p * k:(p + 1) * k] = (loss[rows, below][:, None] - loss) * free[:, None]
        gains = masked_sums(indptr, members, values)
        out = []
        for p in range(len(places)):
            best = (0.0, None)
            for a in range(k):
                gain = gains[:, p * k + a] - cost
                i = int(gain.argmax())
                if gain[i] > best[0] + 1e-12:
                    best = (float(gain[i]), (i, a))
            out.append(best)
        return out

    lines: list[tuple[int, int]] = list(init or [])
    for _round in range(4):
        while len(lines) < max_lines - 1:  # grow: the best line at the best height
            heights = range(len(lines) + 1)
            options = [(*best, k) for best, k in zip(best_lines(
                [(_assign(lines[k:], masks, default, n), (~_above(lines[:k], masks, n)).astype(float))
                 for k in heights]), heights)]
            gain, line, k = max(options, key=lambda o: o[0])
            if line is None:
                break
            lines.insert(k, line)
        grown = list(lines)
        for _ in range(6):  # refine: each line replaced by the best given the others, default refitted
            improved = False
            ahead: dict[int, tuple[float, tuple[int, int] | None]] = {}  # the best lines of j and below, in one pass
            for j in range(len(lines)):
                if j not in ahead:  # line j's best reads the lines above it: after a change, those below are redone
                    below_j = range(j, len(lines))
                    ahead = dict(zip(below_j, best_lines([(_assign(lines[i + 1:], masks, default, n),
                                                           (~_above(lines[:i], masks, n)).astype(float))
                                                          for i in below_j])))
                gain, line = ahead.pop(j)
                if line is not None and line != lines[j]:
                    trial = lines[:j] + [line] + lines[j + 1:]
                    if loss_of(trial, default) < loss_of(lines, default) - 1e-9:
                        lines, improved = trial, True
                        ahead = {}
            covered = _above(lines, masks, n)
            new_default = int((loss * ~covered[:, None]).sum(axis=0).argmin())
            if new_default != default:
                default, improved = new_default, True
            lines = [ln for k, ln in enumerate(lines) if masks[ln[0]] @ ~_above(lines[:k], masks, n)]  # dead lines
            lines, default = _last_line_is_otherwise(lines, masks, default, n)
            if not improved:
                break
        if len(lines) >= max_lines - 1 or lines == grown:
            break
    return lines, default, loss_of(lines, default)


def _last_line_is_otherwise(lines, masks, default: int, n: int) -> tuple[list[tuple[int, int]], int]:
    """A line that takes every hand the lines above it leave ("Play.") is the card's "Otherwise": the lines
    below it, and the old default, would never be read."""
    for k, (i, a) in enumerate(lines):
        if masks[i][~_above(lines[:k], masks, n)].all():
            return lines[:k], a
    return lines, default


def _above(lines, masks, n) -> np.ndarray:
    out = np.zeros(n, bool)
    for i, _a in lines:
        out |= masks[i]
    return out


@dataclass(frozen=True)
class WorstBox:
    """The grid box (of at least ``WORST_SHARE`` of the hands dealt) where following the card loses most."""

    box: GridBox
    lost: float  # points per hand following the card loses there, against each hand's best choice
    share: float  # the box's share of every hand dealt at this player count
    share_at_seats: float  # its share of the hands at its grid's seats (what the grid prints in the box)


def box_losses(g: Groups, choice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per grid box (``g.boxes``): (points per hand ``choice``, an ACTIONS index per group, loses there; the box's
    share of every hand). A box without hands: nan and 0."""
    nb = len(g.boxes)
    share = np.bincount(g.box, g.share, nb)
    lost_sum = np.bincount(g.box, g.loss[np.arange(len(choice)), choice], nb)  # g.loss: over every hand
    with np.errstate(invalid="ignore", divide="ignore"):
        return lost_sum / share, share


def worst_box(g: Groups, choice: np.ndarray, min_share: float = WORST_SHARE) -> WorstBox | None:
    """The box of at least ``min_share`` of the hands where ``choice`` loses most (None: no box that big)."""
    lost, share = box_losses(g, choice)
    big = np.flatnonzero(share >= min_share)
    if len(big) == 0:
        return None
    i = int(big[np.argmax(lost[big])])
    box = g.boxes[i]
    at_seats = float(g.share[np.isin(g.features["seat"], box.seats)].sum())
    return WorstBox(box, float(lost[i]), float(share[i]), float(share[i] / at_seats))


def floor_of(g: Groups) -> float:
    """Points per hand lost by the best card in these words with no limit on its lines: each group of hands that
    every condition treats alike gets its own best choice. What remains is lost because hands that look alike to
    the card (seat, trumps, top trumps, side aces and kings, voids) still differ in their best choice."""
    return float(g.loss.min(axis=1).sum())


def _interval(d: np.ndarray, var: np.ndarray) -> Interval:
    mean = float(d.sum())
    half = Z95 * math.sqrt(float(var.sum()))
    return Interval(mean, mean - half, mean + half)


def _switch(g: Groups, old: np.ndarray, new: np.ndarray) -> Interval:
    """Points per hand saved by choosing ``new`` instead of ``old`` per group (paired intervals)."""
    rows = np.arange(len(old))
    d = g.loss[rows, old] - g.loss[rows, new]
    v = np.where(old == new, 0.0, g.var[rows, old, new])
    return _interval(d, v)


def _card(fc: Cells, g: Groups, cands, masks, lines, default) -> RuleCard:
    n = len(g.loss)
    rows = np.arange(n)
    choice = _assign(lines, masks, default, n)
    out: list[CardLine] = []
    for k, (i, a) in enumerate(lines):  # saved: what forgetting this line (and only it) would cost
        without = _assign(lines[:k] + lines[k + 1:], masks, default, n)
        out.append(CardLine(ACTIONS[a], cands[i], _switch(g, without, choice)))
    other = min((x for x in range(3) if x != default), key=lambda x: g.loss[rows, _assign(lines, masks, x, n)].sum())
    out.append(CardLine(ACTIONS[default], None, _switch(g, _assign(lines, masks, other, n), choice)))
    choice = _assign(lines, masks, default, n)
    lost = _interval(g.loss[rows, choice], g.loss_var[rows, choice])
    sure_total = float(g.sure.sum())
    agreement_sure = 1.0 - float(g.wrong_sure[rows, choice].sum()) / sure_total if sure_total > 0 else math.nan
    return RuleCard(fc.players, out, lost, 1.0 - float(g.wrong[rows, choice].sum()), agreement_sure,
                    float(g.loss[:, ACTIONS.index(SIT)].sum()), lower_bound_share=float(g.unknown[rows, choice].sum()),
                    floor=floor_of(g), worst=worst_box(g, choice))


def card_features(cards_hands, trump_cards, seats, rules) -> dict[str, np.ndarray]:
    """Features of real hands (lists of card ints, any trump suit) at their seats, for :meth:`RuleCard.choice`."""
    from ..cards import SUIT_BITS
    from .cells import hand_features

    masks, ranks, suits = [], [], []
    for cards, trump in zip(cards_hands, trump_cards):
        m = 0
        for c in cards:
            m |= 1 << int(c)
        masks.append(m)
        ranks.append(int(trump) % SUIT_BITS)
        suits.append(int(trump) // SUIT_BITS)
    out: dict[str, list] = {}
    for m, r, s in zip(masks, ranks, suits):
        f = hand_features(np.array([m], dtype=np.uint64), np.array([r]), rules, s)
        for k, v in f.items():
            out.setdefault(k, []).append(v[0])
    feats = {k: np.array(v) for k, v in out.items()}
    feats["seat"] = np.asarray(seats)
    feats["trump_rank"] = np.array(ranks)
    return atom_features(feats)


__all__ = ["LINE_LIMIT", "MAX_ATOMS", "MAX_LINES", "TARGET_LOSS", "WORST_LOSS", "WORST_SHARE", "Atom", "CardLine",
           "Condition", "GridBox", "RuleCard", "WorstBox", "atom_features", "box_losses", "card_features", "conditions",
           "fit_card", "floor_of", "group_cells", "worst_box"]
