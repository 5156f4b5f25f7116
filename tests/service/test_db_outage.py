"""The database goes away and comes back.

While it is away every request gets a quick ``503 database_unavailable`` (never a 500,
never a hang) and ``/readyz`` says not ready; when it is back, the pool, the order
batcher, the deadline loop and the live hub carry on by themselves — no acknowledged
order is lost and every due deadline resolves exactly once.

The outage test runs the service (uvicorn, in a thread, on the test's clock) against its
OWN PostgreSQL cluster, made with ``initdb`` in a temporary folder on a port of its own,
so stopping it leaves the shared server alone. It runs with ``--db postgres``; under
``CI=true`` a cluster that cannot be made fails the run instead of skipping.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from httpx import AsyncClient
from sqlalchemy import exc
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.clock import FakeClock
from app.db import database_unavailable, make_engine
from app.migrate import migrate
from app.settings import Settings
from tests.service.helpers import Game, ok, problem, team_battle
from tests.service.live_server import open_stream, thread_server
from tests.service.test_readyz import serving
from tests.support.waiting import wait_until

DEPLOY = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
WAIT = 60.0  # bounded waits: generous, the machine is shared and busy
# No request may take longer than this, outage or not (the service's own timeouts are
# set a few seconds below it in ``outage_settings``).
REQUEST_BOUND = 20.0


def unavailable(response: httpx.Response) -> dict[str, Any]:
    body = problem(response, 503, "database_unavailable")
    assert response.headers["retry-after"].isdigit()
    return body


# --- the 503 mapping, in process, on the run's database (SQLite too) -------------------


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest_asyncio.fixture
async def unreachable(db_kind: str, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    """An engine of the run's kind whose database cannot be reached."""
    if db_kind == "sqlite":
        blocker = tmp_path / "a-file-not-a-folder"
        blocker.write_text("")
        engine = create_async_engine(f"sqlite+aiosqlite:///{blocker}/forumplay.db")
    else:
        url = f"postgresql+asyncpg://postgres@127.0.0.1:{_closed_port()}/forumplay"
        engine = make_engine(url, pool_size=2, connect_timeout=2, pool_timeout=2)
    yield engine
    await engine.dispose()


async def test_an_unreachable_database_is_a_quick_503_and_changes_nothing(
    client: AsyncClient, settings: Settings, unreachable: AsyncEngine
) -> None:
    game = await team_battle(client)
    auth = {"Authorization": f"Bearer {game.token('a1')}"}
    async with serving(settings, unreachable) as away:
        assert ok(await away.get("/healthz")) == {"ok": True}  # alive, only not ready
        assert "数据库" in unavailable(await away.get("/readyz"))["detail"]
        body = {"ruleset": "team_battle", "title": "新局", "settings": {}}
        unavailable(await away.post("/api/v1/games", json=body))
        english = {**auth, "Accept-Language": "en"}
        refused = unavailable(await away.post(f"{game.url}/orders", json=DEPLOY, headers=english))
        assert "database" in refused["detail"]
        keyed = {**auth, "Idempotency-Key": "outage-1"}
        unavailable(await away.post(f"{game.url}/orders", json=DEPLOY, headers=keyed))
        unavailable(await away.get(f"{game.url}/view", headers=auth))
        unavailable(await away.get(f"{game.url}/stream", headers=auth))
    assert ok(await game.get("/orders", "director")) == []  # nothing was written


async def test_other_database_errors_are_still_500s(
    client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an unavailable database is a 503: a broken statement is a bug, and an OSError
    that did not come through the driver says nothing about the database."""
    game = await team_battle(client)
    from app.services import read_cache

    for error in (
        exc.ProgrammingError("SELECT nonsense", {}, Exception("syntax error")),
        ConnectionRefusedError("a webhook refused"),
    ):

        async def broken(*_args: Any, error: Exception = error, **_kwargs: Any) -> Any:
            raise error

        # The read path's first statement: the game's version (GET /view answers from it).
        monkeypatch.setattr(read_cache, "read_head", broken)
        problem(await game.get("/view", "a1"), 500, "internal_error")


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (exc.OperationalError("BEGIN", {}, sqlite3.OperationalError("database is locked")), True),
        (
            exc.OperationalError("x", {}, sqlite3.OperationalError("unable to open database file")),
            True,
        ),
        (exc.OperationalError("x", {}, sqlite3.OperationalError("no such table: games")), False),
        (
            exc.IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint failed")),
            False,
        ),
        (exc.TimeoutError("QueuePool limit reached"), True),
    ],
)
def test_what_counts_as_the_database_being_away(error: Exception, expected: bool) -> None:
    assert database_unavailable(error) is expected


async def test_the_scheduler_logs_an_outage_once_and_the_recovery_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """While the database is away every pass fails; the log says so once (no traceback
    every interval for an operator to wade through), and once when deadlines run again.
    A failure that is not the database's is still logged in full."""
    from app import scheduler

    locked = exc.OperationalError("BEGIN", {}, sqlite3.OperationalError("database is locked"))
    outcomes: list[Any] = [locked, locked, locked, 0, 0, ValueError("a bug"), 0]
    passes = 0

    async def run_due_timers(*_args: Any) -> int:
        nonlocal passes
        passes += 1
        if not outcomes:
            raise asyncio.CancelledError
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return int(outcome)

    monkeypatch.setattr(scheduler, "run_due_timers", run_due_timers)
    with caplog.at_level("INFO", logger="forumplay"), pytest.raises(asyncio.CancelledError):
        # (No rendering between passes: there is no database behind this loop at all.)
        await scheduler.scheduler_loop(None, FakeClock(), 0, 100, render_posts=False)  # type: ignore[arg-type]
    assert passes == 8
    lines = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert [(level, tb) for level, _, tb in lines] == [
        ("WARNING", False),  # gone: one line, no traceback
        ("WARNING", False),  # back
        ("ERROR", True),  # a bug: in full
    ]
    assert "unavailable" in lines[0][1] and "back" in lines[1][1]


# --- the outage, on a cluster of the test's own ------------------------------------------


def _cannot_run(reason: str) -> None:
    message = f"the outage test needs its own PostgreSQL cluster: {reason}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _postgres_bin() -> Path:
    configured = os.environ.get("PG_BIN")
    if configured:
        return Path(configured)
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


class Cluster:
    """A PostgreSQL cluster in a temporary folder, listening on 127.0.0.1:``port`` only.
    initdb and postgres refuse to run as root: as root they run as the ``postgres`` user,
    in a folder it owns."""

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        if not (self.bin / "initdb").exists():
            _cannot_run(f"no initdb in {self.bin} (set PG_BIN)")
        self.as_root = os.geteuid() == 0
        owner = None
        if self.as_root:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                _cannot_run("running as root and there is no postgres user to run it as")
        self.root = Path(tempfile.mkdtemp(prefix="forumplay-pg-"))
        if owner is not None:
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self.data = self.root / "data"
        self.port = _closed_port()
        self.frozen: list[int] = []

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
        if done.returncode != 0:
            log = (self.root / "log").read_text() if (self.root / "log").exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed: {done.stdout}{done.stderr}{log}")

    def init(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        # fsync off: a scratch cluster; a fast stop still checkpoints everything committed.
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=100"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"),
                  "-o", options, "-w", "-t", "120", "start")  # fmt: skip

    def stop(self) -> None:
        """What an operator's restart does: abort every transaction, close every
        connection, refuse new ones until started again."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "120", "stop")

    def processes(self) -> list[int]:
        """The server process and its children (connections, background workers)."""
        server = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    # /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces.
                    fields = (entry / "stat").read_text().rpartition(")")[2].split()
                    if int(fields[1]) == server:
                        children.append(int(entry.name))
        return [server, *children]

    def freeze(self) -> None:
        """The server stops answering without closing anything (a hung host, a network
        cut): every process of this cluster is stopped (SIGSTOP) until ``thaw``."""
        self.frozen = self.processes()
        for pid in self.frozen:
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        self.frozen = []

    def destroy(self) -> None:
        self.thaw()
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(db_kind: str) -> Iterator[Cluster]:
    if db_kind != "postgres":
        pytest.skip("the outage test runs with --db postgres (SQLite has no server to lose)")
    own = Cluster()
    try:
        try:
            own.init()
            own.start()
        except (RuntimeError, OSError, subprocess.SubprocessError) as error:
            _cannot_run(str(error))
        migrate(own.url)
        yield own
    finally:
        own.destroy()


def outage_settings(url: str, **timeouts: float) -> Settings:
    values: dict[str, Any] = {
        "db_connect_timeout_seconds": 3,
        "db_pool_timeout_seconds": 5,
        "db_command_timeout_seconds": 10,
        **timeouts,
    }
    return Settings(
        database_url=url,
        scheduler_enabled=True,
        scheduler_interval_seconds=0.1,
        publish_worker_enabled=False,
        publish_allow_private_urls=True,
        admin_token=None,
        db_pool_size=10,
        **values,
    )


@dataclass
class Load:
    """Order submissions from several clients at once, each answer filed under the
    period its request started in."""

    period: str = "before"
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (game, order)
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)  # anything but 201 or a proper 503
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def count(self, period: str, status: int) -> int:
        return self.answers[(period, status)]


async def submit_orders(http: AsyncClient, games: list[Game], load: Load, start: int) -> None:
    turn = start
    while not load.stop.is_set():
        game = games[turn % len(games)]
        who = ("a1", "a2", "b1")[turn % 3]
        turn += 1
        period = load.period
        try:
            response = await game.post("/orders", who, DEPLOY)
        except httpx.HTTPError as error:  # a hang past REQUEST_BOUND, a reset connection
            load.wrong.append(f"{period}: {type(error).__name__} {error}")
            continue
        load.answers[(period, response.status_code)] += 1
        if response.status_code == 201:
            load.acknowledged.append((game.id, response.json()["id"]))
        elif response.status_code != 503 or response.json().get("code") != "database_unavailable":
            load.wrong.append(f"{period}: {response.status_code} {response.text[:300]}")


async def waiting(condition: Any, what: str, load: Load | None = None) -> None:
    """A bounded wait (``wait_until``, in a thread, so the load goes on meanwhile); it
    gives up at once if the load has had a wrong answer."""

    def wrong() -> str | None:
        return f"the load got {load.wrong[0]}" if load and load.wrong else None

    await asyncio.to_thread(wait_until, condition, timeout=WAIT, what=what, give_up=wrong)


async def new_games(http: AsyncClient, count: int, deployment_seconds: int) -> list[Game]:
    settings = {"deployment_seconds": deployment_seconds}
    return list(await asyncio.gather(*(team_battle(http, settings) for _ in range(count))))


def is_ready(base: str) -> bool:
    return httpx.get(f"{base}/readyz", timeout=REQUEST_BOUND).status_code == 200


async def test_the_database_goes_away_and_comes_back(cluster: Cluster) -> None:
    clock = FakeClock()
    with thread_server(outage_settings(cluster.url), clock) as base:
        async with httpx.AsyncClient(base_url=base, timeout=REQUEST_BOUND) as http:
            await outage(cluster, clock, base, http)


async def outage(cluster: Cluster, clock: FakeClock, base: str, http: AsyncClient) -> None:
    assert ok(await http.get("/readyz"))["status"] == "ready"

    busy = await new_games(http, 4, 86400)  # the load's: none of their deadlines come due
    at_stop = await new_games(http, 4, 1800)  # due as the database stops: perhaps resolving
    while_away = await new_games(http, 4, 3600)  # due while the database is away
    watched = while_away[0]

    def phase(game: Game) -> str | None:
        response = httpx.get(f"{base}{game.url}/view", headers=_auth(game), timeout=REQUEST_BOUND)
        return str(response.json()["phase"]) if response.status_code == 200 else None

    load = Load()
    async with open_stream(base, watched.id, _auth(watched)) as stream:
        clients = [asyncio.create_task(submit_orders(http, busy, load, i)) for i in range(6)]
        try:
            await waiting(
                lambda: load.count("before", 201) >= 10, "orders to be acknowledged", load
            )
            clock.advance(1801)  # the first deadlines are due: the loop starts on them
            await asyncio.to_thread(cluster.stop)
            load.period = "away"
            clock.advance(1800)  # the others come due while the database is away

            # Away: quick 503s everywhere, not ready, yet alive.
            await waiting(lambda: load.count("away", 503) >= 20, "orders refused with 503", load)
            assert ok(await http.get("/healthz")) == {"ok": True}
            unavailable(await http.get("/readyz"))
            unavailable(await http.get(f"{watched.url}/view", headers=_auth(watched)))
            unavailable(await http.get(f"{watched.url}/events", headers=_auth(watched)))
            keyed = {**_auth(busy[0], "a1"), "Idempotency-Key": "during-the-outage"}
            unavailable(await http.post(f"{busy[0].url}/orders", json=DEPLOY, headers=keyed))

            load.period = "restarting"  # a request now may find it up or not yet
            await asyncio.to_thread(cluster.start)
            load.period = "back"

            # Back: everything recovers by itself, without a restart of the service.
            await waiting(lambda: is_ready(base), "/readyz to say ready again")
            await waiting(lambda: load.count("back", 201) >= 10, "orders acknowledged again", load)
            for game in at_stop + while_away:
                await waiting(lambda game=game: phase(game) == "command", f"{game.id}'s deadline")
            await stream.wait_for(
                lambda e: e["kind"] == "deployment_revealed", WAIT, "the deadline, live"
            )
        finally:
            load.stop.set()
            await asyncio.gather(*clients)

    assert not load.wrong, load.wrong[:5]
    assert load.count("away", 201) == 0
    await check_nothing_lost(cluster, load, at_stop + while_away)


async def test_a_database_that_stops_answering_is_a_503_within_the_timeouts(
    cluster: Cluster,
) -> None:
    """Nothing is refused or closed, the answers just stop coming: the connect, command
    and pool timeouts turn that into 503s instead of requests that hang, and when the
    database answers again the service carries on."""
    timeouts = {
        "db_connect_timeout_seconds": 2,
        "db_command_timeout_seconds": 3,
        "db_pool_timeout_seconds": 3,
    }
    with thread_server(outage_settings(cluster.url, **timeouts), FakeClock()) as base:
        async with httpx.AsyncClient(base_url=base, timeout=REQUEST_BOUND) as http:
            busy = await new_games(http, 4, 86400)
            load = Load()
            clients = [asyncio.create_task(submit_orders(http, busy, load, i)) for i in range(4)]
            try:
                await waiting(lambda: load.count("before", 201) >= 10, "orders", load)
                await asyncio.to_thread(cluster.freeze)
                try:
                    load.period = "away"
                    await waiting(lambda: load.count("away", 503) >= 4, "503s", load)
                    unavailable(await http.get("/readyz"))
                    assert ok(await http.get("/healthz")) == {"ok": True}
                finally:
                    load.period = "restarting"  # requests waiting now may yet succeed
                    cluster.thaw()
                load.period = "back"
                await waiting(lambda: is_ready(base), "/readyz to say ready again")
                await waiting(lambda: load.count("back", 201) >= 10, "orders again", load)
            finally:
                load.stop.set()
                await asyncio.gather(*clients)
    assert not load.wrong, load.wrong[:5]  # among them any request past REQUEST_BOUND
    await check_nothing_lost(cluster, load, [])


async def check_nothing_lost(cluster: Cluster, load: Load, deadline_games: list[Game]) -> None:
    import asyncpg

    conn = await asyncpg.connect(
        cluster.url.replace("postgresql+asyncpg", "postgresql"), timeout=30
    )
    try:
        stored = {
            (r["game_id"], r["id"]) for r in await conn.fetch("SELECT game_id, id FROM orders")
        }
        lost = [order for order in load.acknowledged if order not in stored]
        assert not lost, f"{len(lost)} of {len(load.acknowledged)} acknowledged orders lost"
        ids = [game.id for game in deadline_games]
        resolutions = await conn.fetch(
            "SELECT game_id, count(*) AS n FROM steps WHERE kind = 'timer' AND game_id = ANY($1)"
            " GROUP BY game_id",
            ids,
        )
        assert {r["game_id"]: r["n"] for r in resolutions} == dict.fromkeys(ids, 1)
        closed = await conn.fetch(
            "SELECT game_id, count(*) AS n FROM events WHERE kind = 'deployment_revealed'"
            " AND game_id = ANY($1) GROUP BY game_id",
            ids,
        )
        assert {r["game_id"]: r["n"] for r in closed} == dict.fromkeys(ids, 1)
    finally:
        await conn.close()


def _auth(game: Game, who: str = "director") -> dict[str, str]:
    return {"Authorization": f"Bearer {game.token(who)}"}
