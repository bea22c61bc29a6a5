"""What differs between the games: phases, action tables, blocks, and reading the spectator view.

Each family says which actions its game has (the fixed action table), which
public blocks it adds and how to fill them from ``state.observation(None)``.
:class:`TuppiFamily` also takes fast paths for its non-play actions (bids,
sooli answers, the discard and the give) and for the start and the end of a
hand: they write what the spectator view would show, from the action and the
state's public facts (dealer, scores, totals, the previous hand's points,
contract, declarer, soloist, the bids once shown, the last trick's winner),
and the cards only to the seats that see them; and it gives the env the legal
actions in parts (one kind of card action for a mask of cards, and the
others), so the action mask is made without listing them.  Nothing here reads
another seat's hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tricktaker.engine import Action, CardActions, Game, TrickState
from tricktaker.games.tuppi import TuppiState

from .layout import GLOBAL, SEAT, SIDE, Layout

if TYPE_CHECKING:
    from .encoding import Encoder, Writer

__all__ = ["FAMILIES", "Family", "HuutopussiFamily", "MarriageFamily", "TuppiFamily", "TuteFamily"]

JSON = dict[str, Any]
LegalParts = tuple[CardActions, int, tuple[Action, ...]]
"""Legal actions in parts: the actions of one kind for a mask of cards, then the others."""


class Family:
    """What differs between games: phases, action words, blocks and how to read the spectator view."""

    phases: tuple[str, ...] = ()
    direction = 1
    """+1 when play passes to seat + 1, -1 when it passes to seat - 1 (Tute)."""
    tricks_won_per = SEAT
    pick_kinds: tuple[str, ...] = ()
    """Action kinds whose legal actions are sets of cards: the env picks them card by card."""
    taken = True
    """Keep a block of the cards in each side's won tricks (card points matter)."""

    def action_texts(self, game: Game) -> list[str]:
        raise NotImplementedError

    def stock(self, game: Game) -> bool:
        """Cards are drawn from a stock after tricks (the draw changes hands privately)."""
        return False

    def trick_scale(self, game: Game) -> int:
        return len(game.deck) // game.num_players

    def score_scale(self, game: Game) -> float:
        raise NotImplementedError

    def points_scale(self, game: Game) -> float:
        raise NotImplementedError

    def max_decisions(self, game: Game) -> int:
        """An upper bound on the decisions in one hand: every card, and a call and its answer
        after every trick."""
        return len(game.deck) + 2 * (len(game.deck) // game.num_players)

    def reward_bound(self, game: Game) -> float:
        """The largest hand reward in absolute value (one side's points minus the others')."""
        return self.points_scale(game)

    def blocks(self, layout: Layout, game: Game) -> None:
        """Add the game's own public blocks (after the common ones)."""

    def private_blocks(self, layout: Layout, game: Game) -> None:
        """Add the game's own private blocks."""

    def decode(self, o: JSON, w: Writer) -> None:
        """Write the game's own public blocks from the spectator view ``o``."""

    def fast_nonplay(self, enc: Encoder, state: TrickState, actor: int, action: Action) -> bool:
        """Apply the public effect of a non-play action directly; False to read the spectator view."""
        return False

    def private_after(self, enc: Encoder, actor: int, action: Action) -> None:
        """Note what the actor alone knows about its own action."""

    def legal_parts(self, state: TrickState) -> Callable[[], LegalParts] | None:
        """A function of the state giving its legal actions in parts: the actions of one kind
        for a mask of cards, and the others (the action mask is made without listing them);
        or None (the mask is made from ``legal_actions``)."""
        return None

    def fast_hand_start(self, enc: Encoder, state: TrickState) -> bool:
        """A hand starts (every block is zero, the hands are read): write what its start shows
        everyone and the encoder's notes of the spectator view; False to read the view instead."""
        return False

    def fast_hand_end(self, enc: Encoder, state: TrickState) -> int | None:
        """The last card of the hand was played: write what the hand's end shows everyone
        besides the trick itself (scores, results) and return the trick's winner; None to read
        the spectator view instead."""
        return None


def _clip(value: float) -> float:
    return max(-1.0, min(1.0, value))


def _suits(game: Game) -> list[str]:
    return [s.letter for s in game.deck.suits]


class TuppiFamily(Family):
    phases: tuple[str, ...] = ("bid", "sooli", "discard", "give", "play", "over")
    taken = False

    def action_texts(self, game: Game) -> list[str]:
        cards = [c.text for c in game.deck.cards]
        return ([f"play {c}" for c in cards] + [f"bid {c}" for c in cards]
                + ["bid rami", "bid nolo", "sooli", "pass"]
                + [f"discard {c}" for c in cards] + [f"give {c}" for c in cards])

    def score_scale(self, game: Game) -> float:
        return float(game.options["target"])

    def points_scale(self, game: Game) -> float:
        return 56.0  # rami defenders taking all 13 tricks

    def max_decisions(self, game: Game) -> int:
        return 4 + 2 + 2 + len(game.deck)  # bids, sooli answers, discard and give, the cards

    def blocks(self, layout: Layout, game: Game) -> None:
        d = len(game.deck)
        layout.add("bids", SEAT, 4 + d, "per seat: bid made, bid shown, 'rami' said, 'nolo' said, "
                   "then the bid card once shown (one-hot over the deck)")
        layout.add("contract", GLOBAL, 3, "rami, nolo, sooli (one-hot; zero while bidding)")
        layout.add("declarer", SEAT, 1, "the rami bidder")
        layout.add("soloist", SEAT, 1, "the sooli player")
        layout.add("sooli_answers", SEAT, 2, "per seat: said sooli, said pass")
        layout.add("nousussa", SIDE, 1, "the side holding points")
        if game.options["hand_limit"]:
            layout.add("totals", SIDE, 1, "points collected while nousussa / target (tournament)")
            layout.add("hand_limit", GLOBAL, 1, "hands played / hand_limit (tournament)")

    def private_blocks(self, layout: Layout, game: Game) -> None:
        layout.add("my_bid", GLOBAL, 2 + len(game.deck),
                   "own bid: 'rami', 'nolo', then the bid card (one-hot)", public=False)

    def decode(self, o: JSON, w: Writer) -> None:
        bids = w.block("bids")
        for b in o["bids"]:
            seat, text = b["seat"], b["bid"]
            w.put(bids, seat, 0)
            if b["revealed"]:
                w.put(bids, seat, 1)
            if text == "rami":
                w.put(bids, seat, 2)
            elif text == "nolo":
                w.put(bids, seat, 3)
            elif text is not None:
                w.put(bids, seat, 4 + w.card(text))
        if o["contract"] is not None:
            w.put(w.block("contract"), None, ("rami", "nolo", "sooli").index(o["contract"]))
        w.one_hot("declarer", o["declarer"])
        w.one_hot("soloist", o["soloist"])
        answers = w.block("sooli_answers")
        for seat, text in o["sooli_answers"]:
            w.put(answers, seat, 0 if text == "sooli" else 1)
        if o["nousussa"] is not None:
            w.put(w.block("nousussa"), o["nousussa"], 0)
        if "totals" in o:
            for side, value in enumerate(o["totals"]):
                w.put(w.block("totals"), side, 0, w.clip(value / w.spec.score_scale))
            w.put(w.block("hand_limit"), None, 0, w.clip(o["hand_number"] / o["hand_limit"]))
        w.enc.trick_size = 3 if o["sitting_out"] is not None else 4

    def fast_nonplay(self, enc: Encoder, state: TrickState, actor: int, action: Action) -> bool:
        """Bids, sooli answers, the discard and the give, without reading the spectator view.

        What each shows everyone: a bid, that it was made (a bid card lies face
        down; a bid said aloud is heard); the fourth bid, the showing up to the
        first rami and the contract; a sooli answer, itself (and sooli makes the
        contract and the soloist); the discard and the give, nothing (only the
        soloist and his partner see the cards).
        """
        assert isinstance(state, TuppiState)
        kind = action.kind
        if kind == "bid":
            enc.fact("bids", actor, 0)
            if action.card is None and not state.game.options["bid_cards"]:
                enc.fact("bids", actor, 2 if action.args[0] == "rami" else 3)
            if state.phase != "bid":
                self._show_bids(enc, state)
            return True
        if kind == "sooli":
            enc.fact("sooli_answers", actor, 0)
            enc.fact("contract", None, 0, 0.0)
            enc.fact("contract", None, 2)
            enc.fact("soloist", actor, 0)
            enc.trick_size = 3
            return True
        if kind == "pass":
            enc.fact("sooli_answers", actor, 1)
            return True
        if kind in ("discard", "give"):
            enc.move_card(actor, state.soloist if kind == "give" else None, action.mask)
            return True
        return False

    @staticmethod
    def _show_bids(enc: Encoder, state: TuppiState) -> None:
        """After the fourth bid: the bids are shown in order up to the first rami (its bidder
        declares); with no rami all four are shown and the hand is nolo."""
        first = (state.dealer + 1) % 4
        declarer = state.declarer
        shown = 4 if declarer is None else (declarer - first) % 4 + 1
        card_index = enc.spec.card_index
        for seat, bid in state.bids[:shown]:  # (seat, bid) in bidding order, from the dealer's left
            enc.fact("bids", seat, 1)
            if bid.card is not None:
                enc.fact("bids", seat, 4 + card_index[bid.card.mask])
            else:
                enc.fact("bids", seat, 2 if bid.args[0] == "rami" else 3)
        enc.fact("contract", None, ("rami", "nolo").index(state.contract or ""))
        if declarer is not None:
            enc.fact("declarer", declarer, 0)
        enc.trick_size = 4

    def legal_parts(self, state: TrickState) -> Callable[[], LegalParts] | None:
        assert isinstance(state, TuppiState)
        return state.legal_parts

    def fast_hand_start(self, enc: Encoder, state: TrickState) -> bool:
        """A hand's start shows the dealer, the scores and nousussa, the previous hand's points,
        and with a hand limit the totals and the hands played; nothing else is public yet."""
        assert isinstance(state, TuppiState)
        spec = enc.spec
        fact = enc.fact
        fact("dealer", state.dealer, 0)
        if state.hand_number or any(state.scores):  # else every one of them is zero
            self._write_scores(enc, state)
        if "hand_limit" in spec.layout and state.hand_number:
            fact("hand_limit", None, 0, _clip(state.hand_number / state.game.options["hand_limit"]))
        enc.trick = []
        enc.won = [0] * spec.seats
        enc.sizes = [h.bit_count() for h in enc.hands]
        enc.lead_rule = False
        enc.trick_size = 4
        return True

    @staticmethod
    def _write_scores(enc: Encoder, state: TuppiState) -> None:
        """Scores, nousussa, the previous hand's points and the totals (with a hand limit), as the
        spectator view has them."""
        spec = enc.spec
        fact = enc.fact
        scale = spec.score_scale
        scores = state.scores
        nousussa = state.nousussa
        points = state.hand_points or (0, 0)
        for side in (0, 1):
            fact("scores", side, 0, _clip(scores[side] / scale))
            fact("nousussa", side, 0, 1.0 if side == nousussa else 0.0)
            fact("previous_points", side, 0, _clip(points[side] / spec.points_scale))
        if "totals" in spec.layout:
            totals = state.totals
            for side in (0, 1):
                fact("totals", side, 0, _clip(totals[side] / scale))

    def fast_hand_end(self, enc: Encoder, state: TrickState) -> int | None:
        """The end of a hand shows the last trick's winner (its trick joins the public list of
        tricks), the new scores and the hand's points (as the previous hand), nousussa and,
        with a hand limit, the totals; the hand number stays until the next hand starts."""
        assert isinstance(state, TuppiState)
        winner = state.last_trick_winner
        if winner is None or state.hand_points is None:
            return None
        self._write_scores(enc, state)
        return winner

    def private_after(self, enc: Encoder, actor: int, action: Action) -> None:
        if action.kind != "bid":
            return
        spec = enc.spec
        at = actor * spec.size + spec.layout["my_bid"].offset  # the actor's own row only
        if action.card is not None:
            enc.mv[at + 2 + spec.card_index[action.card.mask]] = 1.0
        else:
            enc.mv[at + (0 if action.args[0] == "rami" else 1)] = 1.0


class TuteFamily(Family):
    phases: tuple[str, ...] = ("play", "declare", "over")
    direction = -1
    tricks_won_per = SIDE

    def action_texts(self, game: Game) -> list[str]:
        return ([f"play {c.text}" for c in game.deck.cards] + ["sing 40"]
                + [f"sing 20 {s}" for s in _suits(game)] + ["tute", "exchange", "pass"])

    def stock(self, game: Game) -> bool:
        return game.num_players == 2

    def trick_scale(self, game: Game) -> int:
        # Tute cabrero: a table of four to six plays on with three when seats go out, 13 tricks
        return len(game.deck) // (3 if getattr(game, "cabrero", False) else game.num_players)

    def score_scale(self, game: Game) -> float:
        # rounds won, or (Tute cabrero) lost hands, of which losses_out put a seat out
        return float(game.options["losses_out" if getattr(game, "cabrero", False) else "rounds_to_win"])

    def points_scale(self, game: Game) -> float:
        return 230.0  # 130 in cards and the last trick, 100 in declarations

    def reward_bound(self, game: Game) -> float:
        if getattr(game, "cabrero", False):
            # a hand pays -1 per loser, the others sharing: at most n - 1 to the one who did not lose
            return float(game.num_players - 1)
        return self.points_scale(game)

    def max_decisions(self, game: Game) -> int:
        # every card; a pass or two after each trick; five declarations; two exchanges (Tute
        # cabrero: a table of four may play on with three, 13 tricks)
        at_table = 3 if getattr(game, "cabrero", False) else game.num_players
        return len(game.deck) + 2 * (len(game.deck) // at_table) + 5 + 2

    def blocks(self, layout: Layout, game: Game) -> None:
        d = len(game.deck)
        layout.add("trump", GLOBAL, 4, "trump suit (one-hot, deck suit order)")
        layout.add("trump_card", GLOBAL, d, "the face-up trump card (pairs: the dealer's last card; "
                   "two players: the upcard, until it is drawn)")
        layout.add("shown", SEAT, d, "cards known to be in each hand: sung, taken face up")
        layout.add("declarations", SEAT, 6, "per seat: sang 40, sang 20 in each suit, declared tute")
        layout.add("exchanges", SEAT, 1, "exchanges of the trump 7 or 2 for the upcard / 2")
        if game.num_players == 2:
            layout.add("stock", GLOBAL, 1, "cards left in the stock, the upcard included / 24")

    def decode(self, o: JSON, w: Writer) -> None:
        # Tute cabrero: a seat put out plays no more, so three cards make a trick at four seats
        w.enc.trick_size = o["players"] - sum(o.get("out") or ())
        w.put(w.block("trump"), None, w.suit(o["trump"]))
        if o["trump_card"]:
            w.put(w.block("trump_card"), None, w.card(o["trump_card"]))
        w.seat_cards("shown", o["shown"])
        decl = w.block("declarations")
        for seat, text in o["declarations"]:
            words = text.split()
            if words[0] == "tute":
                w.put(decl, seat, 5)
            elif words[1] == "40":
                w.put(decl, seat, 0)
            else:
                w.put(decl, seat, 1 + w.suit(words[2]))
        ex = w.block("exchanges")
        for seat, _, _ in o["exchanges"]:
            w.add(ex, seat, 0, 0.5)
        if "stock_size" in o:
            w.put(w.block("stock"), None, 0, o["stock_size"] / 24)


class MarriageFamily(Family):
    """Calls, marriages and trumps: the Marjapussi family; Huutopussi adds its auction."""

    phases: tuple[str, ...] = ("play", "answer", "over")
    tricks_won_per = SIDE

    def call_texts(self, game: Game) -> list[str]:
        suits = _suits(game)
        return ([f"declare {s}" for s in suits] + ["ask whole"] + [f"ask half {s}" for s in suits]
                + [f"answer {s}" for s in suits] + ["answer no"])

    def action_texts(self, game: Game) -> list[str]:
        return [f"play {c.text}" for c in game.deck.cards] + self.call_texts(game)

    def stock(self, game: Game) -> bool:
        return getattr(game, "layout", "hands") == "stock"

    def score_scale(self, game: Game) -> float:
        return float(getattr(game, "target", 12))

    def points_scale(self, game: Game) -> float:
        return 8.0  # trumps 2, three little marriages, last trick, pip point (single hands: no carry)

    def blocks(self, layout: Layout, game: Game) -> None:
        self.marriage_blocks(layout, game)
        d = len(game.deck)
        layout.add("lead_rule", GLOBAL, d, "cards the next lead must come from if the leader holds one")
        layout.add("carry", GLOBAL, 1, "pip points carried over / 4")
        if self.stock(game):
            layout.add("stock", GLOBAL, 1, "cards left in the stock / 12")
        if getattr(game, "layout", "hands") == "rows":
            layout.add("rows", SEAT, d + 7, "per seat: its face-up cards, then which of its 7 "
                       "columns still have a face-down card")

    def marriage_blocks(self, layout: Layout, game: Game) -> None:
        d = len(game.deck)
        layout.add("trump", GLOBAL, 4, "trump suit (one-hot, deck suit order; zero: no trumps yet)")
        layout.add("shown", SEAT, d, "cards known to be in each hand: declared or answered marriages")
        layout.add("calls", SEAT, 14, "per seat: declared S H D C, asked whole, asked half S H D C, "
                   "answered S H D C, answered no")
        layout.add("marriages", SEAT, 4, "per seat: marriages made in S H D C")

    def decode(self, o: JSON, w: Writer) -> None:
        self.decode_marriages(o, w)
        if o["lead_rule"]:
            w.seat_cards("lead_rule", [o["lead_rule"]], single=True)
            w.enc.lead_rule = True
        w.put(w.block("carry"), None, 0, w.clip(o["carry"] / 4))
        if "stock_size" in o:
            w.put(w.block("stock"), None, 0, o["stock_size"] / 12)
        if "rows" in o:
            rows = w.block("rows")
            d = len(w.spec.cards)
            for seat, row in enumerate(o["rows"]):
                for k, (up, down) in enumerate(row):
                    if up:
                        w.put(rows, seat, w.card(up))
                    if down:
                        w.put(rows, seat, d + k)

    def decode_marriages(self, o: JSON, w: Writer) -> None:
        if o["trump"]:
            w.put(w.block("trump"), None, w.suit(o["trump"]))
        w.seat_cards("shown", o["shown"])
        calls = w.block("calls")
        for seat, text in o["calls"]:
            words = text.split()
            if words[0] == "declare":
                j = w.suit(words[1])
            elif words[0] == "ask":
                j = 4 if words[1] == "whole" else 5 + w.suit(words[2])
            else:
                j = 13 if words[1] == "no" else 9 + w.suit(words[1])
            w.put(calls, seat, j)
        married = w.block("marriages")
        for seat, suit, _ in o["marriages"]:
            w.put(married, seat, w.suit(suit))


class HuutopussiFamily(MarriageFamily):
    phases: tuple[str, ...] = ("bid", "give", "raise", "return", "discard", "play", "answer", "over")
    pick_kinds = ("give", "discard")

    def bid_range(self, game: Game) -> tuple[int, int]:
        """The lowest and highest bid, read from a fresh hand's opening (no rule copied here)."""
        values = [a.args[0] for a in game.new_hand(seed=0).legal_actions() if a.kind == "bid"]
        numbers = [v for v in values if isinstance(v, int)]
        return min(numbers), max(numbers)

    def action_texts(self, game: Game) -> list[str]:
        low, high = self.bid_range(game)
        cards = [c.text for c in game.deck.cards]
        return ([f"play {c}" for c in cards] + self.call_texts(game)
                + [f"bid {v}" for v in range(low, high + 1, 5)] + ["pass", "redeal"]
                + [f"raise {v}" for v in range(low + 5, high + 1, 5)]
                + [f"pick give {c}" for c in cards] + [f"pick discard {c}" for c in cards])

    def stock(self, game: Game) -> bool:
        return False

    def score_scale(self, game: Game) -> float:
        return 500.0

    def points_scale(self, game: Game) -> float:
        return 500.0

    def max_decisions(self, game: Game) -> int:
        low, high = self.bid_range(game)
        bids = (high - low) // 5 + 1 + 2 * game.num_players  # each level once; passes and redeals
        sets: int = 2 * game.options["exchange"] + 1 if game.num_players == 4 else game.options["kitty"] + 1
        # (the picks of the give and the return, or of the discard, and the raise)
        return bids + sets + super().max_decisions(game)

    def reward_bound(self, game: Game) -> float:
        # a failed contract pays it and the opening bid; the others may take the most a hand gives
        return 3.0 * self.bid_range(game)[1]

    def blocks(self, layout: Layout, game: Game) -> None:
        layout.add("last_bid", SEAT, 1, "each seat's last bid / the highest bid possible")
        layout.add("passed", SEAT, 1, "has passed")
        layout.add("redeal", SEAT, 1, "demanded a new deal (three sixes)")
        layout.add("high_bid", GLOBAL, 1, "the high bid / the highest bid possible")
        layout.add("high_bidder", SEAT, 1, "who holds the high bid")
        layout.add("declarer", SEAT, 1, "who won the auction")
        layout.add("opening_bid", GLOBAL, 1, "the high bid when the auction ended / the highest possible")
        layout.add("contract", GLOBAL, 1, "the contract after the raise / the highest possible")
        if game.num_players != 4:  # (two players: the dead third hand is never seen, so no block)
            layout.add("kitty", GLOBAL, len(game.deck), "the kitty, shown when the auction ends "
                       "(with kitty_shown off: to the declarer only)")
        self.marriage_blocks(layout, game)

    def decode(self, o: JSON, w: Writer) -> None:
        top = float(w.spec.bid_high)
        last, passed, redeal = w.block("last_bid"), w.block("passed"), w.block("redeal")
        for seat, text in o["auction"]:
            words = text.split()
            if words[0] == "bid":
                w.put(last, seat, 0, int(words[1]) / top)
            elif words[0] == "pass":
                w.put(passed, seat, 0)
            else:
                w.put(redeal, seat, 0)
        if o["high_bid"]:
            w.put(w.block("high_bid"), None, 0, o["high_bid"] / top)
        w.one_hot("high_bidder", o["high_bidder"])
        w.one_hot("declarer", o["declarer"])
        if o["opening_bid"]:
            w.put(w.block("opening_bid"), None, 0, o["opening_bid"] / top)
        if o["contract"]:
            w.put(w.block("contract"), None, 0, o["contract"] / top)
        if o.get("kitty"):
            w.seat_cards("kitty", [o["kitty"]], single=True)
        self.decode_marriages(o, w)


FAMILIES: Mapping[str, Family] = {
    "tuppi": TuppiFamily(),
    "tute": TuteFamily(),
    "marjapussi": MarriageFamily(),
    "bondtolva": MarriageFamily(),
    "avomarjapussi": MarriageFamily(),
    "huutopussi": HuutopussiFamily(),
}


