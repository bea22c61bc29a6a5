"""tt.solve from several threads at once: the CLI warms the solver up in a background thread
while its bots already solve, and each answer must be the one a lone thread gets."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator

import pytest

import tricktaker as tt
from tricktaker.engine import State
from tricktaker.solver import solve


def endgames(name: str, count: int, cards: int = 3) -> list[State]:
    """Positions of random hands with ``cards`` cards left to play and no stock."""
    found = []
    seed = 0
    while len(found) < count:
        state = tt.new_game(name).new_hand(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            if obs.get("phase") == "play" and len(obs["hand"]) <= cards and not obs.get("stock_size"):
                found.append(state)
                break
            state.apply(rng.choice(state.legal_actions()))
    return found


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch as often as Python allows, so that any shared buffer is caught in use."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_solves_in_several_threads_at_once_each_get_their_own_answer(busy_switching: None) -> None:
    states = endgames("bondtolva", 6) + endgames("tute", 4) + endgames("tuppi", 6)
    expected = [solve(state).values for state in states]
    problems: list[str] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(600):
            i = rng.randrange(len(states))
            try:
                if solve(states[i]).values != expected[i]:
                    problems.append(f"position {i}: other values")
            except Exception as exc:  # noqa: BLE001  (a search fed another's position raises)
                problems.append(f"position {i}: {exc}")

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not problems, problems[:5]
