"""On PostgreSQL the JSON a step or an order writes is compressed with lz4, not pglz
(migrations 0015 and 0017): a games row is over the TOAST threshold even for six
players, and with pglz recompressing its wide values on every UPDATE was 40% of the
database's CPU per order (bench/submit_orders.py). Storage only: what is read back is
what was written (every other test reads it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATION = next((Path(__file__).parents[2] / "migrations" / "versions").glob("*-0017_*.py"))


def migration_columns() -> tuple[tuple[str, str], ...]:
    spec = importlib.util.spec_from_file_location("lz4_everywhere", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.COLUMNS)


async def test_the_hot_json_columns_are_lz4_where_the_server_has_it(
    engine: AsyncEngine, db_kind: str
) -> None:
    if db_kind == "sqlite":
        return  # SQLite stores JSON as text and has no compression to choose
    async with engine.connect() as conn:
        has_lz4 = await conn.scalar(
            text(
                "SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
                "WHERE name = 'default_toast_compression'"
            )
        )
        found = (
            await conn.execute(
                text(
                    "SELECT c.relname, a.attname, a.attcompression::text FROM pg_attribute a "
                    "JOIN pg_class c ON c.oid = a.attrelid "
                    "WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 "
                    "AND format_type(a.atttypid, a.atttypmod) = 'json'"
                )
            )
        ).all()
    method = {(table, column): how for table, column, how in found}
    wanted = (("games", "state"), *migration_columns())
    assert all(key in method for key in wanted), "a column the migrations name is gone"
    assert {key: method[key] for key in wanted} == dict.fromkeys(wanted, "l" if has_lz4 else "")
    # Every JSON column of the tables a step writes is among them.
    for table in ("games", "steps", "events", "orders", "order_revisions"):
        assert {c for t, c in method if t == table} <= {c for t, c in wanted if t == table}


async def test_a_batch_write_looks_its_rows_up_by_key_however_small_the_tables(
    engine: AsyncEngine, db_kind: str
) -> None:
    """The plan a pooled connection keeps for the batch statement (generic), made as
    ``write_batch`` makes it: the rows it updates are looked up by their keys even in
    empty tables (tests/service/test_batch_plans.py: and once the tables have grown)."""
    if db_kind == "sqlite":
        return  # SQLite writes a batch with the portable statements, by key
    from app.services.pg_batch import KEYS_ONLY, SQL

    async with engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        await raw.execute("SET plan_cache_mode = force_generic_plan")
        types = "text,text,text,text,text,text,text[],text[],text,text"
        await raw.execute(f"PREPARE batch_plan({types}) AS {SQL}")
        try:
            async with raw.transaction():
                await raw.execute(KEYS_ONLY)
                plan = "\n".join(
                    row[0]
                    for row in await raw.fetch(
                        "EXPLAIN EXECUTE batch_plan("
                        "'[]','[]','[]','[]','[]','[]','{}','{}','c',NULL)"
                    )
                )
        finally:
            await raw.execute("DEALLOCATE batch_plan")
            await raw.execute("RESET plan_cache_mode")
    for table in ("games", "orders"):
        assert f"Seq Scan on {table}" not in plan, plan
        scan = plan.split(f"Scan on {table}", 1)[1].split("->", 1)[0]
        assert "(id)::text = ANY" in scan or f"pk_{table}" in scan, plan
