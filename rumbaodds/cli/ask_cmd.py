"""`rumbaodds ask` and `rumbaodds knock`: the questions players bring to the table."""

from __future__ import annotations

import json

import click
from click.core import ParameterSource

from .. import limits
from ..answer import pipeline, simulation
from ..answer.question import Question
from ..cardplay import DEFAULT_PLAY
from ..engine.devices import DEVICE_CHOICES, resolve_device
from ..opponents.models import ModelError
from ..opponents.resolve import DEFAULT_HELP
from ..rules import get_rules
from .errors import UserError, friendly_errors
from .group import main
from .options import (
    int_option,
    json_option,
    passes_option,
    players_option,
    precision_option,
    progress_option,
    rules_option,
    samples_option,
    scores_option,
    seat_option,
    seed_option,
    streaks_option,
    tables_option,
)
from .render import print_ask, print_game_ask, print_knock, progress_bar


def _remember_seat_models(ctx, _param, value):
    ctx.meta["seat_models"] = value
    return value


def _with_seat_models(ctx, _param, value):
    """``--opponents X --seat-model 3=bold`` is the opponents ``X,3=bold`` (resolve.opponent_policy)."""
    seats = ctx.meta.get("seat_models") or ()
    return ",".join([value or "", *seats]) if seats else value  # "" names no base: the default opponents


def common_options(samples: limits.Limit, precision: limits.Limit, samples_help: str, plays=simulation.POLICIES,
                   play_help: str = "Card play of every player."):
    """Options shared by `ask` and `knock` (their run lengths have their own caps, ``plays`` their card plays)."""
    options = [
        rules_option(),
        samples_option(samples, help=samples_help),
        precision_option(precision, "Instead of --samples: simulate until the 95% half-width of every expected "
                                    "value is below this many points."),
        seed_option(),
        click.option("--opponents", default=None, callback=_with_seat_models,
                     help="How the others decide: equilibrium (solved, docs/STRATEGY.md), or a style: default, "
                          f"cautious, bold, all, or a TOML file (docs/SIMULATION.md) {DEFAULT_HELP}."),
        click.option("--seat-model", "seat_models", multiple=True, is_eager=True, expose_value=False,
                     callback=_remember_seat_models, metavar="SEAT=STYLE",
                     help="One seat plays another style than the rest, e.g. 3=bold (repeatable)."),
        click.option("--play", "play", type=click.Choice(sorted(plays)), default=DEFAULT_PLAY,
                     show_default=True, help=play_help),
        json_option(),
        progress_option(),
    ]

    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate

def _check_exclusive(samples, precision):
    if samples is not None and precision is not None:
        raise UserError("give --samples or --precision, not both")


@main.command()
@click.argument("hand")
@click.option("--trump", required=True, help="The turned trump card, e.g. H9.")
@players_option()
@seat_option()
@passes_option()
@click.option("--before", default=None,
              help="What the earlier seats said, comma separated: pass, play, rumba or - (unknown). "
                   "Default: unknown, but nobody called Rumba or threw in.")
@click.option("--dealer-knocked", is_flag=True, help="The dealer knocked (swiss): you can only join or pass.")
@int_option("--swapped-by", limit=limits.SEAT, default=None,
            help="An earlier seat swapped the two of trump for the turned card --trump (flemish): that seat "
                   "holds it and the two lies face up.")
@scores_option(help="Every seat's score in seat order (seat players-1 deals this hand), e.g. 20,14,7,3,18: value "
                   "each choice by the game (expected payout, chance to win the game) beside the hand.")
@streaks_option(help="With --scores: every seat's passes in a row in seat order (swiss rule 17), e.g. 0,2,0,0,1.")
@tables_option(help="Answer instantly from a built table here when one covers the situation (and say so).")
@click.option("--simulate", is_flag=True, help="Always simulate, even when a table covers the situation.")
@click.option("--no-simulate", "table_only", is_flag=True,
              help="Answer from the tables alone, at once (no deal simulated): what they leave open stays open; "
                   "a situation no table covers is an error.")
@click.option("--device", type=click.Choice(DEVICE_CHOICES), default="cpu", show_default=True,
              help="Simulate on the CPU or a CUDA GPU (auto: the GPU if one works); the same numbers.")
@common_options(limits.ASK_SAMPLES, limits.ASK_PRECISION, "Number of simulated deals [default: 200,000].",
                plays=simulation.ASK_PLAYS,
                play_help="Card play of every player: distilled (PIMC's choices, learned), expert, greedy, or pimc "
                          "(the search itself: 32 worlds a decision, on the CPU; by default at most 16,000 deals, "
                          "under a minute).")
@friendly_errors
def ask(hand, trump, players, seat, passes_in_a_row, before, dealer_knocked, swapped_by, scores, passes, tables_root,
        simulate, table_only, device, rules, samples, opponents, precision, seed, play, as_json, progress):
    """Should I call Rumba with HAND? Expected score change of every choice.

    HAND is your cards, e.g. "HA HK HQ S6 C7" (suit then rank; 10 or T; any
    case; ♠♥♦♣ accepted). Every choice open to you is simulated on the same
    random deals: pass, play (with the best cards to exchange), Rumba and,
    where allowed, throw-in. Opponents follow --opponents; all players
    follow --play.
    """
    _check_exclusive(samples, precision)
    if table_only:
        own = [name for name, value in (("--simulate", simulate), ("--samples", samples is not None),
                                        ("--precision", precision is not None), ("--seed", seed is not None),
                                        ("--scores", scores is not None), ("--passes", passes is not None)) if value]
        if own:
            raise UserError(f"--no-simulate answers from the tables alone: drop {', '.join(own)} (they simulate)")
    if play == simulation.SEARCHED and (scores is not None or passes is not None):
        raise UserError(f"--play {simulation.SEARCHED} values the hand, not the game: drop --scores/--passes")
    if scores is not None or passes is not None:  # the whole-game simulator loads only when asked for
        from ..match.ask import check_scores

        check_scores(players, seat, scores, passes)  # --passes without --scores: the web API's own words
        _ask_game(hand, trump, players, seat, passes_in_a_row, before, dealer_knocked, swapped_by, scores, passes,
                  device, rules, samples, opponents, precision, seed, play, as_json, progress)
        return
    engine = resolve_device(device)  # --device gpu without one: a one-line error before anything runs
    question = Question.of(hand, trump, players, seat, rules, passes_in_a_row=passes_in_a_row,
                           dealer_knocked=dealer_knocked, before=before, swapped_by=swapped_by, opponents=opponents,
                           play=play, samples=samples, precision=precision, seed=seed, device=engine)
    try:
        if table_only:
            result = pipeline.from_table(question, tables_root)
            if result is None:
                raise UserError("--no-simulate: no table covers this situation (the shipped tables answer swiss "
                                "and flemish hands with the earlier words not known and no knock, against the "
                                "default opponents; or build one with `rumbaodds tables build`): drop "
                                "--no-simulate to simulate it")
        else:
            with progress_bar(progress, "simulating") as update:
                result = pipeline.answer(question, tables_root, simulate, update)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    simulated = pipeline.source_of(result)["kind"] != "table"
    if precision is not None and result.samples >= limits.MAX_DEALS:
        click.echo(f"rumbaodds: note: stopped at the cap of {limits.MAX_DEALS:,} deals before every half-width "
                   f"was below --precision {precision:g}", err=True)
    if as_json:
        document = pipeline.document(result)
        if device != "cpu" and simulated:  # --device gpu|auto: which one ran (the default document stays the web's)
            document["device"] = engine.as_dict()
        click.echo(json.dumps(document))
        return
    print_ask(result)
    if simulated:
        click.echo(f"Simulated on {engine}.")
    if table_only and result.meta.get("open"):
        left = " and ".join(pipeline.OPEN_TEXT.get(p, p) for p in result.meta["open"])
        click.echo(f"From the tables alone (--no-simulate): they leave {left} open; without --no-simulate a few "
                   f"seconds of simulation settle it.")


def _ask_game(hand, trump, players, seat, passes_in_a_row, before, dealer_knocked, swapped_by, scores, passes, device,
              rules, samples, opponents, precision, seed, play, as_json, progress):
    """`ask --scores`: every choice by its game value (match/ask.py) beside its per-hand value."""
    from ..match.ask import MAX_SAMPLES, ask_game, check_scores

    if device != "cpu":
        raise UserError("--scores runs on the CPU (the whole-game simulator has no GPU kernel): drop --device")
    given = click.get_current_context().get_parameter_source("passes_in_a_row") is not ParameterSource.DEFAULT
    passes = check_scores(players, seat, scores, passes, passes_in_a_row if given else None, get_rules(rules))
    if samples is not None and samples > MAX_SAMPLES:
        raise UserError(f"--samples with --scores must be 1..{MAX_SAMPLES:,}, got {samples}")
    try:
        with progress_bar(progress, "simulating games") as update:
            answer = ask_game(hand, trump, players, seat, scores, passes, rules=rules, opponents=opponents, play=play,
                              dealer_knocked=dealer_knocked, before=before, samples=samples, precision=precision,
                              seed=seed, swapped_by=swapped_by, progress=update)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    print_game_ask(answer, as_json)


@main.command()
@click.option("--trump", required=True, help="The turned trump card, e.g. HA.")
@players_option()
@int_option("--inner-samples", limit=limits.INNER_SAMPLES, default=200, show_default=True,
            help="Deals the dealer simulates per hand when he does not knock, to pick his best choice.")
@click.option("--models", "across", is_flag=True,
              help="Also show how the answer moves across the named opponent models (same deals).")
@common_options(limits.KNOCK_SAMPLES, limits.KNOCK_PRECISION, "Number of simulated deals [default: 4,000].",
                plays=simulation.ASK_PLAYS,
                play_help="Card play of every player: distilled (PIMC's choices, learned), expert, greedy, or pimc "
                          "(the hands by search, 32 worlds a decision, on the CPU; the dealer's inner deals by "
                          "distilled; by default within 45 s).")
@friendly_errors
def knock(trump, players, inner_samples, across, rules, samples, precision, seed, opponents, play, as_json,
          progress):
    """Dealer: knock on the trump card before looking at your hand?

    Knocking makes you the Rumba player blind: you take the trump card for
    your weakest card if it is stronger. Not knocking, you look at your hand
    and the other players' words and take your best choice (estimated from
    --inner-samples deals per hand).
    """
    _check_exclusive(samples, precision)
    try:
        with progress_bar(progress, "simulating") as update:
            result = pipeline.knock_answer(trump, players, rules=rules, opponents=opponents, play=play,
                                         samples=samples, precision=precision, seed=seed,
                                         inner_samples=inner_samples, progress=update)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    if precision is not None and result.samples >= limits.MAX_KNOCK_DEALS:
        click.echo(f"rumbaodds: note: stopped at the cap of {limits.MAX_KNOCK_DEALS:,} deals before both "
                   f"half-widths were below --precision {precision:g}", err=True)
    others = {}
    if across:
        with progress_bar(progress, "other models") as update:
            others = simulation.knock_across_models(trump, players, rules, seed=result.seed, play=play,
                                                  samples=result.samples, inner_samples=inner_samples,
                                                  progress=update)
    if as_json:
        data = result.to_dict()
        if others:
            data["across_models"] = {name: r.to_dict() for name, r in others.items()}
        click.echo(json.dumps(data))
        return
    print_knock(result, others)
