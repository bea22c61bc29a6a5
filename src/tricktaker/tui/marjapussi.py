"""The Marjapussi family in the terminal: Marjapussi, Bondtolva (four and two players), Avomarjapussi.

One screen serves every game of the family; it branches on what the
observation holds: ``players`` (partners or two alone), ``stock_size``
(two-handed Bondtolva) and ``rows`` (Avomarjapussi's face-up cards over
face-down ones).  Play goes clockwise, so for the person at the table the
order is You → Left → Partner → Right (two players: You → Opponent).

Everything shown comes from ``observation(seat)``: the hand, the public calls
(declare, ask whole, ask half, the answers), the marriages, the trick, the
pips and the previous hand's result.  Replays show every card, since a record
holds every deal anyway.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import JSON, Action, Game
from ..games.marjapussi import ACE_TEN, CARD_PIPS, DROP_TO, ROW, MarjapussiFamily
from .common import Seats, capital, count_cell, join, pct
from .marriages import RANK_NAMES, MarriageScreen, strength
from .screen import SimStats, public, replay_steps, state_at_hand_start

__all__ = ["MarjapussiScreen", "MarjapussiStats"]


class MarjapussiScreen(MarriageScreen):
    """Renders an observation of any Marjapussi-family game, for the person at the table and for replays."""

    HELP_MOVES = """\
  a number    the number shown next to a card, a call or an answer: 1, 2, ...
  a card      as, th, 10h: plays that card (from your hand, or from your
              face-up cards in Avomarjapussi)
  a call      d h or declare hearts: declare the marriage (K+Q) of hearts;
              whole: ask your partner for a whole marriage;
              half h: ask your partner for the other half of hearts
  an answer   no, or the suit: hearts, a h (when your partner asks you)
  an action   play AS, declare H, ask whole, ask half H, answer H, answer no"""

    def __init__(self, console: Console, game: Game, seats: Seats) -> None:
        super().__init__(console, game, seats)
        assert isinstance(game, MarjapussiFamily), game
        self.family = game
        self.target: int = game.options.get("target", 12)
        self.down_mark = "▮" if self.look.unicode else "#"
        self._starts: dict[int, JSON] = {}
        """The scores at the start of each hand seen, by hand number: to explain an overshoot."""

    # -- what kind of table --------------------------------------------------------------

    @property
    def rows(self) -> bool:
        return self.family.layout == "rows"

    @property
    def stock(self) -> bool:
        return self.family.layout == "stock"

    @property
    def over_rule(self) -> str:
        """``drop`` (back to 7), ``subtract`` (the excess off the target) or ``keep``."""
        return self.family.over

    @property
    def aces_tens(self) -> bool:
        """The pip point goes by aces and tens (Bondtolva, Marjapussi's ``pips=aces_tens``)."""
        return self.game.name == "bondtolva" or self.game.options.get("pips") == "aces_tens"

    @property
    def pip_word(self) -> str:
        return "aces and tens" if self.aces_tens else "pips"

    @property
    def tie_breaker(self) -> str:
        return "honours" if self.game.name == "bondtolva" else "card pips"

    def card_pips(self, text: str) -> int:
        rank = self.game.deck.card(text).rank.value
        return (ACE_TEN if self.aces_tens else CARD_PIPS).get(rank, 0)

    def trick_pips(self, cards: Sequence[Sequence[Any]]) -> int:
        return sum(self.card_pips(str(card)) for _, card in cards)

    def trick_worth(self, cards: Sequence[Sequence[Any]]) -> str:
        return self.pips_text(self.trick_pips(cards))

    def pips_text(self, pips: int) -> str:
        if not self.aces_tens:
            return f"{pips} pip{'s' if pips != 1 else ''}"
        return f"{pips} ace{'s' if pips != 1 else ''}/ten{'s' if pips != 1 else ''}"

    # -- words ---------------------------------------------------------------------------

    def target_text(self) -> str:
        """``to exactly 12, over it back to 7`` and the like."""
        target = self.target
        if self.over_rule == "drop":
            return f"to exactly {target}; going over drops a side to {DROP_TO}"
        if self.over_rule == "subtract":
            return f"to exactly {target}; points over {target} are taken off {target}"
        return f"first to {target}"

    def marriage_value(self, value: int) -> str:
        return "trumps" if value == 2 else "little one"

    def marriage_text(self, seat: int, letter: str, value: int) -> Text:
        """``♥ trumps: Partner, Us +2``; two players: ``♥ trumps: You +2``."""
        out = Text.assemble(self.look.suit_label(letter), f" {self.marriage_value(value)}: ")
        side = self.seats.side_of(seat)
        if self.partners:
            out.append(f"{self.name(seat)}, {self.seats.side(side)} ")
        else:
            out.append(f"{self.name(seat)} ")
        out.append(f"+{value}", style="bold")
        return out

    def lead_rule_text(self, rule: Sequence[str], seat: int) -> str:
        """What the leader must lead if he can, from ``obs["lead_rule"]``."""
        me = seat == self.seats.me
        has = "you have" if me else "he has"
        holds = "you hold" if me else "he holds"
        cards = [self.game.deck.card(c) for c in rule]
        if len(cards) == 1:
            card = cards[0]
            return f"the {RANK_NAMES.get(card.rank.value, card.rank.text)} of {card.suit.name}, " \
                   f"which opens the match"
        if all(c.rank.value == 14 for c in cards):
            text = f"an ace if {has} one"
            if self.game.options.get("first_lead") == "ace_or_spade":
                text += ", else a spade"
            return text
        suit = cards[0].suit.name
        return f"the king or queen of {suit} (the marriage just made), if {holds} one"

    # -- the status panel ------------------------------------------------------------------

    def match_target(self) -> str:
        return f"target {self.target}"

    def match_line(self, obs: JSON) -> Text:
        line = self.seats.per_side(obs["scores"])
        line.append(f"   {self.target_text()}", style="dim")
        return line

    def match_grid(self, obs: JSON) -> Table:
        """The status and the score both open with the match and a pip point carried over."""
        grid = self.grid()
        grid.add_row("Match", self.match_line(obs))
        if obs["carry"]:
            grid.add_row("Carried", self.carry_text(obs["carry"]))
        return grid

    def carry_text(self, carry: int) -> Text:
        return Text(f"{carry} pip point{'s' if carry != 1 else ''} carried over from equal {self.pip_word}: "
                    f"the next pip winner gets {'them' if carry != 1 else 'it'} too", style="yellow")

    def trumps_line(self, obs: JSON) -> Text:
        trump = obs["trump"]
        if trump is None:
            return Text("no trumps yet: the first marriage makes them", style="dim")
        line = self.suit(trump)
        maker = next((int(s) for s, letter, v in obs["marriages"] if letter == trump and v == 2), None)
        if maker is not None:
            line.append(f"   made by {self.obj(maker)}", style="dim")
        return line

    def tricks_line(self, tricks_won: Sequence[int], pips: Sequence[int]) -> Text:
        line = self.seats.per_side(tricks_won)
        line.append(f"   {self.pip_word} ", style="dim")
        line.append_text(self.seats.per_side(pips, bold=False))
        return line

    def points_line(self, obs: JSON) -> Text:
        line = self.seats.per_side(obs["points"])
        line.append("   at the end +1 last trick, +1 pip point", style="dim")
        return line

    def stock_line(self, size: int) -> Text:
        if size:
            line = Text(f"{size} card{'s' if size != 1 else ''}", style="bold")
            line.append(": no duty to follow, trump or beat while it lasts", style="dim")
            return line
        return Text("used up: all duties apply (follow, trump, beat); no more marriages", style="dim")

    def row_cells(self, row: Sequence[Sequence[Any]]) -> list[Text]:
        """One seat's row by column: the face-up card, and ▮ while a card lies face down beneath it."""
        cells = []
        for up, down in row:
            cell = Text()
            if up is None:
                cell.append("·", style="dim")
            else:
                cell.append_text(self.look.card(str(up)))
            if down:
                cell.append(self.down_mark, style="dim")
            cells.append(cell)
        return cells

    def rows_table(self, rows: Sequence[Sequence[Sequence[Any]]]) -> Table:
        """Both rows, column by column, the opponent's first (a replay: seat 0 first)."""
        table = Table.grid(padding=(0, 2))
        table.add_column(style="dim", no_wrap=True)
        for _ in range(ROW):
            table.add_column(no_wrap=True, min_width=3)
        table.add_row("", *(Text(str(k + 1), style="dim") for k in range(ROW)))
        order = list(self.seats.seat_order)
        if self.seats.me is not None:
            order.reverse()  # the opponent across the table, your own row nearest you
        for seat in order:
            table.add_row(self.name(seat), *self.row_cells(rows[seat]))
        return table

    def status(self, obs: JSON) -> Panel:
        """The table as the seat sees it: match, trumps, marriages, calls, tricks, rows, the trick."""
        grid = self.match_grid(obs)
        grid.add_row("Trumps", self.trumps_line(obs))
        if obs["marriages"]:
            grid.add_row("Marriages", self.marriages_line(obs["marriages"]))
        if obs["calls"] and self.partners:
            grid.add_row("Calls", self.calls_line(obs["calls"]))
        grid.add_row("Points", self.points_line(obs))
        grid.add_row("Tricks", self.tricks_line(obs["tricks_won"], obs["pips"]))
        if "stock_size" in obs:
            grid.add_row("Stock", self.stock_line(obs["stock_size"]))
        known = self.known_line(obs)
        if known is not None:
            grid.add_row("Known", known)
        if "rows" in obs:
            grid.add_row("Rows", self.rows_table(obs["rows"]))
        if obs["lead_rule"] and obs["current_player"] is not None and not obs["trick"]:
            leader = obs["current_player"]
            rule = self.lead_rule_text(obs["lead_rule"], leader)
            grid.add_row("Lead", Text(f"{self.name(leader)}: {rule}"))
        grid.add_row("Table", self.table_line(obs))
        return self.status_panel(grid, obs)

    # -- the person's turn ---------------------------------------------------------------------

    def hand_rows(self, obs: JSON, legal: Sequence[Action]) -> Table:
        """The hand by suit; in Avomarjapussi the face-up cards join it, in [brackets]."""
        up = self.my_row(obs)
        if not up:
            return super().hand_rows(obs, legal)
        number = {a.card.text: i for i, a in enumerate(legal, 1) if a.card is not None}
        deck = self.game.deck
        return self.hand_grid([*obs["hand"], *up], number,
                              order=lambda t: -strength(deck.card(t).rank.value), bracketed=up)

    def hand_title(self, obs: JSON) -> Text:
        title = Text("Your hand", style="bold")
        if self.my_row(obs):
            title.append(" and your face-up cards", style="bold")
            title.append(" [on the table]", style="dim")
        self.add_seen(title, obs)
        return title

    def choice_label(self, action: Action, obs: JSON) -> Text:
        label = Text(action.text, style="bold")
        words = action.text.split()
        kind = action.kind
        if kind == "declare":
            label.append(" (trumps, +2)" if obs["trump"] is None else " (+1)", style="dim")
        elif kind == "answer" and words[1] != "no":
            label.append(f" ({self.suit_name(words[1])})", style="dim")
        return label

    def lead_instruction(self, obs: JSON, cards: Sequence[Any]) -> str:
        """How to lead: under the lead rule in force (aces first, the marriage just made), or freely."""
        rule = obs["lead_rule"]
        legal = {c.text for c in cards}
        if not rule:
            return "Lead a card: its number or its name (as, th...)."
        if len(rule) == 1:
            return f"Lead {self.lead_rule_text(rule, obs['seat'])}."
        aces = len(rule) == 4
        if legal <= set(rule):
            if aces:
                return "Lead an ace: the first lead must be an ace when you have one."
            suit = self.suit_name(rule[0][-1])
            return f"Lead the king or queen of {suit}: after a marriage it must be led from if you can."
        if not aces:
            return "Lead any card: you hold neither the king nor the queen of the marriage just made."
        held = len(obs["hand"]) + len(self.my_row(obs))
        if self.game.options.get("first_lead") == "ace_or_spade" and all(t.endswith("S") for t in legal) \
                and len(legal) < held:
            return "You have no ace: lead a spade."
        return "You have no ace: lead any card."

    # -- the match as it happens ---------------------------------------------------------------

    def intro(self, seed: int | None) -> None:
        game = self.game
        opts = game.options
        if self.partners:
            rules = ["partners opposite"]
        elif self.rows:
            rules = ["two players, 4 in hand and 7 face up over 7 face down"]
        else:
            rules = ["two players with a stock"]
        rules.append(self.target_text())
        if opts.get("first_lead") == "ace_or_spade":
            rules.append("first lead an ace, else a spade")
        if opts.get("pips") == "aces_tens":
            rules.append("pip point by aces and tens")
        if opts.get("pip_tie_carries"):
            rules.append("equal pips carry the pip point over")
        if opts.get("clubs_ace_opens"):
            rules.append("the ace of clubs opens the match")
        if opts.get("lead_from_marriage") and game.name != "bondtolva":
            rules.append("lead from a marriage just made")
        if opts.get("declaration_order", "free") != "free":
            rules.append(f"calls {opts['declaration_order'].replace('_', ' ')}")
        if opts.get("partner_exception"):
            rules.append("partner exception")
        calls = "d h declares hearts; whole and half h ask your partner; " if self.partners else \
            "d h declares hearts; "
        self.print_intro("; ".join(rules), seed, f"Clockwise, seats: {self.seat_numbers()}",
                         f"Type a card's number or name (as, th); {calls}help for more.")

    def remember_start(self, obs: JSON) -> None:
        self._starts.setdefault(obs["hand_number"], {"scores": list(obs["scores"])})

    def announce_hand(self, obs: JSON) -> None:
        self.remember_start(obs)
        seats = self.seats
        dealer = obs["dealer"]
        leader = obs["current_player"]
        self.hand_rule(obs["hand_number"] + 1, seats.per_side(obs["scores"]).plain)
        line = Text(f"{capital(seats.says(dealer, 'deals', 'deal'))}; ")
        line.append(seats.says(leader, "leads", "lead"))
        if obs["lead_rule"]:
            line.append(f": {self.lead_rule_text(obs['lead_rule'], leader)}")
        line.append(".")
        if "stock_size" in obs:
            line.append(f" Stock: {obs['stock_size']} cards; no duties while it lasts.")
        if "rows" in obs:
            line.append(" Each of you has 4 cards in hand and 7 face up on the table, each over a card "
                        "face down.")
        self.out.print(line)
        if obs["carry"]:
            self.out.print(self.carry_text(obs["carry"]))

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON, finished: bool) -> None:
        self.remember_start(before)
        seats, look = self.seats, self.look
        me = seat == seats.me
        kind = action.kind
        line = self.actor_line(seat)
        if kind == "play" and action.card is not None:
            card = action.card.text
            line.append("play " if me else "plays ")
            line.append_text(look.card(card))
            if "rows" in before:
                row = before["rows"][seat]
                column = next((k for k, (up, _) in enumerate(row) if up == card), None)
                if column is not None:
                    line.append(f" from the table (column {column + 1})")
                    if row[column][1] and not finished:
                        below = after["rows"][seat][column][0]
                        line.append("; beneath it ")
                        line.append_text(look.card(str(below)))
                        line.append(" turns up")
        elif kind in ("declare", "ask", "answer"):
            line = self.narrated_call(seat, action, before, after)
        else:
            line.append(action.text)
        self.out.print(line)
        if finished:
            previous = after["previous_hand"]
            if kind == "play":
                self.narrate_trick(previous["final_trick"], len(before["tricks"]) + 1, previous["pips"],
                                   last=True)
            self.out.print()
            start = self._starts.get(before["hand_number"])
            title = f"Hand {before['hand_number'] + 1} result"
            self.out.print(self.result_panel(previous, title, start, after["winner"]))
        elif len(after["tricks"]) > len(before["tricks"]):
            self.narrate_trick(after["tricks"][-1], len(after["tricks"]), after["pips"])
            if "stock_size" in before and before["stock_size"] != after["stock_size"]:
                self.narrate_draw(before, after)

    def marriage_outcome(self, line: Text, after: JSON) -> None:
        """After a declare or a yes: ``: trumps! Us +2`` or ``: a little one Them +1``."""
        seat, letter, value = after["marriages"][-1]
        side = self.seats.side(self.seats.side_of(int(seat)))
        line.append(": ")
        if value == 2:
            line.append("trumps!", style="bold magenta")
        else:
            line.append("a little one", style="bold")
        line.append(f" {side} +{value}")

    def narrate_trick(self, trick: JSON, number: int, pips: Sequence[int], last: bool = False) -> None:
        line = self.trick_head(number, trick["winner"])
        line.append(f", {self.pips_text(self.trick_pips(trick['cards']))}")
        if last:
            line.append(", the last trick +1")
        line.append("   aces+tens " if self.aces_tens else "   pips ", style="dim")
        line.append_text(self.seats.per_side(pips, bold=False))
        self.out.print(line)

    def narrate_draw(self, before: JSON, after: JSON) -> None:
        """Two-handed Bondtolva: the winner draws, then the loser; the person sees only his own card."""
        seats = self.seats
        winner = after["tricks"][-1]["winner"]
        played = {c for trick in after["tricks"][-1:] for _, c in trick["cards"]}
        mine = [c for c in after["hand"] if c not in before["hand"] and c not in played]
        parts = []
        for seat in (winner, seats.after(winner)):
            if seat == seats.me:
                part = Text("you draw ")
                part.append_text(self.look.card(mine[0]) if mine else Text("?"))
            else:
                part = Text(f"{seats.short(seat)} draws")
            parts.append(part)
        first = parts[0]
        parts[0] = Text(capital(first.plain[:1])).append_text(first[1:])
        line = Text("  ").append_text(Text("; ").join(parts))
        stock = after["stock_size"]
        if stock:
            line.append(f"   stock {stock}", style="dim")
            self.out.print(line)
        else:
            self.out.print(line)
            self.out.print(Text("  The stock is used up: now all duties apply (follow suit, else trump, "
                                "beat); no more marriages.", style="yellow"))

    # -- results -----------------------------------------------------------------------------

    def pip_result(self, previous: JSON) -> Text:
        """The pip point: who had more, ties, the tie-breaker, a carried point."""
        seats = self.seats
        pips = previous["pips"]
        line = seats.per_side(pips, bold=False)
        side = previous["pip_point"]
        if side is not None:
            points = previous["points"][side]
            marriages = sum(int(v) for s, _, v in previous["marriages"] if seats.side_of(int(s)) == side)
            carried = points - marriages - (1 if previous["last_trick"] == side else 0) - 1
            tie_break = previous.get("pips_tie_break")  # the tie-breaking counts, where given
            if len(set(pips)) == 1 and tie_break:
                line.append(f": equal; {self.tie_breaker} ")
                line.append_text(seats.per_side(tie_break, bold=False)).append(": ")
            elif len(set(pips)) == 1:
                line.append(f": equal, {self.tie_breaker} decide: ")
            else:
                line.append(": ")
            line.append(f"{seats.side(side)} +1", style="bold")
            if carried > 0:
                line.append(f" and +{carried} carried over", style="yellow")
        elif previous["carry"]:
            line.append(f": equal, carried over to the next hand ({previous['carry']} waiting)",
                        style="yellow")
        else:
            line.append(": equal, nobody gets the pip point", style="yellow")
        return line

    def score_changes(self, previous: JSON, start: JSON | None) -> list[Text]:
        """Porvoo, and overshooting the target: what happened to each side's score, in words."""
        lines = []
        target = self.target
        for side in self.seats.side_order:
            who, many = self.side_subject(side)
            if side in previous["porvoo"]:
                lines.append(Text.assemble((f"{who} took no trick", "bold red"),
                                           f" and {'go' if many else 'goes'} to Porvoo: back to 0"))
                continue
            if start is None:
                continue
            total = start["scores"][side] + previous["points"][side]
            score = previous["scores"][side]
            if total <= target or self.over_rule == "keep":
                continue
            sum_text = f"{who}: {start['scores'][side]} + {previous['points'][side]} = {total}, over {target}"
            if self.over_rule == "drop":
                lines.append(Text.assemble((sum_text, "bold yellow"), f": back to {score}"))
            else:
                lines.append(Text.assemble((sum_text, "bold yellow"),
                                           f" by {total - target}, taken off {target}: {score}"))
        return lines

    def result_panel(self, previous: JSON, title: str, start: JSON | None = None,
                     winner: int | None = None) -> Panel:
        """One finished hand: tricks, marriages, the last trick, pips, points, Porvoo, overshoot, the match.

        ``start`` (scores and carry at the hand's start) lets it explain an overshoot; ``winner``
        is the side that won the match with this hand.
        """
        seats = self.seats
        grid = self.grid()
        grid.add_row("Tricks", seats.per_side(previous["tricks_won"], bold=False))
        marriages = previous["marriages"]
        grid.add_row("Marriages", self.marriages_line(marriages) if marriages
                     else Text("none: no trumps this hand", style="dim"))
        grid.add_row("Last trick", Text(f"{seats.side(previous['last_trick'])} +1"))
        grid.add_row(capital(self.pip_word), self.pip_result(previous))
        grid.add_row("Points", seats.per_side(previous["points"]))
        for number, change in enumerate(self.score_changes(previous, start)):
            grid.add_row("Score" if number == 0 else "", change)
        line = seats.per_side(previous["scores"])
        line.append(f"   {self.target_text()}", style="dim")
        grid.add_row("Match", line)
        if winner is not None:
            sides = range(self.game.num_sides)
            verdict = Text(f"{self.wins(winner)} the match", style="bold green")
            scores = previous["scores"]
            if sum(scores[s] >= self.target for s in sides) > 1:
                decides = "the higher score wins" if len(set(scores)) > 1 else "the last trick decides"
                verdict.append(f" (both reached {self.target}: {decides})", style="dim")
            grid.add_row("Winner", verdict)
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def show_score(self, obs: JSON) -> None:
        grid = self.match_grid(obs)
        grid.add_row("This hand", self.points_line(obs))
        grid.add_row("Tricks", self.tricks_line(obs["tricks_won"], obs["pips"]))
        if obs["marriages"]:
            grid.add_row("Marriages", self.marriages_line(obs["marriages"]))
        self.out.print(grid)
        previous = obs["previous_hand"]
        if previous is not None:
            start = self._starts.get(obs["hand_number"] - 1)
            self.out.print(self.result_panel(previous, "Previous hand", start))

    def trick_outcome(self, trick: JSON) -> str:
        pips = self.pips_text(self.trick_pips(trick["cards"]))
        return f"   won by {self.seats.noun(trick['winner'])}, {pips}"

    # -- replays ----------------------------------------------------------------------------------

    def replay_hand(self, record: JSON, index: int) -> None:
        """One hand of a record: the deal (rows, stock), every trick, the calls, draws, the result.

        A trick is one line, leader first, the winning card highlighted; calls,
        cards turned up and (two-handed Bondtolva) the cards drawn follow on
        indented lines.
        """
        out, seats, look = self.out, self.seats, self.look
        state = state_at_hand_start(record, index)
        hand = record["hands"][index]
        start = public(state)
        n = self.game.num_players
        self.hand_rule(index + 1, seats.per_side(start["scores"]).plain)
        leader = start["current_player"]
        line = f"Dealer {seats.full(start['dealer'])}; {seats.full(leader)} leads"
        if start["lead_rule"]:
            line += f": {self.lead_rule_text(start['lead_rule'], leader)}"
        out.print(line + ".")
        if start["carry"]:
            out.print(self.carry_text(start["carry"]))
        deal = self.grid()
        for seat in seats.seat_order:
            deal.add_row(seats.full(seat), look.compact_hand(state.observation(seat)["hand"]))
            if self.rows:
                piles = hand["deal"][2 + 2 * ROW * seat:2 + 2 * ROW * (seat + 1)]
                deal.add_row(Text("  face up", style="dim"), look.cards(piles[ROW:], "  "))
                deal.add_row(Text("  face down", style="dim"), look.cards(piles[:ROW], "  "))
        if self.stock:
            deal.add_row("Stock", look.cards(c for pile in hand["deal"][2:] for c in pile.split()))
        out.print(deal)

        number = 0
        finished: JSON | None = None
        winner: int | None = None
        held = [state.observation(s)["hand"] for s in range(n)]
        ask: str | None = None
        turned: list[Text] = []
        for actor, text, before, after, done in replay_steps(state, hand["actions"]):
            kind = text.split()[0]
            if kind != "play":
                self.note(self.call_line(actor, text, ask, after))
                ask = text if kind == "ask" else None
                continue
            if "rows" in after and not done:
                turned += self.turned_up(before, after)
            if done:
                finished, winner = after["previous_hand"], after["winner"]
                number += 1
                out.print(self.trick_row(number, finished["final_trick"], finished["pips"]))
            elif len(after["tricks"]) > len(before["tricks"]):
                number += 1
                trick = after["tricks"][-1]
                out.print(self.trick_row(number, trick, after["pips"]))
                now = [state.observation(s)["hand"] for s in range(n)]
                if self.stock and before["stock_size"] != after["stock_size"]:
                    played = {c for _, c in trick["cards"]}
                    drawn = self.drawn(trick["winner"], held, now, played)
                    self.note(Text("draws: ").append_text(join(drawn, ", ")))
                    if not after["stock_size"]:
                        self.note(Text("the stock is used up: all duties apply, no more marriages",
                                       style="dim"))
                held = now
            if turned and len(after["tricks"]) > len(before["tricks"]):
                self.note(Text("turned up: ").append_text(join(turned, ", ")))
                turned = []
        if finished is not None:
            out.print(self.result_panel(finished, f"Hand {index + 1} result", start, winner))
        else:
            self.unfinished(hand)

    def row_worth(self, trick: JSON) -> str:
        return f"{self.pips_text(self.trick_pips(trick['cards'])):<{11 if self.aces_tens else 8}}"

    def turned_up(self, before: JSON, after: JSON) -> list[Text]:
        """Avomarjapussi: the cards that turned face up with the last play."""
        parts = []
        for seat in range(self.game.num_players):
            for (was, _), (now, _) in zip(before["rows"][seat], after["rows"][seat], strict=True):
                if now is not None and now != was:
                    parts.append(Text(f"{self.seats.short(seat)} ").append_text(self.look.card(str(now))))
        return parts

    def stats(self) -> MarjapussiStats:
        return MarjapussiStats(self.seats, screen=self)


# -- simulations -------------------------------------------------------------------------------------


@dataclass
class MarjapussiStats(SimStats):
    """Trumps, marriages, the last trick, the pip point, Porvoo and overshoots over simulated hands."""

    screen: MarjapussiScreen | None = None
    """The screen of the game simulated: its rules (target, pip count) and its look."""
    points: list[Counter[int]] = field(default_factory=list)
    point_sums: list[int] = field(default_factory=list)
    more_points: Counter[int | None] = field(default_factory=Counter)
    trumps: Counter[str] = field(default_factory=Counter)
    trump_sides: Counter[int] = field(default_factory=Counter)
    marriages_per_hand: Counter[int] = field(default_factory=Counter)
    little_ones: int = 0
    last_trick: Counter[int] = field(default_factory=Counter)
    pip_point: Counter[int] = field(default_factory=Counter)
    pip_ties: int = 0
    tie_broken: int = 0
    carried: int = 0
    porvoo: Counter[int] = field(default_factory=Counter)
    porvoo_hands: int = 0
    overshoots: Counter[int] = field(default_factory=Counter)
    _scores: list[int] | None = None

    @property
    def view(self) -> MarjapussiScreen:
        assert self.screen is not None, "MarjapussiStats is made by MarjapussiScreen.stats()"
        return self.screen

    def add(self, result: JSON) -> None:
        super().add(result)
        seats = self.seats
        points = result["points"]
        sides = len(points)
        if not self.points:
            self.points = [Counter() for _ in range(sides)]
            self.point_sums = [0] * sides
        for side, p in enumerate(points):
            self.points[side][p] += 1
            self.point_sums[side] += p
        top = max(points)
        self.more_points[points.index(top) if points.count(top) == 1 else None] += 1
        marriages = result["marriages"]
        self.marriages_per_hand[len(marriages)] += 1
        for seat, letter, value in marriages:
            if value == 2:
                self.trumps[letter] += 1
                self.trump_sides[seats.side_of(seat)] += 1
            else:
                self.little_ones += 1
        self.last_trick[result["last_trick"]] += 1
        pips = result["pips"]
        if result["pip_point"] is None:
            self.pip_ties += 1
            self.carried += bool(result["carry"])
        else:
            self.pip_point[result["pip_point"]] += 1
            self.tie_broken += len(set(pips)) == 1
        if result["porvoo"]:
            self.porvoo_hands += 1
        for side in result["porvoo"]:
            self.porvoo[side] += 1
        # Overshoots need the scores before the hand: kept from hand to hand within a match.
        before = self._scores or [0] * sides
        target = self.view.target
        for side in range(sides):
            if side not in result["porvoo"] and before[side] + points[side] > target:
                self.overshoots[side] += 1
        self._scores = list(result["scores"])

    def match_over(self, obs: JSON, hands: int) -> None:
        super().match_over(obs, hands)
        self._scores = None

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        self.header(out, game, args, elapsed)
        seats, n = self.seats, self.hands
        sides = list(range(len(self.points)))
        view = self.view

        table = Table(title="Hand points", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("side", style="cyan")
        for head in ("mean", "more points", "made trumps", "last trick", "pip point", "Porvoo"):
            table.add_column(head, justify="right")
        for side in sides:
            table.add_row(seats.side(side), f"{self.point_sums[side] / n:.2f}",
                          *(pct(count[side], n) for count in (self.more_points, self.trump_sides,
                                                              self.last_trick, self.pip_point, self.porvoo)))
        out.print(table)
        if self.more_points[None]:
            out.print(Text(f"equal hand points: {self.more_points[None]} ({pct(self.more_points[None], n)})",
                           style="dim"))

        spread = Table(title="Points per hand", title_justify="left", box=box.SIMPLE_HEAD)
        spread.add_column("points", justify="right", style="cyan")
        for side in sides:
            spread.add_column(seats.side(side), justify="right")
        top = max((max(c) for c in self.points if c), default=0)
        for value in range(top + 1):
            row = [str(value)]
            for side in sides:
                count = self.points[side][value]
                row.append(count_cell(count, n))
            spread.add_row(*row)
        out.print(spread)
        out.print(Text("points: trumps 2, little ones 1 each, last trick 1, pip point 1 (+ carried)",
                       style="dim"))

        made = sum(self.trumps.values())
        out.print(Text.assemble("Trumps made        ", (str(made), "bold"), f" ({pct(made, n)} of hands): ",
                                self.by_suit(view.look, self.trumps)))
        per_hand = self.shares(self.marriages_per_hand, n)
        total = sum(k * v for k, v in self.marriages_per_hand.items())
        out.print(Text("Marriages per hand ").append_text(per_hand)
                  .append(f"   mean {total / n:.2f}, little ones {self.little_ones}"))
        ties = self.pip_ties + self.tie_broken
        tie = f"equal {view.pip_word} {ties} ({pct(ties, n)})"
        if self.tie_broken:
            tie += f": {view.tie_breaker} settled {self.tie_broken}"
        if game.options.get("pip_tie_carries"):
            tie += f"; carried over {self.carried}"
        out.print(Text.assemble("Pip point          ", tie))
        out.print(Text.assemble("Porvoo             ", (str(self.porvoo_hands), "bold"),
                                f" hands ({pct(self.porvoo_hands, n)}) where a side took no trick"))
        if not args.matches:
            out.print(Text("Single hands from 0-0 never go over the target: overshoots and match winners "
                           "need --matches.", style="dim"))
        else:
            if view.over_rule != "keep":
                what = f"dropped to {DROP_TO}" if view.over_rule == "drop" else "had the excess taken off"
                counts = join(Text.assemble(f"{seats.side(s)} ", (str(self.overshoots[s]), "bold"))
                              for s in sides)
                out.print(Text.assemble(f"Went over {view.target} ({what}): ", counts))
            self.print_matches(out)
