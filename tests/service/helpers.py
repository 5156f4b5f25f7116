"""A small client for the service tests: one game, its director and players."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.clock import FakeClock
from app.scheduler import run_due_timers


@contextlib.asynccontextmanager
async def served(
    app: FastAPI, engine: AsyncEngine, sessionmaker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[AsyncClient]:
    """A client of ``app`` on the test database (``http.app`` is the app)."""
    app.state.engine = engine
    app.state.sessionmaker = sessionmaker
    transport = ASGITransport(app=app, raise_app_exceptions=False)
    async with AsyncClient(transport=transport, base_url="http://test") as http:
        http.app = app  # type: ignore[attr-defined]
        yield http


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def ok(response: Response, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def problem(response: Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert body["status"] == status
    return body


@dataclass
class Game:
    http: AsyncClient
    id: str
    director: str
    created: dict[str, Any]
    players: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/api/v1/games/{self.id}"

    def token(self, who: str | None) -> str | None:
        if who is None:
            return None
        if who == "director":
            return self.director
        return str(self.players[who]["token"])

    async def get(self, path: str, who: str | None = None, **kw: Any) -> Response:
        return await self.http.get(f"{self.url}{path}", headers=bearer(self.token(who)), **kw)

    async def post(
        self, path: str, who: str | None = None, json: Any = None, **kw: Any
    ) -> Response:
        headers = {**bearer(self.token(who)), **kw.pop("headers", {})}
        return await self.http.post(f"{self.url}{path}", headers=headers, json=json, **kw)

    async def put(self, path: str, who: str | None = None, json: Any = None) -> Response:
        return await self.http.put(f"{self.url}{path}", headers=bearer(self.token(who)), json=json)

    async def delete(self, path: str, who: str | None = None) -> Response:
        return await self.http.delete(f"{self.url}{path}", headers=bearer(self.token(who)))

    async def add_player(self, name: str, side: str | None = None) -> dict[str, Any]:
        body = ok(await self.post("/players", "director", {"name": name, "side": side}), 201)
        self.players[name] = body
        return body

    async def start(self) -> dict[str, Any]:
        return ok(await self.post("/start", "director"))  # type: ignore[no-any-return]

    async def order(self, who: str, body: dict[str, Any], status: int = 201) -> Any:
        return ok(await self.post("/orders", who, body), status)

    async def ready(self, who: str) -> Any:
        return ok(await self.post("/ready", who))

    async def view(self, who: str | None = None) -> dict[str, Any]:
        return ok(await self.get("/view", who))  # type: ignore[no-any-return]

    async def events(self, who: str | None = None, after: int = 0) -> list[dict[str, Any]]:
        return ok(await self.get("/events", who, params={"after": after}))  # type: ignore[no-any-return]

    async def summary(self) -> dict[str, Any]:
        return ok(await self.get(""))  # type: ignore[no-any-return]


async def create_game(
    http: AsyncClient,
    ruleset: str = "team_battle",
    settings: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> Game:
    body = {"ruleset": ruleset, "title": "测试局", "settings": settings or {}, **extra}
    if options is not None:
        body["options"] = options
    created = ok(await http.post("/api/v1/games", json=body), 201)
    return Game(http=http, id=created["id"], director=created["director_token"], created=created)


TB_SETTINGS: dict[str, Any] = {
    "troops": {"A": 30, "B": 30},
    "deployment_seconds": 3600,
    "command_seconds": 3600,
    "battle_seconds": 3600,
    "response_seconds": 600,
}


async def team_battle(http: AsyncClient, settings: dict[str, Any] | None = None, **kw: Any) -> Game:
    """A started team battle with players a1, a2 on side A and b1 on side B."""
    game = await create_game(http, "team_battle", {**TB_SETTINGS, **(settings or {})}, **kw)
    await game.add_player("a1", "A")
    await game.add_player("a2", "A")
    await game.add_player("b1", "B")
    await game.start()
    return game


async def tick(http: AsyncClient, clock: FakeClock, seconds: float) -> int:
    """Move the fake clock and let the scheduler run whatever fell due."""
    clock.advance(seconds)
    app = http.app  # type: ignore[attr-defined]
    return await run_due_timers(app.state.sessionmaker, clock)
