"""Tute in the terminal: the table a seat sees, the narration, replays and simulation statistics.

Play goes counter-clockwise, so for the person at the table the order is
You → Right → Partner → Left (two players: You → Opponent).  Everything shown
comes from ``observation(seat)``; replays read ``observation`` of each seat,
since a record shows every hand anyway.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import JSON, Action, Game, IllegalActionError
from ..games.tute import LAST_TRICK, POINTS_BY_RANK, STRENGTH_ORDER
from .common import capital, count_cell, join, pct
from .screen import Screen, SimStats, public, replay_steps, state_at_hand_start

__all__ = ["TuteScreen", "TuteStats"]

SUIT_WORDS = {"oros": "O", "copas": "C", "espadas": "E", "bastos": "B"}
_SING_WORDS = re.compile(r"^(?:sing\s+)?(40|cuarenta|las\s+cuarenta|20|veinte)\s*([a-z]*)$")


def card_points(text: str) -> int:
    return POINTS_BY_RANK.get(int(text[:-1]), 0)


def trick_points(cards: Sequence[Sequence[Any]]) -> int:
    return sum(card_points(str(card)) for _, card in cards)


def winning_seat(cards: Sequence[Sequence[Any]], trump: str) -> int:
    """The seat whose card wins the cards played so far: the best trump, else the best of the suit led."""
    lead = str(cards[0][1])[-1]
    best_seat, best_key = -1, -1
    for seat, card in cards:
        text = str(card)
        suit, rank = text[-1], int(text[:-1])
        strength = len(STRENGTH_ORDER) - STRENGTH_ORDER.index(rank)
        key = strength + (20 if suit == trump else 10 if suit == lead else 0)
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


class TuteScreen(Screen):
    """Renders a Tute observation for the person at the table, and for replays."""

    step = -1  # counter-clockwise
    hand_word = "round"
    named_suits = True
    choices_label = "or"
    card_column = 5  # 12C, 1O
    HELP_MOVES = """\
  a number    the number shown next to a card or a choice: 1, 2, ...
  a card      1o, 12C, 7b: plays that card (rank, then the suit's letter:
              O oros, C copas, E espadas, B bastos)
  a cante     40 (las cuarenta), 20 C or 20 copas (a veinte), tute
  an action   play 1O, sing 40, sing 20 C, tute, exchange, pass"""
    ACTION_WORDS = ("play", "sing", "tute", "exchange", "pass")

    @property
    def two(self) -> bool:
        return self.game.num_players == 2

    @property
    def three(self) -> bool:
        """Three players, each alone: the turned trump card lies out of play."""
        return self.game.num_players == 3

    @property
    def cabrero(self) -> bool:
        """Tute cabrero: each alone, the middle loses, lost hands put a player out."""
        return bool(getattr(self.game, "cabrero", False))

    def turned(self, obs: JSON) -> bool:
        """The turned trump card lies out of play: three at the table (three players, or a
        cabrero table with seats put out), or six (the deck does not deal evenly)."""
        playing = self.game.num_players - sum(obs.get("out") or ())
        return self.three or (self.cabrero and playing >= 3 and len(self.game.deck) % playing != 0)

    @property
    def score_label(self) -> str:
        """What the match score counts: rounds won, or (cabrero) hands lost."""
        return "Lost hands" if self.cabrero else "Rounds"

    # -- words ---------------------------------------------------------------------------

    def cante(self, text: str, trump: str) -> Text:
        """A declaration's action text in words: ``40 ♣ bastos``, ``20 ♥ copas``, ``tute``."""
        words = text.split()
        if words[0] == "tute":
            return Text("tute", style="bold magenta")
        value = words[1]
        letter = trump if value == "40" else words[2]
        return Text.assemble((value, "bold"), " ", self.suit(letter))

    def cantes(self, declarations: Sequence[Sequence[Any]], trump: str) -> Text:
        return join(Text.assemble(f"{self.seats.short(s)} ", self.cante(t, trump)) for s, t in declarations)

    def match_target(self) -> str:
        if self.cabrero:
            return f"out at {self.game.options['losses_out']} lost"
        return f"first to {self.game.options['rounds_to_win']}"

    # -- the status panel ------------------------------------------------------------------

    def trumps_line(self, obs: JSON) -> Text:
        line = self.suit(obs["trump"])
        card = obs["trump_card"]
        if self.turned(obs):
            line.append("   turned card ")
            line.append_text(self.look.card(card))
            line.append(" (out of play)", style="dim")
            return line
        if not self.two:
            dealer = obs["dealer"]
            line.append("   trump card ")
            line.append_text(self.look.card(card))
            held = card in obs["shown"][dealer]
            whose = "yours" if dealer == self.seats.me else f"{self.seats.short(dealer)}'s"
            line.append(f" ({whose})" if held else " (played)", style="dim")
            return line
        stock = obs["stock_size"]
        if card is not None:
            line.append("   upcard ")
            line.append_text(self.look.card(card))
            line.append(f" · stock {stock}", style="bold")
            if stock <= 2:
                line.append(" · no more cantes", style="dim")
        else:
            line.append("   stock used up: follow, beat, trump", style="dim")
        return line

    def points_line(self, obs: JSON) -> Text:
        line = self.seats.per_side(obs["points"])
        line.append("   tricks ", style="dim")
        line.append_text(self.seats.per_side(obs["tricks_won"], bold=False))
        return line

    def shown_cards(self, obs: JSON, seat: int) -> list[str]:
        """Sung cards and a taken upcard; with four players, not the dealer's trump card (all know it)."""
        return [c for c in obs["shown"][seat] if c != obs["trump_card"] or self.two]

    def exchanges_line(self, obs: JSON) -> Text | None:
        parts = [Text.assemble(f"{self.seats.short(s)} gave ", self.look.card(given), " for ",
                               self.look.card(taken)) for s, given, taken in obs["exchanges"]]
        return join(parts) if parts else None

    def table_line(self, obs: JSON) -> Text:
        turn = obs["current_player"]
        me = obs["seat"]
        trick = obs["trick"]
        if not trick:
            if obs["phase"] == "declare":
                return Text("the trick is won: cantes before the next lead", style="dim")
            who = "you lead" if turn == me else f"{self.seats.short(turn)} leads"
            return Text(f"empty: {who}", style="dim")
        line = self.trick_cards(trick)
        if len(trick) > 1:
            best = winning_seat(trick, obs["trump"])
            line.append(f"   {'you' if best == me else self.seats.short(best)} winning, "
                        f"{trick_points(trick)} pts", style="dim")
        if turn is not None:
            line.append("   → ", style="dim")
            line.append("you" if turn == me else self.seats.short(turn), style="bold")
        return line

    def status(self, obs: JSON) -> Panel:
        """The table as the seat sees it: rounds, trumps, points, cantes, the trick on the table."""
        grid = self.grid()
        grid.add_row(self.score_label, self.standing(obs["scores"]))
        grid.add_row("Trumps", self.trumps_line(obs))
        grid.add_row("Points", self.points_line(obs))
        if obs["declarations"]:
            grid.add_row("Sung", self.cantes(obs["declarations"], obs["trump"]))
        exchanges = self.exchanges_line(obs)
        if exchanges is not None:
            grid.add_row("Exchanged", exchanges)
        known = self.known_line(obs)
        if known is not None:
            grid.add_row("Known", known)
        grid.add_row("Table", self.table_line(obs))
        return self.status_panel(grid, obs)

    # -- the person's turn ---------------------------------------------------------------------

    def hand_title(self, obs: JSON) -> Text:
        title = Text("Your hand", style="bold")
        self.add_seen(title, obs)
        return title

    def choice_label(self, action: Action, obs: JSON) -> Text:
        label = Text(action.text, style="bold")
        if action.kind == "sing":
            label.append(" (las cuarenta)" if action.args[0] == 40 else
                         f" ({self.game.deck.suit(str(action.args[1])).name})", style="dim")
        elif action.kind == "tute":
            label.append(" (wins the round)", style="dim")
        elif action.kind == "exchange":
            trump, up = obs["trump"], obs["trump_card"]
            give = f"7{trump}" if f"7{trump}" in obs["hand"] and int(up[:-1]) in (1, 3, 12, 11, 10) \
                else f"2{trump}"
            label.append(" (", style="dim")
            label.append_text(self.look.card(give))
            label.append(" for ", style="dim")
            label.append_text(self.look.card(up))
            label.append(")", style="dim")
        return label

    def instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        kinds = {a.kind for a in legal}
        deck = self.game.deck
        if obs["phase"] == "declare":
            won = obs["tricks"][-1]["winner"]
            who = "You" if won == obs["seat"] else self.seats.short(won)
            if all(a.kind != "pass" for a in legal):
                return f"{who} won the trick: your side must sing now (its number, 40, 20 C...)."
            return f"{who} won the trick: your side may sing now (its number, 40, 20 C...) or pass."
        extras = []
        if "sing" in kinds or "tute" in kinds:
            extras.append("sing (40, 20 C...)")
        if "exchange" in kinds:
            extras.append("exchange")
        if obs["trick"] and "exchange" in kinds:
            return "Play a card (its number or name), or first exchange."
        if not obs["trick"]:
            if extras:
                return f"Lead a card (its number or name), or first {' or '.join(extras)}."
            return "Lead a card: its number or its name (1o, 12c...)."
        lead = deck.card(obs["trick"][0][1]).suit
        trump = deck.suit(obs["trump"])
        cards = [a.card for a in legal if a.card is not None]
        hand = [deck.card(c) for c in obs["hand"]]
        held_lead = [c for c in hand if c.suit is lead]
        held_trump = [c for c in hand if c.suit is trump]
        if all(c.suit is lead for c in cards):
            if len(cards) < len(held_lead):
                return f"Follow {lead.name}, beating the best {lead.name} on the table."
            return f"Follow {lead.name}."
        if held_lead:
            return "While the stock lasts you may play any card."
        if lead is not trump and held_trump and all(c.suit is trump for c in cards):
            if len(cards) < len(held_trump):
                return f"You have no {lead.name}: trump ({trump.name}), over the trump on the table."
            return f"You have no {lead.name}: trump ({trump.name})."
        if held_trump and lead is not trump:
            return f"You have no {lead.name}: while the stock lasts you may play any card."
        return f"You have no {lead.name}" + (" and no trumps" if not held_trump else "") + ": play any card."

    def automatic(self, obs: JSON, legal: Sequence[Action]) -> Action | None:
        """The last card, and a pass when there is nothing to sing."""
        if len(legal) == 1 and legal[0].kind == "pass":
            return legal[0]
        return super().automatic(obs, legal)

    def shortcut(self, entry: str, legal: Sequence[Action]) -> Action | str | None:
        """``40``, ``cuarenta`` → ``sing 40``; ``20 C``, ``20c``, ``20 copas`` → ``sing 20 C``; ``20`` alone
        → the one veinte possible now; suit names in ``sing`` text become letters."""
        text = " ".join(entry.lower().split())
        match = _SING_WORDS.match(text)
        if match is None:
            return None
        value, rest = match.groups()
        if value in ("40", "cuarenta", "las cuarenta"):
            return "sing 40" if not rest else None
        letter = SUIT_WORDS.get(rest, rest.upper())
        if letter:
            return f"sing 20 {letter}"
        twenties = [a for a in legal if a.kind == "sing" and a.args[0] == 20]
        if len(twenties) == 1:
            return twenties[0]
        if not twenties:
            raise IllegalActionError("there is no veinte to sing now")
        raise IllegalActionError(
            f"which veinte? {', '.join(a.text for a in twenties)}")

    # -- the match as it happens ---------------------------------------------------------------

    def intro(self, seed: int | None) -> None:
        game = self.game
        opts = game.options
        defaults = type(game).default_options()
        if self.cabrero:
            rules = [f"cabrero, {game.num_players} players each alone, the middle loses",
                     f"out at {opts['losses_out']} lost hands"]
        else:
            rules = ["habanero, two players" if self.two else "three players, each alone" if self.three
                     else "pairs",
                     f"first to {opts['rounds_to_win']} rounds"]
        if not opts["tute"]:
            rules.append("no tute")
        elif opts["tute_sotas"]:
            rules.append("four sotas make tute too")
        if not opts["tie_last_trick"]:
            rules.append("equal points: nobody wins the round")
        if self.two and opts["free_while_stock"]:
            rules.append("free play while the stock lasts")
        if self.two and opts["exchange_anytime"]:
            rules.append("exchange on any turn")
        if not self.two:
            if opts["must_overtrump"] != defaults["must_overtrump"]:
                rules.append("no duty to overtrump")
            if opts["partner_exception"] and not self.three:
                rules.append("partner exception")
            if opts["must_declare"]:
                rules.append("singing is compulsory")
        self.print_intro(", ".join(rules), seed, f"Counter-clockwise, seats: {self.seat_numbers()}",
                         "Type a card's number or name (1o, 12c); 40 or 20 C to sing; help for more.")

    def announce_hand(self, obs: JSON) -> None:
        seats = self.seats
        dealer = obs["dealer"]
        leader = seats.after(dealer)
        self.hand_rule(obs["hand_number"] + 1, seats.per_side(obs["scores"]).plain)
        line = Text(capital(seats.says(dealer, "deals", "deal")))
        if self.two or self.turned(obs):
            line.append("; upcard " if self.two else f"; {'turn' if dealer == seats.me else 'turns'} ")
        else:
            line.append(f", {'show' if dealer == seats.me else 'shows'} ")
        line.append_text(self.look.card(obs["trump_card"]))
        line.append(": ")
        line.append_text(self.suit(obs["trump"]))
        line.append(" are trumps. ")
        line.append(capital(seats.says(leader, "leads", "lead")) + ".")
        out = [seats.short(s) for s, gone in enumerate(obs.get("out") or ()) if gone]
        if out:
            line.append(f" Out of the match: {', '.join(out)}.", style="dim")
        self.out.print(line)

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON, finished: bool) -> None:
        seats, look = self.seats, self.look
        me = seat == seats.me
        kind = action.kind
        line = self.actor_line(seat)
        if kind == "play" and action.card is not None:
            line.append("play " if me else "plays ")
            line.append_text(look.card(action.card.text))
        elif kind == "sing":
            trump = before["trump"]
            suit = trump if action.args[0] == 40 else str(action.args[1])
            line.append("sing " if me else "sings ")
            line.append("las cuarenta" if action.args[0] == 40 else "veinte", style="bold magenta")
            line.append(" in ")
            line.append_text(self.suit(suit))
            line.append(f": 12{suit} 11{suit}, +{action.args[0]}")
        elif kind == "tute":
            line.append("declare " if me else "declares ")
            line.append("TUTE", style="bold magenta")
            line.append(": four reyes or four caballos win the round!")
        elif kind == "exchange":
            _, given, taken = after["exchanges"][-1]
            line.append("exchange " if me else "exchanges ")
            line.append_text(look.card(given))
            line.append(" for the upcard ")
            line.append_text(look.card(taken))
        else:
            return  # a pass says nothing
        self.out.print(line)
        if finished:
            previous = after["previous_hand"]
            if kind == "play":
                self.narrate_trick(previous["final_trick"], len(before["tricks"]) + 1,
                                   previous["points"], last=True)
            self.out.print()
            self.out.print(self.result_panel(previous, f"Round {before['hand_number'] + 1} result"))
        elif len(after["tricks"]) > len(before["tricks"]):
            self.narrate_trick(after["tricks"][-1], len(after["tricks"]), after["points"])
            if self.two:
                self.narrate_draw(before, after)

    def narrate_trick(self, trick: JSON, number: int, points: Sequence[int], last: bool = False) -> None:
        line = self.trick_head(number, trick["winner"], full=True)
        pts = trick_points(trick["cards"])
        line.append(f", {pts} pts" + (f" +{LAST_TRICK} last" if last else ""))
        line.append("   ")
        line.append_text(self.seats.per_side(points, bold=False))
        self.out.print(line)

    def narrate_draw(self, before: JSON, after: JSON) -> None:
        """Two players: who drew what (your own card, and the upcard when it is taken)."""
        if before["stock_size"] == after["stock_size"]:
            return
        seats = self.seats
        winner = after["tricks"][-1]["winner"]
        mine = [c for c in after["hand"] if c not in before["hand"]]
        upcard = before["trump_card"] if after["trump_card"] is None else None
        parts = []
        for seat in (winner, seats.after(winner)):
            if seat == seats.me:
                card = mine[0] if mine else "?"
                text = Text("you take the upcard " if card == upcard else "you draw ")
                text.append_text(self.look.card(card))
            elif upcard is not None and upcard not in mine:
                text = Text(f"{seats.short(seat)} takes the upcard ").append_text(self.look.card(upcard))
            else:
                text = Text(f"{seats.short(seat)} draws")
            parts.append(text)
        parts[0] = Text(capital(parts[0].plain[:1])).append_text(parts[0][1:])
        line = Text("  ").append_text(Text("; ").join(parts))
        stock = after["stock_size"]
        if stock:
            line.append(f"   stock {stock}", style="dim")
            if before["stock_size"] > 2 >= stock:
                line.append(": no more cantes or exchanges", style="dim")
        else:
            line.append("   stock used up", style="dim")
        self.out.print(line)

    def result_panel(self, previous: JSON, title: str) -> Panel:
        """One finished round: card points, cantes, the last trick, points, who won, rounds."""
        seats = self.seats
        grid = self.grid()
        grid.add_row("Cards", seats.per_side(previous["cards"], bold=False))
        decl = previous["declarations"]
        grid.add_row("Cantes", self.cantes(decl, previous["trump"]) if decl else Text("none", style="dim"))
        last = previous["last_trick"]
        if last is not None:
            grid.add_row("Last trick", Text(f"{seats.side(last)} +{LAST_TRICK}"))
        grid.add_row("Points", seats.per_side(previous["points"]))
        if self.cabrero:
            grid.add_row("Tricks", seats.per_side(previous["tricks"], bold=False))
            grid.add_row("Losers", self.losers_text(previous))
            if previous["put_out"]:
                grid.add_row("Put out", Text(", ".join(seats.short(s) for s in previous["put_out"]),
                                             style="bold red"))
            grid.add_row(self.score_label, self.standing(previous["scores"]))
            return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)
        winner = previous["round_winner"]
        points = previous["points"]
        if previous["tute"] is not None:
            verdict = Text.assemble((self.wins(winner), "bold"),
                                    f" the round: {seats.noun(previous['tute'])} declared tute")
        elif winner is None:
            verdict = Text("equal points: nobody wins the round", style="bold yellow")
        elif len(set(points)) == 1:
            verdict = Text.assemble((self.wins(winner), "bold"),
                                    " the round: equal points, and the last trick")
        else:
            verdict = Text(f"{self.wins(winner)} the round", style="bold")
        grid.add_row("Round", verdict)
        grid.add_row("Rounds", self.standing(previous["scores"]))
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def losers_text(self, previous: JSON) -> Text:
        """Cabrero: who lost the round, and why (as the engine's result says)."""
        seats = self.seats
        losers = previous["losers"]
        names = ", ".join(seats.short(s) for s in losers)
        capote = previous["capote"]
        if previous["tute"] is not None:
            why = f"{seats.short(previous['tute'])} declared tute"
        elif capote is not None:
            why = (f"{seats.short(capote)} took every trick after a cante" if losers == [capote]
                   else f"capote by {seats.short(capote)}")
        elif any(previous["tricks"][s] == 0 for s in losers):
            why = "no trick"
        else:
            why = "the middle" + (", equal points" if len({previous["points"][s] for s in losers})
                                  < len(losers) or len(losers) > 2 else "")
        return Text.assemble((names, "bold"), f" ({why})")

    def cabrero_verdict(self, obs: JSON) -> Text:
        """Cabrero, the match over: who is left (the winners), from ``places``."""
        places = obs["places"]
        best = [s for s, p in enumerate(places) if p == 1]
        mine = self.seats.me is not None and self.seats.me in best
        names = " and ".join("You" if s == self.seats.me else self.seats.short(s) for s in best)
        verb = "win" if len(best) > 1 or mine else "wins"
        return Text(f"{names} {verb} the match", style="bold green" if mine or self.seats.me is None
                    else "bold red")

    def finale(self, obs: JSON) -> None:
        if self.cabrero and obs.get("places"):
            verdict = self.cabrero_verdict(obs)
            verdict.append(f"   lost {self.seats.per_side(obs['scores']).plain}")
            self.final_panel(verdict, self.match_over_title(obs))
            return
        super().finale(obs)

    def verdict(self, obs: JSON, over: bool) -> Text:
        if self.cabrero and over and obs.get("places"):
            verdict = Text("Match over: ", style="bold green").append_text(self.cabrero_verdict(obs))
            verdict.append("   ")
            return verdict.append_text(self.standing(obs["scores"]))
        return super().verdict(obs, over)

    def show_score(self, obs: JSON) -> None:
        grid = self.grid()
        grid.add_row(self.score_label, self.standing(obs["scores"]))
        grid.add_row("This round", self.points_line(obs))
        if obs["declarations"]:
            grid.add_row("Sung", self.cantes(obs["declarations"], obs["trump"]))
        self.out.print(grid)
        if obs["previous_hand"] is not None:
            self.out.print(self.result_panel(obs["previous_hand"], "Previous round"))

    def trick_outcome(self, trick: JSON) -> str:
        return f"   won by {self.seats.noun(trick['winner'])}, {trick_points(trick['cards'])} pts"

    # -- replays ----------------------------------------------------------------------------------

    def replay_hand(self, record: JSON, index: int) -> None:
        """One round of a record: each seat's cards, trumps, every trick, the cantes, the result.

        A trick is one line, leader first, the winning card highlighted; cantes,
        exchanges and (two players) the cards drawn follow on indented lines.
        """
        out, seats, look = self.out, self.seats, self.look
        state = state_at_hand_start(record, index)
        hand = record["hands"][index]
        start = public(state)
        self.hand_rule(index + 1, seats.per_side(start["scores"]).plain)
        dealer = start["dealer"]
        out.print(f"Dealer {seats.full(dealer)}; {seats.full(seats.after(dealer))} leads.")
        line = Text("Trumps ").append_text(self.suit(start["trump"]))
        line.append(": the upcard is " if self.two else ": the turned card (out of play) is "
                    if self.turned(start) else ": the dealer's last card is ")
        out.print(line.append_text(look.card(start["trump_card"])))
        deal = self.grid()
        for seat in seats.seat_order:
            deal.add_row(seats.full(seat), look.compact_hand(state.observation(seat)["hand"]))
        if self.two:
            deal.add_row("Stock", look.cards(c for pile in hand["deal"][3:] for c in pile.split()))
        out.print(deal)

        number = 0
        finished: JSON | None = None
        held = [state.observation(s)["hand"] for s in range(self.game.num_players)]
        for actor, text, before, after, done in replay_steps(state, hand["actions"]):
            now = [state.observation(s)["hand"] for s in range(self.game.num_players)]
            kind = text.split()[0]
            who = seats.short(actor)
            if kind == "sing":
                self.note(Text(f"{who} sings ").append_text(self.cante(text, before["trump"])))
            elif kind == "tute":
                self.note(Text.assemble(f"{who} declares ", ("tute", "bold magenta")))
            elif kind == "exchange":
                _, given, taken = after["exchanges"][-1]
                self.note(Text.assemble(f"{who} exchanges ", look.card(given), " for the upcard ",
                                        look.card(taken)))
            if done:
                finished = after["previous_hand"]
                if kind == "play":
                    number += 1
                    out.print(self.trick_row(number, finished["final_trick"], finished["points"]))
            elif len(after["tricks"]) > len(before["tricks"]):
                number += 1
                trick = after["tricks"][-1]
                out.print(self.trick_row(number, trick, after["points"]))
                draws = self.drawn(trick["winner"], held, now)
                if draws:
                    self.note(Text("draws: ").append_text(join(draws, ", ")))
            held = now
        if finished is not None:
            out.print(self.result_panel(finished, f"Round {index + 1} result"))
        else:
            self.unfinished(hand)

    def row_worth(self, trick: JSON) -> str:
        """``19 pts `` (``  3  W 12C  S 6E  E 1E  N 12E   won by W, 19 pts   N-S 103 · E-W 44``)."""
        return f"{trick_points(trick['cards']):>2} pts "

    def stats(self) -> TuteStats:
        return TuteStats(self.seats)


# -- simulations -------------------------------------------------------------------------------------


@dataclass
class TuteStats(SimStats):
    """Round winners, round points, cantes, tutes and ties over simulated rounds."""

    hand_word = "rounds"
    winners: Counter[int | None] = field(default_factory=Counter)
    points: list[Counter[int]] = field(default_factory=list)
    point_sums: list[int] = field(default_factory=list)
    cantes: Counter[str] = field(default_factory=Counter)
    cantes_per_round: Counter[int] = field(default_factory=Counter)
    tutes: int = 0
    ties: int = 0
    ties_to_last_trick: int = 0
    last_trick_wins: int = 0
    losers: Counter[int] = field(default_factory=Counter)
    """Cabrero: rounds each seat lost."""
    loss_reasons: Counter[str] = field(default_factory=Counter)
    """Cabrero: rounds lost to a capote, to a player without a trick, to the middle."""

    BUCKET = 20

    def add(self, result: JSON) -> None:
        super().add(result)
        points = result["points"]
        if not self.points:
            self.points = [Counter() for _ in points]
            self.point_sums = [0] * len(points)
        for side, p in enumerate(points):
            self.points[side][p // self.BUCKET] += 1
            self.point_sums[side] += p
        winner = result["round_winner"]
        self.winners[winner] += 1
        if "losers" in result:  # cabrero
            for seat in result["losers"]:
                self.losers[seat] += 1
            self.loss_reasons["capote" if result["capote"] is not None else "no trick"
                              if any(result["tricks"][s] == 0 for s in result["losers"]) else "middle"] += 1
        declarations = result["declarations"]
        self.cantes_per_round[sum(1 for _, t in declarations if t != "tute")] += 1
        for _, text in declarations:
            self.cantes["tute" if text == "tute" else text.split()[1]] += 1
        if result["tute"] is not None:
            self.tutes += 1
        elif len(set(points)) == 1:
            self.ties += 1
            self.ties_to_last_trick += winner is not None
        if winner is not None and winner == result["last_trick"]:
            self.last_trick_wins += 1

    def match_over(self, obs: JSON, hands: int) -> None:
        places = obs.get("places")
        if not places:
            super().match_over(obs, hands)
            return
        self.matches += 1  # cabrero: each seat left at the end won it
        self.match_hands += hands
        for seat, place in enumerate(places):
            if place == 1:
                self.match_winners[self.seats.side(seat)] += 1

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        self.header(out, game, args, elapsed)
        seats, n = self.seats, self.hands
        sides = list(range(len(self.points)))
        if getattr(game, "cabrero", False):
            self.print_cabrero(out, args, sides)
            return

        table = self.rounds_table("Round winners", "side", "rounds", self.winners, sides)
        if self.winners[None]:
            table.add_row("nobody (equal points)", str(self.winners[None]), pct(self.winners[None], n), "")
        out.print(table)

        spread = Table(title="Round points", title_justify="left", box=box.SIMPLE_HEAD)
        spread.add_column("points", justify="right", style="cyan")
        for side in sides:
            spread.add_column(seats.side(side), justify="right")
        top = max((max(c) for c in self.points if c), default=0)
        for bucket in range(top + 1):
            low = bucket * self.BUCKET
            row = [f"{low}–{low + self.BUCKET - 1}"]
            for side in sides:
                count = self.points[side][bucket]
                row.append(count_cell(count, n))
            spread.add_row(*row)
        out.print(spread)
        total = ("130 without cantes, less the turned card's points" if game.num_players == 3
                 else "130 without cantes")
        out.print(Text(f"points = cards + cantes + 10 for the last trick ({total})", style="dim"))

        out.print(Text("Cantes per round   ").append_text(self.shares(self.cantes_per_round, n)))
        out.print(Text.assemble("Cantes sung        las cuarenta ", (str(self.cantes["40"]), "bold"),
                                f" ({pct(self.cantes['40'], n)} of rounds) · veinte ",
                                (str(self.cantes["20"]), "bold"), f" ({self.cantes['20'] / n:.2f} a round)"))
        out.print(Text.assemble("Tute               ", (str(self.tutes), "bold"), f" ({pct(self.tutes, n)})"))
        if game.options["tie_last_trick"]:
            settled = f"{self.ties_to_last_trick} decided by the last trick"
        else:
            settled = f"nobody won {self.winners[None]}"
        out.print(Text.assemble("Equal points       ", (str(self.ties), "bold"),
                                f" ({pct(self.ties, n)}); {settled}"))
        out.print(Text.assemble("Last trick         the side that took it won ",
                                (pct(self.last_trick_wins, n), "bold"), " of the rounds"))
        if args.matches:
            self.print_matches(out)

    def rounds_table(self, title: str, who: str, what: str, counts: Mapping[Any, int],
                     sides: list[int]) -> Table:
        """A row per side (seat in cabrero): the rounds it won (or lost), their share, its mean
        round points."""
        n = self.hands
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(who, style="cyan")
        table.add_column(what, justify="right")
        table.add_column("share", justify="right")
        table.add_column("mean points", justify="right")
        for side in sides:
            table.add_row(self.seats.side(side), str(counts[side]), pct(counts[side], n),
                          f"{self.point_sums[side] / n:.1f}")
        return table

    def print_cabrero(self, out: Console, args: argparse.Namespace, sides: list[int]) -> None:
        """Cabrero: who lost the rounds and why, and the mean points."""
        n = self.hands
        out.print(self.rounds_table("Round losers", "seat", "rounds lost", self.losers, sides))
        reasons = join(Text.assemble((f"{k}: ", "cyan"), pct(v, n))
                       for k, v in sorted(self.loss_reasons.items()))
        out.print(Text("Lost to            ").append_text(reasons))
        out.print(Text("Cantes per round   ").append_text(self.shares(self.cantes_per_round, n)))
        if args.matches:
            self.print_matches(out)
