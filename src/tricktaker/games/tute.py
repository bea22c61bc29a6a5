"""Tute: the Spanish ace-ten game, for two (tute habanero), three (each alone) or four in pairs.

Rules: ``shared/RULES.md`` (section Tute) and the seed text ``seeds/tute.txt``;
the project's own rules page is ``docs/rules/tute.md``.  Decisions the rule
texts leave open, and how this module settles them:

- Play and the deal pass counter-clockwise: the next player after seat ``s``
  is ``s - 1``.  The next dealer is the player after the dealer.
- In pairs, either member of the side that just won a trick may declare.
  The winner declares first (or says ``pass``), then the partner, then the
  winner leads.  A member is only asked when a declaration is still possible
  by what everyone has seen, so asking reveals nothing.
- A void player who cannot overtrump must still play a trump if he has one
  (``must_overtrump`` only adds the duty to beat).
- Singing a veinte while holding las cuarenta is allowed and forfeits the
  cuarenta, which is what "the higher goes first" means in play.
- Three players (tute arrastrado for three, after the Spanish rule pages cited
  in ``docs/rules/tute.md``): 13 cards each, the fortieth turned for trumps and
  out of play (no exchange for it); each plays alone under the pairs duties;
  after a trick only its winner is asked to declare.  Equal top points go to
  the last trick's winner only if he is among them (``tie_last_trick``).
- Tute cabrero (``mode="cabrero"``, after tute.com.ar's regulation and FAQ): three to
  six each alone, dealt as pairs or three players are (five: 8 each; six: 6 each and the
  four left over out of play); a hand has losers (a tute
  declared: everyone else; a capote: the others, or its taker alone if he sang; else
  the players without a trick; else the middle places, ties sharing them); four lost
  hands put a player out (no cards, skipped), and fewer than three left end the match.
- Variants from the seed text, each an option (default off): ``tute_sotas``
  (four sotas make tute too), ``must_declare`` (pairs: a player asked to
  declare who can, must; he may pass only with nothing left to declare) and
  ``exchange_anytime`` (two players: the exchange on any turn of either player,
  leading or following, not only before a lead; never out of turn).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import SPANISH_40, SUIT_MASKS, Card, Suit, popcount, single_bits, suit_of
from ..engine import (
    JSON,
    PHASE_OVER,
    Action,
    CardActions,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    Trick,
    TrumpTrickState,
    json_copy,
    parse_action,
    ranking,
)
from ..sampling import fill_timed_slots

__all__ = ["Tute", "TuteState"]

DECK = SPANISH_40
STRENGTH_ORDER = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
"""Rank values from strongest to weakest: A 3 R C S 7 6 5 4 2."""
POINTS_BY_RANK = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
LAST_TRICK = 10
KING, KNIGHT = 12, 11

STRENGTH, BEATS = ranking(DECK, STRENGTH_ORDER)
"""Each card's strength within its suit (0 the weakest), and the cards of its suit that beat it."""
POINTS = {c.mask: POINTS_BY_RANK.get(c.rank.value, 0) for c in DECK.cards}
KINGS = sum(1 << (16 * s + KING) for s in range(4))
KNIGHTS = sum(1 << (16 * s + KNIGHT) for s in range(4))
SOTA = 10
SOTAS = sum(1 << (16 * s + SOTA) for s in range(4))
SEVEN_UP = {1, 3, 12, 11, 10}
"""Upcards the 7 of trumps may be exchanged for."""
TWO_UP = {7, 6, 5, 4}
"""Upcards the 2 of trumps may be exchanged for."""

PLAY = CardActions("play", DECK, STRENGTH_ORDER)
SING_40 = Action.make("sing", 40)
SING_20 = {s.index: Action.make("sing", 20, s) for s in DECK.suits}
TUTE = Action.make("tute")
EXCHANGE = Action.make("exchange")
PASS = Action.make("pass")
KINDS = ("play", "sing", "tute", "exchange", "pass")
_VALID_ACTIONS = frozenset([*PLAY.by_mask.values(), SING_40, *SING_20.values(), TUTE, EXCHANGE, PASS])

PLAY_PHASE, DECLARE_PHASE, OVER = "play", "declare", PHASE_OVER


class Tute(Game):
    """The Tute rule set.  ``tt.new_game("tute")`` (pairs), ``players=3`` (each alone) or
    ``players=2`` (habanero)."""

    name = "tute"
    title = "Tute"
    deck = DECK
    OPTIONS = (
        Option("players", 4, "Two players (tute habanero), three each alone (tute arrastrado) or "
               "four in pairs; tute cabrero also five or six.", choices=(2, 3, 4, 5, 6)),
        Option("rounds_to_win", 3, "Rounds a side must win to win the match (3; 6 is also common).",
               minimum=1, maximum=99),
        Option("tute", True, "Four kings or four knights in one hand, declared, win the round."),
        Option("tie_last_trick", True,
               "Equal round points: the side that won the last trick wins the round "
               "(off: nobody wins it)."),
        Option("free_while_stock", False,
               "Two players: no duty to follow, beat or trump while the stock lasts."),
        Option("must_overtrump", True,
               "Pairs: a void player trumping must beat the best trump in the trick if he can."),
        Option("partner_exception", False,
               "Pairs: when the partner is winning the trick, only following suit is required."),
        Option("tute_sotas", False, "Four sotas in one hand also make tute (as four reyes or caballos do)."),
        Option("must_declare", False,
               "Pairs and three players: declaring is compulsory: a player asked to declare must "
               "sing what he holds (pass only with nothing to declare)."),
        Option("exchange_anytime", False,
               "Two players: either player may exchange the 7 or 2 of trumps on his turn, leading or "
               "following, while more than two cards are in the stock."),
        Option("mode", "points", "points: a round goes to the most points; cabrero: three to six "
               "players each alone, the middle score loses the hand (tute cabrero).",
               choices=("points", "cabrero")),
        Option("losses_out", 4, "Cabrero: lost hands that put a player out of the match.",
               minimum=1, maximum=20),
    )
    PRESETS = {"pairs": {"players": 4}, "habanero": {"players": 2}, "three": {"players": 3},
               "cabrero": {"players": 4, "mode": "cabrero"}}
    SUMMARY = """\
Spanish 40-card deck (no 8s or 9s); suits oros (O), copas (C), espadas (E), bastos (B).
Strength: 1 (as) 3 12 (rey) 11 (caballo) 10 (sota) 7 6 5 4 2.  Card points: as 11, tres 10,
rey 4, caballo 3, sota 2, the rest 0; the last trick 10 more (130 in all).  Play and the
deal pass counter-clockwise.

Pairs (players=4, preset pairs): 10 cards each; the dealer's last card is shown and makes
trumps.  The player after the dealer leads.  Follow suit and beat the best card of the
suit led if you can; void, trump (beating the best trump in the trick if you can, option
must_overtrump); else anything.  These duties hold even when your partner is winning
(option partner_exception relaxes them).

Three players (players=3, preset three), tute arrastrado, each alone: 13 cards each; the
fortieth card is turned for trumps and stays out of play.  The duties, the declarations
(the winner alone is asked) and the scoring are those of pairs, per player.

Habanero (players=2, preset habanero): 8 cards each; the next card, turned face up under
the stock, makes trumps.  The non-dealer leads.  The second player must follow suit and
beat if he can, else trump if he can (option free_while_stock: no duties while the stock
lasts).  The winner draws first, then the loser.  While more than two cards are left in
the stock, the player about to lead may exchange the 7 of trumps for an upcard above the 7,
or the 2 of trumps for an upcard 7 to 4.

Declarations (cantes), only by a side that has won a trick, right after winning one and
before the next lead: las cuarenta (rey + caballo of trumps) 40, veinte (rey + caballo of
another suit) 20, each suit once.  The higher goes first: a side that sang a veinte may not
later sing las cuarenta (two players: within the same pause between tricks).  Two
players: declaring ends when two cards are left in the stock.  Tute (four reyes or four
caballos in one hand) wins the round at once (option tute).

The round goes to the side with more points (cards + declarations + last trick); equal
points: the side that won the last trick, if it is one of them (option tie_last_trick).  The match goes to the
first side to win rounds_to_win rounds (3).

Tute cabrero (mode=cabrero, preset cabrero; players 3 to 6, each alone): dealt, played and
sung as above (three at the table: 13 each and a turned card; five: 8 each, the dealer's
last card shows trumps; six: 6 each, the four cards left over out of play, the last of them
turned for trumps), but a hand has losers, not a winner: a player who declares tute ends the
hand and everyone else loses; if one player takes every trick (capote) the others lose, or
he alone if he sang; else every player without a trick loses; else the middle (of three the
second, of four the second and third, of five the third, of six the third and fourth;
players tied on points share the places they cover).  Each loss is a mark; losses_out marks
(4) put a player out (no more cards, the turn passes him by), and the match ends when fewer
than three are left: they win it together.

Actions: play 1O, sing 40, sing 20 C, tute, exchange, pass."""

    def _validate(self) -> None:
        self.num_players = self.options["players"]
        self.cabrero = self.options["mode"] == "cabrero"
        """Tute cabrero: each alone, the middle loses, ``losses_out`` lost hands put a player out."""
        if self.cabrero and self.num_players == 2:
            raise OptionError("tute cabrero is for three to six players (option players 3..6), not two")
        if not self.cabrero and self.num_players > 4:
            raise OptionError(f"tute for {self.num_players} players is tute cabrero only (mode cabrero, "
                              "preset cabrero); pairs, habanero and three take 4, 2 or 3 players")
        self.partnerships = self.num_players == 4 and not self.cabrero
        sets = (KINGS, KNIGHTS, SOTAS) if self.options["tute_sotas"] else (KINGS, KNIGHTS)
        self.tute_sets: tuple[int, ...] = sets if self.options["tute"] else ()
        """The four cards of one rank that make tute in one hand (none when option ``tute`` is off)."""

    def pile_sizes(self, dealer: int, out: int = 0) -> list[int]:
        """The hands, one per seat (none for a cabrero seat ``out``, a bit mask of seats), then
        (six seats) the spare cards, then the trump card.

        All 40 cards go round the players in: 40 // m each.  When they deal evenly (four or
        five at the table) the last card dealt is the dealer's, shown for trumps (his hand
        pile is one short and the trump card is his).  Else (three: 13 each and one left;
        six: 6 each and four left) the last of the cards left over is turned for trumps, and
        it and the other spare cards (six at the table: three, unseen) stay out of play.
        Two players: two hands of 8, the trump upcard, then the 23 stock cards from the top.
        """
        n = self.num_players
        if n == 2:
            return [8, 8, 1] + [1] * 23
        playing = n - popcount(out)
        each, left = divmod(len(DECK), playing)
        hands = [0 if out >> seat & 1 else each - (not left and seat == dealer) for seat in range(n)]
        return hands + ([max(left - 1, 0)] if n == 6 else []) + [1]

    def deal_layouts(self, dealer: int) -> list[list[int]]:
        """Cabrero with four to six seats: the full table, or seats out (at least three play on)."""
        n = self.num_players
        layouts = [self.pile_sizes(dealer)]
        if self.cabrero and n >= 4:
            for out in range(1, 1 << n):
                if not out >> dealer & 1 and n - popcount(out) >= 3:
                    layouts.append(self.pile_sizes(dealer, out))
        return layouts

    def trump_held(self, playing: int) -> bool:
        """With ``playing`` players in the hand (three or more), whether the trump card is the
        dealer's last card (the deck deals evenly: four or five), else out of play."""
        return len(DECK) % playing == 0


class TuteState(TrumpTrickState):
    """A Tute match (or single round) in progress.

    ``scores`` counts rounds won per side (per seat without partners; in tute cabrero the
    hands each seat lost); ``hand_points`` are the last finished round's points per side:
    cards, declarations, last trick.
    """

    STRENGTH = STRENGTH
    game: Tute

    @classmethod
    def match_start(cls, game: Game, dealer: int) -> JSON:
        start: JSON = {"hand_number": 0, "dealer": dealer, "scores": [0] * game.num_sides, "previous": None}
        if isinstance(game, Tute) and game.cabrero:
            start["out_after"] = [None] * game.num_players
        return start

    @classmethod
    def check_scores(cls, game: Game, scores: Sequence[int]) -> list[int]:
        checked = super().check_scores(game, scores)
        if isinstance(game, Tute) and game.cabrero:
            limit = game.options["losses_out"]
            if min(checked) < 0 or max(checked) > limit:
                raise OptionError(f"Tute cabrero scores are lost hands, 0..{limit} per seat "
                                  f"({limit}: put out)")
            if sum(score < limit for score in checked) < 3:
                raise OptionError("Tute cabrero needs three players still in (scores below "
                                  f"{limit}) to deal a hand")
            return checked
        target = game.options["rounds_to_win"]
        if min(checked) < 0 or max(checked) >= target:
            raise OptionError(f"Tute scores are rounds won, 0..{target - 1} per side")
        return checked

    @classmethod
    def _check_start_fields(cls, game: Game, start: JSON, checked: JSON) -> JSON:
        if not (isinstance(game, Tute) and game.cabrero):
            return {}
        out_after = start["out_after"]
        limit = game.options["losses_out"]
        if not isinstance(out_after, list) or len(out_after) != game.num_players:
            raise OptionError(f"start out_after must be {game.num_players} entries, one per seat")
        for seat, (when, score) in enumerate(zip(out_after, checked["scores"], strict=True)):
            if when is None:
                continue  # still in, or (a hand dealt by new_hand) out since before the record
            if score < limit or type(when) is not int or not 0 <= when < checked["hand_number"]:
                raise OptionError(f"start out_after[{seat}] must be null or the hand a seat with "
                                  f"{limit} lost hands went out in (0..hand_number - 1)")
        if checked["scores"][checked["dealer"]] >= limit:
            raise OptionError("start dealer must be a seat still in the match")
        return {"out_after": list(out_after)}

    @classmethod
    def pile_sizes_at(cls, game: Game, start: JSON) -> list[int]:
        assert isinstance(game, Tute)
        return game.pile_sizes(start["dealer"], cls._out_mask_of(game, start))

    @staticmethod
    def _out_mask_of(game: Tute, start: JSON) -> int:
        """The seats put out of a cabrero match before this hand, as a bit mask."""
        if not game.cabrero:
            return 0
        limit = game.options["losses_out"]
        return sum(1 << seat for seat, score in enumerate(start["scores"]) if score >= limit)

    def _match_context(self) -> JSON:
        context: JSON = {
            "hand_number": self._start["hand_number"] + 1,
            "dealer": self._next(self._dealer),
            "scores": list(self._scores),
            "previous": self._previous,
        }
        if self.game.cabrero:
            context["out_after"] = list(self._out_after)
        return context

    def _next(self, seat: int) -> int:
        """The next player counter-clockwise (in cabrero, the next still in the match)."""
        seat = (seat - 1) % self.num_players
        while self._out >> seat & 1:
            seat = (seat - 1) % self.num_players
        return seat

    def _start_hand(self, start: JSON, deal: list[int]) -> None:
        n = self.num_players
        self._begin_context(start)
        game = self.game
        self._out = self._out_mask_of(game, start)
        """Seats put out of a cabrero match: no cards, no turn (a bit mask; 0 in other modes)."""
        self._out_after: list[int | None] = list(start["out_after"]) if game.cabrero else []
        self._playing = n - popcount(self._out)
        """Players in this hand: cards in a trick."""
        previous = start["previous"]
        self._hand_losers: list[int] | None = (
            list(previous["losers"]) if game.cabrero and previous and "losers" in previous else None)
        """Cabrero: who lost the last finished hand (kept into the next, as ``hand_points`` is)."""
        self._hands = list(deal[:n])
        self._spare = deal[n] if n == 6 else 0
        """A six-seat match with all six in: the three cards left over besides the trump card,
        unseen, out of play (none once a seat is out)."""
        if n >= 3:
            self._upcard = deal[-1]  # the trump card: the dealer's, or turned and out of play
            self._stock: list[int] = []
            if game.trump_held(self._playing):
                self._hands[self._dealer] |= deal[-1]
        else:
            self._upcard = deal[2]
            self._stock = list(deal[3:])
        self._trump = suit_of(self._upcard)
        self._trump_mask = SUIT_MASKS[self._trump]
        self._phase = PLAY_PHASE
        self._turn: int | None = self._next(self._dealer)
        self._leader: int = self._turn
        self._trick: list[tuple[int, int]] = []
        self._lead_mask = self._best_led = self._best_trump = 0  # the trick on the table
        self._gone = 0  # cards in finished tricks
        self._tricks: list[Trick] = []
        self._won = [0] * self.game.num_sides  # card points taken
        self._tricks_won = [0] * self.game.num_sides
        self._declarations: list[tuple[int, Action]] = []
        self._declared_suits = 0  # bit s: suit s has been sung
        self._sang_20 = [False] * self.game.num_sides  # the order rule (pairs: whole round)
        self._window_20 = False  # the order rule (two players: this pause only)
        self._exchanges: list[tuple[int, int, int]] = []  # (seat, card given, upcard taken)
        self._shown = [0] * n  # cards known to be in a seat's hand: sung, taken upcards
        if n >= 3 and game.trump_held(self._playing):
            self._shown[self._dealer] |= self._upcard
        self._forbidden = [0] * n  # cards a seat cannot hold, shown by its plays (pairs)
        self._history_forbidden: list[tuple[int, int, int]] = []  # (action index, seat, mask)
        self._window: list[int] = []  # seats still to be asked to declare (pairs)
        self._can_declare = False  # the seat to act may declare now
        self._tute_by: int | None = None
        self._last_trick_side: int | None = None

    # -- the public API ----------------------------------------------------------

    @property
    def trump(self) -> str:
        """The trump suit's letter."""
        return DECK.suits[self._trump].letter

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, the upcard included (two players)."""
        return len(self._stock) + (1 if self.num_players == 2 and self._upcard else 0)

    @property
    def stock(self) -> list[Card]:
        """Cards still to be drawn, in drawing order: the face-down stock from the top, then the
        upcard (two players; full information).  As long as ``stock_size``; empty in pairs."""
        if self.num_players != 2 or not self._upcard:
            return []
        return [self._card(b) for b in (*self._stock, self._upcard)]

    def side_points(self) -> list[int]:
        """Round points so far per side: cards taken, declarations, the last trick."""
        points = list(self._won)
        for seat, action in self._declarations:
            if action is not TUTE:
                points[self.game.side_of(seat)] += action.args[0]  # type: ignore[operator]
        if self._last_trick_side is not None:
            points[self._last_trick_side] += LAST_TRICK
        return points

    def legal_actions(self) -> list[Action]:
        if self._phase is OVER:
            return []
        seat: int = self._turn  # type: ignore[assignment]
        if self._phase is DECLARE_PHASE:
            declarations = self._declarations_for(seat)
            if declarations and self.game.options["must_declare"]:
                return declarations
            return [*declarations, PASS]
        out = PLAY.of(self._legal_plays(seat))
        if self._can_declare and not self._trick:
            out += self._declarations_for(seat)
        if self._exchange_card(seat):
            out.append(EXCHANGE)
        return out

    def _parse(self, text: str) -> Action:
        action = parse_action(text, DECK, KINDS, ())
        if action not in _VALID_ACTIONS:
            raise IllegalActionError(
                f"{text.strip()!r} is malformed: write 'play 1O', 'sing 40', 'sing 20 C', "
                f"'tute', 'exchange' or 'pass'")
        return action

    # -- duties ----------------------------------------------------------------

    def _tiers(self, seat: int) -> list[int]:
        """The duty tiers for the next card: the first tier the hand meets is what may be played.

        An empty list means anything may be played.  One list serves both the
        legal moves and what a play reveals (the tiers above it were empty).
        """
        if not self._trick:
            return []
        n = self.num_players
        if n == 2 and self.game.options["free_while_stock"] and self.stock_size:
            return []
        lead = self._lead_mask
        tiers = [BEATS[self._best_led], lead]
        if self.game.partnerships and self.game.options["partner_exception"]:
            if self._trick_winner() % 2 == seat % 2:
                return [lead]
        trumps = self._trump_mask
        if trumps != lead:
            if self._best_trump and (n == 2 or self.game.options["must_overtrump"]):
                tiers.append(BEATS[self._best_trump])
            tiers.append(trumps)
        return tiers

    def _legal_plays(self, seat: int) -> int:
        hand = self._hands[seat]
        for tier in self._tiers(seat):
            if hand & tier:
                return hand & tier
        return hand

    # -- declarations and the exchange -------------------------------------------

    def _declarations_for(self, seat: int) -> list[Action]:
        """The declarations ``seat`` may make now from its own hand."""
        hand = self._hands[seat]
        side = self.game.side_of(seat)
        out = []
        if self._tute_set(hand):
            out.append(TUTE)
        for s in range(4):
            pair = (1 << (16 * s + KING)) | (1 << (16 * s + KNIGHT))
            if hand & pair != pair or self._declared_suits >> s & 1:
                continue
            if s == self._trump:
                blocked = self._window_20 if self.num_players == 2 else self._sang_20[side]
                if not blocked:
                    out.insert(0 if not out or out[0] is not TUTE else 1, SING_40)
            else:
                out.append(SING_20[s])
        return out

    def _tute_set(self, hand: int) -> int:
        """The four reyes, caballos (or, with ``tute_sotas``, sotas) ``hand`` holds, or 0."""
        return next((four for four in self.game.tute_sets if hand & four == four), 0)

    def _declaration_possible(self) -> bool:
        """Whether anyone might still declare, by public knowledge only (so asking leaks nothing)."""
        gone = self._gone
        if any(not gone & four for four in self.game.tute_sets):
            return True
        for s in range(4):
            pair = (1 << (16 * s + KING)) | (1 << (16 * s + KNIGHT))
            if not self._declared_suits >> s & 1 and not gone & pair:
                return True
        return False

    def _exchange_card(self, seat: int) -> int:
        """The trump 7 or 2 this seat may exchange for the upcard now, or 0: before it leads, or
        (option ``exchange_anytime``) before any card it plays."""
        if self.num_players != 2 or self.stock_size <= 2 or self._phase is not PLAY_PHASE:
            return 0
        if self._trick and not self.game.options["exchange_anytime"]:
            return 0
        up = self._card(self._upcard).rank.value
        base = 16 * self._trump
        if up in SEVEN_UP:
            card = 1 << (base + 7)
        elif up in TWO_UP:
            card = 1 << (base + 2)
        else:
            return 0
        return card if self._hands[seat] & card else 0

    # -- applying actions ----------------------------------------------------------

    def _do(self, action: Action) -> None:
        if action not in _VALID_ACTIONS:
            raise IllegalActionError(f"{action.text!r} is malformed: not an action of Tute")
        if self._phase is OVER:
            raise IllegalActionError("the game is over")
        seat: int = self._turn  # type: ignore[assignment]
        kind = action.kind
        if self._phase is DECLARE_PHASE:
            if kind not in ("sing", "tute", "pass"):
                raise IllegalActionError(
                    f"{action} is not possible now: seat {seat} may declare (sing, tute) or pass",
                    code="not_now")
            if action is PASS:
                if self.game.options["must_declare"] and self._declarations_for(seat):
                    raise IllegalActionError(
                        f"seat {seat} cannot pass: declaring is compulsory (must_declare) and it holds "
                        f"{', '.join(a.text for a in self._declarations_for(seat))}")
                self._next_in_window()
            else:
                self._declare(seat, action)
            return
        if kind == "play":
            self._play(seat, action.mask)
        elif kind in ("sing", "tute"):
            if not self._can_declare or self._trick:
                raise IllegalActionError(
                    f"{action} is not possible now: declare only right after your side wins a trick"
                    + (" and while more than two cards are in the stock" if self.num_players == 2 else ""))
            self._declare(seat, action)
        elif kind == "exchange":
            card = self._exchange_card(seat)
            if not card:
                who = ("the player to move" if self.game.options["exchange_anytime"]
                       else "the player about to lead")
                raise IllegalActionError(
                    f"exchange is not possible now: {who} may exchange the 7 of trumps for an upcard "
                    "above 7, or the 2 for an upcard 7..4, while more than two cards are in the stock")
            self._hands[seat] ^= card | self._upcard
            self._shown[seat] |= self._upcard
            self._exchanges.append((seat, card, self._upcard))
            self._upcard = card
        else:
            raise IllegalActionError(f"{action} is not possible now: seat {seat} must play a card",
                                     code="not_now")

    def _declare(self, seat: int, action: Action) -> None:
        if action not in self._declarations_for(seat):
            raise IllegalActionError(self._why_not_declare(seat, action))
        self._declarations.append((seat, action))
        if action is TUTE:
            self._tute_by = seat
            self._finish_round()
            return
        suit = self._sung_suit(action)
        self._declared_suits |= 1 << suit
        self._shown[seat] |= (1 << (16 * suit + KING)) | (1 << (16 * suit + KNIGHT))
        if action is not SING_40:
            self._sang_20[self.game.side_of(seat)] = True
            self._window_20 = True

    def _why_not_declare(self, seat: int, action: Action) -> str:
        if action is TUTE:
            ranks = ("four reyes, four caballos or four sotas" if self.game.options["tute_sotas"]
                     else "four reyes or four caballos")
            return f"seat {seat} cannot declare tute: it needs {ranks} in hand"
        suit = self._sung_suit(action)
        name = DECK.suits[suit].name
        if action is not SING_40 and suit == self._trump:
            return f"{name} are trumps: sing 40 for them, not 20"
        if self._declared_suits >> suit & 1:
            return f"{name} have already been sung this round"
        if action is SING_40 and self._hands[seat] & self._pair(suit) == self._pair(suit):
            return "las cuarenta cannot follow a veinte: the higher declaration goes first"
        return f"seat {seat} does not hold the rey and caballo of {name}"

    def _sung_suit(self, action: Action) -> int:
        """The suit a ``sing`` declares: trumps for ``sing 40``, the named suit for ``sing 20 X``."""
        if action is SING_40:
            return self._trump
        suit = action.args[1]
        assert isinstance(suit, Suit)
        return suit.index

    def _why_not_play(self, seat: int, bit: int, tier: int) -> IllegalActionError:
        """Name the duty a card breaks: the first tier the hand meets and the card does not."""
        return self._trick_duty_error(
            seat, bit, tier, "must beat the best {suit} on the table: seat {seat} holds a higher one")

    @staticmethod
    def _pair(suit: int) -> int:
        return (1 << (16 * suit + KING)) | (1 << (16 * suit + KNIGHT))

    def _next_in_window(self) -> None:
        """The current seat is done declaring: ask the next member, or let the winner lead."""
        if self._window:
            self._turn = self._window.pop(0)
            return
        self._phase = PLAY_PHASE
        self._turn = self._leader
        self._can_declare = False

    def _play(self, seat: int, bit: int) -> None:
        hand = self._hands[seat]
        if not hand & bit:
            raise IllegalActionError(f"seat {seat} cannot play {self._card(bit)}: not in hand")
        self._check_duties(seat, hand, bit, self._tiers(seat))
        self._hands[seat] = hand ^ bit
        self._shown[seat] &= ~bit
        self._can_declare = False
        self._window_20 = False
        self._note_card(bit)
        trick = self._trick
        trick.append((seat, bit))
        if len(trick) < self._playing:
            self._turn = self._next(seat)
            return
        winner = self._trick_winner()
        side = self.game.side_of(winner)
        self._tricks.append((trick[0][0], tuple(trick), winner))
        self._tricks_won[side] += 1
        for _, b in trick:
            self._won[side] += POINTS[b]
            self._gone |= b
        self._trick = []
        if not any(self._hands) and not self._stock and not (self.num_players == 2 and self._upcard):
            self._last_trick_side = side
            self._finish_round()
            return
        if self._stock or (self.num_players == 2 and self._upcard):
            loser = 1 - winner
            self._hands[winner] |= self._draw(winner)
            self._hands[loser] |= self._draw(loser)
        self._leader = winner
        self._turn = winner
        self._open_window(winner)

    def _draw(self, seat: int) -> int:
        if self._stock:
            return self._stock.pop(0)
        card = self._upcard  # the last card drawn is the upcard, seen by all
        self._upcard = 0
        self._shown[seat] |= card
        return card

    def _open_window(self, winner: int) -> None:
        """After a trick: the winner's side may declare before the next lead."""
        if self.num_players == 2:
            self._can_declare = self.stock_size > 2
            return
        if not self._declaration_possible():
            self._can_declare = False
            return
        self._phase = DECLARE_PHASE
        self._window = [(winner + 2) % 4] if self.game.partnerships else []

    # -- the end of a round -------------------------------------------------------

    def _finish_round(self) -> None:
        if self.game.cabrero:
            self._finish_cabrero()
            return
        points = self.side_points()
        sides = self.game.num_sides
        if self._tute_by is not None:
            round_winner: int | None = self.game.side_of(self._tute_by)
        else:
            top = max(points)
            leaders = [s for s in range(sides) if points[s] == top]
            if len(leaders) == 1:
                round_winner = leaders[0]
            elif self.game.options["tie_last_trick"] and self._last_trick_side in leaders:
                round_winner = self._last_trick_side
            else:
                round_winner = None
        if round_winner is not None:
            self._scores[round_winner] += 1
        self._hand_points = points
        over = round_winner is not None and self._scores[round_winner] >= self.game.options["rounds_to_win"]
        if over:
            self._winner = round_winner
        self._close_hand({**self._hand_facts(points), "round_winner": round_winner,
                          "scores": list(self._scores)}, over)

    def _hand_facts(self, points: list[int]) -> JSON:
        """The start of a hand's result, the same in every mode (cabrero adds tricks per seat)."""
        return {
            "trump": self.trump,
            "points": points,
            "cards": list(self._won),
            **({"tricks": list(self._tricks_won)} if self.game.cabrero else {}),
            "declarations": [[s, a.text] for s, a in self._declarations],
            "last_trick": self._last_trick_side,
            "tute": self._tute_by,
            **({"out_of_play": self._card(self._upcard).text} if self._out_of_play() else {}),
        }

    def _out_of_play(self) -> bool:
        """The turned trump card lies out of play this hand (three or six at the table)."""
        return self.num_players >= 3 and not self.game.trump_held(self._playing)

    def _finish_cabrero(self) -> None:
        """Tute cabrero: who loses the hand, who is put out, whether the match is over."""
        points = self.side_points()
        losers = self._cabrero_losers(points)
        limit = self.game.options["losses_out"]
        number = self._start["hand_number"]
        put_out = []
        for seat in losers:
            self._scores[seat] += 1
            if self._scores[seat] >= limit:
                self._out_after[seat] = number
                self._out |= 1 << seat
                put_out.append(seat)
        self._hand_points = points
        self._hand_losers = losers
        still_in = self.num_players - popcount(self._out)
        over = still_in < 3
        if over:
            in_seats = [s for s in range(self.num_players) if not self._out >> s & 1]
            self._winner = in_seats[0] if len(in_seats) == 1 else None
        capote = None if self._tute_by is not None else next(
            (s for s in range(self.num_players) if self._tricks_won[s] == len(self._tricks)), None)
        self._close_hand({**self._hand_facts(points), "capote": capote, "losers": losers,
                          "put_out": put_out, "round_winner": None, "scores": list(self._scores)}, over)

    def _cabrero_losers(self, points: list[int]) -> list[int]:
        """The seats that lose a cabrero hand, in seat order.

        Tute declared: every other player loses.  A capote (one player took every trick):
        the others lose, unless he sang this hand, and then he alone loses.  Else every
        player without a trick loses.  Else
        the middle places lose (of three the second, of four the second and third, of five the
        third, of six the third and fourth), a
        player whose points tie with others sharing every place they cover.
        """
        seats = [s for s in range(self.num_players) if not self._out >> s & 1]
        if self._tute_by is not None:
            return [s for s in seats if s != self._tute_by]
        tricks = self._tricks_won
        capote = next((s for s in seats if tricks[s] == len(self._tricks)), None)
        if capote is not None:
            if any(who == capote for who, _ in self._declarations):
                return [capote]
            return [s for s in seats if s != capote]
        without = [s for s in seats if tricks[s] == 0]
        if without:
            return without
        m = len(seats)
        middle = {(m + 1) // 2} if m % 2 else {m // 2, m // 2 + 1}
        losers = []
        for s in seats:
            above = sum(points[o] > points[s] for o in seats)
            level = sum(points[o] == points[s] for o in seats)
            if any(above < place <= above + level for place in middle):
                losers.append(s)
        return losers

    @property
    def hand_losers(self) -> tuple[int, ...] | None:
        """Cabrero: the seats that lost the last finished hand (None in other modes, or before)."""
        return None if self._hand_losers is None else tuple(self._hand_losers)

    def hand_returns(self) -> list[float] | None:
        """Cabrero: each seat's payoff for the last finished hand, summing to zero: -1 to each
        loser, the others who played it sharing what the losers lose, 0 to seats out before it
        (and all 0 if every player lost).  None in other modes, or before a hand is finished."""
        losers = self._hand_losers
        if losers is None:
            return None
        n = self.num_players
        played = [s for s in range(n) if not self._out >> s & 1 or s in losers]
        if len(losers) == len(played):
            return [0.0] * n
        share = len(losers) / (len(played) - len(losers))
        return [-1.0 if s in losers else share if s in played else 0.0 for s in range(n)]

    @property
    def out(self) -> tuple[bool, ...]:
        """Per seat: put out of a cabrero match (always False in other modes)."""
        return tuple(bool(self._out >> s & 1) for s in range(self.num_players))

    @property
    def places(self) -> tuple[int, ...] | None:
        """Once a cabrero match is over, each seat's place (1 best, equal places shared): the
        seats still in share the first place, then those put out, the later the better.
        None before the end, and in other modes (read ``winner`` there)."""
        if not self.game.cabrero or self._phase is not OVER or self.single_hand:
            return None
        last = self._start["hand_number"] + 1
        rank = [last if not self._out >> s & 1 else -1 if when is None else when
                for s, when in enumerate(self._out_after)]
        return tuple(1 + sum(r > rank[s] for r in rank) for s in range(self.num_players))

    def returns(self) -> list[float]:
        """Each seat's payoff for the match so far, summing to zero: in cabrero, once over, every
        seat below the first place scores -1 and the first place shares what they lose; in other
        modes +1 to the winning side's seats and -1/(sides - 1) to the others.  0 while not over."""
        n = self.num_players
        places = self.places
        if places is not None:
            top = [s for s in range(n) if places[s] == 1]
            if len(top) == n:
                return [0.0] * n
            share = (n - len(top)) / len(top)
            return [share if places[s] == 1 else -1.0 for s in range(n)]
        if self._winner is None or self._phase is not OVER:
            return [0.0] * n
        sides = self.game.num_sides
        return [1.0 if self.game.side_of(s) == self._winner else -1.0 / (sides - 1) for s in range(n)]

    # -- what a seat may know ----------------------------------------------------------

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know, as a JSON-safe dict; ``seat=None`` gives public information only."""
        seat = self._check_viewer(seat)
        obs = self._header(seat) | {
            "trump": self.trump,
            "trump_card": self._card(self._upcard).text if self._upcard else None,
            "hand": [c.text for c in self._sorted(self._hands[seat] if seat is not None else 0)],
            "hand_sizes": [popcount(m) for m in self._hands],
            "shown": [[c.text for c in self._sorted(m)] for m in self._shown],
            "trick": self._table_json(),
            "tricks": [self._trick_json(t) for t in self._tricks],
            "tricks_won": list(self._tricks_won),
            "points": self.side_points(),
            "declarations": [[s, a.text] for s, a in self._declarations],
            "exchanges": [[s, self._card(g).text, self._card(t).text] for s, g, t in self._exchanges],
            "previous_hand": json_copy(self._previous),
            "winner": self._winner,
        }
        if self.num_players == 2:
            obs["stock_size"] = self.stock_size
        if self.game.cabrero:
            obs["out"] = list(self.out)
            obs["places"] = None if self.places is None else list(self.places)
        if seat is not None and seat == self._turn:
            obs["legal_actions"] = [a.text for a in self.legal_actions()]
        return obs

    @staticmethod
    def _sorted(mask: int) -> list[Card]:
        """Cards by suit (oros, copas, espadas, bastos), strongest first."""
        return [a.card for a in PLAY.of(mask) if a.card is not None]

    def sample_world(self, seat: int, rng: random.Random) -> TuteState:
        """A full state consistent with everything ``seat`` knows, hidden cards dealt anew.

        Known: the seat's own cards, every played card, the trump card, sung
        cards, exchanged and drawn upcards, the order of the cards the seat drew
        from the stock, and everything the duties reveal (voids, no higher card,
        no trump).  The world is replayed action by action, so it cannot break a
        rule; it then plays on with future deals of its own.

        Two players: the opponent's first hand and the stock are dealt so that
        each card it used was received before it was used
        (:func:`~tricktaker.sampling.fill_timed_slots`).
        """
        draw = self._try_world_two if self.num_players == 2 else self._try_world_dealt
        return self._sample(seat, rng, 500, draw)

    def _try_world_dealt(self, seat: int, rng: random.Random) -> TuteState | None:
        """Pairs and three players: every card dealt; the hidden ones are dealt anew.

        The trump card is known: in pairs it is the dealer's (shown); with three
        players it lies out of play, so it is passed as one more fixed pile that no
        seat is dealt from.
        """
        n = self.num_players
        held = self.game.trump_held(self._playing)  # the dealer's card; else out of play
        played = self._played_by()
        fixed = [(self._shown[s] & self._hands[s]) | played[s] for s in range(n)]
        fixed[seat] = self._hands[seat] | played[seat]
        trump_card = self._log[-1].deal[-1]
        spare = popcount(self._spare)
        hands = self._deal_hidden(seat, fixed if held else [*fixed, trump_card], self._forbidden, rng,
                                  spare=spare)
        if hands is None:
            return None
        if held:
            hands[self._dealer] &= ~trump_card
        piles = [*hands[:n], hands[-1] if spare else 0] if n == 6 else hands[:n]
        return self._replay_world([*piles, trump_card], rng)

    def _try_world_two(self, seat: int, rng: random.Random) -> TuteState | None:
        """Two players: deal the opponent's first hand and the stock so that the hand replays.

        What the seat saw: its own first hand and each card it drew (so their
        places in the stock), the upcard, and every card the opponent played,
        sang or gave in an exchange.  The opponent's cards come from its first
        hand or its draws; each one it used must have been there before it was
        used, and whatever it held must agree with the duties it showed.
        """
        log = self._log[-1]
        deal = log.deal
        other = 1 - seat
        # Replay the real hand to learn when each card was drawn, and by whom.
        draws: list[tuple[int, int, int]] = []  # (action index, seat, stock position)
        events: list[tuple[int, int]] = []  # (action index, card) the opponent used then
        from_up: dict[int, int] = {}  # card -> when the opponent first took it as the upcard
        probe = TuteState(self.game, log.start, seed=0, seeded=False, single_hand=True, deal=deal)
        position = 0
        for i, a in enumerate(log.actions):
            before = len(probe._stock) + (1 if probe._upcard else 0)
            mover = probe._turn
            up_before = probe._upcard
            probe._do(a)
            if mover == other and a is EXCHANGE:
                from_up.setdefault(up_before, i)
            if mover == other:
                if a.kind == "play":
                    events.append((i, a.mask))
                elif a.kind == "sing":
                    events.append((i, self._pair(probe._sung_suit(a))))
                elif a is TUTE:
                    events.append((i, probe._tute_set(probe._hands[other])))
                elif a is EXCHANGE:
                    events.append((i, probe._exchanges[-1][1]))
            after = len(probe._stock) + (1 if probe._upcard else 0)
            if after < before and a.kind == "play":
                winner = probe._tricks[-1][2]
                for who in (winner, 1 - winner):
                    if who == other and position == len(deal) - 3:  # the last draw: the upcard
                        from_up.setdefault(up_before, i)
                    draws.append((i, who, position))
                    position += 1
        # Slots: the opponent's first hand (time -1) and its draws (time of the draw).
        stock_cards = deal[3:]
        n_stock = len(stock_cards)
        slot_time = [-1] * 8
        slot_pos: list[int | None] = [None] * 8
        for i, who, pos in draws:
            if who == other and pos < n_stock:
                slot_time.append(i)
                slot_pos.append(pos)
        # Cards whose places the seat knows.
        known_draw_pos = {pos for _, who, pos in draws if who == seat and pos < n_stock}
        known = deal[seat]
        for pos in known_draw_pos:
            known |= stock_cards[pos]
        up_original = deal[2]
        pool_cards = DECK.mask & ~known & ~up_original
        # Each card the opponent used must sit in a slot it had before using it.
        used: dict[int, int] = {}
        for i, cards in events:
            for b in single_bits(cards):
                used.setdefault(b, i)
        # A card the opponent took as the upcard (by an exchange or the last draw) before it
        # first used it needs no slot; one it used before taking it (a 7 of trumps given
        # in an exchange and later taken back) came from its own cards.
        for b in list(used):
            if b == up_original or from_up.get(b, len(log.actions)) < used[b]:
                del used[b]
        forbid = [(i, m) for i, s, m in self._history_forbidden if s == other]
        # A card the seat itself passed on (an exchange) is not the opponent's to place.
        uses = [(b, i) for b, i in used.items() if b & pool_cards]
        stock_unseen = [p for p in range(n_stock) if p not in known_draw_pos and p not in slot_pos]
        got = fill_timed_slots(pool_cards, slot_time, uses, forbid, len(log.actions), len(stock_unseen), rng)
        if got is None:
            return None
        slots, rest = got
        unseen = single_bits(rest)
        rng.shuffle(unseen)
        new_stock = list(stock_cards)
        for p, b in zip(stock_unseen, unseen, strict=True):
            new_stock[p] = b
        opp_hand = 0
        for k, card in enumerate(slots):
            place = slot_pos[k]
            if place is None:
                opp_hand |= card
            else:
                new_stock[place] = card
        hands = [0, 0]
        hands[seat] = deal[seat]
        hands[other] = opp_hand
        return self._replay_world([*hands, up_original, *new_stock], rng)


Tute.state_class = TuteState
