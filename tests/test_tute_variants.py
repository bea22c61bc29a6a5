"""Tute's variant options (issue 24), each rule by name, on deals worked by hand.

The worked examples are the ones of ``docs/rules/tute.md`` (section Variants).  Deals and
scripts use the helpers of ``test_tute_rules``: pairs deals are four hands (the dealer's has
9 cards) and the shown trump card; with dealer 0 the pairs order is 3, 2, 1, 0.  Two-player
deals are the two hands, the upcard, then the stock from the top; with dealer 0 seat 1 leads.
"""

from __future__ import annotations

import random

import pytest
from bot_helpers import play_match
from test_tute_rules import (
    SING_DEAL,
    TRICK_1,
    assert_illegal,
    habanero,
    hand,
    last_trick,
    legal,
    result,
    run,
    tute,
    two_deal,
)

import tricktaker as tt
from tricktaker.solver import solve

# Seat 2 holds the four sotas; no rey and caballo of one suit in one hand.  Trumps oros (2O,
# the dealer's).  Trick 1 (3:4B 2:1B 1:2B 0:5B) goes to seat 2: 11 points for side 0.
SOTAS_DEAL = [
    "1O 3O 12O 7O 6O 3C 6C 6B 5B",
    "12E 11E 1E 3E 4E 2E 1C 7C 2B 11O",
    "10O 10C 10E 10B 1B 3B 7E 6E 5E 12C",
    "5O 4O 5C 4C 2C 11C 4B 12B 11B 7B",
    "2O",
]


# -- tute_sotas ------------------------------------------------------------------------------------


def test_tute_sotas_four_sotas_win_the_round_at_once():
    state = tute(tute_sotas=True).new_hand(deal=SOTAS_DEAL)
    run(state, TRICK_1)
    assert state.current_player == 2 and legal(state) == ["tute", "pass"]
    run(state, "2:tute", auto_pass=False)
    assert state.is_over() and state.scores == (1, 0)
    res = result(state)
    assert res["tute"] == 2 and res["round_winner"] == 0 and res["points"] == [11, 0]


def test_tute_sotas_off_four_sotas_are_nothing_special():
    state = tute().new_hand(deal=SOTAS_DEAL)
    run(state, TRICK_1)
    assert legal(state) == ["pass"]
    assert_illegal(state, "tute", "cannot declare tute", "four reyes or four caballos")
    state = tute(tute_sotas=True, tute=False).new_hand(deal=SOTAS_DEAL)
    run(state, TRICK_1)
    assert legal(state) == ["pass"]


def test_tute_sotas_the_solver_values_tute_as_the_rest_of_the_round():
    state = tute(tute_sotas=True).new_hand(deal=SOTAS_DEAL)
    run(state, TRICK_1)
    values = solve(state).values
    tute_action = next(a for a in values if a.kind == "tute")
    assert values[tute_action] == 120 - 11 + 10  # every card point still out, and the last trick


# -- must_declare ----------------------------------------------------------------------------------


def test_must_declare_a_player_who_can_declare_may_not_pass():
    state = tute(must_declare=True).new_hand(deal=SING_DEAL)
    run(state, TRICK_1)
    assert state.current_player == 2 and legal(state) == ["sing 40", "sing 20 C"]
    assert_illegal(state, "pass", "cannot pass", "declaring is compulsory", "sing 40, sing 20 C")
    run(state, "2:40", auto_pass=False)
    assert legal(state) == ["sing 20 C"]
    run(state, "2:20C", auto_pass=False)
    assert legal(state) == ["pass"]  # nothing left to declare: now he may pass
    run(state, "2:pass 0:pass", auto_pass=False)
    assert state.phase == "play" and state.current_player == 2
    assert state.observation(None)["points"] == [11 + 40 + 20, 0]


def test_must_declare_off_the_winner_may_keep_his_cantes():
    state = tute().new_hand(deal=SING_DEAL)
    run(state, TRICK_1)
    assert legal(state) == ["sing 40", "sing 20 C", "pass"]


def test_must_declare_the_rules_bot_and_the_solver_never_pass_with_a_cante():
    state = tute(must_declare=True).new_hand(deal=SING_DEAL)
    run(state, TRICK_1)
    assert set(solve(state).values) == {a for a in state.legal_actions()}
    assert all(a.kind != "pass" for a in solve(state).values)


# -- exchange_anytime ------------------------------------------------------------------------------


def test_exchange_anytime_the_follower_may_exchange_before_his_card():
    deal = two_deal({0: "7O 2C", 1: "5C 4C"}, "1O", fill="EB")
    state = habanero(exchange_anytime=True).new_hand(deal=deal, dealer=0)
    assert_illegal(state, "exchange", "not your turn", seat=0)  # never out of turn
    run(state, "1:5C")
    assert state.current_player == 0 and "exchange" in legal(state)
    run(state, "0:exchange")
    assert "1O" in hand(state, 0) and "7O" not in hand(state, 0)
    public = state.observation(None)
    assert public["trump_card"] == "7O" and public["exchanges"] == [[0, "7O", "1O"]]
    assert "1O" in public["shown"][0]
    assert state.current_player == 0 and "exchange" not in legal(state)
    run(state, "0:2C")  # the exchange changes no duty: he must still follow clubs
    assert last_trick(state)["winner"] == 1


def test_exchange_anytime_off_only_the_player_about_to_lead():
    deal = two_deal({0: "7O 2C", 1: "5C 4C"}, "1O", fill="EB")
    state = habanero().new_hand(deal=deal, dealer=0)
    run(state, "1:5C")
    assert "exchange" not in legal(state)
    assert_illegal(state, "exchange", "the player about to lead")


# -- matches to 2, 4, 6 or 8 round wins ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("target", [2, 4, 6, 8])
def test_rounds_to_win_matches_to_2_4_6_8_round_wins(players, target):
    state = tute(players=players, rounds_to_win=target).new_match(seed=target)
    rng = random.Random(target)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert max(state.scores) == target and state.scores[state.winner] == target
    assert min(state.scores) < target


# -- everywhere: records, bots ---------------------------------------------------------------------


VARIANT_OPTIONS = [
    {"tute_sotas": True, "must_declare": True, "rounds_to_win": 2},
    {"players": 2, "exchange_anytime": True, "tute_sotas": True, "rounds_to_win": 2},
]


@pytest.mark.parametrize("options", VARIANT_OPTIONS)
def test_variant_records_replay_to_the_same_state(options):
    state = tute(**options).new_match(seed=11)
    rng = random.Random(11)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    again = tt.load(state.to_json())
    assert again.to_json() == state.to_json()
    assert again.game.options == state.game.options


@pytest.mark.parametrize("options", VARIANT_OPTIONS)
def test_variant_rules_bots_play_a_whole_match(options):
    state = play_match(tute(**options), ["rules"], seed=7)
    assert state.is_over() and state.winner is not None
