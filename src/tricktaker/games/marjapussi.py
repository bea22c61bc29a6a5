"""The Marjapussi family: Marjapussi, Bondtolva (four and two players) and Avomarjapussi.

Rules: ``shared/RULES.md`` (sections Marjapussi, Bondtolva, Avomarjapussi) and
the seed text ``seeds/marjapussi-huutopussi.txt``; the project's own rules
pages are ``docs/rules/marjapussi.md``, ``bondtolva.md`` and
``avomarjapussi.md``.  Play, duties and calls (declare, ask, answer) are the
shared machinery of :mod:`.marriages`; this module holds the deals, the lead
rules, the scoring and the match.  Decisions the rule texts leave open:

- The first dealer of a match is seat 0 unless ``new_match(dealer=...)`` says
  otherwise; the deal passes clockwise.  In the two-handed games the
  non-dealer leads first.
- The first-lead rule (an ace, or an ace else a spade) holds in every game of
  the family, including two-handed Bondtolva while the stock lasts.
- After a marriage with ``lead_from_marriage`` (always on in Bondtolva) the
  trick winner, who leads, must lead the marriage's king or queen if he holds
  one; after a whole answered by the partner he usually cannot.
- ``partner_exception`` lifts only the duty to beat the partner's high card;
  following suit and trumping still apply.
- Ordered calls are kept per side: after a side asks, it may no longer declare
  from its own hand; after it asks for a half, no longer ask for a whole.
- Both sides reaching the target in one hand (exactly, where exact is the
  rule): the side that took the last trick wins; in Bondtolva without
  ``exact`` the higher score wins first.
- A carried pip point (``pip_tie_carries``) piles up over several ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import PIQUET_36, SHORT_24, SUIT_MASKS, popcount, single_bits
from ..engine import (
    JSON,
    Action,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    json_copy,
    parse_action,
    whole_number,
)
from ..sampling import fill_slots, fill_timed_slots
from .marriages import (
    ACES,
    CALL_KINDS,
    TRICK_ACTIONS,
    WORDS,
    MarriageRules,
    MarriageState,
    check_trick_action,
)

__all__ = ["Avomarjapussi", "Bondtolva", "Marjapussi", "MarjapussiFamily", "MarjapussiState"]

KINDS = ("play", *CALL_KINDS)
SPADES = SUIT_MASKS[3]
SUIT_LETTER = {s.index: s.letter for s in PIQUET_36.suits}
ACE_OF_CLUBS = 1 << 14
DROP_TO = 7
"""Where a side that overshoots an exact target drops (Marjapussi)."""
ROW = 7
"""Avomarjapussi: columns of a face-down and a face-up card per player."""

CARD_PIPS = {14: 11, 10: 10, 13: 4, 12: 3, 11: 2}
ACE_TEN = {14: 1, 10: 1}
HONOURS = {14: 4, 13: 3, 12: 2, 11: 1}
"""Bondtolva's tie-breaker when the aces and tens are equal."""


def _table(values: dict[int, int]) -> dict[int, int]:
    return {c.mask: values.get(c.rank.value, 0) for c in PIQUET_36.cards}


PIP_TABLES = {"cards": (_table(CARD_PIPS),), "aces_tens": (_table(ACE_TEN), _table(CARD_PIPS)),
              "bondtolva": (_table(ACE_TEN), _table(HONOURS))}
"""Pip counts by scheme: the first table decides, the later ones break ties."""

TARGET = Option("target", 12, "Points to reach exactly (12; 10 is also played); overshooting drops to 7.",
                choices=(10, 12))
FIRST_LEAD = Option("first_lead", "ace", "The first lead of a hand: an ace if the leader has one "
                    "(ace), or an ace, else a spade (ace_or_spade).", choices=("ace", "ace_or_spade"))
PIP_TIE = Option("pip_tie_carries", False,
                 "Equal pips: the pip point carries over to the next hand's pip winner.")
PARTNER_EXCEPTION = Option("partner_exception", False,
                           "No duty to beat the high card when it is the partner's.")
ORDER = Option("declaration_order", "free",
               "Calls: free; ordered (after asking, no own declaring; after a half, no whole); "
               "whole_first (ordered, and a half only after a whole).",
               choices=("free", "ordered", "whole_first"))
LEAD_FROM_MARRIAGE = Option("lead_from_marriage", False,
                            "After a marriage, the leader must lead its king or queen if he can.")


class MarjapussiFamily(Game):
    """What the family's games share; each subclass names its deck, layout and options."""

    layout = "hands"
    """``hands`` (all cards dealt), ``stock`` (two-handed Bondtolva), ``rows`` (Avomarjapussi)."""
    rules: MarriageRules
    target: int
    over: str
    """Overshooting the target: ``drop`` (to 7), ``subtract`` (the excess from the target), ``keep``."""
    pip_tables: tuple[dict[int, int], ...]

    def _resolve(self, over: str, pips: str, **fixed: Any) -> None:
        """Settle target, overshoot, pip count and the shared rules; ``fixed`` rules override options."""
        o = self.options
        self.target = o.get("target", 12)
        self.over = over
        self.pip_tables = PIP_TABLES[pips]
        rules: dict[str, Any] = {
            "partners": self.partnerships,
            "partner_exception": o.get("partner_exception", False),
            "order": o.get("declaration_order", "free"),
            "lead_from_marriage": o.get("lead_from_marriage", False),
        }
        self.rules = MarriageRules(**(rules | fixed))

    def pile_sizes(self, dealer: int) -> list[int]:
        """Four hands; or two hands and the stock card by card; or two hands and four rows.

        Avomarjapussi: hand 0, hand 1, then seat 0's seven face-down cards and
        seven face-up cards (column by column), then seat 1's.
        """
        size = len(self.deck) // self.num_players
        if self.layout == "stock":
            return [6, 6] + [1] * (len(self.deck) - 12)
        if self.layout == "rows":
            return [4, 4] + [1] * (4 * ROW)
        return [size] * self.num_players


class Marjapussi(MarjapussiFamily):
    """Marjapussi: four players in partnerships, 36 cards, exactly 12.  ``tt.new_game("marjapussi")``."""

    name = "marjapussi"
    title = "Marjapussi"
    deck = PIQUET_36
    OPTIONS = (
        TARGET,
        Option("pips", "cards", "The pip point: card pips A11 10=10 K4 Q3 J2 (cards), or aces and "
               "tens with card pips breaking ties (aces_tens).", choices=("cards", "aces_tens")),
        PIP_TIE,
        FIRST_LEAD,
        Option("clubs_ace_opens", False, "The match's first trick is led with the ace of clubs by "
               "whoever holds it, who then deals the second hand."),
        LEAD_FROM_MARRIAGE,
        ORDER,
        PARTNER_EXCEPTION,
    )
    PRESETS = {"seed": {}, "short": {"target": 10}}
    SUMMARY = """\
36 cards (A..6), 9 each, partners opposite.  Rank A 10 K Q J 9 8 7 6; pips A 11, 10 10,
K 4, Q 3, J 2.  The player left of the dealer leads first and must lead an ace if he has
one (option first_lead ace_or_spade: else a spade); then the trick winner leads.  No trumps
until a marriage is made.

Duties: follow suit; else trump if there are trumps; else anything; and within those always
beat the high card of the trick if you can (overtrumping included).  Option
partner_exception: no duty to beat the partner's high card.

Calls: after winning a trick, before leading, the winner may make one call: declare a
marriage (K+Q of a suit) from his hand; ask his partner for a whole (the partner declares
one of his marriages, his choice, or answers no); or, holding the K or Q of a suit, ask for
the half of it (the partner answers with the suit if he has the other one, else no).
Answers are public; a no uses up the call.  Each suit once per hand.  The first marriage
makes trumps and is worth 2 points; later ones are little ones worth 1.

Hand points: trumps 2, each little one 1, the last trick 1, more pips 1 (equal pips:
nobody; option pip_tie_carries).  A side must reach exactly 12 (option target 10); going
over drops it to 7.  A side that takes no trick goes to Porvoo: its score becomes 0.

Options from the seed's variants: pips aces_tens, clubs_ace_opens, lead_from_marriage,
declaration_order (ordered, whole_first).  Preset short: to 10.

Actions: play AS, declare H, ask whole, ask half H, answer H, answer no."""

    def _validate(self) -> None:
        self._resolve("drop", self.options["pips"])


class Bondtolva(MarjapussiFamily):
    """Bondtolva, the Swedish farmer's dozen: 24 cards, four players (default) or two with a stock."""

    name = "bondtolva"
    title = "Bondtolva"
    deck = SHORT_24
    OPTIONS = (
        Option("players", 4, "Four players in partnerships, or two with a stock.", choices=(2, 4)),
        Option("exact", False, "Reach exactly 12: points over 12 are taken off 12."),
        PIP_TIE,
        FIRST_LEAD,
        ORDER,
        PARTNER_EXCEPTION,
    )
    PRESETS = {"four": {"players": 4}, "two": {"players": 2}}
    SUMMARY = """\
24 cards (A 10 K Q J 9 in each suit).  As Marjapussi (see tricktaker rules marjapussi) with
these differences.  After a marriage is made the leader must lead its king or queen if he
holds one.  The pip point goes to the side with more aces and tens in its tricks; equal:
aces 4, kings 3, queens 2, jacks 1 decide; still equal: nobody.  The match is to 12
(option exact: points over 12 are taken off 12).  A side without a trick goes to Porvoo.

Four players (players=4, preset four): 6 cards each, partners opposite, asking allowed.

Two players (players=2, preset two): 6 cards each; the rest is a stock.  After each trick
the winner draws, then the loser.  While the stock lasts there is no duty to follow, trump
or beat; after it is empty all duties apply, and no more marriages may be made.  The
non-dealer leads first.

Actions: play AS, declare H, ask whole, ask half H, answer H, answer no."""

    def _validate(self) -> None:
        self.num_players = self.options["players"]
        self.partnerships = self.num_players == 4
        self.layout = "hands" if self.num_players == 4 else "stock"
        self._resolve("subtract" if self.options["exact"] else "keep", "bondtolva",
                      free_while_stock=self.num_players == 2, lead_from_marriage=True)


class Avomarjapussi(MarjapussiFamily):
    """Avomarjapussi, open Marjapussi for two: a hand of 4 and rows of 7 face down and 7 face up."""

    name = "avomarjapussi"
    title = "Avomarjapussi"
    deck = PIQUET_36
    num_players = 2
    partnerships = False
    layout = "rows"
    OPTIONS = (
        TARGET,
        Option("pips", "cards", "The pip point: card pips (cards), or aces and tens with card pips "
               "breaking ties (aces_tens).", choices=("cards", "aces_tens")),
        PIP_TIE,
        FIRST_LEAD,
        LEAD_FROM_MARRIAGE,
    )
    PRESETS = {"seed": {}}
    SUMMARY = """\
Two players, 36 cards.  Each has a hand of 4 cards and, on the table, a row of 7 cards face
down with 7 face up on top of them.  A player plays and declares from his hand and his own
face-up cards; when a face-up card is played, the card beneath it turns face up.
Face-down cards are unknown to both players.  No partners, so no asking.  The non-dealer
leads first.  Otherwise as Marjapussi (see tricktaker rules marjapussi): the same duties,
marriages (the first makes trumps, 2 points; later ones 1), last trick 1, more pips 1,
exactly 12 (option target 10) with the drop to 7, and Porvoo.

Actions: play AS, declare H."""

    def _validate(self) -> None:
        self._resolve("drop", self.options["pips"])


class MarjapussiState(MarriageState):
    """A match (or single hand) of any game of the family.

    ``scores`` are match points per side (per seat without partners); ``hand_points`` what
    the last finished hand scored per side (marriages, the last trick, the pip point).
    """

    game: MarjapussiFamily

    @classmethod
    def match_start(cls, game: Game, dealer: int) -> JSON:
        return {"hand_number": 0, "dealer": dealer, "scores": [0] * game.num_sides, "carry": 0,
                "previous": None}

    @classmethod
    def check_scores(cls, game: Game, scores: Sequence[int]) -> list[int]:
        checked = super().check_scores(game, scores)
        target: int = game.target  # type: ignore[attr-defined]
        if min(checked) < 0 or max(checked) >= target:
            raise OptionError(f"{game.name} scores are 0..{target - 1} per side")
        return checked

    @classmethod
    def _check_start_fields(cls, game: Game, start: JSON, checked: JSON) -> JSON:
        # a carry counts the tied pip points of the hands before: at most one per hand
        return {"carry": whole_number(start["carry"], "start carry", 0, checked["hand_number"])}

    def _match_context(self) -> JSON:
        dealer = self._next(self._dealer)
        if self._opener is not None:
            dealer = self._opener  # the ace of clubs deals the second hand
        return {"hand_number": self._start["hand_number"] + 1, "dealer": dealer,
                "scores": list(self._scores), "carry": self._carry, "previous": self._previous}

    def _start_hand(self, start: JSON, deal: list[int]) -> None:
        game = self.game
        self._begin_context(start)
        self._carry: int = start["carry"]
        self._rules = game.rules
        leader = self._next(self._dealer)
        tiers = [ACES] if game.options["first_lead"] == "ace" else [ACES, SPADES]
        self._opener: int | None = None
        if game.options.get("clubs_ace_opens") and start["hand_number"] == 0:
            self._opener = leader = next(s for s in range(4) if deal[s] & ACE_OF_CLUBS)
            tiers = [ACE_OF_CLUBS]
        if game.layout == "rows":
            base = [2 + 2 * ROW * s for s in range(2)]  # each seat: 7 face down, then 7 face up
            rows = [[(deal[b + ROW + k], deal[b + k]) for k in range(ROW)] for b in base]
            self._start_play(deal[:2], leader, tiers, rows=rows)
        elif game.layout == "stock":
            self._start_play(deal[:2], leader, tiers, stock=deal[2:])
        else:
            self._start_play(deal, leader, tiers)
        if self._opener is not None:
            self._shown[self._opener] = ACE_OF_CLUBS  # he must lead it: everyone knows he holds it

    # -- the public API ----------------------------------------------------------

    def _parse(self, text: str) -> Action:
        return check_trick_action(parse_action(text, self.game.deck, KINDS, WORDS), text.strip())

    def _do(self, action: Action) -> None:
        if action not in TRICK_ACTIONS:
            raise IllegalActionError(f"{action.text!r} is malformed: not an action of {self.game.title}")
        if action.mask & ~self.game.deck.mask:
            # the family shares one action table; a 24-card game meets the 36-card deck's sevens
            raise IllegalActionError(f"{action.text!r} is malformed: {action.card} is not a card of "
                                     f"the {self.game.deck.name} deck")
        if self._turn is None:
            raise IllegalActionError("the game is over")
        self._do_marriage_action(self._turn, action)

    def _marriage_made(self, seat: int, suit: int) -> None:
        """The first marriage makes trumps (2 points); later ones are little ones (1 point)."""
        if self._trump < 0:
            self._set_trump(suit)
            self._marriages.append((seat, suit, 2))
        else:
            self._marriages.append((seat, suit, 1))

    def side_points(self) -> list[int]:
        """Hand points so far per side: marriages, and at the end the last trick and pips."""
        points = [0] * self.game.num_sides
        for seat, _, value in self._marriages:
            points[self.game.side_of(seat)] += value
        return points

    def pips(self) -> list[tuple[int, ...]]:
        """Each side's pips in its tricks, per counting table (the later ones break ties)."""
        return [tuple(sum(t[b] for b in single_bits(taken)) for t in self.game.pip_tables)
                for taken in self._taken]

    # -- the end of a hand -----------------------------------------------------

    def _hand_done(self) -> None:
        game = self.game
        sides = game.num_sides
        points = self.side_points()
        last = self._last_trick_side
        assert last is not None
        points[last] += 1
        pips = self.pips()
        best = max(pips)
        pip_side: int | None = None
        carry = self._carry
        if pips.count(best) == 1:
            pip_side = pips.index(best)
            points[pip_side] += 1 + carry
            carry = 0
        elif game.options["pip_tie_carries"]:
            carry += 1
        else:
            carry = 0
        self._carry = carry
        porvoo = [s for s in range(sides) if not self._tricks_won[s]]
        target = game.target
        for s in range(sides):
            score = 0 if s in porvoo else self._scores[s] + points[s]
            if score > target:
                if game.over == "drop":
                    score = DROP_TO
                elif game.over == "subtract":
                    score = 2 * target - score  # at most 19 - 12 over: never below 0
            self._scores[s] = score
        reached = [s for s in range(sides) if self._scores[s] >= target]
        winner: int | None = None
        if reached:
            top = max(self._scores[s] for s in reached)
            leaders = [s for s in reached if self._scores[s] == top]
            winner = leaders[0] if len(leaders) == 1 else last
        self._hand_points = points
        result: JSON = {
            "trump": self.trump,
            "marriages": [[seat, self._suit_letter(suit), value] for seat, suit, value in self._marriages],
            "points": points,
            "pips": [p[0] for p in pips],
            "pips_tie_break": [p[1] for p in pips] if len(game.pip_tables) > 1 else None,
            "pip_point": pip_side,
            "carry": carry,
            "tricks_won": list(self._tricks_won),
            "last_trick": last,
            "porvoo": porvoo,
            "scores": list(self._scores),
        }
        if winner is not None:
            self._winner = winner
        self._close_hand(result, winner is not None)

    def _suit_letter(self, suit: int) -> str:
        return SUIT_LETTER[suit]

    # -- what a seat may know ----------------------------------------------------------

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as a JSON-safe dict; ``seat=None`` gives public information only."""
        seat = self._check_viewer(seat)
        game = self.game
        obs = self._header(seat) | self._play_observation(seat) | {
            "pips": [p[0] for p in self.pips()],
            "points": self.side_points(),
            "lead_rule": self._texts(self._lead_tiers[0]) if self._lead_tiers else None,
            "carry": self._carry,
            "previous_hand": json_copy(self._previous),
            "winner": self._winner,
        }
        if game.layout == "stock":
            obs["stock_size"] = len(self._stock)
        if game.layout == "rows":
            obs["rows"] = [[[self._card(up).text if up else None, bool(down)] for up, down in row]
                           for row in self._rows]
        if seat is not None and seat == self._turn:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    # -- worlds ------------------------------------------------------------------

    def sample_world(self, seat: int, rng: random.Random) -> MarjapussiState:
        """A full state consistent with everything ``seat`` knows, hidden cards dealt anew.

        Known: the seat's own cards, every played and face-up card, declared
        and answered marriages, what each play revealed (voids, no higher
        card, no trump, no ace at the first lead), and where the answer to an
        ask for a half places the king and queen.  The world is the hand
        replayed on the new deal, so every ask and answer must come out the
        same there; worlds where one would not are drawn again.
        """
        build = {"hands": self._world_hands, "stock": self._world_stock, "rows": self._world_rows}
        make = build[self.game.layout]

        def draw(seat: int, rng: random.Random) -> MarjapussiState | None:
            deal = make(seat, rng)
            return None if deal is None else self._replay_world(deal, rng)
        return self._sample(seat, rng, 2000, draw)

    def _world_hands(self, seat: int, rng: random.Random) -> list[int] | None:
        played = self._played_by()
        fixed = [(self._shown[s] & self._hands[s]) | played[s] for s in range(self.num_players)]
        fixed[seat] = self._hands[seat] | played[seat]
        return self._deal_hidden(seat, fixed, self._forbidden, rng)

    def _world_rows(self, seat: int, rng: random.Random) -> list[int] | None:
        """Avomarjapussi: the opponent's hand and every still face-down card are dealt anew."""
        deal = self._log[-1].deal
        other = 1 - seat
        known = self._hands[seat] | self._up[0] | self._up[1] | self._gone | self._table_mask()
        pool = self.game.deck.mask & ~known
        hidden = [(s, k) for s in range(2) for k in range(ROW) if self._rows[s][k][1]]
        filled = fill_slots(pool, [popcount(self._hands[other]), len(hidden)],
                            [pool & ~self._forbidden[other], pool], rng)
        if filled is None:
            return None
        downs = single_bits(filled[1])
        rng.shuffle(downs)
        new = list(deal)
        new[other] = filled[0] | self._from_hand[other]
        for (s, k), card in zip(hidden, downs, strict=True):
            new[2 + 14 * s + k] = card
        return new

    def _world_stock(self, seat: int, rng: random.Random) -> list[int] | None:
        """Two-handed Bondtolva: the opponent's first hand and the unseen stock are dealt anew.

        The seat knows its own first hand and the stock places of its draws;
        each card the opponent played or declared sat in his first hand or a
        draw made before he used it.
        """
        deal = self._log[-1].deal
        other = 1 - seat
        stock = deal[2:]
        mine = {pos for _, who, pos in self._draws if who == seat}
        theirs = [(i, pos) for i, who, pos in self._draws if who == other]
        known = deal[seat]
        for pos in mine:
            known |= stock[pos]
        pool = self.game.deck.mask & ~known
        times = [-1] * 6 + [i for i, _ in theirs]
        uses: dict[int, int] = {}
        for i, who, cards in self._uses:
            if who == other:
                for b in single_bits(cards):
                    uses.setdefault(b, i)
        forbids = [(i, m) for i, s, m in self._history_forbidden if s == other]
        unseen = [p for p in range(len(stock)) if p not in mine and all(p != q for _, q in theirs)]
        got = fill_timed_slots(pool, times, [(b, i) for b, i in uses.items()], forbids,
                               len(self._actions), len(unseen), rng)
        if got is None:
            return None
        slots, rest = got
        new_stock = list(stock)
        for (_, pos), card in zip(theirs, slots[6:], strict=True):
            new_stock[pos] = card
        spare = single_bits(rest)
        rng.shuffle(spare)
        for pos, card in zip(unseen, spare, strict=True):
            new_stock[pos] = card
        hands = [0, 0]
        hands[seat] = deal[seat]
        for card in slots[:6]:
            hands[other] |= card
        return [*hands, *new_stock]


for _game in (Marjapussi, Bondtolva, Avomarjapussi):
    _game.state_class = MarjapussiState
