"""Tuppi: Finnish four-hand whist with card bids, rami, nolo, sooli and nousussa.

Rules: ``shared/RULES.md`` (section Tuppi) and the seed text ``seeds/tuppi.txt``;
the project's own rules page is ``docs/rules/tuppi.md``.  Decisions the rule
texts leave open, and how this module settles them:

- A verbal bid (``bid rami`` / ``bid nolo``) is spoken, so it is public the
  moment it is made; it tells everyone that the bidder holds no card allowed
  for that bid (A or 10..3 of that colour).
- The first dealer of a match is seat 0 unless ``new_match(dealer=...)`` says
  otherwise.
- An early-ended hand (``early_end``) scores the tricks as they stood; its
  points are never kept, because early end only happens when the reset is
  certain.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import ANGLO_52, CLUBS, DIAMONDS, HEARTS, SPADES, SUIT_MASKS, Card, popcount, single_bits
from ..engine import (
    JSON,
    PHASE_OVER,
    Action,
    CardActions,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    State,
    Trick,
    TrickState,
    json_copy,
    parse_action,
    whole_number,
)
from ..sampling import fill_slots

__all__ = ["Tuppi", "TuppiState"]

DECK = ANGLO_52
RED = SUIT_MASKS[HEARTS.index] | SUIT_MASKS[DIAMONDS.index]
BLACK = SUIT_MASKS[SPADES.index] | SUIT_MASKS[CLUBS.index]
BID_RANKS = (14, 10, 9, 8, 7, 6, 5, 4, 3)
"""A and 10..3 may be bid cards; 2 and the court cards (K, Q, J) may not."""
BID_ALLOWED = sum(1 << (16 * s + r) for s in range(4) for r in BID_RANKS)
ACES = sum(1 << (16 * s + 14) for s in range(4))
TRICKS = 13



PLAY = CardActions("play", DECK)
DISCARD = CardActions("discard", DECK)
GIVE = CardActions("give", DECK)
BID = CardActions("bid", DECK)
_FOLLOW: dict[int, tuple[Action, ...]] = {}
"""Play actions by the cards of the suit led a seat holds (at most 4 x 8192 entries)."""
BID_RAMI = Action.make("bid", "rami")
BID_NOLO = Action.make("bid", "nolo")
SOOLI = Action.make("sooli")
PASS = Action.make("pass")
_BIDS_ALOUD: dict[tuple[bool, bool], tuple[Action, ...]] = {
    (rami, nolo): (BID_RAMI,) * rami + (BID_NOLO,) * nolo for rami in (False, True) for nolo in (False, True)}
"""The verbal bids allowed: (no red bid card, no black bid card) -> 'bid rami' and 'bid nolo'."""
KINDS = ("play", "bid", "sooli", "pass", "discard", "give")
WORDS = ("rami", "nolo")
_PLAYS: dict[Action | str, Action] = {a: a for a in PLAY.by_mask.values()}
"""Every play action, looked up by itself (a hit is an Action, a miss anything else)."""
_PLAY_KEY_TYPES = (Action, str)
"""What may be looked up in ``_PLAYS``: a list or dict given to ``apply`` is unhashable."""
_VALID_ACTIONS = frozenset([*_PLAYS.values(), *DISCARD.by_mask.values(), *GIVE.by_mask.values(),
                            *BID.by_mask.values(), BID_RAMI, BID_NOLO, SOOLI, PASS])
"""Every well-formed Tuppi action: a hand-built Action outside it (``play`` with two
cards or none, ``bid foo``...) is rejected as malformed, like its text would be."""

BID_PHASE, SOOLI_PHASE, DISCARD_PHASE, GIVE_PHASE, PLAY_PHASE, OVER = (
    "bid", "sooli", "discard", "give", "play", PHASE_OVER,
)

class Tuppi(Game):
    """The Tuppi rule set.  ``tt.new_game("tuppi", preset="tournament")``."""

    name = "tuppi"
    title = "Tuppi"
    deck = DECK
    num_players = 4
    partnerships = True
    OPTIONS = (
        Option("sooli", True, "Defenders may answer a rami with sooli (play alone to take no trick)."),
        Option("bid_cards", False,
               "Bid with special bidding cards (rami / nolo), so no hand card is shown."),
        Option("reset_keeps_points", False,
               "When the side not nousussa scores, it keeps the hand's points "
               "(instead of the score returning to 0-0)."),
        Option("target", 52, "Points that win the match.", minimum=1, maximum=10_000),
        Option("early_end", True,
               "End a hand as soon as the nousussa side is certain to lose it."),
        Option("hand_limit", 0,
               "Tournament hand limit: 0 = none, else 16..24 hands, then the match is "
               "extended until the nousussa side loses a hand.", minimum=0, maximum=24,
               allowed="0 | 16..24"),
    )
    PRESETS = {
        "club": {},
        "tournament": {"sooli": False, "bid_cards": True, "hand_limit": 20},
    }
    PRIVATE_ACTIONS = frozenset({"bid", "discard", "give"})
    SUMMARY = """\
Four players, partners opposite (seats 0 & 2 against 1 & 3); 52 cards, 13 each;
ace high, always no-trump; follow suit if you can, nothing else.

Bidding: from the dealer's left, each player puts one card face down: red = rami
(to take tricks), black = nolo (to avoid them).  A 2 or a court card (K Q J) may
not be a bid card.  Only a player with no allowed card of a colour may bid that
colour aloud ('bid rami' / 'bid nolo').  The cards are shown in order; the first
rami stops the showing and its bidder is the declarer.  No rami: the hand is nolo.
Shown bid cards go back to their hands, now known to everyone.

Sooli (option sooli): after a rami, the defenders are asked in turn (declarer's left
first).  The soloist puts one card away, gets one card from the partner, who then
sits out.  Three play, ace lowest, the soloist always plays last; the declarer
leads and a trick won by the rami side is led by its winner.  The soloist's first
trick ends the hand.

First lead: rami, the player right of the declarer; nolo, left of the dealer.

Points: rami: declarer side 4 per trick over 6, defenders 8 per trick over 6.
Nolo: the side with fewer tricks 4 per trick short of 7.  Sooli: no trick for the
soloist, his side 24; else the opponents 24.

Nousussa: only one side holds points.  When the other side scores, the score
goes back to 0-0 (option reset_keeps_points: the scorer keeps the hand's points).
A side wins on reaching the target (52).  Early end (option early_end): a hand
stops as soon as the nousussa side is certain to lose it.

Tournament (preset tournament): no sooli, bidding cards, a hand limit (20, allowed
16..24); the match is then extended until the nousussa side loses a hand, and the
side that collected more points while nousussa wins; equal totals are a draw.

Actions: bid 7H, bid rami, bid nolo, sooli, pass, discard 5C, give 9H, play AS."""

    def _validate(self) -> None:
        limit = self.options["hand_limit"]
        if limit and not 16 <= limit <= 24:
            raise OptionError(f"option hand_limit must be 0 (none) or 16..24, not {limit}")


class TuppiState(TrickState):
    """A Tuppi match (or single hand) in progress."""

    game: Tuppi

    # -- setup -----------------------------------------------------------------

    @classmethod
    def match_start(cls, game: Game, dealer: int) -> JSON:
        return {"hand_number": 0, "dealer": dealer, "scores": [0, 0], "totals": [0, 0],
                "previous": None}

    @classmethod
    def check_scores(cls, game: Game, scores: Sequence[int]) -> list[int]:
        checked = super().check_scores(game, scores)
        if min(checked) < 0 or min(checked) > 0:
            raise OptionError("Tuppi scores: only one side holds points (e.g. (20, 0)), none negative")
        target = game.options["target"]
        if max(checked) >= target:
            raise OptionError(f"Tuppi scores must be below the target {target}: the match ends there")
        return checked

    @classmethod
    def _check_start_fields(cls, game: Game, start: JSON, checked: JSON) -> JSON:
        totals = start["totals"]
        if not isinstance(totals, list) or len(totals) != 2:
            raise OptionError(f"start totals are 2 whole numbers, one per side, not {totals!r}")
        limit = game.options["hand_limit"]
        if limit and checked["hand_number"] >= limit:
            raise OptionError(f"start hand_number must be below the hand limit {limit}")
        return {"totals": [whole_number(t, "a start total", 0) for t in totals]}

    def _match_context(self) -> JSON:
        return {
            "hand_number": self._start["hand_number"] + 1,
            "dealer": (self._dealer + 1) % 4,
            "scores": list(self._scores),
            "totals": list(self._totals),
            "previous": self._previous,
        }

    def _start_hand(self, start: JSON, deal: list[int]) -> None:
        self._begin_context(start)
        self._totals: list[int] = list(start["totals"])
        self._draw = False
        self._hands = list(deal)
        self._phase = BID_PHASE
        self._turn: int | None = (self._dealer + 1) % 4
        self._bids: list[tuple[int, Action]] = []
        self._revealed = 0
        self._contract: str | None = None
        self._declarer: int | None = None
        self._soloist: int | None = None
        self._sooli_answers: list[tuple[int, Action]] = []
        self._discard: int = 0
        self._given: int = 0
        self._trick: list[tuple[int, int]] = []
        self._trick_mask = 0
        self._lead_mask = 0
        self._order: tuple[int, ...] = ()
        self._tricks: list[Trick] = []
        self._won = [0, 0, 0, 0]
        self._voids = [0, 0, 0, 0]
        self._early_end = False

    # -- the public API ----------------------------------------------------------

    @property
    def scores(self) -> tuple[int, int]:
        """Match scores per side; only the nousussa side holds points."""
        return (self._scores[0], self._scores[1])

    @property
    def totals(self) -> tuple[int, int]:
        """Points each side has collected while nousussa (the tournament tie-break)."""
        return (self._totals[0], self._totals[1])

    @property
    def hand_points(self) -> tuple[int, int] | None:
        """Points the last finished hand scored for each side (before the nousussa rule)."""
        hp = self._hand_points
        return None if hp is None else (hp[0], hp[1])

    @property
    def draw(self) -> bool:
        """True when a tournament match ended with equal totals."""
        return self._draw

    @property
    def nousussa(self) -> int | None:
        """The side holding points, or None at 0-0."""
        s = self._scores
        return 0 if s[0] > 0 else 1 if s[1] > 0 else None

    @property
    def contract(self) -> str | None:
        return self._contract

    @property
    def declarer(self) -> int | None:
        return self._declarer

    @property
    def bids(self) -> tuple[tuple[int, Action], ...]:
        """Every bid of the hand as (seat, bid) in bidding order, hidden ones included
        (full information: the observation shows only what was revealed)."""
        return tuple(self._bids)

    @property
    def soloist(self) -> int | None:
        return self._soloist

    def legal_actions(self) -> list[Action]:
        phase = self._phase
        if phase is PLAY_PHASE:
            cards = self._playable()
            if cards & self._lead_mask:  # following suit (no lead yet: the mask is 0)
                cached = _FOLLOW.get(cards)
                if cached is None:
                    cached = _FOLLOW[cards] = tuple(PLAY.of(cards))
                return list(cached)
            return PLAY.of(cards)
        kind, cards, others = self.legal_parts()
        out = kind.of(cards)
        out += others
        return out

    def legal_parts(self) -> tuple[CardActions, int, tuple[Action, ...]]:
        """The legal actions in two parts: the actions of one kind for a mask of cards, then
        the others.  ``legal_actions`` lists them in this order; the environments read the
        parts to mark them without the list."""
        phase = self._phase
        if phase is PLAY_PHASE:
            return PLAY, self._playable(), ()
        if phase is BID_PHASE:
            if self.game.options["bid_cards"]:
                return BID, 0, _BIDS_ALOUD[True, True]
            allowed = self._hands[self._turn] & BID_ALLOWED  # type: ignore[index]
            return BID, allowed, _BIDS_ALOUD[not allowed & RED, not allowed & BLACK]
        if phase is SOOLI_PHASE:
            return PLAY, 0, (SOOLI, PASS)
        if phase is DISCARD_PHASE:
            return DISCARD, self._hands[self._turn], ()  # type: ignore[index]
        if phase is GIVE_PHASE:
            return GIVE, self._hands[self._turn], ()  # type: ignore[index]
        return PLAY, 0, ()

    def _playable(self) -> int:
        """The cards the player to act may play: in the play phase those of the suit led if he
        holds any, else his whole hand; 0 in the other phases.  ``legal_actions`` lists these
        cards (``_play`` checks the same rule), and the environments read the mask to mark the
        legal plays without making the list."""
        if self._phase is not PLAY_PHASE:
            return 0
        hand: int = self._hands[self._turn]  # type: ignore[index]
        return hand & self._lead_mask or hand

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action or its text; see :meth:`State.apply`.

        Playing a card takes a short cut past the general dispatch: it is most of
        every playout, and self-play speed is a feature.
        """
        if self._phase is PLAY_PHASE and seat is None and action.__class__ in _PLAY_KEY_TYPES:
            play = _PLAYS.get(action)
            if play is not None:
                actions = self._actions
                self._play(play.mask)
                actions.append(play)
                return
        State.apply(self, action, seat)

    def _parse(self, text: str) -> Action:
        action = parse_action(text, DECK, KINDS, WORDS)
        kind, args = action.kind, action.args
        if kind in ("sooli", "pass"):
            ok = not args
        elif kind == "bid":
            ok = len(args) == 1 and (isinstance(args[0], Card) or args[0] in WORDS)
        else:
            ok = len(args) == 1 and isinstance(args[0], Card)
        if not ok:
            example = {"bid": "'bid 7H' or 'bid rami'", "sooli": "'sooli'", "pass": "'pass'"}.get(
                kind, f"'{kind} AS'"
            )
            raise IllegalActionError(f"{text.strip()!r} is malformed: write {example}")
        return action

    # -- applying actions ----------------------------------------------------------

    def _do(self, action: Action) -> None:
        if action not in _VALID_ACTIONS:
            raise IllegalActionError(f"{action.text!r} is malformed: not an action of Tuppi")
        phase = self._phase
        kind = action.kind
        if phase is PLAY_PHASE and kind == "play":
            return self._play(action.mask)
        if phase is OVER:
            raise IllegalActionError("the game is over")
        expected = {BID_PHASE: "bid", SOOLI_PHASE: "sooli or pass", DISCARD_PHASE: "discard",
                    GIVE_PHASE: "give", PLAY_PHASE: "play"}[phase]
        if phase is BID_PHASE and kind == "bid":
            self._bid(action)
        elif phase is SOOLI_PHASE and kind in ("sooli", "pass"):
            self._answer_sooli(action)
        elif phase is DISCARD_PHASE and kind == "discard":
            self._put_away(action)
        elif phase is GIVE_PHASE and kind == "give":
            self._give(action)
        else:
            raise IllegalActionError(
                f"{action} is not possible now: seat {self._turn} must {expected}", code="not_now"
            )

    def _require_in_hand(self, seat: int, mask: int, what: str) -> None:
        if not self._hands[seat] & mask:
            raise IllegalActionError(f"seat {seat} cannot {what} {self._card(mask)}: not in hand")

    def _bid(self, action: Action) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        hand = self._hands[seat]
        if self.game.options["bid_cards"]:
            if action.card is not None:
                raise IllegalActionError(
                    "bids are made with bidding cards in this game: 'bid rami' or 'bid nolo'"
                )
        elif action.card is not None:
            self._require_in_hand(seat, action.mask, "bid")
            if not action.mask & BID_ALLOWED:
                raise IllegalActionError(
                    f"{action.card} may not be a bid card: 2s and court cards (K, Q, J) are not allowed",
                    code="bid_card")
        else:
            colour, name = (RED, "red") if action.args[0] == "rami" else (BLACK, "black")
            if hand & BID_ALLOWED & colour:
                raise IllegalActionError(
                    f"{action} aloud is only allowed without a {name} bid card; "
                    f"seat {seat} holds one"
                )
        self._bids.append((seat, action))
        if len(self._bids) < 4:
            self._turn = (seat + 1) % 4
            return
        self._reveal()

    def _reveal(self) -> None:
        """Show the bids in order; the first rami stops the showing and declares."""
        for i, (seat, bid) in enumerate(self._bids):
            self._revealed = i + 1
            if bid.mask & RED or bid.args[0] == "rami":
                self._contract = "rami"
                self._declarer = seat
                break
        if self._contract is None:
            self._contract = "nolo"
            self._start_play((self._dealer + 1) % 4)
        elif self.game.options["sooli"]:
            self._phase = SOOLI_PHASE
            self._turn = (self._declarer + 1) % 4  # type: ignore[operator]
        else:
            self._start_play((self._declarer + 3) % 4)  # type: ignore[operator]

    def _answer_sooli(self, action: Action) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        self._sooli_answers.append((seat, action))
        declarer: int = self._declarer  # type: ignore[assignment]
        if action is SOOLI:
            self._contract = "sooli"
            self._soloist = seat
            self._phase = DISCARD_PHASE
        elif seat == (declarer + 1) % 4:
            self._turn = (declarer + 3) % 4
        else:
            self._start_play((declarer + 3) % 4)

    def _put_away(self, action: Action) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        self._require_in_hand(seat, action.mask, "put away")
        self._hands[seat] ^= action.mask
        self._discard = action.mask
        self._phase = GIVE_PHASE
        self._turn = (seat + 2) % 4

    def _give(self, action: Action) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        self._require_in_hand(seat, action.mask, "give")
        self._hands[seat] ^= action.mask
        self._hands[(seat + 2) % 4] |= action.mask
        self._given = action.mask
        self._start_play(self._declarer)  # type: ignore[arg-type]

    def _start_play(self, leader: int) -> None:
        self._phase = PLAY_PHASE
        self._set_order(leader)

    def _set_order(self, leader: int) -> None:
        soloist = self._soloist
        if soloist is None:
            self._order = (leader, (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4)
        else:
            self._order = (leader, (leader + 2) % 4, soloist)
        self._trick_size = len(self._order)
        self._turn = leader

    def _play(self, bit: int) -> None:
        """Play a card: the hot path of every playout, so it is written for speed."""
        seat: int = self._turn  # type: ignore[assignment]
        hands = self._hands
        hand = hands[seat]
        if not hand & bit:
            self._require_in_hand(seat, bit, "play")
        trick = self._trick
        lead = self._lead_mask
        if lead:
            if not bit & lead:
                if hand & lead:
                    suit = DECK.suits[3 - (lead.bit_length() - 1) // 16].name
                    raise IllegalActionError(
                        f"must follow suit: seat {seat} holds {suit} and cannot play {self._card(bit)}",
                        code="follow", params={"suit": suit})
                self._voids[seat] |= lead
        else:
            self._lead_mask = SUIT_MASKS[(bit.bit_length() - 1) >> 4]
        hands[seat] = hand ^ bit
        trick.append((seat, bit))
        self._trick_mask |= bit
        n = len(trick)
        if n < self._trick_size:
            self._turn = self._order[n]
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self._trick
        best = self._trick_mask & self._lead_mask
        if self._soloist is not None and best & ACES and best & ~ACES:
            best &= ~ACES  # sooli: the ace is the lowest card
        top = 1 << (best.bit_length() - 1)
        winner = 0
        for seat, bit in trick:
            if bit == top:
                winner = seat
                break
        self._won[winner] += 1
        self._tricks.append((self._order[0], tuple(trick), winner))
        self._trick = []
        self._trick_mask = self._lead_mask = 0
        if len(self._tricks) == TRICKS or self._hand_finished(winner):
            self._finish_hand()
        else:
            self._set_order(winner)

    def _hand_finished(self, winner: int) -> bool:
        """Whether the hand ends before its 13th trick: sooli lost, or early end."""
        if self._soloist is not None:
            return winner == self._soloist
        if not self.game.options["early_end"] or self.game.options["reset_keeps_points"]:
            return False
        rising = self.nousussa
        if rising is None:
            return False
        won = self._won
        side_tricks = (won[0] + won[2], won[1] + won[3])
        if self._contract == "rami":
            certain = side_tricks[1 - rising] >= 7
        else:
            certain = side_tricks[rising] >= 7
        if certain:
            self._early_end = True
        return certain

    # -- scoring ---------------------------------------------------------------

    def side_tricks(self) -> tuple[int, int]:
        """Tricks each side has taken in this hand."""
        won = self._won
        return (won[0] + won[2], won[1] + won[3])

    def _contract_points(self) -> list[int]:
        """What the hand scores for each side under its contract."""
        clean = self._soloist is not None and self._won[self._soloist] == 0
        return list(self._points_for(self.side_tricks(), clean))

    def solved_hand_points(self, value: int) -> tuple[int, int]:
        """Each side's hand points when the play from here ends as ``value`` says.

        ``value`` is ``tt.solve``'s value of this position for the side to move
        (rami: the tricks that side still takes; nolo: the tricks the other side
        still takes; sooli: 1 when that side wins the contract).  The hand is
        counted to its 13th trick; an early end (option ``early_end``) would stop
        it sooner, but only where its points are not kept.  What a search bot
        reads from one solve at the first card instead of playing the hand out.
        """
        if self._phase != PLAY_PHASE or self._turn is None:
            raise IllegalActionError(
                f"solved_hand_points is for the play of a hand, not the {self._phase} phase")
        mover = self._turn % 2
        tricks = list(self.side_tricks())
        left = TRICKS - len(self._tricks)
        if self._contract == "sooli":
            soloist_side = self._soloist % 2  # type: ignore[operator]
            return self._points_for((0, 0), (value == 1) == (mover == soloist_side))
        mine = value if self._contract == "rami" else left - value
        tricks[mover] += mine
        tricks[1 - mover] += left - mine
        return self._points_for((tricks[0], tricks[1]), False)

    def _points_for(self, tricks: tuple[int, int], soloist_clean: bool) -> tuple[int, int]:
        """The contract's points per side for these side tricks (sooli: whether the soloist took none)."""
        points = [0, 0]
        if self._contract == "rami":
            d = self._declarer % 2  # type: ignore[operator]
            if tricks[d] >= 7:
                points[d] = 4 * (tricks[d] - 6)
            else:
                points[1 - d] = 8 * (tricks[1 - d] - 6)
        elif self._contract == "nolo":
            fewer = 0 if tricks[0] < tricks[1] else 1
            points[fewer] = 4 * (7 - tricks[fewer])
        else:
            s = self._soloist % 2  # type: ignore[operator]
            if soloist_clean:
                points[s] = 24
            else:
                points[1 - s] = 24
        return (points[0], points[1])

    def _finish_hand(self) -> None:
        opts = self.game.options
        points = self._contract_points()
        scorer = 0 if points[0] else 1
        rising = self.nousussa
        scores = self._scores
        kept = rising is None or rising == scorer or opts["reset_keeps_points"]
        if kept:
            if rising is not None and rising != scorer:
                scores[rising] = 0
            scores[scorer] += points[scorer]
            self._totals[scorer] += points[scorer]
        else:
            scores[0] = scores[1] = 0
        self._hand_points = points
        played = self._start["hand_number"] + 1
        over = False
        if max(scores) >= opts["target"]:
            self._winner = 0 if scores[0] >= opts["target"] else 1
            over = True
        elif opts["hand_limit"] and played >= opts["hand_limit"]:
            lost = rising is not None and rising != scorer
            if lost or self.nousussa is None:
                over = True
                totals = self._totals
                if totals[0] == totals[1]:
                    self._draw = True
                else:
                    self._winner = 0 if totals[0] > totals[1] else 1
        result = {
            "contract": self._contract,
            "declarer": self._declarer,
            "soloist": self._soloist,
            "tricks": list(self.side_tricks()),
            "points": points,
            "kept": kept,
            "early_end": self._early_end,
            "scores": list(scores),
        }
        self._close_hand(result, over)

    # -- what a seat may know ----------------------------------------------------------

    def _bid_json(self, index: int, viewer: int | None) -> JSON:
        seat, bid = self._bids[index]
        shown = self._bid_visible(index, -1 if viewer is None else viewer)
        return {"seat": seat, "bid": bid.text[4:] if shown else None,
                "revealed": index < self._revealed}

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as a JSON-safe dict; ``seat=None`` gives public information only."""
        seat = self._check_viewer(seat)
        opts = self.game.options
        own = self._hands[seat] if seat is not None else 0
        partner_out = (self._soloist + 2) % 4 if self._soloist is not None else None
        obs = self._header(seat) | {
            "nousussa": self.nousussa,
            "hand": [c.text for c in DECK.sorted(DECK.cards_of(own))] if own else [],
            "hand_sizes": [popcount(m) for m in self._hands],
            "bids": [self._bid_json(i, seat) for i in range(len(self._bids))],
            "contract": self._contract,
            "declarer": self._declarer,
            "sooli_answers": [[s, a.text] for s, a in self._sooli_answers],
            "soloist": self._soloist,
            "sitting_out": partner_out,
            "trick": self._table_json(),
            "tricks": [self._trick_json(t) for t in self._tricks],
            "tricks_won": list(self._won),
            "previous_hand": json_copy(self._previous),
            "winner": self._winner,
            "draw": self._draw,
        }
        if opts["hand_limit"]:
            obs["totals"] = list(self._totals)
            obs["hand_limit"] = opts["hand_limit"]
        if seat is not None and seat == self._soloist and self._discard:
            obs["discard"] = self._card(self._discard).text
        if seat is not None and self._given and seat in (self._soloist, partner_out):
            obs["given"] = self._card(self._given).text
        if seat is not None and seat == self._turn:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def sample_world(self, seat: int, rng: random.Random) -> TuppiState:
        """A full state, consistent with everything ``seat`` knows, with the hidden cards dealt anew.

        Known: the seat's own cards (and its discard or given card in sooli), every
        played card, shown bid cards, voids shown by play, verbal bids (no allowed card
        of that colour).  The hidden cards are dealt at random under those facts, hidden
        bids are drawn anew from the sampled hands, and the hand is replayed; the world
        then plays on with future deals of its own.

        Tries up to 2,000 deals: after a soloist's verbal bid and a gift the seat did not see,
        the soloist may now hold at most one card of the colour it had none of (the gift), and
        fewer than one random deal in a hundred agrees (200 tries failed a decision in five).
        """
        return self._sample(seat, rng, 2000, self._try_world)

    def _try_world(self, seat: int, rng: random.Random) -> TuppiState | None:
        log = self._log[-1]
        played = self._played_by()
        soloist, partner = self._soloist, (self._soloist + 2) % 4 if self._soloist is not None else None
        knows_discard = seat == soloist
        knows_given = seat in (soloist, partner)
        # Cards whose place the seat knows: its own, those played, shown bids, its discard/give.
        fixed = [0, 0, 0, 0]
        fixed[seat] = self._hands[seat]
        for i, (s, bid) in enumerate(self._bids):
            if i < self._revealed and bid.card is not None:
                fixed[s] |= bid.mask & self._hands[s]
        if knows_given and self._given:
            fixed[soloist] |= self._given & self._hands[soloist]  # type: ignore[index]
        known = 0
        for s in range(4):
            known |= fixed[s] | played[s]
        if knows_discard:
            known |= self._discard
        if knows_given:
            known |= self._given
        pool = DECK.mask & ~known
        forbidden = [0, 0, 0, 0]
        if not self.game.options["bid_cards"]:
            for s, bid in self._bids:
                if bid.card is None:
                    forbidden[s] |= BID_ALLOWED & (RED if bid.args[0] == "rami" else BLACK)
        # Slots to fill: each other seat's unknown cards, and the unseen discard.
        sizes, allowed = [], []
        for s in range(4):
            if s == seat:
                continue
            sizes.append(popcount(self._hands[s] & ~fixed[s]))
            mask = pool & ~self._voids[s]
            if s != soloist or knows_given or not self._given:
                mask &= ~forbidden[s]
            allowed.append(mask)
        hidden_discard = bool(self._discard) and not knows_discard
        if hidden_discard:
            sizes.append(1)
            allowed.append(pool & ~forbidden[soloist])  # type: ignore[index]
        filled = fill_slots(pool, sizes, allowed, rng)
        if filled is None:
            return None
        current = list(fixed)
        others = [s for s in range(4) if s != seat]
        for s, got in zip(others, filled[: len(others)], strict=True):
            current[s] |= got
        discard = filled[-1] if hidden_discard else self._discard
        given = self._given
        if self._given and not knows_given:
            held = current[soloist] | played[soloist]  # type: ignore[index]
            candidates = [b for b in single_bits(held) if not b & forbidden[partner]]  # type: ignore[index]
            if not candidates:
                return None
            given = rng.choice(candidates)
        hands = [current[s] | played[s] for s in range(4)]
        if self._given:
            hands[soloist] = (hands[soloist] | discard) & ~given  # type: ignore[index]
            hands[partner] |= given  # type: ignore[index]
        elif self._discard:
            hands[soloist] |= discard  # type: ignore[index]
        for s in range(4):
            if hands[s] & forbidden[s]:
                return None
        assert all(popcount(h) == 13 for h in hands) and sum(hands) == DECK.mask, "world is not a deal"
        actions = []
        bid_index = 0
        for a in log.actions:
            if a.kind == "bid":
                bidder, _ = self._bids[bid_index]
                if not self._bid_visible(bid_index, seat):
                    sampled = self._sample_bid(hands[bidder], rng)
                    if sampled is None:
                        return None
                    a = sampled
                bid_index += 1
            elif a.kind == "discard" and not knows_discard:
                a = DISCARD[discard]
            elif a.kind == "give" and not knows_given:
                a = GIVE[given]
            actions.append(a)
        world = TuppiState(self.game, log.start, seed=rng.getrandbits(48), seeded=False,
                           single_hand=self.single_hand, deal=hands)
        try:
            for a in actions:
                world.apply(a)
        except IllegalActionError:
            return None
        return world

    def _bid_visible(self, index: int, viewer: int) -> bool:
        seat, bid = self._bids[index]
        verbal = bid.card is None and not self.game.options["bid_cards"]
        return seat == viewer or index < self._revealed or verbal

    def _sample_bid(self, hand: int, rng: random.Random) -> Action | None:
        """A hidden bid drawn anew: any allowed card of the hand (either colour)."""
        if self.game.options["bid_cards"]:
            return rng.choice((BID_RAMI, BID_NOLO))
        choices = single_bits(hand & BID_ALLOWED)
        return BID[rng.choice(choices)] if choices else None




Tuppi.state_class = TuppiState
