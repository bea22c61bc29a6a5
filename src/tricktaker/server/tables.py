"""The tables: the only true game states, who sits where, and what each client is told.

This module knows nothing of HTTP: a client is anything with an async
``send(message)``.  Every change goes through :meth:`Tables.act`, which checks
the action with the engine, stores it, and only then tells the clients; every
message is built for its receiver from ``state.observation(seat)``, so a client
learns exactly what its seat may know.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .. import GAMES, new_game
from ..bots import BOTS
from ..cards import Deck
from ..engine import Game, IllegalActionError, OptionError, State
from .botpool import BotPool, check_spec, seatable
from .players import Player, Players
from .review import HINT_BOT, Reviewer
from .store import Store, StoredTable

__all__ = ["Client", "Table", "TableError", "Tables"]

log = logging.getLogger("tricktaker.server")
T = TypeVar("T")
Row = tuple[str, int, int, str, bool]
"""A stored action: table id, position, seat, canonical text, whether it ends the match."""
LogItem = tuple[str, Any, Any, Any]
"""A line of a table's story: ``("event", seat, text, each seat's view of the bids or None)``,
``("trick", winner, None, None)`` or ``("hand", number, dealer, None)``."""
ABSENT_TIME = 10.0
"""The grace of a person whose connection is gone (after they joined): once it is over, the
``rules`` bot plays each of their turns until they come back.  With a turn time, also the
most a person who is not connected has for a turn."""
MAX_TURN_TIME = 600.0
"""The longest turn time a table may ask for, in seconds."""
RESTART_GRACE = 20.0
"""Seconds after a restart before anyone at a resumed table counts as absent (a page retries
with a backoff of up to 8 s)."""
TIMEOUT_BOT = "rules"
"""Plays a person's move when their time runs out."""
HISTORY_LINES = 200
"""Lines of the story sent to a page that joins (its events panel keeps as many)."""


class Client(Protocol):
    """A connection to one browser (or a test): it only needs to receive messages."""

    async def send(self, message: dict[str, Any]) -> None: ...


class TableError(ValueError):
    """A refused request; ``code`` is the protocol's error code (docs/server.md).

    A refused move (``illegal``) also carries the engine's own ``reason`` code and its
    ``params`` (:class:`~tricktaker.engine.IllegalActionError`), so a page translates it.
    """

    def __init__(self, code: str, message: str, reason: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.params = params or {}


@contextlib.contextmanager
def _logged(table: Table, seat: int, what: str) -> Iterator[None]:
    """A move made for ``seat`` in the background (a bot's, a timed-out person's): one that
    became stale is dropped quietly, any other failure is logged, never raised into the loop.
    (``asyncio.CancelledError`` is not an ``Exception``: a cancelled task still ends.)"""
    try:
        yield
    except TableError as exc:
        if exc.code != "stale":
            log.error("%s at table %s seat %d: %s", what, table.id, seat, exc)
    except Exception:
        log.exception("%s at table %s seat %d failed", what, table.id, seat)


def _same(message: dict[str, Any]) -> Callable[[int | None], dict[str, Any]]:
    """A message that every seat gets alike (for :meth:`Tables._send_all`)."""
    return lambda _seat: message


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a copy of the database does not let anyone take a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Table:
    """One table: the state rebuilt from its stored actions, and its connected clients."""

    stored: StoredTable
    game: Game
    state: State
    clients: dict[Client, int | None] = field(default_factory=dict)
    """Each connected client and its seat (``None`` for a spectator)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    log: list[LogItem] = field(default_factory=list)
    """What happened, in the words of the page's events panel: actions (their full text,
    filtered per receiver by :meth:`history_message`), tricks won, new hands."""
    hands: list[tuple[int, list[Any]]] = field(default_factory=list)
    """Each finished hand's number (from 1, as the page labels it) and its ``previous_hand``
    as each seat saw it when it ended (index ``players``: the spectators'), so a late
    joiner gets exactly what it would have seen."""
    mark: tuple[int, int] = (0, 0)
    """The public hand number and count of tricks played, before the next action."""
    timer: asyncio.Task[None] | None = None
    """Plays for a person whose turn time runs out (``Tables.turn_time``)."""
    grace_until: float = 0.0
    """Until then (``time.monotonic``) nobody at a table resumed by a restart counts as
    absent: their browsers reconnect by themselves, and a restart is not their absence."""
    gone: dict[int, float] = field(default_factory=dict)
    """Each person seat whose connection is gone after it joined, and since when
    (``time.monotonic``): after :data:`ABSENT_TIME` a bot plays their turns until they
    come back.  A seat never joined is not in it: friends open their links in their time."""
    deadline: tuple[int, int, float, bool] | None = None
    """The person's turn being timed: seat, seq, when it runs out (``time.monotonic``), and
    whether they were connected when it was set."""
    reviews: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Each finished hand's ``review`` message by its number (from 1), once computed
    (:mod:`.review`); a restart forgets them and they are computed again."""
    review_task: asyncio.Task[None] | None = None
    hint: tuple[tuple[int, int], asyncio.Task[str]] | None = None
    """The hint being computed or last given: (seq, seat) and the bot's answer."""

    @classmethod
    def rebuild(cls, stored: StoredTable) -> Table:
        game = new_game(stored.game, preset=stored.preset, **stored.options)
        start = game.new_hand if stored.single_hand else game.new_match
        table = cls(stored, game, start(seed=stored.seed, dealer=stored.dealer))
        table.mark = table._public_mark(table.state.observation(None))
        for seat, text in stored.actions:
            table.state.apply(text, seat=seat)
            table.note(seat, text)
        return table

    @staticmethod
    def _public_mark(public: dict[str, Any]) -> tuple[int, int]:
        return int(public["hand_number"]), len(public.get("tricks") or [])

    def note(self, actor: int, text: str) -> None:
        """Add the action just applied (and the trick or hand it ended) to the table's story.

        Only public facts are kept here, plus each seat's own view of a hand's
        result; what a seat may read of another's private action is decided when
        the story is sent.  An observation costs microseconds, so this runs for
        every action and the story never has to be replayed.  The story serves
        the page; a failure here is logged and never stops the play (or a replay).
        """
        try:
            self._note(actor, text)
        except Exception:
            log.exception("table %s: the story of action %r could not be told", self.id, text)

    def _note(self, actor: int, text: str) -> None:
        public = self.state.observation(None)
        hand_before, tricks_before = self.mark
        players = self.game.num_players
        bids = None
        if text.startswith("bid") and "bids" in public:  # Tuppi's page tells a bid by what the seat saw
            bids = [self.state.observation(seat).get("bids") for seat in range(players)] + [public["bids"]]
        self.log.append(("event", actor, text, bids))
        ended = self.state.is_over() or int(public["hand_number"]) != hand_before
        if ended:
            previous = public.get("previous_hand") or {}
            final = previous.get("final_trick")
            if final:
                self.log.append(("trick", final["winner"], None, None))
            views = [self.state.observation(seat).get("previous_hand") for seat in range(players)]
            self.hands.append((hand_before + 1, [*views, public.get("previous_hand")]))
            if not self.state.is_over():
                self.log.append(("hand", int(public["hand_number"]) + 1, public.get("dealer"), None))
        else:
            tricks = public.get("tricks") or []
            if len(tricks) > tricks_before:
                self.log.append(("trick", tricks[-1]["winner"], None, None))
        self.mark = self._public_mark(public)
        if len(self.log) > 2 * HISTORY_LINES:  # only the newest lines are ever sent
            del self.log[:-HISTORY_LINES]

    def event_for(self, seat: int | None, actor: int, text: str) -> dict[str, Any]:
        """An action as ``seat`` may read it: another seat's private action is its kind and
        its number of cards only (public anyway: the hand sizes show it)."""
        kind, *args = text.split(" ")
        if kind in self.game.PRIVATE_ACTIONS and seat != actor:
            return {"seat": actor, "action": kind, "cards": len(args)}
        return {"seat": actor, "action": text}

    def history_message(self, seat: int | None) -> dict[str, Any]:
        """The ``history`` message: the newest lines of the story and every finished hand's
        result, as ``seat`` saw them (``None``: a spectator), for a page that joins late."""
        index = self.game.num_players if seat is None else seat
        lines: list[dict[str, Any]] = []
        for kind, first, second, bids in self.log[-HISTORY_LINES:]:
            if kind == "event":
                assert isinstance(first, int) and isinstance(second, str)
                line = self.event_for(seat, first, second)
                if bids is not None:
                    line["bids"] = bids[index]
                lines.append(line)
            elif kind == "trick":
                lines.append({"trick": first})
            else:
                lines.append({"hand": first, "dealer": second})
        hands = [{"number": number, "result": views[index]} for number, views in self.hands]
        return {"type": "history", "lines": lines, "hands": hands}

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def seq(self) -> int:
        """Actions played at this table: the position of the next one."""
        return len(self.stored.actions)

    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat, info in enumerate(self.stored.seats):
            if info.get("token_hash") and secrets.compare_digest(info["token_hash"], digest):
                return seat
        return None

    def connected(self) -> list[bool]:
        """Per seat: a bot, or a person with a connection open."""
        people = {seat for seat in self.clients.values() if seat is not None}
        return [info["kind"] == "bot" or seat in people for seat, info in enumerate(self.stored.seats)]

    def info(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby list, the welcome message)."""
        game = self.game
        state = self.state
        connected = self.connected()
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "players": game.num_players,
            "partnerships": game.partnerships,
            "preset": game.preset,
            "options": dict(game.options),
            "deck": deck_style(game.deck),
            "seats": [{"seat": seat, "kind": info["kind"], "bot": info.get("bot"),
                       "player": info.get("player"), "nickname": info.get("nickname"),
                       "connected": connected[seat]} for seat, info in enumerate(self.stored.seats)],
            "status": "over" if state.is_over() else "playing",
            "hand_number": state.hand_number,
            "scores": list(state.scores),
            "seq": self.seq,
            "turn_time": self.stored.turn_time or 0.0,
            "single_hand": self.stored.single_hand,
            "home": self.stored.home,
            "practice": self.stored.practice,
        }

    def presence_message(self, absent_time: float) -> dict[str, Any]:
        """Who is connected, and for each seat that is away (gone after it joined) the seconds
        until a bot plays for it (0: a bot plays its turns now), so everyone sees it; and each
        seat's signed-in player, so a seat taken since a page's welcome shows its nickname."""
        now = time.monotonic()
        away: list[float | None] = [None] * len(self.stored.seats)
        for seat, since in self.gone.items():
            away[seat] = round(max(0.0, since + absent_time - now), 1)
        players = [{"id": info["player"], "nickname": info.get("nickname")} if info.get("player") else None
                   for info in self.stored.seats]
        return {"type": "presence", "connected": self.connected(), "away": away, "players": players}

    def state_message(self, seat: int | None, starting: bool = False) -> dict[str, Any]:
        """The ``state`` message for one seat (``None``: a spectator).

        ``thinking`` names the bot whose turn it is, so the page can say so
        rather than only "waiting"; ``starting`` says that bot waits for the
        worker processes to start up (the first search after a server start).
        """
        state = self.state
        to_act = seat is not None and state.current_player == seat
        legal = [a.text for a in state.legal_actions()] if to_act else []
        event = None
        if self.stored.actions:
            actor, text = self.stored.actions[-1]
            event = self.event_for(seat, actor, text)
        mover = state.current_player
        thinking = None
        if mover is not None and self.stored.seats[mover]["kind"] == "bot":
            thinking = {"seat": mover, "starting": starting}
        timer = None
        if self.deadline is not None and self.deadline[:2] == (mover, self.seq):
            timer = {"seat": mover, "seconds": round(max(0.0, self.deadline[2] - time.monotonic()), 1),
                     "away": not self.deadline[3]}
        return {"type": "state", "seq": self.seq, "observation": state.observation(seat),
                "legal": legal, "event": event, "over": state.is_over(), "thinking": thinking,
                "timer": timer}


def deck_style(deck: Deck) -> str:
    """How the client draws the cards: the Spanish deck has suits of its own."""
    return "spanish" if deck.name.startswith("spanish") else "french"


def _preset_sizes(name: str, preset: str, sizes: list[int]) -> list[int]:
    """The table sizes a preset can be played at (Tute cabrero: three to six; the other Tute
    presets two to four), found by asking the game, so the lobby offers no size it refuses."""
    allowed = []
    for size in sizes:
        try:
            new_game(name, preset=preset, players=size) if len(sizes) > 1 else new_game(name, preset=preset)
        except OptionError:
            continue
        allowed.append(size)
    return allowed


def game_catalogue() -> dict[str, Any]:
    """Every game with its table sizes, presets and options, and the bots: the lobby's menu."""
    from ..bots import DEFAULT_BOT

    games = []
    for name, cls in GAMES.items():
        players_option = next((o for o in cls.OPTIONS if o.name == "players"), None)
        sizes = [cls.num_players]
        if players_option is not None and players_option.choices:
            sizes = list(players_option.choices)
        games.append({
            "name": name, "title": cls.title, "players": sizes,
            "presets": {preset: dict(values) for preset, values in cls.PRESETS.items()},
            "preset_players": {preset: _preset_sizes(name, preset, sizes) for preset in cls.PRESETS},
            "deck": deck_style(cls.deck),
            "summary": cls.SUMMARY,
            "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                         "choices": list(o.choices) if o.choices else None,
                         "minimum": o.minimum, "maximum": o.maximum} for o in cls.OPTIONS],
        })
    bots = [{"name": name, "description": (factory.__doc__ or "").strip().split("\n")[0]}
            for name, factory in BOTS.items() if seatable(name) and getattr(factory, "listed", True)]
    return {"games": games, "bots": bots, "default_bot": DEFAULT_BOT}


class Tables:
    """Every open table of one server, its storage and its bots.

    ``bot_delay`` is a pause before each bot move, so people can follow the
    play; benchmarks and tests set it to 0.  The pool's
    :class:`~.botpool.BotLimits` bound every bot spec a table may seat.
    """

    def __init__(self, store: Store, bots: BotPool, bot_delay: float = 0.6, turn_time: float = 0.0,
                 absent_time: float = ABSENT_TIME, players: Players | None = None) -> None:
        self.store = store
        self.players = players if players is not None else Players(store)
        """The server's signed-in people: a seat one of them takes records their id."""
        self.on_over: list[Callable[[Table], Awaitable[None]]] = []
        """Called once for each match that ends here (ratings, tournaments), under the table's
        lock, after the last action is stored and before anyone is told; a failing one is
        logged and the others still run."""
        self.pool = bots
        self.bot_delay = bot_delay
        self.turn_time = turn_time
        """The turn time of a table whose request does not choose one (0: no limit), and of
        tables stored before tables chose; each table's own is ``stored.turn_time``."""
        self.absent_time = absent_time
        """The grace of a person gone after joining before a bot plays their turns; with a
        turn time, also the most a person who is not connected has for a turn."""
        self.tables: dict[str, Table] = {}
        self.reviewer = Reviewer(1 if bots.workers > 0 else 0)
        """Reviews finished hands in a process of its own, so no bot waits behind one."""
        self._db = ThreadPoolExecutor(1, thread_name_prefix="tricktaker-db")
        self._pending: list[tuple[Row, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking database call on the store's thread (writes stay in one order)."""
        return await self._in_db(fn, *args)

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def _write(self, row: Row) -> None:
        """Store one action; returns once it is committed (group commit, see :meth:`Store.add_actions`).

        Actions of many tables that arrive while a commit is under way wait
        together and go in the next one: one thread hop and one commit for all
        of them, which is what keeps the time to broadcast low under load.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._in_db(self.store.add_actions, [row for row, _ in batch])
            except Exception:
                # one bad row must not fail the others: write them one by one
                for row, done in batch:
                    try:
                        await self._in_db(self.store.add_actions, [row])
                        done.set_result(None)
                    except Exception as exc:
                        done.set_exception(exc)
            else:
                for _, done in batch:
                    done.set_result(None)

    async def start(self) -> None:
        """Load every unfinished table and let its bots move: a restart resumes every game."""
        for stored in await self._in_db(self.store.load_tables):
            try:
                table = Table.rebuild(stored)
            except (ValueError, KeyError) as exc:  # a table that no longer replays is left as it is
                log.error("table %s does not replay and is not resumed: %s", stored.id, exc)
                continue
            self.tables[table.id] = table
            table.grace_until = time.monotonic() + RESTART_GRACE
            self._default_turn_time(table)
            # everyone was there before the restart: whoever is not back when the restart's
            # grace is over counts as gone since then, and a bot plays for them
            for seat, info in enumerate(stored.seats):
                if info["kind"] == "human":
                    table.gone[seat] = table.grace_until - self.absent_time
            self._schedule_bot(table)
        log.info("resumed %d tables", len(self.tables))

    async def close(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            if table.review_task is not None:
                table.review_task.cancel()
            self._disarm(table)
        self._db.shutdown(wait=True)
        self.pool.close()
        self.reviewer.close()
        self.store.close()

    # -- creating and finding tables ----------------------------------------------

    async def create(self, request: Any, player: Player | None = None,
                     tokens: list[str | None] | None = None) -> tuple[Table, list[str | None]]:
        """A new table from a lobby request (docs/server.md); returns it and each seat's token.

        A signed-in ``player`` who creates it takes its first person's seat (the lobby sends
        the creator there), which records their id.  ``tokens`` gives the people's tokens
        instead of fresh random ones (a club tournament derives them from its director's
        secret, :func:`.club.seat_token`)."""
        if not isinstance(request, dict):
            raise TableError("malformed", "a table request is a JSON object")
        unknown = set(request) - {"game", "preset", "options", "seats", "turn_time", "practice"}
        if unknown:
            raise TableError("malformed",
                             f"unknown field(s) in the table request: {', '.join(sorted(unknown))}")
        name, preset, options = request.get("game"), request.get("preset"), request.get("options") or {}
        if not isinstance(name, str):
            raise TableError("malformed", "the table request needs a game name")
        if preset is not None and not isinstance(preset, str):
            raise TableError("malformed", "preset must be a name or null")
        if not isinstance(options, dict):
            raise TableError("malformed", "options must be an object of option values")
        try:
            game = new_game(name, preset=preset, **options)
        except (OptionError, TypeError, ValueError) as exc:
            raise TableError("bad_request", str(exc)) from None
        seats = self._seats(request.get("seats"), game)
        turn_time = request.get("turn_time", self.turn_time)
        if turn_time is None:
            turn_time = self.turn_time
        if (not isinstance(turn_time, (int, float)) or isinstance(turn_time, bool)
                or not 0 <= turn_time <= MAX_TURN_TIME):
            raise TableError("bad_request",
                             f"turn_time must be seconds from 0 (no limit) to {MAX_TURN_TIME:g}")
        practice = request.get("practice", False)
        if not isinstance(practice, bool):
            raise TableError("bad_request", "practice must be true or false")
        given = tokens
        tokens = []
        for i, info in enumerate(seats):
            token = None
            if info["kind"] == "human":
                token = given[i] if given is not None else secrets.token_urlsafe(18)
            tokens.append(token)
            if token is not None:
                info["token_hash"] = token_hash(token)
        creator = next((i for i, info in enumerate(seats) if info["kind"] == "human"), None)
        if player is not None and creator is not None:
            seats[creator] |= {"player": player.id, "nickname": player.nickname}
        stored = StoredTable(id=secrets.token_urlsafe(9), game=game.name, preset=game.preset,
                             options=dict(game.options), seed=random.SystemRandom().randrange(2**31),
                             seats=seats, turn_time=float(turn_time), practice=practice)
        return await self.open(stored), tokens

    async def open(self, stored: StoredTable, after: str | None = None) -> Table:
        """Store a new table and start it (its bots move if it is their turn); a seat that
        names a player is recorded in their matches.  ``after``: the finished table whose next
        match this is, stored with the link to it in one transaction."""
        if after is None:
            await self._in_db(self.store.add_table, stored)
        else:
            await self._in_db(self.store.add_next_table, after, stored)
        for seat, info in enumerate(stored.seats):
            if info.get("player"):
                await self._in_db(self.players.sit, stored.id, seat, info["player"])
        table = Table.rebuild(stored)
        self.tables[table.id] = table
        self._schedule_bot(table)
        return table

    async def rematch(self, table: Table, seat: int | None) -> Table:
        """The next match of a finished table: the same game, options and seats, a new seed.

        People keep their tokens, so every invite link works at the new table
        with its id changed; everyone still at the old table is told the new id.
        Asked twice (two players click at once, or one player again after a
        restart), it gives the same table: the link is stored with it.
        """
        if seat is None:
            raise TableError("not_your_turn", "spectators watch; a player asks for the next match")
        if table.stored.home is not None:
            raise TableError("bad_request", "this table belongs to a tournament: its page leads on")
        async with table.lock:
            if not table.state.is_over():
                raise TableError("not_over", "the match is still being played")
            old = table.stored
            next_id = old.next_id
            if next_id is None:
                stored = StoredTable(id=secrets.token_urlsafe(9), game=old.game, preset=old.preset,
                                     options=dict(old.options), seed=random.SystemRandom().randrange(2**31),
                                     seats=[dict(info) for info in old.seats], turn_time=old.turn_time,
                                     practice=old.practice)
                old.next_id = next_id = (await self.open(stored, after=old.id)).id
            await self._send_all(table, lambda _seat: {"type": "rematch", "id": next_id})
        return await self.find(next_id)

    def _seats(self, seats: Any, game: Game) -> list[dict[str, Any]]:
        """The seats of a table request, each bot's spec checked against this server's limits."""
        players = game.num_players
        if not isinstance(seats, list) or len(seats) != players:
            raise TableError("bad_request", f"this game needs a list of {players} seats")
        out = []
        for i, seat in enumerate(seats):
            kind = seat.get("kind") if isinstance(seat, dict) else None
            if kind == "human":
                out.append({"kind": "human", "bot": None})
            elif kind == "bot":
                try:
                    spec = check_spec(seat.get("bot"), game.name, self.pool.limits)
                except ValueError as exc:
                    raise TableError("bad_request", f"seat {i}: {exc}") from None
                out.append({"kind": "bot", "bot": spec})
            else:
                raise TableError("bad_request", f"seat {i}: kind must be 'human' or 'bot'")
        return out

    async def find(self, table_id: str, keep: bool = True) -> Table:
        """A table in memory, or one rebuilt from the store (a finished one, to see its end).

        ``keep=False`` does not add it to memory: a look at a finished table's
        record or summary must not leave it there with nobody to take it out.
        """
        if table_id in self.tables:
            return self.tables[table_id]
        stored = await self._in_db(self.store.load_table, table_id)
        if stored is None:
            raise TableError("no_table", f"no table {table_id!r}")
        table = Table.rebuild(stored)
        self._default_turn_time(table)
        return self.tables.setdefault(table_id, table) if keep else table

    def _default_turn_time(self, table: Table) -> None:
        """A table stored before tables chose their turn time gets the server's."""
        if table.stored.turn_time is None:
            table.stored.turn_time = self.turn_time

    async def exists(self, table_id: str) -> bool:
        """Whether there is a table ``table_id``, open or finished (without replaying it)."""
        if table_id in self.tables:
            return True
        return await self._in_db(self.store.has_table, table_id)

    async def finished_record(self, table_id: str) -> str:
        """The record of a match that is over (before that it would show hidden cards)."""
        table = await self.find(table_id, keep=False)
        if not table.state.is_over():
            raise TableError("not_over", "the record is shown once the match is over")
        return table.state.to_json()

    # -- clients -------------------------------------------------------------------

    async def join(self, client: Client, table: Table, token: str | None,
                   player: Player | None = None) -> int | None:
        """Seat a client by its token (``None``: a spectator) and send it the table and its state.

        A signed-in ``player`` who takes a seat nobody signed in has taken yet is recorded
        there (the first one keeps it: a link passed on does not move a rated seat)."""
        seat = None
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                raise TableError("bad_token", "this link does not belong to a seat at this table")
            taken = table.stored.seats[seat].get("player")
            if player is not None and not taken and not table.state.is_over():
                await self.claim(table, seat, player)
        # Under the table's lock: an action is applied before it is stored, and a join
        # in between saw a position one action ahead of its seq (which the next state
        # then repeated), so a move could be refused as stale or a timer misread.
        async with table.lock:
            table.clients[client] = seat
            if seat is not None:
                table.gone.pop(seat, None)  # back: the seat is theirs again, no bot plays it
            self._arm_timer(table)  # a person back for their turn gets the whole turn time
            await client.send({"type": "welcome", "seat": seat, "table": table.info()})
            await client.send(table.history_message(seat))
            await client.send(table.state_message(seat, self._starting(table)))
            for number in sorted(table.reviews):
                await client.send(table.reviews[number])
            self._review_later(table)
        await self._presence(table)
        return seat

    async def claim(self, table: Table, seat: int, player: Player) -> None:
        """Record ``player`` at a person's ``seat`` (stored with the seats and in their matches)."""
        if table.stored.seats[seat]["kind"] != "human":
            raise TableError("bad_request", f"seat {seat} is a bot's")
        table.stored.seats[seat] |= {"player": player.id, "nickname": player.nickname}
        await self._in_db(self.store.set_seats, table.id, table.stored.seats)
        await self._in_db(self.players.sit, table.id, seat, player.id)

    async def player(self, secret: Any) -> Player | None:
        """The player of a secret from a WebSocket message (None: unknown or none)."""
        if not isinstance(secret, str):
            return None
        return await self._in_db(self.players.by_secret, secret)

    async def leave(self, client: Client, table: Table) -> None:
        if client in table.clients:
            self._drop(table, client)
            await self._presence(table)
            self._arm_timer(table)  # a person who left on their turn: the shorter absent time
        if not table.clients and table.state.is_over():
            self.tables.pop(table.id, None)  # finished and left: the store keeps it

    @staticmethod
    def _drop(table: Table, client: Client) -> None:
        """Take a client off the table; a person whose last connection it was is now gone."""
        seat = table.clients.pop(client, None)
        if seat is not None and seat not in table.clients.values():
            table.gone[seat] = time.monotonic()

    async def _presence(self, table: Table) -> None:
        message = table.presence_message(self.absent_time)
        await self._send_all(table, lambda seat: message)

    async def _send_all(self, table: Table, message: Callable[[int | None], dict[str, Any]]) -> None:
        cache: dict[int | None, dict[str, Any]] = {}
        for client, seat in list(table.clients.items()):
            if seat not in cache:
                cache[seat] = message(seat)
            try:
                await client.send(cache[seat])
            except Exception:  # a dead connection: it leaves, the table goes on
                self._drop(table, client)

    # -- play ----------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, text: Any, seq: Any = None) -> None:
        """Play ``text`` for ``seat``: check, store, then broadcast.  Raises :class:`TableError`."""
        if seat is None:
            raise TableError("not_your_turn", "spectators watch; they do not play")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise TableError("malformed", "an act message needs the action's text")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise TableError("malformed", "seq must be an integer")
        async with table.lock:
            state = table.state
            if state.is_over():
                raise TableError("over", "the match is over")
            if seq is not None and seq != table.seq:
                raise TableError("stale", f"the table has moved on (seq {table.seq}, not {seq})")
            if state.current_player != seat:
                raise TableError("not_your_turn", f"not your turn: seat {state.current_player} is to act")
            try:
                state.apply(text, seat=seat)
            except IllegalActionError as exc:
                raise TableError("illegal", str(exc), exc.code, exc.params) from None
            canonical = state.history[-1].text
            try:
                await self._write((table.id, table.seq, seat, canonical, state.is_over()))
            except Exception:
                state.undo()  # not stored, so it did not happen
                log.exception("could not store an action at table %s", table.id)
                raise TableError("storage", "the server could not store the action; try again") from None
            table.stored.actions.append((seat, canonical))
            finished = len(table.hands)
            table.note(seat, canonical)
            if len(table.hands) > finished and table.clients:
                self._review_later(table)
            self._arm_timer(table)  # before the broadcast, so the state tells the new turn's time
            if state.is_over():  # before anyone hears of the end: a profile opened then shows it
                await self._match_over(table)
            starting = self._starting(table)
            await self._send_all(table, lambda who: table.state_message(who, starting))
        self._schedule_bot(table)

    async def _match_over(self, table: Table) -> None:
        """Tell every :attr:`on_over` listener that the match ended (its last action stored, and
        before the table hears of it, so whatever a listener records is there when they look)."""
        for listener in self.on_over:
            try:
                await listener(table)
            except Exception:
                log.exception("after the match at table %s", table.id)

    async def why(self, table: Table, seat: int | None,
                  text: Any) -> tuple[str, str | None, dict[str, str | int]]:
        """Why ``text`` is not allowed for ``seat`` now (the engine's own reason), or that it is:
        the English reason, its code and params (``IllegalActionError``; None and {} for
        ``allowed`` and for a reason without a code).

        Under the table's lock, like a join: the position asked about is a stored one,
        not one with an action applied whose write is still under way."""
        if not isinstance(text, str) or len(text) > 200:
            raise TableError("malformed", "a why message needs the action's text")
        if seat is None:
            return "spectators watch; they do not play", None, {}
        async with table.lock:
            trial = table.state.clone()
        try:
            trial.apply(text, seat=seat)
        except IllegalActionError as exc:
            return str(exc), exc.code, exc.params
        return "allowed", None, {}

    # -- reviews and hints (server/review.py) ------------------------------------------

    def _review_later(self, table: Table) -> None:
        """Review the finished hands not reviewed yet, newest first, one at a time, in the background."""
        if any(number not in table.reviews for number, _ in table.hands):
            if table.review_task is None or table.review_task.done():
                table.review_task = asyncio.get_running_loop().create_task(self._review(table))

    async def _review(self, table: Table) -> None:
        while missing := [number for number, _ in table.hands if number not in table.reviews]:
            number = missing[-1]
            try:
                message = await self.reviewer.review(table.state.to_json(), number - 1)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never again for this hand; the page shows no costs
                log.exception("table %s: hand %d could not be reviewed", table.id, number)
                message = {"type": "review", "hand": number, "failed": type(exc).__name__}
            table.reviews[number] = message
            await self._send_all(table, _same(message))

    async def hint(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The ``hint`` message for ``seat``: what :data:`~.review.HINT_BOT` would play in its
        place, decided from that seat's view only.  Practice tables only, on the seat's turn."""
        if seat is None:
            raise TableError("not_your_turn", "spectators watch; hints are for the players")
        if not table.stored.practice:
            raise TableError("not_practice", "hints are given at practice tables only (chosen in the lobby)")
        async with table.lock:  # a stored position, not one whose action is still being written
            if table.state.is_over():
                raise TableError("over", "the match is over")
            if table.state.current_player != seat:
                raise TableError("not_your_turn", "a hint is for your own turn")
            key = (table.seq, seat)
            if table.hint is None or table.hint[0] != key:
                record = table.state.to_json()
                seed = random.Random(f"{table.stored.seed}:{seat}:{key[0]}:hint").randrange(2**31)
                table.hint = (key, asyncio.get_running_loop().create_task(
                    self.pool.decide(record, seat, HINT_BOT, seed)))
            task = table.hint[1]
        action = await asyncio.shield(task)  # asked twice: one search, both answered
        return {"type": "hint", "seq": key[0], "action": action, "bot": HINT_BOT}

    # -- bots ------------------------------------------------------------------------

    def _starting(self, table: Table) -> bool:
        """Whether the bot to move is a search bot that will wait for the workers' warm-up."""
        seat = table.state.current_player
        if seat is None or table.stored.seats[seat]["kind"] != "bot":
            return False
        return self.pool.warming > 0 and not self.pool.is_quick(table.stored.seats[seat]["bot"])

    def _arm_timer(self, table: Table) -> None:
        """Time the person whose turn it is.  Present: the table's turn time, if it has one.
        Gone after joining: what is left of their grace (:data:`ABSENT_TIME` from when the
        connection went), then only the bot delay, so a bot plays each of their turns until
        they come back.  Never connected: at most ``absent_time`` when the table has a turn
        time, else they are waited for.  Nobody plays for an absent person while no other
        person is connected: nobody is held up, and the match is theirs to finish.  A timer
        already running for this very turn is kept while its person stays (or stays away);
        one who leaves gets what is left of the absent time, one who comes back a whole turn
        time."""
        state = table.state
        seat = state.current_player
        if seat is None or state.is_over() or table.stored.seats[seat]["kind"] == "bot":
            self._disarm(table)
            return
        turn_time = table.stored.turn_time or 0.0
        now = time.monotonic()
        connected = table.connected()
        present = connected[seat]
        # an absent person's turn is only played for them when another person is there,
        # held up: a table everyone has left waits for them rather than play itself out
        waiting = any(connected[other] for other, info in enumerate(table.stored.seats)
                      if info["kind"] == "human" and other != seat)
        seconds: float | None = None
        if present:
            seconds = turn_time or None
        elif not waiting:
            seconds = None
        elif seat in table.gone:  # after a restart, gone from the end of the restart's grace
            seconds = max(table.gone[seat] + self.absent_time - now, self.bot_delay)
        elif turn_time:
            present = now < table.grace_until
            seconds = turn_time if present else min(turn_time, self.absent_time)
        if seconds is None:
            self._disarm(table)
            return
        running = table.timer is not None and not table.timer.done()
        if running and table.deadline is not None and table.deadline[:2] == (seat, table.seq):
            if table.deadline[3] == present:
                return
            if not present:
                seconds = min(seconds, table.deadline[2] - now)
        self._disarm(table)
        table.deadline = (seat, table.seq, now + seconds, present)
        table.timer = asyncio.get_running_loop().create_task(self._time_out(table, seat, table.seq, seconds))

    @staticmethod
    def _disarm(table: Table) -> None:
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        table.deadline = None

    async def _time_out(self, table: Table, seat: int, seq: int, seconds: float) -> None:
        """The person's time ran out: tell the table, and let ``rules`` play their move."""
        with _logged(table, seat, "timed-out move"):
            await asyncio.sleep(seconds)
            async with table.lock:  # not a position with the person's own move half stored
                if table.seq != seq:
                    return
                record = table.state.to_json()
            seed = random.Random(f"{table.stored.seed}:{seat}:{seq}:timeout").randrange(2**31)
            action = await self.pool.decide(record, seat, TIMEOUT_BOT, seed)
            if table.seq != seq:
                return
            table.timer = None  # so that act() does not cancel this task
            away = seat in table.gone
            await self._send_all(table, lambda _who: {"type": "timeout", "seat": seat, "away": away})
            await self.act(table, seat, action, seq)

    def _schedule_bot(self, table: Table) -> None:
        """Start the bot whose turn it is, unless one is already thinking at this table.

        A person's lone choice that is not a card (Tute's "pass" with nothing to
        sing, Huutopussi's forced pass or answer) is played for them the same
        way: a prompt with one button only costs a click and a wait.
        """
        self._arm_timer(table)
        seat = table.state.current_player
        if seat is None:
            return
        forced = None
        if table.stored.seats[seat]["kind"] != "bot":
            legal = table.state.legal_actions()
            if len(legal) != 1 or legal[0].kind == "play":
                return
            forced = legal[0].text
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_move(table, seat, forced))

    async def _bot_move(self, table: Table, seat: int, forced: str | None = None) -> None:
        seq = table.seq
        try:
            with _logged(table, seat, "bot"):
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                if forced is not None:
                    action = forced
                else:
                    spec = table.stored.seats[seat]["bot"]
                    seed = random.Random(f"{table.stored.seed}:{seat}:{seq}").randrange(2**31)
                    action = await self.pool.decide(table.state.to_json(), seat, spec, seed)
                table.bot_task = None  # so that act() can schedule the next bot
                await self.act(table, seat, action, seq)
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
