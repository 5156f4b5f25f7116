"""Test wiring: the same suite runs on embedded SQLite and on real PostgreSQL.

``pytest`` uses SQLite; ``pytest --db postgres`` creates a fresh PostgreSQL database
(on ``TEST_POSTGRES_URL``, default 127.0.0.1:5432 as postgres), migrates it with Alembic,
and drops it at the end. When PostgreSQL is unreachable the run fails under CI=true and
is skipped loudly otherwise.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator

# Every state the decoded-state cache hands out is hashed again, every one it takes in
# compared with its JSON round trip (app/services/state_cache.py): a state changed in
# place fails the test that changed it. Set before app.settings is first read.
os.environ.setdefault("STATE_CACHE_CHECK", "true")

import pytest  # noqa: E402
import pytest_asyncio  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

from tests.support.misago import (  # noqa: E402
    MISAGO_VERSION,
    MisagoForum,
    MisagoUnavailable,
    start_forum,
)

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


# Tests that passed against the real Misago forum; CI checks the count is not zero.
_MISAGO_PASSED = pytest.StashKey[int]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    if (
        report.when == "call"
        and report.passed
        and "misago_forum" in getattr(item, "fixturenames", ())
    ):
        item.config.stash[_MISAGO_PASSED] = item.config.stash.get(_MISAGO_PASSED, 0) + 1
    return report


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    terminalreporter.write_line(f"forumplay test database: {config.getoption('--db')}")
    passed = config.stash.get(_MISAGO_PASSED, 0)
    terminalreporter.write_line(
        f"forumplay misago forum: {passed} tests passed against Misago {MISAGO_VERSION}"
    )


@pytest.fixture(scope="session")
def misago_forum() -> Iterator[MisagoForum]:
    """A real Misago forum for this test session (tests/support/misago.py): its
    ``base_url``, a ``category_id``, the ``bot`` (a moderator), two ``players`` and an
    ``admin``; ``channel_config()`` gives a ``misago`` channel config for the bot.
    Skipped when it cannot start — except under CI=true, where that fails the run."""
    try:
        forum = start_forum()
    except MisagoUnavailable as error:
        if os.environ.get("CI"):
            pytest.fail(f"the Misago test forum did not start: {error}")
        pytest.skip(f"the Misago test forum did not start: {error}")
    yield forum
    forum.stop()


# How long tasks left on the session's loop get to end once cancelled.
_LEFTOVER_GRACE_SECONDS = 20.0


@pytest_asyncio.fixture(scope="session", loop_scope="session", autouse=True)
async def _no_task_outlives_the_session() -> AsyncIterator[None]:
    """At the end of the run, the tasks tests left on the session's loop are cancelled and
    given a moment to end. One that refuses is named on stderr with where it waits, and let
    go: pytest-asyncio would otherwise wait for it for ever, and the run would hang after its
    last test instead of reporting (seen once on PostgreSQL, not reproduced since)."""
    yield
    current = asyncio.current_task()
    left = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    for task in left:
        task.cancel()
    if not left:
        return
    _, stuck = await asyncio.wait(left, timeout=_LEFTOVER_GRACE_SECONDS)
    for task in stuck:
        where = "; ".join(
            f"{f.f_code.co_filename}:{f.f_lineno} {f.f_code.co_name}" for f in task.get_stack()
        )
        print(f"\nforumplay tests: a task refused to end: {task!r} at {where}", file=sys.stderr)
        asyncio.tasks._unregister_task(task)  # type: ignore[attr-defined]
