"""The new-game form and the page that shows a new game's director link once."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import transact
from app.api.security import (
    set_director_cookie,
)
from app.errors import AppError
from app.rules.registry import all_rulesets, default_ruleset
from app.services import games as games_service
from app.services import sessions as sessions_service
from app.web import forms, views
from app.web.flash import clear_flash, peek_flash, set_flash
from app.web.messages import (
    game_pages,
    game_title,
    game_translator,
    setting_label,
)
from app.web.routes.base import (
    _both,
    _problem,
    _said,
    _settings_defaults,
    _settings_schema,
    _typed_form,
    error_page,
    language,
    now,
    posted,
    render,
    see_other,
)

router = APIRouter(include_in_schema=False)

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
