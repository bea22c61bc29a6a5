"""The point kernel's builds for families of rules (``_points_c.c``, "Builds for the commonest
rules"): the same source compiled with a family's rules fixed at build time, which the compiler
folds.  Each must search exactly as the build for every rule set (the same values and the same
nodes), serve the games it was built for, and refuse any other rules."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tricktaker as tt
from tricktaker.engine import State
from tricktaker.solver import _points as K
from tricktaker.solver import _points_c
from tricktaker.solver import marriages as marriage_solver
from tricktaker.solver import tute as tute_solver
from tricktaker.solver.points import PointPosition, PointSolver, first_play

pytestmark = pytest.mark.skipif(not K.BUILDS, reason="the package was built without the family builds")

SERVED = {
    "_points_tute4": [("tute", {})],
    "_points_tute3": [("tute", {"players": 3})],
    "_points_habanero": [("tute", {"players": 2})],
    "_points_ace4": [("marjapussi", {}), ("bondtolva", {}), ("huutopussi", {})],
    "_points_three": [("huutopussi", {"players": 3})],
    "_points_two": [("bondtolva", {"players": 2}), ("avomarjapussi", {}), ("huutopussi", {"players": 2})],
}
"""The games (with their default rules) each build is for."""

NOT_SERVED = [
    ("tute", {"players": 3, "must_overtrump": False}),
    ("tute", {"must_overtrump": False, "partner_exception": True, "tute": False}),
    ("tute", {"players": 2, "free_while_stock": True}),
    ("marjapussi", {"partner_exception": True}),
    ("huutopussi", {"first_trick": "ace_shows"}),
    ("huutopussi", {"players": 3, "kitty": 6, "kitty_shown": False, "first_trick": "ace_shows"}),
]
"""Games whose rules differ from every build's in a rule the build fixes."""


def position(state: State) -> PointPosition:
    return tute_solver.position(state) if state.game.name == "tute" else marriage_solver.position(state)


def cards_left(pos: PointPosition) -> int:
    """The cards still to be played: the hands (face-up and face-down cards in Avomarjapussi),
    the stock and an up card."""
    hands = sum(bin(int(pos.row[seat]) | int(pos.rules[K.R_DOWN + seat])).count("1") for seat in range(4))
    return hands + int(pos.rules[K.R_STOCKLEN] - pos.row[K.F_SP]) + (pos.row[K.F_UP] != 0)


def positions(name: str, options: dict[str, Any], count: int, left: int) -> Iterator[State]:
    """Card-play states from seeded deals played at random until at most ``left`` cards are
    left to play (cards_left)."""
    game = tt.new_game(name, **options)
    for seed in range(2, 2 + count):
        rng = random.Random(seed)
        state = first_play(game.new_hand(seed=seed), rng)
        while True:
            if cards_left(position(state)) <= left or state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over() and state.phase == "play":
            yield state


def build(name: str) -> Any:
    return next(module for module, _, _ in K.BUILDS if module.__name__.endswith("." + name))


def test_every_build_named_is_built() -> None:
    solver = Path(__file__).parent.parent / "src" / "tricktaker" / "solver"
    sources = sorted(path.stem for path in solver.glob("_points_*.c") if path.stem != "_points_c")
    assert sorted(module.__name__.rsplit(".", 1)[1] for module, _, _ in K.BUILDS) == sources
    assert sorted(SERVED) == sources
    for module, indexes, values in K.BUILDS:
        assert module.LAYOUT == _points_c.LAYOUT
        assert len(indexes) >= 10 and module.FIXED[K.R_N] in (2, 3, 4), module.__name__
        assert module.FIXED[K.R_STYLE] in (K.STYLE_TUTE, K.STYLE_ACE_TEN), module.__name__
        assert dict(zip(indexes.tolist(), values.tolist(), strict=True)) == module.FIXED


@pytest.mark.parametrize("name, options, expected",
                         [(n, o, b) for b, games in SERVED.items() for n, o in games]
                         + [(n, o, "_points_c") for n, o in NOT_SERVED])
def test_a_game_is_searched_by_the_build_for_its_rules(name: str, options: dict[str, Any],
                                                      expected: str) -> None:
    """Default rules go to their family's build; rules a build fixes otherwise go to the kernel
    for every rule set."""
    for state in positions(name, options, 2, 40):
        assert K.kernel(position(state).rules).__name__ == f"tricktaker.solver.{expected}"


@pytest.mark.parametrize("build_name, name, options",
                         [(b, n, o) for b, games in SERVED.items() for n, o in games])
def test_a_build_searches_the_same_nodes_to_the_same_values(build_name: str, name: str,
                                                            options: dict[str, Any],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each build against the kernel for every rule set, on the same positions with fresh
    tables: every move's value and the nodes visited agree, so folding the fixed rules changed
    nothing but the cost.  (Positions of 16 to 20 cards still to play: deep enough for calls,
    the table, quick points and the play-outs, and with two seats a stock still to draw from.)"""
    two = tt.new_game(name, **options).num_players == 2
    results = {}
    for kernel in (build(build_name), _points_c):
        monkeypatch.setattr(K, "kernel", lambda rules, kernel=kernel: kernel)
        got = []
        for state in positions(name, options, 6, 20 if two else 16):
            solver = PointSolver(table_bits=16)
            got.append((solver.values(position(state)), solver.nodes))
        results[kernel.__name__] = got
    ours, generic = results.values()
    assert len(ours) >= 3
    assert ours == generic


def test_a_build_refuses_rules_it_does_not_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules that differ from what a build fixes get a clear error naming the build and the
    rule, and the solver is fit for the next search."""
    state = next(positions("tute", {}, 1, 16))
    pos = position(state)
    solver = PointSolver(table_bits=16)
    wrong = build("_points_ace4")
    monkeypatch.setattr(K, "kernel", lambda rules: wrong)
    with pytest.raises(ValueError, match=r"_points_ace4 is built for rules\[\d+\] = -?\d+, not -?\d+"):
        solver.values(pos)
    monkeypatch.undo()
    assert solver.values(pos) == PointSolver(table_bits=16).values(pos)
