"""The game-independent machinery: actions, errors, options, games and states.

A :class:`Game` is a rule set (a game name plus resolved options).  It makes
:class:`State` objects: ``new_match`` for a whole match whose deals follow one
another from a seed, ``new_hand`` for one hand.  Every state keeps a *hand
log*: for each hand its starting context, its deal and the actions applied.
That one log serves three purposes, so they can never disagree:

- ``undo`` restores the current hand's start and replays all but the last action;
- ``to_json`` writes the log as a record, and ``load`` replays a record;
- ``sample_world`` replays the current hand's actions on a sampled deal.

Game modules subclass :class:`State` and fill in the rules: how a hand starts
(``_start_hand``), how one action changes the state (``_do``, which validates
before it mutates), legal actions, observations and scoring.
"""

from __future__ import annotations

import hashlib
import operator
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from .cards import SUIT_MASKS, Card, CardParseError, Deck, Suit, popcount, suit_of
from .sampling import fill_slots

__all__ = [
    "PHASE_OVER",
    "Trick",
    "TrickState",
    "TrumpTrickState",
    "Action",
    "CardActions",
    "Game",
    "HandLog",
    "IllegalActionError",
    "Option",
    "OptionError",
    "SeatError",
    "State",
    "deal_from_seed",
    "ranking",
]

JSON = dict[str, Any]


class IllegalActionError(ValueError):
    """An action that is malformed or not legal now; the message says why.

    Raised before anything changes: the state is exactly as it was.

    ``code`` names the kind of refusal for a front end to say in its own language
    (``"follow"``, ``"trump"``, ``"beat"``, ``"overtrump"``, ``"turn"``, ``"first_ace"``,
    ``"first_ace_else"``, ``"ace_shows"``, ``"first_card"``, ``"marriage_lead"``, ``"not_now"``,
    ``"bid_card"``), with ``params``
    filling its text (English suit names as ``suit``/``lead``, a card as ``card``); ``None`` for
    a refusal told only in English.  The message is the English text either way.
    """

    def __init__(self, *args: object, code: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params: dict[str, str | int] = dict(params or {})

    def addressed_to(self, seat: int) -> str:
        """The message as said to the person at ``seat``: ``seat 0 holds spades`` becomes
        ``you hold spades``.  Messages name seats in the third person (a record's error is
        read by anyone); a front end talking to that seat uses this."""
        return address(str(self), seat)


_SECOND_PERSON = {"holds": "hold", "does": "do", "is": "are", "has": "have", "was": "were",
                  "wins": "win", "takes": "take", "plays": "play", "lacks": "lack", "needs": "need"}


def address(message: str, seat: int) -> str:
    """``message`` with ``seat N`` (N = ``seat``) put in the second person, its verb agreeing."""
    def second(match: re.Match[str]) -> str:
        if match.group(1):
            return "your"
        verb = match.group(2)
        if verb is None:
            return "you"
        return f"you {_SECOND_PERSON.get(verb, verb)}"

    return re.sub(rf"\bseat {seat}\b(?:('s)|\s+(\w+))?", second, message)


class OptionError(ValueError):
    """An unknown game, preset or option, or an option value out of range."""


class SeatError(ValueError):
    """A seat that is not a seat of this game (``observation(4)``, ``observation("0")``)."""


def whole_number(value: Any, what: str, minimum: int | None = None, maximum: int | None = None,
                 error: type[ValueError] = OptionError) -> int:
    """``value`` as a plain int, or ``error`` naming ``what`` and the allowed range.

    Integer-like numbers (``numpy.int64``) are accepted and converted, so that what
    is kept (and written to records) is always a JSON number; bools, floats and
    text are refused even when they compare equal to an int.
    """
    if type(value) is not int and (isinstance(value, (bool, float, str, bytes))
                                   or not hasattr(value, "__index__")):
        shown = repr(value) if len(repr(value)) < 40 else f"{repr(value)[:30]}..."
        raise error(f"{what} must be a whole number, not {shown}")
    number: int = operator.index(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        low = "" if minimum is None else f"{minimum}"
        high = "" if maximum is None else f"{maximum}"
        bound = f"{low}..{high}" if low and high else (f">= {low}" if low else f"<= {high}")
        # str() of a 5,000-digit int is itself an error: say how big instead
        shown = str(number) if abs(number) < 10**12 else f"a number of {number.bit_length()} bits"
        raise error(f"{what} must be a whole number {bound}, not {shown}")
    return number


MAX_SEED = 2**64 - 1
"""Seeds are whole numbers 0..2**64-1: any such number deals a match, and records keep it exactly."""


def check_seed(seed: Any) -> int:
    """A match seed as a plain int, or :class:`OptionError` saying what a seed is."""
    return whole_number(seed, "seed", 0, MAX_SEED)


def json_copy(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, scalars) that shares no list or dict with it.

    Observations hand out copies of what the state keeps (the previous hand's
    result), so that a caller editing one cannot change the game.
    """
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    return value


ActionArg = Card | Suit | int | str


class Action:
    """One action, with canonical text.

    Actions are interned: ``Action.make("play", card)`` always returns the same
    object, so equality is identity and ``state.apply(str(a))`` finds exactly
    ``a``.  ``card`` is the first card argument (or None) and ``mask`` its bit,
    which is what the engines' hot paths read.
    """

    __slots__ = ("kind", "args", "text", "card", "mask", "loose")

    interned: ClassVar[dict[tuple[str, tuple[ActionArg, ...]], Action]] = {}
    """Every action made so far, by ``(kind, args)``: a hot loop may look one up directly."""

    kind: str
    args: tuple[ActionArg, ...]
    text: str
    card: Card | None
    mask: int
    loose: bool
    """True when the kind is not one lower-case word (``Action("bid TS")``): a state
    reads such an action from its text rather than trusting its parts."""

    def __new__(cls, kind: str, *args: ActionArg) -> Action:
        return cls.make(kind, *args)

    @classmethod
    def make(cls, kind: str, *args: ActionArg) -> Action:
        key = (kind, args)
        action = cls.interned.get(key)
        if action is not None and type(kind) is str and all(type(a) in _ARG_TYPES for a in args):
            return action
        # The table's keys compare 55.0, True and numpy.int64(55) equal to ints, so an odd
        # argument kept here would stand for the real action for the rest of the process.
        args = _checked_args(kind, args)
        key = (kind, args)
        action = cls.interned.get(key)
        if action is None:
            action = object.__new__(cls)
            action.kind = kind
            action.args = args
            action.text = " ".join([kind, *(a.text if isinstance(a, Card) else str(a) for a in args)])
            cards = [a for a in args if isinstance(a, Card)]
            action.card = cards[0] if cards else None
            action.mask = sum(c.mask for c in cards)
            action.loose = not (kind.isascii() and kind.isalpha() and kind.islower())
            cls.interned[key] = action
        return action

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self) -> tuple[Callable[..., Action], tuple[ActionArg, ...]]:
        return (_make_action, (self.kind, *self.args))


_ARG_TYPES = frozenset({int, str, Card, Suit})


def _checked_args(kind: Any, args: tuple[Any, ...]) -> tuple[ActionArg, ...]:
    """The arguments as the exact types actions hold: a card, a suit, a word, a plain int.

    Integer-like numbers (``numpy.int64``) become ``int``; anything else (a float, a
    bool, a list) raises :class:`IllegalActionError` naming it.
    """
    if not isinstance(kind, str) or not kind.strip():
        raise IllegalActionError(f"an action's kind is a word, not {kind!r}")
    out: list[ActionArg] = []
    for arg in args:
        if type(arg) is int or isinstance(arg, (Card, Suit)) or type(arg) is str:
            out.append(arg)
        elif not isinstance(arg, (bool, float, str)) and hasattr(arg, "__index__"):
            out.append(operator.index(arg))
        else:
            raise IllegalActionError(
                f"an action's arguments are cards, suits, words or whole numbers, not {arg!r}")
    return tuple(out)


def _make_action(kind: str, *args: ActionArg) -> Action:
    return Action.make(kind, *args)


class CardActions:
    """The actions of one kind (``play``, ``bid``...) for every card, and lists of them by mask.

    Legal-action lists are built per suit from a 16-bit sub-mask and cached, so
    turning a legal-card mask into a list costs a dict lookup per suit.  Lists
    follow the deck's suit order, and within a suit ``rank_order`` (rank values,
    strongest first; by default the deck's natural order, high first).
    """

    def __init__(self, kind: str, deck: Deck, rank_order: Sequence[int] | None = None) -> None:
        self.by_mask = {c.mask: Action.make(kind, c) for c in deck.cards}
        self._shifts = tuple((s.index, 16 * s.index) for s in deck.suits)
        self._ranks = tuple(rank_order) if rank_order is not None else deck.rank_values
        self._by_suit: list[dict[int, tuple[Action, ...]]] = [{} for _ in range(4)]

    def __getitem__(self, mask: int) -> Action:
        return self.by_mask[mask]

    def in_suit(self, suit: int, sub: int) -> tuple[Action, ...]:
        """The actions for the cards ``sub`` (bits within the suit), strongest first."""
        cached = self._by_suit[suit].get(sub)
        if cached is None:
            base = 16 * suit
            cached = tuple(self.by_mask[1 << (base + r)] for r in self._ranks if sub >> r & 1)
            self._by_suit[suit][sub] = cached
        return cached

    def of(self, mask: int) -> list[Action]:
        """The actions for a card mask, in display order."""
        out: list[Action] = []
        by_suit = self._by_suit
        for suit, shift in self._shifts:
            sub = (mask >> shift) & 0xFFFF
            if sub:
                cached = by_suit[suit].get(sub)
                out += cached if cached is not None else self.in_suit(suit, sub)
        return out


MAX_NUMBER_DIGITS = 9
"""The longest number action text may hold: every bid of every game is far shorter."""


def parse_action(text: str, deck: Deck, kinds: Sequence[str], words: Sequence[str]) -> Action:
    """Read action text: a kind, then arguments (words, numbers, cards, suits).

    ``kinds`` are the action words the game knows and ``words`` the other
    plain words it uses (``rami``, ``whole``...).  Raises
    :class:`IllegalActionError` naming the token that is not understood.
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be an Action or its text, not {type(text).__name__}")
    if not text.isascii():
        # str.lower() and int() read look-alikes (the long s, Arabic digits) as card text
        raise IllegalActionError(f"{text.strip()!r} has characters outside ASCII: write actions "
                                 f"in plain letters and digits")
    tokens = text.strip().lower().split()
    if not tokens:
        raise IllegalActionError("empty action text")
    kind = tokens[0]
    if kind not in kinds:
        raise IllegalActionError(
            f"unknown action word {tokens[0]!r} (this game knows: {', '.join(kinds)})"
        )
    args: list[ActionArg] = []
    for tok in tokens[1:]:
        if tok in words:
            args.append(tok)
        elif tok.isdigit() and not _is_card_text(tok, deck):
            if len(tok) > MAX_NUMBER_DIGITS:
                raise IllegalActionError(f"{tok[:12]}... in an action is too long a number "
                                         f"({len(tok)} digits; at most {MAX_NUMBER_DIGITS})")
            args.append(int(tok))
        else:
            try:
                args.append(deck.card(tok))
            except CardParseError:
                try:
                    args.append(deck.suit(tok))
                except CardParseError:
                    raise IllegalActionError(
                        f"{tok!r} in {text.strip()!r} is neither a card of the {deck.name} deck "
                        f"nor a word this game knows"
                    ) from None
    return Action.make(kind, *args)


def _is_card_text(tok: str, deck: Deck) -> bool:
    try:
        deck.card(tok)
    except CardParseError:
        return False
    return True


@dataclass(frozen=True)
class Option:
    """One rule option: its keyword, default, allowed values and meaning."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    allowed: str = ""
    """How to describe the allowed values when the range alone does not say it."""

    def check(self, value: Any) -> Any:
        """Return the value if allowed, else raise :class:`OptionError` saying what is allowed."""
        kind = type(self.default)
        if kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name} takes true or false, not {value!r}")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name} takes a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum or (
                self.maximum is not None and value > self.maximum
            ):
                raise OptionError(
                    f"option {self.name} must be between {self.minimum} and {self.maximum}, not {value}"
                )
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"option {self.name} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )
        return value

    def describe(self) -> str:
        """The allowed values as text, for ``tricktaker rules``."""
        if self.allowed:
            return self.allowed
        if self.choices is not None:
            return " | ".join(map(str, self.choices))
        if isinstance(self.default, bool):
            return "true | false"
        if self.minimum is not None or self.maximum is not None:
            return f"{self.minimum}..{self.maximum}"
        return type(self.default).__name__


S = TypeVar("S", bound="State")
TS = TypeVar("TS", bound="TrickState")


class Game:
    """A rule set: one game with its options resolved.  Makes states.

    Subclasses set ``name``, ``title``, ``deck``, ``num_players``, ``OPTIONS``,
    ``PRESETS``, ``SUMMARY`` and ``state_class``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[Deck]
    num_players: int = 4
    """Seats at the table; a game whose size is an option (Tute) sets it in ``_validate``."""
    partnerships: bool = True
    """Partners sit opposite (side = seat % 2); else every seat is its own side."""
    OPTIONS: ClassVar[tuple[Option, ...]]
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    SUMMARY: ClassVar[str] = ""
    PRIVATE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    """Action kinds whose text other seats do not see when one is played (a bid card
    laid face down, cards given to a partner).  What they may learn of it later
    is in their observation; a front end that reports actions to other seats
    shows only the kind of these."""
    state_class: ClassVar[type[State]]

    def __init__(self, preset: str | None = None, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        if preset is not None and (not isinstance(preset, str) or preset not in self.PRESETS):
            raise OptionError(
                f"unknown preset {preset!r} for {self.name} "
                f"(presets: {', '.join(self.PRESETS) or 'none'})"
            )
        values = {o.name: o.default for o in self.OPTIONS}
        if preset is not None:
            values.update(self.PRESETS[preset])
        for key, value in options.items():
            if key not in known:
                raise OptionError(
                    f"unknown option {key!r} for {self.name} (options: {', '.join(known)})"
                )
            values[key] = known[key].check(value)
        self.preset = preset
        self.options: dict[str, Any] = values
        self._validate()

    def _validate(self) -> None:
        """Hook for checks across options."""

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.default_options()[k]}
        preset = f", preset={self.preset!r}" if self.preset else ""
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"new_game({self.name!r}{preset}{extra})"

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        return {o.name: o.default for o in cls.OPTIONS}

    @property
    def num_sides(self) -> int:
        return 2 if self.partnerships else self.num_players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: seats 0 and 2 are side 0, 1 and 3 side 1."""
        return seat % 2 if self.partnerships else seat

    def new_match(self, seed: int | None = None, dealer: int = 0) -> State:
        """A whole match; hand ``k``'s deal comes from ``deal_from_seed(seed, k)``."""
        seed = random.SystemRandom().getrandbits(48) if seed is None else check_seed(seed)
        dealer = self.check_seat(dealer, "dealer")
        start = self.state_class.check_start(self, self.state_class.match_start(self, dealer))
        return self.state_class(self, start, seed=seed, seeded=True, single_hand=False)

    def new_hand(
        self,
        deal: Sequence[Sequence[Card | str] | str] | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        seed: int | None = None,
    ) -> State:
        """One hand, over when the hand ends.

        ``deal`` gives each seat's cards (Card objects or text); without it the
        deal comes from ``seed``.  ``scores`` is the match score before the hand.
        """
        dealer = self.check_seat(dealer, "dealer")
        if seed is not None:
            seed = check_seed(seed)
        start = self.state_class.match_start(self, dealer)
        if scores is not None:
            start["scores"] = scores
        start = self.state_class.check_start(self, start)
        if deal is None:
            if seed is None:
                seed = random.SystemRandom().getrandbits(48)
            return self.state_class(self, start, seed=seed, seeded=True, single_hand=True)
        masks = self.parse_deal(deal, dealer)
        self.state_class.check_deal(self, start, masks)
        return self.state_class(self, start, seed=seed, seeded=False, single_hand=True, deal=masks)

    def pile_sizes(self, dealer: int) -> list[int]:
        """How a deal is laid out: the sizes of its piles, in order.

        The first ``num_players`` piles are the seats' hands; a game may add
        more (Tute's trump card, each card of a stock in drawing order).  The
        default deals the whole deck evenly.
        """
        return [len(self.deck) // self.num_players] * self.num_players

    def deal_layouts(self, dealer: int) -> list[list[int]]:
        """Every layout a deal of this dealer may have: :meth:`pile_sizes`, and for a game whose
        table shrinks during a match (Tute cabrero: a seat put out gets no cards) the layouts with
        empty piles for the seats out.  A given deal is read by the layout its empty piles match."""
        return [self.pile_sizes(dealer)]

    def parse_deal(self, deal: Sequence[Sequence[Card | str] | str], dealer: int = 0) -> list[int]:
        """Check and convert a deal given as cards or text into one bitmask per pile."""
        layouts = self.deal_layouts(dealer)
        sizes = layouts[0]
        if len(layouts) > 1 and not isinstance(deal, str):
            empty = [not (p.strip() if isinstance(p, str) else len(p)) for p in deal]
            sizes = next((lay for lay in layouts if len(lay) == len(empty)
                          and [not size for size in lay] == empty), sizes)
        if isinstance(deal, str) or len(deal) != len(sizes):
            raise OptionError(
                f"a {self.name} deal has {len(sizes)} piles of {', '.join(map(str, sizes))} cards")
        masks: list[int] = []
        seen = 0
        for pile, size in zip(deal, sizes, strict=True):
            cards = self.deck.cards_from_text(pile) if isinstance(pile, str) else [
                c if isinstance(c, Card) else self.deck.card(c) for c in pile
            ]
            mask = 0
            for c in cards:
                if self.deck.by_index.get(c.index) is not c:
                    raise OptionError(f"{c} is not a card of the {self.deck.name} deck")
                if mask & c.mask or seen & c.mask:
                    raise OptionError(f"card {c} is dealt twice")
                mask |= c.mask
            if len(cards) != size:
                raise OptionError(
                    f"a {self.name} deal has piles of {', '.join(map(str, sizes))} cards; "
                    f"pile {len(masks) + 1} has {len(cards)}")
            seen |= mask
            masks.append(mask)
        return masks

    def check_seat(self, seat: Any, what: str = "seat", error: type[ValueError] = OptionError) -> int:
        """``seat`` as a plain int if it is a seat of this game, else ``error`` naming ``what``."""
        if type(seat) is not int and (isinstance(seat, (bool, float, str, bytes))
                                      or not hasattr(seat, "__index__")):
            raise error(f"{what} must be a seat 0..{self.num_players - 1}, not {repr(seat)[:40]}")
        number: int = operator.index(seat)
        if not 0 <= number < self.num_players:
            shown = str(number) if abs(number) < 10**12 else "a huge number"
            raise error(f"{what} must be a seat 0..{self.num_players - 1}, not {shown}")
        return number


def deal_from_seed(seed: int, hand_number: int, deck: Deck, pile_sizes: Sequence[int]) -> list[int]:
    """Deal hand ``hand_number`` of a match from its seed.

    The shuffle is a Fisher-Yates shuffle of the deck (in display order) driven
    by one 512-bit number, the SHA-512 digest of ``"{seed}/{hand_number}"``:
    position ``i`` (from the last down) swaps with ``x mod (i + 1)``, then
    ``x //= i + 1``.  52! is below 2**226, so every deal is as likely as any
    other to within 2**-286.  The first pile gets the first ``pile_sizes[0]``
    cards, the next pile the next ``pile_sizes[1]``, and so on (a pile of one
    card per stock card keeps the stock's order); since only the *set* of cards
    in the first block matters, the shuffle stops when it reaches that block.
    Each hand depends only on the seed and its number, and the rule is easy to
    reproduce in any language.
    """
    x = int.from_bytes(hashlib.sha512(f"{seed}/{hand_number}".encode()).digest(), "big")
    cards = list(deck.masks)
    for i in range(len(cards) - 1, pile_sizes[0] - 1, -1):
        x, j = divmod(x, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    masks = []
    pos = 0
    for size in pile_sizes:
        masks.append(sum(cards[pos : pos + size]))  # distinct bits: the sum is the union
        pos += size
    return masks


@dataclass
class HandLog:
    """One hand of the log: where it started, its deal, its actions, its result."""

    start: JSON
    deal: list[int]
    actions: list[Action] = field(default_factory=list)
    result: JSON | None = None

    def copy(self) -> HandLog:
        return HandLog(self.start, self.deal, list(self.actions), self.result)


class State:
    """A position in a match (or a single hand).  See DESIGN.md, "The State API".

    The generic part kept here: parsing and applying actions, the hand log,
    undo, clone and records.  Game subclasses implement the rules.
    """

    game: Game
    num_players: int
    _replaying_record = False
    """True while ``load`` replays a record: a hand with no deal to follow it is then an error
    in the record, not a reason to draw a seed."""

    def __init__(
        self,
        game: Game,
        start: JSON,
        *,
        seed: int | None,
        seeded: bool,
        single_hand: bool,
        deal: list[int] | None = None,
    ) -> None:
        self.game = game
        self.num_players = game.num_players
        self.seed = seed
        self.seeded = seeded
        self.single_hand = single_hand
        self._log: list[HandLog] = []
        self._pending_deals: list[list[int]] = []
        self._begin_hand(start, deal)

    # -- hooks for games -------------------------------------------------------

    @classmethod
    def match_start(cls, game: Game, dealer: int) -> JSON:
        """The match context before the first hand (scores, dealer, ...)."""
        raise NotImplementedError

    @classmethod
    def check_scores(cls, game: Game, scores: Sequence[int]) -> list[int]:
        """The match scores as a new list, or :class:`OptionError`; games add their ranges."""
        if not isinstance(scores, (list, tuple)) or len(scores) != game.num_sides:
            raise OptionError(f"scores are {game.num_sides} whole numbers, one per side, not {scores!r}")
        return [whole_number(s, "a score") for s in scores]

    @classmethod
    def check_start(cls, game: Game, start: Any) -> JSON:
        """The match context a state starts from, checked field by field: a fresh dict.

        The one check for every way in: ``new_match``, ``new_hand`` and a record's
        ``start``.  A context passing it plays to the end and writes a record that
        loads again; anything else raises :class:`OptionError` naming the field.
        The fields are those of :meth:`match_start` (no more, no fewer): hand number
        (0 or more), dealer (a seat), scores (:meth:`check_scores`), the previous
        hand's public result (null, always at hand 0; else an object whose
        ``points`` are one whole number per side, whose ``scores`` are the start's
        scores, and whose ``final_trick`` is null or an object), and the game's own
        (:meth:`_check_start_fields`).
        """
        template = cls.match_start(game, 0)
        if not isinstance(start, dict):
            raise OptionError(f"the start context must be an object, not {type(start).__name__}")
        missing = [k for k in template if k not in start]
        extra = [k for k in start if k not in template]
        if missing or extra:
            raise OptionError(
                f"the start context has the fields {', '.join(template)}"
                + (f"; missing {', '.join(map(repr, missing))}" if missing else "")
                + (f"; unknown {', '.join(map(repr, extra))}" if extra else ""))
        checked: JSON = {
            "hand_number": whole_number(start["hand_number"], "start hand_number", 0, 10**9),
            "dealer": game.check_seat(start["dealer"], "start dealer"),
            "scores": cls.check_scores(game, start["scores"]),
        }
        previous = start["previous"]
        if previous is not None:
            if checked["hand_number"] == 0:
                raise OptionError("start previous must be null at hand 0 (no hand came before)")
            if not isinstance(previous, dict):
                raise OptionError("start previous must be null or the previous hand's result (an object)")
            points = previous.get("points")
            if not isinstance(points, list) or len(points) != game.num_sides or not all(
                    type(p) is int for p in points):
                raise OptionError(f"start previous points must be {game.num_sides} whole numbers")
            if previous.get("scores") != checked["scores"]:
                # the previous hand's result holds the match score after it: this hand's start
                raise OptionError(f"start previous scores must be the start scores {checked['scores']}, "
                                  f"not {previous.get('scores')!r}")
            final = previous.get("final_trick", False)
            if final is not None and not isinstance(final, dict):
                raise OptionError("start previous final_trick must be null or a trick (an object)")
        checked["previous"] = json_copy(previous)
        checked.update(cls._check_start_fields(game, start, checked))
        return {k: checked[k] for k in template}

    @classmethod
    def pile_sizes_at(cls, game: Game, start: JSON) -> list[int]:
        """The layout of the deal a hand starting from ``start`` gets (the dealer's, and for a
        table that shrinks, the seats still playing)."""
        return game.pile_sizes(start["dealer"])

    @classmethod
    def check_deal(cls, game: Game, start: JSON, masks: list[int]) -> None:
        """Raise :class:`OptionError` if a parsed deal's layout is not the one ``start`` deals."""
        sizes = cls.pile_sizes_at(game, start)
        got = [popcount(m) for m in masks]
        if got != sizes:
            raise OptionError(f"a {game.name} deal from this start has piles of "
                              f"{', '.join(map(str, sizes))} cards, not {', '.join(map(str, got))}")

    @classmethod
    def _check_start_fields(cls, game: Game, start: JSON, checked: JSON) -> JSON:
        """The game's own start fields, checked (``checked`` holds the common ones)."""
        return {}

    def _match_context(self) -> JSON:
        """The match context now, from which the next hand starts."""
        raise NotImplementedError

    def _start_hand(self, start: JSON, deal: list[int]) -> None:
        """Set every field from a match context and a deal."""
        raise NotImplementedError

    def _do(self, action: Action) -> None:
        """Apply an action; raise :class:`IllegalActionError` before changing anything."""
        raise NotImplementedError

    def _parse(self, text: str) -> Action:
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """The match score per side."""
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def observation(self, seat: int | None) -> JSON:
        raise NotImplementedError

    def sample_world(self, seat: int, rng: random.Random) -> State:
        raise NotImplementedError

    # -- the hand log ----------------------------------------------------------

    def _begin_hand(self, start: JSON, deal: list[int] | None = None) -> None:
        if deal is None:
            number = start["hand_number"]
            if self._pending_deals:
                deal = self._pending_deals.pop(0)
            else:
                if self.seed is None:
                    if self._replaying_record:
                        raise RuntimeError("no deal for the next hand: the state has no seed")
                    # A match loaded from deals alone has played past them: it goes on as
                    # new_match(seed=None) would, with a fresh seed that its record keeps.
                    self.seed = random.SystemRandom().getrandbits(48)
                deal = deal_from_seed(self.seed, number, self.game.deck,
                                      self.pile_sizes_at(self.game, start))
        elif len(self.game.deal_layouts(start["dealer"])) > 1:
            self.check_deal(self.game, start, deal)
        log = HandLog(start, deal)
        self._log.append(log)
        self._actions = log.actions
        self._start_hand(start, deal)

    def _end_hand(self, result: JSON) -> None:
        """Called by a game when the hand is finished; starts the next one if the match goes on."""
        self._log[-1].result = result
        if not self.is_over():
            self._begin_hand(self._match_context())

    @property
    def hand_number(self) -> int:
        """Hands finished in the match before the current one."""
        number: int = self._log[-1].start["hand_number"]
        return number

    # -- the public API ----------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply an action or its text; with ``seat``, also check that it is that seat's turn.

        Raises :class:`IllegalActionError` (a ``ValueError``) saying why it is not
        legal; the state is then unchanged.
        """
        if action.__class__ is Action and seat is None and not action.loose:
            act = action
        else:
            act = self._check_input(action, seat)
        actions = self._actions
        self._do(act)
        actions.append(act)

    def _check_input(self, action: Action | str, seat: int | None) -> Action:
        if self.is_over():
            raise IllegalActionError("the game is over")
        if seat is not None:
            seat = self.game.check_seat(seat, error=IllegalActionError)
            if seat != self.current_player:
                raise IllegalActionError(
                    f"not your turn: seat {self.current_player} is to act, not seat {seat}", code="turn")
        if isinstance(action, Action):
            # an action built from loose text (Action("bid TS")) is read like that text
            return self._parse(action.text) if action.loose else action
        if not isinstance(action, str):
            raise IllegalActionError(
                f"an action must be an Action or its text, not {type(action).__name__}")
        return self._parse(action)

    def _check_seat(self, seat: Any) -> int:
        """The seat a world or a hand is asked for, or :class:`SeatError`: ``-1`` would
        otherwise read seat 3's cards, ``"0"`` fail deep inside."""
        return self.game.check_seat(seat, error=SeatError)

    def _check_viewer(self, seat: Any) -> int | None:
        """The seat an observation is for (None for a spectator), or :class:`SeatError`."""
        return None if seat is None else self.game.check_seat(seat, error=SeatError)

    @staticmethod
    def _check_rng(rng: Any) -> random.Random:
        if not isinstance(rng, random.Random):
            raise SeatError(f"a world is sampled with a random.Random, not {type(rng).__name__}")
        return rng

    def undo(self) -> Action:
        """Take back the last action and return it; the state is exactly as before it."""
        log = self._log
        if not log[-1].actions and len(log) > 1:
            # keep the popped hand's deal for when play reaches that hand again
            # (an unseeded record's later deals exist nowhere else)
            self._pending_deals.insert(0, log.pop().deal)
            log[-1] = log[-1].copy()  # finished hands may be shared with clones
        hand = log[-1]
        self._actions = hand.actions
        if not hand.actions:
            raise IllegalActionError("nothing to undo")
        last = hand.actions.pop()
        hand.result = None
        self._replay_current()
        return last

    def _replay_current(self) -> None:
        hand = self._log[-1]
        actions = hand.actions
        hand.actions = self._actions = []
        self._start_hand(hand.start, hand.deal)
        for a in actions:
            self._do(a)
            hand.actions.append(a)

    def clone(self: S) -> S:
        """An independent copy.

        Finished hands of the log are shared, not copied: nothing changes them
        (``undo`` copies a finished hand before reopening it), so a clone costs
        the same late in a long match as early.
        """
        new = object.__new__(type(self))
        d = new.__dict__
        for key, value in self.__dict__.items():
            if type(value) is list:
                value = [v.copy() if type(v) in (list, dict) else v for v in value]
            elif type(value) is dict:
                value = dict(value)
            d[key] = value
        log = list(self._log)
        log[-1] = log[-1].copy()
        new._log = log
        new._actions = log[-1].actions  # the current hand's list, not a copy of it
        return new

    @property
    def history(self) -> list[Action]:
        """Every action of the match so far, in order."""
        return [a for hand in self._log for a in hand.actions]

    def to_json(self) -> str:
        """The record of this state: see ``docs/records.md``.  ``tt.load`` replays it."""
        from .record import dump

        return dump(self)

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.game!r} hand {self.hand_number + 1}, "
                f"to act: {self.current_player}>")


PHASE_OVER = "over"
"""The phase of every finished state."""

Trick = tuple[int, tuple[tuple[int, int], ...], int]
"""A finished trick: (leader, ((seat, card bit), ...) in playing order, winner)."""


class TrickState(State):
    """The part every trick-taking game shares: the trick on the table and the tricks played.

    Subclasses keep ``_trick`` (the ``(seat, card bit)`` pairs on the table) and
    ``_tricks`` (finished :data:`Trick` tuples); this class turns them into
    observation text and into what each seat has played, which worlds need.
    """

    _trick: list[tuple[int, int]]
    _tricks: list[Trick]
    _hands: list[int]
    _turn: int | None
    _phase: str
    _dealer: int
    _winner: int | None

    @property
    def current_player(self) -> int | None:
        return self._turn

    def is_over(self) -> bool:
        return self._phase is PHASE_OVER

    # -- what the games of a match share: the context a hand starts from, worlds --------

    _start: JSON
    _scores: list[int]
    _previous: JSON | None
    _hand_points: list[int] | None

    def _begin_context(self, start: JSON) -> None:
        """Take the match context a hand starts from: dealer, scores, the previous hand."""
        self._start = start
        self._dealer = start["dealer"]
        self._scores = list(start["scores"])
        self._previous = start["previous"]
        self._hand_points = list(start["previous"]["points"]) if start["previous"] else None
        self._winner = None

    def _header(self, seat: int | None) -> JSON:
        """The observation fields every game starts with (``seat`` already checked)."""
        return {
            "game": self.game.name,
            "players": self.num_players,
            "seat": seat,
            "hand_number": self._start["hand_number"],
            "dealer": self._dealer,
            "phase": self._phase,
            "current_player": self._turn,
            "scores": list(self._scores),
        }

    def _sample(self: TS, seat: Any, rng: Any, tries: int,
                draw: Callable[[int, random.Random], TS | None]) -> TS:
        """A world for ``seat`` (both arguments checked first): the first of up to ``tries``
        calls of ``draw(seat, rng)`` that succeeds; a draw gives None when its deal found no
        cards or its replay broke a rule."""
        seat = self._check_seat(seat)
        rng = self._check_rng(rng)
        for _ in range(tries):
            world = draw(seat, rng)
            if world is not None:
                return world
        raise RuntimeError("could not sample a world consistent with the observation")

    def _replay_world(self: TS, deal: list[int], rng: random.Random,
                      actions: Sequence[Action] | None = None) -> TS | None:
        """The current hand replayed on another deal (and, if given, other actions); None if
        an action is illegal there.  A sampled world is only ever built this way."""
        log = self._log[-1]
        world = type(self)(self.game, log.start, seed=rng.getrandbits(48), seeded=False,
                           single_hand=self.single_hand, deal=deal)
        try:
            for a in log.actions if actions is None else actions:
                world.apply(a)
        except IllegalActionError:
            return None
        return world

    def _deal_hidden(self, seat: int, fixed: list[int], forbidden: Sequence[int],
                     rng: random.Random, spare: int = 0) -> list[int] | None:
        """Hands for every seat: ``fixed`` cards (what ``seat`` knows of each hand, played cards
        included), the rest of the deck dealt to the other seats as many as they hold, none of
        their ``forbidden`` cards.  ``spare`` more unseen cards that nobody holds (Tute cabrero
        for six: the cards left over) go to one more pile, appended last.  None if this draw
        found no deal."""
        known = 0
        for mask in fixed:
            known |= mask
        pool = self.game.deck.mask & ~known
        played = self._played_by()
        others = [s for s in range(self.num_players) if s != seat]
        sizes = [popcount((self._hands[s] | played[s]) & ~fixed[s]) for s in others]
        allowed = [pool & ~forbidden[s] for s in others]
        filled = fill_slots(pool, sizes + [spare] if spare else sizes,
                            allowed + [pool] if spare else allowed, rng)
        if filled is None:
            return None
        hands = list(fixed)
        for s, got in zip(others, filled, strict=False):
            hands[s] |= got
        if spare:
            hands.append(filled[-1])
        return hands

    @property
    def scores(self) -> tuple[int, ...]:
        """The match score per side (per seat without partners); the game's state class says
        what a point of it is."""
        return tuple(self._scores)

    @property
    def hand_points(self) -> tuple[int, ...] | None:
        """What each side scored in the last finished hand (None before one has finished); the
        game's state class says what counts."""
        return None if self._hand_points is None else tuple(self._hand_points)

    @property
    def winner(self) -> int | None:
        """The winning side (or seat, without partners) once decided, else None."""
        return self._winner

    @property
    def phase(self) -> str:
        """What the hand is at: the game's phase names, ``over`` when finished."""
        return self._phase

    @property
    def dealer(self) -> int:
        return self._dealer

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds now (full information: use ``observation`` for a player's view)."""
        return self.game.deck.cards_of(self._hands[self._check_seat(seat)])

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Every seat's cards as bitmasks (full information): what ``hand`` lists, for
        callers that work on masks (the environments' encoders)."""
        return tuple(self._hands)

    @property
    def last_trick_winner(self) -> int | None:
        """Who won the hand's last finished trick, or None before the first."""
        return self._tricks[-1][2] if self._tricks else None

    def _card(self, mask: int) -> Card:
        return self.game.deck.card_at(mask)

    def _trick_json(self, trick: Trick) -> JSON:
        leader, cards, winner = trick
        text = self.game.deck.text_at
        return {"leader": leader, "cards": [[s, text[b]] for s, b in cards], "winner": winner}

    def _close_hand(self, result: JSON, over: bool) -> None:
        """End the hand with its ``result``: the match ends when ``over`` (a single hand ends
        anyway), else the next hand is dealt.  The result's public summary, taken after
        ``match_over`` is set, is what the next hand's observations show of this one."""
        self._turn = None
        if over or self.single_hand:
            self._phase = PHASE_OVER
            result["match_over"] = over
        self._previous = self._summary(result)
        self._end_hand(result)

    def _summary(self, result: JSON) -> JSON:
        """A finished hand's public summary for the next hand's observations: its result
        and its final trick (the one nobody saw on the table before the next deal)."""
        final = self._trick_json(self._tricks[-1]) if self._tricks else None
        return dict(result, final_trick=final)

    def _table_json(self) -> list[list[Any]]:
        """The trick on the table as ``[[seat, card text], ...]``."""
        text = self.game.deck.text_at
        return [[s, text[b]] for s, b in self._trick]

    def _played_by(self) -> list[int]:
        """The cards each seat has played in this hand, the table included."""
        played = [0] * self.num_players
        for _, cards, _ in self._tricks:
            for s, b in cards:
                played[s] |= b
        for s, b in self._trick:
            played[s] |= b
        return played


def ranking(deck: Deck, order: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """A game's ranking of its cards, from ``order`` (its rank values, strongest first): each
    card's strength within its suit (0 the weakest), and the cards of its suit that beat it
    (the duty tiers' "beat the high card")."""
    strength = {c.mask: len(order) - 1 - order.index(c.rank.value) for c in deck.cards}
    beats = {c.mask: sum(d.mask for d in deck.cards
                         if d.suit is c.suit and strength[d.mask] > strength[c.mask])
             for c in deck.cards}
    return strength, beats


class TrumpTrickState(TrickState):
    """A trick game whose duties are tiers of card masks (Tute, the Marjapussi family).

    Keeps the trick's best card of the suit led and best trump as cards are
    played, and checks a card against the duty tiers: the first tier the
    player's cards meet is what he must play from, and the tiers before it,
    being empty in his hand, are what the play revealed (for worlds).
    Subclasses set ``STRENGTH`` (card bit to strength within its suit) and
    implement ``_why_not_play``.
    """

    STRENGTH: ClassVar[dict[int, int]]
    _lead_mask: int
    _best_led: int
    _best_trump: int
    _trump_mask: int
    _forbidden: list[int]
    _history_forbidden: list[tuple[int, int, int]]

    def _trick_winner(self) -> int:
        """The seat winning the trick on the table so far: best trump, else best of the suit led."""
        top = self._best_trump or self._best_led
        return next(seat for seat, bit in self._trick if bit == top)

    def _note_card(self, bit: int) -> None:
        """Keep the trick's best card of the suit led and best trump up to date (before adding it)."""
        strength = self.STRENGTH
        if not self._trick:
            self._lead_mask = SUIT_MASKS[(bit.bit_length() - 1) >> 4]
            self._best_led = bit
            self._best_trump = bit if bit & self._trump_mask else 0
            return
        if bit & self._lead_mask and strength[bit] > strength[self._best_led]:
            self._best_led = bit
        if bit & self._trump_mask and (not self._best_trump or strength[bit] > strength[self._best_trump]):
            self._best_trump = bit

    def _check_duties(self, seat: int, cards: int, bit: int, tiers: Sequence[int]) -> None:
        """Raise if playing ``bit`` from ``cards`` breaks a duty; else note what the play revealed."""
        forbidden = 0
        for tier in tiers:
            if bit & tier:
                break
            if cards & tier:
                raise self._why_not_play(seat, bit, tier)
            forbidden |= tier
        if forbidden:
            self._forbidden[seat] |= forbidden
            self._history_forbidden.append((len(self._actions), seat, forbidden))

    def _why_not_play(self, seat: int, bit: int, tier: int) -> IllegalActionError:
        """The refusal naming the duty (``tier``, the first one the cards meet) that playing
        ``bit`` breaks."""
        raise NotImplementedError

    def _trick_duty_error(self, seat: int, bit: int, tier: int, beat: str) -> IllegalActionError:
        """The refusal for playing ``bit`` against a duty inside a trick, named by ``tier``: the
        suit led (follow), the trumps (trump), the better cards of the suit led (beat: ``beat``
        is the game's words for it, with ``{seat}`` and ``{suit}``) or the better trumps
        (overtrump).  Each of these tiers lies within one suit."""
        names = {s.index: s.name for s in self.game.deck.suits}
        lead = self._lead_mask
        suit = names[suit_of(tier)]
        params: dict[str, str | int] = {"suit": suit}
        if tier == lead:
            code, duty = "follow", f"must follow suit: seat {seat} holds {suit}"
        elif tier == self._trump_mask:
            params["lead"] = names[suit_of(lead)]
            code, duty = "trump", f"must trump: seat {seat} has no {params['lead']} but holds {suit}"
        elif tier & lead:
            code, duty = "beat", beat.format(seat=seat, suit=suit)
        else:
            code = "overtrump"
            duty = f"must overtrump: seat {seat} holds a trump above the best one on the table"
        return IllegalActionError(f"{duty}, so it cannot play {self._card(bit)}", code=code, params=params)
