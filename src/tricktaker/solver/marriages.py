"""The Marjapussi family and Huutopussi: exact points from here, every call searched.

Calls (``declare``, ``ask whole``, ``ask half``, and the partner's true
``answer``) are moves of the search like cards, with their effects on trumps
and on the lead rule.  Stock draws (two-handed Bondtolva) and face-down cards
turning up (Avomarjapussi) are known in a sampled world, so they are exact.

**Marjapussi, Bondtolva, Avomarjapussi** — the value is the mover's side's
**hand points from here**, as the hand's score adds them up
(``hand_points``): marriages (the first, which makes trumps, 2; each later
little one 1), the last trick 1, and the pip point: 1, plus the points carried
by earlier ties under ``pip_tie_carries``, if its pips at the end of the hand
are more than the other side's (the pips of the tricks taken before the
position count; pips use the game's counting tables, the later ones breaking
ties; equal pips give nobody the point).  Not counted: the match effects
(reaching the target exactly, dropping to 7, Porvoo for a side without a
trick).  Sides are the game's: partners opposite with four players, each
player alone with two.

**Huutopussi** — the value is the mover's side's **collected points from
here**: card points of the tricks it takes (``card_values``), its marriages'
values (each makes its suit trumps) and 20 for the last trick.  The
declarer's discard (three players) was decided before play and is not
counted.  Not counted either: the contract's ± result (the declarers make it
exactly when the points they collected before plus the value reach it, so
the value decides it), the no-trick penalty and the match score.  Sides: with
four players the partnerships; with three, the declarer alone against the
two defenders as one side (they play to hold him under his contract; the
value for a defender is both defenders' points); with two, each player alone.
Two players: a player who takes every trick (a läpäri) collects all the
deck's card points, the last trick and his marriages, so taking every trick
is worth ``R_SWEEP`` more to him: the card points that never come into play
(the dead hand's; the defender's also the discard's, the declarer's own
discard being his already; without a contract the kitty's).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np

from ..cards import PIQUET_36, SHORT_24, Card, Suit
from ..engine import JSON, Action, State
from ..games.huutopussi import HuutopussiState
from ..games.marjapussi import MarjapussiState
from ..games.marriages import ANSWER_PHASE, PAIRS, PLAY_PHASE, STRENGTH, MarriageState
from . import OBJECTIVES, SOLVERS, Solution, SolveError, Tables
from . import _points as K
from .points import Layout, PointPosition, solution

__all__ = ["FAMILY_UNITS", "HUUTOPUSSI_UNITS", "objective", "position", "side_of", "solve_marriages"]

FAMILY_UNITS = "hand points (marriages, last trick, pip point)"
HUUTOPUSSI_UNITS = "points (cards, marriages, last trick)"
LAYOUT = Layout(PIQUET_36, STRENGTH)
"""Card conversions (the 24-card deck's cards are among the 36)."""
DECK_LAYOUTS = {deck.name: Layout(deck, STRENGTH) for deck in (PIQUET_36, SHORT_24)}
CARD_PIPS = {14: 11, 10: 10, 13: 4, 12: 3, 11: 2}
"""Card pips, used only to order moves in the family (where cards score through the pip point)."""
ORDER = {"free": 0, "ordered": 1, "whole_first": 2, "main_form": 3, "illisoft_2002": 4}
"""The kernel's call orders; with the per-seat lockouts (3, 4) ``F_WHOLE`` holds a bit per seat
of the side (``1 << (seat >> 1)``) that has asked for a whole."""
SUIT_BY_LETTER = {s.letter: s.index for s in PIQUET_36.suits}


def solve_marriages(state: State, sets: Sequence[Tables], deadline: float | None = None,
                    max_nodes: int = 0, found: dict[Action, int] | None = None) -> Solution:
    """The value of a Marjapussi-family or Huutopussi state in the play phase for the side to
    move, searched in ``sets`` (a thread each)."""
    units = HUUTOPUSSI_UNITS if isinstance(state, HuutopussiState) else FAMILY_UNITS
    return solution(state, position(state), units, sets, deadline, max_nodes, found)


def side_of(state: State, seat: int) -> int:
    """The side a seat plays for in the solver: the game's, except three-player Huutopussi
    with a contract (0 the declarer, 1 the defenders)."""
    if isinstance(state, HuutopussiState) and state.num_players == 3 and state.declarer is not None:
        return 0 if seat == state.declarer else 1
    return state.game.side_of(seat)


def _kernel_side(state: State, seat: int, mover: int) -> int:
    """The kernel's side of a seat (it counts two): :func:`side_of`, except three-player
    Huutopussi without a contract, where each plays alone: 0 for the mover and 1 for both others,
    searched as minimising the mover's points (a paranoid search, as :mod:`.reference` does)."""
    if isinstance(state, HuutopussiState) and state.num_players == 3 and state.declarer is None:
        return 0 if seat == mover else 1
    return side_of(state, seat)


def position(state: State) -> PointPosition:
    """The kernel's view of a state of the family or Huutopussi."""
    if not isinstance(state, MarriageState):
        raise SolveError(f"not a state of the Marjapussi family or Huutopussi: {state!r}")
    if state.phase not in (PLAY_PHASE, ANSWER_PHASE):
        raise SolveError(f"{state.game.name}: only the play phase can be solved, not {state.phase!r}")
    mover = state.current_player
    assert mover is not None
    pos = PointPosition(DECK_LAYOUTS[state.game.deck.name])
    obs = state.observation(None)
    _rules(state, pos, mover, obs)
    _tables(state, pos)
    _row(state, pos, mover, obs)
    _codes(state, pos)
    pos.finish()
    return pos


def _rules(state: MarriageState, pos: PointPosition, mover: int, obs: JSON) -> None:
    """The rules vector from the game's resolved rules: the ace-ten duties, calls and their
    order, what a marriage scores, the last trick and pip point; the sides, the mover's
    maximising."""
    g = state.game
    rules = g.rules  # type: ignore[attr-defined]
    r = pos.rules
    n = g.num_players
    r[K.R_N] = n
    r[K.R_DIR] = 1
    r[K.R_STYLE] = K.STYLE_ACE_TEN
    r[K.R_PEXC] = int(rules.partner_exception)
    r[K.R_FREE] = int(rules.free_while_stock)
    r[K.R_PARTNERS] = int(rules.partners)
    r[K.R_ORDER] = ORDER[rules.order]
    r[K.R_LFM] = int(rules.lead_from_marriage)
    r[K.R_OWNLEAD] = int(rules.call_after_own_lead)
    r[K.R_CALLSTOCK] = 0 if rules.free_while_stock else -1
    r[K.R_ACESHOW] = int(rules.ace_shows)
    r[K.R_MAXSIDE] = _kernel_side(state, mover, mover)
    if isinstance(state, HuutopussiState) and n == 2:
        r[K.R_SWEEP] = _sweep_bonus(state, mover, obs)
    for seat in range(n):
        r[K.R_SIDE + seat] = _kernel_side(state, seat, mover)
    if isinstance(state, HuutopussiState):
        r[K.R_MARRY] = K.MARRY_EVERY_TRUMPS
        r[K.R_LAST] = state.game.last_trick
    else:
        r[K.R_MARRY] = K.MARRY_FIRST_TRUMPS
        r[K.R_LAST] = 1
        r[K.R_PIPVAL] = 1 + obs["carry"]


def _sweep_bonus(state: HuutopussiState, mover: int, obs: JSON) -> int:
    """Two players: what the mover gains more by taking every trick (the läpäri): the deck's card
    points less those of every card in play (hands, table, finished tricks), less his discard's
    if he is the declarer (it counts for him anyway).  Read from the full state of a world."""
    g = state.game
    values = g.card_values
    in_play = [c for seat in range(2) for c in state.hand(seat)]
    in_play += [g.deck.card(text) for t in obs["tricks"] for _, text in t["cards"]]
    in_play += [g.deck.card(text) for _, text in obs["trick"]]
    bonus = g.deck_points - sum(values[c.mask] for c in in_play)
    if mover == state.declarer:
        discard = state.observation(mover)["discard"] or []
        bonus -= sum(values[g.deck.card(text).mask] for text in discard)
    return bonus


def _tables(state: MarriageState, pos: PointPosition) -> None:
    """Card points (Huutopussi) or pips (the family), marriage cards and values (once per
    game), and the face-down cards beneath face-up ones."""
    known = _TABLES.get(state.game)
    if known is None:
        _game_tables(state, pos)
        _TABLES[state.game] = (pos.cards.copy(), pos.suits.copy())
    else:
        pos.cards[:] = known[0]
        pos.suits[:] = known[1]
    for seat, row in enumerate(state.rows):
        for up, down in row:
            if up is not None and down is not None:
                pos.cards[K.C_UNDER, LAYOUT.index(up)] = 1 << LAYOUT.index(down)
                pos.rules[K.R_DOWN + seat] |= 1 << LAYOUT.index(down)
    pos.set_totals()


_TABLES: weakref.WeakKeyDictionary[object, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()
"""Per game: its card and suit tables before the rows' face-down cards."""


def _game_tables(state: MarriageState, pos: PointPosition) -> None:
    g = state.game
    deck = g.deck
    for c in deck.cards:
        i = LAYOUT.index(c)
        if isinstance(state, HuutopussiState):
            pos.cards[K.C_PTS, i] = pos.cards[K.C_WEIGHT, i] = state.game.card_values[c.mask]
        else:
            pos.cards[K.C_PIPS, i] = _pips(g.pip_tables, c)  # type: ignore[attr-defined]
            pos.cards[K.C_WEIGHT, i] = CARD_PIPS.get(c.rank.value, 0)
    for s in range(4):
        pos.suits[K.SD_PAIR, s] = LAYOUT.mask(deck.cards_of(PAIRS[s]))
        if isinstance(state, HuutopussiState):
            pos.suits[K.SD_MVAL, s] = state.game.marriage_values[s]


def _pips(tables: tuple[dict[int, int], ...], card: Card) -> int:
    """A card's pips with the tie-breaking tables folded in: the first table counts most."""
    value = 0
    for table in tables:
        value = value * 256 + table[card.mask]
    return value


def _row(state: MarriageState, pos: PointPosition, mover: int, obs: JSON) -> None:
    """Hands and face-up cards, stock, the trick, trumps, marriages, calls and whose turn it is."""
    g = state.game
    n = g.num_players
    row = pos.row
    for seat in range(n):
        ups = [up for up, _ in state.rows[seat] if up is not None]
        row[K.F_HANDS + seat] = LAYOUT.mask([*state.hand(seat), *ups])
    pos.set_stock([1 << LAYOUT.index(c) for c in state.stock])
    row[K.F_TRUMP] = -1 if state.trump is None else SUIT_BY_LETTER[state.trump]
    tricks = obs["tricks"]
    pos.set_gone(LAYOUT.cards_mask(text for t in tricks for _, text in t["cards"]))
    trick = [(seat, LAYOUT.index(LAYOUT.card(text))) for seat, text in obs["trick"]]
    pos.set_table(trick)
    maxside = pos.rules[K.R_MAXSIDE]
    if pos.rules[K.R_PIPVAL]:
        pips = 0
        for t in tricks:
            taken = sum(int(pos.cards[K.C_PIPS, LAYOUT.index(LAYOUT.card(text))]) for _, text in t["cards"])
            pips += taken if side_of(state, t["winner"]) == maxside else -taken
        row[K.F_PIPDIFF] = pips
    for _, letter, _ in obs["marriages"]:
        row[K.F_DECL] |= 1 << SUIT_BY_LETTER[letter]
    if pos.rules[K.R_SWEEP]:
        for t in tricks:
            row[K.F_WON] |= 1 if side_of(state, t["winner"]) == maxside else 2
    _calls(state, pos, obs)
    row[K.F_TURN] = mover
    row[K.F_LEADER] = trick[0][0] if trick else row[K.F_ASKER] if state.phase == ANSWER_PHASE else mover
    if not trick:
        _lead_rule(state, pos)


def _calls(state: MarriageState, pos: PointPosition, obs: JSON) -> None:
    """Asks made per side (the order rules), and a pending ask or the right to call now."""
    row = pos.row
    per_seat = ORDER[state.game.rules.order] >= 3  # type: ignore[attr-defined]
    for seat, text in obs["calls"]:
        side = side_of(state, seat)
        if text == "ask whole":
            row[K.F_ASKED + side] = max(row[K.F_ASKED + side], 1)
            row[K.F_WHOLE + side] |= 1 << (seat >> 1) if per_seat else 1
        elif text.startswith("ask half"):
            row[K.F_ASKED + side] = 2
    if state.phase == ANSWER_PHASE:
        asker, text = obs["calls"][-1]
        row[K.F_PHASE] = K.PH_ANSWER
        row[K.F_ASKER] = asker
        if text == "ask whole":
            row[K.F_ASKKIND] = -1
        else:
            suit = SUIT_BY_LETTER[text.split()[-1]]
            row[K.F_ASKKIND] = suit
            row[K.F_WANTED] = pos.suits[K.SD_PAIR, suit] & ~row[K.F_HANDS + asker]
        return
    row[K.F_CANCALL] = int(any(a.kind in ("declare", "ask") for a in state.legal_actions()))


def _lead_rule(state: MarriageState, pos: PointPosition) -> None:
    """What the leader must lead (the kernel keeps two tiers): the first-lead rule (an ace,
    else a spade; a given card), or the marriage just made."""
    deck = state.game.deck
    for field, tier in zip((K.F_LT1, K.F_LT2), state.lead_tiers, strict=False):
        pos.row[field] = LAYOUT.mask(deck.cards_of(tier & deck.mask))


def _codes(state: MarriageState, pos: PointPosition) -> None:
    """The kernel move of each legal action."""
    for action in state.legal_actions():
        kind = action.kind
        last = action.args[-1] if action.args else None
        suit = last.index if isinstance(last, Suit) else -1
        if kind == "play":
            assert action.card is not None
            code = LAYOUT.index(action.card)
        elif kind == "declare":
            code = K.MV_DECLARE + suit
        elif kind == "ask":
            code = K.MV_ASK_WHOLE if suit < 0 else K.MV_ASK_HALF + suit
        else:
            code = K.MV_ANSWER_NO if suit < 0 else K.MV_ANSWER + suit
        pos.codes[action] = code


def objective(state: State, side: int, finished: bool) -> int:
    """What ``side`` (as :func:`side_of` counts sides) has scored in the hand so far, read from
    the State API: the solver's units (for :mod:`.reference`)."""
    if isinstance(state, MarjapussiState):
        if not finished:
            return state.side_points()[side]
        points: int = state.observation(None)["previous_hand"]["points"][side]
        return points
    assert isinstance(state, HuutopussiState)
    g = state.game
    if finished:
        result = state.observation(None)["previous_hand"]
        declarer = result["declarer"]
        collected = list(result["collected"])
        counted = result["tricks_won"][g.side_of(declarer)] or not g.options["discard_needs_trick"] \
            if declarer is not None else False
        if result["discard"] and counted:  # three or two players, the declarer's (not the play's)
            discard = g.deck.cards_from_text(result["discard"])
            collected[g.side_of(declarer)] -= sum(g.card_values[c.mask] for c in discard)
    else:
        declarer = state.declarer
        collected = state.side_points()
    if g.num_players == 3 and declarer is not None:
        return sum(int(v) for seat, v in enumerate(collected) if (0 if seat == declarer else 1) == side)
    return int(collected[side])


for _name in ("marjapussi", "bondtolva", "avomarjapussi", "huutopussi"):
    SOLVERS[_name] = solve_marriages
    OBJECTIVES[_name] = (objective, side_of)
