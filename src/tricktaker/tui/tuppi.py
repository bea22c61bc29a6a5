"""Tuppi in the terminal: the table a seat sees, the narration, replays and simulation statistics."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import JSON, Action, Game
from .common import Look, Seats, capital, count_cell, join, pct
from .screen import Screen, SimStats, public, replay_steps, state_at_hand_start

__all__ = ["TuppiScreen", "TuppiStats"]


def bid_meaning(look: Look, bid: str) -> str:
    """What a Tuppi bid says: a red card or the word ``rami`` is rami, otherwise nolo."""
    if bid in ("rami", "nolo"):
        return bid
    return "rami" if look.deck.card(bid).suit.colour == "red" else "nolo"



def _scores_text(seats: Seats, scores: Sequence[int], nousussa: int | None) -> Text:
    out = seats.per_side(scores)
    if nousussa is None:
        out.append("   (nobody nousussa)", style="dim")
    else:
        out.append(f"   {seats.side(nousussa)} nousussa", style="yellow")
    return out



class TuppiScreen(Screen):
    """Renders a Tuppi observation for the person at the table, and for replays.

    Every method reads an observation dict (``state.observation(seat)``) or a
    record, never the State, so it shows exactly what the seat may know.
    """

    HELP_MOVES = """\
  a number    the number shown next to a card or an action: 1, 2, ...
  a card      AS, as, 10s, th: plays (or bids, discards, gives) that card
  an action   bid 7H, bid rami, bid nolo, sooli, pass, discard 5C, give 9H,
              play AS"""
    ACTION_WORDS = ("sooli", "pass", "bid", "play", "discard", "give")

    # lines of the status panel

    def match_line(self, obs: JSON) -> Text:
        opts = self.game.options
        line = _scores_text(self.seats, obs["scores"], obs["nousussa"])
        line.append(f"   target {opts['target']}", style="dim")
        return line

    def tournament_line(self, obs: JSON) -> Text | None:
        if "hand_limit" not in obs:
            return None
        played = obs["hand_number"]
        limit = obs["hand_limit"]
        if played + 1 > limit:  # extended until the nousussa side loses a hand
            line = Text(f"hand {played + 1}, extra", style="bold")
        else:
            line = Text(f"hand {played + 1} of {limit}", style="bold" if played + 1 == limit else "")
        line.append("   totals while nousussa: ", style="dim")
        line.append_text(self.seats.per_side(obs["totals"], bold=False))
        return line

    def match_grid(self, obs: JSON) -> Table:
        """The status and the score both open with the match and, in a tournament, its progress."""
        grid = self.grid()
        grid.add_row("Match", self.match_line(obs))
        tournament = self.tournament_line(obs)
        if tournament is not None:
            grid.add_row("Tournament", tournament)
        return grid

    def bids_line(self, obs: JSON) -> Text:
        seats, look = self.seats, self.look
        if not obs["bids"]:
            first = (obs["dealer"] + 1) % self.game.num_players
            return Text(f"none yet; {seats.says(first, 'bids', 'bid')} first", style="dim")
        parts = []
        for bid in obs["bids"]:
            part = Text(f"{seats.short(bid['seat'])} ")
            text = bid["bid"]
            if text is None:
                part.append("hidden", style="dim")
            elif text in ("rami", "nolo"):
                part.append(text, style="bold")
                if not bid["revealed"]:
                    part.append(" (hidden)" if self.game.options["bid_cards"] else " (aloud)", style="dim")
            else:
                # Shown bids before the first rami are all nolo: naming only rami keeps the line short.
                part.append_text(look.card(text))
                meaning = bid_meaning(look, text)
                if meaning == "rami" or obs["contract"] is None:
                    part.append(f" {meaning}")
                if not bid["revealed"]:
                    part.append(" (hidden)", style="dim")
            parts.append(part)
        return join(parts)

    def contract_line(self, obs: JSON) -> Text:
        seats = self.seats
        contract = obs["contract"]
        if contract is None:
            return Text("being bid: the first rami shown declares", style="dim")
        if contract == "rami":
            decl = obs["declarer"]
            return Text.assemble(("rami", "bold green"), f", declared by {seats.noun(decl)}: ",
                                 seats.side_phrase(seats.side_of(decl)), " must take 7 tricks")
        if contract == "nolo":
            return Text.assemble(("nolo", "bold blue"), ": nobody showed rami; the side with ",
                                 "fewer tricks scores")
        solo, out = obs["soloist"], obs["sitting_out"]
        sitter = "you sit" if out == seats.me else f"{seats.short(out)} sits"
        return Text.assemble(("sooli", "bold magenta"),
                             f" by {seats.noun(solo)}: no trick allowed, ace low; {sitter} out")

    def tricks_line(self, obs: JSON) -> Text:
        seats = self.seats
        won = obs["tricks_won"]
        parts = []
        for s in seats.seat_order:
            if s == obs["sitting_out"]:
                parts.append(Text(f"{seats.short(s)} —", style="dim"))
            else:
                parts.append(Text.assemble(f"{seats.short(s)} ", (str(won[s]), "bold")))
        line = join(parts)
        line.append("    ")
        sides = [0] * self.game.num_sides
        for s, n in enumerate(won):
            sides[seats.side_of(s)] += n
        line.append_text(seats.per_side(sides))
        return line

    def table_line(self, obs: JSON) -> Text:
        turn = obs["current_player"]
        if obs["phase"] != "play":
            return Text("no trick yet", style="dim")
        if not obs["trick"]:
            who = "you lead" if turn == obs["seat"] else f"{self.seats.short(turn)} leads"
            return Text(f"empty: {who}", style="dim")
        line = self.trick_cards(obs["trick"])
        line.append("   → ", style="dim")
        line.append("you" if turn == obs["seat"] else self.seats.short(turn), style="bold")
        return line

    def status(self, obs: JSON) -> Panel:
        """The table as the seat sees it: score, bids, contract, tricks, the trick on the table."""
        grid = self.match_grid(obs)
        grid.add_row("Bids", self.bids_line(obs))
        grid.add_row("Contract", self.contract_line(obs))
        if obs["phase"] == "play" or obs["tricks"]:
            grid.add_row("Tricks", self.tricks_line(obs))
            grid.add_row("Table", self.table_line(obs))
        return self.status_panel(grid, obs)


    def instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        kinds = {a.kind for a in legal}
        if "play" in kinds:
            if not obs["trick"]:
                return "Lead a card: its number or its name (AS, 10h...)."
            lead = self.game.deck.card(obs["trick"][0][1]).suit
            if any(a.card is not None and a.card.suit is lead for a in legal):
                return f"Play a card: follow {lead.name}."
            return f"You have no {lead.name}: play any card."
        if "bid" in kinds:
            if self.game.options["bid_cards"]:
                return "Bid with a bidding card: rami (aim to take tricks) or nolo (avoid them)."
            return "Bid a card face down: red = rami (take tricks), black = nolo (avoid them)."
        if "sooli" in kinds:
            return "Play sooli? Alone, with your partner's help card, taking no trick at all."
        if "discard" in kinds:
            return "Sooli: put one card away, face down."
        if "give" in kinds:
            return "Your partner plays sooli: pass them one card; then you sit out."
        return "Your move."

    # hand results

    def result_panel(self, previous: JSON, title: str) -> Panel:
        """One finished hand: contract, tricks per side, points, kept or reset, early end."""
        seats = self.seats
        grid = self.grid()
        contract = previous["contract"]
        points = previous["points"]
        tricks = previous["tricks"]
        if contract == "rami":
            what = Text.assemble(("rami", "bold green"), f" by {seats.noun(previous['declarer'])}")
        elif contract == "sooli":
            what = Text.assemble(("sooli", "bold magenta"), f" by {seats.noun(previous['soloist'])}")
        else:
            what = Text("nolo", style="bold blue")
        grid.add_row("Contract", what)
        grid.add_row("Tricks", seats.per_side(tricks))
        scorer = 0 if points[0] else 1
        line = Text.assemble((seats.side(scorer), "bold"), f" +{points[scorer]}")
        if previous["kept"]:
            line.append(" (kept)", style="green")
        else:
            line.append(" against the nousussa side: back to 0-0", style="yellow")
        grid.add_row("Points", line)
        if previous["early_end"]:
            grid.add_row("Early end", Text("the hand stopped once the reset was certain", style="dim"))
        nousussa = 0 if previous["scores"][0] else 1 if previous["scores"][1] else None
        grid.add_row("Match", _scores_text(seats, previous["scores"], nousussa))
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, expand=False)

    def hand_title(self, obs: JSON) -> Text:
        title = Text("Your hand", style="bold")
        if "discard" in obs and "given" in obs:
            title.append(f"   (you put away {obs['discard']} and got {obs['given']} from Partner)",
                         style="dim")
        elif "given" in obs:
            title.append(f"   (you gave {obs['given']} to Partner)", style="dim")
        return title

    def shortcut(self, entry: str, legal: Sequence[Action]) -> Action | str | None:
        """A bare ``rami`` or ``nolo`` is a bid."""
        word = entry.strip().lower()
        return f"bid {word}" if word in ("rami", "nolo") else None

    # the match as it happens

    def show_score(self, obs: JSON) -> None:
        grid = self.match_grid(obs)
        grid.add_row("This hand", self.tricks_line(obs))
        self.out.print(grid)
        if obs["previous_hand"] is not None:
            self.out.print(self.result_panel(obs["previous_hand"], "Previous hand"))

    def trick_outcome(self, trick: JSON) -> str:
        return f"   → won by {self.seats.full(trick['winner'])}"

    # telling what happened

    def intro(self, seed: int | None) -> None:
        game = self.game
        opts = game.options
        rules = [f"preset {game.preset}" if game.preset else "club rules",
                 "sooli" if opts["sooli"] else "no sooli",
                 "bidding cards" if opts["bid_cards"] else "card bids",
                 f"target {opts['target']}"]
        if opts["hand_limit"]:
            rules.append(f"hand limit {opts['hand_limit']}")
        if opts["reset_keeps_points"]:
            rules.append("reset keeps points")
        order = " → ".join(self.seats.full(s) for s in self.seats.seat_order)
        self.print_intro(", ".join(rules), seed, f"Clockwise: {order}",
                         "Type a card's number or name (AS, 10h) to play it; help for more.")

    def announce_hand(self, obs: JSON) -> None:
        dealer = obs["dealer"]
        first = (dealer + 1) % self.game.num_players
        self.hand_rule(obs["hand_number"] + 1, self.score_words(obs))
        deals = self.seats.says(dealer, "deals", "deal")
        self.out.print(f"{capital(deals)}; {self.seats.says(first, 'bids', 'bid')} first.")

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON, finished: bool) -> None:
        seats, look = self.seats, self.look
        me = seat == self.seats.me
        line = self.actor_line(seat)
        kind = action.kind
        if kind == "bid":
            index = len(before["bids"])
            shown = after["bids"][index]["bid"] if index < len(after["bids"]) else None
            if me:
                word = action.args[0]
                if isinstance(word, str) and not self.game.options["bid_cards"]:
                    line.append(f"say {word} aloud (no {'red' if word == 'rami' else 'black'} bid card)")
                else:
                    line.append("bid ")
                    bid = look.card(action.card.text) if action.card else Text(str(word), style="bold")
                    line.append_text(bid)
                    line.append(" face down", style="dim")
            elif shown in ("rami", "nolo") and not self.game.options["bid_cards"]:
                line.append(f"says {shown} aloud (holds no bid card of that colour)")
            elif self.game.options["bid_cards"]:
                line.append("puts a bidding card face down")
            else:
                line.append("puts a bid card face down")
        elif kind in ("sooli", "pass"):
            if kind == "sooli":
                line.append(f"{'play' if me else 'plays'} ")
                line.append("sooli", style="bold magenta")
                line.append("!")
            else:
                line.append("pass" if me else "passes")
        elif kind == "discard":
            if me and action.card is not None:
                line.append("put away ")
                line.append_text(look.card(action.card.text))
            else:
                line.append("puts one card away, face down")
        elif kind == "give":
            to = (seat + 2) % self.game.num_players
            given = after.get("given")
            target = "you" if to == self.seats.me else seats.full(to)
            if given is not None:
                line.append("give " if me else "gives ")
                line.append_text(look.card(given))
                line.append(f" to {target}")
            else:
                line.append(f"passes a card to {target}, face down")
        elif kind == "play" and action.card is not None:
            line.append("play " if me else "plays ")
            line.append_text(look.card(action.card.text))
        else:
            line.append(str(action))
        self.out.print(line)

        if before["contract"] is None and after["hand_number"] == before["hand_number"] and after["contract"]:
            self.narrate_reveal(after)
        if finished:
            previous = after["previous_hand"]
            self.narrate_trick(previous["final_trick"], len(before["tricks"]) + 1, previous["tricks"])
            self.out.print()
            self.out.print(self.result_panel(previous, f"Hand {before['hand_number'] + 1} result"))
        elif len(after["tricks"]) > len(before["tricks"]):
            won = after["tricks_won"]
            sides = [0] * self.game.num_sides
            for s, n in enumerate(won):
                sides[seats.side_of(s)] += n
            self.narrate_trick(after["tricks"][-1], len(after["tricks"]), sides)

    def score_words(self, obs: JSON) -> str:
        """The score in a hand's opening rule, and who is nousussa: ``Us 3 · Them 0, Us nousussa``."""
        score = self.seats.per_side(obs["scores"]).plain
        if obs["nousussa"] is not None:
            score += f", {self.seats.side(obs['nousussa'])} nousussa"
        return score

    def narrate_reveal(self, obs: JSON) -> None:
        seats, look = self.seats, self.look
        shown = [b for b in obs["bids"] if b["revealed"]]
        line = Text("  Bids shown: ", style="bold")
        parts = []
        for bid in shown:
            part = Text(f"{seats.short(bid['seat'])} ")
            if bid["bid"] in ("rami", "nolo"):
                part.append(bid["bid"], style="bold")
            else:
                part.append_text(look.card(bid["bid"]))
                part.append(f" {bid_meaning(look, bid['bid'])}")
            parts.append(part)
        line.append_text(join(parts))
        self.out.print(line)
        if obs["contract"] == "nolo":
            self.out.print(Text.assemble("  Nobody showed rami: the hand is ", ("nolo", "bold blue"),
                                         ". Take as few tricks as you can."))
        else:
            decl = obs["declarer"]
            side = seats.side_phrase(seats.side_of(decl))
            declares = seats.says(decl, "declares", "declare")
            self.out.print(Text.assemble(f"  {capital(declares)} ",
                                         ("rami", "bold green"), f": {side} must take 7 tricks."))

    def narrate_trick(self, trick: JSON, number: int, sides: Sequence[int]) -> None:
        line = self.trick_head(number, trick["winner"], full=True)
        line.append("   ")
        line.append_text(self.seats.per_side(sides, bold=False))
        self.out.print(line)

    def finale(self, obs: JSON) -> None:
        seats = self.seats
        if obs["draw"]:
            verdict = Text("The match is a draw", style="bold yellow")
        elif obs["winner"] is None:
            self.single_hand_finale(obs)
            return
        else:
            side = obs["winner"]
            mine = seats.me is not None and side == seats.side_of(seats.me)
            verdict = Text(f"{'You and Partner win' if mine else 'Left and Right win'} the match",
                           style="bold green" if mine else "bold red")
        verdict.append(f"   {seats.per_side(obs['scores']).plain}")
        if "totals" in obs:
            verdict.append(f"\nCollected while nousussa: {seats.per_side(obs['totals']).plain}")
        self.final_panel(verdict, self.match_over_title(obs))

    # replays

    def replay_hand(self, record: JSON, index: int) -> None:
        """One hand of a record: the deal, the bids, sooli answers, every trick, the result."""
        out, seats, look, game = self.out, self.seats, self.look, self.game
        state = state_at_hand_start(record, index)
        hand = record["hands"][index]
        start = public(state)
        self.hand_rule(index + 1, self.score_words(start))
        first = seats.full(state.current_player or 0)
        out.print(f"Dealer {seats.full(start['dealer'])}; {first} bids first.")

        deal = self.grid()
        for seat, cards in enumerate(hand["deal"]):
            deal.add_row(seats.full(seat), look.compact_hand(cards.split()))
        out.print(deal)

        bids: list[tuple[int, str]] = []
        answers: list[Text] = []
        trick_rows: list[tuple[JSON, list[int]]] = []
        sides = [0] * game.num_sides
        finished: JSON | None = None
        for actor, text, before, after, done in replay_steps(state, hand["actions"]):
            kind = text.split()[0]
            if kind == "bid":
                bids.append((actor, text.split(maxsplit=1)[1]))
            elif kind in ("sooli", "pass"):
                answers.append(Text.assemble(f"{seats.short(actor)} ",
                                             (kind, "bold magenta" if kind == "sooli" else "")))
            elif kind == "discard":
                answers.append(Text.assemble(f"{seats.short(actor)} puts away ", look.card(text.split()[1])))
            elif kind == "give":
                answers.append(Text.assemble(f"{seats.short(actor)} gives ", look.card(text.split()[1]),
                                             " and sits out"))
            if before["contract"] is None and after["contract"] is not None and not done:
                self.print_bids(bids, after)
            if done:
                finished = after["previous_hand"]
                trick = finished["final_trick"]
                sides[seats.side_of(trick["winner"])] += 1
                trick_rows.append((trick, list(sides)))
            elif len(after["tricks"]) > len(before["tricks"]):
                trick = after["tricks"][-1]
                sides[seats.side_of(trick["winner"])] += 1
                trick_rows.append((trick, list(sides)))
        if bids and len(bids) < game.num_players:
            self.print_bids(bids, public(state))
        if answers:
            out.print(Text("Sooli: ", style="cyan").append_text(join(answers)))

        if trick_rows:
            table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            table.add_column("#", justify="right", style="dim")
            table.add_column("lead", style="dim")
            for seat in range(game.num_players):
                table.add_column(seats.short(seat), justify="center")
            table.add_column("won by")
            for side in range(game.num_sides):
                table.add_column(seats.side(side), justify="right")
            for number, (trick, running) in enumerate(trick_rows, 1):
                cells: list[Text] = [Text("·", style="dim") for _ in range(game.num_players)]
                for seat, card in trick["cards"]:
                    cells[seat] = look.card(card, "reverse" if seat == trick["winner"] else "")
                table.add_row(str(number), seats.short(trick["leader"]), *cells,
                              seats.short(trick["winner"]), *(str(v) for v in running))
            out.print(table)
        if finished is not None:
            out.print(self.result_panel(finished, f"Hand {index + 1} result"))
        else:
            self.unfinished(hand)

    def print_bids(self, bids: list[tuple[int, str]], obs: JSON) -> None:
        """The bids in order, shown ones first; once the contract is known, those never shown apart."""
        seats, look = self.seats, self.look
        decided = obs["contract"] is not None
        revealed = {i for i, b in enumerate(obs["bids"]) if b["revealed"]}
        shown: list[Text] = []
        hidden: list[Text] = []
        for i, (seat, bid) in enumerate(bids):
            part = Text(f"{seats.short(seat)} ")
            if bid in ("rami", "nolo"):
                part.append(bid, style="bold")
            else:
                part.append_text(look.card(bid))
                if not decided or i in revealed:
                    part.append(f" {bid_meaning(look, bid)}")
            (hidden if decided and i not in revealed else shown).append(part)
        line = Text("Bids: ", style="cyan").append_text(join(shown))
        if hidden:
            line.append("   not shown: ", style="dim")
            line.append_text(join(hidden))
        self.out.print(line)
        if decided:
            self.out.print(Text("Contract: ", style="cyan").append_text(self.contract_line(obs)))

    def verdict(self, obs: JSON, over: bool) -> Text:
        seats = self.seats
        if over:
            if obs["draw"]:
                verdict = Text("Match over: a draw", style="bold yellow")
            elif obs["winner"] is not None:
                verdict = Text(f"Match over: {seats.side(obs['winner'])} win", style="bold green")
            else:
                verdict = Text("Hand over", style="bold")
        else:
            verdict = Text("Match not finished", style="bold")
        verdict.append("   ")
        verdict.append_text(_scores_text(seats, obs["scores"], obs["nousussa"]))
        if "totals" in obs:
            verdict.append(f"   totals {seats.per_side(obs['totals']).plain}")
        return verdict

    def stats(self) -> TuppiStats:
        return TuppiStats(self.seats)


# -- simulations ------------------------------------------------------------------------------------


@dataclass
class TuppiStats(SimStats):
    """Contracts, points, tricks of the declaring side, early ends and resets over simulated hands."""

    contracts: Counter[str] = field(default_factory=Counter)
    points: dict[str, Counter[int]] = field(default_factory=dict)
    made: Counter[str] = field(default_factory=Counter)
    declarer_tricks: dict[str, Counter[int]] = field(default_factory=dict)
    early_ends: int = 0
    resets: int = 0

    def add(self, result: JSON) -> None:
        super().add(result)
        contract = result["contract"]
        self.contracts[contract] += 1
        points = result["points"]
        self.points.setdefault(contract, Counter())[max(points)] += 1
        tricks = result["tricks"]
        if contract == "rami":
            side = result["declarer"] % 2
            self.made[contract] += points[side] > 0
        elif contract == "sooli":
            side = result["soloist"] % 2
            self.made[contract] += points[side] > 0
        else:
            side = 0 if tricks[0] < tricks[1] else 1  # nolo: the side with fewer tricks
            self.made[contract] += 1
        self.declarer_tricks.setdefault(contract, Counter())[tricks[side]] += 1
        self.early_ends += bool(result["early_end"])
        self.resets += not result["kept"]

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        self.header(out, game, args, elapsed)
        table = Table(title="Contracts", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("contract", style="cyan")
        table.add_column("hands", justify="right")
        table.add_column("share", justify="right")
        table.add_column("made", justify="right")
        table.add_column("mean pts", justify="right")
        table.add_column("points scored: hands")
        made_note = {"rami": "declarer side took 7+", "nolo": "always", "sooli": "soloist took none"}
        for contract in ("rami", "nolo", "sooli"):
            count = self.contracts[contract]
            if not count and contract == "sooli" and not game.options["sooli"]:
                continue
            points = self.points.get(contract, Counter())
            mean = sum(p * c for p, c in points.items()) / count if count else 0.0
            spread = " ".join(f"{p}:{c}" for p, c in sorted(points.items()))
            made = pct(self.made[contract], count) if contract != "nolo" else "—"
            table.add_row(contract, str(count), pct(count, self.hands), made, f"{mean:.1f}", spread)
        out.print(table)
        out.print(Text("made: " + "; ".join(f"{k}: {v}" for k, v in made_note.items() if k != "nolo"),
                       style="dim"))

        tricks = Table(title="Tricks taken by the declaring side", title_justify="left",
                       box=box.SIMPLE_HEAD)
        tricks.add_column("tricks", justify="right", style="cyan")
        shown = [c for c in ("rami", "nolo", "sooli") if self.declarer_tricks.get(c)]
        heads = {"rami": "rami (declarer side)", "nolo": "nolo (side with fewer)",
                 "sooli": "sooli (soloist)"}
        for contract in shown:
            tricks.add_column(heads[contract], justify="right")
        for n in range(14):
            row = [str(n)]
            for contract in shown:
                count = self.declarer_tricks[contract][n]
                row.append(count_cell(count, self.contracts[contract]))
            tricks.add_row(*row)
        out.print(tricks)

        out.print(Text.assemble("Early ends: ", (str(self.early_ends), "bold"),
                                f" ({pct(self.early_ends, self.hands)})", "    Resets to 0-0: ",
                                (str(self.resets), "bold"), f" ({pct(self.resets, self.hands)})"))
        if not args.matches:
            out.print(Text("Single hands start at 0-0, where nobody is nousussa: early ends and resets "
                           "need --matches.", style="dim"))
        else:
            self.print_matches(out)
