"""The bare reference endpoint for ``bench/submit_orders.py``: the limit to compare against.

One POST endpoint that validates a small pydantic body and INSERTs one row with SQLAlchemy 2
Core + asyncpg (pool 20), nothing else. Run it as ``uvicorn bench.bare_insert_app:app`` with
``DATABASE_URL`` set (``postgresql+asyncpg://...``); it creates its own table at startup.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from fastapi import FastAPI
from pydantic import BaseModel, Field
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    insert,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

metadata = MetaData()
bare_orders = Table(
    "bench_bare_orders",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("type", String(32), nullable=False),
    Column("body", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class OrderIn(BaseModel):
    type: str = Field(min_length=1, max_length=32)
    troops: list[int] = Field(min_length=5, max_length=5)


class Created(BaseModel):
    id: int
    type: str


def database_url() -> str:
    return os.environ.get(
        "DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/forumplay_bench"
    )


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    pool_size = int(os.environ.get("DB_POOL_SIZE", "20"))
    engine = create_async_engine(database_url(), pool_size=pool_size, max_overflow=0)
    async with engine.begin() as conn:
        await conn.run_sync(metadata.create_all)
    app.state.engine = engine
    try:
        yield
    finally:
        await engine.dispose()


app = FastAPI(title="bare insert", lifespan=lifespan)


@app.post("/games/{game_id}/orders", status_code=201)
async def create_order(game_id: str, order: OrderIn) -> Created:
    engine: AsyncEngine = app.state.engine
    async with engine.begin() as conn:
        new_id = await conn.scalar(
            insert(bare_orders)
            .values(
                game_id=game_id,
                type=order.type,
                body=order.model_dump(),
                created_at=datetime.now(UTC),
            )
            .returning(bare_orders.c.id)
        )
    assert new_id is not None
    return Created(id=int(new_id), type=order.type)


@app.get("/ping")
async def ping() -> dict[str, bool]:
    return {"ok": True}
