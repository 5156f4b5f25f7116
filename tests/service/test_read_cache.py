"""Views and event pages are answered from a per-process cache (app/services/read_cache.py):
each audience gets its own answer, nothing is served after the game moved on, and ETags let
a client that already has the answer get 304."""

from __future__ import annotations

from typing import Any

from httpx import AsyncClient, Response

from app.clock import FakeClock
from app.services import read_cache
from tests.service.helpers import Game, bearer, ok, problem, team_battle, tick

AUDIENCES = ("b1", "a1", "a2", None, "director")


async def if_none_match(game: Game, path: str, who: str | None, etag: str) -> Response:
    headers = {**bearer(game.token(who)), "If-None-Match": etag}
    return await game.http.get(f"{game.url}{path}", headers=headers)


def own_side_details(view: dict[str, Any]) -> set[str]:
    """The sides whose private details (readiness, order uses…) the view shows."""
    return {side for side, seen in view["sides"].items() if "ready" in seen}


async def views(game: Game, order: tuple[str | None, ...]) -> dict[str | None, Any]:
    """Each audience's view, asked twice in a row (the second answer comes from the cache)."""
    seen: dict[str | None, Any] = {}
    for who in order:
        first = (await game.get("/view", who)).content
        again = (await game.get("/view", who)).content
        assert first == again
        seen[who] = ok(await game.get("/view", who))
    return seen


async def test_a_player_never_gets_another_sides_cached_view(client: AsyncClient) -> None:
    game = await team_battle(client)
    await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})

    read_cache.CACHE.clear()
    forward = await views(game, AUDIENCES)  # side B's view is cached before anyone else's
    read_cache.CACHE.clear()
    backward = await views(game, tuple(reversed(AUDIENCES)))  # the director's first
    assert forward == backward

    assert own_side_details(forward["b1"]) == {"B"}
    assert own_side_details(forward["a1"]) == {"A"}
    assert own_side_details(forward["a2"]) == {"A"}
    assert own_side_details(forward[None]) == set()
    assert own_side_details(forward["director"]) == {"A", "B"}
    for name in ("a1", "a2", "b1"):
        assert forward[name]["you"] == {
            "role": "player",
            "id": game.players[name]["id"],
            "name": name,
            "side": game.players[name]["side"],
        }
    assert forward[None]["you"] == {"role": "public"}
    assert forward["director"]["you"] == {"role": "director"}


async def test_events_are_cached_per_audience_and_page(client: AsyncClient) -> None:
    game = await team_battle(client)
    await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await game.ready("a1")
    await game.ready("b1")  # both ready: the deployment closes early, deployments revealed

    read_cache.CACHE.clear()
    seen = {who: await game.events(who) for who in AUDIENCES}
    read_cache.CACHE.clear()
    for who in reversed(AUDIENCES):
        assert await game.events(who) == seen[who]
        assert await game.events(who, after=1) == seen[who][1:]
    assert all("audience" in e for e in seen["director"])
    assert not any("audience" in e for who in ("a1", "b1", None) for e in seen[who])
    # Each caller's numbering is dense (no gap tells how many hidden events exist).
    for who in ("a1", "b1", None):
        assert [e["seq"] for e in seen[who]] == list(range(1, len(seen[who]) + 1))


async def test_etag_answers_304_until_the_game_changes(client: AsyncClient) -> None:
    game = await team_battle(client)
    first = await game.get("/view", "a1")
    etag = first.headers["etag"]
    again = await if_none_match(game, "/view", "a1", etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag

    await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await game.ready("a1")
    changed = await if_none_match(game, "/view", "a1", etag)
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    assert changed.json()["sides"]["A"]["ready"] is True

    events = await game.get("/events", "a1")
    tag = events.headers["etag"]
    assert (await if_none_match(game, "/events", "a1", tag)).status_code == 304
    # Another audience's tag is not this audience's answer.
    other = await if_none_match(game, "/events", "director", tag)
    assert other.status_code == 200


async def test_the_etag_tells_nothing_of_the_other_sides_secret_moves(
    client: AsyncClient,
) -> None:
    game = await team_battle(client)
    etags = {who: (await game.get("/events", who)).headers["etag"] for who in ("b1", None)}
    await game.order("a1", {"type": "deploy", "troops": [4, 7, 8, 6, 5]})
    await game.order("a2", {"type": "deploy", "troops": [5, 7, 8, 5, 5]})
    for who, etag in etags.items():
        r = await if_none_match(game, "/events", who, etag)
        assert r.status_code == 304, (who, r.text)


async def test_pause_timers_and_deadlines_show_at_once(
    client: AsyncClient, clock: FakeClock
) -> None:
    """Changes that are no step (pause, resume, an extended deadline) and timer runs."""
    game = await team_battle(client)
    before = await game.view("a1")
    ok(await game.post("/pause", "director"))
    paused = await game.view("a1")
    assert paused["status"] == "paused"
    assert paused["deadline"] is None
    assert paused["deadline_remaining_seconds"] == 3600
    ok(await game.post("/resume", "director"))
    assert (await game.view("a1"))["deadline"] == before["deadline"]
    ok(await game.post("/deadline", "director", {"seconds": 600}))
    extended = await game.view("a1")
    assert extended["deadline"] != before["deadline"]
    assert await tick(client, clock, 3600 + 601) == 1
    assert (await game.view("a1"))["phase"] != before["phase"]


async def test_bad_reads_are_problems_and_cache_nothing(client: AsyncClient) -> None:
    game = await team_battle(client)
    problem(await client.get("/api/v1/games/nosuchgame/view"), 404, "not_found")
    wrong = {"Authorization": "Bearer fpp_not-a-token"}
    problem(await client.get(f"{game.url}/view", headers=wrong), 401, "unauthorized")
    problem(await client.get(f"{game.url}/events", headers=wrong), 401, "unauthorized")
    problem(await game.get("/events", "a1", params={"after": -1}), 422, "invalid_body")


def test_the_cache_keeps_to_its_budget_dropping_the_least_recently_used() -> None:
    cache = read_cache.ReadCache(size=10, max_bytes=27)
    version = (1, 1, 0, "running")
    for name in ("a", "b", "c"):
        cache.put((name,), read_cache.answer(version, {"k": name}))  # 9 bytes each
    assert cache.get(("a",), version) is not None  # "a" is now the most recently used
    cache.put(("d",), read_cache.answer(version, {"k": "d"}))
    assert [k for k in "abcd" if cache.get((k,), version)] == ["a", "c", "d"]
    assert cache.bytes == 27
    cache.size = 2
    cache.put(("e",), read_cache.answer(version, {"k": "e"}))
    assert len(cache) == 2
    assert cache.get(("c",), (2, 1, 0, "running")) is None  # another version: not this answer
