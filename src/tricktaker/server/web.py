"""What every HTTP route of the server shares: refusals, request bodies, rate limits and who asks.

The lobby's routes (:mod:`.app`), the players' (:mod:`.player_routes`), the club's
(:mod:`.club_routes`) and the duplicate tournaments' (:mod:`.duplicate_routes`) answer
through these, so a refusal looks the same everywhere and every way of filling the
store (tables, players, tournaments, rounds, sets, entries) draws on one allowance
per client address.
"""

from __future__ import annotations

import asyncio
import json
import time
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from .players import SECRET_HEADER, Player, PlayerError, player_of

__all__ = ["BURST", "MAX_BODY", "RATE", "STATIC", "TABLES_PER_MINUTE", "CreationLimit", "RateLimit",
           "http_error", "json_body", "limit_of", "signed_in"]

STATIC = Path(str(files("tricktaker.server") / "static"))
"""The pages and the client's files."""
MAX_BODY = 16384
"""Bytes in a table request."""
RATE, BURST = 10.0, 30
"""Messages a second a client may send on average, and in a burst (token bucket)."""
TABLES_PER_MINUTE = 30
"""New tables one client address may create a minute (and in a burst)."""


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


class CreationLimit:
    """A token bucket per client address for what fills the store (tables, players,
    tournaments, rounds, duplicate sets and entries): ``per_minute`` a minute, in bursts
    of as many; ``0`` for no limit."""

    def __init__(self, per_minute: int = TABLES_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self.buckets: dict[str, RateLimit] = {}

    def bucket(self, connection: HTTPConnection) -> RateLimit | None:
        """The client address's bucket (None: no limit); the queue's joins draw on it too."""
        if not self.per_minute:
            return None
        address = connection.client.host if connection.client else ""
        if len(self.buckets) > 10_000:  # forget the quiet ones rather than grow without end
            self.buckets.clear()
        return self.buckets.setdefault(address, RateLimit(self.per_minute / 60, self.per_minute))

    def refuse(self, request: Request) -> Response | None:
        """A 429 for an address over its allowance, else None (and one is used)."""
        bucket = self.bucket(request)
        if bucket is None or bucket.allow():
            return None
        return http_error("rate_limited", f"at most {self.per_minute} new tables a minute "
                          "from one address: try again soon", 429, limit=self.per_minute)


def limit_of(request: Request) -> CreationLimit:
    """The server's :class:`CreationLimit` (``app.state.creation``)."""
    limit: CreationLimit = request.app.state.creation
    return limit


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
