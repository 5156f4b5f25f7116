"""The console's publishing forms: forum names, the review queue, posts, channels,
reminders and settings; deleting a game."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.publishing import (
    EditPost,
    ForumName,
    NewChannel,
    Posted,
    PublishingSettings,
    Reminders,
)
from app.api.security import (
    clear_director_cookie,
    director_token_from_cookie,
)
from app.errors import AppError
from app.models import Game
from app.publish import service as publish_lookups
from app.publish.models import PostRow
from app.services import games as games_service
from app.services import publishing as publishing_service
from app.services.auth import Principal
from app.web import views
from app.web.flash import set_flash
from app.web.routes.base import (
    Notice,
    _both,
    _confirm_needed,
    _console_path,
    _director_action,
    _problem,
    _say,
    act,
    error_page,
    now,
    posted,
    see_other,
    validated,
)
from app.web.routes.new_game import NEW_GAME

router = APIRouter(include_in_schema=False)


def _text(form: FormData, name: str) -> str:
    """A text a browser posted, with its line breaks as the posts have them (LF)."""
    return str(form.get(name) or "").replace("\r\n", "\n").replace("\r", "\n")


def _minutes(raw: str) -> int | None:
    """Minutes typed in a form, as seconds; empty: none."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        minutes = float(raw)
    except ValueError:
        raise AppError(
            422, "bad_number", "请填写有效的分钟数。", "Please enter a number of minutes."
        ) from None
    if minutes != minutes or minutes in (float("inf"), float("-inf")):
        raise AppError(
            422, "bad_number", "请填写有效的分钟数。", "Please enter a number of minutes."
        )
    return round(minutes * 60)


@router.post("/director/{game_id}/players/{player_id}/forum-name")
async def director_forum_name(request: Request, game_id: str, player_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        raw = str(form.get("forum_name") or "").strip()
        body = validated(ForumName, {"forum_name": raw or None})
        return await publishing_service.set_forum_name(
            session, game, principal, player_id, body.forum_name, now(request)
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=lambda result, form, t, lang: t("notice_forum_name", name=result["name"]),
        anchor="roster",
        form_id=f"fn-{player_id}",
    )


PostAction = Callable[[AsyncSession, Game, Principal, str, Any], Awaitable[Any]]
POST_ACTIONS: dict[str, PostAction] = {
    "approve": publishing_service.approve_post,
    "discard": publishing_service.discard_post,
    "retry": publishing_service.retry_post,
}
POST_NOTICES = {
    "approve": "notice_approved",
    "discard": "notice_discarded",
    "retry": "notice_retried",
}


def _titled(key: str) -> Notice:
    return lambda result, form, t, lang: t(key, title=result.get("title") or "")


@router.post("/director/{game_id}/posts/approve-all")
async def director_approve_all(request: Request, game_id: str) -> Response:
    """Approve, in order, every post the console showed awaiting review (``post_id``s in
    the form): a post made since the page was read is not approved unseen."""

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        shown = {str(v) for v in form.getlist("post_id")}
        waiting = await session.scalars(
            select(PostRow.id)
            .where(PostRow.game_id == game.id, PostRow.status == "awaiting_review")
            .order_by(PostRow.seq)
        )
        approved = 0
        for post_id in waiting.all():
            if post_id in shown:
                await publishing_service.approve_post(
                    session, game, principal, post_id, now(request)
                )
                approved += 1
        return {"approved": approved}

    def said(result: Any, form: FormData, t: Callable[..., str], lang: str) -> str:
        n = result["approved"]
        return t("notice_approved_all", n=n) if n else t("notice_none_to_approve")

    return await _director_action(request, game_id, do, notice=said, anchor="review")


@router.post("/director/{game_id}/posts/{post_id}/edit")
async def director_edit_post(request: Request, game_id: str, post_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        bodies = {f: _text(form, f"body_{f}") for f in views.FORMATS if f"body_{f}" in form}
        title = str(form.get("title") or "").strip()
        if not title:  # the API takes "" as a title; a cleared form field is a slip
            raise AppError(
                422,
                "invalid_form",
                "填写有误：标题不能为空",
                "Please check: title must not be empty",
            )
        body = validated(EditPost, {"title": title, "bodies": bodies})
        changed = body.bodies.model_dump(exclude_none=True) if body.bodies else {}
        return await publishing_service.edit_post(
            session, game, principal, post_id, body.title, changed, now(request)
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=_titled("notice_edited"),
        anchor=f"post-{post_id}",
        form_id=f"edit-{post_id}",
    )


@router.post("/director/{game_id}/posts/{post_id}/deliveries/{delivery_id}/posted")
async def director_mark_posted(
    request: Request, game_id: str, post_id: str, delivery_id: int
) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = validated(Posted, {"url": str(form.get("url") or "").strip()})
        return await publishing_service.mark_posted(
            session, game, principal, post_id, delivery_id, body.url, now(request)
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=_titled("notice_marked"),
        anchor="posts",
        form_id=f"url-{delivery_id}",
    )


@router.post("/director/{game_id}/posts/{post_id}/{verb}")
async def director_post_action(request: Request, game_id: str, post_id: str, verb: str) -> Response:
    service = POST_ACTIONS.get(verb)
    if service is None:
        return error_page(request, AppError(404, "not_found", "没有这个地址。", "No such page."))

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await service(session, game, principal, post_id, now(request))

    anchor = "review" if verb != "retry" else "posts"
    key = POST_NOTICES[verb]
    if verb == "discard" and form_has(await request.form(), "failed"):
        key, anchor = "notice_gave_up", "posts"
    return await _director_action(
        request, game_id, do, notice=_titled(key), anchor=anchor, confirm=verb == "discard"
    )


def form_has(form: FormData, name: str) -> bool:
    return bool(form.get(name))


@router.post("/director/{game_id}/publishing")
async def director_publishing(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = validated(
            PublishingSettings,
            {
                "review": str(form.get("review") or "never"),
                "auto_publish_after_seconds": _minutes(str(form.get("auto_minutes") or "")),
                "language": str(form.get("language") or "zh"),
            },
        )
        changes = body.model_dump(exclude_unset=True)
        return await publishing_service.set_publishing(
            session, game, principal, changes, now(request)
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=_say("settings_saved"),
        anchor="publishing-settings",
        form_id="publishing",
    )


@router.post("/director/{game_id}/reminders")
async def director_reminders(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        raw = str(form.get("minutes") or "")
        pieces = [p for p in re.split(r"[\s,，、;；]+", raw) if p]
        offsets = [_minutes(p) for p in pieces]
        body = validated(
            Reminders,
            {
                "before_seconds": offsets,
                "channel_id": str(form.get("channel_id") or "") or None,
            },
        )
        return await publishing_service.set_reminders(
            session, game, principal, body.before_seconds, body.channel_id, now(request)
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=_say("settings_saved"),
        anchor="publishing-settings",
        form_id="reminders",
    )


@router.post("/director/{game_id}/channels")
async def director_add_channel(request: Request, game_id: str) -> Response:
    allow_private = request.app.state.settings.publish_allow_private_urls

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        kind = str(form.get("kind") or "")
        prefix = f"config.{kind}."
        config = {
            key.removeprefix(prefix): str(value).strip()
            for key, value in form.multi_items()
            if key.startswith(prefix) and str(value).strip()
        }
        body = validated(
            NewChannel,
            {
                "kind": kind,
                "name": str(form.get("name") or "").strip(),
                "format": str(form.get("format") or "") or None,
                "config": config,
            },
        )
        return await publishing_service.create_channel(
            session,
            game,
            principal,
            body.kind,
            body.name,
            body.format,
            body.config,
            allow_private,
            now(request),
        )

    return await _director_action(
        request,
        game_id,
        do,
        notice=lambda result, form, t, lang: t("notice_channel_added", name=result["name"]),
        anchor="channels",
        form_id="channel",
    )


@router.post("/director/{game_id}/channels/{channel_id}/remove")
async def director_remove_channel(request: Request, game_id: str, channel_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        channel = await publish_lookups.game_channel(session, game, channel_id)
        name = channel.name
        await publishing_service.delete_channel(session, game, principal, channel_id, now(request))
        return {"name": name}

    return await _director_action(
        request,
        game_id,
        do,
        notice=lambda result, form, t, lang: t("notice_channel_removed", name=result["name"]),
        anchor="channels",
        confirm=True,
    )


@router.post("/director/{game_id}/delete")
async def director_delete_game(request: Request, game_id: str) -> Response:
    """Delete a game in setup (confirmed), sign this browser out of it, and say so on the
    create form; a finished game is archived instead, and the console says so."""
    token = director_token_from_cookie(request, game_id)
    try:
        form = await posted(request)
    except AppError as error:
        return error_page(request, error)
    try:
        if form.get("confirm") != "1":
            raise _confirm_needed()

        async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
            return await games_service.delete_game(session, game, principal, now(request))

        deleted = await act(request, game_id, token, action)
    except AppError as error:
        if error.status == 404:
            return error_page(request, error)
        response = see_other(_console_path(game_id) + "#danger")
        set_flash(response, request, _console_path(game_id), {"error": _problem(error)})
        return response
    if deleted["archived"]:  # a finished game stays, unlisted: back to its console
        response = see_other(_console_path(game_id))
        message = _both(lambda t, _: t("game_archived", title=deleted["title"]))
        set_flash(response, request, _console_path(game_id), {"notice": message})
        return response
    response = see_other(NEW_GAME)
    message = _both(lambda t, _: t("game_deleted", title=deleted["title"]))
    set_flash(response, request, NEW_GAME, {"notice": message})
    clear_director_cookie(response, request, game_id)
    return response
