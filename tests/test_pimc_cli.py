"""``deals play --policy expert|pimc [--rumba K] [--worlds K]`` and the deal field ``turned`` (RULES.md §7)."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.deals.files import generate_deals, parse_deal
from rumbaodds.deals.play import play_deals
from rumbaodds.engine.play import POLICY_EXPERT, play_tricks
from rumbaodds.rules import SWISS

LINE = {"rules": "swiss", "trump": "H", "leader": 0,
        "hands": [["HA", "HK", "S6", "C7", "D9"], ["H6", "SA", "SK", "C8", "DT"], ["CA", "CK", "D6", "D7", "S8"]]}


def run(*args, input=None):
    return CliRunner().invoke(main, ["deals", *args], input=input)


def test_turned_is_the_trump_card():
    assert parse_deal({**LINE, "turned": "H8"}) == parse_deal({**LINE, "trump_card": "H8"})
    assert parse_deal({**LINE, "turned": "H8", "trump_card": "H8"}).trump_card is not None
    result = run("play", "-", input=json.dumps({**LINE, "turned": "H8", "trump_card": "H9"}) + "\n")
    assert result.exit_code == 2 and "turned" in result.output


def test_expert_play_is_the_hand_kernels_expert():
    """deals play --policy expert plays the hand kernel's expert card play (play.play_tricks), the turned card seen."""
    deals = list(generate_deals(SWISS, 5, 200, 5, 3))
    text = "".join(d.to_json() + "\n" for d in deals)
    result = run("play", "-", "--policy", "expert", input=text)
    assert result.exit_code == 0, result.output
    got = [json.loads(x)["tricks"] for x in result.output.splitlines()]
    for d, row in zip(deals, got, strict=True):
        tricks = np.zeros(5, dtype=np.int64)
        table = 0 if d.trump_card is None else 1 << d.trump_card
        play_tricks(d.masks(), 5, d.leader, d.trump, SWISS.follow_code, POLICY_EXPERT, -1, np.uint64(SWISS.deck_mask),
                    np.uint64(table), tricks, SWISS.rumba_min_tricks)
        assert row == tricks.tolist()


def test_pimc_rumba_and_batching():
    deals = list(generate_deals(SWISS, 4, 30, 3, 5))
    whole = play_deals(deals, "pimc", rumba=1, worlds=8)
    assert (whole.sum(axis=1) == 3).all()
    parts = np.vstack([play_deals(deals[:10], "pimc", rumba=1, worlds=8),
                       play_deals(deals[10:], "pimc", rumba=1, worlds=8, first=10)])
    assert (whole == parts).all()  # each deal's random numbers follow its index, not the batch
    assert not (play_deals(deals, "pimc", worlds=8) == whole).all()  # a normal game is played differently


def test_rumba_seat_out_of_range_is_a_one_line_error():
    result = run("play", "-", "--policy", "pimc", "--rumba", "3", input=json.dumps(LINE) + "\n")
    assert result.exit_code == 2
    assert "out of range" in result.output and "Traceback" not in result.output


def test_cli_pimc_prints_tricks_per_hand():
    result = run("play", "-", "--policy", "pimc", "--rumba", "0", "--worlds", "8", input=json.dumps(LINE) + "\n")
    assert result.exit_code == 0, result.output
    tricks = json.loads(result.stdout)["tricks"]
    assert len(tricks) == 3 and sum(tricks) == 5
