"""Play now: a queue per game, table size and preset that seats waiting people together.

A person picks a game, its table size (and preset) and the longest they will
wait, and joins.  Whenever as many people wait in one queue as the table has
seats, they are seated together at once.  When the first of the waiting
people's chosen waits runs out, the table is made with everyone waiting and
bots in the empty seats.  Each person gets their seat's token over the
connection they waited on (``/ws/queue``, docs/server.md, *Play now*).

Like :mod:`.tables`, this module knows nothing of HTTP: a waiting person is any
:class:`~.tables.Client`.  The queues live in memory only (a restart empties
them; the pages join again by themselves); the tables they make are made by
:meth:`.Tables.create`, stored and resumed as any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .. import new_game
from ..engine import Game, OptionError
from .botpool import BotLimits, check_spec
from .players import Player
from .tables import Client, TableError, Tables

__all__ = ["MAX_WAIT", "QUEUE_BOT", "QUEUE_TURN_TIME", "WAITS", "Queues", "Waiter"]

log = logging.getLogger("tricktaker.server")

QUEUE_TURN_TIME = 45.0
"""Seconds a person has for a move at a table the queue made: strangers wait on each other,
so a public table's turn time (when it runs out, ``rules`` plays the move)."""
QUEUE_BOT = "rules"
"""The bot of the empty seats, unless the operator names another (``--queue-bot``)."""
WAITS = (0, 15, 30, 60, 120)
"""The waits the lobby offers, in seconds (0: bots at once)."""
MAX_WAIT = 300.0
"""The longest wait a person may choose, in seconds (through the protocol)."""
PER_ADDRESS = 16
"""People waiting from one client address (a club behind one router has several), so one
client cannot hold the places of every queue.  The queues are bounded anyway: one per game,
table size and preset, each holding one person fewer than its table seats (a full table is
seated at once)."""
BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""A browser's own random id (kept in its localStorage): one place in the queues per browser."""

@dataclass(eq=False)
class Waiter:
    """One person waiting: their connection, their choices, and when their wait runs out."""

    client: Client
    browser: str
    address: str
    wait: float
    player: Player | None = None
    """The signed-in person's player (:mod:`.players`): it goes with them into their seat."""
    joined: float = field(default_factory=time.monotonic)
    key: tuple[str, int, str | None] = ("", 0, None)
    seated: bool = False

    @property
    def deadline(self) -> float:
        return self.joined + self.wait


@dataclass(eq=False)
class Queue:
    """The people waiting for one game, table size and preset, in the order they came."""

    key: tuple[str, int, str | None]
    game: Game
    waiting: list[Waiter] = field(default_factory=list)
    timer: asyncio.Task[None] | None = None
    """Makes the table when the first wait runs out."""


def seat_order(game: Game) -> list[int]:
    """The seats people take, in order: spread over the sides, so that two people at a
    four-seat partnership table play against each other (each with a bot partner) rather
    than together against bots; in a game without partners, the first seats."""
    seats = range(game.num_players)
    rank = {seat: sum(1 for other in range(seat) if game.side_of(other) == game.side_of(seat))
            for seat in seats}
    return sorted(seats, key=lambda seat: (rank[seat], game.side_of(seat)))


class Queues:
    """Every queue of one server: who waits where, and the tables made for them.

    ``bot`` sits in the empty seats (checked against the pool's caps, as a lobby's
    bot spec is); ``turn_time`` is the turn time of the tables made.
    """

    def __init__(self, tables: Tables, bot: str = QUEUE_BOT, turn_time: float = QUEUE_TURN_TIME,
                 per_address: int = PER_ADDRESS) -> None:
        self.tables = tables
        self.bot = bot
        self.turn_time = turn_time
        self.per_address = per_address
        self.queues: dict[tuple[str, int, str | None], Queue] = {}
        self.browsers: dict[str, Waiter] = {}
        """Everyone waiting, by browser id: a second join from the same browser is refused."""
        self.addresses: dict[str, int] = {}

    @staticmethod
    def check_bot(bot: str, limits: BotLimits) -> str:
        """The operator's bot for the empty seats, checked for every game (else ``ValueError``)."""
        from .. import GAMES

        for name in GAMES:
            bot = check_spec(bot, name, limits)
        return bot

    # -- joining and leaving ---------------------------------------------------------

    def _game(self, message: dict[str, Any]) -> Game:
        """The game a join message asks for (its name, table size and preset), or a refusal."""
        name, players, preset = message.get("game"), message.get("players"), message.get("preset")
        if not isinstance(name, str):
            raise TableError("malformed", "a queue join names its game")
        if preset is not None and not isinstance(preset, str):
            raise TableError("malformed", "preset must be a name or null")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise TableError("malformed", "players must be a number of players")
        try:
            game = new_game(name, preset=preset)
            if players is not None and players != game.num_players:
                if not any(option.name == "players" for option in game.OPTIONS):
                    raise OptionError(f"{game.title} is played by {game.num_players}")
                if preset is not None and "players" in type(game).PRESETS.get(preset, {}):
                    raise OptionError(f"the preset {preset!r} is played by {game.num_players}")
                game = new_game(name, preset=preset, players=players)
        except (OptionError, TypeError, ValueError) as exc:
            raise TableError("bad_request", str(exc)) from None
        return game

    async def join(self, client: Client, message: dict[str, Any], address: str) -> Waiter:
        """Put the person on ``client`` in the queue the message asks for (docs/server.md):
        ``game``, ``players``, ``preset``, ``wait`` (seconds), ``browser`` (its id) and, for
        a signed-in person, their player's ``secret`` (an unknown one: they wait as a guest,
        as at a table's join).  Raises :class:`TableError` for a refused join; nothing changes
        then.  One place per browser and per player: nobody sits against themselves."""
        game = self._game(message)
        wait = message.get("wait")
        if not isinstance(wait, (int, float)) or isinstance(wait, bool) or not 0 <= wait <= MAX_WAIT:
            raise TableError("bad_request", f"wait must be seconds from 0 to {MAX_WAIT:g}")
        browser = message.get("browser")
        if not isinstance(browser, str) or not BROWSER_ID.fullmatch(browser):
            raise TableError("malformed",
                             "a queue join carries its browser's id (8 to 64 letters, digits, - or _)")
        player = await self.tables.player(message.get("secret"))
        # the checks after the look-up's await, so that no join in between slips past them
        if browser in self.browsers:
            raise TableError("already_queued", "this browser is already waiting in a queue")
        if self.addresses.get(address, 0) >= self.per_address:
            raise TableError("queue_full", "too many people are waiting from this address: try again soon")
        if player is not None and any(w.player is not None and w.player.id == player.id
                                      for w in self.browsers.values()):
            raise TableError("already_queued", "this player is already waiting in a queue")
        key = (game.name, game.num_players, game.preset)
        waiter = Waiter(client, browser, address, float(wait), player, key=key)
        queue = self.queues.get(key)
        if queue is None:
            queue = self.queues[key] = Queue(key, game)
        queue.waiting.append(waiter)
        self.browsers[browser] = waiter
        self.addresses[address] = self.addresses.get(address, 0) + 1
        await self._update(queue)
        return waiter

    async def leave(self, waiter: Waiter) -> None:
        """Take a person out of their queue (they left, or their page closed)."""
        queue = self.queues.get(waiter.key)
        if waiter.seated or queue is None or waiter not in queue.waiting:
            return
        queue.waiting.remove(waiter)
        self._forget(waiter)
        await self._update(queue)

    def _forget(self, waiter: Waiter) -> None:
        self.browsers.pop(waiter.browser, None)
        left = self.addresses.get(waiter.address, 0) - 1
        if left > 0:
            self.addresses[waiter.address] = left
        else:
            self.addresses.pop(waiter.address, None)

    def summary(self) -> list[dict[str, Any]]:
        """How many wait in each queue (the lobby shows it: someone may be waiting for you)."""
        return [{"game": game, "players": players, "preset": preset, "waiting": len(queue.waiting)}
                for (game, players, preset), queue in sorted(self.queues.items(), key=lambda kv: str(kv[0]))
                if queue.waiting]

    async def close(self) -> None:
        for queue in self.queues.values():
            if queue.timer is not None:
                queue.timer.cancel()

    # -- seating ---------------------------------------------------------------------

    async def _update(self, queue: Queue) -> None:
        """After a change: seat a full table at once; else tell everyone waiting how many
        wait, and time the first wait to run out."""
        players = queue.game.num_players
        while len(queue.waiting) >= players:
            await self._seat(queue, queue.waiting[:players])
        if queue.timer is not None:
            queue.timer.cancel()
            queue.timer = None
        if not queue.waiting:
            if self.queues.get(queue.key) is queue:
                del self.queues[queue.key]
            return
        first = min(waiter.deadline for waiter in queue.waiting)
        queue.timer = asyncio.get_running_loop().create_task(self._run_out(queue, first))
        bots_in = round(max(0.0, first - time.monotonic()), 1)
        message = {"type": "queued", "game": queue.game.name, "players": players,
                   "preset": queue.game.preset, "waiting": len(queue.waiting), "bots_in": bots_in}
        for waiter in list(queue.waiting):
            await self._tell(waiter, message | {"wait": waiter.wait})

    async def _run_out(self, queue: Queue, deadline: float) -> None:
        """The first wait ran out: everyone waiting sits down now, with bots in the other seats."""
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            queue.timer = None  # so that _update does not cancel this very task
            await self._seat(queue, list(queue.waiting))
            await self._update(queue)
        except Exception:  # a background task: log, never raise into the loop
            log.exception("the queue %s could not seat its people", queue.key)

    async def _seat(self, queue: Queue, people: list[Waiter]) -> None:
        """Make a table for ``people`` (bots in the other seats) and hand each their seat."""
        if not people:
            return
        for waiter in people:
            queue.waiting.remove(waiter)
            waiter.seated = True
            self._forget(waiter)
        game = queue.game
        order = seat_order(game)
        shuffled = list(people)
        random.SystemRandom().shuffle(shuffled)  # who arrived first does not decide who deals
        at: dict[int, Waiter] = dict(zip(order, shuffled, strict=False))
        seats: list[dict[str, Any]] = [
            {"kind": "human"} if seat in at else {"kind": "bot", "bot": self.bot}
            for seat in range(game.num_players)]
        options = {"players": game.num_players} if any(o.name == "players" for o in game.OPTIONS) else {}
        request = {"game": game.name, "preset": game.preset, "options": options,
                   "seats": seats, "turn_time": self.turn_time}
        try:
            table, tokens = await self.tables.create(request)
        except Exception as exc:  # the store failed: tell them, and nobody is lost
            log.exception("a table for the queue %s could not be made", queue.key)
            for waiter in people:
                await self._tell(waiter, {"type": "error", "code": "storage",
                                          "message": f"the table could not be made: {exc}"})
            return
        for seat, waiter in at.items():
            if waiter.player is not None:  # so the match is rated (:mod:`.leaderboard`)
                try:
                    await self.tables.claim(table, seat, waiter.player)
                except Exception:  # the seat is theirs anyway: their join records it again
                    log.exception("the player of seat %d at table %s was not recorded", seat, table.id)
        listed = [{"seat": seat, "kind": info["kind"], "bot": info.get("bot"),
                   "nickname": info.get("nickname")} for seat, info in enumerate(table.stored.seats)]
        for seat, waiter in at.items():
            token = tokens[seat]
            await self._tell(waiter, {"type": "seated", "id": table.id, "seat": seat, "token": token,
                                      "link": f"/t/{table.id}#token={token}", "seats": listed,
                                      "spectate": f"/t/{table.id}"})

    @staticmethod
    async def _tell(waiter: Waiter, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a page that is gone: it left, or leaves soon
            await waiter.client.send(message)
