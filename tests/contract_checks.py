"""Checks of the State API contract shared by every game's tests: undo and sampled worlds."""

from __future__ import annotations

import random
from collections.abc import Callable

import tricktaker as tt


def apply_undo_redo(state: tt.State, action: tt.Action) -> None:
    """Apply ``action``, undo it, apply it again: each step must restore the exact state."""
    before = state.to_json()
    state.apply(action)
    after = state.to_json()
    assert state.undo() is action
    assert state.to_json() == before, "undo did not restore the state"
    state.apply(action)
    assert state.to_json() == after


def check_worlds(
    state: tt.State,
    seat: int,
    count: int,
    world_cards: Callable[[tt.State], list[str]],
    deep: bool = False,
    rng: random.Random | None = None,
) -> list[tt.State]:
    """Sample ``count`` worlds for ``seat`` and check the no-leak contract on each.

    Every world looks to the seat (and to a spectator) exactly as the real state
    does, holds the seat's own cards, and holds the whole deck
    (``world_cards`` lists where every card of a world is).  With ``deep``, the
    world's record replays (every action was legal there), and with ``rng`` too
    the world is played on to the end.
    """
    obs = state.observation(seat)
    public = state.observation(None)
    own = [c.text for c in state.hand(seat)]
    deck = sorted(c.text for c in state.game.deck.cards)
    worlds = []
    for k in range(count):
        world = state.sample_world(seat, random.Random(k))
        assert world.observation(seat) == obs, f"world {k} changes seat {seat}'s observation"
        assert world.observation(None) == public
        assert [c.text for c in world.hand(seat)] == own
        assert sorted(world_cards(world)) == deck
        assert world.is_over() == state.is_over()
        if not world.is_over():
            assert world.legal_actions(), "a sampled world has no legal action"
            assert world.current_player == state.current_player
        if deep:
            assert tt.load(world.to_json()).observation(seat) == obs
            if rng is not None:
                future = world.clone()
                while not future.is_over():
                    future.apply(rng.choice(future.legal_actions()))
        worlds.append(world)
    return worlds
