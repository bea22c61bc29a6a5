"""The Tuppi solver: rami against DDS, nolo and sooli against plain minimax, and ``tt.solve``'s contract.

Rami is bridge no-trump play, so DDS (``endplay.dds.solve_board``) answers the
same question: the tricks the leader's side takes after each card it may lead.
CI checks many small deals and endgames of real hands; the slow test checks
1,000 full seeded deals.  Nolo and sooli have no outside reference, so a plain
minimax over the State API (``tricktaker.solver.reference``) checks them.
"""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest
from solver_helpers import (
    CLOCKWISE,
    cards,
    dds_lead_values,
    plain_tricks,
    python_card_values,
    rami_lead,
    random_deal,
)

import tricktaker as tt
from tricktaker.cards import ANGLO_52
from tricktaker.engine import State, deal_from_seed
from tricktaker.solver import SolveError, _tricks, solve
from tricktaker.solver import tuppi as tuppi_solver
from tricktaker.solver.reference import minimax_values
from tricktaker.solver.tricks import TrickPosition, TrickSolver

pytest.importorskip("endplay")


def endgame(contract: str, seed: int, tricks_left: int, mid_trick: bool) -> State:
    """A Tuppi hand of ``contract`` played at random to ``tricks_left`` tricks (mid-trick if asked)."""
    game = tt.new_game("tuppi", early_end=False)
    rng = random.Random(seed)
    for attempt in range(500):
        state = game.new_hand(seed=seed * 1000 + attempt, dealer=attempt % 4)
        while state.phase != "play":
            state.apply(rng.choice(state.legal_actions()))
        if state.contract != contract:
            continue
        while not state.is_over():
            left = len(state.hand(state.current_player))
            on_table = len(state.observation(None)["trick"])
            if left <= tricks_left and (on_table > 0) == mid_trick:
                return state
            state.apply(_random_move(state, rng))
    raise AssertionError(f"no {contract} endgame for seed {seed}")


def _random_move(state: State, rng: random.Random) -> object:
    """A random legal action; a soloist ducks when he can, so sooli hands last into their endgame."""
    actions = state.legal_actions()
    if state.soloist is not None and state.current_player == state.soloist:
        ducks = []
        for action in actions:
            child = state.clone()
            child.apply(action)
            if not child.is_over():
                ducks.append(action)
        actions = ducks or actions
    return rng.choice(actions)


# -- rami against DDS ----------------------------------------------------------------


@pytest.mark.parametrize("cards_each", [5, 7])
def test_rami_lead_values_equal_dds_on_small_deals(cards_each: int) -> None:
    solver = TrickSolver()
    for seed in range(60):
        hands = random_deal(seed, cards_each)
        leader = seed % 4
        solver.new_search()
        assert solver.card_values(rami_lead(hands, leader)) == dds_lead_values(hands, leader), seed


def test_rami_states_of_real_hands_equal_dds() -> None:
    """``tt.solve`` on rami hands at a trick start: every legal card's value is DDS's."""
    for seed in range(12):
        state = endgame("rami", seed, 6, mid_trick=False)
        seat = state.current_player
        hands = [ANGLO_52.mask_of(state.hand(s)) for s in range(4)]
        solution = solve(state)
        dds = dds_lead_values(hands, seat)
        assert {a.mask: v for a, v in solution.values.items()} == dds
        assert solution.units == "tricks"


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, 1000, 100), ids=lambda first: f"deals{first}-{first + 99}")
def test_rami_opening_leads_equal_dds_on_1000_full_deals(first: int) -> None:
    """The issue's check: 1,000 seeded full deals, every card at the opening lead (in ten runs of 100)."""
    solver = TrickSolver()
    for seed in range(first, first + 100):
        hands = deal_from_seed(seed, 0, ANGLO_52, [13] * 4)
        leader = seed % 4
        solver.new_search()
        assert solver.card_values(rami_lead(hands, leader)) == dds_lead_values(hands, leader), seed


@pytest.mark.parametrize("seed", [6, 7, 11, 14])
def test_rami_opening_leads_equal_dds_on_full_deals(seed: int) -> None:
    """A few quick full deals in every run: move ordering and wide table buckets at full size."""
    hands = deal_from_seed(seed, 0, ANGLO_52, [13] * 4)
    leader = seed % 4
    assert TrickSolver().card_values(rami_lead(hands, leader)) == dds_lead_values(hands, leader)


def test_card_values_do_not_depend_on_the_drivers_guesses() -> None:
    """``card_values`` guesses each card's value (high-card points, then earlier cards): any
    guess, or none, must step to the same exact value."""
    for seed in range(8):
        hands = random_deal(seed, 6)
        pos = rami_lead(hands, seed % 4)
        solver = TrickSolver()
        got = solver.card_values(pos)
        assert 0 <= TrickSolver.estimate(pos) <= pos.tricks_left
        for bit in solver.representatives(pos):
            after, gained = solver.child(pos, bit)
            for guess in (None, 0, after.tricks_left):
                assert gained + TrickSolver().value(after, guess) == got[bit], (seed, bit, guess)


def test_the_kernels_card_values_loop_is_the_drivers_steps_chained() -> None:
    """``card_values`` runs its loop in the kernel; chained in Python from ``representatives``,
    ``child``, ``value`` and ``estimate`` the same values come out in the same order, after the
    same nodes: rami and nolo, trick starts and mid-trick, four and three hands, capped."""
    rng = random.Random(11)
    three = tuple(tuple((lead + i) % 3 for i in range(3)) for lead in range(3))
    positions = []
    for seed in range(40):
        hands = random_deal(seed, rng.randint(1, 7))
        leader = seed % 4
        played: list[int] = []
        for i in range(seed % 4):
            seat = (leader + i) % 4
            mine = [1 << b for b in range(64) if hands[seat] >> b & 1]
            lead = (played[0].bit_length() - 1) >> 4 if played else -1
            follow = [c for c in mine if (c.bit_length() - 1) >> 4 == lead]
            card = rng.choice(follow or mine)
            hands[seat] ^= card
            played.append(card)
        mover = (leader + len(played)) % 2
        counted = mover if seed % 3 else 1 - mover
        positions.append(TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), mover, counted, leader,
                                       tuple(played), rng.choice([13, 13, 1, 2])))
        cards3 = [1 << (16 * s + r) for s in range(3) for r in rng.sample(range(2, 15), 5)]
        rng.shuffle(cards3)
        n = rng.randint(1, 4)
        hands3 = tuple(sum(cards3[i * n:(i + 1) * n]) for i in range(3))
        positions.append(TrickPosition(hands3, three, (0, 1, 1), rng.randrange(2), rng.randrange(2),
                                       rng.randrange(3)))
    for pos in positions:
        native, chained = TrickSolver(), TrickSolver()
        assert list(native.card_values(pos).items()) == list(python_card_values(chained, pos).items()), pos
        assert (native.nodes, native.trick_nodes) == (chained.nodes, chained.trick_nodes), pos


def test_quick_tricks_cash_the_leaders_winners_then_cross_to_partner() -> None:
    """West cashes D4 and D3 (no one else holds a diamond) while East throws hearts, then leads
    C3 to East's CT: three of the four tricks, counted at the trick start without a search."""
    north, east, south, west = cards("S6 HK H7 C6"), cards("HJ H3 H2 CT"), cards("S8 S2 H8 C9"), \
        cards("S3 D4 D3 C3")
    pos = TrickPosition((north, east, south, west), CLOCKWISE, (0, 1, 0, 1), 1, 1, 3)
    solver = TrickSolver()
    assert solver.test(pos, 3)
    assert solver.nodes == 1  # decided by the quick tricks, before any card is searched
    assert solver.value(pos) == plain_tricks(pos) == 3


@pytest.mark.parametrize("east, west", [
    # West's DA and East's DK are the top diamonds, West holds two, East four: DA, then D2 to
    # the DK, and East's D7 and D6 are winners too
    ("DK D7 D6 D5 S2", "DA D2 S3 H3 C3"),
    # East holds DA D2, West (on lead) DK and three more: a small diamond to the DA, the D2 back
    # to the DK, and West's last two diamonds are winners
    ("DA D2 S2 H3 C3", "DK D7 D6 D5 S3"),
])
def test_quick_tricks_run_the_long_hand_after_crossing_on_the_top_two(east: str, west: str) -> None:
    """The top two diamonds are split between West, on lead, and East, one of them with exactly
    two diamonds, and no opponent holds more than two: the two top cards cross between the
    hands and the long one runs the rest. Four of the five tricks, counted at the trick start
    without a search."""
    north, south = cards("D8 SA HA CA SQ"), cards("D9 SK HK CK HQ")
    pos = TrickPosition((north, cards(east), south, cards(west)), CLOCKWISE, (0, 1, 0, 1), 1, 1, 3)
    solver = TrickSolver()
    assert solver.test(pos, 4)
    assert solver.nodes == 1  # decided by the quick tricks, before any card is searched
    assert solver.value(pos) == plain_tricks(pos) == 4


def test_second_hand_quick_tricks_cross_to_partner() -> None:
    """North leads C2; East's CA wins the trick whatever is played, then East cashes DA and D3
    (South's D4 falls under the ace) and crosses with H3 to West's HA: all four tricks, counted
    at East's turn without a search."""
    north, east, south, west = cards("S3 S2 H2"), cards("CA DA D3 H3"), cards("C5 D4 H4 S5"), \
        cards("C3 HA SA S4")
    pos = TrickPosition((north, east, south, west), CLOCKWISE, (0, 1, 0, 1), 1, 1, 0, (cards("C2"),))
    solver = TrickSolver()
    assert solver.test(pos, 4)
    assert solver.nodes == 1
    assert solver.value(pos) == plain_tricks(pos) == 4


def test_third_hand_quick_tricks_win_the_trick_and_cross_to_the_leader() -> None:
    """North led C2 and East played C3; South's CA wins the trick whatever West plays, then
    South cashes DA and crosses with H3 to North's HA: all three tricks, counted at South's turn
    without a search."""
    north, east, south, west = cards("HA S2"), cards("D4 S3"), cards("CA DA H3"), cards("C4 D5 S4")
    pos = TrickPosition((north, east, south, west), CLOCKWISE, (0, 1, 0, 1), 0, 0, 0,
                        (cards("C2"), cards("C3")))
    solver = TrickSolver()
    assert solver.test(pos, 3)
    assert solver.nodes == 1
    assert solver.value(pos) == plain_tricks(pos) == 3


def test_nolo_orders_the_highest_losing_card_first() -> None:
    """A side that wants to lose tricks (nolo) follows with its highest card below the card led,
    then its lower ones, and wins only last; a side that wants tricks wins cheaply first."""
    north, east, south, west = cards("S2 S3 S4"), cards("C2 C7 CK D5"), cards("C3 C4 H2 H3"), \
        cards("C5 C6 D2 D3")
    misere = TrickPosition((north, east, south, west), CLOCKWISE, (0, 1, 0, 1), 0, 1, 0, (cards("C8"),))
    assert TrickSolver().representatives(misere) == [cards("C7"), cards("C2"), cards("CK")]
    rami = TrickPosition((north, east, south, west), CLOCKWISE, (0, 1, 0, 1), 1, 1, 0, (cards("C8"),))
    assert TrickSolver().representatives(rami)[0] == cards("CK")
    for pos in (misere, rami):
        assert TrickSolver().value(pos) == plain_tricks(pos)


def test_positions_of_three_hands_equal_plain_minimax() -> None:
    """Three hands (one against two, as in sooli) on random small deals, every side maximising in
    turn: the kernel always reads four hands, so the missing one must count as empty."""
    rng = random.Random(5)
    orders = tuple(tuple((lead + i) % 3 for i in range(3)) for lead in range(3))
    for _ in range(300):
        n = rng.randint(2, 4)
        deck = [1 << (16 * s + r) for s in rng.sample(range(4), 2) for r in rng.sample(range(2, 15), 7)]
        rng.shuffle(deck)
        hands = tuple(sum(deck[i * n:(i + 1) * n]) for i in range(3))
        pos = TrickPosition(hands, orders, (0, 1, 1), rng.randrange(2), rng.randrange(2), rng.randrange(3))
        assert TrickSolver().value(pos) == plain_tricks(pos), pos


def test_top_is_the_highest_card() -> None:
    """The kernel's ``top`` (a leading-zero count): the highest bit, 0 for none; and its
    ``popcount``."""
    rng = random.Random(5)
    masks = [0, 1, 1 << 62, (1 << 62) | 1] + [rng.getrandbits(rng.randint(1, 62)) for _ in range(500)]
    for m in masks:
        assert _tricks._top(m) == (1 << (m.bit_length() - 1) if m else 0), m
        assert _tricks._popcount(m) == bin(m).count("1"), m


def test_popcount_compared_with_small_numbers_is_right_for_every_card() -> None:
    """The searches compare card counts with small numbers (``n >= 2``, ``n <= r``).  A popcount
    written as the multiply-and-shift trick once made ``popcount(1 << 8) >= 2`` true (under
    Numba 0.68); the quick-trick rules then counted tricks that were not there.  The kernel's own
    inlined popcount, compared as the search compares it."""
    rng = random.Random(8)
    masks = [0] + [1 << i for i in range(63)]
    masks += [(1 << i) | (1 << j) for i in range(0, 63, 7) for j in range(i)]
    masks += [rng.getrandbits(rng.randint(1, 62)) for _ in range(300)]
    for m in masks:
        n = bin(m).count("1")
        for k in (1, 2, 3):
            assert _tricks._popcount_compare(m, k) == (n >= 2, n <= 1, n > 2, n < 3, n >= k), (m, k)


def test_table_bucket_keeps_its_newest_entries_and_matches_by_mask() -> None:
    """A full bucket replaces its oldest entry; a lookup matches only the holders an entry pins."""
    tt, stats = _tricks.new_table()
    gen = int(stats[_tricks.GENERATION])
    pinned = (1 << 62) | 0b1101  # leader 1; suit 0's top two cards held by seats 1 and 3
    mask1 = -(1 << 62) | 0b1111
    entries = _tricks.WAYS - 1  # (a bucket's first row is its header)
    for i in range(entries + 2):  # one bucket, two entries more than it holds (bounds 2 to 5)
        _tricks._store(tt, 0, 100 + i, mask1, pinned, 0, 0, gen, 2, 5, 0)
    assert _tricks._lookup(tt, 0, 100, pinned, 0, gen, 6)[0] < 0  # the two oldest made room
    assert _tricks._lookup(tt, 0, 101, pinned, 0, gen, 6)[0] < 0
    assert _tricks._lookup(tt, 0, 102, pinned, 0, gen, 6)[0] >= 0
    assert _tricks._lookup(tt, 0, 100 + entries + 1, pinned, 0, gen, 6)[0] >= 0
    _tricks._store(tt, 0, 102, mask1, pinned, 0, 0, gen, 3, 4, 1 << 9)  # merged: bounds 3 to 4
    assert _tricks._lookup(tt, 0, 102, pinned, 0, gen, 3)[0] >= 0  # at least 3
    assert _tricks._lookup(tt, 0, 102, pinned, 0, gen, 5)[0] >= 0  # at most 4
    assert _tricks._lookup(tt, 0, 102, pinned, 0, gen, 4) == (-1, 1 << 9)  # undecided: its card
    middle = 100 + _tricks.WAYS // 2
    assert _tricks._lookup(tt, 0, middle, pinned, 0, gen, 3)[0] < 0  # 2..5 do not decide 3
    assert _tricks._lookup(tt, 0, middle, pinned | 0b110000, 7, gen, 6)[0] >= 0  # unpinned cards
    assert _tricks._lookup(tt, 0, middle, pinned ^ 0b100, 0, gen, 6)[0] < 0  # another holder
    assert _tricks._lookup(tt, 0, middle, -(1 << 63) | 0b1101, 0, gen, 6)[0] < 0  # leader 2
    live = sum(0x7FFC << (16 * s) for s in range(4))
    assert _tricks._top_cards(live, mask1, 3) == (0x6000 | 0x4000 << 32)



def test_a_generation_past_what_entries_keep_starts_the_table_afresh() -> None:
    """Entries keep 32 bits of their generation: new_search clears the table before it would
    pass GEN_LIMIT, the kernel refuses a generation out of range, and solving goes on."""
    solver = TrickSolver()
    position = TrickPosition((0b111, 0b111 << 16, 0b111 << 32, 0b111 << 48), CLOCKWISE, (0, 1, 0, 1), 0, 0, 0)
    expected = solver.card_values(position)
    solver._stats[_tricks.GENERATION] = _tricks.GEN_LIMIT
    with pytest.raises(ValueError, match="GENERATION"):
        solver.card_values(position)
    solver._stats[_tricks.GENERATION] = _tricks.GEN_LIMIT - 1
    assert solver.card_values(position) == expected
    solver._table[5, _tricks.META] = 1  # (anything the clear must wipe)
    assert solver.new_search() == 1
    assert not solver._table.any()
    assert solver.card_values(position) == expected
    tt, stats = _tricks.new_table()
    with pytest.raises(ValueError, match="gen"):
        _tricks._store(tt, 0, 1, 0, 0, 0, 0, _tricks.GEN_LIMIT, 0, 1, 0)
    with pytest.raises(ValueError, match="lower and upper"):
        _tricks._store(tt, 0, 1, 0, 0, 0, 0, 1, 0, 16, 0)


def test_entries_in_the_finer_buckets_of_full_buckets_give_the_same_values() -> None:
    """A bucket found full passes the entries that pin more to finer buckets, and a lookup then
    scans those too (docs/solver.md, "Full deals are bound by the table").  Only deep searches
    fill buckets, so here every bucket's header says full from the start: every entry that may
    goes to a finer bucket, every lookup scans them, and the values are a fresh table's (and
    DDS's in rami).  The searches cost what a fresh table's do: the entries in the finer buckets
    are found again (a build whose lookups skipped them searched 1.3-4 times the trick starts)."""
    crowded_starts = fresh_starts = 0
    for seed in range(12):
        hands = random_deal(300 + seed, 7)
        leader = seed % 4
        for counted in (leader % 2, 1 - leader % 2):  # rami, then nolo
            pos = TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), leader % 2, counted, leader)
            crowded, fresh = TrickSolver(), TrickSolver()
            gen = crowded.new_search()
            crowded._table[::_tricks.WAYS, _tricks.META] = gen << 32 | 1
            values = crowded.card_values(pos)
            assert values == fresh.card_values(pos), (seed, counted)
            crowded_starts += crowded.trick_nodes
            fresh_starts += fresh.trick_nodes
            if counted == leader % 2:
                assert values == dds_lead_values(hands, leader), seed
    assert crowded_starts <= 1.05 * fresh_starts, (crowded_starts, fresh_starts)

# -- time limits and arguments ------------------------------------------------------------


def test_a_time_limit_stops_a_full_deal_and_leaves_the_table_sound() -> None:
    """A full deal with a tiny time left raises TimeoutError quickly; the stopped search stored
    nothing from unfinished subtrees, so later solves on the same solver are still exact."""
    solver = TrickSolver()
    hands = deal_from_seed(2, 0, ANGLO_52, [13] * 4)
    pos = rami_lead(hands, 2)
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        solver.card_values(pos, deadline=time.monotonic() + 0.002)
    assert time.monotonic() - start < 0.5
    with pytest.raises(TimeoutError):  # a deadline already passed
        solver.card_values(pos, deadline=time.monotonic() - 1)
    # the same deal, without starting afresh: the table keeps what the stopped searches stored
    assert solver.card_values(pos) == dds_lead_values(hands, 2)
    other = deal_from_seed(6, 0, ANGLO_52, [13] * 4)
    solver.new_search()
    deadline = time.monotonic() + 60
    assert solver.card_values(rami_lead(other, 2), deadline=deadline) == dds_lead_values(other, 2)


def test_a_node_limit_stops_the_no_trump_search_and_leaves_the_table_sound() -> None:
    """``max_nodes`` stops a full deal's card values after that many nodes (to within the
    kernel's poll of 1,024) with TimeoutError; a search given more than it needs is exact, and
    the stopped ones left nothing unsound in the table."""
    hands = deal_from_seed(2, 0, ANGLO_52, [13] * 4)
    pos = rami_lead(hands, 2)
    solver = TrickSolver()
    for limit in (1, 3_000, 40_000):
        solver.new_search()
        start = solver.nodes
        with pytest.raises(TimeoutError, match="node limit"):
            solver.card_values(pos, max_nodes=limit)
        assert limit <= solver.nodes - start <= limit + 1024
    assert solver.card_values(pos, max_nodes=10**9) == dds_lead_values(hands, 2)


def test_a_stopped_search_mid_way_leaves_exact_bounds() -> None:
    """Stopped at many points (time limits from 1 ms up), then finished: each card's value is
    still DDS's, so no bound from an unfinished subtree reached the table."""
    hands = deal_from_seed(14, 0, ANGLO_52, [13] * 4)
    pos = rami_lead(hands, 14 % 4)
    solver = TrickSolver()
    for ms in (1, 2, 4, 8, 16, 32):
        try:
            solver.card_values(pos, deadline=time.monotonic() + ms / 1000)
        except TimeoutError:
            pass
    assert solver.card_values(pos) == dds_lead_values(hands, 14 % 4)


def test_a_search_releases_the_gil_while_it_runs() -> None:
    """A long search in another thread leaves this one free to run (the kernel releases the GIL):
    one null-window test of a full nolo deal, stopped by its time limit after 0.4 s."""
    hands = deal_from_seed(2, 0, ANGLO_52, [13] * 4)
    pos = TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), 0, 1, 2)  # nolo: minutes to solve
    done = threading.Event()
    outcome: list[object] = []

    def work() -> None:
        try:
            outcome.append(TrickSolver().test(pos, 7, deadline=time.monotonic() + 0.4))
        except TimeoutError as exc:
            outcome.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=work)
    thread.start()
    ticks = 0
    start = time.monotonic()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    elapsed = time.monotonic() - start
    thread.join()
    assert isinstance(outcome[0], TimeoutError)  # (the search ran in the thread until its limit)
    assert ticks >= 0.3 * elapsed / 0.002, (ticks, elapsed)  # with the GIL held: a handful


def test_one_solver_shared_by_threads_gives_each_its_own_answers() -> None:
    """The kernel runs without the GIL; a solver's lock makes threads sharing it take turns, so
    no search reads another's half-written table."""
    # one objective (seats 0 and 2 lead, their side counts): its stored bounds serve every deal
    positions = [rami_lead(random_deal(seed, 7), 2 * (seed % 2)) for seed in range(12)]
    expected = [TrickSolver().card_values(pos) for pos in positions]
    shared = TrickSolver()
    problems: list[int] = []

    def work(offset: int) -> None:
        for k in range(60):
            i = (k * 5 + offset) % len(positions)
            if shared.card_values(positions[i]) != expected[i]:
                problems.append(i)

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not problems


def test_the_kernels_layout_is_checked_against_the_shim(monkeypatch: pytest.MonkeyPatch) -> None:
    """One source of truth: the C module reports its table layout, and the shim refuses to load
    over a kernel built with other constants."""
    assert _tricks.LAYOUT["WAYS"] == _tricks.WAYS and _tricks.LAYOUT["TT_ROWS"] == _tricks.TT_ROWS
    _tricks._check_layout()
    monkeypatch.setattr(_tricks, "WAYS", _tricks.WAYS * 2)
    with pytest.raises(ImportError, match="WAYS"):
        _tricks._check_layout()


def test_bad_array_arguments_raise_instead_of_crashing() -> None:
    """The kernel checks its arrays: wrong item size, too short, or a position it cannot walk."""
    tt, stats = _tricks.new_table()
    order = np.array([[(lead + i) % 4 for i in range(4)] for lead in range(4)], dtype=np.int64)
    hands = np.array(random_deal(1, 5), dtype=np.int64)
    sides = np.array([0, 1, 0, 1], dtype=np.int64)

    def call(**changes: object) -> object:
        args: dict[str, object] = dict(hands=hands, order=order, tsize=4, side=sides, maxside=0, counted=0,
                                       leader=0, pos=0, lead_suit=-1, best=0, best_seat=-1, table=0, won=0,
                                       target=2, tt=tt, stats=stats, time_left=0.0, signals=False,
                                       max_nodes=0)
        args.update(changes)
        return _tricks.search(*args.values())  # type: ignore[arg-type]

    assert call()[0] in (True, False)
    with pytest.raises(TypeError):
        call(hands=hands.astype(np.int32))
    with pytest.raises(TypeError):
        call(tt=tt.astype(np.float32))
    with pytest.raises(TypeError):
        call(hands=[1, 2, 3, 4])
    with pytest.raises(TypeError):
        call(order=order[:, ::2])  # not contiguous
    with pytest.raises(ValueError):
        call(hands=hands[:3])
    with pytest.raises(ValueError):
        call(tt=tt[:100])
    with pytest.raises(ValueError):
        call(stats=stats[:2])
    with pytest.raises(ValueError):
        call(order=order * 5)
    with pytest.raises(ValueError):
        call(leader=7)
    with pytest.raises(ValueError):
        call(hands=np.array([1, 2, 4, 8 | 16], dtype=np.int64))  # one hand longer than the others
    with pytest.raises(TypeError):
        _tricks.moves_of(hands, order, 4, sides, 0, 0, -1, 0, -1, 0, np.zeros(13, dtype=np.int32),
                         np.zeros(13, dtype=np.int64))
    with pytest.raises(ValueError):
        _tricks.moves_of(hands, order, 4, sides, 0, 0, -1, 0, -1, 0, np.zeros(5, dtype=np.int64),
                         np.zeros(13, dtype=np.int64))
    with pytest.raises(ValueError):
        _tricks._store(tt, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0)  # not a bucket's first row
    with pytest.raises(ValueError):
        _tricks._lookup(tt, len(tt), 0, 0, 0, 1, 0)


# -- every contract against plain minimax ------------------------------------------------


@pytest.mark.parametrize("contract", ["rami", "nolo", "sooli"])
@pytest.mark.parametrize("mid_trick", [False, True])
def test_values_equal_plain_minimax(contract: str, mid_trick: bool) -> None:
    tricks_left = 4 if contract == "sooli" else 3
    for seed in range(8):
        state = endgame(contract, seed, tricks_left, mid_trick)
        expected = minimax_values(state, tuppi_solver.objective)
        solution = solve(state)
        assert solution.values == expected, (contract, seed, state.to_json())
        assert solution.value == max(expected.values())


def test_units_name_each_contract() -> None:
    assert solve(endgame("nolo", 1, 3, False)).units == "opponents' tricks"
    assert solve(endgame("sooli", 1, 3, False)).units == "sooli won"


# -- the contract of tt.solve --------------------------------------------------------------


def test_solve_leaves_the_state_unchanged() -> None:
    state = endgame("rami", 3, 5, mid_trick=True)
    before = state.to_json()
    tt.solve(state)
    assert state.to_json() == before
    state.apply(state.legal_actions()[0])  # still playable


def test_values_follow_legal_actions_and_best_reaches_the_value() -> None:
    state = endgame("nolo", 4, 5, mid_trick=True)
    solution = tt.solve(state)
    assert list(solution.values) == state.legal_actions()
    assert solution.mover == state.current_player
    assert solution.best() and all(solution.values[a] == solution.value for a in solution.best())


def test_solve_refuses_a_hand_outside_its_play() -> None:
    state = tt.new_game("tuppi").new_match(seed=1)
    with pytest.raises(SolveError, match="play phase"):
        tt.solve(state)
    assert isinstance(SolveError("x"), ValueError)
