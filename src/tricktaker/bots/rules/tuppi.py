"""Rules policy for Tuppi: a sound club player's bidding, sooli and no-trump card play.

Phases (``shared/RULES.md``, section Tuppi; ``docs/rules/tuppi.md``):

- **bid**: rami (red card) with a hand worth about seven tricks for the side
  (high-card points plus long-suit length), else nolo (black card).  The bid
  card is the lowest allowed card of the colour, so showing it tells the table
  as little as possible; a verbal bid only when no card of the colour may be
  used.
- **sooli**: a defender says sooli when his hand, after putting its worst card
  away, has no card that two opponents leading low could force to win (the
  ace is lowest in sooli and the soloist plays last, so low cards and voids
  are safe).
- **discard / give**: the soloist puts away the card that leaves the safest
  hand; his partner gives an ace (the lowest card in sooli), else a 2.
- **play, rami**: both sides want tricks.  Lead from the long strong suit
  (cash masters, top of a sequence, else low), return the partner's suit;
  second hand low; third hand high (lowest of equal cards); fourth hand wins
  as cheaply as it can; never overtake a partner's sure winner; discard from
  the weakest suit.
- **play, nolo**: both sides avoid tricks.  Lead the card fewest outstanding
  cards can duck under; follow with the highest card that still ducks; when
  forced to win, dump the highest card; when void, throw the most dangerous
  card.
- **play, sooli**: the soloist (always last) ducks with the highest card below
  the trick, and when void throws his most dangerous card; the opponents lead
  and follow with their lowest cards (ace lowest) to force him to win.

Only ``view.observation`` is read: played cards, shown bid cards and the
voids seen in play are tracked from it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...engine import Action
from ..base import View

__all__ = ["choose"]

Card = tuple[str, int]
"""A card as (suit letter, rank 2..14, ace 14)."""

SUITS = "SHDC"
RANK_OF = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, **{str(r): r for r in range(2, 10)}}
HCP = {14: 4, 13: 3, 12: 2, 11: 1}
RED = "HD"

RAMI_MIN = 14
"""Hand value (high-card points + one per card past the fourth of a suit) to bid rami."""
SOOLI_MAX = 2
"""Largest sooli risk (see :func:`sooli_risk`) at which a defender plays sooli."""


def card_of(text: str) -> Card:
    """The (suit, rank) of a card text such as ``"TH"``."""
    return text[-1], RANK_OF[text[:-1]] if text[:-1] != "10" else 10


RANK_TEXT = {rank: text for text, rank in RANK_OF.items()}


def text_of(card: Card) -> str:
    """The canonical text of a (suit, rank) card."""
    return RANK_TEXT[card[1]] + card[0]


DECK = [(s, r, text_of((s, r))) for s in SUITS for r in range(2, 15)]
"""Every card as (suit, rank, text), suit by suit, low to high: what :func:`read_table` counts."""


def sooli_rank(card: Card) -> int:
    """The card's rank in sooli, where the ace is lowest (1)."""
    return 1 if card[1] == 14 else card[1]


@dataclass
class Table:
    """What the seat knows in the play phase, distilled from the observation."""

    seat: int
    hand: list[Card]
    trick: list[tuple[int, Card]]
    out: dict[str, list[int]]
    """Per suit, the ranks neither played nor in this hand (held by others or out of play)."""
    voids: list[set[str]]
    """Per seat, the suits it has shown void in."""
    order: list[int]
    """The seats that play to tricks in this hand (three in sooli), ascending."""
    partner: int | None
    """The seat playing on this seat's side (None for the soloist)."""
    led_by_partner: set[str]
    """Suits the partner has led this hand."""
    tricks_left: int

    def suit(self, s: str) -> list[int]:
        """My ranks of suit ``s``, high to low."""
        return sorted((r for t, r in self.hand if t == s), reverse=True)

    def to_play_after(self) -> list[int]:
        """The seats still to play to the current trick after this seat."""
        start = self.trick[0][0] if self.trick else self.seat
        if len(self.order) == 3:  # sooli: leader, leader's partner, then the soloist last
            soloist = next(p for p in self.order if p not in (start, (start + 2) % 4))
            seq = [start, (start + 2) % 4, soloist]
        else:
            seq = [(start + k) % 4 for k in range(4)]
        return seq[seq.index(self.seat) + 1:]


def read_table(obs: dict[str, Any]) -> Table:
    """Distil the observation: own cards, outstanding cards by suit, voids, partner's leads."""
    seat: int = obs["seat"]
    hand = [card_of(t) for t in obs["hand"]]
    gone: set[str] = set(obs["hand"])
    voids: list[set[str]] = [set(), set(), set(), set()]
    soloist = obs.get("soloist")
    partner = None if soloist == seat else (seat + 2) % 4
    if soloist is not None and partner == obs.get("sitting_out"):
        partner = None
    led_by_partner: set[str] = set()
    tricks = obs["tricks"]
    for t in [*(x["cards"] for x in tricks), obs["trick"]]:
        if not t:
            continue
        lead = t[0][1][-1]
        if t[0][0] == partner:
            led_by_partner.add(lead)
        for s, text in t:
            gone.add(text)
            if text[-1] != lead:
                voids[s].add(lead)
    if obs.get("discard"):
        gone.add(obs["discard"])
    out: dict[str, list[int]] = {s: [] for s in SUITS}
    for s, r, text in DECK:
        if text not in gone:
            out[s].append(r)
    if soloist is None:
        order = [0, 1, 2, 3]
    else:
        order = sorted(p for p in range(4) if p != obs["sitting_out"])
    trick = [(s, card_of(t)) for s, t in obs["trick"]]
    return Table(seat, hand, trick, out, voids, order, partner, led_by_partner, 13 - len(tricks))


def choose(view: View, rng: random.Random) -> Action:
    """One legal action of ``view``, by the phase's heuristic."""
    obs = view.observation
    legal = view.legal_actions
    phase = obs["phase"]
    if phase == "bid":
        return choose_bid(obs, legal)
    if phase == "sooli":
        return _named(legal, "sooli" if wants_sooli(obs) else "pass")
    if phase == "discard":
        return _card_action(legal, soloist_discard([card_of(t) for t in obs["hand"]]))
    if phase == "give":
        return _card_action(legal, partner_gift([card_of(t) for t in obs["hand"]]))
    return choose_play(obs, legal, rng)


def _named(legal: list[Action], text: str) -> Action:
    """The legal action with this text (the first legal one if, unexpectedly, it is absent)."""
    for a in legal:
        if a.text == text:
            return a
    return legal[0]


def _card_action(legal: list[Action], card: Card) -> Action:
    """The legal action playing, bidding, discarding or giving ``card``."""
    text = text_of(card)
    for a in legal:
        if a.card is not None and a.card.text == text:
            return a
    return legal[0]


# -- bidding -------------------------------------------------------------------


def hand_value(hand: Iterable[Card]) -> int:
    """High-card points (A 4, K 3, Q 2, J 1) plus one per card past the fourth of a suit.

    About 10 points is an average hand; a side needs about 21 between two hands
    for seven no-trump tricks, so a hand of 14 with an average partner is a rami.
    """
    cards = list(hand)
    value = sum(HCP.get(r, 0) for _, r in cards)
    for s in SUITS:
        value += max(0, sum(1 for t, _ in cards if t == s) - 4)
    return value


def choose_bid(obs: dict[str, Any], legal: list[Action]) -> Action:
    """Rami with a strong hand, else nolo; bid with the least telling card of the colour."""
    hand = [card_of(t) for t in obs["hand"]]
    rami = hand_value(hand) >= RAMI_MIN
    cards = [(a.card.rank.value, a) for a in legal
             if a.card is not None and (a.card.suit.letter in RED) == rami]
    if cards:
        # The lowest spot card: an ace bid would show a sure trick.
        return min(cards, key=lambda ra: (ra[0] == 14, ra[0]))[1]
    return _named(legal, "bid rami" if rami else "bid nolo")


# -- sooli ------------------------------------------------------------------------


def sooli_risk(hand: Iterable[Card]) -> int:
    """How exposed a hand is in sooli, where it plays last with the ace lowest.

    The opponents lead low; the soloist is safe in a suit while each of his
    cards, lowest first, has enough cards below it for two opponents to play
    under.  The i-th lowest card (from 1) of rank r (ace 1) is taken as safe
    when r <= 2i + 1; every step above that counts one risk.  Voids are safe.
    """
    return sum(_suit_risk(ranks) for ranks in _sooli_ranks(hand).values())


def _sooli_ranks(hand: Iterable[Card]) -> dict[str, list[int]]:
    """Each suit's sooli ranks (ace 1) in the hand, lowest first."""
    cards = list(hand)
    return {s: sorted(sooli_rank(c) for c in cards if c[0] == s) for s in SUITS}


def _suit_risk(ranks: list[int]) -> int:
    """:func:`sooli_risk` of one suit's ranks, lowest first."""
    return sum(max(0, r - (2 * i + 1)) for i, r in enumerate(ranks, start=1))


def soloist_discard(hand: list[Card]) -> Card:
    """The card whose removal leaves the least sooli risk (highest rank on ties).

    Removing a card changes only its own suit's risk, so each suit is counted once
    and each card's removal re-counts one suit (rollouts ask this of every defender).
    """
    by_suit = _sooli_ranks(hand)
    risks = {s: _suit_risk(ranks) for s, ranks in by_suit.items()}
    total = sum(risks.values())

    def risk_without(card: Card) -> int:
        rest = list(by_suit[card[0]])
        rest.remove(sooli_rank(card))
        return total - risks[card[0]] + _suit_risk(rest)

    return min(hand, key=lambda c: (risk_without(c), -sooli_rank(c)))


def wants_sooli(obs: dict[str, Any]) -> bool:
    """Sooli when the hand, after its best discard, is nearly risk-free."""
    hand = [card_of(t) for t in obs["hand"]]
    rest = [c for c in hand if c != soloist_discard(hand)]
    return sooli_risk(rest) <= SOOLI_MAX


def partner_gift(hand: list[Card]) -> Card:
    """An ace (lowest in sooli, it can never win), else a 2; from the longest suit,
    where the soloist is least likely to be void."""
    length = {s: sum(1 for t, _ in hand if t == s) for s in SUITS}
    return min(hand, key=lambda c: (sooli_rank(c), -length[c[0]]))


# -- play ---------------------------------------------------------------------------


def choose_play(obs: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Dispatch on the contract: rami and nolo for four, sooli for three."""
    table = read_table(obs)
    cards = {a.card.text: a for a in legal if a.card is not None}
    playable = [card_of(t) for t in cards]
    contract = obs["contract"]
    if contract == "sooli":
        if obs["soloist"] == table.seat:
            card = soloist_play(table, playable)
        else:
            card = sooli_attack(table, playable)
    elif contract == "nolo":
        card = nolo_play(table, playable)
    else:
        card = rami_play(table, playable)
    return cards[text_of(card)]


def winning(trick: list[tuple[int, Card]], ace_low: bool = False) -> tuple[int, Card]:
    """The (seat, card) currently winning the trick: the highest card of the suit led."""
    lead = trick[0][1][0]
    def key(sc: tuple[int, Card]) -> int:
        return sooli_rank(sc[1]) if ace_low else sc[1][1]
    return max((sc for sc in trick if sc[1][0] == lead), key=key)


def beats_all(rank: int, outstanding: Iterable[int]) -> bool:
    """True when ``rank`` is above every outstanding rank (a master card)."""
    return all(rank > r for r in outstanding)


def partner_sure_winner(t: Table) -> bool:
    """True in rami when the partner's card wins the trick on the table for sure.

    Sure: no opponent plays after this seat, or the partner's card is above every
    outstanding card of the suit (the partner's own count as outstanding, so
    this errs towards "not sure").
    """
    if not t.trick or t.partner is None:
        return False
    best_seat, best = winning(t.trick)
    if best_seat != t.partner:
        return False
    opponents_after = [p for p in t.to_play_after() if p != t.partner]
    return not opponents_after or beats_all(best[1], t.out[best[0]])


def needless_overtakes(obs: dict[str, Any], legal: list[Action]) -> set[Action]:
    """In rami, the cards that would overtake the partner's sure winner while one that does not is legal.

    A partner who sees its winner overtaken stops trusting the signals of the
    play, and the overtaking card is a trick thrown away unless the search
    is sure of an unblock; the search bots leave these cards out, as the
    rules policy never plays them.  Empty outside rami or when every card of
    the suit this seat holds is higher (then it must overtake).
    """
    if obs.get("phase") != "play" or obs.get("contract") != "rami" or not obs.get("trick"):
        return set()
    t = read_table(obs)
    if not partner_sure_winner(t):
        return set()
    _, best = winning(t.trick)
    lead = t.trick[0][1][0]
    cards = {a: card_of(a.card.text) for a in legal if a.card is not None}
    over = {a for a, c in cards.items() if c[0] == lead and c[1] > best[1]}
    under = [a for a, c in cards.items() if c[0] == lead and c[1] < best[1]]
    return over if under else set()


# rami: take tricks ---------------------------------------------------------------


def rami_play(t: Table, playable: list[Card]) -> Card:
    """Whist play for tricks: lead, or follow by position; discard from weakness."""
    if not t.trick:
        return rami_lead(t)
    lead = t.trick[0][1][0]
    if playable[0][0] != lead:
        return rami_discard(t, playable)
    _, best = winning(t.trick)
    after = t.to_play_after()
    mine = sorted(playable, key=lambda c: c[1])
    lowest = mine[0]
    out = t.out[lead]
    opponents_after = [p for p in after if p != t.partner]
    if partner_sure_winner(t):
        return lowest  # never overtake a partner's sure winner
    winners = [c for c in mine if c[1] > best[1]]
    if not winners:
        return lowest
    if not opponents_after:
        return winners[0]  # fourth hand: win as cheaply as possible
    sure = [c for c in winners if beats_all(c[1], out)]
    if len(t.trick) == 1:
        # Second hand low, unless an honour was led and we hold a master to take it.
        if sure and best[1] >= 11:
            return sure[0]
        return lowest
    # Third hand high: the cheapest sure winner, else the lowest of our top sequence.
    if sure:
        return sure[0]
    top = _lowest_equal(mine[-1], mine, out)
    return top if top[1] > best[1] else lowest


def _lowest_equal(card: Card, mine: list[Card], out: list[int]) -> Card:
    """The lowest of my cards equal in power to ``card`` (no outstanding card between them)."""
    result = card
    for c in sorted(mine, key=lambda c: -c[1]):
        if c[1] >= card[1]:
            continue
        if any(c[1] < r < result[1] for r in out):
            break
        result = c
    return result


def rami_lead(t: Table) -> Card:
    """Lead from strength: cash masters in the long suit, return partner's suit,
    top of a sequence, else low from length."""
    best_score, best_card = -1e9, t.hand[0]
    for s in SUITS:
        ranks = t.suit(s)
        if not ranks:
            continue
        out = t.out[s]
        masters = [r for r in ranks if beats_all(r, out)]
        score = 2.0 * len(masters) + len(ranks) + 0.5 * sum(HCP.get(r, 0) for r in ranks)
        if s in t.led_by_partner:
            score += 4
        if not out:
            score += 1  # all ours: sure tricks
        if masters:
            card = (s, masters[0])
        elif len(ranks) >= 2 and ranks[0] >= 11 and ranks[0] - 1 == ranks[1]:
            card = (s, ranks[0])  # top of a sequence
        else:
            card = (s, ranks[-1])
            if ranks[0] >= 12 and len(ranks) <= 2:
                score -= 3  # don't lead away from a short honour
        if score > best_score:
            best_score, best_card = score, card
    return best_card


def rami_discard(t: Table, playable: list[Card]) -> Card:
    """Throw the lowest card of the suit least likely to take tricks; keep masters and length."""
    def suit_worth(s: str) -> float:
        ranks = t.suit(s)
        out = t.out[s]
        masters = sum(1 for r in ranks if beats_all(r, out))
        return 3.0 * masters + 0.5 * sum(HCP.get(r, 0) for r in ranks) + (len(ranks) > len(out)) * 2
    return min(playable, key=lambda c: (suit_worth(c[0]), c[1]))


# nolo: avoid tricks ----------------------------------------------------------------


def below(card: Card, out: dict[str, list[int]]) -> int:
    """Outstanding cards of the card's suit below it: the cards others could duck with."""
    return sum(1 for r in out[card[0]] if r < card[1])


def above(card: Card, out: dict[str, list[int]]) -> int:
    """Outstanding cards of the card's suit above it."""
    return sum(1 for r in out[card[0]] if r > card[1])


def nolo_play(t: Table, playable: list[Card]) -> Card:
    """Misère play: lead safe low cards, duck with the highest card that ducks, dump highs."""
    if not t.trick:
        # The lead wins only if nobody has to go above it: fewest ducking cards is safest.
        return min(playable, key=lambda c: (below(c, t.out) - 0.1 * above(c, t.out) * (below(c, t.out) > 0)
                                            + (100 if not t.out[c[0]] else 0), c[1]))
    lead = t.trick[0][1][0]
    if playable[0][0] != lead:
        return nolo_discard(t, playable)
    best_seat, best = winning(t.trick)
    after = t.to_play_after()
    under = [c for c in playable if c[1] < best[1]]
    if best_seat == t.partner and not after:
        return max(playable, key=lambda c: c[1])  # our trick anyway: dump the highest
    if under:
        return max(under, key=lambda c: c[1])
    if not after:
        return max(playable, key=lambda c: c[1])  # it is ours anyway: dump the highest
    return min(playable, key=lambda c: c[1])  # forced over: give the rest a chance to go higher


def nolo_discard(t: Table, playable: list[Card]) -> Card:
    """Throw the card most likely to win a trick later: many outstanding cards below it."""
    return max(playable, key=lambda c: (below(c, t.out) - 0.5 * above(c, t.out), c[1]))


# sooli: the soloist avoids every trick, the others try to give him one --------------


def soloist_play(t: Table, playable: list[Card]) -> Card:
    """Last to play: duck with the highest card below the trick; void, throw the riskiest."""
    lead = t.trick[0][1][0]
    if playable[0][0] != lead:
        return max(playable, key=lambda c: (sooli_risk(t.hand) - sooli_risk([d for d in t.hand if d != c]),
                                            sooli_rank(c)))
    _, best = winning(t.trick, ace_low=True)
    under = [c for c in playable if sooli_rank(c) < sooli_rank(best)]
    pool = under or playable
    return max(pool, key=sooli_rank)


def sooli_attack(t: Table, playable: list[Card]) -> Card:
    """Lead and follow with the lowest cards (ace lowest), in suits the soloist still holds."""
    soloist = next(p for p in t.order if p != t.seat and p != (t.seat + 2) % 4)
    if not t.trick:
        live = [c for c in playable if c[0] not in t.voids[soloist]] or playable
        length = {s: len(t.suit(s)) for s in SUITS}
        return min(live, key=lambda c: (sooli_rank(c), -length[c[0]]))
    lead = t.trick[0][1][0]
    if playable[0][0] != lead:
        return max(playable, key=sooli_rank)  # keep the low cards for later leads
    return min(playable, key=sooli_rank)
