"""Every Avomarjapussi rule of RULES.md (section Avomarjapussi) and
seeds/marjapussi-huutopussi.txt (Two-handed Marjapussi), one or more tests each.

A deal is the two hands of four, then seat 0's seven face-down cards and the seven face-up
cards lying on them (column ``k``'s face-up card on face-down card ``k``), then seat 1's
(:func:`avo_deal`).  With dealer 0, seat 1 leads.  Scripts are ``seat action`` steps
(:func:`run`; a lone card means ``play`` it).  The rules Avomarjapussi shares with
Marjapussi are tested in full in ``test_marjapussi_rules.py``; here the differences, and
each shared rule once.
"""

from __future__ import annotations

import json
import random

import pytest
from marjapussi_helpers import (
    CARD_PIPS,
    assert_illegal,
    cards,
    check_deal,
    check_results,
    drive,
    hand,
    last_trick,
    legal,
    legal_calls,
    legal_plays,
    play_first,
    record,
    result,
    run,
)

import tricktaker as tt


def avo(**options) -> tt.Game:
    return tt.new_game("avomarjapussi", **options)


def avo_deal(hand0: str, hand1: str, down0: str, up0: str, down1: str, up1: str) -> list[str]:
    piles = [hand0, hand1, *down0.split(), *up0.split(), *down1.split(), *up1.split()]
    check_deal([hand0, hand1, down0, up0, down1, up1])
    assert all(len(p.split()) == 7 for p in (down0, up0, down1, up1))
    return piles


# Seat 1 (to lead) has no ace in sight; it can marry KH (hand) with QH (face-up).  Seat 0's only
# spade in sight is the face-up TS.
DOWN0 = "AD KD QD JD TD AC KC"
DOWN1 = "AH TC KS QS AS JH TH"
DEAL = avo_deal(hand0="6D 7D 8D 9D", hand1="6S 7S KH 6H",
                down0=DOWN0, up0="6C 7C 8C 9C JC QC TS",
                down1=DOWN1, up1="QH 8S 9S JS 7H 8H 9H")
# seat 1 holds every spade and heart, seat 0 every diamond and club: seat 1 takes all 18 tricks
SWEEP = avo_deal(hand0="AD KD QD JD", hand1="AS KS QS JS",
                 down0="QC JC TC 9C 8C 7C 6C", up0="TD 9D 8D 7D 6D AC KC",
                 down1="QH JH TH 9H 8H 7H 6H", up1="TS 9S 8S 7S 6S AH KH")


def new(deal=DEAL, dealer: int = 0, scores=None, **options) -> tt.State:
    return avo(**options).new_hand(deal=deal, dealer=dealer, scores=scores)


def sweep_hand(scores=None, calls: str = "", **options) -> tt.State:
    state = new(SWEEP, scores=scores, **options)
    run(state, "1 AS, 0 AD")
    if calls:
        run(state, ", ".join(f"1 {c}" for c in calls.split(",")))
    play_first(state)
    assert state.is_over()
    return state


def shown_text(state: tt.State, seat: int | None) -> str:
    """A seat's observation as text, without the lead rule (which names the four aces)."""
    return json.dumps({k: v for k, v in state.observation(seat).items() if k != "lead_rule"})


def up_cards(state: tt.State, seat: int) -> set[str]:
    return {up for up, _ in state.observation(None)["rows"][seat] if up}


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_four_in_hand_seven_face_down_and_seven_face_up_each(seed):
    state = avo().new_match(seed=seed)
    obs = state.observation(None)
    assert obs["players"] == 2 and obs["hand_sizes"] == [4, 4]
    assert [len(hand(state, s)) for s in range(2)] == [4, 4]
    for seat in range(2):
        row = obs["rows"][seat]
        assert len(row) == 7
        assert all(up is not None and down is True for up, down in row)
    deal = record(state)["hands"][0]["deal"]
    assert len(deal) == 30
    assert sorted(c for pile in deal for c in cards(pile)) == sorted(c.text for c in tt.PIQUET_36.cards)


def test_a_deal_is_two_hands_of_four_and_28_single_cards():
    with pytest.raises(tt.OptionError, match="piles of 4, 4, 1, 1"):
        avo().new_hand(deal=["AS KS QS JS TS 9S 8S 7S 6S"] * 4)


def test_face_up_cards_lie_on_the_face_down_cards_column_by_column():
    state = new()
    obs = state.observation(1)
    assert obs["rows"][1] == [[c, True] for c in "QH 8S 9S JS 7H 8H 9H".split()]
    assert obs["rows"][0] == [[c, True] for c in "6C 7C 8C 9C JC QC TS".split()]
    assert set(obs["hand"]) == {"6S", "7S", "KH", "6H"}


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_leads_first(dealer):
    state = avo().new_hand(seed=4, dealer=dealer)
    assert state.current_player == 1 - dealer


# -- playing from the hand and the own face-up row -------------------------------------------------


def test_play_from_the_hand_and_the_own_face_up_cards():
    state = new()
    assert legal_plays(state) == {"6S", "7S", "KH", "6H", "QH", "8S", "9S", "JS", "7H", "8H", "9H"}
    assert legal_plays(state) == hand(state, 1) | up_cards(state, 1)
    run(state, "1 9S")
    assert legal_plays(state) == {"TS"} and "TS" in up_cards(state, 0) and "TS" not in hand(state, 0)


def test_the_opponents_face_up_cards_cannot_be_played():
    state = new()
    assert_illegal(state, "play 6C", "seat 1 cannot play 6C", "does not hold it")
    run(state, "1 7H")
    assert_illegal(state, "play QH", "seat 0 cannot play QH", "does not hold it")
    assert "QH" not in legal_plays(state)


def test_face_down_cards_cannot_be_played():
    state = new()
    assert_illegal(state, "play AH", "does not hold it")


def test_a_played_face_up_card_turns_up_the_card_beneath_it():
    state = new()
    run(state, "1 9S")
    row = state.observation(0)["rows"][1]
    assert row[2] == ["KS", False]
    run(state, "0 TS")  # must follow with its face-up ten; it turns up the KC
    assert state.observation(1)["rows"][0][6] == ["KC", False]
    assert last_trick(state)["winner"] == 0


def test_a_turned_up_card_can_be_played_and_then_the_column_is_empty():
    state = new()
    run(state, "1 9S, 0 TS, 0 KC")
    assert "KS" in legal_plays(state)  # the card turned up under the 9S
    run(state, "1 KS")
    assert state.observation(None)["rows"][1][2] == [None, False]
    assert state.observation(None)["rows"][0][6] == [None, False]


def test_face_down_cards_appear_in_no_observation():
    state = new()
    hidden = cards(DOWN0) + cards(DOWN1)
    for seat in (0, 1, None):
        text = shown_text(state, seat)
        assert not [c for c in hidden if f'"{c}"' in text], seat
    run(state, "1 9S")  # turns up the KS; the others stay hidden
    for seat in (0, 1, None):
        text = shown_text(state, seat)
        assert '"KS"' in text
        assert not [c for c in hidden if c != "KS" and f'"{c}"' in text]


def test_the_hand_is_private_and_the_rows_are_public():
    state = new()
    assert state.observation(None)["hand"] == []
    assert set(state.observation(0)["hand"]) == {"6D", "7D", "8D", "9D"}
    assert state.observation(0)["rows"] == state.observation(1)["rows"] == state.observation(None)["rows"]
    assert "legal_actions" in state.observation(1) and "legal_actions" not in state.observation(0)


def test_first_lead_must_be_an_ace_if_held_face_up_or_in_hand():
    deal = avo_deal(hand0="6D 7D 8D 9D", hand1="6S 7S KH 6H", down0=DOWN0, up0="6C 7C 8C 9C JC QC TS",
                    down1="QH TC KS QS AS JH TH", up1="AH 8S 9S JS 7H 8H 9H")
    state = new(deal)
    assert legal(state) == ["play AH"]
    assert_illegal(state, "play 6S", "the first lead must be an ace")


def test_first_lead_ace_or_spade_option():
    state = new(first_lead="ace_or_spade")
    assert legal_plays(state) == {"6S", "7S", "8S", "9S", "JS"}


# -- duties ----------------------------------------------------------------------------------------


def test_must_follow_suit_and_beat_with_face_up_cards_too():
    state = new()
    run(state, "1 6S")
    assert legal_plays(state) == {"TS"}
    assert_illegal(state, "play 6D", "must beat the high card", "seat 0 holds a higher card of spades")


def test_void_in_the_suit_led_without_trumps_may_play_anything():
    state = new()
    run(state, "1 7H")
    assert legal_plays(state) == {"6D", "7D", "8D", "9D", "6C", "7C", "8C", "9C", "JC", "QC", "TS"}


def test_must_trump_when_void_with_trumps_in_hand_or_face_up():
    state = new()
    run(state, "1 7H, 0 6C, 1 declare H, 1 6S, 0 TS, 0 KC")
    assert state.trump == "H"
    # seat 1 has no club in sight (the TC lies face down) but hearts in hand and face up
    assert legal_plays(state) == {"KH", "6H", "QH", "8H", "9H"}
    assert_illegal(state, "play 7S", "must trump")


# -- marriages -------------------------------------------------------------------------------------


def test_declare_from_the_hand_and_the_own_face_up_cards():
    state = new()
    run(state, "1 7H, 0 6C")
    assert last_trick(state)["winner"] == 1
    assert legal_calls(state) == {"declare H"}  # KH in hand, QH face-up
    run(state, "1 declare H")
    assert state.trump == "H"
    assert state.observation(0)["marriages"] == [[1, "H", 2]]
    assert state.observation(0)["points"] == [0, 2]


def test_no_marriage_with_a_face_down_card_until_it_is_turned_up():
    # KS in hand, QS face down under the 7H
    deal = avo_deal(hand0="6D 7D 8D 9D", hand1="6S KS KH 6H", down0=DOWN0, up0="6C 7C 8C 9C JC QC TS",
                    down1="AH TC 7S AS QS JH TH", up1="QH 8S 9S JS 7H 8H 9H")
    state = new(deal)
    run(state, "1 8H, 0 6C")
    assert legal_calls(state) == {"declare H"}
    assert_illegal(state, "declare S", "seat 1 does not hold the king and queen of spades")
    run(state, "1 7H, 0 7C")  # turns up the QS
    assert state.observation(0)["rows"][1][4] == ["QS", False]
    assert legal_calls(state) == {"declare S", "declare H"}


def test_no_marriage_with_the_opponents_face_up_card():
    deal = avo_deal(hand0="6D 7D 8D 9D", hand1="6S 7S KH 6H", down0=DOWN0, up0="6C 7C 8C 9C JC QH TS",
                    down1=DOWN1, up1="QC 8S 9S JS 7H 8H 9H")
    state = new(deal)
    run(state, "1 QC, 0 6C")
    assert last_trick(state)["winner"] == 1
    assert "declare H" not in legal(state)
    assert_illegal(state, "declare H", "seat 1 does not hold the king and queen of hearts")


def test_no_asking_without_a_partner():
    state = new()
    run(state, "1 7H, 0 6C")
    assert not {a for a in legal(state) if a.startswith("ask")}
    assert_illegal(state, "ask whole", "there are no partners in this game")
    assert_illegal(state, "ask half H", "there are no partners")


def test_later_marriages_are_little_ones():
    state = new(SWEEP)
    run(state, "1 AS, 0 AD, 1 declare S, 1 TS, 0 KD")  # the TS turns up the QH
    assert last_trick(state)["winner"] == 1
    run(state, "1 declare H")
    assert state.trump == "S"
    assert state.observation(0)["marriages"] == [[1, "S", 2], [1, "H", 1]]


def test_lead_from_marriage_option():
    state = new(lead_from_marriage=True)
    run(state, "1 7H, 0 6C, 1 declare H")
    assert legal_plays(state) == {"KH", "QH"}
    assert_illegal(state, "play 6S", "the lead must come from the marriage just declared")
    state = new()
    run(state, "1 7H, 0 6C, 1 declare H")
    assert "6S" in legal_plays(state)


# -- scoring and the match -------------------------------------------------------------------------


def test_hand_points_marriages_last_trick_and_pips():
    state = sweep_hand(calls="declare S")
    res = result(state)
    assert res["tricks_won"] == [0, 18] and res["pips"] == [0, 120]
    assert state.hand_points == (0, 4)  # trumps 2, last trick 1, pips 1


def test_match_is_won_with_exactly_12():
    state = sweep_hand(scores=(0, 10))
    assert state.scores == (0, 12) and state.winner == 1


def test_going_over_12_drops_to_7():
    state = sweep_hand(scores=(4, 9), calls="declare S")
    assert state.scores == (0, 7) and state.winner is None


def test_a_player_without_a_trick_goes_to_porvoo():
    state = sweep_hand(scores=(11, 0))
    assert result(state)["porvoo"] == [0]
    assert state.scores == (0, 2)


def test_target_10_option():
    state = sweep_hand(scores=(0, 8), target=10)
    assert state.scores == (0, 10) and state.winner == 1
    state = sweep_hand(scores=(0, 9), target=10)
    assert state.scores == (0, 7)


def test_aces_tens_pips_option():
    for seed in range(300):
        played = avo().new_hand(seed=seed)
        drive(played, random.Random(seed), check=False)
        taken: list[list[str]] = [[], []]
        for t in played.observation(None)["tricks"]:
            taken[t["winner"]] += [c for _, c in t["cards"]]
        at = [sum(c[0] in "AT" for c in t) for t in taken]
        cp = [sum(CARD_PIPS.get(c[0], 0) for c in t) for t in taken]
        if at[0] != at[1] and cp[0] != cp[1] and (at[0] > at[1]) != (cp[0] > cp[1]):
            break
    else:
        pytest.fail("no hand where aces and tens and card pips disagree")
    h = record(played)["hands"][0]
    state = avo(pips="aces_tens").new_hand(deal=h["deal"], dealer=h["dealer"])
    for a in h["actions"]:
        state.apply(a)
    assert result(played)["pip_point"] == cp.index(max(cp))
    assert result(state)["pip_point"] == at.index(max(at)) and result(state)["pips"] == at


@pytest.mark.parametrize(("option", "value", "fragment"), [
    ("partners", True, "unknown option 'partners'"),
    ("declaration_order", "ordered", "unknown option 'declaration_order'"),
    ("partner_exception", True, "unknown option 'partner_exception'"),
    ("target", 15, "option target must be one of 10, 12"),
    ("pips", "tens", "option pips must be one of cards, aces_tens"),
    ("first_lead", "spade", "option first_lead must be one of"),
    ("pip_tie_carries", "x", "option pip_tie_carries takes true or false"),
    ("lead_from_marriage", 0, "option lead_from_marriage takes true or false"),
])
def test_unknown_options_and_bad_values_are_refused_by_name(option, value, fragment):
    with pytest.raises(tt.OptionError, match=fragment):
        avo(**{option: value})


def test_defaults_and_the_seed_preset():
    assert avo().options == {"target": 12, "pips": "cards", "pip_tie_carries": False,
                             "first_lead": "ace", "lead_from_marriage": False}
    assert tt.new_game("avomarjapussi", preset="seed").options == avo().options
    with pytest.raises(tt.OptionError, match="unknown preset"):
        tt.new_game("avomarjapussi", preset="short")
    with pytest.raises(tt.OptionError, match="0..11"):
        avo().new_hand(seed=1, scores=(0, 12))


def test_illegal_actions_leave_the_state_unchanged():
    state = new()
    assert_illegal(state, "play 6S", "not your turn", seat=0)
    assert_illegal(state, "declare H", "made only by the winner of a trick")
    assert_illegal(state, "answer no", "nobody has asked")
    assert_illegal(state, "play 5S", "neither a card")


@pytest.mark.parametrize("options", [{}, {"pip_tie_carries": True, "first_lead": "ace_or_spade"},
                                     {"pips": "aces_tens", "lead_from_marriage": True, "target": 10}])
def test_random_matches_follow_the_rules(options):
    for seed in range(5):
        state = avo(**options).new_match(seed=seed)
        drive(state, random.Random(seed))
        expected = check_results(state)
        assert state.is_over() and state.winner in (0, 1)
        assert state.scores[state.winner] == options.get("target", 12)
        for h, e in zip(record(state)["hands"], expected, strict=False):
            assert len([a for a in h["actions"] if a.startswith("play ")]) == 36  # 18 tricks
            assert sum(e["tricks_won"]) == 18
            if options.get("pips") != "aces_tens":
                assert sum(e["pips"]) == 120
