"""The public pages: the list of games, the language switch, a game's spectator page and
the invite links."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import transact
from app.api.security import (
    set_session_cookie,
)
from app.errors import AppError
from app.services import pages as pages_service
from app.services import sessions as sessions_service
from app.services import verify as verify_service
from app.web import views
from app.web.messages import (
    LANG_COOKIE,
    LANGS,
    game_pages,
    game_title,
    game_translator,
    translator,
)
from app.web.routes.accounts import bind_after_join, my_games_section
from app.web.routes.base import error_page, language, load, now, posted, render, see_other

router = APIRouter(include_in_schema=False)


# --- public pages ---------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
async def index(request: Request) -> Response:
    lang = language(request)
    t = translator(lang)
    at = now(request)

    async def lobby(session: AsyncSession) -> Any:
        return await pages_service.public_games(session, at)

    games = await transact(request, lobby, read_only=True)
    rows = [
        {
            **g,
            "ruleset_label": game_title(g["ruleset"], lang),
            "status_label": t(f"status_{g['status']}"),
            "created": views.local_time(g["created_at"], g["timezone"]),
            "deadline_local": views.local_time(g["deadline"], g["timezone"]),
        }
        for g in games
    ]
    return render(request, "index.html", {"games": rows, "mine": await my_games_section(request)})


@router.get("/lang/{code}")
async def set_language(request: Request, code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = see_other(target)
    if code in LANGS:
        response.set_cookie(LANG_COOKIE, code, max_age=365 * 86400, path="/", samesite="lax")
    return response


def _game_context(page: dict[str, Any], lang: str) -> dict[str, Any]:
    ruleset = page["summary"]["ruleset"]
    view = page["view"]
    in_play = view.get("phase") != "setup" and page["summary"]["status"] != "setup"
    t = game_translator(lang, ruleset)
    context: dict[str, Any] = {
        "game": views.header(page, lang),
        "feed": views.feed(page, lang),
        "ruleset": ruleset,
        "in_play": in_play,
        "parts": game_pages(ruleset).spectator_parts(page, t, lang) if in_play else [],
        "list": page.get("signup"),  # sign-ups while in setup (signup_list.html)
    }
    return context


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def spectator(request: Request, game_id: str, verify: int = 0) -> Response:
    lang = language(request)
    try:
        page = await load(request, game_id, None, pages_service.spectator_page)
        context = _game_context(page, lang)
        if verify and page["summary"].get("seed"):
            sessionmaker = request.app.state.sessionmaker
            context["verified"] = await verify_service.verify(sessionmaker, game_id)
    except AppError as error:
        return error_page(request, error)
    return render(request, "game.html", {**context, "stream": f"/api/v1/games/{game_id}/stream"})


# --- invites ----------------------------------------------------------------------------------
@router.get("/join/{code}", response_class=HTMLResponse)
async def join(request: Request, code: str) -> Response:
    """Shows who the invite is for; spends nothing (link previews fetch this)."""

    async def target(session: AsyncSession) -> Any:
        game, player = await sessions_service.invite_target(session, code)
        return {"title": game.title, "name": player.name}

    try:
        found = await transact(request, target, read_only=True)
    except AppError as error:
        return error_page(request, error)
    return render(request, "join.html", {"invite": found, "code": code})


@router.post("/join/{code}")
async def join_confirm(request: Request, code: str) -> Response:
    try:
        await posted(request)

        async def redeem(session: AsyncSession) -> Any:
            return await sessions_service.redeem_invite(session, code, now(request))

        game_id, secret = await transact(request, redeem)
    except AppError as error:
        if error.code == "invite_invalid":  # spent meanwhile: the link's own page says so
            return see_other(f"/join/{code}")
        return error_page(request, error)
    await bind_after_join(request, game_id, secret)
    response = see_other(f"/play/{game_id}")
    set_session_cookie(response, request, game_id, secret)
    return response
