"""Shared pieces of the solver tests: DDS (through endplay) on our deals, and seeded deals."""

from __future__ import annotations

import random

from tricktaker.solver.tricks import TrickPosition, TrickSolver

RANKS = "23456789TJQKA"
SUITS_PBN = (3, 2, 1, 0)  # PBN lists spades, hearts, diamonds, clubs
CLOCKWISE = tuple(tuple((lead + i) % 4 for i in range(4)) for lead in range(4))


def random_deal(seed: int, cards_each: int) -> list[int]:
    """Four hands of ``cards_each`` cards from a shuffled 52-card deck (Tuppi's bit layout)."""
    cards = [1 << (16 * s + r) for s in range(4) for r in range(2, 15)]
    random.Random(seed).shuffle(cards)
    return [sum(cards[i * cards_each:(i + 1) * cards_each]) for i in range(4)]


def pbn(hands: list[int]) -> str:
    """The deal in PBN, seat 0 as North and clockwise from there."""
    def holding(h: int) -> str:
        return ".".join("".join(RANKS[r - 2] for r in range(14, 1, -1) if h >> (16 * s + r) & 1)
                        for s in SUITS_PBN)
    return "N:" + " ".join(holding(h) for h in hands)


def dds_lead_values(hands: list[int], leader: int) -> dict[int, int]:
    """DDS's no-trump tricks for the leader's side after each card it may lead."""
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    deal = Deal(pbn(hands))
    deal.trump = Denom.nt
    deal.first = Player(leader)
    out = {}
    for card, tricks in solve_board(deal):
        suit = {"spades": 3, "hearts": 2, "diamonds": 1, "clubs": 0}[card.suit.name]
        rank = RANKS.index(card.rank.abbr) + 2
        out[1 << (16 * suit + rank)] = tricks
    return out


def rami_lead(hands: list[int], leader: int) -> TrickPosition:
    """The opening lead of a rami position: the leader's side counts and maximises its tricks."""
    side = leader % 2
    return TrickPosition(tuple(hands), CLOCKWISE, (0, 1, 0, 1), side, side, leader)


def cards(text: str) -> int:
    """A card mask from text like ``"SA DK D3"`` (suit letter, then rank)."""
    mask = 0
    for card in text.split():
        mask |= 1 << (16 * "CDHS".index(card[0]) + RANKS.index(card[1]) + 2)
    return mask


def plain_tricks(pos: TrickPosition) -> int:
    """The counted side's tricks from ``pos`` by plain minimax over every legal card (no
    pruning, no table): exponential, for checking the compiled search on small positions."""
    def search(hands: tuple[int, ...], leader: int, played: tuple[int, ...]) -> int:
        order = pos.orders[leader]
        seat = order[len(played)]
        if not hands[seat]:
            return 0
        legal = hands[seat]
        if played:
            follow = hands[seat] & (0xFFFF << (16 * ((played[0].bit_length() - 1) >> 4)))
            legal = follow or legal
        results = []
        while legal:
            bit = legal & -legal
            legal ^= bit
            after = list(hands)
            after[seat] ^= bit
            trick = (*played, bit)
            if len(trick) < len(order):
                results.append(search(tuple(after), leader, trick))
                continue
            suit = (trick[0].bit_length() - 1) >> 4
            winner = order[trick.index(max(c for c in trick if (c.bit_length() - 1) >> 4 == suit))]
            gained = 1 if pos.sides[winner] == pos.counted else 0
            results.append(gained + search(tuple(after), winner, ()))
        return max(results) if pos.sides[seat] == pos.maxside else min(results)

    return search(pos.hands, pos.leader, pos.played)


def python_card_values(solver: TrickSolver, pos: TrickPosition) -> dict[int, int]:
    """``TrickSolver.card_values`` chained in Python from the solver's own steps (the driver as
    it was before it moved into the kernel): the kernel's loop must give the same values, in
    the same order, searching the same nodes."""
    values: dict[int, int] = {}
    seen: dict[int, int] = {}
    guess = solver.estimate(pos)
    by_suit: dict[int, int] = {}
    for bit in solver.representatives(pos):
        after, gained = solver.child(pos, bit)
        suit = (bit.bit_length() - 1) >> 4
        v = gained + solver.value(after, by_suit.get(suit, guess) - gained)
        by_suit[suit] = v
        values[bit] = v
        seen[v] = seen.get(v, 0) + 1
        if seen[v] >= seen.get(guess, 0):
            guess = v
    hand = pos.hands[pos.to_move]
    live = 0
    for h in (*pos.hands, *pos.played):
        live |= h
    lead_suit = (pos.played[0].bit_length() - 1) >> 4 if pos.played else -1
    suit_cards = hand & (0xFFFF << (16 * lead_suit)) if lead_suit >= 0 else 0
    reps = list(values)
    rest = suit_cards or hand
    while rest:
        bit = rest & -rest
        rest ^= bit
        if bit in values:
            continue
        for rep in reps:
            lo, hi = min(bit, rep), max(bit, rep)
            between = (hi - 1) & ~((lo << 1) - 1)
            if (lo.bit_length() - 1) >> 4 == (hi.bit_length() - 1) >> 4 and not live & between & ~hand:
                values[bit] = values[rep]
                break
    return values
