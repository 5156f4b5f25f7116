"""Two app processes (real uvicorn, each with its scheduler and its read cache) on one
PostgreSQL work as one service: what is done through one is seen through the other at once,
a deadline is resolved once however many replicas run, and no replica serves a view the
other has since changed — not even as a 304."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import StepRow
from tests.service.live_server import process_server
from tests.support.waiting import wait_until

WAIT = 60.0  # generous: the machine is shared
REPLICA_ENV = {"SCHEDULER_ENABLED": "true", "SCHEDULER_INTERVAL_SECONDS": "0.2"}


@pytest.fixture(scope="module")
def replicas(db_kind: str, database_url: str) -> Iterator[tuple[str, str]]:
    if db_kind != "postgres":
        pytest.skip("replicas share one PostgreSQL; SQLite serves one process")
    with (
        process_server(database_url, REPLICA_ENV) as one,
        process_server(database_url, REPLICA_ENV) as two,
    ):
        yield one, two


class Game:
    """A team battle driven over HTTP through whichever replica a call names."""

    def __init__(self, http: httpx.Client, base: str, settings: dict[str, Any]) -> None:
        self.http = http
        created = self.call(
            "POST",
            base,
            "/api/v1/games",
            None,
            {"ruleset": "team_battle", "title": "replicas", "settings": settings},
        )
        self.id = created["id"]
        self.tokens = {"director": created["director_token"]}
        for name, side in (("a", "A"), ("b", "B")):
            added = self.call(
                "POST", base, self.path("/players"), "director", {"name": name, "side": side}
            )
            self.tokens[name] = added["token"]
        self.call("POST", base, self.path("/start"), "director")

    def path(self, tail: str) -> str:
        return f"/api/v1/games/{self.id}{tail}"

    def headers(self, who: str | None, etag: str | None = None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        return {**headers, "If-None-Match": etag} if etag else headers

    def call(self, method: str, base: str, path: str, who: str | None, body: Any = None) -> Any:
        response = self.http.request(method, f"{base}{path}", json=body, headers=self.headers(who))
        assert response.status_code in (200, 201), response.text
        return response.json()

    def get(self, base: str, tail: str, who: str | None, etag: str | None = None) -> httpx.Response:
        return self.http.get(f"{base}{self.path(tail)}", headers=self.headers(who, etag))


SHORT = {"troops": {"A": 30, "B": 30}, "command_seconds": 3600, "battle_seconds": 3600}


async def test_an_order_through_one_replica_is_seen_through_the_other_at_once(
    replicas: tuple[str, str],
) -> None:
    one, two = replicas
    with httpx.Client(timeout=30) as http:
        game = Game(http, one, {**SHORT, "deployment_seconds": 3600})
        for base in (one, two):  # both replicas have the side's view cached
            assert game.get(base, "/view", "a").json()["sides"]["A"]["ready"] is False
        order = game.call(
            "POST", one, game.path("/orders"), "a", {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
        )
        listed = game.get(two, "/orders", "a").json()
        assert [o["id"] for o in listed] == [order["id"]]
        game.call("POST", one, game.path("/ready"), "a")
        assert game.get(two, "/view", "a").json()["sides"]["A"]["ready"] is True
        # Side B sees that A is ready, never what A deployed.
        b_view = game.get(two, "/view", "b").json()
        assert "ready" not in b_view["sides"]["A"]
        assert "[4, 7, 8, 6, 5]" not in str(game.get(two, "/events", "b").json())


async def test_after_a_step_on_one_replica_the_other_never_serves_the_old_view(
    replicas: tuple[str, str],
) -> None:
    one, two = replicas
    with httpx.Client(timeout=30) as http:
        game = Game(http, one, {**SHORT, "deployment_seconds": 3600})
        cached: dict[str | None, tuple[str, Any]] = {}
        for who in ("a", "b", None, "director"):
            view = game.get(two, "/view", who)
            events = game.get(two, "/events", who)
            assert game.get(two, "/view", who, view.headers["etag"]).status_code == 304
            cached[who] = (view.headers["etag"], events.headers["etag"])
        # Both sides deploy and are ready through replica one: the deployment closes.
        for who, troops in (("a", [4, 7, 8, 6, 5]), ("b", [6, 6, 6, 6, 6])):
            game.call("POST", one, game.path("/orders"), who, {"type": "deploy", "troops": troops})
            game.call("POST", one, game.path("/ready"), who)
        for who, (view_tag, events_tag) in cached.items():
            view = game.get(two, "/view", who, view_tag)
            assert view.status_code == 200, who
            assert view.json()["phase"] == "command", who
            assert view.json() == game.get(one, "/view", who).json()
            events = game.get(two, "/events", who, events_tag)
            assert events.status_code == 200, who
            assert "phase_closed" in [e["kind"] for e in events.json()]


async def test_deadlines_due_while_both_replicas_run_are_resolved_exactly_once(
    replicas: tuple[str, str], sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    one, two = replicas
    with httpx.Client(timeout=30) as http:
        # Deadlines one to two seconds away, the games made through both replicas.
        games = [
            Game(http, (one, two)[i % 2], {**SHORT, "deployment_seconds": 1 + i % 2})
            for i in range(6)
        ]

        def moved_on() -> bool:
            return all(
                game.get((one, two)[i % 2], "", None).json()["phase"] == "command"
                for i, game in enumerate(games)
            )

        wait_until(moved_on, timeout=WAIT, what="every deployment deadline to be resolved")
        for i, game in enumerate(games):
            kinds = [e["kind"] for e in game.get((two, one)[i % 2], "/events", "director").json()]
            assert kinds.count("phase_closed") == 1, kinds
            assert kinds.count("phase_opened") == 2, kinds  # deployment, then command
    async with sessionmaker() as session:
        for game in games:
            timer_steps = await session.scalar(
                select(func.count())
                .select_from(StepRow)
                .where(StepRow.game_id == game.id, StepRow.kind == "timer")
            )
            assert timer_steps == 1
