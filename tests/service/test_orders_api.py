"""Orders over HTTP: submit, revise, withdraw, list, history; rejected orders change nothing."""

from __future__ import annotations

from httpx import AsyncClient

from tests.service.helpers import ok, problem, team_battle


async def test_submit_revise_withdraw_with_history(client: AsyncClient) -> None:
    game = await team_battle(client)
    order = await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    assert order["status"] == "pending"
    assert order["type"] == "deploy"
    assert order["side"] == "A"
    # A teammate revises the side's order (TB-1: any member may); every change records who.
    revised = ok(
        await game.put(
            f"/orders/{order['id']}", "a2", {"type": "deploy", "troops": [6, 6, 6, 6, 6]}
        )
    )
    assert revised["body"]["troops"] == [6, 6, 6, 6, 6]
    history = ok(await game.get(f"/orders/{order['id']}/history", "a1"))
    actions = [(h["action"], h["by_player_id"]) for h in history if h["action"] != "status"]
    assert actions == [("submit", game.players["a1"]["id"]), ("revise", game.players["a2"]["id"])]
    withdrawn = ok(await game.delete(f"/orders/{order['id']}", "a1"))
    assert withdrawn["status"] == "withdrawn"
    listed = ok(await game.get("/orders", "a2"))
    assert [o["status"] for o in listed] == ["withdrawn"]


async def test_players_see_only_their_sides_orders_and_cannot_touch_the_others(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    a_order = await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 7, 5, 6]})
    assert [o["side"] for o in ok(await game.get("/orders", "b1"))] == ["B"]
    assert [o["side"] for o in ok(await game.get("/orders", "a2"))] == ["A"]
    assert len(ok(await game.get("/orders", "director"))) == 2
    problem(await game.get("/orders"), 401, "unauthorized")
    # Side B cannot learn that A's order exists: the same 404 as for a made-up id.
    missing = problem(await game.delete(f"/orders/{a_order['id']}", "b1"), 404, "not_found")
    made_up = problem(await game.delete("/orders/doesnotexist", "b1"), 404, "not_found")
    assert missing == made_up
    problem(
        await game.put(f"/orders/{a_order['id']}", "b1", {"type": "deploy", "troops": [6] * 5}),
        404,
        "not_found",
    )
    problem(await game.get(f"/orders/{a_order['id']}/history", "b1"), 404, "not_found")


async def test_a_rejected_order_changes_nothing(client: AsyncClient) -> None:
    game = await team_battle(client)
    before_view = await game.view("director")
    before_events = await game.events("director")
    r = await game.post("/orders", "a1", {"type": "deploy", "troops": [10, 10, 10, 0, 0]})
    body = problem(r, 409, "bad_deployment")
    assert body["rule"] == "TB-10"
    assert body["detail"]  # Chinese first
    r = await game.post(
        "/orders",
        "a1",
        {"type": "deploy", "troops": [10, 10, 10, 0, 0]},
        headers={"Accept-Language": "en"},
    )
    assert problem(r, 409, "bad_deployment")["detail"].isascii()
    problem(await game.post("/orders", "a1", {"troops": [1]}), 422, "invalid_order")
    problem(await game.post("/orders", "a1", {"type": "retreat", "slot": 1}), 409, "wrong_phase")
    assert await game.view("director") == before_view
    assert await game.events("director") == before_events
    assert ok(await game.get("/orders", "director")) == []
    problem(
        await game.post("/orders", "director", {"type": "deploy", "troops": [6] * 5}),
        403,
        "forbidden",
    )


async def test_idempotency_key_returns_the_first_order_and_creates_nothing_new(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    headers = {"Idempotency-Key": "deploy-a-1"}
    body = {"type": "deploy", "troops": [4, 7, 8, 6, 5]}
    first = ok(await game.post("/orders", "a1", body, headers=headers), 201)
    again = ok(await game.post("/orders", "a1", body, headers=headers), 201)
    assert again == first
    assert len(ok(await game.get("/orders", "a1"))) == 1
    # The same key from another caller is that caller's own key.
    other = ok(
        await game.post("/orders", "b1", {"type": "deploy", "troops": [6] * 5}, headers=headers),
        201,
    )
    assert other["id"] != first["id"]
    # Reusing a key for a different request is an error, not a silent replay.
    problem(
        await game.post("/orders", "a1", {"type": "deploy", "troops": [6] * 5}, headers=headers),
        422,
        "idempotency_key_reused",
    )
