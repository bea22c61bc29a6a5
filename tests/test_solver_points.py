"""The point-game solver (Tute, the Marjapussi family, Huutopussi) against plain minimax.

Every point-game variant of ``test_contract.VARIANTS`` is played at random from
seeded deals into small endgames (at most three tricks' cards left; the slow
test has many more, and some with four), half of them stopped where a call is legal (a cante, tute or
pass; a declare, ask or answer).  ``tt.solve`` must give every legal action the
value that ``reference.minimax_values`` finds with the adapter's objective (the
units each adapter documents) and sides.

Habanero's cantes and exchange happen only while the stock lasts, too deep for
minimax; calls in the middle of hands are checked one step at a time instead:
a call leaves the same side to move, so its value must be what it scores plus
the value of the position after it.  Also: ``tt.solve``'s contract (the value is
the best action's, no state outside the play phase, the state unchanged, no
memory of earlier solves).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest

import tricktaker as tt
from tricktaker.engine import Action, State
from tricktaker.solver import OBJECTIVES, SolveError, made, side_of, solve, table_sets
from tricktaker.solver import _points as K
from tricktaker.solver import marriages as marriage_solver
from tricktaker.solver import tute as tute_solver
from tricktaker.solver.points import PointPosition, PointSolver, first_play
from tricktaker.solver.reference import Objective, SideOf, minimax_values

VARIANTS = {
    "tute-pairs": ("tute", {}),
    "tute-habanero": ("tute", {"players": 2}),
    "tute-options": ("tute", {"must_overtrump": False, "partner_exception": True, "tute": False}),
    "tute-habanero-free": ("tute", {"players": 2, "free_while_stock": True}),
    "tute-variants": ("tute", {"tute_sotas": True, "must_declare": True}),
    "tute-habanero-anytime": ("tute", {"players": 2, "exchange_anytime": True, "tute_sotas": True}),
    "tute-three": ("tute", {"players": 3}),
    "marjapussi": ("marjapussi", {}),
    "marjapussi-ordered": ("marjapussi", {"declaration_order": "whole_first", "lead_from_marriage": True,
                                          "clubs_ace_opens": True, "pip_tie_carries": True}),
    "marjapussi-variants": ("marjapussi", {"declaration_order": "ordered", "pips": "aces_tens",
                                           "partner_exception": True, "first_lead": "ace_or_spade"}),
    "bondtolva": ("bondtolva", {}),
    "bondtolva-two": ("bondtolva", {"players": 2}),
    "avomarjapussi": ("avomarjapussi", {}),
    "huutopussi": ("huutopussi", {}),
    "huutopussi-three": ("huutopussi", {"players": 3}),
    "huutopussi-three-kitty6": ("huutopussi", {"players": 3, "kitty": 6, "kitty_shown": False}),
    "huutopussi-main-form": ("huutopussi", {"preset": "main_form"}),
    "huutopussi-no-contract": ("huutopussi", {"forced_opening": False, "all_pass": "no_contract"}),
    "huutopussi-lockouts-main": ("huutopussi", {"ask_lockouts": "main_form"}),
    "huutopussi-lockouts-2002": ("huutopussi", {"ask_lockouts": "illisoft_2002",
                                                "calls_after_any_trick": True}),
    "huutopussi-variants": ("huutopussi", {"calls_after_any_trick": True, "exchange": 4,
                                           "card_values": "pips", "marriage_values": "spades_high"}),
    "huutopussi-2002": ("huutopussi", {"preset": "rules_2002"}),
    "huutopussi-2002-three": ("huutopussi", {"preset": "rules_2002_three"}),
    "huutopussi-three-no-contract": ("huutopussi", {"players": 3, "forced_opening": False,
                                                    "all_pass": "no_contract"}),
    "huutopussi-two": ("huutopussi", {"players": 2}),
    "huutopussi-2002-two": ("huutopussi", {"preset": "rules_2002_two"}),
    "huutopussi-two-no-contract": ("huutopussi", {"players": 2, "forced_opening": False,
                                                  "all_pass": "no_contract", "kitty": 6}),
}
"""The point games' variants of ``test_contract.VARIANTS``, and a few more option mixes."""

PLAY_PHASES = ("play", "declare", "answer")


def rules_of(state: State) -> tuple[Objective, SideOf]:
    """The objective and the sides the solver uses for this state's game."""
    return OBJECTIVES[state.game.name]


def cards_out(state: State) -> int:
    """Cards still to be played: hands, stock, face-up and face-down rows."""
    obs = state.observation(None)
    total = sum(obs["hand_sizes"]) + obs.get("stock_size", 0)
    for row in obs.get("rows") or []:
        total += sum((up is not None) + down for up, down in row)
    return total


def endgames(variant: str, count: int, tricks: int, seed: int = 0) -> Iterator[State]:
    """``count`` play-phase states with at most ``tricks`` tricks' cards left, from seeded deals
    played at random: single hands and match hands in turn, every other one stopped where a call
    is legal (if the hand offers one)."""
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    found = 0
    while found < count:
        seed += 1
        rng = random.Random(seed)
        state = game.new_hand(seed=seed) if seed % 2 else game.new_match(seed=seed)
        assert seed < 100_000, f"{variant}: too few endgames"
        hand = state.hand_number
        want_call = seed % 4 < 2
        while not state.is_over() and state.hand_number == hand:
            if state.phase in PLAY_PHASES and cards_out(state) <= tricks * state.num_players:
                calls = any(a.kind != "play" for a in state.legal_actions())
                if (calls or not want_call) and rng.random() < 0.6:
                    found += 1
                    yield state
                    break
            state.apply(rng.choice(state.legal_actions()))


def check_against_minimax(state: State) -> None:
    objective, side_of = rules_of(state)
    solution = solve(state)
    expected = minimax_values(state, objective, side_of)
    assert solution.values == expected, (state.to_json(), solution.values, expected)
    assert list(solution.values) == state.legal_actions()
    assert solution.value == max(expected.values())
    assert solution.mover == state.current_player


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_values_match_minimax_in_endgames(variant: str) -> None:
    for state in endgames(variant, 16, 3):
        check_against_minimax(state)


def test_a_last_trick_with_a_call_left_is_searched() -> None:
    """The search counts a last trick (a card in every hand) at once unless its leader has a call
    to make, which with a card a hand is only a half-marriage ask to the partner holding the
    other half.  Positions a trick earlier, from Huutopussi deals (the 2002 rules) whose last
    trick offered its leader such an ask, against plain minimax, which plays every call out (on
    seed 102 the ask changes the value)."""
    name, options = VARIANTS["huutopussi-2002"]
    game = tt.new_game(name, **options)
    checked = 0
    for seed in range(110):
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        before = None
        while not state.is_over():
            if state.phase in PLAY_PHASES and cards_out(state) == 2 * state.num_players:
                before = state.clone()
            actions = state.legal_actions()
            if before and state.phase == "play" and cards_out(state) == state.num_players:
                if any(a.kind == "ask" and "half" in str(a) for a in actions):
                    check_against_minimax(before)
                    checked += 1
                break
            state.apply(rng.choice(actions))
    assert checked >= 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_values_match_minimax_in_many_endgames(variant: str) -> None:
    for state in endgames(variant, 120, 3, seed=10_000):
        check_against_minimax(state)
    name, options = VARIANTS[variant]
    deeper = 30 if tt.new_game(name, **options).num_players == 2 else 3  # minimax is slow with four
    for state in endgames(variant, deeper, 4, seed=20_000):
        check_against_minimax(state)


def check_trick_starts_against_minimax(variant: str, above_play_out: int, count: int,
                                       seed: int) -> int:
    """Check against minimax the trick starts, out of ``count`` endgames of ``variant``, where
    every hand holds ``above_play_out`` cards more than ``play_out``'s cut-off (two cards,
    three with two seats) and the leader has no call to make; return how many."""
    name, options = VARIANTS[variant]
    size = (3 if tt.new_game(name, **options).num_players == 2 else 2) + above_play_out
    checked = 0
    for state in endgames(variant, count, size, seed=seed):
        obs = state.observation(None)
        if obs["trick"] or set(obs["hand_sizes"]) != {size}:
            continue
        if any(a.kind != "play" for a in state.legal_actions()):
            continue
        check_against_minimax(state)
        checked += 1
    return checked


@pytest.mark.parametrize("variant", ["tute-pairs", "tute-three", "tute-habanero", "marjapussi",
                                     "bondtolva-two", "huutopussi", "huutopussi-three",
                                     "huutopussi-two"])
def test_the_last_tricks_played_out_agree_with_minimax(variant: str) -> None:
    """Once every hand holds two cards (three with two seats), no stock is left and no call can
    come, the kernel plays the hand out on its own (``play_out``: no key, bound or table
    entry).  Trick starts with one card more a hand and no call to make reach it at every card of
    their first trick, under every scoring those games have: card points, the last trick, the pip
    point (Marjapussi), the sweep (Huutopussi for two), and three seats."""
    checked = check_trick_starts_against_minimax(variant, 1, 60, seed=30_000)
    assert checked >= 8, checked


@pytest.mark.parametrize("variant", ["marjapussi", "marjapussi-variants", "bondtolva", "bondtolva-two",
                                     "avomarjapussi"])
def test_a_bound_found_at_one_pip_lead_serves_every_other(variant: str) -> None:
    """The games with a pip point key a table entry without the pip lead so far: a position's
    value never falls as that lead rises and rises by at most the pip point, so a lower bound
    found at one lead holds at every higher one and an upper bound at every lower one.  The same
    endgames with other pip leads (the pip point decided either way, and near the actual lead),
    solved one after another in one table and one generation, get the values of fresh solves,
    with fewer nodes; and the fresh values keep the order and the spread that the sharing
    rests on."""
    moved = 0
    fresh_nodes = shared_nodes = 0
    for state in endgames(variant, 4, 5, seed=50_000):
        pos = marriage_solver.position(state)
        pip_point = int(pos.rules[K.R_PIPVAL])
        assert pip_point > 0
        total, lead = int(pos.rules[K.R_TOTALPIPS]), int(pos.row[K.F_PIPDIFF])
        positions = []
        for step in (-total - 1, -12, -4, 0, 4, 12, total + 1):
            row = pos.row.copy()
            row[K.F_PIPDIFF] = lead + step
            positions.append(dataclasses.replace(pos, row=row))
        fresh = []
        for position in positions:
            solver = PointSolver(table_bits=12)
            fresh.append(solver.values(position))
            fresh_nodes += solver.nodes
        for lower, higher in itertools.pairwise(fresh):
            assert lower.keys() == higher.keys()
            assert all(0 <= higher[move] - lower[move] <= pip_point for move in lower), (lower, higher)
        moved += fresh[0] != fresh[-1]
        shared = PointSolver(table_bits=12)
        generation = shared.new_generation()
        for position, expected in zip(positions, fresh, strict=True):
            assert shared.values(position, table=(shared, generation)) == expected, state.to_json()
        shared_nodes += shared.nodes
    assert moved >= 1  # (the pip lead decided some value)
    assert shared_nodes < 0.7 * fresh_nodes, (shared_nodes, fresh_nodes)


def pips_decided(pos: PointPosition) -> bool:
    """Whether the pip lead so far decides the pip point whatever the play: above every pip
    still out, or at most minus all of them."""
    out = int(pos.rules[K.R_TOTALPIPS]) - int(pos.row[K.F_GONEPIPS])
    lead = int(pos.row[K.F_PIPDIFF])
    return lead > out or lead <= -out


@pytest.mark.parametrize("variant", ["marjapussi", "marjapussi-variants", "bondtolva", "bondtolva-two"])
def test_once_the_pip_point_is_decided_no_card_s_pips_matter(variant: str) -> None:
    """Once the pip lead so far decides the pip point whatever the play, a card's pips no longer
    change any value: the search merges a hand's cards of equal points that lie next to each
    other among the live cards whatever their pips (an ace and a ten, a jack and a nine), and
    the table classes such cards by their points alone (a key of its own kind).  At the same
    endgames, the mover searches fewer cards with the pip point decided either way than with it
    open, and never more; and endgames where play has decided it get minimax's values (deep
    enough, with two seats, for their trick starts to be keyed)."""
    fewer = 0
    for state in endgames(variant, 12, 4, seed=70_000):
        pos = marriage_solver.position(state)
        out = int(pos.rules[K.R_TOTALPIPS]) - int(pos.row[K.F_GONEPIPS])
        counts = []
        for lead in (-out, 0, out + 1):  # decided against, open, decided for the maximiser
            row = pos.row.copy()
            row[K.F_PIPDIFF] = lead
            counts.append(len(kernel_moves(pos, row, root=False)))
        assert counts[0] == counts[2] <= counts[1], counts
        fewer += counts[0] < counts[1]
    assert fewer >= 1, variant
    name, options = VARIANTS[variant]
    two = tt.new_game(name, **options).num_players == 2
    checked = 0
    for state in endgames(variant, 60, 5 if two else 3, seed=71_000):
        if pips_decided(marriage_solver.position(state)):
            check_against_minimax(state)
            checked += 1
    assert checked >= 3, checked


@pytest.mark.parametrize("variant", ["tute-three", "tute-habanero", "bondtolva-two",
                                     "huutopussi-three", "huutopussi-two"])
def test_trick_starts_the_table_lacks_are_played_out_and_agree_with_minimax(variant: str) -> None:
    """One card a hand above ``play_out``'s own cut-off (three cards, four with two seats), a
    trick start the table does not hold is played out too, and its answer kept in the table.
    Trick starts with one card more than that reach it after their first trick; checked against
    plain minimax.  (Four seats at four cards take minimax tens of seconds a position: the slow
    test's four-trick endgames cover them.)"""
    checked = check_trick_starts_against_minimax(variant, 2, 24, seed=40_000)
    assert checked >= 4, checked


# -- calls in the middle of hands, one step at a time ----------------------------------------


MIDDLE = {2: 20, 3: 18, 4: 20}
"""Cards left at most in the middle positions, by players: two-handed games call only while
a stock lasts, so theirs start earlier."""


def middles(variant: str, count: int, seed: int) -> Iterator[State]:
    """States where a call is legal, part way through hands small enough to solve quickly."""
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    found = 0
    for k in range(seed, seed + 2000):
        rng = random.Random(k)
        state = game.new_hand(seed=k)
        while not state.is_over():
            if state.phase in PLAY_PHASES and cards_out(state) <= MIDDLE[state.num_players] \
                    and any(a.kind != "play" for a in state.legal_actions()):
                found += 1
                yield state
                break
            state.apply(rng.choice(state.legal_actions()))
        if found == count:
            return
    raise AssertionError(f"{variant}: too few hands with a call in the middle")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_call_is_worth_its_points_and_what_follows(variant: str) -> None:
    checked = 0
    for state in middles(variant, 3, seed=500):
        objective, side_of = rules_of(state)
        mover = state.current_player
        assert mover is not None
        side = side_of(state, mover)
        before = objective(state, side, False)
        solution = solve(state)
        for action in state.legal_actions():
            if action.kind == "play":
                continue
            child = state.clone()
            child.apply(action)
            finished = child.is_over() or child.hand_number != state.hand_number
            gained = objective(child, side, finished) - before
            if finished:
                assert solution.values[action] == gained, action
                continue
            nxt = child.current_player
            assert nxt is not None and side_of(child, nxt) == side, "a call keeps the side to move"
            assert solution.values[action] == gained + solve(child).value, action
            checked += 1
    assert checked > 0


def _entry_to_partner(pos: PointPosition) -> bool:
    """Whether the kernel's entry rule applies at this trick start: a plain suit where the
    mover's partner holds the top live card, the mover holds the suit, and each opponent must
    follow (it holds the suit, or no trump)."""
    row, rules = pos.row, pos.rules
    n, leader = int(rules[K.R_N]), int(row[K.F_TURN])
    if row[K.F_POS] != 0 or row[K.F_PHASE] != K.PH_PLAY or row[K.F_LT1] != 0:
        return False
    hands = [int(row[seat]) for seat in range(n)]
    side = [int(rules[K.R_SIDE + seat]) for seat in range(n)]
    trump = int(row[K.F_TRUMP])
    trumps = 0xFFFF << (16 * trump) if trump >= 0 else 0
    for s in range(4):
        suit = 0xFFFF << (16 * s)
        live = (hands[0] | hands[1] | hands[2] | (hands[3] if n == 4 else 0)) & suit
        if s == trump or not live or not hands[leader] & suit:
            continue
        top = 1 << (live.bit_length() - 1)
        partners = [p for p in range(n) if p != leader and side[p] == side[leader]]
        opponents = [o for o in range(n) if side[o] != side[leader]]
        if any(hands[p] & top for p in partners) and all(
                hands[o] & suit or not hands[o] & trumps for o in opponents):
            return True
    return False


@pytest.mark.parametrize("variant", ["tute-pairs", "huutopussi", "huutopussi-three", "marjapussi"])
def test_entries_to_the_partner_count_exactly(variant: str) -> None:
    """The sure points through an entry to the partner (the leader leads low to the partner's top
    card, then the partner cashes) are a bound the search cuts on: endgames whose first trick
    start offers such an entry get minimax's values."""
    adapter = tute_solver if VARIANTS[variant][0] == "tute" else marriage_solver
    checked = 0
    for state in endgames(variant, 400, 3, seed=900):
        if state.phase == "play" and _entry_to_partner(adapter.position(state)):
            check_against_minimax(state)
            checked += 1
            if checked == 6:
                break
    assert checked == 6


# -- the contract of tt.solve ------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["bondtolva", "huutopussi-three", "marjapussi"])
def test_full_deal_value_is_the_best_action_value(variant: str) -> None:
    name, options = VARIANTS[variant]
    state = tt.new_game(name, **options).new_hand(seed=3)
    rng = random.Random(3)
    while state.phase not in PLAY_PHASES:
        state.apply(rng.choice(state.legal_actions()))
    before = state.to_json()
    solution = solve(state)
    assert solution.value == max(solution.values.values())
    assert solution.best() and all(solution.values[a] == solution.value for a in solution.best())
    assert state.to_json() == before
    assert solution.units


def value_for(state: State, side: int, hand: int) -> int:
    """What ``side`` makes in hand ``hand`` from ``state`` on, with best play: the solver's value
    of a fresh solve where ``side`` moves, minimax over the other side's moves until it does."""
    if state.is_over() or state.hand_number != hand:
        return made(state, side, hand)
    if side_of(state, state.current_player) == side:
        return made(state, side, hand) + solve(state).value
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(value_for(child, side, hand))
    return min(values)


@pytest.mark.parametrize("game, seed", [("tute", 10), ("marjapussi", 4), ("huutopussi", 3)])
def test_every_first_card_agrees_with_fresh_solves_after_it(game: str, seed: int) -> None:
    """A full deal's values share one table over every first card; each must be what fresh
    solves (tables of their own) find from the positions where the mover's side moves next, the
    other side's cards in between tried in turn.  It catches a table key that lets positions of
    different cards' searches meet where they should not: the Tute deal of seed 10 once valued
    the 3 of oros at 32 instead of 44 when a key left out what was sung without saying that no
    call could come any more."""
    state = first_play(tt.new_game(game).new_hand(seed=seed), random.Random(seed))
    side, hand = side_of(state, state.current_player), state.hand_number
    solution = solve(state)
    for action, value in solution.values.items():
        child = state.clone()
        child.apply(action)
        assert made(state, side, hand) + value == value_for(child, side, hand), action


def test_solving_leaves_the_state_unchanged_and_forgets_earlier_solves() -> None:
    first, second = list(endgames("marjapussi", 2, 4, seed=40))
    texts = first.to_json(), second.to_json()
    legal = first.legal_actions()
    one = solve(first)
    solve(second)
    assert solve(first) == one
    assert (first.to_json(), second.to_json()) == texts
    assert first.legal_actions() == legal


def test_states_outside_the_play_phase_are_refused() -> None:
    state = tt.new_game("huutopussi").new_hand(seed=1)
    assert state.phase == "bid"
    with pytest.raises(SolveError):
        solve(state)
    rng = random.Random(1)
    while state.phase == "bid":
        state.apply(rng.choice(state.legal_actions()))
    assert state.phase in ("give", "raise", "discard")
    with pytest.raises(SolveError):
        solve(state)
    done = tt.new_game("tute").new_hand(seed=1)
    while not done.is_over():
        done.apply(done.legal_actions()[0])
    with pytest.raises(SolveError):
        solve(done)


def test_units_say_what_is_counted() -> None:
    tute = next(endgames("tute-pairs", 1, 3))
    marja = next(endgames("marjapussi", 1, 3))
    huuto = next(endgames("huutopussi", 1, 3))
    assert "cantes" in solve(tute).units
    assert "pip point" in solve(marja).units
    assert "marriages" in solve(huuto).units


# -- targeted cases --------------------------------------------------------------------------------


def kernel_moves(pos: PointPosition, row: np.ndarray | None = None, root: bool = True) -> list[int]:
    """The move codes the point kernel's move generator searches at ``pos`` (or in ``row`` of
    it), in its order (no table move, no killer): at the root every legal action, inside the
    search one card for each run of equivalent cards."""
    rows, moves, scores, work = K.new_stack()
    rows[0] = pos.row if row is None else row
    work[0, K.W_KILLER] = -1
    n = K.gen_moves(rows, 0, pos.rules, pos.cards, pos.suits, moves, scores, work, -1, root)
    return [int(m) for m in moves[0, :n]]


def generated_moves(state: State, root: bool = True) -> list[Action]:
    """The actions of :func:`kernel_moves` from ``state``."""
    adapter = tute_solver if state.game.name == "tute" else marriage_solver
    pos = adapter.position(state)
    by_code = {code: action for action, code in pos.codes.items()}
    return [by_code[m] for m in kernel_moves(pos, root=root)]


def search_order(state: State) -> list[str]:
    """The mover's legal cards in the order the point kernel's move generator tries them."""
    return [str(action.card) for action in generated_moves(state)]


def test_the_move_order_leads_what_takes_the_trick_first() -> None:
    """Tute in pairs, oros trumps (the dealer, seat 1, turns the 2), seat 0 to lead: its ace
    of espadas takes the trick whatever the others hold (both opponents must follow), its 4 of
    bastos is taken by the partner's ace (both opponents hold bastos), and its ace of copas,
    though no card of the suit beats it, is ruffed by seat 1 (void in copas, with trumps); so
    they are searched in that order, and before the low cards.  The order decides only how fast
    a solve is: the values are checked everywhere else."""
    game = tt.new_game("tute")
    hands = ["1E 1C 4B 2E 4E 5E 6E 4O 5O 6O", "3E 12E 7E 7O 10O 11O 2B 5B 6B",
             "1B 3B 12B 11B 3C 12C 11C 10C 7C 6C", "1O 3O 12O 5C 4C 2C 11E 10E 10B 7B", "2O"]
    state = game.new_hand(deal=[h.split() for h in hands], dealer=1)
    assert state.phase == "play" and state.current_player == 0
    order = search_order(state)
    assert order[:3] == ["1E", "4B", "1C"], order
    assert sorted(order) == sorted(hands[0].split())


def test_the_move_order_keeps_back_the_discards_that_take_later_tricks() -> None:
    """Tute in pairs, oros trumps: seat 0 leads its ace of espadas, seat 3 follows, and seat 0's
    partner (seat 2), with no espadas and no oros, discards onto a trick its side takes (seat 1,
    last, must follow espadas).  Points go on the partner's trick, most first, but not its copas:
    no other hand beats its ace, tres or rey of copas, each of which takes a trick of its own
    later, so they come after every basto (seat 1 holds the ace and tres of bastos)."""
    game = tt.new_game("tute")
    hands = ["1E 2E 4E 5E 1O 3O 12O 11O 10O 7O", "3E 12E 11E 6O 5O 4O 1B 3B 2C",
             "1C 3C 12C 12B 11B 10B 7B 6B 5B 4B", "10E 7E 6E 11C 10C 7C 6C 5C 4C 2B", "2O"]
    state = game.new_hand(deal=[h.split() for h in hands], dealer=1)
    state.apply(next(a for a in state.legal_actions() if str(a.card) == "1E"))
    assert state.current_player == 3
    state.apply(state.legal_actions()[0])
    assert state.current_player == 2
    order = search_order(state)
    assert order[0] == "12B", order
    assert sorted(order[-3:]) == sorted(["1C", "3C", "12C"]), order
    assert sorted(order) == sorted(hands[2].split())


def test_a_king_whose_queen_is_played_plays_as_one_with_the_jack() -> None:
    """Huutopussi for three: a marriage's king and queen are never merged with the cards next to
    them while the marriage may still be declared, but once its queen is played (or lies in
    another hand, with no partner to ask) the king is a card worth 5 like the jack below it:
    inside the search the jack stands for both, while the root still lists every legal card."""
    game = tt.new_game("huutopussi", players=3)
    for seed in range(100):
        rng = random.Random(seed)
        state = first_play(game.new_hand(seed=seed), rng)
        while not state.is_over():
            obs = state.observation(None)
            played = " ".join(str(t) for t in obs["tricks"])
            cards = {str(a.card) for a in state.legal_actions() if a.kind == "play"}
            for suit in "SCDH":
                if {"K" + suit, "J" + suit} <= cards and "Q" + suit in played and not obs["trick"]:
                    root = [str(a) for a in generated_moves(state, root=True)]
                    inner = [str(a) for a in generated_moves(state, root=False)]
                    assert {"play K" + suit, "play J" + suit} <= set(root), root
                    assert "play J" + suit in inner and "play K" + suit not in inner, inner
                    return
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 100 deals")


def test_a_tute_deal_solves_within_its_node_budget() -> None:
    """The move order keeps a full Tute-in-pairs deal (seed 3, at the first card play) within
    3.5 million nodes: it took 7.0 million before the order asked who takes the trick, 3.45
    million before the discards kept their winners back (2.74 million since; 2.18 million once
    the last two tricks were played out as one node, as the last trick is), and docs/solver.md
    ("Move order: who takes the trick") measures it on twenty deals."""
    state = first_play(tt.new_game("tute").new_hand(seed=3), random.Random(3))
    assert solve(state).nodes <= 3_500_000


def test_tute_claims_the_rest_of_the_round() -> None:
    """A pairs deal where seat 1 holds the four caballos: when its side may declare tute, tute is
    worth every card point still out plus the last trick, and minimax agrees near the end."""
    game = tt.new_game("tute")
    knights = [c for c in tt.SPANISH_40.cards if c.rank.value == 11]
    checked = 0
    for seed in range(200):
        rng = random.Random(seed)
        rest = [c for c in tt.SPANISH_40.cards if c.rank.value != 11]
        rng.shuffle(rest)
        hands = [rest[:10], knights + rest[10:16], rest[16:26], rest[26:35]]
        state = game.new_hand(deal=[*hands, [rest[35]]], dealer=3)
        while not state.is_over():
            actions = state.legal_actions()
            tute = [a for a in actions if a.kind == "tute"]
            if tute:
                won = state.observation(None)["points"]
                taken = sum(won) - sum(int(t.split()[1]) for _, t in state.observation(None)["declarations"]
                                       if t.startswith("sing"))
                assert solve(state).values[tute[0]] == 120 - taken + 10
                if cards_out(state) <= 12:
                    check_against_minimax(state)
                checked += 1
                break
            keep = [a for a in actions if a.card not in knights] if state.current_player == 1 else actions
            state.apply(rng.choice(keep or actions))
        if checked >= 3:
            break
    assert checked >= 3


# -- the kernel's rules against the engine's, step by step ----------------------------------------

COMPARED = (*range(4), K.F_UP, K.F_POS, K.F_TURN, K.F_LEADER, K.F_LSUIT, K.F_BLED, K.F_BLSEAT,
            K.F_BTR, K.F_BTSEAT, K.F_TABLE, K.F_TPTS, K.F_TPIPS, K.F_TRUMP, K.F_DECL, K.F_GONE, K.F_PHASE,
            K.F_ASKED, K.F_ASKED + 1, K.F_WHOLE, K.F_WHOLE + 1, K.F_SANG, K.F_SANG + 1, K.F_GONEPTS,
            K.F_GONEPIPS)
"""Position fields that must read the same whoever the maximiser is."""


def fields(pos: PointPosition, row: np.ndarray) -> dict[str, int]:
    """The compared fields of a kernel row, and the stock cards left (the seat of a best card
    only where there is one)."""
    names = {v: k for k, v in vars(K).items() if k.startswith("F_") and k != "F_HANDS"}
    out = {names.get(f, f"hand {f}"): int(row[f]) for f in COMPARED}
    out["stock"] = int(pos.cards[K.C_STOCK, row[K.F_SP]])
    if not out["F_BLED"]:
        out["F_BLSEAT"] = 0
    if not out["F_BTR"]:
        out["F_BTSEAT"] = 0
    return out


def no_op_window(state: State, maxside: int) -> bool:
    """A Tute pairs window the kernel skips: only passes, and cantes of the minimising side."""
    seat = state.current_player
    return state.phase == "declare" and all(
        a.kind == "pass" or (a.kind == "sing" and state.game.side_of(seat) != maxside)
        for a in state.legal_actions())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_kernel_steps_follow_the_engine(variant: str) -> None:
    """Whole random hands: after each action, the kernel's own move from the position before
    must give the position the engine reaches (cards, stock, trick, trumps, calls), the points
    the objective says, and the same legal moves."""
    name, options = VARIANTS[variant]
    game = tt.new_game(name, **options)
    adapter = tute_solver if name == "tute" else marriage_solver
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_hand(seed=seed)
        while not state.is_over():
            action = rng.choice(state.legal_actions())
            if state.phase not in PLAY_PHASES:
                state.apply(action)
                continue
            objective, side_of = rules_of(state)
            pos = adapter.position(state)
            maxside = side_of(state, state.current_player)  # the game's side (the kernel's may differ)
            before = objective(state, maxside, False)
            rows = np.zeros((2, K.ROW), dtype=np.int64)
            rows[0] = pos.row
            gain = K.apply(rows, 0, pos.codes[action], pos.rules, pos.cards, pos.suits, pos.stock)
            state.apply(action)
            if state.is_over():
                assert rows[1, K.F_DONE] and gain == objective(state, maxside, True) - before
                break
            assert not rows[1, K.F_DONE] and gain == objective(state, maxside, False) - before
            if no_op_window(state, maxside) and rows[1, K.F_PHASE] != K.PH_DECLARE or \
                    rows[1, K.F_TURN] != state.current_player and no_op_window(state, maxside):
                continue  # the kernel went past a window where nothing can change its value
            after = adapter.position(state)
            if state.num_players == 3 and name == "tute":  # the kernel's sides: the mover and the rest,
                for f in (K.F_SANG, K.F_SANG + 1):  # so the order rule's flags move with the mover
                    rows[1, f] = after.row[f]
            assert fields(pos, rows[1]) == fields(after, after.row), action
            assert set(kernel_moves(pos, rows[1])) == set(after.codes.values()), action


# -- the native kernel: time limits, and arguments it must refuse --------------------------------


def test_the_points_kernel_built_without_a_constant_of_the_shim_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel built before a rules field was added (R_ACESHOW, the 2002 Huutopussi first
    trick) would ignore that rule: the shim refuses to load over it, naming the field."""
    K._check_layout()
    monkeypatch.setattr(K, "_LAYOUT", {k: v for k, v in K._LAYOUT.items() if k != "R_ACESHOW"})
    with pytest.raises(ImportError, match="R_ACESHOW"):
        K._check_layout()
    monkeypatch.setattr(K, "_LAYOUT", {**K._LAYOUT, "R_ACESHOW": K.R_ACESHOW, "ROW": K.ROW + 1})
    with pytest.raises(ImportError, match="ROW"):
        K._check_layout()


def test_a_time_limit_stops_a_full_deal_and_leaves_the_table_fit_for_the_next_solve() -> None:
    """A full Tute pairs deal with a millisecond left stops with TimeoutError at once; the next
    solves (an endgame against minimax, and the full deal without a limit, twice over) are
    unaffected by the stopped search's table entries."""
    import time

    from tricktaker.solver import tute as adapter
    from tricktaker.solver.points import PointSolver, first_play

    state = first_play(tt.new_game("tute").new_hand(seed=2), random.Random(2))
    solver = PointSolver(table_bits=16)
    reference = PointSolver(table_bits=16).values(adapter.position(state))
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        solver.values(adapter.position(state), deadline=time.monotonic() + 0.001)
    assert time.monotonic() - start < 0.5
    with pytest.raises(TimeoutError):
        solver.values(adapter.position(state), deadline=time.monotonic() - 1)
    assert solver.values(adapter.position(state)) == reference
    with pytest.raises(TimeoutError):
        tute_solver.solve_tute(state, table_sets(1), deadline=time.monotonic() + 0.002)
    for endgame in endgames("tute-pairs", 3, 3, seed=70):
        check_against_minimax(endgame)
    assert solve(state).values == tute_solver.solve_tute(state, table_sets(1)).values


def test_a_node_limit_stops_a_solve_at_the_same_node_and_names_the_limit() -> None:
    """``tt.solve(node_limit=N)`` stops after N nodes (to within the kernel's poll of 1,024) with
    SolveTimeout naming the node limit, leaves the state as it was and the table fit for the
    next solve; a limit above what the solve needs changes nothing, and ``Solution.nodes`` is
    what the solve visited.  A bad limit is refused before anything is searched."""
    from tricktaker.solver import SolveTimeout
    from tricktaker.solver.points import first_play, shared_solver

    state = first_play(tt.new_game("marjapussi").new_hand(seed=3), random.Random(3))
    before = state.to_json()
    full = solve(state)
    assert full.nodes > 50_000  # (room for the limits below, each well past the poll of 1,024)
    counter = shared_solver()
    for limit in (1, 5_000, full.nodes // 2):
        start = counter.nodes
        with pytest.raises(SolveTimeout, match=f"node limit of {limit} nodes"):
            solve(state, node_limit=limit)
        assert limit <= counter.nodes - start <= limit + 1024
    assert state.to_json() == before
    roomy = solve(state, node_limit=10 * full.nodes)
    assert roomy.values == full.values and 0 < roomy.nodes <= 10 * full.nodes
    for bad in (0, -5, 2.5, True, "100"):
        with pytest.raises(ValueError, match="node_limit must be a positive whole number"):
            solve(state, node_limit=bad)  # type: ignore[arg-type]


def test_bad_arrays_are_refused_not_crashed_on() -> None:
    """Wrong shapes, item sizes and impossible rows give TypeError or ValueError."""
    state = next(endgames("marjapussi", 1, 3))
    pos = marriage_solver.position(state)
    rows, moves, scores, work = K.new_stack()
    keys, bounds, stats = K.new_table(8)
    out = np.zeros(K.MAX_MOVES, dtype=np.int64), np.zeros(K.MAX_MOVES, dtype=np.int64)
    rows[0] = pos.row

    def call(**change: object) -> int:
        args = dict(S=rows, R=pos.rules, C=pos.cards, SD=pos.suits, ST=pos.stock, TK=keys, TB=bounds,
                    M=moves, SC=scores, W=work, stats=stats, om=out[0], ov=out[1])
        args.update(change)
        return K.root_values(*args.values(), 0.0, False, 0, None)

    assert call() > 0
    bad: list[dict[str, object]] = [
        {"S": rows[:1]}, {"S": rows.astype(np.int32)}, {"S": rows[:, :20]}, {"S": rows.T},
        {"R": pos.rules[:10]}, {"C": pos.cards[:3]}, {"C": pos.cards.astype(np.float64)},
        {"SD": np.zeros(3, dtype=np.int64)}, {"TK": keys[:3]}, {"TB": bounds.astype(np.int64)},
        {"TB": bounds[:10]}, {"M": moves[:, :5]}, {"W": work[:, :8]}, {"stats": stats[:1]},
        {"om": out[0][:3]}, {"S": [[0] * K.ROW] * 3}, {"R": None}, {"S": rows.tobytes()},
        {"TK": keys[:1], "TB": bounds[:1]}, {"TK": keys[:6], "TB": bounds[:6]},  # a bucket is two entries
    ]
    for change in bad:
        with pytest.raises((TypeError, ValueError)):
            call(**change)
    for field, value in ((K.F_TURN, 7), (K.F_TURN, -1), (K.F_SP, 99), (K.F_TRUMP, 9), (K.F_PHASE, 5)):
        broken = pos.row.copy()
        broken[field] = value
        rows[0] = broken
        with pytest.raises(ValueError):
            call()
    rows[0] = pos.row
    for index, value in ((K.R_N, 9), (K.R_STOCKLEN, 40), (K.R_SIDE, 5)):
        rules = pos.rules.copy()
        rules[index] = value
        with pytest.raises(ValueError):
            call(R=rules)
    two = np.zeros((2, K.ROW), dtype=np.int64)
    two[0] = pos.row
    with pytest.raises(ValueError):
        K.apply(two, 1, 0, pos.rules, pos.cards, pos.suits, pos.stock)
    with pytest.raises(ValueError):
        K.apply(two, 0, 500, pos.rules, pos.cards, pos.suits, pos.stock)
    with pytest.raises(ValueError):
        K.gen_moves(rows, K.MAX_DEPTH, pos.rules, pos.cards, pos.suits, moves, scores, work, -1, True)
    assert call() > 0
