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


# -- three players (tute arrastrado for three) -----------------------------------------------------

# Dealer 0; play passes counter-clockwise, so seat 2 leads and the order is 2, 1, 0.  The fortieth
# card, 3O, is turned for trumps (oros) and stays out of play: 120 - 10 = 110 card points in play.
THREE_DEAL = [
    "1O 12O 11O 7O 1C 3C 12C 11C 1E 3E 1B 3B 12B",
    "6O 5O 4O 2O 7C 6C 5C 4C 2C 12E 11E 10E 10B",
    "10O 10C 7E 6E 5E 4E 2E 11B 7B 6B 5B 4B 2B",
    "3O",
]


def test_three_players_each_alone_13_cards_and_the_turned_card_out_of_play():
    game = tute(players=3)
    assert game.num_sides == 3 and [game.side_of(s) for s in range(3)] == [0, 1, 2]
    assert tute(preset="three").options["players"] == 3
    state = game.new_hand(deal=THREE_DEAL, dealer=0)
    assert [len(state.hand(s)) for s in range(3)] == [13, 13, 13]
    public = state.observation(None)
    assert public["trump"] == "O" and public["trump_card"] == "3O" and public["shown"] == [[], [], []]
    assert "3O" not in {c for s in range(3) for c in hand(state, s)}
    assert state.current_player == 2  # the player after the dealer, counter-clockwise


def test_three_players_duties_and_the_winner_alone_declares():
    state = tute(players=3).new_hand(deal=THREE_DEAL, dealer=0)
    run(state, "2:2B")
    assert legal(state) == ["play 10B"]  # seat 1 must follow bastos
    run(state, "1:10B")
    assert legal(state) == ["play 1B", "play 3B", "play 12B"]  # and beat: all three do
    run(state, "0:1B")
    assert last_trick(state)["winner"] == 0 and state.observation(None)["points"] == [13, 0, 0]
    # seat 0 holds rey and caballo of oros (trumps) and of copas: only he is asked
    assert state.phase == "declare" and state.current_player == 0
    assert legal(state) == ["sing 40", "sing 20 C", "pass"]
    run(state, "0:40 0:20C 0:pass", auto_pass=False)
    assert state.phase == "play" and state.current_player == 0
    assert state.observation(None)["points"] == [13 + 40 + 20, 0, 0]
    run(state, "0:1E")
    assert state.current_player == 2  # then seat 2, then seat 1
    assert legal(state) == ["play 7E", "play 6E", "play 5E", "play 4E", "play 2E"]  # none beats the as
    run(state, "2:4E 1:12E")
    assert last_trick(state)["winner"] == 0
    run(state, "0:1C")
    assert legal(state) == ["play 10C"]
    run(state, "2:10C")
    assert legal(state) == ["play 7C", "play 6C", "play 5C", "play 4C", "play 2C"]


def test_three_players_the_round_goes_to_the_most_points_and_ties_to_the_last_trick_among_them():
    state = tute(players=3).new_hand(deal=THREE_DEAL, dealer=0)
    rng = random.Random(1)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    res = result(state)
    assert res["out_of_play"] == "3O" and sum(res["cards"]) == 110
    points = res["points"]
    assert sum(points) == 110 + 10 + sum(40 if a == "sing 40" else 20 for _, a in res["declarations"])
    top = max(points)
    leaders = [s for s in range(3) if points[s] == top]
    expect = leaders[0] if len(leaders) == 1 else res["last_trick"] if res["last_trick"] in leaders else None
    assert res["round_winner"] == expect


def test_three_players_solver_counts_the_mover_against_both_others():
    from tricktaker.solver.reference import minimax_values
    from tricktaker.solver.tute import objective

    state = tute(players=3).new_hand(deal=THREE_DEAL, dealer=0)
    rng = random.Random(4)
    while sum(len(state.hand(s)) for s in range(3)) > 9 or state.phase != "play":
        state.apply(rng.choice(state.legal_actions()))
    values = solve(state).values
    assert values == minimax_values(state, objective)
    world = state.sample_world(state.current_player, random.Random(2))
    assert world.observation(state.current_player)["hand"] == state.observation(state.current_player)["hand"]
    assert world.observation(None)["trump_card"] == "3O"


def test_three_players_rules_and_search_bots_play_a_whole_match():
    for specs in (["rules"], ["pimc:worlds=1:max_candidates=4", "rules", "random"]):
        state = play_match(tute(players=3, rounds_to_win=1), specs, seed=3)
        assert state.is_over() and state.winner in (0, 1, 2)


def test_three_players_a_table_in_the_browser_server(tmp_path):
    from server_helpers import running

    from tricktaker.server.tables import game_catalogue

    lobby = next(g for g in game_catalogue()["games"] if g["name"] == "tute")
    assert lobby["players"] == [2, 3, 4, 5, 6] and lobby["presets"]["three"] == {"players": 3}
    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create("tute", ["human", "rules", "rules"], preset="three",
                             options={"rounds_to_win": 1, "must_declare": True, "tute_sotas": True})
        ws = srv.ws(created["id"])
        ws.join(created["seats"][0]["token"])
        message = ws.until("state")
        assert len(message["observation"]["hand"]) == 13
        while not message["over"]:
            if message["legal"]:
                ws.send({"type": "act", "action": message["legal"][0], "seq": message["seq"]})
            message = ws.until("state")
        record = tt.load(srv.http.get(f"/api/tables/{created['id']}/record").text)
        assert record.game.options["players"] == 3 and record.is_over()
