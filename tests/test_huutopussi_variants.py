"""Huutopussi rule variants from PoggersOy/huutopussi's ruleset (issue 24), one test per rule.

The options: ``opener`` (who opens the auction), ``forced_opening`` (must he bid),
``redeal_hand`` (which hands may demand a new deal) and ``bid_ban`` (the score at which a side
may no longer bid).  The worked examples are those of ``docs/rules/huutopussi.md``
("Variants from PoggersOy/huutopussi").
"""

from __future__ import annotations

import json
import random

import pytest
from huutopussi_helpers import (
    FOUR_SIXES_DEAL,
    SIXES_DEAL,
    assert_illegal,
    check_deal,
    check_results,
    huutopussi,
    legal,
    run,
    suit_deal,
)

import tricktaker as tt
from tricktaker.bots import make_bot, view_of

SUIT_DEAL = suit_deal()
# seat 1 holds nothing above the jack (and no six)
LOW_DEAL = check_deal(["AS KS QS TS 6S AH KH QH TH", "JS 9S 8S 7S JH 9H 8H 7H JD",
                       "6H AD KD QD TD 9D 8D 7D 6D", "AC KC QC JC TC 9C 8C 7C 6C"])


# -- opener ------------------------------------------------------------------------------------


def test_opener_left_of_dealer_opens_and_may_not_pass():
    state = huutopussi(opener="left_of_dealer").new_hand(deal=SUIT_DEAL, dealer=3)
    assert state.current_player == 0
    assert "pass" not in legal(state) and legal(state)[0] == "bid 50"
    assert_illegal(state, "pass", "the player left of the dealer must open the bidding at 50 or more")
    run(state, "0 bid 50, 1 bid 60, 2 pass, 3 pass, 0 pass")
    assert state.declarer == 1 and state.contract == 60


def test_opener_left_of_dealer_three_players():
    state = huutopussi(players=3, opener="left_of_dealer").new_match(seed=4, dealer=2)
    assert state.current_player == 0 and "pass" not in legal(state)


def test_opener_left_of_dealer_banned_side_still_opens_at_exactly_50():
    state = huutopussi(opener="left_of_dealer").new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -500])
    assert legal(state) == ["bid 50"]
    assert_illegal(state, "bid 55", "seat 1's side is at -500 or below and may not bid",
                   "the player left of the dealer opens at 50")


# -- forced_opening ----------------------------------------------------------------------------


def test_forced_opening_off_the_opener_may_pass():
    state = huutopussi(forced_opening=False).new_hand(deal=SUIT_DEAL, dealer=0)
    assert legal(state)[-1] == "pass" and "bid 50" in legal(state)
    run(state, "0 pass, 1 bid 50, 2 pass, 3 pass")
    assert state.declarer == 1 and state.contract == 50 and state.phase == "give"


def test_forced_opening_off_the_last_player_left_without_a_bid_must_open():
    state = huutopussi(forced_opening=False, opener="left_of_dealer").new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "1 pass, 2 pass, 3 pass")
    assert state.current_player == 0 and state.phase == "bid" and state.declarer is None
    assert "pass" not in legal(state)
    assert_illegal(state, "pass", "the last player left must open the bidding at 50 or more")
    run(state, "0 bid 70")
    assert state.declarer == 0 and state.contract == 70 and state.current_player == 2


def test_forced_opening_off_a_banned_last_player_opens_at_exactly_50():
    state = huutopussi(forced_opening=False).new_hand(deal=SUIT_DEAL, dealer=1, scores=[0, -600])
    assert legal(state) == ["pass"], "banned and not forced: only a pass"
    run(state, "1 pass, 2 pass, 3 pass")
    assert "pass" not in legal(state) and "bid 55" in legal(state), "seat 0 is forced, not banned"
    run(state, "0 bid 55")
    assert state.declarer == 0
    state = huutopussi(forced_opening=False).new_hand(deal=SUIT_DEAL, dealer=1, scores=[-600, 0])
    run(state, "1 pass, 2 pass, 3 pass")
    assert legal(state) == ["bid 50"], "seat 0 is banned but forced"


# -- redeal_hand -------------------------------------------------------------------------------


def test_redeal_hand_three_sixes_or_low_no_card_above_the_jack_may_redeal():
    game = huutopussi(redeal_hand="three_sixes_or_low")
    state = game.new_hand(deal=LOW_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert legal(state)[0] == "redeal"
    run(state, "1 redeal")
    assert state.is_over() and state.hand_points == (0, 0)
    assert set(state.observation(2)["shown"][1]) == set("JS 9S 8S 7S JH 9H 8H 7H JD".split()), \
        "the hand that proves the redeal is shown"
    # three sixes still count
    state = game.new_hand(deal=SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" in legal(state)
    # the default: a low hand is no reason
    state = huutopussi().new_hand(deal=LOW_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "holding three sixes")


def test_redeal_hand_four_sixes_three_are_not_enough():
    game = huutopussi(redeal_hand="four_sixes")
    state = game.new_hand(deal=SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" not in legal(state)
    assert_illegal(state, "redeal", "holding all four sixes")
    state = game.new_hand(deal=FOUR_SIXES_DEAL, dealer=0)
    run(state, "0 bid 50")
    assert "redeal" in legal(state)


# -- bid_ban -----------------------------------------------------------------------------------


def test_bid_ban_minus_250_a_side_at_250_may_not_bid():
    game = huutopussi(bid_ban=-250)
    state = game.new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -250])
    run(state, "0 bid 50")
    assert legal(state) == ["pass"]
    assert_illegal(state, "bid 55", "seat 1's side is at -250 or below and may not bid")
    state = game.new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -245])
    run(state, "0 bid 50")
    assert "bid 55" in legal(state)


def test_unknown_variant_values_are_refused():
    with pytest.raises(tt.OptionError):
        huutopussi(redeal_hand="two_sixes")
    with pytest.raises(tt.OptionError):
        huutopussi(bid_ban=-300)
    with pytest.raises(tt.OptionError):
        huutopussi(opener="right_of_dealer")


# -- everywhere: records, bots, the terminal -------------------------------------------------

VARIANT = {"opener": "left_of_dealer", "forced_opening": False, "redeal_hand": "three_sixes_or_low",
           "bid_ban": -250}


@pytest.mark.parametrize("players", [4, 3])
def test_variant_matches_with_the_rules_bot_replay_from_their_records(players):
    game = huutopussi(players=players, **VARIANT)
    bot = make_bot("rules", seed=5)
    state = game.new_match(seed=11)
    while not state.is_over() and state.hand_number < 6:
        action = bot.act(view_of(state, state.current_player))
        assert action in state.legal_actions()
        state.apply(action)
    check_results(state)
    data = state.to_json()
    assert json.loads(data)["options"]["opener"] == "left_of_dealer"
    assert tt.load(data).to_json() == data


def test_rules_bot_passes_a_weak_hand_without_a_forced_opening():
    state = huutopussi(forced_opening=False).new_hand(deal=LOW_DEAL, dealer=1)
    action = make_bot("rules", seed=0).act(view_of(state, 1))
    assert action.text == "pass"


def test_terminal_tells_the_variant_auction() -> None:
    """``tricktaker play``: who opens, that he may pass, the redeal hand and the ban, from the engine."""
    from test_cli_huutopussi import Passer, session

    game = huutopussi(opener="left_of_dealer", forced_opening=False, redeal_hand="three_sixes_or_low",
                      bid_ban=-250)
    state = game.new_hand(deal=LOW_DEAL, dealer=0, scores=[0, -250])
    out, prompts = session(state, ["p"], seat=1, bot=lambda s: Passer())
    text = " ".join(out.split())
    assert "Left of the dealer may" in text or "left of the dealer may" in text
    assert "You hold three sixes or no card above the jack: you may demand a new deal now (redeal)." in text
    assert "at -250 or below" in text
    assert prompts, "the person was asked"
    assert state.history[0].text == "pass"


# -- kitty, kitty_shown (three players) --------------------------------------------------------

# three players, a kitty of 6: 10 cards each
KITTY6_DEAL = ["AS TS KS QS JS AH TH KH QH JH", "9S 8S 7S 6S 9H 8H 7H 6H AD TD",
               "KD QD JD 9D 8D 7D 6D AC TC KC", "QC JC 9C 8C 7C 6C"]


def kitty6_state(**options) -> tt.State:
    game = huutopussi(players=3, kitty=6, **options)
    return game.new_hand(deal=KITTY6_DEAL, dealer=0)


def test_kitty_6_deals_ten_cards_each_and_the_declarer_discards_six():
    state = kitty6_state()
    assert [len(state.hand(s)) for s in range(3)] == [10, 10, 10]
    run(state, "0 bid 50, 1 pass, 2 pass")
    assert state.declarer == 0 and len(state.hand(0)) == 16
    assert state.observation(1)["kitty"] == ["QC", "JC", "9C", "8C", "7C", "6C"]
    run(state, "0 pass")
    assert_illegal(state, "discard JS JH 9C", "discard exactly 6 cards, not 3")
    assert_illegal(state, "discard AS JS JH 9C 8C 7C", "aces and tens may not be discarded: AS")
    run(state, "0 discard JS JH QC JC 9C 8C")
    assert len(state.hand(0)) == 10 and state.phase == "play" and state.current_player == 0
    assert state.observation(0)["discard"] == ["JS", "JH", "QC", "JC", "9C", "8C"]
    assert state.observation(1)["discard"] is None
    # play the hand out: ten tricks; the discard's 20 points (JS JH QC JC, five each) are seat 0's
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert sum(r["tricks_won"]) == 10
    assert sum(r["collected"]) == 160 + sum(v for _, _, v in r["marriages"])
    assert r["collected"][0] >= 20 and r["discard"] == "JS JH QC JC 9C 8C"
    check_results(state)


def test_kitty_6_a_deal_must_be_three_tens_and_six():
    with pytest.raises(ValueError, match="10|6"):
        huutopussi(players=3, kitty=6).new_hand(deal=KITTY6_DEAL[:3] + ["QC JC 9C"] + [], dealer=0)


def test_kitty_shown_off_only_the_declarer_sees_the_kitty():
    state = kitty6_state(kitty_shown=False)
    run(state, "0 bid 50, 1 pass, 2 pass")
    assert state.observation(0)["kitty"] == ["QC", "JC", "9C", "8C", "7C", "6C"]
    for seat in (1, 2, None):
        obs = state.observation(seat)
        assert obs["kitty"] is None
        if seat is not None:
            assert "QC" not in json.dumps({k: v for k, v in obs.items() if k != "hand"})


def test_kitty_shown_off_worlds_of_a_defender_draw_the_kitty_anew():
    state = kitty6_state(kitty_shown=False)
    run(state, "0 bid 50, 1 pass, 2 pass, 0 pass, 0 discard JS JH QC JC 9C 8C")
    kitties = set()
    for k in range(12):
        world = state.sample_world(1, random.Random(k))
        assert world.observation(1) == state.observation(1)
        deal = json.loads(world.to_json())["hands"][0]["deal"]
        kitty = set(deal[3].split())
        declarer_cards = {c.text for c in world.hand(0)} | set(world.observation(0)["discard"])
        assert len(kitty) == 6 and kitty <= declarer_cards
        kitties.add(frozenset(kitty))
    assert len(kitties) > 1, "an unseen kitty is not known"
    # shown: every world keeps it
    shown = kitty6_state()
    run(shown, "0 bid 50, 1 pass, 2 pass, 0 pass, 0 discard JS JH QC JC 9C 8C")
    for k in range(5):
        deal = json.loads(shown.sample_world(1, random.Random(k)).to_json())["hands"][0]["deal"]
        assert deal[3].split() == KITTY6_DEAL[3].split()


def test_kitty_options_are_for_three_players_only():
    with pytest.raises(tt.OptionError, match="three players only"):
        huutopussi(kitty=6)
    with pytest.raises(tt.OptionError, match="three players only"):
        huutopussi(kitty_shown=False)
    with pytest.raises(tt.OptionError):
        huutopussi(players=3, kitty=4)


def test_kitty_6_hidden_with_the_rules_bot_and_pimc():
    game = huutopussi(players=3, kitty=6, kitty_shown=False)
    bots = [make_bot("pimc:worlds=2:max_candidates=3", seed=1), make_bot("rules", seed=2),
            make_bot("rules", seed=3)]
    state = game.new_hand(seed=21, dealer=2)
    while not state.is_over():
        seat = state.current_player
        action = bots[seat].act(view_of(state, seat))
        assert action in state.legal_actions()
        state.apply(action)
    check_results(state)
    assert tt.load(state.to_json()).to_json() == state.to_json()


def test_terminal_tells_a_hidden_kitty_of_six() -> None:
    from test_cli_huutopussi import Passer, session

    state = kitty6_state(kitty_shown=False)
    out, _ = session(state, ["p"], seat=1, bot=lambda s: Passer())
    text = " ".join(out.split())
    assert "10 cards each and a kitty of 6 for the declarer (seen only by him)" in text
    assert "The kitty: 6 cards, unseen" in text
    assert "discards 6 cards face down" in text


# -- ask_lockouts ------------------------------------------------------------------------------

# seat 0 (declarer) holds AS, AD, the heart marriage and KD; seat 2 no marriage (deal A) or the
# clubs marriage (deal B)
LOCK_A = check_deal(["AS 9S KH QH 6H AD KD 7D 6D", "KS JS 8S AH TH JH TD 8D QD",
                     "TS AC KC JC TC 9C 8C 7C 6C", "QS 7S 6S 9H 8H 7H JD 9D QC"])
LOCK_B = check_deal(["AS 9S KH QH 6H AD KD 7D 6D", "KS JS 8S AH TH JH TD 8D QD",
                     "TS AC KC QC TC 9C 8C 7C 6C", "QS 7S 6S 9H 8H 7H JD 9D JC"])
START = "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 6C 7C 8C, 0 pass, 0 give 6C 7C 8C, " \
        "0 play AS, 1 play 8S, 2 play TS, 3 play 6S"


def calls_after(lockouts: str, ask: str, **options) -> set[str]:
    """Deal A: seat 0 wins trick 1, makes ``ask`` (answered no), wins trick 2 with AD: his calls."""
    state = huutopussi(ask_lockouts=lockouts, **options).new_hand(deal=LOCK_A, dealer=0)
    run(state, f"{START}, 0 {ask}, 2 answer no, 0 play AD, 1 play 8D, 2 play 6C, 3 play 9D")
    assert state.current_player == 0
    return {a for a in legal(state) if not a.startswith("play")}


def test_ask_lockouts_none_leaves_every_call_open():
    assert calls_after("none", "ask whole") == {"declare H", "ask whole", "ask half D"}


def test_ask_lockouts_main_form_the_whole_asker_may_no_longer_declare():
    assert calls_after("main_form", "ask whole") == {"ask whole", "ask half D"}
    assert calls_after("main_form", "ask half D") == {"declare H", "ask whole", "ask half D"}
    state = huutopussi(ask_lockouts="main_form").new_hand(deal=LOCK_A, dealer=0)
    run(state, f"{START}, 0 ask whole, 2 answer no, 0 play AD, 1 play 8D, 2 play 6C, 3 play 9D")
    assert_illegal(state, "declare H", "seat 0 has asked for a whole and may no longer declare")


def test_ask_lockouts_main_form_the_partner_of_a_whole_asker_may_no_longer_ask_for_a_whole():
    def seat2_calls(lockouts: str) -> set[str]:
        state = huutopussi(ask_lockouts=lockouts, calls_after_any_trick=True).new_hand(deal=LOCK_B, dealer=0)
        run(state, f"{START}, 0 ask whole, 2 answer C, 0 play AD, 1 play 8D, 2 play 6C, 3 play 9D")
        assert state.current_player == 2 and state.trump == "C"
        return {a for a in legal(state) if not a.startswith("play")}

    assert seat2_calls("none") == {"ask whole"}
    assert seat2_calls("main_form") == set()
    assert seat2_calls("illisoft_2002") == {"ask whole"}, "2002: only a half locks the partner"


def test_ask_lockouts_illisoft_2002_any_ask_locks_declaring_and_a_half_locks_the_pair():
    assert calls_after("illisoft_2002", "ask whole") == {"ask whole", "ask half D"}
    assert calls_after("illisoft_2002", "ask half D") == {"ask half D"}
    state = huutopussi(ask_lockouts="illisoft_2002").new_hand(deal=LOCK_A, dealer=0)
    run(state, f"{START}, 0 ask half D, 2 answer no, 0 play AD, 1 play 8D, 2 play 6C, 3 play 9D")
    assert_illegal(state, "ask whole", "seat 0's side has asked for a half and may no longer ask for a whole")
    assert_illegal(state, "declare H", "may no longer declare from its own hand")


def test_ask_lockouts_change_nothing_for_three_players_who_cannot_ask():
    game = huutopussi(players=3, ask_lockouts="main_form")
    state = game.new_hand(deal=THREE_LOW_DEAL, dealer=2)
    run(state, "2 bid 50, 0 bid 60, 1 pass, 2 pass, 0 pass, 0 discard 9S 9H 9D")
    run(state, "0 play 6S, 1 play AS, 2 play 8C")
    assert legal(state)[-2:] == ["declare S", "declare H"], "declaring is open as ever"


@pytest.mark.parametrize("lockouts", ["main_form", "illisoft_2002"])
def test_ask_lockouts_the_solver_agrees_with_minimax_where_an_ask_was_made(lockouts):
    """The exact solver searches the lockouts (the kernel's call orders 3 and 4): its values equal
    a plain minimax over the engine in endgames after an ask, and in some of them the lockouts
    change the values (so they are searched, not ignored)."""
    from tricktaker.solver import marriages as marriage_solver
    from tricktaker.solver import solve
    from tricktaker.solver.reference import minimax_values

    game = huutopussi(ask_lockouts=lockouts, calls_after_any_trick=True)
    free = huutopussi(calls_after_any_trick=True)
    checked = differ = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        while not state.is_over():
            obs = state.observation(None)
            if (state.phase in ("play", "answer") and sum(obs["hand_sizes"]) <= 8
                    and any(t.startswith("ask") for _, t in obs["calls"])):
                break
            actions = state.legal_actions()
            calls = [a for a in actions if a.kind == "ask"]
            state.apply(calls[0] if calls and rng.random() < 0.7 else rng.choice(actions))
        if state.is_over():
            continue
        values = minimax_values(state, marriage_solver.objective, marriage_solver.side_of)
        assert solve(state).values == values
        data = json.loads(state.to_json())
        data["options"]["ask_lockouts"] = "none"
        unlocked = tt.load(json.dumps(data))
        assert unlocked.game.options == free.options
        if minimax_values(unlocked, marriage_solver.objective, marriage_solver.side_of) != values:
            differ += 1
        checked += 1
        if checked >= 10 and differ:
            break
    assert checked >= 10 and differ >= 1, (checked, differ)


# -- last_trick, declarer_no_trick, the main_form preset ------------------------------------------

# seat 0 (declarer) holds nothing; his partner seat 2 wins one trick with AS
NO_TRICK_DEAL = check_deal(["6H 7H 8H 6D 7D 8D 6C 7C 8C", "9H TS KS QS JS 9S AH TH KH",
                            "AS JH 9D JD 9C JC 6S 7S 8S", "QH AD TD KD QD AC TC KC QC"])


# three players: seat 0 holds every 6, 7 and 8 (and takes the kitty of nines): he takes no trick
THREE_LOW_DEAL = check_deal(["6S 7S 8S 6H 7H 8H 6D 7D 8D 6C 7C", "AS KS QS JS TS AH KH QH JH TH 9C",
                             "AD KD QD JD TD AC KC QC JC TC 8C", "9S 9H 9D"])


def no_trick_hand(raise_to: int | None = None, **options) -> tt.State:
    state = huutopussi(**options).new_hand(deal=NO_TRICK_DEAL, dealer=0)
    keep = f"raise {raise_to}" if raise_to else "pass"
    run(state, f"0 bid 60, 1 pass, 2 pass, 3 pass, 2 give 8S 7S 6S, 0 {keep}, 0 give 8S 7S 6S")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    return state


def test_declarer_no_trick_seat_double_the_declarer_himself_without_a_trick_loses_twice_the_bid():
    state = no_trick_hand(raise_to=80, declarer_no_trick="seat_double")
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert r["tricks_won"] == [1, 8], "his partner took a trick, he none"
    assert r["points"] == [-120, 130] and r["declarer_trickless"] is True and r["made"] is False
    check_results(state)
    # the default: the side took a trick, so only the failed contract counts
    state = no_trick_hand(raise_to=80)
    assert json.loads(state.to_json())["hands"][0]["result"]["points"] == [-80, 130]


def test_declarer_no_trick_seat_double_three_players_replaces_contract_and_opening_bid():
    for option, expected in (("side", -(70 + 60)), ("seat_double", -2 * 60)):
        state = huutopussi(players=3, declarer_no_trick=option).new_hand(deal=THREE_LOW_DEAL, dealer=2)
        run(state, "2 bid 50, 0 bid 60, 1 pass, 2 pass, 0 raise 70, 0 discard 9S 9H 9D")
        while not state.is_over():
            state.apply(state.legal_actions()[0])  # seat 1 takes every trick
        r = json.loads(state.to_json())["hands"][0]["result"]
        assert r["tricks_won"][0] == 0
        assert r["points"][0] == expected
        check_results(state)


def test_last_trick_10_makes_130_with_pips():
    game = huutopussi(card_values="pips", last_trick=10)
    assert game.max_bid == 120 + 10 + 280
    state = no_trick_hand(card_values="pips", last_trick=10)
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert sum(r["collected"]) == 130 + sum(v for _, _, v in r["marriages"])
    check_results(state)


def test_preset_main_form_is_poggersoy_huutopussi_main_form():
    game = tt.new_game("huutopussi", preset="main_form")
    o = game.options
    assert (o["opener"], o["forced_opening"], o["redeal_hand"], o["bid_ban"], o["card_values"],
            o["last_trick"], o["marriage_values"], o["exchange"], o["calls_after_any_trick"],
            o["ask_lockouts"], o["declarer_no_trick"]) == (
        "left_of_dealer", True, "three_sixes_or_low", -500, "pips", 10, "spades_low", 3, False,
        "main_form", "seat_double")
    assert game.max_bid == 410
    three = tt.new_game("huutopussi", preset="main_form", players=3)
    state = three.new_match(seed=3, dealer=0)
    assert state.current_player == 1 and "pass" not in legal(state)


def test_terminal_tells_the_declarer_without_a_trick() -> None:
    from test_cli_huutopussi import session

    state = huutopussi(declarer_no_trick="seat_double").new_hand(deal=NO_TRICK_DEAL, dealer=0)
    run(state, "0 bid 60, 1 pass, 2 pass, 3 pass, 2 give 8S 7S 6S, 0 pass, 0 give 8S 7S 6S")
    out, _ = session(state, ["1"] * 12, seat=0, bot=lambda s: make_bot("random", seed=s))
    text = " ".join(out.split())
    assert "You took no trick: -120, twice the opening bid" in text


# -- all_pass ------------------------------------------------------------------------------------


def no_contract_game(**options) -> tt.Game:
    return huutopussi(forced_opening=False, all_pass="no_contract", **options)


def test_all_pass_no_contract_the_hand_is_played_without_a_contract():
    state = no_contract_game().new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass")
    assert "pass" in legal(state), "the last player may pass too"
    run(state, "3 pass")
    assert state.phase == "play" and state.declarer is None and state.contract == 0
    assert state.current_player == 1, "the player left of the dealer leads"
    assert state.observation(2)["given"] is None
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert r["declarer"] is None and r["made"] is None and r["penalised"] == []
    assert r["points"] == r["collected"], "each side scores what it took"
    assert r["no_tricks"], "seat 1 runs his hearts: side 0 takes nothing and pays nothing"
    check_results(state)


def test_all_pass_no_contract_a_banned_side_passes_and_nobody_must_open():
    state = no_contract_game(bid_ban=-250).new_hand(deal=SUIT_DEAL, dealer=0, scores=[-300, -250])
    assert legal(state) == ["pass"]
    run(state, "0 pass, 1 pass, 2 pass, 3 pass")
    assert state.phase == "play" and state.declarer is None


def test_all_pass_needs_no_forced_opening():
    with pytest.raises(tt.OptionError, match="needs forced_opening off"):
        huutopussi(all_pass="no_contract")
    with pytest.raises(tt.OptionError, match="needs forced_opening off"):
        huutopussi(players=3, all_pass="no_contract")


def test_all_pass_no_contract_the_solver_and_the_bots_play_it():
    from tricktaker.solver import marriages as marriage_solver
    from tricktaker.solver import solve
    from tricktaker.solver.reference import minimax_values

    game = no_contract_game()
    state = game.new_hand(seed=5, dealer=3)
    run(state, "3 pass, 0 pass, 1 pass, 2 pass")
    rng = random.Random(3)
    while sum(state.observation(None)["hand_sizes"]) > 8:
        state.apply(rng.choice(state.legal_actions()))
    assert solve(state).values == minimax_values(state, marriage_solver.objective, marriage_solver.side_of)
    bots = [make_bot("pimc:worlds=2:max_candidates=3", seed=1), make_bot("rules", seed=2),
            make_bot("rules", seed=3), make_bot("random", seed=4)]
    state = game.new_match(seed=8)
    while not state.is_over() and state.hand_number < 3:
        seat = state.current_player
        state.apply(bots[seat].act(view_of(state, seat)))
    check_results(state)


def test_terminal_tells_a_hand_without_a_contract() -> None:
    from test_cli_huutopussi import Passer, session

    state = no_contract_game().new_hand(deal=SUIT_DEAL, dealer=3)
    out, _ = session(state, ["p"] + ["1"] * 12, seat=0, bot=lambda s: Passer())
    text = " ".join(out.split())
    assert "Nobody bid: the hand is played without a contract" in text
    assert "none: everyone passed" in text


# -- bid_ban_reopen --------------------------------------------------------------------------------


def reopen_game() -> tt.Game:
    return huutopussi(forced_opening=False, all_pass="no_contract", bid_ban_reopen=True,
                      opener="left_of_dealer")


def test_bid_ban_reopen_a_banned_side_waits_until_all_others_pass_then_bids():
    state = reopen_game().new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -600])
    assert state.current_player == 2, "seat 1 (left of the dealer) is banned and waits"
    run(state, "2 pass, 0 pass")
    assert state.phase == "bid" and state.current_player == 1, "the auction reopens from the dealer's left"
    assert "bid 70" in legal(state) and "pass" in legal(state)
    run(state, "1 bid 70, 3 pass")
    assert state.declarer == 1 and state.contract == 70


def test_bid_ban_reopen_a_bid_by_the_others_leaves_the_banned_side_out():
    state = reopen_game().new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -600])
    run(state, "2 bid 50, 0 pass")
    assert state.declarer == 2 and state.phase == "give", "seats 1 and 3 were never asked"


def test_bid_ban_reopen_every_side_banned_bids_normally_and_all_pass_is_no_contract():
    state = reopen_game().new_hand(deal=SUIT_DEAL, dealer=0, scores=[-600, -600])
    assert state.current_player == 1 and "bid 55" in legal(state)
    state = reopen_game().new_hand(deal=SUIT_DEAL, dealer=0, scores=[0, -600])
    run(state, "2 pass, 0 pass, 1 pass, 3 pass")
    assert state.phase == "play" and state.declarer is None


def test_bid_ban_reopen_needs_a_hand_without_contract():
    with pytest.raises(tt.OptionError, match="bid_ban_reopen needs all_pass no_contract"):
        huutopussi(forced_opening=False, bid_ban_reopen=True)


def test_terminal_tells_a_side_waiting_for_the_reopening() -> None:
    from test_cli_huutopussi import Passer, session

    state = reopen_game().new_hand(deal=SUIT_DEAL, dealer=3, scores=[0, -600])
    out, _ = session(state, ["p"], seat=0, bot=lambda s: Passer())
    assert "at -500 or below, asked only if" in out


# -- redeal_window -----------------------------------------------------------------------------------

# seat 0 holds two sixes; his partner seat 2 holds 6D and 6C
WINDOW_DEAL = check_deal(["AS KS QS JS TS 9S 8S 6S 6H", "AH KH QH JH TH 9H 8H 7H 7S",
                          "AD KD QD JD TD 9D 8D 6D 6C", "AC KC QC JC TC 9C 8C 7C 7D"])


def test_redeal_window_bid_and_exchange_the_declarer_may_redeal_after_the_gift():
    for window, offered in (("first_bid", False), ("bid_and_exchange", True)):
        state = huutopussi(redeal_window=window).new_hand(deal=WINDOW_DEAL, dealer=0)
        run(state, "0 bid 50, 1 pass, 2 pass, 3 pass")
        assert "redeal" not in legal(state), "the partner gives first"
        run(state, "2 give 9D 8D 6D")
        assert ("redeal" in legal(state)) == offered, window
    run(state, "0 redeal")
    assert state.is_over() and state.hand_points == (0, 0)
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert r["redeal"] == 0 and r["auction"] == [[0, "bid 50"], [1, "pass"], [2, "pass"], [3, "pass"]]
    assert {"6S", "6H", "6D"} <= set(state.observation(1)["shown"][0])
    check_results(state)


def test_redeal_window_first_bid_refuses_a_redeal_in_the_exchange():
    state = huutopussi().new_hand(deal=WINDOW_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 9D 8D 6D")
    assert_illegal(state, "redeal", "redeal is possible only at a player's first bid")


def test_terminal_offers_the_declarers_redeal_in_the_exchange() -> None:
    from test_cli_huutopussi import Passer, session

    deal = check_deal(["AS KS QS JS TS 9S 6D 6S 6H", "AH KH QH JH TH 9H 8H 7H 7S",
                       "AD KD QD JD TD 9D 8D 8S 6C", "AC KC QC JC TC 9C 8C 7C 7D"])
    state = huutopussi(redeal_window="bid_and_exchange").new_hand(deal=deal, dealer=0)
    out, prompts = session(state, ["50", "redeal"], seat=0, bot=lambda s: Passer())
    assert state.is_over() and json.loads(state.to_json())["hands"][0]["result"]["redeal"] == 0
    assert "demand a redeal" in " ".join(out.split())


def test_redeal_window_the_environment_offers_the_redeal_beside_the_card_picks():
    pytest.importorskip("numpy")
    from tricktaker.envs.session import Session

    state = huutopussi(redeal_window="bid_and_exchange").new_hand(deal=WINDOW_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 9D 8D 6D, 0 pass")
    session = Session(state)
    texts = [session.spec.action_texts[i] for i in session.legal()]
    assert "redeal" in texts and any(t.startswith("pick give") for t in texts)
    session.apply(session.spec.action_texts.index("redeal"))
    assert session.state.is_over()
    assert json.loads(session.state.to_json())["hands"][0]["result"]["redeal"] == 0


def test_declarer_no_trick_side_double_the_declarers_side_without_a_trick_loses_twice_the_contract():
    from test_huutopussi_rules import LOST_DEAL

    for rule, expected in (("side", -(80 + 50)), ("side_double", -2 * 80), ("seat_double", -2 * 50)):
        state = huutopussi(declarer_no_trick=rule).new_hand(deal=LOST_DEAL, dealer=0)
        run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 8S 7S 6S, 0 raise 80, 0 give 8S 7S 6S")
        while not state.is_over():
            state.apply(state.legal_actions()[0])
        r = json.loads(state.to_json())["hands"][0]["result"]
        assert r["tricks_won"] == [0, 9] and r["points"][0] == expected, rule
        check_results(state)
    # the side took a trick (seat 2's AS) though the declarer took none: side_double does not apply
    state = no_trick_hand(raise_to=80, declarer_no_trick="side_double")
    assert json.loads(state.to_json())["hands"][0]["result"]["points"] == [-80, 130]


# -- defender_rounding, discard_needs_trick --------------------------------------------------------


def test_defender_rounding_the_defenders_points_go_to_the_nearest_5():
    state = no_trick_hand(card_values="pips", defender_rounding=True)
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert r["collected"][1] % 5 != 0, "this hand needs rounding"
    assert r["points"][1] == 5 * round(r["collected"][1] / 5)
    assert r["points"][0] == -60, "the declarers' contract is not rounded"
    check_results(state)
    # a hand without a contract: every side rounded
    state = no_contract_game(card_values="pips", defender_rounding=True).new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "0 pass, 1 pass, 2 pass, 3 pass")
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    r = json.loads(state.to_json())["hands"][0]["result"]
    assert r["points"] == [5 * round(c / 5) for c in r["collected"]]
    check_results(state)


# three players: seat 0 holds the jack of diamonds and low cards only; the kitty is three nines
DISCARD_DEAL = check_deal(["6S 7S 8S 6H 7H 8H 6D 7D JD 6C 7C", "AS KS QS JS TS AH KH QH JH TH 9C",
                           "AD KD QD 8D TD AC KC QC JC TC 8C", "9S 9H 9D"])


def test_discard_needs_trick_a_declarer_without_a_trick_loses_his_discard():
    for needs, counted in ((False, 5), (True, 0)):
        state = huutopussi(players=3, discard_needs_trick=needs).new_hand(deal=DISCARD_DEAL, dealer=2)
        run(state, "2 bid 50, 0 bid 60, 1 pass, 2 pass, 0 pass, 0 discard JD 9S 9H")
        while not state.is_over():
            state.apply(state.legal_actions()[0])
        r = json.loads(state.to_json())["hands"][0]["result"]
        assert r["tricks_won"][0] == 0 and r["collected"][0] == counted, needs
        check_results(state)


# -- win_by, win_tie ---------------------------------------------------------------------------------


def trumps_hand_with(scores: list[int], **options) -> tt.State:
    """The rules tests' trumps hand (side 0 declares and makes 50, side 1 collects 45)."""
    from test_huutopussi_rules import TRUMPS_DEAL, TRUMPS_PLAY, play_first, solo

    state = solo(huutopussi(**options), TRUMPS_DEAL, "AD KD QD", scores=scores)
    run(state, TRUMPS_PLAY)
    play_first(state)
    assert state.hand_points == (50, 45)
    check_results(state)
    return state


def test_win_by_exceeding_reaching_500_is_not_enough():
    assert trumps_hand_with([450, 0]).winner == 0
    assert trumps_hand_with([450, 0], win_by="exceeding").winner is None
    assert trumps_hand_with([455, 0], win_by="exceeding").winner == 0
    with pytest.raises(tt.OptionError, match="at most 500"):
        huutopussi(win_by="exceeding").new_hand(seed=1, scores=[505, 0])
    huutopussi(win_by="exceeding").new_hand(seed=1, scores=[500, 0])  # 500 is not yet a win


def test_win_tie_declarer_the_declarers_win_a_double_crossing():
    # side 0 (declarers) reaches 500, side 1 reaches 515
    assert trumps_hand_with([450, 470]).winner == 1, "the higher score"
    assert trumps_hand_with([450, 470], win_tie="declarer").winner == 0, "the declarers"
    assert trumps_hand_with([450, 470], win_tie="declarer", win_by="exceeding").winner == 1, \
        "the declarers at 500 have not exceeded it"


# -- raise_when ----------------------------------------------------------------------------------------


def test_raise_when_after_exchange_the_declarer_raises_after_giving_back():
    state = huutopussi(raise_when="after_exchange").new_hand(deal=SUIT_DEAL, dealer=0)
    run(state, "0 bid 50, 1 pass, 2 pass, 3 pass, 2 give 8D 7D 6D")
    assert state.phase == "return" and state.current_player == 0
    assert_illegal(state, "raise 60", "not possible now")
    run(state, "0 give 8D 7D 6D")
    assert state.phase == "raise" and state.current_player == 0
    run(state, "0 raise 90")
    assert state.phase == "play" and state.current_player == 0 and state.contract == 90
    assert json.loads(state.to_json())["hands"][0]["actions"][4:7] == ["give 8D 7D 6D", "give 8D 7D 6D",
                                                                       "raise 90"]


def test_raise_when_after_exchange_three_players_raise_after_the_discard():
    from test_huutopussi_rules import THREE_DEAL

    state = huutopussi(players=3, raise_when="after_exchange").new_hand(deal=THREE_DEAL, dealer=2)
    run(state, "2 bid 50, 0 bid 60, 1 pass, 2 pass")
    assert state.phase == "discard"
    run(state, "0 discard 6H 7H JS")
    assert state.phase == "raise"
    run(state, "0 pass")
    assert state.phase == "play" and state.contract == 60


def test_raise_when_after_exchange_bots_and_terminal_play_it() -> None:
    from test_cli_huutopussi import Passer, session

    game = huutopussi(raise_when="after_exchange")
    bot = make_bot("rules", seed=4)
    state = game.new_match(seed=12)
    while not state.is_over() and state.hand_number < 3:
        state.apply(bot.act(view_of(state, state.current_player)))
    check_results(state)
    state = game.new_hand(deal=SUIT_DEAL, dealer=0)
    out, _ = session(state, ["50", "1 2 3", "keep"], seat=0, bot=lambda s: Passer())
    text = " ".join(out.split())
    assert "Then you may raise the contract." in text and "The exchange is done." in text
