"""``POST /orders`` answered by ``FastOrders`` (no FastAPI routing or dependencies) says
exactly what the route says, and whatever it is not sure of still reaches the route."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.api import deps
from app.api.orders import FastOrders
from app.clock import FakeClock
from app.main import create_app
from app.settings import Settings
from tests.service.helpers import Game, bearer, ok, problem, served, team_battle

GOOD = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
BAD = {"type": "deploy", "troops": [30, 0, 0, 0, 0]}  # TB-10: every slot needs a troop


@pytest_asyncio.fixture
async def plain(
    settings: Settings,
    clock: FakeClock,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncClient]:
    """The same service without ``FastOrders``: every order goes through the route."""
    app = create_app(settings, clock)
    app.user_middleware = [m for m in app.user_middleware if m.cls is not FastOrders]
    async with served(app, engine, sessionmaker) as http:
        yield http


_MADE = {"id", "player_id", "created_at", "updated_at", "receipt", "order_ids", "key", "owner"}


def _shape(response: Response, game: Game) -> tuple[int, str, Any]:
    """Status, content type and body, with what differs between two games (ids, times,
    receipts) blanked."""

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: "…" if k in _MADE else blank(v) for k, v in value.items()}
        if isinstance(value, list):
            return [blank(v) for v in value]
        if isinstance(value, str):
            return re.sub(re.escape(game.id), "GAME", value)
        return value

    body = blank(response.json()) if response.content else None
    return response.status_code, response.headers.get("content-type", ""), body


CASES: list[tuple[str, str | None, dict[str, str], Any]] = [
    ("accepted", "a1", {}, GOOD),
    ("accepted in English", "b1", {"Accept-Language": "en"}, GOOD),
    ("refused by the rules", "b1", {}, BAD),
    ("refused, in English", "b1", {"Accept-Language": "en"}, BAD),
    ("unknown token", "nobody", {}, GOOD),
    ("no token", None, {}, GOOD),
    ("not an object", "a1", {}, [1, 2]),
    ("no type", "a1", {}, {"troops": [6, 6, 6, 6, 6]}),
    ("in words", "a1", {}, {"text": "部署 6 6 6 6 6"}),
    ("with an idempotency key", "a1", {"Idempotency-Key": "k-1"}, GOOD),
    ("the director", "director", {}, GOOD),
]


@pytest.mark.parametrize(("case", "who", "headers", "body"), CASES, ids=[c[0] for c in CASES])
async def test_an_order_is_answered_as_the_route_answers_it(
    client: AsyncClient,
    plain: AsyncClient,
    case: str,
    who: str | None,
    headers: dict[str, str],
    body: Any,
) -> None:
    fast_game, plain_game = await team_battle(client), await team_battle(plain)
    answers = []
    for http, game in ((client, fast_game), (plain, plain_game)):
        token = "fp_not_a_token" if who == "nobody" else game.token(who)
        response = await http.post(
            f"{game.url}/orders", headers={**bearer(token), **headers}, json=body
        )
        answers.append(_shape(response, game))
    assert answers[0] == answers[1], case
    # and both games hold the same orders afterwards
    held = [_shape(await game.get("/orders", "director"), game) for game in (fast_game, plain_game)]
    assert held[0] == held[1]


async def test_the_same_for_a_game_that_is_not_there_and_an_id_never_made(
    client: AsyncClient, plain: AsyncClient
) -> None:
    game = await team_battle(client)
    for path in ("/api/v1/games/AAAAAAAAAAAA/orders", "/api/v1/games/no%00such/orders"):
        fast = await client.post(path, headers=bearer(game.token("a1")), json=GOOD)
        slow = await plain.post(path, headers=bearer(game.token("a1")), json=GOOD)
        assert fast.status_code == slow.status_code == 404
        assert fast.json() == slow.json()


async def test_a_json_order_with_a_token_never_reaches_the_routes_dependencies(
    client: AsyncClient,
) -> None:
    """The common case is the fast one (else the test above compares the route with
    itself); what it is not sure of goes on to the route, whose dependencies run."""
    game = await team_battle(client)

    async def refuse() -> None:
        raise AssertionError("the route's token dependency ran")

    client.app.dependency_overrides[deps.read_bearer_token] = refuse  # type: ignore[attr-defined]
    ok(await game.post("/orders", "a1", GOOD), 201)
    # An order in words takes the route: the overridden dependency answers 500 there.
    worded = await game.post("/orders", "a1", {"text": "部署 6 6 6 6 6"})
    problem(worded, 500, "internal_error")
    keyed = await game.post("/orders", "a1", GOOD, headers={"Idempotency-Key": "k-2"})
    problem(keyed, 500, "internal_error")


async def test_a_body_sent_in_pieces_is_read_whole(client: AsyncClient) -> None:
    game = await team_battle(client)

    async def pieces() -> AsyncIterator[bytes]:
        for part in (b'{"type": "deploy", ', b'"troops": [4, 7, 8, 6, 5]}'):
            yield part

    response = await client.post(
        f"{game.url}/orders",
        headers={**bearer(game.token("a1")), "Content-Type": "application/json"},
        content=pieces(),
    )
    assert ok(response, 201)["body"] == GOOD
