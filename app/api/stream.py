"""Server-sent events: what the caller may see of a game, as it happens."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import Token, transact_game
from app.api.problems import GAME_READ
from app.live import Hub
from app.models import Game
from app.services import stream as stream_service
from app.services.auth import Principal

router = APIRouter(prefix="/api/v1/games/{game_id}", tags=["games"])

# One event of the stream, as OpenAPI 3.2 describes text/event-stream (``itemSchema``: each
# event's fields, ``data`` the event's JSON): the stream is a sequence of these, not one
# string (schemathesis parses the events and checks each, issue 16 item 29).
STREAM_EVENT: dict[str, Any] = {
    "type": "object",
    "description": "One server-sent event: `id` is your event seq, `data` the event as "
    "JSON (an `Event`, as GET /events answers it).",
    "properties": {
        "event": {"type": "string", "enum": ["message"]},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/Event"},
        },
        "retry": {"type": "integer", "minimum": 0},
    },
    "required": ["data"],
}


def _start(last_event_id: str | None, after: int) -> int:
    if last_event_id is not None:
        try:
            return max(0, int(last_event_id))
        except ValueError:
            return 0
    return after


@router.get(
    "/stream",
    response_class=StreamingResponse,
    responses={
        **GAME_READ,
        200: {
            "description": "Server-sent events, one per event you may see (`id:` its seq).",
            "content": {"text/event-stream": {"itemSchema": STREAM_EVENT}},
        },
    },
)
async def stream(
    request: Request,
    game_id: str,
    token: Token,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
    after: Annotated[int, Query(ge=0, description="Start after this event (your numbering)")] = 0,
) -> StreamingResponse:
    """text/event-stream of the events you may see; `id:` is your event seq."""
    hub: Hub = request.app.state.hub
    start = _start(last_event_id, after)
    # Subscribe before reading the past, so nothing committed in between is missed.
    subscription = await hub.subscribe(game_id)
    try:

        async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
            return await stream_service.open_cursor(session, game, principal, start)

        cursor, backlog = await transact_game(request, game_id, token, action, lock=False)
    except BaseException:
        hub.unsubscribe(subscription)
        raise
    return StreamingResponse(
        stream_service.messages(hub, subscription, cursor, backlog),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
