"""Random play over thousands of hands, checking invariants after every action.

``test_fuzz_million_hands`` is marked slow (``pytest -m slow``); the same code runs
here on a small count so it is known to work.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from contract_checks import apply_undo_redo
from tuppi_helpers import MatchReplay, check_match_against_replay, expected_points

import tricktaker as tt

FULL_DECK = {c.text for c in tt.ANGLO_52.cards}

CONFIGS: list[tuple[str | None, dict[str, Any]]] = [
    (None, {}),
    ("tournament", {}),
    (None, {"reset_keeps_points": True}),
    (None, {"early_end": False}),
    (None, {"sooli": False, "target": 24}),
    ("tournament", {"hand_limit": 16, "reset_keeps_points": True}),
]


def card_locations(state: tt.State) -> list[str]:
    """Every card, from the hands, the tricks played, the trick on the table and the sooli discard."""
    public = state.observation(None)
    out = [c.text for s in range(4) for c in state.hand(s)]
    out += [card for t in public["tricks"] for _, card in t["cards"]]
    out += [card for _, card in public["trick"]]
    soloist = public["soloist"]
    if soloist is not None:
        discard = state.observation(soloist).get("discard")
        if discard is not None:
            out.append(discard)
    return out


def check_action_invariants(state: tt.State) -> None:
    cards = card_locations(state)
    assert len(cards) == 52 and set(cards) == FULL_DECK, "cards are not conserved"
    legal = state.legal_actions()
    if state.is_over():
        assert legal == [] and state.current_player is None
    else:
        assert legal, "no legal action in a running game"
        assert state.current_player in range(4)
        assert len({str(a) for a in legal}) == len(legal)
    assert min(state.scores) == 0 and max(state.scores) >= 0
    public = state.observation(None)
    assert public["hand_sizes"] == [len(state.hand(s)) for s in range(4)]
    if public["phase"] == "play":
        assert len(public["tricks"]) < 13


def check_hand_result(result: dict[str, Any], last_trick_seen: bool = True) -> None:
    tricks = result["tricks"]
    assert result["points"] == expected_points(result)
    if result["contract"] == "sooli":
        soloist_side = result["soloist"] % 2
        if tricks[soloist_side] == 0:
            assert sum(tricks) == 13
        else:
            assert tricks[soloist_side] == 1  # the soloist's first trick ends the hand
        assert result["early_end"] is False
    elif result["early_end"]:
        assert sum(tricks) < 13 and max(tricks) == 7
        assert result["kept"] is False
    else:
        assert sum(tricks) == 13


def fuzz(num_hands: int, seed: int, full: bool) -> dict[str, int]:
    """Play ``num_hands`` hands of random matches over several rule sets.

    ``full`` checks every invariant after every action, undo and clone at random
    points; otherwise only what is cheap (per hand: points, tricks, the match
    score against an independent replay).
    """
    rng = random.Random(seed)
    stats = {"hands": 0, "matches": 0, "undo": 0, "clone": 0, "early_end": 0, "sooli": 0}
    config = 0
    while stats["hands"] < num_hands:
        preset, options = CONFIGS[config % len(CONFIGS)]
        config += 1
        game = tt.new_game("tuppi", preset=preset, **options)
        state = game.new_match(seed=rng.getrandbits(40), dealer=rng.randrange(4))
        replay = MatchReplay(game.options)
        stats["matches"] += 1
        number = 0
        while not state.is_over():
            if full and rng.random() < 0.02:
                apply_undo_redo(state, rng.choice(state.legal_actions()))
                stats["undo"] += 1
            else:
                state.apply(rng.choice(state.legal_actions()))
            if full:
                check_action_invariants(state)
                if rng.random() < 0.01:
                    twin = state.clone()
                    assert twin.to_json() == state.to_json()
                    assert twin.observation(0) == state.observation(0)
                    stats["clone"] += 1
            if state.hand_number != number or state.is_over():
                number = state.hand_number
                result = state.observation(None)["previous_hand"]
                check_hand_result(result)
                kept = replay.add(result["points"])
                assert result["kept"] == kept and result["scores"] == replay.scores
                assert list(state.scores) == replay.scores
                assert state.hand_points == tuple(result["points"])
                stats["hands"] += 1
                stats["early_end"] += result["early_end"]
                stats["sooli"] += result["contract"] == "sooli"
        assert replay.over and state.winner == replay.winner and state.draw == replay.draw
        if full:
            check_match_against_replay(state)
    return stats


def test_fuzz_random_play_keeps_every_invariant_after_every_action():
    stats = fuzz(2000, seed=2024, full=True)
    assert stats["hands"] >= 2000
    assert stats["undo"] > 400 and stats["clone"] > 200
    assert stats["early_end"] > 10 and stats["sooli"] > 50


def test_fuzz_cheap_checks_over_more_hands():
    stats = fuzz(6000, seed=99, full=False)
    assert stats["hands"] >= 6000


@pytest.mark.slow
def test_fuzz_million_hands():
    stats = fuzz(1_000_000, seed=1, full=False)
    assert stats["hands"] >= 1_000_000
