"""Games: creation, roster, start, and what each caller may read."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Annotated, Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict, not_found
from app.ids import could_be_id, new_id
from app.models import AuditRow, EventRow, Game, PlayerRow
from app.rules.base import (
    DIRECTOR,
    STEP_START,
    Player,
    Ruleset,
    RuleViolation,
    event_visible,
    seed_commitment,
)
from app.rules.documents import MAX_BYTES as MAX_SCENARIO_BYTES
from app.rules.documents import DocumentError, check_size, check_values, read_document
from app.rules.registry import get_ruleset
from app.rules.types import Name, Seconds, Title
from app.services import seats, state_cache
from app.services.auth import (
    Principal,
    hash_token,
    new_token,
    require_director,
)
from app.services.steps import json_roundtrip, pending_timers, run_step
from app.services.undone import of_undone_step, undone_steps


class GameOptions(BaseModel):
    """Service-level settings of one game (the ruleset's own settings are separate)."""

    model_config = {"extra": "forbid"}

    missed_deadline: str = Field(
        "run",
        pattern="^(run|pause)$",
        description="A deadline missed while the service was down: 'run' it on restart, or "
        "'pause' the game and tell the director.",
    )
    missed_deadline_grace_seconds: Seconds = Field(
        300, description="How late a deadline may run before it counts as missed (≤ 30 days)."
    )
    max_extensions_per_deadline: int = Field(
        3, ge=0, le=100, description="How many times the director may extend one deadline."
    )
    max_undos: int = Field(
        3,
        ge=0,
        le=100,
        description="How many times the director may undo resolutions in this game (each "
        "undo is public); 0 disables undo.",
    )


def validation_problem(error: ValidationError, what_zh: str, what_en: str) -> AppError:
    problems: list[str] = []
    for e in error.errors():
        where = ".".join(str(p) for p in e["loc"])
        message = str(e["msg"])
        if message.startswith("Value error, "):
            # A model-level check may report several problems at once, "; "-separated.
            found = message.removeprefix("Value error, ").split("; ")
            problems.extend(f"{where}: {m}" if where else m for m in found)
        else:
            problems.append(f"{where or '(root)'}: {message}")
    return AppError(
        422,
        "invalid_settings",
        f"{what_zh}有误：" + "；".join(problems),
        f"Invalid {what_en}: " + "; ".join(problems),
        extra={"errors": problems},
    )


def read_scenario(text: str) -> Any:
    """A scenario's JSON or YAML text as plain values (``app/rules/documents.py``): capped
    in size, no YAML aliases, tags or deep nesting. Blocking: the API calls
    :func:`parse_scenario` in a thread."""
    try:
        return read_document(text)
    except DocumentError as error:
        raise _scenario_problem(error) from None


def parse_scenario(source: str | dict[str, Any] | None) -> dict[str, Any]:
    """A scenario as JSON or YAML text (or already an object) -> {"title"?, "settings"}.
    A scenario may wrap its settings (``{"title": …, "settings": {…}}``) or be them."""
    if source is None:
        return {}
    if isinstance(source, str):
        data: Any = read_scenario(source)
    else:
        try:
            check_values(source)  # first: it bounds the nesting json.dumps recurses into
            check_size(len(json.dumps(source, ensure_ascii=False).encode()))
        except DocumentError as error:
            raise _scenario_problem(error) from None
        data = source
    if not isinstance(data, dict):
        raise AppError(
            422,
            "invalid_scenario",
            "剧本必须是一个设置对象。",
            "A scenario must be a mapping of settings.",
            extra={"errors": ["scenario: must be a mapping of settings"]},
        )
    if isinstance(data.get("settings"), dict):
        title = _checked(
            _SCENARIO_TITLE, data.get("title"), "title", "剧本标题", "invalid_scenario"
        )
        return {"title": title, "settings": dict(data["settings"])}
    return {"settings": dict(data)}


T = TypeVar("T")
_SCENARIO_TITLE: TypeAdapter[str | None] = TypeAdapter(Title | None)
_TITLE: TypeAdapter[str] = TypeAdapter(Annotated[Title, Field(min_length=1)])
_NAME: TypeAdapter[str] = TypeAdapter(Name)


def _checked(
    adapter: TypeAdapter[T], value: Any, field: str, field_zh: str, code: str = "invalid_body"
) -> T:
    """``value`` as the boundary types take it (the API's models checked it already;
    the web pages' forms arrive here unchecked)."""
    try:
        return adapter.validate_python(value)
    except ValidationError as error:
        problems = [f"{field}: {e['msg'].removeprefix('Value error, ')}" for e in error.errors()]
        raise AppError(
            422,
            code,
            f"{field_zh}有误：" + "；".join(problems),
            f"Invalid {field}: " + "; ".join(problems),
            extra={"errors": problems},
        ) from None


def _scenario_problem(error: DocumentError) -> AppError:
    text = "；".join(error.problems)
    if error.too_large:
        return AppError(
            413,
            "scenario_too_large",
            f"剧本太大（上限 {MAX_SCENARIO_BYTES // 1024} KiB）：{text}",
            f"The scenario is too large (at most {MAX_SCENARIO_BYTES // 1024} KiB): {text}",
            extra={"errors": error.problems},
        )
    aliases = any("alias" in p for p in error.problems)
    return AppError(
        422,
        "invalid_scenario",
        ("剧本不能使用 YAML 锚点或别名（& 与 *）。" if aliases else "剧本无法读取：") + text,
        f"The scenario cannot be read: {text}",
        extra={"errors": error.problems},
    )


def ruleset_settings(ruleset: Ruleset, raw: dict[str, Any]) -> BaseModel:
    try:
        return ruleset.settings_model.model_validate(raw)
    except ValidationError as error:
        raise validation_problem(error, "游戏设置", "settings") from None


async def load_game(session: AsyncSession, game_id: str, lock: bool = False) -> Game:
    if not could_be_id(game_id):  # never a NUL byte or a 10 kB string in a query
        raise not_found()
    game = await state_cache.load(session, game_id, lock)
    if game is None:
        raise not_found()
    return game


def audit(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    action: str,
    payload: dict[str, Any],
    now: datetime,
) -> None:
    if principal.co_director is not None:  # audited under the co-director's own name
        payload = {**payload, "by": principal.co_director.name, "by_id": principal.co_director.id}
    session.add(
        AuditRow(
            game_id=game.id, actor=principal.audit_name, action=action, payload=payload, at=now
        )
    )


async def create_game(
    session: AsyncSession,
    ruleset_name: str,
    title: str,
    raw_settings: dict[str, Any],
    timezone: str | None,
    raw_options: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    ruleset = get_ruleset(ruleset_name)
    title = _checked(_TITLE, title, "title", "标题")
    settings_in = dict(raw_settings)
    tz_name = timezone or settings_in.get("timezone") or "Asia/Shanghai"
    try:
        ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise AppError(
            422, "bad_timezone", f"未知的时区：{tz_name}。", f"Unknown time zone: {tz_name}."
        ) from None
    if "timezone" in ruleset.settings_model.model_fields:
        settings_in["timezone"] = tz_name
    settings = ruleset_settings(ruleset, settings_in)
    try:
        options = GameOptions.model_validate(raw_options)
    except ValidationError as error:
        raise validation_problem(error, "服务设置", "options") from None
    seed = secrets.token_hex(32)
    director_token = new_token("fpd")
    game = Game(
        id=new_id(),
        ruleset=ruleset.name,
        title=title,
        status="setup",
        settings=settings.model_dump(mode="json"),
        options=options.model_dump(mode="json"),
        timezone=tz_name,
        state=None,
        seed=seed,
        seed_commitment=seed_commitment(seed),
        seed_revealed=False,
        director_token_hash=hash_token(director_token),
        step_seq=0,
        event_seq=0,
        created_at=now,
        updated_at=now,
    )
    session.add(game)
    await session.flush()
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "title": game.title,
        "director_token": director_token,
        "seed_commitment": game.seed_commitment,
        "timezone": game.timezone,
        "settings": game.settings,
        "options": game.options,
        "status": game.status,
    }


async def add_player(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    name: str,
    side: str | None,
    now: datetime,
    forum_name: str | None = None,
) -> dict[str, Any]:
    require_director(principal)
    # Stored and compared normalised (NFKC, trimmed): a look-alike is the same name.
    name = _checked(_NAME, name, "name", "名字")
    if forum_name is not None:
        forum_name = _checked(_NAME, forum_name, "forum_name", "论坛名")
    if game.status != "setup":
        raise conflict(
            "not_in_setup",
            "游戏已开始，不能再加入玩家。",
            "Players can only be added during setup.",
        )
    ruleset = get_ruleset(game.ruleset)
    count = len(
        (await session.scalars(select(PlayerRow.id).where(PlayerRow.game_id == game.id))).all()
    )
    try:
        ruleset.validate_player(ruleset_settings(ruleset, game.settings), name, side, count)
    except RuleViolation as violation:
        raise AppError.from_violation(violation) from None
    existing = await session.scalar(
        select(PlayerRow).where(PlayerRow.game_id == game.id, PlayerRow.name == name)
    )
    if existing is not None:
        raise conflict(
            "name_taken",
            f"本局已有名为“{name}”的玩家。",
            f"A player named {name!r} already exists.",
        )
    token = new_token("fpp")
    player = PlayerRow(
        id=new_id(),
        game_id=game.id,
        ordinal=count + 1,
        name=name,
        side=side,
        token_hash=hash_token(token),
        created_at=now,
        forum_name=forum_name,
    )
    session.add(player)
    try:
        await session.flush()
    except IntegrityError:
        raise conflict(
            "name_taken",
            f"本局已有名为“{name}”的玩家。",
            f"A player named {name!r} already exists.",
        ) from None
    audit(
        session,
        game,
        principal,
        "add_player",
        {"player_id": player.id, "name": name, "side": side, "forum_name": forum_name},
        now,
    )
    return {"id": player.id, "name": name, "side": side, "forum_name": forum_name, "token": token}


async def roster(session: AsyncSession, game: Game) -> list[PlayerRow]:
    rows = await session.scalars(
        select(PlayerRow).where(PlayerRow.game_id == game.id).order_by(PlayerRow.ordinal)
    )
    return list(rows.all())


def roster_players(rows: list[PlayerRow]) -> list[Player]:
    return [Player(id=r.id, name=r.name, side=r.side) for r in rows]


async def start_game(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    require_director(principal)
    if game.status != "setup":
        raise conflict("already_started", "游戏已经开始。", "The game has already started.")
    ruleset = get_ruleset(game.ruleset)
    settings = ruleset_settings(ruleset, game.settings)
    await seats.prepare_start(session, game, now)  # enough players? sides from sign-ups
    players = roster_players(await roster(session, game))
    try:
        ruleset.validate_roster(settings, players)
    except RuleViolation as violation:
        error = AppError.from_violation(violation)
        error.extra.setdefault("missing", seats.missing(game, len(players)))
        raise error from None
    game.state = json_roundtrip(ruleset.initial_state(settings, players))
    game.status = "running"
    await run_step(session, game, STEP_START, DIRECTOR, {}, now)
    audit(session, game, principal, "start", {}, now)
    return await summary(session, game)


async def delete_game(
    session: AsyncSession, game: Game, principal: Principal, now: datetime
) -> dict[str, Any]:
    """What a director's delete does, by the game's state (API: ``DELETE /games/{id}``).

    A game in setup has no record anyone relies on: it goes with every row of it (every
    table cascades from ``games``), so nothing of it can be read afterwards and there is no
    audit row. A finished game is archived instead: hidden from the lists, its pages,
    archive and ``/verify`` kept, because its players and readers may still check it. A
    game under way is refused: end it first (the game's end tool, or its last phase)."""
    require_director(principal)
    game_id, title = game.id, game.title
    if game.sandbox:  # a director's sandbox is thrown away whole, whatever its state
        session.expunge(game)
        await session.execute(delete(Game).where(Game.id == game_id))
        return {"id": game_id, "title": title, "deleted": True, "archived": False}
    if game.status == "finished":
        if game.archived_at is None:
            game.archived_at = now
            audit(session, game, principal, "archive_game", {}, now)
        return {"id": game_id, "title": title, "deleted": False, "archived": True}
    if game.status != "setup":
        raise conflict(
            "game_in_progress",
            "游戏正在进行，不能删除：请先结束游戏。结束后删除会将其归档（记录保留）。",
            "The game is under way and cannot be deleted: end it first. Deleting a finished "
            "game archives it (its record is kept).",
        )
    session.expunge(game)
    await session.execute(delete(Game).where(Game.id == game_id))
    return {"id": game_id, "title": title, "deleted": True, "archived": False}


def deadline_timer_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of the game's timers that are its deadline (a phase's close, a day's 24:00…):
    what its ruleset declares (``deadline_timer_kinds``)."""
    return tuple(get_ruleset(game.ruleset).deadline_timer_kinds)


async def deadline_info(session: AsyncSession, game: Game) -> dict[str, Any]:
    kinds = deadline_timer_kinds(game)
    for timer in await pending_timers(session, game):
        if timer.kind in kinds:
            return {
                "deadline": timer.due_at.isoformat() if timer.due_at else None,
                "deadline_remaining_seconds": timer.remaining_seconds,
            }
    return {"deadline": None, "deadline_remaining_seconds": None}


async def summary(session: AsyncSession, game: Game) -> dict[str, Any]:
    ruleset = get_ruleset(game.ruleset)
    phase = ruleset.phase(game.state) if game.state is not None else "setup"
    players = await roster(session, game)
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "title": game.title,
        "status": game.status,
        "phase": phase,
        **(await deadline_info(session, game)),
        "timezone": game.timezone,
        "seed_commitment": game.seed_commitment,
        "seed": game.seed if game.seed_revealed else None,
        "players": [{"id": p.id, "name": p.name, "side": p.side} for p in players],
        "created_at": game.created_at.isoformat(),
        "undos": game.undos or 0,
        "sandbox": bool(game.sandbox),
        "forked_from": game.forked_from,
    }


async def view(session: AsyncSession, game: Game, principal: Principal) -> dict[str, Any]:
    base = {"game_id": game.id, "status": game.status, "you": _you(principal)}
    if game.state is None:
        return {**base, "phase": "setup", "round": None, "deadline": None, "winner": None}
    ruleset = get_ruleset(game.ruleset)
    seen = ruleset.view(game.state, principal.viewer)
    return {**seen, **base, **(await deadline_info(session, game))}


def _you(principal: Principal) -> dict[str, Any]:
    if principal.player is not None:
        return {
            "role": "player",
            "id": principal.player.id,
            "name": principal.player.name,
            "side": principal.player.side,
        }
    return {"role": principal.role}


async def events(
    session: AsyncSession, game: Game, principal: Principal, after: int, limit: int
) -> list[dict[str, Any]]:
    """Events the caller may see. The director gets the log's own numbers; everyone else
    gets their own dense numbering, so gaps never reveal how many hidden events exist.
    That numbering only ever grows: what is hidden until the end (``reveal_at="end"``) is
    not made visible in place but re-published as one new public event when the game
    ends (``steps.finish_game``), so ``after=N`` stays valid for every caller."""
    rows = (
        await session.scalars(
            select(EventRow).where(EventRow.game_id == game.id).order_by(EventRow.seq)
        )
    ).all()
    viewer = principal.viewer
    out: list[dict[str, Any]] = []
    number = 0
    undone = await undone_steps(session, game)
    for row in rows:
        if viewer.role == "director":
            number = row.seq
        elif event_visible(row.audience, None, viewer, finished=False):
            number += 1
        else:
            continue
        if number <= after:
            continue
        item: dict[str, Any] = {
            "seq": number,
            "at": row.at.isoformat(),
            "kind": row.kind,
            "data": row.data,
        }
        if viewer.role == "director":
            item["audience"] = row.audience
        if undone and of_undone_step(row, undone):
            item["undone"] = True  # a director's undo took its step back (it stays, marked)
        out.append(item)
        if len(out) >= limit:
            break
    return out
