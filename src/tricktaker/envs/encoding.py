"""The one encoder behind both environments: fixed action tables and per-seat tensors.

Why it is built this way
------------------------
A seat's tensor has three parts, and each part has exactly one source, so what
a seat is shown can only be what it may know:

- **Public blocks** are a function of ``state.observation(None)``, the
  spectator's view, which the State API guarantees to hold only public
  information.  They are kept in absolute seats (``Encoder.pub``) and copied
  into each seat's row rotated, so that "relative seat 1" is always the next
  player.  Reading the spectator view for every action is too slow for
  self-play, so the common actions (playing a card; Tuppi's bids, sooli
  answers, discard and give) and, in Tuppi, the start and the end of a hand
  take a *fast path* that makes the same change directly, from the action and
  the state's public facts (one numpy assignment writes a played card into
  every row); every other action, and every point where a fast path cannot
  know the public result (a trick that ends with draws from a stock, a card
  played from a face-up row, a lead under a lead rule, the end of a hand in
  the other games), reads the spectator view again.  Tests check, action by
  action in every game (and over whole Tuppi matches), that the fast path
  gives exactly what reading the spectator view gives (``strict=True``).
- **Private blocks** hold the seat's own cards (``state.hand(seat)``, which is
  ``observation(seat)["hand"]``), the cards it gave or put away and the cards
  it was given (differences of its own hand around actions that are not card
  plays), its own Tuppi bid and the cards it has picked so far for a
  Huutopussi exchange or discard.  Nothing in them depends on another seat's
  cards.
- **Volatile blocks** (phase, whose turn) come from ``state.phase`` and
  ``state.current_player`` when the tensor is read.

So the tensor of a seat is the same in every world ``state.sample_world(seat)``
can return; ``tests/test_envs_encoding.py`` checks that in every phase of every
game.  The layout of every block and every action index is in ``docs/envs.md``
and, exactly, in :func:`describe`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

import tricktaker as tt
from tricktaker.cards import Card, single_bits
from tricktaker.engine import Action, CardActions, Game, TrickState

from .families import FAMILIES, Family, HuutopussiFamily
from .layout import GLOBAL, SEAT, SIDE, Block, Layout

__all__ = ["Block", "EnvSpec", "Encoder", "Layout", "describe", "spec_for"]

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]


class FloatView(Protocol):
    """A memoryview of float32 entries: setting one entry costs a fraction of a numpy call.

    (typeshed types a memoryview's items as ``int``, hence this protocol.)
    """

    def __setitem__(self, index: int | slice, value: float | memoryview, /) -> None: ...


def float_view(array: FloatArray) -> FloatView:
    """A writable view of a flat float32 array's memory."""
    return cast(FloatView, array.data)


_ndarray = np.ndarray
_INT8 = np.dtype(np.int8)

Marks = tuple[int, ...]
"""Flat indices into the buffer of every seat's tensor (one entry per viewer)."""
JSON = dict[str, Any]


# -- the spec of one game and options -------------------------------------------------


class EnvSpec:
    """Everything fixed for one game and its options: the action table, the layout, index tables.

    Built once per game and options (:func:`spec_for`) and shared by every
    environment and state of that game.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.name = game.name
        family = FAMILIES.get(game.name)
        if family is None:
            raise ValueError(f"no environment encoding for the game {game.name!r}")
        self.family = family
        self.seats = game.num_players
        self.sides = game.num_sides
        self.cards: tuple[Card, ...] = game.deck.cards
        self.card_index: dict[int, int] = {c.mask: i for i, c in enumerate(self.cards)}
        """Card bit -> its index in the deck's display order (the tensor and action order)."""
        self.card_by_text: dict[str, int] = {c.text: i for i, c in enumerate(self.cards)}
        self.suit_index: dict[str, int] = {s.letter: i for i, s in enumerate(game.deck.suits)}
        self.direction = family.direction
        self.stock = family.stock(game)
        self.trick_scale = float(family.trick_scale(game))
        self.score_scale = family.score_scale(game)
        self.points_scale = family.points_scale(game)
        self.bid_high = family.bid_range(game)[1] if isinstance(family, HuutopussiFamily) else 0
        self._actions(game, family)
        self._layout(game, family)
        self._index_tables()
        self._mask_tables()

    # -- actions

    def _actions(self, game: Game, family: Family) -> None:
        self.action_texts: list[str] = family.action_texts(game)
        self.action_index: dict[str, int] = {t: i for i, t in enumerate(self.action_texts)}
        self.action_objects: dict[int, Action] = {}
        """Index -> the game's interned Action, filled as legal lists meet them."""
        self.index_by_action: dict[Action, int] = {}
        """The game's interned Action -> index (the reverse, looked up for every legal action)."""
        if len(self.action_index) != len(self.action_texts):
            raise AssertionError(f"duplicate action text in the {game.name} table")
        self.num_actions = len(self.action_texts)
        self.pick_base: dict[str, int] = {
            kind: self.action_index[f"pick {kind} {self.cards[0].text}"] for kind in family.pick_kinds}
        """Card picks of a set action (Huutopussi give, discard): index = base + card index."""
        self.pick_kind_of: dict[int, tuple[str, int]] = {}
        for kind, base in self.pick_base.items():
            for c in range(len(self.cards)):
                self.pick_kind_of[base + c] = (kind, c)

    # -- tensor layout

    def _layout(self, game: Game, family: Family) -> None:
        n, d = self.seats, len(self.cards)
        lay = Layout(n, self.sides)
        lay.add("dealer", SEAT, 1, "the dealer")
        lay.add("played", SEAT, d, "cards each seat has played this hand")
        lay.add("trick", SEAT, d, "cards on the table, by who played them")
        lay.add("leader", SEAT, 1, "who led the trick on the table")
        lay.add("tricks_won", family.tricks_won_per, 1, "tricks won this hand / tricks in a hand")
        if family.taken:
            lay.add("taken", SIDE, d, "cards in the tricks each side has won")
        lay.add("scores", SIDE, 1, "match score / the game's scale (clipped to -1..1)", low=-1.0)
        lay.add("previous_points", SIDE, 1, "what the previous hand of the match scored / scale "
                "(clipped)", low=-1.0)
        family.blocks(lay, game)
        lay.add("seat", GLOBAL, n, "own seat number (one-hot)", public=False)
        lay.add("hand", GLOBAL, d, "own cards", public=False)
        lay.add("sent", GLOBAL, d, "cards this seat gave away or put down by a non-play action "
                "(sooli discard and give, exchange, discard)", public=False)
        lay.add("received", GLOBAL, d, "cards that came into this hand by another's action "
                "(given card, exchange, kitty, taken upcard)", public=False)
        if family.pick_kinds:
            lay.add("picking", GLOBAL, d, "cards picked so far for the set being chosen", public=False)
        family.private_blocks(lay, game)
        lay.add("phase", GLOBAL, len(family.phases), "the phase (one-hot: "
                + ", ".join(family.phases) + ")", public=False)
        lay.add("turn", SEAT, 1, "whose turn it is", public=False)
        self.layout = lay
        self.size = lay.size
        self.public_size = lay.public_size
        self.low = np.zeros(lay.size, np.float32)
        for block in lay.blocks:
            self.low[block.offset:block.offset + block.size] = block.low
        self.high = np.ones(lay.size, np.float32)
        self.phase_index = {p: i for i, p in enumerate(family.phases)}
        self.phase_at = {p: lay["phase"].offset + i for i, p in enumerate(family.phases)}
        """Phase name -> where it is marked in a tensor."""
        self.hand_offset = lay["hand"].offset
        self.phase_offset = lay["phase"].offset
        self.turn_offset = lay["turn"].offset
        n = self.seats
        self.turn_at = [[self.turn_offset + self.rel(v, s) for s in range(n)] for v in range(n)]
        """turn_at[viewer][seat]: where the turn of ``seat`` is marked in ``viewer``'s tensor."""

    def rel(self, viewer: int, seat: int) -> int:
        """Where ``seat`` sits from ``viewer``: 0 itself, 1 the next to play after it, ..."""
        return ((seat - viewer) * self.direction) % self.seats

    def rel_side(self, viewer: int, side: int) -> int:
        if self.sides == self.seats:
            return self.rel(viewer, side)
        return (side - self.game.side_of(viewer)) % self.sides

    def rel_who(self, block: Block, viewer: int, who: int | None) -> int:
        """Where absolute seat or side ``who`` of ``block`` sits in ``viewer``'s tensor."""
        if block.kind == SEAT:
            return self.rel(viewer, who or 0)
        if block.kind == SIDE:
            return self.rel_side(viewer, who or 0)
        return 0

    def _index_tables(self) -> None:
        """The rotation of the public blocks, and flat indices for the fast path."""
        n, lay, size = self.seats, self.layout, self.size
        self._public_marks: dict[tuple[str, int | None, int], Marks] = {}
        perm = np.zeros((n, self.public_size), np.intp)
        for b in lay.blocks:
            if not b.public:
                continue
            for who in range(b.size // b.width):
                for v in range(n):
                    k = self.rel_who(b, v, who)
                    for j in range(b.width):
                        perm[v, b.offset + k * b.width + j] = b.offset + who * b.width + j
        self.perm = perm
        """perm[viewer]: for each entry of the viewer's public blocks, its place in absolute seats."""

        d = len(self.cards)
        seats, cards = range(n), range(d)
        marks, side_of = self.public_marks, self.game.side_of
        self.leader_marks = [marks("leader", a, 0) for a in seats]
        self.play_marks = [[marks("played", a, c) + marks("trick", a, c) for c in cards] for a in seats]
        """play_marks[actor][card]: what playing ``card`` sets in every row (played, table)."""
        self.lead_marks = [[self.play_marks[a][c] + self.leader_marks[a] for c in cards] for a in seats]
        self.shown_marks = [[marks("shown", a, c) for c in cards] for a in seats] if "shown" in lay else None
        """shown_marks[actor][card]: a played card is no longer known to be in the hand."""
        self.won_per_side = self.family.tricks_won_per == SIDE
        self.won_marks = [marks("tricks_won", side_of(a) if self.won_per_side else a, 0) for a in seats]
        self.taken_marks = ([[marks("taken", side_of(a), c) for c in cards] for a in seats]
                            if "taken" in lay else None)
        trick = lay["trick"]
        self.table_slice = slice(trick.offset, lay["leader"].offset + lay["leader"].size)
        """The blocks of the trick on the table, cleared when it is complete (trick, leader)."""
        if lay["leader"].offset != trick.offset + trick.size:
            raise AssertionError("the leader block must follow the trick block")
        self.hand_at = [v * size + self.hand_offset for v in seats]
        self.sent_at = [v * size + lay["sent"].offset for v in seats]
        self.received_at = [v * size + lay["received"].offset for v in seats]
        self.seat_marks = [v * size + lay["seat"].offset + v for v in seats]
        """Where each seat's own-seat one-hot is set in the flat buffer."""
        self.blank = np.zeros((n, size), np.float32)
        """Every row at the start of a hand, before anything is read: its own-seat mark."""
        self.blank.reshape(-1)[self.seat_marks] = 1.0
        self.hands_at = np.array([self.hand_at[v] + c for v in seats for c in cards], np.intp)
        """The hand blocks of every row, one after the other (the hands are written at once)."""
        bits = [card.mask for card in self.cards]
        self.play_put = [{bits[c]: self._put(a, c, lead=False) for c in cards} for a in seats]
        """play_put[actor][card bit]: (flat indices, values) of everything playing the card to
        a trick changes in every row: off the hand (and off the cards known to be in it), into
        the played cards and onto the table; one numpy assignment instead of a dozen writes.
        Keyed by the card's bit, which the action carries, so the hot path looks up nothing else."""
        self.lead_put = [{bits[c]: self._put(a, c, lead=True) for c in cards} for a in seats]
        """The same when the card leads a trick (the leader is marked too)."""
        self.fact_marks = {
            b.name: [[marks(b.name, None if b.kind == GLOBAL else who, j) for j in range(b.width)]
                     for who in range(b.size // b.width)] for b in lay.blocks if b.public}
        """fact_marks[block][who][j]: :meth:`public_marks` as nested lists (``Encoder.fact``)."""
        self.won_at = [np.array(m, np.intp) for m in self.won_marks]
        self.taken_at = ([{bits[c]: np.array(m, np.intp) for c, m in enumerate(row)}
                          for row in self.taken_marks] if self.taken_marks is not None else None)

    def _put(self, actor: int, card: int, lead: bool) -> tuple[npt.NDArray[np.intp], FloatArray]:
        zeros = [self.hand_at[actor] + card]
        if self.shown_marks is not None:
            zeros += self.shown_marks[actor][card]
        ones = (self.lead_marks if lead else self.play_marks)[actor][card]
        return (np.array(zeros + list(ones), np.intp),
                np.array([0.0] * len(zeros) + [1.0] * len(ones), np.float32))

    def _mask_tables(self) -> None:
        """What :meth:`parts_mask` and ``Encoder.start_hand`` need: a suit's cards to its bytes."""
        deck = self.game.deck
        if len(deck.suits) != 4:
            raise AssertionError("parts_mask reads four suits")
        low, high = min(deck.rank_values), max(deck.rank_values)
        self._suit_shifts = tuple(16 * s.index + low for s in deck.suits)
        """Where each suit's lowest rank sits in a card mask, suits in display order."""
        self._rank_bits = (1 << (high - low + 1)) - 1
        ranks = np.array([r - low for r in deck.rank_values])
        patterns = np.arange(self._rank_bits + 1)[:, None] >> ranks & 1
        self._rank_bytes: list[bytes] = [p.tobytes() for p in patterns.astype(np.int8)]
        """A suit's cards (its bits from the lowest rank) -> a 0/1 byte per rank, display order
        (a mask's entries for a kind of card action, a hand block's entries)."""
        self._card_base: dict[CardActions, tuple[bytes, bytes]] = {}
        """A game's actions of one kind for each card -> the mask's zeros before and after them."""
        self._mask_shape = (self.num_actions,)
        self.zero_mask: Int8Array = np.zeros(self.num_actions, np.int8)
        """No legal action (copied for a seat that is not to act)."""

    def parts_mask(self, kind: CardActions, cards: int, others: Sequence[Action]) -> Int8Array:
        """The action mask of the actions of ``kind`` for the mask ``cards`` and of ``others``
        (the legal actions in parts, as a game may give them)."""
        around = self._card_base.get(kind)
        if around is None:
            first = next(iter(kind.by_mask.values()))
            base = self.action_index[f"{first.kind} {self.cards[0].text}"]
            around = self._card_base[kind] = (bytes(base), bytes(self.num_actions - base - len(self.cards)))
        head, tail = around
        s0, s1, s2, s3 = self._suit_shifts
        m, t = self._rank_bits, self._rank_bytes
        marks = bytearray().join((head, t[cards >> s0 & m], t[cards >> s1 & m], t[cards >> s2 & m],
                                  t[cards >> s3 & m], tail))
        if others:
            index = self.action_index
            for action in others:
                marks[index[action.text]] = 1
        return _ndarray(self._mask_shape, _INT8, marks)

    def public_marks(self, block: str, who: int | None, j: int) -> Marks:
        """The flat indices of entry ``j`` of a public block for absolute seat or side ``who``
        (None for a global block) in every viewer's row."""
        key = (block, who, j)
        marks = self._public_marks.get(key)
        if marks is None:
            b = self.layout[block]
            marks = self._public_marks[key] = tuple(
                v * self.size + b.offset + self.rel_who(b, v, who) * b.width + j for v in range(self.seats))
        return marks


@lru_cache(maxsize=64)
def _spec(name: str, options: tuple[tuple[str, Any], ...]) -> EnvSpec:
    return EnvSpec(tt.new_game(name, **dict(options)))


def spec_for(game: Game) -> EnvSpec:
    """The spec of a game with its options (cached: every env of one game shares it)."""
    return _spec(game.name, tuple(sorted(game.options.items())))


# -- the encoder ------------------------------------------------------------------


class Writer:
    """Writes one decoding of the spectator view into the absolute public vector."""

    def __init__(self, enc: Encoder) -> None:
        self.enc = enc
        self.spec = enc.spec
        self.pub = enc.pub

    def block(self, name: str) -> Block:
        return self.spec.layout[name]

    def card(self, text: str) -> int:
        return self.spec.card_by_text[text]

    def suit(self, letter: str) -> int:
        return self.spec.suit_index[letter]

    @staticmethod
    def clip(value: float) -> float:
        return max(-1.0, min(1.0, value))

    def put(self, block: Block, who: int | None, j: int, value: float = 1.0) -> None:
        """Set entry ``j`` of ``block`` for seat or side ``who`` (absolute; None for a global block)."""
        self.pub[block.offset + (who or 0) * block.width + j] = value

    def add(self, block: Block, who: int | None, j: int, value: float) -> None:
        self.pub[block.offset + (who or 0) * block.width + j] += value

    def one_hot(self, name: str, seat: int | None) -> None:
        if seat is not None:
            self.put(self.block(name), seat, 0)

    def seat_cards(self, name: str, per_seat: Sequence[Sequence[str]], single: bool = False) -> None:
        """Card texts per seat (or one list for a global block)."""
        block = self.block(name)
        index = self.spec.card_by_text
        for seat, texts in enumerate(per_seat):
            base = block.offset + (0 if single else seat * block.width)
            for text in texts:
                self.pub[base + index[text]] = 1.0


class Encoder:
    """Every seat's tensor for one state, kept up to date action by action.

    ``buf[seat]`` is the seat's tensor without the volatile blocks; the
    environments copy a row and add phase and turn (:meth:`tensor`).  With
    ``strict=True`` every action re-reads the spectator view and every hand:
    the reference the fast path is tested against.
    """

    def __init__(self, spec: EnvSpec, state: TrickState, strict: bool = False) -> None:
        self.spec = spec
        self.strict = strict
        self.buf: FloatArray = np.zeros((spec.seats, spec.size), np.float32)
        self.flat: FloatArray = self.buf.reshape(-1)
        self.mv = float_view(self.flat)
        self.rows: list[FloatArray] = list(self.buf)
        """``buf[seat]`` as views made once (a row is copied at every reading)."""
        self.table: FloatArray = self.buf[:, spec.table_slice]
        """The trick and leader blocks of every row (a view: cleared at the end of a trick)."""
        self.pub: FloatArray = np.zeros(spec.public_size, np.float32)
        self.hands = [0] * spec.seats
        self.trick: list[tuple[int, int]] = []
        """The trick on the table: (seat, card bit) in playing order."""
        self.trick_size = spec.seats
        self.lead_rule = False
        self.sizes: list[int] = [0] * spec.seats
        """Hand sizes from the last reading of the spectator view (to see whose hand changed)."""
        self.won: list[int] = []
        self.start_hand(state)

    def copy(self) -> Encoder:
        new = object.__new__(Encoder)
        new.__dict__.update(self.__dict__)
        new.buf = self.buf.copy()
        new.flat = new.buf.reshape(-1)
        new.mv = float_view(new.flat)
        new.rows = list(new.buf)
        new.table = new.buf[:, self.spec.table_slice]
        new.pub = self.pub.copy()
        new.hands = list(self.hands)
        new.trick = list(self.trick)
        new.sizes = list(self.sizes)
        new.won = list(self.won)
        return new

    # -- whole-state reads

    def start_hand(self, state: TrickState) -> None:
        """A new hand: clear every block, read every hand and the spectator view (or, for the
        family's fast path, what a hand's start shows everyone)."""
        spec = self.spec
        np.copyto(self.buf, spec.blank)
        hands = self.hands
        if self.strict:
            hands[:] = [spec.game.deck.mask_of(state.hand(s)) for s in range(spec.seats)]
        else:  # the masks of the cards state.hand(seat) lists (the strict session reads those)
            hands[:] = state.hand_masks[:spec.seats]
        t, m, shifts = spec._rank_bytes, spec._rank_bits, spec._suit_shifts
        self.flat[spec.hands_at] = np.frombuffer(b"".join([t[h >> s & m] for h in hands for s in shifts]),
                                                 np.int8)
        if self.strict or not spec.family.fast_hand_start(self, state):
            self.resync(state)

    def resync(self, state: TrickState) -> None:
        """Rewrite every public block from the spectator view (the reference for the fast path)."""
        spec = self.spec
        o = state.observation(None)
        pub = self.pub
        pub.fill(0.0)
        self.lead_rule = False
        w = Writer(self)
        self._decode_common(o, w)
        spec.family.decode(o, w)
        self.buf[:, :spec.public_size] = pub[spec.perm]

    def _decode_common(self, o: JSON, w: Writer) -> None:
        """The blocks every game has: dealer, played cards, the table, tricks won, scores."""
        spec = self.spec
        index = spec.card_by_text
        d = len(spec.cards)
        played = spec.layout["played"].offset
        taken = spec.layout["taken"].offset if spec.taken_marks is not None else -1
        ones = [spec.layout["dealer"].offset + o["dealer"]]
        side_of = spec.game.side_of
        for t in o["tricks"]:
            side = taken + side_of(t["winner"]) * d
            for seat, text in t["cards"]:
                c = index[text]
                ones.append(played + seat * d + c)
                if taken >= 0:
                    ones.append(side + c)
        trick = spec.layout["trick"].offset
        self.trick = []
        for seat, text in o["trick"]:
            c = index[text]
            ones.append(played + seat * d + c)
            ones.append(trick + seat * d + c)
            self.trick.append((seat, spec.cards[c].mask))
        if o["trick"]:
            ones.append(spec.layout["leader"].offset + o["trick"][0][0])
        pub = self.pub
        pub[ones] = 1.0
        self.won = list(o["tricks_won"])
        won = spec.layout["tricks_won"].offset
        pub[won:won + len(self.won)] = [count / spec.trick_scale for count in self.won]
        self.sizes = list(o["hand_sizes"])
        scores = spec.layout["scores"].offset
        pub[scores:scores + spec.sides] = [w.clip(v / spec.score_scale) for v in o["scores"]]
        previous = o.get("previous_hand")
        if previous and previous.get("points"):
            block = w.block("previous_points")
            for side, value in enumerate(previous["points"]):
                w.put(block, side, 0, w.clip(value / spec.points_scale))

    # -- private: own hands

    def _refresh_hand(self, state: TrickState, seat: int, record: bool) -> None:
        """Read a seat's own cards; with ``record``, note the cards it lost (sent) and gained (received)."""
        spec = self.spec
        lay = spec.layout
        row = self.buf[seat]
        new = 0
        for card in state.hand(seat):
            new |= card.mask
        old = self.hands[seat]
        if new == old:
            return
        hand = lay["hand"].offset
        index = spec.card_index
        for bit in single_bits(old & ~new):
            row[hand + index[bit]] = 0.0
            if record:
                row[lay["sent"].offset + index[bit]] = 1.0
        for bit in single_bits(new & ~old):
            row[hand + index[bit]] = 1.0
            if record:
                row[lay["received"].offset + index[bit]] = 1.0
        self.hands[seat] = new

    # -- after an action

    def fact(self, block: str, who: int | None, j: int, value: float = 1.0) -> None:
        """Set entry ``j`` of a public block for absolute seat or side ``who`` in every row."""
        mv = self.mv
        for i in self.spec.fact_marks[block][who or 0][j]:
            mv[i] = value

    def move_card(self, source: int, target: int | None, bit: int) -> None:
        """``source`` gave a card away by its own action: to ``target``'s hand, or put down.

        The giver notes it as sent, the receiver as received: the private
        blocks that reading hands after the action would fill.
        """
        spec = self.spec
        c = spec.card_index[bit]
        mv = self.mv
        self.hands[source] &= ~bit
        mv[spec.hand_at[source] + c] = 0.0
        mv[spec.sent_at[source] + c] = 1.0
        if target is not None:
            self.hands[target] |= bit
            mv[spec.hand_at[target] + c] = 1.0
            mv[spec.received_at[target] + c] = 1.0

    def after(self, state: TrickState, actor: int, action: Action) -> None:
        """Bring every tensor up to date after ``actor`` applied ``action`` in this hand."""
        if action.kind == "play":
            self.after_play(state, actor, action.mask)
            return
        family = self.spec.family
        family.private_after(self, actor, action)
        if not self.strict and family.fast_nonplay(self, state, actor, action):
            return
        self._sync(state, actor, nonplay=True)

    def _sync(self, state: TrickState, actor: int, nonplay: bool) -> None:
        """Read the spectator view, then the hands that may have changed: the actor's (after a
        non-play action) and those whose size changed (gives, the kitty, draws)."""
        self.resync(state)
        sizes = self.sizes
        for s in range(self.spec.seats):
            if self.strict or (nonplay and s == actor) or sizes[s] != self.hands[s].bit_count():
                self._refresh_hand(state, s, record=nonplay)

    def after_play(self, state: TrickState, actor: int, bit: int) -> None:
        """``actor`` played the card ``bit``: the hot path of every playout, so it touches as
        little as it can (one numpy assignment per card, and a few more at the end of a trick)."""
        hands = self.hands
        trick = self.trick
        if hands[actor] & bit and not self.strict and (trick or not self.lead_rule):
            hands[actor] ^= bit
            idx, values = (self.spec.play_put if trick else self.spec.lead_put)[actor][bit]
            self.flat[idx] = values
            trick.append((actor, bit))
            if len(trick) == self.trick_size:
                self._end_trick(state, trick)
            return
        if hands[actor] & bit:
            hands[actor] ^= bit
            self.mv[self.spec.hand_at[actor] + self.spec.card_index[bit]] = 0.0
        self._sync(state, actor, nonplay=False)

    def _end_trick(self, state: TrickState, trick: list[tuple[int, int]]) -> None:
        """The trick is complete: its winner is the seat to act now (he leads or calls next)."""
        spec = self.spec
        winner = state.current_player
        if winner is None and not spec.stock:  # the hand is over
            winner = spec.family.fast_hand_end(self, state)
        if winner is None or spec.stock:
            self._sync(state, trick[-1][0], nonplay=False)
            return
        flat = self.flat
        won = self.won
        who = spec.game.side_of(winner) if spec.won_per_side else winner
        won[who] += 1
        flat[spec.won_at[winner]] = won[who] / spec.trick_scale
        if spec.taken_at is not None:
            taken = spec.taken_at[winner]
            for _, card in trick:
                flat[taken[card]] = 1.0
        self.table.fill(0.0)
        self.trick = []

    # -- reading

    def tensor(self, state: TrickState, seat: int, out: FloatArray | None = None) -> FloatArray:
        """A copy of ``seat``'s tensor with the volatile blocks (phase, turn) filled in."""
        if out is None:
            return self.row(seat, state.phase, state.current_player)
        out[:] = self.rows[seat]
        out[self._phase_at(state.phase)] = 1.0
        turn = state.current_player
        if turn is not None:
            out[self.spec.turn_at[seat][turn]] = 1.0
        return out

    def row(self, seat: int, phase: str, turn: int | None) -> FloatArray:
        """A new copy of ``seat``'s tensor, in ``phase`` with ``turn`` to act (``tensor`` reads them)."""
        out = self.rows[seat].copy()
        at = self.spec.phase_at.get(phase)
        out[self._phase_at(phase) if at is None else at] = 1.0
        if turn is not None:
            out[self.spec.turn_at[seat][turn]] = 1.0
        return out

    def _phase_at(self, phase: str) -> int:
        at = self.spec.phase_at.get(phase)
        if at is None:
            raise RuntimeError(f"phase {phase!r} is not in the {self.spec.name} encoding")
        return at

    def set_picking(self, seat: int, cards: Sequence[int]) -> None:
        block = self.spec.layout["picking"]
        row = self.buf[seat]
        row[block.offset:block.offset + block.size] = 0.0
        for c in cards:
            row[block.offset + c] = 1.0


# -- documentation ----------------------------------------------------------------


def describe(game: Game) -> str:
    """The exact layout of a game's tensor and action table, as text (``docs/envs.md`` explains it)."""
    spec = spec_for(game)
    lines = [f"{game!r}: tensor of {spec.size} floats, {spec.num_actions} actions", "",
             "tensor blocks (offset, size, kind x width, public/private):"]
    for b in spec.layout.blocks:
        where = "public" if b.public else "private"
        lines.append(f"  {b.offset:5d} {b.size:5d}  {b.name:16s} {b.kind:6s} x {b.width:<3d} {where:7s} "
                     f"{b.doc}")
    lines += ["", "actions (first index, count, text of the first):"]
    for first, count, text in action_ranges(spec):
        lines.append(f"  {first:5d} {count:5d}  {text}")
    return "\n".join(lines)


def action_ranges(spec: EnvSpec) -> list[tuple[int, int, str]]:
    """The action table as runs of one pattern (``play`` + a card, ``bid`` + a number, ...):
    (first index, count, text of the first)."""
    def pattern(text: str) -> tuple[str, str]:
        *head, last = text.split()
        kind = ("card" if last in spec.card_by_text else "suit" if last in spec.suit_index
                else "number" if last.isdigit() else last)
        return " ".join(head), kind

    runs: list[tuple[int, int, str]] = []
    for i, text in enumerate(spec.action_texts):
        if runs and pattern(spec.action_texts[runs[-1][0]]) == pattern(text):
            first, count, first_text = runs[-1]
            runs[-1] = (first, count + 1, first_text)
        else:
            runs.append((i, 1, text))
    return runs
