"""``make_report``: find or build the tables, pool them into grids, fit the cards, draw, write the page.

Output under ``out/<rules>/``: ``index.html`` (self-contained), ``card_<n>p.png`` and ``card_<n>p.pdf`` (the
printable card per player count), the chart PNGs; and ``out/index.html`` linking every rule set's report.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..rules import RulesError, RuleSet, get_rules
from . import charts, decisions, grids, page, section
from .card import MAX_LINES
from .cells import PLAY, SIT, Cells
from .index import write_index
from .lines import Line, fit_two_way, lowest_rank, main_lines
from .section import PRINT_DPI, card_lines, charts_top, jack_line, print_files
from .sources import Budget, Loaded, ReportError, obtain_table, policy_available, try_full

NAMED_MODELS = ("default", "cautious", "bold", "all")
SOLVED_MODELS = ("equilibrium",)  # compared too when this build has them (opponents.opponent_policy)
MODEL_PLAYERS = {"swiss": 5, "flemish": 4}  # the usual table for the comparisons
FULL_SAMPLES = 1_000
DPI = 100


def parse_players(text: str | None, rules: RuleSet) -> list[int]:
    """'3-7', '5', '3,5,7' (None: every count the rule set allows) -> sorted player counts."""
    if text is None or not str(text).strip():
        return list(range(rules.min_players, rules.max_players + 1))
    out: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                out.update(range(lo, hi + 1))
            else:
                out.add(int(part))
        except ValueError:
            raise ReportError(f"--players: {part!r} is not a number or a range such as 3-7") from None
    if not out:
        raise ReportError(f"--players: {text!r} names no player count")
    for n in sorted(out):
        rules.check_players(n)
    return sorted(out)


def model_players(rules: RuleSet, players: Sequence[int]) -> int:
    """The player count of the comparisons: 5 swiss, 4 flemish (else the middle count), or the nearest given."""
    wanted = MODEL_PLAYERS.get(rules.name, (rules.min_players + rules.max_players + 1) // 2)
    if wanted in players or not players:
        return wanted
    return min(players, key=lambda n: (abs(n - wanted), n))


def base_model(rules: RuleSet, players: int) -> str:
    """The opponents of every card and chart: what `ask` plays against when none are named (policies.
    default_opponents): the equilibrium where a strategy is solved, else the default style."""
    from ..opponents.resolve import default_opponents

    return default_opponents(rules, players)[0]


def default_models(rules: RuleSet, players: int) -> list[str]:
    """The base opponents first, then the named styles and the solved ones this build can make."""
    base = base_model(rules, players)
    return list(dict.fromkeys([base, *NAMED_MODELS, *(m for m in SOLVED_MODELS if policy_available(m, rules,
                                                                                                   players))]))


def check_models(names: Sequence[str], rules: RuleSet, players: int) -> list[str]:
    from ..opponents.models import ModelError, get_model

    if not names:
        raise ReportError("--models: name at least one opponent model")
    for name in names:
        try:
            get_model(name)
        except ModelError:
            if not policy_available(name, rules, players):
                raise ReportError(f"--models: unknown opponent model {name!r} (use {', '.join(NAMED_MODELS)}, a "
                                  f".toml file, or a solved policy this build has)") from None
    base = base_model(rules, players)
    return list(dict.fromkeys([base, *names]))


# -- commands shown on the page -----------------------------------------------------------------------------
def report_command(rules_arg: str, players_arg: str | None, tables: str, out: str, budget: Budget,
                   models: Sequence[str] | None, model_n: int | None) -> str:
    args = ["rumbaodds", "report", "--rules", rules_arg]
    if players_arg:
        args += ["--players", players_arg]
    args += ["--tables", str(tables), "--out", str(out)]
    default = Budget()
    for name in ("cells", "samples_per_cell", "model_cells", "knock_samples", "knock_inner", "ask_hands",
                 "ask_samples", "seed"):
        if getattr(budget, name) != getattr(default, name):
            args += ["--" + name.replace("_", "-"), str(getattr(budget, name))]
    if models is not None:
        args += ["--models", ",".join(models)]
    if model_n is not None:
        args += ["--model-players", str(model_n)]
    return shlex.join(args)


def full_commands(rules_arg: str, rules: RuleSet, players: Sequence[int], models: Sequence[str], model_n: int,
                  tables: str, manifest: dict | None = None) -> list[str]:
    """The commands that build the full tables (``manifest``: a shipped full table's, whose settings they repeat:
    one cell per neighbour group, its precision)."""
    from ..tables.handclasses import enumerate_trump_rank_pairs
    from ..tables.spec import DEFAULT_PRECISION

    pairs = len(enumerate_trump_rank_pairs(rules))
    lines = [f"# every situation: {pairs:,} (turned trump rank, hand) pairs per seat, up to {FULL_SAMPLES:,} deals "
             f"each "
             f"(resumable: rerun the same command after an interruption)"]
    flags = ""
    if manifest is not None:
        if manifest.get("neighbours"):
            lines[0] = (f"# every situation: {pairs:,} (turned trump rank, hand) pairs per seat, one cell per "
                        f"neighbour group simulated (resumable: rerun the same command after an interruption)")
            flags += " --neighbours"
        if manifest.get("precision") not in (None, DEFAULT_PRECISION):
            flags += f" --precision {manifest['precision']:g}"
    r = shlex.quote(rules_arg)
    for n in players:
        lines.append(f"rumbaodds tables build --rules {r} --players {n}{flags}")
    for m in models[1:]:  # the first is the base opponents, built above
        lines.append(f"rumbaodds tables build --rules {r} --players {model_n} --opponents {m}")
    lines.append(f"rumbaodds report --rules {r} --tables {shlex.quote(str(tables).rstrip('/') + '/')}")
    return lines


def source_text(full: dict, players: Sequence[int], mn: int, rules: RuleSet, budget: Budget) -> str:
    """Which tables the page's grids and cards come from (the page's first line says it)."""
    if not full:
        return (f"quick tables ({budget.cells:,} situations per seat drawn by how often they occur, "
                f"{budget.samples_per_cell} deals each; no full {rules.name} table is shipped yet, so every grid "
                f"and card here is from that sample)")
    counts = ", ".join(str(n) for n in sorted(full))
    rest = [n for n in players if n not in full]
    text = (f"the full tables shipped with rumbaodds (every hand at every seat, weighted by how often it is dealt) "
            f"for {counts} players")
    if any(c.source is not None for c in full.values()):
        text += (" (one simulated cell per neighbour group, the hands alike but for their low side cards; every "
                 "hand read from its group's cell, moved and widened as ask answers it)")
    if rest:
        text += f"; quick tables (a random share of the hands) for {', '.join(map(str, rest))}"
    return text + f"; the decisions after earlier words, after passes and the knock from a sample at {mn} players"


# -- the whole report ------------------------------------------------------------------------------------------
def make_report(rules_arg: str, players_arg: str | None = None, tables: str | Path = "tables",
                out: str | Path = "reports", budget: Budget | None = None, models: Sequence[str] | None = None,
                model_n: int | None = None, dpi: int = DPI, say: Callable[[str], None] = lambda s: None) -> Path:
    """Write ``out/<rules>/index.html`` with its printable cards and charts; returns the page's path."""
    budget = budget or Budget()
    started = time.perf_counter()
    rules = get_rules(rules_arg)
    players = parse_players(players_arg, rules)
    mn = model_n if model_n is not None else model_players(rules, players)
    rules.check_players(mn)
    model_list = check_models(models, rules, mn) if models is not None else default_models(rules, mn)
    base = model_list[0]  # the opponents of the cards, grids and charts
    loaded: dict[int, Loaded] = {}
    full: dict[int, Cells] = {}  # every cell of a packed table, where there is one
    steps = len(players) + len(model_list) - 1
    for i, n in enumerate(players, 1):
        say(f"[{i}/{steps}] {rules.name}, {n} players, opponents {base}")
        fc = try_full(tables, rules, n, base_model(rules, n), say)
        if fc is not None:
            full[n] = fc
        # a full table: the quick one only at the usual count (the passes, the knock), and at every count where the
        # jack of trump turned bars the pass (its grid and line: the full table's cells rank the pass too)
        if fc is None or n == mn or rules.jack_of_trump_forces_play:
            loaded[n] = obtain_table(tables, rules, n, base_model(rules, n), budget, budget.cells, say)
    say(f"tables ready in {time.perf_counter() - started:.0f} s; pooling grids and fitting the cards")
    folder = Path(out) / rules.name
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*.png"), *folder.glob("*.pdf")]:
        old.unlink()
    sections = []
    sources = {n: full[n] if n in full else loaded[n].cells for n in players}  # each count's source of cells
    for n in players:
        s = section.count_section(sources[n], loaded.get(n), rules, base_model(rules, n), say)
        if n in full:
            t = s.info
            s.footer = (f"From every situation of the full table ({t.cells:,} situations, {t.deals:,} simulated "
                        f"deals), opponents {t.model}, {budget.play} card play. Reproduce: "
                        f"{report_command(rules_arg, players_arg, str(tables), str(out), budget, None, None)}.")
            s.files = section.rule_card_files(folder, s, rules, s.footer)
            sections.append(s)
            continue
        t = s.info
        footer = (f"{t.cells:,} situations ({t.cells_per_seat:,} per seat), {t.deals:,} simulated deals, "
                  f"{'quick' if t.quick else 'full'} table, opponents {t.model}, {budget.play} card play. "
                  f"Reproduce: {report_command(rules_arg, players_arg, str(tables), str(out), budget, None, None)}.")
        s.files = {"A4 PDF": f"card_{n}p.pdf", "A5 PDF": f"card_{n}p_a5.pdf", "PNG": f"card_{n}p.png"}
        s.footer = footer
        sections.append(s)
    jack_lines = {n: line for n in players if n in loaded and (line := jack_line(loaded[n], rules)) is not None}

    # after earlier words: ask on sampled hands
    sample = decisions.sample_hands(rules, budget.ask_hands, budget.seed)
    words = []
    for sc in decisions.scenarios(rules, mn):
        m = decisions.measure(sc, sample, rules, base, budget, say, Path(tables) / "asked")
        if m.frame.empty:
            continue
        grid = decisions.measured_grid(m, rules)
        line = None
        if sc.two_way and {PLAY, SIT} <= set(m.actions):
            rule, saved, lost, agree = fit_two_way(m.frame, rules, PLAY, SIT, decisions.two_way_value(m))
            head = "After a Rumba call" if sc.key == "join_rumba" else "After the dealer knocked"
            text = f"{head}: join {rule.text(lowest_rank(rules), charts_top(rules))}; else pass." \
                if rule.clauses else f"{head}: pass."
            line = Line(sc.key, text, saved, lost, agree, "per such hand", "")
        example = decisions.example_hand(m, sample)
        command = sc.command(rules_arg, *example) if example else ""
        words.append(page.WordsEntry(grid, line, command, m.skipped, m.notes))
    lone = decisions.lone_dealer(rules, mn, base, budget)
    lone_line = None
    if lone and lone.get("play") is not None:
        lone_line = Line("lone", f"Dealer, everybody passed: play (you score {lone['play']:+.0f} without "
                                 f"trick play; no Rumba allowed).".replace("-", "\u2212"), None, 0.0, 1.0, "", "")
    home = next((s for s in sections if s.players == mn), None)  # the join lines go on that count's card
    other = []
    if home is not None and home.card is not None:  # a full card stays as fitted: the others beside it
        other = (section.other_lines(loaded[mn], rules) if mn in loaded else []) + \
            [e.line for e in words if e.line is not None]
    joins = [e.line for e in words if e.line is not None]
    for s in sections:
        if s.card is not None:
            continue
        extra = [x for x in (jack_lines.get(s.players), lone_line) if x is not None]
        also = len(extra) + (len(joins) if s is home else 0)
        if len(s.lines) + also > MAX_LINES:  # the card keeps to its lines: coarser seat groups
            groups = grids.seat_groups(loaded[s.players].cells)
            s.lines, s.lost = card_lines(loaded[s.players], rules, s.players, groups, MAX_LINES - also)
        if s is home:
            s.lines += joins
        print_files(folder, s, rules, s.footer, PRINT_DPI, extra)

    # opponent models
    entries = []
    base_grid = None
    from ..opponents.resolve import describe

    for j, name in enumerate(model_list, len(players)):
        if name != base:
            say(f"[{j}/{steps}] {rules.name}, {mn} players, opponents {name}")
        try:
            got = loaded[mn] if (name == base and mn in loaded) else \
                obtain_table(tables, rules, mn, name, budget, budget.model_cells, say)
        except (RulesError, ValueError, TypeError, AttributeError) as exc:
            entries.append(page.ModelEntry(name, "", None, [], float("nan"), None, f"not compared ({exc})"))
            continue
        f = got.frame
        everyone = tuple(range(mn))
        grid = grids.grid(got.cells, everyone, f"Opponents {name}, every seat",
                          small=True)  # rows and columns merged: each box holds enough situations
        lines, _ = main_lines(f, rules, [(everyone, "every seat")], got.info.quick)
        try:
            from ..opponents.resolve import opponent_policy

            text = describe(opponent_policy(name, rules, mn))
        except Exception:  # noqa: BLE001 - a description is a nicety
            text = name
        if name == base:
            base_grid = grid
        entries.append(page.ModelEntry(name, text, grid, lines, float("nan"), got.info))
    for e in entries:
        if e.grid is not None and base_grid is not None and e.name != base:
            e.moved = decisions.moved_share(base_grid, e.grid)

    # charts
    chart_list = []
    rows, series = section.success_series(full or sources, rules)  # full tables only, where there are some
    if any(series.values()):
        q = any(s.info.quick for s in sections)
        cells = sum(s.info.cells for s in sections)
        deals = sum(s.info.deals for s in sections)
        note = (f"{cells:,} situations, {deals:,} deals ({'quick' if q else 'full'} tables, opponents {base}), "
                f"pooled over seats and side cards, weighted by how often each hand occurs; rows of fewer than 2 "
                f"situations are left out.")
        fig = charts.success_chart(rows, series, note, "How often a Rumba succeeds")
        chart_list.append(page.Chart("success", "How often a Rumba succeeds, by your trumps",
                                     "Made (3+ tricks) or uncontested, over the Rumbas played (a refused or voided "
                                     "Rumba is not counted); 95% intervals.", charts.fig_png(fig, dpi)))
    strips = {s.players: s.strip for s in sections if s.strip is not None}
    if strips:
        k0 = next(iter(strips.values()))
        inner = f", {k0.inner} inner deals each for the dealer's choice after looking" if k0.inner else ""
        note = f"{k0.samples:,} deals per card and player count{inner}; opponents {base}."
        fig = charts.knock_chart(strips, note)
        chart_list.append(page.Chart("knock", "Should the dealer knock?", "Points per hand the blind knock saves "
                                     "against looking first and taking the best choice; 95% intervals of the "
                                     "paired difference.", charts.fig_png(fig, dpi)))
    for chart in chart_list:
        (folder / f"{chart.name}.png").write_bytes(chart.png)

    tables_info = [s.info for s in sections] + ([loaded[mn].info] if mn in full and mn in loaded else []) + \
        [e.info for e in entries if e.info is not None and e.name != base]
    ask_budget = f"up to {budget.ask_hands} hands per box, {budget.ask_samples:,} deals each, opponents {base}"
    notes = []
    if any(t.quick for t in tables_info):
        notes.append("Numbers from quick tables (a random share of the hands, few deals each) are less sure: more "
                     "of their boxes are close or mixed than a full table would show; the situations and deals "
                     "behind every grid are printed with it.")
    exchange = None
    if mn in full or mn in loaded:
        exchange = grids.grid(full[mn] if mn in full else loaded[mn].cells, tuple(range(mn)),
                              f"{mn} players, every seat")
    exploit = None
    try:
        from ..strategy.store import find

        exploit = find(rules, mn).meta.get("exploit_styles")
    except RulesError:  # a house rule without a solved strategy: nothing to compare
        pass
    data = page.ReportPage(
        rules, rules_arg, time.strftime("%Y-%m-%d"), sections, words, entries, mn, chart_list, tables_info,
        report_command(rules_arg, players_arg, str(tables), str(out), budget,
                       None if models is None else model_list, model_n),
        full_commands(rules_arg, rules, players, model_list, mn, str(tables),
                      next(iter(full.values())).manifest if full else None), lone, lone_line, jack_lines,
        ask_budget, notes, exchange, exploit, source_text(full, players, mn, rules, budget))
    data.other_lines, data.play = other, budget.play
    path = folder / "index.html"
    path.write_text(page.render(data), encoding="utf-8")
    old_cards = folder / "cards.json"
    if section.write_cards(folder, sections, rules) is None and old_cards.exists():
        old_cards.unlink()
    for line in section.summary_lines(folder):
        say(line)
    write_index(out)
    say(f"report written: {path} ({time.perf_counter() - started:.0f} s in all)")
    return path


__all__ = ["DPI", "FULL_SAMPLES", "NAMED_MODELS", "check_models", "default_models", "full_commands",
           "make_report", "model_players", "parse_players", "report_command"]
