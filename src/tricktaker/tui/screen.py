"""The base of every game's screen: the hand with numbered choices, the turn, replay and statistics hooks.

A game's screen subclasses :class:`Screen` and fills in the panels that depend
on its rules (status, instruction, narration, results, replay of one hand)
and its :class:`SimStats`.  What looks the same in every game lives here once,
with small hooks for what differs: the status panel's title, the hand by suit,
the intro panel, a hand's opening rule, a replay's trick rows, the verdict and
the finale.  Every method reads an observation dict
(``state.observation(seat)``), a record or a finished hand's public result,
never the State, so it shows exactly what the seat may know.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..analysis import state_at_hand_start
from ..engine import JSON, Action, Game, State
from .common import Look, Seats, capital, join, pct

__all__ = ["Screen", "SimStats", "public", "replay_steps", "state_at_hand_start"]


class Screen:
    """How one game looks in the terminal, for the person at the table and for replays."""

    step: ClassVar[int] = 1
    """The play direction: +1 clockwise, -1 counter-clockwise."""
    hand_word: ClassVar[str] = "hand"
    """What the game calls one deal played out: a hand, a round."""
    HELP_MOVES: ClassVar[str] = "  a number    the number shown next to a card or an action: 1, 2, ..."
    ACTION_WORDS: ClassVar[tuple[str, ...]] = ()
    """Action words the person may type alone; the engine then says what is missing."""
    named_suits: ClassVar[bool] = False
    """Label the rows of the hand with the suit's name as well as its symbol."""
    choices_label: ClassVar[str | None] = None
    """With a label, the choices that are not cards make the hand's last row (``or  9 sing 40``)."""
    card_column: ClassVar[int] = 4
    """The width a card and its gap take in a replay's trick row, so the cards of every row line up."""

    def __init__(self, console: Console, game: Game, seats: Seats) -> None:
        self.out = console
        self.game = game
        self.seats = seats
        self.look = Look(console, game.deck)

    @classmethod
    def for_player(cls, console: Console, game: Game, me: int) -> Screen:
        return cls(console, game, Seats.relative(game, me, cls.step))

    @classmethod
    def for_replay(cls, console: Console, game: Game) -> Screen:
        return cls(console, game, Seats.compass(game, cls.step))

    @property
    def width(self) -> int:
        """Panels keep one width all match long, so the screen does not jump about."""
        return min(80, self.out.width)

    def grid(self) -> Table:
        """A two-column grid of labelled rows, as in the status and result panels."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
        return grid

    def status_panel(self, grid: Table, obs: JSON) -> Panel:
        """A game's status grid in the panel every game shows it in, titled with the hand, dealer and turn."""
        turn = obs["current_player"]
        whose = "your turn" if turn == obs["seat"] else f"{self.seats.full(turn)} to act"
        dealer = self.seats.short(obs["dealer"])
        title = f"{capital(self.hand_word)} {obs['hand_number'] + 1} · dealer: {dealer} · {whose}"
        return Panel(grid, title=title, title_align="left", box=box.ROUNDED, width=self.width)

    # -- words every game uses ------------------------------------------------------

    def suit(self, letter: str) -> Text:
        """``♥ hearts``, in the suit's colour."""
        return self.look.suit_label(letter, named=True)

    def side_subject(self, side: int) -> tuple[str, bool]:
        """A side as the subject of a sentence, and whether its verb is plural (``You and Partner``)."""
        seats = self.seats
        if seats.me is None:
            return seats.side(side), self.game.partnerships
        who = seats.side_members(side)
        return who, self.game.partnerships or who == "You"

    def side_verb(self, side: int, plural: str, singular: str) -> str:
        who, many = self.side_subject(side)
        return f"{who} {plural if many else singular}"

    def wins(self, side: int) -> str:
        """``You and Partner win``, ``Opponent wins``, ``N-S win``."""
        return self.side_verb(side, "win", "wins")

    def match_target(self) -> str:
        """What the match is played to, after the score: ``first to 500``, ``target 12``."""
        raise NotImplementedError

    def standing(self, scores: Sequence[int]) -> Text:
        """The match score and what it is played to: ``Us 120 · Them 40   first to 500``."""
        line = self.seats.per_side(scores)
        line.append(f"   {self.match_target()}", style="dim")
        return line

    def seat_numbers(self) -> str:
        """The seats in playing order with their numbers, for the intro: ``You (0) → Left (1) → ...``."""
        return " → ".join(f"{self.seats.short(s)} ({s})" for s in self.seats.seat_order)

    def print_intro(self, rules: str, seed: int | None, seating: str, hint: str) -> None:
        """The intro panel every game opens with: its rules, the seed, the seats and how to type a move."""
        text = Text.assemble((self.game.title, "bold"), f": {rules}; match seed {seed}\n", f"{seating}\n",
                             (hint, "dim"))
        self.out.print(Panel(text, box=box.ROUNDED, expand=False))

    def hand_rule(self, number: int, score: str) -> None:
        """The rule that opens a hand, live and in replays: ``── Hand 3 · Us 40 · Them 25 ──``."""
        self.out.print()
        self.out.print(Rule(f"{capital(self.hand_word)} {number} · {score}", style="cyan"))

    def actor_line(self, seat: int) -> Text:
        """The start of a narrated action: ``  You `` for the person, ``  Left (seat 1) `` for others."""
        return Text(f"  {'You' if seat == self.seats.me else self.seats.full(seat)} ")

    def trick_head(self, number: int, winner: int, full: bool = False) -> Text:
        """The start of a narrated trick: ``  Trick 3 → Left wins it`` (``full``: with the seat number)."""
        name = self.seats.full(winner) if full else self.seats.short(winner)
        line = Text(f"  Trick {number} → ", style="dim")
        line.append("you win it" if winner == self.seats.me else f"{name} wins it", style="bold")
        return line

    def final_panel(self, verdict: Text, title: str) -> None:
        """The match's last word, in a double-lined panel."""
        self.out.print()
        self.out.print(Panel(verdict, title=title, title_align="left", box=box.DOUBLE, expand=False))

    # -- the person's turn ---------------------------------------------------------

    def hand_rows(self, obs: JSON, legal: Sequence[Action]) -> Table:
        """The seat's hand, one row per suit; each card that is a legal choice carries its number."""
        number = {a.card.text: i for i, a in enumerate(legal, 1) if a.card is not None}
        return self.hand_grid(obs["hand"], number)

    def hand_grid(self, cards: Iterable[str], number: Mapping[str, int],
                  face: Callable[[str], Text] | None = None,
                  order: Callable[[str], int] | None = None, bracketed: Collection[str] = ()) -> Table:
        """Cards one row per suit; a card in ``number`` carries its number, the others are dimmed then.

        Every game's hand looks alike; where a game needs it, ``face`` draws a card that is not
        dimmed (with a highlight), ``order`` sorts each suit and ``bracketed`` cards (face up on
        the table) are drawn in [brackets].
        """
        deck = self.game.deck
        draw = face or self.look.card
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        by_suit: dict[str, list[str]] = {s.letter: [] for s in deck.suits}
        for text in cards:
            by_suit[deck.card(text).suit.letter].append(text)
        for letter, suit_cards in by_suit.items():
            if order is not None:
                suit_cards.sort(key=order)
            row = Text()
            for text in suit_cards:
                if row:
                    row.append("  ")
                if text in number:
                    row.append(f"{number[text]:>2} ", style="cyan")
                elif number:
                    row.append("   ")
                shown = draw(text) if text in number or not number else Text(text, style="dim")
                if text in bracketed:
                    shown = Text.assemble(("[", "dim"), shown, ("]", "dim"))
                row.append_text(shown)
            if not suit_cards:
                row.append("—", style="dim")
            grid.add_row(Text(" ").append_text(self.look.suit_label(letter, self.named_suits)), row)
        return grid

    def shown_cards(self, obs: JSON, seat: int) -> list[str]:
        """The cards of a seat's hand that every seat has seen (a declared marriage, a sung cante)."""
        return list(obs["shown"][seat])

    def add_seen(self, title: Text, obs: JSON) -> None:
        """Add to the hand's title the person's cards everyone has seen: ``(seen by all: KH QH)``."""
        shown = self.shown_cards(obs, obs["seat"])
        if shown:
            title.append("   (seen by all: ", style="dim")
            title.append_text(self.look.cards(shown))
            title.append(")", style="dim")

    def known_line(self, obs: JSON) -> Text | None:
        """Cards other seats are known to hold (shown, not yet played), or None."""
        parts = []
        for seat in self.seats.seat_order:
            cards = self.shown_cards(obs, seat)
            if seat != self.seats.me and cards:
                parts.append(Text(f"{self.seats.short(seat)} ").append_text(self.look.cards(cards)))
        return join(parts) if parts else None

    def choice_label(self, action: Action, obs: JSON) -> Text:
        """How a choice that is not a card of the hand is listed (its text, what the person types)."""
        return Text(action.text, style="bold")

    def extra_choices(self, obs: JSON, legal: Sequence[Action]) -> Text | None:
        """The legal actions that are not a card of the hand (``bid rami``, ``sing 40``, ``pass``)."""
        parts = [Text.assemble((f"{i:>2} ", "cyan"), self.choice_label(a, obs))
                 for i, a in enumerate(legal, 1) if a.card is None]
        return Text("   ").join(parts) if parts else None

    def hand_title(self, obs: JSON) -> Text:
        return Text("Your hand", style="bold")

    def show_turn(self, obs: JSON, legal: Sequence[Action]) -> None:
        out = self.out
        out.print()
        out.print(self.status(obs))
        out.print(self.hand_title(obs))
        rows = self.hand_rows(obs, legal)
        extras = self.extra_choices(obs, legal)
        if extras is not None and self.choices_label is not None:
            label = self.choices_label if any(a.card is not None for a in legal) else "now"
            rows.add_row(Text(f" {label}", style="cyan"), extras)
            extras = None
        out.print(rows)
        if extras is not None:
            out.print(Text("   ").append_text(extras))
        out.print(Text(self.instruction(obs, legal), style="italic"))

    def automatic(self, obs: JSON, legal: Sequence[Action]) -> Action | None:
        """An action taken for the person without asking: the last card of the hand."""
        if len(obs["hand"]) == 1 and len(legal) == 1 and legal[0].kind == "play":
            return legal[0]
        return None

    def shortcut(self, entry: str, legal: Sequence[Action]) -> Action | str | None:
        """Game words the person may type for an action (``rami``, ``40``), or None."""
        return None

    # -- hooks each game fills in ---------------------------------------------------------

    def status(self, obs: JSON) -> Panel:
        raise NotImplementedError

    def instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        raise NotImplementedError

    def intro(self, seed: int | None) -> None:
        raise NotImplementedError

    def announce_hand(self, obs: JSON) -> None:
        raise NotImplementedError

    def narrate(self, seat: int, action: Action, before: JSON, after: JSON, finished: bool) -> None:
        """Print what everyone at the table saw of one action, and what followed from it.

        ``before`` and ``after`` are the person's observations around the action;
        ``finished`` says the action ended the hand (``after`` is then the next
        hand's start, or the final position).
        """
        raise NotImplementedError

    def show_score(self, obs: JSON) -> None:
        raise NotImplementedError

    def show_last(self, obs: JSON) -> None:
        """The last finished trick: of this deal, or the final trick of the previous one."""
        previous = obs["previous_hand"]
        if obs["tricks"]:
            trick, when = obs["tricks"][-1], f"Trick {len(obs['tricks'])}"
        elif previous is not None and previous["final_trick"]:
            trick, when = previous["final_trick"], f"Last trick of the previous {self.hand_word}"
        else:
            self.out.print("No trick has been played yet.")
            return
        line = Text(f"{when}: ", style="bold")
        line.append_text(self.trick_cards(trick["cards"], trick["winner"]))
        line.append(self.trick_outcome(trick))
        self.out.print(line)

    def trick_cards(self, cards: Sequence[Sequence[Any]], winner: int | None = None) -> Text:
        """A trick's cards in playing order, each after its seat, the winner's highlighted."""
        parts = []
        for seat, card in cards:
            part = Text(f"{self.seats.short(seat)} ")
            part.append_text(self.look.card(str(card), "reverse" if seat == winner else ""))
            parts.append(part)
        return join(parts)

    def trick_outcome(self, trick: JSON) -> str:
        """What follows a shown trick's cards: who won it (and what it was worth)."""
        raise NotImplementedError

    def finale(self, obs: JSON) -> None:
        """The end of a match played: who won, the final score, after how many hands.

        A single hand (``new_hand``) ends with no winner: then the hand is over and
        its score shown, never a sentence with nobody in it.
        """
        winner = obs["winner"]
        if winner is None:
            self.single_hand_finale(obs)
            return
        mine = self.seats.me is not None and winner == self.seats.side_of(self.seats.me)
        verdict = Text(f"{self.wins(winner)} the match", style="bold green" if mine else "bold red")
        verdict.append(f"   {self.seats.per_side(obs['scores']).plain}")
        self.final_panel(verdict, self.match_over_title(obs))

    def match_over_title(self, obs: JSON) -> str:
        """``Match over after 1 hand``, ``... after 12 rounds``."""
        return f"Match over after {self.count_of_hands(obs['hand_number'] + 1)}"

    def count_of_hands(self, count: int) -> str:
        """``1 hand``, ``2 hands`` (``round`` in Tute)."""
        return f"{count} {self.hand_word}{'s' if count != 1 else ''}"

    def single_hand_finale(self, obs: JSON) -> None:
        """The end of a single hand, which nobody wins: the score it leaves."""
        verdict = Text(f"{capital(self.hand_word)} over", style="bold")
        verdict.append(f"   {self.seats.per_side(obs['scores']).plain}")
        self.final_panel(verdict, f"Single {self.hand_word}")

    def replay_hand(self, record: JSON, index: int) -> None:
        raise NotImplementedError

    def verdict(self, obs: JSON, over: bool) -> Text:
        """The last line of a replay: who won the match, or whether the last hand ended; the score."""
        if over and obs["winner"] is not None:
            verdict = Text(f"Match over: {self.wins(obs['winner'])}", style="bold green")
        elif over:
            verdict = Text(f"{capital(self.hand_word)} over", style="bold")
        else:
            verdict = Text("Match not finished", style="bold")
        verdict.append("   ")
        verdict.append_text(self.standing(obs["scores"]))
        return verdict

    # -- replays --------------------------------------------------------------------------

    def note(self, text: Text) -> None:
        """A line under a replay's trick row: a call, a draw, an exchange."""
        self.out.print(Text("      ").append_text(text))

    def tag(self, seat: int) -> str:
        """A seat in a replay's trick row: its initial (``S``, ``W``)."""
        return self.seats.initial(seat)

    def row_worth(self, trick: JSON) -> str:
        """What a trick was worth in its replay row, padded to a column (``25 pips   ``)."""
        raise NotImplementedError

    def running_totals(self, totals: Sequence[int]) -> Text:
        """The running count after a trick row, one number per side."""
        return self.seats.per_side(totals, bold=False)

    def trick_row(self, number: int, trick: JSON, totals: Sequence[int]) -> Text:
        """A trick of a replay on one line, the winning card highlighted.

        ``  3  W AS  N TS  E KS  S 9S   won by W, 25 pips   N-S 40 · E-W 25``
        """
        winner = trick["winner"]
        line = Text(f"{number:>3}  ", style="dim")
        for seat, card in trick["cards"]:
            line.append(f"{self.tag(seat)} ")
            line.append_text(self.look.card(card, "reverse" if seat == winner else ""))
            line.append(" " * (self.card_column - len(card)))
        line.append(f" won by {self.tag(winner)}, {self.row_worth(trick)}  ")
        return line.append_text(self.running_totals(totals))

    def drawn(self, winner: int, held: Sequence[Collection[str]], now: Sequence[Collection[str]],
              played: Collection[str] = ()) -> list[Text]:
        """Games with a stock: the cards each seat drew after a trick, winner first (replays show all).

        ``held`` and ``now`` are every seat's hand before and after; ``played`` are cards to leave out.
        """
        parts = []
        for seat in (winner, self.seats.after(winner)):
            new = [c for c in now[seat] if c not in held[seat] and c not in played]
            if new:
                parts.append(Text(f"{self.seats.short(seat)} ").append_text(self.look.cards(new)))
        return parts

    def unfinished(self, hand: JSON) -> None:
        """The end of a replayed hand the record stops inside."""
        self.out.print(Text(f"({self.hand_word} not finished: {len(hand['actions'])} actions recorded)",
                            style="dim"))

    def stats(self) -> SimStats:
        raise NotImplementedError


# -- replays ------------------------------------------------------------------------------


def public(state: State) -> JSON:
    """What every spectator knows: ``observation(None)`` (docs/api.md)."""
    return state.observation(None)


def replay_steps(state: State, actions: Sequence[str]) -> Iterator[tuple[int, str, JSON, JSON, bool]]:
    """Apply a hand's actions one by one: (actor, action text, public before, public after, finished)."""
    for text in actions:
        actor = state.current_player
        assert actor is not None
        before = public(state)
        state.apply(text)
        after = public(state)
        finished = after["hand_number"] != before["hand_number"] or (
            state.is_over() and before["phase"] != "over")
        yield actor, text, before, after, finished


# -- simulations -------------------------------------------------------------------------------


@dataclass
class SimStats:
    """Counts over simulated hands, from each finished hand's public result; games add their own."""

    seats: Seats
    hands: int = 0
    matches: int = 0
    match_winners: Counter[str] = field(default_factory=Counter)
    match_hands: int = 0
    hand_word: ClassVar[str] = "hands"

    def add(self, result: JSON) -> None:
        self.hands += 1

    def match_over(self, obs: JSON, hands: int) -> None:
        self.matches += 1
        self.match_hands += hands
        self.match_winners["draw" if obs.get("draw") else self.seats.side(obs["winner"])] += 1

    def header(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        word = self.hand_word
        mode = f"{word} within matches" if args.matches else f"single {word} from 0-0"
        out.print(Text.assemble((f"{game.title}", "bold"), f" · {self.hands} {mode} · bots {args.bots} · "
                                f"seed {args.seed}" + (f" · preset {game.preset}" if game.preset else "")))
        out.print(Text(f"{self.hands} {word} in {elapsed:.2f} s: {self.hands / elapsed:,.0f} {word}/s",
                       style="dim"))

    def matches_line(self) -> Text | None:
        if not self.matches:
            return None
        winners = ", ".join(f"{k} won {v}" for k, v in sorted(self.match_winners.items()))
        return Text.assemble("Matches finished: ", (str(self.matches), "bold"),
                             f" ({winners}); mean {self.match_hands / self.matches:.1f} "
                             f"{self.hand_word} each")

    def print_matches(self, out: Console) -> None:
        """The matches line, where any match was finished (``--matches``)."""
        line = self.matches_line()
        if line is not None:
            out.print(line)

    @staticmethod
    def shares(counts: Counter[int], whole: int) -> Text:
        """How often each count came up, smallest first: ``0: 12.0% · 1: 50.5% · 2: 37.5%``."""
        return join(Text.assemble((f"{k}: ", "cyan"), pct(counts[k], whole)) for k in sorted(counts))

    @staticmethod
    def by_suit(look: Look, counts: Counter[str]) -> Text:
        """One count per suit, in the deck's order: ``♠ 3 · ♥ 5 · ♦ 2 · ♣ 4``."""
        return join(Text.assemble(look.suit_label(s.letter), f" {counts[s.letter]}") for s in look.deck.suits)

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        raise NotImplementedError

