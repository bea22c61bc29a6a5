"""Dealing hidden cards under constraints, for ``sample_world`` in every game.

A seat that samples a world knows where some cards are; the rest (the *pool*)
must be dealt into *slots* (another seat's unknown cards, a face-down discard,
a stock) of known sizes, each slot allowed only some cards (voids shown by
play, a verbal bid's promise...).  :func:`fill_slots` deals the pool so that
every slot gets exactly its size from its allowed cards, or says that it
cannot.  It first tries a fast random deal, most constrained slot first; when
that paints itself into a corner it falls back to an exact search (augmenting
paths), so a consistent deal is always found when one exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import single_bits

__all__ = ["fill_slots", "fill_timed_slots"]


def fill_slots(
    pool: int, sizes: Sequence[int], allowed: Sequence[int], rng: random.Random
) -> list[int] | None:
    """Deal every card of ``pool`` into slots: slot ``i`` gets ``sizes[i]`` cards of ``allowed[i]``.

    Returns one card mask per slot, or None when no such deal exists.  The
    sizes must add up to the number of cards in the pool.
    """
    cards = single_bits(pool)
    if sum(sizes) != len(cards):
        raise ValueError(f"slots hold {sum(sizes)} cards but the pool has {len(cards)}")
    allowed = [a & pool for a in allowed]
    for _ in range(3):
        result = _greedy(cards, sizes, allowed, rng)
        if result is not None:
            return result
    return _matching(cards, sizes, allowed, rng)


def _greedy(
    cards: list[int], sizes: Sequence[int], allowed: Sequence[int], rng: random.Random
) -> list[int] | None:
    """Random deal, most constrained slot first; None if it gets stuck."""
    n = len(sizes)
    remaining = 0
    for b in cards:
        remaining |= b
    if all(a == remaining for a in allowed):
        shuffled = cards[:]
        rng.shuffle(shuffled)
        out, pos = [], 0
        for size in sizes:
            m = 0
            for b in shuffled[pos:pos + size]:
                m |= b
            out.append(m)
            pos += size
        return out
    order = sorted(range(n), key=lambda i: (allowed[i].bit_count() - sizes[i], rng.random()))
    out = [0] * n
    for i in order:
        choice = single_bits(allowed[i] & remaining)
        if len(choice) < sizes[i]:
            return None
        picked = rng.sample(choice, sizes[i])
        for b in picked:
            out[i] |= b
            remaining ^= b
    return out


def _matching(
    cards: list[int], sizes: Sequence[int], allowed: Sequence[int], rng: random.Random
) -> list[int] | None:
    """Exact: a bipartite matching of cards to slot places, found by augmenting paths."""
    places = [i for i, size in enumerate(sizes) for _ in range(size)]
    order = cards[:]
    rng.shuffle(order)
    owner: list[int | None] = [None] * len(places)  # place -> card index

    def augment(ci: int, seen: set[int]) -> bool:
        for p in rng.sample(range(len(places)), len(places)):
            if p in seen or not allowed[places[p]] & order[ci]:
                continue
            seen.add(p)
            holder = owner[p]
            if holder is None or augment(holder, seen):
                owner[p] = ci
                return True
        return False

    for ci in range(len(order)):
        if not augment(ci, set()):
            return None
    out = [0] * len(sizes)
    for p, holder in enumerate(owner):
        assert holder is not None
        out[places[p]] |= order[holder]
    return out


def fill_timed_slots(
    pool: int,
    times: Sequence[int],
    uses: Sequence[tuple[int, int]],
    forbids: Sequence[tuple[int, int]],
    now: int,
    spare: int,
    rng: random.Random,
) -> tuple[list[int], int] | None:
    """Deal a hidden player's cards when he received them one by one (a first hand, then draws).

    Slot ``k`` is one card the player received at time ``times[k]`` (an action
    index; -1 for the deal).  ``uses`` lists ``(card, time)``: he played or
    showed that card then, so it sits in a slot received earlier.  ``forbids``
    lists ``(time, mask)``: at that time none of the cards he held was in
    ``mask`` (a duty he showed), which binds every slot held then.  The rest of
    the pool goes to ``spare`` unconstrained places (the unseen stock).
    Returns the card of each slot and the mask of the spare cards, or None
    when no deal agrees with all of that.

    Without ``forbids`` one random try is exact and uniform: the used cards, by
    time of use, each take a slot drawn evenly from those received before it
    (each one's choices are a prefix of the next one's, so every earlier choice
    leaves the next one as many), and the rest are shuffled into the other
    places.  A duty cuts holes in those prefixes: the tries then favour some
    deals, and can all fail (in one two-player Tute position 1 try in 200
    agreed).  So with duties, after a few failed tries the deal is found by a
    matching (:func:`fill_slots`, which finds one whenever one exists), and
    either way it is then spread by random swaps of two cards that keep both
    where they may be: a walk under which every deal it reaches is equally
    likely, whatever deal it started from.
    """
    for _ in range(3):
        got = _timed_try(pool, times, uses, forbids, now, spare, rng)
        if got is not None and not forbids:
            return got
        if got is not None:
            break
    allowed, stock = _timed_places(pool, times, uses, forbids, now)
    if got is None:
        filled = fill_slots(pool, [1] * len(times) + [spare], [*allowed, stock], rng)
        if filled is None:
            return None
        got = filled[:-1], filled[-1]
    return _spread(*got, allowed, stock, rng)


def _timed_try(
    pool: int,
    times: Sequence[int],
    uses: Sequence[tuple[int, int]],
    forbids: Sequence[tuple[int, int]],
    now: int,
    spare: int,
    rng: random.Random,
) -> tuple[list[int], int] | None:
    """One random try of :func:`fill_timed_slots`, used cards first; None if it got stuck."""
    free = list(range(len(times)))
    rng.shuffle(free)
    assign: dict[int, int] = {}
    taken = 0
    for card, deadline in sorted(uses, key=lambda u: u[1]):
        options = [k for k in free if times[k] < deadline
                   and not any(times[k] < i < deadline and card & m for i, m in forbids)]
        if not options:
            return None
        k = rng.choice(options)
        free.remove(k)
        assign[k] = card
        taken |= card
    rest = pool & ~taken
    allowed = []
    for k in free:
        mask = rest
        for i, m in forbids:
            if times[k] < i < now:
                mask &= ~m
        allowed.append(mask)
    filled = fill_slots(rest, [1] * len(free) + [spare], [*allowed, rest], rng)
    if filled is None:
        return None
    for k, card in zip(free, filled, strict=False):
        assign[k] = card
    return [assign[k] for k in range(len(times))], filled[-1]


def _timed_places(
    pool: int, times: Sequence[int], uses: Sequence[tuple[int, int]], forbids: Sequence[tuple[int, int]],
    now: int,
) -> tuple[list[int], int]:
    """The cards each slot may hold, and the cards the spare places may hold (none he used).

    A card may sit in a slot received before it left his hand (its first use, else not yet)
    and while no duty ruled it out.
    """
    used = 0
    deadline: dict[int, int] = {}
    for card, t in uses:
        if card & pool:
            used |= card
            deadline[card] = min(deadline.get(card, t), t)
    # A duty at time i binds the cards still in his hand then: unused ones and those used after i.
    bound = [(i, m & (pool & ~used | sum(c for c, t in deadline.items() if t > i))) for i, m in forbids]
    allowed = []
    for received in times:
        mask = pool & ~sum(c for c, t in deadline.items() if t <= received)
        for i, m in bound:
            if i > received:
                mask &= ~m
        allowed.append(mask)
    return allowed, pool & ~used


SWAPS_PER_SLOT = 8
"""Random swaps per slot in :func:`_spread`: enough to forget where the deal started."""


def _spread(slots: list[int], rest: int, allowed: Sequence[int], stock: int,
            rng: random.Random) -> tuple[list[int], int]:
    """Swap random pairs of placed cards where both may go, many times (a symmetric walk)."""
    places = [*slots, *single_bits(rest)]
    n, total = len(slots), len(places)
    may = [*allowed, *[stock] * (total - n)]
    rand = rng.random
    for _ in range(SWAPS_PER_SLOT * n):  # one of a pair is a slot: swapping stock cards changes nothing
        a, b = int(rand() * n), int(rand() * total)
        if places[b] & may[a] and places[a] & may[b]:
            places[a], places[b] = places[b], places[a]
    spread = 0
    for card in places[n:]:
        spread |= card
    return places[:n], spread
