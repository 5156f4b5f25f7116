"""The account pages: "我的游戏" on the home page (from the browser's own sessions, and the
account's seats when signed in), /me (passkeys, recovery codes, tokens, the consent setting),
and opening one of the account's seats on this device. The passkey ceremonies themselves run
in the browser (``/static/accounts.js``) against the API (``app/api/accounts.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import passkeys, service, tokens
from app.accounts.record import account_record, sign_up_record
from app.api.accounts import account_cookie, client_of, set_account_cookie
from app.api.deps import transact
from app.api.security import director_token_from_cookie, set_director_cookie, set_session_cookie
from app.errors import AppError
from app.models import Game
from app.services.auth import Principal
from app.services.signup_models import SignupRow
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.messages import game_title, translator
from app.web.routes.base import error_page, language, load, now, posted, render, see_other

router = APIRouter(include_in_schema=False)
ME = "/me"


def _rows(games: list[dict[str, Any]], lang: str, from_cookies: set[str]) -> list[dict[str, Any]]:
    t = translator(lang)
    rows = []
    for g in games:
        path = "/play/" if g["role"] == "player" else "/director/"
        rows.append(
            {
                **g,
                "href": path + g["game_id"],
                "here": f"{g['game_id']}:{g['role']}" in from_cookies,
                "ruleset_label": game_title(g["ruleset"], lang),
                "status_label": t(f"status_{g['status']}"),
                "role_label": t(f"role_{g['role']}"),
            }
        )
    return rows


async def my_games_section(request: Request) -> dict[str, Any]:
    """The home page's "我的游戏": what ``my_games.html`` shows."""

    async def action(session: AsyncSession) -> Any:
        account = await service.signed_in(session, account_cookie(request))
        held = service.held_sessions(request.cookies)
        here = await service.seats_of_sessions(session, held)
        games = await service.my_games(session, account.id if account else None, request.cookies)
        return account.name if account else None, games, here

    name, games, here = await transact(request, action, read_only=True)
    keys = {f"{g['game_id']}:{g['role']}" for g in here}
    return {"account_name": name, "games": _rows(games, language(request), keys)}


@router.get(ME, response_class=HTMLResponse)
async def account_page(request: Request) -> Response:
    lang = language(request)

    async def action(session: AsyncSession) -> Any:
        account = await service.signed_in(session, account_cookie(request))
        if account is None:
            return None
        return {
            "account": await service.describe(session, account),
            "record": await account_record(session, account.id),
        }

    found = await transact(request, action, read_only=True)
    if found is None:
        return render(request, "account_signin.html", {})
    section = await my_games_section(request)
    flash = peek_flash(request) or {}
    account = found["account"]
    for p in account["passkeys"]:
        p["added"] = _when(p["created_at"])
        p["used"] = _when(p["last_used_at"])
    response = render(
        request,
        "account.html",
        {
            "mine": section,
            "account": account,
            "record": found["record"],
            "shown_codes": flash.get("codes"),
            "shown_token": flash.get("token"),
            "notice": flash.get("notice", {}).get(lang),
            "error": flash.get("error", {}).get(lang),
        },
    )
    clear_flash(request, response, ME)
    return response


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M") + " UTC" if value is not None else ""


async def _account_form(request: Request, do: Any, notice: str | None = None) -> Response:
    """A form on /me: check CSRF, act as the signed-in account, back to /me (PRG)."""
    try:
        form = await posted(request)

        async def action(session: AsyncSession) -> Any:
            account = await service.require_account(session, account_cookie(request))
            return await do(session, account, form)

        shown = await transact(request, action)
    except AppError as error:
        if error.code in ("csrf_failed", "not_signed_in"):
            return error_page(request, error)
        response = see_other(ME)
        set_flash(
            response, request, ME, {"error": {"zh": error.message_zh, "en": error.message_en}}
        )
        return response
    response = see_other(ME)
    flashed: dict[str, Any] = dict(shown) if isinstance(shown, dict) else {}
    if notice is not None:
        flashed["notice"] = {lang: translator(lang)(notice) for lang in ("zh", "en")}
    if flashed:
        set_flash(response, request, ME, flashed)
    return response


@router.post("/me/settings")
async def save_settings(request: Request) -> Response:
    async def do(session: AsyncSession, account: Any, form: Any) -> None:
        service.set_share_record(account, form.get("share_record") == "1")

    return await _account_form(request, do, "account_saved")


@router.post("/me/recovery-codes")
async def new_codes(request: Request) -> Response:
    async def do(session: AsyncSession, account: Any, form: Any) -> dict[str, Any]:
        return {"codes": await service.new_recovery_codes(session, account.id)}

    return await _account_form(request, do)


@router.post("/me/tokens")
async def new_token(request: Request) -> Response:
    async def do(session: AsyncSession, account: Any, form: Any) -> dict[str, Any]:
        name = str(form.get("name") or "").strip()[:100]
        if not name:
            raise AppError(422, "invalid_form", "请填写令牌名称。", "Please name the token.")
        scopes = [str(s) for s in form.getlist("scopes")]
        made = await tokens.create_token(session, account.id, name, scopes, now(request))
        return {"token": made["token"]}

    return await _account_form(request, do)


@router.post("/me/tokens/{token_id}/revoke")
async def revoke(request: Request, token_id: str) -> Response:
    async def do(session: AsyncSession, account: Any, form: Any) -> None:
        await tokens.revoke_token(session, account.id, token_id, now(request))

    return await _account_form(request, do, "token_revoked")


@router.post("/me/open/{game_id}")
async def open_seat(request: Request, game_id: str) -> Response:
    """One of the account's seats on this device: a fresh session for that game."""
    try:
        form = await posted(request)
        role = str(form.get("role") or "player")

        async def action(session: AsyncSession) -> Any:
            account = await service.require_account(session, account_cookie(request))
            return await service.open_seat(session, account.id, game_id, role, now(request))

        cookie, secret = await transact(request, action)
    except AppError as error:
        return error_page(request, error)
    if cookie == "player":
        response = see_other(f"/play/{game_id}")
        set_session_cookie(response, request, game_id, secret)
    else:
        response = see_other(f"/director/{game_id}")
        set_director_cookie(response, request, game_id, secret)
    return response


@router.post("/me/recover")
async def recover(request: Request) -> Response:
    """Sign in with a recovery code (a form: no passkey needed)."""
    try:
        form = await posted(request)
        code = str(form.get("code") or "")[:64]
        await transact(
            request,
            lambda s: passkeys.note_attempt(s, "recovery", client_of(request), now(request)),
        )

        async def action(session: AsyncSession) -> Any:
            at = now(request)
            account = await service.redeem_recovery_code(session, code, at)
            secret = await service.start_session(session, account.id, account_cookie(request), at)
            await service.bind_seats(session, account.id, request.cookies, at)
            return secret

        secret = await transact(request, action)
    except AppError as error:
        return error_page(request, error)
    response = see_other(ME)
    set_account_cookie(response, request, secret)
    return response


@router.post("/me/signout")
async def sign_out(request: Request) -> Response:
    try:
        await posted(request)
    except AppError as error:
        return error_page(request, error)
    secret = account_cookie(request)
    if secret:
        await transact(request, lambda s: service.end_session(s, secret, now(request)))
    response = see_other(ME)
    response.delete_cookie(service.ACCOUNT_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.post("/me/delete")
async def delete(request: Request) -> Response:
    try:
        form = await posted(request)
        if form.get("confirm") != "1":
            raise AppError(
                422, "confirm_needed", "请勾选确认框。", "Please tick the confirmation box."
            )

        async def action(session: AsyncSession) -> None:
            account = await service.require_account(session, account_cookie(request))
            await service.delete_account(session, account)

        await transact(request, action)
    except AppError as error:
        return error_page(request, error)
    response = see_other("/")
    response.delete_cookie(service.ACCOUNT_COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def bind_after_join(request: Request, game_id: str, secret: str) -> None:
    """An invite redeemed while signed in: the new seat joins the account at once."""
    account_secret = account_cookie(request)
    if not account_secret:
        return

    async def action(session: AsyncSession) -> None:
        account = await service.signed_in(session, account_secret)
        if account is not None:
            cookies = {f"{service.PLAYER_COOKIE_PREFIX}{game_id}": secret}
            await service.bind_seats(session, account.id, cookies, now(request))

    await transact(request, action)


async def note_sign_up(request: Request, signup_id: str) -> None:
    """A sign-up made while signed in carries the account: the director reviewing it sees
    the account's record, if it is shared."""
    account_secret = account_cookie(request)
    if not account_secret:
        return

    async def action(session: AsyncSession) -> None:
        account = await service.signed_in(session, account_secret)
        row = await session.get(SignupRow, signup_id)
        if account is not None and row is not None:
            row.account_id = account.id

    await transact(request, action)


@router.get("/director/{game_id}/record/{player_id}", response_class=HTMLResponse)
async def sign_up_record_page(request: Request, game_id: str, player_id: str) -> Response:
    """The director reviewing a sign-up: how reliably this player has played before, when
    their account shares it (else a 404 page saying it is not shared)."""

    async def page(session: AsyncSession, game: Game, principal: Principal, at: Any) -> Any:
        found = await sign_up_record(session, game, principal, player_id)
        return {**found, "title": game.title}

    try:
        found = await load(request, game_id, director_token_from_cookie(request, game_id), page)
    except AppError as error:
        return error_page(request, error)
    return render(request, "account_record.html", {"record": found, "game_id": game_id})
