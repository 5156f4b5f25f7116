"""What the director's console shows of the safety net: the latest resolutions an undo
would take back (newest first), the undo count and limit, where a sandbox came from."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Game, StepRow
from app.services import pages as pages_service
from app.services.auth import Principal
from app.services.games import GameOptions
from app.services.safety.history import UNDO_STEP
from app.services.safety.undo import RESOLUTIONS, shown_payload

RECENT = 5


async def director_page(
    session: AsyncSession, game: Game, principal: Principal, now: Any
) -> dict[str, Any]:
    page = await pages_service.director_page(session, game, principal, now)
    page["safety"] = await safety(session, game)
    return page


async def safety(session: AsyncSession, game: Game) -> dict[str, Any]:
    rows = (
        await session.scalars(
            select(StepRow)
            .where(
                StepRow.game_id == game.id,
                StepRow.undone.is_(False),
                StepRow.kind.in_(tuple(RESOLUTIONS)),
                StepRow.kind != UNDO_STEP,
            )
            .order_by(StepRow.seq.desc())
            .limit(RECENT)
        )
    ).all()
    limit = GameOptions.model_validate(game.options).max_undos
    return {
        "recent": [
            {"seq": r.seq, "kind": r.kind, "at": r.at.isoformat(), "payload": shown_payload(r)}
            for r in rows
        ],
        "undos": game.undos or 0,
        "limit": limit,
        "left": max(0, limit - (game.undos or 0)),
        "sandbox": bool(game.sandbox),
        "forked_from": game.forked_from,
        "forked_at_step": game.forked_at_step,
        "step": game.step_seq,
    }
