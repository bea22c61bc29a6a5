"""Players who come back: a nickname made in one click, kept by a secret in the browser.

There is no e-mail and no third-party login.  ``POST /api/players`` makes an
identity and answers its secret once; the browser keeps it (``localStorage``)
and sends it with every API call as the header ``X-Player-Secret``
(:data:`SECRET_HEADER`) and in a WebSocket ``join`` as ``"secret"``.  The server
stores only the secret's SHA-256 hash, as it does with seat tokens: a copy of the
database does not let anyone play as someone else.

For the other server modules (the queue, tournaments, analysis), one call tells
who is asking::

    from .players import player_of

    async def handler(request: Request) -> Response:
        player = player_of(request)          # Player(id, nickname, created) or None
        ...
    player = player_of(secret, players)      # a secret from a WebSocket message

``player_of`` is synchronous and cheap: a known secret is answered from memory
(an unknown one costs one indexed look-up).  ``request.app.state.players`` is the
server's :class:`Players`.  A seat taken by a signed-in person records the
player's id in the table's seats (``"player": id``, ``"nickname": ...``) and in
``tt_seatings``, from which the profile lists a player's matches.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection

from .store import Store, players, seatings, tables

__all__ = ["NICKNAME_MAX", "SECRET_HEADER", "Player", "PlayerError", "Players", "check_nickname",
           "player_of", "secret_hash"]

SECRET_HEADER = "X-Player-Secret"
"""The header in which a browser sends its player's secret on API calls."""
NICKNAME_MAX = 20
"""The longest nickname, in characters (a seat's name on a phone must fit)."""
_NICKNAME_PUNCTUATION = frozenset(" -_.'")
_RESERVED = frozenset({"bot", "random", "rules", "ismcts", "pimc", "oracle", "admin", "tricktaker"})
"""Names a person may not take: a bot level's name must mean that bot on a leaderboard."""
_CACHE = 10_000
"""Secrets kept in memory before the cache starts afresh."""


@dataclass(frozen=True)
class Player:
    """A signed-in person: ``id`` is public (the profile's address), the secret is not here."""

    id: str
    nickname: str
    created: float

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "nickname": self.nickname, "created": self.created}


class PlayerError(ValueError):
    """A refused identity request; ``code`` is the protocol's error code (docs/server.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def check_nickname(nickname: Any) -> str:
    """The nickname as stored (Unicode NFC, spaces trimmed), or :class:`PlayerError` saying why not.

    Letters of any alphabet (Aino, Pärttyli, Begoña, with their combining marks), digits, single spaces and
    ``- _ . '``; it starts with a letter or a digit; 2 to :data:`NICKNAME_MAX`
    characters.  Names of bot levels are reserved.
    """
    if not isinstance(nickname, str) or not nickname.strip():
        raise PlayerError("nickname_empty", "a nickname is needed")
    raw = unicodedata.normalize("NFC", nickname).strip()
    if any(c.isspace() and c != " " for c in raw):  # tabs, new lines: refused, not tidied
        raise PlayerError("nickname_chars", "a nickname's only spaces are plain spaces")
    name = " ".join(raw.split())
    if len(name) > NICKNAME_MAX or len(name.casefold()) > 2 * NICKNAME_MAX:  # "ﬃ" folds to "ffi"
        raise PlayerError("nickname_long", f"a nickname is at most {NICKNAME_MAX} characters")
    if len(name) < 2:
        raise PlayerError("nickname_short", "a nickname is at least 2 characters")
    allowed = (c.isalnum() or c in _NICKNAME_PUNCTUATION or _mark(c) for c in name)
    if not name[0].isalnum() or not all(allowed):
        raise PlayerError("nickname_chars",
                          "a nickname has letters, digits, spaces and - _ . ' only, and starts "
                          "with a letter or a digit")
    if name.casefold() in _RESERVED:
        raise PlayerError("nickname_taken", f"the nickname {name!r} is taken")
    return name


def _mark(c: str) -> bool:
    """A combining mark (a vowel sign of Devanagari, an accent NFC cannot join): part of a letter."""
    return unicodedata.category(c).startswith("M")


class Players:
    """The identities of one server, in its :class:`~.store.Store`'s database.

    ``signups=False`` (``tricktaker serve --no-signups``) refuses new identities;
    the existing ones still sign in.
    """

    def __init__(self, store: Store, signups: bool = True) -> None:
        self.store = store
        self.signups = signups
        self._by_hash: dict[str, Player] = {}

    def create(self, nickname: Any) -> tuple[Player, str]:
        """A new player and its secret (answered once: only its hash is kept)."""
        if not self.signups:
            raise PlayerError("signups_closed", "this server takes no new players; "
                                                "players who have one go on as before")
        name = check_nickname(nickname)
        secret = secrets.token_urlsafe(24)
        player = Player(id=secrets.token_urlsafe(6), nickname=name, created=time.time())
        try:
            with self.store.engine.begin() as conn:
                taken = conn.execute(select(players.c.id)
                                     .where(players.c.nickname_key == name.casefold())).first()
                if taken is not None:
                    raise PlayerError("nickname_taken", f"the nickname {name!r} is taken")
                conn.execute(insert(players).values(
                    id=player.id, nickname=name, nickname_key=name.casefold(),
                    secret_hash=secret_hash(secret), created=player.created))
        except IntegrityError:  # the same name at the same moment from somewhere else
            raise PlayerError("nickname_taken", f"the nickname {name!r} is taken") from None
        return player, secret

    def by_secret(self, secret: str) -> Player | None:
        """The player whose secret this is, or None (an unknown or malformed secret)."""
        if not secret or len(secret) > 200:
            return None
        digest = secret_hash(secret)
        found = self._by_hash.get(digest)
        if found is not None:
            return found
        with self.store.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.secret_hash == digest)).mappings().first()
        if row is None:
            return None
        player = Player(id=row["id"], nickname=row["nickname"], created=row["created"])
        if len(self._by_hash) >= _CACHE:
            self._by_hash.clear()
        self._by_hash[digest] = player
        return player

    def get(self, player_id: str) -> Player | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.id == player_id)).mappings().first()
        return None if row is None else Player(id=row["id"], nickname=row["nickname"], created=row["created"])

    def sit(self, table_id: str, seat: int, player_id: str) -> None:
        """Record that the player sits at this seat (their profile lists the match)."""
        with self.store.engine.begin() as conn:
            have = conn.execute(select(seatings.c.player_id).where(
                (seatings.c.table_id == table_id) & (seatings.c.seat == seat))).first()
            if have is None:
                conn.execute(insert(seatings).values(table_id=table_id, seat=seat, player_id=player_id,
                                                     at=time.time()))

    def matches(self, player_id: str, limit: int = 100) -> list[dict[str, Any]]:
        """The player's matches, newest first: table id, game, size, date, seat, status, seats
        (kind, bot, nickname), result and rating change once over."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                select(seatings, tables.c.game, tables.c.options, tables.c.seats, tables.c.status,
                       tables.c.created, tables.c.single_hand)
                .join(tables, tables.c.id == seatings.c.table_id)
                .where(seatings.c.player_id == player_id)
                .order_by(tables.c.created.desc()).limit(limit)).mappings().all()
        out = []
        for row in rows:
            seats = json.loads(row["seats"])
            out.append({
                "table": row["table_id"], "game": row["game"], "players": len(seats),
                "created": row["created"], "seat": row["seat"], "status": row["status"],
                "single_hand": bool(row["single_hand"]),
                "seats": [{"kind": s["kind"], "bot": s.get("bot"), "player": s.get("player"),
                           "nickname": s.get("nickname")} for s in seats],
                "result": row["result"], "rating_before": row["rating_before"],
                "rating_after": row["rating_after"],
            })
        return out


def player_of(source: HTTPConnection | str | None, players: Players | None = None) -> Player | None:
    """Who is asking: the player of a request's ``X-Player-Secret`` header (the server's
    :class:`Players` is ``source.app.state.players``), or of a secret given as text (then
    ``players`` is needed).  None for no secret, an unknown one, or a server without players."""
    if isinstance(source, HTTPConnection):
        if players is None:
            players = getattr(source.app.state, "players", None)
        source = source.headers.get(SECRET_HEADER)
    if not source or not isinstance(source, str):
        return None
    if players is None:
        raise TypeError("player_of(secret) needs the server's Players: player_of(secret, players)")
    return players.by_secret(source)
