"""Sign-ups (issue 20): a director opens sign-ups, the game fills itself, the waitlist
takes the rest, the start assigns sides, a player who drops is replaced by a backup."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from httpx import ASGITransport, AsyncClient

from app.clock import FakeClock
from tests.service.helpers import TB_SETTINGS, Game, bearer, create_game, ok, problem, tick


async def _open(game: Game, **settings: Any) -> dict[str, Any]:
    return ok(await game.put("/signup", "director", {"open": True, **settings}))  # type: ignore[no-any-return]


async def _sign(game: Game, name: str, status: int = 201, **body: Any) -> dict[str, Any]:
    response = await game.http.post(f"{game.url}/signups", json={"name": name, **body})
    if status != 201:
        assert response.status_code == status, response.text
        return response.json()  # type: ignore[no-any-return]
    made: dict[str, Any] = ok(response, 201)
    game.players[name] = made
    return made


async def test_sign_ups_fill_the_seats_then_the_waitlist_and_the_token_plays_the_seat(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=2)
    first = await _sign(game, "甲", forum_name="forum_jia", side="A")
    second = await _sign(game, "乙")
    third = await _sign(game, "丙")
    assert [first["status"], second["status"], third["status"]] == ["player", "player", "waitlist"]
    listing = ok(await game.get("/signup"))
    assert [p["name"] for p in listing["players"]] == ["甲", "乙"]
    assert listing["players"][0]["forum_name"] == "forum_jia"
    assert [w["name"] for w in listing["waitlist"]] == ["丙"]
    assert listing["open"] is True and listing["needed"] == 0 and listing["max_players"] == 2
    # The token shown once is the seat's player token.
    me = ok(await game.get("/view", "甲"))
    assert me["you"]["role"] == "player" and me["you"]["name"] == "甲"
    # A waitlisted token is no player token, but reads its own sign-up.
    problem(await game.get("/view", "丙"), 401, "unauthorized")
    mine = ok(await game.get(f"/signups/{third['id']}", "丙"))
    assert mine["status"] == "waitlist" and mine["waitlist_place"] == 1
    # Nobody else reads it.
    problem(await game.get(f"/signups/{third['id']}", "乙"), 403, "forbidden")


async def test_withdrawing_before_the_start_moves_the_waitlist_up(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=2)
    a = await _sign(game, "甲")
    await _sign(game, "乙")
    c = await _sign(game, "丙")
    assert ok(await game.get("/view", "甲"))["you"]["name"] == "甲"  # remembered from here on
    gone = ok(await game.delete(f"/signups/{a['id']}", "甲"))
    assert gone["status"] == "withdrawn"
    names = [p["name"] for p in gone["list"]["players"]]
    assert names == ["乙", "丙"] and gone["list"]["waitlist"] == []
    # The promoted one's sign-up token now plays the seat.
    assert ok(await game.get("/view", "丙"))["you"]["name"] == "丙"
    problem(await game.get("/view", "甲"), 401, "unauthorized")
    # Withdrawn twice: refused, nothing changes.
    problem(await game.delete(f"/signups/{a['id']}", "director"), 409, "not_signed_up")
    assert c["status"] == "waitlist"


async def test_approval_by_the_director(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, approval="director")
    a = await _sign(game, "甲")
    b = await _sign(game, "乙")
    assert a["status"] == b["status"] == "pending"
    listing = ok(await game.get("/signup"))
    assert listing["players"] == [] and [p["name"] for p in listing["pending"]] == ["甲", "乙"]
    problem(await game.post(f"/signups/{a['id']}/approve", "甲"), 401, "unauthorized")
    assert ok(await game.post(f"/signups/{a['id']}/approve", "director"))["status"] == "player"
    assert ok(await game.post(f"/signups/{b['id']}/reject", "director"))["status"] == "rejected"
    listing = ok(await game.get("/signup"))
    assert [p["name"] for p in listing["players"]] == ["甲"] and listing["pending"] == []
    problem(await game.post(f"/signups/{b['id']}/approve", "director"), 409, "not_pending")


async def test_sign_ups_close_by_themselves_at_their_time(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    closes = (clock.now() + timedelta(hours=2)).isoformat()
    listing = await _open(game, closes_at=closes)
    assert listing["open"] is True and listing["closes_at"] is not None
    await _sign(game, "甲")
    await tick(client, clock, 2 * 3600 + 1)
    listing = ok(await game.get("/signup"))
    assert listing["open"] is False and [p["name"] for p in listing["players"]] == ["甲"]
    body = await _sign(game, "乙", status=409)
    assert body["code"] == "signups_closed"
    audit = ok(await game.get("/audit", "director"))
    assert any(a["action"] == "signup_closed" for a in audit)


async def test_names_are_checked_and_look_alikes_refused(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    problem(await game.http.post(f"{game.url}/signups", json={"name": "x"}), 409, "signups_closed")
    await _open(game)
    await _sign(game, "Alice", forum_name="alice_f")
    for twin in ("alice", "Ａｌｉｃｅ", "Аlice", "A l i c e", "Alicé"):
        body = await _sign(game, twin, status=409)
        assert body["code"] == "name_taken", twin
    body = await _sign(game, "Bob", status=409, forum_name="ALICE_F")
    assert body["code"] == "forum_name_taken"
    body = await _sign(game, "bad\u200bname", status=422)
    assert body["status"] == 422
    body = await _sign(game, "Carol", status=422, side="Z")
    assert body["code"] == "bad_side"
    listing = ok(await game.get("/signup"))
    assert [p["name"] for p in listing["players"]] == ["Alice"]


async def test_sign_ups_are_rate_limited_per_address(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game)
    for n in range(10):
        await _sign(game, f"p{n}x")
    body = await _sign(game, "one_more", status=429)
    assert body["code"] == "too_many_signups"
    assert len(ok(await game.get("/signup"))["players"]) == 10


async def test_a_cap_on_waiting_sign_ups(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=2, max_waitlist=1)
    for name in ("甲", "乙", "丙"):
        await _sign(game, name)
    body = await _sign(game, "丁", status=409)
    assert body["code"] == "waitlist_full"
    await _open(game, max_players=2, waitlist=False)
    body = await _sign(game, "戊", status=409)
    assert body["code"] == "signups_full"


async def test_no_seat_past_the_cap_under_fifty_concurrent_sign_ups(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=10, max_waitlist=15)
    app = client.app  # type: ignore[attr-defined]
    clients = [
        AsyncClient(
            transport=ASGITransport(app=app, client=(f"10.0.0.{n + 1}", 1000)),
            base_url="http://test",
        )
        for n in range(50)
    ]
    try:
        answers = await asyncio.gather(
            *(
                c.post(f"{game.url}/signups", json={"name": f"racer{n:02d}q"})
                for n, c in enumerate(clients)
            )
        )
    finally:
        for c in clients:
            await c.aclose()
    statuses = [a.json().get("code") or a.json()["status"] for a in answers]
    assert statuses.count("player") == 10, statuses
    assert statuses.count("waitlist") == 15
    assert statuses.count("waitlist_full") == 25
    listing = ok(await game.get("/signup"))
    assert len(listing["players"]) == 10 and len(listing["waitlist"]) == 15
    summary = await game.summary()
    assert len(summary["players"]) == 10


async def test_start_balances_sides_from_the_wishes_and_keeps_the_directors(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game)
    made = [await _sign(game, n, side="A") for n in ("甲", "乙", "丙", "丁")]
    fixed = ok(
        await game.http.patch(
            f"{game.url}/signups/{made[3]['id']}", headers=bearer(game.director), json={"side": "A"}
        )
    )
    assert fixed["side"] == "A"
    started = await game.start()
    sides = {p["name"]: p["side"] for p in started["players"]}
    # Two a side; the director's choice kept, then the earliest wish; the latest moved.
    assert sides == {"甲": "A", "乙": "B", "丙": "B", "丁": "A"}
    assert ok(await game.get("/view", "乙"))["you"]["side"] == "B"
    problem(
        await game.http.post(f"{game.url}/signups", json={"name": "晚到"}), 409, "signups_closed"
    )


async def test_sides_drawn_from_the_seed_are_balanced(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, side_assignment="seed")
    for n in ("甲", "乙", "丙", "丁", "戊"):
        await _sign(game, n, side="A")
    started = await game.start()
    sides = [p["side"] for p in started["players"]]
    assert sorted(sides) == ["A", "A", "A", "B", "B"]


async def test_starting_short_of_players_says_how_many_are_missing(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, min_players=4)
    await _sign(game, "甲")
    await _sign(game, "乙")
    body = problem(await game.post("/start", "director"), 409, "not_enough_players")
    assert body["missing"] == 2 and "还差 2 人" in body["detail"]
    assert (await game.summary())["status"] == "setup"
    # Without sign-ups the rules' own refusal speaks, with the count too.
    plain = await create_game(client, "team_battle", TB_SETTINGS)
    await plain.add_player("a1", "A")
    body = problem(await plain.post("/start", "director"), 409, "side_empty")
    assert body["missing"] == 1


async def _started_with_backup(client: AsyncClient) -> tuple[Game, dict[str, Any]]:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=2)
    await _sign(game, "甲", side="A")
    await _sign(game, "乙", side="B")
    backup = await _sign(game, "丙", forum_name="bing")
    assert backup["status"] == "waitlist"
    await game.start()
    return game, backup


async def test_a_player_who_drops_is_replaced_by_the_first_backup_who_accepts(
    client: AsyncClient,
) -> None:
    game, backup = await _started_with_backup(client)
    seat = game.players["甲"]
    order = await game.order("甲", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    dropped = ok(await game.delete(f"/signups/{seat['id']}", "甲"))
    assert dropped["offered_to"] == "丙"
    problem(await game.get("/view", "甲"), 401, "unauthorized")  # the old token stops
    mine = ok(await game.get(f"/signups/{backup['id']}", "丙"))
    assert mine["status"] == "offered"
    taken = ok(await game.post(f"/signups/{backup['id']}/accept", "丙"))
    assert taken["status"] == "player" and taken["seat"] == "甲"
    # The backup's own token now plays the seat: its id, side and hidden orders.
    you = ok(await game.get("/view", "丙"))["you"]
    assert you["id"] == seat["player_id"] and you["side"] == "A"
    orders = ok(await game.get("/orders", "丙"))
    assert [o["id"] for o in orders] == [order["id"]]
    # The thread was told, twice.
    posts = ok(await game.get("/posts", "director"))
    notices = [p for p in posts if p["kind"] == "signup_list"]
    assert len(notices) == 2 and "丙" in notices[1]["bodies"]["text"]
    problem(await game.post(f"/signups/{backup['id']}/accept", "丙"), 409, "no_offer")


async def test_the_director_removes_a_player_and_a_declined_offer_passes_on(
    client: AsyncClient,
) -> None:
    game, backup = await _started_with_backup(client)
    second = await create_game(client, "team_battle", TB_SETTINGS)  # another game: no effect
    seat = game.players["乙"]
    problem(await game.post(f"/players/{seat['player_id']}/drop", "乙"), 403, "forbidden")
    dropped = ok(await game.post(f"/players/{seat['player_id']}/drop", "director"))
    assert dropped["offered_to"] == "丙"
    problem(await game.get("/view", "乙"), 401, "unauthorized")
    declined = ok(await game.post(f"/signups/{backup['id']}/decline", "丙"))
    assert declined["status"] == "withdrawn" and declined["offered_to"] is None
    assert (await second.summary())["status"] == "setup"


async def test_co_directors_act_under_their_name_within_their_scope(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    helper = ok(await game.post("/directors", "director", {"name": "小助手", "scope": "all"}), 201)
    reviewer = ok(
        await game.post("/directors", "director", {"name": "审稿人", "scope": "review"}), 201
    )
    assert helper["token"].startswith("fpc_") and reviewer["scope"] == "review"
    # A co-director may not invite co-directors.
    problem(
        await client.post(
            f"{game.url}/directors", headers=bearer(helper["token"]), json={"name": "x"}
        ),
        403,
        "forbidden",
    )
    # Review only: opening sign-ups is refused.
    refused = await client.put(
        f"{game.url}/signup", headers=bearer(reviewer["token"]), json={"open": True}
    )
    problem(refused, 403, "forbidden")
    # Everything: opening sign-ups works and is audited under the co-director's name.
    opened = await client.put(
        f"{game.url}/signup", headers=bearer(helper["token"]), json={"open": True}
    )
    ok(opened)
    audit = ok(await game.get("/audit", "director"))
    entry = next(a for a in audit if a["action"] == "signup_settings")
    assert entry["actor"] == "co_director" and entry["payload"]["by"] == "小助手"
    # Reads work for the reviewer; a revoked token stops at once.
    ok(await client.get(f"{game.url}/posts", headers=bearer(reviewer["token"])))
    ok(await game.delete(f"/directors/{helper['id']}", "director"))
    again = await client.put(
        f"{game.url}/signup", headers=bearer(helper["token"]), json={"open": False}
    )
    problem(again, 401, "unauthorized")
    listed = ok(await game.get("/directors", "director"))
    revoked = {d["name"]: d["revoked_at"] is not None for d in listed}
    assert revoked == {"小助手": True, "审稿人": False}


async def test_an_island_fills_by_sign_ups_and_starts_where_the_scenario_says(
    client: AsyncClient,
) -> None:
    from tests.service.island_helpers import example_text, quiet_overrides

    settings = {**quiet_overrides(), "start_placement": "random"}
    game = await create_game(client, "island", settings, scenario=example_text())
    listing = await _open(game)
    assert listing["max_players"] == 6 and listing["sides"] == []  # the scenario's most
    body = await _sign(game, "甲", status=422, side="A")
    assert body["code"] == "bad_side"
    for name in ("甲", "乙", "丙", "丁", "戊", "己"):
        await _sign(game, name)
    waiting = await _sign(game, "庚")
    assert waiting["status"] == "waitlist"
    started = await game.start()
    assert started["status"] == "running" and len(started["players"]) == 6
    names = ("甲", "乙", "丙", "丁", "戊", "己")
    cells = [tuple((await game.view(name))["position"]) for name in names]
    assert len(set(cells)) == 6  # each drawn from the seed onto a cell of their own


async def test_a_retried_sign_up_answers_the_first_and_signs_up_once(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game)
    headers = {"Idempotency-Key": "phone-retry-1"}
    first = ok(await client.post(f"{game.url}/signups", json={"name": "甲"}, headers=headers), 201)
    again = ok(await client.post(f"{game.url}/signups", json={"name": "甲"}, headers=headers), 201)
    assert again == first
    assert len(ok(await game.get("/signup"))["players"]) == 1


async def test_an_offer_not_taken_in_time_passes_to_the_next_backup(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await create_game(client, "team_battle", TB_SETTINGS)
    await _open(game, max_players=2, offer_seconds=3600)
    await _sign(game, "甲", side="A")
    await _sign(game, "乙", side="B")
    first = await _sign(game, "丙")
    second = await _sign(game, "丁")
    await game.start()
    seat = game.players["甲"]
    ok(await game.post(f"/players/{seat['player_id']}/drop", "director"))
    assert ok(await game.get(f"/signups/{first['id']}", "丙"))["status"] == "offered"
    await tick(client, clock, 3601)
    assert ok(await game.get(f"/signups/{first['id']}", "丙"))["status"] == "withdrawn"
    assert ok(await game.get(f"/signups/{second['id']}", "丁"))["status"] == "offered"
    problem(await game.post(f"/signups/{first['id']}/accept", "丙"), 409, "no_offer")
    taken = ok(await game.post(f"/signups/{second['id']}/accept", "丁"))
    assert taken["seat"] == "甲"
    await tick(client, clock, 3601)  # the second offer's timer finds it taken: nothing moves
    assert ok(await game.get("/view", "丁"))["you"]["id"] == seat["player_id"]
    texts = [p["bodies"]["text"] for p in ok(await game.get("/posts", "director"))]
    assert any("丙 没有及时接受" in t for t in texts)
