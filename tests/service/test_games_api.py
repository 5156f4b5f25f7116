"""Creating games, adding players, tokens and errors over HTTP."""

from __future__ import annotations

import hashlib

from httpx import AsyncClient

from app.main import create_app
from app.settings import Settings
from tests.service.helpers import bearer, create_game, ok, problem, team_battle


async def test_create_game_returns_director_token_commitment_and_effective_settings(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle", {"troops": {"A": 40, "B": 30}})
    created = game.created
    assert created["director_token"].startswith("fpd_")
    assert len(created["seed_commitment"]) == 64
    # Every setting's effective value comes back, defaults included.
    assert created["settings"]["troops"] == {"A": 40, "B": 30}
    assert created["settings"]["slots"] == 5
    assert created["settings"]["dice"] == "random"
    summary = await game.summary()
    assert summary["status"] == "setup"
    assert summary["seed_commitment"] == created["seed_commitment"]
    assert summary["seed"] is None


async def test_unknown_ruleset_and_bad_settings_are_problems_in_chinese_then_english(
    client: AsyncClient,
) -> None:
    r = await client.post("/api/v1/games", json={"ruleset": "chess", "title": "x"})
    problem(r, 422, "unknown_ruleset")
    r = await client.post(
        "/api/v1/games",
        json={"ruleset": "team_battle", "title": "x", "settings": {"slotz": 5}},
    )
    body = problem(r, 422, "invalid_settings")
    assert "设置" in body["detail"]
    r = await client.post(
        "/api/v1/games",
        json={"ruleset": "team_battle", "title": "x", "settings": {"slotz": 5}},
        headers={"Accept-Language": "en-US,en;q=0.9,zh;q=0.5"},
    )
    assert problem(r, 422, "invalid_settings")["detail"].startswith("Invalid settings")
    r = await client.post("/api/v1/games", json={"title": "no ruleset"})
    problem(r, 422, "invalid_body")


async def test_admin_token_required_to_create_when_configured(
    settings: Settings, client: AsyncClient
) -> None:
    locked = Settings(**{**settings.model_dump(), "admin_token": "s3cret-admin"})
    app = create_app(locked, client.app.state.clock)  # type: ignore[attr-defined]
    app.state.engine = client.app.state.engine  # type: ignore[attr-defined]
    app.state.sessionmaker = client.app.state.sessionmaker  # type: ignore[attr-defined]
    from httpx import ASGITransport

    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://t") as http:
        body = {"ruleset": "team_battle", "title": "x"}
        problem(await http.post("/api/v1/games", json=body), 401, "admin_required")
        # A wrong admin token is no admin token: 401, as the contract says.
        problem(
            await http.post("/api/v1/games", json=body, headers=bearer("wrong")),
            401,
            "admin_required",
        )
        ok(await http.post("/api/v1/games", json=body, headers=bearer("s3cret-admin")), 201)


async def test_players_are_added_by_the_director_only_with_tokens_shown_once(
    client: AsyncClient,
) -> None:
    game = await create_game(client, "team_battle")
    problem(await game.post("/players", None, {"name": "x", "side": "A"}), 401, "unauthorized")
    a1 = await game.add_player("a1", "A")
    assert a1["token"].startswith("fpp_")
    problem(await game.post("/players", "a1", {"name": "y", "side": "B"}), 403, "forbidden")
    problem(await game.post("/players", "director", {"name": "a1", "side": "B"}), 409, "name_taken")
    problem(await game.post("/players", "director", {"name": "z", "side": "C"}), 422, "bad_side")
    summary = await game.summary()
    assert [p["name"] for p in summary["players"]] == ["a1"]
    assert "token" not in summary["players"][0]


async def test_tokens_are_stored_hashed_never_in_clear(client: AsyncClient, sessionmaker) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import select

    from app.models import Game, PlayerRow

    game = await create_game(client, "team_battle")
    player = await game.add_player("a1", "A")
    async with sessionmaker() as session:
        row = await session.get(Game, game.id)
        assert row.director_token_hash == hashlib.sha256(game.director.encode()).hexdigest()
        hashes = (await session.scalars(select(PlayerRow.token_hash))).all()
        assert player["token"] not in hashes
        assert hashlib.sha256(player["token"].encode()).hexdigest() in hashes


async def test_a_token_from_another_game_is_rejected(client: AsyncClient) -> None:
    one = await team_battle(client)
    other = await create_game(client, "team_battle")
    r = await client.get(f"{other.url}/view", headers=bearer(one.token("a1")))
    problem(r, 401, "unauthorized")
    r = await client.post(f"{other.url}/start", headers=bearer(one.director))
    problem(r, 401, "unauthorized")


async def test_start_needs_both_sides_and_happens_once(client: AsyncClient) -> None:
    game = await create_game(client, "team_battle")
    await game.add_player("a1", "A")
    r = await game.post("/start", "director")
    body = problem(r, 409, "side_empty")
    assert body["rule"] == "TB-1"
    await game.add_player("b1", "B")
    started = await game.start()
    assert started["status"] == "running"
    assert started["phase"] == "deployment"
    assert started["deadline"] is not None
    problem(await game.post("/start", "director"), 409, "already_started")
    problem(
        await game.post("/players", "director", {"name": "late", "side": "A"}), 409, "not_in_setup"
    )


async def test_unknown_game_and_unknown_route_are_problem_404(client: AsyncClient) -> None:
    problem(await client.get("/api/v1/games/nope"), 404, "not_found")
    problem(await client.get("/api/v1/nothing-here"), 404, "not_found")


async def test_idempotency_key_replays_the_first_game_creation(client: AsyncClient) -> None:
    # A key is scoped by the caller's token (anonymous callers may not send one): here,
    # the admin's.
    app = client.app  # type: ignore[attr-defined]
    app.state.settings = app.state.settings.model_copy(update={"admin_token": "s3cret-admin"})
    body = {"ruleset": "team_battle", "title": "once"}
    headers = {"Idempotency-Key": "create-1", **bearer("s3cret-admin")}
    first = ok(await client.post("/api/v1/games", json=body, headers=headers), 201)
    again = ok(await client.post("/api/v1/games", json=body, headers=headers), 201)
    assert again == first
    other = ok(await client.post("/api/v1/games", json=body, headers=bearer("s3cret-admin")), 201)
    assert other["id"] != first["id"]


async def test_health(client: AsyncClient) -> None:
    assert ok(await client.get("/healthz")) == {"ok": True}
