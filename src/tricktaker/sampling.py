"""Dealing hidden cards under constraints, for ``sample_world`` in every game.

A seat that samples a world knows where some cards are; the rest (the *pool*)
must be dealt into *slots* (another seat's unknown cards, a face-down discard,
a stock) of known sizes, each slot allowed only some cards (voids shown by
play, a verbal bid's promise...).  :func:`fill_slots` deals the pool so that
every slot gets exactly its size from its allowed cards, or says that it
cannot, and every such deal is equally likely: a search bot's worlds are meant
to be a uniform sample of the deals the seat cannot tell apart.

With at most one slot constrained a random deal is exact: that slot takes its
cards evenly from those it may hold, the rest are shuffled into the others.
With two or more, a random deal slot by slot is not: a slot's choice changes
how many ways the others have to finish, so a hand void in spades, drawn
first, takes one heart too few or too many more often than it should.  Then a
random deal (or, when random deals paint themselves into a corner, an exact
search by augmenting paths, so a consistent deal is always found when one
exists) is only the start of a walk: random swaps of two cards, and turns of
three, between slots that may hold them.  The walk moves between deals as
often one way as the other, so it leaves each deal it reaches equally likely.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .cards import single_bits

__all__ = ["fill_slots", "fill_timed_slots", "spread"]

MOVES_PER_CARD = 10
"""Random swaps and turns tried per card by the walk that spreads a constrained deal evenly."""


def fill_slots(
    pool: int, sizes: Sequence[int], allowed: Sequence[int], rng: random.Random
) -> list[int] | None:
    """Deal every card of ``pool`` into slots: slot ``i`` gets ``sizes[i]`` cards of ``allowed[i]``.

    Returns one card mask per slot, or None when no such deal exists; each
    deal that exists is equally likely.  The sizes must add up to the number of
    cards in the pool.
    """
    cards = single_bits(pool)
    if sum(sizes) != len(cards):
        raise ValueError(f"slots hold {sum(sizes)} cards but the pool has {len(cards)}")
    allowed = [a & pool for a in allowed]
    bound = [i for i, a in enumerate(allowed) if a != pool and sizes[i]]
    if len(bound) == 1:
        return _one_bound(cards, sizes, allowed, bound[0], rng)
    result = None
    for _ in range(3):
        result = _greedy(cards, sizes, allowed, rng)
        if result is not None:
            break
    if result is None:
        result = _matching(cards, sizes, allowed, rng)
    if result is None or not bound:
        return result
    return spread(result, allowed, rng)


def _one_bound(cards: list[int], sizes: Sequence[int], allowed: Sequence[int], bound: int,
               rng: random.Random) -> list[int] | None:
    """Exact when only slot ``bound`` is constrained: it draws first, the rest are shuffled."""
    choice = single_bits(allowed[bound])
    if len(choice) < sizes[bound]:
        return None
    picked = rng.sample(choice, sizes[bound])
    taken = sum(picked)
    rest = [b for b in cards if not b & taken]
    rng.shuffle(rest)
    out, pos = [], 0
    for i, size in enumerate(sizes):
        if i == bound:
            out.append(taken)
            continue
        out.append(sum(rest[pos:pos + size]))
        pos += size
    return out


def spread(deal: Sequence[int], allowed: Sequence[int], rng: random.Random) -> list[int]:
    """A deal walked from ``deal`` by random swaps and turns that keep every card where it may be.

    ``deal[i]`` is slot ``i``'s cards, ``allowed[i]`` the cards it may hold.  A move picks two
    or three cards at random (each equally likely) and, if they lie in different slots and each
    may go where the next one lies, passes them round.  The chance of picking a move equals the
    chance of picking the move that undoes it, so the walk leaves every deal it reaches as
    likely as every other.  Swaps alone can get stuck where three slots each lack a different
    suit; turns of three free them.
    """
    cards: list[int] = []
    slot_of: list[int] = []
    for i, m in enumerate(deal):
        for b in single_bits(m):
            cards.append(b)
            slot_of.append(i)
    n = len(cards)
    if n < 2:
        return list(deal)
    may = [sum(1 << i for i, a in enumerate(allowed) if a & b) for b in cards]
    rand = rng.random
    for _ in range(MOVES_PER_CARD * n):
        a, b = int(rand() * n), int(rand() * n)
        sa, sb = slot_of[a], slot_of[b]
        if sa == sb:
            continue
        if rand() < 0.5:
            if may[a] >> sb & 1 and may[b] >> sa & 1:
                slot_of[a], slot_of[b] = sb, sa
        else:
            c = int(rand() * n)
            sc = slot_of[c]
            if sc != sa and sc != sb and may[a] >> sb & 1 and may[b] >> sc & 1 and may[c] >> sa & 1:
                slot_of[a], slot_of[b], slot_of[c] = sb, sc, sa
    out = [0] * len(deal)
    for b, i in zip(cards, slot_of, strict=True):
        out[i] |= b
    return out


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
    places.  A duty cuts holes in those prefixes, where such tries favour some
    deals and can all fail (in one two-player Tute position 1 try in 200
    agreed).  So with duties every place is one slot of :func:`fill_slots`,
    which finds a deal whenever one exists and spreads its deals evenly.
    """
    deal = _TimedDeal(pool, times, uses, forbids, now, spare)
    if not forbids:
        return _timed_try(deal, rng)
    allowed, stock = _timed_places(deal)
    filled = fill_slots(pool, [1] * len(times) + [spare], [*allowed, stock], rng)
    return None if filled is None else (filled[:-1], filled[-1])


class _TimedDeal(NamedTuple):
    """The arguments of :func:`fill_timed_slots`, but the random numbers."""

    pool: int
    times: Sequence[int]
    uses: Sequence[tuple[int, int]]
    forbids: Sequence[tuple[int, int]]
    now: int
    spare: int


def _timed_try(deal: _TimedDeal, rng: random.Random) -> tuple[list[int], int] | None:
    """One random try of :func:`fill_timed_slots`, used cards first; None if it got stuck."""
    pool, times, uses, _, _, spare = deal
    allowed, _ = _timed_places(deal)
    free = list(range(len(times)))
    rng.shuffle(free)
    assign: dict[int, int] = {}
    taken = 0
    for card, _ in sorted(uses, key=lambda u: u[1]):  # by time of use
        options = [k for k in free if card & allowed[k]]
        if not options:
            return None
        k = rng.choice(options)
        free.remove(k)
        assign[k] = card
        taken |= card
    rest = pool & ~taken
    filled = fill_slots(rest, [1] * len(free) + [spare], [*(allowed[k] & rest for k in free), rest], rng)
    if filled is None:
        return None
    for k, card in zip(free, filled, strict=False):
        assign[k] = card
    return [assign[k] for k in range(len(times))], filled[-1]


def _timed_places(deal: _TimedDeal) -> tuple[list[int], int]:
    """The cards each slot may hold, and the cards the spare places may hold (none he used).

    A card may sit in a slot received before it left his hand (its first use, else not yet)
    and while no duty ruled it out.
    """
    pool, times, uses, forbids, now, _ = deal
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
