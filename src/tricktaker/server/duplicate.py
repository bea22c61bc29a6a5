"""Duplicate tournaments against bots: the same boards for every entrant, results compared.

A *set* is a game (table size, preset), a list of *boards* and the seat the
entrant plays, with bots of one level in the other seats.  A board is one hand,
dealt from the board's seed by the board's dealer, so every entrant gets the
very same cards.  The bots are the quick, deterministic ones (``random``,
``rules``): a bot's decision is seeded from the table's seed (the board's), the
seat and the action number, so an entrant who plays the same cards as another
meets the same bot play.  (The search bots are not offered: their time budget
makes their play depend on how busy the machine is.)

Each board is played at a table of its own (:class:`~.tables.Tables`, a
single-hand table whose page leads back to the set), so it is a table like any
other: it survives a restart, and its bots and timers are the server's.  When
its hand ends (:attr:`Tables.on_over`), the entrant's *score* on the board is
recorded: their side's hand points minus the mean of the other sides'.  The
results rank everyone who finished a board by matchpoints (2 for each entrant
beaten, 1 for each tie, as a percentage of the top) and by an IMP-like scale
(:func:`imp`); the standings average the boards' percentages.

A *daily* set per game is made from the date (UTC) alone, so it is the same for
everyone that day; anyone can make an *on-demand* set and share its link.
Everything is in the database (``tt_dup_*``), on SQLite and PostgreSQL alike.

Hidden information: a board's deal, its per-entrant results and its tables'
records are shown only to an entrant who has finished that board; the standings
(percentages) are shown to all.  Board tables are not listed in the lobby.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import math
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    insert,
    select,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.exc import IntegrityError

from .. import GAMES, new_game
from ..engine import Game, OptionError, State
from .botpool import check_spec
from .players import Player
from .store import Store, StoredTable
from .tables import Table, TableError, Tables, token_hash

__all__ = ["BOTS", "DAILY_BOARDS", "IMP_UNITS", "MAX_BOARDS", "Duplicate", "SetSpec", "cross_imps",
           "daily_set", "imp", "matchpoints", "net_score", "standings"]

BOTS = ("rules", "random")
"""The bot levels a set may seat: deterministic given the board (the first is the default)."""
MAX_BOARDS = 24
"""The most boards an on-demand set may have."""
DAILY_BOARDS = 6
"""Boards in a daily set."""
DAILY_BOT = "rules"
NICKNAME = re.compile(r"^[^\x00-\x1f\x7f]{1,24}$")
"""A nickname: 1 to 24 characters, no control characters."""
LISTED_SETS = 50
"""On-demand sets the tournament page lists, newest first."""
IMP_UNITS: dict[str, float] = {"tuppi": 4, "tute": 10, "huutopussi": 10,
                               "marjapussi": 1, "bondtolva": 1, "avomarjapussi": 1}
"""Each game's *unit* of the IMP-like scale: about the smallest difference of scores worth
one step (Tuppi scores in fours, Tute and Huutopussi in fives and tens of card points; the
marriage games count a few points a hand).  A game not listed has 1."""
IMP_TOP = 24
"""The most IMPs one comparison gives, as in bridge."""

metadata = MetaData()

dup_sets = SqlTable(
    "tt_dup_sets", metadata,
    Column("id", String(48), primary_key=True),
    Column("kind", String(8), nullable=False),       # "daily" or "custom"
    Column("day", String(10)),                       # the UTC date of a daily set
    Column("game", String(32), nullable=False),
    Column("preset", String(32)),
    Column("options", Text, nullable=False),         # JSON: every option's value
    Column("seat", Integer, nullable=False),         # the seat every entrant plays
    Column("bot", String(100), nullable=False),      # the bot in every other seat
    Column("boards", Text, nullable=False),          # JSON: [{"seed": s, "dealer": d}]
    Column("created", Float, nullable=False),
)

dup_entries = SqlTable(
    "tt_dup_entries", metadata,
    Column("id", String(32), primary_key=True),
    Column("set_id", String(48), nullable=False, index=True),
    Column("player", String(64)),                    # the player's id, when they have one
    Column("nickname", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False),  # SHA-256 of the entrant's secret
    Column("created", Float, nullable=False),
    UniqueConstraint("set_id", "player", name="tt_dup_one_entry_per_player"),
    UniqueConstraint("set_id", "nickname", name="tt_dup_one_entry_per_nickname"),
)

dup_boards = SqlTable(
    "tt_dup_boards", metadata,
    Column("entry_id", String(32), primary_key=True),
    Column("board", Integer, primary_key=True),      # 0-based position in the set
    Column("set_id", String(48), nullable=False, index=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("score", Float),                          # the entrant's net score, once over
    Column("points", Text),                          # JSON: each side's hand points
    Column("finished", Float),
)


# -- what a set is ---------------------------------------------------------------------

@dataclass(frozen=True)
class SetSpec:
    """A set of boards: the game and its rules, the boards, the entrant's seat and the bots."""

    id: str
    kind: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seat: int
    bot: str
    boards: tuple[tuple[int, int], ...]
    """``(seed, dealer)`` of each board."""
    day: str | None = None
    created: float = 0.0

    def make_game(self) -> Game:
        return new_game(self.game, preset=self.preset, **self.options)

    def home(self) -> str:
        return f"/duplicate/{self.id}"

    def public(self) -> dict[str, Any]:
        """What anyone may know of the set (not the seeds: they are the deals)."""
        game = self.make_game()
        return {"id": self.id, "kind": self.kind, "day": self.day, "game": self.game,
                "title": game.title, "preset": self.preset, "options": self.options,
                "players": game.num_players, "seat": self.seat, "bot": self.bot,
                "boards": len(self.boards), "link": self.home()}


def _seed(*parts: object) -> int:
    """A seed from text: the same parts give the same seed on every machine, for ever."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFF_FFFF  # the store keeps 32-bit seeds


def daily_set(day: datetime.date, game: str) -> SetSpec:
    """The daily set of ``game`` for ``day``: made from the date alone, the same everywhere.

    The game's own table size and rules, :data:`DAILY_BOARDS` boards with the deal
    passing round the table (board *k* dealt by seat *k* mod players), the entrant in
    seat 0 and ``rules`` bots."""
    players = new_game(game).num_players
    text = day.isoformat()
    boards = tuple((_seed("tricktaker-daily", text, game, k), k % players) for k in range(DAILY_BOARDS))
    return SetSpec(id=f"daily-{text}-{game}", kind="daily", game=game, preset=None,
                   options=dict(new_game(game).options), seat=0, bot=DAILY_BOT, boards=boards, day=text)


def custom_set(request: Any, limits: Any) -> SetSpec:
    """An on-demand set from a request ``{"game", "preset", "players", "boards", "seat", "bot"}``
    (all but ``game`` optional); :class:`TableError` naming what is wrong."""
    if not isinstance(request, dict):
        raise TableError("malformed", "a set request is a JSON object")
    unknown = set(request) - {"game", "preset", "players", "boards", "seat", "bot"}
    if unknown:
        raise TableError("malformed", f"unknown field(s) in the set request: {', '.join(sorted(unknown))}")
    name, preset, players = request.get("game"), request.get("preset"), request.get("players")
    if not isinstance(name, str) or name not in GAMES:
        raise TableError("bad_request", f"no game {name!r} (games: {', '.join(GAMES)})")
    if preset is not None and not isinstance(preset, str):
        raise TableError("malformed", "preset must be a name or null")
    options = {} if players is None else {"players": players}
    try:
        game = new_game(name, preset=preset, **options)
    except (OptionError, TypeError, ValueError) as exc:
        raise TableError("bad_request", str(exc)) from None
    boards, seat = request.get("boards", DAILY_BOARDS), request.get("seat", 0)
    if not _whole(boards) or not 1 <= boards <= MAX_BOARDS:
        raise TableError("bad_request", f"boards must be a whole number from 1 to {MAX_BOARDS}")
    if not _whole(seat) or not 0 <= seat < game.num_players:
        raise TableError("bad_request", f"seat must be a whole number from 0 to {game.num_players - 1}")
    bot = request.get("bot", BOTS[0])
    if bot not in BOTS:
        raise TableError("bad_request", f"bot must be one of {', '.join(BOTS)}: their play is the "
                                        "same for everyone on a board")
    check_spec(bot, game.name, limits)
    base = random.SystemRandom().randrange(2**31)
    deals = tuple((_seed("tricktaker-set", base, k), k % game.num_players) for k in range(boards))
    return SetSpec(id=secrets.token_urlsafe(9), kind="custom", game=game.name, preset=game.preset,
                   options=dict(game.options), seat=seat, bot=bot, boards=deals, created=time.time())


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- scores and their comparison ---------------------------------------------------------

def net_score(state: State, seat: int) -> tuple[float, list[int]]:
    """The score of ``seat`` in a finished hand: its side's hand points minus the mean of the
    other sides' (Tute cabrero: its ``hand_returns()`` payoff), and each side's points.  (A
    side's own points alone would rank a hand it lost by 8 with one where nobody scored.)"""
    game = state.game
    points = list(getattr(state, "hand_points", None) or [0] * game.num_sides)
    payoffs = getattr(state, "hand_returns", lambda: None)()
    if payoffs is not None:  # Tute cabrero: points are not the aim; -1 per loser, others sharing
        return float(payoffs[seat]), points
    side = game.side_of(seat)
    others = [p for s, p in enumerate(points) if s != side]
    return points[side] - sum(others) / max(1, len(others)), points


def matchpoints(scores: dict[str, float]) -> dict[str, tuple[int, float]]:
    """Each entrant's matchpoints on a board and their percentage of the top: 2 for every
    other entrant with a lower score, 1 for every tie.  A lone result has 50%.

    Counted per distinct score (a hand has few), not per pair of entrants: a board of a
    thousand entrants is a few hundred steps, not a million."""
    top = 2 * (len(scores) - 1)
    counts = Counter(scores.values())
    below = 0
    points_of: dict[float, int] = {}
    for value in sorted(counts):
        points_of[value] = 2 * below + counts[value] - 1  # the others with this score tie
        below += counts[value]
    return {who: (points_of[mine], 100.0 * points_of[mine] / top if top else 50.0)
            for who, mine in scores.items()}


def imp(difference: float, unit: float) -> int:
    """The IMP-like value of a difference of scores: grows with the difference, but slower
    and slower, as bridge's IMP table does, so one wild board does not decide a set:
    ``round(5 ln(1 + |d| / unit))`` with the sign of ``d``, at most :data:`IMP_TOP`.
    One unit gives 3, two units 5, five units 9, ten units 12, twenty units 15."""
    size = min(IMP_TOP, round(5 * math.log1p(abs(difference) / unit)))
    return size if difference >= 0 else -size


def cross_imps(scores: dict[str, float], unit: float) -> dict[str, float]:
    """Each entrant's IMP-like result on a board: the mean of :func:`imp` of their score minus
    each other entrant's (0 alone), so a board weighs the same however many played it.
    Per distinct score, as :func:`matchpoints` (an entrant against themselves adds imp(0) = 0)."""
    others = len(scores) - 1
    counts = Counter(scores.values())
    mean = {value: sum(imp(value - theirs, unit) * n for theirs, n in counts.items()) / others
            if others else 0.0 for value in counts}
    return {who: mean[mine] for who, mine in scores.items()}


def standings(boards: int, results: Sequence[dict[str, float]], unit: float,
              names: dict[str, str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Per board and overall: ``results[k]`` maps each entrant who finished board ``k`` to
    their score.  Returns each board's rows (best first) and the overall rows: entrants who
    finished every board first, then by the mean of their boards' percentages, then IMPs."""
    per_board: list[dict[str, Any]] = []
    totals: dict[str, dict[str, Any]] = {
        who: {"entry": who, "nickname": name, "boards": 0, "matchpoints": 0, "top": 0,
              "percent": 0.0, "imps": 0.0} for who, name in names.items()}
    for k, scores in enumerate(results):
        mps, imps = matchpoints(scores), cross_imps(scores, unit)
        rows: list[dict[str, Any]] = [{"entry": who, "nickname": names.get(who, "?"), "score": score,
                 "matchpoints": mps[who][0], "percent": round(mps[who][1], 2),
                 "imps": round(imps[who], 2)} for who, score in scores.items()]
        rows.sort(key=lambda r: (-r["score"], r["nickname"]))
        per_board.append({"board": k, "rows": rows})
        for who in scores:
            total = totals[who]
            total["boards"] += 1
            total["matchpoints"] += mps[who][0]
            total["top"] += 2 * (len(scores) - 1)
            total["percent"] += mps[who][1]
            total["imps"] += imps[who]
    overall = []
    for total in totals.values():
        played = total["boards"]
        total["percent"] = round(total["percent"] / played, 2) if played else None
        total["imps"] = round(total["imps"], 2)
        total["complete"] = played == boards
        overall.append(total)
    overall.sort(key=lambda r: (not r["complete"], -(r["percent"] or 0.0), -r["imps"], r["nickname"]))
    return per_board, overall


# -- the database --------------------------------------------------------------------------

class DuplicateStore:
    """The sets, entries and boards in the server's database (blocking: the server calls it
    on its database thread, as it does :class:`~.store.Store`)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine
        metadata.create_all(self.engine)

    def get_set(self, set_id: str) -> SetSpec | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(dup_sets).where(dup_sets.c.id == set_id)).mappings().first()
        return None if row is None else _spec(row)

    def add_set(self, spec: SetSpec) -> SetSpec:
        """Store a set; a daily set stored meanwhile (another request, another server) wins."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(dup_sets).values(
                    id=spec.id, kind=spec.kind, day=spec.day, game=spec.game, preset=spec.preset,
                    options=json.dumps(spec.options), seat=spec.seat, bot=spec.bot,
                    boards=json.dumps([{"seed": s, "dealer": d} for s, d in spec.boards]),
                    created=spec.created or time.time()))
        except IntegrityError:
            found = self.get_set(spec.id)
            if found is None:
                raise
            return found
        return spec

    def recent_sets(self, limit: int, before: str | None = None) -> list[tuple[SetSpec, int]]:
        """The newest on-demand sets, or with ``before`` (a date) the daily sets of the days
        before it, newest first, and how many entered each."""
        query = select(dup_sets).where(dup_sets.c.kind == "custom").order_by(dup_sets.c.created.desc())
        if before is not None:
            query = (select(dup_sets).where((dup_sets.c.kind == "daily") & (dup_sets.c.day < before))
                     .order_by(dup_sets.c.day.desc(), dup_sets.c.game))
        with self.engine.connect() as conn:
            rows = conn.execute(query.limit(limit)).mappings().all()
            specs = [_spec(row) for row in rows]
            counts = self._entrants(conn, [s.id for s in specs])
        return [(spec, counts.get(spec.id, 0)) for spec in specs]

    def entrant_counts(self, set_ids: list[str]) -> dict[str, int]:
        with self.engine.connect() as conn:
            return self._entrants(conn, set_ids)

    @staticmethod
    def _entrants(conn: Any, set_ids: list[str]) -> dict[str, int]:
        if not set_ids:
            return {}
        rows = conn.execute(select(dup_entries.c.set_id).where(dup_entries.c.set_id.in_(set_ids))).all()
        counts: dict[str, int] = {}
        for (set_id,) in rows:
            counts[set_id] = counts.get(set_id, 0) + 1
        return counts

    def add_entry(self, entry_id: str, set_id: str, player: str | None, nickname: str, digest: str) -> None:
        """Enter a set; :class:`TableError` ``entered`` when the player or nickname already has."""
        with self.engine.connect() as conn:
            taken = conn.execute(select(dup_entries.c.nickname, dup_entries.c.player)
                                 .where(dup_entries.c.set_id == set_id)).all()
        if player is not None and any(p == player for _, p in taken):
            raise TableError("entered", "you have entered this set already: one entry per player")
        if any(n.casefold() == nickname.casefold() for n, _ in taken):
            raise TableError("entered", f"the nickname {nickname!r} has entered this set already")
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(dup_entries).values(id=entry_id, set_id=set_id, player=player,
                                                        nickname=nickname, token_hash=digest,
                                                        created=time.time()))
        except IntegrityError:
            raise TableError("entered", "this player or nickname has entered this set already") from None

    def entry_of_player(self, set_id: str, player: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(dup_entries).where(
                (dup_entries.c.set_id == set_id) & (dup_entries.c.player == player))).mappings().first()
        return None if row is None else dict(row)

    def set_token(self, entry_id: str, digest: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(dup_entries).where(dup_entries.c.id == entry_id).values(token_hash=digest))

    def get_entry(self, entry_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(dup_entries).where(dup_entries.c.id == entry_id)).mappings().first()
        return None if row is None else dict(row)

    def entries(self, set_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(dup_entries).where(dup_entries.c.set_id == set_id)
                                .order_by(dup_entries.c.created)).mappings().all()
        return [dict(row) for row in rows]

    def boards(self, set_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(dup_boards).where(dup_boards.c.set_id == set_id)).mappings().all()
        return [dict(row) for row in rows]

    def entry_boards(self, entry_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(dup_boards).where(dup_boards.c.entry_id == entry_id)
                                .order_by(dup_boards.c.board)).mappings().all()
        return [dict(row) for row in rows]

    def add_board(self, entry_id: str, board: int, set_id: str, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(dup_boards).values(entry_id=entry_id, board=board, set_id=set_id,
                                                   table_id=table_id))

    def record_score(self, table_id: str, score: float, points: list[int]) -> bool:
        """Record a board's score once (a second call changes nothing); whether it was new."""
        with self.engine.begin() as conn:
            done = conn.execute(update(dup_boards)
                                .where(dup_boards.c.table_id == table_id, dup_boards.c.score.is_(None))
                                .values(score=score, points=json.dumps(points), finished=time.time()))
            return bool(done.rowcount)

    def unscored(self) -> list[str]:
        """The tables of boards whose score is not recorded (played, or being played)."""
        with self.engine.connect() as conn:
            return [row[0] for row in conn.execute(
                select(dup_boards.c.table_id).where(dup_boards.c.score.is_(None))).all()]


def _spec(row: Any) -> SetSpec:
    boards = tuple((b["seed"], b["dealer"]) for b in json.loads(row["boards"]))
    return SetSpec(id=row["id"], kind=row["kind"], game=row["game"], preset=row["preset"],
                   options=json.loads(row["options"]), seat=row["seat"], bot=row["bot"],
                   boards=boards, day=row["day"], created=row["created"])


# -- the service ----------------------------------------------------------------------------

class Duplicate:
    """The tournaments of one server: sets, entries, the board tables, and the results."""

    def __init__(self, tables: Tables, today: Callable[[], datetime.date] | None = None) -> None:
        """Made before ``tables`` starts (its schema is created here, at start-up), so that a
        board a resumed bot finishes is heard of."""
        self.tables = tables
        self.today = today or (lambda: datetime.datetime.now(datetime.timezone.utc).date())
        """The UTC date (a test gives its own)."""
        self.store = DuplicateStore(tables.store)
        tables.on_over.append(self.on_over)
        self.lock = asyncio.Lock()
        """Board tables are made one at a time: two clicks on *Play* make one table."""

    async def _in_db(self, fn: Any, *args: Any) -> Any:
        # the server's one database thread: SQLite has one writer, and the order is kept
        return await self.tables.in_db(fn, *args)

    async def start(self) -> None:
        """Record the score of any board that ended while the server was going down."""
        for table_id in await self._in_db(self.store.unscored):
            stored = await self._in_db(self.tables.store.load_table, table_id)
            if stored is not None and stored.status == "over":
                await self.on_over(Table.rebuild(stored))

    async def on_over(self, table: Table) -> None:
        """A table's hand is over: if it is a board, record its entrant's score."""
        await self._record(table)

    async def _record(self, table: Table) -> float | None:
        """Record the score of a board whose hand is over (once); the score, or None."""
        if not table.stored.single_hand or not table.state.is_over():
            return None
        seat = next((s for s, info in enumerate(table.stored.seats) if info["kind"] == "human"), None)
        if seat is None:
            return None
        score, points = net_score(table.state, seat)
        await self._in_db(self.store.record_score, table.id, score, points)
        return score

    async def _settle(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` of boards, each one whose hand is over scored: the listener runs just after
        the last card is told, and a page that moves on at once must not find it unscored."""
        for row in rows:
            if row["score"] is not None:
                continue
            table = self.tables.tables.get(row["table_id"])  # a board being played is in memory
            if table is None:
                stored = await self._in_db(self.tables.store.load_table, row["table_id"])
                table = Table.rebuild(stored) if stored is not None and stored.status == "over" else None
            if table is not None:
                row["score"] = await self._record(table)
        return rows

    # -- sets --------------------------------------------------------------------------

    async def find_set(self, set_id: str) -> SetSpec:
        """A stored set, or today's daily set of a game made now; ``no_set`` otherwise.  (A
        daily set of another day is not made: tomorrow's boards are nobody's to practise.)"""
        spec: SetSpec | None = await self._in_db(self.store.get_set, set_id)
        if spec is not None:
            return spec
        today = self.today()
        for game in GAMES:
            if set_id == f"daily-{today.isoformat()}-{game}":
                made: SetSpec = await self._in_db(self.store.add_set, daily_set(today, game))
                return made
        raise TableError("no_set", f"no tournament set {set_id!r}")

    async def overview(self) -> dict[str, Any]:
        """Today's daily set of every game, the newest on-demand sets, and the daily sets of
        earlier days that someone entered (their results stay), with entrant counts."""
        today = self.today().isoformat()
        daily = [await self.find_set(f"daily-{today}-{game}") for game in GAMES]
        counts = await self._in_db(self.store.entrant_counts, [s.id for s in daily])
        recent = await self._in_db(self.store.recent_sets, LISTED_SETS)
        past = await self._in_db(self.store.recent_sets, 4 * LISTED_SETS, today)
        return {"today": today, "bots": list(BOTS), "max_boards": MAX_BOARDS,
                "daily": [s.public() | {"entrants": counts.get(s.id, 0)} for s in daily],
                "sets": [s.public() | {"entrants": n} for s, n in recent],
                "past": [s.public() | {"entrants": n} for s, n in past if n][:LISTED_SETS]}

    async def create_set(self, request: Any) -> SetSpec:
        try:
            spec = custom_set(request, self.tables.pool.limits)
        except TableError:
            raise
        except ValueError as exc:  # the bot's own check (a spec over this server's caps)
            raise TableError("bad_request", str(exc)) from None
        stored: SetSpec = await self._in_db(self.store.add_set, spec)
        return stored

    # -- entrants ------------------------------------------------------------------------

    async def enter(self, set_id: str, request: Any, player: Player | None = None) -> dict[str, Any]:
        """Enter a set: ``{"nickname": ...}``, or as a signed-in ``player`` (the entry is theirs,
        under their nickname, once per set, and their boards are in their matches).  Returns the
        entry's id and its secret token (shown once: it opens the entrant's board tables).

        A player who has entered already gets their entry back with a new token (another
        device, a browser that lost it): the old token stops working, their results stay."""
        spec = await self.find_set(set_id)
        if not isinstance(request, dict):
            raise TableError("malformed", "an entry request is a JSON object")
        player_id: str | None = None
        if player is not None:
            player_id, nickname = player.id, player.nickname
            entry = await self._in_db(self.store.entry_of_player, spec.id, player.id)
            if entry is not None:
                return await self._renew(spec, entry)
        else:
            given = request.get("nickname")
            if not isinstance(given, str) or not NICKNAME.match(given.strip()):
                raise TableError("bad_request", "a nickname is 1 to 24 characters")
            nickname = given.strip()
        entry_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        await self._in_db(self.store.add_entry, entry_id, spec.id, player_id, nickname, token_hash(token))
        return {"entry": entry_id, "token": token, "nickname": nickname, "set": spec.id}

    async def _renew(self, spec: SetSpec, entry: dict[str, Any]) -> dict[str, Any]:
        """A new token for an entry, and for the entrant's seat at each of their board tables."""
        token = secrets.token_urlsafe(18)
        digest = token_hash(token)
        async with self.lock:  # not while a board table is being made with the old hash
            await self._in_db(self.store.set_token, entry["id"], digest)
            for row in await self._in_db(self.store.entry_boards, entry["id"]):
                live = self.tables.tables.get(row["table_id"])
                stored = live.stored if live is not None else await self._in_db(
                    self.tables.store.load_table, row["table_id"])
                if stored is None:
                    continue  # recorded with the board, not yet opened: it is opened with the new hash
                stored.seats[spec.seat]["token_hash"] = digest
                await self._in_db(self.tables.store.set_seats, stored.id, stored.seats)
        return {"entry": entry["id"], "token": token, "nickname": entry["nickname"], "set": spec.id,
                "resumed": True}

    async def _entry(self, entry_id: str, token: Any) -> dict[str, Any]:
        entry = await self._in_db(self.store.get_entry, entry_id) if isinstance(entry_id, str) else None
        if entry is None:
            raise TableError("no_entry", f"no entry {entry_id!r}")
        if not isinstance(token, str) or not secrets.compare_digest(entry["token_hash"], token_hash(token)):
            raise TableError("bad_token", "this token does not belong to the entry")
        found: dict[str, Any] = entry
        return found

    async def next_board(self, entry_id: str, token: Any) -> dict[str, Any]:
        """The entrant's first board not yet finished, its table made if need be:
        ``{"board": k, "boards": n, "table": id}``, or ``{"done": true}`` after the last."""
        entry = await self._entry(entry_id, token)
        spec = await self.find_set(entry["set_id"])
        async with self.lock:
            rows = await self._settle(await self._in_db(self.store.entry_boards, entry_id))
            played = {row["board"]: row for row in rows}
            for board, (seed, dealer) in enumerate(spec.boards):
                row = played.get(board)
                if row is not None and row["score"] is not None:
                    continue
                if row is None:
                    table_id = secrets.token_urlsafe(9)
                    await self._in_db(self.store.add_board, entry_id, board, spec.id, table_id)
                else:
                    table_id = row["table_id"]
                if not await self.tables.exists(table_id):  # stored with the board, not yet opened
                    stored = self._board_table(spec, table_id, seed, dealer, entry)
                    await self.tables.open(stored)
                return {"board": board, "boards": len(spec.boards), "table": table_id, "done": False}
        return {"done": True, "boards": len(spec.boards)}

    @staticmethod
    def _board_table(spec: SetSpec, table_id: str, seed: int, dealer: int,
                     entry: dict[str, Any]) -> StoredTable:
        """A board's table: one hand from the board's seed and dealer, the entrant (their
        entry token opens it) in the set's seat, the set's bot everywhere else, no turn time."""
        players = spec.make_game().num_players
        seats: list[dict[str, Any]] = [{"kind": "bot", "bot": spec.bot} for _ in range(players)]
        seats[spec.seat] = {"kind": "human", "bot": None, "token_hash": entry["token_hash"]}
        if entry["player"] is not None:  # the board is in the player's matches
            seats[spec.seat] |= {"player": entry["player"], "nickname": entry["nickname"]}
        return StoredTable(id=table_id, game=spec.game, preset=spec.preset, options=dict(spec.options),
                           seed=seed, seats=seats, turn_time=0.0, single_hand=True, dealer=dealer,
                           home=spec.home())

    # -- results -----------------------------------------------------------------------------

    async def results(self, set_id: str, entry_id: str | None = None, token: Any = None) -> dict[str, Any]:
        """The set, its standings, and each board's results, deal and tables' links, those
        only for a viewer (an entrant with their token) who has finished the board."""
        spec = await self.find_set(set_id)
        viewer = None
        if entry_id is not None:
            viewer = await self._entry(entry_id, token)
            if viewer["set_id"] != spec.id:
                raise TableError("bad_token", "this entry belongs to another set")
        entries = await self._in_db(self.store.entries, spec.id)
        rows = await self._settle(await self._in_db(self.store.boards, spec.id))
        names = {e["id"]: e["nickname"] for e in entries}
        results: list[dict[str, float]] = [{} for _ in spec.boards]
        tables: list[dict[str, str]] = [{} for _ in spec.boards]
        progress = {e["id"]: 0 for e in entries}
        for row in rows:
            if row["score"] is not None and row["board"] < len(spec.boards):
                results[row["board"]][row["entry_id"]] = row["score"]
                tables[row["board"]][row["entry_id"]] = row["table_id"]
                progress[row["entry_id"]] = progress.get(row["entry_id"], 0) + 1
        per_board, overall = standings(len(spec.boards), results, IMP_UNITS.get(spec.game, 1.0), names)
        game = spec.make_game()
        boards = []
        for k, board in enumerate(per_board):
            seed, dealer = spec.boards[k]
            shown: dict[str, Any] = {"board": k, "dealer": dealer, "entrants": len(board["rows"])}
            if viewer is not None and viewer["id"] in results[k]:
                record = json.loads(game.new_hand(seed=seed, dealer=dealer).to_json())
                shown |= {"deal": record["hands"][0]["deal"],
                          "rows": [r | {"table": tables[k][r["entry"]]} for r in board["rows"]]}
            boards.append(shown)
        return {"set": spec.public() | {"entrants": len(entries)},
                "you": None if viewer is None else {"entry": viewer["id"], "nickname": viewer["nickname"],
                                                    "finished": progress.get(viewer["id"], 0)},
                "standings": overall, "boards": boards,
                "imp_unit": IMP_UNITS.get(spec.game, 1.0)}
