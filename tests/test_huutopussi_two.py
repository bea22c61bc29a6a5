"""Huutopussi for two players (``players=2``, presets ``two`` and ``rules_2002_two``): the 2002
ruleset's two-player game, dealt as three with the third hand dead.  One test per rule, the
worked examples of ``docs/rules/huutopussi.md`` (examples 21 and 22), and the solver, bots,
records, terminal, server table and environments with two seats.

The rules are checked against ``huutopussi_helpers.Rules`` (re-written from the texts: the
läpäri's top-up included), never against the engine's own code.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from huutopussi_helpers import (
    assert_illegal,
    check_deal,
    check_results,
    drive,
    hand,
    huutopussi,
    legal,
    legal_plays,
    result,
    run,
)

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.bots.rules.huutopussi import estimate, features
from tricktaker.games.huutopussi import MARRIAGE_VALUES
from tricktaker.games.marriages import STRENGTH
from tricktaker.solver import _points as K
from tricktaker.solver import marriages as marriage_solver
from tricktaker.solver import solve
from tricktaker.solver.points import shared_solver
from tricktaker.solver.reference import minimax_values

LAPARI_DEAL = check_deal(["AS TS KS QS JS AH TH KH QH AD TD", "9S 8S 7S 6S 9H 8H 7H 6H 9D 8D 7D",
                          "KD QD JD 6D AC TC KC QC JC 9C 8C", "JH 7C 6C"])
"""Example 21: seat 0 holds every ace and ten but the clubs'; the dead hand holds the clubs."""
DEAD_ACE_DEAL = check_deal(["KS QS 9S KH QH JH 9D 8D 7D 6D 9C", "TS 8S 7S 6S TH 9H 8H 7H 6H 6C 7C",
                            "AS JS AH AD TD KD QD JD AC TC KC", "QC JC 8C"])
"""Example 22: seat 1 holds no ace; the aces of spades and hearts lie in the dead hand."""


def two(**options: object) -> tt.Game:
    return huutopussi(players=2, **options)


def sweep_endgames(game: tt.Game, count: int, tricks_left: int, seed: int = 0):
    """Play-phase states with at most ``tricks_left`` tricks to go in which one player has taken
    every trick so far: after a random first trick, its winner plays his strongest card and the
    other his weakest (calls at random), so the läpäri is still open."""
    found = 0
    while found < count:
        seed += 1
        assert seed < 20_000, "too few hands that stay one-sided"
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        while not state.is_over():
            obs = state.observation(None)
            won = obs["tricks_won"]
            if state.phase != "play" or not obs["tricks"]:
                state.apply(rng.choice(state.legal_actions()))
                continue
            if 0 not in won:
                break
            if sum(obs["hand_sizes"]) <= 2 * tricks_left:
                found += 1
                yield state
                break
            calls = [a for a in state.legal_actions() if a.kind != "play"]
            if calls and rng.random() < 0.5:
                state.apply(rng.choice(calls))
                continue
            plays = [a for a in state.legal_actions() if a.kind == "play"]
            power = {a: STRENGTH[a.mask] + (20 if a.card and a.card.suit.letter == obs["trump"] else 0)
                     for a in plays}
            strong = state.current_player == won.index(max(won))
            state.apply(max(plays, key=power.__getitem__) if strong else min(plays, key=power.__getitem__))


# -- the table and the deal --------------------------------------------------------------------------


def test_two_players_the_deal_is_three_hands_and_the_kitty():
    game = two()
    assert game.num_players == 2 and game.num_sides == 2 and not game.partnerships
    assert game.pile_sizes(0) == [11, 11, 11, 3]
    assert two(kitty=6).pile_sizes(1) == [10, 10, 10, 6]
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0)
    assert [len(state.hand(s)) for s in range(2)] == [11, 11]
    assert state.observation(None)["hand_sizes"] == [11, 11]
    with pytest.raises(tt.OptionError, match="piles of 11, 11, 11, 3"):
        game.new_hand(deal=LAPARI_DEAL[:2] + [LAPARI_DEAL[2] + " " + LAPARI_DEAL[3]], dealer=0)
    record = json.loads(state.to_json())
    piles = [set(p.split()) for p in record["hands"][0]["deal"]]
    assert piles == [set(p.split()) for p in LAPARI_DEAL], "the record keeps the dead hand as the third pile"


def test_two_players_the_dead_hand_is_never_seen():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    dead = set(LAPARI_DEAL[2].split())
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C")
    while not state.is_over():
        for seat in (0, 1, None):
            text = json.dumps(state.observation(seat))
            assert not any(f'"{c}"' in text for c in dead), (seat, "a dead card is shown")
        state.apply(state.legal_actions()[0])
    after = json.dumps(state.observation(0)["previous_hand"])
    assert not any(f'"{c}"' in after or f" {c}" in after for c in dead), "not even in the result"


def test_two_players_worlds_deal_the_dead_hand_as_an_unseen_pile():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C, 0 AS, 1 6S")
    kitty = {"JH", "7C", "6C"}
    holders: dict[str, set[int]] = {}
    for seed in range(40):
        world = state.sample_world(1, random.Random(seed))
        assert hand(world, 1) == hand(state, 1)
        assert len(hand(world, 0)) == 10 and not hand(world, 0) & {"AS", "6S"}
        piles = json.loads(world.to_json())["hands"][0]["deal"]
        dead = set(piles[2].split())
        assert len(dead) == 11 and not dead & kitty, "the kitty shown is with the declarer or discarded"
        assert piles[3].split() == ["JH", "7C", "6C"]
        for card in dead:
            holders.setdefault(card, set()).add(2)
        for card in hand(world, 0):
            holders.setdefault(card, set()).add(0)
    assert holders["AC"] == {0, 2}, "an unseen card may be with the declarer or in the dead hand"
    mine = state.sample_world(0, random.Random(1))
    assert hand(mine, 0) == hand(state, 0)
    assert json.loads(mine.to_json())["hands"][0]["deal"][3] == LAPARI_DEAL[3]


# -- the auction, the kitty and the discard -------------------------------------------------------


def test_two_players_the_auction_dealer_opens_and_the_other_bids_or_passes():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=1)
    assert state.current_player == 1 and "pass" not in legal(state)
    assert_illegal(state, "pass", "the dealer must open the bidding at 50 or more")
    run(state, "1 bid 50, 0 bid 60, 1 bid 65, 0 pass")
    assert state.declarer == 1 and state.contract == 65 and state.phase == "raise"


def test_two_players_kitty_raise_and_discard_as_three_players():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass")
    assert state.observation(1)["kitty"] == ["JH", "7C", "6C"], "the kitty is shown to both"
    assert len(state.hand(0)) == 14
    run(state, "0 raise 100")
    assert_illegal(state, "discard AS 7C 6C", "aces and tens may not be discarded: AS")
    run(state, "0 discard JH 7C 6C")
    assert state.observation(0)["discard"] == ["JH", "7C", "6C"]
    assert state.observation(1)["discard"] is None
    assert state.phase == "play" and state.current_player == 0


def test_two_players_options_for_four_only_are_refused():
    with pytest.raises(tt.OptionError, match="rules_2002_two"):
        two(exchange=4)
    with pytest.raises(tt.OptionError, match="four players only"):
        two(calls_after_any_trick=True)
    with pytest.raises(tt.OptionError, match="players"):
        huutopussi(players=5)


# -- play ---------------------------------------------------------------------------------------------


def test_two_players_tricks_of_two_cards_calls_after_any_trick_and_no_asks():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C, 0 TD")
    assert state.current_player == 1 and len(state.observation(None)["trick"]) == 1
    run(state, "1 9D")
    assert state.observation(None)["tricks"][0]["winner"] == 0, "two cards make a trick"
    run(state, "0 AD, 1 7D")
    calls = {a for a in legal(state) if not a.startswith("play")}
    assert calls == {"declare S", "declare H"}, "declare only: nobody to ask"
    assert_illegal(state, "ask whole", "there are no partners in this game")
    # a call after winning a trick the other player led, too
    state = two().new_hand(deal=LAPARI_DEAL, dealer=1)
    run(state, "1 bid 50, 0 pass, 1 pass, 1 discard 7C 6C 9D, 1 9S")
    assert legal_plays(state) == {"AS", "TS", "KS", "QS", "JS"}, "beat the 9S"
    run(state, "0 AS")
    assert {a for a in legal(state) if not a.startswith("play")} == {"declare S", "declare H"}


def test_two_players_first_trick_ace_shows_with_the_ace_dead_binds_nobody():
    game = two(first_trick="ace_shows", forced_opening=False, all_pass="no_contract")
    state = game.new_hand(deal=DEAD_ACE_DEAL, dealer=0)
    run(state, "0 pass, 1 pass")
    assert state.declarer is None and state.current_player == 1
    assert legal_plays(state) == {"TS", "8S", "7S", "6S"}, "no ace: a spade"
    run(state, "1 6S")
    assert legal_plays(state) == {"KS", "QS", "9S"}, "the AS is dead: seat 0 need only beat the 6S"
    run(state, "0 9S")
    assert state.observation(None)["tricks"][0]["winner"] == 0


def test_two_players_example_22_the_ace_in_the_dead_hand():
    state = tt.new_game("huutopussi", preset="rules_2002_two").new_hand(deal=DEAD_ACE_DEAL, dealer=0)
    run(state, "1 pass, 0 pass")
    assert state.declarer is None and state.current_player == 1
    assert state.observation(0)["kitty"] == state.observation(1)["kitty"] == ["QC", "JC", "8C"]
    assert_illegal(state, "play TH", "the first lead must be an ace, else spades")
    run(state, "1 6S")
    assert legal_plays(state) == {"KS", "QS", "9S"}
    run(state, "0 9S")
    assert state.observation(None)["tricks"][0]["winner"] == 0
    # the same lead with the AS in seat 0's hand (swapped for his 9S, which goes to the dead hand)
    deal = [DEAD_ACE_DEAL[0].replace("9S", "AS"), DEAD_ACE_DEAL[1], DEAD_ACE_DEAL[2].replace("AS", "9S"),
            DEAD_ACE_DEAL[3]]
    state = tt.new_game("huutopussi", preset="rules_2002_two").new_hand(deal=check_deal(deal), dealer=0)
    run(state, "1 pass, 0 pass, 1 6S")
    assert legal_plays(state) == {"AS"}, "the ace of the suit led, in a hand, must show"


def test_two_players_random_play_follows_the_rules():
    variants = ({}, {"kitty": 6, "kitty_shown": False}, {"card_values": "pips", "defender_rounding": True})
    for options in variants:
        game = two(**options)
        for seed in range(3):
            state = game.new_match(seed=seed)
            drive(state, random.Random(seed), max_hands=6)
            check_results(state)
    state = tt.new_game("huutopussi", preset="rules_2002_two").new_match(seed=4)
    drive(state, random.Random(4), max_hands=8)
    check_results(state)


# -- the läpäri ------------------------------------------------------------------------------------------


def test_two_players_lapari_example_21_the_declarer_collects_160_and_his_marriages():
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 raise 300, 0 discard JH 7C 6C")
    run(state, "0 AS, 1 6S, 0 declare S, 0 TS, 1 7S, 0 KS, 1 8S, 0 QS, 1 9S, 0 JS, 1 9D, 0 declare H")
    run(state, "0 AH, 1 6H, 0 TH, 1 7H, 0 KH, 1 8H, 0 QH, 1 9H, 0 AD, 1 8D, 0 TD, 1 7D")
    r = result(state)
    assert r["tricks_won"] == [11, 0] and r["lapari"] == 0
    # 85 card points in play, 20, 140 in marriages and the discard's 5 would make 250: the läpäri
    # counts the deck's 140 instead (the dead hand's 50 and the discard's 5 included, once)
    assert r["collected"] == [140 + 20 + 140, 0]
    assert r["made"] and r["points"] == [300, -50], "seat 1 took no trick: minus the opening bid"
    check_results(state)


def test_two_players_lapari_the_defender_collects_it_too():
    deal = check_deal(["9S 8S 7S 6S 9H 8H 7H 6H 9D 8D 7D", "AS TS KS QS JS AH TH KH QH AD TD",
                       "KD QD JD 6D AC TC KC QC JC 9C 8C", "JH 7C 6C"])
    state = two().new_hand(deal=deal, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = result(state)
    assert r["lapari"] == 1 and r["tricks_won"] == [0, 11]
    marriages = sum(v for seat, _, v in r["marriages"] if seat == 1)
    assert r["collected"] == [5, 160 + marriages], "the declarer's discard still counts for him"
    assert r["points"] == [-50 - 50, 160 + marriages]
    check_results(state)
    state = two(discard_needs_trick=True).new_hand(deal=deal, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    assert result(state)["collected"][0] == 0
    check_results(state)


def test_two_players_lapari_without_a_contract_and_with_pips():
    game = tt.new_game("huutopussi", preset="rules_2002_two")
    state = game.new_hand(deal=LAPARI_DEAL, dealer=1)
    run(state, "0 pass, 1 pass")
    assert state.declarer is None and state.current_player == 0
    run(state, "0 AS, 1 6S, 0 declare S, 0 TS, 1 7S, 0 KS, 1 8S, 0 QS, 1 9S, 0 JS, 1 9D, 0 declare H")
    run(state, "0 AH, 1 6H, 0 TH, 1 7H, 0 KH, 1 8H, 0 QH, 1 9H, 0 AD, 1 8D, 0 TD, 1 7D")
    r = result(state)
    # pips: 120 card points in the deck and the last trick's 20, though only 71 were in play
    assert r["lapari"] == 0 and r["collected"] == [140 + 140, 0]
    assert r["points"] == [280, 0], "no contract: nobody pays"
    check_results(state)


def test_two_players_lapari_is_only_every_trick():
    state = two().new_hand(deal=DEAD_ACE_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard QC JC 8C, 0 9S")
    assert state.all_tricks_by() is None
    run(state, "1 TS")
    assert state.all_tricks_by() == 1
    run(state, "1 6C, 0 9C")
    assert state.all_tricks_by() is None
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = result(state)
    assert r["lapari"] is None and 0 not in r["tricks_won"]
    check_results(state)


# -- the match and the presets ---------------------------------------------------------------------------


def test_two_players_match_end_the_first_to_500():
    game = two()
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0, scores=[250, 480])
    run(state, "0 bid 50, 1 pass, 0 raise 300, 0 discard JH 7C 6C")
    run(state, "0 AS, 1 6S, 0 declare S, 0 TS, 1 7S, 0 KS, 1 8S, 0 QS, 1 9S, 0 JS, 1 9D, 0 declare H")
    run(state, "0 AH, 1 6H, 0 TH, 1 7H, 0 KH, 1 8H, 0 QH, 1 9H, 0 AD, 1 8D, 0 TD, 1 7D")
    assert state.scores == (550, 430) and state.winner == 0 and state.is_over()


def test_preset_rules_2002_two_is_the_2002_ruleset_for_two():
    game = tt.new_game("huutopussi", preset="rules_2002_two")
    three = tt.new_game("huutopussi", preset="rules_2002_three")
    assert game.num_players == 2 and game.max_bid == 420
    assert {k: v for k, v in game.options.items() if k != "players"} == {
        k: v for k, v in three.options.items() if k != "players"}
    assert tt.new_game("huutopussi", preset="two").options["players"] == 2
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0)
    assert state.current_player == 1, "the player left of the dealer (the other one) opens"
    assert "pass" in legal(state) and legal(state)[0] == "bid 60"


# -- records, the solver and the bots ----------------------------------------------------------------------


def test_two_players_records_load_and_replay():
    game = two(kitty=6)
    state = game.new_match(seed=11)
    drive(state, random.Random(11), max_hands=3, check=False)
    text = state.to_json()
    assert tt.load(text).to_json() == text
    check_results(tt.load(text))


def test_two_players_solver_values_match_minimax_where_the_lapari_is_open():
    changed = 0
    for options in ({}, {"preset": "rules_2002_two"},
                    {"forced_opening": False, "all_pass": "no_contract"}, {"kitty": 6, "kitty_shown": False}):
        game = tt.new_game("huutopussi", **({"players": 2} | options))
        for state in sweep_endgames(game, 12, 4):
            expected = minimax_values(state, marriage_solver.objective, marriage_solver.side_of)
            solution = solve(state)
            assert solution.values == expected, state.to_json()
            pos = marriage_solver.position(state)
            bonus = int(pos.rules[K.R_SWEEP])
            assert bonus > 0
            pos.rules[K.R_SWEEP] = 0
            plain = shared_solver().values(pos)
            changed += plain != {pos.codes[a]: v for a, v in solution.values.items()}
    assert changed >= 5, "the läpäri's top-up should change the values of some endgames"


def test_two_players_the_kernel_steps_through_a_lapari():
    """Example 21 step by step: the kernel's gain on each move is what the engine's objective
    says, the last trick's gain included (the läpäri's top-up: the dead hand's 50 points)."""
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 raise 300, 0 discard JH 7C 6C")
    script = "AS 6S declare_S TS 7S KS 8S QS 9S JS 9D declare_H AH 6H TH 7H KH 8H QH 9H AD 8D TD 7D"
    gain = 0
    for word in script.split():
        text = word.replace("_", " ") if "_" in word else f"play {word}"
        action = next(a for a in state.legal_actions() if a.text == text)
        pos = marriage_solver.position(state)
        mover = state.current_player
        assert mover is not None
        # the dead hand's 50; for the defender the discard's 5 as well
        assert pos.rules[K.R_SWEEP] == (50 if mover == 0 else 50 + 5)
        before = marriage_solver.objective(state, mover, False)
        rows = np.zeros((2, K.ROW), dtype=np.int64)
        rows[0] = pos.row
        gain = K.apply(rows, 0, pos.codes[action], pos.rules, pos.cards, pos.suits, pos.stock)
        state.apply(action)
        finished = state.is_over()
        assert gain == marriage_solver.objective(state, mover, finished) - before, word
    assert gain == 0 and state.is_over(), "seat 1 gains nothing by the last card"
    # the last trick from seat 0's side: TD, 7D, the last trick's 20 and the läpäri's 50
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 raise 300, 0 discard JH 7C 6C")
    run(state, "0 AS, 1 6S, 0 declare S, 0 TS, 1 7S, 0 KS, 1 8S, 0 QS, 1 9S, 0 JS, 1 9D, 0 declare H")
    run(state, "0 AH, 1 6H, 0 TH, 1 7H, 0 KH, 1 8H, 0 QH, 1 9H, 0 AD, 1 8D")
    pos = marriage_solver.position(state)
    rows = np.zeros((3, K.ROW), dtype=np.int64)
    rows[0] = pos.row
    codes = {a.text: c for a, c in pos.codes.items()}
    first = K.apply(rows, 0, codes["play TD"], pos.rules, pos.cards, pos.suits, pos.stock)
    last = K.apply(rows, 1, int(marriage_solver.LAYOUT.index(
        tt.PIQUET_36.card("7D"))), pos.rules, pos.cards, pos.suits, pos.stock)
    assert (first, last) == (0, 10 + 20 + 50) and rows[2, K.F_DONE]
    assert solve(state).values == {a: 80 for a in state.legal_actions()}


def test_two_players_rules_bot_estimate_is_fitted_for_two():
    values = MARRIAGE_VALUES["spades_low"]
    strong = sum(c.mask for c in tt.PIQUET_36.cards_from_text(LAPARI_DEAL[0]))
    weak = sum(c.mask for c in tt.PIQUET_36.cards_from_text(LAPARI_DEAL[1]))
    assert estimate(strong, 2, values) > 200 > 100 > estimate(weak, 2, values)
    assert features(strong, values)[1] == 3, "three aces: the AC is dead"
    state = two().new_hand(deal=LAPARI_DEAL, dealer=1)
    bot = make_bot("rules", seed=1)
    run(state, "1 bid 50")
    bid = bot.act(view_of(state, 0))
    assert bid.kind == "bid", "a strong hand outbids the opening"
    run(state, f"0 {bid}, 1 pass")
    raised = bot.act(view_of(state, 0))
    assert raised.kind == "raise" and int(raised.args[0]) >= 150, "and raises to what it can make"
    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert bot.act(view_of(state, 1)).kind == "pass", "a hand of nines and below passes"


@pytest.mark.parametrize("preset", ["two", "rules_2002_two"])
def test_two_players_bots_play_whole_matches(preset):
    game = tt.new_game("huutopussi", preset=preset)
    for seed in range(2):
        bots = [make_bot("rules", seed=seed), make_bot("pimc:worlds=3:max_candidates=3", seed=seed)]
        bots = bots if seed % 2 else bots[::-1]
        state = game.new_match(seed=seed)
        while not state.is_over() and state.hand_number < 40:
            seat = state.current_player
            state.apply(bots[seat].act(view_of(state, seat)))
        assert state.is_over()
        check_results(state)
        assert tt.load(state.to_json()).to_json() == state.to_json()
    state = game.new_hand(seed=5)
    random_bot = make_bot("random", seed=5)
    while not state.is_over():
        seat = state.current_player
        state.apply(random_bot.act(view_of(state, seat)))
    check_results(state)


# -- front ends: tricktaker rules, the terminal, a server table -------------------------------------------


def test_two_players_tricktaker_rules_tells_the_players_and_presets(capsys):
    from tricktaker import cli

    assert cli.main(["rules", "huutopussi"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "allowed: 4 | 3 | 2" in out and "third hand dead" in out
    assert "rules_2002_two players=2" in out and "two players=2" in out
    assert "läpäri" in out


def test_two_players_terminal_tells_the_dead_hand_and_the_lapari():
    from test_cli_huutopussi import Passer, session

    state = two().new_hand(deal=LAPARI_DEAL, dealer=1)
    out, _ = session(state, ["p"] + ["1"] * 30, seat=0, bot=lambda s: Passer())
    text = " ".join(out.replace("│", " ").split())
    assert "two players, each alone" in text and "a third hand of 11 dealt dead" in text
    assert "Läpäri You took every trick: all 160 card points" in text
    for card in LAPARI_DEAL[2].split():  # the dead hand is never shown to the person
        assert f" {card} " not in f" {text} ", card


def test_two_players_a_replay_shows_the_dead_hand(tmp_path, capsys):
    from tricktaker import cli

    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    path = tmp_path / "two.json"
    path.write_text(state.to_json())
    assert cli.main(["replay", str(path)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Dead hand ♠ — ♥ — ♦ K Q J 6 ♣ A K Q J T 9 8" in text and "Kitty JH 7C 6C" in text


@pytest.mark.parametrize("preset", ["two", "rules_2002_two"])
def test_two_players_a_person_plays_a_match_at_a_server_table(tmp_path, preset):
    """The lobby's two-seat table: a person (who passes when he can, so the 2002 preset has
    hands without a contract) against the rules bot, to the end of the match; the record
    replays and re-scores, and the last observation is the record's."""
    from server_helpers import play_to_end, running

    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create("huutopussi", ["human", "rules"], preset=preset)
        assert len(created["seats"]) == 2
        ws = srv.ws(created["id"])
        assert ws.join(created["seats"][0]["token"])["seat"] == 0
        last = play_to_end(ws, choose=lambda legal: "pass" if "pass" in legal else legal[len(legal) // 2])
        record = srv.http.get(f"/api/tables/{created['id']}/record")
        state = tt.load(record.text)
        assert state.is_over() and state.game.preset == preset and state.num_players == 2
        assert last["observation"] == state.observation(0)
        check_results(state)


def test_two_players_a_hand_review_keeps_every_position_hidden():
    """The solver's values depend on the dead hand (the läpäri's top-up), which nobody sees: the
    server's review (``only_public``) computes none of a two-player hand's positions."""
    from tricktaker.analysis import analyse_hand

    state = two().new_hand(deal=LAPARI_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass, 0 discard JH 7C 6C")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    review = analyse_hand(state.to_json(), 0, time_limit=1.0, par=False, only_public=True)
    assert review.decisions and all(d.status == "hidden" and not d.values for d in review.decisions)


def test_two_players_a_duplicate_set_plays_its_boards(tmp_path):
    """A duplicate set of Huutopussi for two: an entrant plays each board (a single hand against
    the bot) and gets a result; the boards' records re-score by the rules."""
    from server_helpers import play_to_end, running

    with running(str(tmp_path / "t.db")) as srv:
        made = srv.http.post("/api/duplicate/sets", json={"game": "huutopussi", "boards": 2,
                                                          "preset": "rules_2002_two"})
        assert made.status_code == 201, made.text
        entry = srv.http.post(f"/api/duplicate/sets/{made.json()['id']}/entries", json={"nickname": "Aino"})
        assert entry.status_code == 201, entry.text
        token = entry.json()
        for _ in range(2):
            board = srv.http.post(f"/api/duplicate/entries/{token['entry']}/next",
                                  json={"token": token["token"]})
            assert board.status_code == 200, board.text
            ws = srv.ws(board.json()["table"])
            ws.join(token["token"])
            play_to_end(ws, lambda legal: "pass" if "pass" in legal else legal[0])
            ws.close()
            state = tt.load(srv.http.get(f"/api/tables/{board.json()['table']}/record").text)
            assert state.num_players == 2 and state.is_over() and state.game.preset == "rules_2002_two"
            check_results(state)


def test_two_players_worlds_with_a_hidden_kitty_of_six():
    """kitty=6, kitty_shown off: the defender never saw the kitty, so in his worlds it is any six
    of the declarer's cards and discard, and the dead hand any ten of the rest; every world
    replays the hand (same actions, same legal moves for the defender)."""
    game = two(kitty=6, kitty_shown=False)
    state = game.new_hand(seed=3, dealer=0)
    run(state, "0 bid 50, 1 pass, 0 pass")
    state.apply(state.legal_actions()[0])  # the discard
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    assert state.observation(1)["kitty"] is None and state.phase == "play"
    piles_seen = set()
    for seed in range(30):
        world = state.sample_world(1, random.Random(seed))
        assert hand(world, 1) == hand(state, 1)
        texts = [a.text for a in world.history]
        assert texts[:3] == ["bid 50", "pass", "pass"] and texts[4:] == [a.text for a in state.history][4:]
        piles = json.loads(world.to_json())["hands"][0]["deal"]
        assert [len(p.split()) for p in piles] == [10, 10, 10, 6]
        obs = world.observation(0)
        declarers = hand(world, 0) | set(obs["discard"]) | {c for s, c in obs["trick"] if s == 0}
        declarers |= {c for t in obs["tricks"] for s, c in t["cards"] if s == 0}
        assert set(piles[3].split()) <= declarers, "the kitty is six of the declarer's cards"
        if world.current_player == 1:
            assert legal(world) == legal(state)
        piles_seen.add(piles[2])
    assert len(piles_seen) > 20, "the dead hand is drawn anew in each world"


def test_two_players_bid_ban_below_zero_with_reopening():
    """rules_2002_two from scores 20 and -5: the player below 0 waits; if the other passes
    without a bid the auction reopens for him (from 60); if the other bids, he is declarer at
    once; both below 0: nobody waits."""
    game = tt.new_game("huutopussi", preset="rules_2002_two")
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0, scores=[20, -5])
    assert state.current_player == 0, "seat 1, left of the dealer, is under the ban and waits"
    run(state, "0 pass")
    assert state.current_player == 1 and legal(state)[0] == "bid 60" and "pass" in legal(state)
    run(state, "1 bid 60")
    assert state.declarer == 1 and state.contract == 60
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0, scores=[20, -5])
    run(state, "0 bid 60")
    assert state.declarer == 0, "seat 1 is never asked"
    state = game.new_hand(deal=LAPARI_DEAL, dealer=0, scores=[-20, -5])
    assert state.current_player == 1, "both under the ban: nobody waits"


def test_two_players_redeal_four_sixes_at_the_bid_and_after_the_kitty():
    """rules_2002_two: a player holding all four sixes may demand a new deal at his bidding turn,
    and the declarer once the kitty has given him the fourth (before he leads)."""
    game = tt.new_game("huutopussi", preset="rules_2002_two")
    deal = check_deal(["AS TS KS QS JS AH TH KH QH AD TD", "6S 6H 6D 6C 9H 8H 7H 9D 8D 7D 9S",
                       "KD QD JD AC TC KC QC JC 9C 8C 7C", "JH 8S 7S"])
    state = game.new_hand(deal=deal, dealer=0)
    assert "redeal" in legal(state)
    run(state, "1 redeal")
    assert result(state)["redeal"] == 1 and result(state)["points"] == [0, 0]
    deal = check_deal(["AS TS KS QS JS AH TH KH QH AD TD", "6S 6H 6D 9C 9H 8H 7H 9D 8D 7D 9S",
                       "KD QD JD AC TC KC QC JC 8C 7C 6C", "JH 8S 7S"])
    kitty_six = [deal[0], deal[1], deal[2].replace("6C", "7S"), "JH 8S 6C"]
    state = game.new_hand(deal=check_deal(kitty_six), dealer=0)
    assert "redeal" not in legal(state), "three sixes are not enough in the 2002 rules"
    run(state, "1 bid 60, 0 pass")
    assert "redeal" in legal(state), "the kitty's 6C makes four"
    run(state, "1 redeal")
    assert result(state)["redeal"] == 1
