"""`rumbaodds report` (rumbaodds.report): rule-card search, scoring, charts, HTML, CLI.

The search, the scoring and the charts are pure functions of frames, so they
are checked on synthetic frames whose right answers are known by
construction. The CLI runs once per rule set on tiny quick tables.
"""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from rumbaodds import report as rp
from rumbaodds.cards import RANKS
from rumbaodds.cli import main
from rumbaodds.rules import get_rules

SWISS = get_rules("swiss")
FLEMISH = get_rules("flemish")
Q, K, A, J = (RANKS.index(r) for r in "QKAJ")


def synthetic(rumba, sit_below=5, n=3000, seed=1, players=4):
    """Cells with independent features; Rumba best exactly where ``rumba(frame)``, pass exactly below ``sit_below``."""
    rng = np.random.default_rng(seed)
    n_trumps = rng.integers(0, 6, n)
    top = np.where(n_trumps > 0, rng.integers(RANKS.index("6") + 4, A + 1, n), -1)
    f = pd.DataFrame({
        "seat": rng.integers(0, players, n), "trump_rank": rng.integers(4, 13, n), "class_row": np.arange(n),
        "weight": rng.integers(1, 7, n), "n_trumps": n_trumps, "top_trump": top,
        "side_aces": rng.integers(0, 3, n), "side_kings": rng.integers(0, 3, n),
        "hand_points": rng.integers(0, 21, n), "throw_in_allowed": False,
        "ev_pass_penalised": 4.9, "p_success": rng.random(n),
    })
    f["ev_play"] = np.where(f["hand_points"] >= sit_below, -1.0, 1.0)
    f["ev_rumba"] = np.where(rumba(f), -5.0, 5.0)
    return f


def test_search_finds_a_trumps_rule_known_by_construction():
    frame = rp.prepare(synthetic(lambda f: (f.n_trumps >= 3) & (f.top_trump >= Q)), SWISS)
    fit = rp.search_card(frame, SWISS)
    assert fit.rumba == rp.RumbaRule("trumps", a=3, b=Q)
    assert fit.sit_below == 5
    assert fit.agreement == pytest.approx(1.0)
    assert fit.points_lost == pytest.approx(0.0)
    assert fit.rumba.text(SWISS) == "you hold 3+ trumps, the highest Q or better"


def test_search_finds_a_points_rule_and_the_call_threshold():
    frame = rp.prepare(synthetic(lambda f: f.hand_points >= 14, sit_below=4), SWISS)
    fit = rp.search_card(frame, SWISS)
    assert (fit.rumba, fit.sit_below, fit.points_lost) == (rp.RumbaRule("points", p=14), 4, pytest.approx(0.0))
    assert rp.call_threshold(frame) == 14
    never = rp.prepare(synthetic(lambda f: f.hand_points > 99), SWISS)
    assert rp.search_card(never, SWISS).rumba == rp.RumbaRule()
    assert rp.call_threshold(never) is None


def test_search_is_honest_about_a_rule_outside_the_family():
    # Rumba best on odd hand points: no simple rule gets it all; the fit reports what it loses.
    frame = rp.prepare(synthetic(lambda f: (f.hand_points % 2 == 1) & (f.hand_points >= 9)), SWISS)
    fit = rp.search_card(frame, SWISS)
    again = rp.evaluate_card(frame, fit.rumba, fit.sit_below)
    assert fit.points_lost == pytest.approx(again.points_lost) and fit.agreement == pytest.approx(again.agreement)
    assert 0.05 < fit.points_lost and fit.agreement < 0.95
    assert rp.heldout_loss(frame, SWISS) >= fit.points_lost - 1e-9


def hand_made():
    return pd.DataFrame({
        "seat": [0, 1, 2, 0], "trump_rank": [4, 5, J, 7], "class_row": [1, 2, 3, 4], "weight": [1, 2, 3, 4],
        "n_trumps": [0, 1, 3, 2], "top_trump": [-1, 9, A, K], "side_aces": 0, "side_kings": 0,
        "hand_points": [2, 6, 12, 9], "throw_in_allowed": [True, False, False, False],
        "ev_pass_penalised": [4.8, 4.7, 4.0, 4.5], "p_success": 0.5,
        "ev_play": [1.0, -1.0, -2.0, -1.5], "ev_rumba": [8.0, 3.0, -4.0, -2.0],
    })


def test_agreement_and_points_lost_on_a_hand_made_frame():
    f = rp.prepare(hand_made(), SWISS)
    assert list(f["choice"]) == ["pass", "play", "rumba", "rumba"]
    fit = rp.evaluate_card(f, rp.RumbaRule("points", p=10), 5)  # D plays instead of Rumba: 0.5 lost, weight 4
    assert fit.agreement == pytest.approx(6 / 10) and fit.points_lost == pytest.approx(4 * 0.5 / 10)
    fit = rp.evaluate_card(f, rp.RumbaRule("points", p=10), 7)  # and B sits out: 1.0 lost, weight 2
    assert fit.agreement == pytest.approx(4 / 10) and fit.points_lost == pytest.approx((2 * 1 + 4 * 0.5) / 10)
    # third pass in a row: A throws in (0) rather than play (+1); B's penalised pass (+4.7) loses 5.7
    assert list(f["choice_third"]) == ["pass", "play", "rumba", "rumba"]
    fit = rp.evaluate_card(f, rp.RumbaRule("points", p=9), 7, third=True)
    assert fit.points_lost == pytest.approx(2 * 5.7 / 10) and fit.agreement == pytest.approx(8 / 10)
    # a quick (weighted-random) table counts every cell once
    fit = rp.evaluate_card(rp.prepare(hand_made(), SWISS, subset=True), rp.RumbaRule("points", p=10), 5)
    assert fit.agreement == pytest.approx(3 / 4) and fit.points_lost == pytest.approx(0.5 / 4)


def test_jack_of_trump_bars_sitting_out_in_flemish():
    f = rp.prepare(hand_made(), FLEMISH)  # cell C has the jack turned: no pass
    assert not np.isfinite(f.loc[2, "ev_sit"])
    g = hand_made().assign(ev_play=[1.0, -1.0, 0.5, -1.5], ev_rumba=[8.0, 3.0, 6.0, -2.0])
    f = rp.prepare(g, FLEMISH)
    assert f.loc[2, "choice"] == "play"  # +0.5, though passing would be 0
    assert list(rp.card_choices(f, rp.RumbaRule(), 99)) == ["pass", "pass", "play", "pass"]


def test_knock_search():
    ranks = np.arange(4, 13)
    k = pd.DataFrame({"trump_rank": ranks, "ev_no_knock": -0.5, "ev_knock": np.where(ranks >= K, -1.0, 2.0)})
    fit = rp.search_knock(k)
    assert (fit.from_rank, fit.agreement, fit.points_lost) == (K, 1.0, 0.0)
    assert fit.text() == "the turned card is K or higher"
    fit = rp.search_knock(k.assign(ev_knock=1.0))
    assert fit.from_rank is None and fit.text() == "never"


def test_rule_card_lines_are_plain_words():
    f = rp.prepare(synthetic(lambda f: (f.n_trumps >= 3) & (f.top_trump >= Q), players=5), SWISS)
    knock = pd.DataFrame({"trump_rank": [11, 12], "ev_knock": [1.0, -2.0], "ev_no_knock": [0.0, 0.0]})
    card = rp.rule_card(f, SWISS, 5, knock)
    text = " ".join(card.lines(SWISS))
    for words in ("Call Rumba when you hold 3+ trumps", "Sit out when your hand is worth less than 5 points",
                  "After 2 passes in a row (the next costs 5)", "Dealer: knock when the turned card is A"):
        assert words in text


def _texts(fig):
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def _check_figure(fig, *, needs=()):
    png = rp.fig_png(fig, dpi=40)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert fig._suptitle is not None and fig._suptitle.get_text()
    footer = fig._supxlabel.get_text().replace("\n", " ")
    assert "count down" in footer and "deals" in footer
    plots = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    for ax in plots:
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel(), ax
    assert any(ax.get_legend() is not None for ax in plots) or fig.legends or bars
    for ax in bars:
        assert ax.get_ylabel()  # every colour bar says what it measures, with units
    text = " ".join(_texts(fig))
    for word in needs:
        assert word in text, word


def test_charts_have_titles_labels_legends_and_sample_counts():
    frames = {n: rp.prepare(synthetic(lambda f: f.hand_points >= 13, players=n, n=600, seed=n), SWISS)
              for n in (4, 5)}
    note = rp.sample_note(150, 4, 200, True)
    fig = rp.call_chart(frames[4], SWISS, 4, note)
    _check_figure(fig, needs=("highest trump held", "seat 3 (dealer)", "points per hand"))
    assert len([ax for ax in fig.axes if ax.get_label() == "<colorbar>"]) == 3
    _check_figure(rp.sitout_chart(frames, SWISS, note), needs=("pass: 0", "third pass in a row"))
    _check_figure(rp.model_chart({"default": frames[5], "bold": frames[4]}, SWISS, 5, note),
                  needs=("call at 13+ points",))
    knocks = {n: pd.DataFrame({"trump_rank": np.arange(4, 13), "ev_knock": 1.0, "ev_no_knock": 0.0, "gain": -1.0,
                               "gain_low": -1.5, "gain_high": -0.5}) for n in (4, 5)}
    _check_figure(rp.knock_chart(knocks, SWISS, "400 deals per trump rank"), needs=("rank of the turned trump card",))
    empty = frames[4].iloc[:2]  # too few cells for any box or line: still a labelled chart
    _check_figure(rp.call_chart(empty, SWISS, 4, note))


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.src, self.href, self.tags = [], [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            (self.src if name == "src" else self.href if name == "href" else []).append(value)


def test_html_is_self_contained():
    f = rp.prepare(synthetic(lambda f: f.hand_points >= 13), SWISS)
    card = rp.rule_card(f, SWISS, 4)
    charts = [rp.Chart("call_4p", "Call", "caption <b>", b"\x89PNG fake")]
    info = [rp.TableInfo(4, "default", 3000, 200, True, "tables/x", 400, 50)]
    data = rp.ReportData(SWISS, [card], charts, info, "rumbaodds report --rules swiss",
                         ["rumbaodds tables build --rules swiss --players 5"], rp.hand_points_text(SWISS), "today")
    page = rp.render_report(data)
    links = _Links()
    links.feed(page)
    assert links.src and all(s.startswith("data:image/png;base64,") for s in links.src)
    assert all(h.startswith("#") or (h.endswith(".png") and "/" not in h) for h in links.href), links.href
    assert not links.tags & {"script", "link", "iframe", "object", "embed"}
    assert "caption &lt;b&gt;" in page and "count down" in page and "1,000 deals per cell" in page
    assert "trump counts A 6, K 5, Q 4, J 3" in page
    index = rp.render_index([("swiss", "swiss/index.html", "Swiss")])
    assert 'href="swiss/index.html"' in index


def test_parse_players():
    assert rp.parse_players("3-5,7", SWISS) == [3, 4, 5, 7]
    assert rp.parse_players(None, FLEMISH) == [2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="8 players"):
        rp.parse_players("3-8", SWISS)
    assert rp.model_players(SWISS, [3, 4, 5]) == 5 and rp.model_players(FLEMISH, [2, 5]) == 5


TINY = ["--cells", "12", "--samples-per-cell", "8", "--knock-samples", "8", "--knock-inner", "4", "--dpi", "30"]


def test_cli_builds_quick_tables_then_reuses_them(tmp_path):
    tables, out = tmp_path / "tables", tmp_path / "reports"
    args = ["report", "--rules", "swiss", "--players", "3", "--tables", str(tables), "--out", str(out), *TINY]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "building quick table" in result.stderr and "[3/3]" in result.stderr
    folder = out / "swiss"
    assert sorted(p.name for p in folder.iterdir()) == ["call_3p.png", "index.html", "knock.png", "models.png",
                                                         "sitout.png"]
    page = (folder / "index.html").read_text()
    assert page.count("data:image/png;base64,") == 4 and "--cells 12" in page
    assert "rumbaodds tables build --rules swiss --players 3" in page
    assert not list(out.rglob("*.parquet"))
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and "reusing" in again.stderr and "building" not in again.stderr
    flemish = CliRunner().invoke(main, ["report", "--rules", "flemish", "--players", "2", "--models", "default",
                                        "--tables", str(tables), "--out", str(out), "--quiet", *TINY])
    assert flemish.exit_code == 0, flemish.output
    assert not (out / "flemish" / "knock.png").exists()
    index = (out / "index.html").read_text()
    assert 'href="flemish/index.html"' in index and 'href="swiss/index.html"' in index


def test_cli_bad_input_is_one_line(tmp_path):
    for bad, words in ((["--players", "9"], "9 players"), (["--models", "reckless"], "unknown opponent model"),
                       (["--cells", "0"], "--cells must be positive")):
        result = CliRunner().invoke(main, ["report", "--tables", str(tmp_path), "--out", str(tmp_path), *bad])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("rumbaodds: error:") and words in result.stderr
