"""Everything the command line prints: the answers of ask, knock and the tables, and the progress bar.

The JSON documents are the API's own (``to_dict`` / pipeline.document); this
module only lays out the human-readable tables. Scores count down like the
score sheet: a negative change is good.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..answer.pipeline import document
from ..cards import format_card
from ..opponents.resolve import describe
from ..rummy.cards import format_cards, format_type

SIGN_NOTE = "Scores count down like the score sheet: negative is good; the best choice has the lowest value."


@contextmanager
def progress_bar(enabled: bool | None, label: str, unit: str = "deals"):
    """A rich progress bar with rate and time left, or a no-op callback; ``unit``: what it counts."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    # MofNCompleteColumn: the planned deals are unknown (None) until the first batch says them
    columns = [TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
               TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, planned: int) -> None:
            bar.update(task, completed=done, total=planned)

        yield update


def seat_role(seat: int, players: int) -> str:
    if seat == players - 1:
        return "the dealer, last to speak"
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"]
    return f"{ordinals[seat]} to speak"


def _rumba_detail(c) -> str:
    text = (f"succeeds {c.p_success.mean:.1%} [{c.p_success.low:.1%}, {c.p_success.high:.1%}] of the Rumbas "
            f"played")
    o = c.outcomes
    if o is None:  # a table keeps the success, not the outcome shares
        return text
    text += f"; made {o.made:.1%}, lost {o.lost:.1%}, nobody joins {o.uncontested:.1%}"
    if o.void:
        text += f", void (a later player threw in) {o.void:.1%}"
    if o.not_allowed:
        text += f", not allowed (nobody else plays: you play alone) {o.not_allowed:.1%}"
    if c.tricks is not None:
        text += "; tricks 0-5 when played: " + " ".join(f"{p:.0%}" for p in c.tricks)
    return text


def _plan_detail(c) -> str:
    return "then " + "; ".join(f"{when}: {part['choice']} ({part['share']:.0%} of deals)"
                               for when, part in c.plan.items())


def recommendation_text(result) -> str:
    """The recommendation in one sentence; "too close to call" where the margin's interval includes 0."""
    if result.margin is None:
        return f"Recommendation: {result.recommendation} (the only choice)."
    m = result.margin
    if result.equal:
        return (f"Recommendation: {result.recommendation} or {result.runner_up}: they score the same on every deal "
                f"(here {result.actions[result.recommendation].ev.mean:+.2f}).")
    if not result.resolved:
        return (f"Too close to call between {result.recommendation} and {result.runner_up}: {result.recommendation} "
                f"is ahead by {m.mean:.2f} points per hand, 95% interval {m.low:.2f} to {m.high:.2f}.")
    return (f"Recommendation: {result.recommendation}, better than {result.runner_up} by {m.mean:.2f} points per "
            f"hand (95% interval {m.low:.2f} to {m.high:.2f}).")


def print_ask(result) -> None:
    from ..answer.pipeline import source_lines

    s = result.situation
    console = Console()
    source = source_lines(result)
    if len(source) > 1:  # a table: where from, first (and, for a group table's member, how it was answered)
        click.echo(source[0])
        for line in source[1:]:
            console.print(f"[dim]{line}[/dim]")
    extra = ""
    if s.swapped_by is not None:
        extra = f", seat {s.swapped_by} swapped the two of trump for it"
    before = [w for w in s.before if w != "-"]
    heard = f"; before you: {', '.join(s.before)}" if before else ""
    console.print(f"[bold]{' '.join(format_card(c) for c in s.hand)}[/bold], trump card "
                  f"[bold]{format_card(s.trump_card)}[/bold]{extra}, seat {s.seat} of {s.players} "
                  f"({seat_role(s.seat, s.players)}), {s.rules.name} rules{heard}")
    ess = result.effective_samples
    effective = f" (effective {ess:,.0f})" if ess is not None and ess < result.samples - 0.5 else ""
    table = Table(title=f"{result.samples:,} deals{effective}, seed {result.seed}")
    table.add_column("choice")
    table.add_column("expected score change", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("detail")
    for name, c in result.actions.items():
        detail = ""
        if name == "play":
            if result.exchange is not None:
                detail = result.exchange.text()
            else:
                detail = ("exchange " + " ".join(format_card(x) for x in c.discard)) if c.discard else "keep all cards"
        if name == "rumba" and c.p_success is not None:
            detail = _rumba_detail(c)
        if name == "no-rumba" and c.plan:
            detail = _plan_detail(c)
        style = "bold green" if name == result.recommendation and result.resolved else None
        table.add_row(name, f"{c.ev.mean:+.2f}", f"[{c.ev.low:+.2f}, {c.ev.high:+.2f}]", detail, style=style)
    console.print(table)
    console.print(recommendation_text(result), style="bold" if result.resolved else "bold yellow")
    for note in result.notes:
        console.print(f"[yellow]Note: {note}.[/yellow]")
    if result.meta.get("stopped") == "time" or (result.meta.get("simulation") or {}).get("stopped") == "time":
        sim = result.meta.get("simulation") or result.meta
        console.print(f"[yellow]Note: the simulation stopped at its time budget after {sim['deals']:,} deals "
                      f"(--seed {sim['seed']} --samples {sim['deals']} repeats it; --precision asks for more)."
                      f"[/yellow]")
    if len(source) == 1:
        console.print(f"[dim]{source[0]}[/dim]")
    console.print(f"[dim]{SIGN_NOTE} Opponents {describe(result.opponents)}; card play {result.play}.[/dim]")


def print_knock(result, others: dict) -> None:
    """The dealer's knock question as a table (and the same deals against each named model)."""
    console = Console()
    table = Table(title=f"Dealer, trump card {format_card(result.trump_card)}, {result.players} players, "
                        f"{result.rules.name}: {result.samples:,} deals, seed {result.seed}")
    table.add_column("choice")
    table.add_column("expected score change", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("detail")
    choices = ", ".join(f"{k} {v:.0%}" for k, v in result.no_knock_choices.items())
    for name, est, detail in (
        ("knock", result.knock, f"Rumba succeeds {result.p_success.mean:.1%} "
                                f"[{result.p_success.low:.1%}, {result.p_success.high:.1%}]"),
        ("no knock", result.no_knock, f"then: {choices}" if choices else ""),
    ):
        style = "bold green" if name == result.recommendation and result.resolved else None
        table.add_row(name, f"{est.mean:+.2f}", f"[{est.low:+.2f}, {est.high:+.2f}]", detail, style=style)
    console.print(table)
    joins = "" if result.p_uncontested is None else f" Nobody joins {result.p_uncontested:.0%} of knocks."
    console.print(result.verdict() + joins, style="bold" if result.resolved else "bold yellow")
    meta = result.meta or {}
    if meta.get("kind") == "table":
        console.print(f"[dim]From the {meta['source']} {meta['table']} (trump rank {meta['trump_rank']}, "
                      f"{meta['deals']:,} deals, seed {meta['seed']}).[/dim]")
    else:
        why = {"settled": "the answer settled", "time": "the time budget", "cap": "its 4,000 deals"}
        stop = why.get(result.stopped)
        search = meta.get("search")
        searched = "" if not search else (
            f"; the hands by search: {search['decisions']:,} decisions with a choice, "
            f"{search['worlds_per_decision'] or 0:.1f} worlds each ({search['worlds_asked']} asked); the dealer's "
            f"inner deals by {search['inner_play']}")
        console.print(f"[dim]Simulated now: {result.samples:,} deals, seed {result.seed}"
                      + (f"; stopped at {stop}" if stop else "") + searched + ".[/dim]")
        if result.stopped == "time":
            console.print(f"[yellow]Note: stopped at the time budget (--seed {result.seed} --samples "
                          f"{result.samples} repeats it; --samples or --precision asks for more).[/yellow]")
    if others:
        moved = Table(title="The same deals against each named model")
        for column in ("opponents", "knock", "no knock", "knocking gains", "nobody joins", "answer"):
            moved.add_column(column, justify="right" if column not in ("opponents", "answer") else "left")
        for name, r in others.items():
            gain = r.margin
            moved.add_row(name, f"{r.knock.mean:+.2f}", f"{r.no_knock.mean:+.2f}",
                          f"{gain.mean:+.2f} [{gain.low:+.2f}, {gain.high:+.2f}]", f"{r.p_uncontested:.0%}",
                          r.recommendation)
        console.print(moved)
    console.print(f"[dim]{SIGN_NOTE} Opponents {describe(result.opponents)}; card play {result.play}.[/dim]")


def show_answer(result, as_json: bool) -> None:
    """An answer of the pipeline (rumbaodds.answer): its JSON document, or the human table with its source."""
    if as_json:
        click.echo(json.dumps(document(result)))
        return
    print_ask(result)


# -- game (RULES.md §9) ----------------------------------------------------------------------------------------------
def print_game(values, as_json: bool) -> None:
    """`rumbaodds game`: every player's chance to win and expected payout from a score state."""
    from ..match.api import Z95

    if as_json:
        click.echo(json.dumps(values.to_dict()))
        return
    state, rule_set = values.state, values.rules
    table = Table(title=f"{rule_set.name}, {state.players} players, payout {rule_set.payout} "
                        f"({values.games:,} games, seed {values.seed})")
    for name in ("player", "score", "passes", "wins the game", "expected payout"):
        table.add_column(name, justify="right")
    win_half = Z95 * values.p_win_se()
    pay_half = Z95 * values.payout_se()
    low, high = values.win_bounds()
    for p in range(state.players):
        who = f"{p}" + (" (deals)" if p == state.dealer else "")
        if values.unfinished:  # never a chance that ignores the unfinished games
            table.add_row(who, str(state.scores[p]), str(state.passes[p]), f"{low[p]:.1%} to {high[p]:.1%}",
                          "unknown")
        else:
            table.add_row(who, str(state.scores[p]), str(state.passes[p]),
                          f"{values.p_win[p]:.1%} ± {win_half[p]:.1%}", f"{values.payout[p]:+.2f} ± {pay_half[p]:.2f}")
    Console().print(table)
    click.echo(f"Assumed: {values.assumes}; opponents {values.opponents}.")
    if values.unfinished:
        click.echo(f"{values.unfinished_text()}. Games took {values.mean_deals:.1f} deals on average.")
        return
    click.echo(f"Payout in stake units (points x stake), positive = received; ± is a 95% interval. "
               f"The chances add up to {values.p_win.sum():.0%} (a shared win counts 1/k to each of k winners; "
               f"{values.ties:,} tied games). Games took {values.mean_deals:.1f} deals on average.")
    if len(set(state.scores)) == 1 and len(set(state.passes)) == 1:
        d = state.dealer
        click.echo(f"Everybody at {state.scores[0]}: dealing first is worth {values.payout[d]:+.2f} ± "
                   f"{pay_half[d]:.2f} stakes to player {d} and a {values.p_win[d]:.1%} chance to win (a fair share: "
                   f"{1 / state.players:.1%}).")


def print_game_ask(answer, as_json: bool) -> None:
    """`ask --scores`: the per-hand answer, then every choice by its game value, and where the score matters."""
    from ..match.ask import PAYOUT_SIGN, closing_note, game_document, opponents_text
    from ..match.kernel import MAX_HANDS

    if as_json:
        click.echo(json.dumps(game_document(answer)))
        return
    print_ask(answer.hand)
    s = answer.state
    console = Console()
    table = Table(title=f"By the game: scores {','.join(map(str, s.scores))} (seat {s.dealer} deals), payout "
                        f"{answer.hand.situation.rules.payout}, {answer.hand.samples:,} deals each played to the "
                        f"end of the game")
    for name in ("choice", "this hand (points)", "expected payout (stakes)", "95% interval", "wins the game"):
        table.add_column(name, justify="right" if name != "choice" else "left")
    hand_actions = answer.hand.actions
    for action, name in answer.game_actions().items():
        pay, win = answer.payout(name), answer.win[name]
        per_hand = answer.hand.options[name].ev.mean
        label = f"{action} ({name})" if name != action else str(action)
        style = "bold green" if action == answer.recommendation else None
        table.add_row(label, f"{per_hand:+.2f}" + (" *" if hand_actions.get(action) is not None
                                                    and action == answer.hand.recommendation else ""),
                      f"{pay.mean:+.2f}", f"[{pay.low:+.2f}, {pay.high:+.2f}]",
                      f"{win.mean:.1%} [{win.low:.1%}, {win.high:.1%}]", style=style)
    console.print(table)
    m = answer.margin()
    if m is not None:
        console.print(f"By the game: [bold green]{answer.recommendation}[/bold green], better than "
                      f"{answer.by_game.runner_up} by {m.mean:.2f} stakes of expected payout (95% interval "
                      f"{m.low:.2f} to {m.high:.2f}).")
    console.print(("[bold yellow]" if answer.differs else "") + closing_note(answer)
                  + ("[/bold yellow]" if answer.differs else ""))
    moved = opponents_text(answer)
    if moved:
        console.print(moved)
    console.print(f"[dim]{PAYOUT_SIGN}; * the best choice for this hand alone (points, down is good). The rest of "
                  f"the game: {answer.assumes}; {answer.mean_deals:.1f} deals per game on average.[/dim]")
    if answer.unfinished:  # never silent: the chances above count those games as won by nobody
        console.print(f"[bold yellow]{answer.unfinished:,} of the games did not finish within {MAX_HANDS:,} hands: "
                      f"they count as won by nobody and paid nothing, so every chance to win above is a lower bound."
                      f"[/bold yellow]")


# -- strategy ---------------------------------------------------------------------------------------------------------
@contextmanager
def solve_progress(enabled: bool | None, iterations: int):
    """The solver's progress bar with the last exploitability; yields its callback."""
    enabled = sys.stderr.isatty() if enabled is None else enabled
    columns = [TextColumn("solving"), BarColumn(), TextColumn("{task.completed}/{task.total} iterations"),
               TextColumn("{task.fields[exploit]}"), TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=not enabled) as bar:
        task = bar.add_task("solve", total=iterations, exploit="")

        def update(done, total, last):
            text = "" if last is None else f"exploitability {last.mean:.3f} [{last.low:.3f}, {last.high:.3f}]"
            bar.update(task, completed=done, total=total, exploit=text)

        yield update


def print_strategy(solved, rule_set, players: int, lines: list, plot) -> None:
    """`strategy show`: each seat's decisions in words, the exploitability and the styles' gains."""
    console = Console()
    console.print(f"[bold]{rule_set.name}, {players} players[/bold]: solved strategies "
                  f"({solved.meta['iterations']} iterations, {solved.meta['seconds']:.0f} s); "
                  f"{solved.abstraction.describe()}")
    for seat in lines:
        console.print(f"[bold]{seat['title']}[/bold]")
        for line in seat["lines"]:
            console.print(f"  {line}")
    print_exploitability(solved, console)
    styles = solved.meta.get("exploit_styles", {})
    if styles:
        table = Table(title="Reading your table: what the best response to a whole table of one style gains over "
                            "playing the equilibrium (points per hand)")
        table.add_column("style")
        for s in range(players):
            table.add_column(f"seat {s}", justify="right")
        for name, per_seat in styles.items():
            table.add_row(name, *[f"{per_seat[str(s)]['mean']:.2f}" for s in range(players)])
        console.print(table)
    if plot:
        console.print(f"chart written: {plot}")


def print_exploitability(solved, console: Console | None = None) -> None:
    """The solver's exploitability check as a table."""
    console = console or Console()
    ex = solved.exploitability
    table = Table(title="Exploitability: what a best response (same abstraction) gains, points per hand")
    table.add_column("seat")
    table.add_column("gain", justify="right")
    table.add_column("95% interval", justify="right")
    for key in [k for k in ex if k != "total"] + ["total"]:
        e = ex[key]
        table.add_row(key if key == "total" else f"seat {key}", f"{e['mean']:+.3f}",
                      f"[{e['low']:+.3f}, {e['high']:+.3f}]")
    console.print(table)
    console.print(f"[dim]{ex['total']['samples']:,} deals; the response is chosen on half the deals and scored on "
                  f"the other half (docs/STRATEGY.md).[/dim]")


# -- rummy ------------------------------------------------------------------------------------------------------------
def print_rummy_opening(d: dict, rules) -> None:
    """`rummy open`: the opening value, the melds and the penalty left."""
    console = Console()
    console.print(f"[bold]{' '.join(d['hand'])}[/bold]: {rules.name} ({rules.summary()})")
    verdict = "[green]can open[/green]" if d["can_open"] else "[red]cannot open yet[/red]"
    console.print(f"Opening value [bold]{d['opening_value']}[/bold]: {verdict} (needs {d['threshold']}; "
                  f"melds of at most {d['lay_limit']} of the {d['cards']} cards, one kept to discard).")
    if d["melds"]:
        table = Table()
        table.add_column("meld")
        table.add_column("value", justify="right")
        for tokens, value, stands in zip(d["melds"], d["meld_values"], d["jokers_stand_for"]):
            shown, it = [], iter(stands)
            for t in tokens:
                shown.append(f"JK(={next(it)})" if t == "JK" else t)
            table.add_row(" ".join(shown), str(value))
        console.print(table)
    left = " ".join(d["left"]) or "nothing"
    console.print(f"Left in hand: {left} = {d['left_penalty']} penalty points.")
    if d["penalty_left"] < d["left_penalty"]:
        console.print(f"Fewest penalty points any melds leave: {d['penalty_left']} (laying "
                      f"{'; '.join(' '.join(m) for m in d['penalty_melds'])}).")
    else:
        console.print(f"Fewest penalty points any melds leave: {d['penalty_left']} (these melds).")


def print_rummy_odds(result, cards, rules, players: int, samples: int, policy: str) -> None:
    """`rummy odds`: P(can open by each draw), and the open card's verdict."""
    console = Console()
    console.print(f"[bold]{format_cards(cards)}[/bold]: {rules.name}, {players} players, you draw first")
    if result.can_open_now:
        console.print(f"Opening value now {result.deal_value} (needs {rules.opening_threshold}): you can already "
                      f"open, so every draw keeps it: P = 1 (exact, no simulation).")
    else:
        console.print(f"Opening value now {result.deal_value} (needs {rules.opening_threshold}): cannot open yet.")
        table = Table(title=f"{samples:,} deals, seed {result.seed}, discard policy {policy}")
        table.add_column("after draw", justify="right")
        table.add_column("P(can open by then)", justify="right")
        table.add_column("95% interval", justify="right")
        for t, e in enumerate(result.by_turn, 1):
            table.add_row(str(t), f"{e.mean:.1%}", f"[{e.low:.1%}, {e.high:.1%}]")
        console.print(table)
    if result.discard is not None:
        card = format_type(result.discard)
        word = "opens" if result.discard_opens else "does not open"
        console.print(f"Taking the open card {card} as your first draw: opening value {result.discard_value}, "
                      f"{word} (exact: the card is known).")


def print_rummy_table(table, seed: int, players: int, turns: int, jokers, values, joker_rows) -> None:
    """`rummy tables`: P(can open by turn k) by jokers held and by value at the deal; a joker's worth."""
    console = Console()
    rules = table.rules
    console.print(f"[bold]{rules.name}[/bold]: {rules.summary()}; {table.samples:,} random deals, seed {seed}, "
                  f"{players} players")
    shown = [k for k in (0, 1, 2, 3, 5, 8, 10, 15) if k <= turns]
    for title, groups in (("by jokers held", jokers), ("by opening value at the deal", values)):
        t = Table(title=f"P(can open by turn k), {title} (95% half-width at most "
                        f"{max(e.half_width for _, _, c in groups for e in c):.1%})")
        t.add_column("hand")
        t.add_column("deals", justify="right")
        for k in shown:
            t.add_column(f"k={k}", justify="right")
        for label, n, c in groups:
            t.add_row(label, f"{n:,}", *(f"{c[k].mean:.0%}" for k in shown))
        console.print(t)
    for label, e in joker_rows:
        console.print(f"A joker more, {label}: opens {e.mean:.2f} turns sooner [{e.low:.2f}, {e.high:.2f}] "
                      f"({e.samples:,} paired deals)")

