"""Card text form (RULES.md §1): parsing, formatting, and errors that name the token."""

import pytest

from rumbaodds.cards import (
    RANKS,
    SUITS,
    CardError,
    card_id,
    card_rank,
    card_suit,
    cards_of,
    format_card,
    format_hand,
    mask_of,
    parse_card,
    parse_hand,
    parse_suit,
)
from rumbaodds.rules import FLEMISH, SWISS


@pytest.mark.parametrize(
    "token, suit, rank",
    [
        ("HA", "H", "A"),
        ("S10", "S", "T"),
        ("ST", "S", "T"),
        ("dT", "D", "T"),
        ("dt", "D", "T"),
        ("♣7", "C", "7"),
        ("♦q", "D", "Q"),
        ("♥K", "H", "K"),
        ("♠2", "S", "2"),
        ("c6", "C", "6"),
        ("h10", "H", "T"),
        ("sj", "S", "J"),
        ("Ca", "C", "A"),
        (" HA ", "H", "A"),
    ],
)
def test_parse_card_rules_examples(token, suit, rank):
    assert parse_card(token) == card_id(SUITS.index(suit), RANKS.index(rank))


def test_encoding_is_suit_times_16_plus_rank():
    assert parse_card("C2") == 0
    assert parse_card("CA") == 12
    assert parse_card("D2") == 16
    assert parse_card("H6") == 2 * 16 + 4
    assert parse_card("SA") == 3 * 16 + 12
    assert card_suit(parse_card("HT")) == 2 and card_rank(parse_card("HT")) == 8


def test_every_card_round_trips_in_every_spelling():
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(RANKS):
            card = card_id(s, r)
            text = format_card(card)
            assert text == suit + rank
            assert parse_card(text) == card
            assert parse_card(text.lower()) == card
            if rank == "T":
                assert parse_card(suit + "10") == card


def test_hand_round_trip_and_masks():
    cards = parse_hand("HA hk S6, c7 ♦9 s10")
    assert format_hand(cards) == "HA HK S6 C7 D9 ST"
    assert parse_hand(format_hand(cards)) == cards
    assert parse_hand(["HA", "HK"]) == [parse_card("HA"), parse_card("HK")]
    assert cards_of(mask_of(cards)) == sorted(cards)


@pytest.mark.parametrize("token", ["♠", "♥", "♦", "♣", "s", "H", "d", "C"])
def test_parse_suit_accepts_letters_and_symbols(token):
    assert parse_suit(token) in range(4)


@pytest.mark.parametrize("token", ["X", "", "HS", "1", "♤♤"])
def test_parse_suit_refuses_naming_token(token):
    with pytest.raises(CardError) as info:
        parse_suit(token)
    assert info.value.token == token


@pytest.mark.parametrize(
    "token",
    ["", "H", "X5", "H1", "H11", "H0", "HAA", "HZ", "AH", "10H", "H 10", "ZZ", "?", "H10x", "HB", "E7"],
)
def test_bad_card_raises_card_error_naming_token(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert info.value.token == token
    if token.strip():
        assert repr(token) in str(info.value)


def test_bad_token_inside_hand_is_named():
    with pytest.raises(CardError) as info:
        parse_hand("HA HK XQ S6")
    assert info.value.token == "XQ"
    assert "XQ" in str(info.value)


@pytest.mark.parametrize("text, dup", [("HA HK ha", "ha"), ("S10 ST", "ST"), ("♣7 C7", "C7")])
def test_duplicate_card_refused(text, dup):
    with pytest.raises(CardError) as info:
        parse_hand(text)
    assert info.value.token == dup
    assert "duplicate" in str(info.value)


def test_card_error_is_value_error():
    assert issubclass(CardError, ValueError)


def test_swiss_refuses_h2_naming_it():
    with pytest.raises(CardError) as info:
        SWISS.check_cards(parse_hand("HA H2 S6"))
    assert info.value.token == "H2"
    assert "H2" in str(info.value)
    assert "swiss" in str(info.value)


def test_check_cards_uses_token_of_for_name():
    with pytest.raises(CardError) as info:
        SWISS.check_cards([parse_card("d5")], token_of=lambda c: "d5")
    assert info.value.token == "d5"


def test_check_cards_accepts_deck_cards():
    SWISS.check_cards(parse_hand("HA H6 S6 C9 DT"))
    FLEMISH.check_cards(parse_hand("H2 S3 CA DT"))
    SWISS.check_cards(SWISS.deck)
    FLEMISH.check_cards(FLEMISH.deck)
    with pytest.raises(CardError):
        SWISS.check_cards([parse_card("C5")])
