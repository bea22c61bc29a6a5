"""The ``tricktaker`` command: play against bots, read the rules, replay records, simulate.

::

    tricktaker play tuppi --seed 3 --save match.json
    tricktaker rules tuppi
    tricktaker replay match.json --hand 2
    tricktaker simulate tuppi --hands 10000 --seed 1
    tricktaker games

Like every front end, this module reaches the games only through the public
State API (``legal_actions``, ``apply``, ``observation``, ``to_json``,
``tt.load``).  The referee loop of ``play`` holds the State, as any card table
does, but everything it prints for the person comes from
``observation(seat)`` of that person's seat (or from the public face of an
action, such as a card played to a trick), so the screen cannot show a card
the player is not entitled to see.

Exit codes: 0 on success (also when the player quits), 2 for a usage error,
an unknown game, preset, option or bot, or a record that does not load.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import tricktaker as tt

from .bots import BOTS, Bot, make_bot, view_of
from .cards import CardParseError, Deck
from .engine import Action, Game, IllegalActionError, OptionError, State
from .record import RecordError

__all__ = ["main", "read_line"]

JSON = dict[str, Any]


class CliError(Exception):
    """A usage error the command reports on stderr with exit code 2."""


def read_line(prompt: str) -> str:
    """Read one line typed by the person at the table.

    Every prompt of ``tricktaker play`` goes through here, so tests (and other
    front ends) can script a game by replacing this function.
    """
    return input(prompt)


# -- looks: cards, suits, seats -------------------------------------------------------

_COLOUR_STYLES = {"red": "bold red", "black": "bold", "gold": "bold yellow",
                  "blue": "bold blue", "green": "bold green"}
_SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
_COMPASS = ("South", "West", "North", "East")
"""Seats 0..3 clockwise, as around a bridge table."""


class Look:
    """How cards and suits are drawn on one console.

    Cards keep their canonical text (``QH``, ``TS``), which is exactly what the
    player types, coloured by the deck's suit colours: spades and clubs plain
    bold, hearts and diamonds red.  Suit symbols label the rows of a hand when
    the console is UTF-8; otherwise the suit letters do.
    """

    def __init__(self, console: Console, deck: Deck) -> None:
        self.deck = deck
        encoding = (console.encoding or "").lower()
        self.unicode = encoding.startswith("utf")

    def style(self, card_text: str) -> str:
        try:
            colour = self.deck.card(card_text).suit.colour
        except CardParseError:
            return ""
        return _COLOUR_STYLES.get(colour, "bold")

    def card(self, card_text: str, extra: str = "") -> Text:
        """A card in its canonical text (what the player types), coloured by suit."""
        return Text(card_text, style=f"{self.style(card_text)} {extra}".strip())

    def suit_label(self, suit_letter: str) -> Text:
        suit = self.deck.suit(suit_letter)
        style = _COLOUR_STYLES.get(suit.colour, "bold")
        symbol = _SUIT_SYMBOLS.get(suit.name) if self.unicode else None
        return Text(symbol or suit.letter, style=style)

    def compact_hand(self, cards: Iterable[str]) -> Text:
        """A hand bridge-style, one group per suit: ``♠ K 7 2  ♥ Q 5 2  ♦ A J 4 2  ♣ J 5 2``."""
        by_suit: dict[str, list[str]] = {s.letter: [] for s in self.deck.suits}
        for text in cards:
            card = self.deck.card(text)
            by_suit[card.suit.letter].append(card.rank.text)
        out = Text()
        for letter, ranks in by_suit.items():
            if out:
                out.append("  ")
            out.append_text(self.suit_label(letter))
            out.append(" ")
            style = _COLOUR_STYLES.get(self.deck.suit(letter).colour, "bold")
            out.append(" ".join(ranks) if ranks else "—", style=style if ranks else "dim")
        return out


@dataclass(frozen=True)
class Seats:
    """Names for the seats and sides of one table.

    For the person playing, names are relative to them (``You``, ``Left``,
    ``Partner``, ``Right``) and sides are ``Us`` and ``Them``; for a replay they
    are compass points and ``N-S`` / ``E-W``.  Seat numbers always follow, so
    the names match the engine's messages, which speak of seat numbers.
    """

    names: tuple[str, ...]
    side_names: tuple[str, ...]
    game: Game
    me: int | None = None

    @classmethod
    def relative(cls, game: Game, me: int) -> Seats:
        n = game.num_players
        across = "Partner" if game.partnerships else "Across"
        rel = {4: ("You", "Left", across, "Right"), 3: ("You", "Left", "Right"),
               2: ("You", "Opponent")}.get(n) or tuple(["You"] + [f"Player {i}" for i in range(1, n)])
        names = tuple(rel[(s - me) % n] for s in range(n))
        if game.partnerships:
            mine = game.side_of(me)
            sides = tuple("Us" if side == mine else "Them" for side in range(game.num_sides))
        else:
            sides = names
        return cls(names, sides, game, me)

    @classmethod
    def compass(cls, game: Game) -> Seats:
        n = game.num_players
        names = _COMPASS if n == 4 else tuple(f"Seat {s}" for s in range(n))
        sides: tuple[str, ...] = ("N-S", "E-W") if n == 4 and game.partnerships else names
        return cls(tuple(names), sides, game)

    def short(self, seat: int) -> str:
        return self.names[seat]

    def full(self, seat: int) -> str:
        """``Left (seat 1)``: the name with the number the engine's messages use."""
        return f"{self.names[seat]} (seat {seat})"

    def side(self, side: int) -> str:
        return self.side_names[side]

    @property
    def seat_order(self) -> list[int]:
        """Seats in display order: clockwise from the person, or from seat 0."""
        n = len(self.names)
        first = self.me or 0
        return [(first + k) % n for k in range(n)]

    @property
    def side_order(self) -> list[int]:
        """Sides in display order: the person's own side first."""
        sides = list(range(len(self.side_names)))
        if self.me is None:
            return sides
        mine = self.side_of(self.me)
        return [mine] + [s for s in sides if s != mine]

    def per_side(self, values: Sequence[int], bold: bool = True) -> Text:
        """One number per side, own side first: ``Us 3 · Them 1``."""
        return _join(Text.assemble(f"{self.side(s)} ", (str(values[s]), "bold" if bold else ""))
                     for s in self.side_order)

    def noun(self, seat: int) -> str:
        """A seat inside a sentence: ``you`` for the person, ``Left (seat 1)`` for others."""
        return "you" if seat == self.me else self.full(seat)

    def says(self, seat: int, third: str, base: str) -> str:
        """Subject and verb: ``you play`` for the person, ``Left (seat 1) plays`` for others."""
        return f"you {base}" if seat == self.me else f"{self.full(seat)} {third}"

    def side_phrase(self, side: int) -> str:
        """A side in a sentence: ``your side`` / ``their side`` for the person, else its name."""
        if self.me is None:
            return self.side(side)
        return "your side" if side == self.side_of(self.me) else "their side"

    def side_of(self, seat: int) -> int:
        return self.game.side_of(seat)


def _bid_meaning(look: Look, bid: str) -> str:
    """What a Tuppi bid says: a red card or the word ``rami`` is rami, otherwise nolo."""
    if bid in ("rami", "nolo"):
        return bid
    return "rami" if look.deck.card(bid).suit.colour == "red" else "nolo"


def _join(parts: Iterable[Text], sep: str = " · ") -> Text:
    return Text(sep, style="dim").join(list(parts))


def _scores_text(seats: Seats, scores: Sequence[int], nousussa: int | None) -> Text:
    out = seats.per_side(scores)
    if nousussa is None:
        out.append("   (nobody nousussa)", style="dim")
    else:
        out.append(f"   {seats.side(nousussa)} nousussa", style="yellow")
    return out


# -- the Tuppi table: what a seat sees ---------------------------------------------------


class TuppiScreen:
    """Renders a Tuppi observation for the person at the table, and for replays.

    Every method reads an observation dict (``state.observation(seat)``) or a
    record, never the State, so it shows exactly what the seat may know.
    """

    def __init__(self, console: Console, game: Game, seats: Seats) -> None:
        self.out = console
        self.game = game
        self.seats = seats
        self.look = Look(console, game.deck)

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
                meaning = _bid_meaning(look, text)
                if meaning == "rami" or obs["contract"] is None:
                    part.append(f" {meaning}")
                if not bid["revealed"]:
                    part.append(" (hidden)", style="dim")
            parts.append(part)
        return _join(parts)

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
        line = _join(parts)
        line.append("    ")
        sides = [0] * self.game.num_sides
        for s, n in enumerate(won):
            sides[seats.side_of(s)] += n
        line.append_text(seats.per_side(sides))
        return line

    def trick_cards(self, cards: Sequence[Sequence[Any]], winner: int | None = None) -> Text:
        parts = []
        for seat, card in cards:
            part = Text(f"{self.seats.short(seat)} ")
            part.append_text(self.look.card(card, "reverse" if seat == winner else ""))
            parts.append(part)
        return _join(parts)

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
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
        grid.add_row("Match", self.match_line(obs))
        tournament = self.tournament_line(obs)
        if tournament is not None:
            grid.add_row("Tournament", tournament)
        grid.add_row("Bids", self.bids_line(obs))
        grid.add_row("Contract", self.contract_line(obs))
        if obs["phase"] == "play" or obs["tricks"]:
            grid.add_row("Tricks", self.tricks_line(obs))
            grid.add_row("Table", self.table_line(obs))
        turn = obs["current_player"]
        whose = "your turn" if turn == obs["seat"] else f"{self.seats.full(turn)} to act"
        title = f"Hand {obs['hand_number'] + 1} · dealer: {self.seats.short(obs['dealer'])} · {whose}"
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, width=self.width)

    @property
    def width(self) -> int:
        """Panels keep one width all match long, so the screen does not jump about."""
        return min(80, self.out.width)

    def hand_rows(self, obs: JSON, legal: Sequence[Action]) -> Table:
        """The seat's hand, one row per suit; each card that is a legal choice carries its number."""
        number = {a.card.text: i for i, a in enumerate(legal, 1) if a.card is not None}
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        by_suit: dict[str, list[str]] = {s.letter: [] for s in self.game.deck.suits}
        for text in obs["hand"]:
            by_suit[self.game.deck.card(text).suit.letter].append(text)
        for letter, cards in by_suit.items():
            row = Text()
            for text in cards:
                if row:
                    row.append("  ")
                if text in number:
                    row.append(f"{number[text]:>2} ", style="cyan")
                    row.append_text(self.look.card(text))
                elif number:
                    row.append("   ")
                    row.append(text, style="dim")
                else:
                    row.append_text(self.look.card(text))
            if not cards:
                row.append("—", style="dim")
            grid.add_row(Text(" ").append_text(self.look.suit_label(letter)), row)
        return grid

    def extra_choices(self, legal: Sequence[Action]) -> Text | None:
        """The legal actions that are not a card of the hand (``bid rami``, ``sooli``, ``pass``)."""
        parts = [Text.assemble((f"{i:>2} ", "cyan"), (a.text, "bold"))
                 for i, a in enumerate(legal, 1) if a.card is None]
        return Text("   ").join(parts) if parts else None

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
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
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


# -- playing a match in the terminal ------------------------------------------------------


class _Quit(Exception):
    """The person typed ``quit``."""


class _EndOfInput(Exception):
    """Input ran out (Ctrl-D, or the end of a piped script)."""


HELP = """\
Enter your move as
  a number    the number shown next to a card or an action: 1, 2, ...
  a card      AS, as, 10s, th: plays (or bids, discards, gives) that card
  an action   bid 7H, bid rami, bid nolo, sooli, pass, discard 5C, give 9H,
              play AS
Commands
  show        the table and your hand again
  score       the match score and the previous hand
  last        the last finished trick
  help        this text
  quit        leave the table (the match is saved first with --save)"""

_ACTION_WORDS = ("sooli", "pass", "bid", "play", "discard", "give")


@dataclass
class PlaySession:
    """One person at one seat, bots at the others, a whole match."""

    state: State
    human: int
    bots: dict[int, Bot]
    out: Console
    err: Console
    save: Path | None
    screen: TuppiScreen = field(init=False)
    seats: Seats = field(init=False)

    def __post_init__(self) -> None:
        self.seats = Seats.relative(self.state.game, self.human)
        self.screen = TuppiScreen(self.out, self.state.game, self.seats)

    def obs(self) -> JSON:
        return self.state.observation(self.human)

    def run(self) -> int:
        self.intro()
        self.write_record()
        self.announce_hand(self.obs())
        try:
            while not self.state.is_over():
                seat = self.state.current_player
                assert seat is not None
                before = self.obs()
                if seat == self.human:
                    action = self.human_turn(before)
                else:
                    action = self.bots[seat].act(view_of(self.state, seat))
                    self.state.apply(action)
                self.narrate(seat, action, before, self.obs())
        except _Quit:
            self.out.print("You left the table." + self.saved_note())
            self.write_record()
            return 0
        except _EndOfInput:
            self.out.print()
            self.out.print("End of input: leaving the table." + self.saved_note())
            self.write_record()
            return 0
        except KeyboardInterrupt:
            self.out.print()
            self.out.print("Interrupted." + self.saved_note())
            self.write_record()
            return 130
        self.write_record()
        self.finale(self.obs())
        return 0

    # saving

    def saved_note(self) -> str:
        return f" The match is saved in {self.save}." if self.save else ""

    def write_record(self) -> None:
        if self.save is None:
            return
        try:
            self.save.write_text(self.state.to_json(), encoding="utf-8")
        except OSError as exc:
            self.err.print(Text(f"cannot save to {self.save}: {exc.strerror}", style="red"))

    # the person's turn

    def human_turn(self, obs: JSON) -> Action:
        legal = self.state.legal_actions()
        if len(obs["hand"]) == 1 and len(legal) == 1 and legal[0].kind == "play":
            self.state.apply(legal[0])  # the last card of the hand: nothing to decide
            return legal[0]
        self.show_turn(obs, legal)
        while True:
            try:
                line = read_line(f"{legal[0].kind} › " if len({a.kind for a in legal}) == 1 else "› ")
            except EOFError:
                raise _EndOfInput from None
            entry = line.strip()
            if not entry:
                continue
            word = entry.lower()
            if word in ("help", "?", "h"):
                self.out.print(HELP, markup=False, highlight=False)
            elif word == "score":
                self.show_score(self.obs())
            elif word == "last":
                self.show_last(self.obs())
            elif word in ("show", "table", "look"):
                self.show_turn(self.obs(), legal)
            elif word in ("quit", "exit", "q"):
                raise _Quit
            else:
                try:
                    self.state.apply(self.interpret(entry, legal))
                except IllegalActionError as exc:
                    self.out.print(Text.assemble(("✗ ", "bold red"), str(exc)), soft_wrap=True)
                    continue
                return self.state.history[-1]

    def interpret(self, entry: str, legal: Sequence[Action]) -> Action | str:
        """Turn what the person typed into an action or action text for ``State.apply``.

        A number picks from the numbered choices; a bare card means the one kind
        of card action now possible (bid, play, discard or give); a bare ``rami``
        or ``nolo`` means a bid.  Anything else is passed on as action text, so
        the engine's own message explains what is wrong with it.
        """
        if entry.isdigit():
            n = int(entry)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise IllegalActionError(f"there is no choice {n}: choose 1..{len(legal)}")
        tokens = entry.split()
        if len(tokens) != 1:
            return entry
        word = tokens[0].lower()
        kinds = {a.kind for a in legal}
        if word in ("rami", "nolo"):
            return f"bid {word}"
        try:
            card = self.state.game.deck.card(word)
        except CardParseError:
            if (word.isalpha() and len(word) > 2) or word in _ACTION_WORDS:
                return entry  # an action word: the engine says what is missing or wrong
            raise IllegalActionError(
                f"{entry!r} is not a card, a choice number or a command (type help)") from None
        card_kinds = kinds & {"bid", "play", "discard", "give"}
        if len(card_kinds) == 1 and kinds == card_kinds:
            return f"{card_kinds.pop()} {card.text}"
        raise IllegalActionError(
            f"{card.text} is a card, but now the choice is: {', '.join(a.text for a in legal)}")

    def show_turn(self, obs: JSON, legal: Sequence[Action]) -> None:
        out = self.out
        out.print()
        out.print(self.screen.status(obs))
        title = Text("Your hand", style="bold")
        if "discard" in obs and "given" in obs:
            title.append(f"   (you put away {obs['discard']} and got {obs['given']} from Partner)",
                         style="dim")
        elif "given" in obs:
            title.append(f"   (you gave {obs['given']} to Partner)", style="dim")
        out.print(title)
        out.print(self.screen.hand_rows(obs, legal))
        extras = self.screen.extra_choices(legal)
        if extras is not None:
            out.print(Text("   ").append_text(extras))
        out.print(Text(self.screen.instruction(obs, legal), style="italic"))

    def show_score(self, obs: JSON) -> None:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan")
        grid.add_column()
        grid.add_row("Match", self.screen.match_line(obs))
        tournament = self.screen.tournament_line(obs)
        if tournament is not None:
            grid.add_row("Tournament", tournament)
        grid.add_row("This hand", self.screen.tricks_line(obs))
        self.out.print(grid)
        if obs["previous_hand"] is not None:
            self.out.print(self.screen.result_panel(obs["previous_hand"], "Previous hand"))

    def show_last(self, obs: JSON) -> None:
        if obs["tricks"]:
            trick, when = obs["tricks"][-1], f"Trick {len(obs['tricks'])}"
        elif obs["previous_hand"] is not None:
            trick, when = obs["previous_hand"]["last_trick"], "Last trick of the previous hand"
        else:
            self.out.print("No trick has been played yet.")
            return
        line = Text(f"{when}: ", style="bold")
        line.append_text(self.screen.trick_cards(trick["cards"], trick["winner"]))
        line.append(f"   → won by {self.seats.full(trick['winner'])}")
        self.out.print(line)

    # telling what happened

    def intro(self) -> None:
        game = self.state.game
        opts = game.options
        rules = [f"preset {game.preset}" if game.preset else "club rules",
                 "sooli" if opts["sooli"] else "no sooli",
                 "bidding cards" if opts["bid_cards"] else "card bids",
                 f"target {opts['target']}"]
        if opts["hand_limit"]:
            rules.append(f"hand limit {opts['hand_limit']}")
        if opts["reset_keeps_points"]:
            rules.append("reset keeps points")
        order = " → ".join(self.seats.full((self.human + k) % game.num_players)
                           for k in range(game.num_players))
        text = Text.assemble(
            (game.title, "bold"), f": {', '.join(rules)}; match seed {self.state.seed}\n",
            f"Clockwise: {order}\n",
            ("Type a card's number or name (AS, 10h) to play it; help for more.", "dim"),
        )
        self.out.print(Panel(text, box=box.ROUNDED, expand=False))

    def announce_hand(self, obs: JSON) -> None:
        dealer = obs["dealer"]
        first = (dealer + 1) % self.state.game.num_players
        self.out.print()
        score = self.seats.per_side(obs["scores"]).plain
        if obs["nousussa"] is not None:
            score += f", {self.seats.side(obs['nousussa'])} nousussa"
        self.out.print(Rule(f"Hand {obs['hand_number'] + 1} · {score}", style="cyan"))
        deals = self.seats.says(dealer, "deals", "deal")
        self.out.print(f"{deals[0].upper()}{deals[1:]}; {self.seats.says(first, 'bids', 'bid')} first.")

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON) -> None:
        """Print what everyone at the table saw of one action, and what followed from it."""
        seats, look = self.seats, self.screen.look
        me = seat == self.human
        who = "You" if me else seats.full(seat)
        line = Text("  " + who + " ")
        kind = action.kind
        if kind == "bid":
            index = len(before["bids"])
            shown = after["bids"][index]["bid"] if index < len(after["bids"]) else None
            if me:
                word = action.args[0]
                if isinstance(word, str) and not self.state.game.options["bid_cards"]:
                    line.append(f"say {word} aloud (no {'red' if word == 'rami' else 'black'} bid card)")
                else:
                    line.append("bid ")
                    bid = look.card(action.card.text) if action.card else Text(str(word), style="bold")
                    line.append_text(bid)
                    line.append(" face down", style="dim")
            elif shown in ("rami", "nolo") and not self.state.game.options["bid_cards"]:
                line.append(f"says {shown} aloud (holds no bid card of that colour)")
            elif self.state.game.options["bid_cards"]:
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
            to = (seat + 2) % self.state.game.num_players
            given = after.get("given")
            target = "you" if to == self.human else seats.full(to)
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
        finished = after["hand_number"] != before["hand_number"] or (
            self.state.is_over() and before["phase"] != "over")
        if finished:
            previous = after["previous_hand"]
            self.narrate_trick(previous["last_trick"], len(before["tricks"]) + 1, previous["tricks"])
            self.out.print()
            self.out.print(self.screen.result_panel(previous, f"Hand {before['hand_number'] + 1} result"))
            if not self.state.is_over():
                self.write_record()
                self.announce_hand(after)
        elif len(after["tricks"]) > len(before["tricks"]):
            won = after["tricks_won"]
            sides = [0] * self.state.game.num_sides
            for s, n in enumerate(won):
                sides[seats.side_of(s)] += n
            self.narrate_trick(after["tricks"][-1], len(after["tricks"]), sides)

    def narrate_reveal(self, obs: JSON) -> None:
        seats, look = self.seats, self.screen.look
        shown = [b for b in obs["bids"] if b["revealed"]]
        line = Text("  Bids shown: ", style="bold")
        parts = []
        for bid in shown:
            part = Text(f"{seats.short(bid['seat'])} ")
            if bid["bid"] in ("rami", "nolo"):
                part.append(bid["bid"], style="bold")
            else:
                part.append_text(look.card(bid["bid"]))
                part.append(f" {_bid_meaning(look, bid['bid'])}")
            parts.append(part)
        line.append_text(_join(parts))
        self.out.print(line)
        if obs["contract"] == "nolo":
            self.out.print(Text.assemble("  Nobody showed rami: the hand is ", ("nolo", "bold blue"),
                                         ". Take as few tricks as you can."))
        else:
            decl = obs["declarer"]
            side = seats.side_phrase(seats.side_of(decl))
            declares = seats.says(decl, "declares", "declare")
            self.out.print(Text.assemble(f"  {declares[0].upper()}{declares[1:]} ",
                                         ("rami", "bold green"), f": {side} must take 7 tricks."))

    def narrate_trick(self, trick: JSON, number: int, sides: Sequence[int]) -> None:
        seats = self.seats
        line = Text(f"  Trick {number} → ", style="dim")
        winner = trick["winner"]
        line.append("you win it" if winner == self.human else f"{seats.full(winner)} wins it",
                    style="bold")
        line.append("   ")
        line.append_text(seats.per_side(sides, bold=False))
        self.out.print(line)

    def finale(self, obs: JSON) -> None:
        seats = self.seats
        if obs["draw"]:
            verdict = Text("The match is a draw", style="bold yellow")
        else:
            side = obs["winner"]
            mine = side == seats.side_of(self.human)
            verdict = Text(f"{'You and Partner win' if mine else 'Left and Right win'} the match",
                           style="bold green" if mine else "bold red")
        verdict.append(f"   {seats.per_side(obs['scores']).plain}")
        if "totals" in obs:
            verdict.append(f"\nCollected while nousussa: {seats.per_side(obs['totals']).plain}")
        self.out.print()
        self.out.print(Panel(verdict, title=f"Match over after {obs['hand_number'] + 1} hands",
                             title_align="left", box=box.DOUBLE, expand=False))
        if self.save:
            self.out.print(f"Record saved in {self.save}; replay it with: tricktaker replay {self.save}")


# -- commands -------------------------------------------------------------------------------


def _option_value(game_cls: type[Game], key: str, raw: str) -> Any:
    """Convert ``--option key=value`` text to the option's type; leave bad text for the game to reject."""
    option = next((o for o in game_cls.OPTIONS if o.name == key), None)
    if option is None:
        return raw
    if isinstance(option.default, bool):
        return {"true": True, "yes": True, "on": True, "1": True,
                "false": False, "no": False, "off": False, "0": False}.get(raw.lower(), raw)
    if isinstance(option.default, int):
        try:
            return int(raw)
        except ValueError:
            return raw
    return raw


def make_game(name: str, preset: str | None, option_texts: Sequence[str] | None) -> Game:
    """The rule set from command-line words; unknown names raise :class:`OptionError`."""
    game_cls = tt.GAMES.get(name.lower())
    if game_cls is None:
        return tt.new_game(name)  # raises the OptionError listing the games
    options: dict[str, Any] = {}
    for text in option_texts or ():
        key, sep, raw = text.partition("=")
        if not sep or not key.strip():
            raise CliError(f"--option takes key=value (e.g. target=40), not {text!r}")
        options[key.strip()] = _option_value(game_cls, key.strip(), raw.strip())
    return tt.new_game(name, preset=preset, **options)


def _bot_names(text: str, count: int) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise CliError(f"--bots takes one bot name or {count} names separated by commas, not {text!r}")
    for name in names:
        if name.lower() not in BOTS:
            raise CliError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return names


def cmd_play(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, args.preset, args.option)
    if game.name != "tuppi":
        raise CliError(f"play does not support {game.name} yet (games: tuppi)")
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be 0..{n - 1}, not {args.seat}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    others = [(args.seat + k) % n for k in range(1, n)]
    names = _bot_names(args.bots, len(others))
    bots = {seat: make_bot(name, seed=seed * 10 + seat) for seat, name in zip(others, names, strict=True)}
    state = game.new_match(seed=seed)
    save = Path(args.save) if args.save else None
    if save is not None and not save.parent.is_dir():
        raise CliError(f"cannot save to {save}: no directory {save.parent}")
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    return PlaySession(state, args.seat, bots, out, err, save).run()


def cmd_rules(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, None, None)
    cls = type(game)
    out.print(Rule(f"{cls.title} ({cls.name})", style="cyan", align="left"))
    out.print(_reflow(cls.SUMMARY, out.width))
    out.print()
    table = Table(title="Options  (tricktaker play ... --option name=value)", box=box.SIMPLE_HEAD,
                  title_justify="left", show_lines=False)
    table.add_column("option", style="cyan", no_wrap=True)
    table.add_column("default", no_wrap=True)
    table.add_column("allowed", no_wrap=True)
    table.add_column("meaning")
    for option in cls.OPTIONS:
        table.add_row(option.name, json.dumps(option.default), option.describe(), option.doc)
    out.print(table)
    presets = Table(title="Presets  (--preset name)", box=box.SIMPLE_HEAD, title_justify="left")
    presets.add_column("preset", style="cyan", no_wrap=True)
    presets.add_column("sets")
    for name, values in cls.PRESETS.items():
        sets = ", ".join(f"{k}={json.dumps(v)}" for k, v in values.items()) or "the defaults"
        presets.add_row(name, sets)
    out.print(presets)
    return 0


def _reflow(text: str, width: int) -> Text:
    """Paragraphs hard-wrapped wider than the console are joined, so the console can wrap them."""
    paragraphs = []
    for paragraph in text.split("\n\n"):
        lines = paragraph.splitlines()
        if any(len(line) > width for line in lines):
            paragraph = " ".join(line.strip() for line in lines)
        paragraphs.append(paragraph)
    return Text("\n\n".join(paragraphs))


def cmd_games(args: argparse.Namespace, out: Console, err: Console) -> int:
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("game", style="cyan")
    table.add_column("title")
    table.add_column("players", justify="right")
    table.add_column("presets")
    for name, cls in tt.GAMES.items():
        table.add_row(name, cls.title, str(cls.num_players), ", ".join(cls.PRESETS) or "—")
    out.print(table)
    return 0


# replay


def _public(state: State) -> JSON:
    """What every spectator knows: ``observation(None)`` (docs/api.md)."""
    return state.observation(None)


def _state_at_hand_start(record: JSON, index: int) -> State:
    """The state at the start of hand ``index``: the record cut there, replayed by ``tt.load``."""
    hands = [*record["hands"][:index], dict(record["hands"][index], actions=[], result=None)]
    return tt.load(dict(record, hands=hands, result=None))


def _replay_hand(out: Console, record: JSON, index: int, seats: Seats) -> None:
    state = _state_at_hand_start(record, index)
    game = state.game
    screen = TuppiScreen(out, game, seats)
    look = screen.look
    hand = record["hands"][index]
    start = _public(state)
    out.print()
    score = seats.per_side(start["scores"]).plain
    if start["nousussa"] is not None:
        score += f", {seats.side(start['nousussa'])} nousussa"
    out.print(Rule(f"Hand {index + 1} · {score}", style="cyan"))
    out.print(f"Dealer {seats.full(start['dealer'])}; {seats.full(state.current_player or 0)} bids first.")

    deal = Table.grid(padding=(0, 2))
    deal.add_column(style="cyan", no_wrap=True)
    deal.add_column()
    for seat, cards in enumerate(hand["deal"]):
        deal.add_row(seats.full(seat), look.compact_hand(cards.split()))
    out.print(deal)

    bids: list[tuple[int, str]] = []
    answers: list[Text] = []
    trick_rows: list[tuple[JSON, list[int]]] = []
    sides = [0] * game.num_sides
    finished: JSON | None = None
    for text in hand["actions"]:
        actor = state.current_player
        assert actor is not None
        before = _public(state)
        state.apply(text)
        after = _public(state)
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
        if before["contract"] is None and after["contract"] is not None and after["hand_number"] == \
                before["hand_number"]:
            _print_bids(out, screen, seats, bids, after)
        done = after["hand_number"] != before["hand_number"] or (
            state.is_over() and before["phase"] != "over")
        if done:
            finished = after["previous_hand"]
            trick = finished["last_trick"]
            sides[seats.side_of(trick["winner"])] += 1
            trick_rows.append((trick, list(sides)))
        elif len(after["tricks"]) > len(before["tricks"]):
            trick = after["tricks"][-1]
            sides[seats.side_of(trick["winner"])] += 1
            trick_rows.append((trick, list(sides)))
    if bids and len(bids) < game.num_players:
        _print_bids(out, screen, seats, bids, _public(state))
    if answers:
        out.print(Text("Sooli: ", style="cyan").append_text(_join(answers)))

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
        out.print(screen.result_panel(finished, f"Hand {index + 1} result"))
    else:
        out.print(Text(f"(hand not finished: {len(hand['actions'])} actions recorded)", style="dim"))


def _print_bids(out: Console, screen: TuppiScreen, seats: Seats, bids: list[tuple[int, str]],
                obs: JSON) -> None:
    """The bids in order, shown ones first; once the contract is known, those never shown apart."""
    look = screen.look
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
                part.append(f" {_bid_meaning(look, bid)}")
        (hidden if decided and i not in revealed else shown).append(part)
    line = Text("Bids: ", style="cyan").append_text(_join(shown))
    if hidden:
        line.append("   not shown: ", style="dim")
        line.append_text(_join(hidden))
    out.print(line)
    if decided:
        out.print(Text("Contract: ", style="cyan").append_text(screen.contract_line(obs)))


def cmd_replay(args: argparse.Namespace, out: Console, err: Console) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    try:
        final = tt.load(text)
    except RecordError as exc:
        err.print(Text(f"tricktaker: {path}: {exc}", style="red"), soft_wrap=True)
        return 2
    record = json.loads(text)
    game = final.game
    seats = Seats.compass(game)
    hands = record["hands"]
    if args.hand is not None and not 1 <= args.hand <= len(hands):
        raise CliError(f"--hand must be 1..{len(hands)}: the record has {len(hands)} hands")

    base = type(game).default_options()
    if game.preset is not None and game.preset in type(game).PRESETS:
        base.update(type(game).PRESETS[game.preset])
    changed = [f"{k}={json.dumps(v)}" for k, v in game.options.items() if v != base[k]]
    rules = [f"preset {game.preset}"] if game.preset else []
    settings = ", ".join(rules + changed) or "default rules"
    head = Text.assemble((f"{game.title}", "bold"), f" record {path.name}: ", settings,
                         f"; seed {record['seed']}" if record.get("seed") is not None else "",
                         f"; {len(hands)} hand{'s' if len(hands) != 1 else ''}")
    out.print(Panel(head, box=box.ROUNDED, expand=False))
    for index in range(len(hands)):
        if args.hand is None or args.hand == index + 1:
            _replay_hand(out, record, index, seats)

    obs = _public(final)
    out.print()
    if final.is_over():
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
    out.print(verdict)
    return 0


# simulate


@dataclass
class SimStats:
    """Counts over simulated hands, from each finished hand's public result."""

    contracts: Counter[str] = field(default_factory=Counter)
    points: dict[str, Counter[int]] = field(default_factory=dict)
    made: Counter[str] = field(default_factory=Counter)
    declarer_tricks: dict[str, Counter[int]] = field(default_factory=dict)
    early_ends: int = 0
    resets: int = 0
    hands: int = 0
    matches: int = 0
    match_winners: Counter[str] = field(default_factory=Counter)
    match_hands: int = 0

    def add(self, result: JSON) -> None:
        self.hands += 1
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


def _play_out(state: State, bots: dict[int, Bot], on_hand_end: Callable[[JSON], None],
              hand_budget: int) -> int:
    """Play bots until the state is over or ``hand_budget`` hands have finished; return hands played."""
    played = 0
    hand_number = state.hand_number
    while not state.is_over() and played < hand_budget:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(view_of(state, seat)))
        if state.is_over() or state.hand_number != hand_number:
            hand_number = state.hand_number
            played += 1
            on_hand_end(_public(state)["previous_hand"])
    return played


def cmd_simulate(args: argparse.Namespace, out: Console, err: Console) -> int:
    game = make_game(args.game, args.preset, args.option)
    if game.name != "tuppi":
        raise CliError(f"simulate does not support {game.name} yet (games: tuppi)")
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    n = game.num_players
    names = _bot_names(args.bots, n)
    bots = {seat: make_bot(name, seed=args.seed * 10 + seat) for seat, name in enumerate(names)}
    seats = Seats.compass(game)
    stats = SimStats()
    started = time.perf_counter()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("hands"), TimeRemainingColumn(), console=err, transient=True)
    with progress:
        task = progress.add_task("Simulating", total=args.hands)

        def hand_done(result: JSON) -> None:
            stats.add(result)
            progress.advance(task)

        if args.matches:
            match = 0
            while stats.hands < args.hands:
                state = game.new_match(seed=args.seed * 1_000_003 + match, dealer=match % n)
                _play_out(state, bots, hand_done, args.hands - stats.hands)
                match += 1
                if state.is_over():
                    stats.matches += 1
                    stats.match_hands += state.hand_number + 1
                    obs = _public(state)
                    stats.match_winners["draw" if obs["draw"] else seats.side(obs["winner"])] += 1
        else:
            for i in range(args.hands):
                state = game.new_hand(seed=args.seed * 1_000_003 + i, dealer=i % n)
                _play_out(state, bots, hand_done, 1)
    elapsed = time.perf_counter() - started
    _print_simulation(out, game, args, stats, elapsed)
    return 0


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def _print_simulation(out: Console, game: Game, args: argparse.Namespace, stats: SimStats,
                      elapsed: float) -> None:
    mode = "hands within matches" if args.matches else "single hands from 0-0"
    out.print(Text.assemble((f"{game.title}", "bold"), f" · {stats.hands} {mode} · bots {args.bots} · "
                            f"seed {args.seed}" + (f" · preset {game.preset}" if game.preset else "")))
    out.print(Text(f"{stats.hands} hands in {elapsed:.2f} s: {stats.hands / elapsed:,.0f} hands/s",
                   style="dim"))

    table = Table(title="Contracts", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("contract", style="cyan")
    table.add_column("hands", justify="right")
    table.add_column("share", justify="right")
    table.add_column("made", justify="right")
    table.add_column("mean pts", justify="right")
    table.add_column("points scored: hands")
    made_note = {"rami": "declarer side took 7+", "nolo": "always", "sooli": "soloist took none"}
    for contract in ("rami", "nolo", "sooli"):
        count = stats.contracts[contract]
        if not count and contract == "sooli" and not game.options["sooli"]:
            continue
        points = stats.points.get(contract, Counter())
        mean = sum(p * c for p, c in points.items()) / count if count else 0.0
        spread = " ".join(f"{p}:{c}" for p, c in sorted(points.items()))
        made = _pct(stats.made[contract], count) if contract != "nolo" else "—"
        table.add_row(contract, str(count), _pct(count, stats.hands), made, f"{mean:.1f}", spread)
    out.print(table)
    out.print(Text("made: " + "; ".join(f"{k}: {v}" for k, v in made_note.items() if k != "nolo"),
                   style="dim"))

    tricks = Table(title="Tricks taken by the declaring side", title_justify="left",
                   box=box.SIMPLE_HEAD)
    tricks.add_column("tricks", justify="right", style="cyan")
    shown = [c for c in ("rami", "nolo", "sooli") if stats.declarer_tricks.get(c)]
    heads = {"rami": "rami (declarer side)", "nolo": "nolo (side with fewer)",
             "sooli": "sooli (soloist)"}
    for contract in shown:
        tricks.add_column(heads[contract], justify="right")
    for n in range(14):
        row = [str(n)]
        for contract in shown:
            count = stats.declarer_tricks[contract][n]
            row.append(f"{count} ({_pct(count, stats.contracts[contract])})" if count else "·")
        tricks.add_row(*row)
    out.print(tricks)

    out.print(Text.assemble("Early ends: ", (str(stats.early_ends), "bold"),
                            f" ({_pct(stats.early_ends, stats.hands)})", "    Resets to 0-0: ",
                            (str(stats.resets), "bold"), f" ({_pct(stats.resets, stats.hands)})"))
    if not args.matches:
        out.print(Text("Single hands start at 0-0, where nobody is nousussa: early ends and resets "
                       "need --matches.", style="dim"))
    elif stats.matches:
        winners = ", ".join(f"{k} won {v}" for k, v in sorted(stats.match_winners.items()))
        out.print(Text.assemble("Matches finished: ", (str(stats.matches), "bold"),
                                f" ({winners}); mean {stats.match_hands / stats.matches:.1f} hands each"))


# -- the argument parser -------------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tricktaker",
        description="Traditional trick-taking card games: play against bots, read the rules, "
                    "replay records, simulate.",
    )
    parser.add_argument("--version", action="version", version=f"tricktaker {tt.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")

    def game_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--preset", help="a named bundle of options (see: tricktaker rules GAME)")
        p.add_argument("--option", "-o", action="append", metavar="KEY=VALUE",
                       help="set one rule option, e.g. -o target=40 -o sooli=false (repeatable)")

    play = sub.add_parser("play", help="play a match against bots in the terminal",
                          description="Play a whole match at one seat against bots.")
    play.add_argument("game", help="the game, e.g. tuppi")
    play.add_argument("--seat", type=int, default=0, help="your seat, 0..3 (default 0)")
    play.add_argument("--seed", type=int, help="seed of the deals (default: random, shown)")
    play.add_argument("--save", metavar="FILE", help="write the record here after every hand")
    play.add_argument("--bots", default="random",
                      help="bot for the other seats, or one per seat from your left, comma-separated "
                           f"(bots: {', '.join(BOTS)})")
    game_options(play)
    play.set_defaults(func=cmd_play)

    rules = sub.add_parser("rules", help="the rules, options and presets of a game")
    rules.add_argument("game")
    rules.set_defaults(func=cmd_rules)

    replay = sub.add_parser("replay", help="show a saved record trick by trick")
    replay.add_argument("file")
    replay.add_argument("--hand", type=int, metavar="N", help="show only hand N (1-based)")
    replay.set_defaults(func=cmd_replay)

    sim = sub.add_parser("simulate", help="bots play many hands; print hands/s and statistics")
    sim.add_argument("game")
    sim.add_argument("--hands", type=int, default=10_000, help="how many hands (default 10000)")
    sim.add_argument("--seed", type=int, default=1, help="seed of deals and bots (default 1)")
    sim.add_argument("--bots", default="random",
                     help="one bot name, or one per seat comma-separated (default random)")
    sim.add_argument("--matches", action="store_true",
                     help="play the hands as consecutive matches (so nousussa, resets and early "
                          "ends occur) instead of single hands from 0-0")
    game_options(sim)
    sim.set_defaults(func=cmd_simulate)

    games = sub.add_parser("games", help="list the games")
    games.set_defaults(func=cmd_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tricktaker`` command; return its exit code."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (code 2)
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    out = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args, out, err)
    except (OptionError, CliError) as exc:
        err.print(Text(f"tricktaker: {exc}", style="red"), soft_wrap=True)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
