"""Process-wide settings (environment variables), one pydantic-settings object."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(
        "sqlite+aiosqlite:///./data/forumplay.db",
        description="SQLAlchemy URL: embedded SQLite by default, postgresql+asyncpg://… in production.",
    )
    admin_token: str | None = Field(
        None, description="When set, creating a game requires this token (Bearer)."
    )
    scheduler_enabled: bool = Field(True, description="Run the deadline loop in this process.")
    scheduler_interval_seconds: float = Field(
        1.0, description="How often the loop looks for due timers."
    )
    scheduler_batch: int = Field(100, description="Most timers one pass of the loop runs.")
    scheduler_renders_posts: bool = Field(
        True,
        description="Once no deadline waits, the loop renders the posts the steps planned "
        "(the delivery worker then finds their text ready).",
    )
    scheduler_max_attempts: int = Field(
        5,
        description="Runs of a timer that raised before it is parked as failed (its game "
        "is paused and the director told).",
    )
    scheduler_retry_base_seconds: float = Field(
        2.0, description="First retry delay of a timer that raised; it doubles per attempt."
    )
    scheduler_retry_max_seconds: float = Field(300.0, description="Longest retry delay.")
    order_batching: bool = Field(
        True,
        description="Write order submissions that arrive together in one transaction "
        "(each is still checked on its own and answered only after the commit).",
    )
    order_batch_workers: int = Field(
        3,
        ge=1,
        le=32,
        description="Batches of orders written at once (on disjoint games): their round "
        "trips to the database overlap each other's work.",
    )
    order_batch_spawn_at: int = Field(
        8,
        ge=1,
        description="Orders waiting before another batch is started beside the running one "
        "(fewer wait for the running batch to finish, and join the next).",
    )
    gc_full_seconds: float = Field(
        60.0,
        ge=0,
        description="How often the process runs the cyclic garbage collector's full pass "
        "itself, the only one: what survived since start-up is walked then, and the reference "
        "cycles among it that became garbage are freed, with what they hold. What existed at "
        "start-up is frozen, never walked again (0: the interpreter's own schedule).",
    )
    state_cache_games: int = Field(
        4096,
        ge=0,
        description="Game states each process keeps decoded at most (the most recently "
        "used; 0: none): an order then reads the game row without its state.",
    )
    state_cache_mb: float = Field(
        32.0,
        ge=0,
        description="...and at most this many MiB of their stored JSON text (decoded, a "
        "state takes 6 to 10 times its text): a 1,000-player state's text is 0.4 MiB, a "
        "six-player game's 3 KiB, so this keeps about 75 of the one or 4,096 of the other.",
    )
    state_cache_check: bool = Field(
        False,
        description="Check every state the cache hands out or takes in (hashed again, "
        "compared with its JSON round trip): for the tests, it costs what the cache saves.",
    )
    publish_worker_enabled: bool = Field(
        True, description="Run the post delivery loop in this process."
    )
    publish_worker_interval_seconds: float = Field(
        1.0, description="How often the delivery loop looks for due deliveries."
    )
    publish_worker_batch: int = Field(100, description="Most deliveries one pass sends at once.")
    publish_max_attempts: int = Field(
        8, description="Attempts before a delivery is marked failed (the director may retry)."
    )
    publish_retry_base_seconds: float = Field(
        5.0, description="First retry delay; it doubles per attempt (with jitter)."
    )
    publish_retry_max_seconds: float = Field(3600.0, description="Longest retry delay.")
    publish_lease_seconds: float = Field(
        120.0,
        description="A delivery being sent that is not recorded within this time is "
        "presumed lost with its worker and sent again (at most one duplicate).",
    )
    public_url: str | None = Field(
        None,
        description="This service's public address (e.g. https://host), for the "
        "'how to verify' links in posts; unset: posts carry no links.",
    )
    db_pool_size: int = Field(20, description="Connection pool size (PostgreSQL).")
    db_pool_overflow: int = Field(
        0,
        ge=0,
        description="Connections opened beyond the pool at a peak, each closed again when "
        "returned (PostgreSQL). 0: a peak waits for a pooled connection, which is faster "
        "than opening and closing connections under load.",
    )
    db_connect_timeout_seconds: float = Field(
        5.0,
        gt=0,
        description="Longest wait to open a database connection; past it the request is "
        "answered 503 database_unavailable (PostgreSQL).",
    )
    db_command_timeout_seconds: float = Field(
        30.0,
        gt=0,
        description="Longest wait for one statement's answer before the connection is "
        "given up (PostgreSQL): a database that stops answering cannot hang a request.",
    )
    db_pool_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="Longest wait for a free pooled connection before answering 503.",
    )
    db_echo: bool = False
    secret_key: str | None = Field(
        None,
        description="Encrypts channel secrets at rest: a Fernet key or any passphrase. "
        "Unset: a key file is created beside the SQLite database and reused.",
    )
    max_body_bytes: int = Field(
        256 * 1024,
        gt=0,
        description="Largest request body a route takes unless it needs more (creating a "
        "game: 4 MiB) or less (orders: 64 KiB); larger ones get 413 unread.",
    )
    serve_max_header_bytes: int = Field(
        32 * 1024,
        gt=0,
        description="forumplay serve: largest header block of a request (else 400).",
    )
    serve_max_headers: int = Field(
        100, gt=0, description="forumplay serve: most header lines of a request (else 400)."
    )
    serve_header_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="forumplay serve: a request's headers must arrive within this long of "
        "the connection opening (or the previous answer); else the connection is closed.",
    )
    serve_body_timeout_seconds: float = Field(
        30.0,
        gt=0,
        description="forumplay serve: a request's body must arrive within this long of its "
        "headers; else the connection is closed.",
    )
    publish_allow_private_urls: bool = Field(
        False,
        description="Allow channel URLs on private, loopback or link-local addresses "
        "(tests, a forum on the LAN).",
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
