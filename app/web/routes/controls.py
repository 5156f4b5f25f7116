"""The console's plain controls (start, pause, resume, advance): each one service call
on the game. Declared last: the paths of the other modules are matched first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.errors import AppError
from app.models import Game
from app.services import director as director_service
from app.services import games as games_service
from app.services.auth import Principal
from app.web import views
from app.web.routes.base import Notice, _director_action, error_page, now

router = APIRouter(include_in_schema=False)

# The console's plain controls: each one service call on the game, nothing to read.
# Declared last: the paths above (login, players, extend, tool…) are matched first.
CONTROLS: dict[str, Callable[[AsyncSession, Game, Principal, Any], Awaitable[Any]]] = {
    "start": games_service.start_game,
    "pause": director_service.pause,
    "resume": director_service.resume,
    "advance": director_service.advance,
    "advance-to-midnight": director_service.advance_to_midnight,
}
IRREVERSIBLE = {"start", "advance", "advance-to-midnight"}


def _control_notice(control: str) -> Notice:
    def said(result: Any, form: FormData, t: Callable[..., str], lang: str) -> str:
        if control == "advance":
            return t("notice_ran", what=views.ran_text(result["advanced"], lang))
        if control == "advance-to-midnight":
            return t("notice_ran_to_midnight", what=views.ran_text(result["advanced"], lang))
        return t(
            {"start": "notice_started", "pause": "notice_paused"}.get(control, "notice_resumed")
        )

    return said


@router.post("/director/{game_id}/{control}")
async def director_control(request: Request, game_id: str, control: str) -> Response:
    service = CONTROLS.get(control)
    if service is None:
        return error_page(request, AppError(404, "not_found", "没有这个地址。", "No such page."))

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await service(session, game, principal, now(request))

    return await _director_action(
        request,
        game_id,
        do,
        notice=_control_notice(control),
        anchor="controls",
        confirm=control in IRREVERSIBLE,
    )
