"""The duplicate tournaments' HTTP routes (docs/server.md, *Duplicate tournaments*); the work
is in :mod:`.duplicate`."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .duplicate import Duplicate
from .players import PlayerError
from .tables import TableError
from .web import STATIC, http_error, json_body, limit_of, signed_in

__all__ = ["ROUTES"]


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
        refused = limit_of(request).refuse(request)  # a set or an entry costs the store like a table
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


ROUTES: list[BaseRoute] = [
    Route("/duplicate", duplicate_page),
    Route("/duplicate/{id}", duplicate_page),
    Route("/api/duplicate", duplicate_api, methods=["GET"]),
    Route("/api/duplicate/sets", duplicate_api, methods=["POST"]),
    Route("/api/duplicate/sets/{id}", duplicate_api, methods=["GET"]),
    Route("/api/duplicate/sets/{set}/entries", duplicate_api, methods=["POST"]),
    Route("/api/duplicate/entries/{entry}/next", duplicate_api, methods=["POST"]),
]
