"""What the games with marriages share on screen: the Marjapussi family and Huutopussi.

:class:`MarriageScreen` holds the words and panels common to every game built on
:mod:`tricktaker.games.marriages`: the calls (declare, ask whole, ask half, the
answers) told in words, who is winning the trick on the table, the instruction
for following (follow suit, trump, beat the high card), and the short forms the
person may type for calls and answers (``d h``, ``whole``, ``half h``, ``no``,
``hearts``).  Each game's screen adds its own
status panel, scoring and results (:mod:`.marjapussi`, :mod:`.huutopussi`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text

from ..engine import JSON, Action, IllegalActionError
from ..games.marriages import STRENGTH_ORDER
from .common import join
from .screen import Screen

__all__ = ["RANK_NAMES", "SUIT_WORDS", "MarriageScreen", "strength"]

SUIT_WORDS = {
    "s": "S", "spade": "S", "spades": "S", "♠": "S",
    "h": "H", "heart": "H", "hearts": "H", "♥": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "♦": "D",
    "c": "C", "club": "C", "clubs": "C", "♣": "C",
}
_SUIT = r"(s|h|d|c|spades?|hearts?|diamonds?|clubs?|♠|♥|♦|♣)"
_DECLARE = re.compile(rf"^(?:d|decl|declare|m|marriage)(?:\s*{_SUIT})?$")
_WHOLE = re.compile(r"^(?:w|whole|ask\s+whole|ask\s+w)$")
_HALF = re.compile(rf"^(?:half|ask\s+half)(?:\s*{_SUIT})?$")
_ANSWER = re.compile(rf"^(?:(?:a|answer|yes|y)\s*)?{_SUIT}$")
_NO = re.compile(r"^(?:n|no|nope|answer\s+no|a\s+no)$")
_YES = re.compile(r"^(?:y|yes|answer|answer\s+yes)$")
RANK_NAMES = {14: "ace", 13: "king", 12: "queen", 11: "jack", 10: "ten"}


def strength(rank: int) -> int:
    """A rank's strength: A 10 K Q J 9 8 7 6, higher is stronger."""
    return len(STRENGTH_ORDER) - STRENGTH_ORDER.index(rank)


class MarriageScreen(Screen):
    """The calls, answers and trick duties of the games with marriages, in words and short forms.

    A subclass says what a marriage is worth (:meth:`marriage_outcome`, :meth:`marriage_text`),
    what a trick is worth (:meth:`trick_worth`) and how to lead (:meth:`lead_instruction`).
    """

    choices_label = "or"
    HELP_MOVES = """\
  a number    the number shown next to a card, a call or an answer: 1, 2, ...
  a card      as, th, 10h: plays that card
  a call      d h or declare hearts: declare the marriage (K+Q) of hearts;
              whole: ask your partner for a whole marriage;
              half h: ask your partner for the other half of hearts
  an answer   no, or the suit: hearts, a h (when your partner asks you)
  an action   play AS, declare H, ask whole, ask half H, answer H, answer no"""
    ACTION_WORDS: ClassVar[tuple[str, ...]] = ("play", "declare", "ask", "answer", "half")

    # -- hooks ---------------------------------------------------------------------------

    def marriage_outcome(self, line: Text, after: JSON) -> None:
        """Append what the marriage just made was worth (``after``: the observation after it)."""
        raise NotImplementedError

    def trick_worth(self, cards: Sequence[Sequence[Any]]) -> str:
        """What the cards of a trick are worth, in words (``25 pips``, ``25 points``)."""
        raise NotImplementedError

    def lead_instruction(self, obs: JSON, cards: Sequence[Any]) -> str:
        """How to lead: freely, unless the game has a lead rule."""
        return "Lead a card: its number or its name (as, th...)."

    def marriage_text(self, seat: int, letter: str, value: int) -> Text:
        """One marriage made, in the status and result panels (``♥ trumps: Partner, Us +2``)."""
        raise NotImplementedError

    # -- words ---------------------------------------------------------------------------

    @property
    def partners(self) -> bool:
        return self.game.partnerships

    def suit_name(self, letter: str) -> str:
        return self.game.deck.suit(letter).name

    def pair(self, letter: str) -> Text:
        """The king and queen of a suit: ``KH QH``."""
        return self.look.cards([f"K{letter}", f"Q{letter}"])

    def partner_of(self, seat: int) -> int:
        return (seat + 2) % self.game.num_players

    def name(self, seat: int) -> str:
        """A seat at the start of a phrase: ``You``, ``Left``, ``West``."""
        return self.seats.short(seat)

    def obj(self, seat: int) -> str:
        """A seat as the object of a phrase: ``you``, ``Left``, ``West``."""
        return "you" if seat == self.seats.me else self.seats.short(seat)

    # -- calls and marriages ---------------------------------------------------------------

    def call_text(self, seat: int, text: str, ask: str | None = None, full: bool = False) -> Text:
        """One call in words: ``Left declares ♥ hearts``, ``You ask Partner for a whole``, ``Right: no``.

        ``ask`` is the call an answer replies to (``ask whole``, ``ask half H``); ``full`` names
        the seat with its number, as the narration does.
        """
        words = text.split()
        kind = words[0]
        me = seat == self.seats.me
        who = self.seats.full(seat) if full and not me else self.name(seat)
        line = Text()
        if kind == "declare":
            line.append(f"{who} {'declare' if me else 'declares'} ")
            line.append_text(self.suit(words[1]))
        elif kind == "ask":
            partner = self.obj(self.partner_of(seat))
            line.append(f"{who} {'ask' if me else 'asks'} {partner} for ")
            if words[1] == "whole":
                line.append("a whole", style="bold")
            else:
                line.append("the other half of ", style="bold")
                line.append_text(self.suit(words[2]))
        elif words[1] == "no":
            line.append(f"{who}: ")
            line.append("no", style="bold")
        elif ask is not None and ask.startswith("ask half"):
            line.append(f"{who}: ")
            line.append("yes", style="bold")
        else:
            line.append(f"{who} {'show' if me else 'shows'} ")
            line.append_text(self.suit(words[1]))
        return line

    def call_line(self, seat: int, text: str, ask: str | None, after: JSON, full: bool = False) -> Text:
        """A call as the narration tells it: the call, the cards shown, and what the marriage made.

        ``after`` is the observation right after the call (for the marriage's value).
        """
        me = seat == self.seats.me
        line = self.call_text(seat, text, ask, full)
        words = text.split()
        if words[0] == "declare":
            line.append(" (").append_text(self.pair(words[1])).append(")")
            self.marriage_outcome(line, after)
        elif words[0] == "answer":
            whole = ask == "ask whole"
            if words[1] == "no":
                if whole:
                    line.append(f" — {'you have' if me else 'has'} no marriage to show", style="dim")
                else:
                    line.append(f" — {'you do' if me else 'does'} not hold the other half", style="dim")
            else:
                if whole:
                    line.append(" (").append_text(self.pair(words[1])).append(")")
                else:
                    line.append(f", {'you hold' if me else 'holds'} the other half of ")
                    line.append_text(self.suit(words[1]))
                self.marriage_outcome(line, after)
        return line

    def marriages_line(self, marriages: Sequence[Sequence[Any]]) -> Text:
        return join(self.marriage_text(int(s), str(letter), int(v)) for s, letter, v in marriages)

    def narrated_call(self, seat: int, action: Action, before: JSON, after: JSON) -> Text:
        """A call or an answer as the narration tells it, the seat named in full."""
        ask = self.asked(before)[1] if action.kind == "answer" else None
        return Text("  ").append_text(self.call_line(seat, action.text, ask, after, full=True))

    def calls_line(self, calls: Sequence[Sequence[Any]]) -> Text:
        parts = []
        ask: str | None = None
        for seat, text in calls:
            parts.append(self.call_text(int(seat), str(text), ask))
            ask = str(text) if str(text).startswith("ask") else None
        return join(parts)

    # -- the table ---------------------------------------------------------------------------

    def winning_seat(self, cards: Sequence[Sequence[Any]], trump: str | None) -> int:
        """Who wins the cards on the table so far: the best trump, else the best card of the suit led."""
        deck = self.game.deck
        lead = deck.card(str(cards[0][1])).suit
        best_seat, best_key = -1, -1
        for seat, text in cards:
            card = deck.card(str(text))
            bonus = 20 if card.suit.letter == trump else 10 if card.suit is lead else 0
            key = strength(card.rank.value) + bonus
            if key > best_key:
                best_seat, best_key = int(seat), key
        return best_seat

    def table_line(self, obs: JSON) -> Text:
        turn = obs["current_player"]
        trick = obs["trick"]
        if obs["phase"] == "answer":
            asker = int(obs["calls"][-1][0])
            return Text(f"empty: {self.name(asker)} asked; {self.obj(turn)} must answer", style="dim")
        if not trick:
            who = "you lead" if turn == obs["seat"] else f"{self.name(turn)} leads"
            return Text(f"empty: {who}", style="dim")
        line = self.trick_cards(trick)
        if len(trick) > 1:
            best = self.winning_seat(trick, obs["trump"])
            line.append(f"   {self.obj(best)} winning, {self.trick_worth(trick)}", style="dim")
        if turn is not None:
            line.append("   → ", style="dim")
            line.append(self.obj(turn), style="bold")
        return line

    def my_row(self, obs: JSON) -> list[str]:
        """The person's face-up cards (Avomarjapussi), column by column."""
        if "rows" not in obs or obs["seat"] is None:
            return []
        return [str(up) for up, _ in obs["rows"][obs["seat"]] if up is not None]

    # -- the person's turn ---------------------------------------------------------------------

    def asked(self, obs: JSON) -> tuple[int, str]:
        """The pending ask in the answer phase: (asker, ``ask whole`` / ``ask half H``)."""
        seat, text = obs["calls"][-1]
        return int(seat), str(text)

    def instruction(self, obs: JSON, legal: Sequence[Action]) -> str:
        deck = self.game.deck
        if obs["phase"] == "answer":
            asker, ask = self.asked(obs)
            words = ask.split()
            answers = [a for a in legal if a.text != "answer no"]
            if words[1] == "whole":
                if len(answers) > 1:
                    names = " or ".join(self.suit_name(a.text.split()[1]) for a in answers)
                    return f"{self.name(asker)} asks you for a whole: you hold more than one marriage; " \
                           f"choose which to show ({names}): its number or the suit's name."
                return f"{self.name(asker)} asks you for a whole: answer truthfully."
            return f"{self.name(asker)} asks you for the other half of {self.suit_name(words[2])}: " \
                   f"answer truthfully."
        cards = [a.card for a in legal if a.card is not None]
        calls = [a for a in legal if a.card is None]
        if not obs["trick"]:
            text = self.lead_instruction(obs, cards)
            if not calls:
                return text
            hint = f"You won the trick: lead, or first make one call: {self.calls_hint(calls)}."
            return f"{hint} {text}" if obs.get("lead_rule") else hint
        if "stock_size" in obs and obs["stock_size"]:
            return "The stock lasts: play any card (no duty to follow, trump or beat)."
        lead = deck.card(obs["trick"][0][1]).suit
        held = [deck.card(c) for c in [*obs["hand"], *self.my_row(obs)]]
        held_lead = [c for c in held if c.suit is lead]
        trump = deck.suit(obs["trump"]) if obs["trump"] else None
        held_trump = [c for c in held if trump is not None and c.suit is trump]
        best = self.winning_seat(obs["trick"], obs["trump"])
        partner_best = self.partners and self.game.options.get("partner_exception") \
            and best == self.partner_of(obs["seat"])
        if held_lead:
            if len(cards) < len(held_lead):
                return f"Follow {lead.name}, beating the high card (you can, so you must)."
            if partner_best:
                return f"Follow {lead.name}: Partner's card is best, so you need not beat it."
            return f"Follow {lead.name}."
        if trump is not None and held_trump:
            if len(cards) < len(held_trump):
                return f"You have no {lead.name}: trump ({trump.name}), over the best trump on the table."
            return f"You have no {lead.name}: trump ({trump.name})."
        no_trumps = " and no trumps" if trump is not None and trump is not lead else ""
        return f"You have no {lead.name}{no_trumps}: play any card."

    def calls_hint(self, calls: Sequence[Action]) -> str:
        """The calls possible now, by their short forms: ``d h declares hearts, whole asks Partner...``."""
        hints = []
        for action in calls:
            words = action.text.split()
            if action.kind == "declare":
                hints.append(f"d {words[1].lower()} declares {self.suit_name(words[1])}")
            elif words[1] == "whole":
                hints.append(f"whole asks {self.name(self.partner_of(self.seats.me or 0))} for a whole")
            else:
                hints.append(f"half {words[2].lower()} asks for the other half of {self.suit_name(words[2])}")
        return ", ".join(hints)

    def automatic(self, obs: JSON, legal: Sequence[Action]) -> Action | None:
        """The last card, and a forced answer (the only true one: no, or one marriage)."""
        if obs["phase"] == "answer" and len(legal) == 1:
            return legal[0]
        cards = len(obs["hand"]) + len(self.my_row(obs))
        if cards == 1 and len(legal) == 1 and legal[0].kind == "play":
            return legal[0]
        return None

    def shortcut(self, entry: str, legal: Sequence[Action]) -> Action | str | None:
        """``d h`` / ``declare hearts`` → ``declare H``; ``whole``; ``half h``; answers ``no``, ``hearts``.

        ``d`` or ``half`` alone mean the one such call possible now.
        """
        text = " ".join(entry.lower().split())
        answering = any(a.kind == "answer" for a in legal)
        if answering:
            if _NO.match(text):
                if any(a.text == "answer no" for a in legal):
                    return "answer no"
                truth = " or ".join(a.text for a in legal)
                raise IllegalActionError(f"you hold what was asked for: you must answer truthfully ({truth})")
            match = _ANSWER.match(text)
            if match:
                return f"answer {SUIT_WORDS[match.group(1)]}"
            if _YES.match(text):
                return self.the_one([a for a in legal if a.text != "answer no"], "answer",
                                    "you hold nothing that was asked for: answer no")
            return None
        match = _DECLARE.match(text)
        if match:
            if match.group(1):
                return f"declare {SUIT_WORDS[match.group(1)]}"
            return self.the_one([a for a in legal if a.kind == "declare"], "marriage",
                                "there is no marriage to declare now (a call comes after winning a "
                                "trick, before leading, with the king and queen of a suit)")
        if _WHOLE.match(text):
            return "ask whole"
        match = _HALF.match(text)
        if match:
            if match.group(1):
                return f"ask half {SUIT_WORDS[match.group(1)]}"
            return self.the_one([a for a in legal if a.text.startswith("ask half")], "half",
                                "there is no half to ask for now (a call comes after winning a trick, "
                                "before leading, holding the king or the queen of a suit)")
        if _NO.match(text):
            raise IllegalActionError("nobody has asked you anything")
        return None

    @staticmethod
    def the_one(options: Sequence[Action], what: str, none: str) -> Action:
        if len(options) == 1:
            return options[0]
        if not options:
            raise IllegalActionError(none)
        raise IllegalActionError(f"which {what}? {', '.join(a.text for a in options)}")
