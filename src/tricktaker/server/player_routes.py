"""The players' HTTP routes: one-click identities, profiles and the leaderboard (docs/server.md,
*Players and ratings*).  The work is in :mod:`.players` and :mod:`.leaderboard`."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .leaderboard import BOT_RATINGS, leaderboard, player_ratings
from .players import SECRET_HEADER, PlayerError, Players
from .tables import game_catalogue
from .web import STATIC, http_error, json_body, limit_of, signed_in

__all__ = ["ROUTES"]


def _players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


async def create_player(request: Request) -> Response:
    refused = limit_of(request).refuse(request)  # a player costs the store like a table
    if refused is not None:
        return refused
    payload = await json_body(request)
    if isinstance(payload, Response):
        return payload
    if not isinstance(payload, dict) or set(payload) - {"nickname"}:
        return http_error("malformed", 'a player request is {"nickname": "..."}', 400)
    try:
        player, secret = await asyncio.to_thread(_players(request).create, payload.get("nickname"))
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
    players = _players(request)
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
    board = await asyncio.to_thread(leaderboard, _players(request).store, game, int(size_text))
    bots = {name: {"rating": r.rating, "rd": r.rd} for name, r in BOT_RATINGS.items()}
    return JSONResponse({"game": game, "players": int(size_text), "ratings": board, "bots": bots})


async def leaderboard_page(request: Request) -> Response:
    return FileResponse(STATIC / "leaderboard.html")


async def profile_page(request: Request) -> Response:
    found = await asyncio.to_thread(_players(request).get, request.path_params["id"])
    return FileResponse(STATIC / "profile.html", status_code=200 if found else 404)


ROUTES: list[BaseRoute] = [
    Route("/api/players", create_player, methods=["POST"]),
    Route("/api/players/me", me),
    Route("/api/players/{id}", player_info),
    Route("/p/{id}", profile_page),
    Route("/api/leaderboard", leaderboard_api),
    Route("/leaderboard", leaderboard_page),
]
