"""Game records: to_json / load round-trips and tampered records (record.py, docs/records.md)."""

from __future__ import annotations

import json
import random

import pytest
from tuppi_helpers import fill_deal, play_hand_random, play_random, record, snapshot

import tricktaker as tt


def assert_round_trip(state: tt.State) -> tt.State:
    text = state.to_json()
    again = tt.load(text)
    assert again.to_json() == text
    assert snapshot(again) == snapshot(state)
    assert [str(a) for a in again.history] == [str(a) for a in state.history]
    assert tt.load(json.loads(text)).to_json() == text  # a decoded dict loads too
    assert tt.load(text.encode()).to_json() == text  # and bytes
    return again


def assert_same_future(a: tt.State, b: tt.State, rng: random.Random, steps: int = 60) -> None:
    """Both states accept the same actions and stay identical."""
    for _ in range(steps):
        if a.is_over():
            break
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(str(action))
        assert a.to_json() == b.to_json()


def phase_states(game: tt.Game, seeds: range) -> dict[str, list[tt.State]]:
    """States cut in every phase of the hand, from random play."""
    out: dict[str, list[tt.State]] = {}
    for seed in seeds:
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and state.hand_number < 3:
            out.setdefault(state.phase, []).append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


# -- round trips ------------------------------------------------------------------------


def test_round_trip_full_matches():
    for seed in range(8):
        state = tt.new_game("tuppi").new_match(seed=seed)
        play_random(state, random.Random(seed))
        again = assert_round_trip(state)
        assert again.is_over() and again.winner == state.winner


def test_round_trip_tournament_matches():
    game = tt.new_game("tuppi", preset="tournament")
    for seed in range(6):
        state = game.new_match(seed=seed)
        play_random(state, random.Random(seed))
        again = assert_round_trip(state)
        assert again.totals == state.totals and again.draw == state.draw
        assert record(again)["preset"] == "tournament"


def test_round_trip_single_hand_with_given_deal_and_scores():
    deal = fill_deal({0: "AS 7H", 1: "KS 6H", 2: "QS 5H", 3: "JS 4H"})
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=2, scores=(0, 28))
    assert_round_trip(state)
    rng = random.Random(3)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
        assert_round_trip(state)
    play_random(state, rng)
    again = assert_round_trip(state)
    assert again.is_over() and record(again)["seeded"] is False


def test_round_trip_seeded_single_hand():
    state = tt.new_game("tuppi").new_hand(seed=77, scores=(12, 0))
    play_random(state, random.Random(77), max_actions=30)
    again = assert_round_trip(state)
    assert record(again)["seeded"] is True and record(again)["single_hand"] is True
    assert_same_future(state, again, random.Random(1))


@pytest.mark.parametrize("preset", [None, "tournament"])
def test_round_trip_mid_hand_in_every_phase(preset):
    game = tt.new_game("tuppi", preset=preset)
    by_phase = phase_states(game, range(6))
    expected = {"bid", "play"} if preset else {"bid", "sooli", "discard", "give", "play"}
    assert expected <= set(by_phase)
    rng = random.Random(5)
    for phase, states in by_phase.items():
        for state in rng.sample(states, min(6, len(states))):
            again = assert_round_trip(state)
            assert again.phase == phase
            assert_same_future(state, again, rng)


def test_round_trip_then_undo_matches_the_original():
    state = tt.new_game("tuppi").new_match(seed=31)
    rng = random.Random(31)
    play_hand_random(state, rng)
    play_random(state, rng, max_actions=5)
    again = tt.load(state.to_json())
    for _ in range(10):  # back over the hand boundary
        assert again.undo() is state.undo()
        assert again.to_json() == state.to_json()


def test_round_trip_of_options():
    game = tt.new_game("tuppi", target=20, reset_keeps_points=True, early_end=False, sooli=False)
    state = game.new_match(seed=4)
    play_random(state, random.Random(4))
    again = assert_round_trip(state)
    assert again.game.options == game.options


def test_round_trip_of_a_sampled_world_record():
    """A world from sample_world is an unseeded state with its own future deals; it records and loads."""
    state = tt.new_game("tuppi").new_match(seed=8)
    rng = random.Random(8)
    play_random(state, rng, max_actions=20)
    world = state.sample_world(1, random.Random(2))
    again = assert_round_trip(world)
    assert_same_future(world, again, rng, steps=200)  # on into the next hands


def test_record_is_readable_json_with_one_block_per_hand():
    state = tt.new_game("tuppi").new_match(seed=7)
    play_hand_random(state, random.Random(7))
    rec = record(state)
    assert rec["format"] == "tricktaker-record" and rec["version"] == 1
    assert rec["game"] == "tuppi" and rec["seed"] == 7 and rec["seeded"] is True
    assert set(rec["options"]) == {o.name for o in tt.GAMES["tuppi"].OPTIONS}
    assert len(rec["hands"]) == 2
    first = rec["hands"][0]
    assert len(first["deal"]) == 4 and all(len(h.split()) == 13 for h in first["deal"])
    assert first["actions"] == [str(a) for a in state.history]
    assert first["result"]["contract"] in ("rami", "nolo", "sooli")
    assert rec["hands"][1]["actions"] == [] and rec["hands"][1]["result"] is None
    assert rec["result"] == {"over": False, "scores": list(state.scores), "winner": None, "draw": False}


# -- tampered records ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def match_record() -> dict:
    state = tt.new_game("tuppi").new_match(seed=7)
    rng = random.Random(7)
    play_hand_random(state, rng)
    play_hand_random(state, rng)
    play_random(state, rng, max_actions=10)
    return record(state)


def tampered(rec: dict) -> dict:
    return json.loads(json.dumps(rec))


def load_error(rec) -> str:
    with pytest.raises(tt.RecordError) as info:
        tt.load(rec if isinstance(rec, str) else json.dumps(rec))
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_record_error_is_exported_value_error():
    assert issubclass(tt.RecordError, ValueError)


def test_tampered_illegal_action_names_the_action_number_and_reason(match_record):
    rec = tampered(match_record)
    n0 = len(rec["hands"][0]["actions"])
    # the second hand's first bid replaced by a card the bidder does not hold
    bidder = (rec["hands"][1]["dealer"] + 1) % 4
    held = rec["hands"][1]["deal"][bidder].split()
    absent = next(c.text for c in tt.ANGLO_52.cards if c.text not in held)
    rec["hands"][1]["actions"][0] = f"bid {absent}"
    msg = load_error(rec)
    assert f"action {n0 + 1} " in msg
    assert "hand 2" in msg and "not in hand" in msg and absent in msg


def test_tampered_out_of_turn_phase_action_is_rejected(match_record):
    rec = tampered(match_record)
    rec["hands"][0]["actions"][2] = "pass"
    msg = load_error(rec)
    assert "action 3 " in msg and "not possible now" in msg


def test_tampered_must_follow_suit_is_rejected():
    state = tt.new_game("tuppi").new_hand(seed=5)
    rng = random.Random(5)
    while True:  # play until someone must follow suit but also holds another suit
        if state.phase == "play" and state.observation(None)["trick"]:
            legal = {a.card for a in state.legal_actions()}
            others = [c for c in state.hand(state.current_player) if c not in legal]
            if others:
                break
        state.apply(rng.choice(state.legal_actions()))
    rec = record(state)
    rec["hands"][0]["actions"].append(f"play {others[0]}")
    msg = load_error(rec)
    assert f"action {len(rec['hands'][0]['actions'])} " in msg and "must follow suit" in msg


def test_tampered_malformed_action_text_is_rejected(match_record):
    rec = tampered(match_record)
    rec["hands"][0]["actions"][0] = "bid"
    msg = load_error(rec)
    assert "action 1 " in msg and "malformed" in msg
    rec["hands"][0]["actions"][0] = 7
    assert "action 1" in load_error(rec)


def test_tampered_changed_deal_is_not_the_one_the_seed_gives(match_record):
    rec = tampered(match_record)
    deal = [h.split() for h in rec["hands"][1]["deal"]]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]  # swap a card between two seats
    rec["hands"][1]["deal"] = [" ".join(h) for h in deal]
    msg = load_error(rec)
    assert "hand 2" in msg and "not the one seed 7 gives" in msg


def test_tampered_changed_seed_is_rejected(match_record):
    rec = tampered(match_record)
    rec["seed"] = 8
    assert "not the one seed 8 gives" in load_error(rec)


def test_tampered_deal_with_a_duplicate_card_is_rejected(match_record):
    rec = tampered(match_record)
    deal = [h.split() for h in rec["hands"][0]["deal"]]
    deal[3][0] = deal[0][0]
    rec["hands"][0]["deal"] = [" ".join(h) for h in deal]
    msg = load_error(rec)
    assert "hand 1" in msg and "dealt twice" in msg and deal[0][0] in msg


def test_tampered_deal_with_a_bad_card_or_short_hand_is_rejected(match_record):
    rec = tampered(match_record)
    rec["hands"][0]["deal"][2] = rec["hands"][0]["deal"][2].rsplit(" ", 1)[0]
    assert "13 cards" in load_error(rec)
    rec = tampered(match_record)
    rec["hands"][0]["deal"][2] = rec["hands"][0]["deal"][2].replace(rec["hands"][0]["deal"][2][:2], "ZZ", 1)
    assert "'ZZ'" in load_error(rec)


def test_tampered_deal_in_an_unseeded_record_fails_at_the_first_impossible_action():
    deal = fill_deal({})
    state = tt.new_game("tuppi").new_hand(deal=deal, dealer=0)
    play_random(state, random.Random(2))
    rec = record(state)
    hands = [h.split() for h in rec["hands"][0]["deal"]]
    first_bid = rec["hands"][0]["actions"][0].split()[1]  # seat 1's bid card
    j = hands[1].index(first_bid)
    hands[1][j], hands[3][0] = hands[3][0], hands[1][j]
    rec["hands"][0]["deal"] = [" ".join(h) for h in hands]
    msg = load_error(rec)
    assert "action 1 " in msg and "not in hand" in msg


def test_tampered_result_is_rejected(match_record):
    rec = tampered(match_record)
    pts = rec["hands"][0]["result"]["points"]
    rec["hands"][0]["result"]["points"] = [pts[1], pts[0]]
    msg = load_error(rec)
    assert "hand 1" in msg and "recorded result" in msg
    rec = tampered(match_record)
    rec["hands"][1]["result"]["scores"] = [100, 0]
    assert "hand 2" in load_error(rec)


def test_tampered_final_result_is_rejected(match_record):
    rec = tampered(match_record)
    rec["result"]["winner"] = 0
    assert "recorded result" in load_error(rec)


def test_tampered_unknown_option_is_rejected(match_record):
    rec = tampered(match_record)
    rec["options"]["trumps"] = True
    msg = load_error(rec)
    assert "unknown option" in msg and "'trumps'" in msg


def test_tampered_bad_option_value_and_unknown_game_are_rejected(match_record):
    rec = tampered(match_record)
    rec["options"]["hand_limit"] = 3
    assert "hand_limit" in load_error(rec)
    rec = tampered(match_record)
    rec["game"] = "skat"
    assert "unknown game" in load_error(rec)


def test_malformed_json_is_rejected():
    assert "not a JSON record" in load_error("{not json")
    assert "not a JSON record" in load_error("")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda r: r.update(format="pbn"), "not a tricktaker record"),
        (lambda r: r.update(version=99), "unsupported record version"),
        (lambda r: r.pop("hands"), "'hands'"),
        (lambda r: r.update(hands=[]), "no hands"),
        (lambda r: r.update(hands="AS KS"), "'hands'"),
        (lambda r: r.update(seeded="yes"), "'seeded'"),
        (lambda r: r.update(seed=None), "needs a seed"),
        (lambda r: r.update(seed="7"), "'seed'"),
        (lambda r: r["hands"][0].pop("deal"), "'deal'"),
        (lambda r: r["hands"][0].pop("actions"), "'actions'"),
        (lambda r: r.pop("options"), "'options'"),
    ],
)
def test_malformed_record_structure_is_rejected(match_record, change, fragment):
    rec = tampered(match_record)
    change(rec)
    assert fragment in load_error(rec)


def test_non_object_record_is_rejected():
    assert "not a tricktaker record" in load_error("[1, 2, 3]")


def test_actions_after_the_end_of_a_hand_are_rejected():
    state = tt.new_game("tuppi").new_match(seed=3)
    play_hand_random(state, random.Random(3))
    rec = record(state)
    n = len(rec["hands"][0]["actions"])
    rec["hands"][0]["actions"].append("bid rami")
    msg = load_error(rec)
    assert f"action {n + 1}" in msg


def test_actions_after_the_end_of_a_match_are_rejected():
    state = tt.new_game("tuppi").new_hand(seed=3)
    play_random(state, random.Random(3))
    rec = record(state)
    rec["hands"][0]["actions"].append("play AS")
    rec["result"] = None
    msg = load_error(rec)
    assert f"action {len(rec['hands'][0]['actions'])} " in msg and "over" in msg


def test_loaded_unseeded_match_undo_over_a_hand_boundary_and_replay_gives_the_same_deal():
    """A sampled world is unseeded: its next deals are recorded, and undo/redo must keep them."""
    state = tt.new_game("tuppi").new_match(seed=8)
    rng = random.Random(8)
    play_random(state, rng, max_actions=20)
    world = state.sample_world(1, random.Random(2))
    first = world.hand_number
    play_hand_random(world, rng)
    play_random(world, rng, max_actions=6)
    assert world.hand_number == first + 1 and not world.is_over()
    loaded = tt.load(world.to_json())
    assert loaded.to_json() == world.to_json()
    undone = []
    for _ in range(10):  # back into the hand the world was sampled in
        undone.append(loaded.undo())
    assert loaded.hand_number == first
    for a in reversed(undone):
        loaded.apply(a)
    assert loaded.to_json() == world.to_json()


def test_unseeded_record_without_seed_replays_its_recorded_deals_after_undo():
    """An unseeded multi-hand record with no seed (deals only) survives undo over a hand boundary."""
    state = tt.new_game("tuppi").new_match(seed=8)
    rng = random.Random(8)
    world = state.sample_world(1, random.Random(2))
    first = world.hand_number
    play_hand_random(world, rng)
    play_random(world, rng, max_actions=6)
    rec = record(world)
    rec["seed"] = None
    loaded = tt.load(json.dumps(rec))
    text = loaded.to_json()
    undone = [loaded.undo() for _ in range(10)]
    assert loaded.hand_number == first
    for a in reversed(undone):
        loaded.apply(a)
    assert loaded.to_json() == text


def test_unseeded_record_without_the_next_deal_is_rejected_by_name():
    state = tt.new_game("marjapussi").new_hand(seed=1)
    rng = random.Random(1)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    rec = json.loads(state.to_json())
    rec.update(seeded=False, seed=None, single_hand=False)
    rec["result"] = None
    with pytest.raises(tt.RecordError, match="no deal for the next one"):
        tt.load(json.dumps(rec))
