"""PostgreSQL: all the rows of a batch of steps in ONE statement.

Each table's rows travel as one JSON array, unpacked by ``json_to_recordset``, and the
data-modifying CTEs run as a single statement: one round trip instead of one per table.
The two UPDATEs reach their rows by primary key, and the statement is planned with
sequential scans off (``KEYS_ONLY``): a pooled connection keeps the plan it makes at the
statement's sixth run for its whole life (a generic plan), and made while ``orders`` was a
few pages that plan read the whole table on every batch ever after, as it grew. Nothing
makes it again but ANALYZE, and autovacuum may be off: over a minute of
bench/submit_orders.py PostgreSQL's CPU per order grew from 0.35 ms to 1.6 ms.
(PostgreSQL checks the revisions' foreign key to the orders inserted beside them at the
end of the statement.) Everything else uses the portable statements in ``steps.py``;
the test suite runs both.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.live import CHANNEL
from app.services.state_text import rows_text

SQL = """
WITH
games_updated AS (
    UPDATE games
       SET step_seq = x.step_seq, event_seq = x.event_seq,
           state = CASE WHEN x.state IS NULL THEN games.state
                        ELSE ($7::text[])[x.state]::json END,
           state_delta = ($7::text[])[x.state_delta]::json,
           state_hash = x.state_hash, state_base = x.state_base, updated_at = x.updated_at
      FROM json_to_recordset($1::json) AS x(
           game_id varchar, step_seq int, event_seq int, state int, state_delta int,
           state_hash varchar, state_base varchar, updated_at timestamptz)
     WHERE games.id = x.game_id
       AND games.id = ANY(ARRAY(
           SELECT y.game_id FROM json_to_recordset($1::json) AS y(game_id varchar)))
    RETURNING 1),
steps_added AS (
    INSERT INTO steps (game_id, seq, kind, actor_role, actor_player_id, actor_side, payload, at,
                       state_hash)
    SELECT game_id, seq, kind, actor_role, actor_player_id, actor_side, payload, at, state_hash
      FROM json_to_recordset($2::json) AS x(
           game_id varchar, seq int, kind varchar, actor_role varchar, actor_player_id varchar,
           actor_side varchar, payload json, at timestamptz, state_hash varchar)
    RETURNING 1),
events_added AS (
    INSERT INTO events (game_id, seq, step_seq, at, kind, data, audience, reveal_at)
    SELECT game_id, seq, step_seq, at, kind, data, audience, reveal_at
      FROM json_to_recordset($3::json) AS x(
           game_id varchar, seq int, step_seq int, at timestamptz, kind varchar, data json,
           audience json, reveal_at varchar)
    RETURNING 1),
orders_added AS (
    INSERT INTO orders (id, game_id, player_id, side, type, body, status, step_seq, created_at,
                        updated_at)
    SELECT id, game_id, player_id, side, type, body, status, step_seq, created_at, updated_at
      FROM json_to_recordset($4::json) AS x(
           id varchar, game_id varchar, player_id varchar, side varchar, type varchar,
           body json, status varchar, step_seq int, created_at timestamptz,
           updated_at timestamptz)
    RETURNING 1),
orders_changed AS (
    UPDATE orders
       SET status = x.status, updated_at = x.at
      FROM json_to_recordset($6::json) AS x(
           id varchar, game_id varchar, status varchar, by_role varchar, by_player_id varchar,
           step_seq int, at timestamptz)
     WHERE orders.id = x.id AND orders.game_id = x.game_id AND orders.status <> x.status
       AND orders.id = ANY(ARRAY(SELECT y.id FROM json_to_recordset($6::json) AS y(id varchar)))
    RETURNING orders.id, x.status, x.by_role, x.by_player_id, x.step_seq, x.at),
revisions_added AS (
    INSERT INTO order_revisions (order_id, action, body, status, by_role, by_player_id, step_seq,
                                 at)
    SELECT order_id, action, body, status, by_role, by_player_id, step_seq, at
      FROM json_to_recordset($5::json) AS x(
           order_id varchar, action varchar, body json, status varchar, by_role varchar,
           by_player_id varchar, step_seq int, at timestamptz)
    UNION ALL
    SELECT id, 'status', NULL, status, by_role, by_player_id, step_seq, at FROM orders_changed
    RETURNING 1),
notified AS (
    SELECT pg_notify($9, p) FROM unnest($8::text[]) AS p)
SELECT (SELECT count(*) FROM games_updated), (SELECT count(*) FROM steps_added),
       (SELECT count(*) FROM events_added), (SELECT count(*) FROM orders_added),
       (SELECT count(*) FROM revisions_added), (SELECT count(*) FROM notified),
       CASE WHEN $10::text IS NOT NULL THEN set_config('enable_seqscan', $10, true) END
"""

# Run before ``SQL`` in its transaction: its rows are planned to be reached by their keys
# however small the tables are then. ``SQL`` puts the setting back (the value this returns)
# as it ends, so nothing after it in the transaction is planned without sequential scans.
KEYS_ONLY = "SELECT current_setting('enable_seqscan'), set_config('enable_seqscan', 'off', true)"

# A transaction that turned sequential scans off itself, before its first statement (the
# order batcher's lock, whose every statement reaches its rows by key), says so in its
# session's ``info``: the write then spares the round trip of ``KEYS_ONLY``.
SEQSCAN_OFF = "seqscan_off"


def _encode(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot encode {type(value).__name__}")


def _rows(rows: list[dict[str, Any]]) -> str:
    return rows_text(rows, _encode)


def _game_rows(rows: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """Game rows carry their state (or its delta) already serialised. It travels apart,
    as an element of a text array that the row names by its (1-based) place: inside the
    recordset's JSON PostgreSQL would parse a 400 KiB state twice more (the array, then
    the field), which costs more than writing the row. A row without one names none."""
    texts: list[str] = []
    heads = []
    for row in rows:
        head = dict(row)
        for column in ("state", "state_delta"):
            if row[column] is not None:
                texts.append(str(row[column]))
                head[column] = len(texts)
        heads.append(head)
    return _rows(heads), texts


async def write_batch(
    conn: AsyncConnection,
    game_rows: list[dict[str, Any]],
    step_rows: list[dict[str, Any]],
    event_rows: list[dict[str, Any]],
    orders: list[dict[str, Any]],
    revisions: list[dict[str, Any]],
    status_changes: list[dict[str, Any]],
    notices: list[str],
    seqscan_off: bool = False,
) -> None:
    """Write the rows, and send ``notices`` (``live.take_notices``: delivered at COMMIT,
    as ever) in the same statement. ``seqscan_off``: the transaction has already turned
    sequential scans off (``SEQSCAN_OFF``), and leaves them off."""
    games, states = _game_rows(game_rows)
    params = (
        games,
        _rows(step_rows),
        _rows(event_rows),
        _rows(orders),
        _rows(revisions),
        _rows(status_changes),
        states,
        notices,
        CHANNEL,
        None if seqscan_off else (await conn.exec_driver_sql(KEYS_ONLY)).one()[0],
    )
    counts: tuple[int, ...] = tuple((await conn.exec_driver_sql(SQL, params)).one()[:6])
    expected = (len(game_rows), len(step_rows), len(event_rows), len(orders))
    if counts[:4] != expected or counts[5] != len(notices):
        raise RuntimeError(f"batch write mismatch: wrote {counts}, expected {expected}")
