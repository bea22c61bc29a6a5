"""The State API contract, checked the same way for every game and variant (DESIGN.md).

Game-specific files test the rules; this one holds what every game must do
alike, so a new game is checked the day it is added to ``VARIANTS``.
"""

from __future__ import annotations

import random

import pytest

import tricktaker as tt

VARIANTS = {
    "tuppi": ("tuppi", {}),
    "tuppi-tournament": ("tuppi", {"preset": "tournament"}),
    "tute-pairs": ("tute", {}),
    "tute-habanero": ("tute", {"players": 2}),
    "tute-variants": ("tute", {"tute_sotas": True, "must_declare": True}),
    "tute-habanero-anytime": ("tute", {"players": 2, "exchange_anytime": True}),
    "tute-three": ("tute", {"players": 3}),
    "tute-cabrero": ("tute", {"preset": "cabrero"}),
    "tute-cabrero-three": ("tute", {"preset": "cabrero", "players": 3}),
    "tute-cabrero-five": ("tute", {"preset": "cabrero", "players": 5}),
    "tute-cabrero-six": ("tute", {"preset": "cabrero", "players": 6}),
    "marjapussi": ("marjapussi", {}),
    "marjapussi-ordered": ("marjapussi", {"declaration_order": "whole_first", "lead_from_marriage": True,
                                          "clubs_ace_opens": True, "pip_tie_carries": True}),
    "bondtolva": ("bondtolva", {}),
    "bondtolva-two": ("bondtolva", {"players": 2}),
    "avomarjapussi": ("avomarjapussi", {}),
    "huutopussi": ("huutopussi", {}),
    "huutopussi-three": ("huutopussi", {"players": 3}),
    "huutopussi-three-kitty6": ("huutopussi", {"players": 3, "kitty": 6, "kitty_shown": False}),
    "huutopussi-main-form": ("huutopussi", {"preset": "main_form"}),
    "huutopussi-2002": ("huutopussi", {"preset": "rules_2002"}),
    "huutopussi-2002-three": ("huutopussi", {"preset": "rules_2002_three"}),
    "huutopussi-two": ("huutopussi", {"players": 2}),
    "huutopussi-2002-two": ("huutopussi", {"preset": "rules_2002_two"}),
    "huutopussi-variants": ("huutopussi", {"calls_after_any_trick": True, "exchange": 4,
                                           "card_values": "pips", "marriage_values": "spades_high",
                                           "opener": "left_of_dealer", "forced_opening": False,
                                           "redeal_hand": "three_sixes_or_low", "bid_ban": -250,
                                           "ask_lockouts": "illisoft_2002", "all_pass": "no_contract",
                                           "bid_ban_reopen": True, "redeal_window": "bid_and_exchange",
                                           "raise_when": "after_exchange"}),
}


def test_every_game_has_a_contract_variant():
    assert {name for name, _ in VARIANTS.values()} == set(tt.GAMES)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_undo_all_the_way_back_restores_the_start(variant):
    name, options = VARIANTS[variant]
    rng = random.Random(5)
    for k in range(12):
        state = tt.new_game(name, **options).new_match(seed=k)
        start = state.to_json()
        steps = []
        for _ in range(rng.randrange(1, 200)):
            if state.is_over():
                break
            steps.append((state.to_json(), rng.choice(state.legal_actions())))
            state.apply(steps[-1][1])
        for before, action in reversed(steps):
            assert state.undo() is action
            assert state.to_json() == before
        assert state.to_json() == start
        with pytest.raises(tt.IllegalActionError):
            state.undo()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_text_of_every_legal_action_applies_the_same_action(variant):
    name, options = VARIANTS[variant]
    state = tt.new_game(name, **options).new_match(seed=3)
    rng = random.Random(3)
    while not state.is_over() and state.hand_number < 3:  # random Huutopussi bidders may never finish
        for action in state.legal_actions():
            twin = state.clone()
            twin.apply(str(action).upper())
            assert twin.history[-1] is action
        state.apply(rng.choice(state.legal_actions()))
