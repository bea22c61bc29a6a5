"""Exact values of point-game positions: the driver around the compiled search in :mod:`._points`.

A game adapter (:mod:`.tute`, :mod:`.marriages`) reads a state through the
public API and fills a :class:`PointPosition`: the rules vector, the card and
suit tables, the stock and the position row, in the kernel's strength layout,
and the kernel move code of each legal action.  :class:`PointSolver` runs the
search at the root (every legal action, null-window tests for each, one
transposition table across them) and :func:`solution` turns the values into a
:class:`~tricktaker.solver.Solution`.  One solver serves the process
(:func:`shared_solver`; its table is 36 MB) unless a solve is given another set of tables
(:class:`~tricktaker.solver.Tables`): a solver is not for use from several threads at once.

The value is the maximising side's points *from here on*: what it adds to its
hand score by the end of the hand, under the double-dummy convention (the
mover's side maximises, every other side minimises).  What counts as points
is the adapter's business and is written in its module docstring.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..cards import Card, Deck
from ..engine import Action, State
from . import Solution, SolveError, Tables, table_sets
from . import _points as K
from .parallel import table_generation

__all__ = ["BENCH_VARIANTS", "Layout", "PointPosition", "PointSolver", "bench_points", "first_play",
           "shared_solver", "solution"]


class Layout:
    """Engine cards to the kernel's strength layout: bit ``suit * 16 + strength``."""

    def __init__(self, deck: Deck, strength: Mapping[int, int]) -> None:
        self.deck = deck
        self._index = {c.mask: 16 * c.suit.index + strength[c.mask] for c in deck.cards}

    def index(self, card: Card) -> int:
        """A card's bit index in the kernel."""
        return self._index[card.mask]

    def mask(self, cards: Iterable[Card]) -> int:
        """Cards as one kernel mask."""
        out = 0
        for c in cards:
            out |= 1 << self._index[c.mask]
        return out

    def card(self, text: str) -> Card:
        return self.deck.card(text)

    def cards_mask(self, texts: Iterable[str]) -> int:
        """Card texts as one kernel mask."""
        return self.mask(self.deck.card(t) for t in texts)

    @property
    def deck_mask(self) -> int:
        return self.mask(self.deck.cards)


@dataclass
class PointPosition:
    """A position in the kernel's terms, as a game adapter fills it.

    ``rules`` is indexed by the kernel's ``R_*`` names, ``row`` by ``F_*``;
    ``cards`` holds per card index its points, pips, the face-down card beneath
    it, Tute's exchange card and a weight for move ordering (and per stock
    pointer the stock cards left); ``suits`` each suit's marriage cards and
    value; ``stock`` the stock in drawing order.  ``codes`` maps each legal
    action to its kernel move.
    """

    layout: Layout
    rules: np.ndarray = field(default_factory=lambda: np.zeros(K.R_SIZE, dtype=np.int64))
    cards: np.ndarray = field(default_factory=lambda: np.zeros((7, 64), dtype=np.int64))
    suits: np.ndarray = field(default_factory=lambda: np.zeros((2, 4), dtype=np.int64))
    stock: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    row: np.ndarray = field(default_factory=lambda: _empty_row())
    codes: dict[Action, int] = field(default_factory=dict)
    classes: int = 0
    """How many card classes :meth:`set_totals` found."""

    def set_table(self, trick: list[tuple[int, int]]) -> None:
        """The trick on the table: ``(seat, kernel card index)`` pairs in playing order."""
        row = self.row
        trump = int(row[K.F_TRUMP])
        for k, (seat, i) in enumerate(trick):
            bit = 1 << i
            suit = i >> 4
            if k == 0:
                row[K.F_LSUIT] = suit
                row[K.F_BLED] = bit
                row[K.F_BLSEAT] = seat
            elif suit == row[K.F_LSUIT] and bit > row[K.F_BLED]:
                row[K.F_BLED] = bit
                row[K.F_BLSEAT] = seat
            if suit == trump and (row[K.F_BTR] == 0 or bit > row[K.F_BTR]):
                row[K.F_BTR] = bit
                row[K.F_BTSEAT] = seat
            row[K.F_TABLE] |= bit
            row[K.F_TPTS] += self.cards[K.C_PTS, i]
            row[K.F_TPIPS] += self.cards[K.C_PIPS, i]
        row[K.F_POS] = len(trick)

    def set_gone(self, gone: int) -> None:
        """The cards of finished tricks (kernel mask), and their points and pips."""
        row = self.row
        row[K.F_GONE] = gone
        row[K.F_GONEPTS] = sum(int(self.cards[K.C_PTS, i]) for i in _indexes(gone))
        row[K.F_GONEPIPS] = sum(int(self.cards[K.C_PIPS, i]) for i in _indexes(gone))

    def set_totals(self) -> None:
        """The deck's card points and pips, and each card's class, from the card table.

        A class is what a card is worth (points, pips) and whether it has a
        part in calls (the suits' marriage cards, ``rules[R_SPECIAL]``).
        """
        deck = self.layout.deck_mask
        special = int(self.rules[K.R_SPECIAL]) | int(np.bitwise_or.reduce(self.suits[K.SD_PAIR]))
        key = (deck, special, self.cards[K.C_PTS].tobytes(), self.cards[K.C_PIPS].tobytes())
        known = _TOTALS.get(key)
        if known is None:
            classes: dict[tuple[int, ...], int] = {}
            row = np.zeros(64, dtype=np.int64)
            for i in _indexes(deck):
                role = i if special >> i & 1 else -1  # a card with a part in calls is its own class
                what = (int(self.cards[K.C_PTS, i]), int(self.cards[K.C_PIPS, i]), role & 15)
                row[i] = classes.setdefault(what, len(classes))
            known = (sum(int(self.cards[K.C_PTS, i]) for i in _indexes(deck)),
                     sum(int(self.cards[K.C_PIPS, i]) for i in _indexes(deck)), row, len(classes))
            if len(_TOTALS) >= 256:  # a few entries per game and options: never many
                _TOTALS.clear()
            _TOTALS[key] = known
        self.rules[K.R_DECK] = deck
        self.rules[K.R_TOTALPTS], self.rules[K.R_TOTALPIPS], row, self.classes = known
        self.cards[K.C_CLASS] = row

    def finish(self) -> None:
        """Allow transposition keys by relative rank if the card classes fit them (the kernel
        uses them where every live card is in a hand: no stock, no face-down card)."""
        self.rules[K.R_RELATIVE] = int(self.classes <= 8)

    def set_stock(self, cards: list[int]) -> None:
        """The stock in drawing order, as kernel card masks (and what is left of it by pointer)."""
        self.stock = np.array(cards or [0], dtype=np.int64)
        self.rules[K.R_STOCKLEN] = len(cards)
        left = 0
        for sp in range(len(cards) - 1, -1, -1):
            left |= cards[sp]
            self.cards[K.C_STOCK, sp] = left


_TOTALS: dict[tuple[int, int, bytes, bytes], tuple[int, int, np.ndarray, int]] = {}
"""What :meth:`PointPosition.set_totals` found per deck, special cards, points and pips."""


def _empty_row() -> np.ndarray:
    row = np.zeros(K.ROW, dtype=np.int64)
    for f in (K.F_LSUIT, K.F_TRUMP, K.F_ASKKIND, K.F_PENDING, K.F_LAST20, K.F_ASKER):
        row[f] = -1
    return row


def _indexes(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class PointSolver:
    """Exact values of point-game positions; reusable, one transposition table per solver."""

    def __init__(self, table_bits: int = 19) -> None:
        self.table_bits = table_bits
        self._keys, self._bounds, self._stats = K.new_table(table_bits)
        self._rows, self._moves, self._scores, self._work = K.new_stack()
        self._out = (np.zeros(K.MAX_MOVES, dtype=np.int64), np.zeros(K.MAX_MOVES, dtype=np.int64))

    @property
    def nodes(self) -> int:
        """Search nodes visited since the solver was made."""
        return int(self._stats[K.S_NODES])

    def new_generation(self) -> int:
        """Start a new generation of this solver's table (every stored bound forgotten: a new
        objective) and return it, for searches in other threads to share the table with."""
        self._stats[K.S_GEN] += 1
        return int(self._stats[K.S_GEN])

    def values(self, pos: PointPosition, deadline: float | None = None,
               max_nodes: int = 0, share: np.ndarray | None = None,
               table: tuple[PointSolver, int] | None = None) -> dict[int, int]:
        """The maximiser's gain from here after each legal move, by kernel move code.

        ``deadline`` (a :func:`time.monotonic` instant) stops the search with
        :class:`TimeoutError` when it passes, and so does visiting ``max_nodes``
        nodes (0: no limit); Ctrl-C stops it with
        :class:`KeyboardInterrupt` when called from the main thread.  A stopped
        search leaves the table fit for the next one.  ``share`` (an int64 array, at least two items,
        shared with searches of the same position in other threads:
        :func:`~tricktaker.solver.parallel.split_moves`) gives this search only the moves it
        takes, each with the moves equivalent to it; its first item set stops the search with
        :class:`TimeoutError`.  A stopped search's error has a ``found`` attribute: the moves it
        had solved, as returned.

        ``table`` (``(host, generation)``, the generation from ``host.new_generation()``)
        searches in ``host``'s table instead of this solver's own, as the other searches of the
        position do at once: then ``share`` must hold the table's locks (``parallel.split_moves``
        makes it so), which every search of that table takes around its reads and writes.
        """
        self._rows[0, :] = pos.row
        time_left = 0.0
        if deadline is not None:
            time_left = deadline - time.monotonic()
            if time_left <= 0:
                raise TimeoutError("the search reached its time limit")
        signals = threading.current_thread() is threading.main_thread()
        out_moves, out_values = self._out
        if table is None:  # a new objective: forget every stored bound
            keys, bounds, generation = self._keys, self._bounds, self.new_generation()
        else:
            host, generation = table
            keys, bounds = host._keys, host._bounds
        with table_generation(self._stats, K.S_GEN, generation):
            n = K.kernel(pos.rules).root_values(
                self._rows, pos.rules, pos.cards, pos.suits, pos.stock, keys, bounds, self._moves,
                self._scores, self._work, self._stats, out_moves, out_values, time_left, signals,
                max_nodes, share)
        return {int(out_moves[j]): int(out_values[j]) for j in range(n)}


def shared_solver() -> PointSolver:
    """The point solver of :func:`~tricktaker.solver.solve`'s own set of tables (the process's
    first, :func:`~tricktaker.solver.table_sets`; its table is allocated on first use)."""
    return table_sets(1)[0].points


def solution(state: State, pos: PointPosition, units: str, sets: Sequence[Tables],
             deadline: float | None = None, max_nodes: int = 0,
             found: dict[Action, int] | None = None) -> Solution:
    """Solve ``pos`` (built from ``state``) and give each of the state's legal actions its
    value: in one set of tables, or in several at once, each in a thread of its own searching a
    share of the moves (:func:`~tricktaker.solver.parallel.split_moves`) in one table, the first
    set's :meth:`~tricktaker.solver.Tables.shared_points`.

    ``deadline`` (a :func:`time.monotonic` instant, or None) stops the search
    with :class:`TimeoutError` once it passes, and so does ``max_nodes`` (0: no limit; for each
    solver's search); ``found`` then gets the values of the actions solved before the stop.
    """
    from .parallel import split_moves

    legal = state.legal_actions()

    def actions(by_code: dict[int, int]) -> dict[Action, int]:
        """The legal actions' values from the search's (those it has)."""
        values: dict[Action, int] = {}
        for action in legal:
            code = pos.codes.get(action)
            if code is None:
                raise SolveError(f"internal: the point solver does not know the legal action {action}")
            if code in by_code:
                values[action] = by_code[code]
        return values

    solvers = [t.points for t in sets]
    table = None
    if len(sets) > 1:  # one table for every thread: a bound one stores serves the others
        host = sets[0].shared_points(len(sets))
        table = (host, host.new_generation())
    out, nodes = split_moves(solvers, lambda solver, share: solver.values(pos, deadline, max_nodes, share,
                                                                          table), actions, found)
    if len(out) != len(legal):
        raise SolveError("internal: the point solver's moves differ from the legal actions")
    mover = state.current_player
    assert mover is not None
    return Solution(mover=mover, value=max(out.values()), values=out, units=units,
                    nodes=nodes)


def bench_points(rounds: int = 20, seed: int = 1,
                 variants: Iterable[str] | None = None) -> list[tuple[str, float, float, int]]:
    """Median time to solve a full deal at the first card play, per game and variant.

    Each variant's deals come from ``new_hand(seed=seed + k)``; calls before
    the first card (Huutopussi's auction and exchange) are played at random
    from the same seed.  ``variants`` picks names of :data:`BENCH_VARIANTS`
    (default: all; a habanero deal takes 15 s to minutes, an avomarjapussi
    deal up to about ten seconds).
    Returns ``(variant, first call in s, median of the other calls in s,
    median of the other calls' search nodes)``; the first call of the run
    includes allocating the table.  The node counts do not depend on the
    machine's load, so they measure a change to the search exactly.
    """
    import tricktaker as tt

    from . import solve

    rows: list[tuple[str, float, float, int]] = []
    solver = shared_solver()
    for name in variants if variants is not None else BENCH_VARIANTS:
        game_name, options = BENCH_VARIANTS[name]
        game = tt.new_game(game_name, **options)  # type: ignore[arg-type]
        times: list[float] = []
        nodes: list[int] = []
        for k in range(rounds + 1):
            state = first_play(game.new_hand(seed=seed + k), random.Random(seed + k))
            before = solver.nodes
            start = time.perf_counter()
            solve(state)
            times.append(time.perf_counter() - start)
            nodes.append(solver.nodes - before)
        rest = sorted(times[1:]) or times
        counts = sorted(nodes[1:]) or nodes
        rows.append((name, times[0], rest[len(rest) // 2], counts[len(counts) // 2]))
    return rows


def first_play(state: State, rng: random.Random) -> State:
    """Play random non-card actions (auction, exchange) until the first card may be played."""
    while not any(a.kind == "play" for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    return state


BENCH_VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    "tute-pairs": ("tute", {}),
    "tute-habanero": ("tute", {"players": 2}),
    "marjapussi": ("marjapussi", {}),
    "bondtolva": ("bondtolva", {}),
    "bondtolva-two": ("bondtolva", {"players": 2}),
    "avomarjapussi": ("avomarjapussi", {}),
    "huutopussi": ("huutopussi", {}),
    "huutopussi-three": ("huutopussi", {"players": 3}),
}
"""The variants :func:`bench_points` measures."""
