"""The director's console page, signing in and out, the deadline, the roster (add,
invite, replace, revoke) and the game's director tools."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import transact
from app.api.schemas import AddPlayer
from app.api.security import (
    clear_director_cookie,
    director_token_from_cookie,
    set_director_cookie,
)
from app.chat import bots as chat_bots
from app.errors import AppError
from app.models import Game
from app.publish.outbox import SERVICE_TIMER_KINDS
from app.services import codirectors
from app.services import director as director_service
from app.services import games as games_service
from app.services import sessions as sessions_service
from app.services.auth import Principal
from app.services.safety import console as safety_console
from app.web import forms, views
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.messages import (
    game_pages,
    game_translator,
    game_words,
    side_name,
    tool_name,
)
from app.web.routes.base import (
    CHANNEL_SCHEMAS,
    _console_path,
    _director_action,
    _int,
    _problem,
    _said,
    _tool_schema,
    error_page,
    language,
    load,
    now,
    posted,
    render,
    see_other,
    validated,
)
from app.web.routes.console_signups import signup_closes_local
from app.web.routes.public import _game_context
from app.web.views.safety import safety_view

router = APIRouter(include_in_schema=False)


async def _chat(session: AsyncSession, game: Game, principal: Principal, now: Any) -> Any:
    """The game's chat bots and who is linked where (None: no bot is on)."""
    try:
        found = await chat_bots.get_game_chat(session, game, principal)
    except AppError:
        return None  # a co-director who may not see it
    return found if found["bots"] or found["links"] else None


async def _console(request: Request, game_id: str) -> Response:
    lang = language(request)
    flash = peek_flash(request) or {}
    token = director_token_from_cookie(request, game_id)
    if token is None:
        response = render(
            request,
            "director_login.html",
            {"game_id": game_id, "error": _said(request, flash.get("error"))},
        )
        clear_flash(request, response, _console_path(game_id))
        return response
    try:
        page = await load(request, game_id, token, safety_console.director_page)
    except AppError as failure:
        if failure.status in (401, 403):
            return render(request, "director_login.html", {"game_id": game_id}, 401)
        return error_page(request, failure)
    ruleset = page["summary"]["ruleset"]
    context = _game_context(page, lang)
    context["chat_bots"] = views.chat_console(await load(request, game_id, token, _chat), lang)
    access = page["access"]
    tz = page["summary"]["timezone"]
    context["roster"] = [
        {
            **p,
            "side_label": side_name(p["side"], lang, ruleset),
            "sessions": access.get(p["id"], {}).get("sessions", 0),
            "invite_out": access.get(p["id"], {}).get("invite_out", False),
        }
        for p in page["roster"]
    ]
    publishing = page["publishing"]
    context["audit"] = views.audit_lines(
        page["audit"],
        page["names"],
        tz,
        lang,
        posts={p["id"]: p["title"] for p in publishing["posts"]},
        channels={c["id"]: c["name"] for c in publishing["channels"]},
        items=page["settings"].get("items", {}),
        ruleset=ruleset,
    )
    typed: dict[str, Any] = {"id": "", "values": {}}
    if isinstance(flash.get("form"), dict) and isinstance(flash["form"].get("values"), dict):
        typed = flash["form"]
    context["tools"] = views.tool_forms(ruleset, _tool_schema(ruleset), page, lang)
    for tool in context["tools"]:
        if typed.get("id") == f"tool-{tool['action']}":
            for fld in tool["fields"]:
                if fld.name in typed.get("values", {}):
                    fld.value = typed["values"][fld.name]
    pages = game_pages(ruleset)
    t = game_translator(lang, ruleset)
    context["console_parts"] = pages.console_parts(page, t, lang) if context["in_play"] else []
    context["publishing"] = views.publishing_console(
        publishing, page["timers"], tz, page["now"], lang, CHANNEL_SCHEMAS, game_words(ruleset)
    )
    game_timers = sorted(
        (x for x in page["timers"] if x.get("kind") not in SERVICE_TIMER_KINDS),
        key=lambda x: (x.get("due_at") is None, x.get("due_at") or "", x.get("kind") or ""),
    )
    context["next_timer"] = views.timer_text(game_timers[0], lang, ruleset) if game_timers else ""
    context["has_midnight"] = any(x.get("kind") == "midnight" for x in game_timers)
    context["safety"] = safety_view(page, game_timers, context["tools"], lang)
    shown: dict[str, Any] = flash["shown"] if isinstance(flash.get("shown"), dict) else {}
    origin = str(request.base_url).rstrip("/")
    for shown_key in ("invite", "replaced"):
        if not isinstance(shown.get(shown_key), dict):
            shown.pop(shown_key, None)
        elif str(shown[shown_key].get("url", "")).startswith("/"):
            # The API answers with a path; the director shares a whole link.
            shown[shown_key] = {**shown[shown_key], "url": origin + shown[shown_key]["url"]}
    error = flash.get("error") if isinstance(flash.get("error"), dict) else None
    context.update(
        {
            "setup": page["summary"]["status"] == "setup",
            "sides": [(s, pages.side_name(s, t)) for s in pages.sides],
            "shown": shown,
            "notice": _said(request, flash.get("notice")),
            "error": {"message": _said(request, error), "rule": error.get("rule")}
            if error
            else None,
            "typed": typed,
            "signups": page.get("signups"),  # the sign-ups part (director_signups.html)
            "signup_url": f"{origin}/g/{game_id}/signup",
            "signup_closes_local": signup_closes_local(page.get("signups"), tz),
        }
    )
    response = render(
        request,
        "director.html",
        {**context, "stream": f"/api/v1/games/{game_id}/stream?as=director"},
    )
    clear_flash(request, response, _console_path(game_id))
    return response


@router.get("/director/{game_id}", response_class=HTMLResponse)
async def console(request: Request, game_id: str) -> Response:
    return await _console(request, game_id)


@router.post("/director/{game_id}/login")
async def director_login(request: Request, game_id: str) -> Response:
    try:
        form = await posted(request)
        token = str(form.get("token") or "").strip()

        async def login(session: AsyncSession) -> Any:
            game = await games_service.load_game(session, game_id)
            co = await codirectors.console_login(session, game, token, now(request))
            if co is not None:  # a co-director's own token (issue 20)
                return co
            return await sessions_service.director_login(
                session, game, token, request.app.state.settings.admin_token, now(request)
            )

        secret = await transact(request, login)
    except AppError as error:
        if error.code == "csrf_failed" or error.status == 404:
            return error_page(request, error)
        response = see_other(_console_path(game_id))
        set_flash(response, request, _console_path(game_id), {"error": _problem(error)})
        return response
    response = see_other(_console_path(game_id))
    set_director_cookie(response, request, game_id, secret)
    return response


@router.post("/director/{game_id}/logout")
async def director_logout(request: Request, game_id: str) -> Response:
    token = director_token_from_cookie(request, game_id)
    try:
        await posted(request)
        if token:

            async def end(session: AsyncSession) -> None:
                game = await games_service.load_game(session, game_id)
                await sessions_service.end_session(session, game, token, now(request))
                await codirectors.end_console_session(session, game, token, now(request))

            await transact(request, end)
    except AppError as error:
        return error_page(request, error)
    response = see_other(_console_path(game_id))
    clear_director_cookie(response, request, game_id)
    return response


@router.post("/director/{game_id}/extend")
async def director_extend(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        minutes = _int(form, "minutes", 60)
        if not 1 <= minutes <= 7 * 24 * 60:
            raise AppError(
                422, "bad_number", "延长 1 分钟到 7 天。", "Extend by 1 minute to 7 days."
            )
        summary = await director_service.extend_deadline(
            session, game, principal, minutes * 60.0, None, None, now(request)
        )
        return {**summary, "minutes": minutes}

    def said(result: Any, form: FormData, t: Callable[..., str], lang: str) -> str:
        if result.get("deadline"):
            at = views.local_time(result["deadline"], result["timezone"])
            return t("notice_extended", n=result["minutes"], at=at)
        return t("notice_extended_paused", n=result["minutes"])

    return await _director_action(
        request, game_id, do, notice=said, anchor="controls", form_id="extend"
    )


@router.post("/director/{game_id}/players")
async def director_add_player(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = validated(
            AddPlayer,
            {
                "name": str(form.get("name") or "").strip(),
                "side": str(form.get("side") or "") or None,
                "forum_name": str(form.get("forum_name") or "").strip() or None,
            },
        )
        name = body.name
        added = await games_service.add_player(
            session, game, principal, name, body.side, now(request), body.forum_name
        )
        url = await sessions_service.new_invite(session, game, added["id"], now(request))
        return {"name": added["name"], "url": url}

    return await _director_action(
        request, game_id, do, show="invite", anchor="roster", form_id="add-player"
    )


@router.post("/director/{game_id}/players/{player_id}/invite")
async def director_invite(request: Request, game_id: str, player_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        made = await sessions_service.create_invite(
            session, game, principal, player_id, now(request)
        )
        return {"name": form.get("name") or "", **made}

    return await _director_action(request, game_id, do, show="invite", anchor="roster")


@router.post("/director/{game_id}/players/{player_id}/replace")
async def director_replace(request: Request, game_id: str, player_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await sessions_service.replace_player(
            session, game, principal, player_id, now(request)
        )

    return await _director_action(
        request, game_id, do, show="replaced", anchor="roster", confirm=True
    )


@router.post("/director/{game_id}/players/{player_id}/revoke")
async def director_revoke(request: Request, game_id: str, player_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        revoked = await sessions_service.revoke_player_sessions(
            session, game, principal, player_id, now(request)
        )
        return {**revoked, "name": str(form.get("name") or "")}

    return await _director_action(
        request, game_id, do, show="revoked", anchor="roster", confirm=True
    )


@router.post("/director/{game_id}/tool")
async def director_tool(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        action = str(form.get("action") or "")
        body: dict[str, Any] = {"action": action}
        schema = _tool_schema(game.ruleset)
        member = forms.variants(schema, "action").get(action) if schema else None
        if action == "resolve_story":
            body.update(queue_id=str(form.get("queue_id") or ""), text=str(form.get("text") or ""))
        elif member is not None and schema is not None:
            try:
                body.update(forms.body_from_form(form, member, schema, skip=("action",)))
            except ValueError:
                raise AppError(
                    422, "bad_number", "请填写有效的数字。", "Please enter valid numbers."
                ) from None
        return await director_service.director_action(session, game, principal, body, now(request))

    def said(result: Any, form: FormData, t: Callable[..., str], lang: str) -> str:
        chosen = str(form.get("action") or "")
        if chosen == "resolve_story":
            return t("notice_story")
        return t("notice_tool", what=tool_name("", chosen, lang))

    def form_id(form: FormData) -> str:
        chosen = str(form.get("action") or "")
        return f"story-{form.get('queue_id')}" if chosen == "resolve_story" else f"tool-{chosen}"

    def anchor(form: FormData) -> str:
        return "stories" if form.get("action") == "resolve_story" else "tools"

    def irreversible(form: FormData) -> bool:
        return views.irreversible_tool(str(form.get("action") or ""))

    return await _director_action(
        request,
        game_id,
        do,
        notice=said,
        anchor=anchor,
        form_id=form_id,
        confirm=irreversible,
    )
