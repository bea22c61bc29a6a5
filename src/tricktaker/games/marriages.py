"""Marriages, asking and the ace-ten trick play shared by the Marjapussi family and Huutopussi.

These games all play the 36-card (or 24-card) Anglo deck ranked A 10 K Q J 9 8
7 6, with the same duties (follow suit; else trump; and always beat the high
card if possible) and the same way of making trumps: after winning a trick the
winner may take exactly one *call* before leading:

- ``declare S``: he shows the king and queen of S (from his hand, or from his
  face-up cards in Avomarjapussi);
- ``ask whole``: his partner must answer with a marriage he holds (his choice
  of suit if several), or ``answer no``;
- ``ask half S``: holding one of the king and queen of S, he asks his partner
  for the other; the partner answers ``answer S`` if he has it, else
  ``answer no``.

Answers are actions of the partner, so every answer is public and a record
replays exactly; the only legal answers are the true ones.  A "no" uses up the
call.  What a marriage is worth, and whether it makes or changes trumps, is the
game's: :meth:`MarriageState._marriage_made`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import PIQUET_36, SUIT_MASKS, Card, Suit, popcount, suit_of
from ..engine import JSON, Action, CardActions, IllegalActionError, Trick, TrumpTrickState, ranking

__all__ = [
    "ACES", "ANSWER", "ANSWER_NO", "ASK_HALF", "ASK_WHOLE", "BEATS", "DECLARE", "MarriageRules",
    "MarriageState", "PAIRS", "PLAY", "PLAY_PHASE", "ANSWER_PHASE", "STRENGTH", "STRENGTH_ORDER",
    "TRICK_ACTIONS", "check_trick_action", "suit_arg",
]

DECK = PIQUET_36
STRENGTH_ORDER = (14, 10, 13, 12, 11, 9, 8, 7, 6)
"""Rank values from strongest to weakest: A 10 K Q J 9 8 7 6 (the 24-card deck stops at 9)."""
STRENGTH, BEATS = ranking(DECK, STRENGTH_ORDER)
"""Each card's strength within its suit (0 the weakest), and the cards of its suit that beat it."""
KING, QUEEN = 13, 12
PAIRS = tuple((1 << (16 * s + KING)) | (1 << (16 * s + QUEEN)) for s in range(4))
"""The king and queen of each suit, by suit index."""
ACES = sum(1 << (16 * s + 14) for s in range(4))

PLAY = CardActions("play", DECK, STRENGTH_ORDER)
DECLARE = {s.index: Action.make("declare", s) for s in DECK.suits}
ASK_WHOLE = Action.make("ask", "whole")
ASK_HALF = {s.index: Action.make("ask", "half", s) for s in DECK.suits}
ANSWER = {s.index: Action.make("answer", s) for s in DECK.suits}
ANSWER_NO = Action.make("answer", "no")
CALL_KINDS = ("declare", "ask", "answer")
WORDS = ("whole", "half", "no")
TRICK_ACTIONS = frozenset([*PLAY.by_mask.values(), *DECLARE.values(), ASK_WHOLE, *ASK_HALF.values(),
                           *ANSWER.values(), ANSWER_NO])
"""Every action of the shared trick play: a card played, and the calls and answers."""
SUIT_ORDER = tuple(s.index for s in DECK.suits)
SUITS = {s.index: s for s in DECK.suits}
"""Suit indexes in display order (spades, hearts, diamonds, clubs)."""

PLAY_PHASE, ANSWER_PHASE = "play", "answer"


def check_trick_action(action: Action, shown: str) -> Action:
    """``action`` if it is one of :data:`TRICK_ACTIONS`; else the error that names the shapes
    a trick-play action may take (``shown`` is the text as the player wrote it)."""
    if action not in TRICK_ACTIONS:
        raise IllegalActionError(
            f"{shown!r} is malformed: write 'play AS', 'declare H', 'ask whole', 'ask half H', "
            f"'answer H' or 'answer no'")
    return action


def suit_arg(action: Action) -> int:
    """The suit index a call names (``declare H``, ``ask half H``, ``answer H``)."""
    suit = action.args[-1]
    assert isinstance(suit, Suit), action
    return suit.index


@dataclass(frozen=True)
class MarriageRules:
    """How the shared machinery behaves in one game and variant (resolved from its options)."""

    partners: bool = True
    """Partners sit opposite and may ask each other (whole, half)."""
    free_while_stock: bool = False
    """Two-handed Bondtolva: no duties while the stock lasts, and no calls once it is empty."""
    lead_from_marriage: bool = False
    """After a marriage, the leader must lead its king or queen if he can."""
    partner_exception: bool = False
    """No duty to beat the high card when it is the partner's."""
    order: str = "free"
    """``free``; ``ordered`` (declare, then whole, then half, per side and hand); ``whole_first``
    (ordered, and no half before the side has asked for a whole); or per-seat ask lockouts
    (Huutopussi as PoggersOy/huutopussi plays it): ``main_form`` (a seat that asked for a whole
    may no longer declare, its partner may no longer ask for a whole) or ``illisoft_2002`` (a
    seat that asked anything may no longer declare; after either partner asked for a half,
    neither may declare or ask for a whole)."""
    call_after_own_lead: bool = False
    """Calls only after winning a trick one led oneself (four-handed Huutopussi)."""
    ace_shows: bool = False
    """In the first trick of a hand, whoever holds the ace of the suit led must play it (the
    2002 Huutopussi ruleset, whose first lead is an ace, else a spade: the game's lead tiers)."""


class MarriageState(TrumpTrickState):
    """Trick play with the ace-ten duties, calls (declare, ask, answer), face-up rows and a stock.

    A game sets ``_rules`` and calls :meth:`_start_play`; it implements
    :meth:`_marriage_made` (what a marriage is worth) and :meth:`_hand_done`
    (scoring when the last trick is taken).
    """

    _rules: MarriageRules
    STRENGTH = STRENGTH

    def _start_play(self, hands: list[int], leader: int, lead_tiers: list[int],
                    rows: list[list[tuple[int, int]]] | None = None, stock: list[int] | None = None) -> None:
        """Set the play fields: hands, the first leader and what he must lead, rows, a stock."""
        n = self.num_players
        sides = self.game.num_sides
        self._hands = list(hands)
        # Avomarjapussi: per seat, columns of (face-up card, face-down card beneath it).
        self._rows: list[list[tuple[int, int]]] = [list(r) for r in rows] if rows else [[] for _ in range(n)]
        self._up = [sum(u for u, _ in r) for r in self._rows]
        self._stock: list[int] = list(stock or [])
        self._trump = -1
        self._trump_mask = 0
        self._phase = PLAY_PHASE
        self._turn: int | None = leader
        self._leader = leader
        self._lead_tiers = lead_tiers
        self._trick: list[tuple[int, int]] = []
        self._lead_mask = self._best_led = self._best_trump = 0
        self._tricks: list[Trick] = []
        self._tricks_won = [0] * sides
        self._taken = [0] * sides  # cards in the tricks each side won
        self._gone = 0  # cards in finished tricks
        self._calls: list[tuple[int, Action]] = []  # every declare / ask / answer, in order
        self._marriages: list[tuple[int, int, int]] = []  # (seat, suit index, points)
        self._declared = 0  # bit s: suit s has been declared
        self._ask: tuple[int, Action, int] | None = None  # (asker, ask, the card(s) asked for)
        self._can_call = False
        self._asked = [0] * sides  # ordered calls: 1 = asked whole, 2 = asked half
        self._asked_whole = [False] * sides
        self._seat_asked = [0] * n  # ask lockouts: per seat, 1 = asked whole, 2 = asked half
        self._shown = [0] * n  # cards known to be in a seat's hand (declared marriages)
        self._forbidden = [0] * n  # cards a seat's hand cannot hold, shown by its plays
        self._history_forbidden: list[tuple[int, int, int]] = []  # (action index, seat, mask)
        self._last_trick_side: int | None = None
        # For worlds: when each seat used which cards, and who drew which stock card when.
        self._uses: list[tuple[int, int, int]] = []  # (action index, seat, cards played or declared)
        self._draws: list[tuple[int, int, int]] = []  # (action index, seat, stock position)
        self._from_hand = [0] * n  # cards each seat played from its hand (not from face-up rows)
        self._stock_total = len(self._stock)

    # -- what every game of the family shows ------------------------------------

    @property
    def trump(self) -> str | None:
        """The trump suit's letter now, or None while there are no trumps."""
        return None if self._trump < 0 else SUITS[self._trump].letter

    @staticmethod
    def _sorted(mask: int) -> list[Card]:
        """Cards by suit (spades, hearts, diamonds, clubs), strongest first."""
        return [a.card for a in PLAY.of(mask) if a.card is not None]

    def _texts(self, mask: int) -> list[str]:
        return [c.text for c in self._sorted(mask)]

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand now (not face-up cards; full information)."""
        return self._sorted(self._hands[self._check_seat(seat)])

    def _play_observation(self, seat: int | None) -> JSON:
        """The observation fields of the play: hands, the table, tricks, calls and marriages."""
        return {
            "trump": self.trump,
            "hand": self._texts(self._hands[seat]) if seat is not None else [],
            "hand_sizes": [popcount(m) for m in self._hands],
            "shown": [self._texts(m) for m in self._shown],
            "trick": self._table_json(),
            "tricks": [self._trick_json(t) for t in self._tricks],
            "tricks_won": list(self._tricks_won),
            "calls": [[s, a.text] for s, a in self._calls],
            "marriages": [[s, SUITS[suit].letter, v] for s, suit, v in self._marriages],
        }

    # -- what may be played ------------------------------------------------------

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.num_players

    def _available(self, seat: int) -> int:
        """The cards a seat may play or declare from: its hand and its face-up cards."""
        return self._hands[seat] | self._up[seat]

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def stock(self) -> list[Card]:
        """The stock's cards in drawing order, top first (two-handed Bondtolva; full information)."""
        return [self._card(b) for b in self._stock]

    @property
    def rows(self) -> list[list[tuple[Card | None, Card | None]]]:
        """Each seat's columns as (face-up card, face-down card beneath it), None where a
        column has no such card (Avomarjapussi; full information: face-down cards included)."""
        return [[(self._card(up) if up else None, self._card(down) if down else None) for up, down in row]
                for row in self._rows]

    def _tiers(self, seat: int) -> list[int]:
        """The duty tiers for the next card: the first tier the cards meet is what may be played.

        Leading: the lead rule in force (aces first, the marriage just declared).
        Following: beat the high card of the suit led (unless the trick is
        trumped), follow suit, overtrump, trump.  An empty list: anything goes.
        """
        if not self._trick:
            return self._lead_tiers
        if self._rules.free_while_stock and self._stock:
            return []
        lead = self._lead_mask
        if self._rules.ace_shows and not self._tricks and not self._best_led & ACES:
            return [ACES & lead, *self._follow_tiers(seat)]  # the led suit's ace, not yet out, must show
        return self._follow_tiers(seat)

    def _follow_tiers(self, seat: int) -> list[int]:
        """The duties of a follower: beat, follow suit, overtrump, trump."""
        lead = self._lead_mask
        trumps = self._trump_mask
        beat = True
        if self._rules.partner_exception and self._rules.partners:
            beat = self._trick_winner() % 2 != seat % 2
        if self._best_trump and trumps != lead:
            return [lead, BEATS[self._best_trump], trumps] if beat else [lead, trumps]
        tiers = [BEATS[self._best_led], lead] if beat else [lead]
        if trumps and trumps != lead:
            tiers.append(trumps)
        return tiers

    @property
    def lead_tiers(self) -> tuple[int, ...]:
        """The lead rule in force for the next lead (card masks): the leader leads from the first
        of them he holds cards of (empty: any card).  A first-lead rule, or the marriage just made."""
        return tuple(self._lead_tiers)

    def _legal_plays(self, seat: int) -> int:
        cards = self._available(seat)
        for tier in self._tiers(seat):
            if cards & tier:
                return cards & tier
        return cards

    def legal_actions(self) -> list[Action]:
        if self._turn is None:
            return []
        seat = self._turn
        if self._phase == ANSWER_PHASE:
            return self._answers(seat)
        out = PLAY.of(self._legal_plays(seat))
        if self._can_call:
            out += self._calls_for(seat)
        return out

    # -- calls ---------------------------------------------------------------------

    def _calls_for(self, seat: int) -> list[Action]:
        """The calls ``seat`` may make now, having just won a trick."""
        cards = self._available(seat)
        side = self.game.side_of(seat)
        order = self._rules.order
        no_declare, no_whole = self._locked(seat)
        out: list[Action] = []
        open_suits = [s for s in SUIT_ORDER if not self._declared >> s & 1]
        if not no_declare:
            out += [DECLARE[s] for s in open_suits if cards & PAIRS[s] == PAIRS[s]]
        if not self._rules.partners:
            return out
        gone = self._gone | self._table_mask()
        if not no_whole and any(not (cards | gone) & PAIRS[s] for s in open_suits):
            out.append(ASK_WHOLE)
        if order == "whole_first" and not self._asked_whole[side]:
            return out
        for s in open_suits:
            mine = cards & PAIRS[s]
            if mine and mine != PAIRS[s] and not gone & PAIRS[s] & ~mine:
                out.append(ASK_HALF[s])
        return out

    def _locked(self, seat: int) -> tuple[bool, bool]:
        """Whether ``seat`` may no longer declare from its own hand, and may no longer ask for a
        whole, because of asks made this hand (rule ``order``)."""
        order = self._rules.order
        if order == "free":
            return False, False
        if order in ("ordered", "whole_first"):
            asked = self._asked[self.game.side_of(seat)]
            return asked > 0, asked == 2
        mine = self._seat_asked[seat]
        mate = self._seat_asked[(seat + 2) % self.num_players] if self._rules.partners else 0
        if order == "main_form":
            return bool(mine & 1), bool(mate & 1)
        half = bool((mine | mate) & 2)
        return bool(mine) or half, half

    def _table_mask(self) -> int:
        mask = 0
        for _, b in self._trick:
            mask |= b
        return mask

    def _answers(self, seat: int) -> list[Action]:
        """The true answers to the pending ask: the partner's only choice is which whole."""
        assert self._ask is not None
        _, ask, wanted = self._ask
        cards = self._available(seat)
        if ask is ASK_WHOLE:
            out = [ANSWER[s] for s in SUIT_ORDER
                   if not self._declared >> s & 1 and cards & PAIRS[s] == PAIRS[s]]
        else:
            out = [ANSWER[suit_of(wanted)]] if cards & wanted else []
        return out or [ANSWER_NO]

    def _call(self, seat: int, action: Action) -> None:
        """A declare or ask by the trick winner (already checked to be legal)."""
        side = self.game.side_of(seat)
        self._calls.append((seat, action))
        self._can_call = False
        if action.kind == "declare":
            suit = suit_arg(action)
            self._shown[seat] |= PAIRS[suit] & self._hands[seat]
            self._uses.append((len(self._actions), seat, PAIRS[suit]))
            self._marry(seat, suit)
            return
        partner = (seat + 2) % self.num_players
        self._seat_asked[seat] |= 1 if action is ASK_WHOLE else 2
        if action is ASK_WHOLE:
            self._asked[side] = max(self._asked[side], 1)
            self._asked_whole[side] = True
            wanted = 0
        else:
            self._asked[side] = 2
            suit = suit_arg(action)
            wanted = PAIRS[suit] & ~self._available(seat)
        self._ask = (seat, action, wanted)
        self._phase = ANSWER_PHASE
        self._turn = partner

    def _answer(self, seat: int, action: Action) -> None:
        assert self._ask is not None
        asker, ask, wanted = self._ask
        if action not in self._answers(seat):
            raise IllegalActionError(self._why_not_answer(seat, action))
        self._calls.append((seat, action))
        self._ask = None
        self._phase = PLAY_PHASE
        self._turn = asker
        if ask is not ASK_WHOLE:
            # A half's answer is public knowledge of where the king and queen are: with "no", the
            # partner has neither (the asker holds one); with a yes, the opponents have neither.
            pair = PAIRS[suit_of(wanted)]
            holders = [seat] if action is ANSWER_NO else [s for s in range(self.num_players)
                                                         if s not in (seat, asker)]
            for s in holders:
                self._forbidden[s] |= pair
                self._history_forbidden.append((len(self._actions), s, pair))
        if action is ANSWER_NO:
            return
        suit = suit_arg(action)
        if ask is ASK_WHOLE:
            self._shown[seat] |= PAIRS[suit] & self._hands[seat]
        self._marry(seat, suit)

    def _why_not_answer(self, seat: int, action: Action) -> str:
        assert self._ask is not None
        truth = " or ".join(a.text for a in self._answers(seat))
        return f"seat {seat} must answer truthfully: {truth!r}, not {action.text!r}"

    def _marry(self, seat: int, suit: int) -> None:
        self._declared |= 1 << suit
        self._marriage_made(seat, suit)
        if self._rules.lead_from_marriage:
            self._lead_tiers = [PAIRS[suit]]

    def _marriage_made(self, seat: int, suit: int) -> None:
        """Score a marriage of ``suit`` for ``seat``'s side; set or change trumps."""
        raise NotImplementedError

    def _set_trump(self, suit: int) -> None:
        self._trump = suit
        self._trump_mask = SUIT_MASKS[suit]

    def _why_not_call(self, seat: int, action: Action) -> str:
        if not self._can_call:
            return (f"{action} is not possible now: a call (declare, ask) is made only by the winner "
                    f"of a trick{self._call_limits()}, before he leads")
        side = self.game.side_of(seat)
        if action.kind == "ask" and not self._rules.partners:
            return "there are no partners in this game: nobody can be asked"
        suit = -1 if action is ASK_WHOLE else suit_arg(action)
        name = SUITS[suit].name if suit >= 0 else ""
        if suit >= 0 and self._declared >> suit & 1:
            return f"{name} have already been declared this hand"
        order = self._rules.order
        no_declare, no_whole = self._locked(seat)
        if order in ("ordered", "whole_first") and no_declare and action.kind == "declare":
            return "ordered calls: a side that has asked may no longer declare from its own hand"
        if order in ("ordered", "whole_first") and no_whole and action is ASK_WHOLE:
            return "ordered calls: a side that has asked for a half may no longer ask for a whole"
        if order == "main_form" and no_declare and action.kind == "declare":
            return f"seat {seat} has asked for a whole and may no longer declare from its own hand"
        if order == "main_form" and no_whole and action is ASK_WHOLE:
            return f"seat {seat}'s partner has asked for a whole: seat {seat} may no longer ask for one"
        if order == "illisoft_2002" and no_declare and action.kind == "declare":
            return (f"seat {seat} may no longer declare from its own hand: it has asked, or its side "
                    f"has asked for a half")
        if order == "illisoft_2002" and no_whole and action is ASK_WHOLE:
            return f"seat {seat}'s side has asked for a half and may no longer ask for a whole"
        if self._rules.order == "whole_first" and action.kind == "ask" and action is not ASK_WHOLE \
                and not self._asked_whole[side]:
            return "a side must ask for a whole before it asks for a half"
        if action.kind == "declare":
            return f"seat {seat} does not hold the king and queen of {name}"
        if action is ASK_WHOLE:
            return "no marriage is left that the partner could hold"
        return f"seat {seat} may ask for the half of {name} only holding just one of its king and queen, " \
               f"the other unplayed"

    def _call_limits(self) -> str:
        if self._rules.free_while_stock:
            return " while the stock lasts"
        if self._rules.call_after_own_lead:
            return " he led himself"
        return ""

    # -- playing a card ---------------------------------------------------------------

    def _play(self, seat: int, bit: int) -> None:
        cards = self._available(seat)
        if not cards & bit:
            raise IllegalActionError(f"seat {seat} cannot play {self._card(bit)}: it does not hold it")
        self._check_duties(seat, cards, bit, self._tiers(seat))
        self._uses.append((len(self._actions), seat, bit))
        if self._hands[seat] & bit:
            self._hands[seat] ^= bit
            self._shown[seat] &= ~bit
            self._from_hand[seat] |= bit
        else:
            self._turn_up(seat, bit)
        self._can_call = False
        if not self._trick:
            self._lead_tiers = []
        self._note_card(bit)
        trick = self._trick
        trick.append((seat, bit))
        if len(trick) < self.num_players:
            self._turn = self._next(seat)
            return
        self._end_trick()

    def _turn_up(self, seat: int, bit: int) -> None:
        """A face-up card is played: the card beneath it, if any, turns face up."""
        row = self._rows[seat]
        k = next(i for i, (up, _) in enumerate(row) if up == bit)
        below = row[k][1]
        row[k] = (below, 0)
        self._up[seat] ^= bit | below

    def _end_trick(self) -> None:
        trick = self._trick
        winner = self._trick_winner()
        side = self.game.side_of(winner)
        self._tricks.append((trick[0][0], tuple(trick), winner))
        self._tricks_won[side] += 1
        for _, b in trick:
            self._taken[side] |= b
            self._gone |= b
        self._trick = []
        if self._stock:
            now = len(self._actions)
            for who in (winner, 1 - winner):
                self._draws.append((now, who, self._stock_total - len(self._stock)))
                self._hands[who] |= self._stock.pop(0)
        if not any(self._hands) and not any(self._up):
            self._last_trick_side = side
            self._turn = None
            self._hand_done()
            return
        self._leader = self._turn = winner
        self._can_call = self._may_call(winner)

    def _may_call(self, winner: int) -> bool:
        """Whether the winner of the trick just taken may make a call before leading."""
        if self._declared == 0xF:
            return False
        if self._rules.free_while_stock and not self._stock:
            return False
        if self._rules.call_after_own_lead and self._tricks[-1][0] != winner:
            return False
        return True

    def _hand_done(self) -> None:
        """The last trick has been taken: score the hand."""
        raise NotImplementedError

    def _why_not_play(self, seat: int, bit: int, tier: int) -> IllegalActionError:
        card = self._card(bit)
        if not self._trick:
            if tier == ACES:
                return IllegalActionError(
                    f"the first lead must be an ace: seat {seat} holds one, so it cannot lead {card}",
                    code="first_ace")
            if popcount(tier) == 2 and tier in PAIRS:
                name = SUITS[suit_of(tier)].name
                return IllegalActionError(
                    f"the lead must come from the marriage just declared: seat {seat} holds the "
                    f"king or queen of {name}, so it cannot lead {card}",
                    code="marriage_lead", params={"suit": name})
            if popcount(tier) == 1:
                return IllegalActionError(
                    f"the first lead must be the {self._card(tier)}, so seat {seat} cannot lead {card}",
                    code="first_card", params={"card": str(self._card(tier))})
            name = SUITS[suit_of(tier & -tier)].name
            return IllegalActionError(
                f"the first lead must be an ace, else {name}: seat {seat} cannot lead {card}",
                code="first_ace_else", params={"suit": name})
        if tier & ACES and popcount(tier) == 1 and self._rules.ace_shows and not self._tricks:
            return IllegalActionError(
                f"the ace must show in the first trick: seat {seat} holds the {self._card(tier)}, the "
                f"ace of the suit led, so it cannot play {card}", code="ace_shows",
                params={"suit": SUITS[suit_of(tier)].name, "card": str(self._card(tier))})
        return self._trick_duty_error(seat, bit, tier,
                                      "must beat the high card: seat {seat} holds a higher card of {suit}")

    def _do_marriage_action(self, seat: int, action: Action) -> bool:
        """Apply a play or call for ``seat``; False when the action is not one of these kinds."""
        kind = action.kind
        if self._phase == ANSWER_PHASE:
            if kind != "answer":
                raise IllegalActionError(
                    f"{action} is not possible now: seat {seat} must answer the ask "
                    f"({' or '.join(a.text for a in self._answers(seat))})", code="not_now")
            self._answer(seat, action)
            return True
        if kind == "play":
            self._play(seat, action.mask)
            return True
        if kind in ("declare", "ask"):
            if not self._can_call or action not in self._calls_for(seat):
                raise IllegalActionError(self._why_not_call(seat, action))
            self._call(seat, action)
            return True
        if kind == "answer":
            raise IllegalActionError(f"{action} is not possible now: nobody has asked")
        return False
