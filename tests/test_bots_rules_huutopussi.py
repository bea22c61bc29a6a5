"""The rules policy of Huutopussi: the auction, the exchange, the discard and the calls on
constructed hands, whole matches in every variant, and a duplicate duel against the random bot."""

from __future__ import annotations

import time

import pytest
from bot_helpers import fill, play_match, rules_action, rules_against_random

import tricktaker as tt
from tricktaker.engine import State

STRONG = "AH TH KH QH AD KD QD AS AC"
WEAK = "6S 7S 8S 6H 7H 9D 8D 7C 8C"


def bid_state(seat1: str) -> State:
    game = tt.new_game("huutopussi")
    state = game.new_hand(deal=fill(game, [9] * 4, ["", seat1, "", ""]), dealer=0)
    state.apply("bid 50")
    return state


def test_strong_hand_jumps_above_80_promising_an_ace() -> None:
    action = rules_action(bid_state(STRONG))
    assert action.startswith("bid")
    assert int(action.split()[1]) > 80


def test_weak_hand_passes() -> None:
    assert rules_action(bid_state(WEAK)) == "pass"


def test_dealer_opens_at_fifty_with_a_weak_hand() -> None:
    game = tt.new_game("huutopussi")
    state = game.new_hand(deal=fill(game, [9] * 4, [WEAK, "", "", ""]), dealer=0)
    assert rules_action(state) == "bid 50"


def exchange_state(partner: str, declarer: str = "") -> State:
    """Seat 0 deals and opens at 50, everybody passes: seat 2 gives."""
    game = tt.new_game("huutopussi")
    state = game.new_hand(deal=fill(game, [9] * 4, [declarer, "", partner, ""]), dealer=0)
    for action in ("bid 50", "pass", "pass", "pass"):
        state.apply(action)
    assert state.current_player == 2
    return state


def test_partner_gives_an_ace_and_keeps_a_marriage_whole() -> None:
    gift = rules_action(exchange_state("AS KH QH 9D 8D 7D 6C 7C 8C")).split()[1:]
    assert sorted(gift) == sorted(["AS", "KH", "QH"])


def test_partner_never_breaks_a_marriage() -> None:
    gift = set(rules_action(exchange_state("AS AD KH QH JD 8D 7D 6C 7C")).split()[1:])
    assert {"AS", "AD"} <= gift
    assert not {"KH", "QH"} & gift


def test_declarer_keeps_aces_and_marriages_when_giving_back() -> None:
    state = exchange_state("AS AD AC 9D 8D 7D 6C 7C 8C", declarer="KH QH TH 6S 7S 8S 9H 8H 7H")
    state.apply(rules_action(state))  # the gift
    raise_or_pass = rules_action(state)
    assert raise_or_pass.split()[0] in ("raise", "pass")
    state.apply(raise_or_pass)
    back = set(rules_action(state).split()[1:])
    assert not back & {"AS", "AD", "AC", "KH", "QH", "TH"}
    assert back <= {"6S", "7S", "8S"}  # the short spades go, making a void


def test_declarer_raises_with_a_big_hand() -> None:
    state = exchange_state("AS AD AC 9D 8D 7D 6C 7C 8C", declarer="KH QH TH AH KD QD JH 9H 8H")
    state.apply(rules_action(state))
    action = rules_action(state)
    assert action.startswith("raise")
    assert int(action.split()[1]) >= 150


def test_three_player_discard_banks_lone_honours_and_keeps_aces_tens() -> None:
    game = tt.new_game("huutopussi", players=3)
    hands = ["AH TH KH QH AD TD KS JC 9H 8H 7H", "", ""]
    piles = fill(game, [11, 11, 11, 3], hands + ["QC 6S 7S"])
    state = game.new_hand(deal=piles, dealer=0)
    for action in ("bid 50", "pass", "pass"):
        state.apply(action)
    state.apply(rules_action(state))  # raise or pass
    discard = set(rules_action(state).split()[1:])
    assert not discard & {"AH", "TH", "AD", "TD", "KH", "QH"}
    assert "JC" in discard or "KS" in discard or "QC" in discard


def test_declares_a_marriage_after_winning_its_own_lead() -> None:
    state = exchange_state("6S 7S 8S 9D 8D 7D 6C 7C 8C", declarer="AS KH QH TH 9H 8H 7H 6H JH")
    while state.current_player != 0 or state.observation(0)["phase"] != "play":
        state.apply(rules_action(state))
    if state.observation(0)["trick"] or state.observation(0)["tricks"]:
        pytest.skip("the declarer is not on lead")
    state.apply("play AS")
    while state.current_player != 0:
        state.apply(state.legal_actions()[-1])
    if state.observation(0)["tricks"][-1]["winner"] != 0:
        pytest.skip("the ace of spades was trumped")
    assert rules_action(state) == "declare H"


VARIANTS = [
    {},
    {"players": 3},
    {"exchange": 4, "calls_after_any_trick": True},
    {"card_values": "pips", "marriage_values": "spades_high", "defender_penalty": False},
    {"players": 3, "card_values": "pips", "marriage_values": "spades_high", "redeal": False},
    {"opener": "left_of_dealer", "forced_opening": False, "redeal_hand": "four_sixes", "bid_ban": -250},
    {"players": 3, "kitty": 6, "kitty_shown": False},
    {"ask_lockouts": "main_form"},
    {"preset": "main_form"},
    {"preset": "main_form", "players": 3},
    {"forced_opening": False, "all_pass": "no_contract", "opener": "left_of_dealer"},
    {"ask_lockouts": "illisoft_2002", "calls_after_any_trick": True, "exchange": 4},
    {"players": 2},
    {"preset": "rules_2002_two"},
    {"players": 2, "kitty": 6, "kitty_shown": False},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_rules_bots_finish_whole_matches(options: dict[str, object]) -> None:
    game = tt.new_game("huutopussi", **options)
    start = time.perf_counter()
    for seed in range(2):
        state = play_match(game, ["rules"], seed)
        assert state.winner is not None
        assert state.observation(None)["hand_number"] < 40
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 2}])
def test_rules_beat_random_over_duplicate_deals(options: dict[str, object]) -> None:
    assert rules_against_random("huutopussi", 30, **options).low > 0
