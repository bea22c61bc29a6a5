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
import time
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .botpool import BotLimits, BotPool
from .club import Club, ClubError
from .collector import pace_collector
from .duplicate import Duplicate
from .leaderboard import BOT_RATINGS, MatchResult, leaderboard, player_ratings, rate_match, unrecorded_matches
from .players import SECRET_HEADER, Player, PlayerError, Players, player_of
from .queue import QUEUE_BOT, QUEUE_TURN_TIME, WAITS, Queues, Waiter
from .store import Store
from .tables import ABSENT_TIME, MAX_TURN_TIME, Table, TableError, Tables, game_catalogue

__all__ = ["MAX_MESSAGE", "create_app"]

log = logging.getLogger("tricktaker.server")

STATIC = Path(str(files("tricktaker.server") / "static"))
MAX_MESSAGE = 4096
"""Bytes in one client message; the longest real one (a give of four cards) is under 100."""
MAX_BODY = 16384
"""Bytes in a table request."""
RATE, BURST = 10.0, 30
"""Messages a second a client may send on average, and in a burst (token bucket)."""
FLOOD_STRIKES = 3
"""Floods a connection may cause before it is closed."""
LISTED_TABLES = 100
"""Open tables the lobby lists, newest first (a busy club server may hold many more)."""
TABLES_PER_MINUTE = 30
"""New tables one client address may create a minute (and in a burst)."""
SEND_QUEUE = 256
"""Messages waiting for a slow client before it is dropped (a dead browser must not hold memory)."""


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts of up to ``burst``."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


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


def http_error(code: str, message: str, status: int, **params: Any) -> JSONResponse:
    """A refused HTTP request: the English ``error`` for the API, and a ``code`` (with any
    ``params``) that the lobby tells in the person's language."""
    return JSONResponse({"error": message, "code": code, **params}, status)


async def json_body(request: Request) -> Any:
    """A request's JSON body, or the refusal to send back (too large, not JSON)."""
    body = await request.body()
    if len(body) > MAX_BODY:
        return http_error("too_large", f"a request is at most {MAX_BODY} bytes", 413)
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than any real request
        return http_error("malformed", "the body is not JSON (or is nested too deep)", 400)


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
    creators: dict[str, RateLimit] = {}
    """A token bucket per client address for creating tables, so no one fills the store."""

    def creator(connection: HTTPConnection) -> RateLimit | None:
        """The client address's bucket for new tables and queue joins (None: no limit)."""
        if not tables_per_minute:
            return None
        address = connection.client.host if connection.client else ""
        if len(creators) > 10_000:  # forget the quiet ones rather than grow without end
            creators.clear()
        return creators.setdefault(address, RateLimit(tables_per_minute / 60, tables_per_minute))

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

    def allow_creation(request: Request) -> Response | None:
        """A 429 for an address over its new tables a minute, else None (players, tournaments,
        rounds, duplicate sets and entries count as tables: each costs the store as much)."""
        bucket = creator(request)
        if bucket is None or bucket.allow():
            return None
        return http_error("rate_limited", f"at most {tables_per_minute} new tables a minute "
                          "from one address: try again soon", 429, limit=tables_per_minute)

    async def create_table(request: Request) -> Response:
        refused = allow_creation(request)
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
        await QueueSession(queues, websocket, RateLimit(rate, burst), creator(websocket)).run()

    async def list_queues(request: Request) -> Response:
        queues: Queues = request.app.state.queues
        return JSONResponse({"queues": queues.summary(), "waits": list(WAITS), "bot": queue_bot,
                             "turn_time": queue_turn_time})

    async def signed_in(request: Request) -> Player | None:
        """The player of the request's secret header; a secret that belongs to nobody is refused
        (:class:`PlayerError` ``unknown_player``), so a browser does not go on as a guest unawares."""
        if not request.headers.get(SECRET_HEADER):
            return None
        player = await asyncio.to_thread(player_of, request)
        if player is None:
            raise PlayerError("unknown_player", "this browser's player is not known here (a new "
                                                "database?): make a new one")
        return player

    async def create_player(request: Request) -> Response:
        refused = allow_creation(request)  # a player costs the store like a table
        if refused is not None:
            return refused
        payload = await json_body(request)
        if isinstance(payload, Response):
            return payload
        if not isinstance(payload, dict) or set(payload) - {"nickname"}:
            return http_error("malformed", 'a player request is {"nickname": "..."}', 400)
        players: Players = request.app.state.players
        try:
            player, secret = await asyncio.to_thread(players.create, payload.get("nickname"))
        except PlayerError as exc:
            status = {"signups_closed": 403, "nickname_taken": 409}.get(exc.code, 400)
            return http_error(exc.code, str(exc), status)
        return JSONResponse(player.public() | {"secret": secret}, 201)

    async def me(request: Request) -> Response:
        try:
            player = await signed_in(request)
        except PlayerError as exc:
            return http_error(exc.code, str(exc), 401)
        if player is None:
            return http_error("unknown_player", f"no player: send the secret in {SECRET_HEADER}", 401)
        return JSONResponse(player.public())

    async def player_info(request: Request) -> Response:
        players: Players = request.app.state.players
        player_id = request.path_params["id"]
        player = await asyncio.to_thread(players.get, player_id)
        if player is None:
            return http_error("no_player", f"no player {player_id!r}", 404)
        matches = await asyncio.to_thread(players.matches, player.id)
        rated = await asyncio.to_thread(player_ratings, players.store, player.id)
        return JSONResponse(player.public() | {"ratings": rated, "matches": matches})

    async def leaderboard_api(request: Request) -> Response:
        catalogue = {game["name"]: game["players"] for game in game_catalogue()["games"]}
        game = request.query_params.get("game", "tuppi")
        if game not in catalogue:
            return http_error("no_game", f"no game {game!r} (games: {', '.join(catalogue)})", 400)
        size_text = request.query_params.get("players", str(catalogue[game][0]))
        if not size_text.isdigit() or int(size_text) not in catalogue[game]:
            sizes = " or ".join(map(str, catalogue[game]))
            return http_error("bad_request", f"{game} is played by {sizes}", 400)
        players: Players = request.app.state.players
        board = await asyncio.to_thread(leaderboard, players.store, game, int(size_text))
        bots = {name: {"rating": r.rating, "rd": r.rd} for name, r in BOT_RATINGS.items()}
        return JSONResponse({"game": game, "players": int(size_text), "ratings": board, "bots": bots})

    async def leaderboard_page(request: Request) -> Response:
        return FileResponse(STATIC / "leaderboard.html")

    async def profile_page(request: Request) -> Response:
        players: Players = request.app.state.players
        found = await asyncio.to_thread(players.get, request.path_params["id"])
        return FileResponse(STATIC / "profile.html", status_code=200 if found else 404)

    # -- club tournaments (club.py): the director's secret travels in the X-Director header

    def club(request: Request) -> Club:
        manager: Club = request.app.state.club
        return manager

    async def club_page(request: Request) -> Response:
        found = True
        if "id" in request.path_params:
            try:
                await club(request).load(request.path_params["id"])
            except ClubError:
                found = False
        return FileResponse(STATIC / "club.html", status_code=200 if found else 404)

    async def club_call(request: Request, work: Any, status: int = 200) -> Response:
        """Run ``work(manager, id, secret, body)`` and answer with its result or the refusal."""
        body: Any = None
        if request.method == "POST" and (await request.body()).strip():  # starting a round has none
            body = await json_body(request)
            if isinstance(body, Response):
                return body
        try:
            answer = await work(club(request), request.path_params.get("id"),
                                request.headers.get("x-director"), body)
        except ClubError as exc:
            return http_error(exc.code, str(exc), exc.status)
        except TableError as exc:
            return http_error(exc.code, str(exc), 400)
        return JSONResponse(answer, status)

    async def create_tournament(request: Request) -> Response:
        refused = allow_creation(request)
        if refused is not None:
            return refused

        async def work(manager: Club, _id: None, _secret: None, body: Any) -> dict[str, Any]:
            tournament, secret = await manager.create(body)
            return {"id": tournament.id, "director": secret,
                    "link": f"/club/{tournament.id}#director={secret}", "page": f"/club/{tournament.id}"}
        return await club_call(request, work, 201)

    async def tournament(request: Request) -> Response:
        return await club_call(request, lambda m, i, s, _b: m.view(i, s))

    async def add_entrant(request: Request) -> Response:
        async def work(manager: Club, i: str, s: str | None, body: Any) -> dict[str, Any]:
            return {"number": await manager.add_entrant(i, s, body)}
        return await club_call(request, work, 201)

    async def remove_entrant(request: Request) -> Response:
        async def work(manager: Club, i: str, s: str | None, _body: Any) -> dict[str, Any]:
            await manager.remove_entrant(i, s, request.path_params["number"])
            return {}
        return await club_call(request, work)

    async def start_round(request: Request) -> Response:
        refused = allow_creation(request)  # a round creates tables: it counts as a new table
        if refused is not None:
            return refused

        async def work(manager: Club, i: str, s: str | None, _body: Any) -> dict[str, Any]:
            return {"round": await manager.start_round(i, s)}
        return await club_call(request, work, 201)

    async def table_tournament(request: Request) -> Response:
        return await club_call(request, lambda m, _i, _s, _b: m.of_table(request.path_params["table"]))

    async def forfeit(request: Request) -> Response:
        async def work(manager: Club, i: str, s: str | None, body: Any) -> dict[str, Any]:
            await manager.forfeit(i, s, body)
            return {}
        return await club_call(request, work)

    # -- duplicate tournaments (docs/server.md, *Duplicate tournaments*; :mod:`.duplicate`)

    async def duplicate_page(request: Request) -> Response:
        status = 200
        if "id" in request.path_params:  # the page says there is no such set; the status too
            try:
                await request.app.state.duplicate.find_set(request.path_params["id"])
            except TableError:
                status = 404
        return FileResponse(STATIC / "duplicate.html", status_code=status)

    async def duplicate_api(request: Request) -> Response:
        """The tournament API: every route's answer, or its refusal with a status."""
        duplicate: Duplicate = request.app.state.duplicate
        path, method = request.path_params, request.method
        try:
            if method == "GET" and "id" in path:
                entry, token = request.query_params.get("entry"), request.headers.get("x-entry-token")
                return JSONResponse(await duplicate.results(path["id"], entry, token))
            if method == "GET":
                return JSONResponse(await duplicate.overview())
            payload = await json_body(request)
            if isinstance(payload, Response):
                return payload
            if "entry" in path:
                token = payload.get("token") if isinstance(payload, dict) else None
                return JSONResponse(await duplicate.next_board(path["entry"], token))
            refused = allow_creation(request)  # a set or an entry costs the store like a table
            if refused is not None:
                return refused
            if "set" in path:
                player = await signed_in(request)  # a player enters as themselves
                return JSONResponse(await duplicate.enter(path["set"], payload, player), 201)
            return JSONResponse((await duplicate.create_set(payload)).public(), 201)
        except PlayerError as exc:
            return http_error(exc.code, str(exc), 401)
        except TableError as exc:
            status = {"no_set": 404, "no_entry": 404, "bad_token": 403, "entered": 409}.get(exc.code, 400)
            return http_error(exc.code, str(exc), status)

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
            Route("/duplicate", duplicate_page),
            Route("/duplicate/{id}", duplicate_page),
            Route("/api/duplicate", duplicate_api, methods=["GET"]),
            Route("/api/duplicate/sets", duplicate_api, methods=["POST"]),
            Route("/api/duplicate/sets/{id}", duplicate_api, methods=["GET"]),
            Route("/api/duplicate/sets/{set}/entries", duplicate_api, methods=["POST"]),
            Route("/api/duplicate/entries/{entry}/next", duplicate_api, methods=["POST"]),
            WebSocketRoute("/ws/queue", queue_socket),  # before /ws/{id}: no table id is this short
            Route("/api/players", create_player, methods=["POST"]),
            Route("/api/players/me", me),
            Route("/api/players/{id}", player_info),
            Route("/p/{id}", profile_page),
            Route("/api/leaderboard", leaderboard_api),
            Route("/leaderboard", leaderboard_page),
            WebSocketRoute("/ws/{id}", socket),
            Route("/club", club_page),
            Route("/club/{id}", club_page),
            Route("/api/club", create_tournament, methods=["POST"]),
            Route("/api/club/tables/{table}", table_tournament),
            Route("/api/club/{id}", tournament),
            Route("/api/club/{id}/entrants", add_entrant, methods=["POST"]),
            Route("/api/club/{id}/entrants/{number:int}", remove_entrant, methods=["DELETE"]),
            Route("/api/club/{id}/rounds", start_round, methods=["POST"]),
            Route("/api/club/{id}/forfeits", forfeit, methods=["POST"]),
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
