"""The console's safety net: undo resolutions (a reason, a confirmation), fork a sandbox
(the browser becomes its director and goes there)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.security import director_token_from_cookie, set_director_cookie
from app.errors import AppError
from app.models import Game
from app.services.auth import Principal
from app.services.safety import sandbox as sandbox_service
from app.services.safety import undo as undo_service
from app.web.flash import set_flash
from app.web.routes.base import (
    _console_path,
    _director_action,
    _int,
    _problem,
    act,
    error_page,
    now,
    posted,
    see_other,
)

router = APIRouter(include_in_schema=False)


@router.post("/director/{game_id}/undo")
async def director_undo(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        minutes = str(form.get("deadline_minutes") or "").strip()
        body: dict[str, Any] = {
            "steps": _int(form, "steps", 1),
            "reason": str(form.get("reason") or ""),
        }
        if minutes:
            body["deadline_seconds"] = _int(form, "deadline_minutes") * 60
        return await undo_service.undo(session, game, principal, body, now(request))

    def said(result: Any, form: FormData, t: Callable[..., str], lang: str) -> str:
        return t("notice_undone", n=len(result["undo"]["steps"]))

    return await _director_action(
        request, game_id, do, notice=said, anchor="undo", form_id="undo", confirm=True
    )


@router.post("/director/{game_id}/fork")
async def director_fork(request: Request, game_id: str) -> Response:
    """Fork a sandbox; this browser becomes its director and lands on its console."""
    token = director_token_from_cookie(request, game_id)
    try:
        form = await posted(request)
    except AppError as error:
        return error_page(request, error)
    raw = str(form.get("at_step") or "").strip()

    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        body = {"at_step": _int(form, "at_step")} if raw else {}
        return await sandbox_service.fork(session, game, principal, body, now(request))

    try:
        made = await act(request, game_id, token, action)
    except AppError as error:
        if error.status == 404:
            return error_page(request, error)
        response = see_other(_console_path(game_id) + "#sandbox")
        set_flash(response, request, _console_path(game_id), {"error": _problem(error)})
        return response
    response = see_other(_console_path(made["id"]))
    set_director_cookie(response, request, made["id"], made["director_token"])
    return response
