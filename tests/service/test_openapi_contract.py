"""The API's typed contract over HTTP: malformed game bodies are 422s that change nothing,
and the OpenAPI document shows every order's fields and every error as problem+json."""

from __future__ import annotations

import json
from typing import Any

import pytest
from httpx import AsyncClient

from app.clock import FakeClock
from app.rules.island.actions import HANDLERS
from app.rules.team_battle.order_types import ORDERS
from tests.service.helpers import Game, ok, problem, team_battle
from tests.service.island_helpers import island_game, local, quiet_overrides

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]


async def _snapshot(game: Game) -> tuple[Any, ...]:
    return (
        await game.view("director"),
        await game.events("director"),
        ok(await game.get("/orders", "director")),
        ok(await game.get("/audit", "director")),
    )


async def test_a_malformed_order_is_422_naming_its_fields_and_changes_nothing(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    before = await _snapshot(game)
    body = {"type": "dispatch", "moves": [{"from": "3", "to": 2}]}
    zh = problem(await game.post("/orders", "a1", body), 422, "invalid_order")
    assert zh["detail"].startswith("指令格式有误")
    assert "moves.0.from" in zh["detail"] and "moves.0.troops" in zh["detail"]
    assert zh["errors"] == [
        "moves.0.from: Input should be a valid integer",
        "moves.0.troops: Field required",
    ]
    en = problem(
        await game.post("/orders", "a1", body, headers={"Accept-Language": "en"}),
        422,
        "invalid_order",
    )
    assert en["detail"].startswith("Malformed order: moves.0.from")
    # A revision is checked the same way.
    deployed = await game.order("a1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    before = await _snapshot(game)
    revised = await game.put(f"/orders/{deployed['id']}", "a1", {"type": "deploy", "troops": 5})
    problem(revised, 422, "invalid_order")
    assert await _snapshot(game) == before


async def test_the_batched_and_the_idempotent_paths_check_orders_alike(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    body = {"type": "counter", "slot": True}
    batched = problem(await game.post("/orders", "a1", body), 422, "invalid_order")
    keyed = await game.post("/orders", "a1", body, headers={"Idempotency-Key": "k-1"})
    assert problem(keyed, 422, "invalid_order") == batched


async def test_an_order_of_another_ruleset_is_malformed_for_this_game(
    client: AsyncClient, clock: FakeClock
) -> None:
    """Each game checks bodies against its own ruleset: a well-formed island move is no
    Team Battle order, and a Team Battle deploy no island order."""
    tb = await team_battle(client)
    problem(
        await tb.post("/orders", "a1", {"type": "move", "direction": "up"}), 422, "invalid_order"
    )
    island = await island_game(client, clock, NAMES, quiet_overrides())
    deploy = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
    problem(await island.post("/orders", "ann", deploy), 422, "invalid_order")
    moved = await island.order("ann", {"type": "move", "direction": "right"})
    assert moved["status"] == "resolved"


@pytest.mark.parametrize("morale", ["NaN", "Infinity", "-Infinity", "1e308"])
async def test_set_morale_refuses_numbers_that_are_not_finite_and_bounded(
    client: AsyncClient, morale: str
) -> None:
    game = await team_battle(client)
    before = await _snapshot(game)
    raw = f'{{"action": "set_morale", "side": "A", "morale": {morale}}}'
    response = await client.post(
        f"{game.url}/director/actions",
        content=raw,
        headers={"Authorization": f"Bearer {game.director}", "Content-Type": "application/json"},
    )
    assert "morale" in problem(response, 422, "invalid_action")["detail"]
    assert await _snapshot(game) == before


async def test_island_director_bodies_are_bounded_and_closed(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await island_game(client, clock, NAMES, quiet_overrides())
    clock.set(local(1, 10))
    ann = next(p["id"] for p in (await game.summary())["players"] if p["name"] == "ann")
    before = await _snapshot(game)
    nested: dict[str, Any] = {}
    for _ in range(200):
        nested = {"x": nested}
    refused = [
        {"action": "announce", "text": "公告" * 10_001},
        {"action": "grant_item", "player": ann, "item": "spear", "note": nested},
        {"action": "resolve_story", "queue_id": "q1", "changes": [{"action": "cure", "who": 1}]},
        {"action": "adjust_power", "player": ann, "delta": 1e308},
    ]
    for body in refused:
        problem(await game.post("/director/actions", "director", body), 422, "invalid_action")
    problem(
        await game.post("/director/actions", "director", {"action": "no_such_tool"}),
        422,
        "unknown_action",
    )
    assert await _snapshot(game) == before
    done = ok(
        await game.post("/director/actions", "director", {"action": "announce", "text": "雨"})
    )
    assert done["ok"] is True


async def test_openapi_shows_every_order_and_action_of_every_ruleset(client: AsyncClient) -> None:
    document = ok(await client.get("/openapi.json"))
    schemas = document["components"]["schemas"]
    orders = document["paths"]["/api/v1/games/{game_id}/orders"]["post"]
    body = orders["requestBody"]["content"]["application/json"]["schema"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in body["anyOf"]} == {
        "TeamBattleOrder",
        "IslandOrder",
        "TextOrders",  # one order in words (issue 10)
    }
    for union, types in (("TeamBattleOrder", set(ORDERS)), ("IslandOrder", set(HANDLERS))):
        mapping = schemas[union]["discriminator"]["mapping"]
        assert set(mapping) == types
        for ref in mapping.values():
            order = schemas[ref.rsplit("/", 1)[1]]
            assert order["additionalProperties"] is False and order["description"]
    assert schemas["CounterOrder"]["properties"]["slot"]["minimum"] == 1
    actions = document["paths"]["/api/v1/games/{game_id}/director/actions"]["post"]
    action_body = actions["requestBody"]["content"]["application/json"]["schema"]
    assert len(action_body["anyOf"]) == 2
    assert "SetMoraleAction" in schemas and "ResolveStoryAction" in schemas


async def test_openapi_declares_every_error_as_problem_json(client: AsyncClient) -> None:
    document = ok(await client.get("/openapi.json"))
    assert "HTTPValidationError" not in document["components"]["schemas"]
    assert set(document["components"]["schemas"]["Problem"]["required"]) >= {
        "type",
        "title",
        "status",
        "detail",
        "code",
    }
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            success = [s for s in responses if s.startswith("2")]
            assert success, (method, path)
            for status in success:
                content = responses[status]["content"]
                if path.endswith("/stream"):  # server-sent events, not JSON
                    assert list(content) == ["text/event-stream"], (method, path)
                    continue
                schema = content["application/json"]["schema"]
                assert schema, (method, path, status)
            if path.startswith("/api/v1/games/{game_id}"):
                assert {"404", "422"} <= set(responses), (method, path)
            for status, response in responses.items():
                if status[0] in "45":
                    assert list(response["content"]) == ["application/problem+json"]
                    schema = response["content"]["application/problem+json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Problem"}
    assert json.dumps(document)  # serialisable as served
