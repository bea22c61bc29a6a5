"""The Tuppi rules bot: bids, sooli, discards and card play on constructed hands, whole
matches in every variant, and a seeded duplicate duel against the random bot."""

from __future__ import annotations

import time

import pytest
from bot_helpers import play_match, rules_action, rules_against_random

import tricktaker as tt

ALL = [c.text for c in tt.ANGLO_52.cards]


def deal(*hands: str) -> list[str]:
    """A full deal: the listed cards per seat (seat 0 first), the rest filled in deck order."""
    listed = [h.split() for h in hands] + [[] for _ in range(4 - len(hands))]
    used = {c for h in listed for c in h}
    assert len(used) == sum(len(h) for h in listed), "a card is listed twice"
    rest = [c for c in ALL if c not in used]
    for h in listed:
        need = 13 - len(h)
        h += rest[:need]
        rest = rest[need:]
    return [" ".join(h) for h in listed]


def rami_by_seat_1(*hands: str, sooli: bool = False) -> tt.State:
    """Dealer 0, bidding cards: seat 1 bids rami and declares; the others bid nolo."""
    game = tt.new_game("tuppi", bid_cards=True, sooli=sooli)
    state = game.new_hand(deal=deal(*hands), dealer=0)
    for bid in ("rami", "nolo", "nolo", "nolo"):
        state.apply(f"bid {bid}")
    return state


def nolo_hand(*hands: str) -> tt.State:
    """Dealer 0, bidding cards, everyone bids nolo: seat 1 leads."""
    state = tt.new_game("tuppi", bid_cards=True).new_hand(deal=deal(*hands), dealer=0)
    for _ in range(4):
        state.apply("bid nolo")
    return state


# -- bidding -----------------------------------------------------------------------


def test_strong_hand_bids_rami_with_its_lowest_red_spot_card():
    state = tt.new_game("tuppi").new_hand(
        deal=deal("", "AS KS QS AH KH QH 5H AD KD 4D AC 3C 2C"), dealer=0)
    assert rules_action(state) == "bid 4D"


def test_weak_hand_bids_nolo_with_a_low_black_card():
    state = tt.new_game("tuppi").new_hand(
        deal=deal("", "2S 3S 4S 5S 2H 3H 4H 6D 7D 8D 2C 3C 4C"), dealer=0)
    assert rules_action(state) in ("bid 3S", "bid 3C")


def test_strong_hand_without_a_red_bid_card_bids_rami_aloud():
    state = tt.new_game("tuppi").new_hand(
        deal=deal("", "AS KS QS JS TS KH QH JH 2H KD QD JD 2D"), dealer=0)
    assert rules_action(state) == "bid rami"


def test_tournament_bidding_cards_follow_hand_strength():
    game = tt.new_game("tuppi", preset="tournament")
    strong = game.new_hand(deal=deal("", "AS KS QS AH KH QH 5H AD KD 4D AC 3C 2C"), dealer=0)
    weak = game.new_hand(deal=deal("", "2S 3S 4S 5S 2H 3H 4H 6D 7D 8D 2C 3C 4C"), dealer=0)
    assert rules_action(strong) == "bid rami"
    assert rules_action(weak) == "bid nolo"


# -- sooli -------------------------------------------------------------------------


def test_defender_with_only_low_cards_plays_sooli():
    state = rami_by_seat_1("", "", "AS 2S 3S 4S AH 2H 3H AD 2D 3D AC 2C 3C", sooli=True)
    assert state.current_player == 2
    assert rules_action(state) == "sooli"


def test_defender_with_high_cards_passes_sooli():
    state = rami_by_seat_1("", "", "KS QS JS TS KH QH JH TH KD QD JD KC QC", sooli=True)
    assert rules_action(state) == "pass"


def test_soloist_puts_away_his_most_dangerous_card_and_partner_gives_an_ace():
    state = rami_by_seat_1("AH 9H 8H 7H 6H 6S 7S 8S 9S 5D 6D 7D 5C", "",
                           "2S 3S 4S 5S KD 2H 3H 4H 2D 3D 2C 3C 4C", sooli=True)
    state.apply("sooli")
    assert rules_action(state) == "discard KD"
    state.apply("discard KD")
    assert state.current_player == 0
    assert rules_action(state) == "give AH"


def test_soloist_ducks_with_his_highest_card_under_the_trick():
    state = rami_by_seat_1("AH", "9S", "KS 8S 4S 2H 3H 4H 5H 2D 3D 2C 3C 4C 5C", "5S", sooli=True)
    state.apply("sooli")
    state.apply("discard 5C")
    state.apply("give AH")
    state.apply("play 9S")  # the declarer leads
    state.apply("play 5S")
    assert state.current_player == 2
    assert rules_action(state) == "play 8S"


def test_sooli_opponents_lead_their_lowest_card():
    state = rami_by_seat_1("", "AD 2D KS QS JS KH QH JH KC QC JC 9S 9H",
                           "2S 3S 4S 5S 2H 3H 4H 3D 4D 2C 3C 4C 5C", sooli=True)
    state.apply("sooli")
    state.apply("discard 5C")
    state.apply(rules_action(state))
    assert state.current_player == 1
    assert rules_action(state) == "play AD"  # the ace is the lowest card in sooli


# -- rami play --------------------------------------------------------------------------


def test_partner_does_not_overtake_a_sure_winner():
    state = rami_by_seat_1("AS", "2S", "KS 3S")
    state.apply("play AS")
    state.apply("play 2S")
    assert rules_action(state) == "play 3S"


def test_fourth_hand_wins_as_cheaply_as_it_can():
    state = rami_by_seat_1("5S", "9S", "TS", "KS QS 4S")
    for card in ("5S", "9S", "TS"):
        state.apply(f"play {card}")
    assert rules_action(state) == "play QS"


def test_second_hand_plays_low():
    state = rami_by_seat_1("5H 2H", "KH 7H 3H")
    state.apply("play 5H")
    assert rules_action(state) == "play 3H"


def test_fourth_hand_does_not_waste_a_card_on_partners_trick():
    state = rami_by_seat_1("5S", "AS", "9S", "KS 4S")
    for card in ("5S", "AS", "9S"):
        state.apply(f"play {card}")
    assert rules_action(state) == "play 4S"


def test_leader_cashes_a_master_in_his_long_suit():
    state = rami_by_seat_1("AS KS QS JS 9S 8S 2H 3H 2D 3D 2C 3C 4C")
    assert rules_action(state) == "play AS"


# -- nolo play ----------------------------------------------------------------------------


def test_nolo_ducks_with_the_highest_card_that_stays_under():
    state = nolo_hand("", "9H", "KH TH 8H 2H")
    state.apply("play 9H")
    assert rules_action(state) == "play 8H"


def test_nolo_void_throws_the_most_dangerous_card():
    state = nolo_hand("", "9H", "AS 3S 2S 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C")
    state.apply("play 9H")
    assert rules_action(state) == "play AS"


def test_nolo_leads_a_card_nobody_can_duck_under():
    state = nolo_hand("", "2C AS KS QS AH KH QH AD KD QD AC KC QC")
    assert rules_action(state) == "play 2C"


def test_nolo_last_player_forced_over_dumps_the_highest_card():
    state = nolo_hand("AH 9H 6H AS KS QS JS TS 9S 8S 7S 6S 5S", "2H", "3H", "4H")
    for card in ("2H", "3H", "4H"):
        state.apply(f"play {card}")
    assert state.current_player == 0
    assert rules_action(state) == "play AH"


# -- whole matches and strength -------------------------------------------------------------


@pytest.mark.parametrize("options", [{"preset": "club"}, {"preset": "tournament"},
                                     {"sooli": False}, {"reset_keeps_points": True, "target": 40}])
def test_four_rules_bots_play_a_whole_match(options):
    game = tt.new_game("tuppi", **options)
    start = time.perf_counter()
    state = play_match(game, ["rules"], seed=11)
    assert state.is_over()
    assert state.winner is not None or state.draw
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("preset", ["club", "tournament"])
def test_rules_beats_random_over_duplicate_deals(preset):
    assert rules_against_random("tuppi", 30, preset=preset).low > 0
