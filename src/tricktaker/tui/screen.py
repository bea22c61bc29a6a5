"""The base of every game's screen: the hand with numbered choices, the turn, replay and statistics hooks.

A game's screen subclasses :class:`Screen` and fills in the panels that depend
on its rules (status, instruction, narration, results, replay of one hand)
and its :class:`SimStats`.  Every method reads an observation dict
(``state.observation(seat)``), a record or a finished hand's public result,
never the State, so it shows exactly what the seat may know.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import JSON, Action, Game, State
from ..record import load
from .common import Look, Seats, join

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

    # -- the person's turn ---------------------------------------------------------

    def hand_rows(self, obs: JSON, legal: Sequence[Action]) -> Table:
        """The seat's hand, one row per suit; each card that is a legal choice carries its number."""
        number = {a.card.text: i for i, a in enumerate(legal, 1) if a.card is not None}
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        deck = self.game.deck
        by_suit: dict[str, list[str]] = {s.letter: [] for s in deck.suits}
        for text in obs["hand"]:
            by_suit[deck.card(text).suit.letter].append(text)
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
            grid.add_row(Text(" ").append_text(self.look.suit_label(letter, self.named_suits)), row)
        return grid

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
        raise NotImplementedError

    def replay_hand(self, record: JSON, index: int) -> None:
        raise NotImplementedError

    def verdict(self, obs: JSON, over: bool) -> Text:
        """The last line of a replay: who won, and the score."""
        raise NotImplementedError

    def stats(self) -> SimStats:
        raise NotImplementedError


# -- replays ------------------------------------------------------------------------------


def public(state: State) -> JSON:
    """What every spectator knows: ``observation(None)`` (docs/api.md)."""
    return state.observation(None)


def state_at_hand_start(record: JSON, index: int) -> State:
    """The state at the start of hand ``index``: the record cut there, replayed by ``tt.load``."""
    hands = [*record["hands"][:index], dict(record["hands"][index], actions=[], result=None)]
    return load(dict(record, hands=hands, result=None))


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

    def print(self, out: Console, game: Game, args: argparse.Namespace, elapsed: float) -> None:
        raise NotImplementedError

