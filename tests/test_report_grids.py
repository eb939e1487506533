"""Action grids (rumbaodds.report.shapes, .cells, .grids): the box of a hand, the intervals of a box, close and
mixed boxes, and the promise of the page: a box that is neither close nor mixed gives, for every hand in it,
the action ``rumbaodds ask`` gives from the same table."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.cards import SUITS, cards_of, format_card, parse_card, parse_hand
from rumbaodds.cli import main
from rumbaodds.opponents.models import get_model
from rumbaodds.report import cells, grids, shapes
from rumbaodds.rules import get_rules
from rumbaodds.tables import TableSpec, build_table, load_table

SWISS = get_rules("swiss")
FLEMISH = get_rules("flemish")


# -- the box of a hand ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("hand, trump, rules, box", [
    ("HA HK HQ S6 C7", "H9", SWISS, ("AKQ", "none")),
    ("HA HK H6 S6 C7", "H9", SWISS, ("AKx", "none")),
    ("HA HK H6 H7 C7", "H9", SWISS, ("AK+2", "none")),
    ("HK H6 H7 H8 C7", "H9", SWISS, ("K+3", "none")),
    ("HJ HT H7 H8 C7", "H9", SWISS, ("4, no A/K", "none")),
    ("HJ H6 H7 H8 HT", "HA", SWISS, ("5 trumps", "none")),
    ("SA SK C6 D7 C8", "H9", SWISS, ("none", "AK")),
    ("HJ H6 SA SK DA", "H9", SWISS, ("xx", "AAK")),
    ("SK DK CK H6 S7", "H9", SWISS, ("x", "KK")),  # three kings: "two kings or more"
    ("SA DA CA HQ S7", "H9", SWISS, ("Q", "AAA")),
    ("SA SK DK HQ S7", "H9", SWISS, ("Q", "AKK")),
    ("H2 H5 SA SK C7", "HA", FLEMISH, ("Ax", "AK")),  # the two of trump swapped for the turned A [D-9]
    ("H2 H5 SA SK C7", "HJ", FLEMISH, ("xx", "AK")),  # ... for a J: still two low trumps
    ("H2 H5 SA SK C7", "HJ", SWISS.replace(name="x", ranks="23456789TJQKA"), ("xx", "AK")),  # no swap rule
])
def test_box_of_hand_worked_cases(hand, trump, rules, box):
    assert shapes.box_of_hand(parse_hand(hand), parse_card(trump), rules) == box


def test_the_swap_is_what_changes_the_flemish_box():
    # with the swap the turned K joins the hand; without the swap rule the same hand reads its two
    no_swap = FLEMISH.replace(name="noswap", two_of_trump_swap=False)
    assert shapes.box_of_hand(parse_hand("H2 H5 SA C4 C7"), parse_card("HK"), FLEMISH) == ("Kx", "A")
    assert shapes.box_of_hand(parse_hand("H2 H5 SA C4 C7"), parse_card("HK"), no_swap) == ("xx", "A")


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(4)), st.randoms(use_true_random=False))
def test_the_box_ignores_suit_names(perm, rnd):
    """Renaming the suits (trump with them) never moves a hand to another box."""
    deck = SWISS.deck
    cards = rnd.sample(deck, 6)
    hand, trump = cards[:5], cards[5]
    rename = lambda c: perm[c // 16] * 16 + c % 16  # noqa: E731
    assert shapes.box_of_hand(hand, trump, SWISS) == shapes.box_of_hand([rename(c) for c in hand], rename(trump),
                                                                         SWISS)


def test_rows_and_columns_cover_every_box_label():
    rows, cols = shapes.trump_rows(SWISS), shapes.side_columns(SWISS)
    assert len(rows) == len(set(rows)) == 25 and len(cols) == len(set(cols)) == 9
    rng = np.random.default_rng(3)
    for _ in range(300):
        cards = rng.choice(SWISS.deck, 6, replace=False)
        r, c = shapes.box_of_hand(cards[:5], int(cards[5]), SWISS)
        assert r in rows and c in cols


# -- box statistics on hand-made cells ---------------------------------------------------------------------
def raw_cells(rumba, play, rumba_half=0.3, play_half=0.3, hand="SA SK S6 C7 D8", trump_rank=7, seat=0, k=2):
    """Table rows (the columns rumbaodds.tables writes) of one hand shape with given EVs per cell."""
    n = len(rumba)
    mask = sum(1 << c for c in parse_hand(hand))
    best = ["rumba" if r < min(p, 0) else ("play" if p < 0 else "pass") for r, p in zip(rumba, play)]
    runner = ["play" if b == "rumba" else "rumba" for b in best]
    f = pd.DataFrame({
        "seat": seat, "trump_rank": trump_rank, "class_row": np.arange(n), "hand": np.uint64(mask), "weight": 6,
        "samples": 100, "ev_pass_penalised": 4.8, "ev_pass_penalised_half": 0.1,
        "ev_rumba": rumba, "ev_rumba_half": rumba_half, "p_success": 0.6, "p_success_low": 0.5,
        "p_success_high": 0.7, "p_made": 0.5, "p_lost": 0.4, "p_uncontested": 0.1, "p_void": 0.0, "p_lone_play": 0.0,
        "best": best, "runner_up": runner, "margin": 0.0, "margin_half": np.nan,
    })
    for j in range(k):
        f[f"ev_play{j}"] = np.asarray(play, float) + 0.5 * j
        f[f"ev_play{j}_half"] = play_half
    return f


def one_box(raw, quick=True, rules=SWISS):
    frame = cells.prepare(raw, rules, 3, quick)
    grid = grids.action_grid(frame, rules, "t", [0], "normal", quick)
    assert len(grid.boxes) == 1
    return next(iter(grid.boxes.values()))


def test_a_clear_box_and_its_interval():
    box = one_box(raw_cells(rumba=[-2.0, -2.2, -1.8, -2.1, -1.9, -2.0], play=[0.5] * 6))
    assert (box.row, box.col) == ("AKx", "none") and box.best == "rumba" and box.runner == "pass"
    assert box.margin.mean == pytest.approx(2.0) and box.margin.low > 0
    assert box.clear and not box.close and not box.mixed and box.cells == 6 and box.deals == 600


def test_hatched_close_where_the_margin_interval_includes_zero():
    # the same mean edge, but the cells spread widely: the interval of the box's margin includes 0
    box = one_box(raw_cells(rumba=[-5.0, 3.0, -6.0, 2.0, -4.0, -2.0], play=[0.5] * 6))
    assert box.best == "rumba" and box.margin.mean == pytest.approx(2.0)
    assert box.margin.low <= 0 and box.close and box.hatched and not box.clear
    # one drawn cell cannot tell the spread: close
    assert one_box(raw_cells(rumba=[-2.0], play=[0.5])).close


def test_hatched_mixed_where_a_hand_disagrees():
    agree = [-2.0, -2.2, -1.8, -2.1, -1.9, -2.0]
    box = one_box(raw_cells(rumba=agree + [-0.1], play=[0.5] * 6 + [-0.4]))  # the last cell: play is best
    assert box.best == "rumba" and not box.close and box.mixed and box.hatched
    assert box.agree == pytest.approx(6 / 7)
    assert one_box(raw_cells(rumba=agree, play=[0.5] * 6)).clear  # negative control: without it, clear


def test_full_tables_use_the_cells_monte_carlo_intervals():
    spread = [-5.0, 3.0, -6.0, 2.0, -4.0, -2.0]
    box = one_box(raw_cells(rumba=spread, play=[0.5] * 6, rumba_half=0.2), quick=False)
    # every class of the box is there: only the cells' own noise counts, so the margin is known to be > 0
    assert box.margin.low > 0 and box.margin.half == pytest.approx(1.96 * np.sqrt(6 * (0.2 / 1.96) ** 2) / 6,
                                                                   rel=1e-6)
    assert box.mixed  # but those hands do not all agree
    iv = grids.mean_interval(np.array([1.0, 3.0]), np.zeros(2), np.ones(2), True)
    assert iv.mean == 2.0 and iv.half == pytest.approx(12.706 * 1.0)


def test_jack_of_trump_cells_have_no_sit_out_and_their_own_grid():
    raw = raw_cells(rumba=[3.0, 3.0], play=[0.5, 0.6], hand="C2 C3 D4 D5 H6", trump_rank=9)  # S J turned
    frame = cells.prepare(raw, FLEMISH, 3, True)
    assert frame["jack"].all() and list(frame["best"]) == ["play", "play"]  # +0.5 though passing would be 0
    assert grids.action_grid(frame, FLEMISH, "t", [0], "normal", True).boxes == {}
    jack = grids.action_grid(frame, FLEMISH, "t", [0], "jack", True)
    assert jack.actions == ("play", "rumba") and next(iter(jack.boxes.values())).best == "play"


def test_third_pass_sits_out_by_throw_in_only():
    raw = raw_cells(rumba=[6.0, 6.0], play=[2.0, 2.0], hand="C6 C7 D8 D9 H6")  # every card below the 10
    frame = cells.prepare(raw, SWISS, 3, True)
    assert frame["throw_in"].all() and list(frame["best_third"]) == ["pass", "pass"]  # throw in: 0 < +2
    raw = raw_cells(rumba=[6.0, 6.0], play=[2.0, 2.0], hand="C6 C7 D8 D9 HT")  # a 10: no throw-in
    assert list(cells.prepare(raw, SWISS, 3, True)["best_third"]) == ["play", "play"]  # +2 < +4.8


def test_seat_groups_split_only_where_clear_boxes_disagree():
    def grid(best):
        box = grids.Box("Axx", "none", 5, 500, 5.0, best=best, runner="play",
                        margin=grids.Interval(1.0, 0.5, 1.5), agree=1.0)
        return grids.Grid("g", ["Axx"], ["none"], ("pass", "play", "rumba"), {("Axx", "none"): box})

    assert grids.grids_differ(grid("rumba"), grid("pass"))
    assert not grids.grids_differ(grid("rumba"), grid("rumba"))
    close = grid("pass")
    close.boxes[("Axx", "none")].margin = grids.Interval(0.2, -0.1, 0.5)
    assert not grids.grids_differ(grid("rumba"), close)


# -- the grid against `rumbaodds ask` from the same table --------------------------------------------------
@pytest.fixture(scope="module")
def tiny_tables(tmp_path_factory):
    root = tmp_path_factory.mktemp("report-tables")
    out = {}
    for rules, players in ((SWISS, 3), (FLEMISH, 2)):
        folder = root / f"{rules.name}{players}"
        build_table(TableSpec(rules, players, get_model("default"), DEFAULT_PLAY, 40, 5, 400), folder,
                    chunk_cells=10_000, with_knock=False)
        out[rules.name] = (folder, players)
    return out


KIND = {"pass": "pass", "throw-in": "pass", "play": "play", "rumba": "rumba"}


def _real_hand(mask: int, trump_rank: int, rng) -> tuple[list[int], int]:
    """A real hand of the cell's class: the suits renamed at random (the trump suit with them)."""
    perm = rng.permutation(4)
    cards = [int(perm[c // 16]) * 16 + c % 16 for c in cards_of(mask)]
    return cards, int(perm[SUITS.index("S")]) * 16 + trump_rank


def check_against_ask(rules, folder, players, grid_of, hands=20, seed=11):
    """(checked in clear boxes, mismatches): ask from the table for ``hands`` random cells of it."""
    table = load_table(folder)
    rng = np.random.default_rng(seed)
    rows = rng.choice(len(table.frame), size=hands, replace=False)
    checked, wrong = 0, []
    for i in rows:
        cell = table.frame.iloc[int(i)]
        cards, trump = _real_hand(int(cell["hand"]), int(cell["trump_rank"]), rng)
        seat = int(cell["seat"])
        args = ["ask", " ".join(format_card(c) for c in cards), "--trump", format_card(trump), "--players",
                str(players), "--seat", str(seat), "--rules", rules.name, "--tables", str(folder.parent), "--json",
                "--opponents", "default"]  # the table's opponents
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        assert doc["source"]["source"] == "table" and doc["source"]["cell"] == int(cell["cell"])  # the same cell
        box = grids.box_of(grid_of(seat, trump), cards, trump, rules)
        assert not box.empty  # the cell itself stands in its box
        if box.clear:
            checked += 1
            if KIND[doc["recommendation"]] != box.best:
                wrong.append((doc["recommendation"], box.best, box.row, box.col))
    return checked, wrong


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_clear_boxes_give_what_ask_gives_from_the_same_table(tiny_tables, name):
    rules = get_rules(name)
    folder, players = tiny_tables[name]
    frame = cells.prepare(load_table(folder).frame, rules, players, True)
    seat_grids = grids.player_grids(frame, rules, players, True)
    jack = grids.action_grid(frame, rules, "jack", range(players), "jack", True) \
        if rules.jack_of_trump_forces_play else None
    grid_of = lambda seat, trump: grids.grid_for(seat_grids, jack, seat, trump, rules)  # noqa: E731
    checked, wrong = check_against_ask(rules, folder, players, grid_of)
    assert not wrong
    assert checked >= 5, f"only {checked} of 20 hands fell in clear boxes: the check would say little"

    # negative control: a grid that shows every box's second-best action is caught on every checked hand
    def runner_up(seat, trump):
        g = grid_of(seat, trump)
        swapped = {k: grids.Box(**{**b.__dict__, "best": b.runner, "runner": b.best}) for k, b in g.boxes.items()}
        return grids.Grid(g.title, g.rows, g.cols, g.actions, swapped, g.seats, g.scenario, g.quick)

    checked_bad, wrong_bad = check_against_ask(rules, folder, players, runner_up)
    assert checked_bad == checked and len(wrong_bad) == checked


@pytest.mark.parametrize("name", ["swiss", "flemish"])
def test_a_tables_cells_are_one_source_for_the_grids_and_the_card_fitter(tiny_tables, name):
    """cells.from_table: a quick table's cells as the report's one source; the grid of the source is the frame's, its
    losses are the values against each cell's best, and the rule card fits it with numbers that add up."""
    from rumbaodds.report.card import atom_features, fit_card
    from rumbaodds.report.cells import ACTIONS

    rules = get_rules(name)
    folder, players = tiny_tables[name]
    frame = cells.prepare(load_table(folder).frame, rules, players, True)
    source = cells.from_table(frame, rules, players)
    assert not source.packed and source.quick and source.frame is frame
    everyone = tuple(range(players))
    g, h = grids.grid(source, everyone, "t"), grids.action_grid(frame, rules, "t", everyone, "normal", True)
    assert {k: (b.best, b.runner, b.margin) for k, b in g.boxes.items()} == \
        {k: (b.best, b.runner, b.margin) for k, b in h.boxes.items()}
    normal = frame[~frame["jack"].to_numpy(bool)]
    assert len(source) == len(normal) > 0 and (source.seat == normal["seat"].to_numpy()).all()
    v = np.stack([cells.values(normal, a, "normal")[0] for a in ACTIONS], axis=1)
    rows = np.arange(len(source))
    assert np.allclose(source.loss, v - v.min(axis=1)[:, None], atol=1e-4)
    assert (source.loss[rows, source.best] == 0).all() and source.known.all()
    assert np.allclose(source.margin, source.loss[rows, source.runner]) and (source.runner != source.best).all()
    assert [ACTIONS[b] for b in source.best] == list(normal["best"])  # ask's choice from each cell

    # the every-cell pooling (mean losses) pools this source too, with the same best choice in every box
    by_loss = grids.full_grid(source, everyone, "t")
    assert by_loss.boxes.keys() == h.boxes.keys()
    for key, box in h.boxes.items():
        assert by_loss.boxes[key].best == box.best and by_loss.boxes[key].runner == box.runner, key
        assert by_loss.boxes[key].margin.mean == pytest.approx(box.margin.mean, rel=1e-4, abs=1e-4), key
    assert grids.seat_runs(source)[0] == (0,) and grids.seat_runs(source)[-1] == (players - 1,)

    card = fit_card(source)
    f = atom_features({**{k: source.feature(k) for k in ("n_trumps", "top_trump", "side_aces", "voids", "points",
                                                         "trump_rank", "row", "col")}, "seat": source.seat})
    choice = card.choice(f)
    w = source.weight
    assert card.lost.mean == pytest.approx((w * source.loss[rows, choice]).sum() / w.sum(), rel=1e-5, abs=1e-9)
    assert card.agreement == pytest.approx((w * (source.best == choice)).sum() / w.sum(), rel=1e-9)
    always = min((w * source.loss[:, a]).sum() / w.sum() for a in range(3))  # the best one-line card
    assert 0 <= card.floor <= card.lost.mean <= always + 1e-9
    # negative control: the card's choices shifted to another one lose more than it says
    other = (choice + 1) % 3
    assert (w * source.loss[rows, other]).sum() / w.sum() > card.lost.mean + 1e-6
