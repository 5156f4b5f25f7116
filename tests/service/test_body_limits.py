"""Request bodies are capped per route before they are read (issue 16 item 32).

A 100 MB JSON body to ``/orders/parse``, to ``/orders`` of a game that does not exist or to
``/forum/discourse`` was read and parsed whole, without a token. The tests count the bytes
the app pulled from the client: memory stays flat because the body is never read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from httpx import AsyncClient

from tests.service.helpers import ok, team_battle

HUNDRED_MB = 100 * 1024 * 1024
CHUNK = 64 * 1024


class Counted:
    """A 100 MB body produced on demand, counting what the server pulled."""

    def __init__(self) -> None:
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunk = b'{"text": "' + b"x" * (CHUNK - 10)
        while self.sent < HUNDRED_MB:
            self.sent += len(chunk)
            yield chunk


ROUTES = {
    "parse": "/api/v1/games/{id}/orders/parse",
    "orders of an unknown game": "/api/v1/games/NoSuchGame01/orders",
    "discourse": "/api/v1/games/{id}/forum/discourse",
}


def _problem_413(response_status: int, body: dict[str, object], limit_bytes: int) -> None:
    assert response_status == 413
    assert body["code"] == "body_too_large" and body["limit"] == limit_bytes
    assert str(body["detail"]).startswith("请求体过大"), body


@pytest.mark.parametrize("route", sorted(ROUTES))
async def test_a_100_mb_chunked_body_is_refused_unread(client: AsyncClient, route: str) -> None:
    game = await team_battle(client)
    body = Counted()
    response = await client.post(
        ROUTES[route].format(id=game.id),
        content=body,  # no Content-Length: sent chunked
        headers={"Content-Type": "application/json"},
    )
    assert response.headers["content-type"] == "application/problem+json"
    limit = response.json()["limit"]
    _problem_413(response.status_code, response.json(), limit)
    assert limit <= 1024 * 1024
    assert body.sent <= limit + CHUNK  # read up to the cap, then no more
    assert ok(await game.get("/orders", "a1")) == []  # and nothing changed


async def test_a_chunked_body_is_counted_even_beside_a_small_content_length(
    client: AsyncClient,
) -> None:
    """Transfer-Encoding overrides Content-Length: a small declared length does not let a
    chunked body past the count."""
    game = await team_battle(client)
    body = Counted()
    response = await client.post(
        ROUTES["parse"].format(id=game.id),
        content=body,
        headers={
            "Content-Type": "application/json",
            "Content-Length": "20",
            "Transfer-Encoding": "chunked",
        },
    )
    _problem_413(response.status_code, response.json(), response.json()["limit"])
    assert body.sent <= response.json()["limit"] + CHUNK


@pytest.mark.parametrize("route", sorted(ROUTES))
async def test_a_declared_100_mb_body_is_refused_before_any_byte_is_read(
    client: AsyncClient, route: str
) -> None:
    game = await team_battle(client)
    body = Counted()
    response = await client.post(
        ROUTES[route].format(id=game.id),
        content=body,
        headers={"Content-Type": "application/json", "Content-Length": str(HUNDRED_MB)},
    )
    _problem_413(response.status_code, response.json(), response.json()["limit"])
    assert body.sent == 0


async def test_the_refusal_speaks_english_when_asked(client: AsyncClient) -> None:
    game = await team_battle(client)
    response = await client.post(
        f"/api/v1/games/{game.id}/orders/parse",
        content=b"x" * (65 * 1024),
        headers={"Content-Type": "application/json", "Accept-Language": "en"},
    )
    assert response.status_code == 413
    assert response.json()["detail"].startswith("The request body is too large")


async def test_bodies_within_a_route_s_cap_still_work(client: AsyncClient) -> None:
    game = await team_battle(client)
    parsed = await game.post("/orders/parse", "a1", {"text": "部署 6 6 6 6 6"})
    assert parsed.status_code == 200, parsed.text
    scenario = "# 注释\n" * 40_000 + "settings: {}\n"  # ~400 KB: above the default cap
    created = await client.post(
        "/api/v1/games", json={"ruleset": "team_battle", "scenario": scenario}
    )
    assert created.status_code == 201, created.text
