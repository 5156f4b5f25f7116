"""The player's page and its forms: orders (by form or in words), revisions, withdrawals,
ready, and the odds fragment a game may offer."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import transact_game
from app.api.security import (
    director_token_from_cookie,
    session_token_from_cookie,
)
from app.bridge import service as bridge_service
from app.chat import links as chat_links
from app.errors import AppError, not_found
from app.models import EventRow, Game
from app.rules.base import player_audience
from app.rules.registry import get_ruleset
from app.services import games as games_service
from app.services import orders as orders_service
from app.services import pages as pages_service
from app.services import text_orders
from app.services.auth import Principal, require_player
from app.web import forms, views
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.lines import describe_event
from app.web.messages import (
    game_pages,
    game_translator,
    pick,
    translator,
)
from app.web.routes.base import (
    _NAME,
    _PLAYER_NOTICES,
    ODDS_ROUNDS,
    _order_schema,
    _typed,
    act,
    error_page,
    language,
    load,
    now,
    posted,
    render,
    see_other,
    untranslated,
)
from app.web.routes.public import _game_context

router = APIRouter(include_in_schema=False)


async def _play_page(
    session: AsyncSession, game: Game, principal: Principal, now: Any
) -> dict[str, Any]:
    """The player's page, and what it shows about the forum thread (a link code)."""
    page = await pages_service.player_page(session, game, principal, now)
    page["forum_link"] = await bridge_service.player_link(session, game, principal, now)
    page["chat"] = await chat_links.player_chat(session, game, principal)
    page["moment"] = _moment(game)
    return page


def _moment(game: Game) -> str:
    """Where the game stands (status, phase, round or day): a notice is about the moment
    it answered, and is not shown once the game has moved on."""
    state = game.state or {}
    phase = get_ruleset(game.ruleset).phase(game.state) if game.state is not None else "setup"
    return f"{game.status}:{phase}:{state.get('round', '')}:{state.get('day', '')}"


async def _signed_out(request: Request, game_id: str, reason: str) -> Response:
    """Why this browser is not a player of the game, and how to get back in. Clears no
    cookie: a GET must change nothing (a cross-site link can make one)."""
    try:
        page = await load(request, game_id, None, pages_service.spectator_page)
    except AppError as error:
        return error_page(request, error)
    title = str(page["summary"]["title"])
    none = untranslated(translator(language(request))("signed_out_none", title=_NAME), _NAME, title)
    context = {"title": title, "game_id": game_id, "reason": reason, "none_line": none}
    return render(request, "signed_out.html", context)


def _refill(fields: list[forms.Field], values: dict[str, Any]) -> None:
    """Put typed values back into a form's fields (names as ``forms.body_from_form`` reads
    them: ``troops.0`` for a list, ``moves.1.from`` for rows)."""
    for f in fields:
        if f.kind == "list":
            f.value = [str(values.get(f"{f.name}.{i}", "")) for i in range(f.count)]
        elif f.kind == "rows":
            rows = []
            for i in range(f.count):
                row = {}
                for c in f.columns:
                    name = c.name if f.count == 1 else f"{f.name}.{i}.{c.name}"
                    row[c.name] = str(values.get(name, ""))
                rows.append(row)
            f.value = rows
        elif f.kind == "checkboxes":
            chosen = values.get(f.name, [])
            f.value = chosen if isinstance(chosen, list) else [chosen]
        elif f.kind == "checkbox":
            f.value = f.name in values
        elif f.name in values:
            f.value = values[f.name]


async def _player_view(request: Request, game_id: str) -> Response:
    token = session_token_from_cookie(request, game_id)
    if token is None:
        director = director_token_from_cookie(request, game_id) is not None
        return await _signed_out(request, game_id, "director" if director else "none")
    lang = language(request)
    try:
        page = await load(request, game_id, token, _play_page)
        link = page.get("forum_link")
        if link is not None and link.get("code") is None:  # first view: make the code

            async def make_code(session: AsyncSession, game: Game, principal: Principal) -> Any:
                return await bridge_service.player_link(
                    session, game, principal, now(request), create=True
                )

            page["forum_link"] = await act(request, game_id, token, make_code)
    except AppError as failure:
        if failure.status == 401:
            return await _signed_out(request, game_id, "ended")
        if failure.status == 403 and failure.code != "csrf_failed":
            return await _signed_out(request, game_id, "director")
        return error_page(request, failure)
    flash = peek_flash(request) or {}
    context = _game_context(page, lang)
    view = page["view"]
    summary = page["summary"]
    ruleset = summary["ruleset"]
    you = view.get("you") or {}
    started = summary["status"] != "setup"
    pages = game_pages(ruleset)
    t = game_translator(lang, ruleset)
    line = pages.you_play(you, t, _NAME)
    context["you"] = untranslated(line, _NAME, str(you.get("name") or ""))
    context["orders_title"] = pages.own_orders_title(t)
    context["text_order_hint"] = pages.text_order_hint(t)
    context["dead"] = started and not pages.alive(view)
    context["started"] = started
    if not started:
        context["roster"] = list(page["names"].values())
        context["forms"] = []
        context["revise_fields"] = {}
        context["orders"] = []
    else:
        context["forms"] = views.order_forms(
            ruleset, _order_schema(ruleset), page["available"], page, lang
        )
        context["revise_fields"] = {f["type"]: f["fields"] for f in context["forms"] if f["fields"]}
        context["orders"] = pages.own_orders(page, t, lang)
        context["odds"] = pages.has_odds(view)
        context["ready"] = pages.ready(view)
        context["parts"] = pages.player_parts(page, t, lang) if context["in_play"] else []
    context["forum_link"] = views.forum_link(page.get("forum_link"), lang)
    code = flash.get("chat_code") if isinstance(flash.get("chat_code"), str) else None
    context["chat_link"] = views.chat_link(page.get("chat"), code, lang)
    context["can_ready"] = started and summary["status"] == "running" and pages.can_ready(view)
    # What the last form post left (post/redirect/get): shown once, and only while the game
    # is where it was when the post was answered.
    current = flash.get("moment") == page.get("moment") and summary["status"] != "finished"
    typed = flash.get("form") if isinstance(flash.get("form"), dict) else None
    if flash.get("error") and isinstance(flash["error"], dict):
        failed = flash["error"]
        context["error"] = {
            "message": pick(lang, failed.get("zh"), failed.get("en")),
            "rule": failed.get("rule") or "",
        }
    if current and flash.get("notice") in _PLAYER_NOTICES:
        context["notice"] = t(str(flash["notice"]))
    if current and isinstance(flash.get("lines"), list):
        context["outcome"] = [str(line) for line in flash["lines"]][:12]
    if isinstance(flash.get("reading"), str):
        context["reading"] = flash["reading"]
    context["typed"] = _apply_typed(context, typed)
    response = render(
        request, "play.html", {**context, "stream": f"/api/v1/games/{game_id}/stream"}
    )
    clear_flash(request, response, f"/play/{game_id}")
    return response


def _apply_typed(context: dict[str, Any], typed: dict[str, Any] | None) -> dict[str, Any]:
    """Refill the form a refused post came from; say which one it was (the page opens it)."""
    if not typed:
        return {}
    given = typed.get("values")
    values: dict[str, Any] = given if isinstance(given, dict) else {}
    action = typed.get("action")
    kind = str(values.get("type") or "")
    if action == "order":
        for f in context["forms"]:
            if f["type"] == kind:
                f["fields"] = [copy.copy(x) for x in f["fields"]]
                _refill(f["fields"], values)
    elif action == "revise":
        fields = [copy.copy(x) for x in context["revise_fields"].get(kind, [])]
        _refill(fields, values)
        context["revise_typed"] = {"order_id": str(typed.get("order_id") or ""), "fields": fields}
    return {"action": action, "type": kind, "text": str(values.get("text") or "")}


@router.get("/play/{game_id}", response_class=HTMLResponse)
async def play(request: Request, game_id: str) -> Response:
    return await _player_view(request, game_id)


def _order_body(ruleset: str, form: FormData) -> dict[str, Any]:
    """The order a form describes, read back through the ruleset's order schema."""
    schema = _order_schema(ruleset)
    kind = str(form.get("type") or "")
    member = forms.variants(schema, "type").get(kind) if schema else None
    if member is None or schema is None:
        raise AppError(422, "bad_order", "没有这种指令。", "There is no such order.")
    try:
        return {"type": kind, **forms.body_from_form(form, member, schema, skip=("type",))}
    except ValueError:
        raise AppError(
            422, "bad_order", "请填写有效的数字。", "Please enter valid numbers."
        ) from None


async def _my_private_lines(
    session: AsyncSession, game: Game, principal: Principal, after: int, lang: str
) -> list[str]:
    """What a step told this player alone (an instant action's outcome: a hunt's result,
    an explore's find), in the reader's language: the events numbered after ``after`` that
    are addressed to this player."""
    rows = (
        await session.scalars(
            select(EventRow)
            .where(EventRow.game_id == game.id, EventRow.seq > after)
            .order_by(EventRow.seq)
        )
    ).all()
    names = {p.id: p.name for p in await games_service.roster(session, game)}
    player = require_player(principal)
    mine = player_audience(player.id)
    lines = []
    for row in rows:
        if mine not in row.audience:  # not public lines, nor the side's ("A submitted…")
            continue
        text = describe_event(row.kind, row.data, lang, game.ruleset, names, game.settings)
        if text:
            lines.append(text)
    return lines[:12]


def _my_numbers(game: Game, principal: Principal) -> dict[str, Any]:
    """The player's own numbers an instant action may change, as their view shows them
    (nothing for a game whose actions change none at once)."""
    numbers = game_pages(game.ruleset).action_numbers
    if game.state is None or not numbers:
        return {}
    seen = get_ruleset(game.ruleset).view(game.state, principal.viewer)
    return {key: seen.get(key) for key in numbers if isinstance(seen.get(key), int)}


def _changed(was: dict[str, Any], now: dict[str, Any], lang: str, ruleset: str) -> list[str]:
    t = game_translator(lang, ruleset)
    return [
        t("changed_to", label=t(key), old=was[key], new=now[key])
        for key in was
        if key in now and was[key] != now[key]
    ]


async def _player_action(
    request: Request,
    game_id: str,
    do: Callable[[AsyncSession, Game, Principal, FormData], Awaitable[Any]],
    notice: str,
    action: str = "order",
    order_id: str = "",
) -> Response:
    """Every player form post ends in a redirect to the player's page (post/redirect/get):
    a refusal carries its reason and what was typed; a success its notice and outcome."""
    page = f"/play/{game_id}"
    token = session_token_from_cookie(request, game_id)
    if token is None:
        return see_other(page)
    lang = language(request)
    typed: dict[str, Any] = {}
    moment = ""
    try:
        form = await posted(request)
        typed = _typed(form)

        async def act_on(session: AsyncSession, game: Game, principal: Principal) -> Any:
            nonlocal moment
            require_player(principal)
            before = game.event_seq
            was = _my_numbers(game, principal)
            result = await do(session, game, principal, form)
            moment = _moment(game)  # where the answer leaves the game (a ready may end a phase)
            lines = await _my_private_lines(session, game, principal, before, lang)
            return result, lines + _changed(was, _my_numbers(game, principal), lang, game.ruleset)

        result, lines = await act(request, game_id, token, act_on)
    except AppError as error:
        if error.code == "csrf_failed":
            return error_page(request, error)
        response = see_other(page)
        if error.status != 401:  # signed out: the page says why, nothing to keep
            flash: dict[str, Any] = {
                "error": {"zh": error.message_zh, "en": error.message_en, "rule": error.rule},
                "form": {"action": action, "order_id": order_id, "values": typed},
            }
            set_flash(response, request, page, flash)
        return response
    shown: list[str] = []
    echo = result.get("echo") if isinstance(result, dict) else None
    if isinstance(echo, str) and echo:
        shown.append(translator(lang)("read_as", echo=echo))
    shown.extend(lines)
    response = see_other(page)
    set_flash(response, request, page, {"notice": notice, "lines": shown, "moment": moment})
    return response


@router.post("/play/{game_id}/orders")
async def submit_order(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = _order_body(game.ruleset, form)
        return await orders_service.submit_order(session, game, principal, body, now(request))

    return await _player_action(request, game_id, do, "order_saved")


@router.post("/play/{game_id}/orders/text")
async def submit_text_order(request: Request, game_id: str) -> Response:
    """An order written in words, read by the game's own grammar (as POST /orders reads
    ``{"text": …}``), then submitted like any other; the page reads back how it was
    understood."""

    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = {"text": str(form.get("text") or "")}
        english = language(request) == "en"
        return await orders_service.submit_order(
            session, game, principal, body, now(request), english
        )

    return await _player_action(request, game_id, do, "order_saved", action="text")


@router.post("/play/{game_id}/orders/read")
async def read_text_order(request: Request, game_id: str) -> Response:
    """ "Read back first": how the words read (the parser of ``POST /orders/parse``),
    submitting nothing; the page shows the reading above the text, kept as typed."""
    page = f"/play/{game_id}"
    token = session_token_from_cookie(request, game_id)
    if token is None:
        return see_other(page)
    english = language(request) == "en"
    text = ""
    try:
        form = await posted(request)
        text = str(form.get("text") or "")

        async def reading(session: AsyncSession, game: Game, principal: Principal) -> Any:
            return await text_orders.parse(session, game, principal, text, english)

        parsed = await transact_game(request, game_id, token, reading, lock=False)
    except AppError as error:
        if error.code == "csrf_failed":
            return error_page(request, error)
        response = see_other(page)
        if error.status != 401:
            failed = {"zh": error.message_zh, "en": error.message_en, "rule": error.rule}
            typed = {"action": "text", "values": {"text": text}}
            set_flash(response, request, page, {"error": failed, "form": typed})
        return response
    response = see_other(page)
    read = translator(language(request))("read_as", echo=parsed["echo"])
    typed = {"action": "text", "values": {"text": text}}
    set_flash(response, request, page, {"reading": read, "form": typed})
    return response


@router.post("/play/{game_id}/orders/{order_id}/revise")
async def revise_order(request: Request, game_id: str, order_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        body = _order_body(game.ruleset, form)
        return await orders_service.revise_order(
            session, game, principal, order_id, body, now(request)
        )

    return await _player_action(
        request, game_id, do, "order_revised", action="revise", order_id=order_id
    )


@router.post("/play/{game_id}/orders/{order_id}/withdraw")
async def withdraw_order(request: Request, game_id: str, order_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await orders_service.withdraw_order(session, game, principal, order_id, now(request))

    return await _player_action(request, game_id, do, "order_withdrawn", action="withdraw")


@router.post("/play/{game_id}/ready")
async def ready(request: Request, game_id: str) -> Response:
    async def do(session: AsyncSession, game: Game, principal: Principal, form: FormData) -> Any:
        return await orders_service.mark_ready(session, game, principal, now(request))

    return await _player_action(request, game_id, do, "ready_saved", action="ready")


@router.post("/play/{game_id}/chat/code")
async def chat_code(request: Request, game_id: str) -> Response:
    """A one-time code linking a chat account to this seat, shown once on the page."""
    return await _chat_post(request, game_id, "code")


@router.post("/play/{game_id}/chat/notify")
async def chat_notify(request: Request, game_id: str) -> Response:
    """The player's opt-in to reminders and private results by private message."""
    return await _chat_post(request, game_id, "notify")


async def _chat_post(request: Request, game_id: str, what: str) -> Response:
    page = f"/play/{game_id}"
    token = session_token_from_cookie(request, game_id)
    if token is None:
        return see_other(page)
    try:
        form = await posted(request)

        async def do(session: AsyncSession, game: Game, principal: Principal) -> Any:
            player = require_player(principal)
            if what == "code":
                return await chat_links.make_code(session, game, principal, player.id, now(request))
            wanted = form.get("notify") == "on"
            return await chat_links.set_notify(session, game, principal, wanted)

        result = await act(request, game_id, token, do)
    except AppError as error:
        return error_page(request, error)
    response = see_other(page)
    if what == "code":
        set_flash(response, request, page, {"chat_code": result["code"]})
    return response


@router.post("/play/{game_id}/odds", response_class=HTMLResponse)
async def odds(request: Request, game_id: str) -> Response:
    """The odds preview as an HTML fragment, for the order being drafted (404 for a game
    that has none)."""
    token = session_token_from_cookie(request, game_id)
    lang = language(request)
    try:
        form = await posted(request)
        page = await load(request, game_id, token, pages_service.player_page)
    except AppError as error:
        return error_page(request, error)
    ruleset = page["summary"]["ruleset"]
    draft = _odds_draft(ruleset, form)
    view = page["view"]
    seed = hashlib.sha256(repr((game_id, view.get("round"), view.get("phase"), draft)).encode())
    replacing = str(form.get("replacing") or "") or None
    t = game_translator(lang, ruleset)
    rng = random.Random(seed.digest())
    part = game_pages(ruleset).odds(view, draft, rng, ODDS_ROUNDS, replacing, t, lang)
    if part is None:  # a game without odds: there is no such fragment
        return error_page(request, not_found("预估", "preview"))
    return render(request, part.template, {"part": part, "ruleset": ruleset})


def _odds_draft(ruleset: str, form: FormData) -> list[dict[str, Any]]:
    """The order being drafted, if the form holds one: a half-filled form (or a Dispatch
    with no move filled in yet) previews only the orders already given."""
    if not form.get("type"):
        return []
    try:
        draft = _order_body(ruleset, form)
    except AppError:
        return []
    schema = _order_schema(ruleset) or {}
    member = forms.variants(schema, "type").get(str(draft["type"])) or {}
    if any(draft.get(name) in (None, [], "") for name in member.get("required", [])):
        return []
    return [draft]
