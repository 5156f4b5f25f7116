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
    order_batching: bool = Field(
        True,
        description="Write order submissions that arrive together in one transaction "
        "(each is still checked on its own and answered only after the commit).",
    )
    db_pool_size: int = Field(20, description="Connection pool size (PostgreSQL).")
    db_echo: bool = False
    secret_key: str | None = Field(
        None,
        description="Encrypts channel secrets at rest: a Fernet key or any passphrase. "
        "Unset: a key file is created beside the SQLite database and reused.",
    )
    publish_allow_private_urls: bool = Field(
        False,
        description="Allow channel URLs on private, loopback or link-local addresses "
        "(tests, a forum on the LAN).",
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
