"""Club tournaments: a director registers entrants, starts rounds of tables, and the tables
themselves give the results (docs/server.md, *Club tournaments*).

A tournament is one game under one rule set (the game's ``tournament`` preset by default),
played by *entrants*: pairs for a partnership game, players otherwise.  Each round pairs the
entrants (round robin by the circle method, or Swiss by the standings without a repeat; at
tables of three or more, the grouping of :mod:`.pairing`) and seats each table at a new server
table of people; the seat links are derived from the
director's secret (:func:`seat_token`), so the server stores only their hashes, as it does for
every table, and still shows them on the director's round sheet after a restart.

A table's result is read from the table itself, when anyone looks at the tournament
(:meth:`Club.view`): a finished table's match is read once and its result stored.  The
director never types a score; they may only record that an entrant did not come (a
forfeit) or withdraw an entrant (its results stay, its open table is a forfeit).  The
standings follow the game's own rule (:func:`standing_rule`): match points by place, which at a
table of two are a win 2 and a draw 1, or Tuppi's points collected while nousussa.

Everything lives in the database (``tt_club_*``, next to the tables), so a restart loses
nothing; the manager keeps no state of its own but a lock.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine

from .. import GAMES, new_game
from ..engine import Game, OptionError
from .pairing import group, meetings, pick_byes, table_sizes
from .store import add_columns
from .tables import MAX_TURN_TIME, Table, TableError, Tables, token_hash

__all__ = ["Club", "ClubError", "Pairing", "balance_sides", "round_robin", "seat_token", "standing_rule",
           "standings", "swiss"]

T = TypeVar("T")
Pairing = tuple[int, int | None]
"""Two entrants at one table, side 0 first; ``(n, None)``: ``n`` has the bye."""

FORMATS = ("round_robin", "swiss")
MAX_ENTRANTS = 64
MAX_NAME = 60
WIN, DRAW = 2, 1
"""Match points of a win (a bye, an opponent's forfeit) and of a draw; a loss scores 0."""
PAIRING_STEPS = 200_000
"""The most partial pairings a Swiss round tries before it says none exists without a repeat."""

metadata = MetaData()

tournaments = SqlTable(
    "tt_club_tournaments", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(120), nullable=False),
    Column("game", String(32), nullable=False),
    Column("preset", String(32)),
    Column("options", Text, nullable=False),        # JSON: every option's value
    Column("format", String(16), nullable=False),   # "round_robin" or "swiss"
    Column("rounds", Integer),                      # planned rounds (null: a whole round robin)
    Column("turn_time", Float, nullable=False),
    Column("director_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
)

entrants = SqlTable(
    "tt_club_entrants", metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),    # from 1, in order of registration
    Column("name", String(120), nullable=False),
    Column("members", Text, nullable=False),        # JSON: each player's name (two for a pair)
    Column("player_ids", Text),                     # JSON: player ids (players.py), optional
    Column("withdrawn", Integer),                   # the round in which it withdrew (null: still in)
)

matches = SqlTable(
    "tt_club_matches", metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),     # the table number in the round, from 1
    Column("sides", Text, nullable=False),          # JSON: [entrant of side 0, of side 1]; a bye: [n]
    Column("table_id", String(32)),                 # the server table (null for a bye)
    Column("result", Text),                         # JSON, once the table is over (or a forfeit)
    Index("tt_club_matches_table", "table_id"),     # a table page asks which tournament it is of
)


class ClubError(ValueError):
    """A refused tournament request: ``code`` for the page's translation, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


# -- pairings ---------------------------------------------------------------------------


def round_robin(entrants: Sequence[int], round_number: int) -> list[Pairing]:
    """Round ``round_number`` (from 1) of a round robin by the circle method.

    The first entrant stays put while the others turn one place a round; position ``i``
    meets position ``n - 1 - i``.  With an odd number, a place is empty, and whoever meets
    it has the bye.  Over ``n - 1`` rounds (``n`` with the empty place) everyone meets
    everyone once.  The top row is side 0 (the fixed entrant's side alternates by round), so
    each entrant is side 0 in half its matches, give or take one.
    """
    ring: list[int | None] = list(entrants)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    if n < 2 or not 1 <= round_number <= n - 1:
        raise ClubError("bad_request", f"a round robin of {len(entrants)} has rounds 1..{max(n - 1, 0)}")
    turn = (round_number - 1) % (n - 1)
    rest = ring[1:]
    order = [ring[0], *rest[len(rest) - turn:], *rest[:len(rest) - turn]]
    tables: list[Pairing] = []
    byes: list[Pairing] = []
    for i in range(n // 2):
        a, b = order[i], order[n - 1 - i]
        if i == 0 and round_number % 2 == 0:  # the fixed place alternates; the others take
            a, b = b, a                          # turns in the top row as the circle turns
        if a is not None and b is not None:
            tables.append((a, b))
        else:
            lone = a if a is not None else b
            if lone is not None:
                byes.append((lone, None))
    return tables + byes


def swiss(order: Sequence[int], played: set[frozenset[int]], had_bye: set[int]) -> list[Pairing]:
    """A Swiss round: ``order`` is the entrants by the standings, best first.

    With an odd number, the bye goes to the lowest-placed entrant who has not had one yet
    (if everyone has, the lowest-placed).  The others are paired from the top down, each with
    the best-placed entrant still free whom they have not met (``played``); when that leaves
    someone below with no new opponent, the search goes back and tries the next one.  No
    pairing is ever repeated: if no such round exists, :class:`ClubError` ``no_pairing``.
    The better-placed entrant of a table is named first (:func:`balance_sides` then seats
    whoever has been side 0 less often there).
    """
    entrants = list(order)
    byes: list[int | None] = [None]
    if len(entrants) % 2:
        fresh = [e for e in reversed(entrants) if e not in had_bye]
        byes = [*fresh, *(e for e in reversed(entrants) if e in had_bye)]
    budget = [PAIRING_STEPS]
    for bye in byes:
        rest = [e for e in entrants if e != bye]
        paired = _pair(rest, played, budget)
        if paired is not None:
            return paired + ([(bye, None)] if bye is not None else [])
        if budget[0] <= 0:
            break
    raise ClubError("no_pairing", "no pairing of this round avoids a repeat: "
                    "every pairing left has been played")


def _pair(rest: list[int], played: set[frozenset[int]], budget: list[int]) -> list[Pairing] | None:
    if not rest:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    first, others = rest[0], rest[1:]
    for partner in others:
        if frozenset((first, partner)) in played:
            continue
        tail = _pair([e for e in others if e != partner], played, budget)
        if tail is not None:
            return [(first, partner), *tail]
    return None


def balance_sides(tables: Sequence[Sequence[int | None]],
                  side0: dict[int, int]) -> list[tuple[int | None, ...]]:
    """Each table's entrants in the order of how often they have had side 0 (``side0``: the
    counts so far), fewest first; a tie keeps the order given, a bye's empty place (``None``)
    stays last.  Side 0 holds seat 0, which deals the first hand."""
    return [(*sorted((e for e in table if e is not None), key=lambda e: side0.get(e, 0)),
             *(e for e in table if e is None)) for table in tables]


def max_rounds(count: int) -> int:
    """Rounds ``count`` entrants can play without a repeat (everyone meets everyone at most
    once; with an odd number, each round one of them has the bye)."""
    return count - 1 if count % 2 == 0 else count


def default_rounds(count: int, sides: int) -> int:
    """A round robin's rounds: two sides meet everyone once (:func:`max_rounds`); at tables of
    ``sides`` entrants, the rounds in which each entrant could meet every other once
    (``ceil((count - 1) / (sides - 1))``; the director may ask for more or fewer)."""
    return max_rounds(count) if sides == 2 else -(-(count - 1) // (sides - 1))


def smallest_table(game: Game, tournament: Tournament) -> int:
    """The fewest entrants a table of the tournament may seat: the game's sides, but for Tute
    cabrero, whose rules are the same for three to six players, the fewest its ``players``
    option allows (three)."""
    if not getattr(game, "cabrero", False):
        return game.num_sides
    for size in range(2, game.num_players):
        try:
            new_game(tournament.game, preset=tournament.preset, **{**tournament.options, "players": size})
        except OptionError:
            continue
        return size
    return game.num_players


# -- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRule:
    """How a tournament ranks its entrants: the fields of :class:`Standing` compared in order."""

    name: str
    """``tuppi``, ``match`` (two sides), ``places`` (three or more) or ``cabrero``: the page's text."""
    order: tuple[str, ...]
    doc: str
    bye: int = WIN
    """The match points of a bye: a win at a table of two; the mean of a table (1) at a larger one."""
    lower_scores: bool = False
    """The match score counts what is bad (Tute cabrero's lost hands): the difference is turned round."""


TUPPI_RULE = StandingRule("tuppi", ("collected", "match_points", "difference"),
                          "points collected while nousussa over all matches (the tournament rules); "
                          "then match points; then the score difference")
MATCH_RULE = StandingRule("match", ("match_points", "difference"),
                          "match points (win 2, draw 1); then the sum of the match score differences")
"""Every other game of two sides: a match is won by the game's own rule (Tute: rounds won;
Marjapussi, Avomarjapussi, Bondtolva: games won to the target; Huutopussi: 500 points), so a
win counts 2 and a draw 1; ties are broken by the sum over matches of own final score minus the
opponent's, in the game's own unit (rounds for Tute, games for the Marjapussi family, points
for Huutopussi)."""
PLACES_RULE = StandingRule("places", ("match_points", "difference"),
                           "match points by place: 2 for each entrant of the table placed below, 1 for "
                           "each placed equal, over the others at the table (a table of three: 2, 1, 0); "
                           "then the sum of own final score minus the others' mean", bye=DRAW)
"""Tables of three or more (Huutopussi and Tute for three): the match's winner is first and the
others follow by their final score; the match points generalise win 2, draw 1, loss 0."""
CABRERO_RULE = StandingRule("cabrero", ("match_points", "difference"),
                            "match points by place as the tute cabrero match ends (the players still in "
                            "share the first place, then those put out, the later the better), as for "
                            "tables of three or more; then the others' mean of lost hands minus one's own",
                            bye=DRAW, lower_scores=True)


def standing_rule(game: str, options: dict[str, Any] | None = None) -> StandingRule:
    """The rule of a tournament of ``game`` under ``options`` (the default rule set without)."""
    table = new_game(game, **(options or {}))
    if getattr(table, "cabrero", False):
        return CABRERO_RULE
    if table.num_sides > 2:
        return PLACES_RULE
    return TUPPI_RULE if game == "tuppi" else MATCH_RULE


@dataclass
class Standing:
    """One entrant's line of the standings."""

    entrant: int
    name: str
    played: int = 0
    won: int = 0
    """First place alone (at a table of two: the match won)."""
    drawn: int = 0
    """First place shared (a draw)."""
    lost: int = 0
    byes: int = 0
    """Byes and opponents' forfeits (not played)."""
    match_points: Fraction = Fraction(0)
    collected: int = 0
    """Tuppi: points collected while nousussa (a bye: the entrant's average over played matches)."""
    difference: Fraction = Fraction(0)
    rank: int = 0
    withdrawn: int | None = None
    """The round in which the entrant withdrew (its results stay; it is paired no more)."""

    def as_dict(self) -> dict[str, Any]:
        return {k: _number(v) if isinstance(v, Fraction) else v for k, v in self.__dict__.items()}


def _number(value: Fraction) -> int | float:
    """A whole number as such, else to two decimals (the page shows 1.5, 3.33)."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


def places(result: dict[str, Any]) -> list[int]:
    """Each side's place in a played match (1 best, equal places shared); a record stored before
    places were kept has two sides: the winner first, or both first in a draw."""
    if "places" in result:
        return list(result["places"])
    winner = result.get("winner")
    return [1 if winner is None or side == winner else 2 for side in range(len(result["scores"]))]


def place_points(below: int, equal: int, others: int) -> Fraction:
    """Match points at a table: 2 per entrant placed below, 1 per entrant placed equal, over the
    number of ``others`` at the table: a win 2, a draw 1 at a table of two; 2, 1, 0 at three."""
    return Fraction(2 * below + equal, others)


def standings(rule: StandingRule | str, names: dict[int, str],
              results: Iterable[tuple[list[int], dict[str, Any]]],
              withdrawn: dict[int, int] | None = None) -> list[Standing]:
    """The standings from each match's sides and result (only matches with a result).

    A played match counts by the places (:func:`place_points`); a bye scores ``rule.bye``; a
    forfeit puts the absent entrants last (0 match points, a loss) and the present ones share
    the first place (at a table of two: a win); for Tuppi a bye and a win by forfeit credit
    the entrant's average of points collected over the matches actually played (rounded down),
    so a bye neither helps nor hurts.  Equal keys share a rank; a withdrawn entrant keeps its
    line and its results.
    """
    if isinstance(rule, str):
        rule = standing_rule(rule)
    lines = {number: Standing(number, name, withdrawn=(withdrawn or {}).get(number))
             for number, name in names.items()}
    credits: dict[int, int] = {}
    for sides, result in results:
        kind = result["kind"]
        if kind == "bye":
            line = lines[sides[0]]
            line.byes += 1
            line.match_points += rule.bye
            credits[line.entrant] = credits.get(line.entrant, 0) + 1
            continue
        others = len(sides) - 1
        if kind == "forfeit":
            absent = set(result["absent"])
            share = place_points(len(absent), len(sides) - len(absent) - 1, others)
            for side, entrant in enumerate(sides):
                line = lines[entrant]
                if side in absent:
                    line.lost += 1
                else:
                    line.byes += 1
                    line.match_points += share
                    credits[entrant] = credits.get(entrant, 0) + 1
            continue
        place, scores, collected = places(result), result["scores"], result.get("collected")
        for side, entrant in enumerate(sides):
            line = lines[entrant]
            line.played += 1
            below = sum(p > place[side] for p in place)
            equal = place.count(place[side]) - 1
            line.match_points += place_points(below, equal, others)
            if place[side] > 1:
                line.lost += 1
            elif equal:
                line.drawn += 1
            else:
                line.won += 1
            gain = scores[side] - Fraction(sum(scores) - scores[side], others)
            line.difference += -gain if rule.lower_scores else gain
            if collected is not None:
                line.collected += collected[side]
    for entrant, count in credits.items():
        line = lines[entrant]
        if line.played:
            line.collected += count * (line.collected // line.played)

    def key(line: Standing) -> tuple[Fraction | int, ...]:
        return tuple(getattr(line, name) for name in rule.order)

    ordered = sorted(lines.values(), key=lambda line: (tuple(-k for k in key(line)), line.entrant))
    for i, line in enumerate(ordered):
        line.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(line) else i + 1
    return ordered


def table_result(table: Table) -> dict[str, Any]:
    """A finished table's result as the standings read it: the winning side (``None``: none
    alone), the match score per side, each side's place (Tute cabrero: as its match ends; else
    the winner first and the others by their score) and, where the game keeps them (Tuppi), the
    points each side collected while nousussa."""
    state = table.state
    winner = state.winner  # type: ignore[attr-defined]
    if getattr(state, "draw", False):
        winner = None
    scores = list(state.scores)
    ended = getattr(state, "places", None)
    if ended is None:
        keys = [(s != winner, -scores[s]) for s in range(len(scores))] if winner is not None \
            else [(False, 0)] * len(scores)
        ended = [1 + sum(k < keys[s] for k in keys) for s in range(len(scores))]
    result: dict[str, Any] = {"kind": "played", "winner": winner, "scores": scores, "places": list(ended)}
    totals = getattr(state, "totals", None)
    if totals is not None:
        result["collected"] = list(totals)
    return result


# -- secrets ------------------------------------------------------------------------------


def seat_token(secret: str, tournament_id: str, round_number: int, board: int, seat: int) -> str:
    """A seat's invite token, derived from the director's secret: the server stores only its
    hash (as for any table) and can still show it to the director, who holds the secret."""
    digest = hmac.new(secret.encode(), f"club:{tournament_id}:{round_number}:{board}:{seat}".encode(),
                      hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


# -- the store ----------------------------------------------------------------------------


@dataclass
class Tournament:
    """One tournament as stored, with its entrants and matches."""

    id: str
    name: str
    game: str
    preset: str | None
    options: dict[str, Any]
    format: str
    rounds: int | None
    turn_time: float
    director_hash: str
    created: float
    entrants: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Number to ``{"name", "members", "player_ids"}``."""
    matches: list[dict[str, Any]] = field(default_factory=list)
    """``{"round", "board", "sides", "table_id", "result"}`` by round and board."""

    @property
    def active(self) -> list[int]:
        """The entrants still in (not withdrawn), by number."""
        return [n for n, e in sorted(self.entrants.items()) if e["withdrawn"] is None]

    @property
    def current_round(self) -> int:
        return max((m["round"] for m in self.matches), default=0)

    def round_matches(self, number: int) -> list[dict[str, Any]]:
        return [m for m in self.matches if m["round"] == number]


class ClubStore:
    """The ``tt_club_*`` tables, in the server's database; used only from its database thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        metadata.create_all(engine)
        self._upgrade()

    def _upgrade(self) -> None:
        """Bring a database made by an older version up to this schema (columns added since)."""
        add_columns(self.engine, "tt_club_entrants", {"withdrawn": "INTEGER"})

    def add_tournament(self, t: Tournament) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tournaments).values(
                id=t.id, name=t.name, game=t.game, preset=t.preset, options=json.dumps(t.options),
                format=t.format, rounds=t.rounds, turn_time=t.turn_time,
                director_hash=t.director_hash, created=t.created))

    def load(self, tournament_id: str) -> Tournament | None:
        with self.engine.connect() as conn:
            query = select(tournaments).where(tournaments.c.id == tournament_id)
            row = conn.execute(query).mappings().first()
            if row is None:
                return None
            t = Tournament(id=row["id"], name=row["name"], game=row["game"], preset=row["preset"],
                           options=json.loads(row["options"]), format=row["format"], rounds=row["rounds"],
                           turn_time=row["turn_time"], director_hash=row["director_hash"],
                           created=row["created"])
            for e in conn.execute(select(entrants).where(entrants.c.tournament_id == tournament_id)
                                  .order_by(entrants.c.number)).mappings():
                t.entrants[e["number"]] = {"name": e["name"], "members": json.loads(e["members"]),
                                           "player_ids": json.loads(e["player_ids"] or "null"),
                                           "withdrawn": e["withdrawn"]}
            for m in conn.execute(select(matches).where(matches.c.tournament_id == tournament_id)
                                  .order_by(matches.c.round, matches.c.board)).mappings():
                t.matches.append({"round": m["round"], "board": m["board"], "sides": json.loads(m["sides"]),
                                  "table_id": m["table_id"],
                                  "result": json.loads(m["result"]) if m["result"] else None})
        return t

    def add_entrant(self, tournament_id: str, number: int, entrant: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(entrants).values(
                tournament_id=tournament_id, number=number, name=entrant["name"],
                members=json.dumps(entrant["members"]),
                player_ids=json.dumps(entrant["player_ids"]) if entrant["player_ids"] else None))

    def remove_entrant(self, tournament_id: str, number: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(entrants).where(entrants.c.tournament_id == tournament_id,
                                                entrants.c.number == number))

    def withdraw(self, tournament_id: str, number: int, round_number: int,
                 forfeits: list[tuple[int, dict[str, Any]]]) -> None:
        """Mark an entrant withdrawn in ``round_number`` and record its tables' forfeits
        (``(board, result)`` of that round), in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(entrants).where(entrants.c.tournament_id == tournament_id,
                                                entrants.c.number == number).values(withdrawn=round_number))
            for board, result in forfeits:
                conn.execute(update(matches).where(
                    matches.c.tournament_id == tournament_id, matches.c.round == round_number,
                    matches.c.board == board, matches.c.result.is_(None)).values(result=json.dumps(result)))

    def add_round(self, tournament_id: str, rounds: int | None, rows: list[dict[str, Any]]) -> None:
        """A round's matches, and the planned rounds fixed at the first, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(rounds=rounds))
            conn.execute(insert(matches), [{"tournament_id": tournament_id, "round": r["round"],
                                            "board": r["board"], "sides": json.dumps(r["sides"]),
                                            "table_id": r["table_id"],
                                            "result": json.dumps(r["result"]) if r["result"] else None}
                                           for r in rows])

    def of_table(self, table_id: str) -> dict[str, Any] | None:
        """The tournament, round and table number of a server table, if it is a tournament's."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tournaments.c.id, tournaments.c.name, matches.c.round, matches.c.board)
                .join(tournaments, tournaments.c.id == matches.c.tournament_id)
                .where(matches.c.table_id == table_id)).mappings().first()
        return None if row is None else dict(row)

    def set_result(self, tournament_id: str, round_number: int, board: int, result: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(matches).where(
                matches.c.tournament_id == tournament_id, matches.c.round == round_number,
                matches.c.board == board, matches.c.result.is_(None)).values(result=json.dumps(result)))


# -- the manager --------------------------------------------------------------------------


class Club:
    """Every tournament of one server, on top of its :class:`~.tables.Tables`."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = ClubStore(tables.store.engine)
        self.lock = asyncio.Lock()
        """One change at a time: two clicks on *start round* must not make two rounds."""

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.tables._in_db(fn, *args)  # the server's one database thread

    async def create(self, request: Any) -> tuple[Tournament, str]:
        """A new tournament from the director's request; returns it and the director's secret."""
        if not isinstance(request, dict):
            raise ClubError("malformed", "a tournament request is a JSON object")
        unknown = set(request) - {"name", "game", "preset", "options", "format", "rounds", "turn_time"}
        if unknown:
            raise ClubError("malformed",
                            f"unknown field(s) in the tournament request: {', '.join(sorted(unknown))}")
        name = _name(request.get("name"), "the tournament's name")
        game_name, options = request.get("game"), request.get("options") or {}
        if not isinstance(game_name, str):
            raise ClubError("malformed", "the tournament request needs a game name")
        if not isinstance(options, dict):
            raise ClubError("malformed", "options must be an object of option values")
        preset = request.get("preset", "tournament")
        if preset is not None and not isinstance(preset, str):
            raise ClubError("malformed", "preset must be a name or null")
        try:
            presets = GAMES[game_name].PRESETS if game_name in GAMES else {}
            if preset == "tournament" and "tournament" not in presets and "preset" not in request:
                preset = None  # the default asks for a tournament preset only where the game has one
            game = new_game(game_name, preset=preset, **options)
        except (OptionError, TypeError, ValueError) as exc:
            raise ClubError("bad_request", str(exc)) from None
        if game.num_sides != 2 and game.num_players != game.num_sides:
            raise ClubError("bad_request", "a club table seats two sides or players each alone; "
                            f"{game.title} with these options has {game.num_players} players in "
                            f"{game.num_sides} sides")
        fmt = request.get("format", "round_robin")
        if fmt not in FORMATS:
            raise ClubError("bad_request", f"format must be one of {', '.join(FORMATS)}")
        rounds = request.get("rounds")
        if rounds is not None and (not isinstance(rounds, int) or isinstance(rounds, bool)
                                   or not 1 <= rounds <= MAX_ENTRANTS):
            raise ClubError("bad_request", f"rounds must be a number from 1 to {MAX_ENTRANTS} (or null)")
        if fmt == "swiss" and rounds is None:
            raise ClubError("bad_request", "a Swiss tournament needs its number of rounds")
        turn_time = request.get("turn_time", self.tables.turn_time)
        if (not isinstance(turn_time, (int, float)) or isinstance(turn_time, bool)
                or not 0 <= turn_time <= MAX_TURN_TIME):
            raise ClubError("bad_request",
                            f"turn_time must be seconds from 0 (no limit) to {MAX_TURN_TIME:g}")
        secret = secrets.token_urlsafe(18)
        tournament = Tournament(id=secrets.token_urlsafe(9), name=name, game=game.name, preset=game.preset,
                                options=dict(game.options), format=fmt, rounds=rounds,
                                turn_time=float(turn_time), director_hash=token_hash(secret),
                                created=time.time())
        await self._in_db(self.store.add_tournament, tournament)
        return tournament, secret

    async def load(self, tournament_id: str, secret: str | None = None, director: bool = False) -> Tournament:
        """The tournament (``no_tournament``); with ``director``, only for the right secret."""
        tournament = await self._in_db(self.store.load, tournament_id)
        if tournament is None:
            raise ClubError("no_tournament", f"no tournament {tournament_id!r}", 404)
        if director or secret is not None:
            if not isinstance(secret, str) or not secrets.compare_digest(token_hash(secret),
                                                                          tournament.director_hash):
                raise ClubError("bad_secret", "this is not the director's link of this tournament", 403)
        return tournament

    async def add_entrant(self, tournament_id: str, secret: str | None, request: Any) -> int:
        """Register an entrant before the first round: a name, and its players' names (a pair:
        two) and optionally their player ids (:mod:`.players`): a linked player is seated as
        themselves, so the match is in their profile (and rated, as any table of players)."""
        if not isinstance(request, dict):
            raise ClubError("malformed", "an entrant is a JSON object")
        unknown = set(request) - {"name", "members", "player_ids"}
        if unknown:
            raise ClubError("malformed", f"unknown field(s) of an entrant: {', '.join(sorted(unknown))}")
        name = _name(request.get("name"), "the entrant's name")
        async with self.lock:
            tournament = await self.load(tournament_id, secret, director=True)
            game = new_game(tournament.game, **tournament.options)
            size = game.num_players // game.num_sides  # a pair's two players, or one
            members = request.get("members") or ([name] if size == 1 else ["", ""])
            if not isinstance(members, list) or len(members) != size:
                raise ClubError("bad_request", f"an entrant of {tournament.game} has {size} player name(s)")
            members = [_name(m, "a player's name", empty=size == 2) for m in members]
            player_ids = request.get("player_ids")
            if player_ids is not None and (not isinstance(player_ids, list) or len(player_ids) != size
                                           or not all(p is None or (isinstance(p, str) and 0 < len(p) <= 64)
                                                      for p in player_ids)):
                raise ClubError("bad_request", f"player_ids is a list of {size} player ids (or nulls)")
            for player_id in player_ids or []:
                if player_id is not None and await self._in_db(self.tables.players.get, player_id) is None:
                    raise ClubError("bad_request", f"no player {player_id!r} on this server")
            if tournament.matches:
                raise ClubError("started", "entrants are registered before the first round")
            if len(tournament.entrants) >= MAX_ENTRANTS:
                raise ClubError("bad_request", f"a tournament has at most {MAX_ENTRANTS} entrants")
            if any(e["name"].casefold() == name.casefold() for e in tournament.entrants.values()):
                raise ClubError("bad_request", f"there is already an entrant called {name!r}")
            number = max(tournament.entrants, default=0) + 1
            await self._in_db(self.store.add_entrant, tournament_id, number,
                              {"name": name, "members": members, "player_ids": player_ids})
        return number

    async def start_round(self, tournament_id: str, secret: str | None) -> int:
        """Pair the next round and seat each table at a new server table of people."""
        async with self.lock:
            tournament = await self.load(tournament_id, secret, director=True)
            await self._collect(tournament)
            game = new_game(tournament.game, preset=tournament.preset, **tournament.options)
            sides, smallest = game.num_sides, smallest_table(game, tournament)
            count = len(tournament.entrants)
            if len(tournament.active) < smallest:
                raise ClubError("not_ready", f"a round needs at least {smallest} entrants still in")
            current = tournament.current_round
            if any(m["result"] is None for m in tournament.round_matches(current)):
                raise ClubError("not_ready", f"round {current} is still being played")
            planned = tournament.rounds or default_rounds(count, sides)
            if sides == 2 and planned > max_rounds(count):
                raise ClubError("bad_request", f"{count} entrants can play at most "
                                f"{max_rounds(count)} rounds without a repeat")
            if current >= planned:
                raise ClubError("finished", "every round of the tournament has been played")
            number = current + 1
            members = game.num_players // sides  # a pair's two players, or one
            rows = []
            for board, seated in enumerate(self._pairings(tournament, number, sides, smallest), start=1):
                if len(seated) == 1:
                    rows.append({"round": number, "board": board, "sides": list(seated), "table_id": None,
                                 "result": {"kind": "bye"}})
                    continue
                players = len(seated) * members
                options = tournament.options if len(seated) == sides else {**tournament.options,
                                                                            "players": len(seated)}
                tokens: list[str | None] = [seat_token(secret or "", tournament.id, number, board, seat)
                                            for seat in range(players)]
                table, _ = await self.tables.create({
                    "game": tournament.game, "preset": tournament.preset, "options": options,
                    "seats": [{"kind": "human"}] * players, "turn_time": tournament.turn_time,
                }, tokens=tokens)
                for seat in range(players):  # a linked player's profile lists the match
                    entrant = tournament.entrants[seated[seat % len(seated)]]
                    player_id = (entrant["player_ids"] or [None] * members)[seat // len(seated)]
                    if player_id is None:
                        continue
                    player = await self._in_db(self.tables.players.get, player_id)
                    if player is not None:
                        await self.tables.claim(table, seat, player)
                rows.append({"round": number, "board": board, "sides": list(seated), "table_id": table.id,
                             "result": None})
            await self._in_db(self.store.add_round, tournament.id, planned, rows)
        return number

    def _pairings(self, tournament: Tournament, number: int, sides: int,
                  smallest: int) -> list[tuple[int, ...]]:
        """Round ``number``'s tables, byes last (one entrant).  Two sides: the circle method on
        every entrant registered (a withdrawn entrant's opponent has the bye), or Swiss on those
        still in; more: :func:`.pairing.group` by the standings (Swiss) or by number (the mixed
        schedule of a round robin)."""
        active = tournament.active
        played = [m["sides"] for m in tournament.matches if len(m["sides"]) > 1]
        side0 = Counter(table[0] for table in played)
        byes_had = Counter(m["sides"][0] for m in tournament.matches if len(m["sides"]) == 1)
        if sides == 2 and tournament.format == "round_robin":
            tables = [tuple(e for e in pair if e is not None and e in active)
                      for pair in round_robin(sorted(tournament.entrants), number)]
            return [t for t in tables if len(t) == 2] + [t for t in tables if len(t) == 1]
        order = ([line.entrant for line in self._standings(tournament) if line.entrant in active]
                 if tournament.format == "swiss" else active)
        pairs: list[tuple[int | None, ...]]
        if sides == 2:
            pairs = [*swiss(order, {frozenset(table) for table in played}, set(byes_had))]
        else:
            sizes = table_sizes(len(order), sides, smallest)
            byes = pick_byes(order, byes_had, len(order) - sum(sizes))
            pairs = [*group([e for e in order if e not in byes], sizes, meetings(played)),
                     *((e, None) for e in byes)]
        return [tuple(e for e in table if e is not None) for table in balance_sides(pairs, side0)]

    async def remove_entrant(self, tournament_id: str, secret: str | None, number: int) -> dict[str, Any]:
        """Before the first round the entrant is removed.  After, it is *withdrawn*: its results
        stay in the standings, it is never paired again, and its table of the current round,
        if that has no result yet, is a forfeit (it absent, the others win)."""
        async with self.lock:
            tournament = await self.load(tournament_id, secret, director=True)
            if number not in tournament.entrants:
                raise ClubError("bad_request", f"no entrant {number}")
            if not tournament.matches:
                await self._in_db(self.store.remove_entrant, tournament_id, number)
                return {"removed": number}
            withdrawn = tournament.entrants[number]["withdrawn"]
            if withdrawn is not None:
                raise ClubError("withdrawn", f"entrant {number} has already withdrawn (round {withdrawn})")
            await self._collect(tournament)
            current = tournament.current_round
            forfeits = [(m["board"], {"kind": "forfeit", "absent": [m["sides"].index(number)]})
                        for m in tournament.round_matches(current)
                        if m["result"] is None and number in m["sides"]]
            await self._in_db(self.store.withdraw, tournament_id, number, current, forfeits)
        return {"withdrawn": number, "round": current, "forfeits": [board for board, _ in forfeits]}

    async def of_table(self, table_id: str) -> dict[str, Any]:
        """Which tournament a table belongs to (its page links back): id, name, round, board."""
        found = await self._in_db(self.store.of_table, table_id)
        if found is None:
            raise ClubError("no_tournament", f"table {table_id!r} is not a tournament's", 404)
        return found

    async def forfeit(self, tournament_id: str, secret: str | None, request: Any) -> None:
        """Record that entrants did not come to their table (the director's only say in a
        result): ``{"round": 2, "board": 1, "absent": [entrant numbers]}``."""
        if not isinstance(request, dict) or set(request) != {"round", "board", "absent"}:
            raise ClubError("malformed", "a forfeit is {\"round\", \"board\", \"absent\": [entrants]}")
        async with self.lock:
            tournament = await self.load(tournament_id, secret, director=True)
            await self._collect(tournament)
            match = next((m for m in tournament.matches
                          if m["round"] == request["round"] and m["board"] == request["board"]), None)
            if match is None or match["table_id"] is None:
                raise ClubError("bad_request", f"no table {request['board']!r} in round {request['round']!r}")
            absent = request["absent"]
            if (not isinstance(absent, list) or not absent
                    or not all(isinstance(e, int) and e in match["sides"] for e in absent)
                    or len(set(absent)) != len(absent)):
                raise ClubError("bad_request", "absent names one or more of the entrants of that table")
            if match["result"] is not None:
                raise ClubError("bad_request", "that table already has its result")
            result = {"kind": "forfeit", "absent": [match["sides"].index(e) for e in absent]}
            await self._in_db(self.store.set_result, tournament.id, match["round"], match["board"], result)

    async def _collect(self, tournament: Tournament) -> None:
        """Take the result of every finished table that has none yet, from the table itself."""
        for match in tournament.matches:
            if match["result"] is not None or match["table_id"] is None:
                continue
            table = self.tables.tables.get(match["table_id"])
            if table is None:
                try:
                    table = await self.tables.find(match["table_id"], keep=False)
                except (TableError, ValueError, KeyError):  # gone, or no longer replays: no result
                    continue
            if not table.state.is_over():
                continue
            match["result"] = table_result(table)
            await self._in_db(self.store.set_result, tournament.id, match["round"], match["board"],
                              match["result"])

    def _standings(self, tournament: Tournament) -> list[Standing]:
        names = {n: e["name"] for n, e in tournament.entrants.items()}
        withdrawn = {n: e["withdrawn"] for n, e in tournament.entrants.items() if e["withdrawn"] is not None}
        return standings(standing_rule(tournament.game, tournament.options), names,
                         ((m["sides"], m["result"]) for m in tournament.matches if m["result"] is not None),
                         withdrawn)

    async def view(self, tournament_id: str, secret: str | None = None) -> dict[str, Any]:
        """The tournament as anyone may see it (with the right ``secret``: the director's view,
        with each seat's invite link).  Finished tables' results are collected first."""
        tournament = await self.load(tournament_id, secret)
        if any(m["result"] is None for m in tournament.matches):
            async with self.lock:
                tournament = await self.load(tournament_id, secret)
                await self._collect(tournament)
        director = secret is not None
        game = new_game(tournament.game, **tournament.options)
        players, members = game.num_players, game.num_players // game.num_sides
        rounds = []
        for number in range(1, tournament.current_round + 1):
            tables = []
            for m in tournament.round_matches(number):
                entry: dict[str, Any] = {"board": m["board"], "sides": m["sides"], "table_id": m["table_id"],
                                         "result": m["result"]}
                if m["table_id"] is not None:
                    entry["spectate"] = f"/t/{m['table_id']}"
                    live = self.tables.tables.get(m["table_id"])
                    if m["result"] is None and live is not None:
                        entry["scores"] = list(live.state.scores)
                        entry["hand_number"] = live.state.hand_number
                    entry["seats"] = [self._seat(tournament, m, seat, director and secret)
                                      for seat in range(len(m["sides"]) * members)]
                tables.append(entry)
            rounds.append({"number": number, "tables": tables,
                           "complete": all(t["result"] is not None for t in tables)})
        count = len(tournament.entrants)
        planned = tournament.rounds or (default_rounds(count, game.num_sides) if count >= 2 else None)
        rule = standing_rule(tournament.game, tournament.options)
        return {
            "id": tournament.id, "name": tournament.name, "game": tournament.game,
            "preset": tournament.preset,
            "options": tournament.options, "format": tournament.format, "rounds": planned,
            "turn_time": tournament.turn_time, "players": players, "sides": game.num_sides,
            "pairs": members == 2, "smallest_table": smallest_table(game, tournament),
            "entrants": [{"number": n, **{k: v for k, v in e.items() if v is not None}}
                         for n, e in tournament.entrants.items()],
            "round_list": rounds, "current_round": tournament.current_round,
            "standings": [line.as_dict() for line in self._standings(tournament)],
            "standing_rule": {"name": rule.name, "order": list(rule.order), "doc": rule.doc, "bye": rule.bye},
            "director": director,
        }

    @staticmethod
    def _seat(tournament: Tournament, match: dict[str, Any], seat: int,
              secret: str | None | bool) -> dict[str, Any]:
        """Who sits at ``seat``: the entrant of side ``seat % sides``, and which of a pair's
        players (the first at seats 0 and 1, the second at 2 and 3)."""
        sides = len(match["sides"])
        entrant = match["sides"][seat % sides]
        members = tournament.entrants[entrant]["members"]
        info: dict[str, Any] = {"seat": seat, "entrant": entrant, "player": members[seat // sides]}
        if isinstance(secret, str):
            token = seat_token(secret, tournament.id, match["round"], match["board"], seat)
            info["link"] = f"/t/{match['table_id']}#token={token}"
        return info


def _name(value: Any, what: str, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value.strip()) > MAX_NAME or (not empty and not value.strip()):
        raise ClubError("bad_request", f"{what} is text of 1 to {MAX_NAME} characters")
    return " ".join(value.split())
