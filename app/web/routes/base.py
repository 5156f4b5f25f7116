"""The pages' plumbing: the template environment (the shell's templates and each game's
partials as "<game>/<name>.html"), rendering, error pages, redirects, the CSRF-checked form
post, loading a page under a game's transaction, and what several route modules share.

Every form post that a cookie authenticates checks the CSRF token first. A change that
succeeds redirects (303) back to its page. A player's form that is refused redirects too
(post/redirect/get, app/web/flash.py): the page then shows the reason and what was typed,
once. A page request that fails anyway gets an HTML error page in the reader's language
(``failure_page``, installed by app/main.py), never the API's problem+json."""

from __future__ import annotations

import hashlib
import html
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request
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
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import transact_game
from app.api.security import (
    CSRF_FIELD,
    check_csrf,
    csrf_token,
    director_token_from_cookie,
    ensure_csrf_cookie,
    page_headers,
)
from app.errors import AppError
from app.models import Game
from app.publish.channels import ADAPTERS
from app.rules.registry import get_ruleset
from app.services.auth import Principal
from app.web.flash import set_flash
from app.web.messages import (
    LANG_COOKIE,
    LANGS,
    UI,
    choose_language,
    game_pages,
    game_translator,
    game_words,
    pick,
    translator,
)

HERE = Path(__file__).resolve().parent.parent  # app/web
STATIC = HERE / "static"
ODDS_ROUNDS = 10_000
M = TypeVar("M", bound=BaseModel)


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


# --- shared by the route modules: a game's schemas, typed values, notices ---------------------
def _order_schema(ruleset_name: str) -> dict[str, Any] | None:
    model = getattr(get_ruleset(ruleset_name), "order_model", None)
    return model.model.model_json_schema() if model is not None else None


def _tool_schema(ruleset_name: str) -> dict[str, Any] | None:
    model = getattr(get_ruleset(ruleset_name), "director_action_model", None)
    return model.model.model_json_schema() if model is not None else None


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


# --- shared by the console's route modules ----------------------------------------------------
# Every console form posts, then redirects (303) back to the console (post/redirect/get):
# what it did, a refusal with what was typed, or a link to share once travels in the
# flash cookie (app/web/flash.py), in both languages, and is shown by the next GET only.
def _settings_schema(ruleset_name: str) -> dict[str, Any]:
    schema: dict[str, Any] = get_ruleset(ruleset_name).settings_model.model_json_schema()
    return schema


def _settings_defaults(ruleset_name: str) -> dict[str, Any]:
    defaults: dict[str, Any] = get_ruleset(ruleset_name).settings_model().model_dump(mode="json")
    return defaults


def _both(say: Callable[[Callable[..., str], str], str], ruleset: str = "") -> dict[str, str]:
    """A message for the flash in both languages (the next page picks the reader's), in the
    words of the game it is about when there is one."""
    return {lang: say(game_translator(lang, ruleset), lang) for lang in LANGS}


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


def _console_path(game_id: str) -> str:
    return f"/director/{game_id}"


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

        about: list[str] = []  # the game's type, for the notice's words

        async def action(session: AsyncSession, game: Game, principal: Principal) -> Any:
            about.append(game.ruleset)
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
        ruleset = about[-1] if about else ""
        flashed["notice"] = _both(lambda t, lang: notice(result, form, t, lang), ruleset)
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


# --- the channels' settings and reading a form into a model (console and publishing) ----------
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
