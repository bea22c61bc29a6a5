"""The club tournaments' HTTP routes (docs/server.md, *Club tournaments*); the work is in
:mod:`.club`.  The director's secret travels in the ``X-Director`` header."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .club import Club, ClubError
from .tables import TableError
from .web import STATIC, http_error, json_body, limit_of

__all__ = ["ROUTES"]


def _club(request: Request) -> Club:
    manager: Club = request.app.state.club
    return manager


async def club_page(request: Request) -> Response:
    found = True
    if "id" in request.path_params:
        try:
            await _club(request).load(request.path_params["id"])
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
        answer = await work(_club(request), request.path_params.get("id"),
                            request.headers.get("x-director"), body)
    except ClubError as exc:
        return http_error(exc.code, str(exc), exc.status)
    except TableError as exc:
        return http_error(exc.code, str(exc), 400)
    return JSONResponse(answer, status)


async def create_tournament(request: Request) -> Response:
    refused = limit_of(request).refuse(request)
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
        return await manager.remove_entrant(i, s, request.path_params["number"])
    return await club_call(request, work)


async def start_round(request: Request) -> Response:
    refused = limit_of(request).refuse(request)  # a round creates tables: it counts as a new table
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


ROUTES: list[BaseRoute] = [
    Route("/club", club_page),
    Route("/club/{id}", club_page),
    Route("/api/club", create_tournament, methods=["POST"]),
    Route("/api/club/tables/{table}", table_tournament),
    Route("/api/club/{id}", tournament),
    Route("/api/club/{id}/entrants", add_entrant, methods=["POST"]),
    Route("/api/club/{id}/entrants/{number:int}", remove_entrant, methods=["DELETE"]),
    Route("/api/club/{id}/rounds", start_round, methods=["POST"]),
    Route("/api/club/{id}/forfeits", forfeit, methods=["POST"]),
]
