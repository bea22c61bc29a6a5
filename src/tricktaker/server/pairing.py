"""Rounds of club tables of three or more entrants (docs/server.md, *Club tournaments*).

Two entrants a table pair by the circle method or Swiss without a repeat (:mod:`.club`).  With
three or more a table no schedule lets everyone meet everyone exactly once in general, so a
round here is a *grouping*: the entrants are cut into tables so that as few pairs as possible
sit together again (each pair costs the number of times it has already met), and among the
groupings of that least cost the first in the given order wins: for Swiss the order of the
standings (the best together), for the mixed schedule of a round robin the entrants' numbers.
Everything is deterministic: the same history gives the same round.

Who does not fit at a table sits out with a bye: the entrants who have had the fewest byes,
the lowest in the order first.  A game whose table may shrink (Tute cabrero: three to six
players) seats everyone at tables one or more smaller instead, when that leaves nobody with
fewer than its least number of players (:func:`table_sizes`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["Meetings", "group", "meetings", "pick_byes", "repeats", "table_sizes"]

Meetings = Counter[frozenset[int]]
"""How often each pair of entrants has sat at the same table."""

GROUPING_STEPS = 100_000
"""The most partial groupings a round tries after the greedy one before it keeps the best found."""


def table_sizes(count: int, size: int, smallest: int) -> list[int]:
    """The sizes of a round's tables for ``count`` entrants, largest first; the rest have byes.

    ``size`` is the game's table; ``smallest`` the least table the same rules allow (``size``
    when they allow no other).  As few tables as seat everyone, as even as possible; if that
    would leave a table below ``smallest``, one table fewer, and so on, the others sitting out.
    """
    tables = -(-count // size)
    while tables and count // tables < smallest:
        tables -= 1
    if not tables:
        return []
    seated = min(count, tables * size)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pick_byes(order: Sequence[int], byes_had: Counter[int], count: int) -> list[int]:
    """The ``count`` entrants who sit out: the fewest byes so far first, then the lowest in
    ``order`` (the standings, or the numbers)."""
    return sorted(reversed(order), key=lambda e: byes_had[e])[:count]


def meetings(tables: Iterable[Sequence[int]]) -> Meetings:
    """Each pair's number of meetings at the given tables (a bye, one entrant, meets nobody)."""
    met: Meetings = Counter()
    for table in tables:
        met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return met


def repeats(table: Sequence[int], met: Meetings) -> int:
    """What seating ``table`` together costs: the meetings its pairs have already had."""
    return sum(met[frozenset(pair)] for pair in itertools.combinations(table, 2))


def group(order: Sequence[int], sizes: Sequence[int], met: Meetings) -> list[tuple[int, ...]]:
    """Seat ``order`` (everyone who plays this round) at tables of ``sizes`` so that the
    repeated meetings (:func:`repeats`) are fewest; among equal costs the first grouping in
    ``order`` (each table opens with the first entrant left and takes its mates in order).  A
    greedy grouping sets the bar; a depth-first search of the groupings in order then finds the
    first that costs no more, and after it only cheaper ones, stopping at one without a repeat
    (:data:`GROUPING_STEPS` steps at most: past them, the best found so far, improved by swapping
    entrants between tables while a swap repeats fewer meetings).
    """
    if sum(sizes) != len(order):
        raise ValueError(f"{len(order)} entrants do not fill tables of {list(sizes)}")
    best = _greedy(list(order), list(sizes), met)
    best_cost = sum(repeats(t, met) for t in best)
    found = False  # the search met a grouping: from then on only a cheaper one replaces it
    budget = GROUPING_STEPS

    def search(rest: list[int], left: list[int], done: list[tuple[int, ...]], cost: int) -> None:
        nonlocal best, best_cost, found, budget
        if (found and best_cost == 0) or budget <= 0:
            return
        if not rest:
            best, best_cost, found = list(done), cost, True
            return
        first, others = rest[0], rest[1:]
        for mates in itertools.combinations(others, left[0] - 1):
            budget -= 1
            if budget <= 0:
                return
            table = (first, *mates)
            added = repeats(table, met)
            if cost + added > best_cost or (found and cost + added == best_cost):
                continue
            search([e for e in others if e not in mates], left[1:], [*done, table], cost + added)

    search(list(order), list(sizes), [], 0)
    return best if budget > 0 else _improve(best, met)


def _greedy(rest: list[int], sizes: list[int], met: Meetings) -> list[tuple[int, ...]]:
    """Table by table: the first entrant left, then each time the first in order of those who
    add the fewest repeats."""
    tables = []
    for size in sizes:
        table = [rest.pop(0)]
        while len(table) < size:
            pick = min(rest, key=lambda e: sum(met[frozenset((e, s))] for s in table))
            rest.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return tables


def _improve(tables: list[tuple[int, ...]], met: Meetings) -> list[tuple[int, ...]]:
    """Swap two entrants of different tables while that lowers the repeats (the first such swap
    in order each time), for a round too large to search through."""
    seated = [list(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(seated)), 2):
            before = repeats(seated[i], met) + repeats(seated[j], met)
            for a, b in itertools.product(range(len(seated[i])), range(len(seated[j]))):
                seated[i][a], seated[j][b] = seated[j][b], seated[i][a]
                if repeats(seated[i], met) + repeats(seated[j], met) < before:
                    improved = True
                    break
                seated[i][a], seated[j][b] = seated[j][b], seated[i][a]
            if improved:
                break
    return [tuple(t) for t in seated]
