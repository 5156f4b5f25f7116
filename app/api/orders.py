"""Players' orders and readiness."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.security.utils import get_authorization_scheme_param
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.bodies import OrderBody
from app.api.deps import CHECKED_IDS, ReadToken, Token, now, run_game
from app.api.problems import GAME_ACTION, GAME_WRITE, problems
from app.api.responses import Order, OrderRevision, ParsedText, Ready
from app.api.schemas import TextOrders
from app.errors import prefers_english
from app.ids import could_be_id
from app.models import Game
from app.services import orders as orders_service
from app.services import text_orders
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["orders"], dependencies=CHECKED_IDS)

Submitted = Annotated[
    OrderBody,
    Body(
        examples=[
            {"type": "deploy", "troops": [4, 7, 8, 6, 5]},
            {"type": "retreat", "slot": 2},
            {"text": "调兵 3号位到2号位 4人"},
        ],
        description="An order of the game's ruleset, by its `type`; or exactly one order "
        'in words, `{"text": "..."}` (read as `POST /orders/parse` reads it).',
    ),
]


class _Accepted(JSONResponse):
    """An accepted order, serialised by orjson: the same compact UTF-8 JSON as
    ``JSONResponse`` for its plain values, in a sixth of the CPU (every order pays it)."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def _batched(headers: Headers, body: dict[str, Any]) -> bool:
    """Whether the order goes to the batcher. Orders in words take the one-request path:
    reading them is slower than a JSON order, and a batch must not wait for it."""
    return "Idempotency-Key" not in headers and not text_orders.in_words(body)


def _english(headers: Headers) -> bool:
    return prefers_english(headers.get("accept-language"))


@router.post("/orders", status_code=201, response_model=Order, responses=GAME_WRITE)
async def submit_order(
    request: Request, game_id: str, token: ReadToken, body: Submitted
) -> JSONResponse:
    """Submit an order for yourself (or your side), as JSON or in words."""
    english = _english(request.headers)
    if request.app.state.settings.order_batching and _batched(request.headers, body):
        order = await request.app.state.batcher.submit(game_id, token, body, english)
        return _Accepted(order, status_code=201)  # already plain JSON values

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.submit_order(
            session, game, principal, body, now(request), english
        )

    return await run_game(request, game_id, token, action, status_code=201, idempotent=True)


@router.post(
    "/orders/parse",
    response_model=ParsedText,
    responses=problems(400, 401, 403, 404, 413, 422, 503),
)
async def parse_orders(
    request: Request, game_id: str, token: Token, body: TextOrders
) -> JSONResponse:
    """Read orders written in words and say how they were understood; changes nothing."""
    english = _english(request.headers)

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await text_orders.parse(session, game, principal, body.text, english)

    return await run_game(request, game_id, token, action, lock=False)


@router.get("/orders", response_model=list[Order], responses=problems(401, 403, 404, 422, 503))
async def list_orders(
    request: Request,
    game_id: str,
    token: Token,
    status: str | None = Query(
        None, pattern="^[a-z_]{1,16}$", description="Only orders in this status (`pending`…)"
    ),
) -> JSONResponse:
    """Your own (or your side's) orders; the director sees all."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.list_orders(session, game, principal, status)

    return await run_game(request, game_id, token, action, lock=False)


@router.put("/orders/{order_id}", response_model=Order, responses=GAME_WRITE)
async def revise_order(
    request: Request, game_id: str, order_id: str, token: ReadToken, body: Submitted
) -> JSONResponse:
    """Revise a pending order while the rules allow."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.revise_order(
            session, game, principal, order_id, body, now(request)
        )

    return await run_game(request, game_id, token, action)


@router.delete("/orders/{order_id}", response_model=Order, responses=GAME_ACTION)
async def withdraw_order(
    request: Request, game_id: str, order_id: str, token: Token
) -> JSONResponse:
    """Withdraw an order while the rules allow."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.withdraw_order(session, game, principal, order_id, now(request))

    return await run_game(request, game_id, token, action)


@router.get(
    "/orders/{order_id}/history",
    response_model=list[OrderRevision],
    responses=problems(401, 403, 404, 422, 503),
)
async def order_history(
    request: Request, game_id: str, order_id: str, token: Token
) -> JSONResponse:
    """Every submission, revision and status change of one order, with who."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.order_history(session, game, principal, order_id)

    return await run_game(request, game_id, token, action, lock=False)


@router.post("/ready", response_model=Ready, responses=GAME_ACTION)
async def ready(request: Request, game_id: str, token: Token) -> JSONResponse:
    """Mark your side done for this phase; it closes early when every side is ready."""

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await orders_service.mark_ready(session, game, principal, now(request))

    return await run_game(request, game_id, token, action)


_SUBMIT: APIRoute = next(
    r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is submit_order
)


class FastOrders:
    """ASGI middleware: ``POST /orders`` in its common case — a JSON order with a bearer
    token, for the batcher — answered without FastAPI's routing, dependency solving and
    request wrappers, which cost an order more CPU than checking and writing it (more than
    a third of the request's share at 16 clients). It does exactly what ``submit_order``
    does then, through the same batcher, answers and exception handlers; every other
    request, and every order it is not sure of (another content type, a body it cannot
    read as a JSON object, an order in words, an Idempotency-Key, a cookie instead of a
    token, an id this service could never have made, order batching off, FastAPI's own
    telemetry on), goes on to the app with its body as it came. Installed innermost of the
    middlewares, so the request id, metrics, access log, body limit and the handler of
    unexpected errors see it as they see any request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = _order_game(scope)
        if game_id is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        token = _bearer(headers)
        app = scope["app"]
        if token is None or not _json_body(headers) or not app.state.settings.order_batching:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away (or the body limit refused the body)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        body = _object(raw)
        if body is None or not _batched(headers, body):
            await self.app(scope, _replay(raw, receive), send)
            return
        # What the router would have set: the route (metrics and the access log name it)
        # and the path parameters.
        scope["route"] = _SUBMIT
        scope["path_params"] = {"game_id": game_id}
        english = _english(headers)
        try:
            order = await app.state.batcher.submit(game_id, token, body, english)
        except Exception as error:
            handler = _handler(app.exception_handlers, error)
            if handler is None:
                raise
            response = handler(Request(scope, receive), error)
            if inspect.isawaitable(response):
                response = await response
            await response(scope, receive, send)
            return
        await _Accepted(order, status_code=201)(scope, receive, send)


def _order_game(scope: Scope) -> str | None:
    """The game id of ``POST /api/v1/games/{game_id}/orders`` (as the route matches it),
    when it is one this service could have made; otherwise None."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
        return None
    if "fastapi.telemetry" in scope:
        return None  # the route span is FastAPI's to name
    match = _SUBMIT.path_regex.match(scope["path"])
    if match is None:
        return None
    game_id = match.group("game_id")
    return game_id if could_be_id(game_id) else None


def _bearer(headers: Headers) -> str | None:
    """The bearer token, as ``HTTPBearer`` reads it; None when there is none."""
    scheme, credentials = get_authorization_scheme_param(headers.get("authorization"))
    if scheme.lower() != "bearer" or not credentials:
        return None
    return credentials


def _json_body(headers: Headers) -> bool:
    media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
    return media_type == "application/json"


def _object(raw: bytes) -> dict[str, Any] | None:
    """The body as a JSON object, when orjson reads it as ``json.loads`` would (orjson is
    the stricter: what it refuses, the app reads and answers itself)."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _replay(raw: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out first, whole."""
    pending = True

    async def replay() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": raw, "more_body": False}
        return await receive()

    return replay


def _handler(handlers: dict[Any, Any], error: Exception) -> Any:
    """The app's handler for ``error``, looked up as Starlette does (by class, nearest
    first); None when it has none (the error goes on, as from a route)."""
    for cls in type(error).__mro__:
        if cls in handlers:
            return handlers[cls]
    return None
