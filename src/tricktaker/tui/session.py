"""One person at one seat, bots at the others, a whole match: the one prompt loop for every game.

The referee loop holds the State, as any card table does, but everything it
prints for the person comes from ``observation(seat)`` of that person's seat,
through the game's :class:`~tricktaker.tui.screen.Screen`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..bots import Bot, view_of
from ..cards import CardParseError
from ..engine import JSON, Action, IllegalActionError, State
from .common import Seats
from .registry import screen_class
from .screen import Screen

__all__ = ["PlaySession", "help_text"]

COMMANDS = """\
Commands
  show        the table and your hand again
  score       the match score and the previous {hand}
  last        the last finished trick
  help        this text
  quit        leave the table (the match is saved first with --save)"""


def help_text(screen: Screen) -> str:
    return f"Enter your move as\n{screen.HELP_MOVES}\n{COMMANDS.format(hand=screen.hand_word)}"


class _Quit(Exception):
    """The person typed ``quit``."""


class _EndOfInput(Exception):
    """Input ran out (Ctrl-D, or the end of a piped script)."""


@dataclass
class PlaySession:
    """One person at one seat, bots at the others, a whole match.

    ``ask`` reads one line typed by the person (``tricktaker play`` passes its
    replaceable ``read_line``); it may raise ``EOFError`` when input runs out.
    """

    state: State
    human: int
    bots: dict[int, Bot]
    out: Console
    err: Console
    save: Path | None
    ask: Callable[[str], str] = input
    bot_delay: float = 0.0
    """Seconds to pause after each bot's move, so that a person can follow a trick card by card."""
    sleep: Callable[[float], None] = time.sleep
    screen: Screen = field(init=False)

    def __post_init__(self) -> None:
        self.screen = screen_class(self.state.game.name).for_player(self.out, self.state.game, self.human)

    @property
    def seats(self) -> Seats:
        return self.screen.seats

    def obs(self) -> JSON:
        return self.state.observation(self.human)

    def run(self) -> int:
        self.screen.intro(self.state.seed)
        self.write_record()
        self.screen.announce_hand(self.obs())
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
                self.narrate(seat, action, before)
                if seat != self.human and self.bot_delay > 0 and not self.state.is_over():
                    self.sleep(self.bot_delay)
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
        self.screen.finale(self.obs())
        if self.save:
            self.out.print(f"Record saved in {self.save}.\nReplay it with: tricktaker replay {self.save}",
                           soft_wrap=True)
        return 0

    def narrate(self, seat: int, action: Action, before: JSON) -> None:
        after = self.obs()
        finished = after["hand_number"] != before["hand_number"] or (
            self.state.is_over() and before["phase"] != "over")
        self.screen.narrate(seat, action, before, after, finished)
        if finished and not self.state.is_over():
            self.write_record()
            self.screen.announce_hand(after)

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
        auto = self.screen.automatic(obs, legal)
        if auto is not None:  # nothing to decide: the last card, or a pass with nothing to declare
            self.state.apply(auto)
            return auto
        self.screen.show_turn(obs, legal)
        kinds = {a.kind for a in legal}
        prompt = f"{legal[0].kind} › " if len(kinds) == 1 else "› "
        while True:
            try:
                line = self.ask(prompt)
            except EOFError:
                raise _EndOfInput from None
            entry = line.strip()
            if not entry:
                continue
            word = entry.lower()
            if word in ("help", "?", "h"):
                self.out.print(help_text(self.screen), markup=False, highlight=False)
            elif word == "score":
                self.screen.show_score(self.obs())
            elif word == "last":
                self.screen.show_last(self.obs())
            elif word in ("show", "table", "look"):
                self.screen.show_turn(self.obs(), legal)
            elif word in ("quit", "exit", "q"):
                raise _Quit
            else:
                try:
                    self.state.apply(self.interpret(entry, legal))
                except IllegalActionError as exc:
                    self.out.print(Text.assemble(("✗ ", "bold red"), exc.addressed_to(self.human)),
                                   soft_wrap=True)
                    continue
                return self.state.history[-1]

    def interpret(self, entry: str, legal: Sequence[Action]) -> Action | str:
        """Turn what the person typed into an action or action text for ``State.apply``.

        The game's own words come first (``rami``, ``40``, ``20 copas``); then a
        number picks from the numbered choices, and a bare card means the one
        kind of card action now possible (bid, play, discard or give).  Anything
        else is passed on as action text, so the engine's own message explains
        what is wrong with it.
        """
        shortcut = self.screen.shortcut(entry, legal)
        if shortcut is not None:
            return shortcut
        if entry.isdigit():
            n = int(entry)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            raise IllegalActionError(f"there is no choice {n}: choose 1..{len(legal)}")
        tokens = entry.split()
        if len(tokens) != 1:
            return entry
        word = tokens[0].lower()
        try:
            card = self.state.game.deck.card(word)
        except CardParseError:
            if (word.isalpha() and len(word) > 2) or word in self.screen.ACTION_WORDS:
                return entry  # an action word: the engine says what is missing or wrong
            raise IllegalActionError(
                f"{entry!r} is not a card, a choice number or a command (type help)") from None
        card_kinds = {a.kind for a in legal if a.card is not None}
        if len(card_kinds) == 1:
            return f"{card_kinds.pop()} {card.text}"
        raise IllegalActionError(
            f"{card.text} is a card, but now the choice is: {', '.join(a.text for a in legal)}")
