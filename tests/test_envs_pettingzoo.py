"""The PettingZoo environment: PettingZoo's own API, seed and render tests for every game and variant."""

from __future__ import annotations

import random
import warnings
from functools import partial
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from test_contract import VARIANTS  # noqa: E402

import tricktaker as tt  # noqa: E402
from tricktaker.envs.encoding import spec_for  # noqa: E402
from tricktaker.envs.pettingzoo import env  # noqa: E402


def make(variant: str, **kwargs: Any) -> Any:
    name, options = VARIANTS[variant]
    return env(name, **options, **kwargs)


def run_episode(e: Any, rng: random.Random) -> tuple[dict[str, float], int]:
    """Play one episode with random legal actions; the total reward per agent and the steps taken."""
    totals: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pettingzoo_api_test_passes(variant: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns for every dict observation outside its own list of classic games
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(make(variant), num_cycles=1000)


@pytest.mark.parametrize("variant", ["tuppi", "tute-pairs", "bondtolva-two", "huutopussi-three"])
def test_pettingzoo_api_test_passes_for_whole_matches(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make(variant, episode="match", max_hands=3), num_cycles=300)
        api_test(make(variant, episode="match", reward="match", max_hands=2), num_cycles=300)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_pettingzoo_seed_test_passes(variant: str) -> None:
    seed_test(partial(make, variant), num_cycles=100)


def test_pettingzoo_render_test_passes() -> None:
    render_test(partial(env, "tuppi"))
    text = make("huutopussi-three", render_mode="ansi")
    text.reset(seed=3)
    out = text.render()
    assert "seat 2:" in out and "phase bid" in out and "to act: seat" in out


def test_spaces_are_fixed_per_game_and_match_the_encoding() -> None:
    for variant in VARIANTS:
        e = make(variant)
        spec = spec_for(e.game)
        for agent in e.possible_agents:
            assert e.action_space(agent).n == spec.num_actions
            space = e.observation_space(agent)
            assert space["observation"].shape == (spec.size,)
            assert space["action_mask"].shape == (spec.num_actions,)


def test_the_same_seed_deals_the_same_hands_and_other_seeds_differ() -> None:
    def observations(seed: int) -> list[bytes]:
        e = make("tuppi")
        out = []
        for _ in range(3):  # the seed fixes every later episode too
            e.reset(seed=seed) if not out else e.reset()
            out.append(e.observe("player_0")["observation"].tobytes())
        return out

    assert observations(11) == observations(11)
    assert observations(11) != observations(12)
    assert len(set(observations(11))) == 3


def test_a_hand_episode_pays_each_seat_its_hand_reward_once_at_the_end() -> None:
    e = make("tuppi")
    rng = random.Random(2)
    for seed in range(5):
        e.reset(seed=seed)
        session = e.session
        totals, steps = run_episode(e, rng)
        assert steps > 4 and session.state.is_over()
        assert [totals[f"player_{s}"] for s in range(4)] == session.rewards
        assert totals["player_0"] == totals["player_2"] == -totals["player_1"]
        assert e.agents == []


def test_a_match_episode_pays_every_hand_or_only_the_match() -> None:
    rng = random.Random(3)
    hands = make("bondtolva-two", episode="match")
    hands.reset(seed=1)
    totals, _ = run_episode(hands, rng)
    state = hands.session.state
    assert state.is_over() and state.hand_number > 0
    assert totals["player_0"] == -totals["player_1"] != 0

    match = make("tuppi", episode="match", reward="match", target=4)
    match.reset(seed=2)
    totals, _ = run_episode(match, rng)
    state = match.session.state
    assert state.is_over() and state.winner is not None
    winners = {f"player_{s}" for s in range(4) if s % 2 == state.winner}
    assert totals == {a: (1.0 if a in winners else -1.0) for a in totals}


def test_a_match_is_cut_after_max_hands() -> None:
    e = make("huutopussi", episode="match", max_hands=2)
    e.reset(seed=5)
    truncated_seen = False
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        truncated_seen |= truncated
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated_seen and e.session.state.hand_number == 2


def test_misuse_is_refused_with_a_clear_error() -> None:
    e = make("tuppi")
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    e.reset(seed=1)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(tt.IllegalActionError):
        e.step(illegal)
    with pytest.raises(tt.OptionError):
        make("tuppi", episode="season")
    with pytest.raises(tt.OptionError):
        make("tuppi", reward="match")  # a match reward needs match episodes


def test_only_the_agent_to_act_gets_a_non_empty_mask() -> None:
    e = make("marjapussi")
    e.reset(seed=4)
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == e.agent_selection)


@pytest.mark.parametrize("variant", ["tuppi", "tuppi-tournament", "huutopussi"])
def test_every_observation_is_the_tensor_and_mask_of_a_session_that_rereads_everything(variant: str) -> None:
    """What ``last()`` gives at every step of several episodes (the env reuses its buffers from one
    episode to the next) is the seat's tensor and mask from a strict session fed the same actions."""
    from tricktaker.envs.session import Session, new_state

    e = make(variant, episode="match", max_hands=3)
    rng = random.Random(3)
    for episode in range(3):
        e.reset(seed=episode)
        state = e.session.state
        strict = Session(new_state(e.game, True, state.seed, state.dealer), strict=True)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            seat = e._seat[agent]
            assert np.array_equal(obs["observation"], strict.tensor(seat))
            if terminated or truncated:
                assert not obs["action_mask"].any()
                e.step(None)
                continue
            expected = np.zeros(e.spec.num_actions, np.int8)
            expected[strict.legal()] = 1
            assert np.array_equal(obs["action_mask"], expected)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(action)
            strict.apply(action)
