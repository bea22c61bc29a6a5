"""The OpenSpiel games: OpenSpiel's random-simulation test (with serialization) for every game and
variant, information-set resampling, and an OpenSpiel search bot playing hands."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from test_contract import VARIANTS  # noqa: E402

import tricktaker as tt  # noqa: E402
from tricktaker.envs import openspiel as tos  # noqa: E402
from tricktaker.envs.encoding import spec_for  # noqa: E402


def load(variant: str) -> Any:
    name, options = VARIANTS[variant]
    options = dict(options)
    preset = options.pop("preset", None)
    return tos.load(name, preset, **options)


def deal_and_play(game: Any, rng: random.Random, decisions: int) -> Any:
    """A state after the deal and up to ``decisions`` random decisions."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_and_preset_is_registered() -> None:
    names = set(pyspiel.registered_names())
    for name, cls in tt.GAMES.items():
        assert tos.game_name(name) in names
        for preset in cls.PRESETS:
            assert tos.game_name(name, preset) in names
    assert set(tos.GAME_NAMES) <= names


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_openspiel_random_sim_test_passes_with_serialization(variant: str) -> None:
    game = load(variant)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", ["tuppi", "huutopussi", "tute-habanero", "avomarjapussi"])
def test_openspiel_random_sim_test_with_an_observer_and_resampling_at_every_state(variant: str) -> None:
    """The C++ simulation again, also writing the information-state observer and, at every decision,
    checking that a resampled state gives the player to act the same information state."""
    game = load(variant)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = []

    def check(state: Any) -> None:
        if state.is_chance_node() or state.is_terminal():
            return
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        checked.append(player)

    observer = game.make_observer(pyspiel.IIGObservationType(perfect_recall=True), {})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, mask_test=True,
                            state_checker_fn=check, observer=observer)
    assert len(checked) > 20


def test_the_game_info_matches_the_encoding() -> None:
    for variant in VARIANTS:
        game = load(variant)
        spec = spec_for(game.tt_game)
        assert game.num_distinct_actions() == spec.num_actions
        assert game.information_state_tensor_size() == spec.size
        assert game.observation_tensor_size() == spec.size
        assert game.max_chance_outcomes() == len(spec.cards)
        assert game.num_players() == spec.seats


def test_options_and_presets_are_game_parameters() -> None:
    assert tos.load("bondtolva", players=2).num_players() == 2
    assert pyspiel.load_game("python_tricktaker_bondtolva(players=2)").num_players() == 2
    tournament = pyspiel.load_game("python_tricktaker_tuppi_tournament")
    assert tournament.tt_game.options["bid_cards"] is True
    dealt = tos.load("tuppi", dealer=2)
    state = deal_and_play(dealt, random.Random(1), 0)
    assert state.current_player() == 3  # the player left of the dealer bids first
    with pytest.raises(Exception, match="players"):
        tos.load("tuppi", players=3)


def test_the_deal_is_one_uniform_chance_node_per_card() -> None:
    game = tos.load("tute", "habanero")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 40 and {p for _, p in outcomes} == {1 / 40}
    state.apply_action(7)
    assert 7 not in dict(state.chance_outcomes()) and len(state.chance_outcomes()) == 39
    card = spec_for(game.tt_game).cards[7]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == f"deal {card.text}"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_resampled_states_look_the_same_to_the_player(variant: str) -> None:
    game = load(variant)
    rng = random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for decisions in (0, 3, 9, 20):
        state = deal_and_play(game, rng, decisions)
        if state.is_terminal():
            continue
        for player in range(game.num_players()):
            info = state.information_state_string(player)
            tensor = state.information_state_tensor(player)
            for _ in range(2):
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == info
                assert world.information_state_tensor(player) == tensor
                assert world.current_player() == state.current_player()
                assert world.legal_actions() == state.legal_actions() or player != state.current_player()


def test_an_ismcts_bot_plays_whole_hands() -> None:
    game = tos.load("tuppi")
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=25,
                           random_state=rs)
    rng = random.Random(7)
    for _ in range(2):
        state = game.new_initial_state()
        searched = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                searched += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert searched >= 2
        returns = state.returns()
        assert sum(returns) == 0 and abs(returns[0]) <= game.max_utility()


def test_an_mcts_bot_plays_a_huutopussi_hand_with_card_picks() -> None:
    """OpenSpiel's MCTS (which searches the true state) goes through the auction, exchange and play."""
    game = tos.load("huutopussi")
    rs = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=mcts.RandomRolloutEvaluator(1, rs),
                       random_state=rs)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(bot.step(state))
    assert len(state.returns()) == 4
