"""The public sign-up page, phone-first: a name, a forum name, a button (and a side to
ask for where the game has sides). A seat taken leaves the browser signed in to it (the
player's page); waiting, the page shows the place on the waitlist, and an offered seat
(a backup's turn) can be accepted or declined there."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import transact
from app.api.security import set_session_cookie, set_signup_cookie, signup_token_from_cookie
from app.errors import AppError
from app.services import backups, signup_pages
from app.services import signups as service
from app.services.games import load_game
from app.web import views
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.messages import game_translator, pick, side_name
from app.web.routes.accounts import bind_after_join, note_sign_up
from app.web.routes.base import _typed, error_page, language, now, posted, render, see_other

router = APIRouter(include_in_schema=False)


def _path(game_id: str) -> str:
    return f"/g/{game_id}/signup"


@router.get("/g/{game_id}/signup", response_class=HTMLResponse)
async def signup_page(request: Request, game_id: str) -> Response:
    lang = language(request)
    token = signup_token_from_cookie(request, game_id)

    async def read(session: AsyncSession) -> Any:
        game = await load_game(session, game_id)
        return await signup_pages.signup_page(session, game, token, now(request))

    try:
        page = await transact(request, read, read_only=True)
    except AppError as error:
        return error_page(request, error)
    ruleset = page["game"]["ruleset"]
    t = game_translator(lang, ruleset)
    flash = peek_flash(request) or {}
    failed = flash.get("error") if isinstance(flash.get("error"), dict) else None
    typed = flash.get("form") if isinstance(flash.get("form"), dict) else {}
    sides = [(s, side_name(s, lang, ruleset)) for s in page["list"]["sides"]]
    context = {
        **page,
        "ruleset": ruleset,
        "sides": sides,
        "closes_local": views.local_time(page["list"]["closes_at"], page["game"]["timezone"]),
        "error": pick(lang, failed["zh"], failed["en"]) if failed else None,
        "typed": typed,
        "notice": t(str(flash["notice"])) if flash.get("notice") else None,
    }
    response = render(request, "signup.html", context)
    if flash:
        clear_flash(request, response, _path(game_id))
    return response


@router.post("/g/{game_id}/signup")
async def signup_post(request: Request, game_id: str) -> Response:
    try:
        form = await posted(request)
    except AppError as error:
        return error_page(request, error)
    back = see_other(_path(game_id))
    try:
        body = service.SignupBody(
            name=str(form.get("name") or ""),
            forum_name=str(form.get("forum_name") or "").strip() or None,
            side=str(form.get("side") or "") or None,
        )
    except ValidationError:
        bad = AppError(
            422,
            "invalid_form",
            "请填写名字（最多 100 字，不能含不可见字符）。",
            "Please give a name (at most 100 characters, no invisible characters).",
        )
        return _refused(request, back, game_id, bad, form)
    address = request.client.host if request.client else None

    async def act(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=True)
        made = await service.sign_up(session, game, body, now(request), address, source="page")
        secret = None
        if made["player_id"]:
            secret = signup_pages.seat_session(session, game, made["player_id"], now(request))
        return made, secret

    try:
        made, secret = await transact(request, act)
    except AppError as error:
        if error.status == 404:
            return error_page(request, error)
        return _refused(request, back, game_id, error, form)
    if secret is not None:
        response = see_other(f"/play/{game_id}")
        set_session_cookie(response, request, game_id, secret)
        await bind_after_join(request, game_id, secret)  # signed in: the seat is the account's
    else:
        response = back
        set_flash(response, request, _path(game_id), {"notice": f"signup_{made['status']}_n"})
    set_signup_cookie(response, request, game_id, made["token"])
    await note_sign_up(request, made["id"])
    return response


def _refused(
    request: Request, back: Response, game_id: str, error: AppError, form: Any
) -> Response:
    flashed = {"error": {"zh": error.message_zh, "en": error.message_en}, "form": _typed(form)}
    set_flash(back, request, _path(game_id), flashed)
    return back


@router.post("/g/{game_id}/signup/{what}")
async def signup_action(request: Request, game_id: str, what: str) -> Response:
    """Withdraw, or (a backup offered a seat) accept or decline, with the cookie's token."""
    try:
        await posted(request)
    except AppError as error:
        return error_page(request, error)
    token = signup_token_from_cookie(request, game_id)
    admin = request.app.state.settings.admin_token
    back = see_other(_path(game_id))
    if what not in ("withdraw", "accept", "decline"):
        return error_page(request, AppError(404, "not_found", "找不到该页面。", "No such page."))

    async def act(session: AsyncSession) -> Any:
        game = await load_game(session, game_id, lock=True)
        signup_id = await signup_pages.signup_id_for(session, game, token)
        if signup_id is None:
            raise AppError(404, "not_found", "找不到你的报名。", "Your sign-up was not found.")
        at = now(request)
        if what == "withdraw":
            return await backups.withdraw(session, game, signup_id, token, admin, at)
        if what == "accept":
            taken = await backups.accept(session, game, signup_id, token, admin, at)
            return {
                **taken,
                "secret": signup_pages.seat_session(session, game, taken["player_id"], at),
            }
        return await backups.decline(session, game, signup_id, token, admin, at)

    try:
        result = await transact(request, act)
    except AppError as error:
        if error.code == "not_found" and error.status == 404 and "game" in error.message_en:
            return error_page(request, error)
        set_flash(
            back,
            request,
            _path(game_id),
            {"error": {"zh": error.message_zh, "en": error.message_en}},
        )
        return back
    if what == "accept":
        response = see_other(f"/play/{game_id}")
        set_session_cookie(response, request, game_id, result["secret"])
        await bind_after_join(request, game_id, result["secret"])
        return response
    notice = "signup_withdrawn" if what == "withdraw" else "signup_declined"
    set_flash(back, request, _path(game_id), {"notice": notice})
    return back
