"""Test wiring: the same suite runs on embedded SQLite and on real PostgreSQL.

``pytest`` uses SQLite; ``pytest --db postgres`` creates a fresh PostgreSQL database
(on ``TEST_POSTGRES_URL``, default 127.0.0.1:5432 as postgres), migrates it with Alembic,
and drops it at the end. When PostgreSQL is unreachable the run fails under CI=true and
is skipped loudly otherwise.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

# CI runs the property tests on a fixed sequence of examples: a red run can be re-run as is.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--db",
        choices=("sqlite", "postgres"),
        default=os.environ.get("FORUMPLAY_TEST_DB", "sqlite"),
        help="database the service tests run against",
    )


def pytest_report_header(config: pytest.Config) -> str:
    return f"forumplay test database: {config.getoption('--db')}"


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    terminalreporter.write_line(f"forumplay test database: {config.getoption('--db')}")
