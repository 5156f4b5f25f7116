"""SQLAlchemy tables: the core ones and ``Base`` (the forum bridge's and the publishing tables
import it beside their code; app/tables.py gathers them all). Alembic migrations (migrations/)
are the only way the schema is made."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# Plain JSON (not JSONB) on PostgreSQL too: it keeps key order, so a state read back
# is the same document the engine wrote and replay stays byte-identical.
JsonType = JSON()


class SerializedJSON(str):
    """A JSON document already serialised by the caller: written to a ``StateJSON``
    column as it is, so a state is encoded once per step (the same text is hashed)."""


class StateJSON(TypeDecorator[Any]):
    """JSON that also accepts a ``SerializedJSON`` text as it is."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect: Dialect) -> Any:
        encode = self.impl_instance.bind_processor(dialect)

        def process(value: Any) -> Any:
            if isinstance(value, SerializedJSON):
                return str(value)
            return encode(value) if encode else value

        return process


class UTCDateTime(TypeDecorator[datetime]):
    """Stored as UTC, always returned timezone-aware (SQLite keeps no offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JsonType, list[Any]: JsonType, datetime: UTCDateTime}


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16))  # setup | running | paused | finished
    settings: Mapped[dict[str, Any]]
    # SHA-256 of the settings as canonical JSON: a process holding them decoded need not
    # read them again (app/services/state_cache.py; a scenario's can be 20 KiB).
    settings_hash: Mapped[str | None] = mapped_column(String(64))
    options: Mapped[dict[str, Any]]
    timezone: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any] | None] = mapped_column(StateJSON())
    # A large state is stored as a base (``state``) and what changed since (``state_delta``,
    # app/services/state_delta.py). ``state_hash``: SHA-256 of the whole state's text (the
    # step's ``state_hash``); ``state_base``: that of the base. A process holding that pair
    # decoded need not read either again (app/services/state_cache.py).
    state_delta: Mapped[dict[str, Any] | None] = mapped_column(StateJSON(none_as_null=True))
    state_hash: Mapped[str | None] = mapped_column(String(64))
    state_base: Mapped[str | None] = mapped_column(String(64))
    seed: Mapped[str] = mapped_column(String(128))
    seed_commitment: Mapped[str] = mapped_column(String(64))
    seed_revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    director_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    step_seq: Mapped[int] = mapped_column(Integer, default=0)
    event_seq: Mapped[int] = mapped_column(Integer, default=0)
    # Bumped whenever a credential of this game is revoked (a player replaced, sessions
    # revoked). Whoever remembers "token -> player" between requests must re-check when
    # it differs: the game row is read by every request anyway, on every replica.
    auth_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    paused_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # A finished game its director "deleted": hidden from the lists, its record kept.
    archived_at: Mapped[datetime | None]
    # A director's private "what if" copy of another game (app/services/sandbox.py):
    # never published, never touching the game it was forked from.
    sandbox: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    forked_from: Mapped[str | None] = mapped_column(String(32))
    forked_at_step: Mapped[int | None] = mapped_column(Integer)
    # How many undos the game has had: part of the key its receipts are sealed under.
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class PlayerRow(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    side: Mapped[str | None] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    forum_name: Mapped[str | None] = mapped_column(String(100))  # for reminders' mentions


class StepRow(Base):
    """Every accepted input to a game, in order: what replay (GET /verify) re-runs."""

    __tablename__ = "steps"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    actor_role: Mapped[str] = mapped_column(String(16))
    actor_player_id: Mapped[str | None] = mapped_column(String(32))
    actor_side: Mapped[str | None] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    at: Mapped[datetime]
    state_hash: Mapped[str] = mapped_column(String(64))
    # Taken back by a director's undo (app/services/undo.py): kept, marked, never deleted.
    undone: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    undone_by: Mapped[str | None] = mapped_column(String(16))
    undone_at: Mapped[datetime | None]
    undone_reason: Mapped[str | None] = mapped_column(Text)
    undone_in_step: Mapped[int | None] = mapped_column(Integer)  # the undo step's seq


class EventRow(Base):
    """The append-only event log. ``step_seq`` is null for service events (pause, resume)."""

    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    step_seq: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[datetime]
    kind: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]]
    audience: Mapped[list[Any]]
    reveal_at: Mapped[str | None] = mapped_column(String(32))


class OrderRow(Base):
    __tablename__ = "orders"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    side: Mapped[str | None] = mapped_column(String(16))
    type: Mapped[str] = mapped_column(String(32))
    body: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16))
    step_seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class OrderRevision(Base):
    """Every submission, revision, withdrawal and status change of an order, with who."""

    __tablename__ = "order_revisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))  # submit | revise | withdraw | status
    body: Mapped[dict[str, Any] | None]
    status: Mapped[str] = mapped_column(String(16))
    by_role: Mapped[str] = mapped_column(String(16))
    by_player_id: Mapped[str | None] = mapped_column(String(32))
    step_seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime]


class Timer(Base):
    """A durable deadline. Paused timers keep ``remaining_seconds`` and have no ``due_at``;
    a parked timer (``failed_at``) waits for the director's resume (app/scheduler.py)."""

    __tablename__ = "timers"
    __table_args__ = (
        UniqueConstraint("game_id", "kind", "key"),
        Index(
            "ix_timers_pending_due",
            "due_at",
            postgresql_where=text("done_at IS NULL"),
            sqlite_where=text("done_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(64))
    due_at: Mapped[datetime | None]
    remaining_seconds: Mapped[float | None] = mapped_column(Float)
    data: Mapped[dict[str, Any]]
    extensions: Mapped[int] = mapped_column(Integer, default=0)
    done_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    # A run that raised: how many times in a row, when to try again (the deadline itself,
    # ``due_at``, stays passed), and once retries are used up, when it was parked and why.
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    next_try_at: Mapped[datetime | None]
    failed_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)


class AuditRow(Base):
    """One row for every director (or admin) action."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    actor: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]]
    at: Mapped[datetime]


class Invite(Base):
    """A one-time link that makes a browser a player's session (``/join/<code>``).
    Only the code's hash is stored; a new invite revokes the player's unused one."""

    __tablename__ = "invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class WebSession(Base):
    """A browser's session in one game, as a player or as the director. The cookie holds
    the secret; only its hash is stored. Revoked sessions stay, for the record."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(16))  # player | director
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class IdempotencyRow(Base):
    """The first response to a POST carrying an Idempotency-Key, replayed on retries."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("scope", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(200))
    method: Mapped[str] = mapped_column(String(8))
    path: Mapped[str] = mapped_column(Text)
    status_code: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


# The Core tables behind the models, typed, for the hot paths that skip the ORM.
GAMES = cast(Table, Game.__table__)
ORDERS = cast(Table, OrderRow.__table__)
ORDER_REVISIONS = cast(Table, OrderRevision.__table__)
STEPS = cast(Table, StepRow.__table__)
EVENTS = cast(Table, EventRow.__table__)
TIMERS = cast(Table, Timer.__table__)
