"""The bare reference endpoint for ``bench/read_path.py``: the limit a read can approach.

One GET endpoint that SELECTs the game's row (the columns that say which version of the game
it is: what a read must check on every request, on every replica) with SQLAlchemy 2 Core +
asyncpg (pool 20), answers 404 when there is none, and returns them as JSON; nothing else.
Run it as ``uvicorn bench.bare_select_app:app`` with ``DATABASE_URL`` set.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, HTTPException
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.models import Game

GAMES = Game.__table__
ROW = select(GAMES.c.id, GAMES.c.status, GAMES.c.step_seq, GAMES.c.event_seq).where(
    GAMES.c.id == bindparam("id")
)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    pool_size = int(os.environ.get("DB_POOL_SIZE", "20"))
    engine = create_async_engine(os.environ["DATABASE_URL"], pool_size=pool_size, max_overflow=0)
    app.state.engine = engine
    try:
        yield
    finally:
        await engine.dispose()


app = FastAPI(title="bare select", lifespan=lifespan)


@app.get("/games/{game_id}/{what}")
async def read_game(game_id: str, what: str) -> dict[str, Any]:
    engine: AsyncEngine = app.state.engine
    async with engine.connect() as conn:
        row = (await conn.execute(ROW, {"id": game_id})).first()
    if row is None:
        raise HTTPException(404)
    return {
        "id": row.id,
        "status": row.status,
        "step_seq": row.step_seq,
        "event_seq": row.event_seq,
    }


@app.get("/ping")
async def ping() -> dict[str, bool]:
    return {"ok": True}
