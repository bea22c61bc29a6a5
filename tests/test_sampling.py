"""Dealing hidden cards under constraints (tricktaker.sampling), checked against enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb

from tricktaker.sampling import _timed_try, _TimedDeal, fill_slots, fill_timed_slots, spread

CARDS = [1 << i for i in range(8)]


def consistent(slots: list[int], rest: int, pool: int, times: list[int], uses: list[tuple[int, int]],
               forbids: list[tuple[int, int]], now: int, spare: int) -> bool:
    """Whether a deal agrees with every constraint of :func:`fill_timed_slots`, checked card by card."""
    if len(slots) != len(times) or any(bin(c).count("1") != 1 for c in slots):
        return False
    if bin(rest).count("1") != spare or sum(slots) | rest != pool or sum(slots) & rest:
        return False
    leaves = {c: now for c in slots}
    for card, t in uses:
        if card not in leaves:
            return False  # a used card left in the stock
        leaves[card] = min(leaves[card], t)
    for card, received in zip(slots, times, strict=True):
        if received >= leaves[card]:
            return False
        if any(received < i < leaves[card] and card & m for i, m in forbids):
            return False
    return True


def all_deals(pool, times, uses, forbids, now, spare):
    """Every consistent deal, as (slots, rest), by brute force."""
    cards = [c for c in CARDS if c & pool]
    out = []
    for chosen in itertools.permutations(cards, len(times)):
        rest = pool & ~sum(chosen)
        if consistent(list(chosen), rest, pool, times, uses, forbids, now, spare):
            out.append((tuple(chosen), rest))
    return out


# A player who got three cards at the deal (time -1) and drew one at times 2 and 5, with two cards
# left in the stock.  He used card 0 at time 1 and card 1 at time 4; a duty at time 3 showed he
# held none of cards 2-4 then (a suit he could not follow).
POOL = sum(CARDS[:7])
TIMES = [-1, -1, -1, 2, 5]
USES = [(CARDS[0], 1), (CARDS[1], 4)]
FORBIDS = [(3, CARDS[2] | CARDS[3] | CARDS[4])]
NOW, SPARE = 7, 2

# He got three cards at the deal and drew three at times 6-8.  Cards 0-2 he used at time 20, so
# they may sit in any slot; at time 5 he showed none of cards 3-5, never used, which therefore
# came in the draws.  A random try places the used cards first: all three in the deal's slots
# one time in 20.
# Three cards drawn at times 0, 2 and 4: card a he used at time 3, so it came at time 0 or 2; at
# time 1 he showed none of card c, which then came at time 2 or 4; card b may be anywhere.  Of the
# three deals a random try (and a matching) gives (a, b, c) one time in four, not one in three.
INTERVALS = (sum(CARDS[:3]), [0, 2, 4], [(CARDS[0], 3)], [(1, CARDS[2])], 10, 0)
RARE = (sum(CARDS[:6]), [-1, -1, -1, 6, 7, 8], [(CARDS[k], 20) for k in range(3)],
        [(5, CARDS[3] | CARDS[4] | CARDS[5])], 30, 0)


def test_every_timed_deal_keeps_times_of_use_and_duties():
    """Each used card sits in a slot received before its use, no slot held at a duty's time holds
    a card the duty ruled out, and the used cards are the player's, never the stock's."""
    deals = all_deals(POOL, TIMES, USES, FORBIDS, NOW, SPARE)
    assert deals  # the case has consistent deals, and few: the constraints bind
    assert len(deals) < len(list(itertools.permutations(range(7), 5))) // 20
    rng = random.Random(3)
    for _ in range(300):
        got = fill_timed_slots(POOL, TIMES, USES, FORBIDS, NOW, SPARE, rng)
        assert got is not None
        slots, rest = got
        assert (tuple(slots), rest) in deals


def test_a_timed_deal_is_found_where_random_tries_rarely_agree():
    """Duties cut holes in the choices a random try makes, so most tries get stuck; the matching
    still finds a deal every time.  (Two-player Tute: 1 random try in 200 agreed at deal 295 of
    ``arena tute --preset habanero --seed 7``, and 500 tries failed one world in eleven.)"""
    pool, times, uses, forbids, now, spare = RARE
    deals = all_deals(pool, times, uses, forbids, now, spare)
    assert len(deals) == 36
    assert deals
    rng = random.Random(5)
    problem = _TimedDeal(pool, times, uses, forbids, now, spare)
    tries = sum(_timed_try(problem, rng) is not None for _ in range(400))
    assert tries < 50  # random tries alone mostly fail here (about 20 of 400)
    for _ in range(100):
        got = fill_timed_slots(pool, times, uses, forbids, now, spare, rng)
        assert got is not None and (tuple(got[0]), got[1]) in deals


def test_no_timed_deal_when_none_agrees():
    """A card used before any slot could have received it: no deal, and None says so."""
    got = fill_timed_slots(POOL, [-1, 3], [(CARDS[0], 1), (CARDS[1], 2)], [], 5, 5, random.Random(1))
    assert got is None


def test_timed_deals_are_spread_evenly_over_every_consistent_deal():
    """The deals come out about equally often: from the exact tries without duties, and where duties
    make the tries fail, from the swaps after the matching.  Each consistent deal is drawn near its
    share (a chi-square far below what a skewed sampler gives)."""
    cases = [(POOL, TIMES, USES, [], NOW, SPARE), (POOL, TIMES, USES, FORBIDS, NOW, SPARE), INTERVALS, RARE]
    for pool, times, uses, forbids, now, spare in cases:
        deals = all_deals(pool, times, uses, forbids, now, spare)
        rng = random.Random(11)
        per_deal = max(100, 3000 // len(deals))
        counts: Counter[tuple[tuple[int, ...], int]] = Counter()
        for _ in range(per_deal * len(deals)):
            got = fill_timed_slots(pool, times, uses, forbids, now, spare, rng)
            assert got is not None
            counts[tuple(got[0]), got[1]] += 1
        assert set(counts) == set(deals)
        chi2 = sum((counts[d] - per_deal) ** 2 / per_deal for d in deals)
        # chi-square with len - 1 degrees of freedom: mean about len, sd about sqrt(2 len)
        assert chi2 < len(deals) + 5 * (2 * len(deals)) ** 0.5, (len(deals), chi2)


def test_fill_slots_finds_the_one_deal_a_greedy_order_misses():
    """Slot sizes and allowed cards that leave one deal: it is found, and None when there is none."""
    pool = sum(CARDS[:4])
    allowed = [CARDS[0] | CARDS[1], CARDS[1] | CARDS[2], CARDS[0] | CARDS[1] | CARDS[2] | CARDS[3]]
    for seed in range(50):
        got = fill_slots(pool, [1, 1, 2], allowed, random.Random(seed))
        assert got is not None
        assert got[0] & allowed[0] == got[0] and got[1] & allowed[1] == got[1]
        assert got[0] | got[1] | got[2] == pool
    assert fill_slots(pool, [2, 2], [CARDS[0], pool], random.Random(1)) is None


def suit_cards(counts: list[int]) -> list[list[int]]:
    """Cards of four suits, ``counts[s]`` of suit ``s`` (bits 16 * s + r, as the decks lay them)."""
    return [[1 << (16 * s + r) for r in range(n)] for s, n in enumerate(counts)]


def test_hands_void_in_different_suits_get_each_split_as_often_as_it_deals():
    """Three hidden hands of 6 from 18 cards (5 spades, 5 hearts, 4 diamonds, 4 clubs); the first
    showed it has no spade, the second no heart.  How many hearts the first holds, over sampled
    deals, matches the exact count of deals (a random deal hand by hand gives it one heart
    three times too often: 8.8% against 3.1%)."""
    counts = [5, 5, 4, 4]
    cards = suit_cards(counts)
    spades, hearts = sum(cards[0]), sum(cards[1])
    pool = sum(sum(c) for c in cards)
    exact: Counter[int] = Counter()
    for first in itertools.product(*(range(n + 1) for n in counts)):
        if first[0] or sum(first) != 6:
            continue
        for second in itertools.product(*(range(n - k + 1) for n, k in zip(counts, first, strict=True))):
            if second[1] or sum(second) != 6:
                continue
            ways = 1
            for n, a, b in zip(counts, first, second, strict=True):
                ways *= comb(n, a) * comb(n - a, b)
            exact[first[1]] += ways
    total = sum(exact.values())
    rng = random.Random(4)
    draws = 8000
    seen: Counter[int] = Counter()
    for _ in range(draws):
        deal = fill_slots(pool, [6, 6, 6], [pool & ~spades, pool & ~hearts, pool], rng)
        assert deal is not None and not deal[0] & spades and not deal[1] & hearts
        seen[bin(deal[0] & hearts).count("1")] += 1
    distance = sum(abs(seen[k] / draws - exact[k] / total) for k in range(6)) / 2
    assert distance < 0.03, (distance, sorted(seen.items()), sorted(exact.items()))


def test_every_deal_under_mixed_constraints_is_equally_likely():
    """Six cards into three hands of two, each hand barred from different cards: every consistent
    deal, listed by brute force, is drawn near its share."""
    cards = [1 << i for i in range(6)]
    pool = sum(cards)
    allowed = [pool & ~(cards[0] | cards[1]), pool & ~cards[2], pool & ~(cards[3] | cards[0])]
    deals = [d for d in itertools.permutations(cards)
             if all(d[2 * i] & allowed[i] and d[2 * i + 1] & allowed[i] for i in range(3))]
    masks = Counter((d[0] | d[1], d[2] | d[3], d[4] | d[5]) for d in deals)
    rng = random.Random(6)
    per_deal = 300
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(per_deal * len(masks)):
        deal = fill_slots(pool, [2, 2, 2], allowed, rng)
        assert deal is not None
        seen[tuple(deal)] += 1
    assert set(seen) == set(masks)
    chi2 = sum((seen[d] - per_deal) ** 2 / per_deal for d in masks)
    assert chi2 < len(masks) + 5 * (2 * len(masks)) ** 0.5, (len(masks), chi2)


def test_three_hands_each_lacking_a_suit_reach_both_of_their_deals():
    """One spade, heart and diamond to three hands of one that may not hold a spade, a heart and a
    diamond in turn: two deals, and no swap of two cards leads from one to the other (each swap
    gives some hand its barred suit), so the walk also turns three cards round: from either deal
    it ends in each about half the time."""
    spade, heart, diamond = (cards[0] for cards in suit_cards([1, 1, 1, 0])[:3])
    pool = spade | heart | diamond
    allowed = [pool & ~spade, pool & ~heart, pool & ~diamond]
    deals = [(heart, diamond, spade), (diamond, spade, heart)]
    for start in deals:
        rng = random.Random(8)
        seen = Counter(tuple(spread(start, allowed, rng)) for _ in range(1000))
        assert set(seen) == set(deals)
        assert min(seen.values()) > 400
