"""Huutopussi: Marjapussi with an auction, a card exchange and changing trumps; four, three or two players.

Rules: ``shared/RULES.md`` (section Huutopussi) and the seed text
``seeds/marjapussi-huutopussi.txt``; the project's own rules page is
``docs/rules/huutopussi.md``.  The play, the duties and the calls (declare,
ask, answer) are the shared machinery of :mod:`.marriages`.  Decisions the
rule texts leave open, and how this module settles them:

- The first dealer is seat 0; the deal passes clockwise.  After a redeal for
  three sixes the same dealer deals again (a new hand number, a new deal).
- Three sixes means at least three: four sixes may demand a redeal too.
- A side at -500 or below may only pass, except that a dealer on such a side
  must still open, and only at 50.
- After the exchange the declarer raises with ``raise N`` or keeps the
  contract with ``pass``.
- Both sides (or several players) at 500 or more after a hand: the highest
  score wins; an exact tie plays on.
- Worlds sampled for a seat that did not see the exchange never have the
  declarer give back a card he was just given; every other exchange is
  possible.
- Options from PoggersOy/huutopussi's ruleset (``opener``, ``forced_opening``,
  ``redeal_hand``, ``bid_ban``, ``kitty``, ``kitty_shown``): without a forced
  opening, the last player left when all the others passed without a bid must
  open (their "force the last seat"); a hidden kitty is, in the worlds of a
  seat that did not see it, any ``kitty`` of the declarer's cards and discard.
- The 2002 ruleset (presets ``rules_2002``, ``rules_2002_three``): its first
  trick (``first_trick`` ``ace_shows``) binds every hand, with a contract or
  without; three players without a contract leave the kitty out of play, shown
  to everyone (or, hidden, to nobody).  Its four sixes counted over both
  partners' hands are not offered (see the docs).
- Two players (``players=2``, the 2002 ruleset's two-player game): dealt as
  three, the third hand dead (never seen, never played); everything else is
  the three-player game, and a player who takes every trick collects all the
  deck's card points, the last trick and his marriages (the läpäri), the
  dead hand's and the discard's points included and not counted twice.  The
  dead hand is never shown, not even in the hand's result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations

from ..cards import PIQUET_36, SUIT_MASKS, Card, popcount, single_bits
from ..engine import (
    JSON,
    Action,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    json_copy,
    parse_action,
)
from ..sampling import fill_slots
from .marriages import (
    ACES,
    CALL_KINDS,
    PLAY,
    PLAY_PHASE,
    WORDS,
    MarriageRules,
    MarriageState,
    check_trick_action,
)

__all__ = ["Huutopussi", "HuutopussiState"]

DECK = PIQUET_36
SUIT_LETTER = {s.index: s.letter for s in DECK.suits}
SPADES, HEARTS, DIAMONDS, CLUBS = 3, 2, 1, 0
MARRIAGE_VALUES = {
    "spades_low": {SPADES: 40, CLUBS: 60, DIAMONDS: 80, HEARTS: 100},
    "spades_high": {SPADES: 100, HEARTS: 80, DIAMONDS: 60, CLUBS: 40},
}
CARD_VALUES = {"fives": {14: 10, 10: 10, 13: 5, 12: 5, 11: 5}, "pips": {14: 11, 10: 10, 13: 4, 12: 3, 11: 2}}
LAST_TRICK = 20
OPENING = 50
STEP = 5
TARGET = 500
FLOOR = -500
"""By default a side at or below this score may not bid (the forced opening at 50 apart)."""
SIXES = sum(1 << (16 * s + 6) for s in range(4))
ABOVE_JACK = sum(1 << (16 * s + r) for s in range(4) for r in (14, 13, 12, 10))
REDEAL_HANDS = ("three_sixes", "three_sixes_or_low", "four_sixes")
"""Which hands may demand a new deal: three sixes (the seed); or three sixes or no card above
the jack (PoggersOy/huutopussi's main form); or all four sixes (its 2002 ruleset)."""
ACES_TENS = sum(1 << (16 * s + r) for s in range(4) for r in (14, 10))

RULES_2002 = {"opener": "left_of_dealer", "forced_opening": False, "min_bid": 60, "all_pass": "no_contract",
              "bid_ban": -1, "bid_ban_reopen": True, "card_values": "pips", "redeal_hand": "four_sixes",
              "redeal_window": "bid_and_exchange", "raise_when": "after_exchange",
              "declarer_no_trick": "side_double", "defender_rounding": True, "win_by": "exceeding",
              "win_tie": "declarer", "first_trick": "ace_shows"}
"""The options of the 2002 ruleset (PoggersOy/huutopussi's ``ILLISOFT_RULES``) for any number of
players; the four-player preset adds its exchange of four, calls after any won trick and ask
lockouts, the three- and two-player ones the discard that counts only with a trick."""

PASS = Action.make("pass")
REDEAL = Action.make("redeal")
KINDS = ("play", *CALL_KINDS, "bid", "pass", "redeal", "give", "raise", "discard")

BID_PHASE, GIVE_PHASE, RAISE_PHASE, RETURN_PHASE, DISCARD_PHASE = "bid", "give", "raise", "return", "discard"
EXCHANGE_PHASES = (GIVE_PHASE, RAISE_PHASE, RETURN_PHASE, DISCARD_PHASE)


@lru_cache(maxsize=4096)
def _card_sets(kind: str, mask: int, size: int) -> tuple[Action, ...]:
    """Every choice of ``size`` cards of ``mask`` as actions (cached: hands repeat in search)."""
    cards = [a.card for a in PLAY.of(mask) if a.card is not None]
    interned = Action.interned
    out = []
    for combo in combinations(cards, size):
        action = interned.get((kind, combo))
        out.append(action if action is not None else Action.make(kind, *combo))
    return tuple(out)


@cache
def _bids(kind: str, low: int, high: int) -> tuple[Action, ...]:
    """``bid`` or ``raise`` actions from ``low`` to ``high`` in fives."""
    return tuple(Action.make(kind, v) for v in range(low, high + 1, STEP))


def round5(points: int) -> int:
    """Points rounded to the nearest 5 (an integer is never halfway: its fifths end in .2, .4, ...)."""
    return 5 * round(points / 5)


def card_set(kind: str, mask: int) -> Action:
    """A ``give`` or ``discard`` of the cards ``mask``, in the canonical order (suits, strongest first)."""
    return Action.make(kind, *[a.card for a in PLAY.of(mask) if a.card is not None])


class Huutopussi(Game):
    """The Huutopussi rule set.  ``tt.new_game("huutopussi")``, or with ``players=3`` or ``players=2``."""

    name = "huutopussi"
    title = "Huutopussi"
    deck = DECK
    OPTIONS = (
        Option("players", 4, "Four players in partnerships; three playing alone with a kitty; or two, "
               "dealt as three with the third hand dead (never seen or played).", choices=(4, 3, 2)),
        Option("card_values", "fives", "Card points: A and 10 ten each, K Q J five each (fives, 160 "
               "with the last trick); or A 11, 10 10, K 4, Q 3, J 2 (pips, 140).", choices=("fives", "pips")),
        Option("marriage_values", "spades_low", "Marriage values: spades 40, clubs 60, diamonds 80, "
               "hearts 100 (spades_low); or spades 100, hearts 80, diamonds 60, clubs 40 (spades_high).",
               choices=("spades_low", "spades_high")),
        Option("calls_after_any_trick", False,
               "Four players: calls after any won trick, not only one the winner led."),
        Option("exchange", 3, "Cards passed each way in the four-player exchange (4 with "
               "calls_after_any_trick is also played).", choices=(3, 4)),
        Option("defender_penalty", True, "A side without a trick pays the opening bid even when the "
               "declarers took every trick and still failed (off: only the declarers are penalised)."),
        Option("redeal", True, "A player with three sixes may demand a new deal at his first bid "
               "(which hands may: option redeal_hand)."),
        Option("redeal_hand", "three_sixes", "The hand that may demand a new deal: three sixes "
               "(three_sixes); three sixes or no card above the jack (three_sixes_or_low); all four "
               "sixes (four_sixes).", choices=REDEAL_HANDS),
        Option("redeal_window", "first_bid", "When a redeal may be demanded: at a player's first bid "
               "(first_bid); or also by the declarer once he holds his partner's cards or the kitty, "
               "until he leads (bid_and_exchange; his hand as it is then counts).",
               choices=("first_bid", "bid_and_exchange")),
        Option("opener", "dealer", "Who opens the auction: the dealer (dealer) or the player on his "
               "left (left_of_dealer).", choices=("dealer", "left_of_dealer")),
        Option("forced_opening", True, "The opener must bid (50 or more; option min_bid) (off: anyone "
               "may pass, but the last player left when all the others passed without a bid must open; "
               "option all_pass)."),
        Option("min_bid", 50, "The lowest bid, and so the opening: 50, or 60 (the 2002 ruleset).",
               choices=(50, 60)),
        Option("bid_ban_reopen", False, "With all_pass no_contract: a side under the bid ban is not "
               "asked at first; if everyone else passes without a bid, the auction reopens for its "
               "players, who may then bid (if every side is under the ban, nobody is left out)."),
        Option("all_pass", "last_opens", "Without a forced opening: when all the others have passed "
               "without a bid, the last player must open (last_opens), or may pass too and the hand is "
               "played without a contract (no_contract: no exchange, nobody takes the kitty, the player "
               "left of the dealer leads, each side scores what it takes, nobody pays a penalty).",
               choices=("last_opens", "no_contract")),
        Option("bid_ban", -500, "A side at or below this score may not bid (-1: any score below 0, "
               "the 2002 ruleset; a forced opening at the lowest bid apart).", choices=(-500, -250, -1)),
        Option("kitty", 3, "Three or two players: the kitty's size, 3 (11 cards a hand) or 6 (10 a "
               "hand); the declarer discards as many.", choices=(3, 6)),
        Option("kitty_shown", True, "Three or two players: the kitty is shown to everyone when the "
               "auction ends (off: only the declarer sees it)."),
        Option("last_trick", 20, "Points for the last trick: 20, or 10 (with card_values pips, 130 in "
               "all).", choices=(20, 10)),
        Option("declarer_no_trick", "side", "The declarer's penalty for no trick: side (his side took no "
               "trick: it loses the contract and the opening bid); side_double (his side took no "
               "trick: minus twice the contract); seat_double (he himself took no "
               "trick: minus twice the opening bid instead of the contract's result).",
               choices=("side", "side_double", "seat_double")),
        Option("raise_when", "before_return", "When the declarer may raise: after his partner's cards "
               "(or the kitty), before giving back (or discarding) (before_return); or after the "
               "whole exchange (after_exchange).", choices=("before_return", "after_exchange")),
        Option("win_by", "reaching", "The match is won by reaching 500 (reaching) or by going above "
               "it (exceeding, 505 or more in fives).", choices=("reaching", "exceeding")),
        Option("win_tie", "higher", "Several sides past the target in one hand: the higher score "
               "wins (higher), or the declarers if they are among them (declarer); an exact tie "
               "plays on.", choices=("higher", "declarer")),
        Option("defender_rounding", False, "The defenders' points (and every side's in a hand without "
               "a contract) are rounded to the nearest 5 (the declarers' are compared unrounded)."),
        Option("discard_needs_trick", False, "Three or two players: the declarer's discard counts for "
               "him only if he took a trick."),
        Option("ask_lockouts", "none", "Four players (three or two cannot ask): none; main_form (a "
               "player who asked for a whole may no longer declare, his partner may no longer ask for "
               "a whole); illisoft_2002 (a player who asked anything may no longer declare; after a half "
               "neither partner may declare or ask for a whole).",
               choices=("none", "main_form", "illisoft_2002")),
        Option("first_trick", "free", "The first trick of every hand: free; or ace_shows (the 2002 "
               "ruleset: the leader must lead an ace, else a spade; when the card led is not an ace, "
               "the player holding the ace of its suit must play it).", choices=("free", "ace_shows")),
    )
    PRESETS = {"four": {"players": 4}, "three": {"players": 3}, "two": {"players": 2},
               "main_form": {"opener": "left_of_dealer", "redeal_hand": "three_sixes_or_low",
                             "card_values": "pips", "last_trick": 10, "ask_lockouts": "main_form",
                             "declarer_no_trick": "seat_double"},
               "rules_2002": {"players": 4, **RULES_2002, "exchange": 4, "calls_after_any_trick": True,
                              "ask_lockouts": "illisoft_2002"},
               "rules_2002_three": {"players": 3, **RULES_2002, "discard_needs_trick": True},
               "rules_2002_two": {"players": 2, **RULES_2002, "discard_needs_trick": True}}
    """``main_form``: PoggersOy/huutopussi's main form (*päämuoto*, its ``DEFAULT_RULES``) as far as
    our options go; ``rules_2002``, ``rules_2002_three`` and ``rules_2002_two``: the 2002 ruleset of
    the illisoft program (four players; three, and two, with the kitty of 3 shown); see
    docs/rules/huutopussi.md for what still differs."""
    PRIVATE_ACTIONS = frozenset({"give", "discard"})
    SUMMARY = """\
36 cards (A..6); rank A 10 K Q J 9 8 7 6.  Card points A 10, 10 10, K 5, Q 5, J 5; the
last trick 20 (160 in all; option card_values pips: 11/10/4/3/2, 140).  Marriages (K+Q of
a suit) are worth spades 40, clubs 60, diamonds 80, hearts 100 (option marriage_values
spades_high: spades 100, hearts 80, diamonds 60, clubs 40); the most a hand can give is 440.

Auction: the dealer must open at 50 or more (option opener left_of_dealer: the player on
his left; option forced_opening off: anyone may pass, and only the last player left when
all the others passed without a bid must open); then clockwise each player bids higher, in
fives, or passes for good, until one bidder is left (option min_bid 60: the lowest bid is
60; option all_pass no_contract, without a forced opening: all may pass, and the hand is then
played without a contract, the player left of the dealer leading, the kitty out of play and
each side scoring what it takes).  A
player with three sixes may demand a new deal at his first chance to bid (redeal; option
redeal; option redeal_hand three_sixes_or_low: or no card above the jack; four_sixes: all
four sixes).  A side at -500 or below (option bid_ban -250; -1: below 0) may not bid, except
that a forced opening is still the lowest bid (option bid_ban_reopen, with all_pass
no_contract: its players are asked only after all the others passed without a bid, and may
then bid).

Four players (players=4, preset four): partners opposite.  The declarer's partner gives
him 3 cards (option exchange 4); the declarer may raise the contract (raise N, or pass to
keep it) and gives 3 cards back; then he leads (option raise_when after_exchange: he raises
after giving back; with three players after the discard).

Three players (players=3, preset three): 11 cards each and a kitty of 3, shown to all after
the auction (option kitty 6: 10 cards each and a kitty of 6; option kitty_shown off: only the
declarer sees it).  The declarer takes the kitty, may raise, and discards as many cards (no
aces or tens), which count for him.

Two players (players=2, preset two; the 2002 ruleset's two-player game): dealt as three,
the third hand dead (never seen or played); tricks of two cards; otherwise as three players.
A player who takes every trick (a läpäri) collects all the deck's card points and the last
trick (160; 140 with pips), plus his marriages, though some lie in the dead hand.

Play: follow suit; else trump if there are trumps; and always beat the high card if you
can.  No trumps at first.  Option first_trick ace_shows: in the first trick the leader leads
an ace, else a spade, and whoever holds the ace of the suit led must play it.  Calls as in
Marjapussi (declare, ask whole, ask half, answer),
but with four players only after winning a trick you led yourself (option
calls_after_any_trick), with three players after any won trick, and from your own hand
only.  Option ask_lockouts main_form: who asked for a whole may no longer declare, his
partner no longer ask for a whole; illisoft_2002: who asked anything may no longer declare,
and after a half neither partner may declare or ask for a whole.  Every marriage makes its
suit trumps (the old trumps become plain) and scores its value; each suit once.

Scoring: the declarers score +contract if their points (cards, marriages, last trick) reach
it, else -contract; each other side scores what it took.  A side without a trick also loses
the opening bid (the highest bid before the raise); option defender_penalty off: not the
defenders when the declarers took every trick and failed.  First to 500 wins; both over in
one hand: the higher score.  Option last_trick 10; option declarer_no_trick seat_double: the
declarer himself without a trick scores minus twice the opening bid instead (side_double: his
side without a trick, minus twice the contract).  Option defender_rounding: the defenders'
points (every side's without a contract) to the nearest 5; option discard_needs_trick: the
three-player discard counts only if the declarer took a trick.  Option win_by exceeding:
only above 500 wins; option win_tie declarer: the declarers win if they are past it with
others.  Preset
main_form: PoggersOy/huutopussi's main form (opener left_of_dealer, redeal_hand
three_sixes_or_low, card_values pips, last_trick 10, ask_lockouts main_form,
declarer_no_trick seat_double).  Presets rules_2002, rules_2002_three and rules_2002_two: the
2002 ruleset of the illisoft program, for four, three and two players.

Actions: bid 120, pass, redeal, give 9H 7C 6D, raise 150, discard 9H 7C 6D, play AS,
declare H, ask whole, ask half H, answer H, answer no."""

    def _validate(self) -> None:
        o = self.options
        self.num_players = o["players"]
        self.partnerships = self.num_players == 4
        self.card_values = {c.mask: CARD_VALUES[o["card_values"]].get(c.rank.value, 0) for c in DECK.cards}
        self.marriage_values = MARRIAGE_VALUES[o["marriage_values"]]
        self.last_trick: int = o["last_trick"]
        """Points for the last trick (20, or 10)."""
        self.max_bid = sum(self.card_values.values()) + self.last_trick + sum(self.marriage_values.values())
        self.bid_floor: int = o["bid_ban"]
        """A side at or below this score may not bid (a forced opening at the lowest bid apart)."""
        self.min_bid: int = o["min_bid"]
        """The lowest bid, and so the opening (50, or 60)."""
        lockouts = o["ask_lockouts"]
        self.rules = MarriageRules(partners=self.partnerships,
                                   call_after_own_lead=self.partnerships and not o["calls_after_any_trick"],
                                   order="free" if lockouts == "none" else lockouts,
                                   ace_shows=o["first_trick"] == "ace_shows")
        if self.num_players != 4 and (o["exchange"] != 3 or o["calls_after_any_trick"]):
            raise OptionError("options exchange and calls_after_any_trick apply to four players only "
                              "(three or two players already call after any won trick; the 2002 "
                              "ruleset for them is preset rules_2002_three or rules_2002_two)")
        if o["all_pass"] != "last_opens" and o["forced_opening"]:
            raise OptionError("option all_pass no_contract needs forced_opening off")
        if o["bid_ban_reopen"] and o["all_pass"] != "no_contract":
            raise OptionError("option bid_ban_reopen needs all_pass no_contract (else the last player "
                              "left would have to open and the auction never reopens)")
        if self.num_players == 4 and (o["kitty"] != 3 or not o["kitty_shown"]):
            raise OptionError("options kitty and kitty_shown apply to three players only "
                              "(four players have no kitty)")
        self.kitty_size: int = o["kitty"] if self.num_players != 4 else 0
        """Three or two players: the cards in the kitty, and in the declarer's discard."""
        self.dead_size: int = (36 - self.kitty_size) // 3 if self.num_players == 2 else 0
        """Two players: the cards of the dead third hand (as many as a player's)."""
        self.deck_points: int = sum(self.card_values.values())
        """The card points of the whole deck (140, or 120 with pips): what a two-player läpäri
        collects, with the last trick and his marriages."""

    def over_target(self, score: int) -> bool:
        """Whether a score has won the match: 500 or more, or above 500 (option win_by)."""
        return score > TARGET if self.options["win_by"] == "exceeding" else score >= TARGET

    def opener(self, dealer: int) -> int:
        """The seat that opens the auction when ``dealer`` deals."""
        return dealer if self.options["opener"] == "dealer" else (dealer + 1) % self.num_players

    @property
    def ban_text(self) -> str:
        """The scores under the bid ban, in words: "at -500 or below", or "below 0" (``bid_ban=-1``)."""
        return "below 0" if self.bid_floor == -1 else f"at {self.bid_floor} or below"

    @property
    def redeal_hand_text(self) -> str:
        """The hand that may demand a new deal, in words (for messages and front ends)."""
        return {"three_sixes": "three sixes",
                "three_sixes_or_low": "three sixes or no card above the jack",
                "four_sixes": "all four sixes"}[self.options["redeal_hand"]]

    def may_redeal_with(self, hand: int) -> bool:
        """Whether a hand (a card mask) may demand a new deal, under option ``redeal_hand``
        (option ``redeal`` and the first-bid window are the state's to check)."""
        sixes = popcount(hand & SIXES)
        rule = self.options["redeal_hand"]
        if rule == "four_sixes":
            return sixes == 4
        return sixes >= 3 or (rule == "three_sixes_or_low" and not hand & ABOVE_JACK)

    def pile_sizes(self, dealer: int) -> list[int]:
        """Four hands of 9; or three hands of 11 and the kitty of 3 (of 10 and 6 with ``kitty=6``);
        with two players the third hand is the dead one."""
        if self.num_players != 4:
            k = self.kitty_size
            return [(36 - k) // 3] * 3 + [k]
        return [9] * 4


class HuutopussiState(MarriageState):
    """A Huutopussi match (or single hand) in progress.

    ``scores`` is the match score per side (per seat with three or two players);
    ``hand_points`` what the last finished hand changed it by.
    """

    game: Huutopussi

    @classmethod
    def match_start(cls, game: Game, dealer: int) -> JSON:
        return {"hand_number": 0, "dealer": dealer, "scores": [0] * game.num_sides, "previous": None}

    @classmethod
    def check_scores(cls, game: Game, scores: Sequence[int]) -> list[int]:
        checked = super().check_scores(game, scores)
        assert isinstance(game, Huutopussi)
        if any(game.over_target(s) for s in checked):
            bound = "at most" if game.options["win_by"] == "exceeding" else "below"
            raise OptionError(f"huutopussi scores must be {bound} {TARGET}: the match ends there")
        return checked

    def _match_context(self) -> JSON:
        redealt = self._redeal_by is not None
        return {"hand_number": self._start["hand_number"] + 1,
                "dealer": self._dealer if redealt else self._next(self._dealer),
                "scores": list(self._scores), "previous": self._previous}

    def _start_hand(self, start: JSON, deal: list[int]) -> None:
        n = self.num_players
        self._begin_context(start)
        self._rules = self.game.rules
        first_trick = [ACES, SUIT_MASKS[SPADES]] if self.game.rules.ace_shows else []
        self._start_play(deal[:n], self.game.opener(self._dealer), first_trick)
        self._kitty = deal[3] if n != 4 else 0
        self._dead = deal[2] if n == 2 else 0  # two players: the third hand, never seen or played
        self._phase = BID_PHASE
        self._auction: list[tuple[int, Action]] = []
        self._high = 0
        self._high_bidder: int | None = None
        self._passed = [False] * n
        self._spoken = [False] * n  # has had a chance to bid (for the redeal)
        # bid_ban_reopen: the seats of banned sides wait until everyone else has passed without a bid
        banned = [self._scores[self.game.side_of(s)] <= self.game.bid_floor for s in range(n)]
        self._waiting = banned if self.game.options["bid_ban_reopen"] and not all(banned) else [False] * n
        first = self.game.opener(self._dealer)
        while self._waiting[first]:
            first = self._next(first)
        self._turn = first
        self._redeal_by: int | None = None
        self._opening = 0  # the highest bid before the raise
        self._contract = 0
        self._declarer: int | None = None
        self._no_contract = False  # everyone passed without a bid (option all_pass no_contract)
        self._given = 0  # partner to declarer (four players)
        self._returned = 0  # declarer to partner
        self._discard = 0  # three or two players
        self._discard_points = 0

    # -- the public API ----------------------------------------------------------

    @property
    def contract(self) -> int:
        """The contract (0 during the auction)."""
        return self._contract

    @property
    def declarer(self) -> int | None:
        return self._declarer

    def _partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def _bids_allowed(self, seat: int) -> bool:
        if self.game.options["bid_ban_reopen"]:
            return True  # the ban keeps a seat waiting, and once asked it bids like anyone
        return self._scores[self.game.side_of(seat)] > self.game.bid_floor

    def _must_open(self, seat: int) -> bool:
        """``seat`` may not pass: no bid yet, and it is the forced opener or (without a forced
        opening) every other seat has passed."""
        if self._high_bidder is not None:
            return False
        if self.game.options["forced_opening"]:
            return True  # the opener is the first to act, and no bid means it is his turn
        if self.game.options["all_pass"] == "no_contract":
            return False
        return all(self._passed[s] for s in range(self.num_players) if s != seat)

    def legal_actions(self) -> list[Action]:
        if self._turn is None:
            return []
        seat = self._turn
        phase = self._phase
        if phase == BID_PHASE:
            out: list[Action] = []
            opening = self._high_bidder is None
            forced = self._must_open(seat)
            if self._may_redeal(seat):
                out.append(REDEAL)
            lowest = self.game.min_bid
            if forced and not self._bids_allowed(seat):
                return [*out, Action.make("bid", lowest)]
            if self._bids_allowed(seat):
                low = lowest if opening else self._high + STEP
                out += _bids("bid", low, self.game.max_bid)
            if not forced:
                out.append(PASS)
            return out
        redeal = [REDEAL] if phase in EXCHANGE_PHASES and self._may_redeal(seat) else []
        if phase in (GIVE_PHASE, RETURN_PHASE):
            return self._card_sets("give", self._hands[seat], self.game.options["exchange"]) + redeal
        if phase == RAISE_PHASE:
            return [*_bids("raise", self._contract + STEP, self.game.max_bid), PASS, *redeal]
        if phase == DISCARD_PHASE:
            return self._card_sets("discard", self._hands[seat] & ~ACES_TENS, self.game.kitty_size) + redeal
        return super().legal_actions()

    @staticmethod
    def _card_sets(kind: str, mask: int, size: int) -> list[Action]:
        return list(_card_sets(kind, mask, size))


    def _may_redeal(self, seat: int) -> bool:
        """At a seat's first bid; with redeal_window bid_and_exchange also the declarer's, from
        when he holds his partner's cards (or the kitty) until he leads."""
        options = self.game.options
        if not options["redeal"] or not self.game.may_redeal_with(self._hands[seat]):
            return False
        if self._phase == BID_PHASE:
            return not self._spoken[seat]
        return (options["redeal_window"] == "bid_and_exchange" and self._phase in EXCHANGE_PHASES
                and seat == self._declarer)

    def _redeal(self, seat: int) -> None:
        """A redeal: the hand that allows it is shown, nothing is scored, the same dealer deals."""
        if not self._may_redeal(seat):
            off = "" if self.game.options["redeal"] else " (and option redeal is off)"
            when = ("at a player's first bid" if self.game.options["redeal_window"] == "first_bid"
                    else "at a player's first bid, or by the declarer before he leads")
            raise IllegalActionError(f"redeal is possible only {when}, holding "
                                     f"{self.game.redeal_hand_text}{off}")
        if self._phase == BID_PHASE:
            self._auction.append((seat, REDEAL))
        self._redeal_by = seat
        self._shown[seat] |= self._hands[seat] & (SIXES if popcount(self._hands[seat] & SIXES) >= 3
                                                  else self._hands[seat])
        self._finish_hand(None)

    def _parse(self, text: str) -> Action:
        action = parse_action(text, DECK, KINDS, WORDS)
        return self._canonical(action, text)

    def _canonical(self, action: Action, text: str | None = None) -> Action:
        """Check an action's shape; card sets (give, discard) get their canonical card order."""
        kind, args = action.kind, action.args
        shown = text.strip() if text is not None else action.text
        if kind in ("give", "discard"):
            cards = [a for a in args if isinstance(a, Card)]
            if len(cards) != len(args) or not cards or popcount(action.mask) != len(cards):
                raise IllegalActionError(f"{shown!r} is malformed: write '{kind}' and distinct cards, "
                                         f"e.g. '{kind} 9H 7C 6D'")
            return card_set(kind, action.mask)
        if kind in ("bid", "raise"):
            if len(args) != 1 or not isinstance(args[0], int):
                raise IllegalActionError(
                    f"{shown!r} is malformed: write '{kind}' and a number, e.g. '{kind} 120'")
            return action
        if kind in ("pass", "redeal"):
            if args:
                raise IllegalActionError(f"{shown!r} is malformed: write '{kind}' alone")
            return action
        return check_trick_action(action, shown)

    # -- applying actions ----------------------------------------------------------

    def _do(self, action: Action) -> None:
        if self._turn is None:
            raise IllegalActionError("the game is over")
        action = self._canonical(action)
        seat = self._turn
        phase = self._phase
        kind = action.kind
        if phase == BID_PHASE:
            if kind not in ("bid", "pass", "redeal"):
                raise IllegalActionError(f"{action} is not possible now: seat {seat} must bid, pass"
                                         + (" or redeal" if self._may_redeal(seat) else ""), code="not_now")
            self._bid(seat, action)
        elif phase in EXCHANGE_PHASES and action is REDEAL:
            self._redeal(seat)
        elif phase in (GIVE_PHASE, RETURN_PHASE):
            self._give(seat, action)
        elif phase == RAISE_PHASE:
            if kind not in ("raise", "pass"):
                raise IllegalActionError(f"{action} is not possible now: the declarer raises "
                                         f"(raise N) or keeps the contract (pass)", code="not_now")
            if kind == "raise":
                value = action.args[0]
                assert isinstance(value, int)
                if value <= self._contract or value % STEP or value > self.game.max_bid:
                    raise IllegalActionError(
                        f"cannot raise to {value}: a raise goes above {self._contract} in fives, "
                        f"up to {self.game.max_bid}")
                self._contract = value
            if self.game.options["raise_when"] == "after_exchange":
                self._phase = PLAY_PHASE  # the exchange is over: the declarer leads
            else:
                self._phase = RETURN_PHASE if self.num_players == 4 else DISCARD_PHASE
        elif phase == DISCARD_PHASE:
            self._discard_cards(seat, action)
        elif not self._do_marriage_action(seat, action):
            raise IllegalActionError(f"{action} is not possible now: seat {seat} must play a card",
                                     code="not_now")

    def _bid(self, seat: int, action: Action) -> None:
        opening = self._high_bidder is None
        if action is REDEAL:
            self._redeal(seat)
            return
        forced = self._must_open(seat)
        lowest = self.game.min_bid
        if action is PASS:
            if forced:
                raise IllegalActionError(f"{self._opener_words()} must open the bidding at {lowest} or more")
        else:
            value = action.args[0]
            assert isinstance(value, int)
            if not self._bids_allowed(seat) and not (forced and value == lowest):
                raise IllegalActionError(
                    f"seat {seat}'s side is {self.game.ban_text} and may not bid"
                    + (f" ({self._opener_words()} opens at {lowest})" if forced else ""))
            low = lowest if opening else self._high + STEP
            if value < low or value % STEP or value > self.game.max_bid:
                floor = f" (the lowest bid is {lowest})" if opening and value < low else ""
                raise IllegalActionError(f"cannot bid {value}: bids go from {low} in fives up to "
                                         f"{self.game.max_bid}{floor}")
            self._high, self._high_bidder = value, seat
        self._auction.append((seat, action))
        self._spoken[seat] = True
        if action is PASS:
            self._passed[seat] = True
        left = [s for s in range(self.num_players) if not self._passed[s] and not self._waiting[s]]
        if not left and self._high_bidder is None and any(self._waiting):
            # bid_ban_reopen: the auction reopens for the banned seats, from the dealer's left
            self._waiting = [False] * self.num_players
            nxt = self._next(self._dealer)
            while self._passed[nxt]:
                nxt = self._next(nxt)
            self._turn = nxt
            return
        if not left:  # all passed, no bid (all_pass no_contract): play without a contract
            self._no_contract = True
            self._phase = PLAY_PHASE
            self._turn = (self._dealer + 1) % self.num_players
            return
        if len(left) == 1 and self._high_bidder is not None:  # else the last one left must open
            self._end_auction(left[0])
            return
        nxt = self._next(seat)
        while self._passed[nxt] or self._waiting[nxt]:
            nxt = self._next(nxt)
        self._turn = nxt

    def _opener_words(self) -> str:
        """Who must open, in words: the dealer, the player left of him, or the last one left."""
        options = self.game.options
        if not options["forced_opening"]:
            return "the last player left"
        return "the dealer" if options["opener"] == "dealer" else "the player left of the dealer"

    def _end_auction(self, declarer: int) -> None:
        self._declarer = declarer
        self._opening = self._contract = self._high
        if self.num_players == 4:
            self._phase = GIVE_PHASE
            self._turn = self._partner(declarer)
        else:
            self._hands[declarer] |= self._kitty
            after = self.game.options["raise_when"] == "after_exchange"
            self._phase = DISCARD_PHASE if after else RAISE_PHASE
            self._turn = declarer

    def _give(self, seat: int, action: Action) -> None:
        size = self.game.options["exchange"]
        if action.kind != "give":
            raise IllegalActionError(f"{action} is not possible now: seat {seat} must give {size} cards "
                                     f"(e.g. 'give 9H 7C 6D')", code="not_now")
        cards = action.mask
        if popcount(cards) != size:
            raise IllegalActionError(f"give exactly {size} cards, not {popcount(cards)}")
        if cards & ~self._hands[seat]:
            missing = " ".join(c.text for c in DECK.cards_of(cards & ~self._hands[seat]))
            raise IllegalActionError(f"seat {seat} cannot give {missing}: not in hand")
        to = self._partner(seat)
        self._hands[seat] ^= cards
        self._hands[to] |= cards
        after = self.game.options["raise_when"] == "after_exchange"
        if self._phase == GIVE_PHASE:
            self._given = cards
            self._phase = RETURN_PHASE if after else RAISE_PHASE
        else:
            self._returned = cards
            self._phase = RAISE_PHASE if after else PLAY_PHASE
        self._turn = self._declarer  # he raises, gives back or leads

    def _discard_cards(self, seat: int, action: Action) -> None:
        if action.kind != "discard":
            raise IllegalActionError(f"{action} is not possible now: the declarer must discard "
                                     f"{self.game.kitty_size} cards "
                                     f"(e.g. 'discard 9H 7C 6D')", code="not_now")
        cards = action.mask
        if popcount(cards) != self.game.kitty_size:
            raise IllegalActionError(f"discard exactly {self.game.kitty_size} cards, not {popcount(cards)}")
        if cards & ~self._hands[seat]:
            missing = " ".join(c.text for c in DECK.cards_of(cards & ~self._hands[seat]))
            raise IllegalActionError(f"seat {seat} cannot discard {missing}: not in hand")
        if cards & ACES_TENS:
            bad = " ".join(c.text for c in DECK.cards_of(cards & ACES_TENS))
            raise IllegalActionError(f"aces and tens may not be discarded: {bad}")
        self._hands[seat] ^= cards
        self._discard = cards
        self._discard_points = sum(self.game.card_values[b] for b in single_bits(cards))
        self._phase = RAISE_PHASE if self.game.options["raise_when"] == "after_exchange" else PLAY_PHASE

    def _marriage_made(self, seat: int, suit: int) -> None:
        """Every marriage makes its suit trumps and scores its suit's value."""
        self._set_trump(suit)
        self._marriages.append((seat, suit, self.game.marriage_values[suit]))

    # -- points and the end of a hand ------------------------------------------------

    def side_points(self) -> list[int]:
        """Points taken so far per side: cards in tricks, marriages, and the last trick once taken
        (not the declarer's discard, which only he knows)."""
        values = self.game.card_values
        points = [sum(values[b] for b in single_bits(taken)) for taken in self._taken]
        for seat, _, value in self._marriages:
            points[self.game.side_of(seat)] += value
        if self._last_trick_side is not None:
            points[self._last_trick_side] += self.game.last_trick
        return points

    def all_tricks_by(self) -> int | None:
        """Two players: the seat that has taken every trick of the hand so far (None before the
        first trick, with three or four players, or once both have taken one)."""
        if self.num_players != 2 or not self._tricks:
            return None
        taken = [s for s in range(2) if self._tricks_won[s]]
        return taken[0] if len(taken) == 1 else None

    def _lapari(self, collected: list[int]) -> int | None:
        """Two players, the hand over: a player who took every trick (a läpäri) collects all the
        deck's card points and the last trick, plus his marriages, whatever lay in the dead hand,
        the kitty or the discard (which is inside that total, not added on top).  Returns him."""
        sweeper = self.all_tricks_by()
        if sweeper is not None:
            marriages = sum(v for seat, _, v in self._marriages if seat == sweeper)
            collected[sweeper] = self.game.deck_points + self.game.last_trick + marriages
        return sweeper

    def _hand_done(self) -> None:
        game = self.game
        rounded = round5 if game.options["defender_rounding"] else int
        if self._declarer is None:  # no contract: each side scores what it took, no penalty
            collected = self.side_points()
            lapari = self._lapari(collected)
            swept = [s for s in range(game.num_sides) if not self._tricks_won[s]]
            self._finish_hand({"collected": collected, "made": None,
                               "change": [rounded(c) for c in collected], "no_tricks": swept,
                               "penalised": [], "lapari": lapari})
            return
        declarers = game.side_of(self._declarer)
        collected = self.side_points()
        lapari = self._lapari(collected)
        # the declarer's discard counts for him (option discard_needs_trick: if he took a trick),
        # except in his own läpäri, whose total already holds it
        if lapari != self._declarer and (self._tricks_won[declarers]
                                         or not game.options["discard_needs_trick"]):
            collected[declarers] += self._discard_points
        made = collected[declarers] >= self._contract
        change = [rounded(collected[s]) if s != declarers else (self._contract if made else -self._contract)
                  for s in range(game.num_sides)]
        swept = [s for s in range(game.num_sides) if not self._tricks_won[s]]
        penalised = list(swept)
        if not made and not game.options["defender_penalty"] and len(swept) == game.num_sides - 1 \
                and declarers not in swept:
            penalised = []  # the declarers took every trick and failed: only they pay
        rule = game.options["declarer_no_trick"]
        if rule != "side":
            penalised = [s for s in penalised if s != declarers]  # the declarers: below
        for s in penalised:
            change[s] -= self._opening
        trickless = (not any(winner == self._declarer for _, _, winner in self._tricks)
                     if rule == "seat_double" else not self._tricks_won[declarers])
        if rule != "side" and trickless:
            # seat_double: the declarer himself without a trick, minus twice the opening bid;
            # side_double: his side without a trick, minus twice the (raised) contract
            made = False
            change[declarers] = -2 * (self._opening if rule == "seat_double" else self._contract)
            penalised.append(declarers)
        outcome: JSON = {"collected": collected, "made": made, "change": change, "no_tricks": swept,
                         "penalised": penalised, "lapari": lapari}
        if rule != "side":
            outcome["declarer_trickless"] = declarers in penalised
        self._finish_hand(outcome)

    def _match_winner(self) -> int | None:
        """The side that has won the match after this hand, if any (options win_by, win_tie)."""
        game = self.game
        past = [s for s in range(game.num_sides) if game.over_target(self._scores[s])]
        if not past:
            return None
        declarer_wins = game.options["win_tie"] == "declarer" and self._redeal_by is None
        if self._declarer is not None and declarer_wins:
            declarers = game.side_of(self._declarer)
            if declarers in past:
                return declarers
        top = max(self._scores[s] for s in past)
        leaders = [s for s in past if self._scores[s] == top]
        return leaders[0] if len(leaders) == 1 else None

    def _finish_hand(self, outcome: JSON | None) -> None:
        """Score the hand (``outcome`` None: a redeal, nothing scored) and end it."""
        change = outcome["change"] if outcome else [0] * self.game.num_sides
        for s, delta in enumerate(change):
            self._scores[s] += delta
        winner = self._match_winner()
        self._hand_points = change
        result: JSON = {
            "redeal": self._redeal_by,
            "auction": [[s, a.text] for s, a in self._auction],
            "declarer": self._declarer,
            "opening_bid": self._opening,
            "contract": self._contract,
            "marriages": [[s, SUIT_LETTER[suit], v] for s, suit, v in self._marriages],
            "tricks_won": list(self._tricks_won),
            "last_trick": self._last_trick_side,
            "points": change,
            "scores": list(self._scores),
        }
        if outcome:
            if "declarer_trickless" in outcome:
                result["declarer_trickless"] = outcome["declarer_trickless"]
            result.update(collected=outcome["collected"], made=outcome["made"],
                          no_tricks=outcome["no_tricks"], penalised=outcome["penalised"],
                          discard=" ".join(c.text for c in DECK.sorted(DECK.cards_of(self._discard))) or None)
            if self.num_players == 2:
                result["lapari"] = outcome["lapari"]
        if winner is not None:
            self._winner = winner
        self._close_hand(result, winner is not None)

    # -- what a seat may know ----------------------------------------------------------

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as a JSON-safe dict; ``seat=None`` gives public information only."""
        seat = self._check_viewer(seat)
        n = self.num_players
        declarer = self._declarer
        obs = self._header(seat) | {
            "auction": [[s, a.text] for s, a in self._auction],
            "high_bid": self._high or None,
            "high_bidder": self._high_bidder,
            "passed": list(self._passed),
            "declarer": declarer,
            "opening_bid": self._opening or None,
            "contract": self._contract or None,
        } | self._play_observation(seat) | {
            "points": self.side_points(),
            "previous_hand": json_copy(self._previous),
            "winner": self._winner,
        }
        in_exchange = n == 4 and declarer is not None and seat in (declarer, self._partner(declarer))
        obs["given"] = self._texts(self._given) if in_exchange else None
        obs["returned"] = self._texts(self._returned) if in_exchange else None
        if n != 4:
            obs["kitty"] = self._texts(self._kitty) if self._sees_kitty(seat) else None
            obs["discard"] = self._texts(self._discard) if seat is not None and seat == declarer else None
        if seat is not None and seat == self._turn:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    def _sees_kitty(self, seat: int | None) -> bool:
        """Three or two players: whether ``seat`` (None: everyone) has seen the kitty.  It is shown
        when the auction ends (with a declarer, or without a contract) to everyone, or with option
        kitty_shown off only to the declarer (nobody, without a contract)."""
        if self.num_players == 4 or (self._declarer is None and not self._no_contract):
            return False
        return self.game.options["kitty_shown"] or (seat is not None and seat == self._declarer)

    # -- worlds ------------------------------------------------------------------

    def sample_world(self, seat: int, rng: random.Random) -> HuutopussiState:
        """A full state consistent with everything ``seat`` knows, hidden cards dealt anew.

        The cards each other seat has held since the exchange are dealt under
        what is known (played cards, declared marriages, the duties shown, the
        kitty with the declarer, the exchanged cards for the two who swapped
        them); then the deal before the exchange is worked back from them, with
        exchanged cards and the discard drawn anew where the seat did not see
        them.  The hand is replayed on that deal, so asks and answers must come
        out the same; worlds where they would not are drawn again.
        """
        def draw(seat: int, rng: random.Random) -> HuutopussiState | None:
            made = self._world(seat, rng)
            return None if made is None else self._replay_world(made[0], rng, made[1])
        return self._sample(seat, rng, 2000, draw)

    def _world(self, seat: int, rng: random.Random) -> tuple[list[int], list[Action]] | None:
        """A deal and the hand's actions for one world, or None if this draw failed."""
        n = self.num_players
        declarer = self._declarer
        played = self._played_by()
        held = [self._hands[s] | played[s] for s in range(n)]  # since the exchange (or the kitty)
        fixed = [(self._shown[s] & self._hands[s]) | played[s] for s in range(n)]
        fixed[seat] = held[seat]
        partner = self._partner(declarer) if n == 4 and declarer is not None else None
        sees_exchange = seat in (declarer, partner) and n == 4
        if sees_exchange:
            assert declarer is not None and partner is not None
            fixed[declarer] |= self._given & ~self._returned
            fixed[partner] |= self._returned
        known = 0
        for s in range(n):
            known |= fixed[s]
        kitty_seen = self._sees_kitty(seat)
        if n != 4 and seat == declarer:
            known |= self._discard
        if kitty_seen and declarer is None:  # no contract: the kitty shown stays out of play
            known |= self._kitty
        pool = DECK.mask & ~known
        slots = [s for s in range(n) if s != seat]
        sizes = [popcount(held[s] & ~fixed[s]) for s in slots]
        allowed = [pool & ~self._forbidden[s] for s in slots]
        k = self.game.kitty_size
        if n == 2:  # the dead hand: unseen by both, never holding a card of a kitty seen in play
            slots.append(-3)
            sizes.append(self.game.dead_size)
            allowed.append(pool & ~self._kitty if kitty_seen else pool)
        if n != 4:
            if declarer is None and not kitty_seen:
                slots.append(-1)  # the kitty, unseen until the auction ends (or never shown)
                sizes.append(k)
                allowed.append(pool)
            elif seat != declarer:
                if kitty_seen:
                    # The kitty's unplayed cards are with the declarer or in his discard.
                    allowed = [a if s == declarer else a & ~self._kitty
                               for s, a in zip(slots, allowed, strict=True)]
                if self._discard:
                    slots.append(-2)
                    sizes.append(k)
                    allowed.append(pool & ~ACES_TENS)
        filled = fill_slots(pool, sizes, allowed, rng)
        if filled is None:
            return None
        hands = list(fixed)
        kitty, discard, dead = self._kitty, self._discard, 0
        for s, got in zip(slots, filled, strict=True):
            if s == -1:
                kitty = got
            elif s == -2:
                discard = got
            elif s == -3:
                dead = got
            else:
                hands[s] |= got
        if n != 4 and declarer is not None and not kitty_seen:
            kitty = self._pick(hands[declarer] | discard, k, rng)  # a hidden kitty: any of his cards
        actions = list(self._log[-1].actions)
        if partner is not None and declarer is not None and self._given:
            given, returned = self._given, self._returned
            if not sees_exchange:
                size = self.game.options["exchange"]
                given = self._pick(hands[declarer], size, rng)
                returned = self._pick(hands[partner], size, rng) if returned else 0
                gives = iter([card_set("give", given), card_set("give", returned)])
                actions = [next(gives) if a.kind == "give" else a for a in actions]
            hands[declarer] = (hands[declarer] | returned) & ~given
            hands[partner] = (hands[partner] & ~returned) | given
        if n != 4 and declarer is not None:
            hands[declarer] = (hands[declarer] | discard) & ~kitty
            actions = [card_set("discard", discard) if a.kind == "discard" else a for a in actions]
        if n == 4:
            return hands, actions
        return ([*hands, dead, kitty] if n == 2 else [*hands, kitty]), actions

    @staticmethod
    def _pick(mask: int, size: int, rng: random.Random) -> int:
        out = 0
        for b in rng.sample(single_bits(mask), size):
            out |= b
        return out


Huutopussi.state_class = HuutopussiState
