"""Cards, suits, ranks, the bit layout, the four decks, card text and CardSet (RULES.md, Conventions)."""

from __future__ import annotations

import pickle

import pytest

import tricktaker as tt
from tricktaker.cards import (
    ANGLO_52,
    PIQUET_36,
    SHORT_24,
    SPANISH_40,
    SUIT_STRIDE,
    CardParseError,
    CardSet,
    iter_bits,
    iter_bits_desc,
    popcount,
)

ANGLO_RANK_TEXT = "A K Q J T 9 8 7 6 5 4 3 2".split()
SPANISH_RANK_TEXT = "12 11 10 7 6 5 4 3 2 1".split()


# -- suits, ranks, bit layout -----------------------------------------------------


def test_anglo_suits_letters_names_colours_and_display_order():
    assert [s.letter for s in ANGLO_52.suits] == ["S", "H", "D", "C"]
    assert [s.name for s in ANGLO_52.suits] == ["spades", "hearts", "diamonds", "clubs"]
    colours = {s.letter: s.colour for s in ANGLO_52.suits}
    assert colours == {"S": "black", "H": "red", "D": "red", "C": "black"}


def test_spanish_suits_oros_copas_espadas_bastos():
    assert [s.letter for s in SPANISH_40.suits] == ["O", "C", "E", "B"]
    assert [s.name for s in SPANISH_40.suits] == ["oros", "copas", "espadas", "bastos"]


def test_bit_layout_is_suit_index_times_16_plus_rank_value():
    assert SUIT_STRIDE == 16
    for deck in (ANGLO_52, SPANISH_40):
        for c in deck.cards:
            assert c.index == c.suit.index * 16 + c.rank.value
            assert c.mask == 1 << c.index
            assert c.mask & c.suit.mask
            assert deck.by_index[c.index] is c
    # Anglo: ranks 2..14 (ace high is the highest bit of a suit), spades in the top suit block.
    assert ANGLO_52.card("AS").index == 3 * 16 + 14
    assert ANGLO_52.card("2C").index == 0 * 16 + 2
    assert ANGLO_52.card("TH").index == 2 * 16 + 10
    assert ANGLO_52.card("KD").index == 1 * 16 + 13
    # Spanish: rank number is the bit.
    assert SPANISH_40.card("1O").index == 0 * 16 + 1
    assert SPANISH_40.card("12B").index == 3 * 16 + 12


def test_higher_rank_is_higher_bit_within_a_suit():
    for suit in ANGLO_52.suits:
        idx = [ANGLO_52.card(r + suit.letter).index for r in ANGLO_RANK_TEXT]
        assert idx == sorted(idx, reverse=True)


def test_suit_masks_are_disjoint_and_cover_each_deck():
    for deck in (ANGLO_52, SPANISH_40):
        union = 0
        for s in deck.suits:
            assert union & s.mask == 0
            union |= s.mask
        assert deck.mask & ~union == 0


def test_cards_are_interned_and_pickle_to_the_same_object():
    assert ANGLO_52.card("as") is ANGLO_52.card("AS")
    assert PIQUET_36.card("AS") is ANGLO_52.card("AS")  # one object per card across Anglo decks
    for c in (ANGLO_52.card("7H"), SPANISH_40.card("3C")):
        assert pickle.loads(pickle.dumps(c)) is c


# -- the four decks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "size", "ranks"),
    [
        (ANGLO_52, 52, ANGLO_RANK_TEXT),
        (PIQUET_36, 36, "A K Q J T 9 8 7 6".split()),
        (SHORT_24, 24, "A K Q J T 9".split()),
        (SPANISH_40, 40, SPANISH_RANK_TEXT),
    ],
)
def test_deck_sizes_and_contents(deck, size, ranks):
    assert len(deck) == size == len(deck.cards) == popcount(deck.mask)
    expected = [r + s.letter for s in deck.suits for r in ranks]
    assert [c.text for c in deck.cards] == expected  # display order: suit order, high rank first
    assert len(set(deck.cards)) == size


def test_decks_registered_by_name_and_exported():
    assert tt.DECKS == {"anglo-52": ANGLO_52, "anglo-36": PIQUET_36, "anglo-24": SHORT_24,
                        "spanish-40": SPANISH_40}
    assert tt.ANGLO_52 is ANGLO_52 and tt.SPANISH_40 is SPANISH_40
    assert tt.PIQUET_36 is PIQUET_36 and tt.SHORT_24 is SHORT_24


def test_spanish_deck_has_no_eight_nine():
    for bad in ("8O", "9C", "8E", "9B"):
        with pytest.raises(CardParseError):
            SPANISH_40.card(bad)


def test_short_decks_reject_cards_below_their_lowest_rank():
    with pytest.raises(CardParseError):
        PIQUET_36.card("5S")
    with pytest.raises(CardParseError):
        SHORT_24.card("8H")
    assert SHORT_24.card("10h").text == "TH"
    assert PIQUET_36.card("6d").text == "6D"


# -- card text -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["AS", "as", "aS", "As", " as "])
def test_card_text_parsing_is_case_insensitive(text):
    assert ANGLO_52.card(text).text == "AS"


def test_ten_accepted_as_10_and_printed_as_T():
    for suit in "SHDC":
        c = ANGLO_52.card("10" + suit.lower())
        assert c is ANGLO_52.card("T" + suit)
        assert str(c) == "T" + suit
    assert [str(c) for c in ANGLO_52.cards_from_text("10S 10h td")] == ["TS", "TH", "TD"]


def test_spanish_card_text_rank_number_then_suit_initial():
    parsed = SPANISH_40.cards_from_text("1O 3C 12E 11B 10o 7c 2b")
    assert [c.text for c in parsed] == ["1O", "3C", "12E", "11B", "10O", "7C", "2B"]
    assert [c.suit.name for c in parsed[:4]] == ["oros", "copas", "espadas", "bastos"]
    assert [c.rank.value for c in parsed[:4]] == [1, 3, 12, 11]


def test_letter_C_is_copas_in_spanish_deck_and_clubs_in_anglo_deck():
    assert SPANISH_40.card("3C").suit.name == "copas"
    assert ANGLO_52.card("3C").suit.name == "clubs"
    assert SPANISH_40.suit("c").name == "copas"
    assert ANGLO_52.suit("c").name == "clubs"


def test_cards_from_text_accepts_commas_and_spaces():
    assert [c.text for c in ANGLO_52.cards_from_text("AS, 10h  kd,2c")] == ["AS", "TH", "KD", "2C"]
    assert ANGLO_52.cards_from_text("") == []


@pytest.mark.parametrize(
    ("deck", "token"),
    [(ANGLO_52, "ZZ"), (ANGLO_52, "1S"), (ANGLO_52, "11H"), (ANGLO_52, "AX"), (ANGLO_52, "12E"),
     (SPANISH_40, "AS"), (SPANISH_40, "8O"), (SPANISH_40, "13B"), (SPANISH_40, "TO"), (ANGLO_52, "")],
)
def test_bad_card_token_raises_card_parse_error_naming_the_token(deck, token):
    with pytest.raises(CardParseError) as info:
        deck.card(token)
    assert isinstance(info.value, ValueError)
    assert repr(token) in str(info.value)


def test_bad_token_in_a_card_list_is_named():
    with pytest.raises(CardParseError, match="'QX'"):
        ANGLO_52.cards_from_text("AS KS QX JS")


def test_bad_suit_letter_raises_card_parse_error():
    with pytest.raises(CardParseError, match="'X'"):
        ANGLO_52.suit("X")
    with pytest.raises(CardParseError, match="'S'"):
        SPANISH_40.suit("S")


def test_card_parse_error_is_exported_and_a_value_error():
    assert tt.CardParseError is CardParseError
    assert issubclass(CardParseError, ValueError)


def test_printing_is_canonical_for_every_card():
    for deck in (ANGLO_52, SPANISH_40):
        for c in deck.cards:
            assert deck.card(c.text.lower()) is c
            assert str(c) == c.text
            assert repr(c) == f"Card({c.text})"


# -- CardSet ---------------------------------------------------------------------------


def test_cardset_parse_len_contains_and_canonical_text():
    cs = CardSet.parse("2c 10h as kd ah")
    assert len(cs) == 5
    assert ANGLO_52.card("TH") in cs
    assert ANGLO_52.card("QH") not in cs
    assert "AS" not in cs  # only cards are members, not text
    assert str(cs) == "AS AH TH KD 2C"
    assert [c.text for c in cs] == ["AS", "AH", "TH", "KD", "2C"]
    assert repr(cs) == "CardSet('AS AH TH KD 2C')"


def test_cardset_set_operations():
    a = CardSet.parse("AS KS QS")
    b = CardSet.parse("QS JS")
    assert str(a | b) == "AS KS QS JS"
    assert str(a & b) == "QS"
    assert str(a - b) == "AS KS"
    assert str(b - a) == "JS"
    assert len(a - a) == 0 and str(a - a) == ""
    assert (a | b).mask == a.mask | b.mask


def test_cardset_equality_hash_and_construction_from_mask_or_cards():
    a = CardSet.parse("7H 8H")
    b = CardSet([ANGLO_52.card("8H"), ANGLO_52.card("7H")])
    c = CardSet(a.mask)
    assert a == b == c
    assert hash(a) == hash(b)
    assert a != CardSet.parse("7H")
    assert len({a, b, c}) == 1
    assert a != "7H 8H"


def test_cardset_whole_deck_and_spanish_cardset():
    full = CardSet(ANGLO_52.mask)
    assert len(full) == 52
    assert [c.text for c in full] == [c.text for c in ANGLO_52.cards]
    sp = CardSet.parse("3c 1o 12c", SPANISH_40)
    assert str(sp) == "1O 12C 3C"  # oros before copas, rey high
    assert all(c.suit.name in ("oros", "copas") for c in sp)


def test_bit_helpers_iterate_bits_and_count():
    mask = CardSet.parse("AS 2C 7H").mask
    assert popcount(mask) == 3
    low_first = list(iter_bits(mask))
    assert low_first == sorted(low_first)
    assert list(iter_bits_desc(mask)) == sorted(low_first, reverse=True)
    assert {ANGLO_52.by_index[i].text for i in low_first} == {"AS", "2C", "7H"}


def test_deck_format_sorted_and_cards_of_give_display_order():
    mask = CardSet.parse("2C AS 9D KH").mask
    assert ANGLO_52.format(mask) == "AS KH 9D 2C"
    assert [c.text for c in ANGLO_52.cards_of(mask)] == ["AS", "KH", "9D", "2C"]
    assert [c.text for c in ANGLO_52.sorted(ANGLO_52.cards_from_text("2C 9D AS"))] == ["AS", "9D", "2C"]
