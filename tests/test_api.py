"""The State API contract (DESIGN.md, "The State API"), checked generically over every game."""

from __future__ import annotations

import json
import random

import pytest
from tuppi_helpers import fill_deal, hand_results, play_hand_random, play_random, snapshot

import tricktaker as tt
from tricktaker.engine import deal_from_seed

GAME_NAMES = sorted(tt.GAMES)


def states_in_every_phase(name: str, seed: int, count: int) -> list[tt.State]:
    """Random states of a game: ``count`` matches each cut at random points of random play."""
    rng = random.Random(seed)
    game = tt.new_game(name)
    out = []
    for k in range(count):
        state = game.new_match(seed=seed * 1000 + k)
        play_random(state, rng, max_actions=rng.randrange(0, 120))
        out.append(state)
    return out


# -- new_game ----------------------------------------------------------------------------


def test_new_game_unknown_name_raises_option_error_listing_games():
    with pytest.raises(tt.OptionError) as info:
        tt.new_game("bridge")
    assert isinstance(info.value, ValueError)
    for name in tt.GAMES:
        assert name in str(info.value)
    assert "'bridge'" in str(info.value)


def test_new_game_name_is_case_insensitive():
    assert tt.new_game("TUPPI").name == "tuppi"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_new_game_unknown_preset_raises_option_error_listing_presets(name):
    with pytest.raises(tt.OptionError) as info:
        tt.new_game(name, preset="no-such-preset")
    msg = str(info.value)
    assert "no-such-preset" in msg
    for preset in tt.GAMES[name].PRESETS:
        assert preset in msg


@pytest.mark.parametrize("name", GAME_NAMES)
def test_new_game_unknown_option_raises_option_error_listing_options(name):
    with pytest.raises(tt.OptionError) as info:
        tt.new_game(name, no_such_option=1)
    msg = str(info.value)
    assert "no_such_option" in msg
    for option in tt.GAMES[name].OPTIONS:
        assert option.name in msg


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"sooli": "yes"}, "sooli"),
        ({"sooli": 1}, "sooli"),
        ({"early_end": None}, "early_end"),
        ({"target": 0}, "target"),
        ({"target": -52}, "target"),
        ({"target": "52"}, "target"),
        ({"target": 52.0}, "target"),
        ({"target": True}, "target"),
        ({"hand_limit": 15}, "hand_limit"),
        ({"hand_limit": 25}, "hand_limit"),
        ({"hand_limit": -1}, "hand_limit"),
        ({"hand_limit": 1}, "hand_limit"),
    ],
)
def test_bad_option_values_raise_option_error_naming_the_option(options, fragment):
    with pytest.raises(tt.OptionError, match=fragment):
        tt.new_game("tuppi", **options)


def test_presets_set_options_and_explicit_options_override_presets():
    game = tt.new_game("tuppi", preset="tournament")
    assert game.options["sooli"] is False and game.options["bid_cards"] is True
    assert game.options["hand_limit"] == 20
    game = tt.new_game("tuppi", preset="tournament", hand_limit=16)
    assert game.options["hand_limit"] == 16
    assert tt.new_game("tuppi").options == tt.GAMES["tuppi"].default_options()


# -- new_match / new_hand ------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_new_match_same_seed_same_deals(name):
    game = tt.new_game(name)
    a, b = game.new_match(seed=123), game.new_match(seed=123)
    assert a.to_json() == b.to_json()
    assert game.new_match(seed=124).to_json() != a.to_json()


def test_new_match_dealer_argument_and_bad_dealer():
    game = tt.new_game("tuppi")
    state = game.new_match(seed=1, dealer=2)
    assert state.dealer == 2
    assert state.current_player == 3  # bidding starts left of the dealer
    for bad in (4, -1, "0", None):
        with pytest.raises(tt.OptionError, match="dealer"):
            game.new_match(seed=1, dealer=bad)


def test_new_match_without_seed_is_random_but_recorded():
    game = tt.new_game("tuppi")
    state = game.new_match()
    rec = json.loads(state.to_json())
    assert isinstance(rec["seed"], int) and rec["seeded"] is True
    assert tt.load(state.to_json()).to_json() == state.to_json()


def test_new_hand_deal_as_text_or_card_lists_is_the_same_state():
    deal = fill_deal({})
    as_text = tt.new_game("tuppi").new_hand(deal=deal, dealer=1)
    as_cards = tt.new_game("tuppi").new_hand(deal=[tt.ANGLO_52.cards_from_text(h) for h in deal], dealer=1)
    as_words = tt.new_game("tuppi").new_hand(deal=[h.lower().split() for h in deal], dealer=1)
    assert as_text.to_json() == as_cards.to_json() == as_words.to_json()
    for seat in range(4):
        assert [c.text for c in as_text.hand(seat)] == deal[seat].split()
    assert as_text.dealer == 1 and as_text.current_player == 2


def test_new_hand_seed_gives_the_seeded_deal_of_hand_one():
    game = tt.new_game("tuppi")
    single = game.new_hand(seed=99)
    match = game.new_match(seed=99)
    assert json.loads(single.to_json())["hands"][0]["deal"] == json.loads(match.to_json())["hands"][0]["deal"]
    masks = deal_from_seed(99, 0, tt.ANGLO_52, [13] * 4)
    assert [tt.ANGLO_52.format(m) for m in masks] == json.loads(single.to_json())["hands"][0]["deal"]


def test_new_hand_scores_argument_sets_the_match_score():
    state = tt.new_game("tuppi").new_hand(deal=fill_deal({}), scores=(20, 0))
    assert state.scores == (20, 0)
    assert state.observation(0)["nousussa"] == 0


@pytest.mark.parametrize("scores", [(5, 5), (-4, 0), (0,), (0, 0, 0), ("4", 0)])
def test_new_hand_bad_scores_raise_option_error(scores):
    with pytest.raises(tt.OptionError):
        tt.new_game("tuppi").new_hand(deal=fill_deal({}), scores=scores)


def test_new_hand_bad_deals_raise_value_errors_naming_the_problem():
    game = tt.new_game("tuppi")
    deal = fill_deal({})
    with pytest.raises(tt.OptionError, match="4 piles"):
        game.new_hand(deal=deal[:3])
    with pytest.raises(tt.OptionError, match="13 cards"):
        game.new_hand(deal=[deal[0], deal[1], deal[2], deal[3].rsplit(" ", 1)[0]])
    dup = deal[3].split()
    dup[0] = deal[0].split()[0]
    with pytest.raises(tt.OptionError, match="dealt twice"):
        game.new_hand(deal=[deal[0], deal[1], deal[2], " ".join(dup)])
    with pytest.raises(tt.CardParseError, match="'XX'"):
        game.new_hand(deal=[deal[0], deal[1], deal[2], deal[3].replace("2C", "XX")])
    with pytest.raises(tt.OptionError, match="dealer"):
        game.new_hand(deal=deal, dealer=7)


# -- action text ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_str_of_action_is_canonical_and_apply_text_equals_apply_action(name):
    for state in states_in_every_phase(name, 1, 25):
        if state.is_over():
            continue
        for a in state.legal_actions():
            assert str(a) == a.text
            by_action, by_text, by_lower = state.clone(), state.clone(), state.clone()
            by_action.apply(a)
            by_text.apply(str(a))
            by_lower.apply(str(a).lower())
            assert by_action.to_json() == by_text.to_json() == by_lower.to_json()
            assert by_action.history[-1] is a


def test_ten_written_as_10_is_accepted_in_action_text():
    deal = fill_deal({1: "TS 9S 8S 7S"})
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=0)
    state.apply("bid 10s")
    assert str(state.history[-1]) == "bid TS"


def test_legal_actions_are_interned_actions():
    state = tt.new_game("tuppi").new_match(seed=3)
    for a in state.legal_actions():
        card = a.card
        assert tt.Action(a.kind, *a.args) is a
        if card is not None:
            assert tt.Action.make(a.kind, card) is a


# -- illegal and malformed actions ----------------------------------------------------------


def assert_rejected(state, action, fragment, seat=None):
    before = snapshot(state)
    with pytest.raises(tt.IllegalActionError) as info:
        if seat is None:
            state.apply(action)
        else:
            state.apply(action, seat=seat)
    assert isinstance(info.value, ValueError)
    assert fragment.lower() in str(info.value).lower(), str(info.value)
    assert snapshot(state) == before, "a rejected action changed the state"
    return str(info.value)


def play_phase_state():
    """A rami hand declared by seat 2, both defenders passed sooli: seat 1 (right of declarer) to lead."""
    deal = fill_deal({
        0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        1: "AH KH QH JH TH 9H 8H 7H 6H 5H 4C 3C 2C",
        2: "4H 3H 2H AD KD QD JD TD 9D 8D 7D 6D 5D",
    })
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=0)
    for bid in ("bid 4C", "bid 4H", "bid 5C", "bid 9S"):
        state.apply(bid)
    # seat 1's 4C is black (nolo), seat 2's 4H is red: rami declared by seat 2; both defenders pass sooli
    state.apply("pass")
    state.apply("pass")
    assert state.phase == "play" and state.current_player == 1
    return state


def test_not_your_turn_is_rejected_and_state_unchanged():
    state = tt.new_game("tuppi").new_match(seed=5)
    turn = state.current_player
    legal = state.legal_actions()[0]
    for seat in range(4):
        if seat != turn:
            msg = assert_rejected(state, legal, "not your turn", seat=seat)
            assert str(turn) in msg
    state.apply(legal, seat=turn)  # the right seat may act


def test_card_not_in_hand_is_rejected_and_state_unchanged():
    state = play_phase_state()
    assert state.phase == "play"
    seat = state.current_player
    missing = next(c for c in tt.ANGLO_52.cards if c not in state.hand(seat))
    assert_rejected(state, f"play {missing}", "not in hand")
    # a bid card not in hand, in the bidding phase
    fresh = tt.new_game("tuppi").new_hand(deal=fill_deal({}), dealer=0)
    held = {c.text for c in fresh.hand(1)}
    absent = next(c.text for c in tt.ANGLO_52.cards if c.text not in held and c.rank.text in "A98")
    assert_rejected(fresh, f"bid {absent}", "not in hand")


def test_must_follow_suit_is_rejected_and_state_unchanged():
    state = play_phase_state()
    leader = state.current_player
    led = tt.Action("play", tt.ANGLO_52.card("5H"))
    state.apply(led)
    seat = state.current_player
    suit = led.card.suit
    hand = state.hand(seat)
    follow = [c for c in hand if c.suit is suit]
    other = [c for c in hand if c.suit is not suit]
    assert follow and other, "the test deal should let the next seat follow and also hold other suits"
    assert leader != seat
    assert {str(a) for a in state.legal_actions()} == {f"play {c}" for c in follow}
    assert_rejected(state, f"play {other[0]}", "must follow suit")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("fold", "unknown action word"),
        ("", "empty"),
        ("   ", "empty"),
        ("play", "malformed"),
        ("play AS KS", "malformed"),
        ("play rami", "malformed"),
        ("bid", "malformed"),
        ("bid rami nolo", "malformed"),
        ("pass AS", "malformed"),
        ("sooli 3", "malformed"),
        ("play QX", "'qx'"),
        ("bid 1S", "'1s'"),
    ],
)
def test_malformed_and_unknown_action_text_is_rejected_and_state_unchanged(text, fragment):
    state = tt.new_game("tuppi").new_match(seed=11)
    assert_rejected(state, text, fragment)
    play_random(state, random.Random(1), max_actions=10)
    assert_rejected(state, text, fragment)


def test_non_text_action_is_rejected():
    state = tt.new_game("tuppi").new_match(seed=11)
    assert_rejected(state, 42, "action")
    assert_rejected(state, None, "action")


def test_action_of_the_wrong_phase_is_rejected_and_state_unchanged():
    state = tt.new_game("tuppi").new_match(seed=11)
    assert state.phase == "bid"
    assert_rejected(state, "sooli", "not possible now")
    assert_rejected(state, "play " + str(state.hand(state.current_player)[0]), "not possible now")
    assert_rejected(state, "pass", "not possible now")


def test_illegal_bid_card_and_illegal_verbal_bid_are_rejected_with_reason():
    deal = fill_deal({1: "KS 2S QH JD 7H 7C"})
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=0)
    assert_rejected(state, "bid KS", "may not be a bid card")
    assert_rejected(state, "bid 2S", "may not be a bid card")
    assert_rejected(state, "bid QH", "may not be a bid card")
    assert_rejected(state, "bid rami", "only allowed without")
    assert_rejected(state, "bid nolo", "only allowed without")


def test_apply_after_the_game_is_over_is_rejected():
    state = tt.new_game("tuppi").new_hand(seed=8)
    play_random(state, random.Random(8))
    assert state.is_over()
    assert state.current_player is None
    assert state.legal_actions() == []
    assert_rejected(state, "play AS", "over")
    assert_rejected(state, "pass", "over")
    assert_rejected(state, "play AS", "over", seat=0)


def test_random_illegal_actions_never_change_the_state():
    """Every action text that is not in legal_actions is rejected, and the state stays as it was."""
    rng = random.Random(4)
    words = ["pass", "sooli", "bid rami", "bid nolo"]
    words += [f"{k} {c.text}" for k in ("play", "bid", "discard", "give") for c in tt.ANGLO_52.cards]
    for state in states_in_every_phase("tuppi", 4, 12):
        if state.is_over():
            continue
        legal = {str(a) for a in state.legal_actions()}
        before = snapshot(state)
        for text in rng.sample(words, 40):
            if text in legal:
                continue
            with pytest.raises(tt.IllegalActionError):
                state.apply(text)
        assert snapshot(state) == before


# -- undo and clone ------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_undo_restores_the_exact_state_after_every_action(name):
    rng = random.Random(12)
    state = tt.new_game(name).new_match(seed=12)
    for _ in range(150):
        if state.is_over():
            break
        before = snapshot(state)
        action = rng.choice(state.legal_actions())
        state.apply(action)
        after = state.to_json()
        assert state.undo() is action
        assert snapshot(state) == before
        state.apply(action)
        assert state.to_json() == after


def test_undo_across_a_hand_boundary_in_a_match():
    rng = random.Random(2)
    state = tt.new_game("tuppi").new_match(seed=2)
    play_hand_random(state, rng)
    assert state.hand_number == 1 and not state.is_over()
    at_new_hand = snapshot(state)
    last = state.history[-1]
    state.undo()
    assert state.hand_number == 0
    assert state.phase == "play"
    assert last in state.legal_actions()
    state.apply(last)
    assert snapshot(state) == at_new_hand
    # undo many actions back over the boundary and replay them
    play_hand_random(state, rng)
    full = snapshot(state)
    history = state.history
    for _ in range(len(history)):
        state.undo()
    assert state.hand_number == 0 and state.history == []
    assert state.to_json() == tt.new_game("tuppi").new_match(seed=2).to_json()
    for a in history:
        state.apply(a)
    assert snapshot(state) == full


def test_undo_with_nothing_to_undo_raises():
    state = tt.new_game("tuppi").new_match(seed=2)
    with pytest.raises(tt.IllegalActionError, match="nothing to undo"):
        state.undo()


def test_undo_of_the_last_action_of_a_finished_match():
    game = tt.new_game("tuppi", target=4)
    state = game.new_match(seed=6)
    play_random(state, random.Random(6))
    assert state.is_over() and state.winner is not None
    over = snapshot(state)
    last = state.undo()
    assert not state.is_over() and state.winner is None
    state.apply(last)
    assert snapshot(state) == over


@pytest.mark.parametrize("name", GAME_NAMES)
def test_clone_is_independent_of_the_original(name):
    rng = random.Random(3)
    state = tt.new_game(name).new_match(seed=3)
    play_random(state, rng, max_actions=40)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    play_random(twin, rng, max_actions=80)  # across a hand boundary
    assert snapshot(state) == before
    twin_snap = snapshot(twin)
    play_random(state, rng, max_actions=30)
    state.undo()
    assert snapshot(twin) == twin_snap
    after_state = snapshot(state)
    for _ in range(5):
        twin.undo()
    assert snapshot(state) == after_state


# -- is_over, scores, hand_points, winner -------------------------------------------------


def test_fresh_state_is_not_over_and_has_no_points_or_winner():
    state = tt.new_game("tuppi").new_match(seed=1)
    assert not state.is_over()
    assert state.scores == (0, 0)
    assert state.hand_points is None
    assert state.winner is None
    assert state.current_player in range(4)
    assert state.legal_actions()
    assert state.hand_number == 0


def test_single_hand_is_over_after_one_hand_with_hand_points_and_scores():
    for seed in range(20):
        state = tt.new_game("tuppi").new_hand(seed=seed, scores=(0, 0))
        play_random(state, random.Random(seed))
        assert state.is_over()
        result = json.loads(state.to_json())["hands"][0]["result"]
        assert state.hand_points == tuple(result["points"])
        assert state.scores == tuple(result["scores"])
        assert max(state.hand_points) > 0 and min(state.hand_points) == 0
        # one hand can win from 0-0 only when the defenders take 13 tricks (8 * 7 = 56)
        assert (state.winner is None) == (max(state.scores) < 52)
        assert result["match_over"] is (state.winner is not None)


def test_hand_points_follow_the_last_finished_hand_of_a_match():
    rng = random.Random(9)
    state = tt.new_game("tuppi").new_match(seed=9)
    for _ in range(3):
        play_hand_random(state, rng)
        last = hand_results(state)[-1]
        assert state.hand_points == tuple(last["points"])
        assert state.scores == tuple(last["scores"])


def test_full_match_has_a_winner_on_reaching_the_target():
    state = tt.new_game("tuppi").new_match(seed=21)
    play_random(state, random.Random(21))
    assert state.is_over()
    assert state.winner in (0, 1)
    assert state.scores[state.winner] >= 52
    assert state.scores[1 - state.winner] == 0
    assert state.current_player is None


def test_observation_is_json_safe_for_every_seat_and_for_the_public():
    for state in states_in_every_phase("tuppi", 7, 10):
        for seat in (0, 1, 2, 3, None):
            obs = state.observation(seat)
            assert json.loads(json.dumps(obs)) == obs
            assert obs["seat"] == seat


def test_malformed_action_objects_are_rejected_and_state_unchanged():
    """Actions built by hand (not from text or legal_actions) are checked like text."""
    state = tt.new_game("tuppi").new_match(seed=1)
    S = tt.ANGLO_52
    for bad in (tt.Action("bid", "foo"), tt.Action("bid", S.suit("S")), tt.Action("bid", 5),
                tt.Action("bid", S.card("7H"), S.card("8H")), tt.Action("play")):
        assert_rejected(state, bad, "")
    play_random(state, random.Random(1), max_actions=12)
    assert state.phase == "play"
    held = state.hand(state.current_player)
    legal = state.legal_actions()
    absent = next(c for c in S.cards if c not in held)
    for bad in (tt.Action("play", "rami"), tt.Action("play"), tt.Action("play", legal[0].card, absent),
                tt.Action("play", 3), tt.Action("sooli", legal[0].card)):
        assert_rejected(state, bad, "")
