"""Huutopussi: the 2002 ruleset of the illisoft program (PoggersOy/huutopussi's ``ILLISOFT_RULES``),
one test per rule, and the presets ``rules_2002`` and ``rules_2002_three``.

The options: ``min_bid`` (the lowest bid 60), ``bid_ban`` -1 (no bids below 0),
``first_trick`` ``ace_shows`` (lead an ace, else a spade; the holder of the led suit's ace
plays it), and ``all_pass`` ``no_contract`` with three players.  The worked examples are those
of ``docs/rules/huutopussi.md`` (examples 17 to 20).
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
    hand,
    huutopussi,
    legal,
    legal_plays,
    result,
    run,
    suit_deal,
)

import tricktaker as tt
from tricktaker.bots import make_bot, view_of
from tricktaker.solver import _points as K
from tricktaker.solver import marriages as marriage_solver
from tricktaker.solver import solve
from tricktaker.solver.reference import minimax_values

SUIT_DEAL = suit_deal()
ACELESS_LEADER = check_deal(["AS TS 8S 7S 6S AH TH 7H 6H", "KS QS JS 9S KH QH JH 9H 8H",
                             "AD TD KD QD JD 9D 8D 7D 6D", "AC TC KC QC JC 9C 8C 7C 6C"])
"""Seat 1 (left of dealer 0) holds no ace but four spades; seat 0 holds the AS."""
THREE_ACE_IN_KITTY = check_deal(["AS TS KS QS JS 9S 8S 7S 6S TH 7H", "KH QH JH 9H 8H KD QD JD 9D 8D 7D",
                                 "AD TD 6D AC TC KC QC JC 9C 8C 7C", "AH 6H 6C"])
"""Three players: seat 1 holds no ace and no spade; the AH is in the kitty."""


def ace_shows(**options: object) -> tt.Game:
    """A hand without a contract when everyone passes, and the 2002 first trick."""
    return huutopussi(forced_opening=False, all_pass="no_contract", first_trick="ace_shows", **options)


# -- min_bid --------------------------------------------------------------------------------------


def test_min_bid_60_is_the_lowest_bid_and_the_opening():
    state = huutopussi(min_bid=60).new_hand(deal=SUIT_DEAL, dealer=0)
    assert legal(state)[0] == "bid 60" and "bid 55" not in legal(state)
    assert_illegal(state, "bid 55", "cannot bid 55: bids go from 60 in fives", "the lowest bid is 60")
    assert_illegal(state, "pass", "the dealer must open the bidding at 60 or more")
    run(state, "0 bid 60, 1 bid 65, 2 pass, 3 pass, 0 pass")
    assert state.declarer == 1 and state.contract == 60 + 5


def test_min_bid_60_a_banned_forced_opener_opens_at_exactly_60():
    state = huutopussi(min_bid=60).new_hand(deal=SUIT_DEAL, dealer=0, scores=[-500, 0])
    assert legal(state) == ["bid 60"]
    assert_illegal(state, "bid 50", "seat 0's side is at -500 or below and may not bid",
                   "the dealer opens at 60")


# -- bid_ban below 0 ------------------------------------------------------------------------------


def test_bid_ban_below_zero_bans_any_negative_score():
    game = huutopussi(bid_ban=-1, card_values="pips")
    state = game.new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -3])
    run(state, "0 bid 50")
    assert legal(state) == ["pass"], "seat 1's side is at -3: below 0"
    assert_illegal(state, "bid 55", "seat 1's side is below 0 and may not bid")
    state = game.new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, 0])
    run(state, "0 bid 50")
    assert "bid 55" in legal(state), "a score of 0 may bid"


def test_bid_ban_below_zero_with_reopening_the_2002_auction():
    game = tt.new_game("huutopussi", preset="rules_2002")
    state = game.new_hand(deal=SUIT_DEAL, dealer=0, scores=[20, -5])
    assert state.current_player == 2, "seat 1 (left of the dealer) is below 0 and waits"
    run(state, "2 pass, 0 pass")
    assert state.current_player == 1 and legal(state)[0] == "bid 60", "reopened for the banned side"
    run(state, "1 pass, 3 pass")
    assert state.phase == "play" and state.declarer is None


# -- first_trick ace_shows ------------------------------------------------------------------------


def test_first_trick_lead_an_ace_else_a_spade():
    state = ace_shows().new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 3 pass")
    assert state.current_player == 1 and legal_plays(state) == {"AH"}, "he holds an ace: he leads it"
    state = ace_shows().new_hand(deal=ACELESS_LEADER, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 3 pass")
    assert legal_plays(state) == {"KS", "QS", "JS", "9S"}, "no ace: a spade"
    assert_illegal(state, "play KH", "the first lead must be an ace, else spades")
    state = ace_shows().new_hand(deal=suit_deal("H", "D", "S", "C"), dealer=0)
    state.apply("pass"), state.apply("pass"), state.apply("pass"), state.apply("pass")
    assert legal_plays(state) == {"AD"}


def test_first_trick_the_led_suits_ace_must_show():
    state = ace_shows().new_hand(deal=ACELESS_LEADER, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 3 pass, 1 9S, 2 6D, 3 6C")
    assert legal_plays(state) == {"AS"}, "seat 0 holds the AS: it must show"
    assert_illegal(state, "play TS", "the ace must show in the first trick", "seat 0 holds the AS")
    run(state, "0 AS")
    # trick 2 is free of it: seat 0 leads 6H, seat 1 need only beat it
    run(state, "0 6H")
    assert legal_plays(state) == {"KH", "QH", "JH", "9H", "8H"}
    plain = huutopussi(forced_opening=False, all_pass="no_contract").new_hand(deal=ACELESS_LEADER, dealer=0)
    run(plain, "0 pass, 1 pass, 2 pass, 3 pass, 1 9S, 2 6D, 3 6C")
    assert legal_plays(plain) == {"AS", "TS"}, "without the option: beat the 9S"


def test_first_trick_an_ace_led_binds_nobody():
    state = ace_shows().new_hand(deal=ACELESS_LEADER, dealer=3)
    run(state, "3 pass, 0 pass, 1 pass, 2 pass")
    assert state.current_player == 0 and legal_plays(state) == {"AS", "AH"}
    run(state, "0 AH")
    assert legal_plays(state) == {"KH", "QH", "JH", "9H", "8H"}, "follow and beat, nothing more"


def test_first_trick_with_the_ace_in_the_kitty_nobody_is_bound():
    game = ace_shows(players=3)
    state = game.new_hand(deal=THREE_ACE_IN_KITTY, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass")
    assert state.current_player == 1 and len(legal_plays(state)) == 11, "no ace, no spade: any card"
    run(state, "1 8H, 2 6D")
    assert legal_plays(state) == {"TH"}, "the AH is in the kitty: seat 0 just has to beat the 8H"


def test_first_trick_the_declarer_leads_by_it_after_the_exchange():
    game = huutopussi(first_trick="ace_shows")
    state = game.new_hand(deal=ACELESS_LEADER, dealer=1)
    run(state, "1 bid 50, 2 pass, 3 pass, 0 pass, 3 give AC TC KC, 1 pass, 1 give 9S 8H 9H")
    assert state.current_player == 1 and legal_plays(state) == {"AC"}, "the ace he was given"


def test_first_trick_worlds_keep_what_the_duty_showed():
    deal = check_deal(["AS 8S 7S 6S 6D AH TH 7H 6H", "KS QS JS 9S KH QH JH 9H 8H",
                       "AD TD KD QD JD 9D 8D 7D TS", "AC TC KC QC JC 9C 8C 7C 6C"])
    script = "0 pass, 1 pass, 2 pass, 3 pass, 1 9S, 2 TS"
    state = ace_shows().new_hand(deal=deal, dealer=0)
    run(state, script)
    holders = set()
    for seed in range(40):
        world = state.sample_world(3, random.Random(seed))
        assert not hand(world, 1) & {"AS", "AH", "AD", "AC"}, "the leader led a spade: he holds no ace"
        holders |= {s for s in range(4) if "AS" in hand(world, s)}
    assert holders == {0}, "seat 2 beat the 9S with the TS, not the ace: he holds no AS"
    plain = huutopussi(forced_opening=False, all_pass="no_contract").new_hand(deal=deal, dealer=0)
    run(plain, script)
    worlds = [plain.sample_world(3, random.Random(seed)) for seed in range(40)]
    holders = {s for world in worlds for s in range(4) if "AS" in hand(world, s)}
    assert 2 in holders, "without the rule the TS could be played holding the AS"


# -- the kernel against the engine where the duty binds --------------------------------------------


def aceless_leader_deals(game: tt.Game, count: int, seed: int) -> list[list[str]]:
    """Random deals where seat 1 (who leads a hand without a contract when seat 0 deals) holds no
    ace: his aces are swapped with other seats' non-aces."""
    rng = random.Random(seed)
    n = game.num_players
    out = []
    for _ in range(count):
        cards = [c.text for c in tt.PIQUET_36.cards]
        rng.shuffle(cards)
        size = (36 - game.kitty_size) // n
        piles = [cards[k * size:(k + 1) * size] for k in range(n)]
        if n == 3:
            piles.append(cards[3 * size:])
        for i, card in enumerate(piles[1]):
            if card[0] == "A":
                other = rng.choice([k for k in range(len(piles)) if k != 1])
                j = next(j for j, c in enumerate(piles[other]) if c[0] != "A")
                piles[1][i], piles[other][j] = piles[other][j], card
        out.append(check_deal([" ".join(p) for p in piles]))
    return out


@pytest.mark.parametrize("players", [4, 3])
def test_first_trick_ace_shows_the_kernel_steps_follow_the_engine(players):
    """Through the first trick of hands without a contract whose leader holds no ace (so the led
    card is never an ace): the kernel's legal moves are the engine's at every step, and where a
    follower holds the led suit's ace both allow that ace alone."""
    from test_solver_points import fields, kernel_moves

    game = ace_shows(players=players)
    bound = 0
    for k, deal in enumerate(aceless_leader_deals(game, 30, seed=players)):
        rng = random.Random(k)
        state = game.new_hand(deal=deal, dealer=0)
        for _ in range(players):
            state.apply("pass")
        while not state.observation(None)["tricks"]:
            pos = marriage_solver.position(state)
            assert set(kernel_moves(pos)) == set(pos.codes.values())
            seat = state.current_player
            trick = state.observation(None)["trick"]
            if trick and "A" + trick[0][1][1] in hand(state, seat):
                assert legal_plays(state) == {"A" + trick[0][1][1]}
                bound += 1
            action = rng.choice(state.legal_actions())
            rows = np.zeros((2, K.ROW), dtype=np.int64)
            rows[0] = pos.row
            K.apply(rows, 0, pos.codes[action], pos.rules, pos.cards, pos.suits, pos.stock)
            state.apply(action)
            after = marriage_solver.position(state)
            assert fields(pos, rows[1]) == fields(after, after.row), action
            assert set(kernel_moves(pos, rows[1])) == set(after.codes.values()), action
    assert bound >= 10, f"the duty bound only {bound} times"


def test_first_trick_ace_shows_the_solver_gives_a_bound_follower_only_his_ace():
    state = ace_shows().new_hand(deal=ACELESS_LEADER, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 3 pass, 1 9S, 2 6D, 3 6C")
    assert [a.text for a in solve(state).values] == ["play AS"]


# -- all_pass no_contract with three players ---------------------------------------------------------


def test_all_pass_no_contract_three_players_the_kitty_stays_out_of_play():
    game = huutopussi(players=3, forced_opening=False, all_pass="no_contract")
    state = game.new_hand(deal=THREE_ACE_IN_KITTY, dealer=0)
    assert state.observation(1)["kitty"] is None
    run(state, "0 pass, 1 pass")
    assert "pass" in legal(state), "the last player may pass too"
    run(state, "2 pass")
    assert state.phase == "play" and state.declarer is None and state.current_player == 1
    assert all(state.observation(s)["kitty"] == ["AH", "6H", "6C"] for s in (0, 1, 2, None))
    assert state.observation(1)["discard"] is None
    for seed in range(10):
        world = state.sample_world(2, random.Random(seed))
        assert not {"AH", "6H", "6C"} & (hand(world, 0) | hand(world, 1)), "the kitty shown is nobody's"
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = result(state)
    assert r["declarer"] is None and r["made"] is None and r["penalised"] == [] and r["discard"] is None
    assert r["points"] == r["collected"]
    assert sum(r["collected"]) == 160 - 10 + sum(v for _, _, v in r["marriages"]), "the AH (10) is out"
    check_results(state)
    assert tt.load(state.to_json()).to_json() == state.to_json()


def test_all_pass_no_contract_three_players_a_hidden_kitty_is_seen_by_nobody():
    game = huutopussi(players=3, forced_opening=False, all_pass="no_contract", kitty_shown=False)
    state = game.new_hand(deal=THREE_ACE_IN_KITTY, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass")
    assert all(state.observation(s)["kitty"] is None for s in (0, 1, 2, None))
    seen = set()
    for seed in range(40):
        world = state.sample_world(2, random.Random(seed))
        seen |= hand(world, 1) & {"AH", "6H", "6C"}
        assert hand(world, 2) == hand(state, 2)
    assert seen, "in a seat's worlds the unseen kitty's cards may be in the other hands"


def test_all_pass_no_contract_three_players_solver_bots_and_terminal():
    game = huutopussi(players=3, forced_opening=False, all_pass="no_contract", card_values="pips")
    for seed in range(6):
        state = game.new_hand(seed=seed, dealer=seed % 3)
        for _ in range(3):
            state.apply("pass")
        rng = random.Random(seed)
        while sum(state.observation(None)["hand_sizes"]) > 8:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase == "play":
            values = minimax_values(state, marriage_solver.objective, marriage_solver.side_of)
            assert solve(state).values == values
    bots = [make_bot("pimc:worlds=2:max_candidates=3", seed=1), make_bot("rules", seed=2),
            make_bot("rules", seed=3)]
    state = game.new_match(seed=8)
    no_contract = 0
    while not state.is_over() and state.hand_number < 4:
        seat = state.current_player
        if state.phase == "bid":
            state.apply("pass")  # every hand without a contract
            continue
        state.apply(bots[seat].act(view_of(state, seat)))
        no_contract += state.phase == "play" and state.declarer is None
    assert no_contract
    check_results(state)


def test_terminal_tells_the_three_player_hand_without_a_contract():
    from test_cli_huutopussi import Passer, session

    game = huutopussi(players=3, forced_opening=False, all_pass="no_contract")
    state = game.new_hand(deal=THREE_ACE_IN_KITTY, dealer=2)
    out, _ = session(state, ["p"] + ["1"] * 12, seat=0, bot=lambda s: Passer())
    text = " ".join(out.split())
    assert "Nobody bid: the hand is played without a contract" in text
    assert "The kitty stays out of play" in text


# -- the presets ---------------------------------------------------------------------------------------


def test_preset_rules_2002_is_the_illisoft_2002_ruleset():
    game = tt.new_game("huutopussi", preset="rules_2002")
    o = game.options
    names = ("opener", "forced_opening", "min_bid", "all_pass", "bid_ban", "bid_ban_reopen",
             "card_values", "last_trick", "marriage_values", "exchange", "calls_after_any_trick",
             "raise_when", "redeal_hand", "redeal_window", "declarer_no_trick", "defender_rounding",
             "win_by", "win_tie", "ask_lockouts", "first_trick")
    assert tuple(o[name] for name in names) == (
        "left_of_dealer", False, 60, "no_contract", -1, True, "pips", 20, "spades_low", 4, True,
        "after_exchange", "four_sixes", "bid_and_exchange", "side_double", True, "exceeding", "declarer",
        "illisoft_2002", "ace_shows")
    assert game.max_bid == 420
    three = tt.new_game("huutopussi", preset="rules_2002_three")
    assert three.num_players == 3 and three.options["discard_needs_trick"]
    assert three.options["kitty"] == 3 and three.options["kitty_shown"]
    four_only = ("players", "exchange", "calls_after_any_trick", "ask_lockouts", "discard_needs_trick")
    assert {k: v for k, v in three.options.items() if k not in four_only} == {
        k: v for k, v in o.items() if k not in four_only}
    with pytest.raises(tt.OptionError, match="preset rules_2002_three"):
        tt.new_game("huutopussi", preset="rules_2002", players=3)


@pytest.mark.parametrize("preset", ["rules_2002", "rules_2002_three"])
def test_preset_rules_2002_bots_play_whole_matches(preset):
    game = tt.new_game("huutopussi", preset=preset)
    n = game.num_players
    for seed in range(2):
        bots = [make_bot("rules", seed=seed * 10 + s) for s in range(n)]
        bots[seed % n] = make_bot("pimc:worlds=2:max_candidates=3", seed=seed)
        state = game.new_match(seed=seed)
        while not state.is_over() and state.hand_number < 3:
            seat = state.current_player
            state.apply(bots[seat].act(view_of(state, seat)))
        check_results(state)
        assert tt.load(state.to_json()).to_json() == state.to_json()
        record = json.loads(state.to_json())
        assert record["preset"] == preset


def test_tricktaker_rules_tells_the_2002_options_and_presets(capsys):
    from tricktaker import cli

    assert cli.main(["rules", "huutopussi"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "min_bid = 50" in out and "allowed: 50 | 60" in out
    assert "allowed: -500 | -250 | -1" in out and "-1: below 0" in out
    assert 'first_trick = "free"' in out and "allowed: free | ace_shows" in out
    assert "rules_2002 players=4" in out and "rules_2002_three players=3" in out
    assert 'first_trick="ace_shows"' in out


def test_terminal_tells_the_2002_first_trick_and_lowest_bid():
    from test_cli_huutopussi import Passer, session

    state = ace_shows(min_bid=60, bid_ban=-1).new_hand(deal=ACELESS_LEADER, dealer=3, scores=[0, -5])
    out, _ = session(state, ["p"] + ["1"] * 12, seat=0, bot=lambda s: Passer())
    text = " ".join(out.replace("│", " ").split())
    assert "auction from 60 in fives" in text and "no bids below 0" in text
    assert "the first trick: lead an ace, else a spade" in text
    assert "You lead the first trick: an ace if you hold one, else a spade" in text


def test_all_pass_no_contract_three_players_example_20():
    game = ace_shows(players=3)
    state = game.new_hand(deal=THREE_ACE_IN_KITTY, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 1 8H, 2 6D")
    assert legal(state) == ["play TH"], "the AH is in the kitty: nobody shows it, seat 0 beats the 8H"
    run(state, "0 TH, 0 declare S")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = result(state)
    assert (r["collected"], r["points"], r["penalised"]) == ([190, 0, 0], [190, 0, 0], [])
    check_results(state)


@pytest.mark.parametrize("preset", ["rules_2002", "rules_2002_three"])
def test_preset_rules_2002_a_person_plays_a_match_at_a_server_table(tmp_path, preset):
    """The lobby's table with the preset: a person who passes when he can (so hands without a
    contract come up) against rules bots, to the end of the match; the record replays."""
    from server_helpers import play_to_end, running

    players = tt.new_game("huutopussi", preset=preset).num_players
    with running(str(tmp_path / "t.db")) as srv:
        created = srv.create("huutopussi", ["human"] + ["rules"] * (players - 1), preset=preset)
        ws = srv.ws(created["id"])
        assert ws.join(created["seats"][0]["token"])["seat"] == 0
        last = play_to_end(ws, choose=lambda legal: "pass" if "pass" in legal else legal[len(legal) // 2])
        record = srv.http.get(f"/api/tables/{created['id']}/record")
        state = tt.load(record.text)
        assert state.is_over() and state.game.preset == preset
        assert last["observation"] == state.observation(0)
        check_results(state)
