"""Huutopussi in the terminal: the auction, the exchange or the kitty, changing trumps; 4, 3 or 2 players.

One screen serves every table size: with four players (``players=4``) partners
sit opposite and the declarer's partner gives him 3 cards (option exchange: 4),
he may raise and gives as many back; with three (``players=3``) everyone plays
alone, the kitty is shown after the auction, and the declarer takes it, may
raise and discards 3 cards (no aces or tens); two (``players=2``) play as
three with the third hand dead, never shown (only a replay shows it).

The auction is the long part of the choice list (bids from 50 to 440 in
fives): it is shown as a range and a few numbered choices, and the person types
a bid as a bare number (``120``), ``p`` to pass or ``redeal``.  Cards to give or
discard are typed by name (``9h 7c 6d``) or by their numbers in the hand
(``1 5 7``); the card sets on offer (84 to a few hundred) are never listed.

Everything shown comes from ``observation(seat)``: the exchanged cards only to
the two partners who swapped them, the discard only to the declarer (and to all
in the hand's result, where the engine makes it public).  Replays show every
card, since a record holds every deal anyway.
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..cards import CardParseError
from ..engine import JSON, Action, Game, IllegalActionError
from ..games.huutopussi import STEP, TARGET, Huutopussi
from ..games.marriages import PLAY
from .common import Seats, capital, join, pct
from .marriages import MarriageScreen
from .screen import SimStats, public, replay_steps, state_at_hand_start

__all__ = ["HuutopussiScreen", "HuutopussiStats"]

_NUMBER = re.compile(r"^\d+$")
_BID = re.compile(r"^(?:b|bid)\s*(\d+)$")
_RAISE = re.compile(r"^(?:r|raise)\s*(\d+)$")
_PASS = re.compile(r"^(?:p|pass|no|n)$")
_KEEP = re.compile(r"^(?:p|pass|k|keep|no|n)$")
_REDEAL = re.compile(r"^(?:r|redeal)$")
PLAY_PHASES = ("play", "answer", "over")
"""The phases after the exchange (or the discard): the play, an answer, the end."""


def bid_value(text: str) -> int:
    """The number of ``bid 120`` / ``raise 150``."""
    return int(text.split()[1])


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


class HuutopussiScreen(MarriageScreen):
    """Renders a Huutopussi observation (four, three or two players), at the table and in replays."""

    HELP_MOVES = """\
  a bid       a number: 120 bids 120 (or bid 120); p or pass leaves the
              auction for good; redeal (holding three sixes, at your first bid)
  a raise     a number above the contract: 150 (or raise 150); keep or pass
              keeps the contract
  cards       to give or discard: their names, 9h 7c 6d, or their numbers
              in your hand, 1 5 7
  a number    in the auction and the raise: a small number picks a numbered
              choice (1, 2, 3); in play: the number next to a card or a call
  a card      as, th, 10h: plays that card
  a call      d h or declare hearts: declare the marriage (K+Q) of hearts;
              four players: whole asks your partner for a whole marriage,
              half h for the other half of hearts
  an answer   no, or the suit: hearts, a h (when your partner asks you)
  an action   bid 120, pass, redeal, give 9H 7C 6D, raise 150, discard 9H 7C 6D,
              play AS, declare H, ask whole, ask half H, answer H, answer no"""
    ACTION_WORDS = ("play", "declare", "ask", "answer", "half", "bid", "pass", "redeal", "give", "raise",
                    "discard")

    def __init__(self, console: Console, game: Game, seats: Seats) -> None:
        super().__init__(console, game, seats)
        assert isinstance(game, Huutopussi), game
        self.huuto = game
        deck = game.deck
        self.card_points = {c.text: game.card_values[c.mask] for c in deck.cards}
        self.marriage_points = {s.letter: game.marriage_values[s.index] for s in deck.suits}
        self.max_bid: int = game.max_bid
        self.exchange: int = game.options["exchange"]
        self.kitty: int = game.kitty_size
        """Three or two players: the cards in the kitty and in the discard (3 or 6)."""
        self._hand: list[str] = []
        """The person's hand as last shown: what the numbers typed while giving or discarding mean."""

    # -- what kind of table ------------------------------------------------------------------

    @property
    def three(self) -> bool:
        """Three players, or two: each alone, with a kitty (no partners, no exchange)."""
        return self.game.num_players != 4

    def points_of(self, cards: Sequence[str]) -> int:
        return sum(self.card_points[c] for c in cards)

    def trick_worth(self, cards: Sequence[Sequence[Any]]) -> str:
        points = self.points_of([str(c) for _, c in cards])
        return f"{points} point{'s' if points != 1 else ''}"

    def banned(self, scores: Sequence[int], side: int) -> bool:
        """A side under the bid ban (-500 or below) may not bid (a forced opening is still the lowest bid)."""
        return scores[side] <= self.huuto.bid_floor and not self.game.options["bid_ban_reopen"]

    def forced_opening_words(self) -> str:
        """``the dealer's opening`` (the default rules) or ``a forced opening``."""
        options = self.game.options
        default = options["forced_opening"] and options["opener"] == "dealer"
        return "the dealer's opening" if default else "a forced opening"

    def values_text(self) -> str:
        """The marriage values, lowest first: ``♠40 ♣60 ♦80 ♥100``."""
        order = sorted(self.marriage_points, key=lambda letter: self.marriage_points[letter])
        return " ".join(f"{self.look.suit_label(letter).plain}{self.marriage_points[letter]}"
                        for letter in order)

    def side_points(self, values: Sequence[int], sign: bool = False) -> Text:
        """One number per side, own side first; ``sign``: ``+25`` / ``-440``."""
        seats = self.seats
        shown = [signed(v) if sign else str(v) for v in values]
        return join(Text.assemble(f"{seats.side(s)} ", (shown[s], "bold")) for s in seats.side_order)

    # -- the status panel ----------------------------------------------------------------------

    def match_target(self) -> str:
        return f"first above {TARGET}" if self.game.options["win_by"] == "exceeding" else f"first to {TARGET}"

    def match_line(self, obs: JSON) -> Text:
        scores = obs["scores"]
        line = self.standing(scores)
        banned = [self.seats.side(s) for s in self.seats.side_order if self.banned(scores, s)]
        waiting = [self.seats.side(s) for s in self.seats.side_order if scores[s] <= self.huuto.bid_floor]
        if self.game.options["bid_ban_reopen"] and waiting and len(waiting) < len(scores):
            line.append(f"   {self.huuto.ban_text}, asked only if all the others pass: "
                        f"{', '.join(waiting)}", style="yellow")
        if banned:
            line.append(f"   {self.huuto.ban_text}, may not bid: {', '.join(banned)}",
                        style="yellow")
        return line

    def bid_text(self, seat: int, text: str, opening: bool = False) -> Text:
        """One auction entry: ``Left 120``, ``Partner pass``, ``Right redeal``."""
        part = Text(f"{self.name(seat)} ")
        words = text.split()
        if words[0] == "bid":
            part.append(words[1], style="bold")
            if opening:
                part.append(" (opens)", style="dim")
        elif words[0] == "pass":
            part.append("pass", style="dim")
        else:
            part.append(words[0], style="bold yellow")
        return part

    def auction_line(self, auction: Sequence[Sequence[Any]]) -> Text:
        if not auction:
            return Text("no bid yet", style="dim")
        return join(self.bid_text(int(s), str(t), opening=i == 0) for i, (s, t) in enumerate(auction))

    def high_line(self, obs: JSON) -> Text:
        high, bidder = obs["high_bid"], obs["high_bidder"]
        if bidder is None:
            opener = self.huuto.opener(obs["dealer"])
            must = "must" if self.game.options["forced_opening"] else "may"
            lowest = self.huuto.min_bid
            return Text(f"none yet: {self.seats.says(opener, 'opens', 'open')} at {lowest} or more "
                        f"({'the dealer' if opener == obs['dealer'] else 'left of the dealer'} {must})",
                        style="dim")
        line = Text(str(high), style="bold")
        line.append(f" by {self.seats.noun(bidder)}")
        return line

    def passed_line(self, obs: JSON) -> Text:
        out = [self.name(s) for s in self.seats.seat_order if obs["passed"][s]]
        if not out:
            return Text("nobody yet", style="dim")
        return Text(", ".join(out)).append("   (out of the auction for good)", style="dim")

    def next_bid_line(self, obs: JSON) -> Text:
        turn = obs["current_player"]
        opening = obs["high_bidder"] is None
        lowest = self.huuto.min_bid
        low = lowest if opening else obs["high_bid"] + STEP
        who = "you" if turn == self.seats.me else self.name(turn)
        legal = obs.get("legal_actions")
        forced = legal is not None and "pass" not in legal
        ban = self.huuto.ban_text
        if self.banned(obs["scores"], self.seats.side_of(turn)):
            if opening and (forced or legal is None):
                return Text(f"{who}: {lowest} only ({ban}, a forced opening still is)",
                            style="yellow")
            return Text(f"{who}: pass only ({ban}: no bids)", style="yellow")
        line = Text(f"{who}: ")
        line.append(f"{low}", style="bold")
        line.append(f"..{self.max_bid} in fives" if low < self.max_bid else " (the most there is)")
        if not forced:
            line.append(", or pass")
        return line

    def contract_line(self, obs: JSON) -> Text:
        declarer = obs["declarer"]
        contract = obs["contract"]
        side = self.seats.side_of(declarer)
        line = Text(str(contract), style="bold")
        if obs["opening_bid"] != contract:
            line.append(f" (bid {obs['opening_bid']}, raised)", style="dim")
        elif obs["phase"] in ("give", "raise") and self.seats.me is not None:
            line.append(" (the declarer may still raise)", style="dim")
        line.append(f"   declarer {self.seats.noun(declarer)}")
        if self.partners:
            line.append(f": {self.seats.side_members(side)}")
        return line

    def progress_line(self, obs: JSON) -> Text:
        """Points taken per side, and how far the declarers are from the contract."""
        seats = self.seats
        points = list(obs["points"])
        line = self.side_points(points)
        declarer = obs["declarer"]
        if declarer is None:
            return line
        side = seats.side_of(declarer)
        have = points[side]
        extra = ""
        discard = obs.get("discard")
        if self.three and seats.me == declarer and discard:
            have += self.points_of(discard)
            extra = f" (with your discard's {self.points_of(discard)})"
        elif self.three and declarer != seats.me and obs["phase"] in PLAY_PHASES:
            extra = " (and the discard, unseen)"
        contract = obs["contract"]
        who, _ = self.side_subject(side)
        if have >= contract:
            line.append(f"   {who}: {have} of {contract}{extra}, made", style="green")
        else:
            line.append(f"   {who}: {have} of {contract}{extra}, {contract - have} to go", style="dim")
        return line

    def tricks_line(self, obs: JSON) -> Text:
        line = self.seats.per_side(obs["tricks_won"], bold=False)
        line.append(f"   last trick +{self.huuto.last_trick}", style="dim")
        return line

    def exchange_line(self, obs: JSON) -> Text:
        """Four players: the exchange as this seat saw it (the cards only for the two who swapped)."""
        seats, look = self.seats, self.look
        declarer = obs["declarer"]
        partner = self.partner_of(declarer)
        phase = obs["phase"]
        size = self.exchange
        given, returned = obs["given"], obs["returned"]
        if phase == "give":
            return Text(f"{capital(seats.says(partner, 'gives', 'give'))} {self.obj(declarer)} {size} cards "
                        f"first", style="dim")
        back_done = phase in PLAY_PHASES
        if given is None:  # an opponent: nothing seen
            line = Text(f"{self.name(partner)} gave {self.name(declarer)} {size} cards")
            line.append(f"; {self.name(declarer)} gave {size} back" if back_done else
                        f"; {self.name(declarer)} gives {size} back", style="")
            line.append("   (face down)", style="dim")
            return line
        if seats.me == declarer:
            gave, back, pending = (f"{self.name(partner)} gave you ", "; you gave back ",
                                   f"; you give {size} back")
        else:
            gave, back, pending = (f"you gave {self.name(declarer)} ", "; received back ",
                                   f"; {self.name(declarer)} gives {size} back")
        line = Text(gave).append_text(look.cards(given))
        if back_done:
            line.append(back).append_text(look.cards(returned))
        else:
            line.append(pending, style="dim")
        return line

    def kitty_line(self, obs: JSON) -> Text:
        if obs["kitty"] is None:
            return Text(f"{self.kitty} cards, unseen: taken by {self.obj(obs['declarer'])}", style="dim")
        line = self.look.cards(obs["kitty"])
        line.append(f"   taken by {self.obj(obs['declarer'])}", style="dim")
        return line

    def discard_line(self, obs: JSON) -> Text:
        declarer = obs["declarer"]
        discard = obs.get("discard")
        if obs["phase"] in ("raise", "discard"):
            return Text(f"{capital(self.seats.says(declarer, 'discards', 'discard'))} {self.kitty} next "
                        f"(no aces or "
                        f"tens); they count for {self.obj(declarer)}", style="dim")
        if discard:
            line = self.look.cards(discard)
            line.append(f"   {self.points_of(discard)} points, counted for you at the end", style="dim")
            return line
        return Text(f"{self.kitty} cards, face down: they count for {self.name(declarer)} at the end",
                    style="dim")

    def trumps_line(self, obs: JSON) -> Text:
        """The trump history: ``no trumps → ♣ 60 → ♥ 100``, the trumps now in bold."""
        marriages = obs["marriages"]
        if not marriages:
            return Text("none yet: every marriage makes its suit trumps", style="dim")
        line = Text("no trumps", style="dim")
        for i, (_, letter, value) in enumerate(marriages):
            line.append(" → ", style="dim")
            last = i == len(marriages) - 1
            label = self.suit(str(letter)) if last else self.look.suit_label(str(letter))
            if last:
                label.stylize("bold")
            line.append_text(label)
            line.append(f" {value}", style="" if last else "dim")
        seat = int(marriages[-1][0])
        line.append(f"   by {self.obj(seat)}", style="dim")
        return line

    def marriage_text(self, seat: int, letter: str, value: int) -> Text:
        """``♥ 100: Partner, Us``; three players: ``♥ 100: Left``."""
        out = Text.assemble(self.look.suit_label(letter), (f" {value}", "bold"), f" {self.name(seat)}")
        if self.partners:
            out.append(f", {self.seats.side(self.seats.side_of(seat))}", style="dim")
        return out

    def status(self, obs: JSON) -> Panel:
        """The table as the seat sees it: the match, the auction or the contract, the exchange, the play."""
        grid = self.grid()
        phase = obs["phase"]
        grid.add_row("Match", self.match_line(obs))
        if phase == "bid":
            grid.add_row("Auction", self.auction_line(obs["auction"]))
            grid.add_row("High bid", self.high_line(obs))
            grid.add_row("Passed", self.passed_line(obs))
            if obs["current_player"] is not None:
                grid.add_row("Next bid", self.next_bid_line(obs))
        elif obs["declarer"] is not None:
            grid.add_row("Auction", self.auction_line(obs["auction"]))
            grid.add_row("Contract", self.contract_line(obs))
            if self.three:
                grid.add_row("Kitty", self.kitty_line(obs))
                grid.add_row("Discard", self.discard_line(obs))
            else:
                grid.add_row("Exchange", self.exchange_line(obs))
        elif self.three and phase in PLAY_PHASES:  # no contract: the kitty stays out of play
            kitty = obs["kitty"]
            grid.add_row("Kitty", Text.assemble(self.look.cards(kitty), ("   out of play", "dim")) if kitty
                         else Text(f"{self.kitty} cards, unseen and out of play", style="dim"))
        if phase in PLAY_PHASES:
            grid.add_row("Trumps", self.trumps_line(obs))
            if obs["marriages"]:
                grid.add_row("Marriages", self.marriages_line(obs["marriages"]))
            if any(str(text).startswith("ask") for _, text in obs["calls"]):
                grid.add_row("Calls", self.calls_line(obs["calls"]))
            grid.add_row("Points", self.progress_line(obs))
            grid.add_row("Tricks", self.tricks_line(obs))
            known = self.known_line(obs)
            if known is not None:
                grid.add_row("Known", known)
            grid.add_row("Table", self.table_line(obs))
        return self.status_panel(grid, obs)

    # -- the person's turn ---------------------------------------------------------------------

    def received(self, obs: JSON) -> tuple[str, list[str]]:
        """The cards this seat just received, still in hand (to highlight), and where they came from."""
        me = obs["seat"]
        declarer = obs["declarer"]
        if declarer is None or obs["tricks"] or me is None:
            return "", []
        hand = set(obs["hand"])
        if self.three:
            if me == declarer and obs["kitty"]:
                return "from the kitty", [c for c in obs["kitty"] if c in hand]
            return "", []
        if me == declarer and obs["given"]:
            return f"from {self.name(self.partner_of(me))}", [c for c in obs["given"] if c in hand]
        if me == self.partner_of(declarer) and obs["returned"]:
            return f"back from {self.name(declarer)}", [c for c in obs["returned"] if c in hand]
        return "", []

    def numbered(self, obs: JSON) -> list[str]:
        """Giving or discarding, the cards that carry a number (typing 1 5 7 picks three of them):
        the whole hand, or for the discard all but the aces and tens."""
        if obs["phase"] not in ("give", "return", "discard") or obs["current_player"] != obs["seat"]:
            return []
        if obs["phase"] == "give" or obs["phase"] == "return":
            return list(obs["hand"])
        deck = self.game.deck
        return [c for c in obs["hand"] if deck.card(c).rank.value not in (14, 10)]

    def hand_rows(self, obs: JSON, legal: Sequence[Action]) -> Table:
        """The hand by suit: cards received highlighted; numbered to play, or all numbered to give."""
        _, new = self.received(obs)
        numbered = self.numbered(obs)
        if numbered:
            number = {text: i for i, text in enumerate(numbered, 1)}
        else:
            number = {a.card.text: i for i, a in enumerate(legal, 1)
                      if a.card is not None and a.kind == "play"}
        return self.hand_grid(obs["hand"], number,
                              face=lambda text: self.look.card(text, "reverse" if text in new else ""))

    def hand_title(self, obs: JSON) -> Text:
        title = Text("Your hand", style="bold")
        where, new = self.received(obs)
        if new:
            title.append(f"   received {where}: ", style="bold yellow")
            title.append_text(self.look.cards(new))
            title.append(" (highlighted)", style="dim")
        self.add_seen(title, obs)
        return title

    def menu(self, legal: Sequence[Action]) -> list[Action]:
        """The numbered choices of the auction and the raise (the other bids are typed as numbers)."""
        kinds = {a.kind for a in legal}
        redeal = [a for a in legal if a.kind == "redeal"]
        if "raise" in kinds:  # (the declarer's redeal, with redeal_window bid_and_exchange, last)
            return [*(a for a in legal if a.kind == "pass"), *[a for a in legal if a.kind == "raise"][:1],
                    *redeal]
        if kinds & {"bid", "redeal"}:
            bids = [a for a in legal if a.kind == "bid"]
            return [*bids[:1], *(a for a in legal if a.kind in ("pass", "redeal"))]
        if kinds == {"pass"}:
            return list(legal)
        return []

    def choice_label(self, action: Action, obs: JSON) -> Text:
        label = Text(action.text, style="bold")
        words = action.text.split()
        kind = action.kind
        if kind == "declare":
            label.append(f" (trumps, +{self.marriage_points[words[1]]})", style="dim")
        elif kind == "answer" and words[1] != "no":
            label.append(f" ({self.suit_name(words[1])}, +{self.marriage_points[words[1]]})", style="dim")
        elif kind == "pass" and obs["phase"] == "raise":
            label = Text.assemble(("keep", "bold"), f" {obs['contract']}", (" (pass)", "dim"))
        elif kind == "pass":
            label.append(" (out for good)", style="dim")
        elif kind == "redeal":
            label.append(f" ({self.huuto.redeal_hand_text})", style="dim")
        return label

    def extra_choices(self, obs: JSON, legal: Sequence[Action]) -> Text | None:
        phase = obs["phase"]
        if phase in ("give", "return", "discard"):
            return None
        if phase not in ("bid", "raise"):
            return super().extra_choices(obs, legal)
        menu = self.menu(legal)
        parts = [Text.assemble((f"{i:>2} ", "cyan"), self.choice_label(a, obs))
                 for i, a in enumerate(menu, 1)]
        numbers = [bid_value(a.text) for a in legal if a.kind in ("bid", "raise")]
        if len(numbers) > 1:
            parts.append(Text(f"or any number {numbers[1]}..{numbers[-1]}", style="dim"))
        return Text("   ").join(parts)

    def show_turn(self, obs: JSON, legal: Sequence[Action]) -> None:
        self._hand = self.numbered(obs)
        super().show_turn(obs, legal)

    def instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        phase = obs["phase"]
        me = obs["seat"]
        size = self.kitty if self.three else self.exchange
        numbers = " ".join(str(k) for k in (1, 5, 7, 9, 10, 11)[:size])
        typed = f"type their numbers ({numbers}) or names (9h 7c 6d)"
        if phase == "bid":
            return self.bid_instruction(obs, legal)
        if phase == "give":
            declarer = obs["declarer"]
            return f"{self.name(declarer)} won the auction at {obs['contract']}: give him {size} cards " \
                   f"(he gives you {size} back). Choose them: {typed}."
        after = self.game.options["raise_when"] == "after_exchange"
        if phase == "raise" and after:
            if len(legal) == 1:
                return f"The exchange is done. The contract is {obs['contract']}, the most there is: keep it."
            return f"The exchange is done. Raise the contract (type a number above {obs['contract']}) or " \
                   f"keep it at {obs['contract']} (keep, or 1); then you lead."
        if phase == "raise":
            got = "the kitty" if self.three else f"{size} cards from {self.name(self.partner_of(me))}"
            then = f"discard {size} cards (no aces or tens)" if self.three else f"give {size} cards back"
            if len(legal) == 1:
                return f"You took {got}. The contract is {obs['contract']}, the most there is: keep it."
            return f"You took {got}. Raise the contract (type a number above {obs['contract']}) or keep it " \
                   f"at {obs['contract']} (keep, or 1); then {then}."
        if phase == "return":
            then = "you may raise the contract" if after else "you lead"
            return f"Give {self.name(self.partner_of(me))} back {size} cards: {typed}. Then {then}."
        if phase == "discard":
            return f"Discard {size} cards face down: they count for you at the end. Not aces or tens (they " \
                   f"carry no number): {typed}."
        return super().instruction(obs, legal)

    def bid_instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        opening = obs["high_bidder"] is None
        bids = [bid_value(a.text) for a in legal if a.kind == "bid"]
        redeal = any(a.kind == "redeal" for a in legal)
        text = ""
        forced = not any(a.kind == "pass" for a in legal)
        ban = self.huuto.ban_text
        lowest = self.huuto.min_bid
        if forced and bids == [lowest] and self.banned(obs["scores"], self.seats.side_of(obs["seat"])):
            text = f"Your side is {ban} and may not bid, but you must open: bid {lowest}."
        elif opening and forced:
            why = ("You deal, so you open the auction" if obs["seat"] == obs["dealer"]
                   and self.game.options["forced_opening"] else "You must open the auction")
            text = f"{why}: bid {lowest} or more, in fives (type the number, e.g. {lowest} or 1)."
        elif opening and bids:
            text = f"No bid yet: open at {lowest} or more, in fives (type the number), or pass (p), " \
                   f"which is for good."
        elif not bids:
            text = f"Your side is {ban}: you may only pass."
        else:
            text = f"Bid more than {obs['high_bid']} ({bids[0]} or more, in fives, up to {bids[-1]}): " \
                   f"type the number; or pass (p), which is for good."
        if redeal:
            text += f" You hold {self.huuto.redeal_hand_text}: you may demand a new deal now (redeal)."
        return text

    def lead_instruction(self, obs: JSON, cards: Sequence[Any]) -> str:
        me = obs["seat"]
        if not obs["tricks"]:
            if self.game.options["first_trick"] == "ace_shows":
                return ("You lead the first trick: an ace if you hold one, else a spade if you hold one "
                        "(its number or its name, as, th...).")
            return "You lead the first trick: any card (its number or its name, as, th...)."
        last = obs["tricks"][-1]
        if self.partners and not self.game.options["calls_after_any_trick"] and last["winner"] == me \
                and last["leader"] != me and len(obs["marriages"]) < 4:
            return "Lead a card (no call now: calls come only after winning a trick you led yourself)."
        return "Lead a card: its number or its name (as, th...)."

    def automatic(self, obs: JSON, legal: Sequence[Action]) -> Action | None:
        """The last card, a forced answer, and a lone bid or pass (a side at -500, the top contract)."""
        self._hand = self.numbered(obs)
        if obs["phase"] in ("bid", "raise") and len(legal) == 1:
            return legal[0]
        return super().automatic(obs, legal)

    def shortcut(self, entry: str, legal: Sequence[Action]) -> Action | str | None:
        """Bids and raises as bare numbers, ``p``, ``keep``, ``redeal``; cards to give by names or numbers."""
        kinds = {a.kind for a in legal}
        text = " ".join(entry.lower().replace(",", " ").split())
        if kinds == {"pass"} and _KEEP.match(text):  # a side at -500, or the contract at the top
            return "pass"
        if kinds & {"bid", "redeal"}:
            return self.auction_entry(text, legal)
        if "raise" in kinds:
            return self.raise_entry(text, legal)
        if kinds & {"give", "discard"}:
            return self.card_set_entry(text, legal)
        found = super().shortcut(entry, legal)
        if found is None and len(text.split()) > 1:
            self.leftover(text, "play one card at a time: its number or its name (as)")
        return found

    def leftover(self, text: str, what: str) -> None:
        """An entry no shortcut reads: action words and lone words go on (the engine or the prompt
        explain them); anything else is refused here, saying what is expected now."""
        words = text.split()
        if not words or words[0] in self.ACTION_WORDS or (len(words) == 1 and words[0].isalpha()):
            return None
        raise IllegalActionError(f"{text!r} is not understood: {what}")

    def auction_entry(self, text: str, legal: Sequence[Action]) -> Action | str | None:
        menu = self.menu(legal)
        bids = [bid_value(a.text) for a in legal if a.kind == "bid"]
        match = _BID.match(text)
        if match:
            return f"bid {int(match.group(1))}"
        if _NUMBER.match(text):
            n = int(text)
            if 1 <= n <= len(menu):
                return menu[n - 1]
            if n >= self.huuto.min_bid or not bids:
                return f"bid {n}"
            raise IllegalActionError(f"there is no choice {n}: type a bid ({bids[0]}..{bids[-1]} in fives) "
                                     f"or a choice 1..{len(menu)}")
        if _PASS.match(text):
            return "pass"
        if _REDEAL.match(text):
            return "redeal"
        if self.is_card(text):
            redeal = " or redeal" if "redeal" in {a.kind for a in legal} else ""
            raise IllegalActionError(f"{text.upper()} is a card, but now is the auction: type a bid "
                                     f"(a number), pass (p){redeal}")
        self.leftover(text, "in the auction, type one bid (a number), or p to pass")
        return None

    def raise_entry(self, text: str, legal: Sequence[Action]) -> Action | str | None:
        menu = self.menu(legal)
        raises = [bid_value(a.text) for a in legal if a.kind == "raise"]
        contract = raises[0] - STEP
        match = _RAISE.match(text) or _BID.match(text)
        if match:
            return f"raise {int(match.group(1))}"
        if _NUMBER.match(text):
            n = int(text)
            if 1 <= n <= len(menu):
                return menu[n - 1]
            if n == contract:
                return "pass"
            if n >= self.huuto.min_bid:
                return f"raise {n}"
            raise IllegalActionError(f"there is no choice {n}: type a raise ({raises[0]}..{raises[-1]} "
                                     f"in fives), keep, or a choice 1..{len(menu)}")
        if _KEEP.match(text):
            return "pass"
        if _REDEAL.match(text):
            return "redeal"
        if self.is_card(text):
            raise IllegalActionError(f"{text.upper()} is a card, but first you raise the contract "
                                     f"(a number above {contract}) or keep it (keep)")
        self.leftover(text, f"raise the contract (one number above {contract}) or keep it (keep)")
        return None

    def card_set_entry(self, text: str, legal: Sequence[Action]) -> str | None:
        """``9h 7c 6d``, ``1 5 7`` or a mix, with or without ``give`` / ``discard`` before."""
        kind = legal[0].kind
        size = len(legal[0].args)
        words = text.split()
        if words and words[0] == kind:
            words = words[1:]
        if not words or words[0] in self.ACTION_WORDS:
            return None  # another action (``play AS``): the engine says what is expected now
        offered = self.hand_of(legal)
        hand = self._hand if set(self._hand) == set(offered) else offered
        deck = self.game.deck
        picked: list[str] = []
        for word in words:
            if _NUMBER.match(word):
                k = int(word)
                if not 1 <= k <= len(hand):
                    raise IllegalActionError(f"there is no card {k} in your hand: the cards are numbered "
                                             f"1..{len(hand)}")
                card = hand[k - 1]
            else:
                try:
                    card = deck.card(word).text
                except CardParseError:
                    if len(words) == 1 and word.isalpha() and len(word) > 2:
                        return None  # a word: a command or an action word, handled elsewhere
                    raise IllegalActionError(f"{word!r} is neither a card nor a card's number: {kind} {size} "
                                             f"cards by name (9h 7c 6d) or by number (1 5 7)") from None
            if card in picked:
                raise IllegalActionError(f"{card} is named twice: {kind} {size} different cards")
            picked.append(card)
        if len(picked) != size:
            raise IllegalActionError(f"{kind} exactly {size} cards, not {len(picked)}: by name (9h 7c 6d) "
                                     f"or by number (1 5 7)")
        return f"{kind} {' '.join(picked)}"

    def hand_of(self, legal: Sequence[Action]) -> list[str]:
        """The cards in the card sets on offer, in the hand's order: what the numbers typed refer to."""
        mask = 0
        for a in legal:
            mask |= a.mask
        return [a.card.text for a in PLAY.of(mask) if a.card is not None]

    def is_card(self, text: str) -> bool:
        try:
            self.game.deck.card(text)
        except CardParseError:
            return False
        return True

    # -- the match as it happens ---------------------------------------------------------------

    def intro(self, seed: int | None) -> None:
        game = self.game
        opts = game.options
        if self.three:
            hidden = "" if opts["kitty_shown"] else " (seen only by him)"
            each = (36 - self.kitty) // 3
            if game.num_players == 2:
                rules = ["two players, each alone",
                         f"{each} cards each, a third hand of {each} dealt dead (never seen or played) and a "
                         f"kitty of {self.kitty} for the declarer{hidden}",
                         f"taking every trick collects all {self.huuto.deck_points + self.huuto.last_trick} "
                         f"card points and one's marriages"]
            else:
                rules = ["three players, each alone",
                         f"{each} cards each and a kitty of {self.kitty} for the declarer{hidden}"]
        else:
            rules = ["partners opposite", f"the declarer's partner gives him {self.exchange} cards and gets "
                     f"{self.exchange} back"]
        rules.append(f"auction from {self.huuto.min_bid} in fives up to {self.max_bid}")
        rules.append(f"every marriage makes trumps ({self.values_text()})")
        if opts["card_values"] == "pips":
            rules.append("card points 11/10/4/3/2")
        if opts["calls_after_any_trick"] and not self.three:
            rules.append("calls after any won trick")
        if opts["ask_lockouts"] == "main_form":
            rules.append("who asks for a whole may no longer declare, nor his partner ask for one")
        elif opts["ask_lockouts"] == "illisoft_2002":
            rules.append("who asks may no longer declare; after a half neither partner declares or asks "
                         "for a whole")
        if not opts["defender_penalty"]:
            rules.append("no-trick penalty for the declarers only after a failed sweep")
        if not opts["redeal"]:
            rules.append("no redeal")
        elif opts["redeal_hand"] != "three_sixes":
            rules.append(f"a redeal for {self.huuto.redeal_hand_text}")
        if opts["opener"] != "dealer":
            rules.append("the player left of the dealer opens")
        if not opts["forced_opening"]:
            rules.append("no forced opening (the last player left must open)")
        if opts["bid_ban"] != -500:
            rules.append(f"no bids {self.huuto.ban_text}")
        if opts["all_pass"] == "no_contract":
            rules.append("if all pass, the hand is played without a contract")
        if opts["bid_ban_reopen"]:
            rules.append(f"a side {self.huuto.ban_text} bids only after all the others passed")
        if opts["first_trick"] == "ace_shows":
            rules.append("the first trick: lead an ace, else a spade; the holder of the led suit's ace "
                         "plays it")
        rules.append(self.match_target())
        if opts["win_tie"] == "declarer":
            rules.append("the declarers win if they are past it with others")
        give = "give or discard cards by name (9h 7c 6d) or number (1 5 7)"
        calls = "d h declares hearts" + ("; whole and half h ask your partner" if self.partners else "")
        self.print_intro("; ".join(rules), seed, f"Clockwise, seats: {self.seat_numbers()}",
                         f"Type a bid as a number (120) or p to pass; {give}; a card's number or name (as) "
                         f"to play it; {calls}; help for more.")

    def announce_hand(self, obs: JSON) -> None:
        seats = self.seats
        dealer = obs["dealer"]
        self.hand_rule(obs["hand_number"] + 1, seats.per_side(obs["scores"]).plain)
        opener = self.huuto.opener(dealer)
        must = "must" if self.game.options["forced_opening"] else "may"
        if opener == dealer:
            line = Text(f"{capital(seats.says(dealer, 'deals', 'deal'))} and {must} open the auction at "
                        f"{self.huuto.min_bid} or more.")
        else:
            line = Text(f"{capital(seats.says(dealer, 'deals', 'deal'))}; "
                        f"{seats.noun(opener)} {must} open the auction at {self.huuto.min_bid} or more.")
        previous = obs["previous_hand"]
        if previous is not None and previous["redeal"] is not None:
            line.append(" (A new deal after the redeal.)", style="dim")
        self.out.print(line)
        for side in seats.side_order:
            if self.banned(obs["scores"], side):
                who, many = self.side_subject(side)
                self.out.print(Text(f"{who} {'are' if many else 'is'} {self.huuto.ban_text}: no bids, except "
                                    f"{self.forced_opening_words()} {self.huuto.min_bid}.", style="yellow"))

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON, finished: bool) -> None:
        seats, look = self.seats, self.look
        me = seat == seats.me
        kind = action.kind
        phase = before["phase"]
        line = self.actor_line(seat)
        forced = me and len(before.get("legal_actions", [])) == 1
        if kind == "bid":
            value = bid_value(action.text)
            if before["high_bidder"] is None:
                line.append(f"{'open' if me else 'opens'} the auction at ")
            else:
                line.append("bid " if me else "bids ")
            line.append(str(value), style="bold")
            if forced:
                line.append(f" (forced: {self.huuto.ban_text} only "
                            f"{self.forced_opening_words()})", style="dim")
        elif kind == "pass" and phase == "bid":
            line.append("pass" if me else "passes")
            line.append(" (out of the auction)", style="dim")
            if forced and before["high_bid"] == self.max_bid:
                line.append(f" (nothing goes above {self.max_bid})", style="dim")
            elif forced:
                line.append(f" (forced: your side is {self.huuto.ban_text})", style="dim")
        elif kind == "redeal":
            line.append(f"{'hold' if me else 'holds'} {self.huuto.redeal_hand_text} and "
                        f"{'demand' if me else 'demands'} a ")
            line.append("redeal", style="bold yellow")
            line.append(": nothing is scored; the same dealer deals again.")
        elif kind == "give":
            self.narrate_give(line, seat, action, before, after)
        elif kind == "raise":
            line.append(f"{'raise' if me else 'raises'} the contract to ")
            line.append(str(bid_value(action.text)), style="bold")
        elif kind == "pass":
            line.append(f"{'keep' if me else 'keeps'} the contract at ")
            line.append(str(before["contract"]), style="bold")
            if forced:
                line.append(" (the most there is)", style="dim")
        elif kind == "discard":
            if me:
                cards = [c.text for c in self.game.deck.cards_from_text(" ".join(action.text.split()[1:]))]
                line.append("discard ")
                line.append_text(look.cards(cards))
                line.append(f" ({self.points_of(cards)} points, counted for you at the end)", style="dim")
            else:
                line.append(f"discards {self.kitty} cards face down (they count for him at the end)")
        elif kind == "play" and action.card is not None:
            line.append("play " if me else "plays ")
            line.append_text(look.card(action.card.text))
        elif kind in ("declare", "ask", "answer"):
            line = self.narrated_call(seat, action, before, after)
        else:
            line.append(action.text)
        self.out.print(line)
        if before["declarer"] is None and not finished and after["declarer"] is not None:
            self.narrate_auction_end(after)
        elif phase == "bid" and not finished and after["phase"] == "play":
            leader = after["current_player"]
            self.out.print(Text(f"  Nobody bid: the hand is played without a contract; each side scores "
                                f"what it takes. {capital(seats.says(leader, 'leads', 'lead'))}.",
                                style="bold"))
            if self.three:
                kitty = Text("  The kitty stays out of play: ")
                kitty.append_text(self.look.cards(after["kitty"]) if after["kitty"]
                                  else Text(f"{self.kitty} cards, unseen", style="dim"))
                self.out.print(kitty)
        if finished:
            previous = after["previous_hand"]
            if kind == "play":
                self.narrate_trick(previous["final_trick"], len(before["tricks"]) + 1,
                                   previous["collected"], last=True)
            self.out.print()
            self.out.print(self.result_panel(previous, f"Hand {before['hand_number'] + 1} result",
                                             after["winner"]))
        elif len(after["tricks"]) > len(before["tricks"]):
            self.narrate_trick(after["tricks"][-1], len(after["tricks"]), after["points"])

    def narrate_give(self, line: Text, seat: int, action: Action, before: JSON, after: JSON) -> None:
        """The exchange: cards named only to the two who swap them."""
        me = seat == self.seats.me
        to = self.partner_of(seat)
        back = before["phase"] == "return"
        size = self.exchange
        seen = after["given"] is not None
        target = self.obj(to) if not me else self.name(to)
        line.append("give " if me else "gives ")
        line.append(f"{target} " + ("back " if back else ""))
        if seen:
            cards = after["returned"] if back else after["given"]
            line.append_text(self.look.cards(cards))
        else:
            line.append(f"{size} cards, face down")
        if back:
            line.append(f"; {'you lead' if to != self.seats.me and me else self.obj(seat) + ' leads'}",
                        style="dim")

    def narrate_auction_end(self, obs: JSON) -> None:
        seats = self.seats
        declarer = obs["declarer"]
        side = seats.side_of(declarer)
        line = Text("  ")
        line.append(f"{capital(seats.says(declarer, 'wins', 'win'))} the auction at ", style="bold")
        line.append(str(obs["contract"]), style="bold green")
        who, many = self.side_subject(side)
        line.append(f": {who} {'need' if many else 'needs'} {obs['contract']} points (cards, marriages, "
                    f"last trick {self.huuto.last_trick}).")
        self.out.print(line)
        if self.three:
            kitty = Text("  The kitty: ")
            if obs["kitty"] is None:
                kitty.append(f"{self.kitty} cards, unseen", style="dim")
            else:
                kitty.append_text(self.look.cards(obs["kitty"]))
            discards = "discard" if declarer == seats.me else "discards"
            kitty.append(f" — {seats.says(declarer, 'takes', 'take')} it, may raise, and {discards} "
                         f"{self.kitty}.")
            self.out.print(kitty)
        else:
            partner = self.partner_of(declarer)
            gives = "give" if declarer == seats.me else "gives"
            self.out.print(f"  {capital(seats.says(partner, 'gives', 'give'))} "
                           f"{self.obj(declarer)} {self.exchange} cards; then "
                           f"{self.obj(declarer)} may raise and {gives} {self.exchange} back.")

    def marriage_outcome(self, line: Text, after: JSON) -> None:
        """After a declare or a yes: ``: ♥ trumps now (were ♣), Us +100``."""
        marriages = after["marriages"]
        seat, letter, value = marriages[-1]
        side = self.seats.side(self.seats.side_of(int(seat)))
        line.append(": ")
        line.append_text(self.look.suit_label(str(letter)))
        line.append(" trumps now", style="bold magenta")
        if len(marriages) > 1:
            line.append(" (were ")
            line.append_text(self.look.suit_label(str(marriages[-2][1])))
            line.append(")")
        line.append(f", {side} +{value}")

    def narrate_trick(self, trick: JSON, number: int, points: Sequence[int], last: bool = False) -> None:
        line = self.trick_head(number, trick["winner"])
        line.append(f", {self.trick_worth(trick['cards'])}")
        if last:
            line.append(f", the last trick +{self.huuto.last_trick}")
        line.append("   points ", style="dim")
        line.append_text(self.seats.per_side(points, bold=False))
        self.out.print(line)

    # -- results -----------------------------------------------------------------------------

    def result_panel(self, previous: JSON, title: str, winner: int | None = None) -> Panel:
        """One finished hand: the contract made or failed, what each side scored and why, the match."""
        seats = self.seats
        grid = self.grid()
        if previous["redeal"] is not None:
            seat = previous["redeal"]
            grid.add_row("Redeal", Text(f"{capital(seats.noun(seat))} held {self.huuto.redeal_hand_text}: "
                                        f"a new deal by the same dealer; nothing scored"))
        else:
            self.result_rows(grid, previous)
        grid.add_row("Match", self.standing(previous["scores"]))
        if winner is not None:
            verdict = Text(f"{self.wins(winner)} the match", style="bold green")
            scores = previous["scores"]
            if sum(self.huuto.over_target(s) for s in scores) > 1:
                rule = ("the declarers win" if self.game.options["win_tie"] == "declarer"
                        and previous["declarer"] is not None
                        and self.seats.side_of(previous["declarer"]) == winner else "the higher score wins")
                verdict.append(f" (more than one passed {TARGET}: {rule})", style="dim")
            grid.add_row("Winner", verdict)
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def lapari_row(self, grid: Table, previous: JSON) -> None:
        """Two players: a player who took every trick collected the whole deck (the läpäri)."""
        seat = previous.get("lapari")
        if seat is not None:
            total = self.huuto.deck_points + self.huuto.last_trick
            grid.add_row("Läpäri", Text(f"{capital(self.seats.noun(seat))} took every trick: all {total} "
                                        f"card points and the marriages, the dead hand's included"))

    def result_rows(self, grid: Table, previous: JSON) -> None:
        seats = self.seats
        declarer = previous["declarer"]
        if declarer is None:  # option all_pass no_contract
            grid.add_row("Contract", Text("none: everyone passed", style="bold"))
            grid.add_row("Tricks", seats.per_side(previous["tricks_won"], bold=False))
            grid.add_row("Last trick", Text(f"{seats.side(previous['last_trick'])} +{self.huuto.last_trick}"))
            grid.add_row("Collected", seats.per_side(previous["collected"], bold=False))
            self.lapari_row(grid, previous)
            grid.add_row("Scoring", Text("without a contract each side scores what it collected; no penalty"))
            grid.add_row("Points", self.side_points(previous["points"], sign=True))
            return
        side = seats.side_of(declarer)
        contract, opening = previous["contract"], previous["opening_bid"]
        who, many = self.side_subject(side)
        what = Text.assemble((str(contract), "bold"), f" by {seats.noun(declarer)}")
        if contract != opening:
            what.append(f" (bid {opening}, raised to {contract})", style="dim")
        grid.add_row("Contract", what)
        grid.add_row("Tricks", seats.per_side(previous["tricks_won"], bold=False))
        marriages = previous["marriages"]
        grid.add_row("Marriages", self.marriages_line(marriages) if marriages
                     else Text("none: no trumps this hand", style="dim"))
        grid.add_row("Last trick", Text(f"{seats.side(previous['last_trick'])} +{self.huuto.last_trick}"))
        if previous.get("discard"):
            cards = previous["discard"].split()
            grid.add_row("Discard", Text.assemble(self.look.cards(cards),
                                                  f"   {self.points_of(cards)} for {self.name(declarer)}"))
        grid.add_row("Collected", seats.per_side(previous["collected"], bold=False))
        self.lapari_row(grid, previous)
        got = previous["collected"][side]
        if previous.get("declarer_trickless") and self.game.options["declarer_no_trick"] == "side_double":
            verdict = Text.assemble((f"{who} took no trick", "bold red"),
                                    f": -{2 * contract}, twice the contract")
        elif previous.get("declarer_trickless"):
            verdict = Text.assemble((f"{capital(seats.noun(declarer))} took no trick", "bold red"),
                                    f": -{2 * opening}, twice the opening bid (whatever was collected)")
        elif previous["made"]:
            verdict = Text.assemble(f"{who} collected {got} ≥ {contract}: ", ("made", "bold green"),
                                    f", +{contract}")
        else:
            verdict = Text.assemble(f"{who} collected {got} < {contract}: ", ("failed", "bold red"),
                                    f", -{contract}")
        lines = [verdict]
        others = [s for s in seats.side_order if s != side]
        defenders = join(Text(f"{seats.side(s)} +{previous['collected'][s]}") for s in others)
        lines.append(Text.assemble("what they collected: ", defenders))
        no_tricks = previous["no_tricks"]
        for s in seats.side_order:
            if s not in no_tricks:
                continue
            name, plural = self.side_subject(s)
            sweep = len(no_tricks) == self.game.num_sides - 1 and side not in no_tricks
            through = f" (läpiajo by {seats.side(side)})" if sweep else ""
            if s in previous["penalised"] and s == side and previous.get("declarer_trickless"):
                continue  # told in the verdict
            if s in previous["penalised"]:
                lines.append(Text.assemble((f"{name} took no trick{through}", "bold red"),
                                           f": -{opening}, the opening bid"))
            else:
                lines.append(Text.assemble((f"{name} took no trick{through}", "bold"),
                                           ": no penalty, the declarers took every trick and still failed "
                                           "(option defender_penalty off)"))
        for number, text in enumerate(lines):
            grid.add_row("Scoring" if number == 0 else "", text)
        grid.add_row("Points", self.side_points(previous["points"], sign=True))

    def show_score(self, obs: JSON) -> None:
        grid = self.grid()
        grid.add_row("Match", self.match_line(obs))
        if obs["declarer"] is not None:
            grid.add_row("Contract", self.contract_line(obs))
            grid.add_row("This hand", self.progress_line(obs))
            grid.add_row("Tricks", self.tricks_line(obs))
            grid.add_row("Trumps", self.trumps_line(obs))
        else:
            grid.add_row("Auction", self.auction_line(obs["auction"]))
        self.out.print(grid)
        previous = obs["previous_hand"]
        if previous is not None:
            self.out.print(self.result_panel(previous, "Previous hand"))

    def trick_outcome(self, trick: JSON) -> str:
        return f"   won by {self.seats.noun(trick['winner'])}, {self.trick_worth(trick['cards'])}"

    # -- replays ----------------------------------------------------------------------------------

    def replay_hand(self, record: JSON, index: int) -> None:
        """One hand of a record: the deal (and kitty), the auction, the exchange or discard, every trick."""
        out, seats, look = self.out, self.seats, self.look
        state = state_at_hand_start(record, index)
        hand = record["hands"][index]
        start = public(state)
        self.hand_rule(index + 1, seats.per_side(start["scores"]).plain)
        out.print(f"Dealer {seats.full(start['dealer'])}; the auction opens at {self.huuto.min_bid} or more.")
        deal = self.grid()
        for seat in seats.seat_order:
            deal.add_row(seats.full(seat), look.compact_hand(state.observation(seat)["hand"]))
        if self.game.num_players == 2:
            deal.add_row("Dead hand", look.compact_hand([c.text for c in self.game.deck.sorted(
                self.game.deck.cards_from_text(hand["deal"][2]))]))
        if self.three:
            deal.add_row("Kitty", look.cards(hand["deal"][3].split()))
        out.print(deal)

        number = 0
        finished: JSON | None = None
        winner: int | None = None
        ask: str | None = None
        auction_shown = False
        for actor, text, before, after, done in replay_steps(state, hand["actions"]):
            kind = text.split()[0]
            phase = before["phase"]
            if phase == "bid" and (after["declarer"] is not None or after["phase"] == "play" or done):
                auction = before["auction"] + [[actor, text]]
                out.print(Text("Auction: ", style="cyan").append_text(self.auction_line(auction)))
                auction_shown = True
                if after["declarer"] is not None and not done:
                    out.print(Text("Contract: ", style="cyan").append_text(self.contract_line(after)))
                    if self.three:
                        kitty = (look.cards(after["kitty"]) if after["kitty"] is not None
                                 else Text(f"{self.kitty} cards, unseen", style="dim"))
                        out.print(Text("Kitty: ", style="cyan").append_text(kitty))
            elif kind == "give":
                cards = text.split()[1:]
                back = " back" if phase == "return" else ""
                self.note(Text(f"{seats.short(actor)} gives {seats.short(self.partner_of(actor))}{back}: ")
                          .append_text(look.cards(cards)))
            elif kind == "raise":
                self.note(Text(f"{seats.short(actor)} raises to {bid_value(text)}"))
            elif kind == "pass" and phase == "raise":
                self.note(Text(f"{seats.short(actor)} keeps the contract at {before['contract']}"))
            elif kind == "discard":
                cards = text.split()[1:]
                self.note(Text(f"{seats.short(actor)} discards ").append_text(look.cards(cards))
                          .append(f" ({self.points_of(cards)} points)"))
            elif kind in ("declare", "ask", "answer"):
                self.note(self.call_line(actor, text, ask, after))
                ask = text if kind == "ask" else None
            if kind != "play":
                if done:
                    finished, winner = after["previous_hand"], after["winner"]
                continue
            if done:
                finished, winner = after["previous_hand"], after["winner"]
                number += 1
                out.print(self.trick_row(number, finished["final_trick"], finished["collected"]))
            elif len(after["tricks"]) > len(before["tricks"]):
                number += 1
                out.print(self.trick_row(number, after["tricks"][-1], after["points"]))
        if not auction_shown:
            now = public(state)
            out.print(Text("Auction: ", style="cyan").append_text(self.auction_line(now["auction"])))
        if finished is not None:
            out.print(self.result_panel(finished, f"Hand {index + 1} result", winner))
        else:
            self.unfinished(hand)

    def row_worth(self, trick: JSON) -> str:
        return f"{self.trick_worth(trick['cards']):<10}"

    def running_totals(self, totals: Sequence[int]) -> Text:
        """Points per side; three players (``Seat 0``...) by their numbers: ``0:40 1:25 2:0``."""
        if self.partners:
            return super().running_totals(totals)
        return Text(" ".join(f"{self.tag(s)}:{totals[s]}" for s in range(len(totals))))

    def tag(self, seat: int) -> str:
        """A seat in one letter where the names allow (``S``, ``W``), else its number."""
        initial = self.seats.initial(seat)
        return initial if len(initial) == 1 else str(seat)

    def stats(self) -> HuutopussiStats:
        return HuutopussiStats(self.seats, screen=self)


# -- simulations -------------------------------------------------------------------------------------

BANDS = ((50, 95), (100, 145), (150, 195), (200, 245), (250, 295), (300, 440))


@dataclass
class HuutopussiStats(SimStats):
    """Auctions, contracts made, raises, läpiajo and no-trick penalties, marriages and points per side."""

    screen: HuutopussiScreen | None = None
    redeals: int = 0
    contracts: list[int] = field(default_factory=list)
    opening_bids: list[int] = field(default_factory=list)
    raises: list[int] = field(default_factory=list)
    made: Counter[int] = field(default_factory=Counter)
    """Contracts made, by band index."""
    band_hands: Counter[int] = field(default_factory=Counter)
    band_collected: Counter[int] = field(default_factory=Counter)
    declared: Counter[int] = field(default_factory=Counter)
    declared_made: Counter[int] = field(default_factory=Counter)
    point_sums: Counter[int] = field(default_factory=Counter)
    sweeps: int = 0
    penalties: int = 0
    marriages_per_hand: Counter[int] = field(default_factory=Counter)
    marriages_by_suit: Counter[str] = field(default_factory=Counter)
    final_trumps: Counter[str] = field(default_factory=Counter)

    @property
    def played(self) -> int:
        """Hands played out (not redealt)."""
        return self.hands - self.redeals

    def add(self, result: JSON) -> None:
        super().add(result)
        if result["redeal"] is not None:
            self.redeals += 1
            return
        seats = self.seats
        contract, opening = result["contract"], result["opening_bid"]
        side = seats.side_of(result["declarer"])
        band = next(i for i, (low, high) in enumerate(BANDS) if low <= contract <= high)
        self.contracts.append(contract)
        self.opening_bids.append(opening)
        if contract != opening:
            self.raises.append(contract - opening)
        self.band_hands[band] += 1
        self.band_collected[band] += result["collected"][side]
        self.declared[side] += 1
        if result["made"]:
            self.made[band] += 1
            self.declared_made[side] += 1
        for s, p in enumerate(result["points"]):
            self.point_sums[s] += p
        sides = len(result["points"])
        self.sweeps += len(result["no_tricks"]) == sides - 1 and side not in result["no_tricks"]
        self.penalties += len(result["penalised"])
        marriages = result["marriages"]
        self.marriages_per_hand[len(marriages)] += 1
        for _, letter, _ in marriages:
            self.marriages_by_suit[letter] += 1
        if marriages:
            self.final_trumps[marriages[-1][1]] += 1

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        self.header(out, game, args, elapsed)
        seats, n = self.seats, self.played
        look = self.screen.look if self.screen is not None else None
        why = game.redeal_hand_text if isinstance(game, Huutopussi) else "three sixes"
        out.print(Text.assemble("Hands played ", (str(n), "bold"),
                                f"; redeals for {why} {self.redeals} "
                                f"({pct(self.redeals, self.hands)})"))
        if not n:
            return
        contracts = self.contracts
        out.print(Text.assemble("Contracts          mean ", (f"{statistics.fmean(contracts):.1f}", "bold"),
                                f", median {statistics.median(contracts):g}, "
                                f"{min(contracts)}..{max(contracts)}; "
                                f"winning bids mean {statistics.fmean(self.opening_bids):.1f}"))
        raised = len(self.raises)
        mean_raise = f", by {statistics.fmean(self.raises):.1f} on average" if raised else ""
        out.print(Text.assemble("Raised             ", (str(raised), "bold"),
                                f" ({pct(raised, n)}){mean_raise}"))

        table = Table(title="Contracts by size", title_justify="left", box=box.SIMPLE_HEAD)
        for head in ("contract", "hands", "share", "made", "mean collected"):
            table.add_column(head, justify="right", style="cyan" if head == "contract" else "")
        for i, (low, high) in enumerate(BANDS):
            count = self.band_hands[i]
            if not count:
                continue
            table.add_row(f"{low}-{high}", str(count), pct(count, n), pct(self.made[i], count),
                          f"{self.band_collected[i] / count:.1f}")
        out.print(table)

        sides = Table(title="Per side", title_justify="left", box=box.SIMPLE_HEAD)
        for head in ("side", "declared", "made", "mean points per hand"):
            sides.add_column(head, justify="right" if head != "side" else "left",
                             style="cyan" if head == "side" else "")
        for s in range(game.num_sides):
            count = self.declared[s]
            sides.add_row(seats.side(s), f"{count} ({pct(count, n)})", pct(self.declared_made[s], count),
                          f"{self.point_sums[s] / n:.1f}")
        out.print(sides)
        out.print(Text("Marriages per hand ").append_text(self.shares(self.marriages_per_hand, n)))
        if look is not None:
            out.print(Text("Marriages by suit  ").append_text(self.by_suit(look, self.marriages_by_suit)))
            out.print(Text("Trumps at the end  ").append_text(self.by_suit(look, self.final_trumps)))
        out.print(Text.assemble("Läpiajo            ", (str(self.sweeps), "bold"),
                                f" hands ({pct(self.sweeps, n)}) where the declarers took every trick; "
                                f"no-trick penalties {self.penalties}"))
        if not args.matches:
            out.print(Text("Single hands start at 0-0: the -500 ban and match winners need --matches.",
                           style="dim"))
        else:
            self.print_matches(out)
