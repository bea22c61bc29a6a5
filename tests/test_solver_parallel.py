"""Solving in several threads: sets of tables, and a decision's worlds on several cores with
exactly the answer of one thread (tricktaker.solver.parallel)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

import tricktaker as tt
import tricktaker.solver as solver
from tricktaker.bots import PimcBot, parse_bot, view_of
from tricktaker.solver import SolveTimeout, Tables, parallel, solve, table_sets
from tricktaker.solver.parallel import fits, solve_worlds

GAMES = ("tuppi", "tute", "huutopussi", "marjapussi")
"""A game of each kernel and adapter: no-trump (Tuppi), Tute, the marriage games."""


def _mid_hand(name: str, seed: int, cards_played: int) -> tt.State:
    """A state of ``name`` in card play, ``cards_played`` random cards after its first play."""
    state = tt.new_game(name).new_hand(seed=seed)
    rng = random.Random(seed)
    while state.observation(None).get("phase") != "play":
        state.apply(state.legal_actions()[-1])
    for _ in range(cards_played):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _worlds(name: str, seed: int, n: int) -> list[tt.State]:
    # a rami's worlds three tricks in, the point games' (smaller) two tricks in
    state = _mid_hand(name, seed, (3 if name == "tuppi" else 2) * state_players(name) + 1)
    seat = state.current_player
    assert seat is not None
    rng = random.Random(seed)
    return [state.sample_world(seat, rng) for _ in range(n)]


def state_players(name: str) -> int:
    return tt.new_game(name).num_players


def _key(solutions: list[solver.Solution | None]) -> list[Any]:
    return [None if s is None else (s.values, s.nodes) for s in solutions]


@pytest.mark.parametrize("name", GAMES)
def test_a_solve_costs_the_same_nodes_whatever_its_tables_solved_before(name: str) -> None:
    """What the parallel solving rests on: a solve's node count is its position's alone, so a
    world solved in another set of tables, after other worlds, costs what it costs alone."""
    states = [_mid_hand(name, seed, 3 * state_players(name) + 1) for seed in range(5)]
    alone = [solve(s, tables=Tables()).nodes for s in states]
    used = Tables()
    in_order = [solve(s, tables=used).nodes for s in states]
    used_again = Tables()
    backwards = [solve(s, tables=used_again).nodes for s in reversed(states)][::-1]
    assert alone == in_order == backwards


@pytest.mark.parametrize("name", ["tuppi", "tute"])
def test_fits_says_what_a_node_limit_lets_finish(name: str) -> None:
    """``fits`` is the kernels' own rule: a search looks at its count every 1,024 nodes."""
    state = _mid_hand(name, 5, 2 * state_players(name))
    n = solve(state).nodes
    assert n > 2 * parallel.POLL_NODES
    for limit in sorted({1, 1023, 1024, 1025, n // 1024 * 1024, n // 1024 * 1024 + 1, n, n + 1}):
        try:
            solve(state, node_limit=limit)
            finished = True
        except SolveTimeout:
            finished = False
        assert finished == fits(n, limit), limit
    assert fits(n, None)


def test_solves_in_different_tables_run_while_another_set_is_busy() -> None:
    """Solves in one set take turns; a solve in another set does not wait for them."""
    first, second = table_sets(2)
    state = _mid_hand("tute", 3, 9)
    with first.lock:  # as if another thread were solving in the first set
        assert solve(state, tables=second).values == solve(state, tables=Tables()).values
        with pytest.raises(SolveTimeout, match="another solve held the solver"):
            solve(state, time_limit=0.05)  # the first set, the default, is busy


def test_table_sets_are_the_same_sets_every_call() -> None:
    sets = table_sets(3)
    assert table_sets(3) == sets and table_sets(1) == sets[:1]
    assert len({id(t) for t in sets}) == 3
    with pytest.raises(ValueError, match="at least one set"):
        table_sets(0)


@pytest.mark.parametrize("name", GAMES)
def test_worlds_solved_in_threads_are_what_one_thread_finds(name: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With or without a node budget (here one that runs out partway), worlds drawn twice, any
    number of threads: the same solutions, node counts and stopping point as one thread."""
    monkeypatch.setattr(parallel, "PARALLEL_NODES", 0)  # share even small worlds
    # ten worlds that each take more than a poll's nodes, so a limit of one node stops each
    worlds = [w for w in _worlds(name, 4, 40) if solve(w).nodes >= parallel.POLL_NODES][:10]
    assert len(worlds) == 10
    worlds = worlds[:6] + [worlds[2]] + worlds[6:] + [worlds[0]]
    nodes = [solve(w).nodes for w in worlds]
    # one node left after the third world: the fourth cannot finish; none left after the sixth:
    # the world drawn again right after it is not counted either
    for budget, solved in ((None, 12), (sum(nodes[:3]) + 1, 3), (sum(nodes[:6]), 6), (10**12, 12)):
        one = solve_worlds(worlds, 1, node_limit=budget)
        assert [s is not None for s in one] == [True] * solved + [False] * (12 - solved), budget
        assert [s.nodes for s in one if s is not None] == nodes[:solved]
        for threads in (2, 3):
            assert _key(solve_worlds(worlds, threads, node_limit=budget)) == _key(one), (budget, threads)
    assert one[6] is one[2] and one[-1] is one[0]  # a world drawn twice is solved once


def test_worlds_are_spread_over_the_sets_only_when_the_first_is_big(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[Tables | None] = []
    real = solver.solve
    worlds = _worlds("tute", 2, 8)
    mine = {id(w) for w in worlds}

    def spying_solve(state: tt.State, **kwargs: Any) -> solver.Solution:
        # (only this test's worlds: a thread another test left behind in this process, such as a
        # server's bot still deciding, may call solve meanwhile)
        if id(state) in mine:
            used.append(kwargs.get("tables"))
            time.sleep(0.01)  # long enough for the other worker to take a world meanwhile
        return real(state, **kwargs)

    monkeypatch.setattr(solver, "solve", spying_solve)
    first_nodes = real(worlds[0]).nodes
    monkeypatch.setattr(parallel, "PARALLEL_NODES", first_nodes)  # big enough: shared
    solve_worlds(worlds, 2)
    assert len(used) == 8 and set(map(id, used)) == {id(t) for t in table_sets(2)}
    used.clear()
    monkeypatch.setattr(parallel, "PARALLEL_NODES", first_nodes + 1)  # too small: one thread
    solve_worlds(worlds, 2)
    assert len(used) == 8 and set(map(id, used)) == {id(table_sets(1)[0])}


def test_a_time_limit_ends_the_worlds_solved() -> None:
    worlds = _worlds("tute", 2, 6)
    assert solve_worlds(worlds, 2, deadline=time.perf_counter() - 1) == [None] * 6


def test_thread_counts_out_of_range_are_refused() -> None:
    from tricktaker.bots import pimc

    assert pimc.MAX_THREADS == parallel.MAX_THREADS  # pimc's own copy, to load the solver lazily
    for threads in (0, parallel.MAX_THREADS + 1):
        with pytest.raises(ValueError, match="threads must be 1 to 64"):
            solve_worlds([], threads)
        with pytest.raises(ValueError, match="threads must be 1 to 64"):
            parallel.map_in_threads(lambda item, tables: item, [1, 2], threads)
    assert parallel.map_in_threads(lambda item, tables: item * 2, [1, 2, 3], 2) == [2, 4, 6]
    assert parallel.map_in_threads(lambda item, tables: item, [], 2) == []
    with pytest.raises(ValueError, match="threads must be 1 to 64"):
        PimcBot(threads=0)
    with pytest.raises(ValueError, match="threads"):
        parse_bot("pimc:threads=65")
    assert parse_bot("pimc:threads=4") == ("pimc", {"threads": 4})


@pytest.mark.parametrize("name", ["tute", "huutopussi"])
def test_pimc_plays_the_same_cards_with_one_thread_or_two(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default (two threads) decides exactly as one thread does, also when a node budget
    stops a decision's solving partway (``nodes=200000``)."""
    monkeypatch.setattr(parallel, "PARALLEL_NODES", 0)
    partial: list[int] = []  # decisions whose budget ran out partway, by thread count
    real = parallel.solve_worlds

    def spying(worlds: list[tt.State], threads: int = 1, *args: Any) -> list[solver.Solution | None]:
        out = real(worlds, threads, *args)
        if 0 < out.count(None) < len(out):
            partial.append(threads)
        return out

    monkeypatch.setattr(parallel, "solve_worlds", spying)

    def cards(spec: dict[str, int]) -> list[str]:
        state = tt.new_game(name).new_hand(seed=6)
        bots = [PimcBot(seed=seat, worlds=8, **spec) for seat in range(state.game.num_players)]
        played = []
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(view_of(state, seat))
            played.append(str(action))
            state.apply(action)
        return played

    for budget in ({}, {"nodes": 200_000}):
        assert cards({"threads": 1, **budget}) == cards(budget), budget
    assert 1 in partial and 2 in partial  # the budget did stop some decisions partway


def test_two_threads_solve_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches release the GIL and the sets hold no common lock: two workers are inside a
    solve at the same moment."""
    inside = 0
    most = 0
    lock = threading.Lock()
    real = solver.solve

    def counting_solve(state: tt.State, **kwargs: Any) -> solver.Solution:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        try:
            time.sleep(0.02)
            return real(state, **kwargs)
        finally:
            with lock:
                inside -= 1

    monkeypatch.setattr(solver, "solve", counting_solve)
    monkeypatch.setattr(parallel, "PARALLEL_NODES", 0)
    solve_worlds(_worlds("tuppi", 1, 6), 2)
    assert most == 2


# -- one position in several threads (solve(threads=...), parallel.split_moves) --------------

SPLIT_POSITIONS = [
    ("tuppi", {}, 1, 4),
    ("tute", {}, 2, 4),
    ("tute", {"players": 2}, 4, 12),
    ("huutopussi", {}, 2, 4),
    ("marjapussi", {}, 2, 4),
    ("avomarjapussi", {}, 3, 10),
    ("bondtolva", {"players": 2}, 2, 6),
]
"""(game, options, seed, cards played after the first play): a position of every kernel and
adapter that takes a few tenths of a second to solve."""


def _position(name: str, options: dict[str, Any], seed: int, cards_played: int) -> tt.State:
    state = tt.new_game(name, **options).new_hand(seed=seed)
    rng = random.Random(seed)
    while not any(a.kind == "play" for a in state.legal_actions()):
        state.apply(state.legal_actions()[-1])
    for _ in range(cards_played):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _long_position() -> tt.State:
    """A full Tute habanero deal at its first card: a solve of a minute."""
    return _position("tute", {"players": 2}, 3, 0)


@pytest.mark.parametrize(("name", "options", "seed", "played"), SPLIT_POSITIONS)
def test_a_position_solved_in_threads_has_the_values_of_one_thread(name: str, options: dict[str, Any],
                                                                   seed: int, played: int) -> None:
    state = _position(name, options, seed, played)
    before = state.to_json()
    one = solve(state)
    for threads in (2, 3):
        split = solve(state, threads=threads)
        assert split.values == one.values and split.value == one.value and split.units == one.units
        assert split.nodes > 0
    assert state.to_json() == before


def test_a_search_sharing_a_position_takes_only_the_moves_left_to_it() -> None:
    """Each kernel, given a share whose first move another search has taken, searches the others
    (each with the moves equivalent to it) and leaves that one out; their values are the same."""
    import numpy as np

    from tricktaker.solver import tuppi as tuppi_adapter
    from tricktaker.solver import tute as tute_adapter

    def check(values: Any) -> None:
        """``values(share)``: one kernel's values of one position."""
        every = values(None)
        share = np.zeros(2, dtype=np.int64)
        share[1] = 1
        rest = values(share)
        assert rest and set(rest) < set(every) and all(every[m] == v for m, v in rest.items())
        assert share[1] > 1  # it took every move after the first, then found none left
        assert values(share) == {}

    tute_pos = tute_adapter.position(_position("tute", {}, 2, 4))
    points = Tables().points
    check(lambda share: points.values(tute_pos, share=share))
    tuppi_state = _position("tuppi", {}, 1, 0)
    trick_pos, _ = tuppi_adapter._position(tuppi_state, tuppi_state.observation(None))
    tricks = Tables().tricks
    check(lambda share: tricks.card_values(trick_pos, share=share))


def test_the_threads_of_one_position_search_one_table() -> None:
    """Both kernels' lanes search one table (a bound one stores serves the others, under the
    share's locks): the no-trump kernel's lanes the first set's own, the point kernel's the first
    set's shared one, twice the size of a set's (``Tables.shared_points``).  The other tables stay
    empty whatever each lane's search took, and the values are one thread's."""
    from tricktaker.solver import tuppi as tuppi_adapter
    from tricktaker.solver import tute as tute_adapter

    state = _position("tute", {}, 2, 4)
    lanes = [Tables(), Tables()]
    assert tute_adapter.solve_tute(state, lanes).values == solve(state).values
    shared = lanes[0].shared_points(2)
    assert shared.table_bits == lanes[0].points.table_bits + 1 and shared._keys.any()
    assert not lanes[0].points._keys.any() and not lanes[1].points._keys.any()
    assert lanes[0].shared_points(2) is shared  # kept with the set

    state = _position("tuppi", {}, 1, 0)
    lanes = [Tables(), Tables()]
    assert tuppi_adapter.solve_tuppi(state, lanes).values == solve(state).values
    assert lanes[0].tricks._table.any() and not lanes[1].tricks._table.any()


def test_a_solve_in_threads_leaves_each_sets_own_generation_where_it_was() -> None:
    """A lane searching another set's table reads that table's generation for the call only: its
    own set's count never goes back, or the old entries of its own table would pass for new ones
    in its next solve (which then still gives one thread's values)."""
    from tricktaker.solver import _points as K
    from tricktaker.solver import _tricks

    sets = [Tables(), Tables()]
    states = [_position("tute", {}, 2, 4), _position("tuppi", {}, 1, 0)]
    for state in states * 3:  # the second set's own counts run ahead of the first's
        solve(state, tables=sets[1])
    ahead = (int(sets[1].points._stats[K.S_GEN]), int(sets[1].tricks._stats[_tricks.GENERATION]))
    adapters = {"tute": solver.SOLVERS["tute"], "tuppi": solver.SOLVERS["tuppi"]}
    for state in states:
        adapters[state.game.name](state, sets)
    assert (int(sets[1].points._stats[K.S_GEN]), int(sets[1].tricks._stats[_tricks.GENERATION])) == ahead
    for state in states:
        assert solve(state, tables=sets[1]).values == solve(state, tables=Tables()).values


def test_a_search_is_called_off_through_its_share() -> None:
    import numpy as np

    from tricktaker.solver import tute as tute_adapter

    pos = tute_adapter.position(_long_position())
    share = np.array([1, 0], dtype=np.int64)
    started = time.perf_counter()
    with pytest.raises(TimeoutError, match="called off"):
        Tables().points.values(pos, share=share)
    assert time.perf_counter() - started < 1.0
    with pytest.raises(ValueError, match="share must hold at least 2 items"):
        Tables().points.values(pos, share=np.zeros(1, dtype=np.int64))


def test_the_first_failure_calls_the_other_threads_off() -> None:
    """A lane that fails stops the others' searches at once, and its error is the one raised."""
    from tricktaker.solver import tute as tute_adapter

    pos = tute_adapter.position(_long_position())
    solvers = [tables.points for tables in table_sets(2)]

    def search(solver: Any, share: Any) -> dict[int, int]:
        if solver is solvers[1]:
            time.sleep(0.2)  # (the other lane is well into its search by now)
            raise ValueError("lane 1 failed")
        return solver.values(pos, share=share)

    started = time.perf_counter()
    with pytest.raises(ValueError, match="lane 1 failed"):
        parallel.split_moves(solvers, search, dict)
    assert time.perf_counter() - started < 2.0


def test_a_time_limit_stops_a_solve_in_threads_and_frees_its_tables() -> None:
    state = _long_position()
    started = time.perf_counter()
    with pytest.raises(SolveTimeout, match="time limit"):
        solve(state, time_limit=0.3, threads=2)
    assert time.perf_counter() - started < 1.5
    for tables in table_sets(2):
        assert tables.lock.acquire(blocking=False)
        tables.lock.release()
    small = _position("tute", {}, 2, 4)
    assert solve(small, threads=2).values == solve(small).values


@pytest.mark.parametrize(("name", "options", "seed", "played"), SPLIT_POSITIONS)
def test_a_stopped_solve_gives_the_exact_values_it_found(name: str, options: dict[str, Any], seed: int,
                                                         played: int) -> None:
    """A solve out of nodes raises with the actions it had solved, each with its full solve's
    value, and more of them the more nodes it had (every kernel and adapter)."""
    state = _position(name, options, seed, played)
    full = solve(state)
    found = []
    for share in (0.3, 0.6, 0.9):
        with pytest.raises(SolveTimeout, match="node limit") as stopped:
            solve(state, node_limit=int(full.nodes * share))
        values = stopped.value.values
        assert set(values) < set(full.values)
        assert all(full.values[action] == value for action, value in values.items())
        found.append(len(values))
    assert found == sorted(found) and found[-1] > 0


def test_a_solve_stopped_in_threads_gives_what_every_thread_found() -> None:
    """Two threads out of time: the values both found before the stop, each exact; the kernels'
    own errors carry them by move code."""
    from tricktaker.solver import tute as tute_adapter

    state = _position("tute", {"players": 2}, 4, 12)
    full = solve(state)
    for time_limit in (0.005, 0.01, 0.02):
        try:
            solve(state, time_limit=time_limit, threads=2)
        except SolveTimeout as stopped:
            assert set(stopped.values) < set(full.values)
            assert all(full.values[action] == value for action, value in stopped.values.items())
    state = _position("tute", {}, 2, 4)
    full = solve(state)
    pos = tute_adapter.position(state)
    every = Tables().points.values(pos)
    with pytest.raises(TimeoutError, match="node limit") as kernel_stop:
        Tables().points.values(pos, max_nodes=int(full.nodes * 0.9))
    found = kernel_stop.value.found  # type: ignore[attr-defined]
    assert found and set(found) < set(every) and all(every[m] == v for m, v in found.items())
    values: dict[Any, int] = {}
    solvers = [tables.points for tables in table_sets(2)]

    def search(solver: Any, share: Any) -> dict[int, int]:
        if solver is solvers[1]:
            raise ValueError("lane 1 failed")  # at once: lane 0 is called off after its first move or so
        return solver.values(pos, share=share)

    with pytest.raises(ValueError, match="lane 1 failed"):
        parallel.split_moves(solvers, search, lambda by_code: dict(by_code), values)
    assert all(every[m] == v for m, v in values.items())


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_solve_with_solve_interrupted(threads: int) -> None:
    """Ctrl-C (here ``_thread.interrupt_main``) during a long solve raises ``SolveInterrupted``,
    a ``KeyboardInterrupt`` carrying the actions solved by then, within a fraction of a second;
    the tables are free again.  Python's own SIGINT handler is installed for the test, as in a
    program run from a terminal: ``interrupt_main`` does nothing while the handler is
    ``SIG_IGN`` or ``SIG_DFL``, so the test does not depend on what ran before it."""
    import _thread
    import signal

    from tricktaker.solver import SolveInterrupted

    state = _long_position()
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt) as stopped:
            solve(state, threads=threads)
        timer.join()
    finally:
        timer.cancel()
        if handler is not None:  # (None: a handler not set from Python, which cannot be put back)
            signal.signal(signal.SIGINT, handler)
    assert time.perf_counter() - started < 1.5
    assert isinstance(stopped.value, SolveInterrupted)
    assert set(stopped.value.values) <= set(state.legal_actions())
    for tables in table_sets(threads):
        assert tables.lock.acquire(blocking=False)
        tables.lock.release()


def test_a_solve_refuses_a_bad_thread_count_and_a_node_limit_in_threads() -> None:
    state = _position("tute", {}, 2, 4)
    before = state.to_json()
    for threads in (0, parallel.MAX_THREADS + 1, True, 2.0):
        with pytest.raises(ValueError, match="threads must be a whole number from 1 to 64"):
            solve(state, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="node_limit counts one search's nodes"):
        solve(state, node_limit=10_000, threads=2)
    assert state.to_json() == before
