"""The web server: HTTP for the lobby and the client's files, a WebSocket per table seat.

The protocol is documented in ``docs/server.md``.  Game logic lives in
:mod:`.tables`; this module only moves JSON between the network and it, and
refuses what is malformed, oversized or too frequent before it gets there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import club_routes, duplicate_routes, player_routes
from .botpool import BotLimits, BotPool
from .club import Club
from .collector import pace_collector
from .duplicate import Duplicate
from .leaderboard import MatchResult, rate_match, unrecorded_matches
from .players import PlayerError, Players
from .queue import QUEUE_BOT, QUEUE_TURN_TIME, WAITS, Queues, Waiter
from .store import Store
from .tables import ABSENT_TIME, MAX_TURN_TIME, Table, TableError, Tables, game_catalogue
from .web import (
    BURST,
    RATE,
    STATIC,
    TABLES_PER_MINUTE,
    CreationLimit,
    RateLimit,
    http_error,
    json_body,
    signed_in,
)

__all__ = ["MAX_MESSAGE", "create_app"]

log = logging.getLogger("tricktaker.server")

MAX_MESSAGE = 4096
"""Bytes in one client message; the longest real one (a give of four cards) is under 100."""
FLOOD_STRIKES = 3
"""Floods a connection may cause before it is closed."""
LISTED_TABLES = 100
"""Open tables the lobby lists, newest first (a busy club server may hold many more)."""
SEND_QUEUE = 256
"""Messages waiting for a slow client before it is dropped (a dead browser must not hold memory)."""


class WsClient:
    """One WebSocket.  Messages go through a queue and a writer task, so a slow
    browser delays only itself, never the table's broadcast."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())

    async def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= SEND_QUEUE:
            raise ConnectionError("client is not reading")
        self.queue.put_nowait(json.dumps(message, separators=(",", ":")))

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)

    async def close(self, code: int = 1000) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 2)
            await self.websocket.close(code)


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def create_app(db: str = "tricktaker.db", workers: int = 2, bot_delay: float = 0.6,
               rate: float = RATE, burst: int = BURST, warm_up: bool = True,
               tables_per_minute: int = TABLES_PER_MINUTE, bot_time: float = 3.0,
               bot_worlds: int = BotLimits.worlds, bot_iterations: int = BotLimits.iterations,
               turn_time: float = 0.0, absent_time: float = ABSENT_TIME,
               pace_gc: bool = False, queue_bot: str = QUEUE_BOT,
               queue_turn_time: float = QUEUE_TURN_TIME, signups: bool = True) -> Starlette:
    """The ASGI app: tables stored in ``db`` (a path or URL), bots in ``workers`` processes,
    each connection limited to ``rate`` messages a second in bursts of ``burst``, each
    client address to ``tables_per_minute`` new tables (0: no limit).  A search bot
    thinks ``bot_time`` seconds at most, whatever its spec says, and a spec asking
    for more time, more than ``bot_worlds`` worlds or ``bot_iterations`` iterations
    is refused (:class:`~.botpool.BotLimits`).  ``turn_time`` is the turn time of a table
    that does not choose its own (a person who has not moved in it has the move played for
    them by ``rules``); ``absent_time`` is the grace of a person whose connection is gone
    before ``rules`` plays their turns (docs/server.md, *Absent players*).

    With ``warm_up`` the bot workers load (or, on a fresh install, compile) the
    solver at start, so the first ``pimc`` bot does not keep a table waiting
    for it; tests turn it off.  ``pace_gc`` keeps the garbage collector's pauses short
    (:mod:`.collector`; ``tricktaker serve`` turns it on: it acts on the whole process).

    *Play now* (:mod:`.queue`) fills empty seats with ``queue_bot`` (checked against the
    same caps; a bad spec is a ``ValueError`` here, not at the first table) and gives its
    tables ``queue_turn_time``.  ``signups=False`` refuses new player identities
    (``--no-signups``); existing ones go on."""
    limits = BotLimits(time=bot_time, worlds=bot_worlds, iterations=bot_iterations)
    queue_bot = Queues.check_bot(queue_bot, limits)
    creation = CreationLimit(tables_per_minute)

    def tables(connection: HTTPConnection) -> Tables:
        manager: Tables = connection.app.state.tables
        return manager

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = BotPool(workers, limits)
        if warm_up and workers > 0:
            pool.warm_up()
        store = Store(db)
        players = Players(store, signups=signups)
        manager = Tables(store, pool, bot_delay, turn_time=turn_time, absent_time=absent_time,
                         players=players)
        app.state.tables = manager
        app.state.creation = creation
        app.state.queues = Queues(manager, bot=queue_bot, turn_time=queue_turn_time)
        app.state.players = players
        app.state.club = Club(manager)

        async def record_result(table: Table) -> None:
            if table.stored.single_hand:  # a duplicate board: one hand, ranked by its set, not rated
                return
            await manager.in_db(rate_match, store, MatchResult.of(table))

        manager.on_over.append(record_result)
        app.state.duplicate = duplicate = Duplicate(manager)  # before the start: it hears of boards ending
        await manager.start()
        await duplicate.start()
        for table_id in await manager.in_db(unrecorded_matches, store):  # stopped before the ratings
            with contextlib.suppress(TableError):
                await record_result(await manager.find(table_id, keep=False))
        pacer = asyncio.get_running_loop().create_task(pace_collector()) if pace_gc else None
        yield
        if pacer is not None:
            pacer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pacer
        await app.state.queues.close()
        await manager.close()

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def table_page(request: Request) -> Response:
        # the same page either way: for a missing table it says so and offers the lobby
        # (the answer to its join), and the status tells link checkers and crawlers
        found = await tables(request).exists(request.path_params["id"])
        return FileResponse(STATIC / "table.html", status_code=200 if found else 404)

    async def games(request: Request) -> Response:
        # the lobby's turn time starts at the server's default (--turn-time)
        return JSONResponse(game_catalogue() | {"turn_time": turn_time, "max_turn_time": MAX_TURN_TIME})

    async def list_tables(request: Request) -> Response:
        # not the boards of duplicate tournaments: watching one would show it to an entrant to come
        playing = [t for t in tables(request).tables.values()
                   if not t.state.is_over() and not t.stored.single_hand]
        playing.sort(key=lambda t: t.stored.created, reverse=True)
        return JSONResponse({"tables": [t.info() for t in playing[:LISTED_TABLES]],
                             "more": max(0, len(playing) - LISTED_TABLES)})

    async def create_table(request: Request) -> Response:
        refused = creation.refuse(request)
        if refused is not None:
            return refused
        payload = await json_body(request)
        if isinstance(payload, Response):
            return payload
        try:
            player = await signed_in(request)
        except PlayerError as exc:
            return http_error(exc.code, str(exc), 401)
        try:
            table, tokens = await tables(request).create(payload, player)
        except TableError as exc:
            return http_error(exc.code, str(exc), 400)
        seats: list[dict[str, Any]] = []
        for seat, (info, token) in enumerate(zip(table.stored.seats, tokens, strict=True)):
            entry: dict[str, Any] = {"seat": seat, "kind": info["kind"]}
            if token is not None:
                entry |= {"token": token, "link": f"/t/{table.id}#token={token}"}
            else:
                entry["bot"] = info["bot"]
            seats.append(entry)
        return JSONResponse({"id": table.id, "seats": seats, "spectate": f"/t/{table.id}"}, 201)

    async def table_info(request: Request) -> Response:
        try:
            return JSONResponse((await tables(request).find(request.path_params["id"], keep=False)).info())
        except TableError as exc:
            return http_error(exc.code, str(exc), 404)

    async def record(request: Request) -> Response:
        try:
            text = await tables(request).finished_record(request.path_params["id"])
        except TableError as exc:
            return http_error(exc.code, str(exc), 404 if exc.code == "no_table" else 403)
        return Response(text, media_type="application/json")

    async def queue_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        queues: Queues = websocket.app.state.queues
        await QueueSession(queues, websocket, RateLimit(rate, burst), creation.bucket(websocket)).run()

    async def list_queues(request: Request) -> Response:
        queues: Queues = request.app.state.queues
        return JSONResponse({"queues": queues.summary(), "waits": list(WAITS), "bot": queue_bot,
                             "turn_time": queue_turn_time})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        await Session(tables(websocket), websocket, RateLimit(rate, burst)).run()

    return Starlette(
        routes=[
            Route("/", lobby),
            Route("/t/{id}", table_page),
            Route("/api/games", games),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{id}", table_info),
            Route("/api/tables/{id}/record", record),
            Route("/api/queues", list_queues),
            WebSocketRoute("/ws/queue", queue_socket),  # before /ws/{id}: no table id is this short
            WebSocketRoute("/ws/{id}", socket),
            *player_routes.ROUTES,
            *club_routes.ROUTES,
            *duplicate_routes.ROUTES,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


class Session:
    """One WebSocket connection to one table: join first, then acts, whys and pings."""

    def __init__(self, tables: Tables, websocket: WebSocket, limit: RateLimit) -> None:
        self.tables = tables
        self.websocket = websocket
        self.client = WsClient(websocket)
        self.limit = limit
        self.strikes = 0
        self.table: Table | None = None
        self.seat: int | None = None
        self.hints: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        try:
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not self.limit.allow():
                    self.strikes += 1
                    await self.client.send(error("flood", "too many messages: slow down"))
                    if self.strikes >= FLOOD_STRIKES:
                        await self.client.close(1008)
                        break
                    continue
                text = message.get("text")
                if text is None:
                    await self.client.send(error("malformed", "messages are JSON text, not binary"))
                    continue
                if len(text) > MAX_MESSAGE:
                    await self.client.send(error("too_large", f"a message is at most {MAX_MESSAGE} bytes"))
                    continue
                try:
                    await self.handle(text)
                except ConnectionError:
                    raise
                except Exception:  # a bug must cost one answer, not the connection
                    log.exception("message at table %s failed", self.table.id if self.table else "-")
                    await self.client.send(error("internal", "the server could not handle that message"))
        except (WebSocketDisconnect, ConnectionError):
            pass
        finally:
            await self.closed()
            await self.client.close()

    async def closed(self) -> None:
        """The connection is gone: leave the table."""
        if self.table is not None:
            await self.tables.leave(self.client, self.table)

    async def handle(self, text: str) -> None:
        """Parse one message and answer it: a ``pong``, what :meth:`dispatch` does, or the error."""
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            # RecursionError: "[" * 1500 fits in 4 KiB and is deeper than the parser's
            # stack; left uncaught it closed the connection without an answer
            await self.client.send(error("malformed", "a message is one JSON object, not nested deeply"))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.client.send(error("malformed", "a message is a JSON object with a 'type'"))
            return
        try:
            if message["type"] == "ping":
                await self.client.send({"type": "pong"})
            else:
                await self.dispatch(message["type"], message)
        except TableError as exc:
            reply = error(exc.code, str(exc))
            if exc.code == "illegal":
                reply |= {"reason": exc.reason, "params": exc.params}
            await self.client.send(reply)

    async def dispatch(self, kind: str, message: dict[str, Any]) -> None:
        """A table's messages: join first, then act, why, hint or rematch."""
        if kind == "join":
            await self.join(message)
        elif self.table is None:
            raise TableError("not_joined", "send a join message first")
        elif kind == "act":
            await self.tables.act(self.table, self.seat, message.get("action"), message.get("seq"))
        elif kind == "rematch":
            await self.tables.rematch(self.table, self.seat)
        elif kind == "hint":  # a search of seconds: answered in the background, moves go on
            task = asyncio.get_running_loop().create_task(self.hint())
            self.hints.add(task)  # held until done: the loop keeps only a weak reference
            task.add_done_callback(self.hints.discard)
        elif kind == "why":
            action = message.get("action")
            reason, code, params = await self.tables.why(self.table, self.seat, action)
            await self.client.send({"type": "why", "action": action, "message": reason,
                                    "code": code, "params": params})
        else:
            raise TableError("malformed",
                             f"unknown message type {kind!r} (join, act, why, hint, rematch, ping)")

    async def hint(self) -> None:
        """Answer a ``hint`` message (server/review.py): the hint, or the error that refused it."""
        assert self.table is not None
        try:
            await self.client.send(await self.tables.hint(self.table, self.seat))
        except TableError as exc:
            await self.client.send(error(exc.code, str(exc)))
        except Exception:
            log.exception("a hint at table %s failed", self.table.id)
            with contextlib.suppress(Exception):
                await self.client.send(error("internal", "the server could not give a hint"))

    async def join(self, message: dict[str, Any]) -> None:
        if self.table is not None:
            raise TableError("malformed", "already joined")
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise TableError("malformed", "a token is text")
        secret = message.get("secret")
        if secret is not None and not isinstance(secret, str):
            raise TableError("malformed", "a player's secret is text")
        player = await self.tables.player(secret)  # an unknown one joins as before, unrecorded
        table = await self.tables.find(self.websocket.path_params["id"])
        self.seat = await self.tables.join(self.client, table, token, player)
        self.table = table


class QueueSession(Session):
    """One WebSocket of a person waiting in a *Play now* queue (:mod:`.queue`): a join,
    then pings or a leave, until they are seated or go.  Flood and size limits as a table's."""

    def __init__(self, queues: Queues, websocket: WebSocket, limit: RateLimit,
                 joins: RateLimit | None) -> None:
        super().__init__(queues.tables, websocket, limit)
        self.queues = queues
        self.joins = joins
        self.waiter: Waiter | None = None

    async def dispatch(self, kind: str, message: dict[str, Any]) -> None:
        """A waiting person's messages: join, then leave."""
        if kind == "join":
            if self.waiter is not None and not self.waiter.seated:
                raise TableError("malformed", "already in a queue: leave it first")
            if self.joins is not None and not self.joins.allow():
                raise TableError("rate_limited", "too many joins from one address: try again soon")
            address = self.websocket.client.host if self.websocket.client else ""
            self.waiter = await self.queues.join(self.client, message, address)
        elif kind == "leave":
            if self.waiter is not None:
                await self.queues.leave(self.waiter)
                self.waiter = None
            await self.client.send({"type": "left"})
        else:
            raise TableError("malformed", f"unknown message type {kind!r} (join, leave, ping)")

    async def closed(self) -> None:
        """The page is gone: so is its place in the queue."""
        if self.waiter is not None:
            await self.queues.leave(self.waiter)
