"""The service fixtures (database on both engines, app, client, clock) for the chat tests."""

from tests.service.conftest import (  # noqa: F401
    _clean_tables,
    browser,
    client,
    clock,
    database_url,
    db_kind,
    engine,
    sessionmaker,
    settings,
)
