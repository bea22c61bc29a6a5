"""Tute cabrero (``mode="cabrero"``, preset ``cabrero``), each rule by name.

The worked examples are the ones of ``docs/rules/tute.md`` (section Tute cabrero).  Seats
are clockwise and play passes counter-clockwise (after seat ``s`` comes ``s - 1``), skipping
seats put out.  With three at the table the deal is three hands of 13 and the turned trump
card (out of play); a seat put out of a four-seat match gets an empty pile.

Who loses a hand is read here a second time from the hand's public result (points, tricks
and cantes), not taken from the engine, so the tests check the engine against that reading.
"""

from __future__ import annotations

import json
import random

import pytest
from test_tute_rules import assert_illegal, legal, run

import tricktaker as tt

# Dealer 0, seat 2 leads.  Seat 2 holds every oro but the turned 2O (trumps), the as of each
# other suit and the tres of copas: he takes every trick, whatever the others play.
CAPOTE_DEAL = [
    "6E 5E 4E 2E 3B 12B 11B 10B 7B 6B 5B 4B 2B",
    "12C 11C 10C 7C 6C 5C 4C 2C 3E 12E 11E 10E 7E",
    "1O 3O 12O 11O 10O 7O 6O 5O 4O 1C 3C 1E 1B",
    "2O",
]
CAPOTE_LEADS = "1O 3O 12O 11O 10O 7O 6O 5O 4O 1C 3C 1E 1B".split()


def cabrero(players: int = 4, **options) -> tt.Game:
    return tt.new_game("tute", preset="cabrero", players=players, **options)


def result(state: tt.State) -> dict:
    return state._log[-1].result


def play_capote(state: tt.State, sing: bool, seed: int = 0) -> None:
    """Seat 2 leads CAPOTE_LEADS (singing las cuarenta after the first trick if ``sing``);
    the others play any legal card."""
    rng = random.Random(seed)
    for i, card in enumerate(CAPOTE_LEADS):
        while state.phase == "declare":
            state.apply("sing 40" if sing and i == 1 and "sing 40" in legal(state) else "pass")
        assert state.current_player == 2
        state.apply(f"play {card}")
        while state.current_player not in (2, None):
            state.apply(rng.choice(state.legal_actions()))


def losers_by_the_rules(res: dict, seats: list[int]) -> list[int]:
    """Who loses a cabrero hand, from its public result alone (the second reading)."""
    if res["tute"] is not None:
        return [s for s in seats if s != res["tute"]]
    tricks, points = res["tricks"], res["points"]
    total = sum(tricks)
    sang = {seat for seat, _ in res["declarations"]}
    for s in seats:
        if tricks[s] == total:
            return [s] if s in sang else [o for o in seats if o != s]
    empty = [s for s in seats if tricks[s] == 0]
    if empty:
        return empty
    order = sorted((points[s] for s in seats), reverse=True)
    m = len(seats)
    middle_places = [m // 2 + 1] if m % 2 else [m // 2, m // 2 + 1]  # 1-based places
    middle_values = {order[p - 1] for p in middle_places}
    return [s for s in seats if points[s] in middle_values]


def test_cabrero_preset_three_or_four_players_each_alone():
    game = cabrero()
    assert game.options["mode"] == "cabrero" and game.num_players == 4 and game.num_sides == 4
    assert [game.side_of(s) for s in range(4)] == [0, 1, 2, 3]
    assert cabrero(3).num_sides == 3
    with pytest.raises(tt.OptionError, match="three to six players"):
        cabrero(2)
    state = game.new_match(seed=1)
    assert [len(state.hand(s)) for s in range(4)] == [10, 10, 10, 10]
    assert state.observation(None)["trump_card"] == state.observation(0)["shown"][0][0]


def test_cabrero_capote_the_others_lose():
    state = cabrero(3).new_hand(deal=CAPOTE_DEAL, dealer=0)
    play_capote(state, sing=False)
    res = result(state)
    assert res["capote"] == 2 and res["tricks"] == [0, 0, 13]
    assert res["losers"] == [0, 1] and state.scores == (1, 1, 0)
    assert res["points"][2] == 120 + 10  # every card point (the turned 2O has none), the last trick


def test_cabrero_capote_after_a_cante_its_taker_alone_loses():
    state = cabrero(3).new_hand(deal=CAPOTE_DEAL, dealer=0)
    play_capote(state, sing=True)
    res = result(state)
    assert res["capote"] == 2 and res["declarations"] == [[2, "sing 40"]]
    assert res["losers"] == [2] and state.scores == (0, 0, 1)
    assert res["points"] == [0, 0, 120 + 10 + 40]


def test_cabrero_the_winner_alone_is_asked_to_declare():
    state = cabrero(3).new_hand(deal=CAPOTE_DEAL, dealer=0)
    run(state, "2:1O 1:12C 0:6E", auto_pass=False)
    assert state.phase == "declare" and state.current_player == 2
    assert legal(state) == ["sing 40", "pass"]
    assert_illegal(state, "tute", "tute")


# Dealer 0, trumps bastos (the turned 2B).  Seat 2 holds the four reyes and the as of oros.
TUTE_DEAL = [
    "7O 6O 5O 4O 2O 3C 11C 10C 7C 6C 5C 4C 11B",
    "3O 11O 10O 1C 1E 3E 11E 10E 7E 6E 5E 4E 2E",
    "1O 12O 12C 12E 12B 1B 3B 2C 10B 7B 6B 5B 4B",
    "2B",
]


def test_cabrero_tute_ends_the_hand_and_every_other_player_loses():
    state = cabrero(3).new_hand(deal=TUTE_DEAL, dealer=0)
    run(state, "2:1O 1:3O 0:7O", auto_pass=False)
    assert state.current_player == 2 and legal(state) == ["tute", "pass"]
    run(state, "2:tute", auto_pass=False)
    res = result(state)
    assert state.is_over() and res["tute"] == 2 and res["capote"] is None
    assert res["losers"] == [0, 1] and state.scores == (1, 1, 0) and res["points"] == [0, 0, 21]
    assert cabrero(3, tute=False).new_hand(deal=TUTE_DEAL, dealer=0).game.tute_sets == ()


@pytest.mark.parametrize("players", [3, 4])
def test_cabrero_the_middle_loses_ties_share_and_no_trick_loses(players):
    """Many seeded hands: the engine's losers are those of the second reading, every time."""
    game = cabrero(players)
    kinds = set()
    for seed in range(60):
        state = game.new_hand(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        res = result(state)
        seats = list(range(players))
        assert res["losers"] == losers_by_the_rules(res, seats), (seed, res)
        assert list(state.scores) == [1 if s in res["losers"] else 0 for s in seats]
        assert list(state.hand_losers) == res["losers"]
        kinds.add("no trick" if 0 in res["tricks"] else "tie" if len(res["losers"]) > players - 2
                  else "middle")
    assert {"no trick", "middle"} <= kinds


def test_cabrero_the_middle_loses_worked_example():
    # docs/rules/tute.md: the deal of seed 0, played by random.Random(0): 65, 11 and 64 points
    state = cabrero(3).new_hand(seed=0)
    rng = random.Random(0)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    res = result(state)
    assert res["tricks"] == [6, 3, 4] and res["points"] == [65, 11, 64]
    assert res["declarations"] == [[0, "sing 20 O"]]
    assert res["losers"] == [2] and state.scores == (0, 0, 1)  # second by one point


def test_cabrero_a_seat_put_out_gets_no_cards_and_the_turn_skips_it():
    game = cabrero(4)
    state = game.new_hand(scores=[4, 0, 2, 3], dealer=1, seed=3)
    assert [len(state.hand(s)) for s in range(4)] == [0, 13, 13, 13]
    assert state.out == (True, False, False, False)
    assert state.observation(None)["trump_card"] not in {c.text for s in range(4) for c in state.hand(s)}
    assert state.current_player == 3  # after dealer 1 comes seat 0, who is out
    order = []
    while len(state._tricks) < 2:
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
        while state.phase == "declare":
            state.apply("pass")
    assert 0 not in order and len(state._tricks[0][1]) == 3
    piles = [game.deck.format(mask) for mask in state._log[0].deal]  # the seed's deal, as text
    assert piles[0] == ""
    again = game.new_hand(deal=piles, scores=[4, 0, 2, 3], dealer=1)
    assert [len(again.hand(s)) for s in range(4)] == [0, 13, 13, 13]
    with pytest.raises(tt.OptionError, match="piles of 13, 0, 13, 13, 1 cards, not 0, 13, 13, 13, 1"):
        game.new_hand(deal=piles, scores=[0, 4, 2, 3], dealer=2)  # seat 1 is out, not seat 0
    with pytest.raises(tt.OptionError, match="dealer must be a seat still in"):
        game.new_hand(scores=[4, 0, 0, 0], dealer=0, seed=3)
    with pytest.raises(tt.OptionError, match="three players still in"):
        game.new_hand(scores=[4, 4, 0, 0], dealer=2, seed=3)


def test_cabrero_four_lost_hands_put_a_player_out_and_fewer_than_three_end_the_match():
    game = cabrero(4)
    for seed in range(6):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            obs = state.observation(None)
            if not state.is_over():
                out = obs["out"]
                assert state.current_player is not None and not out[state.current_player]
                assert all(not state.hand(s) for s in range(4) if out[s])
        scores = state.scores
        assert sum(s < 4 for s in scores) < 3 and max(scores) == 4
        places = state.places
        assert places is not None and min(places) == 1
        survivors = [s for s in range(4) if scores[s] < 4]
        assert all(places[s] == 1 for s in survivors)
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9 and all(returns[s] == -1.0 for s in range(4) if places[s] > 1)
        assert state.winner == (survivors[0] if len(survivors) == 1 else None)


def test_cabrero_records_replay_and_reject_a_deal_to_a_seat_put_out():
    state = cabrero(4).new_match(seed=2)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    text = state.to_json()
    again = tt.load(text)
    assert again.scores == state.scores and again.places == state.places
    data = json.loads(text)
    data["seeded"] = False
    assert tt.load(json.dumps(data)).places == state.places
    shrunk = next(i for i, h in enumerate(data["hands"]) if "" in h["deal"][:4])
    piles = data["hands"][shrunk]["deal"]
    empty = piles.index("")
    donor = (empty + 2) % 4 if piles[(empty + 2) % 4] else (empty + 1) % 4
    cards = piles[donor].split()
    piles[empty], piles[donor] = cards[0], " ".join(cards[1:])
    with pytest.raises(tt.RecordError, match="deal"):
        tt.load(json.dumps(data))


def test_cabrero_worlds_keep_what_a_seat_knows():
    state = cabrero(4).new_hand(scores=[0, 4, 1, 1], dealer=0, seed=8)
    rng = random.Random(8)
    for _ in range(8):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    for k in range(5):
        world = state.sample_world(seat, random.Random(k))
        assert world.observation(seat) == state.observation(seat)
        assert not world.hand(1)


def test_cabrero_hand_returns_minus_one_per_loser_and_seats_out_score_nothing():
    state = cabrero(4).new_hand(scores=[4, 0, 0, 0], dealer=1, seed=3)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    losers = state.hand_losers
    returns = state.hand_returns()
    assert returns[0] == 0.0 and abs(sum(returns)) < 1e-9
    assert all(returns[s] == -1.0 for s in losers)
    assert all(returns[s] > 0 for s in (1, 2, 3) if s not in losers)
    from tricktaker.bots.playout import hand_rewards

    assert hand_rewards(state) == returns


def test_cabrero_the_solver_refuses_and_the_bots_play_a_whole_match():
    from bot_helpers import play_match

    from tricktaker.solver import SolveError, solve

    state = cabrero(3).new_hand(seed=1)
    with pytest.raises(SolveError, match="cabrero"):
        solve(state)
    for players, specs in ((3, ["rules", "random", "pimc:worlds=2:max_candidates=3"]),
                           (4, ["rules", "ismcts:iterations=10", "rules", "random"])):
        done = play_match(cabrero(players), specs, seed=4)
        assert done.is_over() and done.places is not None and min(done.places) == 1


def test_cabrero_the_rules_bot_never_sings_while_it_holds_every_trick():
    from tricktaker.bots.base import view_of
    from tricktaker.bots.rules.tute import choose

    state = cabrero(3).new_hand(deal=CAPOTE_DEAL, dealer=0)
    # seat 2 holds every trick so far: he does not sing (a capote after a cante loses)
    run(state, "2:1O 1:12C 0:6E", auto_pass=False)
    assert legal(state) == ["sing 40", "pass"]
    assert str(choose(view_of(state, 2), random.Random(0))) == "pass"


def test_cabrero_ratings_count_places_survivors_beat_those_put_out():
    from tricktaker.server.leaderboard import MatchResult

    seats = [{"kind": "bot", "bot": "random"}] * 4
    match = MatchResult("t", "tute", seats, [0, 1, 2, 3], None, places=(1, 3, 4, 1))
    assert [match.result(s) for s in range(4)] == [1.0, 0.0, 0.0, 1.0]
    assert match.score(0, 3) == 0.5 and match.score(0, 1) == 1.0 and match.score(1, 2) == 1.0
    assert match.score(2, 1) == 0.0
    state = cabrero(4).new_match(seed=5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert set(state.places) <= {1, 2, 3, 4} and state.returns() == [
        (4 - state.places.count(1)) / state.places.count(1) if p == 1 else -1.0 for p in state.places]


def test_cabrero_environments_reward_hands_and_the_match_by_losers():
    pytest.importorskip("pettingzoo")
    from tricktaker.envs.pettingzoo import env

    for reward in ("hand", "match"):
        e = env("tute", preset="cabrero", players=3, reward=reward, episode="match")
        e.reset(seed=1)
        rng = random.Random(1)
        total = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, r, term, trunc, _ = e.last()
            total[agent] += r
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
        assert abs(sum(total.values())) < 1e-9
        if reward == "match":
            assert sorted(total.values()) == [-1.0, 0.5, 0.5]
        else:
            assert all(abs(v) < 20 for v in total.values())


def test_cabrero_in_the_terminal_play_replay_and_simulate(monkeypatch, capsys, tmp_path):
    from tricktaker import cli

    path = tmp_path / "cabrero.json"
    monkeypatch.setattr(cli, "read_line", lambda prompt: "1")
    assert cli.main(["play", "tute", "--preset", "cabrero", "--seed", "3", "--bots", "rules",
                     "--bot-delay", "0", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "cabrero, 4 players each alone, the middle loses" in out and "Losers" in out
    assert "Out of the match:" in out and "turned card" in out  # three play on, the trump card out
    state = tt.load(path.read_text())
    best = [s for s, p in enumerate(state.places) if p == 1]
    assert "win the match" in out and len(best) >= 1
    assert cli.main(["replay", str(path)]) == 0
    assert "Match over:" in capsys.readouterr().out
    assert cli.main(["simulate", "tute", "--preset", "cabrero", "--players", "3", "--hands", "12",
                     "--matches", "--bots", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round losers" in out and "Matches finished" in out


def test_cabrero_a_rated_table_scores_each_opponent_by_place(tmp_path):
    """A signed-in player at a cabrero table of four against bot levels: her result is 1 if she
    is left at the end (places 1), and her rating takes one game per opponent by place."""
    from server_helpers import running
    from test_players import make, play_out, sit

    from tricktaker.ratings import Rating, rate
    from tricktaker.server.leaderboard import BOT_RATINGS
    from tricktaker.server.players import SECRET_HEADER

    with running(str(tmp_path / "t.db")) as server:
        aino = make(server, "Aino")
        bots = [{"kind": "bot", "bot": spec} for spec in ("random", "rules", "random")]
        response = server.http.post("/api/tables", headers={SECRET_HEADER: aino["secret"]},
                                    json={"game": "tute", "preset": "cabrero", "options": {"losses_out": 2},
                                          "seats": [{"kind": "human"}, *bots]})
        assert response.status_code == 201, response.text
        table = response.json()
        record = tt.load(json.dumps(play_out(server, table, [sit(server, table, 0)])))
        places = record.places
        [match] = server.http.get(f"/api/players/{aino['id']}").json()["matches"]
        assert match["result"] == (1.0 if places[0] == 1 else 0.0)
        games = [(BOT_RATINGS[spec], 1.0 if places[0] < places[s] else 0.0 if places[0] > places[s] else 0.5)
                 for s, spec in ((1, "random"), (2, "rules"), (3, "random"))]
        assert match["rating_after"] == pytest.approx(rate(Rating(), games).rating)


def test_cabrero_the_arena_scores_deals_by_losers_and_matches_by_place():
    from tricktaker.arena.deals import ArenaConfig, play_deal
    from tricktaker.arena.stats import summarise

    hands = ArenaConfig("tute", ("rules", "random"), 2, options={"players": 3}, preset="cabrero")
    for deal in range(2):
        for play in play_deal(hands, deal).plays:
            assert abs(sum(play.points)) < 1e-9 and all(p >= -1.0 for p in play.points)
            assert play.places is None
    matches = ArenaConfig("tute", ("rules", "random"), 2, options={"losses_out": 1}, preset="cabrero",
                          matches=True)
    results = [play_deal(matches, deal) for deal in range(2)]
    assert all(play.places is not None and min(play.places) == 1 for r in results for play in r.plays)
    from tricktaker.arena.stats import _match_score

    for result in results:  # a's score by mean place, recomputed from the places
        won, counted = _match_score(result, 0, 1)
        expect = 0.0
        for play in result.plays:
            mean = [sum(p for s, p in enumerate(play.places) if play.lineup[s] == bot)
                    / play.lineup.count(bot) for bot in (0, 1)]
            expect += 1.0 if mean[0] < mean[1] else 0.0 if mean[0] > mean[1] else 0.5
        assert counted == len(result.plays) and won == expect
    assert 0.0 <= summarise(matches.bots, results, True).pairs[0].win_rate.value <= 1.0


def test_cabrero_openspiel_returns_are_the_hand_payoffs():
    pyspiel = pytest.importorskip("pyspiel")
    import tricktaker.envs.openspiel  # noqa: F401  (registers the games)

    for params, seats in (({}, 4), ({"players": 3}, 3)):
        game = pyspiel.load_game("python_tricktaker_tute_cabrero", params)
        assert game.num_players() == seats
        rng = random.Random(1)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9 and -1.0 in returns
        assert returns == state._session.state.hand_returns()


def test_cabrero_duplicate_boards_score_a_seat_by_who_lost_the_hand():
    from tricktaker.server.duplicate import net_score

    state = cabrero(3).new_hand(deal=CAPOTE_DEAL, dealer=0)
    play_capote(state, sing=False)  # seats 0 and 1 lose to seat 2's capote
    assert [net_score(state, seat)[0] for seat in range(3)] == [-1.0, -1.0, 2.0]
    assert net_score(state, 2)[1] == [0, 0, 130]


def test_cabrero_env_tensors_stay_exact_after_a_seat_is_put_out():
    """The environments' incremental tensors equal a full re-read, action by action, through
    whole four-seat matches in which seats go out (three play on, then the match ends)."""
    np = pytest.importorskip("numpy")
    from tricktaker.envs.session import Session, new_state

    game = cabrero(4, losses_out=2)
    shrunk = 0
    for seed in range(3):
        fast = Session(new_state(game, True, seed, 0))
        strict = Session(new_state(game, True, seed, 0), strict=True)
        rng = random.Random(seed)
        while fast.current_player is not None:
            index = rng.choice(fast.legal())
            assert sorted(np.flatnonzero(fast.mask())) == sorted(fast.legal())
            fast.apply(index)
            strict.apply(index)
            for seat in range(4):
                assert np.array_equal(fast.tensor(seat), strict.tensor(seat)), (seed, seat)
            shrunk += any(fast.state.out) and not fast.state.is_over()
        assert fast.state.is_over() and fast.state.places is not None
    assert shrunk  # some hands were played by three at a table of four


def test_cabrero_hand_reviews_judge_nothing_since_the_solver_refuses():
    from tricktaker.server.review import review_hand

    state = cabrero(3).new_match(seed=4)
    rng = random.Random(4)
    while state.hand_number < 1:
        state.apply(rng.choice(state.legal_actions()))
    review = review_hand(state.to_json(), 0, 0.2)
    assert review["finished"] and review["decisions"] == [] and review["totals"] == [0, 0, 0]


# -- five and six players ------------------------------------------------------------------


def test_cabrero_five_and_six_players_are_cabrero_only():
    assert cabrero(5).num_players == 5 and cabrero(6).num_sides == 6
    for players in (5, 6):
        with pytest.raises(tt.OptionError, match=f"tute for {players} players is tute cabrero only"):
            tt.new_game("tute", players=players)
        for preset in ("pairs", "habanero", "three"):
            with pytest.raises(tt.OptionError, match="cabrero only"):
                tt.new_game("tute", preset=preset, players=players)


def test_cabrero_five_players_eight_each_the_dealers_last_card_shows_trumps():
    game = cabrero(5)
    assert game.pile_sizes(0) == [7, 8, 8, 8, 8, 1]
    state = game.new_hand(seed=3)  # dealer 0
    assert [len(state.hand(s)) for s in range(5)] == [8] * 5
    obs = state.observation(1)
    assert obs["trump_card"] == "2C" and obs["trump"] == "C" and obs["shown"][0] == ["2C"]
    assert "2C" in {c.text for c in state.hand(0)}  # the dealer's, played like any other card
    assert state.current_player == 4  # the player after the dealer, counter-clockwise


def test_cabrero_six_players_six_each_the_four_left_over_out_of_play_the_last_turned():
    game = cabrero(6)
    assert game.pile_sizes(0) == [6, 6, 6, 6, 6, 6, 3, 1]
    state = game.new_hand(seed=214)
    piles = [game.deck.format(m) for m in state._log[0].deal]
    assert piles[6:] == ["10O 7O 3B", "2E"]
    assert [len(state.hand(s)) for s in range(6)] == [6] * 6
    held = {c.text for s in range(6) for c in state.hand(s)}
    assert held.isdisjoint({"10O", "7O", "3B", "2E"})
    for seat in (None, 0, 3):  # the turned card is seen by all, the three others by nobody
        seen = json.dumps(state.observation(seat))
        assert '"trump_card": "2E"' in seen and not {"10O", "7O", "3B"} & set(
            state.observation(seat)["hand"])
        assert all(card not in state.observation(seat)["shown"][s] for s in range(6)
                   for card in ("10O", "7O", "3B", "2E"))


def test_cabrero_five_players_the_third_loses_worked_example():
    # docs/rules/tute.md: the deal of seed 3, played by random.Random(3); seat 3 takes one
    # trick (7 points) and sings 20 in oros: 27, between 46 and 42 above and 18 and 17 below
    state = cabrero(5).new_hand(seed=3)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    res = result(state)
    assert res["tricks"] == [2, 2, 1, 1, 2] and res["points"] == [42, 18, 17, 27, 46]
    assert res["declarations"] == [[3, "sing 20 O"]] and res["cards"][3] == 7
    assert res["losers"] == [3] and state.scores == (0, 0, 0, 1, 0)


def test_cabrero_six_players_the_third_and_fourth_lose_worked_example():
    # docs/rules/tute.md: seed 214, random.Random(214): a trick each, 31 28 21 20 12 6
    state = cabrero(6).new_hand(seed=214)
    rng = random.Random(214)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    res = result(state)
    assert res["tricks"] == [1] * 6 and res["points"] == [31, 12, 21, 20, 28, 6]
    assert sum(res["points"]) == 130 - 2 - 10  # the 10O and 3B lay out of play
    assert res["out_of_play"] == "2E" and res["losers"] == [2, 3]


@pytest.mark.parametrize("players", [5, 6])
def test_cabrero_five_and_six_the_middle_places_lose_ties_share(players):
    """Seeded hands at five and six: the engine's losers are those of the second reading."""
    game = cabrero(players)
    kinds = set()
    for seed in range(80):
        state = game.new_hand(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        res = result(state)
        seats = list(range(players))
        assert res["losers"] == losers_by_the_rules(res, seats), (seed, res)
        assert list(state.scores) == [1 if s in res["losers"] else 0 for s in seats]
        kinds.add("no trick" if 0 in res["tricks"] else "middle")
    assert "no trick" in kinds


def test_cabrero_a_table_of_six_shrinks_as_players_go_out():
    game = cabrero(6)
    five = game.new_hand(scores=[0, 4, 0, 0, 0, 0], dealer=0, seed=1)  # 8 each, the dealer's card
    assert [len(five.hand(s)) for s in range(6)] == [8, 0, 8, 8, 8, 8]
    assert five.observation(2)["shown"][0] == [five.observation(None)["trump_card"]]
    assert five.current_player == 5
    four = game.new_hand(scores=[0, 4, 4, 0, 0, 0], dealer=3, seed=1)  # 10 each, as in pairs
    assert [len(four.hand(s)) for s in range(6)] == [10, 0, 0, 10, 10, 10]
    three = game.new_hand(scores=[4, 4, 0, 4, 0, 0], dealer=2, seed=1)  # 13 each, one turned
    assert [len(three.hand(s)) for s in range(6)] == [0, 0, 13, 0, 13, 13]
    assert three.observation(None)["trump_card"] not in {c.text for c in three.hand(2)}
    assert three.current_player == 5  # after dealer 2: seats 1 and 0 are out, then 5
    with pytest.raises(tt.OptionError, match="three players still in"):
        game.new_hand(scores=[4, 4, 4, 4, 0, 0], dealer=4, seed=1)


@pytest.mark.parametrize("players", [5, 6])
def test_cabrero_five_and_six_whole_matches_end_with_fewer_than_three(players):
    game = cabrero(players)
    for seed in range(3):
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        seen_in = set()
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            if not state.is_over():
                out = state.observation(None)["out"]
                seen_in.add(players - sum(out))
                assert not out[state.current_player]
        assert sum(s < 4 for s in state.scores) < 3 and min(state.places) == 1
        assert abs(sum(state.returns())) < 1e-9
        assert 3 in seen_in or sum(s < 4 for s in state.scores) < 3
        again = tt.load(state.to_json())  # the record replays, seats out and all
        assert again.scores == state.scores and again.places == state.places


def test_cabrero_six_worlds_keep_the_cards_left_over_unseen():
    state = cabrero(6).new_hand(seed=214)
    rng = random.Random(214)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    spares = set()
    for k in range(12):
        world = state.sample_world(seat, random.Random(k))
        assert world.observation(seat) == state.observation(seat)
        spare = world._log[-1].deal[6]
        assert bin(spare).count("1") == 3 and not spare & state.hand_masks[seat]
        spares.add(spare)
    assert len(spares) > 1  # the three unseen cards are dealt anew, not copied from the real deal
    five = cabrero(5).new_hand(scores=[0, 0, 4, 0, 0], dealer=0, seed=5)
    for _ in range(5):
        five.apply(five.legal_actions()[0])
    world = five.sample_world(five.current_player, random.Random(1))
    assert world.observation(five.current_player) == five.observation(five.current_player)


def test_cabrero_five_and_six_bots_play_whole_matches():
    from bot_helpers import play_match

    for players, specs in ((5, ["rules", "random", "pimc:worlds=2:max_candidates=3", "rules", "random"]),
                           (6, ["rules", "ismcts:iterations=10", "random", "rules", "random", "rules"])):
        done = play_match(cabrero(players, losses_out=2), specs, seed=4)
        assert done.is_over() and done.places is not None and min(done.places) == 1


def test_cabrero_six_in_the_terminal(monkeypatch, capsys):
    from tricktaker import cli

    monkeypatch.setattr(cli, "read_line", lambda prompt: "1")
    assert cli.main(["play", "tute", "--preset", "cabrero", "--players", "6", "--seed", "3",
                     "--bots", "rules", "--bot-delay", "0", "--option", "losses_out=1"]) == 0
    out = capsys.readouterr().out
    assert "cabrero, 6 players each alone, the middle loses" in out
    assert "Far left" in out and "Far right" in out and "Across" in out
    assert "turned card" in out and "win the match" in out


def test_cabrero_the_rules_bot_goes_for_the_top_at_five_and_six_only():
    from tricktaker.bots.rules.tute import going_high, read_table

    for players, expect_high in ((6, True), (5, True), (4, False)):
        state = cabrero(players).new_hand(seed=13)
        weakest = min(range(players), key=lambda s: sum(c.text[:-1] in ("1", "3") for c in state.hand(s)))
        obs = state.observation(weakest)
        poor = not any(c.text[:-1] in ("1", "3") for c in state.hand(weakest))
        if players == 4:
            assert poor, "seed 13 gives a seat of four no as or tres"
        assert going_high(read_table(obs), obs) is expect_high
