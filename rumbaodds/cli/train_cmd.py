"""`rumbaodds train`: practice the decision at the table; every choice graded at once, then drill the mistakes."""

from __future__ import annotations

import json

import click

from .. import limits
from ..cards import CardError, format_card
from ..learning.grading import Decision, DecisionError, Grade, caller_of, loss_text
from ..learning.trainer import DEFAULT_SAMPLES, Answered, Spot, Trainer, summary
from ..rules import RulesError
from .errors import friendly_errors
from .group import main
from .options import (
    int_option,
    json_option,
    passes_option,
    progress_option,
    rules_option,
    samples_option,
    seed_option,
    tables_option,
)
from .render import progress_bar, seat_role
from .review_cmd import writable_file

HELP = ("Type pass, play (your best exchange), play S6 C7 (exchange these), play none (keep all), rumba, join "
        "(after a Rumba call), throw-in; q ends the round.")
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
ROUNDS = limits.Limit(1, 10_000, why="hands in a practice round")
SITUATIONS = limits.Limit(10, 100_000, why="situations on the page")
BAND_STYLE = {"best": "green", "mixed": "green", "too close": "cyan", "inaccuracy": "yellow", "mistake": "red",
              "blunder": "red"}


def parse_answer(text: str) -> Decision | str:
    """The typed answer as a Decision, or ``quit`` / ``help``; a DecisionError or CardError when unreadable."""
    words = text.strip().lower().replace(",", " ").split()
    if not words:
        raise DecisionError("type a choice (? for help)")
    if words[0] in ("q", "quit", "exit", "stop"):
        return "quit"
    if words[0] in ("?", "h", "help"):
        return "help"
    if words[0] == "throw" and words[1:2] == ["in"]:
        words = ["throw-in", *words[2:]]
    word, rest = words[0], words[1:]
    if word == "knock":
        raise DecisionError("the knock is the dealer's choice before he looks at his cards; here you have seen "
                            "yours (train --knock asks it first, rumbaodds knock answers it)")
    if word == "play":
        if rest in (["none"], ["-"], ["nothing"], ["0"]):
            return Decision.of("play", ())
        return Decision.of("play", " ".join(rest) if rest else None)
    if rest:
        raise DecisionError(f"{word} takes no cards")
    return Decision.of(word)


def open_words(spot: Spot) -> list[str]:
    """The words open to him at this spot, as he types them."""
    s = spot.situation
    actions = []
    for choice in s.choices():
        word = choice.action
        if word == "play":
            word = "join" if caller_of(s) is not None else "play [cards]"
        if word not in actions and word != "no-rumba":
            actions.append(word)
    return actions


def describe_spot(spot: Spot, total: int) -> list[str]:
    s = spot.situation
    if all(w == "-" for w in s.before):
        earlier = "not told (nobody called Rumba or threw in)" if s.seat else "none: you speak first"
    else:
        earlier = ", ".join(f"seat {i} {w}" for i, w in enumerate(s.before))
    drill = " (drill)" if spot.drill else ""
    lines = [f"Hand {spot.number}{'' if spot.drill else f' of {total}'}{drill}: {s.rules.name}, {s.players} players, "
             f"you are seat {s.seat} ({seat_role(s.seat, s.players)}). Earlier words: {earlier}.",
             f"  Your cards: {' '.join(format_card(c) for c in s.hand)}    Trump card: {format_card(s.trump_card)} "
             f"({SUITS.get(format_card(s.trump_card)[0], '')} are trump)"]
    if s.swapped_by is not None:
        lines.append(f"  Seat {s.swapped_by} swapped the two of trump for the turned card.")
    if s.passes_in_a_row:
        lines.append(f"  You passed the last {s.passes_in_a_row} hands in a row.")
    return lines


def describe_grade(g: Grade, spot: Spot) -> list[str]:
    result = spot.result
    if g.band == "best" and g.loss.mean == 0:
        head = f"  best: {g.best_text}."
    elif g.band == "too close":
        head = (f"  too close to grade: {g.best_text} is ahead of your {g.action} by {loss_text(g)} points per hand, "
                f"within the noise.")
    elif g.band == "mixed":
        head = f"  mixed, counts as best: {loss_text(g)} points per hand behind {g.best_text}."
    else:
        head = f"  {g.band}: you lost {loss_text(g)} points per hand; best: {g.best_text}."
    said = "play" if g.action == "join" else g.action
    if result.margin is not None and result.runner_up is not None and said != result.runner_up:
        head += (f" ({result.recommendation} is better than {result.runner_up} by {result.margin.mean:.2f}, "
                 f"95% interval {result.margin.low:.2f} to {result.margin.high:.2f}.)")
    lines = [head, f"  Why: {g.reason}."]
    lines += [f"  Note: {n}." for n in g.notes]
    return lines


def _ask_knock(spot: Spot, trainer: Trainer, total: int, progress, quiet: bool) -> str | None:
    """The swiss dealer, before he looks: knock or look? Returns knock, look or None (quit)."""
    s = spot.situation
    if not quiet:
        drill = " (drill)" if spot.drill else ""
        click.echo(f"Hand {spot.number}{'' if spot.drill else f' of {total}'}{drill}: {s.rules.name}, {s.players} "
                   f"players, you deal. Trump card turned: {format_card(s.trump_card)}. Your cards lie face down.")
    while True:
        try:
            text = click.prompt("Knock before looking?", prompt_suffix=" (knock, look; q ends the round): ",
                                default="", show_default=False).strip().lower()
        except click.exceptions.Abort:
            return None
        if text in ("q", "quit", "exit", "stop"):
            return None
        if text not in ("knock", "look", "no", "no knock"):
            click.echo("  type knock (you call Rumba blind and may take the trump card) or look (see your cards)")
            continue
        knocked = text == "knock"
        with progress_bar(progress, "simulating") as update:
            g = trainer.grade_knock(spot, knocked, update)
        if not quiet:
            band = "too close to grade" if g.band == "too close" else g.band
            result = trainer.knock_answer(spot)
            best = "knock" if g.best == "knock" else "look (no knock)"
            lost = f"{best}." if g.loss.mean == 0 else f"you lost {loss_text(g)} points per hand; best: {best}."
            click.echo(click.style(f"  {band}: {lost}", fg=BAND_STYLE.get(g.band)))
            click.echo(f"  Knock {result.knock.text()} against look {result.no_knock.text()} points per hand "
                       f"({result.samples:,} deals, seed {result.seed}). Why: {g.reason}.")
            click.echo("")
        return "knock" if knocked else "look"


def _ask(spot: Spot, trainer: Trainer, total: int, progress, quiet: bool) -> list[Answered] | None:
    """Show ``spot``, read the answer (again after a bad one), grade it; None when the player quits.

    A dealer's spot with ``--knock`` starts with the knock; after a knock the hand is his Rumba (no further word)."""
    first = []
    if spot.knock_first:
        said = _ask_knock(spot, trainer, total, progress, quiet)
        if said is None:
            return None
        first = [trainer.history[-1]]
        if said == "knock":
            return first
    if not quiet:
        for line in describe_spot(spot, total):
            click.echo(line)
    suffix = f" ({', '.join(open_words(spot))}; ? help): "
    while True:
        try:
            text = click.prompt("Your choice", prompt_suffix=suffix, default="", show_default=False)
        except click.exceptions.Abort:  # end of input: the round ends here
            return first or None
        try:
            decision = parse_answer(text)
        except (DecisionError, CardError, RulesError) as exc:
            click.echo(f"  {exc}")
            continue
        if decision == "quit":
            return first or None
        if decision == "help":
            click.echo(f"  {HELP}")
            continue
        try:
            with progress_bar(progress, "simulating") as update:
                g = trainer.grade(spot, decision, update)
        except (DecisionError, CardError, RulesError) as exc:
            click.echo(f"  {exc}")
            continue
        if not quiet:
            for i, line in enumerate(describe_grade(g, spot)):
                click.echo(click.style(line, fg=BAND_STYLE.get(g.band)) if i == 0 else line)
            click.echo("")
        return [*first, trainer.history[-1]]


def describe_summary(figures: dict, title: str) -> list[str]:
    n = figures["decisions"]
    if not n:
        return [f"{title}: no decision."]
    lines = [f"{title}: {n} decisions, {figures['correct']} best or within the noise ({figures['accuracy']:.0%}), "
             f"{figures['points_lost_per_decision']:.2f} points lost per decision on average "
             f"({figures['points_lost']:.2f} in all)."]
    if figures["worst"]:
        lines.append("Worst:")
        for w in figures["worst"]:
            if w["action"] in ("knock", "no knock"):
                where = f"dealer of {w['players']}, trump card {w['trump']}, before looking"
                did = "knock instead of looking" if w["action"] == "knock" else "looked instead of knocking"
            else:
                where = f"{' '.join(w['hand'])}, trump {w['trump']}, seat {w['seat']} of {w['players']}"
                did = f"{w['action']} instead of {w['best_text']}"
            lines.append(f"  hand {w['number']}: {where}: {did}, {w['points_lost']:.2f} points ({w['band']})")
    return lines


@main.command("train")
@rules_option()
@int_option("--players", limit=limits.PLAYERS, default=None, help="Players at the table [default: random each hand].")
@int_option("--seat", limit=limits.SEAT, default=None,
            help="Your seat: 0 speaks first, players-1 deals [default: random each hand].")
@int_option("--rounds", limit=ROUNDS, default=None, help="Hands in the practice round [default: 10; 1 with --hand].")
@seed_option(help="Seed of the deals (and simulations), for a reproducible round (printed when omitted).")
@click.option("--words", is_flag=True,
              help="Deal the earlier seats' words too, drawn from the equilibrium strategy (answers are then "
                   "simulated: a few seconds each).")
@click.option("--hand", default=None, help="A fixed hand instead of random deals (with --trump, --players, --seat).")
@click.option("--trump", default=None, help="The turned card of the fixed hand.")
@click.option("--before", default=None, help="What the earlier seats said, for the fixed hand (as ask --before).")
@passes_option()
@click.option("--drill/--no-drill", "drill", default=None,
              help="After the round, drill spots like your mistakes [default: ask].")
@click.option("--knock", is_flag=True,
              help="Swiss: when you deal, decide first whether to knock before looking at your cards (answered by "
                   "a simulation of a tenth of --samples deals).")
@tables_option(help="Answer from a built table here where one covers the spot (then the shipped tables).")
@samples_option(limits.ASK_SAMPLES, default=DEFAULT_SAMPLES, help="Deals simulated where no table answers.")
@click.option("--table-only", is_flag=True, help="Only spots a table answers, and never simulate.")
@json_option(help="Print the whole round as one JSON object at the end (for scripts).")
@click.option("--page", "page_out", default=None, callback=writable_file, metavar="FILE",
              help="Instead of a round here: write the trainer for a phone, one self-contained page of --situations "
                   "spots, each simulated until every choice's loss is known to 0.1 points; spots too close to call "
                   "are left out (e.g. reports/trainer.html; about half a second a spot on two cores; resumable: "
                   "the spots done are kept in build/trainer/).")
@int_option("--situations", limit=SITUATIONS, default=2_000, show_default=True, help="Spots on the --page.")
@progress_option()
@friendly_errors
def train(rules, players, seat, rounds, seed, words, hand, trump, before, passes_in_a_row, drill, knock, tables_root,
          samples, table_only, as_json, page_out, situations, progress):
    """Practice: a hand is dealt as at the table, you choose, the answer comes at once.

    Each hand shows your cards, the trump card, your seat and what the
    earlier seats said; type your choice (pass, play with the cards you
    exchange, rumba, join, throw-in). The grade: the points per hand your
    choice loses against the best one (scores count down), a band (best
    below 0.05, inaccuracy below 0.25, mistake below 1, blunder), too
    close to grade when the 95% interval includes 0, mixed when the solved
    equilibrium plays both, and why. Then the round's figures and a drill
    of spots like the ones you got wrong. Answers come from the shipped
    tables (swiss); elsewhere, by a simulation of --samples deals.
    """
    if page_out is not None:
        _write_page(page_out, situations, seed, tables_root, rules, progress)
        return
    trainer = Trainer(rules=rules, players=players, seat=seat, seed=seed, words=words, tables_root=tables_root,
                      samples=samples, table_only=table_only, hand=hand, trump=trump, before=before,
                      passes_in_a_row=passes_in_a_row, knock=knock)
    total = rounds if rounds is not None else (1 if hand is not None else 10)
    quiet = as_json
    if not quiet:
        click.echo(f"Practice round: {total} hand{'s' if total > 1 else ''}, seed {trainer.seed}. {HELP}")
        click.echo("Points are per hand and count down like the score sheet: the best choice loses 0.\n")
    round_answers: list[Answered] = []
    for _ in range(total):
        with progress_bar(progress, "simulating") as update:
            spot = trainer.deal(update)
        got = _ask(spot, trainer, total, progress, quiet)
        if got is None:
            break
        round_answers.extend(got)
    figures = summary(round_answers)
    if not quiet:
        for line in describe_summary(figures, "Round over"):
            click.echo(line)
    drilled: list[Answered] = []
    wrong = trainer.mistakes(round_answers)
    if wrong and drill is None and not quiet:
        try:
            drill = click.confirm(f"Drill {len(wrong)} spot{'s' if len(wrong) > 1 else ''} like your mistakes?",
                                  default=False)
        except click.exceptions.Abort:
            drill = False
    if wrong and drill:
        if not quiet:
            click.echo("\nDrill: the same hands with the suits changed, the same seats.\n")
        for mistake in wrong:
            with progress_bar(progress, "simulating") as update:
                spot = trainer.like(mistake.spot, update)
            got = _ask(spot, trainer, total, progress, quiet)
            if got is None:
                break
            drilled.extend(got)
        if not quiet:
            for line in describe_summary(summary(drilled), "Drill over"):
                click.echo(line)
    if as_json:
        click.echo(json.dumps({"seed": trainer.seed, "rules": trainer.rules.name,
                               "decisions": [a.to_dict() for a in round_answers], "summary": figures,
                               "drill": {"decisions": [a.to_dict() for a in drilled],
                                         "summary": summary(drilled)}}))


def _write_page(out, situations: int, seed, tables_root, rules, progress) -> None:
    from ..report.trainer_page import write_trainer_page
    from ..rules import get_rules

    if get_rules(rules).name != "swiss":
        raise RulesError("--page: the page is drawn from the shipped tables, which are swiss (use --rules swiss)")
    from ..report.index import write_index

    with progress_bar(progress, "simulating", "spots") as update:
        path, build = write_trainer_page(out, situations, 1 if seed is None else seed, tables_root, update)
    click.echo(f"trainer page written: {path} ({len(build.spots):,} situations, {build.dealt:,} dealt: "
               f"{build.too_close:,} too close to call and {build.capped:,} not known by the cap left out; "
               f"{build.deals:,} deals simulated in {build.seconds:,.0f} s; open it once, it then works offline)")
    if (path.parent / "index.html").exists():  # a reports folder: its front page links the trainer
        write_index(path.parent)
