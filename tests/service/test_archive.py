"""A finished game's archive: served once the game is over, and checked offline by the
pure replay (no database, no server) — which names the first step that was tampered with."""

from __future__ import annotations

import copy
from typing import Any

from httpx import AsyncClient

from app.clock import FakeClock
from app.services.archive import verify_archive
from tests.service.helpers import Game, ok, problem, team_battle, tick
from tests.service.island_helpers import director, island_game, local, run_at


async def finished_team_battle(http: AsyncClient, clock: FakeClock) -> Game:
    """A team battle with a few orders, played to its end by deadlines."""
    game = await team_battle(http)
    await game.order("a1", {"type": "deploy", "troops": [10, 5, 5, 5, 5]})
    await game.order("b1", {"type": "deploy", "troops": [6, 6, 6, 6, 6]})
    await tick(http, clock, 3600)
    await game.order("a2", {"type": "dispatch", "moves": [{"from": 2, "to": 1, "troops": 2}]})
    for _ in range(400):
        if (await game.summary())["status"] == "finished":
            return game
        await tick(http, clock, 3600)
    raise AssertionError("the game did not finish")


async def test_the_archive_is_refused_until_the_game_is_finished(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await team_battle(client)
    problem(await game.get("/archive"), 409, "game_not_finished")
    problem(await client.get("/api/v1/games/nope/archive"), 404, "not_found")


async def test_a_finished_games_archive_verifies_offline(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await finished_team_battle(client, clock)
    archive = ok(await game.get("/archive"))
    summary = await game.summary()
    assert archive["seed"] == summary["seed"]
    assert [p["name"] for p in archive["players"]] == ["a1", "a2", "b1"]
    assert "token" not in str(archive["players"])
    # Orders are in the steps; only public events are in the archive.
    assert any(s["payload"].get("order", {}).get("type") == "dispatch" for s in archive["steps"])
    public = [(e["kind"], e["data"]) for e in await game.events()]
    archived = [(e["kind"], e["data"]) for e in archive["events"]]
    assert all(e in archived for e in public)
    everything = await game.events("director")
    assert len(archived) < len(everything)  # what stays private is not in the archive
    assert all("public" in e["audience"] or e["reveal_at"] == "end" for e in archive["events"])
    result = verify_archive(archive)
    assert result["ok"] is True, result
    assert result["first_bad_step"] is None
    assert result["steps"] == len(archive["steps"]) >= 6
    # The same verdict as the server's own replay.
    server = ok(await game.get("/verify"))
    assert server["ok"] is True and server["steps"] == result["steps"]


def _tampered(archive: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(archive)
    change(copied)
    return copied


async def test_tampering_with_one_step_is_named_by_its_number(
    client: AsyncClient, clock: FakeClock
) -> None:
    game = await finished_team_battle(client, clock)
    archive = ok(await game.get("/archive"))
    dispatch = next(
        s for s in archive["steps"] if s["payload"].get("order", {}).get("type") == "dispatch"
    )
    with_events = next(
        s["seq"]
        for s in archive["steps"][3:]
        if any(e["step"] == s["seq"] for e in archive["events"])
    )
    middle = archive["steps"][len(archive["steps"]) // 2]["seq"]

    def change_order(a: dict[str, Any]) -> None:
        step = next(s for s in a["steps"] if s["seq"] == dispatch["seq"])
        step["payload"]["order"]["moves"][0]["troops"] = 3

    def change_event(a: dict[str, Any]) -> None:
        event = next(e for e in a["events"] if e["step"] == with_events)
        event["data"] = {**event["data"], "tampered": True}

    def change_hash(a: dict[str, Any]) -> None:
        step = next(s for s in a["steps"] if s["seq"] == middle)
        step["state_hash"] = "0" * 64

    for change, seq in (
        (change_order, dispatch["seq"]),
        (change_event, with_events),
        (change_hash, middle),
    ):
        result = verify_archive(_tampered(archive, change))
        assert result["ok"] is False, change.__name__
        assert result["first_bad_step"] == seq, (change.__name__, result["mismatches"])


async def test_an_island_game_with_private_results_verifies_from_its_archive(
    client: AsyncClient, clock: FakeClock
) -> None:
    """The island's real-time orders answer with private results (hidden from the public
    and not in the archive), a 24:00 passes, then the director ends the game."""
    game = await island_game(client, clock, ["ann", "bob", "cat", "dan", "eve", "fay"])
    await game.order("ann", {"type": "move", "direction": "right"})
    await game.order("bob", {"type": "explore"})
    await run_at(client, clock, local(2, 0, 1))
    await director(game, "end_game")
    archive = ok(await game.get("/archive"))
    everything = await game.events("director")
    assert any("public" not in e["audience"] for e in everything)
    assert len(archive["events"]) < len(everything)
    result = verify_archive(archive)
    assert result["ok"] is True, result["mismatches"]
    assert result["steps"] == len(archive["steps"]) >= 5

    step = next(s for s in archive["steps"] if s["kind"] == "timer")
    result = verify_archive(
        _tampered(archive, lambda a: a["steps"][step["seq"] - 1].update(state_hash="0" * 64))
    )
    assert result["first_bad_step"] == step["seq"]
