"""Cards, suits, ranks, card sets as int bitmasks, the four decks, and card text.

Every card has a fixed bit index: ``suit.index * 16 + rank.value``.  A set of
cards is then a plain ``int`` whose bits are those indices, so the engine's hot
paths (legal moves, trick winners, voids) are integer operations.  Within one
suit a higher bit is a higher rank of the deck's natural order (A above K for
the Anglo-American deck); games that rank cards differently (Tute, Marjapussi)
keep their own strength table on top of this layout.

Card text is rank then suit: ``AS KH TD 2C`` for Anglo-American decks (``10S``
is accepted as input), ``1O 3C 12E 11B`` for the Spanish deck.  Parsing is
case-insensitive and printing is canonical.  The letter ``C`` is clubs in one
deck and copas in the other, so text is always read through a :class:`Deck`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "ANGLO_52",
    "DECKS",
    "PIQUET_36",
    "SPANISH_40",
    "SHORT_24",
    "SUIT_MASKS",
    "Card",
    "CardParseError",
    "CardSet",
    "Deck",
    "Rank",
    "Suit",
    "iter_bits",
    "popcount",
    "single_bits",
    "suit_of",
]

SUIT_STRIDE: Final = 16
"""Bits reserved per suit; every deck has at most 13 ranks."""
SUIT_MASKS: Final = tuple(0xFFFF << (SUIT_STRIDE * s) for s in range(4))
"""The bits of each suit, by suit index."""


class CardParseError(ValueError):
    """Card text that does not name a card of the deck; the message names the token."""


class Suit:
    """A suit of one deck family.  ``index`` is its position in the bit layout."""

    __slots__ = ("index", "letter", "name", "colour")

    def __init__(self, index: int, letter: str, name: str, colour: str) -> None:
        self.index = index
        self.letter = letter
        self.name = name
        self.colour = colour

    @property
    def mask(self) -> int:
        """All 16 bits of this suit."""
        return 0xFFFF << (self.index * SUIT_STRIDE)

    def __repr__(self) -> str:
        return f"Suit({self.name})"

    def __str__(self) -> str:
        return self.letter


class Rank:
    """A rank: ``value`` is its bit within the suit, ``text`` its canonical text."""

    __slots__ = ("value", "text", "name")

    def __init__(self, value: int, text: str, name: str) -> None:
        self.value = value
        self.text = text
        self.name = name

    def __repr__(self) -> str:
        return f"Rank({self.name})"

    def __str__(self) -> str:
        return self.text


class Card:
    """One card.  Cards are interned: each deck family holds exactly one object per card."""

    __slots__ = ("suit", "rank", "index", "mask", "text")

    def __init__(self, suit: Suit, rank: Rank) -> None:
        self.suit = suit
        self.rank = rank
        self.index = suit.index * SUIT_STRIDE + rank.value
        self.mask = 1 << self.index
        self.text = rank.text + suit.letter

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        deck = SPANISH_40 if self.suit in SPANISH_SUITS else ANGLO_52
        return (_card_from_text, (deck.name, self.text))


def _card_from_text(deck_name: str, text: str) -> Card:
    return DECKS[deck_name].card(text)


# -- the two deck families ----------------------------------------------------

SPADES = Suit(3, "S", "spades", "black")
HEARTS = Suit(2, "H", "hearts", "red")
DIAMONDS = Suit(1, "D", "diamonds", "red")
CLUBS = Suit(0, "C", "clubs", "black")
ANGLO_SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)
"""Display order: spades, hearts, diamonds, clubs (bridge order, colours alternate)."""

_ANGLO_RANK_NAMES = {
    14: ("A", "ace"), 13: ("K", "king"), 12: ("Q", "queen"), 11: ("J", "jack"),
    10: ("T", "ten"), 9: ("9", "nine"), 8: ("8", "eight"), 7: ("7", "seven"),
    6: ("6", "six"), 5: ("5", "five"), 4: ("4", "four"), 3: ("3", "three"), 2: ("2", "two"),
}
ANGLO_RANKS: Final = {v: Rank(v, t, n) for v, (t, n) in _ANGLO_RANK_NAMES.items()}

OROS = Suit(0, "O", "oros", "gold")
COPAS = Suit(1, "C", "copas", "red")
ESPADAS = Suit(2, "E", "espadas", "blue")
BASTOS = Suit(3, "B", "bastos", "green")
SPANISH_SUITS: Final = (OROS, COPAS, ESPADAS, BASTOS)

_SPANISH_RANK_NAMES = {
    12: "rey", 11: "caballo", 10: "sota", 7: "siete", 6: "seis",
    5: "cinco", 4: "cuatro", 3: "tres", 2: "dos", 1: "as",
}
SPANISH_RANKS: Final = {v: Rank(v, str(v), n) for v, n in _SPANISH_RANK_NAMES.items()}

_ANGLO_CARDS = {(s.index, v): Card(s, r) for s in ANGLO_SUITS for v, r in ANGLO_RANKS.items()}
_SPANISH_CARDS = {(s.index, v): Card(s, r) for s in SPANISH_SUITS for v, r in SPANISH_RANKS.items()}


class Deck:
    """A deck: which suits and ranks it holds, and how its card text reads.

    ``cards`` lists the deck in display order (suits in the family's order, high
    rank first); ``by_index`` maps a bit index back to its card; ``mask`` is the
    whole deck as a card set.
    """

    def __init__(self, name: str, suits: tuple[Suit, ...], rank_values: Iterable[int],
                 family: dict[tuple[int, int], Card]) -> None:
        self.name = name
        self.suits = suits
        self.rank_values = tuple(sorted(rank_values, reverse=True))
        self.cards: tuple[Card, ...] = tuple(
            family[(s.index, v)] for s in suits for v in self.rank_values
        )
        self.masks: tuple[int, ...] = tuple(c.mask for c in self.cards)
        self.by_index: dict[int, Card] = {c.index: c for c in self.cards}
        self.mask = sum(c.mask for c in self.cards)
        self.text_at: dict[int, str] = {c.mask: c.text for c in self.cards}
        """Card bit -> the card's text (what observations write for every card)."""
        self._order: dict[int, int] = {c.index: i for i, c in enumerate(self.cards)}
        """Bit index -> position in display order (the sort key of :meth:`sorted`)."""
        self._suit_cards = tuple(_SuitCards(self.by_index, SUIT_STRIDE * s) for s in range(4))
        """Per suit index: its 16 bits of a mask -> the cards, high first (see :meth:`cards_of`)."""
        self._by_text: dict[str, Card] = {c.text.upper(): c for c in self.cards}
        if family is _ANGLO_CARDS and 10 in self.rank_values:
            for s in suits:
                self._by_text["10" + s.letter] = family[(s.index, 10)]
        self.suit_by_letter = {s.letter: s for s in suits}

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name}, {len(self.cards)} cards)"

    def card(self, text: str) -> Card:
        """Parse one card, case-insensitively; raise :class:`CardParseError` naming the token."""
        # ASCII only: str.upper() maps look-alikes such as the long s onto card letters
        card = self._by_text.get(text.strip().upper()) if isinstance(text, str) and text.isascii() else None
        if card is None:
            raise CardParseError(
                f"{text!r} is not a card of the {self.name} deck "
                f"(write rank then suit, e.g. {self.cards[0].text})"
            )
        return card

    def card_at(self, mask: int) -> Card:
        """The card of a one-card mask (the highest card of any mask)."""
        return self.by_index[mask.bit_length() - 1]

    def cards_from_text(self, text: str) -> list[Card]:
        """Parse space- or comma-separated cards, e.g. ``"AS 10h kd"``."""
        return [self.card(tok) for tok in text.replace(",", " ").split()]

    def suit(self, letter: str) -> Suit:
        """The suit with this letter, case-insensitively."""
        ascii_text = isinstance(letter, str) and letter.isascii()
        suit = self.suit_by_letter.get(letter.strip().upper()) if ascii_text else None
        if suit is None:
            raise CardParseError(
                f"{letter!r} is not a suit of the {self.name} deck "
                f"(suits: {' '.join(s.letter for s in self.suits)})"
            )
        return suit

    def cards_of(self, mask: int) -> list[Card]:
        """The cards of a bitmask, high bit first (so high suit, high rank first)."""
        if 0 <= mask < _ALL_SUITS:  # every card mask: a cached tuple per suit
            t0, t1, t2, t3 = self._suit_cards
            return [*t3[mask >> 48], *t2[mask >> 32 & 0xFFFF], *t1[mask >> 16 & 0xFFFF], *t0[mask & 0xFFFF]]
        by_index = self.by_index
        return [by_index[i] for i in iter_bits_desc(mask)]

    def mask_of(self, cards: Iterable[Card]) -> int:
        mask = 0
        for c in cards:
            mask |= c.mask
        return mask

    def format(self, mask: int) -> str:
        """A card set as text in display order, e.g. ``"AS KS 7H 2C"``."""
        return " ".join(c.text for c in self.sorted(self.cards_of(mask)))

    def sorted(self, cards: Iterable[Card]) -> list[Card]:
        """Cards in display order: suit order of the deck, then rank high to low."""
        order = self._order
        return sorted(cards, key=lambda c: order[c.index])


_ALL_SUITS: Final = 1 << (4 * SUIT_STRIDE)


class _SuitCards(dict[int, tuple[Card, ...]]):
    """One suit's 16 bits of a card mask -> its cards, high first (filled as masks are met).

    A bit that is no card of the deck raises ``KeyError``, as the lookup of its index would.
    """

    def __init__(self, by_index: dict[int, Card], base: int) -> None:
        super().__init__()
        self.by_index = by_index
        self.base = base

    def __missing__(self, sub: int) -> tuple[Card, ...]:
        cards = self[sub] = tuple(self.by_index[self.base + i] for i in iter_bits_desc(sub))
        return cards


ANGLO_52: Final = Deck("anglo-52", ANGLO_SUITS, range(2, 15), _ANGLO_CARDS)
PIQUET_36: Final = Deck("anglo-36", ANGLO_SUITS, range(6, 15), _ANGLO_CARDS)
SHORT_24: Final = Deck("anglo-24", ANGLO_SUITS, range(9, 15), _ANGLO_CARDS)
SPANISH_40: Final = Deck("spanish-40", SPANISH_SUITS, SPANISH_RANKS.keys(), _SPANISH_CARDS)
DECKS: Final = {d.name: d for d in (ANGLO_52, PIQUET_36, SHORT_24, SPANISH_40)}


class CardSet:
    """An immutable set of cards of one deck, stored as an int bitmask.

    The engine works on raw ints; this class is the friendly face for users:
    iteration, ``len``, ``in``, set operators and canonical text.
    """

    __slots__ = ("mask", "deck")

    def __init__(self, cards: Iterable[Card] | int = 0, deck: Deck = ANGLO_52) -> None:
        self.mask = cards if isinstance(cards, int) else deck.mask_of(cards)
        self.deck = deck

    @classmethod
    def parse(cls, text: str, deck: Deck = ANGLO_52) -> CardSet:
        return cls(deck.cards_from_text(text), deck)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.deck.sorted(self.deck.cards_of(self.mask)))

    def __len__(self) -> int:
        return popcount(self.mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask, self.deck)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask, self.deck)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask, self.deck)

    def __str__(self) -> str:
        return self.deck.format(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


def popcount(mask: int) -> int:
    """Number of cards in a bitmask."""
    return mask.bit_count()


def single_bits(mask: int) -> list[int]:
    """The one-card masks of a card set, lowest first: ``0b1010 -> [0b10, 0b1000]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def suit_of(bit: int) -> int:
    """The suit index of one card bit (of a mask: of its highest card)."""
    return (bit.bit_length() - 1) >> 4  # SUIT_STRIDE bits a suit


def iter_bits(mask: int) -> Iterator[int]:
    """Bit indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def iter_bits_desc(mask: int) -> Iterator[int]:
    """Bit indices of a mask, highest first."""
    while mask:
        i = mask.bit_length() - 1
        yield i
        mask ^= 1 << i
