"""What the metrics and the JSON request log cost a request, in the same run.

Run: ``python bench/observability.py`` (embedded SQLite in a temporary folder; seconds).
One app, served in-process by direct ASGI calls (no network, no HTTP client), with and
without ``app.observability.RequestMiddleware`` — the same routes, database and game —
interleaved, best of several rounds, CPU time per request:

- ``GET /api/v1/games/{id}/view`` as a player (a read), and
- ``POST /api/v1/games/{id}/orders`` (a deploy, accepted: a side's new deploy replaces
  its last one),

with the request log on (``LOG_LEVEL=INFO``, lines written to /dev/null) and off
(``WARNING``). On a busy machine whole requests vary by more than the instrumentation
costs, so the middleware is also timed alone, around an endpoint that does nothing (its
own cost, µs), and set against the bare app's cheapest request measured in the same run.
Target: the middleware's own cost within 5% of that request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi import FastAPI  # noqa: E402
from httpx import ASGITransport, AsyncClient  # noqa: E402

from app import observability  # noqa: E402
from app.clock import FakeClock  # noqa: E402
from app.db import make_engine, make_sessionmaker  # noqa: E402
from app.main import create_app  # noqa: E402
from app.migrate import migrate  # noqa: E402
from app.settings import Settings  # noqa: E402

TARGET = 0.05
PER_ROUND = 200
ROUNDS = 9


async def call(app: FastAPI, method: str, path: str, token: str, body: bytes = b"") -> int:
    headers = [(b"authorization", f"Bearer {token}".encode()), (b"host", b"bench")]
    if body:
        headers.append((b"content-type", b"application/json"))
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("bench", 80),
    }
    sent = False
    status = 0

    async def receive() -> MutableMapping[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


async def per_request(
    app: FastAPI, method: str, path: str, token: str, bodies: list[bytes]
) -> float:
    started = time.process_time()
    for i in range(PER_ROUND):
        status = await call(app, method, path, token, bodies[i % len(bodies)] if bodies else b"")
        assert status in (200, 201), status
    return (time.process_time() - started) / PER_ROUND


async def middleware_alone(base: str) -> float:
    """The middleware's own CPU time per request, around an endpoint that does nothing
    (it still sees a route template and a game id, as for a real request)."""

    class Route:
        path = "/api/v1/games/{game_id}/view"

    async def nothing(scope: Any, receive: Any, send: Any) -> None:
        scope["route"], scope["path_params"] = Route, {"game_id": "g"}
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    wrapped = observability.RequestMiddleware(nothing)
    best = float("inf")
    for _ in range(ROUNDS):
        timings = []
        for app in (nothing, wrapped):
            started = time.process_time()
            for _ in range(PER_ROUND * 10):
                await call(app, "GET", f"{base}/view", "t")  # type: ignore[arg-type]
            timings.append((time.process_time() - started) / (PER_ROUND * 10))
        best = min(best, timings[1] - timings[0])
    return max(best, 0.0)


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="forumplay-bench-"))
    url = f"sqlite+aiosqlite:///{folder / 'bench.db'}"
    migrate(url)
    settings = Settings(
        database_url=url, scheduler_enabled=False, publish_worker_enabled=False, admin_token=None
    )
    engine = make_engine(url)
    apps: dict[str, FastAPI] = {}
    for name in ("bare", "instrumented"):
        app = create_app(settings, FakeClock())
        if name == "bare":
            app.user_middleware = [
                m for m in app.user_middleware if m.cls is not observability.RequestMiddleware
            ]
        app.state.engine, app.state.sessionmaker = engine, make_sessionmaker(engine)
        apps[name] = app
    # Where the request lines go in production is a pipe or a file: here, /dev/null.
    for handler in logging.getLogger("forumplay").handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 - for the whole run

    async with AsyncClient(transport=ASGITransport(app=apps["bare"]), base_url="http://b") as http:
        game = (await http.post("/api/v1/games", json={"ruleset": "team_battle"})).json()
        director = {"Authorization": f"Bearer {game['director_token']}"}
        base = f"/api/v1/games/{game['id']}"
        player = (
            await http.post(f"{base}/players", json={"name": "a", "side": "A"}, headers=director)
        ).json()
        await http.post(f"{base}/players", json={"name": "b", "side": "B"}, headers=director)
        await http.post(f"{base}/start", headers=director)
    deploys = [
        json.dumps({"type": "deploy", "troops": [6 + i % 3, 6 - i % 3, 6, 6, 6]}).encode()
        for i in range(3)
    ]
    cases = [
        ("GET /view", "GET", f"{base}/view", []),
        ("POST /orders", "POST", f"{base}/orders", deploys),
    ]

    print(f"CPU time per request, best of {ROUNDS} rounds of {PER_ROUND}, interleaved")
    print("| request | log | bare µs | instrumented µs | ratio |")
    print("|---|---|---|---|---|")
    cheapest = float("inf")
    alone: dict[str, float] = {}
    for level in ("INFO", "WARNING"):
        logging.getLogger("forumplay").setLevel(level)
        for label, method, path, bodies in cases:
            best = {"bare": float("inf"), "instrumented": float("inf")}
            for round_ in range(ROUNDS):
                # Alternate who goes first: the database grows as orders are stored.
                order = ("bare", "instrumented") if round_ % 2 else ("instrumented", "bare")
                for name in order:
                    took = await per_request(apps[name], method, path, player["token"], bodies)
                    best[name] = min(best[name], took)
            cheapest = min(cheapest, best["bare"])
            print(
                f"| {label} | {level} | {best['bare'] * 1e6:,.0f} | "
                f"{best['instrumented'] * 1e6:,.0f} | {best['instrumented'] / best['bare']:.3f} |"
            )
        alone[level] = await middleware_alone(base)
    print()
    for level, cost in alone.items():
        share = cost / cheapest
        print(
            f"middleware alone, LOG_LEVEL={level}: {cost * 1e6:.1f} µs per request = "
            f"{share:.2%} of the bare app's cheapest request ({cheapest * 1e6:,.0f} µs)"
        )
    failed = alone["INFO"] / cheapest > TARGET
    print(
        f"{'FAIL' if failed else 'PASS'}: the request metrics and log line cost "
        f"{alone['INFO'] / cheapest:.2%} of a request (target <= {TARGET:.0%})"
    )
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main())
