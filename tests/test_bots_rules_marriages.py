"""The rules policy of the Marjapussi family: calls, leads and follows on constructed hands,
whole matches in every variant, and a duplicate duel against the random bot."""

from __future__ import annotations

import time

import pytest
from bot_helpers import fill, play_match, rules_action, rules_against_random

import tricktaker as tt
from tricktaker.engine import State


def marjapussi_after_first_trick(seat0: str, scores: tuple[int, int] = (0, 0), **options: object) -> State:
    """Seat 0 leads the ace of spades, everybody follows low, and seat 0 wins and may call."""
    game = tt.new_game("marjapussi", **options)
    deal = fill(game, [9] * 4, [seat0, "6S", "7S", "8S"])
    state = game.new_hand(deal=deal, dealer=3, scores=scores)
    for action in ("play AS", "play 6S", "play 7S", "play 8S"):
        state.apply(action)
    assert state.current_player == 0
    return state


def test_declares_own_marriage_after_winning_a_trick() -> None:
    state = marjapussi_after_first_trick("AS KH QH 9C 8C 7C 6C 9D 8D")
    assert rules_action(state) == "declare H"


def test_declares_the_longer_suit_first_when_holding_two_marriages() -> None:
    state = marjapussi_after_first_trick("AS KH QH KD QD JD 9D 8D 7C")
    assert rules_action(state) == "declare D"


def test_asks_partner_for_the_half_it_lacks() -> None:
    state = marjapussi_after_first_trick("AS KH 9H 9C 8C 7C 6C 9D 8D")
    assert rules_action(state) == "ask half H"


def test_asks_for_a_whole_without_king_or_queen() -> None:
    state = marjapussi_after_first_trick("AS JH 9H 9C 8C 7C 6C 9D 8D")
    assert rules_action(state) == "ask whole"


def test_does_not_ask_whole_again_after_a_no() -> None:
    game = tt.new_game("marjapussi")
    # Seat 2 holds no marriage: its "no" must stop seat 0 from asking again.
    deal = fill(game, [9] * 4, ["AS AD JH 9H 9C 8C 7C 6C 9D", "6S KC KH KS KD", "7S QS QC QH QD", "8S 6D"])
    state = game.new_hand(deal=deal, dealer=3)
    for action in ("play AS", "play 6S", "play 7S", "play 8S", "ask whole", "answer no", "play AD"):
        state.apply(action)
    while state.current_player != 0:
        state.apply(state.legal_actions()[-1])  # the others follow with their lowest legal card
    assert [t["winner"] for t in state.observation(0)["tricks"]] == [0, 0]
    assert rules_action(state).startswith("play")


def test_skips_a_marriage_that_would_overshoot_exactly_twelve() -> None:
    state = marjapussi_after_first_trick("AS KH QH 9C 8C 7C 6C 9D 8D", scores=(11, 0))
    assert rules_action(state).startswith("play")


def test_smears_a_ten_on_the_partners_ace() -> None:
    game = tt.new_game("marjapussi")
    deal = fill(game, [9] * 4, ["AS", "6S", "TS 7S", "8S"])
    state = game.new_hand(deal=deal, dealer=3)
    state.apply("play AS")
    state.apply("play 6S")
    assert rules_action(state) == "play TS"


def test_does_not_overtake_partner_whose_card_stands() -> None:
    game = tt.new_game("marjapussi", partner_exception=True)
    deal = fill(game, [9] * 4, ["KS 9H 8H 7H 6H 9D 8D 7D 6D", "6S", "AS TS 7S", "8S"])
    state = game.new_hand(deal=deal, dealer=3)
    state.apply("play KS")
    state.apply("play 6S")
    assert rules_action(state) == "play 7S"


def test_last_player_wins_with_the_cheapest_card() -> None:
    game = tt.new_game("marjapussi")
    deal = ["9D 9H 8H 7H 6H 9C 8C 7C 6C", "JD AS TS KS QS JS 9S 8S 7S",
            "6D 6S AH TH KH QH JH AC TC", "AD TD 7D KC QC JC KD QD 8D"]
    state = game.new_hand(deal=deal, dealer=3)
    for action in ("play 9D", "play JD", "play 6D"):
        state.apply(action)
    assert rules_action(state) == "play TD"


def test_avomarjapussi_declares_with_a_face_up_half() -> None:
    game = tt.new_game("avomarjapussi")
    # Pile order: hand 0, hand 1, seat 0's 7 face-down then 7 face-up, then seat 1's.
    hand0, hand1 = "AS KH 9C 8C", "6S 7S 8S 9S"
    down0, up0 = "6C 7C 6D 7D 8D 9D JD", "QH TD 6H 7H 8H 9H JH"
    piles = fill(game, [4, 4] + [1] * 28, [hand0, hand1] + (down0 + " " + up0).split() + [""] * 14)
    state = game.new_hand(deal=piles, dealer=1)
    state.apply("play AS")
    state.apply("play 6S")
    assert state.current_player == 0
    assert rules_action(state) == "declare H"


VARIANTS = [
    ("marjapussi", {}),
    ("marjapussi", {"declaration_order": "whole_first", "lead_from_marriage": True, "clubs_ace_opens": True}),
    ("marjapussi", {"declaration_order": "ordered", "pips": "aces_tens", "first_lead": "ace_or_spade",
                    "partner_exception": True, "target": 10}),
    ("bondtolva", {}),
    ("bondtolva", {"exact": True, "declaration_order": "ordered"}),
    ("bondtolva", {"players": 2}),
    ("avomarjapussi", {}),
    ("avomarjapussi", {"pip_tie_carries": True, "lead_from_marriage": True}),
]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_rules_bots_finish_whole_matches(name: str, options: dict[str, object]) -> None:
    game = tt.new_game(name, **options)
    start = time.perf_counter()
    for seed in range(2):
        state = play_match(game, ["rules"], seed)
        assert state.winner is not None
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(("name", "options"), [("marjapussi", {}), ("bondtolva", {}),
                                               ("bondtolva", {"players": 2}), ("avomarjapussi", {})])
def test_rules_beat_random_over_duplicate_deals(name: str, options: dict[str, object]) -> None:
    assert rules_against_random(name, 30, **options).low > 0
