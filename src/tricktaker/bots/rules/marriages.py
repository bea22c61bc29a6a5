"""Rules policy for the Marjapussi family: Marjapussi, Bondtolva (four and two players), Avomarjapussi.

The play of these games is about *tricks as entries*: only the winner of a
trick may make a call (declare, ask whole, ask half), and the first marriage
is worth 2 of the 12 points a side needs.  So the policy plays like a club
player who wants the lead:

- **Calls**: declare an own marriage at once (the longest suit first, so that
  it becomes trumps); else ask the partner for the half of a suit we hold a
  king or queen of; else ask for a whole.  A call the side already saw
  answered "no" is not repeated.  When the match must end on exactly the
  target (Marjapussi, Avomarjapussi, Bondtolva ``exact``), a call that would
  push the side over is skipped.
- **Leads**: lead a sure winner (the top card left of its suit, where nobody
  can trump it) to keep the lead and call again; draw trumps with the top
  trump when our side made them; else lead low from a long side suit, keeping
  aces, tens and marriage halves.
- **Following**: when the partner's card stands, throw points on it; when
  an opponent is winning, win as cheaply as possible (last to play) or with a
  sure winner; otherwise throw the card that costs least.

The card-reading helpers here (:class:`Table`, :func:`keep_cost`,
:func:`choose_play`) are shared with the Huutopussi policy, which only adds
the auction, the exchange and its own call values.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...cards import PIQUET_36, SUIT_MASKS, popcount, single_bits, suit_of
from ...engine import Action
from ...games.marriages import BEATS, PAIRS, STRENGTH
from ..base import View

__all__ = [
    "BIT", "PIPS", "Table", "choose", "choose_call", "choose_play", "keep_cost", "read_table",
]

BIT: dict[str, int] = {c.text: c.mask for c in PIQUET_36.cards}
"""Card text to its bit (the engine's card masks)."""
SUIT_INDEX = {s.letter: s.index for s in PIQUET_36.suits}
SUIT_LETTER = {s.index: s.letter for s in PIQUET_36.suits}
ACE, TEN, KING, QUEEN = 14, 10, 13, 12
PIPS: dict[int, int] = {c.mask: {14: 11, 10: 10, 13: 4, 12: 3, 11: 2}.get(c.rank.value, 0)
                        for c in PIQUET_36.cards}
"""Marjapussi's card pips: A 11, 10 10, K 4, Q 3, J 2."""


def rank_of(bit: int) -> int:
    """The rank value (6..14, ace 14) of one card bit."""
    return (bit.bit_length() - 1) & 15


def mask_of(texts: Iterable[str]) -> int:
    """The bits of some card texts."""
    out = 0
    for t in texts:
        out |= BIT[t]
    return out


def by_strength(mask: int) -> list[int]:
    """The cards of ``mask``, weakest first (A 10 K Q J 9 8 7 6 order)."""
    return sorted(single_bits(mask), key=STRENGTH.__getitem__)


@dataclass
class Table:
    """What one seat knows about the cards, read from its observation (masks of card bits).

    ``unseen`` holds every card that may still be in another player's hand or
    face-up row (or face down, or in a stock); ``voids[s]`` the suits seat
    ``s`` has shown it lacks (bit per suit index).
    """

    seat: int
    players: int
    partner: int | None
    hand: int
    """Cards the seat may play from: its hand and, in Avomarjapussi, its face-up cards."""
    trump: int
    """The trump suit index, -1 while there are none."""
    trick: list[tuple[int, int]]
    gone: int
    """Cards in finished tricks and on the table."""
    unseen: int
    """Cards that another player may still play (hidden, or face up in an opponent's row)."""
    voids: list[int]
    declared: int
    """Bit per suit index: suits already declared this hand."""
    calls: list[tuple[int, str]]
    values: Mapping[int, int]
    """Points of each card bit in this game's count."""
    lead_win: list[int] = field(default_factory=list)
    """Per seat: how many tricks it led and won (entries it has shown)."""
    stock: int = 0
    """Cards left in the stock (two-handed Bondtolva): while any are left, play is free."""

    def side_has(self, seat: int) -> bool:
        """True when ``seat`` is on our side (ourselves or the partner)."""
        return seat == self.seat or seat == self.partner

    def winner(self) -> tuple[int, int]:
        """The seat and card winning the trick on the table so far (the trick must not be empty)."""
        seat, best = self.trick[0]
        for s, b in self.trick[1:]:
            if beats(b, best, self.trump):
                seat, best = s, b
        return seat, best

    def to_play_after(self) -> list[int]:
        """The seats still to play to the trick after this seat."""
        left = self.players - len(self.trick) - 1
        return [(self.seat + k) % self.players for k in range(1, left + 1)]

    def is_boss(self, bit: int) -> bool:
        """True when no card another player may hold beats ``bit`` in its suit."""
        return not BEATS[bit] & self.unseen

    def trumps_out(self) -> int:
        """Trumps other players may still hold."""
        return self.unseen & SUIT_MASKS[self.trump] if self.trump >= 0 else 0

    def safe_from_trumps(self, suit: int, seats: Iterable[int]) -> bool:
        """True when none of ``seats`` (opponents) can be expected to trump a card of ``suit``."""
        if self.trump < 0 or suit == self.trump or not self.trumps_out():
            return True
        return not any(self.voids[s] >> suit & 1 for s in seats if not self.side_has(s))

    def stands(self, bit: int, seats: Sequence[int]) -> bool:
        """True when ``bit``, winning now, will still win after ``seats`` play (as far as we know)."""
        opponents = [s for s in seats if not self.side_has(s)]
        if not opponents:
            return True
        suit = suit_of(bit)
        if self.trump >= 0 and suit != self.trump and self.trick and suit_of(self.trick[0][1]) != suit:
            return False  # a card neither led nor trump cannot be winning; defensive
        return self.is_boss(bit) and self.safe_from_trumps(suit, opponents)


def beats(card: int, best: int, trump: int) -> bool:
    """True when ``card`` played now takes the trick from ``best``."""
    cs, bs = suit_of(card), suit_of(best)
    if cs == bs:
        return STRENGTH[card] > STRENGTH[best]
    return cs == trump


def read_table(view: View, values: Mapping[int, int] | None = None) -> Table:
    """The seat's card knowledge from its observation (cheap: a few dozen bit operations)."""
    obs = view.observation
    seat = view.seat
    n = view.game.num_players
    partner = (seat + 2) % 4 if n == 4 and view.game.partnerships else None
    deck_mask = view.game.deck.mask
    hand = mask_of(obs["hand"])
    visible_others = 0
    rows = obs.get("rows")
    if rows:
        for s, row in enumerate(rows):
            up = mask_of(c for c, _ in row if c)
            if s == seat:
                hand |= up
            else:
                visible_others |= up
    gone = 0
    voids = [0] * n
    lead_win = [0] * n
    trump = -1 if obs.get("trump") is None else SUIT_INDEX[obs["trump"]]
    trick = [(s, BIT[c]) for s, c in obs["trick"]]
    played = [[(s, BIT[c]) for s, c in t["cards"]] for t in obs["tricks"]]
    for cards in [*played, trick] if trick else played:  # the tricks played, then the one on the table
        led = suit_of(cards[0][1])
        for s, b in cards:
            gone |= b
            if suit_of(b) != led:
                voids[s] |= 1 << led
    for t in obs["tricks"]:
        if t["winner"] == t["leader"]:
            lead_win[t["leader"]] += 1
    kitty = mask_of(obs.get("kitty") or ()) if obs.get("declarer") == seat else 0
    discard = mask_of(obs.get("discard") or ())
    unseen = (deck_mask & ~hand & ~gone & ~kitty & ~discard) | visible_others
    declared = 0
    for _, letter, _ in obs.get("marriages", ()):
        declared |= 1 << SUIT_INDEX[letter]
    calls = [(s, text) for s, text in obs.get("calls", ())]
    return Table(seat, n, partner, hand, trump, trick, gone, unseen & ~hand, voids, declared, calls,
                 values if values is not None else PIPS, lead_win, int(obs.get("stock_size") or 0))


# -- card values -------------------------------------------------------------------


def keep_cost(t: Table, bit: int) -> float:
    """What giving ``bit`` away (playing it to a lost trick, discarding it) costs us.

    Points in the card, its power to win a trick later (aces, boss cards,
    trumps), and its use as half of a marriage not yet declared: a king or
    queen whose partner card is still in play may make trumps.
    """
    cost = t.values[bit] * 1.0 + STRENGTH[bit] * 0.6
    suit = suit_of(bit)
    if suit == t.trump:
        cost += 6 + STRENGTH[bit]
    if t.is_boss(bit):
        cost += 5
    if rank_of(bit) in (KING, QUEEN) and not t.declared >> suit & 1:
        other = PAIRS[suit] & ~bit
        if other & t.hand:
            cost += 25  # a whole marriage in hand
        elif not other & t.gone:
            cost += 6  # a half the partner may complete
    return cost


# -- trick play --------------------------------------------------------------------


def choose_play(t: Table, plays: list[Action], rng: random.Random,
                lead_bias: Callable[[Table, int], float] | None = None) -> Action:
    """The card to play: a lead, a follow or a throw, by the rules in the module docstring."""
    by_bit = {a.mask: a for a in plays}
    cards = list(by_bit)
    if len(cards) == 1:
        return plays[0]
    bit = choose_follow(t, cards) if t.trick else choose_lead(t, cards, lead_bias)
    return by_bit[bit]


def cheapest(t: Table, cards: Iterable[int]) -> int:
    """The card of ``cards`` that costs least to give up."""
    return min(cards, key=lambda b: (keep_cost(t, b), b))


def choose_follow(t: Table, cards: list[int]) -> int:
    """Second to fourth hand: smear on the partner, win cheaply, or throw the cheapest card."""
    win_seat, best = t.winner()
    after = t.to_play_after()
    winners = [b for b in cards if beats(b, best, t.trump)]
    losers = [b for b in cards if b not in winners]
    points_on_table = sum(t.values[b] for _, b in t.trick)
    if t.side_has(win_seat):
        if losers:
            if t.stands(best, after):
                # Partner's card stands: give him the points we can spare.
                return max(losers, key=lambda b: (t.values[b] * 2 - keep_cost(t, b), b))
            return cheapest(t, losers)
        return cheapest(t, winners)  # forced to overtake: with the least useful card
    if winners:
        standing = [b for b in winners if t.stands(b, after)]
        if standing and losers and t.stock and not points_on_table:
            # Free play with a stock: a bare trick is not worth a trump or an ace.
            standing = [b for b in standing if suit_of(b) != t.trump and rank_of(b) != ACE]
            if not standing:
                return cheapest(t, losers)
        if standing:
            # The card we win with comes back to us: what it costs is its later power, not its points.
            return min(standing, key=lambda b: (keep_cost(t, b) - t.values[b], b))
        if not losers:
            # Must beat but cannot be sure to win: the top card if the trick is rich, else cheap.
            return max(winners, key=STRENGTH.__getitem__) if points_on_table >= 10 else cheapest(t, winners)
        if points_on_table >= 10:
            return max(winners, key=lambda b: (STRENGTH[b], b))
    return cheapest(t, losers)


def choose_lead(t: Table, cards: list[int], bias: Callable[[Table, int], float] | None) -> int:
    """Lead a sure winner to keep the lead, draw trumps, or lead low from a long side suit."""
    opponents = [s for s in range(t.players) if not t.side_has(s)]
    trumps_mine = [b for b in cards if suit_of(b) == t.trump]
    ours_trumps = any(t.side_has(s) for s, _ in _trump_maker(t))
    if trumps_mine and t.trumps_out() and ours_trumps:
        top = max(trumps_mine, key=STRENGTH.__getitem__)
        if t.is_boss(top) and len(trumps_mine) >= 2:
            return top
    sure = [b for b in cards if t.is_boss(b) and t.safe_from_trumps(suit_of(b), opponents)]
    if sure:
        return max(sure, key=lambda b: (t.values[b], suit_len(t.hand, suit_of(b)), b))

    def score(b: int) -> float:
        suit = suit_of(b)
        s = keep_cost(t, b) - 1.5 * suit_len(t.hand, suit)
        if suit == t.trump and t.trumps_out():
            s += 8  # keep trumps for ruffing
        if t.partner is not None and t.voids[t.partner] >> suit & 1 and t.trump >= 0:
            s -= 6  # the partner may ruff
        if any(t.voids[o] >> suit & 1 for o in opponents) and t.trump >= 0 and suit != t.trump:
            s += 6  # an opponent may ruff
        if bias is not None:
            s += bias(t, b)
        return s

    return min(cards, key=lambda b: (score(b), b))


def _trump_maker(t: Table) -> list[tuple[int, str]]:
    """The call that made the current trumps, as ``[(seat, call)]`` (empty while there are none)."""
    if t.trump < 0:
        return []
    letter = SUIT_LETTER[t.trump]
    for seat, text in reversed(t.calls):
        if text in (f"declare {letter}", f"answer {letter}"):
            return [(seat, text)]
    return []


def suit_len(mask: int, suit: int) -> int:
    """How many cards of ``suit`` are in ``mask``."""
    return popcount(mask & SUIT_MASKS[suit])


# -- calls ---------------------------------------------------------------------------


def failed_asks(t: Table) -> tuple[bool, int]:
    """What our side's asks have shown: (the partner had no whole, suits whose half he lacks)."""
    no_whole = False
    no_half = 0
    for i, (seat, text) in enumerate(t.calls):
        if seat != t.seat or not text.startswith("ask") or i + 1 >= len(t.calls):
            continue
        if t.calls[i + 1][1] != "answer no":
            continue
        if text == "ask whole":
            no_whole = True
        else:
            no_half |= 1 << SUIT_INDEX[text.split()[-1]]
    return no_whole, no_half


def choose_call(t: Table, calls: list[Action], suit_value: Callable[[int], float],
                room: int | None) -> Action | None:
    """The call to make now, or None to lead without one.

    ``suit_value`` ranks suits (marriage value, trump length); ``room`` is how
    many hand points the side may still add without overshooting an exact
    target (None: no limit).  Declaring beats asking (it is sure); a half is
    asked in the best suit we hold a half of; a whole is asked if the partner
    has not already said he has none.
    """
    if room is not None and room <= 0:
        return None
    next_value = 2 if t.trump < 0 else 1
    if room is not None and next_value > room:
        return None
    declares = [a for a in calls if a.kind == "declare"]
    if declares:
        return max(declares, key=lambda a: (suit_value(_suit(a)), a.text))
    no_whole, no_half = failed_asks(t)
    halves = [a for a in calls if a.kind == "ask" and a.args[0] == "half" and not no_half >> _suit(a) & 1]
    whole = [a for a in calls if a.kind == "ask" and a.args[0] == "whole"]
    if halves:
        return max(halves, key=lambda a: (suit_value(_suit(a)), a.text))
    if whole and not no_whole:
        return whole[0]
    return None


def _suit(action: Action) -> int:
    """The suit index named by a call."""
    return SUIT_INDEX[action.text.split()[-1]]


def choose_answer(t: Table, answers: list[Action], suit_value: Callable[[int], float]) -> Action:
    """Answer an ask: the only choice is which marriage, when asked for a whole and holding several."""
    yes = [a for a in answers if a.text != "answer no"]
    if not yes:
        return answers[0]
    return max(yes, key=lambda a: (suit_value(_suit(a)), a.text))


# -- the Marjapussi family policy -------------------------------------------------------


def trump_value(t: Table) -> Callable[[int], float]:
    """Rank suits as trumps for our side: our length and high cards in the suit."""
    def value(suit: int) -> float:
        mine = t.hand & SUIT_MASKS[suit]
        return popcount(mine) * 2 + sum(STRENGTH[b] for b in single_bits(mine)) * 0.2
    return value


def room_left(view: View, t: Table) -> int | None:
    """Hand points our side may still add without passing an exact target (None: no limit).

    Keeps one point in hand for the last trick or the pips the side is likely to take.
    """
    game = view.game
    exact = game.name != "bondtolva" or bool(game.options.get("exact"))
    if not exact:
        return None
    obs = view.observation
    side = game.side_of(view.seat)
    target = int(game.options.get("target", 12))
    have = int(obs["scores"][side]) + int(obs["points"][side])
    return target - have


def choose(view: View, rng: random.Random) -> Action:
    """One legal action of ``view``: a call, an answer or a card (see the module docstring)."""
    legal = view.legal_actions
    t = read_table(view)
    if legal[0].kind == "answer":
        return choose_answer(t, legal, trump_value(t))
    calls = [a for a in legal if a.kind in ("declare", "ask")]
    if calls:
        call = choose_call(t, calls, trump_value(t), room_left(view, t))
        if call is not None:
            return call
    plays = [a for a in legal if a.kind == "play"]
    return choose_play(t, plays, rng, stock_bias if view.observation.get("stock_size") else None)


def stock_bias(t: Table, bit: int) -> float:
    """Two-handed Bondtolva with a stock: lead low cards and keep marriage halves and aces."""
    return 0.0 if rank_of(bit) < 11 else 4.0


