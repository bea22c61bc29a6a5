"""The bot interface: a View shows one seat's knowledge and never the State; the random bot."""

from __future__ import annotations

import dataclasses
import random

import pytest

import tricktaker as tt
from tricktaker.bots import BOTS, Bot, RandomBot, make_bot, view_of


def play_hand(seed: int, bot_seed: int | None) -> list[str]:
    """One single hand played by four random bots sharing one seed scheme; its action texts."""
    state = tt.new_game("tuppi").new_hand(seed=seed)
    bots = [RandomBot(None if bot_seed is None else bot_seed + seat) for seat in range(4)]
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)))
    return [a.text for a in state.history]


def mid_hand_state(seed: int = 5, steps: int = 12) -> tt.State:
    state = tt.new_game("tuppi").new_match(seed=seed)
    bot = RandomBot(seed)
    for _ in range(steps):
        state.apply(bot.act(view_of(state, state.current_player)))  # type: ignore[arg-type]
    return state


# -- RandomBot ------------------------------------------------------------------------


def test_random_bot_is_deterministic_given_its_seed() -> None:
    assert play_hand(11, bot_seed=100) == play_hand(11, bot_seed=100)


def test_random_bot_seeds_matter() -> None:
    games = {tuple(play_hand(11, bot_seed=s)) for s in range(0, 400, 100)}
    assert len(games) > 1


def test_random_bot_ignores_the_global_random_state() -> None:
    random.seed(1)
    first = play_hand(3, bot_seed=7)
    random.seed(2)
    assert play_hand(3, bot_seed=7) == first


def test_random_bot_picks_legal_actions_and_covers_them() -> None:
    state = tt.new_game("tuppi").new_match(seed=2)
    view = view_of(state, state.current_player)  # type: ignore[arg-type]
    bot = RandomBot(0)
    picks = {bot.act(view) for _ in range(400)}
    assert picks == set(view.legal_actions)


def test_random_bot_refuses_a_view_without_legal_actions() -> None:
    state = tt.new_game("tuppi").new_match(seed=2)
    idle = next(s for s in range(4) if s != state.current_player)
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(0).act(view_of(state, idle))


# -- the registry -----------------------------------------------------------------------


def test_registry_makes_random_bots() -> None:
    assert "random" in BOTS
    bot = make_bot("random", seed=4)
    assert isinstance(bot, RandomBot) and isinstance(bot, Bot)
    assert bot.name == "random"
    assert isinstance(make_bot("RANDOM"), RandomBot)


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'nobody' \(bots: random"):
        make_bot("nobody")


def test_bot_is_abstract() -> None:
    with pytest.raises(TypeError):
        Bot()  # type: ignore[abstract]


# -- View ---------------------------------------------------------------------------------


def test_view_holds_the_seat_knowledge() -> None:
    state = mid_hand_state()
    seat = state.current_player
    assert seat is not None
    view = view_of(state, seat)
    assert view.seat == seat
    assert view.observation == state.observation(seat)
    assert view.legal_actions == state.legal_actions()
    assert view.to_act
    assert view.game is state.game


def test_view_of_a_waiting_seat_has_no_legal_actions() -> None:
    state = mid_hand_state()
    idle = (state.current_player + 1) % 4  # type: ignore[operator]
    view = view_of(state, idle)
    assert view.legal_actions == [] and not view.to_act
    assert view.observation == state.observation(idle)


def test_view_does_not_expose_the_state() -> None:
    state = mid_hand_state()
    view = view_of(state, 0)
    assert not any(isinstance(v, tt.State) for v in vars(view).values())
    public = [name for name in dir(view) if not name.startswith("_")]
    assert not any(isinstance(getattr(view, name), tt.State) for name in public)
    assert "state" not in {f.name for f in dataclasses.fields(view)}


def test_view_is_frozen() -> None:
    view = view_of(mid_hand_state(), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


def test_view_of_rejects_a_bad_seat() -> None:
    with pytest.raises(ValueError, match="seat must be 0..3"):
        view_of(mid_hand_state(), 4)


def test_sampled_worlds_agree_with_the_view() -> None:
    """No leak: every sampled world looks to the seat exactly as the real game does."""
    state = mid_hand_state(seed=8, steps=20)
    for seat in range(4):
        view = view_of(state, seat)
        for k in range(5):
            world = view.sample_world(random.Random(k))
            assert isinstance(world, tt.State)
            assert world is not state
            assert world.observation(seat) == view.observation


def test_view_is_a_snapshot() -> None:
    """A view made earlier keeps sampling the position it was made for."""
    state = mid_hand_state(seed=9, steps=10)
    seat = state.current_player
    assert seat is not None
    view = view_of(state, seat)
    bot = RandomBot(1)
    for _ in range(8):
        state.apply(bot.act(view_of(state, state.current_player)))  # type: ignore[arg-type]
    world = view.sample_world(random.Random(0))
    assert world.observation(seat) == view.observation
    assert state.observation(seat) != view.observation


def test_sampling_does_not_change_the_game() -> None:
    state = mid_hand_state(seed=4, steps=15)
    before = state.to_json()
    view_of(state, 1).sample_world(random.Random(3))
    assert state.to_json() == before
