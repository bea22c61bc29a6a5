"""Exact trick counts from the native null-window search in :mod:`._tricks`.

A :class:`TrickPosition` is a no-trump play position in the kernel's terms:
hands in strength layout, who plays in what order, the sides, which side's
tricks are counted and which side wants them high.  :class:`TrickSolver`
turns the kernel's yes/no tests into the exact count for a position and for
each legal card, keeping one transposition table across those tests (the
bounds of one search serve the next).  Its searches take an optional
deadline (a ``time.monotonic()`` instant) and node limit, and raise
``TimeoutError`` when either is reached; Ctrl-C interrupts them in the main
thread.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from . import _tricks
from .parallel import table_generation

SUIT_BITS = 16

__all__ = ["TrickPosition", "TrickSolver"]

_JACKS, _QUEENS, _KINGS, _ACES = (sum(1 << (SUIT_BITS * s + strength) for s in range(4))
                                  for strength in range(11, 15))
"""The cards of each strength from the jack (1 point) to the ace (4 points), in every suit."""

_MAIN_THREAD = threading.main_thread().ident
"""Only the main thread runs Python's signal handlers (Ctrl-C) during a search."""

_Args = tuple[np.ndarray, np.ndarray, int, np.ndarray, int, int, int, int, int, int, int, int, int]
"""The search's arguments up to the target: hands, orders, trick size, sides, maxside, counted,
leader, cards played, lead suit, best card, its seat, table, tricks won."""


@dataclass(frozen=True)
class TrickPosition:
    """A no-trump position with every card known, in the kernel's terms.

    ``hands`` are card masks in strength layout (bit ``suit * 16 + strength``);
    ``orders[leader]`` lists the seats of a trick ``leader`` leads, in playing
    order; ``played`` holds the cards already on the table this trick, in
    order.  ``maxside`` chooses to make ``counted``'s tricks as many as it can,
    every other side as few.
    """

    hands: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...]
    sides: tuple[int, ...]
    maxside: int
    counted: int
    leader: int
    played: tuple[int, ...] = ()
    cap: int = 13
    """The most tricks worth counting: 1 in sooli, where the soloist's first trick ends the hand."""

    @property
    def to_move(self) -> int:
        """The seat whose card is next."""
        return self.orders[self.leader][len(self.played)]

    @property
    def tricks_left(self) -> int:
        """Tricks still to be decided, the one on the table included."""
        return bin(self.hands[self.to_move]).count("1")


class TrickSolver:
    """Exact values of no-trump positions; reusable, one transposition table per solver.

    The kernel runs without the GIL, so one solver's searches take turns (a lock): two at once
    would read each other's half-written table entries.  Separate solvers search in parallel.
    """

    def __init__(self) -> None:
        self._table, self._stats = _tricks.new_table()
        self._shared: dict[object, tuple[np.ndarray, np.ndarray]] = {}
        self._last: tuple[TrickPosition, _Args] | None = None
        self._lock = threading.Lock()
        self._moves = np.zeros(_tricks.MAX_MOVES, dtype=np.int64)
        self._scores = np.zeros(_tricks.MAX_MOVES, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Search nodes visited since the solver was made."""
        return int(self._stats[_tricks.NODES])

    @property
    def trick_nodes(self) -> int:
        """Search nodes that start a trick (what DDS counts as its nodes) since the solver was made."""
        return int(self._stats[_tricks.TRICK_NODES])

    def _arrays(self, pos: TrickPosition) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kernel's arrays for ``pos``: hands, orders and sides, four seats each.

        The orders' and sides' arrays are shared by every position of the same play (a small
        cache), so a small endgame's many searches build only its hands.
        """
        key = (pos.orders, pos.sides)
        shared = self._shared.get(key)
        if shared is None:
            order = np.zeros((4, 4), dtype=np.int64)
            for leader, seats in enumerate(pos.orders):
                order[leader, : len(seats)] = seats
            sides = np.full(4, -1, dtype=np.int64)  # (a seat outside the play is never asked)
            sides[: len(pos.sides)] = pos.sides
            if len(self._shared) >= 16:
                self._shared.clear()
            shared = self._shared[key] = (order, sides)
        # the kernel always reads four hands: a seat outside the play holds no live card
        hands = np.array(pos.hands + (0,) * (4 - len(pos.hands)), dtype=np.int64)
        return hands, shared[0], shared[1]

    def _kernel_args(self, pos: TrickPosition) -> _Args:
        """The search's arguments for ``pos`` up to the target (kept for the last position, which
        :meth:`value` tests several times)."""
        last = self._last
        if last is not None and last[0] is pos:
            return last[1]
        hands, order, sides = self._arrays(pos)
        lead_suit, best, best_seat, table = self._trick_state(pos)
        args = (hands, order, len(pos.orders[pos.leader]), sides, pos.maxside, pos.counted,
                pos.leader, len(pos.played), lead_suit, best, best_seat, table, 0)
        self._last = (pos, args)
        return args

    def _trick_state(self, pos: TrickPosition) -> tuple[int, int, int, int]:
        """Lead suit, best card, its seat, and the table mask of the trick in progress."""
        if not pos.played:
            return -1, 0, -1, 0
        order = pos.orders[pos.leader]
        lead_suit = (pos.played[0].bit_length() - 1) >> 4
        best, best_seat, table = pos.played[0], order[0], 0
        for i, bit in enumerate(pos.played):
            table |= bit
            if (bit.bit_length() - 1) >> 4 == lead_suit and bit > best:
                best, best_seat = bit, order[i]
        return lead_suit, best, best_seat, table

    def new_search(self) -> int:
        """Forget every stored bound (positions of a different deal or objective follow); the
        table's new generation, for searches in other threads to share the table with."""
        if self._stats[_tricks.GENERATION] + 1 >= _tricks.GEN_LIMIT:
            self._table.fill(0)  # (an entry keeps 32 bits of its generation)
            self._stats[_tricks.GENERATION] = 0
        self._stats[_tricks.GENERATION] += 1
        return int(self._stats[_tricks.GENERATION])

    @staticmethod
    def _time_left(deadline: float | None) -> float:
        """Seconds until ``deadline`` for the kernel (0: none); TimeoutError once it has passed."""
        if deadline is None:
            return 0.0
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the search reached its time limit")
        return left

    def test(self, pos: TrickPosition, target: int, deadline: float | None = None,
             max_nodes: int = 0) -> bool:
        """Whether ``maxside`` can make ``counted`` take at least ``target`` more tricks.

        ``deadline`` (a ``time.monotonic()`` instant) raises ``TimeoutError`` once passed, and so
        does visiting ``max_nodes`` nodes (0: no limit); the table keeps only what finished
        searches stored, so the solver stays usable.
        """
        args = self._kernel_args(pos)
        with self._lock:
            made, _ = _tricks.search(*args, target, self._table, self._stats, self._time_left(deadline),
                                     threading.get_ident() == _MAIN_THREAD, max_nodes)
        return bool(made)

    def value(self, pos: TrickPosition, guess: int | None = None, deadline: float | None = None) -> int:
        """The counted side's tricks from here under best play: a few null-window tests.

        Starts at ``guess`` (half the tricks left if none) and steps up while
        the target is made, or down while it is not.  (Halving the range after
        the first two tests searched more nodes: values cluster near a good
        guess, and a test far from the value fails cheaply.)
        """
        hi = min(pos.tricks_left, pos.cap)
        v = hi // 2 if guess is None else max(0, min(hi, guess))
        if v > 0 and not self.test(pos, v, deadline):
            v -= 1
            while v > 0 and not self.test(pos, v, deadline):
                v -= 1
            return v
        while v < hi and self.test(pos, v + 1, deadline):
            v += 1
        return v

    def child(self, pos: TrickPosition, bit: int) -> tuple[TrickPosition, int]:
        """The position after ``bit`` is played, and the tricks it gave the counted side (0 or 1)."""
        seat = pos.to_move
        hands = list(pos.hands)
        hands[seat] ^= bit
        played = (*pos.played, bit)
        order = pos.orders[pos.leader]
        if len(played) < len(order):
            return TrickPosition(tuple(hands), pos.orders, pos.sides, pos.maxside, pos.counted,
                                 pos.leader, played, pos.cap), 0
        lead_suit = (played[0].bit_length() - 1) >> 4
        winner, best = order[0], played[0]
        for i, card in enumerate(played):
            if (card.bit_length() - 1) >> 4 == lead_suit and card > best:
                winner, best = order[i], card
        gained = 1 if pos.sides[winner] == pos.counted else 0
        return TrickPosition(tuple(hands), pos.orders, pos.sides, pos.maxside, pos.counted,
                             winner, (), pos.cap - gained), gained

    def representatives(self, pos: TrickPosition) -> list[int]:
        """The legal cards worth searching: one per run of equivalent cards, best guess first."""
        args = self._kernel_args(pos)
        mine = pos.sides[pos.to_move]
        with self._lock:
            n = _tricks.moves_of(*args[:4], *args[6:12], self._moves, self._scores, 0, 0,
                                 (mine == pos.counted) != (mine == pos.maxside))
            moves: list[int] = self._moves[:n].tolist()
        return moves

    @staticmethod
    def estimate(pos: TrickPosition) -> int:
        """A first guess at the counted side's tricks, from its share of the high-card points.

        Each step the guess is off costs the driver one more null-window test, and the tests
        just above a card's value are the expensive ones.  Half a trick per point above an even
        share (at 13 tricks) put the first card's guess within one trick of its value on 78% of
        200 full deals (seeds 300-499), a flat half of the tricks on 37%.  Only a guess: the
        values never depend on it.
        """
        ours = total = 0
        for seat, hand in enumerate(pos.hands):
            points = ((hand & _JACKS).bit_count() + 2 * (hand & _QUEENS).bit_count()
                      + 3 * (hand & _KINGS).bit_count() + 4 * (hand & _ACES).bit_count())
            total += points
            if pos.sides[seat] == pos.counted:
                ours += points
        n = pos.tricks_left
        return max(0, min(n, pos.cap, round((n - 1) / 2 + (ours - total / 2) * n / 26)))

    def card_values(self, pos: TrickPosition, deadline: float | None = None,
                    max_nodes: int = 0, share: np.ndarray | None = None,
                    table: tuple[TrickSolver, int] | None = None) -> dict[int, int]:
        """The counted side's tricks from here after each legal card (every legal card a key).

        Each card's stepping starts at the value of the last card of its suit searched, else
        the value the cards before it reached most often (the latest of equally frequent
        ones), the first card's at :meth:`estimate`: most leads reach the same value, cards of
        one suit even more so, and a card whose guess is right costs two tests.  The table is
        kept across the cards, so the bounds one card's search stored serve the next.  The
        cards that are not searched take the value of a searched card they are equivalent to.

        The whole loop runs in the kernel (``_tricks.card_values``, one call without the GIL):
        the same steps as :meth:`representatives`, :meth:`child`, :meth:`value` and
        :meth:`estimate`, which tests/solver_helpers.py chains in Python to check it, value
        for value and node for node.  Small endgames are where that pays: a PIMC bot solves
        thousands of them.  ``deadline`` and ``max_nodes`` (for the whole call) as for :meth:`test`.

        ``share`` (an int64 array, at least two items, shared with searches of the same position in other
        threads: :func:`~tricktaker.solver.parallel.split_moves`) gives this search only the
        cards it takes, each with the cards equivalent to it; its first item set stops the
        search with ``TimeoutError``.  A stopped search's error (``TimeoutError`` or
        ``KeyboardInterrupt``) has a ``found`` attribute: the cards it had solved, as returned.

        ``table`` (``(host, generation)``, the generation from ``host.new_search()``) searches in
        ``host``'s table instead of this solver's own, as the other searches of the position do
        at once: then ``share`` must hold the table's locks (``parallel.split_moves`` makes it
        so), which every search of that table takes around its reads and writes.
        """
        args = self._kernel_args(pos)
        with self._lock:
            tt, generation = self._table, int(self._stats[_tricks.GENERATION])
            if table is not None:
                host, generation = table
                tt = host._table
            with table_generation(self._stats, _tricks.GENERATION, generation):
                values: dict[int, int] = _tricks.card_values(*args[:12], pos.cap, tt, self._stats,
                                                             self._time_left(deadline),
                                                             threading.get_ident() == _MAIN_THREAD,
                                                             max_nodes, share)
        return values
