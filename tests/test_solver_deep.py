"""The point kernel's search in the deep two-player games, against plain minimax: Tute
habanero's stock and Avomarjapussi's face-down rows.

A habanero position with its stock is too deep for ``reference.minimax_values``
over the State API, so these tests cut real positions down in the kernel's own
terms: each hand keeps three of its cards (the rey and caballo of a suit and the
7 and 2 of trumps first, so cantes and the exchange stay in reach), the stock
keeps its last cards, and every card taken out counts as played.  The compiled
search (table, bounds, equivalent cards) must then give every root move the
value a plain minimax over the kernel's own moves (``gen_moves`` with every
legal move, ``apply``) finds.  The kernel's moves themselves are stepped
against the engine in ``test_solver_points.py``.

The rules these positions exercise: no cante and no tute once the stock is
down to four cards or fewer and no pause is open (the upper bound and the
tute check leave them out then), the 7 and 2 of trumps as plain low trumps from
then on (equivalent cards and the table key), and the tricks a seat's top
trumps surely win, each with a card of the other seat.

Avomarjapussi's endgames with face-down cards still to turn up are small
enough for the State API's minimax; there the table keys positions by the
relative rank of the live cards, the face-down ones included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from test_solver_points import check_against_minimax, endgames

import tricktaker as tt
from tricktaker.games.tute import TuteState
from tricktaker.solver import _points as K
from tricktaker.solver import tute as tute_solver
from tricktaker.solver.points import PointPosition, PointSolver

HABANERO: dict[str, dict[str, object]] = {
    "habanero": {"players": 2},
    "habanero-free": {"players": 2, "free_while_stock": True},
    "habanero-anytime": {"players": 2, "exchange_anytime": True, "tute_sotas": True},
}


def _bits(mask: int) -> list[int]:
    return [i for i in range(64) if mask >> i & 1]


def cut_down(pos: PointPosition, rng: random.Random, keep: int = 3, stock: int = 2) -> PointPosition:
    """``pos`` with ``keep`` cards in each hand and at most ``stock`` cards left to draw (the
    upcard included); the cards taken out count as played."""
    row = pos.row
    pairs = int(np.bitwise_or.reduce(pos.suits[K.SD_PAIR])) | int(pos.rules[K.R_SPECIAL])
    removed = 0
    for seat in range(2):
        cards = _bits(int(row[seat]))
        rng.shuffle(cards)
        cards.sort(key=lambda i: not pairs >> i & 1)  # calls' cards first
        for i in cards[keep:]:
            removed |= 1 << i
        row[seat] = sum(1 << i for i in cards[:keep])
    left = int(pos.rules[K.R_STOCKLEN]) - int(row[K.F_SP]) + (row[K.F_UP] != 0)
    while left > stock and left > 0:  # draw nothing: take the top of the stock out of play
        sp = int(row[K.F_SP])
        if sp < pos.rules[K.R_STOCKLEN]:
            removed |= int(pos.stock[sp])
            row[K.F_SP] = sp + 1
        else:
            removed |= int(row[K.F_UP])
            row[K.F_UP] = 0
        left -= 1
    if left <= 2:
        row[K.F_CANCALL] = 0
    pos.set_gone(int(row[K.F_GONE]) | removed)
    return pos


def positions(options: dict[str, object], count: int, seed: int) -> Iterator[PointPosition]:
    """Cut-down kernel positions of habanero hands played at random, at a trick start or in the
    pause after a trick, with four to eight cards left in the stock; every other one with the
    mover holding a cante it has not sung."""
    game = tt.new_game("tute", **options)  # type: ignore[arg-type]
    found = 0
    for k in range(seed, seed + 1000):
        rng = random.Random(k)
        state = game.new_hand(seed=k)
        assert isinstance(state, TuteState)
        stop = rng.choice((6, 8))
        while not state.is_over() and state.stock_size > stop:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over() or state.observation(None)["trick"]:
            continue
        pos = cut_down(tute_solver.position(state), rng, stock=rng.choice((2, 4, 6, 6)))
        if found % 2 == 0 and not unsung_pair_of_mover(pos):
            continue
        yield pos
        found += 1
        if found == count:
            return


def minimax(pos: PointPosition, rows: np.ndarray, d: int, stack: tuple[np.ndarray, ...]) -> int:
    """The maximiser's gain from row ``d`` over every legal move: no table, bounds or merging."""
    _, moves, scores, work = stack
    n = K.gen_moves(rows, d, pos.rules, pos.cards, pos.suits, moves, scores, work, -1, True)
    maxing = pos.rules[K.R_SIDE + int(rows[d, K.F_TURN])] == pos.rules[K.R_MAXSIDE]
    best: int | None = None
    for mv in [int(m) for m in moves[d, :n]]:
        gain = K.apply(rows, d, mv, pos.rules, pos.cards, pos.suits, pos.stock)
        value = gain if rows[d + 1, K.F_DONE] else gain + minimax(pos, rows, d + 1, stack)
        if best is None or (value > best if maxing else value < best):
            best = value
    assert best is not None
    return best


def minimax_values(pos: PointPosition) -> dict[int, int]:
    stack = K.new_stack()
    rows = stack[0]
    rows[0] = pos.row
    _, moves, scores, work = stack
    n = K.gen_moves(rows, 0, pos.rules, pos.cards, pos.suits, moves, scores, work, -1, True)
    out = {}
    for mv in [int(m) for m in moves[0, :n]]:
        gain = K.apply(rows, 0, mv, pos.rules, pos.cards, pos.suits, pos.stock)
        out[mv] = gain if rows[1, K.F_DONE] else gain + minimax(pos, rows, 1, stack)
    return out


def unsung_pair_of_mover(pos: PointPosition) -> bool:
    """Whether the mover holds the rey and caballo of a suit not sung yet."""
    hand = int(pos.row[int(pos.row[K.F_TURN])])
    return any(hand & int(p) == int(p) and not int(pos.row[K.F_DECL]) >> s & 1
               for s, p in enumerate(pos.suits[K.SD_PAIR]))


@pytest.mark.parametrize("variant", sorted(HABANERO))
def test_the_search_with_a_stock_matches_minimax(variant: str) -> None:
    solver = PointSolver(table_bits=12)
    pairs = 0
    for pos in positions(HABANERO[variant], 16, seed=7):
        pairs += unsung_pair_of_mover(pos)
        assert solver.values(pos) == minimax_values(pos), pos.row.tolist()
    assert pairs >= 8


def face_down(state: tt.State) -> int:
    """How many face-down cards are still to turn up."""
    return sum(down for row in state.observation(None)["rows"] for _, down in row)


def test_avomarjapussi_with_face_down_cards_matches_minimax() -> None:
    checked = 0
    for state in endgames("avomarjapussi", 40, 4, seed=300):
        if face_down(state) >= 2:
            check_against_minimax(state)
            checked += 1
    assert checked >= 8
