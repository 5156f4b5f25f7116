"""Personal API tokens (issue 21): one token acts in all its account's games within its
scopes (read / play / direct), is shown once, stored hashed, and revocable; and the authz
matrix: on every game route, an account token does no more than its seats and scopes allow."""

from __future__ import annotations

import re
from typing import Any

from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.models import AccountToken
from app.services.auth import hash_token
from tests.service.helpers import Game, bearer, ok, problem, team_battle
from tests.service.passkey_helpers import AccountBrowser, SoftPasskey
from tests.service.test_web_sessions import invite
from tests.service.web_helpers import Browser, browse, join, post_form

DEPLOY = {"type": "deploy", "troops": [6, 6, 6, 6, 6]}


async def _account(browser: Browser, seats: list[tuple[Game, str]]) -> AccountBrowser:
    """An account holding these seats (a player's name, or "director")."""
    person = AccountBrowser(browser())
    for game, who in seats:
        if who == "director":
            await browse(person.http, f"/director/{game.id}")
            await post_form(person.http, f"/director/{game.id}/login", {"token": game.director})
        else:
            await join(person.http, await invite(game, who))
    ok(await person.register("Ann", SoftPasskey()), 201)
    return person


async def _token(person: AccountBrowser, *scopes: str) -> str:
    made = ok(await person.post("/me/tokens", {"name": "my bot", "scopes": list(scopes)}), 201)
    assert re.fullmatch(r"fpa_[A-Za-z0-9_-]{40,}", made["token"])
    return str(made["token"])


async def test_one_token_plays_in_all_the_accounts_games(
    client: AsyncClient, browser: Browser, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    first, second, elsewhere = [await team_battle(client) for _ in range(3)]
    person = await _account(browser, [(first, "a1"), (second, "b1")])
    token = await _token(person, "read", "play")
    for game in (first, second):
        placed = await client.post(f"{game.url}/orders", json=DEPLOY, headers=bearer(token))
        assert ok(placed, 201)["type"] == "deploy"
    assert ok(await client.get(f"{first.url}/view", headers=bearer(token)))["phase"]
    mine = ok(await client.get("/api/v1/me/games", headers=bearer(token)))
    assert {g["game_id"] for g in mine} == {first.id, second.id}
    # Not in a game it holds no seat in; not the director's powers with "play".
    problem(await client.get(f"{elsewhere.url}/orders", headers=bearer(token)), 401, "unauthorized")
    problem(await client.post(f"{first.url}/pause", headers=bearer(token)), 403, "forbidden")
    # A token acts in games; it does not manage the account (no new tokens, no deletion).
    problem(
        await client.post(
            "/api/v1/me/tokens", json={"name": "x", "scopes": ["play"]}, headers=bearer(token)
        ),
        401,
        "not_signed_in",
    )
    problem(await client.delete("/api/v1/me", headers=bearer(token)), 401, "not_signed_in")
    problem(await client.get("/api/v1/me", headers=bearer(token)), 401, "not_signed_in")
    # Stored hashed only.
    async with sessionmaker() as session:
        rows = (await session.scalars(select(AccountToken))).all()
    assert [r.token_hash for r in rows] == [hash_token(token)]


async def test_scopes_read_play_direct(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    person = await _account(browser, [(game, "a1")])
    reader = await _token(person, "read")
    assert ok(await client.get(f"{game.url}/orders", headers=bearer(reader))) == []
    problem(
        await client.post(f"{game.url}/orders", json=DEPLOY, headers=bearer(reader)),
        403,
        "token_scope",
    )
    problem(await client.post(f"{game.url}/ready", headers=bearer(reader)), 403, "token_scope")
    problem(
        await person.post("/me/tokens", {"name": "x", "scopes": ["admin"]}), 422, "invalid_body"
    )

    directing = await team_battle(client)
    director = await _account(browser, [(directing, "director")])
    direct = await _token(director, "direct")
    paused = ok(await client.post(f"{directing.url}/pause", headers=bearer(direct)))
    assert paused["status"] == "paused"


async def test_a_revoked_token_stops_at_once(client: AsyncClient, browser: Browser) -> None:
    game = await team_battle(client)
    person = await _account(browser, [(game, "a1")])
    token = await _token(person, "play")
    listed = ok(await person.http.get("/api/v1/me"))["tokens"]
    assert [t["name"] for t in listed] == ["my bot"] and "token" not in listed[0]
    headers = {"x-csrf-token": await person.csrf()}
    gone = await person.http.delete(f"/api/v1/me/tokens/{listed[0]['id']}", headers=headers)
    assert ok(gone) == {"done": True}
    problem(await client.get(f"{game.url}/view", headers=bearer(token)), 401, "unauthorized")


def _game_routes(client: AsyncClient) -> list[tuple[str, str]]:
    """Every documented route of one game (the OpenAPI document lists them all)."""
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    return [
        (method.upper(), path)
        for path, operations in paths.items()
        if path.startswith("/api/v1/games/{game_id}") and not path.endswith("/stream")
        for method in operations
    ]


async def _call(client: AsyncClient, method: str, path: str, game: Game, token: str | None) -> int:
    url = re.sub(r"\{(\w+)\}", lambda m: game.id if m[1] == "game_id" else "x" * 12, path)
    body: Any = {} if method in ("POST", "PUT", "PATCH") else None
    response = await client.request(method, url, json=body, headers=bearer(token))
    assert response.status_code < 500, (method, path, response.text)
    return response.status_code


async def test_authz_matrix_account_tokens_on_every_game_route(
    client: AsyncClient, browser: Browser
) -> None:
    """On every game route: a token whose account holds no seat in the game gets no more
    than an anonymous caller; a read-only token changes nothing anywhere; a play token never
    does what only the director may."""
    game = await team_battle(client)
    seated = await _account(browser, [(game, "director"), (game, "a1")])
    reader = await _token(seated, "read")
    player = await _token(seated, "play")
    stranger = await _account(browser, [(await team_battle(client), "a1")])
    outsider = await _token(stranger, "read", "play", "direct")
    routes = _game_routes(client)
    assert len(routes) > 30
    for method, path in routes:
        anonymous = await _call(client, method, path, game, None)
        alien = await _call(client, method, path, game, outsider)
        assert alien == anonymous or alien in (401, 403, 404), (method, path, alien, anonymous)
        if method == "GET":
            continue
        read_only = await _call(client, method, path, game, reader)
        assert read_only == anonymous or read_only in (401, 403, 404), (method, path, read_only)
        director_only = await _call(client, method, path, game, game.director)
        playing = await _call(client, method, path, game, player)
        if director_only < 300 and "/orders" not in path and "/ready" not in path:
            assert playing >= 400 or playing == anonymous, (method, path, playing)
