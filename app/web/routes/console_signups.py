"""The console's sign-up controls (issue 20): the settings, approve / reject, a seat's
side, the list posted in the thread, and co-directors (invite, shown once; revoke).
Each form posts, then redirects back to the console (``_director_action``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.errors import AppError
from app.models import Game
from app.services import codirectors, signup_posts, signup_settings
from app.services import signups as service
from app.services.auth import Principal
from app.web.routes.base import _director_action, _say, now

router = APIRouter(include_in_schema=False)


def signup_closes_local(signups: dict[str, Any] | None, tz: str) -> str:
    """The closing time as a ``datetime-local`` input holds it, in the game's zone."""
    closes = ((signups or {}).get("settings") or {}).get("closes_at")
    if not closes:
        return ""
    return datetime.fromisoformat(closes).astimezone(ZoneInfo(tz)).strftime("%Y-%m-%dT%H:%M")


def _number(form: FormData, name: str) -> int | None:
    raw = str(form.get(name) or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise AppError(
            422, "bad_number", "请填写有效的数字。", "Please enter a valid number."
        ) from None


def _settings_of(form: FormData, tz: str) -> signup_settings.SignupSettings:
    closes_raw = str(form.get("closes_at") or "").strip()
    closes = None
    if closes_raw:
        try:
            closes = datetime.fromisoformat(closes_raw).replace(tzinfo=ZoneInfo(tz))
        except ValueError:
            raise AppError(
                422, "bad_time", "截止时间格式不对。", "The closing time is not a valid time."
            ) from None
    listed_raw = str(form.get("listed") or "")
    try:
        return signup_settings.SignupSettings(
            open=form.get("open") == "1",
            max_players=_number(form, "max_players"),
            min_players=_number(form, "min_players"),
            waitlist=form.get("waitlist") == "1",
            max_waitlist=_number(form, "max_waitlist") or 0,
            approval="director" if form.get("approval") == "director" else "auto",
            closes_at=closes,
            listed=None if listed_raw == "" else listed_raw == "1",
            side_assignment="seed" if form.get("side_assignment") == "seed" else "preference",
            offer_seconds=(_number(form, "offer_hours") or 24) * 3600,
        )
    except ValidationError as error:
        problems = "; ".join(str(e["msg"]) for e in error.errors())
        raise AppError(
            422,
            "invalid_form",
            f"报名设置有误：{problems}",
            f"Invalid sign-up settings: {problems}",
        ) from None


Do = Callable[[AsyncSession, Game, Principal, FormData], Any]


@router.post("/director/{game_id}/signups/settings")
async def signup_settings_form(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = _settings_of(form, game.timezone)
        return await signup_settings.put_settings(session, game, principal, body, now(request))

    return await _director_action(
        request, game_id, do, notice=_say("settings_saved"), anchor="signups"
    )


@router.post("/director/{game_id}/signups/post")
async def signup_list_post(request: Request, game_id: str) -> Response:
    base = str(request.base_url)

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await signup_posts.publish_list(session, game, principal, base, now(request))

    return await _director_action(request, game_id, do, notice=_say("su_posted"), anchor="signups")


@router.post("/director/{game_id}/signups/{signup_id}/{what}")
async def signup_decide(request: Request, game_id: str, signup_id: str, what: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        at = now(request)
        if what == "side":
            side = str(form.get("side") or "") or None
            return await service.set_side(session, game, principal, signup_id, side, at)
        if what not in ("approve", "reject"):
            raise AppError(404, "not_found", "找不到该操作。", "No such action.")
        return await service.decide(session, game, principal, signup_id, what == "approve", at)

    return await _director_action(request, game_id, do, notice=_say("done"), anchor="signups")


@router.post("/director/{game_id}/co-directors")
async def co_director_invite(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        scope = "review" if form.get("scope") == "review" else "all"
        name = str(form.get("name") or "")
        made = await codirectors.invite(session, game, principal, name, scope, now(request))
        return {"name": made["name"], "token": made["token"]}

    return await _director_action(request, game_id, do, show="co_director", anchor="co-directors")


@router.post("/director/{game_id}/co-directors/{director_id}/revoke")
async def co_director_revoke(request: Request, game_id: str, director_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await codirectors.revoke(session, game, principal, director_id, now(request))

    return await _director_action(request, game_id, do, notice=_say("done"), anchor="co-directors")
