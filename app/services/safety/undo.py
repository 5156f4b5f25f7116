"""A director's undo: take back the last resolutions, in public.

``POST /games/{id}/undo {"steps": N, "reason": "…"}`` puts the game back to the state it had
just before the N-th last resolution (a timer that ran, a director's close or edit, a
"ready" that may have closed the phase), computed by walking the step log from the seed
(:mod:`app.services.safety.history`). The undone steps stay in the log, marked with who,
when and why; the undo itself is a step of the log (kind ``undo``), so the next resolution
draws from a new step id and everyone can see the dice were rolled again. Orders those
steps consumed are pending again (their status and body as before step N); orders given
after step N are marked ``undone``. The deadlines pending before step N come back with the
time they had left then (or the director's ``deadline_seconds`` for the phase's deadline).
The receipts sealed by an undone close are superseded: the game's generation (``undos``)
is part of every later receipt's key. The undo is a public event (a correction post in
every channel) and limited per game by the ``max_undos`` option (default 3, 0 disables).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import AppError, conflict
from app.models import EventRow, Game, OrderRevision, OrderRow, StepRow, Timer
from app.publish import receipts
from app.rules.base import (
    DIRECTOR,
    PUBLIC_VIEWER,
    STEP_DIRECTOR,
    STEP_READY,
    STEP_TIMER,
    TimerSpec,
)
from app.rules.registry import get_ruleset
from app.services.auth import Principal, require_director
from app.services.games import (
    GameOptions,
    audit,
    deadline_timer_kinds,
    roster,
    roster_players,
    ruleset_settings,
    summary,
)
from app.services.safety.history import (
    UNDO_STEP,
    BrokenHistory,
    Point,
    point_before,
    recorded_step,
)
from app.services.safety.posts import withdraw_posts
from app.services.steps import (
    append_event,
    is_game_timer,
    json_roundtrip,
    pending_timers,
    schedule_timer,
    state_hash,
)

# The steps an undo counts: those that resolve something (not a player's order as such).
RESOLUTIONS = frozenset({STEP_TIMER, STEP_DIRECTOR, STEP_READY})
UNDONE_ORDER = "undone"  # an order given after the undone step: its phase is taken back
MAX_STEPS = 50
MAX_REASON = 500
EVENT = "steps_undone"  # public: the correction


def _refuse_state(game: Game) -> None:
    if game.status == "setup":
        raise conflict(
            "not_started", "游戏尚未开始，没有可以撤销的结算。", "The game has not started."
        )
    if game.status == "finished":
        raise conflict(
            "game_finished",
            "游戏已结束（种子已公开），不能再撤销。",
            "The game is over (its seed is public): it cannot be undone.",
        )


def _check_limit(game: Game) -> int:
    limit = GameOptions.model_validate(game.options).max_undos
    if limit == 0:
        raise conflict(
            "undo_disabled",
            "本局设置不允许撤销（max_undos 为 0）。",
            "Undo is disabled in this game (max_undos is 0).",
        )
    if (game.undos or 0) >= limit:
        raise conflict(
            "undo_limit",
            f"本局已撤销 {game.undos} 次，达到上限（{limit} 次）。",
            f"This game has been undone {game.undos} times, its limit ({limit}).",
        )
    return limit


def _reason(raw: Any) -> str:
    reason = raw.strip() if isinstance(raw, str) else ""
    if not reason:
        raise AppError(
            422,
            "reason_required",
            "撤销必须写明原因（会公开给所有玩家）。",
            "An undo needs a reason (everyone will see it).",
        )
    if len(reason) > MAX_REASON:
        raise AppError(
            422,
            "reason_too_long",
            f"原因最多 {MAX_REASON} 个字。",
            f"The reason may be at most {MAX_REASON} characters.",
        )
    return reason


def _count(raw: Any) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not 1 <= raw <= MAX_STEPS:
        raise AppError(
            422,
            "bad_steps",
            f"steps 须为 1 到 {MAX_STEPS} 之间的整数。",
            f"'steps' must be a whole number from 1 to {MAX_STEPS}.",
        )
    return raw


def _deadline_seconds(raw: Any) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 <= raw <= 30 * 86400:
        raise AppError(
            422,
            "bad_deadline",
            "deadline_seconds 须为 0 到 30 天之间的秒数。",
            "'deadline_seconds' must be a number of seconds from 0 to 30 days.",
        )
    return float(raw)


async def initial_state(session: AsyncSession, game: Game) -> dict[str, Any]:
    ruleset = get_ruleset(game.ruleset)
    players = roster_players(await roster(session, game))
    settings = ruleset_settings(ruleset, game.settings)
    return json_roundtrip(ruleset.initial_state(settings, players))


async def _plan(
    session: AsyncSession, game: Game, count: int
) -> tuple[list[StepRow], Point, list[StepRow]]:
    """(the steps undone, the game before the first of them, every step of the log)."""
    rows = list(
        (
            await session.scalars(
                select(StepRow).where(StepRow.game_id == game.id).order_by(StepRow.seq)
            )
        ).all()
    )
    live = [r for r in rows if not r.undone and r.kind != UNDO_STEP]
    resolutions = [r for r in live if r.kind in RESOLUTIONS]
    if len(resolutions) < count:
        raise conflict(
            "nothing_to_undo",
            f"只有 {len(resolutions)} 次结算可以撤销。",
            f"Only {len(resolutions)} resolutions can be undone.",
        )
    first = resolutions[-count].seq
    undone = [r for r in live if r.seq >= first]
    initial = await initial_state(session, game)
    recorded = [recorded_step(r) for r in rows]
    try:
        point, walked = await asyncio.to_thread(
            point_before, game.ruleset, game.seed, initial, recorded, first
        )
    except (AppError, BrokenHistory) as error:
        raise _history_broken(str(error)) from None
    if walked and state_hash(walked[-1].after) != walked[-1].row.state_hash:
        raise _history_broken(f"step {walked[-1].row.seq} replays differently")
    return undone, point, rows


def _history_broken(detail: str) -> AppError:
    return conflict(
        "history_broken",
        f"本局的步骤记录重放结果不一致，无法撤销（{detail}）。",
        f"This game's step log does not replay as recorded, so it cannot be undone ({detail}).",
    )


def _restored_timers(
    game: Game, point: Point, since: datetime, now: datetime, seconds: float | None
) -> list[TimerSpec]:
    """The deadlines pending before the first undone step, each with the time it had left
    then; with ``seconds``, the phase's deadline gets that and the others keep their place
    relative to it."""
    specs = sorted(point.timers.values(), key=lambda s: (s.due_at, s.kind, s.key))
    shift = now - since
    if seconds is not None:
        kinds = deadline_timer_kinds(game)
        main = next((s for s in specs if s.kind in kinds), specs[0] if specs else None)
        if main is not None:
            shift = now + timedelta(seconds=seconds) - main.due_at
    return [TimerSpec(s.kind, s.key, max(now, s.due_at + shift), dict(s.data or {})) for s in specs]


def _round_of(game: Game, state: dict[str, Any]) -> Any:
    seen = get_ruleset(game.ruleset).view(state, PUBLIC_VIEWER)
    value = seen.get("round") if isinstance(seen, dict) else None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


async def _superseded(session: AsyncSession, game: Game, seqs: set[int]) -> list[str]:
    """The receipt keys sealed by the undone steps."""
    rows = await session.scalars(
        select(EventRow.data).where(EventRow.game_id == game.id, EventRow.kind == receipts.SEALED)
    )
    return [str(d["key"]) for d in rows.all() if int(d.get("step", 0)) in seqs]


async def _orders_back(
    session: AsyncSession, game: Game, first: int, undo_seq: int, now: datetime
) -> list[dict[str, Any]]:
    """Orders as they stood before step ``first``: consumed ones pending again, revised
    ones with their earlier body, those given since marked undone. Every change is a
    revision row (the director's, at the undo step)."""
    revisions = (
        await session.scalars(
            select(OrderRevision)
            .join(OrderRow, OrderRow.id == OrderRevision.order_id)
            .where(OrderRow.game_id == game.id)
            .order_by(OrderRevision.id)
        )
    ).all()
    touched = {r.order_id for r in revisions if r.step_seq >= first}
    changed: list[dict[str, Any]] = []
    for order_id in sorted(touched):
        row = await session.get(OrderRow, order_id)
        if row is None:
            continue
        before = [r for r in revisions if r.order_id == order_id and r.step_seq < first]
        status = before[-1].status if before else UNDONE_ORDER
        bodies = [r.body for r in before if r.body is not None]
        revised = bool(bodies) and bodies[-1] != row.body
        if revised:
            row.body = bodies[-1]
            row.type = str(bodies[-1].get("type", row.type))
        if row.status != status or revised:
            changed.append({"id": row.id, "from": row.status, "to": status})
            row.status = status
            row.updated_at = now
            session.add(
                OrderRevision(
                    order_id=row.id,
                    action="undo",
                    body=row.body if revised else None,
                    status=status,
                    by_role="director",
                    by_player_id=None,
                    step_seq=undo_seq,
                    at=now,
                )
            )
    return changed


async def undo(
    session: AsyncSession,
    game: Game,
    principal: Principal,
    body: dict[str, Any],
    now: datetime,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Undo the last ``steps`` resolutions (or, with ``dry_run``, say what it would do)."""
    require_director(principal)
    _refuse_state(game)
    limit = _check_limit(game)
    count = _count(body.get("steps", 1))
    reason = _reason(body.get("reason"))
    seconds = _deadline_seconds(body.get("deadline_seconds"))
    undone, point, _ = await _plan(session, game, count)
    first = undone[0]
    seqs = [r.seq for r in undone]
    timers = _restored_timers(game, point, first.at, now, seconds)
    kinds = deadline_timer_kinds(game)
    deadline = next((t.due_at for t in timers if t.kind in kinds), None)
    round_ = _round_of(game, point.state)
    superseded = await _superseded(session, game, set(seqs))
    preview = {
        "steps": [
            {"seq": r.seq, "kind": r.kind, "at": r.at.isoformat(), "payload": shown_payload(r)}
            for r in undone
        ],
        "from_step": first.seq,
        "round": round_,
        "deadline": deadline.isoformat() if deadline else None,
        "superseded_receipts": superseded,
        "undos": (game.undos or 0) + 1,
        "limit": limit,
        "reason": reason,
    }
    if dry_run:
        return {**(await summary(session, game)), "dry_run": True, "undo": preview}
    seq = game.step_seq + 1
    for row in undone:
        row.undone = True
        row.undone_by = principal.role
        row.undone_at = now
        row.undone_reason = reason
        row.undone_in_step = seq
    payload = {"from_step": first.seq, "steps": seqs, "reason": reason}
    session.add(
        StepRow(
            game_id=game.id,
            seq=seq,
            kind=UNDO_STEP,
            actor_role=DIRECTOR.role,
            actor_player_id=None,
            actor_side=None,
            payload=payload,
            at=now,
            state_hash=state_hash(point.state),
        )
    )
    game.state = point.state
    game.step_seq = seq
    game.undos = (game.undos or 0) + 1
    game.updated_at = now
    await _reset_timers(session, game, timers, now)
    preview["orders"] = await _orders_back(session, game, first.seq, seq, now)
    preview["posts"] = await withdraw_posts(session, game, seqs, reason, now)
    preview["undo_step"] = seq
    data = {k: preview[k] for k in ("from_step", "round", "deadline", "reason", "undos", "limit")}
    data.update(steps=seqs, undo_step=seq, superseded_receipts=superseded)
    append_event(session, game, EVENT, data, ["public"], now)
    audit(session, game, principal, "undo", {**payload, "undo_step": seq}, now)
    return {**(await summary(session, game)), "dry_run": False, "undo": preview}


def shown_payload(row: StepRow) -> dict[str, Any]:
    """What a preview says of a step: a timer's kind and data, a director's action; never
    a player's order (the preview is the director's, but it is kept small)."""
    payload = row.payload or {}
    if row.kind == STEP_TIMER:
        return {k: payload.get(k) for k in ("kind", "key", "data")}
    if row.kind == STEP_DIRECTOR:
        return {"action": payload.get("action")}
    return {}


async def _reset_timers(
    session: AsyncSession, game: Game, timers: list[TimerSpec], now: datetime
) -> None:
    """The game's own timers become exactly ``timers`` (publishing timers stay)."""
    wanted = {(t.kind, t.key) for t in timers}
    for row in await pending_timers(session, game):
        if is_game_timer(row) and (row.kind, row.key) not in wanted:
            row.done_at = now
    rows = await session.scalars(select(Timer).where(Timer.game_id == game.id))
    known = {(game.id, t.kind, t.key): t for t in rows.all()}
    for spec in timers:
        timer = await schedule_timer(session, game, spec, now, known)
        timer.attempts = 0
        timer.next_try_at = None
        timer.failed_at = None
