"""Which steps a director's undo took back (app/services/safety/undo.py): their events stay
in the log, marked for whoever reads them."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import EventRow, Game, StepRow


async def undone_steps(session: AsyncSession, game: Game) -> set[int]:
    """The steps of ``game`` an undo took back (none without a query for a game never
    undone)."""
    if not game.undos:
        return set()
    rows = await session.scalars(
        select(StepRow.seq).where(StepRow.game_id == game.id, StepRow.undone.is_(True))
    )
    return set(rows.all())


def of_undone_step(row: EventRow, undone: set[int]) -> bool:
    """An event of an undone step, or a receipt event sealed by one."""
    if row.step_seq is not None:
        return row.step_seq in undone
    step = row.data.get("step") if isinstance(row.data, dict) else None
    return isinstance(step, int) and step in undone
