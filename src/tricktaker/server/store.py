"""Where tables live between restarts: SQLite by default, PostgreSQL for a club.

A table is stored as what is needed to rebuild it exactly: the game, its
options, the match seed, the seats, and every action in order.  Replaying the
actions from the seed gives back the very state (deals come from the seed), so
nothing else is kept.  The server writes each action here *before* anyone
hears of it; a server killed at any moment restarts with every table as its
players last saw it.

SQLAlchemy Core gives one code path for both databases.  Its calls block, so
the server runs them on one worker thread (:class:`Store` is used only from
there): SQLite wants a single writer anyway, and the order of writes is the
order of actions.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine

__all__ = ["Store", "StoredTable", "add_columns", "database_url"]

metadata = MetaData()

tables = Table(
    "tt_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("preset", String(32)),
    Column("options", Text, nullable=False),      # JSON: every option's value
    Column("seed", Integer, nullable=False),
    Column("seats", Text, nullable=False),        # JSON: [{"kind", "bot", "token_hash", "player"}]
    Column("status", String(16), nullable=False),  # "playing" or "over"
    Column("created", Float, nullable=False),
    Column("next_id", String(32)),                # the table of the next match, once asked for
    Column("turn_time", Float),                   # seconds a person has for a move (0: no limit)
    Column("single_hand", Integer),               # 1: the table plays one hand (a duplicate board)
    Column("dealer", Integer),                    # who deals first (null: seat 0)
    Column("home", String(200)),                  # the page a finished table leads back to
    Column("practice", Boolean),                  # a practice table: hints on demand (null: no)
)

actions = Table(
    "tt_actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),       # 0-based position in the match
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("at", Float, nullable=False),
)


players = Table(
    "tt_players", metadata,
    Column("id", String(16), primary_key=True),
    Column("nickname", String(40), nullable=False),
    Column("nickname_key", String(40), nullable=False, unique=True),  # casefolded: one "Aino" only
    Column("secret_hash", String(64), nullable=False, unique=True),   # SHA-256: never the secret itself
    Column("created", Float, nullable=False),
)
"""People who come back (:mod:`.players`)."""

seatings = Table(
    "tt_seatings", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), nullable=False, index=True),
    Column("at", Float, nullable=False),
    Column("result", Float),            # at the end: 1 won, 0 lost, 0.5 drawn (no winner)
    Column("rating_before", Float),     # a rated match: the rating of its game and size before it
    Column("rating_after", Float),      # and after it
)
"""Who sat where: a player's matches (the profile) without reading every table's seats."""

ratings = Table(
    "tt_ratings", metadata,
    Column("player_id", String(16), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("players", Integer, primary_key=True),   # the table size: 3-player Tute is rated apart
    Column("rating", Float, nullable=False),        # Glicko-2 on the Glicko scale (1500 to start)
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""Each player's Glicko-2 rating per game and table size (:mod:`tricktaker.ratings`)."""


_INSERT_ACTION = insert(actions)
"""Built once: SQLAlchemy compiles and caches it, instead of rebuilding it for every action."""


def add_columns(engine: Engine, table: str, columns: dict[str, str]) -> None:
    """Add each of ``columns`` (name: SQL type) that ``table`` lacks: a database made by an
    older version gains the columns added since, as nullable ones (old rows read as null)."""
    have = {column["name"] for column in inspect(engine).get_columns(table)}
    for name, kind in columns.items():
        if name not in have:
            with engine.begin() as conn:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {kind}"))


@dataclass
class StoredTable:
    """One table as stored: enough to rebuild its state by replay."""

    id: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str = "playing"
    created: float = field(default_factory=time.time)
    actions: list[tuple[int, str]] = field(default_factory=list)
    """``(seat, action text)`` in play order."""
    next_id: str | None = None
    """The table of the next match (*Play again*), once a player at this finished one asked."""
    turn_time: float | None = None
    """Seconds a person has for a move, chosen in the lobby (0: no limit; ``None``: the
    server's ``--turn-time``, for a table stored before the choice existed)."""
    single_hand: bool = False
    """The table plays one hand from ``seed`` (``Game.new_hand``), not a match: a board of a
    duplicate tournament (:mod:`.duplicate`), dealt the same for everyone who plays it."""
    dealer: int = 0
    """Who deals the first hand."""
    home: str | None = None
    """The page the table belongs to (a tournament's): its page leads there once it is over,
    instead of offering *Play again*."""
    practice: bool = False
    """A practice table: a seat may ask for a hint on its turn (docs/server.md, *Analysis and hints*)."""


def database_url(db: str) -> str:
    """A SQLAlchemy URL for ``--db``: a URL as given, or a file path for SQLite.

    ``postgresql://`` is read as PostgreSQL through psycopg 3, the driver the
    ``postgres`` extra installs (SQLAlchemy's default would be psycopg2).
    """
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


class Store:
    """The tables and their actions in one database (see the module docstring)."""

    def __init__(self, db: str) -> None:
        url = database_url(db)
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        self._upgrade()

    def _upgrade(self) -> None:
        """Bring a database made by an older version up to this schema (columns added since)."""
        add_columns(self.engine, "tt_tables", {
            "next_id": "VARCHAR(32)", "turn_time": "FLOAT", "single_hand": "INTEGER", "dealer": "INTEGER",
            "home": "VARCHAR(200)", "practice": "BOOLEAN"})

    def close(self) -> None:
        self.engine.dispose()

    def add_table(self, table: StoredTable) -> None:
        with self.engine.begin() as conn:
            self._insert_table(conn, table)

    @staticmethod
    def _insert_table(conn: Connection, table: StoredTable) -> None:
        conn.execute(insert(tables).values(
            id=table.id, game=table.game, preset=table.preset,
            options=json.dumps(table.options), seed=table.seed,
            seats=json.dumps(table.seats), status=table.status, created=table.created,
            next_id=table.next_id, turn_time=table.turn_time,
            single_hand=int(table.single_hand), dealer=table.dealer, home=table.home,
            practice=table.practice))

    def add_next_table(self, previous_id: str, table: StoredTable) -> None:
        """Store the table of a finished table's next match, and the link to it, in one transaction:
        a player who asks again later, even after a restart, is sent to this table."""
        with self.engine.begin() as conn:
            self._insert_table(conn, table)
            conn.execute(update(tables).where(tables.c.id == previous_id).values(next_id=table.id))

    def add_actions(self, rows: list[tuple[str, int, int, str, bool]]) -> None:
        """Store actions ``(table_id, n, seat, text, ends_match)`` in one transaction.

        The server hands over every action that arrived while the previous
        write was on disk (group commit): one commit serves many tables.  The
        primary key ``(table_id, n)`` makes a second write of the same position
        fail rather than fork a table's history.
        """
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(_INSERT_ACTION, [{"table_id": t, "n": n, "seat": seat, "action": text, "at": now}
                                          for t, n, seat, text, _ in rows])
            for table_id in {t for t, _, _, _, over in rows if over}:
                conn.execute(update(tables).where(tables.c.id == table_id).values(status="over"))

    def load_tables(self, status: str | None = "playing") -> list[StoredTable]:
        """Every table (with its actions) of that status, oldest first; ``None`` for all."""
        with self.engine.connect() as conn:
            query = select(tables).order_by(tables.c.created)
            if status is not None:
                query = query.where(tables.c.status == status)
            rows = conn.execute(query).mappings().all()
            found = [_stored(row) for row in rows]
            by_id = {t.id: t for t in found}
            if by_id:
                moves = conn.execute(
                    select(actions.c.table_id, actions.c.seat, actions.c.action)
                    .where(actions.c.table_id.in_(list(by_id)))
                    .order_by(actions.c.table_id, actions.c.n)).all()
                for table_id, seat, text in moves:
                    by_id[table_id].actions.append((seat, text))
        return found

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        """Store a table's seats again (a signed-in person took one: it records their id)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(seats=json.dumps(seats)))

    def has_table(self, table_id: str) -> bool:
        """Whether the table was ever created (a page for a wrong link answers 404)."""
        with self.engine.connect() as conn:
            return conn.execute(select(tables.c.id).where(tables.c.id == table_id)).first() is not None

    def load_table(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            table = _stored(row)
            moves = conn.execute(select(actions.c.seat, actions.c.action)
                                 .where(actions.c.table_id == table_id).order_by(actions.c.n)).all()
            table.actions = [(seat, text) for seat, text in moves]
        return table


def _stored(row: Any) -> StoredTable:
    return StoredTable(id=row["id"], game=row["game"], preset=row["preset"],
                       options=json.loads(row["options"]), seed=row["seed"],
                       seats=json.loads(row["seats"]), status=row["status"], created=row["created"],
                       next_id=row["next_id"], turn_time=row["turn_time"],
                       single_hand=bool(row["single_hand"]), dealer=row["dealer"] or 0, home=row["home"],
                       practice=bool(row["practice"]))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers and the one writer work at once; NORMAL sync is safe
    against a killed process (only a power cut can lose the last commits)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
