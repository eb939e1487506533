"""`rumbaodds report` (rumbaodds.report): the card's search and its order, the knock and exchange lines, the
page (self-contained, for phones), the printable cards, and the CLI on tiny quick tables.

The search and scoring are pure functions of frames, so they are checked on synthetic cells whose right
answers are known by construction (and on cells where no rule of the family is right, as a negative control).
"""

from __future__ import annotations

import math
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rumbaodds.cards import RANKS
from rumbaodds.cli import main
from rumbaodds.report import blocks, build, cells, grids, page, precision, section, sources
from rumbaodds.report import lines as wording
from rumbaodds.rules import get_rules

SWISS = get_rules("swiss")
FLEMISH = get_rules("flemish")
Q, K, A, J = (RANKS.index(r) for r in "QKAJ")


def synthetic(rumba, sit, n=4000, seed=1, players=4):
    """Prepared cells with independent features: Rumba best exactly where ``rumba(f)``, sitting out exactly where
    ``sit(f)`` (and not Rumba), else play; the other choices lose a point or more."""
    rng = np.random.default_rng(seed)
    n_trumps = rng.integers(0, 6, n)
    top = np.where(n_trumps > 0, rng.integers(RANKS.index("6") + 4, A + 1, n), -1)
    f = pd.DataFrame({
        "seat": rng.integers(0, players, n), "trump_rank": rng.integers(4, 13, n), "class_row": np.arange(n),
        "w": 1.0, "samples": 100, "n_trumps": n_trumps, "top_trump": top, "side_aces": rng.integers(0, 3, n),
        "side_kings": rng.integers(0, 3, n), "zero_cards": rng.integers(0, 3, n), "low_trumps": 0,
        "throw_in": False, "jack": False,
    })
    r, s = rumba(f), sit(f)
    f["v_pass"], f["h_pass"] = 0.0, 0.0
    f["v_pen"], f["h_pen"] = 4.9, 0.1
    f["v_rumba"] = np.where(r, -3.0, 4.0) + rng.normal(0, 0.05, n)
    f["v_play"] = np.where(s & ~r, 1.0, -1.0) + rng.normal(0, 0.05, n)
    for col in ("h_rumba", "h_play"):
        f[col] = 0.1
    f["best"] = cells.cell_best(f, "normal")
    f["best_third"] = cells.cell_best(f, "third")
    return f


def test_search_finds_a_rumba_rule_and_a_sit_rule_known_by_construction():
    f = synthetic(lambda f: (f.n_trumps >= 3) & (f.top_trump >= Q),
                  lambda f: ((f.n_trumps < 1) | ((f.n_trumps == 1) & (f.top_trump < Q))) & (f.side_aces < 1))
    rumba, sit, lost = wording.fit_main(f, SWISS)
    assert rumba == wording.TwoWayRule((wording.Clause(3, Q),))
    assert sit == wording.SitRule(1, Q, 1)
    assert lost < 0.01
    low, top = wording.lowest_rank(SWISS), A
    assert rumba.text(low, top) == "with 3+ trumps headed by the Q or higher"
    assert sit.text(low, top) == "pass with no trump, or one trump below the Q, and no side ace"


def test_search_finds_two_clauses_with_a_side_ace():
    f = synthetic(lambda f: ((f.n_trumps >= 4) & (f.top_trump >= K)) | ((f.n_trumps >= 2) & (f.top_trump >= A) &
                                                                         (f.side_aces >= 1)),
                  lambda f: f.n_trumps < 1)
    rumba, sit, lost = wording.fit_main(f, SWISS)
    assert rumba == wording.TwoWayRule((wording.Clause(4, K), wording.Clause(2, A, 1)))
    assert rumba.text(wording.lowest_rank(SWISS), A) == \
        "with 4+ trumps headed by the K or higher, or 2+ trumps headed by the A and a side ace"
    assert sit == wording.SitRule(1, wording.lowest_rank(SWISS), 9) and lost < 0.01


def test_search_is_honest_about_a_rule_outside_the_family():
    # Rumba best on an odd number of side kings: no rule in words gets it; the fit says what it gives away
    f = synthetic(lambda f: f.side_kings % 2 == 1, lambda f: f.n_trumps < 0)
    rumba, sit, lost = wording.fit_main(f, SWISS)
    assert lost > 0.5  # calling never: 2 points lost on a third of the hands
    choice = wording.card_choice(f, rumba, sit, "normal")
    assert wording.points_lost(f, choice, "normal") == pytest.approx(lost)
    assert wording.agreement(f, choice, "normal") < 0.9


def test_lines_are_ordered_by_the_points_they_save():
    f = synthetic(lambda f: (f.n_trumps >= 3) & (f.top_trump >= Q), lambda f: f.n_trumps < 1)
    lines, fits = wording.main_lines(f, SWISS, [((0, 1, 2, 3), "every seat")], True)
    rumba, sit = lines
    assert rumba.text == "Call Rumba with 3+ trumps headed by the Q or higher." and rumba.seats == ""
    assert sit.text == "Pass with no trump; otherwise play."
    # Rumba (-3) instead of play (-1) saves 2 points on those hands; sitting out (0 for +1) saves 1 on the others
    share_r = float(((f.n_trumps >= 3) & (f.top_trump >= Q)).mean())
    share_s = float((f.n_trumps < 1).mean())
    assert rumba.saved.mean == pytest.approx(2 * share_r, abs=0.01) and rumba.saved.low > 0
    assert sit.saved.mean == pytest.approx(1 * share_s, abs=0.01) and sit.saved.low > 0
    html = blocks.card_html(page.CountSection(4, [], [sit, rumba], sources.TableInfo(4, "default", 4000, 1, True, "t")),
                          SWISS)
    assert html.index("Call Rumba") < html.index("Pass with")  # the line that saves more comes first


def test_seat_groups_get_their_own_line_only_where_it_pays():
    f = synthetic(lambda f: (f.n_trumps >= np.where(f.seat == 3, 4, 2)) & (f.top_trump >= Q), lambda f: f.n_trumps < 1)
    groups = [((0, 1, 2), "Seats 0\u20132"), ((3,), "Dealer")]
    lines, _ = wording.main_lines(f, SWISS, groups, True)
    rumba = [x for x in lines if x.decision == "rumba"]
    assert [x.seats for x in rumba] == ["Seats 0\u20132", "Dealer"]
    same = synthetic(lambda f: (f.n_trumps >= 3) & (f.top_trump >= Q), lambda f: f.n_trumps < 1)
    lines, _ = wording.main_lines(same, SWISS, groups, True)  # negative control: one rule for all
    assert [x.seats for x in lines if x.decision == "rumba"] == [""]


def test_a_quick_cards_lines_keep_to_the_room_it_has():
    """Every seat its own Rumba and pass rule: the grids' four groups would take 8 lines; with room for 4 the card
    pools seats (coarser groups) and says so in its seat labels; with room for 12 it keeps them (the control)."""
    from types import SimpleNamespace

    f = synthetic(lambda f: (f.n_trumps >= 2 + f.seat % 3) & (f.top_trump >= Q), lambda f: f.n_trumps < f.seat % 2 + 1,
                  n=8000, players=5)
    loaded = SimpleNamespace(frame=f, info=SimpleNamespace(quick=True), knock=None)
    groups = [(0,), (1, 2), (3,), (4,)]
    roomy, _ = section.card_lines(loaded, SWISS, 5, groups, 12)
    main = [x for x in roomy if x.decision in ("rumba", "sit")]
    assert len(main) > 4 and len(roomy) <= 12
    tight, lost = section.card_lines(loaded, SWISS, 5, groups, 4)
    assert len(tight) <= 4 and math.isfinite(lost)
    assert {x.seats for x in tight if x.decision in ("rumba", "sit")} <= {"", "Not the dealer", "Dealer"}


def test_knock_line():
    ranks = np.arange(4, 13)
    k = pd.DataFrame({"trump_rank": ranks, "ev_no_knock": -0.5, "ev_knock": np.where(ranks >= K, -2.0, 2.0),
                      "gain_low": 0.0, "gain_high": 0.0})
    line = wording.knock_line(k)
    assert line.text == "Dealer: knock (before looking) when the turned card is K or higher."
    assert line.points_lost == 0.0 and line.saved.mean == pytest.approx(1.5 * 2 / 9)
    never = wording.knock_line(k.assign(ev_knock=1.0))
    assert never.text == "Dealer: never knock." and never.saved.mean == 0.0


def test_exchange_line_picks_the_discard_rule_known_by_construction():
    f = synthetic(lambda f: f.n_trumps < 0, lambda f: f.n_trumps < 0, n=2000)
    k_best = np.minimum(f["zero_cards"] + f["side_kings"], 3)  # exchange everything below the side ace
    for k in range(4):
        f[f"v_play{k}"] = -1.0 + 0.7 * np.abs(k - k_best)
        f[f"h_play{k}"] = 0.1
    f["best_k"] = k_best
    line = wording.exchange_line(f, SWISS, True)
    assert line.text == "When you play, exchange your side cards below the ace (up to 3 cards)."
    assert line.points_lost == pytest.approx(0.0) and line.agreement == pytest.approx(1.0) and line.saved.low > 0


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.src, self.href, self.tags, self.meta, self.script_src = [], [], set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        if tag == "script" and "src" in a:
            self.script_src.append(a["src"])
        if tag == "meta":
            self.meta.append(a)
        for name, value in attrs:
            (self.src if name == "src" else self.href if name == "href" else []).append(value)


def _grid():
    box = grids.Box("AKx", "none", 7, 700, 7.0, {"rumba": grids.Interval(-2.0, -2.5, -1.5),
                                                 "play": grids.Interval(-0.03, -0.2, 0.1)}, "rumba", "play",
                    grids.Interval(1.97, 1.4, 2.5), 1.0)
    close = grids.Box("x", "none", 3, 300, 3.0, {"pass": grids.Interval(0, 0, 0), "play": grids.Interval(0.1, -.2, .4)},
                      "pass", "play", grids.Interval(0.1, -0.2, 0.4), 1.0)
    return grids.Grid("First to speak (seat 0)", ["AKx", "x"], ["none", "K"], ("pass", "play", "rumba"),
                      {("AKx", "none"): box, ("x", "none"): close})


def test_page_is_self_contained_and_says_what_stands_behind_each_grid():
    info = sources.TableInfo(4, "default", 4000, 400_000, True, "tables/x")
    sec = page.CountSection(4, [_grid()], [], info, files={"PNG": "card_4p.png", "PDF": "card_4p.pdf"})
    rp = page.ReportPage(SWISS, "swiss", "today", [sec], [], [], 4,
                         [page.Chart("knock", "Knock", "caption <b>", b"\x89PNG fake")], [info],
                         "rumbaodds report --rules swiss", ["rumbaodds tables build --rules swiss --players 4"])
    html = page.render(rp)
    links = _Links()
    links.feed(html)
    assert links.src and all(s.startswith("data:image/png;base64,") for s in links.src)
    assert all(h.startswith("#") or ("/" not in h and h.endswith((".png", ".pdf"))) for h in links.href), links.href
    assert not links.tags & {"link", "iframe", "object", "embed"} and not links.script_src  # one inline script
    assert any(m.get("name") == "viewport" for m in links.meta)
    assert "caption &lt;b&gt;" in html and "count down" in html and "10 situations, 1,000 deals" in html
    assert "1.97" not in html and ">2.0<" in html  # the cost, one decimal, no sign
    assert "\u22480" in html  # the close box: its cost's interval includes 0
    assert "play \u22480 [\u22120.2, +0.1]" in html  # a tooltip value whose interval includes 0: no sign
    assert "class=\"t close\"" in html
    index = page.render_index([("swiss", "swiss/index.html", "Swiss")])
    assert 'href="swiss/index.html"' in index


def test_exchange_table_shows_the_best_count_and_marks_a_close_lead():
    g = _grid()
    box = g.boxes[("AKx", "none")]
    box.extra["exchange_values"] = {0: grids.Interval(-1.0, -1.2, -0.8), 1: grids.Interval(-2.0, -2.2, -1.8),
                                    2: grids.Interval(-1.9, -2.1, -1.7)}
    html = blocks.exchange_table(g)
    assert "<b>1</b>7" in html and "class=\"t close" in html  # 1 card by 0.1: within the noise
    box.extra["exchange_values"][2] = grids.Interval(-0.5, -0.6, -0.4)
    assert "class=\"t close" not in blocks.exchange_table(g)  # negative control: a clear lead of 1.0


def test_print_page_has_every_grid_and_says_how_to_read_it():
    from rumbaodds.report import charts, printcard

    fig = printcard.a4_page([_grid(), _grid()], ["Call Rumba with 3+ trumps."], "It loses 0.1.",
                            "Rumba, 4 players", "4,000 situations, 400,000 deals.")
    texts = " ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))
    for words in ("First to speak", "AKx", "2.0", "\u22480", "close", "mixed", "400,000 deals", "count down",
                  "1. Call Rumba", "It loses 0.1."):
        assert words in texts, words
    assert charts.fig_png(fig, 30)[:8] == b"\x89PNG\r\n\x1a\n" and printcard.pdf_bytes([fig])[:5] == b"%PDF-"


def test_fixed_colour_scale():
    from rumbaodds.report import charts

    assert charts.shade("rumba", 3.0) == charts.shade("rumba", 9.0)  # full from MARGIN_FULL on
    assert charts.shade("rumba", 0.0) != charts.shade("rumba", 1.5) != charts.shade("rumba", 3.0)
    assert precision.cost(0.3, -0.1, 0.7) == "\u22480"


def test_parse_players_and_models():
    assert build.parse_players("3-5,7", SWISS) == [3, 4, 5, 7]
    assert build.parse_players(None, FLEMISH) == [2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="8 players"):
        build.parse_players("3-8", SWISS)
    assert build.model_players(SWISS, [3, 4, 5]) == 5 and build.model_players(FLEMISH, [2, 5]) == 5
    # the base opponents of the cards are what `ask` plays without --opponents: the equilibrium [issue 8]
    assert build.default_models(SWISS, 5)[:5] == ["equilibrium", "default", "cautious", "bold", "all"]
    assert build.check_models(["bold"], SWISS, 5) == ["equilibrium", "bold"]


TINY = ["--cells", "40", "--samples-per-cell", "8", "--model-cells", "12", "--knock-samples", "8",
        "--knock-inner", "4", "--ask-hands", "1", "--ask-samples", "16", "--dpi", "30"]


def test_cli_builds_quick_tables_and_writes_both_reports(tmp_path, monkeypatch):
    real_find_full = sources.find_full
    # flemish from quick tables here (a full flemish report is test_a_flemish_report_reads_the_shipped_group_table)
    monkeypatch.setattr(sources, "find_full", lambda rules, *a, **k: None if rules.name == "flemish" else
                        real_find_full(rules, *a, **k))
    tables, out = tmp_path / "tables", tmp_path / "reports"
    args = ["report", "--rules", "swiss", "--players", "3", "--models", "default,bold", "--tables", str(tables),
            "--out", str(out), *TINY]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "building quick table" in result.stderr and "[3/3]" in result.stderr
    assert "[1/3] swiss, 3 players, opponents equilibrium" in result.stderr
    folder = out / "swiss"
    assert sorted(p.name for p in folder.iterdir()) == ["card_3p.pdf", "card_3p.png", "card_3p_a5.pdf", "cards.json",
                                                         "index.html", "knock.png", "success.png"]
    assert "swiss, 3 players: the card (" in result.stdout and "points per hand (the grids:" in result.stdout
    html = (folder / "index.html").read_text()
    for words in ("--cells 40", "rumbaodds tables build --rules swiss --players 3", "After a Rumba call",
                  "The dealer knocked", "Opponents bold, every seat", "First to speak (seat 0)",
                  "After 2 passes in a row", "Dealer (seat 2, speaks last)", "bold</th>",
                  "knocks (K) or looks first (L)", "How many cards to exchange"):
        assert words in html, words
    assert not list(out.rglob("*.parquet"))
    # the tables stay under --tables and are found again (the same budget, or a smaller one)
    budget = sources.Budget(40, 8, 12, 8, 4, 1, 16)
    said = []
    again = sources.obtain_table(tables, SWISS, 3, "equilibrium", budget, 40, said.append)
    assert said == [f"  reusing {again.info.path}"] and again.info.cells == 120 and again.knock is not None
    smaller = sources.obtain_table(tables, SWISS, 3, "equilibrium", sources.Budget(20, 8), 20, said.append)
    assert smaller.info.path == again.info.path
    flemish = CliRunner().invoke(main, ["report", "--rules", "flemish", "--players", "2", "--models", "default",
                                        "--tables", str(tables), "--out", str(out), "--quiet", *TINY])
    assert flemish.exit_code == 0, flemish.output
    html = (out / "flemish" / "index.html").read_text()
    for words in ("Jack of trump turned", "The two of trump", "every later player must play",
                  "The lone dealer", "Seat 0 swapped the two of trump"):
        assert words in html, words
    assert not (out / "flemish" / "knock.png").exists()
    index = (out / "index.html").read_text()
    assert 'href="flemish/index.html"' in index and 'href="swiss/index.html"' in index


def test_cli_bad_input_is_one_line(tmp_path):
    for bad, words in ((["--players", "9"], "9 players"), (["--models", "reckless"], "unknown opponent model"),
                       (["--cells", "0"], "--cells must be 1.."), (["--dpi", "5"], "--dpi")):
        result = CliRunner().invoke(main, ["report", "--tables", str(tmp_path), "--out", str(tmp_path), *bad])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("rumbaodds: error:") and words in result.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for option in ("--out", "--tables"):  # a folder that cannot be written: said before any table is built
        result = CliRunner().invoke(main, ["report", "--players", "3", option, str(blocker / "sub")])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
        assert result.stderr.startswith("rumbaodds: error:") and "a-file" in result.stderr


def test_reading_your_table_shows_the_gain_over_the_equilibrium_per_style_and_seat():
    """Issue 8 item 6 on the page: per style, per seat, what the best response to a table of it gains."""
    exploit = {"bold": {"0": {"mean": 0.06, "low": 0.05, "high": 0.07}, "1": {"mean": 0.03, "low": 0.02,
                                                                             "high": 0.04}}}
    html = blocks.exploit_table(exploit, 2)
    assert "Reading your table" in html and "<th>bold</th>" in html and "<th>seat 1</th>" in html
    assert html.count("<td") == 2 and "0.06" in html and "95%: +0.05 to +0.07" in html


def test_answers_after_earlier_words_are_kept_and_read_back(tmp_path, monkeypatch):
    from rumbaodds.answer import simulation
    from rumbaodds.report import decisions

    budget = sources.Budget(ask_hands=1, ask_samples=8)
    sample = decisions.sample_hands(SWISS, 1, 0)
    sample.frame = sample.frame.iloc[:6]
    scenario = decisions.scenarios(SWISS, 3)[0]
    first = decisions.measure(scenario, sample, SWISS, "default", budget, cache=tmp_path)
    assert len(list(tmp_path.glob("asked-join_rumba-*.json"))) == 1

    def no_ask(*args, **kwargs):
        raise AssertionError("asked again")

    monkeypatch.setattr(simulation, "ask", no_ask)
    again = decisions.measure(scenario, sample, SWISS, "default", budget, cache=tmp_path)
    cols = sorted(first.frame.columns)
    pd.testing.assert_frame_equal(first.frame[cols], again.frame[cols], check_dtype=False)
    assert again.actions == first.actions and again.skipped == first.skipped
    # another budget is another key: asked again (negative control)
    with pytest.raises(AssertionError, match="asked again"):
        decisions.measure(scenario, sample, SWISS, "default", sources.Budget(ask_hands=1, ask_samples=9),
                          cache=tmp_path)


@pytest.mark.parametrize("spares", [1, 0], ids=["spare", "none"])
def test_a_hand_a_scenario_rules_out_is_replaced_by_a_spare_of_its_box(monkeypatch, spares):
    """After a swap of the two of trump some hands cannot be dealt: a spare of the same box is asked in their place,
    so the box keeps a hand (without spares, negative control: the box is empty)."""
    from rumbaodds.answer import simulation
    from rumbaodds.report import decisions
    from rumbaodds.rules import RulesError

    real, calls = simulation.ask, []

    def ask(cards, trump, *args, **kwargs):
        calls.append(tuple(cards))
        if len(calls) == 1:
            raise RulesError("this hand cannot be dealt here")
        return real(cards, trump, *args, **kwargs)

    monkeypatch.setattr(simulation, "ask", ask)
    sample = decisions.sample_hands(SWISS, 1, 0, spares=spares)
    f = sample.frame
    box = (f["srow"].iat[0], f["scol"].iat[0])
    same = (f["srow"] == box[0]) & (f["scol"] == box[1])
    sample.frame = f[same].reset_index(drop=True)  # the box's hand, then its spare
    assert sample.frame["spare"].tolist() == [False] + [True] * spares
    m = decisions.measure(decisions.scenarios(SWISS, 3)[0], sample, SWISS, "default",
                          sources.Budget(ask_hands=1, ask_samples=8))
    assert len(m.frame) == spares and m.skipped == 1 - spares
    if spares:
        assert m.frame["hand"].iat[0] == f[same]["hand"].iat[1] and len(calls) == 2


@pytest.mark.statistical  # slow: 11 M situations read and a card fitted (about a minute)
def test_a_flemish_report_reads_the_shipped_group_table(tmp_path):
    """The shipped flemish 2-player table (one cell per neighbour group) drawn for every hand: its grids have no
    '?' box, its card is fitted, the jack-turned hands (no pass) have their own grid, and the page says where its
    numbers come from."""
    out = tmp_path / "reports"
    result = CliRunner().invoke(main, ["report", "--rules", "flemish", "--players", "2", "--models", "default",
                                       "--tables", str(tmp_path / "tables"), "--out", str(out), *TINY])
    assert result.exit_code == 0, result.output
    assert "every situation: rumbaodds/tables/packed/flemish-2p.packed.parquet (11,298,300 situations" in \
        result.stderr
    assert "flemish, 2 players: the card (" in result.stdout
    html = (out / "flemish" / "index.html").read_text()
    assert "one simulated cell per neighbour group" in html and "Jack of trump turned" in html
    assert "--neighbours --precision 1.5" in html  # the commands that rebuild it
    main_grids = html.split("After a Rumba call")[0]
    assert "<b>?</b>" not in main_grids
