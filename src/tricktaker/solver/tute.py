"""Tute (pairs, three alone, habanero): exact round points from here, cantes, tute and the exchange searched.

The value is the mover's side's **round points from here to the end of the
round**, as the game counts them for the round winner (``hand_points``):

- card points of the tricks it takes (as 11, tres 10, rey 4, caballo 3, sota 2),
  the trick on the table included;
- 10 for the last trick;
- its cantes: las cuarenta 40, each veinte 20, under the game's rules (only
  the side that just won a trick, before the next lead; each suit once; a
  side that sang a veinte may not sing las cuarenta, in habanero only within
  one pause; habanero: no cantes once two cards or fewer are in the stock).
  In pairs the winner declares, then his partner, as the game asks them.
- **tute** ends the round at once and wins it whatever the points.  It is
  valued as the tute side taking every card point still out and the last
  trick (what it would score by taking every remaining trick); cantes that
  were not sung yet are lost, as in the game.  So tute is worth at least as
  much as any play of the rest, except when cantes still to sing would add more.
  With ``tute_sotas`` four sotas make tute too.
- ``must_declare`` (pairs, three players): a seat asked to declare that can, must (no pass);
  ``exchange_anytime`` (habanero): the exchange is searched before following too.

Sides are the game's: partners in pairs (seats 0 and 2 against 1 and 3), each
player alone in habanero.  With three players, each alone, the value is the
mover's points with both others playing to keep them down (a paranoid search:
the kernel counts two sides); the turned trump card, out of play, counts as gone.
In habanero every stock card is known in a sampled world, so the draws after
each trick are exact, and the exchange of the 7 or the 2 of trumps for the
upcard is searched like any move.  Not counted: the
round win itself, ties (``tie_last_trick``) and the match score.

Tute cabrero (``mode="cabrero"``) is refused with a :class:`SolveError`: a
hand there is lost by the middle score, by taking no trick or by a capote
against you, which no count of one seat's points can stand for.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..cards import SPANISH_40
from ..engine import JSON, Action, State
from ..games import tute as game
from ..games.tute import TuteState
from . import OBJECTIVES, SOLVERS, Solution, SolveError, Tables
from . import _points as K
from .points import Layout, PointPosition, solution
from .reference import fixed_side

__all__ = ["UNITS", "objective", "position", "solve_tute"]

UNITS = "round points (cards, cantes, last trick)"
LAYOUT = Layout(SPANISH_40, game.STRENGTH)
KING, KNIGHT, SEVEN, TWO = 12, 11, 7, 2


def _rank_mask(rank: int) -> int:
    return LAYOUT.mask(c for c in SPANISH_40.cards if c.rank.value == rank)


def _suit_index(letter: str) -> int:
    return next(s.index for s in SPANISH_40.suits if s.letter == letter)


def solve_tute(state: State, sets: Sequence[Tables], deadline: float | None = None,
               max_nodes: int = 0, found: dict[Action, int] | None = None) -> Solution:
    """The value of a Tute state in the play phase (``play`` or ``declare``) for the side to move,
    searched in ``sets`` (a thread each)."""
    return solution(state, position(state), UNITS, sets, deadline, max_nodes, found)


def position(state: State) -> PointPosition:
    """The kernel's view of a Tute state: rules from the options, then the position."""
    if not isinstance(state, TuteState):
        raise SolveError(f"not a Tute state: {state!r}")
    if state.game.cabrero:
        raise SolveError("tute cabrero cannot be solved: its aim is not to end a hand in a losing "
                         "place (the middle, no trick, a capote against you), and this solver only "
                         "counts one side's points")
    if state.phase not in (game.PLAY_PHASE, game.DECLARE_PHASE):
        raise SolveError(f"tute: only the play phase can be solved, not {state.phase!r}")
    mover = state.current_player
    assert mover is not None
    pos = PointPosition(LAYOUT)
    trump = _suit_index(state.trump)
    _rules(state, pos, mover, trump)
    _tables(state, pos, trump)
    _row(state, pos, mover, trump)
    _codes(state, pos, trump)
    pos.finish()
    return pos


def _rules(state: TuteState, pos: PointPosition, mover: int, trump: int) -> None:
    """The rules vector from the options: counter-clockwise play, Tute's duties, cantes and
    tute, habanero's stock and exchange; the sides, the mover's maximising."""
    g = state.game
    o = g.options
    n = g.num_players
    r = pos.rules
    r[K.R_N] = n
    r[K.R_DIR] = -1
    r[K.R_STYLE] = K.STYLE_TUTE
    r[K.R_MUSTOVER] = int(o["must_overtrump"])
    r[K.R_PEXC] = int(n == 4 and o["partner_exception"])
    r[K.R_FREE] = int(n == 2 and o["free_while_stock"])
    r[K.R_MARRY] = K.MARRY_TUTE
    r[K.R_LAST] = game.LAST_TRICK
    r[K.R_TUTE] = int(o["tute"])
    r[K.R_MAXSIDE] = _kernel_side(state, mover, mover)
    r[K.R_CALLSTOCK] = 2
    r[K.R_EXCH] = int(n == 2)
    r[K.R_KINGS] = _rank_mask(KING)
    r[K.R_KNIGHTS] = _rank_mask(KNIGHT)
    r[K.R_SOTAS] = _rank_mask(game.SOTA) if o["tute_sotas"] else 0
    r[K.R_MUSTDECL] = int(n != 2 and o["must_declare"])
    r[K.R_EXCHANY] = int(n == 2 and o["exchange_anytime"])
    for seat in range(n):
        r[K.R_SIDE + seat] = _kernel_side(state, seat, mover)
    special = r[K.R_KINGS] | r[K.R_KNIGHTS] | r[K.R_SOTAS] if o["tute"] else 0
    if n == 2:
        special |= LAYOUT.mask(c for c in SPANISH_40.cards
                               if c.suit.index == trump and c.rank.value in (SEVEN, TWO))
    r[K.R_SPECIAL] = special


def _kernel_side(state: TuteState, seat: int, mover: int) -> int:
    """The kernel's side of a seat: the game's, or with three players (each alone, and the
    kernel counts two sides) 0 for the mover and 1 for both others, who are searched as
    minimising the mover's points (a paranoid search, as :mod:`.reference` does)."""
    if state.num_players == 3:
        return 0 if seat == mover else 1
    return state.game.side_of(seat)


def _tables(state: TuteState, pos: PointPosition, trump: int) -> None:
    """Card points, Tute's exchange cards, and the rey and caballo of each suit (by trump suit,
    computed once)."""
    known = _TABLES.get(trump)
    if known is None:
        _fill_tables(pos, trump)
        _TABLES[trump] = (pos.cards.copy(), pos.suits.copy())
    else:
        pos.cards[:] = known[0]
        pos.suits[:] = known[1]
    pos.set_totals()


_TABLES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _fill_tables(pos: PointPosition, trump: int) -> None:
    for c in SPANISH_40.cards:
        i = LAYOUT.index(c)
        pos.cards[K.C_PTS, i] = pos.cards[K.C_WEIGHT, i] = game.POINTS[c.mask]
        if c.suit.index == trump:
            swap = SEVEN if c.rank.value in game.SEVEN_UP else TWO if c.rank.value in game.TWO_UP else 0
            if swap:
                pos.cards[K.C_EXCH, i] = 1 << LAYOUT.index(SPANISH_40.card(f"{swap}{c.suit.letter}"))
    for s in SPANISH_40.suits:
        pos.suits[K.SD_PAIR, s.index] = LAYOUT.cards_mask([f"{KING}{s.letter}", f"{KNIGHT}{s.letter}"])


def _row(state: TuteState, pos: PointPosition, mover: int, trump: int) -> None:
    """Hands, stock, the trick, what has been sung, and whose turn it is to do what."""
    g = state.game
    n = g.num_players
    obs = state.observation(None)
    row = pos.row
    for seat in range(n):
        row[K.F_HANDS + seat] = LAYOUT.mask(state.hand(seat))
    stock = [1 << LAYOUT.index(c) for c in state.stock]
    if stock:
        row[K.F_UP] = stock[-1]
    pos.set_stock(stock[:-1])
    row[K.F_TRUMP] = trump
    tricks = obs["tricks"]
    gone = LAYOUT.cards_mask(text for t in tricks for _, text in t["cards"])
    if n == 3:  # the turned trump card is out of play all round
        gone |= LAYOUT.cards_mask([obs["trump_card"]])
    pos.set_gone(gone)
    trick = [(seat, LAYOUT.index(LAYOUT.card(text))) for seat, text in obs["trick"]]
    pos.set_table(trick)
    row[K.F_TURN] = mover
    row[K.F_LEADER] = trick[0][0] if trick else tricks[-1]["winner"] if tricks else mover
    for seat, text in obs["declarations"]:  # "sing 40", "sing 20 C" (tute ends the round)
        words = text.split()
        if words[0] == "sing":
            row[K.F_DECL] |= 1 << (trump if words[1] == "40" else _suit_index(words[2]))
            if words[1] == "20":
                row[K.F_SANG + _kernel_side(state, seat, mover)] = 1
    if state.phase == game.DECLARE_PHASE:
        row[K.F_PHASE] = K.PH_DECLARE
        winner = tricks[-1]["winner"]
        row[K.F_PENDING] = (winner + 2) % 4 if n == 4 and mover == winner else -1
    elif n == 2 and not trick and tricks:
        row[K.F_CANCALL] = int(state.stock_size > 2)
        row[K.F_WIN20] = int(_sang_20_in_pause(state, obs))


def _sang_20_in_pause(state: TuteState, obs: JSON) -> bool:
    """Habanero: whether a veinte was sung since the last card (the order rule's pause)."""
    count = 2 * len(obs["tricks"]) + len(obs["declarations"]) + len(obs["exchanges"])  # this hand's
    for action in reversed(state.history[-count:] if count else []):
        if action.kind == "play":
            return False
        if action.kind == "sing" and action.args[0] == 20:
            return True
    return False


def _codes(state: TuteState, pos: PointPosition, trump: int) -> None:
    """The kernel move of each legal action."""
    for action in state.legal_actions():
        if action.kind == "play":
            assert action.card is not None
            code = LAYOUT.index(action.card)
        elif action is game.SING_40:
            code = K.MV_DECLARE + trump
        elif action.kind == "sing":
            code = K.MV_DECLARE + _suit_index(str(action.args[1]))
        elif action is game.TUTE:
            code = K.MV_TUTE
        elif action is game.EXCHANGE:
            code = K.MV_EXCHANGE
        else:
            code = K.MV_PASS
        pos.codes[action] = code


def objective(state: State, side: int, finished: bool) -> int:
    """Round points of ``side`` so far, read from the State API (for :mod:`.reference`).

    A round ended by tute gives the tute side every card point still out and
    the last trick, as the solver values it.
    """
    if not finished:
        assert isinstance(state, TuteState)
        return state.side_points()[side]
    result = state.observation(None)["previous_hand"]
    points: int = result["points"][side]
    tute = result["tute"]
    if tute is not None and state.game.side_of(tute) == side:
        out = game.POINTS[game.DECK.card(result["out_of_play"]).mask] if "out_of_play" in result else 0
        points += 120 - out - sum(result["cards"]) + game.LAST_TRICK
    return points


SOLVERS["tute"] = solve_tute
OBJECTIVES["tute"] = (objective, fixed_side)
