"""The pages: parse the request, authorise, call one service, render a view model.

Every form post that a cookie authenticates checks the CSRF token first. A change that
succeeds redirects (303) back to its page. A player's form that is refused redirects too
(post/redirect/get, app/web/flash.py): the page then shows the reason and what was typed,
once. A page request that fails anyway gets an HTML error page in the reader's language
(``failure_page``, installed by app/main.py), never the API's problem+json.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import html
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    TemplateNotFound,
    select_autoescape,
)
from markupsafe import Markup, escape
from pydantic import BaseModel, ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import transact, transact_game
from app.api.publishing import (
    EditPost,
    ForumName,
    NewChannel,
    Posted,
    PublishingSettings,
    Reminders,
)
from app.api.schemas import AddPlayer
from app.api.security import (
    CSRF_FIELD,
    check_csrf,
    clear_director_cookie,
    csrf_token,
    director_token_from_cookie,
    ensure_csrf_cookie,
    page_headers,
    session_token_from_cookie,
    set_director_cookie,
    set_session_cookie,
)
from app.bridge import service as bridge_service
from app.errors import AppError
from app.models import EventRow, Game
from app.publish import service as publishing_service
from app.publish.channels import ADAPTERS
from app.publish.models import PostRow
from app.publish.outbox import SERVICE_TIMER_KINDS
from app.rules.base import player_audience
from app.rules.registry import all_rulesets, default_ruleset, get_ruleset
from app.services import director as director_service
from app.services import games as games_service
from app.services import orders as orders_service
from app.services import pages as pages_service
from app.services import sessions as sessions_service
from app.services import text_orders
from app.services import verify as verify_service
from app.services.auth import Principal, require_player
from app.web import forms, views
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.messages import (
    LANG_COOKIE,
    LANGS,
    UI,
    choose_language,
    describe_event,
    game_pages,
    game_title,
    game_translator,
    game_words,
    pick,
    setting_label,
    side_name,
    tool_name,
    translator,
)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
ODDS_ROUNDS = 10_000
M = TypeVar("M", bound=BaseModel)

router = APIRouter(include_in_schema=False)


class GameTemplates(BaseLoader):
    """A game's page partials, as "<game>/<name>.html", from its ``Pages.templates``."""

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        game, _, name = template.partition("/")
        folder = game_pages(game).templates if game and name else None
        if folder is None:
            raise TemplateNotFound(template)
        return FileSystemLoader(folder).get_source(environment, name)


templates = Environment(
    loader=ChoiceLoader([FileSystemLoader(HERE / "templates"), GameTemplates()]),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
templates.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}


def _static_version() -> str:
    digest = hashlib.sha256()
    for path in sorted(STATIC.glob("*")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


STATIC_VERSION = _static_version()


# --- rendering ------------------------------------------------------------------------------
def language(request: Request) -> str:
    return choose_language(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))


def render(
    request: Request, template: str, context: dict[str, Any], status: int = 200
) -> HTMLResponse:
    lang = language(request)
    ruleset = context.get("ruleset")
    html = templates.get_template(template).render(
        t=translator(lang, game_words(str(ruleset)) if ruleset else None),
        lang=lang,
        html_lang="en" if lang == "en" else "zh-CN",
        colon=": " if lang == "en" else "：",  # between a label and its value
        csrf=csrf_token(request),
        here=request.url.path,
        static=STATIC_VERSION,
        **context,
    )
    response = HTMLResponse(html, status_code=status)
    ensure_csrf_cookie(request, response)
    page_headers(response)
    return response


def error_page(request: Request, error: AppError) -> HTMLResponse:
    lang = language(request)
    message = pick(lang, error.message_zh, error.message_en)
    return render(
        request,
        "error.html",
        {"message": message, "code": error.code, "rule": error.rule},
        error.status,
    )


# Paths that are not pages: the API and the service's own addresses answer problem+json.
_NOT_PAGES = ("/api/", "/static/", "/healthz", "/readyz", "/metrics", "/openapi", "/docs", "/redoc")


def is_page(request: Request) -> bool:
    """Whether a request is for a page (a person reads the answer) rather than the API."""
    path = request.url.path
    return not any(path == p.rstrip("/") or path.startswith(p) for p in _NOT_PAGES)


def failure_page(request: Request, error: AppError) -> Response:
    """The error page for a page request that failed outside its route's own handling (an
    unexpected exception, an unknown address, a malformed query). It must answer even when
    rendering itself is what broke: then a plain page in both languages."""
    try:
        return error_page(request, error)
    except Exception:  # noqa: BLE001 - the last resort must not raise
        lang = language(request)
        message = pick(lang, error.message_zh, error.message_en)
        body = (
            f'<!doctype html><html lang="{"en" if lang == "en" else "zh-CN"}">'
            '<head><meta charset="utf-8"><title>forumplay</title></head><body>'
            f"<h1>{'Something went wrong' if lang == 'en' else '出错了'}</h1>"
            f'<p>{html.escape(message)}</p><p><a href="/">{"Home" if lang == "en" else "首页"}</a>'
            "</p></body></html>"
        )
        return HTMLResponse(body, status_code=error.status)


def untranslated(text: str, mark: str, value: str) -> Markup:
    """``text`` (a catalogue line) with ``mark`` replaced by ``value`` marked
    ``translate="no"``: user data inside a sentence (a player's name), escaped."""
    inside = Markup('<span translate="no">{}</span>').format(value)
    return Markup(inside).join(escape(part) for part in text.split(mark))


_NAME = "\u0000name\u0000"  # where a name goes in a line, until it is marked up


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def now(request: Request) -> Any:
    return request.app.state.clock.now()


async def posted(request: Request) -> FormData:
    """The form of a post, once its CSRF token has been checked."""
    form = await request.form()
    value = form.get(CSRF_FIELD)
    check_csrf(request, value if isinstance(value, str) else None)
    return form


Page = Callable[[AsyncSession, Game, Principal, Any], Awaitable[dict[str, Any]]]


async def load(request: Request, game_id: str, token: str | None, page: Page) -> dict[str, Any]:
    async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
        return await page(session, game, principal, now(request))

    result: dict[str, Any] = await transact_game(request, game_id, token, action, lock=False)
    return result


async def act(
    request: Request,
    game_id: str,
    token: str | None,
    action: Callable[[AsyncSession, Game, Principal], Awaitable[Any]],
) -> Any:
    return await transact_game(request, game_id, token, action, lock=True)


# --- public pages ---------------------------------------------------------------------------
@router.get("/", response_class=HTMLResponse)
async def index(request: Request) -> Response:
    lang = language(request)
    t = translator(lang)
    games = await transact(request, pages_service.public_games, read_only=True)
    rows = [
        {
            **g,
            "ruleset_label": game_title(g["ruleset"], lang),
            "status_label": t(f"status_{g['status']}"),
            "created": views.local_time(g["created_at"], g["timezone"]),
        }
        for g in games
    ]
    return render(request, "index.html", {"games": rows})


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
    response = see_other(f"/play/{game_id}")
    set_session_cookie(response, request, game_id, secret)
    return response


# --- the player's page ------------------------------------------------------------------------
def _order_schema(ruleset_name: str) -> dict[str, Any] | None:
    model = getattr(get_ruleset(ruleset_name), "order_model", None)
    return model.model.model_json_schema() if model is not None else None


def _tool_schema(ruleset_name: str) -> dict[str, Any] | None:
    model = getattr(get_ruleset(ruleset_name), "director_action_model", None)
    return model.model.model_json_schema() if model is not None else None


async def _play_page(
    session: AsyncSession, game: Game, principal: Principal, now: Any
) -> dict[str, Any]:
    """The player's page, and what it shows about the forum thread (a link code)."""
    page = await pages_service.player_page(session, game, principal, now)
    page["forum_link"] = await bridge_service.player_link(session, game, principal, now)
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


_NEVER_KEPT = (CSRF_FIELD, "confirm", "admin_token")


def _typed(form: FormData) -> dict[str, Any]:
    """What a refused form held, to fill it in again: never the CSRF token, the admin token
    or a channel's config, which may hold secrets (the flash is a cookie)."""
    values: dict[str, Any] = {}
    for key, value in form.multi_items():
        if not isinstance(value, str) or key in _NEVER_KEPT or key.startswith("config."):
            continue
        if key in values:
            old = values[key]
            values[key] = [*old, value] if isinstance(old, list) else [old, value]
        else:
            values[key] = value
    return values


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
        if context["in_play"]:
            context["parts"] = [*context["parts"], *pages.player_parts(page, t, lang)]
    context["forum_link"] = views.forum_link(page.get("forum_link"), lang)
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


_PLAYER_NOTICES = {"order_saved", "order_revised", "order_withdrawn", "ready_saved"}

_NOTICES = {
    "order_saved",
    "order_revised",
    "order_withdrawn",
    "ready_saved",
    "done",
    "settings_saved",
    "channel_added",
    "forum_name_saved",
}


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


@router.post("/play/{game_id}/odds", response_class=HTMLResponse)
async def odds(request: Request, game_id: str) -> Response:
    """The odds preview as an HTML fragment, for the order being drafted (a game that has
    none answers that there are none)."""
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
    if part is None:
        return render(request, "_odds.html", {"ruleset": ruleset})
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


# --- the director's console -------------------------------------------------------------------
# Every console form posts, then redirects (303) back to the console (post/redirect/get):
# what it did, a refusal with what was typed, or a link to share once travels in the
# flash cookie (app/web/flash.py), in both languages, and is shown by the next GET only.
def _settings_schema(ruleset_name: str) -> dict[str, Any]:
    schema: dict[str, Any] = get_ruleset(ruleset_name).settings_model.model_json_schema()
    return schema


def _settings_defaults(ruleset_name: str) -> dict[str, Any]:
    defaults: dict[str, Any] = get_ruleset(ruleset_name).settings_model().model_dump(mode="json")
    return defaults


def _both(say: Callable[[Callable[..., str], str], str]) -> dict[str, str]:
    """A message for the flash in both languages (the next page picks the reader's)."""
    return {lang: say(translator(lang), lang) for lang in LANGS}


def _said(request: Request, text: Any) -> str:
    """A flashed message in the reader's language."""
    if not isinstance(text, dict):
        return ""
    return str(text.get(language(request)) or text.get("zh") or "")


def _problem(error: AppError) -> dict[str, Any]:
    return {"zh": error.message_zh, "en": error.message_en, "rule": error.rule}


def _typed_form(form: FormData, form_id: str) -> dict[str, Any]:
    """A refused console form's values, with the form they came from."""
    return {"id": form_id, "values": _typed(form)}


NEW_GAME = "/director/new"


@router.get("/director/new", response_class=HTMLResponse)
async def new_game(request: Request, ruleset: str = "") -> Response:
    flash = peek_flash(request) or {}
    typed = flash.get("form") if isinstance(flash.get("form"), dict) else {}
    if typed and typed.get("id") in all_rulesets():
        ruleset = str(typed["id"])
    response = _new_game_page(
        request,
        ruleset,
        error=_said(request, flash.get("error")),
        notice=_said(request, flash.get("notice")),
        typed=typed.get("values", {}) if typed else {},
    )
    clear_flash(request, response, NEW_GAME)
    return response


def _new_game_page(
    request: Request,
    ruleset: str,
    error: str = "",
    status: int = 200,
    notice: str = "",
    typed: dict[str, Any] | None = None,
) -> HTMLResponse:
    lang = language(request)
    if ruleset not in all_rulesets():
        ruleset = default_ruleset()
    defaults = _settings_defaults(ruleset)
    simple, complex_ = views.settings_fields(
        _settings_schema(ruleset), defaults, lang, typed or {}, ruleset=ruleset
    )
    form = game_pages(ruleset).new_game(game_translator(lang, ruleset))
    if not form.advanced_settings:
        complex_ = []  # e.g. a map and tables that come from a scenario file
    return render(
        request,
        "director_new.html",
        {
            "ruleset": ruleset,
            "rulesets": [(r, game_title(r, lang)) for r in all_rulesets()],
            "new_game": form,
            "simple": simple,
            "complex": complex_,
            "error": error,
            "notice": notice,
            "typed": typed or {},
            "admin_required": bool(request.app.state.settings.admin_token),
        },
        status,
    )


def _refused_new(
    request: Request, form: FormData, ruleset: str, message: dict[str, Any]
) -> Response:
    response = see_other(f"{NEW_GAME}?ruleset={ruleset}")
    set_flash(response, request, NEW_GAME, {"error": message, "form": _typed_form(form, ruleset)})
    return response


@router.post("/director/new")
async def create_game(request: Request) -> Response:
    lang = language(request)
    try:
        form = await posted(request)
    except AppError as error:
        return error_page(request, error)
    ruleset = str(form.get("ruleset") or default_ruleset())
    if ruleset not in all_rulesets():
        ruleset = default_ruleset()
    admin = request.app.state.settings.admin_token
    if admin and form.get("admin_token") != admin:
        return _refused_new(request, form, ruleset, _both(lambda t, _: t("login_hint")))
    schema = _settings_schema(ruleset)
    try:
        settings = forms.settings_from_form(
            views.durations_in(form, schema), schema, _settings_defaults(ruleset)
        )
        scenario_text: str | None = None
        upload = form.get("scenario")
        if upload is not None and not isinstance(upload, str):
            scenario_text = (await upload.read()).decode("utf-8") or None
        if not scenario_text:
            scenario_text = game_pages(ruleset).example_scenario()
    except (ValueError, UnicodeDecodeError) as problem:
        field = str(problem)
        known = setting_label(ruleset, field, "zh") != field
        label = (setting_label(ruleset, field, "zh"), setting_label(ruleset, field, "en"))
        if known and views.is_duration(field):
            message = {
                "zh": f"填写有误：{label[0]}须为大于 0 的数（或留空表示不限时）",
                "en": f"Please check: {label[1]} must be a number above 0 (or empty: no limit)",
            }
        elif known:
            message = {"zh": f"填写有误：{label[0]}", "en": f"Please check: {label[1]}"}
        else:
            message = {"zh": f"填写有误：{problem}", "en": f"Please check: {problem}"}
        return _refused_new(request, form, ruleset, message)
    title_in = str(form.get("title") or "").strip()
    timezone = str(form.get("timezone") or "").strip() or None

    try:  # reading a scenario is CPU work: off the event loop
        scenario = await asyncio.to_thread(games_service.parse_scenario, scenario_text)
    except AppError as error:
        return _refused_new(request, form, ruleset, _problem(error))

    async def create(session: AsyncSession) -> Any:
        title = title_in or scenario.get("title") or game_title(ruleset, lang)
        merged = {**scenario.get("settings", {}), **settings}
        created = await games_service.create_game(
            session, ruleset, str(title)[:200], merged, timezone, {}, now(request)
        )
        game = await games_service.load_game(session, created["id"])
        secret = await sessions_service.director_login(
            session, game, created["director_token"], None, now(request)
        )
        return created, secret

    try:
        created, secret = await transact(request, create)
    except AppError as error:
        return _refused_new(request, form, ruleset, _problem(error))
    except ValidationError as error:
        return _refused_new(request, form, ruleset, {"zh": str(error), "en": str(error)})
    # The token is shown by a GET, once: a refresh there creates nothing and shows it no more.
    created_page = f"/director/{created['id']}/created"
    response = see_other(created_page)
    set_flash(
        response,
        request,
        created_page,
        {"created": {k: created[k] for k in ("id", "title", "director_token", "seed_commitment")}},
    )
    set_director_cookie(response, request, created["id"], secret)
    return response


@router.get("/director/{game_id}/created", response_class=HTMLResponse)
async def game_created(request: Request, game_id: str) -> Response:
    flash = peek_flash(request) or {}
    shown = flash.get("created")
    if not isinstance(shown, dict) or shown.get("id") != game_id:
        shown = None
    origin = str(request.base_url).rstrip("/")
    response = render(
        request,
        "director_created.html",
        {"created": shown, "game_id": game_id, "console_url": f"{origin}/director/{game_id}"},
    )
    clear_flash(request, response, f"/director/{game_id}/created")
    return response


def _console_path(game_id: str) -> str:
    return f"/director/{game_id}"


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
        page = await load(request, game_id, token, pages_service.director_page)
    except AppError as failure:
        if failure.status in (401, 403):
            return render(request, "director_login.html", {"game_id": game_id}, 401)
        return error_page(request, failure)
    ruleset = page["summary"]["ruleset"]
    context = _game_context(page, lang)
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
        publishing, page["timers"], tz, page["now"], lang, CHANNEL_SCHEMAS
    )
    game_timers = sorted(
        (x for x in page["timers"] if x.get("kind") not in SERVICE_TIMER_KINDS),
        key=lambda x: (x.get("due_at") is None, x.get("due_at") or "", x.get("kind") or ""),
    )
    context["next_timer"] = views.timer_text(game_timers[0], lang, ruleset) if game_timers else ""
    context["has_midnight"] = any(x.get("kind") == "midnight" for x in game_timers)
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

            await transact(request, end)
    except AppError as error:
        return error_page(request, error)
    response = see_other(_console_path(game_id))
    clear_director_cookie(response, request, game_id)
    return response


DirectorDo = Callable[[AsyncSession, Game, Principal, FormData], Awaitable[Any]]
Notice = Callable[[Any, FormData, Callable[..., str], str], str]


def _confirm_needed() -> AppError:
    zh, en = UI["confirm_needed"]
    return AppError(422, "confirm_needed", zh, en)


async def _director_action(
    request: Request,
    game_id: str,
    do: DirectorDo,
    show: str | None = None,
    notice: Notice | None = None,
    anchor: str | Callable[[FormData], str] = "",
    form_id: str | Callable[[FormData], str] = "",
    confirm: bool | Callable[[FormData], bool] = False,
) -> Response:
    """Run one director action and redirect back to the console (``#anchor``: the section
    to return to). ``notice`` says what was done, in each language; ``show`` puts the
    result on the console once (a new invite link or token). A refusal comes back with
    its reason and what was typed (``form_id`` names the form to fill in again).
    ``confirm``: irreversible, so the form's confirmation box must be ticked."""
    token = director_token_from_cookie(request, game_id)
    try:
        form = await posted(request)
    except AppError as error:
        return error_page(request, error)
    section = anchor(form) if callable(anchor) else anchor
    target = _console_path(game_id) + (f"#{section}" if section else "")
    typed_id = form_id(form) if callable(form_id) else form_id
    try:
        needed = confirm(form) if callable(confirm) else confirm
        if needed and form.get("confirm") != "1":
            raise _confirm_needed()

        async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
            return await do(session, game, principal, form)

        result = await act(request, game_id, token, action)
    except AppError as error:
        if error.status == 404 and error.message_en == "No such game.":
            return error_page(request, error)  # no console to go back to
        response = see_other(target)
        flashed: dict[str, Any] = {"error": _problem(error)}
        if typed_id:
            flashed["form"] = _typed_form(form, typed_id)
        set_flash(response, request, _console_path(game_id), flashed)
        return response
    flashed = {}
    if show is not None:
        flashed["shown"] = {show: result}
    if notice is not None:
        flashed["notice"] = _both(lambda t, lang: notice(result, form, t, lang))
    response = see_other(target)
    if flashed:
        set_flash(response, request, _console_path(game_id), flashed)
    return response


def _int(form: FormData, name: str, default: int | None = None) -> int:
    raw = str(form.get(name) or "").strip()
    if raw == "" and default is not None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise AppError(
            422, "bad_number", "请填写有效的数字。", "Please enter a valid number."
        ) from None


def _say(key: str, **fields: Any) -> Notice:
    """A notice that needs nothing of the result."""
    return lambda result, form, t, lang: t(key, **fields)


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
        return str(form.get("action") or "") in views.IRREVERSIBLE_TOOLS

    return await _director_action(
        request,
        game_id,
        do,
        notice=said,
        anchor=anchor,
        form_id=form_id,
        confirm=irreversible,
    )


# --- the console's publishing: forum names, the review queue, channels, settings ---------------
CHANNEL_SCHEMAS = {
    kind: (adapter.config_model.model_json_schema(), tuple(adapter.secret_fields))
    for kind, adapter in ADAPTERS.items()
}
_FIELD_NAMES = {
    "name": ("名字", "name"),
    "forum_name": ("论坛名", "forum name"),
    "title": ("标题", "title"),
    "url": ("链接", "link"),
    "before_seconds": ("提醒时间", "reminder times"),
    "auto_publish_after_seconds": ("自动发布时间", "auto-publish time"),
}
_WHY = {
    "string_too_long": ("太长", "is too long"),
    "string_too_short": ("不能为空", "must not be empty"),
    "too_long": ("太多", "has too many entries"),
    "greater_than": ("必须大于 0", "must be more than 0"),
    "less_than_equal": ("太大（最多 30 天）", "is too large (30 days at most)"),
    "string_pattern_mismatch": ("格式不对", "is not in the right form"),
}


def validated(model: type[M], data: dict[str, Any]) -> M:
    """A form's values read through the API's own request model, so a page accepts exactly
    what the API accepts; a refusal names the field, Chinese first."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        zh, en = [], []
        for item in error.errors(include_url=False, include_context=False):
            path = [str(p) for p in item["loc"] if not isinstance(p, int)]
            field = path[-1] if path else ""
            label = _FIELD_NAMES.get(field, (field, field))
            why = _WHY.get(item["type"])
            if why is None and "control or invisible" in item["msg"]:
                why = ("含有控制字符或不可见字符", "contains a control or invisible character")
            zh.append(f"{label[0]}：{why[0] if why else item['msg']}")
            en.append(f"{label[1]}: {why[1] if why else item['msg']}")
        raise AppError(
            422,
            "invalid_form",
            "填写有误：" + "；".join(zh),
            "Please check: " + "; ".join(en),
            extra={"errors": en},
        ) from None


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
        channel = await publishing_service.game_channel(session, game, channel_id)
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
