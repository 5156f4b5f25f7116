"""Players' orders and readiness."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.bodies import OrderBody
from app.api.deps import CHECKED_IDS, ReadToken, Token, now, run_game
from app.api.problems import GAME_ACTION, GAME_WRITE, problems
from app.api.responses import Order, OrderRevision, ParsedText, Ready
from app.api.schemas import TextOrders
from app.errors import prefers_english
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


def _english(request: Request) -> bool:
    return prefers_english(request.headers.get("accept-language"))


@router.post("/orders", status_code=201, response_model=Order, responses=GAME_WRITE)
async def submit_order(
    request: Request, game_id: str, token: ReadToken, body: Submitted
) -> JSONResponse:
    """Submit an order for yourself (or your side), as JSON or in words."""
    english = _english(request)
    # Orders in words take the one-request path: reading them is slower than a JSON order,
    # and a batch must not wait for it.
    batched = "Idempotency-Key" not in request.headers and not text_orders.in_words(body)
    if request.app.state.settings.order_batching and batched:
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
    english = _english(request)

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
