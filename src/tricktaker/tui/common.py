"""What every game's screen shares: card and suit looks, seat names, small text helpers.

Nothing here knows a game's rules: a screen (``tui.tuppi``, ``tui.tute``)
builds its panels from these pieces and from observations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from ..cards import CardParseError, Deck
from ..engine import Game

__all__ = ["Look", "Seats", "capital", "count_cell", "join", "pct"]

_COLOUR_STYLES = {"red": "bold red", "black": "bold", "gold": "bold yellow",
                  "blue": "bold blue", "green": "bold green"}
_SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
                 # The Spanish suits by their usual French counterparts.
                 "oros": "♦", "copas": "♥", "espadas": "♠", "bastos": "♣"}
_COMPASS = ("South", "West", "North", "East")
"""Seats 0..3 clockwise, as around a bridge table."""


class Look:
    """How cards and suits are drawn on one console.

    Cards keep their canonical text (``QH``, ``12C``), which is exactly what the
    player types, coloured by the deck's suit colours: spades and clubs plain
    bold, hearts and diamonds red; oros yellow, copas red, espadas blue, bastos
    green.  Suit symbols label the rows of a hand when the console is UTF-8;
    otherwise the suit letters do.
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

    def suit_style(self, suit_letter: str) -> str:
        return _COLOUR_STYLES.get(self.deck.suit(suit_letter).colour, "bold")

    def card(self, card_text: str, extra: str = "") -> Text:
        """A card in its canonical text (what the player types), coloured by suit."""
        return Text(card_text, style=f"{self.style(card_text)} {extra}".strip())

    def cards(self, texts: Iterable[str], sep: str = " ") -> Text:
        return Text(sep).join([self.card(t) for t in texts])

    def suit_label(self, suit_letter: str, named: bool = False) -> Text:
        """The suit's symbol (or letter), and with ``named`` its name: ``♣ bastos``."""
        suit = self.deck.suit(suit_letter)
        style = self.suit_style(suit_letter)
        symbol = _SUIT_SYMBOLS.get(suit.name) if self.unicode else None
        label = Text(symbol or suit.letter, style=style)
        if named:
            label.append(f" {suit.name}", style=style)
        return label

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
            out.append(" ".join(ranks) if ranks else "—", style=self.suit_style(letter) if ranks else "dim")
        return out


@dataclass(frozen=True)
class Seats:
    """Names for the seats and sides of one table.

    For the person playing, names are relative to them (``You``, ``Left``,
    ``Partner``, ``Right``; with two players ``You`` and ``Opponent``) and
    sides are ``Us`` and ``Them``; for a replay they are compass points and
    ``N-S`` / ``E-W``.  Seat numbers always follow, so the names match the
    engine's messages, which speak of seat numbers.  Seats are numbered
    clockwise, so ``Left`` is seat ``me + 1``; ``step`` is the play direction
    (+1 clockwise, -1 counter-clockwise), which orders the seats for display.
    """

    names: tuple[str, ...]
    side_names: tuple[str, ...]
    game: Game
    me: int | None = None
    step: int = 1

    @classmethod
    def relative(cls, game: Game, me: int, step: int = 1) -> Seats:
        n = game.num_players
        across = "Partner" if game.partnerships else "Across"
        rel = {6: ("You", "Left", "Far left", "Across", "Far right", "Right"),
               5: ("You", "Left", "Far left", "Far right", "Right"),
               4: ("You", "Left", across, "Right"), 3: ("You", "Left", "Right"),
               2: ("You", "Opponent")}.get(n) or tuple(["You"] + [f"Player {i}" for i in range(1, n)])
        names = tuple(rel[(s - me) % n] for s in range(n))
        if game.partnerships:
            mine = game.side_of(me)
            sides = tuple("Us" if side == mine else "Them" for side in range(game.num_sides))
        else:
            sides = names
        return cls(names, sides, game, me, step)

    @classmethod
    def compass(cls, game: Game, step: int = 1) -> Seats:
        n = game.num_players
        names = _COMPASS if n == 4 else ("South", "North") if n == 2 else tuple(f"Seat {s}" for s in range(n))
        sides: tuple[str, ...] = ("N-S", "E-W") if n == 4 and game.partnerships else names
        return cls(tuple(names), sides, game, None, step)

    def short(self, seat: int) -> str:
        return self.names[seat]

    def full(self, seat: int) -> str:
        """``Left (seat 1)``: the name with the number the engine's messages use."""
        return f"{self.names[seat]} (seat {seat})"

    def initial(self, seat: int) -> str:
        """A seat's first letter (``S``, ``W``...) where that is unambiguous, else its name."""
        first = [name[0] for name in self.names]
        return first[seat] if len(set(first)) == len(first) else self.names[seat]

    def side(self, side: int) -> str:
        return self.side_names[side]

    def after(self, seat: int) -> int:
        """The next seat in the play direction."""
        return (seat + self.step) % len(self.names)

    @property
    def seat_order(self) -> list[int]:
        """Seats in display order: in the play direction from the person, or from seat 0."""
        n = len(self.names)
        first = self.me or 0
        return [(first + self.step * k) % n for k in range(n)]

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
        return join(Text.assemble(f"{self.side(s)} ", (str(values[s]), "bold" if bold else ""))
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
        if not self.game.partnerships:
            return "you" if side == self.me else self.side(side)
        return "your side" if side == self.side_of(self.me) else "their side"

    def side_members(self, side: int) -> str:
        """Who plays for a side: ``You and Partner``, ``Left and Right``, ``Opponent``, ``N-S``."""
        if not self.game.partnerships:
            return self.names[side]
        if self.me is None:
            return self.side(side)
        members = [s for s in range(len(self.names)) if self.side_of(s) == side]
        members.sort(key=lambda s: s != self.me)
        return " and ".join(self.names[s] for s in members)

    def side_of(self, seat: int) -> int:
        return self.game.side_of(seat)


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def join(parts: Iterable[Text], sep: str = " · ") -> Text:
    return Text(sep, style="dim").join(list(parts))


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def count_cell(count: int, whole: int) -> str:
    """A cell of a statistics table: ``12 (3.4%)``, or ``·`` for none, so the rare cases stand out."""
    return f"{count} ({pct(count, whole)})" if count else "·"
